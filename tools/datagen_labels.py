#!/usr/bin/env python3
"""How close `springer datagen`'s score labels are to a deeper search's: a label-quality measure
for comparing datagen settings (a soft against a hard node limit, say) without training a net.

Reads every chunk of each directory (the format of src/datagen/format.rs), keeps the positions
training keeps (`Sample::is_trainable`: ply 8 on, not in check, a best move that neither captures
nor promotes, no mate score) with |score| < 3000, samples SAMPLE of them per directory (seeded),
searches each afresh with ENGINE (`ucinewgame`, then `go nodes NODES`) and prints, per directory,
the mean absolute difference between label and deep score, over all and over the positions the
deep search scores within 150 cp. Needs python-chess (`pip install chess`).

Usage: datagen_labels.py ENGINE DIR [DIR ...] [--sample 400] [--nodes 200000] [--seed 1]
"""
import argparse
import glob
import os
import random
import struct
import sys

import chess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_engine import Engine  # noqa: E402

MAGIC = b"SPRGDAT1"
# Springer's move kinds (src/types/moves.rs): the 4 bits above from (6) and to (6).
CASTLE, CAPTURE_BIT, PROMOTION_BIT = 2, 4, 8
PROMOTED = [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]
MIN_TRAINING_PLY = 8
MAX_LABEL = 3000
NEAR_LEVEL = 150


def games(path):
    """(start FEN, chess960, [(move bits, score)]) for each game of one chunk file."""
    data = open(path, "rb").read()
    if data[:8] != MAGIC:
        sys.exit(f"error: {path} is not a datagen chunk")
    (count,) = struct.unpack_from("<I", data, 16)
    at = 20
    for _ in range(count):
        length = data[at]
        fen = data[at + 1:at + 1 + length].decode()
        at += 1 + length
        chess960 = data[at] == 1
        (plies,) = struct.unpack_from("<H", data, at + 2)
        at += 4
        moves = [struct.unpack_from("<Hh", data, at + 4 * i) for i in range(plies)]
        at += 4 * plies
        yield fen, chess960, moves


def to_move(board, bits):
    """The python-chess move of Springer's 16-bit move (castling is king takes own rook)."""
    frm, to, kind = bits & 63, (bits >> 6) & 63, bits >> 12
    if kind == CASTLE:
        king_side = to > frm
        rank = chess.square_rank(frm)
        target = chess.square(6 if king_side else 2, rank)
        if board.chess960:
            return chess.Move(frm, to)
        try:
            return board.find_move(frm, target)
        except chess.IllegalMoveError:
            return None
    promotion = PROMOTED[kind & 3] if kind & PROMOTION_BIT else None
    return chess.Move(frm, to, promotion)


def trainable_positions(directory):
    """(FEN, Chess960 or not, label) of every position training would keep in `directory`."""
    out = []
    for path in sorted(glob.glob(os.path.join(directory, "chunk-*.bin"))):
        for fen, chess960, moves in games(path):
            board = chess.Board(fen, chess960=chess960)
            for ply, (bits, score) in enumerate(moves):
                kind = bits >> 12
                noisy = kind & (CAPTURE_BIT | PROMOTION_BIT)
                if ply >= MIN_TRAINING_PLY and not board.is_check() and not noisy and abs(score) < MAX_LABEL:
                    out.append((board.fen(shredder=chess960), chess960, score))
                move = to_move(board, bits)
                if move is None or not board.is_legal(move):
                    sys.exit(f"error: {path}: move bits {bits:#06x} not legal in {board.fen()}")
                board.push(move)
    return out


def deep_score(engine, fen, chess960, nodes):
    """The exact score (not a bound) of the last iteration that reported one."""
    engine.send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
    engine.send("ucinewgame")
    engine.send(f"position fen {fen}")
    engine.send(f"go nodes {nodes}")
    lines = engine.until("bestmove", timeout=120)
    if lines is None:
        sys.exit(f"error: no bestmove for {fen}")
    score = None
    for line in lines:
        words = line.split()
        if "score" in words and "lowerbound" not in words and "upperbound" not in words:
            i = words.index("score")
            if words[i + 1] == "cp":
                score = int(words[i + 2])
            elif words[i + 1] == "mate":
                score = MAX_LABEL if int(words[i + 2]) > 0 else -MAX_LABEL
    if score is None:
        sys.exit(f"error: no exact score for {fen}")
    return score


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine")
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--sample", type=int, default=400)
    parser.add_argument("--nodes", type=int, default=200000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine = Engine(args.engine)
    engine.send("uci")
    engine.until("uciok")
    for directory in args.dirs:
        positions = trainable_positions(directory)
        if not positions:
            sys.exit(f"error: no trainable positions in {directory}")
        sample = random.Random(args.seed).sample(positions, min(args.sample, len(positions)))
        diffs, near = [], []
        for fen, chess960, label in sample:
            deep = deep_score(engine, fen, chess960, args.nodes)
            diffs.append(abs(label - deep))
            if abs(deep) < NEAR_LEVEL:
                near.append(abs(label - deep))
        mean = sum(diffs) / len(diffs)
        near_mean = sum(near) / len(near) if near else float("nan")
        print(f"{directory}: {len(positions)} trainable positions, {len(sample)} searched to {args.nodes} nodes: "
              f"mean |label - deep| {mean:.1f} cp; {len(near)} within {NEAR_LEVEL} cp: {near_mean:.1f} cp")
    engine.send("quit")


if __name__ == "__main__":
    main()
