#!/usr/bin/env python3
"""Compares the oracle's and coordc's answers, case by case.

  scripts/difffuzz/compare.py KIND cases.jsonl oracle.jsonl coordc.jsonl [diffs.jsonl]

A disagreement is:
el        ok differs, or both ok and value or type differ (as tests/oracles/el.rs);
cron      one fails and the other not, or the nominal times (`expect`) or the
          plain cron times (`expect_spec`) differ (as tests/oracles/cron.rs);
calendar  add: result; format: text; local: local time, offset, DST flag, days in
          month; zone: whether Oozie accepts the ID (Java gives back the ID, after
          Oozie's GMT+HHMM -> GMT+HH:MM rewrite); or one fails and the other not.

Each disagreement gets a category, and `known` with the reason when it is one
of the documented artefacts (docs/robustness.md, "Differential fuzzing"):
they are still printed and counted.
"""
import collections
import json
import datetime
import re
import sys

# Zones whose DST chrono-tz (tzdb 2025b) and the JDK 17 (tzdb 2025a) predict
# differently: Morocco's Ramadan rule (docs/time.md).
MOROCCO = {"Africa/Casablanca", "Africa/El_Aaiun"}
GMT_HHMM = re.compile(r"^GMT([+-])(\d{2})(\d{2})$")
# Quartz 2.3.2's CronExpression.MAX_YEAR: the year it was loaded, plus 100.
MAX_YEAR = datetime.date.today().year + 100


def year_of(t):
    m = re.match(r"^([-+]?\d+)-", t or "")
    return int(m.group(1)) if m else None


