#!/usr/bin/env bash
# The step of action.yml: installs coordc from the action's own checkout
# unless one is on PATH already, then checks INPUT_PATHS with INPUT_ARGS,
# reporting as GitHub annotations. Its exit code is coordc's: 1 when there
# are errors.
set -euo pipefail
if ! command -v coordc >/dev/null 2>&1; then
    root="${RUNNER_TEMP:-/tmp}/coordc"
    cargo install --locked --quiet --path "${GITHUB_ACTION_PATH:?}" --root "$root"
    export PATH="$root/bin:$PATH"
fi
# (Word splitting is wanted: several paths, several arguments.)
# shellcheck disable=SC2086
exec coordc check --format github ${INPUT_PATHS:-.} ${INPUT_ARGS:-}
