#!/usr/bin/env bash
# Builds baton in release mode and installs it to $BATON_PREFIX/bin (default ~/.local/bin),
# then prints how to wire it into Claude Code.
set -euo pipefail
cd "$(dirname "$0")"

prefix="${BATON_PREFIX:-$HOME/.local}"
bin_dir="$prefix/bin"

command -v cargo >/dev/null 2>&1 || {
  echo "install.sh: cargo is not installed. Install Rust (https://rustup.rs), then run ./install.sh again." >&2
  exit 1
}

cargo build --release --locked
mkdir -p "$bin_dir"
# Copy to a temp name and rename, so a running statusline never sees a half-written binary.
cp target/release/baton "$bin_dir/.baton.new"
mv -f "$bin_dir/.baton.new" "$bin_dir/baton"
echo "Installed $("$bin_dir/baton" --version) to $bin_dir/baton"

case ":$PATH:" in
  *":$bin_dir:"*) ;;
  *) echo "Note: $bin_dir is not on your PATH; add it, or use the absolute path below." ;;
esac

cat <<MSG

To wire it into Claude Code, merge this into ~/.claude/settings.json (or a project's
.claude/settings.json); settings.example.json has the same:

  "statusLine": {"type": "command", "command": "$bin_dir/baton statusline", "padding": 0},
  "hooks": {
    "PostToolUse":  [{"matcher": "", "hooks": [{"type": "command", "command": "$bin_dir/baton hook", "timeout": 10}]}],
    "SessionStart": [{"hooks": [{"type": "command", "command": "$bin_dir/baton hook", "timeout": 10}]}]
  }
MSG
