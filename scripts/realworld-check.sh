#!/usr/bin/env bash
# Checks every application of ../shared/realworld (the development corpus,
# kept outside this repository) laid out as in its repository
# (scripts/realworld_tree.py), so the job configuration is found where the
# repository keeps it, and prints every
# diagnostic as one line, `path: SEVERITY CODE message`, sorted, then the
# counts by severity and code. Two runs (e.g. before and after a change)
# compare with `diff`.
# Usage: scripts/realworld-check.sh [COORDC]  (default: target/release/coordc)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
COORDC=${1:-target/release/coordc}
ROOT=../shared/realworld
PYTHONPATH=scripts python3 - "$COORDC" "$ROOT" <<'PY'
import json, os, subprocess, sys, collections
from realworld_tree import link_tree
coordc, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
tree, _ = link_tree(root, "coordc-realworld-check-")
out = subprocess.run([coordc, "check", tree, "--format", "json"], capture_output=True, text=True, timeout=600)
if out.returncode not in (0, 1):
    print("FAILED", out.returncode, out.stderr[-2000:])
    sys.exit(1)
report = json.loads(out.stdout)
lines, counts = [], collections.Counter()
for d in report["diagnostics"]:
    path = os.path.relpath(d["file"], tree) if os.path.isabs(d["file"]) else d["file"].replace(tree + "/", "")
    message = d["message"].replace(tree + "/", "").replace("\n", " ")
    lines.append(f"{path}:{d.get('line', '?')}: {d['severity']} {d['code']} {message[:160]}")
    counts[(d["severity"], d["code"])] += 1
for l in sorted(lines):
    print(l)
print("files checked:", report.get("files_checked"))
for (severity, code), n in sorted(counts.items()):
    print(f"{severity} {code}: {n}")
PY
