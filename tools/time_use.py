#!/usr/bin/env python3
"""Time use per engine from a match.py PGN: for each engine, the mean share of its clock it spent
per game (the sum of its moves' times over base + increment x its moves), the mean time a move,
and the time losses. Reads the move comments match.py writes ("+0.25/12 0.183s").

Usage: time_use.py GAMES.pgn BASE_SECONDS INC_SECONDS
"""
import re
import sys
from collections import defaultdict

import chess.pgn


def main():
    path, base, inc = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    shares, move_times, losses = defaultdict(list), defaultdict(list), defaultdict(int)
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            names = {chess.WHITE: game.headers.get("White"), chess.BLACK: game.headers.get("Black")}
            spent, moves = defaultdict(float), defaultdict(int)
            node, turn = game, chess.WHITE if game.board().turn else chess.BLACK
            for child in game.mainline():
                found = re.search(r"(\d+\.\d+)s", child.comment or "")
                if found:
                    spent[turn] += float(found.group(1))
                    move_times[names[turn]].append(float(found.group(1)))
                moves[turn] += 1
                turn = not turn
            for side in (chess.WHITE, chess.BLACK):
                if moves[side]:
                    shares[names[side]].append(spent[side] / (base + inc * moves[side]))
            if "time" in (game.headers.get("Termination", "") + " " + (game.end().comment or "")).lower():
                loser = chess.WHITE if game.headers.get("Result") == "0-1" else chess.BLACK
                losses[names[loser]] += 1
    for name in sorted(shares):
        s, t = shares[name], move_times[name]
        print(f"{name}: {len(s)} games, clock used {100 * sum(s) / len(s):.1f} % per game "
              f"(min {100 * min(s):.1f}, max {100 * max(s):.1f}), {1000 * sum(t) / len(t):.0f} ms a move, "
              f"time losses {losses[name]}")


if __name__ == "__main__":
    main()
