#!/usr/bin/env bash
# Exports to Airflow, and verifies with Airflow, every real-world coordinator
# of ../shared/realworld (the development corpus, kept outside this
# repository, laid out by scripts/realworld_tree.py) that checks clean: no
# error of `coordc check` in its file. Prints the export report's counts by
# status, each reason something is not exported, and the verifier's
# summary and divergences; exits 1 on a crash, an import error or a
# divergence the export did not announce (a schedule it refused).
# Usage: scripts/realworld-export.sh [COORDC] [PYTHON]
#   (defaults: target/release/coordc, .venv-airflow/bin/python)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
COORDC=${1:-target/release/coordc}
PYTHON=${2:-.venv-airflow/bin/python}
ROOT=../shared/realworld
PYTHONPATH=scripts python3 - "$COORDC" "$PYTHON" "$ROOT" <<'PY'
import collections, json, os, re, subprocess, sys
from realworld_tree import link_tree
coordc, python, root = (os.path.abspath(a) for a in sys.argv[1:4])
tree, apps = link_tree(root, "coordc-realworld-export-")
checked = subprocess.run([coordc, "check", tree, "--format", "json"], capture_output=True, text=True, timeout=600)
if checked.returncode not in (0, 1):
    print("CHECK FAILED", checked.returncode, checked.stderr[-2000:])
    sys.exit(1)
with_errors = {
    os.path.realpath(d["file"] if os.path.isabs(d["file"]) else os.path.join(tree, d["file"]))
    for d in json.loads(checked.stdout)["diagnostics"]
    if d["severity"] == "error"
}
coordinators = [a for a in apps if a["kind"] == "coordinator"]
clean = [a["linked"] for a in coordinators if os.path.realpath(a["linked"]) not in with_errors]
print(f"{len(clean)} of {len(coordinators)} real-world coordinators check clean")
out_dir = os.path.join(tree, "dags")
export = subprocess.run(
    [coordc, "export", "airflow", *clean, "--out", out_dir, "--format", "json", "--verify", "--python", python],
    capture_output=True, text=True, timeout=3600,
)
if export.returncode not in (0, 1):
    print("EXPORT FAILED", export.returncode, export.stderr[-3000:])
    sys.exit(1)
# The JSON report is the first document on stdout; the verifier's lines follow.
report, end = json.JSONDecoder().raw_decode(export.stdout)
verified = export.stdout[end:]
statuses, reasons = collections.Counter(), collections.Counter()
for app in report["apps"]:
    for item in app["items"]:
        statuses[item["status"]] += 1
        if item["status"] == "refused":
            reasons[re.sub(r"`[^`]*`", "`…`", item["detail"])[:100]] += 1
print(f"{len(report['apps'])} DAGs written; items: {dict(statuses)}")
for reason, n in reasons.most_common():
    print(f"  refused {n:3}: {reason}")
summaries = re.findall(r"^(\S+): (\d+) runs, (\d+) data-ins, (\d+) divergences(?: \(sampled: .*\))?$", verified, re.M)
runs = sum(int(s[1]) for s in summaries)
# A schedule the export refused (Oozie's times going back) diverges where it
# said; every other DAG must not diverge at all.
refused_schedule = {
    app["dag_id"] for app in report["apps"]
    if any(i["status"] == "refused" and i["what"].startswith("schedule") for i in app["items"])
}
divergent = [s for s in summaries if s[3] != "0"]
unexpected = [s for s in divergent if s[0] not in refused_schedule]
print(f"verified {len(summaries)} DAGs, {runs} runs: {len(divergent)} with divergences, "
      f"{len(divergent) - len(unexpected)} of them where the export refused the schedule")
for dag, dag_runs, _, divergences in divergent:
    known = " (schedule refused at export)" if dag in refused_schedule else ""
    print(f"  {dag}: {dag_runs} runs, {divergences} divergences{known}")
# The verifier's lines other than summaries, without the divergences the
# export announced (a divergence's heading and its two value lines).
problems, announced = [], False
for l in verified.splitlines():
    if l.startswith(("  Oozie:", "  Airflow:")):
        if not announced:
            problems.append(l)
    elif l and not re.match(r"^\S+: \d+ runs, ", l) and "[info" not in l:
        announced = any(l.startswith(f"{dag}: run ") for dag in refused_schedule)
        if not announced:
            problems.append(l)
for line in problems[:80]:
    print("  " + line)
not_loaded = collections.Counter(l for l in export.stderr.splitlines() if l.startswith("error"))
print(f"{sum(not_loaded.values())} errors while loading (each app's own problems):")
for line, n in not_loaded.most_common():
    print(f"  {n:3} {line[:150]}")
sys.exit(1 if unexpected or problems or len(summaries) != len(report["apps"]) else 0)
PY
