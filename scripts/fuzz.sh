#!/usr/bin/env bash
# Runs one cargo-fuzz target for a while: scripts/fuzz.sh TARGET SECONDS [LIBFUZZER-ARG...]
#
# Targets: el cron datetime_zone_frequency xml_check xml_check_structured
# properties dryrun simulate (fuzz/fuzz_targets/, docs/robustness.md).
#
# Needs the nightly toolchain and cargo-fuzz; installs neither: without
# them it says what is missing and exits 0 (CI's smoke runs then skip).
# Seeds fuzz/corpus/TARGET with scripts/fuzz-seeds.sh when it is empty.
# A crash, a timeout (10 s per input) or running out of memory (2 GB) ends
# the run with libFuzzer's report and the input in fuzz/artifacts/TARGET/,
# and a non-zero exit; reproduce it with
#   cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-...
# The log of the last run is fuzz/artifacts/TARGET/last-run.log.
# Leak detection is off (-detect_leaks=0): LeakSanitizer re-scans memory
# after every input whose allocations do not balance (a check spawns a
# worker thread; caches fill once): xml_check ran at 286/s with it and
# 566/s without, xml_check_structured at 41/s and 141/s. A later
# -detect_leaks=1 among the LIBFUZZER-ARGs turns it back on.
# To go on past a crash already known (until it is fixed), add
#   -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1
# (each further crash is still written to fuzz/artifacts/TARGET/).
# FUZZ_VERBOSE=1 makes the structure-aware targets (xml_check_structured,
# dryrun, simulate) print the files an input stands for.
#
# Environment: FUZZ_SANITIZER=none builds without AddressSanitizer (3 to 6
# times the executions per second: el 8,087/s against 2,396/s,
# xml_check_structured 907/s against 141/s; coordc is safe Rust but for a
# few reviewed `unsafe` blocks, so long runs may prefer it); default address.
# Switching rebuilds the fuzz crate and coordc (a few minutes).
set -euo pipefail

usage() {
    echo "usage: scripts/fuzz.sh TARGET SECONDS [LIBFUZZER-ARG...]" >&2
    echo "targets: el cron datetime_zone_frequency xml_check xml_check_structured properties dryrun simulate" >&2
    exit 2
}
[ $# -ge 2 ] || usage
target="$1"
seconds="$2"
shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

case "$target" in
    el) dict=el ;;
    cron | datetime_zone_frequency) dict=cron ;;
    xml_check | xml_check_structured | properties | dryrun | simulate) dict=xml ;;
    *)
        echo "fuzz.sh: no such target: $target" >&2
        usage
        ;;
esac

missing=()
if ! command -v cargo >/dev/null 2>&1 || ! cargo +nightly --version >/dev/null 2>&1; then
    missing+=("the nightly toolchain (rustup toolchain install nightly)")
elif ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    missing+=("cargo-fuzz (cargo install cargo-fuzz --locked)")
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "fuzz.sh: skipping $target: missing ${missing[*]}; nothing was installed" >&2
    exit 0
fi

corpus="fuzz/corpus/$target"
if [ -z "$(ls -A "$corpus" 2>/dev/null)" ]; then
    scripts/fuzz-seeds.sh "$target"
fi
mkdir -p "$corpus" "fuzz/artifacts/$target"
log="fuzz/artifacts/$target/last-run.log"

status=0
cargo +nightly fuzz run --sanitizer "${FUZZ_SANITIZER:-address}" "$target" "$corpus" -- \
    -dict="fuzz/dicts/$dict.dict" \
    -max_total_time="$seconds" \
    -rss_limit_mb=2048 \
    -timeout=10 \
    -print_final_stats=1 \
    -detect_leaks=0 \
    "$@" 2>&1 | tee "$log" || status=$?

# libFuzzer's final statistics: executions, speed, coverage, memory (in
# fork mode, -fork=N, the last "#N: cov: ..." line instead).
execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
rss="$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)"
last="$(grep -aE '^#[0-9]+' "$log" | tail -n 1 || true)"
cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")"
ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")"
if [ -z "$execs" ] && [[ "$last" =~ ^#([0-9]+): ]]; then
    execs="${BASH_REMATCH[1]}"
    speed="$(sed -n 's/.* exec\/s: \([0-9]*\).*/\1/p' <<<"$last")"
fi
echo "fuzz.sh: $target: ${execs:-?} executions in ${seconds} s (${speed:-?}/s), cov ${cov:-?}, ft ${ft:-?}, peak RSS ${rss:-?} MB; log: $log"
if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: $target found a problem (exit $status): see $log and fuzz/artifacts/$target/" >&2
fi
exit "$status"
