#!/usr/bin/env python3
"""Soak test: one long-lived Springer process plays many games against a peer while its options
change between games (Hash, Threads, Clear Hash), the way a tester's tournament manager reuses
an engine. Counts Springer's illegal moves, time losses, crashes and stalls; restarts it after
a crash or stall. Needs python-chess (`pip install chess`).

Usage: soak.py SPRINGER PEER GAMES BASE_SECONDS INC_SECONDS [--threads 1,2] [--hash 1,16,64,256]
               [--openings FILE] [--seed N] [--json OUT] [--chess960] [--ponder]
               [--springer-option NAME=VALUE ...] [--peer-option NAME=VALUE ...] [--resign CP]

With --chess960 every pair of games starts from a random Chess960 start position (colours
reversed in the second game) and both engines get UCI_Chess960; with --ponder both engines
ponder on the opponent's time (go ponder / ponderhit / stop, as a GUI does it). With --resign CP
a game is adjudicated once both engines' last three scores agree that one side is CP ahead.
"""
import argparse
import json
import os
import random
import signal
import threading
import time

import chess
import chess.engine

MARGIN = 0.1  # seconds a move may exceed the clock, as match.py allows
PROGRESS_EVERY = 10  # games between progress lines (the counts so far, so a stopped run still tells)
STALL_GRACE = 10.0  # seconds past the mover's clock after which a move that has not come is a stall


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


def parse_options(pairs):
    options = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        options[name] = value
    return options


def start(cmd, options):
    engine = chess.engine.SimpleEngine.popen_uci(cmd, timeout=15)
    engine.configure(options)
    return engine


def close_quietly(engine):
    """Closes an engine that may already be dead."""
    try:
        engine.close()
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
        pass


def play_or_stall(engine, board, limit, seconds, **kwargs):
    """`engine.play`, but an engine with no move after `seconds` is killed and TimeoutError
    raised: python-chess sets no timeout on a clock limit, so a hung engine would stall the run."""
    fired = threading.Event()

    def kill():
        fired.set()
        os.kill(engine.transport.get_pid(), signal.SIGKILL)

    watchdog = threading.Timer(seconds, kill)
    watchdog.start()
    try:
        return engine.play(board, limit, **kwargs)
    except chess.engine.EngineTerminatedError:
        if fired.is_set():
            raise TimeoutError(f"no move in {seconds:.0f} s") from None
        raise
    finally:
        watchdog.cancel()


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
    ap.add_argument("--chess960", action="store_true")
    ap.add_argument("--ponder", action="store_true")
    ap.add_argument("--springer-option", action="append", default=[])
    ap.add_argument("--peer-option", action="append", default=[])
    ap.add_argument("--resign", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    threads = [int(t) for t in args.threads.split(",")]
    hashes = [int(h) for h in args.hash.split(",")]
    openings = load_openings(args.openings)
    stats = {"games": 0, "springer_points": 0.0, "illegal": 0, "time_losses": 0, "crashes": 0, "stalls": 0,
             "option_changes": 0, "peer_faults": 0, "results": {"1-0": 0, "0-1": 0, "1/2-1/2": 0}}
    springer_options = parse_options(args.springer_option)
    peer_options = parse_options(args.peer_option)
    springer = start(args.springer, springer_options)
    peer = start(args.peer, peer_options)
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
            springer = start(args.springer, springer_options)
        if game % 2 == 0:
            if args.chess960:
                board_start = chess.Board.from_chess960_pos(rng.randrange(960))
            else:
                board_start = chess.Board(rng.choice(openings))
        board = board_start.copy()
        springer_white = game % 2 == 0
        clocks = {chess.WHITE: args.base, chess.BLACK: args.base}
        white_scores = []  # White's point of view, one per move played
        result = None
        while result is None:
            if args.resign and len(white_scores) >= 6:
                last = white_scores[-6:]
                if all(s >= args.resign for s in last):
                    result = "1-0"
                    break
                if all(s <= -args.resign for s in last):
                    result = "0-1"
                    break
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
                played = play_or_stall(engine, board, limit, max(clocks[mover], 0) + STALL_GRACE, game=game,
                                       ponder=args.ponder, info=chess.engine.INFO_SCORE)
                move = played.move
                score = played.info.get("score")
                white_scores.append(score.white().score(mate_score=100000) if score else 0)
            except chess.engine.EngineTerminatedError:
                move = None
                if is_springer:
                    stats["crashes"] += 1
                    springer = start(args.springer, springer_options)
                else:
                    stats["peer_faults"] += 1
                    peer = start(args.peer, peer_options)
                result = "0-1" if mover == chess.WHITE else "1-0"
                break
            except TimeoutError:
                # No move within the clock and STALL_GRACE (the engine was killed), or no answer
                # within the command timeout: a stall; restart and score it lost.
                if is_springer:
                    stats["stalls"] += 1
                    close_quietly(springer)
                    springer = start(args.springer, springer_options)
                else:
                    stats["peer_faults"] += 1
                    close_quietly(peer)
                    peer = start(args.peer, peer_options)
                result = "0-1" if mover == chess.WHITE else "1-0"
                break
            except chess.engine.EngineError:
                move = None
            elapsed = time.time() - t0
            clocks[mover] -= elapsed
            fault = None
            if move is None or move not in board.legal_moves:
                fault = "illegal"
            elif clocks[mover] < -MARGIN:
                fault = "time_losses"
            if fault:
                stats[fault if is_springer else "peer_faults"] += 1
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
        if (game + 1) % PROGRESS_EVERY == 0:
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
