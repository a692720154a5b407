#!/usr/bin/env python3
"""Differential fuzzing driver: generate, answer with both sides, compare.

  scripts/difffuzz/run.py KIND N SEED --coordc PATH [--out DIR] [--jobs J]

(`scripts/difffuzz.sh KIND N [SEED]` builds the coordc side and calls this.)

1. gen.py writes N cases of KIND (el | cron | calendar) for SEED;
2. the coordc side (examples/difffuzz.rs) answers them in one process;
3. the JVM oracle in ../shared/oracles (the development corpus, kept outside
   this repository; DIFFFUZZ_ORACLES elsewhere) answers them: el through its run.sh,
   in chunks of DIFFFUZZ_CHUNK cases (commons-el caches every parsed
   expression in a static map: a million distinct ones in one JVM only grow
   its heap); cron and calendar through OracleRunner.java, which calls the
   oracle's own main() once per case in one JVM with a time limit
   (DIFFFUZZ_TIMEOUT_MS, default 2000), because Quartz loops forever on a few
   expressions it accepts;
4. compare.py lists every disagreement.

Everything lands in DIR (default target/difffuzz/runs/KIND-N-SEED):
cases.jsonl, coordc.jsonl, oracle.jsonl, diffs.jsonl, summary.txt.
Exit status: 0 when the two sides agree on every case, 1 otherwise (with
--allow-known, 0 when every disagreement is a documented artefact).
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
ORACLES = os.environ.get("DIFFFUZZ_ORACLES", os.path.abspath(os.path.join(ROOT, "..", "shared", "oracles")))
sys.path.insert(0, HERE)
import compare  # noqa: E402

# What each oracle's run.sh puts on the class path and on the java command line.
ORACLE_CLASS = {"cron": ("CronOracle", "/usr/share/java/quartz2.jar"), "calendar": ("CalendarOracle", "")}
JAVA_FLAGS = ["-Duser.timezone=UTC", "-Duser.language=en", "-Duser.country=US"]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def build_runner(build_dir):
    src = os.path.join(HERE, "OracleRunner.java")
    cls = os.path.join(build_dir, "OracleRunner.class")
    if not os.path.exists(cls) or os.path.getmtime(cls) < os.path.getmtime(src):
        os.makedirs(build_dir, exist_ok=True)
        subprocess.run(["javac", "-nowarn", "-XDsuppressNotes", "-d", build_dir, src], check=True,
                       stderr=subprocess.DEVNULL)


def oracle_el(cases, out_path, chunk):
    run_sh = os.path.join(ORACLES, "el", "run.sh")
    with open(cases, encoding="utf-8") as f, open(out_path, "w", encoding="utf-8") as out:
        while True:
            lines = [l for _, l in zip(range(chunk), f)]
            if not lines:
                break
            r = subprocess.run([run_sh], input="".join(lines), capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit("el oracle failed: %s" % r.stderr[-2000:])
            out.write(r.stdout)
            out.flush()


def oracle_runner(kind, cases, out_path, timeout_ms, runner_dir):
    cls, jars = ORACLE_CLASS[kind]
    run_sh = os.path.join(ORACLES, kind, "run.sh")
    # run.sh compiles the oracle into its build/ when needed (an empty input does just that).
    subprocess.run([run_sh], input="", capture_output=True, text=True, check=True)
    build_runner(runner_dir)
    cp = ":".join(p for p in [os.path.join(ORACLES, kind, "build"), jars, runner_dir] if p)
    cmd = ["java"] + JAVA_FLAGS + ["-cp", cp, "OracleRunner", cls, str(timeout_ms)]
    done = 0
    total = count_lines(cases)
    with open(out_path, "w", encoding="utf-8") as out:
        while done < total:
            with open(cases, "rb") as f:
                for _ in range(done):
                    f.readline()
                p = subprocess.Popen(cmd, stdin=f, stdout=subprocess.PIPE)
                for line in p.stdout:
                    out.write(line.decode("utf-8"))
                    done += 1
                rc = p.wait()
            if rc == 3:
                continue  # a case timed out and could not be stopped: go on after it
            if rc != 0:
                sys.exit("%s oracle failed (status %d) after %d cases" % (kind, rc, done))
            break


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["el", "cron", "calendar"])
    ap.add_argument("n", type=int)
    ap.add_argument("seed", type=int, nargs="?", default=1)
    ap.add_argument("--coordc", required=True, help="the built examples/difffuzz binary")
    ap.add_argument("--out")
    ap.add_argument("--allow-known", action="store_true")
    ap.add_argument("--show", type=int, default=int(os.environ.get("DIFFFUZZ_SHOW", "1000000")),
                    help="print at most this many disagreements (all are in diffs.jsonl)")
    a = ap.parse_args()
    out = a.out or os.path.join(ROOT, "target", "difffuzz", "runs", "%s-%d-%d" % (a.kind, a.n, a.seed))
    os.makedirs(out, exist_ok=True)
    cases = os.path.join(out, "cases.jsonl")
    t0 = time.time()
    with open(cases, "w") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), a.kind, str(a.n), str(a.seed)], stdout=f,
                       check=True)
    t1 = time.time()
    log("generated %d %s cases (seed %d) in %.1f s" % (a.n, a.kind, a.seed, t1 - t0))
    with open(cases, "rb") as f, open(os.path.join(out, "coordc.jsonl"), "wb") as o:
        subprocess.run([a.coordc, a.kind], stdin=f, stdout=o, check=True)
    t2 = time.time()
    log("coordc answered in %.1f s (%.0f cases/s)" % (t2 - t1, a.n / max(t2 - t1, 1e-9)))
    oracle_out = os.path.join(out, "oracle.jsonl")
    if a.kind == "el":
        oracle_el(cases, oracle_out, int(os.environ.get("DIFFFUZZ_CHUNK", "200000")))
    else:
        oracle_runner(a.kind, cases, oracle_out, int(os.environ.get("DIFFFUZZ_TIMEOUT_MS", "2000")),
                      os.path.join(ROOT, "target", "difffuzz", "oracle-runner"))
    t3 = time.time()
    log("oracle answered in %.1f s (%.0f cases/s)" % (t3 - t2, a.n / max(t3 - t2, 1e-9)))
    stats = compare.compare_files(a.kind, cases, oracle_out, os.path.join(out, "coordc.jsonl"),
                                  os.path.join(out, "diffs.jsonl"), show=a.show)
    summary = compare.summary(a.kind, a.n, a.seed, stats, {"generate_s": t1 - t0, "coordc_s": t2 - t1,
                                                            "oracle_s": t3 - t2})
    rev = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True,
                         text=True).stdout.strip()
    summary += "  coordc: git %s\n" % (rev or "?")
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write(summary)
    print(summary, end="")
    bad = stats["disagreements"] - (stats["known"] if a.allow_known else 0)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
