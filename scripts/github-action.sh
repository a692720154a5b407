#!/usr/bin/env bash
# The step of action.yml: checks INPUT_PATHS with INPUT_ARGS, reporting as
# GitHub annotations, with the coordc on PATH, else the coordc wheel of
# INPUT_VERSION (default: the version of the action's own Cargo.toml)
# installed with pip into a virtual environment of its own, else, where pip
# has no wheel for the runner (or there is no Python), coordc built with
# `cargo install` from the action's checkout. Its exit code is coordc's: 1
# when there are errors.
set -euo pipefail
action="${GITHUB_ACTION_PATH:?}"
temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"

# The version of the action's Cargo.toml: its first `version = "..."` line,
# the [package] one.
own_version() {
    sed -n 's/^version = "\([^"]*\)"$/\1/p' "$action/Cargo.toml" | head -n 1
}

# Installs coordc==$1 from the package index into $temp/coordc-venv and
# prints the folder of its executable; fails where pip has no wheel for
# this runner (no Rust build of the source distribution is attempted).
pip_install() {
    local venv="$temp/coordc-venv" python
    python="$(command -v python3 || command -v python)" || return 1
    "$python" -m venv "$venv" >&2 || return 1
    local bin="$venv/bin"
    [ -d "$bin" ] || bin="$venv/Scripts"
    "$bin/python" -m pip install --quiet --disable-pip-version-check \
        --only-binary coordc "coordc==$1" >&2 || return 1
    echo "$bin"
}

if ! command -v coordc >/dev/null 2>&1; then
    version="${INPUT_VERSION:-$(own_version)}"
    if bin="$(pip_install "$version")"; then
        export PATH="$bin:$PATH"
    else
        echo "coordc $version: pip has no wheel for this runner; building coordc $(own_version) from the action's checkout with cargo" >&2
        if ! command -v cargo >/dev/null 2>&1; then
            echo "::error::coordc $version could not be installed: pip has no wheel for this runner and there is no cargo (install Rust, or coordc, before this step)"
            exit 2
        fi
        root="$temp/coordc"
        cargo install --locked --quiet --path "$action" --root "$root"
        export PATH="$root/bin:$PATH"
    fi
fi
# (Word splitting is wanted: several paths, several arguments.)
# shellcheck disable=SC2086
exec coordc check --format github ${INPUT_PATHS:-.} ${INPUT_ARGS:-}
