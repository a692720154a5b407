#!/usr/bin/env bash
# Runs every real-world workflow of ../shared/realworld (the development
# corpus, kept outside this repository) that `coordc check` reports no error
# for (with its job.properties when the manifest lists one; the files stay
# where they are) through `coordc simulate`, twice: every action ok, then
# every action in error. Reports any panic (exit 101), timeout (10 s) or end
# that the graph does not allow: all ok must not end KILLED at the first error
# (none happens), all error must end KILLED at a kill node, FAILED (an EL
# error, e.g. a variable no configuration gives) or SUCCEEDED only when an
# error transition leads to `end`. Then a summary.
#
# Usage: scripts/realworld-simulate-workflows.sh [COORDC]  (default: target/release/coordc)
# Exits 1 when anything panicked, timed out or ended where its graph cannot.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
COORDC=${1:-target/release/coordc}
ROOT=../shared/realworld
if [ ! -x "$COORDC" ]; then
    echo "no $COORDC: build it first (cargo build --release)" >&2
    exit 2
fi
ERRORS=$(mktemp --suffix=.toml)
trap 'rm -f "$ERRORS"' EXIT
printf '[actions]\noutcome = "error"\nerror_code = "JA018"\n' > "$ERRORS"
python3 - "$COORDC" "$ROOT" "$ERRORS" <<'PY'
import collections, glob, json, os, subprocess, sys

coordc, root, errors = sys.argv[1], sys.argv[2], sys.argv[3]
TIMEOUT = 10
properties = {}
for line in open(f"{root}/manifest.jsonl"):
    app = json.loads(line)
    if app.get("properties"):
        properties[os.path.normpath(f"{root}/{app['file']}")] = f"{root}/{app['properties']}"
apps = []
for path in sorted(glob.glob(f"{root}/files/*.xml")):
    text = open(path, encoding="utf-8", errors="replace").read()
    if "<workflow-app" in text:
        apps.append(os.path.normpath(path))

def run(args):
    try:
        p = subprocess.run([coordc] + args, capture_output=True, text=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"

bad, tally = [], collections.Counter()
for app in apps:
    config = ["--config", properties[app]] if app in properties else []
    code, _, _ = run(["check", "--format", "json", app] + config)
    if code != 0:
        tally["not clean"] += 1
        continue
    for name, scenario in [("ok", []), ("error", ["--scenario", errors])]:
        code, out, err = run(["simulate", app, "--format", "json"] + config + scenario)
        if code is None or code == 101:
            bad.append(f"{app} ({name}): {'timeout' if code is None else 'panic'}: {err.strip()[:300]}")
            continue
        if code != 0:
            tally[f"{name}: refused (exit {code})"] += 1
            continue
        result = json.loads(out)
        status = result["status"]
        tally[f"{name}: {status}"] += 1
        kinds = {n["name"]: n["type"] for n in result["nodes"]}
        end = result["end_node"]
        if name == "ok" and status == "KILLED" and any(n["status"] == "ERROR" for n in result["nodes"]):
            bad.append(f"{app} (ok): an action in ERROR with every action ok")
        if name == "error":
            actions = [n for n in result["nodes"] if n["type"] == "action"]
            if status == "KILLED" and kinds.get(end) != "kill":
                bad.append(f"{app} (error): KILLED at {end}, not a kill node")
            if status == "SUCCEEDED" and not any(n["status"] == "ERROR" and n["transition"] for n in actions) and actions:
                bad.append(f"{app} (error): SUCCEEDED without an error transition taken")
            if status not in ("KILLED", "FAILED", "SUCCEEDED"):
                bad.append(f"{app} (error): {status}")
print(f"{len(apps)} workflows")
for k, v in sorted(tally.items()):
    print(f"  {k}: {v}")
for b in bad:
    print("BAD", b)
sys.exit(1 if bad else 0)
PY
