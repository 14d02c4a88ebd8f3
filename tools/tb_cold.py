#!/usr/bin/env python3
"""Cold Syzygy probes: `springer probe` (WDL, DTZ and the DTZ-optimal move: a fresh process, so
every table it needs is opened on its first probe) on fixture positions, each run after the page
cache was dropped (`--drop-caches`, root only: `echo 1 > /proc/sys/vm/drop_caches`) or with it warm.

Usage: tools/tb_cold.py target/release/springer ../shared/syzygy:../shared/syzygy-6 --drop-caches

Positions: every 1,000th line of tests/fixtures/syzygy-probes.txt (3-5 pieces) and every 100th of
tests/fixtures/syzygy6-probes.txt (KNNNNvK, KNNNvK), and a control that reads no table (KvK: process
start and the directory scan). Prints the median and total wall time per group.
"""
import argparse
import os
import statistics
import subprocess
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def fixture_fens(name, step):
    with open(os.path.join(ROOT, "tests", "fixtures", name)) as f:
        lines = f.read().splitlines()
    return [" ".join(line.split()[:6]) for line in lines[::step]]


def drop_caches():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("1\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("directories", help="a SyzygyPath value: directories separated by ':'")
    parser.add_argument("--drop-caches", action="store_true", help="drop the page cache before each probe")
    args = parser.parse_args()
    groups = [
        # Process start and the directory scan, no table read (two kings are a draw without one).
        ("control, KvK", ["8/8/8/8/8/2k5/8/K7 w - - 0 1"] * 10),
        ("3-5 pieces", fixture_fens("syzygy-probes.txt", 1000)),
        ("KNNNNvK/KNNNvK", fixture_fens("syzygy6-probes.txt", 100)),
    ]
    for name, fens in groups:
        times = []
        for fen in fens:
            if args.drop_caches:
                drop_caches()
            start = time.perf_counter()
            done = subprocess.run([args.engine, "probe", "--fen", fen, "--syzygy", args.directories], capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                print(f"{fen}: exit {done.returncode}: {done.stderr.strip()}")
        cache = "page cache dropped before each" if args.drop_caches else "page cache warm"
        print(f"{name}: {len(fens)} probes ({cache}): median {1000 * statistics.median(times):.1f} ms, "
              f"total {sum(times):.2f} s")


if __name__ == "__main__":
    main()
