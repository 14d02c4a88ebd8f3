#!/usr/bin/env bash
# Instruction counts (valgrind cachegrind, "I refs") of perft on the five standard positions, one
# ply short of perft-ab's depths: a speed measure that a busy machine does not disturb. valgrind
# cannot run AVX-512, so count an x86-64-v3 build:
#   RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --release --target-dir target/v3
#   tools/perft-ir.sh target/v3/release/springer [--full]
set -euo pipefail
bin=$1 mode=${2:-}
depths=(5 4 6 4 4)
fens=(
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
  "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
)
for i in "${!fens[@]}"; do
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$bin" perft "${depths[$i]}" --fen "${fens[$i]}" $mode 2>&1 | awk '/I *refs/ {gsub(",", "", $4); printf "%s ", $4}'
done
echo
