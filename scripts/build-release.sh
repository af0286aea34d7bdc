#!/usr/bin/env bash
# Builds baton's release binary the way it is installed and benchmarked, and prints its path.
#   scripts/build-release.sh           # this machine's binary
#   scripts/build-release.sh --musl    # Linux: the fully static musl binary, for any distribution
#   scripts/build-release.sh --path    # only print where it is, without building (with --musl too)
# On Linux with glibc it is linked statically and not position-independent: no dynamic loader
# and no relocations at start-up, which is a third of a statusline run's overhead over a no-op
# process (bench/hooks.sh). The explicit --target keeps those flags off build scripts and
# proc-macros, which must stay dynamic. The musl build needs `rustup target add
# x86_64-unknown-linux-musl` (or aarch64); C code of dependencies is compiled with zig
# (scripts/zig-cc) unless a musl C compiler is configured.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
triple="$(rustc -vV | sed -n 's/^host: //p')"
build=1
musl=0
for arg in "$@"; do
    case "$arg" in
        --path) build=0 ;;
        --musl) musl=1 ;;
        *) echo "build-release.sh: unknown option $arg (use --path, --musl)" >&2; exit 2 ;;
    esac
done
if [ "$musl" = 1 ]; then
    case "$triple" in
        x86_64-*-linux-*) musl_triple=x86_64-unknown-linux-musl; zig_target=x86_64-linux-musl ;;
        aarch64-*-linux-*) musl_triple=aarch64-unknown-linux-musl; zig_target=aarch64-linux-musl ;;
        *) echo "build-release.sh: --musl is for Linux hosts (this is $triple)" >&2; exit 2 ;;
    esac
    var=${musl_triple//-/_}
    if [ "$build" = 1 ]; then
        cc_var="CC_$var"
        if [ -z "${!cc_var:-}" ] && ! command -v "${zig_target%%-*}-linux-musl-gcc" >/dev/null 2>&1; then
            export "CC_$var=$PWD/scripts/zig-cc" "AR_$var=$PWD/scripts/zig-ar" BATON_ZIG_TARGET="$zig_target"
        fi
        cargo build --release --locked --quiet --target "$musl_triple" >&2
    fi
    echo "$target_dir/$musl_triple/release/baton"
    exit 0
fi
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
