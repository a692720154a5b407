#!/usr/bin/env python3
"""Generates calendar cases and has the JDK itself (the oracle in
../shared/oracles/calendar, in the development corpus, kept outside this
repository: GregorianCalendar, TimeZone, SimpleDateFormat, en_US) answer them.

  scripts/gen_calendar_cases.py > tests/data/calendar_cases.jsonl

add:    Calendar.add(unit, n) in DST zones, from instants near DST transitions
        (wall times inside gaps and overlaps) and elsewhere;
format: SimpleDateFormat patterns over every pattern letter and count, at random
        instants (year ends for week numbering);
zone:   whether Java gives each ID back unchanged (what Oozie accepts), for tzdb
        names, Java's short IDs, GMT offsets and near-misses.
"""
import datetime
import json
import os
import random
import subprocess

ORACLE = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "oracles", "calendar", "run.sh")
ZONES = ["America/Los_Angeles", "Europe/London", "Asia/Kolkata", "Australia/Sydney", "America/Sao_Paulo",
         "America/St_Johns", "Pacific/Chatham", "Asia/Tehran", "Africa/Casablanca", "UTC", "PST"]
# Local transition days (approximate; instants are spread around them).
TRANSITIONS = ["2009-03-08", "2009-11-01", "2009-03-29", "2009-10-25", "2016-03-13", "2016-11-06",
               "2016-10-02", "2016-04-03", "2017-10-15", "2018-02-18", "2020-03-08", "2021-10-31"]
LETTERS = "GyMdkHmsSEDFwWahKzZYuXL"


def fmt(t):
    return t.strftime("%Y-%m-%dT%H:%MZ")


def add_cases(rng):
    cases = []
    for i in range(1500):
        if rng.random() < 0.7:
            day = datetime.datetime.strptime(rng.choice(TRANSITIONS), "%Y-%m-%d")
            t = day + datetime.timedelta(minutes=rng.randint(-36 * 60, 36 * 60) // 30 * 30)
        else:
            t = datetime.datetime(rng.randint(1995, 2035), rng.randint(1, 12), rng.randint(1, 28),
                                  rng.randint(0, 23), rng.choice([0, 15, 30, 45]))
        unit = rng.choice(["MINUTE", "HOUR", "DAY", "DAY", "DAY", "WEEK", "MONTH", "MONTH", "YEAR"])
        n = rng.choice([1, -1, 2, 7, 30, -30, 365, 13])
        cases.append({"id": "add-%04d" % i, "op": "add", "tz": rng.choice(ZONES), "t": fmt(t),
                      "unit": unit, "n": n})
    return cases


def format_cases(rng):
    cases = []
    for i in range(1200):
        pieces = []
        for _ in range(rng.randint(1, 4)):
            letter = rng.choice(LETTERS)
            pieces.append(letter * rng.randint(1, 5))
            pieces.append(rng.choice(["-", " ", "/", ":", "'T'", "''", ""]))
        t = datetime.datetime(rng.choice([1999, 2008, 2009, 2010, 2015, 2020, 2026, 2037]),
                              rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59))
        if rng.random() < 0.2:
            t = datetime.datetime(t.year, 12, rng.randint(25, 31), t.hour, t.minute)
        if rng.random() < 0.1:
            t = datetime.datetime(t.year, 1, rng.randint(1, 7), t.hour, t.minute)
        cases.append({"id": "format-%04d" % i, "op": "format", "tz": "UTC", "t": fmt(t),
                      "pattern": "".join(pieces)})
    return cases


def zone_cases():
    import zoneinfo
    ids = sorted(zoneinfo.available_timezones())
    ids += ["PST", "IST", "EST", "MST", "HST", "ACT", "AET", "AGT", "ART", "AST", "BET", "BST", "CAT", "CNT",
            "CST", "CTT", "EAT", "ECT", "IET", "JST", "MIT", "NET", "NST", "PLT", "PNT", "PRT", "SST", "VST",
            "GMT+05:30", "GMT-08:00", "GMT+23:59", "GMT+24:00", "GMT+5:30", "GMT+5", "GMT+05", "utc", "Utc",
            "america/los_angeles", "Americas/Los_Angeles", "US/Los Angeles", "EDT", "PDT", "CEST", "Z", ""]
    return [{"id": "zone-%04d" % i, "op": "zone", "id_text": z} for i, z in enumerate(ids)]


def main():
    rng = random.Random(20261121)
    cases = add_cases(rng) + format_cases(rng) + zone_cases()
    out = subprocess.run(["bash", ORACLE], input="\n".join(json.dumps(c) for c in cases) + "\n",
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        print(line)


if __name__ == "__main__":
    main()
