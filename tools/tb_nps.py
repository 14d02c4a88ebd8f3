#!/usr/bin/env python3
"""Search speed with and without Syzygy tables on endgame positions of 5-6 pieces (whose own
tables are mostly missing from ../shared/syzygy, so the search probes after captures): nodes per
second and tbhits of a fixed-time search, the two runs alternating per position.

Usage: tools/tb_nps.py ENGINE ../shared/syzygy --movetime 2
Needs `pip install chess`.
"""
import argparse
import os

import chess
import chess.engine

POSITIONS = [
    "8/5k2/8/3R4/8/2r5/5PK1/8 w - - 0 1",
    "8/8/4kp2/8/3K1P2/8/6P1/8 w - - 0 1",
    "6k1/5p2/8/8/8/2B5/5PK1/8 w - - 0 1",
    "8/8/2k5/3n4/8/2N5/3PK3/8 w - - 0 1",
    "8/6k1/6p1/8/4R3/6PK/8/3r4 w - - 0 1",
    "4k3/8/8/2q5/8/8/3Q4/4K2R w - - 0 1",
    "8/4k3/3p4/3P4/5K2/8/4B3/8 w - - 0 1",
    "8/8/3k4/3p4/3P1N2/4K3/8/8 w - - 0 1",
]


def search(engine, fen, seconds):
    engine.protocol.send_line("ucinewgame")
    info = engine.analyse(chess.Board(fen), chess.engine.Limit(time=seconds))
    return info.get("nodes", 0) / max(info.get("time", seconds), 1e-3), info.get("tbhits", 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("directory")
    parser.add_argument("--movetime", type=float, default=2.0)
    args = parser.parse_args()
    plain = chess.engine.SimpleEngine.popen_uci(args.engine)
    tables = chess.engine.SimpleEngine.popen_uci(args.engine)
    tables.configure({"SyzygyPath": os.path.abspath(args.directory)})
    ratios = []
    for i, fen in enumerate(POSITIONS):
        order = [(plain, "without"), (tables, "with")] if i % 2 == 0 else [(tables, "with"), (plain, "without")]
        results = {}
        for engine, name in order:
            results[name] = search(engine, fen, args.movetime)
        (nps_without, _), (nps_with, hits) = results["without"], results["with"]
        ratios.append(nps_with / nps_without)
        print(f"{fen}: nps without {nps_without:,.0f}, with {nps_with:,.0f} ({nps_with / nps_without:.2f}x), tbhits {hits:,}")
    product = 1.0
    for r in ratios:
        product *= r
    print(f"geometric mean nps with / without tables: {product ** (1 / len(ratios)):.2f}x over {len(ratios)} positions")
    plain.quit()
    tables.quit()


if __name__ == "__main__":
    main()
