#!/usr/bin/env python3
"""Soak test: one long-lived Springer process plays many games against a peer while its options
change between games (Hash, Threads, Clear Hash), the way a tester's tournament manager reuses
an engine. Counts Springer's illegal moves, time losses, crashes and stalls; restarts it after
a crash or stall. Needs python-chess (`pip install chess`).

Usage: soak.py SPRINGER PEER GAMES BASE_SECONDS INC_SECONDS [--threads 1,2] [--hash 1,16,64,256]
               [--openings FILE] [--seed N] [--json OUT]
"""
import argparse
import json
import random
import time

import chess
import chess.engine

MARGIN = 0.1  # seconds a move may exceed the clock, as match.py allows


def load_openings(path):
    if not path:
        return [chess.STARTING_FEN]
    fens = []
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            fields = line.split()
            fens.append(" ".join(fields[:4]) + " 0 1")
    return fens


def start(cmd):
    return chess.engine.SimpleEngine.popen_uci(cmd, timeout=15)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("springer")
    ap.add_argument("peer")
    ap.add_argument("games", type=int)
    ap.add_argument("base", type=float)
    ap.add_argument("inc", type=float)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--hash", default="1,4,16,64,256")
    ap.add_argument("--openings", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    threads = [int(t) for t in args.threads.split(",")]
    hashes = [int(h) for h in args.hash.split(",")]
    openings = load_openings(args.openings)
    stats = {"games": 0, "springer_points": 0.0, "illegal": 0, "time_losses": 0, "crashes": 0, "stalls": 0,
             "option_changes": 0, "peer_faults": 0, "results": {"1-0": 0, "0-1": 0, "1/2-1/2": 0}}
    springer = start(args.springer)
    peer = start(args.peer)
    started = time.time()
    for game in range(args.games):
        options = {"Hash": rng.choice(hashes), "Threads": rng.choice(threads)}
        try:
            springer.configure(options)
            if rng.random() < 0.2:
                springer.configure({"Clear Hash": None})
            stats["option_changes"] += 1
        except (chess.engine.EngineTerminatedError, chess.engine.EngineError):
            stats["crashes"] += 1
            springer = start(args.springer)
        board = chess.Board(rng.choice(openings))
        springer_white = game % 2 == 0
        clocks = {chess.WHITE: args.base, chess.BLACK: args.base}
        result = None
        while result is None:
            if board.is_game_over(claim_draw=True):
                result = board.result(claim_draw=True)
                break
            if board.fullmove_number > 200:
                result = "1/2-1/2"
                break
            mover = board.turn
            is_springer = (mover == chess.WHITE) == springer_white
            engine = springer if is_springer else peer
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=args.inc, black_inc=args.inc)
            t0 = time.time()
            try:
                played = engine.play(board, limit, game=game)
                move = played.move
            except chess.engine.EngineTerminatedError:
                move = None
                if is_springer:
                    stats["crashes"] += 1
                    springer = start(args.springer)
                else:
                    stats["peer_faults"] += 1
                    peer = start(args.peer)
                result = "0-1" if mover == chess.WHITE else "1-0"
                break
            except TimeoutError:
                # No answer within the command timeout: a stall; restart and score it lost.
                if is_springer:
                    stats["stalls"] += 1
                    springer.close()
                    springer = start(args.springer)
                else:
                    stats["peer_faults"] += 1
                    peer.close()
                    peer = start(args.peer)
                result = "0-1" if mover == chess.WHITE else "1-0"
                break
            except chess.engine.EngineError:
                move = None
            elapsed = time.time() - t0
            if move is None or move not in board.legal_moves:
                if is_springer:
                    stats["illegal"] += 1
                else:
                    stats["peer_faults"] += 1
                result = "0-1" if mover == chess.WHITE else "1-0"
                break
            clocks[mover] -= elapsed
            if clocks[mover] < -MARGIN:
                if is_springer:
                    stats["time_losses"] += 1
                else:
                    stats["peer_faults"] += 1
                result = "0-1" if mover == chess.WHITE else "1-0"
                break
            clocks[mover] += args.inc
            board.push(move)
        stats["games"] += 1
        stats["results"][result] += 1
        if result == "1/2-1/2":
            stats["springer_points"] += 0.5
        elif (result == "1-0") == springer_white:
            stats["springer_points"] += 1
        if (game + 1) % 50 == 0:
            print(f"{game + 1} games, {time.time() - started:.0f} s: {stats}", flush=True)
    for engine in (springer, peer):
        try:
            engine.quit()
        except chess.engine.EngineTerminatedError:
            pass
    stats["seconds"] = round(time.time() - started)
    print(json.dumps(stats))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(stats, out, indent=1)


if __name__ == "__main__":
    main()
