#!/usr/bin/env python3
"""Times two commands side by side: SERIES series of RUNS runs, the two
commands alternating run by run (so load from outside falls on both), each
run's wall time taken in process; prints each series' best and median of
each command and their ratios (first / second), then the medians pooled.

  scripts/side_by_side.py SERIES RUNS -- FIRST COMMAND ... -- SECOND COMMAND ...

The commands' output is discarded; a command that fails stops the script.
docs/performance.md gives the commands it was run with.
"""
import statistics
import subprocess
import sys
import time


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main():
    args = sys.argv[1:]
    if len(args) < 5 or args[2] != "--" or "--" not in args[3:]:
        sys.exit(__doc__)
    series, runs = int(args[0]), int(args[1])
    split = args.index("--", 3)
    first, second = args[3:split], args[split + 1:]
    pooled = ([], [])
    for s in range(series):
        times = ([], [])
        for _ in range(runs):
            times[0].append(timed(first))
            times[1].append(timed(second))
        for pool, t in zip(pooled, times):
            pool.extend(t)
        (a, b) = (min(times[0]), min(times[1]))
        (ma, mb) = (statistics.median(times[0]), statistics.median(times[1]))
        print(
            f"series {s + 1}: best {a * 1000:.1f} / {b * 1000:.1f} ms ({a / b:.2f}x), "
            f"median {ma * 1000:.1f} / {mb * 1000:.1f} ms ({ma / mb:.2f}x)"
        )
    ma, mb = statistics.median(pooled[0]), statistics.median(pooled[1])
    print(f"pooled median {ma * 1000:.1f} / {mb * 1000:.1f} ms ({ma / mb:.2f}x)")


if __name__ == "__main__":
    main()
