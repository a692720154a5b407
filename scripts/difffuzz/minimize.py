#!/usr/bin/env python3
"""Shrinks disagreements to minimal reproductions and groups them.

  scripts/difffuzz/minimize.py KIND DIFFS.jsonl --coordc PATH [--per-category K] [--all]

Takes the disagreements a run wrote (diffs.jsonl), up to K per category (the
unexplained ones; --all: the known ones too), and shrinks each case step by
step: every round proposes smaller variants of every case still shrinking
(characters and list items deleted, fields replaced by `*`, values by simpler
ones, zone by UTC, windows shortened, numbers halved), has both sides answer
them all in one batch (one JVM), and keeps the first variant that still
disagrees in the same category. The minimized cases, deduplicated, are printed
as JSON lines {"category","known","case","oracle","coordc"}.
"""
import argparse
import collections
import datetime
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402
import run  # noqa: E402


def deletions(text):
    """`text` with chunks removed: halves, quarters, ... single characters."""
    out = []
    n = len(text)
    size = max(1, n // 2)
    while True:
        for i in range(0, n, size):
            t = text[:i] + text[i + size:]
            if t != text and t not in out:
                out.append(t)
        if size == 1:
            break
        size = max(1, size // 2)
    return out


def el_candidates(case):
    out = []
    if case.get("functions"):
        c = dict(case)
        del c["functions"]
        out.append(c)
    for name in case["vars"]:
        c = dict(case, vars={k: v for k, v in case["vars"].items() if k != name})
        out.append(c)
        v = case["vars"][name]
        for simpler in ([] if v is None else [""] + deletions(v)[:12]):
            out.append(dict(case, vars=dict(case["vars"], **{name: simpler})))
    for e in deletions(case["expr"]):
        out.append(dict(case, expr=e))
    return out


def parse_t(s):
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%MZ")


def fmt_t(t):
    return "%04d-%02d-%02dT%02d:%02dZ" % (t.year, t.month, t.day, t.hour, t.minute)


def cron_candidates(case):
    out = []
    fields = case["cron"].split(" ")
    if len(fields) == 5:
        for i, f in enumerate(fields):
            repl = ["*"] + (["?"] if i in (2, 4) else [])
            items = f.split(",")
            if len(items) > 1:
                repl += [",".join(items[:j] + items[j + 1:]) for j in range(len(items))]
            repl += deletions(f)
            for r in repl:
                if r != f:
                    out.append(dict(case, cron=" ".join(fields[:i] + [r] + fields[i + 1:])))
    else:
        out += [dict(case, cron=t) for t in deletions(case["cron"])]
    if case["timezone"] != "UTC":
        out.append(dict(case, timezone="UTC"))
    for m in (1, 3, 10):
        if case.get("max", 1000) > m:
            out.append(dict(case, max=m))
    try:
        s, e = parse_t(case["start"]), parse_t(case["end"])
        span = e - s
        if span > datetime.timedelta(minutes=1):
            out.append(dict(case, end=fmt_t(s + span / 2)))
            out.append(dict(case, start=fmt_t(s + span / 2)))
        for r in (s.replace(minute=0), s.replace(hour=0, minute=0), s.replace(day=1, hour=0, minute=0),
                  s.replace(month=1, day=1, hour=0, minute=0)):
            if r != s:
                out.append(dict(case, start=fmt_t(r)))
                out.append(dict(case, start=fmt_t(r), end=fmt_t(r + span)))
        for r in (e.replace(minute=0), e.replace(hour=0, minute=0), e.replace(day=1, hour=0, minute=0),
                  e.replace(month=1, day=1, hour=0, minute=0)):
            if s < r < e:
                out.append(dict(case, end=fmt_t(r)))
    except ValueError:
        out += [dict(case, start=t) for t in deletions(case["start"])]
        out += [dict(case, end=t) for t in deletions(case["end"])]
    return out


def calendar_candidates(case):
    out = []
    op = case["op"]
    if op == "zone":
        return [dict(case, id_text=t) for t in deletions(case["id_text"])]
    if op == "format":
        out += [dict(case, pattern=p) for p in deletions(case["pattern"])]
        if case["tz"] != "UTC":
            out.append(dict(case, tz="UTC"))
    if op == "add":
        n = case["n"]
        for m in (0, 1, -1, n // 2, n // 10, -n):
            if abs(m) < abs(n) or (m == -n and n < 0):
                out.append(dict(case, n=m))
    try:
        t = parse_t(case["t"])
        for r in (t.replace(minute=0), t.replace(hour=0, minute=0), t.replace(day=1, hour=0, minute=0),
                  t.replace(month=1, day=1, hour=0, minute=0)):
            if r != t:
                out.append(dict(case, t=fmt_t(r)))
    except ValueError:
        pass
    return out


CANDIDATES = {"el": el_candidates, "cron": cron_candidates, "calendar": calendar_candidates}


def time_weight(text):
    """How far a datetime is from a round one (fewer non-zero fields is simpler)."""
    try:
        t = parse_t(text)
    except (ValueError, TypeError):
        return len(text or "")
    return sum(1 for v in (t.minute, t.hour, t.day - 1, t.month - 1) if v)


def complexity(case):
    """What shrinking decreases: text lengths first, then numbers and times."""
    size = 0
    for k, v in case.items():
        if k in ("start", "end", "t"):
            size += time_weight(v)
        elif isinstance(v, str):
            size += 4 * len(v)
        elif isinstance(v, dict):
            size += sum(4 * (len(n) + len(x or "")) + 1 for n, x in v.items())
        elif isinstance(v, int):
            size += len(str(abs(v)))
    if "start" in case and "end" in case:
        try:
            days = (parse_t(case["end"]) - parse_t(case["start"])).total_seconds() / 86400
            size += max(0, int(days).bit_length())
        except ValueError:
            pass
    if case.get("functions"):
        size += 1
    return size


def answer_all(kind, cases, coordc):
    """Both sides' answers to `cases` (given ids 0..n-1)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "cases.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for i, c in enumerate(cases):
                f.write(json.dumps(dict(c, id=i), ensure_ascii=False) + "\n")
        with open(path, "rb") as f:
            mine = subprocess.run([coordc, kind], stdin=f, capture_output=True, check=True).stdout
        oracle_path = os.path.join(d, "oracle.jsonl")
        if kind == "el":
            run.oracle_el(path, oracle_path, 10 ** 9)
        else:
            run.oracle_runner(kind, path, oracle_path, 2000,
                              os.path.join(run.ROOT, "target", "difffuzz", "oracle-runner"))
        oracle = [json.loads(l) for l in open(oracle_path, encoding="utf-8") if l.strip()]
    coordc_answers = [json.loads(l) for l in mine.decode("utf-8").splitlines() if l.strip()]
    return oracle, coordc_answers


def verdict(kind, case, o, c):
    v = compare.CLASSIFY[kind](case, o, c)
    if not v:
        return None
    if v[0] == "panic":
        return v + (c["panic"][:40],)
    return v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind")
    ap.add_argument("diffs")
    ap.add_argument("--coordc", required=True)
    ap.add_argument("--per-category", type=int, default=5)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--rounds", type=int, default=60)
    a = ap.parse_args()
    picked = collections.Counter()
    work = []
    for line in open(a.diffs, encoding="utf-8"):
        d = json.loads(line)
        if d["known"] and not a.all:
            continue
        key = d["category"] + (d["coordc"].get("panic", "")[:40] if d["category"] == "panic" else "")
        if picked[key] >= a.per_category:
            continue
        picked[key] += 1
        case = {k: v for k, v in d["case"].items() if k != "id"}
        work.append({"case": case, "want": None})
    # The target verdict of each case, recomputed (answers to the case itself).
    oracle, mine = answer_all(a.kind, [w["case"] for w in work], a.coordc)
    for w, o, c in zip(work, oracle, mine):
        w["want"] = verdict(a.kind, w["case"], o, c)
        w["answers"] = (o, c)
    work = [w for w in work if w["want"]]
    active = list(work)
    for rnd in range(a.rounds):
        if not active:
            break
        batch, owners = [], []
        for w in active:
            for cand in CANDIDATES[a.kind](w["case"]):
                batch.append(cand)
                owners.append(w)
        if not batch:
            break
        print("round %d: %d cases shrinking, %d candidates" % (rnd, len(active), len(batch)), file=sys.stderr)
        oracle, mine = answer_all(a.kind, batch, a.coordc)
        still = []
        taken = set()
        for cand, w, o, c in zip(batch, owners, oracle, mine):
            if id(w) in taken:
                continue
            if complexity(cand) < complexity(w["case"]) and verdict(a.kind, cand, o, c) == w["want"]:
                w["case"] = cand
                w["answers"] = (o, c)
                taken.add(id(w))
                still.append(w)
        active = still
    seen = set()
    for w in work:
        key = json.dumps(w["case"], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        o, c = w["answers"]
        print(json.dumps({"category": w["want"][0], "known": w["want"][1], "case": w["case"],
                          "oracle": compare.strip(o, w["case"]), "coordc": compare.strip(c, w["case"])},
                         ensure_ascii=False))


if __name__ == "__main__":
    main()
