#!/usr/bin/env python3
"""Tablebase conversion: Springer, with the tables, plays won positions of a material against an
engine defending with the same tables, until mate, a fifty-move draw or a threefold repetition.
A game counts as converted when Springer mates.

Usage: tools/tb_conversion.py ENGINE ../shared/syzygy --defender /usr/games/stockfish \\
           --materials KRvK KBNvK KQvKR --games 10 --movetime 0.1 --seed 1
Positions are random, legal, with Springer to move and a tablebase win (not cursed) for it.
Needs `pip install chess`.
"""
import argparse
import os
import random

import chess
import chess.engine
import chess.syzygy


def won_position(rng, tables, material):
    white, black = material.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        for letters, color in ((white, chess.WHITE), (black, chess.BLACK)):
            for letter in letters:
                board.set_piece_at(squares.pop(), chess.Piece.from_symbol(letter if color else letter.lower()))
        board.turn = chess.WHITE
        if board.is_valid() and any(board.legal_moves) and tables.probe_wdl(board) == 2:
            return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("directory")
    parser.add_argument("--defender", default="/usr/games/stockfish")
    parser.add_argument("--materials", nargs="+", default=["KRvK", "KBNvK", "KQvKR"])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--movetime", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    path = os.path.abspath(args.directory)
    tables = chess.syzygy.open_tablebase(path)
    springer = chess.engine.SimpleEngine.popen_uci(args.engine)
    springer.configure({"SyzygyPath": path, "Hash": 16})
    defender = chess.engine.SimpleEngine.popen_uci(args.defender)
    defender.configure({"SyzygyPath": path, "Hash": 16, "Threads": 1})
    total_converted = 0
    for material in args.materials:
        converted, plies = 0, []
        for game in range(args.games):
            board = won_position(rng, tables, material)
            start = board.fen()
            for engine in (springer, defender):
                engine.protocol.send_line("ucinewgame")
            while not board.is_game_over(claim_draw=True):
                engine = springer if board.turn == chess.WHITE else defender
                board.push(engine.play(board, chess.engine.Limit(time=args.movetime)).move)
            outcome = board.outcome(claim_draw=True)
            won = outcome.winner == chess.WHITE
            converted += won
            plies.append(len(board.move_stack))
            print(f"{material} {start}: {outcome.termination.name} after {len(board.move_stack)} plies"
                  + ("" if won else "  <- NOT CONVERTED"), flush=True)
        total_converted += converted
        print(f"{material}: {converted}/{args.games} mated, plies mean {sum(plies) / len(plies):.1f}, max {max(plies)}",
              flush=True)
    springer.quit()
    defender.quit()
    print(f"total: {total_converted}/{args.games * len(args.materials)} converted")


if __name__ == "__main__":
    main()
