#!/usr/bin/env python3
"""Memory a Springer process spends on Syzygy tables: RssAnon (private) and RssFile (file-backed,
shared with the page cache) from /proc/PID/status before and after searching random positions of
every table's material in the directories, against the bytes of the table files touched.

Usage: tools/tb_memory.py target/release/springer ../shared/syzygy:../shared/syzygy-6 --per-table 3 --nodes 20000

"Touched" is the table files the process has mapped or holds open (/proc/PID/maps and fd) when it
keeps them so, else the bytes it read through system calls (rchar in /proc/PID/io). A warm-up search on a position with no
table comes before the first reading, so the transposition table and search stacks are already in
it. `--no-tables` runs the same searches with `SyzygyPath` empty (the search's own growth);
`--processes 2` runs a second engine on the same positions afterwards, both kept alive, and shows
how much of each one's table pages the other shares (/proc/PID/smaps). Linux only; needs `pip install chess` (for the random positions).
"""
import argparse
import os
import random
import subprocess


import syzygy_fixtures  # tools/, beside this script

TABLE_SUFFIXES = (".rtbw", ".rtbz")


def random_position(rng, white, black):
    """A legal position of these pieces with a legal move (syzygy_fixtures.random_position,
    which this script shares); None if the draw is not one."""
    board = syzygy_fixtures.random_position(rng, white, black)
    return board if board is not None and any(board.legal_moves) else None


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def rchar(pid):
    with open(f"/proc/{pid}/io") as f:
        for line in f:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    return 0


def mapped_tables(pid):
    """The table files mapped into the process or held open by it, with their sizes."""
    paths = set()
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            fields = line.split(maxsplit=5)
            if len(fields) == 6:
                paths.add(fields[5].strip())
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            paths.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            pass
    return {p: os.path.getsize(p) for p in paths if p.endswith(TABLE_SUFFIXES)}


def table_smaps(pid):
    """Sums over the process's mappings of table files: resident, shared with another process,
    and written (private dirty) kB."""
    sums = {"Rss": 0, "Shared_Clean": 0, "Private_Dirty": 0}
    in_table = False
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            fields = line.split()
            if fields and "-" in fields[0] and not fields[0].endswith(":"):
                in_table = len(fields) >= 6 and fields[5].endswith(TABLE_SUFFIXES)
            elif in_table and fields and fields[0][:-1] in sums:
                sums[fields[0][:-1]] += int(fields[1])
    return sums


def reading(pid):
    return {
        "anon": status_kb(pid, "RssAnon"),
        "file": status_kb(pid, "RssFile"),
        "rchar": rchar(pid),
        "mapped": mapped_tables(pid),
    }


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines = []

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine exited")
            line = line.strip()
            self.lines.append(line)
            if line.startswith(prefix):
                return line

    def search(self, fen, nodes):
        """Searches `fen`; returns the tbhits of its last info line."""
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        start = len(self.lines)
        self.until("bestmove")
        infos = [l for l in self.lines[start:] if l.startswith("info depth") and " tbhits " in l]
        return int(infos[-1].split(" tbhits ")[1].split()[0]) if infos else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("directories", help="a SyzygyPath value: directories separated by ':'")
    parser.add_argument("--per-table", type=int, default=3, help="positions searched per table")
    parser.add_argument("--nodes", type=int, default=20000, help="nodes per search")
    parser.add_argument("--hash", type=int, default=16, help="Hash in MB")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-tables", action="store_true", help="search the same positions without tables")
    parser.add_argument("--processes", type=int, default=1, help="engines searching the same positions one after another (all kept running), to see them share the tables' pages")
    args = parser.parse_args()

    dirs = [os.path.abspath(d) for d in args.directories.split(":") if d]
    tables = {}
    for d in dirs:
        for name in os.listdir(d):
            if name.endswith(TABLE_SUFFIXES):
                tables.setdefault(name[:-5], []).append(os.path.join(d, name))
    set_bytes = sum(os.path.getsize(p) for paths in tables.values() for p in paths)
    rng = random.Random(args.seed)
    positions = []
    for name in sorted(tables):
        white, black = name.split("v")
        found = 0
        while found < args.per_table:
            board = random_position(rng, white, black)
            if board is not None:
                positions.append(board.fen())
                found += 1

    engines = [Engine(args.engine) for _ in range(args.processes)]
    for engine in engines:
        engine.send("uci")
        engine.until("uciok")
        engine.send(f"setoption name Hash value {args.hash}")
        engine.send("setoption name SyzygyPath value " + ("<empty>" if args.no_tables else ":".join(dirs)))
        engine.send("isready")
        engine.until("readyok")
        # Warm-up: a middlegame position, probing no table.
        engine.search("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", args.nodes)
    engine, pid = engines[0], engines[0].proc.pid
    before = reading(pid)
    for engine in engines:
        engine_hits = sum(engine.search(fen, args.nodes) for fen in positions)
        if engine is engines[0]:
            after, hits = reading(pid), engine_hits
    smaps = [table_smaps(e.proc.pid) for e in engines]
    for e in engines:
        e.send("quit")
        e.proc.wait(timeout=10)

    kib = 1024
    grown_anon = (after["anon"] - before["anon"]) * kib
    grown_file = (after["file"] - before["file"]) * kib
    read = after["rchar"] - before["rchar"]
    mapped = after["mapped"]
    if mapped:
        touched, how = sum(mapped.values()), f"{len(mapped)} table files mapped or open"
    else:
        touched, how = read, "bytes read by system calls (rchar)"
    mb = 1 << 20
    print(f"tables: {len(tables)} materials, {set_bytes / mb:.1f} MiB in {sum(map(len, tables.values()))} files")
    print(f"searched: {len(positions)} positions, {args.nodes} nodes each, {hits:,} tbhits in all")
    print(f"touched: {touched / mb:.1f} MiB ({how}); read by system calls {read / mb:.1f} MiB")
    print(f"RssAnon: {before['anon'] / kib:.1f} -> {after['anon'] / kib:.1f} MiB, grew {grown_anon / mb:.1f} MiB")
    print(f"RssFile: {before['file'] / kib:.1f} -> {after['file'] / kib:.1f} MiB, grew {grown_file / mb:.1f} MiB")
    if touched > mb:
        print(f"RssAnon growth / bytes touched: {100 * grown_anon / touched:.0f} %")
        print(f"RssFile growth / bytes touched: {100 * grown_file / touched:.0f} %")
    for i, sums in enumerate(smaps):
        print(f"engine {i + 1}, table mappings: resident {sums['Rss'] / kib:.1f} MiB, of which shared with another "
              f"process {sums['Shared_Clean'] / kib:.1f} MiB, written (private dirty) {sums['Private_Dirty'] / kib:.1f} MiB")


if __name__ == "__main__":
    main()