def days_from_civil(y, m, d):
    """Days since 1970-01-01 of a proleptic Gregorian date, any year."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def minutes_of(t):
    m = re.match(r"^([-+]?\d+)-(\d\d)-(\d\d)T(\d\d):(\d\d)Z$", t or "")
    if not m:
        return None
    y, mo, d, h, mi = map(int, m.groups())
    return days_from_civil(y, mo, d) * 1440 + h * 60 + mi


def el_classify(case, o, c):
    if "panic" in c:
        return "panic", None
    if "oracle_timeout" in o:
        return "oracle-timeout", None
    if o.get("ok") != c.get("ok"):
        if o.get("ok"):
            if "Unable to find a value for" in c.get("error", ""):
                return "property-access", "coordc refuses property access on non-null values (docs/el.md)"
            text = case["expr"] + "".join(v or "" for v in case["vars"].values())
            if "to type" in c.get("error", "") and any(ch.isdigit() and not ch.isascii() for ch in text):
                return "non-ascii-digits", "Long.valueOf reads non-ASCII digits, coordc does not (docs/el.md)"
            return "coordc-fails", None
        return "coordc-accepts", None
    if not o.get("ok"):
        return None
    if o.get("value") != c.get("value"):
        return "value", None
    if o.get("type") != c.get("type"):
        return "type", None
    return None


FIELD_MAX = [59, 23, 31, 12, 7]


def java_trim(text):
    """String.trim(): strips every char <= U+0020 (Rust's trim strips Unicode spaces)."""
    i, j = 0, len(text)
    while i < j and text[i] <= " ":
        i += 1
    while j > i and text[j - 1] <= " ":
        j -= 1
    return text[i:j]


def range_step_over_max(i, item):
    m = re.match(r"^\d+-\d+/(\d+)$", item)
    return m and int(m.group(1)) > FIELD_MAX[i]


# The causes read from one item (`item`, of field `i`), in the order they are
# looked for.
ITEM_CAUSES = {
    "star-suffix": lambda i, item: re.match(r"^\*[^/]", item),
    "name-suffix": lambda i, item: re.match(r"^[A-Za-z]{4,}-", item),
    "quartz-98-99": lambda i, item: re.search(r"(^|-)(98|99)($|[-/])", item),
    "step-zero": lambda i, item: re.search(r"(^|[^*\d])\d+(-\d+)?/0+$", item)
    or re.match(r"^[A-Za-z]+(-[A-Za-z]+)?/0+$", item),
    "name-then-step": lambda i, item: re.match(r"^[A-Za-z]{3}[A-Za-z]*(-[A-Za-z]{3}[A-Za-z]*)?/", item),
    "range-suffix": lambda i, item: re.match(r"^\d+-\d+[^\d/]", item) or re.match(r"^\d+-\d+/\d+\D", item),
    "value-suffix": lambda i, item: re.match(r"^\d+[^\d\-/LW#]", item),
    "L-outside-days": lambda i, item: i in (0, 1, 3) and "L" in item.upper(),
    "range-step-over-max": range_step_over_max,
}


def item_cause(i, field, wanted):
    """The first cause among `wanted` that an item of `field` shows."""
    for item in field.split(","):
        for cause, shows in ITEM_CAUSES.items():
            if cause in wanted and shows(i, item):
                return cause
    return None


def text_cause(case, fields):
    """The cause when a datetime or the cron's fields hold text coordc
    refuses on purpose: a non-ASCII digit or a long number in a datetime,
    a tab inside a field."""
    for t in (case["start"], case["end"]):
        if any(ch.isdigit() and not ch.isascii() for ch in t):
            return "datetime-non-ascii-digit"
        if re.search(r"\d{10,}", t):
            return "datetime-long-number"
    if len(fields) == 5 and any("\t" in f for f in fields):
        return "tab-in-field"
    return None


def deliberate_cause(case, c):
    """The cause when the cron holds an item coordc refuses on purpose
    (docs/robustness.md, "Decisions"), or a character outside cron's
    syntax, which Quartz skips where it stops reading an item."""
    if "unexpected character" in c.get("error", ""):
        return "unexpected-character"
    fields = java_trim(case["cron"]).split(" ")
    cause = text_cause(case, fields)
    if cause:
        return cause
    if len(fields) == 5 and re.search(r"(^|,)0+W", fields[2].upper()):
        return "zero-W"
    for i, f in enumerate(fields):
        cause = item_cause(i, f, DELIBERATE)
        if cause:
            return cause
        if i in (2, 4) and "," in f and re.search(r"\dW|#\d", f.upper()):
            return "list-with-W-or-#"
    return None


def cron_cause(case, o, c):
    """A likely root cause of a cron disagreement, from the case's text (checked
    on minimized cases: docs/robustness.md)."""
    text, tz = case["cron"], case["timezone"]
    if tz.startswith("SystemV/") and c.get("error_stage") == "timezone":
        return "zone-systemv"
    if any(java_trim(t) != t.strip() for t in (text, case["start"], case["end"])):
        return "trim-unicode-space"
    fields = java_trim(text).split(" ")
    cause = text_cause(case, fields)
    if cause:
        return cause
    years = [year_of(java_trim(case.get("start", "")))] + [year_of(t) for t in (o.get("expect") or [])[:1]]
    if any(y is not None and y < 1970 for y in years):
        return "before-1970"
    if "cannot be combined with other values in a list" in c.get("error", "") and not o.get("expect_error"):
        return "list-with-W-or-#"
    if len(fields) == 5:
        if "L" in fields[4].upper() and "," in fields[4]:
            return "dow-L-in-list"
        for i in (0, 1, 3):
            if "L" in fields[i].upper().split(","):
                return "L-outside-days"
        if any(re.match(r"^(29|30|31)W", item.upper()) for item in fields[2].split(",")):
            return "nW-short-month"
        for i in (2, 3, 4):
            if any(re.match(r"^\d+-0+(/\d+)?$", item) for item in fields[i].split(",")):
                return "range-end-zero"
        for i, f in enumerate(fields):
            cause = item_cause(i, f, ITEM_CAUSES)
            if cause:
                return cause
    return None


def cron_classify(case, o, c):
    if "panic" in c:
        return "panic", None
    if o.get("oracle_timeout"):
        if c.get("expect_error"):
            return "oracle-hang", "Quartz 2.3.2 loops forever on this expression (Oozie would hang); coordc rejects it"
        return "oracle-hang-coordc-answers", None
    if c.get("hour_24") and o.get("expect_error") and not c.get("expect_error"):
        return "hour-24", "coordc reads the spec's T24:00 (warning TM004, docs/time.md); Oozie rejects it"
    npe = o.get("error", "")
    # (The JVM throws a hot NullPointerException without its message:
    # -XX:+OmitStackTraceInFastThrow; then the window reaching past MAX_YEAR
    # tells it.)
    end_year = year_of(case.get("end", ""))
    past_max_year = end_year is not None and end_year > MAX_YEAR
    if "NullPointerException" in npe and not c.get("expect_error") and (
            ("date" in npe and "null" in npe) or (npe.rstrip().endswith("NullPointerException:") and past_max_year)):
        return "quartz-max-year", ("Quartz 2.3.2 finds nothing after MAX_YEAR (this year + 100): the oracle's "
                                   "single materialization pass hits a null; Oozie materializes a window at a time")
    if bool(o.get("expect_error")) != bool(c.get("expect_error")):
        category = "coordc-fails" if c.get("expect_error") else "coordc-accepts"
    elif o.get("expect_error"):
        return None
    elif o.get("expect_spec") != c.get("expect_spec"):
        category = "cron-times"
    elif o.get("expect") != c.get("expect"):
        category = "dst-shift"
        if case["timezone"] == "Africa/Windhoek":
            return category, ("Namibia: the JDK's (rearguard) data has 1990-1994 as +1 with DST +1, chrono-tz's "
                              "+2 standard, so Oozie's DST shift differs")
        if any(year_of(t) >= 2037 for t in o["expect"] + c["expect"]):
            return category, "past 2037: chrono-tz has no DST rules, the JDK extends the last rule (docs/time.md)"
        if case["timezone"] in MOROCCO:
            return category, "Morocco's Ramadan DST: chrono-tz's tzdb predicts it differently (docs/time.md)"
    else:
        return None
    cause = cron_cause(case, o, c)
    if category == "coordc-fails":
        # coordc refuses a whole cron for one item it refuses on purpose,
        # whatever else the cron holds.
        cause = deliberate_cause(case, c) or cause
        if cause in DELIBERATE:
            return category + "/" + cause, "deliberate: " + DELIBERATE[cause]
    if category == "dst-shift" and case["timezone"] in ("Europe/Dublin", "Eire") and any(
            "1968" <= t[:4] <= "1971" for t in o["expect"][:1] + c["expect"][:1]):
        return category, ("Ireland's all-year summer time of 1968-71: standard time in tzdb's main form "
                          "(chrono-tz), DST in the JDK's rearguard data, so Oozie's DST shift differs")
    return (category + "/" + cause if cause else category), None


# The differences docs/robustness.md ("Decisions") keeps on purpose: coordc
# refuses a text Quartz or SimpleDateFormat reads only in part.
DELIBERATE = {
    "range-suffix": "Quartz ignores what follows a range (C4)",
    "star-suffix": "Quartz ignores what follows `*` (C6)",
    "quartz-98-99": "98 and 99 are Quartz's markers for `?` and `*` (C7)",
    "tab-in-field": "Oozie splits on single spaces; Quartz also on tabs (C8)",
    "datetime-long-number": "SimpleDateFormat reads numbers of any length (C10)",
    "datetime-non-ascii-digit": "SimpleDateFormat reads any Unicode digit (C10)",
    "zone-systemv": "tzdb dropped the SystemV zones in 2020b; chrono-tz has none (C13)",
    "L-outside-days": "Quartz ignores `L` in the minute, hour and month fields (C15)",
    "list-with-W-or-#": "Quartz keeps one W or # flag for a whole list (C16)",
    "value-suffix": "Quartz ignores what follows a number (C17)",
    "zero-W": "Quartz accepts day-of-month `0W`, and loops forever when it must find one (the oracle hangs)",
    "unexpected-character": "coordc refuses characters outside cron's syntax, which Quartz skips where it stops reading an item (C3, C4, C6, C17)",
}


# Zones whose DST is negative in tzdb's main form (Irish Standard Time is the
# summer time; Namibia 1994-2017; Morocco): chrono-tz reads that form, the JDK
# the rearguard one, so `Zone::dst_seconds` has the other sign in the other
# season. DaylightOffsetCalculator's shift comes out the same either way.
NEGATIVE_DST = {"Europe/Dublin", "Eire", "Africa/Windhoek"}
# IDs the two tzdb releases disagree on (JDK 17 here: 2025a; chrono-tz 0.10.4: 2025b).
TZDB_SKEW = {"America/Coyhaique"}
# Iran's 1977-1980 history was corrected in tzdb 2025b.
TZDB_SKEW_YEARS = {"Asia/Tehran": (1976, 1980), "Iran": (1976, 1980)}
# Java's fixed-offset legacy IDs; tzdb 2024b made them links to regions with history.
JAVA_FIXED = {"EST", "MST", "HST"}


def calendar_known(case, o, c, category):
    tz = case.get("tz", "")
    if str(tz).startswith("SystemV/"):
        return "deliberate: " + DELIBERATE["zone-systemv"]
    times = [case.get("t"), o.get("result"), c.get("result")]
    years = [y for y in map(year_of, times) if y is not None]
    if tz in MOROCCO:
        return "Morocco's Ramadan DST: chrono-tz's tzdb predicts it differently from the JDK's (docs/time.md)"
    if tz in TZDB_SKEW:
        return "tzdb release skew: %s is new in tzdb 2025b (chrono-tz), the JDK here has 2025a" % tz
    span = TZDB_SKEW_YEARS.get(tz)
    if span and years and any(span[0] <= y <= span[1] for y in years):
        return "tzdb release skew: tzdb 2025b (chrono-tz) corrected %s's %d-%d offsets, the JDK has 2025a" % (
            tz, span[0], span[1])
    if years and min(years) < 1900:
        return ("before 1900: the JDK's TimeZone drops tzdb's pre-1900 offsets (LMT), its calendar is Julian "
                "before 1582-10-15 and prints BC years unsigned")
    if "error" in c and o.get("result") and case["op"] == "add":
        years_per = {"MINUTE": 1 / 525960, "HOUR": 1 / 8766, "DAY": 1 / 365.25, "WEEK": 7 / 365.25,
                     "MONTH": 1 / 12, "YEAR": 1}[case["unit"]]
        if abs((year_of(case["t"]) or 0) + case["n"] * years_per) > 262000:
            return ("out of chrono's calendar (years -262143..262142, docs/time.md); the JDK's reaches 292 "
                    "million years and wraps around past that")
    if category == "local-dst" and tz in NEGATIVE_DST:
        return ("negative DST: chrono-tz uses tzdb's main form (winter time is DST -1h), the JDK the rearguard "
                "form (summer time is DST +1h); Oozie's DST shift comes out the same")
    if years and max(years) >= 2037 and case["op"] in ("add", "local"):
        if case["op"] == "add":
            a, b = minutes_of(o.get("result")), minutes_of(c.get("result"))
            # An hour or two of DST, or a day when the source's wall time is across midnight.
            if a is not None and b is not None and abs(a - b) % 30 == 0 and 0 < abs(a - b) <= 26 * 60:
                return "past 2037: chrono-tz has no DST rules, the JDK extends the last rule (docs/time.md)"
        elif o.get("local") != c.get("local") or o.get("dst") != c.get("dst"):
            return "past 2037: chrono-tz has no DST rules, the JDK extends the last rule (docs/time.md)"
    return None


def calendar_classify(case, o, c):
    if "panic" in c:
        return "panic", None
    if o.get("oracle_timeout"):
        return "oracle-timeout", None
    op = case["op"]
    if op == "zone":
        canonical = o.get("canonical")
        id_text = case["id_text"]
        m = GMT_HHMM.match(id_text)
        want = id_text if not m else "GMT%s%s:%s" % m.groups()
        java = canonical == want if not m else None
        if m:
            # Java gives "GMT+05:30" for GMT+0530 when hours <= 23 and minutes <= 59;
            # Oozie's rewrite then compares the rewritten form.
            h, mi = int(m.group(2)), int(m.group(3))
            java = h <= 23 and mi <= 59 and canonical == want
        if java != c.get("accepted"):
            cat = "zone-accepted" if c.get("accepted") else "zone-rejected"
            if id_text.startswith("SystemV/"):
                cat = "zone-systemv"
            return cat, calendar_known({"tz": id_text, "op": "zone"}, o, c, cat)
        return None
    if str(case.get("tz", "")).startswith("SystemV/") and "error" in c and "error" not in o:
        return "%s-zone-systemv" % op, "deliberate: " + DELIBERATE["zone-systemv"]
    if ("error" in o) != ("error" in c):
        kind = "%s-%s" % (op, "coordc-fails" if "error" in c else "coordc-accepts")
        return kind, calendar_known(case, o, c, kind)
    if "error" in o:
        return None
    if op == "add" and isinstance(c.get("result"), str) and c["result"].startswith("+") \
            and c["result"][1:] == o.get("result"):
        return "add-year-plus-sign", None
    if op == "add" and case.get("n") == 0 and o.get("result") != c.get("result"):
        return "add-zero", None
    if case.get("tz") in JAVA_FIXED and ("error" in o) == ("error" in c) and all(
            (y or 2000) >= 1900 for y in map(year_of, [case.get("t"), o.get("result"), c.get("result")])):
        fields = ["result", "local", "offset_min", "dst"]
        if any(o.get(f) != c.get(f) for f in fields):
            return "%s-java-fixed-id" % op, None
    if op == "format" and case.get("tz") in ("GMT+0000", "GMT-0000") and o.get("text") != c.get("text"):
        return "format-gmt-zero", calendar_known(case, o, c, "format-gmt-zero")
    fields = {"add": ["result"], "format": ["text"], "local": ["local", "offset_min", "dst", "days_in_month"]}[op]
    for f in fields:
        if o.get(f) != c.get(f):
            return "%s-%s" % (op, f), calendar_known(case, o, c, "%s-%s" % (op, f))
    return None


CLASSIFY = {"el": el_classify, "cron": cron_classify, "calendar": calendar_classify}


def strip(answer, case):
    """The answer without the echoed input fields."""
    return {k: v for k, v in answer.items() if k == "id" or k not in case}


def brief(answer, other):
    """`answer` for printing: long lists cut around the first place they differ
    from `other`'s."""
    out = {}
    for k, v in answer.items():
        if isinstance(v, list) and len(v) > 8:
            w = other.get(k) if isinstance(other.get(k), list) else []
            first = next((i for i, (a, b) in enumerate(zip(v, w)) if a != b), min(len(v), len(w)))
            lo = max(0, first - 2)
            v = (["...%d before" % lo] if lo else []) + v[lo:lo + 6] + (
                ["...%d after" % (len(v) - lo - 6)] if len(v) > lo + 6 else [])
        out[k] = v
    return out


def compare_files(kind, cases_path, oracle_path, coordc_path, diffs_path=None, show=10 ** 9):
    classify = CLASSIFY[kind]
    stats = {"cases": 0, "disagreements": 0, "known": 0, "categories": collections.Counter(),
             "known_categories": collections.Counter(), "oracle_timeouts": 0, "missing": 0}
    diffs = open(diffs_path, "w", encoding="utf-8") if diffs_path else None
    shown = 0
    with open(cases_path, encoding="utf-8") as fc, open(oracle_path, encoding="utf-8") as fo, \
            open(coordc_path, encoding="utf-8") as fd:
        oracle = (json.loads(l) for l in fo if l.strip())
        coordc = (json.loads(l) for l in fd if l.strip())
        for line in fc:
            if not line.strip():
                continue
            case = json.loads(line)
            stats["cases"] += 1
            o = next(oracle, None)
            c = next(coordc, None)
            if o is None or c is None or o.get("id") != case["id"] or c.get("id") != case["id"]:
                stats["missing"] += 1
                print("MISSING answer for case %s (oracle %s, coordc %s)" % (case["id"], o and o.get("id"),
                                                                           c and c.get("id")))
                break
            if o.get("oracle_timeout"):
                stats["oracle_timeouts"] += 1
            verdict = classify(case, o, c)
            if not verdict:
                continue
            category, known = verdict
            stats["disagreements"] += 1
            stats["categories"][category] += 1
            if known:
                stats["known"] += 1
                stats["known_categories"][category] += 1
            record = {"category": category, "known": known, "case": case, "oracle": strip(o, case),
                      "coordc": strip(c, case)}
            if diffs:
                diffs.write(json.dumps(record, ensure_ascii=False) + "\n")
            if shown < show:
                shown += 1
                print("%s [%s]%s\n  case:   %s\n  oracle: %s\n  coordc: %s" % (
                    "KNOWN" if known else "DIFF", category, (" " + known) if known else "",
                    json.dumps(case, ensure_ascii=False),
                    json.dumps(brief(record["oracle"], record["coordc"]), ensure_ascii=False),
                    json.dumps(brief(record["coordc"], record["oracle"]), ensure_ascii=False)))
    if diffs:
        diffs.close()
    return stats


def summary(kind, n, seed, stats, times=None):
    lines = ["%s: %d cases%s, %d disagreements (%d known artefacts, %d unexplained)%s" % (
        kind, stats["cases"], "" if seed is None else " (seed %d)" % seed, stats["disagreements"], stats["known"],
        stats["disagreements"] - stats["known"],
        ", %d oracle timeouts" % stats["oracle_timeouts"] if stats["oracle_timeouts"] else "")]
    for cat, k in sorted(stats["categories"].items(), key=lambda x: -x[1]):
        lines.append("  %-28s %d%s" % (cat, k, " (known %d)" % stats["known_categories"][cat]
                                        if stats["known_categories"][cat] else ""))
    if stats["missing"]:
        lines.append("  answers missing from case %d on" % stats["cases"])
    if times:
        lines.append("  times: " + ", ".join("%s %.1f" % kv for kv in times.items()))
        if times.get("oracle_s"):
            lines.append("  oracle rate: %.0f cases/s" % (stats["cases"] / max(times["oracle_s"], 1e-9)))
    return "\n".join(lines) + "\n"


def main():
    kind = sys.argv[1]
    stats = compare_files(kind, sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None)
    print(summary(kind, stats["cases"], None, stats), end="")
    sys.exit(1 if stats["disagreements"] else 0)


if __name__ == "__main__":
    main()
