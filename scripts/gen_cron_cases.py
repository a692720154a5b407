#!/usr/bin/env python3
"""Generates random Oozie cron frequencies and windows and has the real Quartz
2.3.2, driven as Oozie drives it (the oracle in ../shared/oracles/cron, in the
development corpus, kept outside this repository), compute the nominal times.

  scripts/gen_cron_cases.py > tests/data/cron_generated_cases.jsonl

Fields mix values, ranges (some wrapping), steps, lists, names in any case,
and the day options (L, L-n, nW, LW, nL, n#k, ?); zones include DST ones so the
OOZIE-2494 shift is exercised; windows start at random minutes.
"""
import json
import os
import random
import subprocess

ORACLE = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "oracles", "cron", "run.sh")
ZONES = ["UTC", "America/Los_Angeles", "Europe/London", "Asia/Kolkata", "Australia/Sydney",
         "America/Sao_Paulo", "PST", "GMT+05:30"]
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]


def simple(rng, low, high, names=None):
    def value():
        if names and rng.random() < 0.3:
            name = rng.choice(names)
            return rng.choice([name, name.lower(), name.capitalize()])
        return str(rng.randint(low, high))
    kind = rng.random()
    if kind < 0.25:
        return "*"
    if kind < 0.4:
        return "*/" + str(rng.randint(1, high - low + 1 if high - low < 20 else 20))
    if kind < 0.55:
        return value() + "-" + value()
    if kind < 0.65:
        return str(rng.randint(low, high)) + "/" + str(rng.randint(1, 10))
    if kind < 0.8:
        return ",".join(value() for _ in range(rng.randint(2, 4)))
    return value()


def dom(rng):
    r = rng.random()
    if r < 0.08:
        return "L"
    if r < 0.13:
        return "L-" + str(rng.randint(0, 5))
    if r < 0.2:
        return str(rng.randint(1, 31)) + "W"
    if r < 0.23:
        return "LW"
    return simple(rng, 1, 31)


def dow(rng):
    r = rng.random()
    if r < 0.08:
        return str(rng.randint(1, 7)) + "L"
    if r < 0.16:
        return str(rng.randint(1, 7)) + "#" + str(rng.randint(1, 5))
    return simple(rng, 1, 7, DAYS)


def case(rng, i):
    minute = simple(rng, 0, 59)
    hour = simple(rng, 0, 23)
    d, w = dom(rng), dow(rng)
    r = rng.random()
    if r < 0.35:
        w = "?"
    elif r < 0.6:
        d = "?"
    elif r < 0.7:
        d = "*"
    month = simple(rng, 1, 12, MONTHS)
    year = rng.randint(2010, 2030)
    start = "%04d-%02d-%02dT%02d:%02dZ" % (year, rng.randint(1, 12), rng.randint(1, 28),
                                          rng.randint(0, 23), rng.randint(0, 59))
    days = rng.choice([1, 3, 10, 40, 400])
    return {"id": "cron-gen-%04d" % i, "cron": " ".join([minute, hour, d, month, w]),
            "timezone": rng.choice(ZONES), "start": start, "days": days, "max": 300}


def main():
    rng = random.Random(20261121)
    cases = []
    for i in range(1500):
        c = case(rng, i)
        # The end is computed here so the oracle sees a plain window.
        import datetime
        s = datetime.datetime.strptime(c["start"], "%Y-%m-%dT%H:%MZ")
        c["end"] = (s + datetime.timedelta(days=c.pop("days"))).strftime("%Y-%m-%dT%H:%MZ")
        cases.append(c)
    out = subprocess.run(["bash", ORACLE], input="\n".join(json.dumps(c) for c in cases) + "\n",
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        r = json.loads(line)
        keep = {k: r[k] for k in ["id", "cron", "timezone", "start", "end", "max"]}
        if r.get("expect_error"):
            keep["expect_error"] = True
        else:
            keep["expect"] = r["expect"]
            if r.get("truncated"):
                keep["truncated"] = True
        print(json.dumps(keep))


if __name__ == "__main__":
    main()
