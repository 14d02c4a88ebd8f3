#!/usr/bin/env python3
"""Bad input through the real binary: generated malformed lines of every class are sent to one
long-lived `springer` process (UCI), each followed by `isready`; and malformed command lines are
run as separate processes. Prints a table of classes, counts and what Springer answered.

UCI checks, per line: the engine answers `readyok` within 5 s (else a hang), stays alive (else a
crash), prints no panic message; lines that must be refused get an `info string` line; a `go`
(stopped after 20 ms when it has no limit) gets exactly one legal `bestmove`; after a `position`
command with a bad move the position is the one after the moves before it (checked with `d`).
Command-line checks: exit code 2, one message on stderr, no panic. Needs python-chess.

Usage: bad_input.py SPRINGER [--per-class N] [--seed S]
"""
import argparse
import random
import subprocess
import time

import chess

from uci_engine import Engine

FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
]
NOISE = list("rnbqkpRNBQKP12345678/ -wKQkqabcdefgh0x") + ["\u00e9", "\u2654", "99", "-1"]


def mutate(text, rng):
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(3)
        at = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            chars[min(at, len(chars) - 1)] = rng.choice(NOISE)
        elif op == 1:
            chars.insert(at, rng.choice(NOISE))
        elif chars:
            del chars[min(at, len(chars) - 1)]
    return "".join(chars)


def bad_fen(rng):
    fen = mutate(rng.choice(FENS), rng)
    return f"position fen {fen}", {"may_accept": True}


def bad_move(rng):
    board = chess.Board(rng.choice(FENS))
    played = []
    for _ in range(rng.randint(0, 12)):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        played.append(move.uci())
        board.push(move)
    expected = board.fen(en_passant="fen")
    bad = rng.choice(["e2e5", "a1a1", "zz", "e7e8x", "e1g1", "0000", "h9h1", "e2", "@@@@", "g1f3q",
                      mutate("e2e4", rng)])
    legal = {m.uci() for m in board.legal_moves}
    if bad in legal:
        bad = "a1h8h"
    tail = " ".join(played + [bad] + (["e2e4"] if rng.random() < 0.5 else []))
    return f"position fen {board.root().fen()} moves {tail}", {"expect_fen": expected, "must_refuse": True}


def bad_go(rng):
    keys = ["wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime", "mate"]
    values = ["-5", "abc", "", "99999999999999999999999", "1e9", "0", "-0", "3.5", "\u00e9", "1"]
    parts = ["go"]
    for _ in range(rng.randint(1, 4)):
        parts.append(rng.choice(keys))
        parts.append(rng.choice(values))
    return " ".join(p for p in parts if p), {"go": True}


def bad_setoption(rng):
    names = ["Hash", "Threads", "MultiPV", "UCI_Elo", "Move Overhead", "Nonexistent", "hash", "", "Ponder",
             "UCI_Chess960", "BookFile"]
    values = ["-1", "0", "999999999", "lots", "", "true", "maybe", "1e3", "/no/such/file.bin"]
    name = rng.choice(names)
    value = rng.choice(values)
    if name.lower() == "hash" and value == "999999999":
        # Clamped to 65536 MB, which the engine then tries to allocate (halving until the system
        # agrees): correct, but minutes of memset per case. Tried once by hand instead.
        value = "-1"
    line = "setoption" + (f" name {name}" if name or rng.random() < 0.5 else "")
    if rng.random() < 0.8:
        line += f" value {value}"
    return line, {"may_accept": True, "reset": True}


KNOWN = {"uci", "isready", "ucinewgame", "position", "go", "stop", "ponderhit", "setoption", "quit", "d", "eval",
         "bench", "register", "debug"}


def unknown_command(rng):
    word = "d"
    while word in KNOWN:
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 12)))
    return word + rng.choice(["", " 1 2 3", " startpos"]), {"must_refuse": True}


def empty_or_long(rng):
    kind = rng.randrange(4)
    if kind == 0:
        return rng.choice(["", " ", "\t", "   \t  "]), {"silent": True}
    if kind == 1:
        return "position startpos moves " + " ".join(["e2e4"] * rng.randint(1000, 20000)), {"must_refuse": True}
    if kind == 2:
        return "x" * rng.randint(70_000, 1_000_000), {"must_refuse": True}
    return "go depth 1 " + "searchmoves " * rng.randint(100, 5000), {"go": True}


def non_utf8(rng):
    raw = bytes(rng.randrange(256) for _ in range(rng.randint(1, 200))).replace(b"\n", b"").replace(b"\r", b"")
    prefix = rng.choice([b"", b"position fen ", b"setoption name ", b"go "])
    return prefix + raw + b"\xff", {"may_accept": True}


