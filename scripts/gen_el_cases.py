#!/usr/bin/env python3
"""Generates systematic EL cases and has the real commons-el 1.0 (the oracle in
../shared/oracles/el, in the development corpus, kept outside this repository)
compute the expected results.

  scripts/gen_el_cases.py matrix  > tests/data/el_matrix_cases.jsonl
  scripts/gen_el_cases.py doubles > tests/data/java_double_cases.jsonl

matrix: every binary operator over a grid of operand kinds (null, booleans,
longs, doubles, numeric and non-numeric strings, variables), and every unary
operator over the same grid. doubles: random doubles (random bit patterns,
seeded) written as shortest literals, whose value Java prints with Double.toString.
"""
import json
import random
import struct
import subprocess
import sys
import os

ORACLE = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "oracles", "el", "run.sh")
VARS = {"s": "abc", "n1": "1", "d1": "1.5", "e": "", "b": "true", "nul": None, "sp": " 2"}
OPERANDS = ["null", "true", "false", "0", "1", "-7", "2.5", "0.0", "1e300", "''", "'a'", "'10'", "'9'",
            "'2.5'", "'TRUE'", "s", "n1", "d1", "e", "b", "nul", "sp"]
BINARY = ["+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||"]
UNARY = ["-", "!", "not ", "empty "]


def matrix():
    cases = []
    for op in BINARY:
        for a in OPERANDS:
            for b in OPERANDS:
                cases.append(f"${{{a} {op} {b}}}")
    for op in UNARY:
        for a in OPERANDS:
            cases.append(f"${{{op}{a}}}")
    for a in OPERANDS:
        cases.append(f"${{{a} ? 'T' : 'F'}}")
        cases.append(f"x${{{a}}}y")
    return [{"id": f"matrix-{i:04d}", "expr": e, "vars": VARS} for i, e in enumerate(cases)]


def doubles():
    rng = random.Random(20261121)
    cases = []
    while len(cases) < 3000:
        bits = rng.getrandbits(64)
        d = struct.unpack("<d", struct.pack("<Q", bits))[0]
        if d != d or d in (float("inf"), float("-inf")):
            continue
        if len(cases) % 3 == 0:
            # also values in the plain-print range and near powers of ten
            d = rng.uniform(-1e8, 1e8) * 10 ** rng.randint(-12, 12)
        lit = repr(abs(d))
        if "e" not in lit and "." not in lit:
            lit += ".0"
        expr = f"${{-{lit}}}" if d < 0 else f"${{{lit}}}"
        cases.append({"id": f"double-{len(cases):04d}", "expr": expr, "vars": {}})
    return cases


def main():
    cases = matrix() if sys.argv[1] == "matrix" else doubles()
    inp = "\n".join(json.dumps(c) for c in cases)
    out = subprocess.run([ORACLE], input=inp, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        r = json.loads(line)
        keep = {k: r[k] for k in ("id", "expr", "vars", "ok", "value", "type", "error") if k in r}
        print(json.dumps(keep, ensure_ascii=False))


main()
