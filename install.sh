#!/usr/bin/env bash
# Builds baton, installs the binary to $BATON_PREFIX/bin (default ~/.local/bin), then runs
# `baton install` to wire the statusline, hooks and slash commands into Claude Code.
# Flags go to `baton install`: --project DIR, --dry-run, --force, --yes, --no-statusline.
# With --dry-run or --help nothing is installed: the built binary's `install` only reports.
#   ./install.sh                  # wire ~/.claude/settings.json
#   ./install.sh --project .      # wire this project's .claude/settings.json
# BATON_BUILD_PROFILE=dev builds the (faster to compile) dev profile instead of release;
# BATON_BINARY=path installs a binary built elsewhere, without building.
set -euo pipefail
cd "$(dirname "$0")"

prefix="${BATON_PREFIX:-$HOME/.local}"
bin_dir="$prefix/bin"
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

# --dry-run and --help change nothing: the freshly built binary answers, and nothing is copied.
for arg in "$@"; do
    case "$arg" in
        --dry-run|--help|-h) exec "$built" install "$@" ;;
    esac
done

mkdir -p "$bin_dir"
# Copy to a temp name and rename, so a statusline running right now never sees half a binary.
cp "$built" "$bin_dir/.baton.new"
mv -f "$bin_dir/.baton.new" "$bin_dir/baton"
echo "Installed $("$bin_dir/baton" --version) to $bin_dir/baton"
case ":$PATH:" in
    *":$bin_dir:"*) ;;
    *)
        # The exact line for the user's shell; $HOME stays a variable so the line reads as typed.
        shown_dir="$bin_dir"
        case "$bin_dir" in "$HOME"/*) shown_dir="\$HOME${bin_dir#"$HOME"}" ;; esac
        case "$(basename "${SHELL:-sh}")" in
            fish) line="fish_add_path $shown_dir" ;;
            zsh) line="echo 'export PATH=\"$shown_dir:\$PATH\"' >> ~/.zshrc" ;;
            bash)
                rc="~/.bashrc"
                [ "$(uname -s)" = Darwin ] && rc="~/.bash_profile"
                line="echo 'export PATH=\"$shown_dir:\$PATH\"' >> $rc" ;;
            *) line="echo 'export PATH=\"$shown_dir:\$PATH\"' >> ~/.profile" ;;
        esac
        echo "Note: $bin_dir is not on your PATH; slash commands and scripts need it there. Run:"
        echo "  $line"
        echo "then open a new terminal." ;;
esac

"$bin_dir/baton" install "$@"
