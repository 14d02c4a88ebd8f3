#!/usr/bin/env python3
"""Times `Hash` allocation and `ucinewgame` clearing through the real binary.

For each thread count and each size, `--allocations` times: `setoption name Threads value T`,
`setoption name Hash value N` + `isready` (timed to `readyok`: the allocation, every page
written), then `--clears` times a `go movetime` of `--search-ms` (entries in the table) and
`ucinewgame` + `isready` (timed: the clear), then `Hash 1` to give the memory back. The first
allocation of a size may meet memory the system has not handed out lately (slower); the later
ones are shown apart. The engine's `info string` lines (clamping, huge pages) are printed.

    python3 tools/hash_timing.py target/release/springer --sizes 256 4096 --threads 1 2
"""

import argparse
import statistics
import subprocess
import sys
import time


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        """Lines up to the first starting with `prefix`; `info string` lines are echoed."""
        seen = []
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            seen.append(line)
            if line.startswith("info string"):
                print("    " + line, flush=True)
            if line.startswith(prefix):
                return seen
        raise RuntimeError(f"engine ended before '{prefix}'; saw {seen[-5:]}")

    def timed(self, *commands):
        """Seconds from sending `commands` and `isready` to `readyok`."""
        start = time.perf_counter()
        for command in commands:
            self.send(command)
        self.send("isready")
        self.until("readyok")
        return time.perf_counter() - start

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 4096])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--allocations", type=int, default=2, help="allocations per size and thread count")
    parser.add_argument("--clears", type=int, default=3, help="ucinewgame per allocation (median shown)")
    parser.add_argument("--search-ms", type=int, default=500, help="search before each clear (0: none)")
    args = parser.parse_args()

    rows = []
    engine = Engine(args.engine)
    engine.send("uci")
    engine.until("uciok")
    for threads in args.threads:
        engine.timed(f"setoption name Threads value {threads}")
        for mb in args.sizes:
            allocations, clears = [], []
            for _ in range(args.allocations):
                print(f"Threads {threads}, Hash {mb}:", flush=True)
                allocations.append(engine.timed(f"setoption name Hash value {mb}"))
                these = []
                for _ in range(args.clears):
                    if args.search_ms > 0:
                        engine.send("position startpos")
                        engine.send(f"go movetime {args.search_ms}")
                        engine.until("bestmove")
                    these.append(engine.timed("ucinewgame"))
                clears += these
                shown = ", ".join(f"{c:.3f}" for c in these)
                print(f"    allocation {allocations[-1]:.3f} s, ucinewgame {shown} s", flush=True)
                engine.timed("setoption name Hash value 1")
            later = min(allocations[1:]) if len(allocations) > 1 else float("nan")
            rows.append((mb, threads, allocations[0], later, statistics.median(clears)))
    engine.quit()

    print()
    print("| Hash (MB) | Threads | first allocation (s) | later allocation (s, best) | `ucinewgame` (s, median) |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for mb, threads, first, later, clear in rows:
        print(f"| {mb} | {threads} | {first:.3f} | {later:.3f} | {clear:.3f} |")


if __name__ == "__main__":
    sys.exit(main())
