#!/usr/bin/env python3
"""Time to depth, N threads against 1, with the two runs of each position back to back.

On a shared machine a whole `bench` run with one thread and then one with two see different
background load; here every position is searched by a 1-thread and an N-thread engine in turn
(which goes first alternates), each after `ucinewgame` (a fresh table and histories, as in
`bench`), for several passes. Prints per-position medians and the median time-to-depth ratio.

    python3 tools/ttd.py target/release/springer --depth 15 --threads 2 --passes 3
"""
import argparse
import re
import statistics
import subprocess
import sys
import time


def bench_positions(path):
    """The bench positions, read from `bench`'s own list (src/bench.rs)."""
    source = open(path).read()
    block = source[source.index("pub const POSITIONS"):]
    block = block[: block.index("];")]
    return re.findall(r'"([^"]+)"', block)


class Engine:
    def __init__(self, path, threads, hash_mb):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name Threads value {threads}")
        self.send(f"setoption name Hash value {hash_mb}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"engine exited while waiting for {prefix!r}")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def time_to_depth(self, fen, depth):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        self.send(f"position fen {fen}")
        start = time.perf_counter()
        self.send(f"go depth {depth}")
        lines = self.wait("bestmove")
        took = time.perf_counter() - start
        nodes = 0
        for line in lines:
            m = re.search(r" nodes (\d+)", line)
            if m and line.startswith("info depth"):
                nodes = int(m.group(1))
        return took, nodes

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("--depth", type=int, default=15)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--source", default="src/bench.rs")
    args = parser.parse_args()
    fens = bench_positions(args.source)
    one = Engine(args.engine, 1, args.hash)
    many = Engine(args.engine, args.threads, args.hash)
    times = {i: ([], []) for i in range(len(fens))}
    nodes = {i: ([], []) for i in range(len(fens))}
    for p in range(args.passes):
        for i, fen in enumerate(fens):
            order = [(0, one), (1, many)] if (i + p) % 2 == 0 else [(1, many), (0, one)]
            for side, engine in order:
                took, n = engine.time_to_depth(fen, args.depth)
                times[i][side].append(took)
                nodes[i][side].append(n)
        print(f"pass {p + 1} done", file=sys.stderr)
    one.quit()
    many.quit()
    ratios, node_ratios = [], []
    for i in range(len(fens)):
        t1, tn = statistics.median(times[i][0]), statistics.median(times[i][1])
        n1, nn = statistics.median(nodes[i][0]), statistics.median(nodes[i][1])
        ratios.append(t1 / tn)
        node_ratios.append(nn / max(n1, 1))
        print(f"{i + 1:>2} 1T {t1 * 1000:7.0f} ms {n1:>10.0f} nodes  {args.threads}T {tn * 1000:7.0f} ms {nn:>10.0f} nodes  ttd {t1 / tn:.2f}")
    total1 = sum(statistics.median(times[i][0]) for i in times)
    totaln = sum(statistics.median(times[i][1]) for i in times)
    nps1 = sum(statistics.median(nodes[i][0]) for i in nodes) / total1
    npsn = sum(statistics.median(nodes[i][1]) for i in nodes) / totaln
    print(f"depth {args.depth}, {args.threads} threads vs 1, {args.passes} passes: median time-to-depth ratio "
          f"{statistics.median(ratios):.2f}, total time ratio {total1 / totaln:.2f}, nps ratio {npsn / nps1:.2f}, "
          f"median node ratio {statistics.median(node_ratios):.2f}")


if __name__ == "__main__":
    main()
