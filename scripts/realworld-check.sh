#!/usr/bin/env bash
# Checks every application of ../shared/realworld (the development corpus,
# kept outside this repository) laid out as in its repository (symbolic links
# in a temporary folder, each repository with a `.git` folder as its root; see
# that folder's README: the files are never copied into the project), so the
# job configuration is found where the repository keeps it, and prints every
# diagnostic as one line, `path: SEVERITY CODE message`, sorted, then the
# counts by severity and code. Two runs (e.g. before and after a change)
# compare with `diff`.
# Usage: scripts/realworld-check.sh [COORDC]  (default: target/release/coordc)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
COORDC=${1:-target/release/coordc}
ROOT=../shared/realworld
python3 - "$COORDC" "$ROOT" <<'PY'
import json, os, subprocess, sys, tempfile, collections
coordc, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
tree = tempfile.mkdtemp(prefix="coordc-realworld-check-")
linked = set()
for line in open(f"{root}/manifest.jsonl"):
    app = json.loads(line)
    repo = os.path.join(tree, app["repo"].replace("/", "__"))
    os.makedirs(os.path.join(repo, ".git"), exist_ok=True)
    folder = os.path.dirname(os.path.join(repo, app["path"]))
    flat_prefix = app["file"][: -len(os.path.basename(app["path"]))]
    # The application, and every file of its folder the collection kept
    # (its properties, config-default.xml, included datasets).
    for name in os.listdir(f"{root}/files"):
        source = f"files/{name}"
        if not source.startswith(flat_prefix) or "__" in name[len(flat_prefix) - len("files/"):]:
            continue
        dest = os.path.join(folder, name[len(flat_prefix) - len("files/"):])
        if dest not in linked:
            os.makedirs(folder, exist_ok=True)
            os.symlink(f"{root}/{source}", dest)
            linked.add(dest)
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
