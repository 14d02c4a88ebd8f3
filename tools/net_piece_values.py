#!/usr/bin/env python3
"""What an engine's evaluation makes of each piece: the median change of its static
evaluation (the UCI `eval` command's NNUE line) when one piece is taken off the board, over
positions sampled from a match PGN (every 12th ply, not in check; castling and en passant
cleared, positions left invalid skipped). Prints count, median and mean per piece type.

    python3 tools/net_piece_values.py ENGINE GAMES.pgn [POSITIONS (default 300)]

Needs python-chess (`pip install chess`). Exit code 2 for bad arguments or an unreadable file."""
import re
import statistics
import subprocess
import sys

import chess
import chess.pgn

SAMPLE_EVERY = 12


def evaluations(engine, fens):
    """The engine's NNUE evaluation (side to move's view, centipawns) of each FEN, in order."""
    script = "".join(f"position fen {fen}\neval\n" for fen in fens) + "quit\n"
    out = subprocess.run([engine], input=script, capture_output=True, text=True, check=True).stdout
    values = [int(m.group(1)) for m in re.finditer(r"^NNUE evaluation.*?(-?\d+) cp \(side to move\)", out, re.M)]
    if len(values) != len(fens):
        raise RuntimeError(f"{engine} answered {len(values)} evaluations for {len(fens)} positions")
    return values


def sample_positions(pgn_path, count):
    """Up to `count` positions from the games, every SAMPLE_EVERY-th ply, none in check."""
    boards = []
    with open(pgn_path, encoding="utf-8") as pgn:
        while len(boards) < count:
            game = chess.pgn.read_game(pgn)
            if game is None:
                break
            board = game.board()
            for ply, move in enumerate(game.mainline_moves(), 1):
                board.push(move)
                if ply % SAMPLE_EVERY == 0 and not board.is_check():
                    boards.append(board.copy())
    return boards[:count]


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    engine, pgn_path = sys.argv[1], sys.argv[2]
    try:
        count = int(sys.argv[3]) if len(sys.argv) == 4 else 300
        boards = sample_positions(pgn_path, count)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    try:
        changes = piece_value_changes(engine, boards)
    except (OSError, subprocess.CalledProcessError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    print(f"{len(boards)} positions")
    for symbol, values in changes.items():
        if values:
            print(f"{symbol}: {len(values)} pieces, median {statistics.median(values):.0f}, mean {statistics.mean(values):.0f}")


def piece_value_changes(engine, boards):
    """Per piece type, how much its owner's evaluation falls when one is taken off each board."""
    changes = {symbol: [] for symbol in "PNBRQ"}
    for board in boards:
        removed = []
        for square, piece in board.piece_map().items():
            if piece.piece_type == chess.KING:
                continue
            child = board.copy()
            child.remove_piece_at(square)
            child.castling_rights = chess.BB_EMPTY
            child.ep_square = None
            if child.is_valid():
                removed.append((piece, child.fen()))
        values = evaluations(engine, [board.fen()] + [fen for _, fen in removed])
        for (piece, _), value in zip(removed, values[1:]):
            owner_to_move = 1 if piece.color == board.turn else -1
            changes[piece.symbol().upper()].append(owner_to_move * (values[0] - value))
    return changes


if __name__ == "__main__":
    main()
