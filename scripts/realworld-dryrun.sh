#!/usr/bin/env bash
# Dry-runs every real-world coordinator of ../shared/realworld (the
# development corpus, kept outside this repository) that comes with a
# job.properties (the files stay where they are; see that folder's README),
# and summarizes the outcome: no crash, no hang, and the errors reported, by
# code.
# Usage: scripts/realworld-dryrun.sh [COORDC]  (default: target/release/coordc)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
COORDC=${1:-target/release/coordc}
ROOT=../shared/realworld
python3 - "$COORDC" "$ROOT" <<'PY'
import json, subprocess, sys, collections, re
coordc, root = sys.argv[1], sys.argv[2]
codes, outcomes = collections.Counter(), collections.Counter()
for line in open(f"{root}/manifest.jsonl"):
    app = json.loads(line)
    if app.get("kind") != "coordinator" or not app.get("properties"):
        continue
    cmd = [coordc, "dryrun", f"{root}/{app['file']}", "--config", f"{root}/{app['properties']}", "--limit", "5", "--format", "json"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        print("HANG", app["file"]); outcomes["hang"] += 1; continue
    if out.returncode not in (0, 1, 2):
        print("CRASH", out.returncode, app["file"], out.stderr[-500:]); outcomes["crash"] += 1; continue
    outcomes[f"exit {out.returncode}"] += 1
    found = sorted(set(re.findall(r"error\[([A-Z]+\d+)\]", out.stderr)))
    for c in found:
        codes[c] += 1
    print(app["id"], out.returncode, " ".join(found), "|", (re.findall(r"error\[[A-Z0-9]+\]: (.*)", out.stderr) or [""])[0][:110])
print(dict(outcomes))
print(dict(codes))
PY
