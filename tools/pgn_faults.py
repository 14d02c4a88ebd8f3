#!/usr/bin/env python3
"""Counts a match PGN's faults (fastchess's Termination tags: time forfeit, illegal move,
abandoned = disconnect or stall, unterminated) by the engine at fault, and the score.

    python3 tools/pgn_faults.py games.pgn [more.pgn ...]

Exit code 1 when any game ended by a fault, 2 for an unreadable file."""
import re
import sys
from collections import Counter

FAULTS = ("time forfeit", "illegal move", "abandoned", "unterminated")


def games(text):
    """Yields each game's tags as a dict."""
    for block in re.split(r"\n\s*\n(?=\[)", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        if "Result" in tags:
            yield tags


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    terminations, faults, points, played = Counter(), Counter(), Counter(), Counter()
    for path in sys.argv[1:]:
        try:
            text = open(path, encoding="utf-8", errors="replace").read()
        except OSError as e:
            print(f"error: {path}: {e}", file=sys.stderr)
            return 2
        for tags in games(text):
            white, black, result = tags.get("White", "?"), tags.get("Black", "?"), tags["Result"]
            termination = tags.get("Termination", "normal")
            terminations[termination] += 1
            played[white] += 1
            played[black] += 1
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
            if score is not None:
                points[white] += score
                points[black] += 1 - score
            if termination in FAULTS:
                # The side that lost is the one at fault; an unfinished game names both.
                at_fault = {"1-0": black, "0-1": white}.get(result, f"{white} / {black}")
                faults[(termination, at_fault)] += 1
    total = sum(terminations.values())
    print(f"{total} games; terminations: " + ", ".join(f"{k} {v}" for k, v in terminations.most_common()))
    for engine in sorted(played):
        print(f"  {engine}: {points[engine]:g} / {played[engine]} ({100 * points[engine] / played[engine]:.1f} %)")
    if faults:
        for (kind, engine), n in sorted(faults.items()):
            print(f"FAULT {kind}: {n} ({engine})")
        return 1
    print("faults: 0 (no time forfeit, illegal move, disconnect, stall or unterminated game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
