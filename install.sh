#!/usr/bin/env bash
# Builds baton, then `baton install --copy` installs the binary to $BATON_PREFIX/bin (default
# ~/.local/bin) and wires the statusline, hooks and slash commands into Claude Code.
# Flags go to `baton install`: --project DIR, --dry-run, --force, --yes, --no-statusline.
# With --dry-run or --help nothing is installed: the built binary's `install` only reports.
#   ./install.sh                  # wire ~/.claude/settings.json
#   ./install.sh --project .      # wire this project's .claude/settings.json
# BATON_BUILD_PROFILE=dev builds the (faster to compile) dev profile instead of release;
# BATON_BINARY=path installs a binary built elsewhere, without building.
set -euo pipefail
cd "$(dirname "$0")"

profile="${BATON_BUILD_PROFILE:-release}"
target="${CARGO_TARGET_DIR:-target}"
# Release builds go through scripts/build-release.sh: statically linked where that is
# faster to start (Linux/glibc), the same binary the benchmarks measure.

if [ -n "${BATON_BINARY:-}" ]; then
    built="$BATON_BINARY"
elif ! command -v cargo >/dev/null 2>&1; then
    echo "install.sh: cargo is not installed. Install Rust 1.89 or newer (https://rustup.rs), then run ./install.sh again." >&2
    exit 1
else
    # cargo's own progress goes to stderr, so the build is never silent.
    echo "Building baton ($profile profile; a first build takes a minute or two)…" >&2
    if [ "$profile" = dev ]; then
        cargo build --locked
        built="$target/debug/baton"
    else
        built="$(scripts/build-release.sh)"
    fi
fi

# `baton install --copy` puts the binary at $BATON_PREFIX/bin/baton (default ~/.local/bin/baton)
# by renaming a complete copy over the old one (a statusline running right now never sees half
# a binary), wires that path, and prints the line that puts the folder on PATH when it is not.
# --dry-run and --help change nothing: the freshly built binary only reports.
exec "$built" install --copy "$@"
