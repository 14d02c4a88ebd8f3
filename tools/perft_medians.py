"""Perft speed of several Springer binaries against cozy-chess 0.3.4, for a noisy machine.

Each round runs every binary and cozy-chess (../shared/anchors/perft-peers, native build) in turn
on one of the five standard positions, so drift hits all alike; prints each binary's median Mnps
with its range and the ratio of cozy-chess's time to its time, then the geometric mean of that
ratio over the positions (the README's perft figure). A running `springer datagen` is paused
meanwhile.

    python3 tools/perft_medians.py --reps 15 old=../springer-base new=target/release/springer
    python3 tools/perft_medians.py --reps 9 --full old=../springer-base new=target/release/springer
"""

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys

def standard_cases():
    """The five standard positions with their depths, from tools/perft-positions.txt."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "perft-positions.txt")
    with open(path, encoding="utf-8") as lines:
        rows = [line.split(maxsplit=2) for line in lines if line.strip()]
    return [(name, int(depth), fen.strip()) for name, depth, fen in rows]


def run_mnps(command, pattern):
    """Runs `command` and returns the Mnps its output reports (`pattern` captures it)."""
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    match = re.search(pattern, out)
    if match is None:
        sys.exit(f"error: no speed in the output of {' '.join(command)}")
    return float(match.group(1))


def datagen_pids():
    """The process ids of `springer datagen` runs not already stopped (so that one paused by hand
    is not resumed afterwards)."""
    found = subprocess.run(
        ["pgrep", "-r", "R,S,D", "-f", "springer.* datagen"], capture_output=True, text=True
    ).stdout
    return [int(pid) for pid in found.split()]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", metavar="NAME=PATH", help="the Springer binaries to compare")
    parser.add_argument("--reps", type=int, default=9, help="rounds per position (default 9)")
    parser.add_argument("--full", action="store_true", help="make every leaf instead of counting the last ply")
    parser.add_argument("--peers", default=os.environ.get("PEERS", "/tmp/peers/target-native/release/perft-peers"))
    args = parser.parse_args()
    binaries = []
    for spec in args.binaries:
        name, sep, path = spec.partition("=")
        if not sep or not name or not os.access(path, os.X_OK):
            parser.error(f"'{spec}' is not NAME=PATH of an executable")
        binaries.append((name, path))
    if not os.access(args.peers, os.X_OK):
        parser.error(f"--peers {args.peers} is not an executable; build ../shared/anchors/perft-peers"
                     " as its README says, or pass its path")
    mode = ["--full"] if args.full else []
    paused = datagen_pids()
    for pid in paused:
        os.kill(pid, signal.SIGSTOP)
    try:
        ratio_product = {name: 1.0 for name, _ in binaries}
        cases = standard_cases()
        for position, depth, fen in cases:
            speeds = {name: [] for name, _ in binaries}
            cozy = []
            for _ in range(args.reps):
                for name, path in binaries:
                    speeds[name].append(run_mnps([path, "perft", str(depth), "--fen", fen] + mode, r"Speed:\s+([\d.]+)"))
                cozy.append(run_mnps([args.peers, "cozy", position] + mode, r"([\d.]+) Mnps"))
            cozy_median = statistics.median(cozy)
            parts = []
            for name, _ in binaries:
                median = statistics.median(speeds[name])
                ratio_product[name] *= cozy_median / median
                parts.append(f"{name} {median:.1f} ({min(speeds[name]):.0f}-{max(speeds[name]):.0f}) ratio {cozy_median / median:.3f}")
            print(f"{position} ({depth}): cozy {cozy_median:.1f} | " + " | ".join(parts), flush=True)
        count = len(cases)
        print("geometric mean of cozy / Springer time: "
              + "  ".join(f"{name} {product ** (1 / count):.3f}" for name, product in ratio_product.items()))
    finally:
        for pid in paused:
            os.kill(pid, signal.SIGCONT)


if __name__ == "__main__":
    main()
