#!/usr/bin/env python3
"""Writes tests/data/cron_difffuzz_cases.jsonl: the cron findings of the
differential fuzzing (docs/robustness.md, C2-C17), each answered by the cron
oracle (Quartz 2.3.2 as Oozie drives it, ../shared/oracles/cron/run.sh in the
development corpus, kept outside this repository).

  scripts/difffuzz/fidelity_cases.py

A case with `coordc_refuses` is a deliberate difference: Quartz drops part of
the text (or coordc lacks the zone) and coordc reports an error instead; the
test checks that it does, and the oracle's answer is kept beside it.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ORACLE = os.path.join(ROOT, "..", "shared", "oracles", "cron", "run.sh")
OUT = os.path.join(ROOT, "tests", "data", "cron_difffuzz_cases.jsonl")
W = ("2009-01-05T00:00Z", "2009-03-01T00:00Z")


def c(id, cron, start=W[0], end=W[1], tz="UTC", mx=6, refuses=None):
    d = {"id": id, "cron": cron, "timezone": tz, "start": start, "end": end, "max": mx}
    if refuses:
        d["coordc_refuses"] = refuses
    return d


CASES = [
    # Read as Quartz reads them (fixed in coordc).
    c("C2-value-step-0", "0/0 * * * *", end="2009-01-05T05:00Z"),
    c("C2-range-step-0", "5-10/0 * * * *", end="2009-01-05T05:00Z"),
    c("C2-wrapping-range-step-0", "0 3-1/0 * * *"),
    c("C2-dow-step-0", "0 0 ? * 2/0"),
    c("C2-star-step-0", "*/0 * * * *", end="2009-01-05T00:05Z"),
    c("C5-range-step-past-end", "0 1-5/30 * * *"),
    c("C5-range-step-24", "0 1-5/24 * * *"),
    c("C5-dom-range-step-40", "0 0 1-31/40 * ?"),
    c("C5-value-step-checked", "0 3/30 * * *"),
    c("C5-star-step-checked", "0 */30 * * *"),
    c("C3-month-name-slash", "0 0 1 JAN/2 ?", end="2011-01-01T00:00Z"),
    c("C3-month-name-slash-nothing", "* * * JAN/ *", end="2009-01-05T00:03Z"),
    c("C3-name-range-step", "0 0 ? * MON-FRI/2"),
    c("C3-name-range-step-0", "0 0 ? * MON-FRI/0"),
    c("C3-long-name-range", "0 0 ? * MONDAY-FRI"),
    c("C3-long-second-name", "0 0 ? * MON-FRIDAY"),
    c("C3-name-suffix-range", "0 0 1 NOVX-JUN ?", end="2011-01-01T00:00Z"),
    c("C3-long-name-dash-number", "0 0 ? * MONDAY-5"),
    c("C3-long-month-dash-number", "0 0 1 AUGX-6 ?", end="2011-01-01T00:00Z"),
    c("C3-mixed-case-long-name", "0 0 ? * Tues-7"),
    c("C3-name-dash-number", "0 0 ? * MON-5"),
    c("C3-lower-case-range-slash", "0 0 ? * fri-SUN/"),
    c("C9-control-char-trimmed", "\u00010 0 * * *", mx=2),
    c("C9-nbsp-not-trimmed", "\u00a00 0 * * *", mx=2),
    c("C9-datetime-control-char-trimmed", "0 0 * * *", start="\u00012009-01-05T00:00Z", mx=2),
    c("C9-datetime-nbsp-not-trimmed", "0 0 * * *", start="\u00a02009-01-05T00:00Z", mx=2),
    c("C10-year-zero", "0 0 * * *", start="0000-01-01T00:00Z"),
    c("C11-before-1970", "* * * * *", start="1969-12-31T23:58Z", end="1970-01-01T00:03Z", mx=4),
    c("C11-from-1942", "0 0 1 1 *", start="1942-01-01T00:00Z", end="1975-01-01T00:00Z", mx=4),
    c("C12-L-in-dow-list", "0 0 ? * 3,L"),
    c("C12-L-first-in-dow-list", "0 0 ? * L,3"),
    c("C19-L-after-empty-item", "0 0 ,L 11 ?"),
    c("C19-L-in-a-name-in-a-dow-list", "0 0 ? * 2,FRIL"),
    c("C19-lower-case-l-in-dom-list", "0 0 l,5 * ?"),
    c("C14-dom-range-to-0", "0 0 28-0 * ?"),
    c("C14-dom-31-to-0", "0 0 31-0 * ?"),
    c("C14-dom-range-to-0-step", "0 0 28-0/2 * ?"),
    c("C14-month-range-to-0", "0 0 1 11-0 ?", end="2011-03-01T00:00Z"),
    c("C14-dow-range-to-0", "0 0 ? * 5-0"),
    c("C14-dom-0-start-refused", "0 0 0-3 * ?"),
    # C18: Quartz's nW search skips a month too short for n when it comes from
    # the month before, and fires in it when it starts inside it.
    c("C18-29W-from-january", "0 0 29W * ?", start="2025-01-30T00:00Z", end="2025-07-01T00:00Z"),
    c("C18-29W-from-february", "0 0 29W * ?", start="2025-02-01T00:00Z", end="2025-07-01T00:00Z"),
    c("C18-29W-leap-year", "0 0 29W * ?", start="2024-01-01T00:00Z", end="2024-07-01T00:00Z"),
    c("C18-30W-skips-february", "30 9 30W * ?", start="2024-12-15T00:00Z", end="2025-07-01T00:00Z"),
    c("C18-31W-every-month", "0 0 31W * ?", start="2025-01-01T00:00Z", end="2026-01-01T00:00Z", mx=12),
    c("C18-31W-from-april", "0 0 31W * ?", start="2026-04-01T00:00Z", end="2027-01-01T00:00Z", mx=12),
    c("C18-31W-some-months", "0 12 31W 3,4,5,11 ?", start="2025-01-01T00:00Z", end="2028-01-01T00:00Z", mx=12),
    c("C18-30W-february-only", "0 0 30W 2 ?", start="2025-01-01T00:00Z", end="2030-01-01T00:00Z", mx=6),
    c("C18-1W-after-saturday", "0 0 1W * ?", start="2025-02-01T00:00Z", end="2025-12-01T00:00Z", mx=10),
    # Deliberate differences: coordc refuses what Quartz reads only in part.
    c("C4-range-suffix", "0 0 ? * 2-4#1", refuses="Quartz ignores `#1` after a range"),
    c("C4-range-letter", "0 1-5X * * *", refuses="Quartz ignores `X` after a range"),
    c("C6-star-star", "** 0 * * *", refuses="Quartz reads `**` as `*`"),
    c("C6-star-dash", "0 0 *-5 * ?", refuses="Quartz reads `*-5` as `*`"),
    c("C7-99-is-every", "0 99 * * *", refuses="99 is Quartz's ALL_SPEC_INT: every hour"),
    c("C8-tab-in-field", "0 \t1 * * *", refuses="Oozie splits on spaces; Quartz also on tabs"),
    c("C15-L-in-minutes", "L,5 0 * * *", refuses="Quartz ignores `L` in the minute field"),
    c("C16-W-in-list", "0 0 7,1W * ?", refuses="Quartz keeps one W flag for the whole list"),
    c("C17-decimal", "0 1.5 * * *", refuses="Quartz reads `1.5` as 1"),
    c("C13-systemv-zone", "0 0 * * *", tz="SystemV/PST8PDT", refuses="chrono-tz has no SystemV zones"),
    c("C10-long-year", "0 0 * * *", start="0000000002009-01-05T00:00Z",
      refuses="coordc reads at most 9 digits of a datetime number"),
]


def main():
    cases = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in CASES)
    answered = subprocess.run([ORACLE], input=cases, capture_output=True, text=True, check=True).stdout
    lines = answered.splitlines()
    if len(lines) != len(CASES):
        sys.exit("the oracle answered %d of %d cases" % (len(lines), len(CASES)))
    with open(OUT, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(json.loads(line), ensure_ascii=False) + "\n")
    print("wrote %d cases to %s" % (len(lines), OUT))


if __name__ == "__main__":
    main()
