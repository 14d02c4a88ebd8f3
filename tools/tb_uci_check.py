#!/usr/bin/env python3
"""Checks Springer's tablebase play through UCI against python-chess: on random positions of the
tables in a directory, the reported score must be a tablebase win / draw / loss exactly when
python-chess's WDL says so (cursed wins and blessed losses count as draws: Syzygy50MoveRule is on),
the best move must keep that result, and `tbhits` must be non-zero.

Usage: tools/tb_uci_check.py ENGINE ../shared/syzygy --positions 300 --movetime 0.1 --seed 1
Needs `pip install chess`. A score counts as a tablebase win at cp >= 20000 or a mate.
"""
import argparse
import os
import random

import chess
import chess.engine
import chess.syzygy

TB_WIN = 20000


def random_position(rng, name):
    white, black = name.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        ok = True
        for letters, color in ((white, chess.WHITE), (black, chess.BLACK)):
            for letter in letters:
                sq = squares.pop()
                piece = chess.Piece.from_symbol(letter if color else letter.lower())
                if piece.piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    ok = False
                board.set_piece_at(sq, piece)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if ok and board.is_valid() and any(board.legal_moves):
            return board


def result_class(wdl):
    return 1 if wdl == 2 else -1 if wdl == -2 else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("directory")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--movetime", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    names = sorted(f[:-5] for f in os.listdir(args.directory) if f.endswith(".rtbw"))
    tables = chess.syzygy.open_tablebase(args.directory)
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"SyzygyPath": os.path.abspath(args.directory), "Hash": 16})
    counts = {"score": 0, "move": 0, "tbhits": 0}
    by_class = {1: 0, 0: 0, -1: 0}
    for i in range(args.positions):
        board = random_position(rng, rng.choice(names))
        expected = result_class(tables.probe_wdl(board))
        by_class[expected] += 1
        engine.protocol.send_line("ucinewgame")
        play = engine.play(board, chess.engine.Limit(time=args.movetime), info=chess.engine.INFO_ALL)
        score = play.info["score"].relative
        shown = score.score(mate_score=100000)
        got = 1 if shown >= TB_WIN else -1 if shown <= -TB_WIN else 0
        after = board.copy()
        after.push(play.move)
        if after.is_checkmate():
            kept = 1
        else:
            kept = -result_class(tables.probe_wdl(after))
        problems = []
        if got != expected:
            problems.append(f"score {score} but tables say {expected}")
            counts["score"] += 1
        if kept != expected:
            problems.append(f"bestmove {play.move} gives {kept}, tables {expected}")
            counts["move"] += 1
        if not play.info.get("tbhits"):
            problems.append("tbhits 0")
            counts["tbhits"] += 1
        if problems:
            print(f"{board.fen()}: " + "; ".join(problems))
    engine.quit()
    print(f"positions {args.positions} (won {by_class[1]}, drawn {by_class[0]}, lost {by_class[-1]}); "
          f"wrong score {counts['score']}, result-losing best move {counts['move']}, tbhits 0: {counts['tbhits']}")


if __name__ == "__main__":
    main()
