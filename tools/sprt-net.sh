#!/bin/sh
# SPRT of a candidate net (loaded by EvalFile) against the binary's embedded net, with the
# settings of docs/testing.md. Both sides are the same binary.
#   tools/sprt-net.sh NET SEED [TC] [LOGDIR]
# Environment: BIN (default /work/springer-main), CONC (default 1: datagen has the other core),
# ELO0/ELO1 (default 0/10). Writes LOGDIR/sprt-NAME-TC-SEED.{log,pgn,json}; continue an SPRT
# that outlives a session with a new SEED and sum the runs with tools/sprt_sum.py.
set -eu
NET=$(realpath "$1"); SEED=$2; TC=${3:-8+0.08}; LOGDIR=${4:-/work/matches}
BIN=${BIN:-/work/springer-main}; CONC=${CONC:-1}; ELO0=${ELO0:-0}; ELO1=${ELO1:-10}
ROOT=$(cd "$(dirname "$0")/.." && pwd); SHARED=$ROOT/../shared
# Absolute paths: the match runs from the shared tools' directory.
mkdir -p "$LOGDIR"; LOGDIR=$(realpath "$LOGDIR"); BIN=$(realpath "$BIN")
NAME=$(basename "$NET" .nnue); OUT=$LOGDIR/sprt-$NAME-$TC-$SEED
cd "$SHARED/tools"
exec python3 match.py \
  -engine name="$NAME" cmd="$BIN" option.EvalFile="$NET" \
  -engine name=base cmd="$BIN" \
  -each tc="$TC" option.Hash=16 option.Threads=1 -concurrency "$CONC" \
  -openings file=../openings/balanced.epd order=random -srand "$SEED" \
  -resign movecount=3 score=600 -draw movenumber=40 movecount=8 score=10 -maxmoves 200 \
  -sprt elo0="$ELO0" elo1="$ELO1" alpha=0.05 beta=0.05 -games 20000 \
  -pgnout "$OUT.pgn" -jsonout "$OUT.json" > "$OUT.log" 2>&1
