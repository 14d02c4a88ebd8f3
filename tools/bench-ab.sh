#!/usr/bin/env bash
# Search speed A/B: `springer bench` of two binaries in turn, RUNS rounds. Prints each run's
# nodes/s (wall clock) and CPU seconds (user time: what the process itself ran, so it still
# compares the two when other work shares the cores), then the median of each. The node counts
# must be equal (same search) for the CPU seconds to compare speed.
# Usage: tools/bench-ab.sh OLD_BINARY NEW_BINARY [RUNS]
set -euo pipefail
old=$1 new=$2 runs=${3:-9}
timing=$(mktemp)
trap 'rm -f "$timing"' EXIT
run() {
  local out
  out=$(/usr/bin/time -f "%U" -o "$timing" "$1" bench 2>&1)
  echo "$(awk '/^Nodes searched/ {n = $3} /^Nodes\/second/ {s = $2} END {print n, s}' <<<"$out") $(cat "$timing")"
}
# The median of the numbers on standard input, printed with the printf format $1.
median() { sort -n | awk -v format="$1" '{v[NR] = $1} END {printf format "\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
a=() b=()
for i in $(seq 1 "$runs"); do
  a+=("$(run "$old")")
  b+=("$(run "$new")")
  echo "round $i: A nodes/nps/cpu ${a[-1]} | B ${b[-1]}"
done
for side in A B; do
  if [ $side = A ]; then rows=("${a[@]}"); else rows=("${b[@]}"); fi
  nodes=$(printf '%s\n' "${rows[@]}" | awk '{print $1}' | sort -u | tr '\n' ' ')
  nps=$(printf '%s\n' "${rows[@]}" | awk '{print $2}' | median %.0f)
  cpu=$(printf '%s\n' "${rows[@]}" | awk '{print $3}' | median %.3f)
  echo "$side: nodes $nodes median nodes/s $nps, median CPU seconds $cpu"
done
