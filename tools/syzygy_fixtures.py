#!/usr/bin/env python3
"""Writes the Syzygy probe fixtures: random legal positions of every table in a directory, each
with python-chess's WDL and DTZ (the reference prober), one line per position:

    <FEN> <wdl> <dtz>

Usage: tools/syzygy_fixtures.py ../shared/syzygy --per-table 540 --seed 1 > tests/fixtures/syzygy-probes.txt
       tools/syzygy_fixtures.py ../shared/syzygy-6:../shared/syzygy --only KNNNNvK KNNNvK --per-table 600 \
           --seed 6 > tests/fixtures/syzygy6-probes.txt

Several directories (separated by ':') are probed together, so captures can reach tables in another;
positions are written for every table in them, or only for the tables `--only` names.

About one position in eight is taken after a random legal move from another, so positions with an
en-passant capture and a non-zero fifty-move counter are covered too. Needs `pip install chess`.
"""
import argparse
import os
import random
import sys

import chess
import chess.syzygy


def random_position(rng, white, black):
    """White's and Black's pieces (letters, kings included) on random squares; None if illegal."""
    board = chess.Board(None)
    squares = rng.sample(range(64), len(white) + len(black))
    for letters, color in ((white, chess.WHITE), (black, chess.BLACK)):
        for letter in letters:
            sq = squares.pop()
            piece = chess.Piece.from_symbol(letter if color == chess.WHITE else letter.lower())
            if piece.piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
                return None
            board.set_piece_at(sq, piece)
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board if board.is_valid() else None


def _has_ep(board, move):
    after = board.copy(stack=False)
    after.push(move)
    return after.has_legal_en_passant()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", help="table directories, separated by ':'")
    parser.add_argument("--only", nargs="+", help="write positions of these tables only")
    parser.add_argument("--mirrored", action="store_true", help="also write each position with the colours swapped")
    parser.add_argument("--per-table", type=int, default=540)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    directories = [d for d in args.directory.split(":") if d]
    names = sorted({f[:-5] for d in directories for f in os.listdir(d) if f.endswith(".rtbw")})
    if args.only:
        names = [n for n in names if n in args.only]
    with chess.syzygy.open_tablebase(directories[0]) as tables:
        for d in directories[1:]:
            tables.add_directory(d)
        for name in names:
            white, black = name.split("v")
            written = 0
            while written < args.per_table:
                board = random_position(rng, white, black)
                if board is None:
                    continue
                wants_ep = "P" in white and "P" in black and written % 4 == 0
                if wants_ep:
                    # A double push that leaves an en-passant capture.
                    moves = [m for m in board.legal_moves if board.is_zeroing(m) and abs(m.to_square - m.from_square) == 16]
                    moves = [m for m in moves if _has_ep(board, m)]
                    if not moves:
                        continue
                    board.push(rng.choice(moves))
                    board = chess.Board(board.fen())
                elif rng.random() < 0.125:
                    moves = [m for m in board.legal_moves if not board.is_capture(m)]
                    if not moves:
                        continue
                    board.push(rng.choice(moves))
                    board = chess.Board(board.fen())
                    if not board.is_valid():
                        continue
                boards = [board, board.mirror()] if args.mirrored else [board]
                try:
                    lines = [f"{b.fen()} {tables.probe_wdl(b)} {tables.probe_dtz(b)}" for b in boards]
                except KeyError:
                    continue
                print("\n".join(lines))
                written += 1
            print(f"{name}: {written}", file=sys.stderr)


if __name__ == "__main__":
    main()
