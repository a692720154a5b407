#!/usr/bin/env bash
# Records what a coordc binary prints for the shipped corpus, one file per
# command, so that a change meant to keep behaviour (a refactoring) can be
# shown to: record before, record after, `diff -r` the two folders.
#   scripts/record-outputs.sh COORDC OUT_DIR
# Covered: `check` of corpus/ in every format; the dry run (text and JSON)
# of every corpus coordinator and bundle; `simulate` of every corpus
# scenario (text and JSON) and of every corpus workflow (JSON); `eval`,
# `cron`, `timezones`, `rules`; and `check` of the development corpus's
# real-world applications where they are. Each file holds the exit code, stdout and
# stderr.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
COORDC=$(realpath "${1:?usage: scripts/record-outputs.sh COORDC OUT_DIR}")
OUT=${2:?usage: scripts/record-outputs.sh COORDC OUT_DIR}
rm -rf "$OUT"
mkdir -p "$OUT"
n=0

# record NAME ARG...: runs coordc with ARG..., writes OUT/NAME.
record() {
    local name=$1
    shift
    {
        "$COORDC" "$@" >"$OUT/.stdout" 2>"$OUT/.stderr"
        echo "exit: $?"
        echo "--- stdout"
        cat "$OUT/.stdout"
        echo "--- stderr"
        cat "$OUT/.stderr"
    } >"$OUT/$name"
    n=$((n + 1))
}

for format in human concise json github sarif junit gitlab checkstyle; do
    record "check-corpus.$format" check corpus/ --format "$format" --color never
done
record check-corpus-fix-diff check corpus/ --diff --unsafe-fixes
for app in corpus/coord/*/coordinator.xml corpus/bundle/*/bundle.xml; do
    name=$(echo "$app" | tr '/' '_')
    record "dryrun-$name.txt" dryrun "$app" --limit 50
    record "dryrun-$name.json" dryrun "$app" --limit 50 --format json
done
for scenario in corpus/simulate/*/*.toml; do
    name=$(echo "$scenario" | tr '/' '_')
    record "simulate-$name.txt" simulate "$scenario"
    record "simulate-$name.json" simulate "$scenario" --format json
done
for workflow in corpus/wf/*.xml; do
    name=$(echo "$workflow" | tr '/' '_')
    record "simulate-$name.json" simulate "$workflow" --format json -D jobTracker=jt -D nameNode=nn -D queueName=q
done
# The development corpus's real-world applications, kept outside this
# repository, where it is there.
if [ -d ../shared/realworld ]; then
    record check-realworld.json check ../shared/realworld --format json
    record check-realworld.human check ../shared/realworld --color never
fi
# (The EL text is coordc's input, not the shell's: single quotes on purpose.)
# shellcheck disable=SC2016
record eval eval --var market=us 'hdfs://bar/${market}/${7/2}'
record cron cron '0 10,13 * * MON-FRI' --from 2013-03-07T00:00Z --to 2013-03-14T00:00Z --timezone America/Los_Angeles
record timezones timezones --format json
record rules rules --format json
rm -f "$OUT/.stdout" "$OUT/.stderr"
echo "$n outputs recorded in $OUT"
