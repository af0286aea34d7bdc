# Sourced by the bench/*.sh wrappers: their options, the release build they measure, and the
# comparison tools npm installs. Set `bench` (the script's name) and `help_lines` (the sed
# range of its header comment) first; this sets `root`, `target`, `build`, `check`, `args`.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
build=1
check=0
args=()
for a in "$@"; do
    case "$a" in
        --no-build) build=0 ;;
        --check) check=1; args+=("$a") ;;
        -h|--help)
            sed -n "${help_lines}p" "$root/bench/$bench.sh" | sed 's/^# \{0,1\}//'
            exec python3 "$root/bench/$bench.py" --help ;;
        *) args+=("$a") ;;
    esac
done
mkdir -p "$target/bench"

# The binary to measure, built first unless --no-build. A failed build stops here:
# benchmarking the binary of an older build would measure the wrong code.
bench_baton() {
    if [ "$build" = 1 ]; then
        echo "building baton (release, as installed)…" >&2
        if ! "$root/scripts/build-release.sh" >/dev/null; then
            echo "bench/$bench.sh: the build failed, so there is nothing current to measure; fix the build (or pass --no-build to measure the existing binary)" >&2
            exit 1
        fi
    fi
    baton="$("$root/scripts/build-release.sh" --path)"
    [ -x "$baton" ] || { echo "bench/$bench.sh: no binary at $baton; build it (drop --no-build)" >&2; exit 1; }
}

# Installs npm package `$1` (name@version) under `$2` unless `$3` exists. A target compares
# against it (`$4` names which), so with --check a failed install fails the run.
bench_npm_tool() {
    local package="$1" prefix="$2" marker="$3" what="$4" why=""
    [ -e "$marker" ] && return 0
    if command -v npm >/dev/null 2>&1; then
        echo "installing $package under $prefix…" >&2
        mkdir -p "$prefix"
        npm install --no-audit --no-fund --silent --prefix "$prefix" "$package" >&2 \
            || why="npm could not install $package"
    else
        why="npm is not on PATH"
    fi
    if [ -n "$why" ]; then
        if [ "$check" = 1 ]; then
            echo "bench/$bench.sh --check: $why, so $what cannot be measured; FAIL (install node and npm, or make the registry reachable)" >&2
            exit 1
        fi
        echo "$why: it is left out of this run (--check would fail)" >&2
    fi
}
