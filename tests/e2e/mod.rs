//! End-to-end tests: the real Claude Code client against a Messages API mock on loopback.
