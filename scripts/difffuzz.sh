#!/usr/bin/env bash
# Differential fuzzing of coordc against the engines Oozie runs (issue 23, part 2).
#
#   scripts/difffuzz.sh KIND N [SEED]        KIND: el | cron | calendar
#
# Generates N random cases of KIND (seeded: the same N and SEED give the same
# cases), answers them with coordc (examples/difffuzz.rs, batch, one process)
# and with the JVM oracle in ../shared/oracles (the development corpus, kept
# outside this repository; one JVM), and prints every
# disagreement (case, oracle answer, coordc answer) and a count. Exit status 1
# when there is any disagreement (DIFFFUZZ_ALLOW_KNOWN=1: only when one is not
# a documented artefact), 2 on a usage or setup error.
#
# Needs: python3, a JDK and the oracles' packages
#   apt-get install -y openjdk-17-jdk-headless libcommons-el-java libjsp-api-java libquartz2-java
# Environment: CARGO_TARGET_DIR (default target/difffuzz: its own, so a run does
# not wait on other builds), DIFFFUZZ_OUT (run folder, default
# target/difffuzz/runs/KIND-N-SEED), DIFFFUZZ_SHOW (print at most this many
# disagreements; all are in the run folder's diffs.jsonl), DIFFFUZZ_CHUNK (el
# cases per JVM, default 200000), DIFFFUZZ_TIMEOUT_MS (per cron/calendar case,
# default 2000). See docs/robustness.md, "Differential fuzzing".
set -euo pipefail
if [ $# -lt 2 ] || [[ ! "$1" =~ ^(el|cron|calendar)$ ]] || [[ ! "$2" =~ ^[0-9]+$ ]]; then
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
KIND=$1 N=$2 SEED=${3:-1}
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
command -v java >/dev/null || { echo "difffuzz: no java (apt-get install -y openjdk-17-jdk-headless)" >&2; exit 2; }
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target/difffuzz}"
cargo build --quiet --release --example difffuzz || exit 2
ARGS=("$KIND" "$N" "$SEED" --coordc "$CARGO_TARGET_DIR/release/examples/difffuzz")
[ -n "${DIFFFUZZ_OUT:-}" ] && ARGS+=(--out "$DIFFFUZZ_OUT")
[ "${DIFFFUZZ_ALLOW_KNOWN:-0}" = 1 ] && ARGS+=(--allow-known)
exec python3 scripts/difffuzz/run.py "${ARGS[@]}"
