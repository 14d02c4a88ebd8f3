#!/usr/bin/env bash
# Instruction counts (valgrind cachegrind, "I refs") of perft on the five standard positions, one
# ply short of perft-ab's depths: a speed measure that a busy machine does not disturb. valgrind
# cannot run AVX-512, so count an x86-64-v3 build:
#   RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --release --target-dir target/v3
#   tools/perft-ir.sh target/v3/release/springer [--full]
set -euo pipefail
bin=$1 mode=${2:-}
depths=() fens=()
while read -r _ depth fen; do
  depths+=($((depth - 1))) fens+=("$fen")
done <"$(dirname "$0")/perft-positions.txt"
for i in "${!fens[@]}"; do
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$bin" perft "${depths[$i]}" --fen "${fens[$i]}" $mode 2>&1 | awk '/I *refs/ {gsub(",", "", $4); printf "%s ", $4}'
done
echo
