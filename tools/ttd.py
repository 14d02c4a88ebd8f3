#!/usr/bin/env python3
"""Time to depth, N threads against 1, with the two runs of each position back to back.

On a shared machine a whole `bench` run with one thread and then one with two see different
background load; here every position is searched by a 1-thread and an N-thread engine in turn
(which goes first alternates), each after `ucinewgame` (a fresh table and histories, as in
`bench`), for several passes. Prints per-position medians and the median time-to-depth ratio.
Positions: `src/bench.fen`, the list `springer bench` itself searches. Needs only Python 3.

    python3 tools/ttd.py target/release/springer --depth 15 --threads 2 --passes 3
"""
import argparse
import os
import re
import statistics
import sys
import time

from uci_engine import Engine


def bench_positions(path):
    """The bench positions: one FEN a line, `#` lines are comments (the file `bench` includes)."""
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def start(path, threads, hash_mb):
    """A Springer process with its thread count and table size."""
    engine = Engine(path)
    engine.send("uci")
    if engine.until("uciok") is None:
        sys.exit("no uciok from the engine")
    engine.send(f"setoption name Threads value {threads}")
    engine.send(f"setoption name Hash value {hash_mb}")
    return engine


def time_to_depth(engine, fen, depth):
    """Wall time and nodes of `go depth` from `fen`, after `ucinewgame` (fresh table and histories)."""
    engine.send("ucinewgame")
    engine.send("isready")
    if engine.until("readyok") is None:
        sys.exit("no readyok from the engine")
    engine.send(f"position fen {fen}")
    begin = time.perf_counter()
    engine.send(f"go depth {depth}")
    lines = engine.until("bestmove", timeout=3600)
    took = time.perf_counter() - begin
    if lines is None:
        sys.exit(f"no bestmove within an hour: {fen}")
    nodes = 0
    for line in lines:
        found = re.search(r" nodes (\d+)", line)
        if found and line.startswith("info depth"):
            nodes = int(found.group(1))
    return took, nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("--depth", type=int, default=15)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--positions", default=os.path.join(os.path.dirname(__file__), "..", "src", "bench.fen"))
    args = parser.parse_args()
    fens = bench_positions(args.positions)
    one = start(args.engine, 1, args.hash)
    many = start(args.engine, args.threads, args.hash)
    # runs[i][side]: the (seconds, nodes) of position i on one thread (side 0) or many (side 1).
    runs = [([], []) for _ in fens]
    for p in range(args.passes):
        for i, fen in enumerate(fens):
            order = [(0, one), (1, many)] if (i + p) % 2 == 0 else [(1, many), (0, one)]
            for side, engine in order:
                runs[i][side].append(time_to_depth(engine, fen, args.depth))
        print(f"pass {p + 1} done", file=sys.stderr)
    for engine in (one, many):
        engine.send("quit")
        engine.proc.wait(timeout=10)

    def medians(side_runs):
        return statistics.median(t for t, _ in side_runs), statistics.median(n for _, n in side_runs)

    table = [(medians(ones), medians(manys)) for ones, manys in runs]
    for i, ((t1, n1), (tn, nn)) in enumerate(table):
        print(f"{i + 1:>2} 1T {t1 * 1000:7.0f} ms {n1:>10.0f} nodes  {args.threads}T {tn * 1000:7.0f} ms "
              f"{nn:>10.0f} nodes  ttd {t1 / tn:.2f}")
    total1, totaln = sum(r[0][0] for r in table), sum(r[1][0] for r in table)
    nps1, npsn = sum(r[0][1] for r in table) / total1, sum(r[1][1] for r in table) / totaln
    ttd = statistics.median(t1 / tn for (t1, _), (tn, _) in table)
    node_ratio = statistics.median(nn / max(n1, 1) for (_, n1), (_, nn) in table)
    print(f"depth {args.depth}, {args.threads} threads vs 1, {args.passes} passes: median time-to-depth ratio "
          f"{ttd:.2f}, total time ratio {total1 / totaln:.2f}, nps ratio {npsn / nps1:.2f}, "
          f"median node ratio {node_ratio:.2f}")


if __name__ == "__main__":
    main()
