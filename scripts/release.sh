#!/usr/bin/env bash
# Builds baton's release binaries for the six targets it ships on, from this Linux machine,
# into dist/ with SHA-256 sums, and checks each one where it can:
#   scripts/release.sh                          # all six
#   scripts/release.sh aarch64-apple-darwin     # some of them
# Writes dist/baton-<version>-<target>[.exe], dist/SHA256SUMS (sha256sum's format, every binary
# in dist/) and prints a table of size, build time (wall clock and CPU) and SHA-256 (README
# "Platforms").
#
# Every target links with zig (cargo-zigbuild), which brings the C library, the macOS and
# Windows import libraries and the linkers; nothing is downloaded from Apple or Microsoft:
# - x86_64/aarch64-unknown-linux-musl: fully static (runs on glibc and musl distributions).
# - x86_64/aarch64-apple-darwin: MACOSX_DEPLOYMENT_TARGET 10.12 / 11.0 (without it zig marks
#   the binary as needing the newest macOS it knows). baton needs no framework: it links only
#   libSystem.
# - x86_64/aarch64-pc-windows-gnullvm: the UCRT, as MSVC builds use. The msvc targets cannot
#   be linked here (Microsoft's CRT and SDK are not downloadable offline); CI type-checks them.
# Checks: scripts/inspect-binary.py on every binary (machine, static, minimum macOS, entry
# point, signature, UCRT); the x86_64 Linux build runs natively and the aarch64 one under
# qemu-user when qemu-aarch64 is installed (apt install qemu-user): --version and a statusline
# render. The Windows builds run under Wine in CI (.ci/run); macOS builds cannot run here.
#
# Tools, set up on first use in target/release-tools/venv when not on PATH: zig (PyPI `ziglang`)
# and cargo-zigbuild (PyPI `cargo-zigbuild`). Rust targets are added with rustup.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
tools="$target_dir/release-tools"
dist="$root/dist"
all_targets=(
    x86_64-unknown-linux-musl
    aarch64-unknown-linux-musl
    aarch64-apple-darwin
    x86_64-apple-darwin
    x86_64-pc-windows-gnullvm
    aarch64-pc-windows-gnullvm
)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
    case " ${all_targets[*]} " in
        *" $t "*) ;;
        *) echo "release.sh: unknown target $t (one of: ${all_targets[*]})" >&2; exit 2 ;;
    esac
done
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"

# zig and cargo-zigbuild: on PATH, else from PyPI (`ziglang`, and `cargo-zigbuild`, whose wheel
# is its release binary) in a venv here. cargo-zigbuild runs `python3 -m ziglang` when there is
# no zig on PATH, which the venv's python3 can.
if ! command -v cargo-zigbuild >/dev/null 2>&1 ||
    { ! command -v zig >/dev/null 2>&1 && ! python3 -m ziglang version >/dev/null 2>&1; }; then
    if [ ! -x "$tools/venv/bin/cargo-zigbuild" ] || ! "$tools/venv/bin/python3" -m ziglang version >/dev/null 2>&1; then
        echo "release.sh: installing zig and cargo-zigbuild (PyPI) into $tools/venv" >&2
        python3 -m venv "$tools/venv"
        "$tools/venv/bin/pip" install -q ziglang cargo-zigbuild
    fi
    export PATH="$tools/venv/bin:$PATH"
fi
# Rust's standard library for each target, unless it is there already.
sysroot="$(rustc --print sysroot)"
for t in "${targets[@]}"; do
    [ -d "$sysroot/lib/rustlib/$t/lib" ] || rustup target add "$t"
done

# Paths of this machine stay out of the binaries (panic locations of dependencies).
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$root=/baton"

# CPU seconds (user + system) of the finished child processes so far, from bash's `times`
# (run in this shell: a subshell has no children of its own), into $cpu_now: the build's own
# cost, which wall time on a busy machine overstates.
times_file="$(mktemp)"
trap 'rm -f "$times_file"' EXIT
children_cpu() {
    times > "$times_file"
    cpu_now=$(tail -n 1 "$times_file" | awk '{
        total = 0
        for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); total += t[1] * 60 + t[2] }
        printf "%.0f", total
    }')
}

mkdir -p "$dist"
rows=()
for target in "${targets[@]}"; do
    exe=""
    case "$target" in *windows*) exe=".exe" ;; esac
    env=()
    case "$target" in
        x86_64-apple-darwin) env=(MACOSX_DEPLOYMENT_TARGET=10.12) ;;
        aarch64-apple-darwin) env=(MACOSX_DEPLOYMENT_TARGET=11.0) ;;
    esac
    echo "== $target" >&2
    started=$SECONDS
    children_cpu
    cpu_before=$cpu_now
    env ${env[@]+"${env[@]}"} cargo zigbuild --release --locked --target "$target" >&2
    seconds=$((SECONDS - started))
    children_cpu
    cpu=$((cpu_now - cpu_before))
    out="$dist/baton-$version-$target$exe"
    cp "$target_dir/$target/release/baton$exe" "$out.tmp"
    mv -f "$out.tmp" "$out"
    python3 scripts/inspect-binary.py "$out" "$target" >&2
    runner=()
    case "$target" in
        x86_64-unknown-linux-musl) [ "$(uname -m)" = x86_64 ] || runner=(skip) ;;
        aarch64-unknown-linux-musl)
            if [ "$(uname -m)" != aarch64 ]; then
                if command -v qemu-aarch64 >/dev/null 2>&1; then runner=(qemu-aarch64); else runner=(skip); fi
            fi ;;
        *) runner=(skip) ;;
    esac
    if [ "${runner[0]:-}" != skip ]; then
        ran="$(${runner[@]+"${runner[@]}"} "$out" --version)"
        [ "$ran" = "baton $version" ] || { echo "release.sh: $out --version said: $ran" >&2; exit 1; }
        line="$(HOME="$target_dir/release-smoke" TMPDIR="$target_dir" ${runner[@]+"${runner[@]}"} "$out" statusline \
            < tests/fixtures/claude-code-2.1.332/statusline.json)"
        case "$line" in
            *"Sonnet 4.5"*"%"*) echo "$target: ran ${runner[*]:-natively}: $ran; statusline: $(printf '%s' "$line" | sed 's/\x1b\[[0-9;]*m//g')" >&2 ;;
            *) echo "release.sh: $out statusline printed: $line" >&2; exit 1 ;;
        esac
    fi
    size=$(wc -c < "$out")
    sum=$(sha256sum "$out" | cut -d' ' -f1)
    rows+=("| \`$target\` | $(awk -v b="$size" 'BEGIN { printf "%.1f MB", b / 1e6 }') | ${seconds} s (${cpu} s CPU) | \`$sum\` |")
done
(cd "$dist" && sha256sum baton-"$version"-* > SHA256SUMS.tmp && mv -f SHA256SUMS.tmp SHA256SUMS)
echo "| Target | Size | Build time: wall (CPU) | SHA-256 |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo "dist/SHA256SUMS:" >&2
cat "$dist/SHA256SUMS" >&2
