#!/usr/bin/env python3
"""Replays the minimized disagreements of docs/robustness.md through both sides.

  scripts/difffuzz/replay.py --coordc target/difffuzz/release/examples/difffuzz [findings.jsonl]

Each line of findings.jsonl is {"kind","finding","case"}; the cases of each kind
go through coordc and the oracle in one batch, and each is printed with both
answers and whether they still disagree.
"""
import argparse
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402
from minimize import answer_all  # noqa: E402


def short(answer):
    for k in ("panic", "error", "expect", "value", "result", "text", "local", "accepted", "canonical"):
        if k in answer:
            v = answer[k]
            if k == "local":
                v = "%s (offset %s, dst %s)" % (v, answer.get("offset_min"), answer.get("dst"))
            if k == "value":
                v = "%s (%s)" % (json.dumps(v, ensure_ascii=False), answer.get("type"))
            return "%s: %s" % (k, v if not isinstance(v, list) else ", ".join(v[:6]) + (" ..." if len(v) > 6 else ""))
    return json.dumps(answer)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("findings", nargs="?", default=os.path.join(HERE, "findings.jsonl"))
    ap.add_argument("--coordc", required=True)
    a = ap.parse_args()
    by_kind = collections.defaultdict(list)
    for line in open(a.findings, encoding="utf-8"):
        if line.strip():
            f = json.loads(line)
            by_kind[f["kind"]].append(f)
    still = 0
    for kind, findings in by_kind.items():
        oracle, mine = answer_all(kind, [f["case"] for f in findings], a.coordc)
        for f, o, c in zip(findings, oracle, mine):
            v = compare.CLASSIFY[kind](f["case"], o, c)
            still += bool(v)
            print("%s [%s] %s\n  case:   %s\n  oracle: %s\n  coordc: %s" % (
                "DIFFERS" if v else "AGREES ", kind, f["finding"], json.dumps(f["case"], ensure_ascii=False),
                short(o), short(c)))
    print("%d of %d findings still differ" % (still, sum(map(len, by_kind.values()))))


if __name__ == "__main__":
    main()
