#!/usr/bin/env python3
"""Fit the UCI_ShowWDL model to an engine's own scores in finished games.

The model (src/uci/report.rs, win_draw_loss): for a score of s centipawns, the win chance is
W = 1 / (1 + e^-((s - a) / b)), the loss chance L is the same for -s, and the draw chance is
the rest. This reads PGNs written by ../shared/tools/match.py, takes every move of the engine
named --engine whose comment holds a centipawn score (mate scores and the first --skip plies
left out), pairs it with that game's result from the engine's side, and prints the (a, b) of
maximum likelihood.

    python3 tools/fit_wdl.py --engine netd,springer ../matches/netd-vs-hce.pgn ...
"""
import argparse
import math
import re
import sys

import chess.pgn

SCORE = re.compile(r"^([+-]?\d+\.\d+)/\d+")


def samples(paths, engine, skip):
    """(score in cp from the engine's side, outcome 1 / 0.5 / 0) for each scored move of an
    engine named in `engine` (a set)."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                result = game.headers.get("Result", "*")
                if result not in ("1-0", "0-1", "1/2-1/2"):
                    continue
                white = game.headers.get("White") in engine
                if not white and game.headers.get("Black") not in engine:
                    continue
                white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
                points = white_points if white else 1.0 - white_points
                for ply, node in enumerate(game.mainline()):
                    mover_is_white = node.parent.board().turn == chess.WHITE
                    if mover_is_white != white or ply < skip:
                        continue
                    match = SCORE.match(node.comment.strip())
                    if match:
                        out.append((round(float(match.group(1)) * 100), points))
    return out


def log_likelihood(data, a, b):
    total = 0.0
    for score, points in data:
        win = 1 / (1 + math.exp(-(score - a) / b))
        loss = 1 / (1 + math.exp(-(-score - a) / b))
        p = win if points == 1.0 else loss if points == 0.0 else max(1e-9, 1 - win - loss)
        total += math.log(max(p, 1e-12))
    return total


def fit(data):
    """Coarse-to-fine grid search over a (centre) and b (width)."""
    best = (None, 200.0, 150.0)
    step_a, step_b = 64.0, 32.0
    while step_a >= 1:
        centre_a, centre_b = best[1], best[2]
        for i in range(-4, 5):
            for j in range(-4, 5):
                a, b = centre_a + i * step_a, centre_b + j * step_b
                if a <= 0 or b <= 1:
                    continue
                ll = log_likelihood(data, a, b)
                if best[0] is None or ll > best[0]:
                    best = (ll, a, b)
        step_a, step_b = step_a / 2, step_b / 2
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="the engine's names in the PGN headers, comma-separated")
    parser.add_argument("--skip", type=int, default=16, help="plies left out at the start")
    parser.add_argument("--clip", type=int, default=2000, help="scores beyond +-CLIP cp left out")
    parser.add_argument("--compare", action="append", default=[], metavar="A,B",
                        help="also print the mean log-likelihood of this model (repeatable): the one in use")
    parser.add_argument("pgn", nargs="+")
    args = parser.parse_args()
    names = set(args.engine.split(","))
    models = []
    for model in args.compare:
        try:
            a, b = (float(x) for x in model.split(","))
        except ValueError:
            print(f"error: --compare takes A,B (two numbers), not {model!r}", file=sys.stderr)
            return 2
        models.append((a, b))
    data = [d for d in samples(args.pgn, names, args.skip) if abs(d[0]) <= args.clip]
    if not data:
        print("error: no scored moves of that engine", file=sys.stderr)
        return 2
    ll, a, b = fit(data)
    print(f"positions {len(data)}  a {a:.0f}  b {b:.0f}  mean log-likelihood {ll / len(data):.4f}")
    for a, b in models:
        print(f"model a {a:.0f}  b {b:.0f}: mean log-likelihood {log_likelihood(data, a, b) / len(data):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
