#!/usr/bin/env bash
# Perft speed A/B: two Springer binaries and cozy-chess 0.3.4 (../shared/anchors/perft-peers,
# native build) run in turn on the five standard positions, REPS rounds, so that machine drift
# hits all three alike. Prints each round's Mnps per position; with CPU=1, each run's CPU
# seconds (user time) instead, which still compares the three when other work shares the cores
# (lower is faster).
# Usage: [CPU=1] tools/perft-ab.sh OLD_BINARY NEW_BINARY [REPS] [--full]
# PEERS: the perft-peers binary (default: a native build copied to /tmp/peers, as in
# docs/measurements.md). A running `springer datagen` is paused for the run.
set -euo pipefail
old=$1 new=$2 reps=${3:-3} mode=${4:-}
peers=${PEERS:-/tmp/peers/target-native/release/perft-peers}
# The five standard positions with their depths: name, depth, FEN per line.
names=() depths=() fens=()
while read -r name depth fen; do
  names+=("$name") depths+=("$depth") fens+=("$fen")
done <"$(dirname "$0")/perft-positions.txt"
# Only runs not already stopped (-r: running, sleeping, disk wait), so one paused by hand stays so.
datagen=$(pgrep -r R,S,D -f "springer.* datagen" || true)
[ -n "$datagen" ] && kill -STOP $datagen
timing=$(mktemp)
trap 'rm -f "$timing"; [ -n "$datagen" ] && kill -CONT $datagen' EXIT
# Runs a command; prints its CPU seconds with CPU=1, else what the awk program $1 reads off it.
measure() {
  local program=$1
  shift
  local out
  out=$(/usr/bin/time -f "%U" -o "$timing" "$@")
  if [ "${CPU:-0}" = 1 ]; then cat "$timing"; else awk "$program" <<<"$out"; fi
}
springer_mnps() { measure '/^Speed/ {print $2}' "$1" perft "$2" --fen "$3" $mode; }
cozy_mnps() { measure '{for (i = 2; i <= NF; i++) if ($i == "Mnps") print $(i - 1)}' "$peers" cozy "$1" $mode; }
for i in "${!names[@]}"; do
  a=() b=() c=()
  for _ in $(seq 1 "$reps"); do
    a+=("$(springer_mnps "$old" "${depths[$i]}" "${fens[$i]}")")
    b+=("$(springer_mnps "$new" "${depths[$i]}" "${fens[$i]}")")
    c+=("$(cozy_mnps "${names[$i]}")")
  done
  echo "${names[$i]} A ${a[*]} | B ${b[*]} | cozy ${c[*]}"
done
