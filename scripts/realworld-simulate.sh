#!/usr/bin/env bash
# Simulates (quick form) every real-world coordinator of ../shared/realworld
# (the development corpus, kept outside this repository) that `coordc check`
# reports no error for, with its job.properties when the manifest lists one
# (the files stay where they are; see that folder's README), and reports any
# panic (exit 101) or timeout (10 s), then a summary.
#
# Usage: scripts/realworld-simulate.sh [COORDC]  (default: target/release/coordc)
# UNTIL_DAYS=N simulates until N days after the first action's nominal time
# instead of the quick form's default (the job's end, at most 31 days after
# its start, plus a day). Exits 1 when anything panicked or timed out.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
COORDC=${1:-target/release/coordc}
ROOT=../shared/realworld
if [ ! -x "$COORDC" ]; then
    echo "no $COORDC: build it first (cargo build --release)" >&2
    exit 2
fi
python3 - "$COORDC" "$ROOT" "${UNTIL_DAYS:-}" <<'PY'
import collections, datetime, glob, json, os, re, subprocess, sys, time

coordc, root, until_days = sys.argv[1], sys.argv[2], sys.argv[3]
TIMEOUT = 10

# Properties by file, from the manifest; every coordinator file, from the folder.
properties = {}
for line in open(f"{root}/manifest.jsonl"):
    app = json.loads(line)
    if app.get("properties"):
        properties[os.path.normpath(f"{root}/{app['file']}")] = f"{root}/{app['properties']}"
apps = []
for path in sorted(glob.glob(f"{root}/files/*.xml")):
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        continue
    if "<coordinator-app" in text:
        apps.append(os.path.normpath(path))

def run(args, timeout=TIMEOUT):
    started = time.monotonic()
    try:
        out = subprocess.run([coordc, *args], capture_output=True, text=True, timeout=timeout)
        return out.returncode, out.stdout, out.stderr, time.monotonic() - started
    except subprocess.TimeoutExpired:
        return None, "", "", time.monotonic() - started

outcomes = collections.Counter()
refusals = collections.Counter()
problems = []
slowest = []
actions_total = 0
for app in apps:
    config = ["--config", properties[app]] if app in properties else []
    name = os.path.basename(app)
    code, _, err, _ = run(["check", app, *config], timeout=60)
    if code is None or code == 101:
        problems.append(f"CHECK {'TIMEOUT' if code is None else 'PANIC'} {name}")
        outcomes["check crashed"] += 1
        continue
    if code != 0:
        outcomes["skipped: check reports errors"] += 1
        continue
    until = []
    if until_days:
        code, out, _, _ = run(["dryrun", app, *config, "--format", "json", "--limit", "1"])
        if code == 0:
            first = json.loads(out)["actions"]
            if first:
                t = datetime.datetime.strptime(first[0]["nominal_time"], "%Y-%m-%dT%H:%MZ")
                t += datetime.timedelta(days=int(until_days))
                until = ["--until", t.strftime("%Y-%m-%dT%H:%MZ")]
    code, out, err, took = run(["simulate", app, *config, *until, "--format", "json"])
    slowest.append((took, name))
    if code is None:
        problems.append(f"TIMEOUT (> {TIMEOUT} s) {name} {' '.join(config + until)}")
        outcomes["timeout"] += 1
    elif code == 101:
        panic = next((l for l in err.splitlines() if "panicked" in l), err[-300:])
        problems.append(f"PANIC {name} {' '.join(config + until)}\n    {panic}")
        outcomes["panic"] += 1
    elif code == 0:
        doc = json.loads(out)
        job = doc["jobs"][0]
        n = len(job["actions"])
        actions_total += n
        outcomes["simulated"] += 1
        print(f"ok      {name}: {job['status']}, {n} actions, {took:.2f} s")
    else:
        first = next((l for l in err.splitlines() if l.startswith("error")), err.strip()[:120])
        refusals[re.sub(r"`[^`]*`", "`…`", first)[:110]] += 1
        outcomes[f"refused (exit {code})"] += 1
        print(f"exit {code}  {name}: {first[:140]}")

print()
for p in problems:
    print(p)
print()
print(f"coordinators: {len(apps)} ({len(properties)} files with properties in the manifest)")
for k, v in sorted(outcomes.items()):
    print(f"  {k}: {v}")
print(f"  actions simulated: {actions_total}")
if refusals:
    print("refusals:")
    for k, v in refusals.most_common():
        print(f"  {v} x {k}")
slowest.sort(reverse=True)
print("slowest: " + ", ".join(f"{n} {t:.2f} s" for t, n in slowest[:3]))
sys.exit(1 if problems else 0)
PY
