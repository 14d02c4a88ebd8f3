#!/usr/bin/env python3
"""Game-based SPSA tuning of Springer's search margins.

The engine must be a tuning build (`cargo build --release --features tune --target-dir
target/tune`), which declares every margin of `src/search/pruning.rs` (`TUNABLES`) as a UCI
spin option with its default and range. Each iteration perturbs every tuned value by +-c_k at
once (a random sign per value), plays game pairs (same opening, colours reversed) between the
engine with theta + c_k * delta and the one with theta - c_k * delta through
`../shared/tools/match.py`, and moves theta along delta by the result:

    theta_i += R_k * c_k,i * (wins - losses of the plus side) * delta_i

with the usual schedules c_k = c_end * (N / k)^0.101 and R_k = a_k / c_k^2,
a_k = a / (A + k)^0.602, A = N / 10, chosen so that the last iteration uses c_end (a twentieth
of the value's range) and R_end (`--r-end`, 0.002 as on fishtest unless given: a larger one moves
further in a short run, and noisier). Values are rounded when sent.

The state (iteration, theta, every iteration's result) is written to a JSON file after each
iteration, so a run that stops (the session ends, the machine is replaced) resumes where it
was with the same command; `report` prints the values reached and the `setoption` lines.

    python3 tools/spsa.py run --engine target/tune/release/springer --state ../spsa/state.json \\
        --iterations 2000 --tc 2+0.02 --concurrency 2
    python3 tools/spsa.py report --state ../spsa/state.json
    python3 tools/spsa.py selftest          # SPSA on a simulated noisy objective

`selftest` runs the same update on a made-up match whose expected result falls with the
squared distance from a known optimum, and fails unless theta ends much nearer to it.
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from typing import Callable, Dict, List, Sequence

ALPHA = 0.602
GAMMA = 0.101

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MATCH = os.path.join(HERE, "..", "..", "shared", "tools", "match.py")
DEFAULT_OPENINGS = os.path.join(HERE, "..", "..", "shared", "openings", "balanced.epd")


class Param:
    def __init__(self, name: str, default: float, lo: float, hi: float, c_end: float) -> None:
        self.name, self.default, self.lo, self.hi, self.c_end = name, default, lo, hi, c_end

    def to_json(self) -> dict:
        return {"name": self.name, "default": self.default, "min": self.lo, "max": self.hi, "c_end": self.c_end}

    @staticmethod
    def from_json(d: dict) -> "Param":
        return Param(d["name"], d["default"], d["min"], d["max"], d["c_end"])


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def declared_spins(engine: str) -> Dict[str, Param]:
    """Every spin option the engine declares, by name."""
    try:
        out = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        fail(f"cannot run {engine}: {e}")
    spins = {}
    for line in out.splitlines():
        words = line.split()
        if words[:2] != ["option", "name"] or "type" not in words:
            continue
        t = words.index("type")
        name = " ".join(words[2:t])
        fields = dict(zip(words[t::2], words[t + 1::2]))
        if fields.get("type") == "spin":
            lo, hi = float(fields["min"]), float(fields["max"])
            spins[name] = Param(name, float(fields["default"]), lo, hi, (hi - lo) / 20)
    return spins


class Schedule:
    """The gain schedules for a run of `iterations` iterations."""

    def __init__(self, iterations: int, r_end: float) -> None:
        self.n = iterations
        self.big_a = iterations / 10
        self.r_end = r_end

    def c(self, p: Param, k: int) -> float:
        return p.c_end * (self.n / k) ** GAMMA

    def r(self, p: Param, k: int) -> float:
        a_end = self.r_end * p.c_end ** 2
        a = a_end * (self.big_a + self.n) ** ALPHA
        return a / (self.big_a + k) ** ALPHA / self.c(p, k) ** 2


def clamp(p: Param, x: float) -> float:
    return min(max(x, p.lo), p.hi)


def step(params: Sequence[Param], theta: List[float], k: int, schedule: Schedule, rng: random.Random,
         play: Callable[[List[int], List[int]], int]) -> int:
    """One SPSA iteration: perturb, play, update `theta` in place. Returns the result played."""
    delta = [rng.choice((-1, 1)) for _ in params]
    plus = [round(clamp(p, t + schedule.c(p, k) * d)) for p, t, d in zip(params, theta, delta)]
    minus = [round(clamp(p, t - schedule.c(p, k) * d)) for p, t, d in zip(params, theta, delta)]
    result = play(plus, minus)
    for i, p in enumerate(params):
        theta[i] = clamp(p, theta[i] + schedule.r(p, k) * schedule.c(p, k) * result * delta[i])
    return result


def match_player(args: argparse.Namespace, params: Sequence[Param], k: int, faults: List[str]):
    """Plays `args.pairs` game pairs through match.py; the plus side's wins minus losses."""

    def play(plus: List[int], minus: List[int]) -> int:
        def engine(name: str, values: List[int]) -> List[str]:
            return ["-engine", f"name={name}", f"cmd={os.path.abspath(args.engine)}"] + [
                f"option.{p.name}={v}" for p, v in zip(params, values)
            ]

        with tempfile.TemporaryDirectory() as tmp:
            summary = os.path.join(tmp, "summary.json")
            cmd = [sys.executable, args.match] + engine("plus", plus) + engine("minus", minus) + [
                "-each", args.tc if args.tc.startswith("nodes=") else f"tc={args.tc}", f"option.Hash={args.hash}",
                "option.Threads=1",
                "-games", str(2 * args.pairs), "-concurrency", str(args.concurrency),
                "-openings", f"file={args.openings}", "order=random", "-srand", str(args.seed * 100003 + k),
                "-resign", "movecount=3", "score=600", "-draw", "movenumber=40", "movecount=8", "score=10",
                "-maxmoves", "200", "-jsonout", summary,
            ]
            run = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(args.match))
            if run.returncode != 0 or not os.path.exists(summary):
                fail(f"match.py failed (exit {run.returncode}): {run.stderr.strip()[-500:]}")
            with open(summary) as f:
                s = json.load(f)
        for side, counts in s.get("faults", {}).items():
            faults.extend(f"iteration {k}: {side} {kind} x{n}" for kind, n in counts.items() if n)
        pairing = s["pairings"][0]
        return pairing["wins"] - pairing["losses"]

    return play


