#!/bin/sh
# SPRT of one build against another with the settings of docs/testing.md.
#   tools/sprt-ab.sh NEW BASE SEED [LIMIT] [LOGDIR]
# LIMIT is match.py's: `tc=8+0.08` (the default, a gate), `tc=2+0.02`, or `nodes=N`: a screen at
# a fixed node count is independent of CPU load, so it may share a core with datagen at the
# lowest priority (`tools/lowprio.sh tools/sprt-ab.sh ...`) without disturbing a timed match.
# Environment: CONC (default 1), THREADS (each engine's, default 1; a fixed-node screen with
# threads is not repeatable, as their timing shapes the tree), ELO0/ELO1 (default 0/10), NAME
# (the new side's name, default NEW's file name), EVALFILE (a net the new side loads:
# tools/sprt-net.sh) and BASE_EVALFILE (a net the base side loads, to compare two candidate nets
# in one build). Writes
# LOGDIR/sprt-NAME-TAG-SEED.{log,pgn,json} (TAG: `8+0.08` for a clock, `nodes-N` otherwise;
# default LOGDIR /work/matches); continue an SPRT with a new SEED and sum the runs with
# tools/sprt_sum.py.
set -eu
NEW=$(realpath "$1"); BASE=$(realpath "$2"); SEED=$3; LIMIT=${4:-tc=8+0.08}; LOGDIR=${5:-/work/matches}
CONC=${CONC:-1}; THREADS=${THREADS:-1}; ELO0=${ELO0:-0}; ELO1=${ELO1:-10}; NAME=${NAME:-$(basename "$NEW")}
ROOT=$(cd "$(dirname "$0")/.." && pwd); SHARED=$ROOT/../shared
mkdir -p "$LOGDIR"; LOGDIR=$(realpath "$LOGDIR")
case $LIMIT in tc=*) TAG=${LIMIT#tc=} ;; *) TAG=$(echo "$LIMIT" | tr = -) ;; esac
OUT=$LOGDIR/sprt-$NAME-$TAG-$SEED
BASE_NET=
[ -n "${BASE_EVALFILE:-}" ] && BASE_NET=option.EvalFile=$(realpath "$BASE_EVALFILE")
set -- name="$NAME" cmd="$NEW"
[ -n "${EVALFILE:-}" ] && set -- "$@" option.EvalFile="$(realpath "$EVALFILE")"
cd "$SHARED/tools"
exec python3 match.py \
  -engine "$@" \
  -engine name=base cmd="$BASE" ${BASE_NET:+"$BASE_NET"} \
  -each "$LIMIT" option.Hash=16 option.Threads="$THREADS" -concurrency "$CONC" \
  -openings file=../openings/balanced.epd order=random -srand "$SEED" \
  -resign movecount=3 score=600 -draw movenumber=40 movecount=8 score=10 -maxmoves 200 \
  -sprt elo0="$ELO0" elo1="$ELO1" alpha=0.05 beta=0.05 -games 20000 -watchdog 60 \
  -pgnout "$OUT.pgn" -jsonout "$OUT.json" > "$OUT.log" 2>&1
