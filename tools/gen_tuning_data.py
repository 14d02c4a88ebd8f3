#!/usr/bin/env python3
"""Generate labelled positions for Springer's Texel tuning: Stockfish self-play.

Each game starts from a random line of ../shared/openings/balanced.epd, plus 0-3 random legal
moves (so repeated openings diverge), then Stockfish plays both sides at a node limit drawn per
game from [NODES_MIN, NODES_MAX]. A game ends by the rules, by adjudication (both sides' scores
beyond +-ADJUDICATE cp for 4 plies: a win; |score| < 10 cp for 20 plies after move 60: a draw), or
at move 200 (a draw). Every position from ply 10 of the game on, with the side to move not in
check, is written as `FEN;RESULT;SCORE`: RESULT 1.0 / 0.5 / 0.0 and SCORE Stockfish's score in
centipawns, both from White's point of view (positions with a mate score or |SCORE| > 2000 are
skipped; their outcome is decided).

Usage: gen_tuning_data.py OUT.txt GAMES [WORKERS] [SEED]
(environment: OPENINGS=FILE.epd, STOCKFISH=PATH)
"""
import multiprocessing as mp
import os
import random
import sys

import chess
import chess.engine

# Defaults: the shared test data beside the checkout (../shared, not part of the repository) and
# Debian's Stockfish; override with the environment variables OPENINGS and STOCKFISH.
HERE = os.path.dirname(os.path.abspath(__file__))
OPENINGS = os.environ.get("OPENINGS", os.path.join(HERE, "..", "..", "shared", "openings", "balanced.epd"))
STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")
NODES_MIN, NODES_MAX = 1500, 5000
ADJUDICATE = 1000


def play_game(engine, board, nodes):
    fens = []
    win_streak = 0
    draw_streak = 0
    last_sign = 0
    while not board.is_game_over(claim_draw=True):
        if board.fullmove_number > 200:
            return fens, "1/2-1/2"
        info = engine.analyse(board, chess.engine.Limit(nodes=nodes), info=chess.engine.INFO_SCORE | chess.engine.INFO_PV)
        score = info["score"].white().score(mate_score=100000)
        if board.ply() >= 10 and not board.is_check() and abs(score) <= 2000:
            fens.append((board.fen(), score))
        sign = (score > ADJUDICATE) - (score < -ADJUDICATE)
        win_streak = win_streak + 1 if sign != 0 and sign == last_sign else (1 if sign != 0 else 0)
        last_sign = sign
        if win_streak >= 4:
            return fens, "1-0" if sign > 0 else "0-1"
        draw_streak = draw_streak + 1 if abs(score) < 10 and board.fullmove_number > 60 else 0
        if draw_streak >= 20:
            return fens, "1/2-1/2"
        pv = info.get("pv")
        if not pv:
            break
        board.push(pv[0])
    return fens, board.result(claim_draw=True)


def worker(args):
    worker_id, games, seed, out_path = args
    rng = random.Random(seed * 1000 + worker_id)
    openings = [line.strip() for line in open(OPENINGS) if line.strip() and not line.startswith("#")]
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    engine.configure({"Threads": 1, "Hash": 16})
    written = 0
    with open(f"{out_path}.part{worker_id}", "a") as out:
        for game in range(games):
            board = chess.Board(" ".join(rng.choice(openings).split()[:4]) + " 0 1")
            for _ in range(rng.randint(0, 3)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            if board.is_game_over():
                continue
            engine.configure({"Clear Hash": None})
            fens, result = play_game(engine, board, rng.randint(NODES_MIN, NODES_MAX))
            label = {"1-0": "1.0", "0-1": "0.0"}.get(result, "0.5")
            for fen, score in fens:
                out.write(f"{fen};{label};{score}\n")
            written += len(fens)
            out.flush()
            if game % 100 == 0:
                print(f"worker {worker_id}: game {game}/{games}, {written} positions", flush=True)
    engine.quit()
    return written


def main():
    out_path, games = sys.argv[1], int(sys.argv[2])
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    with mp.Pool(workers) as pool:
        counts = pool.map(worker, [(w, games // workers, seed, out_path) for w in range(workers)])
    print(f"done: {sum(counts)} positions")


if __name__ == "__main__":
    main()