def save(path: str, state: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def run(args: argparse.Namespace) -> None:
    if not os.path.exists(args.engine):
        fail(f"no engine at {args.engine}")
    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        params = [Param.from_json(d) for d in state["params"]]
        print(f"resuming {args.state} at iteration {state['k'] + 1} of {state['iterations']}")
    else:
        spins = declared_spins(args.engine)
        names = args.params.split(",") if args.params else sorted(TUNED)
        missing = [n for n in names if n not in spins]
        if missing or not names:
            fail(f"the engine declares no spin option {', '.join(missing)} (is it a tuning build?)")
        params = [spins[n] for n in names]
        state = {"iterations": args.iterations, "r_end": args.r_end, "seed": args.seed, "tc": args.tc,
                 "pairs": args.pairs,
                 "params": [p.to_json() for p in params], "k": 0, "theta": [p.default for p in params],
                 "results": [], "faults": []}
        os.makedirs(os.path.dirname(os.path.abspath(args.state)), exist_ok=True)
        save(args.state, state)
    args.tc, args.pairs, args.seed = state["tc"], state["pairs"], state["seed"]
    schedule = Schedule(state["iterations"], state["r_end"])
    theta = state["theta"]
    while state["k"] < state["iterations"]:
        k = state["k"] + 1
        rng = random.Random(state["seed"] * 1_000_003 + k)
        result = step(params, theta, k, schedule, rng, match_player(args, params, k, state["faults"]))
        state["k"], state["theta"] = k, theta
        state["results"].append(result)
        save(args.state, state)
        games = 2 * state["pairs"] * k
        wins_minus_losses = sum(state["results"])
        values = " ".join(f"{p.name}={t:.1f}" for p, t in zip(params, theta))
        print(f"iteration {k}/{state['iterations']} games {games} result {result:+d} "
              f"(sum {wins_minus_losses:+d}) {values}", flush=True)


def report(args: argparse.Namespace) -> None:
    with open(args.state) as f:
        state = json.load(f)
    params = [Param.from_json(d) for d in state["params"]]
    k = state["k"]
    print(f"{k} of {state['iterations']} iterations (R_end {state['r_end']}), {2 * state['pairs'] * k} games "
          f"at {state['tc']}, plus side's wins - losses {sum(state['results']):+d}; "
          f"faults: {len(state['faults'])}")
    for p, t in zip(params, state["theta"]):
        print(f"{p.name:24} {p.default:8.0f} -> {t:8.1f}   (range {p.lo:.0f}..{p.hi:.0f})")
    print(" ".join(f"option.{p.name}={round(t)}" for p, t in zip(params, state["theta"])))


def selftest(_: argparse.Namespace) -> None:
    """SPSA against a simulated match: the expected score of a side falls with the squared
    (range-normalised) distance of its values from a hidden optimum; results are drawn from it."""
    rng = random.Random(1)
    params = [Param(f"P{i}", 100.0, 0.0, 400.0, 20.0) for i in range(6)]
    optimum = [60.0, 150.0, 100.0, 220.0, 80.0, 130.0]

    def strength(values: Sequence[float]) -> float:
        return -sum(((v - o) / 100.0) ** 2 for v, o in zip(values, optimum))

    def play(plus: List[int], minus: List[int]) -> int:
        p_win = 1 / (1 + math.exp(-(strength(plus) - strength(minus)) * 2))
        return sum(1 if rng.random() < p_win else -1 for _ in range(4))

    iterations = 4000
    schedule = Schedule(iterations, 0.002)
    theta = [p.default for p in params]
    start = math.dist(theta, optimum)
    for k in range(1, iterations + 1):
        step(params, theta, k, schedule, rng, play)
    end = math.dist(theta, optimum)
    print(f"distance to the optimum: {start:.1f} -> {end:.1f}; theta {[round(t) for t in theta]}")
    if not end < start / 3:
        fail("SPSA did not approach the optimum")
    print("ok")


# The margins tuned by default: every tunable of src/search/pruning.rs.
TUNED = {
    "RfpMargin", "RazorMargin", "NmpEvalDivisor", "LmpBase", "FutilityBase", "FutilityPerPly",
    "FutilityHistoryLimit", "SeeQuietMargin", "SeeCaptureMargin", "LmrBase", "LmrDivisor",
    "LmrHistoryDivisor", "DeltaMargin", "AspirationDelta",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run (or resume) a tuning run")
    r.add_argument("--engine", required=True, help="a tuning build of springer")
    r.add_argument("--state", required=True, help="the JSON state file (created, or resumed)")
    r.add_argument("--iterations", type=int, default=2000)
    r.add_argument("--params", help="comma-separated option names (default: every margin)")
    r.add_argument("--tc", default="2+0.02", help="a time control (2+0.02) or nodes=N (N nodes a move)")
    r.add_argument("--pairs", type=int, default=2, help="game pairs per iteration")
    r.add_argument("--concurrency", type=int, default=2)
    r.add_argument("--hash", type=int, default=16)
    r.add_argument("--r-end", type=float, default=0.002, help="the learning rate at the last iteration")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--match", default=DEFAULT_MATCH)
    r.add_argument("--openings", default=DEFAULT_OPENINGS)
    r.set_defaults(func=run)
    p = sub.add_parser("report", help="the values a run has reached")
    p.add_argument("--state", required=True)
    p.set_defaults(func=report)
    t = sub.add_parser("selftest", help="SPSA on a simulated match with a known optimum")
    t.set_defaults(func=selftest)
    args = parser.parse_args()
    if args.command == "run" and (args.iterations < 1 or args.pairs < 1 or args.concurrency < 1):
        fail("--iterations, --pairs and --concurrency must be at least 1")
    args.func(args)


if __name__ == "__main__":
    main()