CLASSES = [
    ("FEN: mutated fields (position fen)", bad_fen),
    ("position with an illegal or malformed move", bad_move),
    ("go with missing, negative, non-numeric, absurd values", bad_go),
    ("setoption: unknown names, values out of range or unparsable", bad_setoption),
    ("unknown commands", unknown_command),
    ("empty, whitespace-only and very long lines", empty_or_long),
    ("non-UTF-8 bytes", non_utf8),
]


def run_uci(cmd, per_class, rng):
    rows = []
    engine = Engine(cmd)
    for name, make in CLASSES:
        row = {"class": name, "tried": 0, "info_string": 0, "refused_ok": 0, "hangs": 0, "crashes": 0,
               "panics": 0, "wrong": 0}
        for _ in range(per_class):
            line, expect = make(rng)
            row["tried"] += 1
            engine.send(line)
            if expect.get("go"):
                time.sleep(0.02)
                engine.send("stop")
            engine.send("isready")
            # Threads=1024 (the clamp) starts 1024 workers with their tables: seconds, not a hang.
            text = line if isinstance(line, str) else line.decode("utf-8", "replace")
            seen = engine.until("readyok", 120.0 if "threads" in text.lower() else 5.0)
            if expect.get("go") and seen is not None:
                # The bestmove may come after readyok; wait for it and check there is exactly one.
                rest = [] if any(l.startswith("bestmove") for l in seen) else engine.until("bestmove")
                if rest is None:
                    seen = None
                else:
                    seen += rest
                    bests = [l for l in seen if l.startswith("bestmove")]
                    if len(bests) != 1:
                        row["wrong"] += 1
            if seen is None:
                row["hangs" if engine.alive() else "crashes"] += 1
                print(f"no readyok after: {text[:120]!r}")
                if any("panicked" in l for l in engine.stderr):
                    row["panics"] += 1
                engine = Engine(cmd)
                continue
            infos = [l for l in seen if l.startswith("info string")]
            row["info_string"] += bool(infos)
            if expect.get("must_refuse"):
                if any("error" in l for l in infos):
                    row["refused_ok"] += 1
                else:
                    row["wrong"] += 1
            if expect.get("silent") and infos:
                row["wrong"] += 1
            if "expect_fen" in expect:
                engine.send("d")
                board = engine.until("Fen:")
                if board is None or board[-1].split(" ", 1)[1] != expect["expect_fen"]:
                    row["wrong"] += 1
            engine.send("position startpos")
            if expect.get("reset"):
                # Back to a small table and one thread, so the next cases stay quick.
                engine.send("setoption name Hash value 16")
                engine.send("setoption name Threads value 1")
                engine.send("setoption name MultiPV value 1")
        rows.append(row)
    panics = sum("panicked" in l for l in engine.stderr)
    engine.send("quit")
    engine.proc.wait(timeout=5)
    return rows, panics


def run_cli(cmd, per_class, rng):
    cases = []
    for _ in range(per_class):
        cases.append(["perft", "3", "--fen", mutate(rng.choice(FENS), rng)])
    bad_args = [["perft"], ["perft", "x"], ["perft", "-1"], ["perft", "3", "--threads", "0"],
                ["perft-suite", "/no/such/file.epd"], ["perft-suite", "/etc/hostname"], ["bench", "abc"],
                ["bench", "5", "0"], ["frobnicate"], ["perft", "99999999999"], ["tune", "/no/such/data"]]
    cases += bad_args * max(1, per_class // 50)
    row = {"class": "command line: bad FENs and arguments", "tried": 0, "exit2": 0, "other_exit": 0, "panics": 0,
           "valid_fen": 0}
    for args in cases:
        row["tried"] += 1
        done = subprocess.run([cmd] + args, capture_output=True, timeout=60)
        if b"panicked" in done.stderr:
            row["panics"] += 1
        if done.returncode == 2 and done.stderr.strip():
            row["exit2"] += 1
        elif done.returncode == 0 and args[0] == "perft":
            row["valid_fen"] += 1  # a mutation that is still a legal FEN
        else:
            row["other_exit"] += 1
            print("unexpected:", args[:3], done.returncode, done.stderr[:200])
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("springer")
    ap.add_argument("--per-class", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    started = time.time()
    rows, panics = run_uci(args.springer, args.per_class, rng)
    print("| class | tried | answered with info string | refused as required | wrong answers | hangs | crashes |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['class']} | {r['tried']} | {r['info_string']} | {r['refused_ok']} | {r['wrong']} | {r['hangs']} "
              f"| {r['crashes']} |")
    print(f"panic messages on stderr: {panics}")
    cli = run_cli(args.springer, max(10, args.per_class // 5), rng)
    print(f"| {cli['class']} | {cli['tried']} | exit 2 with a message: {cli['exit2']} | still-valid FENs (exit 0): "
          f"{cli['valid_fen']} | other: {cli['other_exit']} | panics: {cli['panics']} |")
    print(f"{time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
