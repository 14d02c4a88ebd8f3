#!/usr/bin/env python3
"""Time use per engine from a match.py PGN: for each engine, the mean share of its clock it spent
per game (the sum of its moves' times over base + increment x its moves), the mean time a move,
the mean depth its moves reached (a second thread or a longer clock shows up here first), and the
time losses. Reads the move comments match.py writes ("+0.25/12 0.183s").

Usage: time_use.py GAMES.pgn TC      (TC as match.py writes it: 8+0.08, 0.5, 40/4 for 40 moves in
4 s repeating; the clock given for n moves is then 4 s for every control begun)
"""
import re
import sys
from collections import defaultdict

import chess.pgn


def clock_given(tc, moves):
    """Seconds the time control `tc` gives for `moves` moves."""
    per_control, _, rest = tc.rpartition("/")
    base, _, inc = rest.partition("+")
    base, inc = float(base), float(inc or 0)
    controls = -(-moves // int(per_control)) if per_control else 1
    return base * controls + inc * moves


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, tc = sys.argv[1], sys.argv[2]
    shares, move_times, losses = defaultdict(list), defaultdict(list), defaultdict(int)
    depths = defaultdict(list)
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
                depth = re.search(r"/(\d+) ", child.comment or "")
                if depth:
                    depths[names[turn]].append(int(depth.group(1)))
                moves[turn] += 1
                turn = not turn
            for side in (chess.WHITE, chess.BLACK):
                if moves[side]:
                    shares[names[side]].append(spent[side] / clock_given(tc, moves[side]))
            if "time" in (game.headers.get("Termination", "") + " " + (game.end().comment or "")).lower():
                loser = chess.WHITE if game.headers.get("Result") == "0-1" else chess.BLACK
                losses[names[loser]] += 1
    for name in sorted(shares):
        s, t, d = shares[name], move_times[name], depths[name]
        depth = f"mean depth {sum(d) / len(d):.2f}" if d else "no depths"
        print(f"{name}: {len(s)} games, clock used {100 * sum(s) / len(s):.1f} % per game "
              f"(min {100 * min(s):.1f}, max {100 * max(s):.1f}), {1000 * sum(t) / len(t):.0f} ms a move, "
              f"{depth}, time losses {losses[name]}")


if __name__ == "__main__":
    main()
