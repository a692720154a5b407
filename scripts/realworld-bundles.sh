#!/usr/bin/env bash
# Checks every real-world bundle of ../shared/realworld (the development
# corpus, kept outside this repository) through to the coordinators it
# submits, where those are in the same repository. The files are laid out in a
# temporary folder as in their repositories (see that folder's README: they
# are never copied into the project), each bundle is checked with its
# properties and the --map that places its app-paths in that layout, and the
# outcome is summarized: no crash, how many coordinators were reached, and
# every diagnostic, by file and code.
# Usage: scripts/realworld-bundles.sh [COORDC]  (default: target/release/coordc)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
COORDC=${1:-target/release/coordc}
ROOT=../shared/realworld
python3 - "$COORDC" "$ROOT" <<'PY'
import json, os, subprocess, sys, tempfile, collections
coordc, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
import getpass
user = getpass.getuser()  # as coordc finds the local user: $USER, $LOGNAME, else the password file
tree = tempfile.mkdtemp(prefix="coordc-realworld-bundles-")
apps = [json.loads(line) for line in open(f"{root}/manifest.jsonl")]
for app in apps:
    dest = os.path.join(tree, app["repo"], app["path"])
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    os.symlink(f"{root}/{app['file']}", dest)
# Where each bundle's app-paths point, in its repository's layout (read off
# the bundle and its properties).
maps = {
    "b001": [(f"hdfs://localhost:8020/user/{user}/examples", "examples/src/main")],
    "b011": [("hdfs://sandbox.hortonworks.com:8020/user/hue/learn_oozie", "learn_oozie")],
    "b017": [("hdfs://analytics-hadoop/wmf/refinery/current/oozie", "oozie")],
}
outcomes, codes = collections.Counter(), collections.Counter()
for app in apps:
    if app["kind"] != "bundle" or not app["path"].endswith(".xml"):
        continue
    cmd = [coordc, "check", "--format", "json", os.path.join(tree, app["repo"], app["path"])]
    if app.get("properties"):
        cmd += ["--config", f"{root}/{app['properties']}"]
    for prefix, local in maps.get(app["id"], []):
        # (`local` is a folder of the bundle's repository.)
        cmd += ["--map", f"{prefix}={os.path.join(tree, app['repo'], local)}"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        print("HANG", app["id"]); outcomes["hang"] += 1; continue
    if out.returncode not in (0, 1):
        print("FAILED", out.returncode, app["id"], out.stderr[-500:]); outcomes[f"exit {out.returncode}"] += 1; continue
    outcomes[f"exit {out.returncode}"] += 1
    report = json.loads(out.stdout)
    reached = report["files_checked"] - 1
    outcomes["coordinators reached"] += reached
    print(f"{app['id']} {app['repo']}/{app['path']}: exit {out.returncode}, {reached} coordinator check(s)")
    for d in report["diagnostics"]:
        codes[d["code"]] += 1
        where = os.path.relpath(d["file"], tree) if d["file"].startswith(tree) else d["file"]
        print(f"    {d['severity']} {d['code']} {where}:{d['line']}: {d['message'][:150]}")
print(dict(outcomes))
print(dict(codes))
PY
