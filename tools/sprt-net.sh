#!/bin/sh
# SPRT of a candidate net (loaded by EvalFile) against the binary's embedded net, with the
# settings of docs/testing.md. Both sides are the same binary.
#   tools/sprt-net.sh NET SEED [TC] [LOGDIR]
# Environment: BIN (default /work/springer-main), CONC (default 1: datagen has the other core),
# ELO0/ELO1 (default 0/10). Writes LOGDIR/sprt-NAME-TC-SEED.{log,pgn,json}; continue an SPRT
# that outlives a session with a new SEED and sum the runs with tools/sprt_sum.py.
set -eu
BIN=${BIN:-/work/springer-main}
NAME=$(basename "$1" .nnue) EVALFILE=$1 exec "$(dirname "$0")/sprt-ab.sh" "$BIN" "$BIN" "$2" "tc=${3:-8+0.08}" ${4:+"$4"}
