#!/usr/bin/env python3
"""Sum the pentanomial counts of several match.py runs of one SPRT and print its state.

An SPRT that outlives a session is continued by running the same match again with a new
`-srand`; this adds up the last `Ptnml(0-2)` line of each run's log and evaluates the sum with
match.py's own statistics (`Sprt.llr`, normalized pentanomial, and `elo_estimate`), so the
decision is the one a single uninterrupted run would have reached on the same game pairs.

    python3 tools/sprt_sum.py --elo0 0 --elo1 10 ../matches/sprt-a.log ../matches/sprt-b.log

Runs whose logs are gone (a machine reset) are carried by their documented counts:

    python3 tools/sprt_sum.py --elo0 -5 --elo1 0 --counts 64,354,640,370,67 ../matches/sprt-l.log
"""
import argparse
import os
import re
import sys

PTNML = re.compile(r"Ptnml\(0-2\):?\s*\[([^\]]*)\]")


def fail(message):
    """Report bad input and stop with exit code 2."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def five_counts(text):
    """The five non-negative integers of `a,b,c,d,e`, or None if `text` is not that."""
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        return None
    return counts if len(counts) == 5 and min(counts) >= 0 else None


def last_pentanomial(path):
    """The counts of the last `Ptnml(0-2)` line of a match.py log, or None if it has none."""
    found = None
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                found = PTNML.search(line) or found
    except OSError as err:
        fail(f"{path}: {err.strerror}")
    if found is None:
        return None
    counts = five_counts(found.group(1))
    if counts is None:
        fail(f"{path}: the last Ptnml line does not hold five counts: [{found.group(1)}]")
    return counts


def parse_counts(text):
    """`--counts`: five non-negative pentanomial counts written `a,b,c,d,e`."""
    counts = five_counts(text)
    if counts is None:
        raise argparse.ArgumentTypeError(f"expected five non-negative counts a,b,c,d,e, got {text!r}")
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument(
        "--match-py",
        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "tools"),
        help="the directory holding match.py (default ../shared/tools beside the checkout)",
    )
    parser.add_argument(
        "--counts",
        type=parse_counts,
        action="append",
        default=[],
        help="pentanomial counts a,b,c,d,e of a run whose log is gone (repeatable)",
    )
    parser.add_argument("logs", nargs="*")
    args = parser.parse_args()
    if not args.logs and not args.counts:
        parser.error("give at least one log or --counts")

    sys.path.insert(0, args.match_py)
    try:
        import match  # pylint: disable=import-outside-toplevel
    except ImportError as err:
        fail(f"cannot import match.py from {args.match_py}: {err}")
    try:
        sprt = match.Sprt(args.elo0, args.elo1, args.alpha, args.beta, "normalized", True)
    except match.ConfigError as err:
        fail(str(err))

    runs = [("--counts", counts) for counts in args.counts]
    runs += [(path, last_pentanomial(path)) for path in args.logs]
    total = [0] * 5
    for name, counts in runs:
        if counts is None:
            print(f"{name}: no finished game pair yet")
            continue
        print(f"{name}: pentanomial {counts}, {sum(counts)} pairs")
        total = [a + b for a, b in zip(total, counts)]

    llr = sprt.llr(total)
    line = f"sum: pentanomial {total}, {sum(total)} pairs, LLR {llr:.2f} ({sprt.state(llr)})"
    estimate = match.elo_estimate([i / 4 for i in range(5)], total, 2)
    if estimate:
        line += f", Elo {estimate['elo']:+.1f} +- {estimate['elo_error']:.1f}"
    print(line)


if __name__ == "__main__":
    main()
