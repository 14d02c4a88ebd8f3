#!/usr/bin/env python3
"""Which of two builds picks better moves: positions drawn from a PGN's games, each searched by
both builds (`go nodes N`, a fresh game each, so a fresh table), and where their moves differ,
each move scored by Stockfish (`searchmoves`, a fixed depth; mates as +-3000). Prints every
differing position, then how often each build's move scored higher and each build's summed loss
against the better of the two. A direct look at root decisions where games are slow to tell.

    tools/pick_quality.py GAMES.pgn OLD NEW [--positions 300] [--threads 2] [--nodes 50000]
        [--depth 16] [--seed 7] [--stockfish /usr/games/stockfish]
"""
import argparse
import random
import sys

import chess
import chess.engine
import chess.pgn


def sample_positions(path, count, rng):
    """One position per game of at least 30 plies, after a random ply from 16 to 89."""
    fens = []
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            moves = list(game.mainline_moves())
            if len(moves) < 30:
                continue
            board = game.board()
            for move in moves[: rng.randrange(16, min(len(moves), 90))]:
                board.push(move)
            if not board.is_game_over():
                fens.append(board.fen())
    rng.shuffle(fens)
    return fens[:count]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn")
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=50000)
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    args = parser.parse_args()

    fens = sample_positions(args.pgn, args.positions, random.Random(args.seed))
    engines = []
    for path in (args.old, args.new):
        engine = chess.engine.SimpleEngine.popen_uci(path)
        engine.configure({"Threads": args.threads, "Hash": 16})
        engines.append(engine)
    judge = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    judge.configure({"Threads": 1, "Hash": 64})
    differ = old_better = new_better = 0
    loss = [0, 0]
    try:
        for i, fen in enumerate(fens):
            board = chess.Board(fen)
            # A new game object per search: python-chess sends `ucinewgame` (a fresh table).
            picks = [e.play(board, chess.engine.Limit(nodes=args.nodes), game=object()).move for e in engines]
            if picks[0] == picks[1]:
                continue
            differ += 1
            scores = []
            for move in picks:
                info = judge.analyse(board, chess.engine.Limit(depth=args.depth), root_moves=[move])
                scores.append(info["score"].pov(board.turn).score(mate_score=3000))
            old_better += scores[0] > scores[1]
            new_better += scores[1] > scores[0]
            for side in (0, 1):
                loss[side] += max(scores) - scores[side]
            print(f"{i} {fen} old {picks[0]} {scores[0]} new {picks[1]} {scores[1]}", flush=True)
    finally:
        for engine in engines + [judge]:
            engine.quit()
    print(f"positions {len(fens)}, moves differ in {differ}: old's scored higher {old_better}, "
          f"new's {new_better}; summed loss old {loss[0]}, new {loss[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
