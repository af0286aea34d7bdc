#!/usr/bin/env bash
# Builds baton's release binary the way it is installed and benchmarked, and prints its path
# (`--path`: only print where it is, without building).
# On Linux with glibc it is linked statically and not position-independent: no dynamic loader
# and no relocations at start-up, which is a third of a statusline run's overhead over a no-op
# process (bench/hooks.sh). The explicit --target keeps those flags off build scripts and
# proc-macros, which must stay dynamic.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
triple="$(rustc -vV | sed -n 's/^host: //p')"
build=1
[ "${1:-}" = --path ] && build=0
case "$triple" in
    *-linux-gnu)
        static="$target_dir/$triple/release/baton"
        if [ "$build" = 1 ]; then
            if ! RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static -C relocation-model=static" \
                cargo build --release --locked --target "$triple" >&2; then
                # No static glibc here (e.g. glibc-static not installed): a dynamic build works
                # the same, a few tenths of a millisecond slower to start.
                echo "build-release.sh: static build failed; building a dynamically linked binary" >&2
                rm -f "$static"
                cargo build --release --locked >&2
            fi
        fi
        if [ -x "$static" ]; then echo "$static"; else echo "$target_dir/release/baton"; fi
        ;;
    *)
        [ "$build" = 1 ] && cargo build --release --locked >&2
        echo "$target_dir/release/baton"
        ;;
esac
