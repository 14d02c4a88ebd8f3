#!/usr/bin/env bash
# Thread scaling on a lent many-core machine (the `device` tool): speedtest nps at 1, 2, 4, ...
# threads up to every core, then time to depth of the most threads against one. Prepared so a
# short lease goes on measuring, not on writing commands; docs/parallel-search.md has the first
# results (2026-12-04: nps flat past four threads).
#   tools/device-threads.sh BIN [SECONDS] [TTD_DEPTH]
# BIN: a binary built here that runs there (`make x86-64-v3`, carried with `carry: ["dist"]`).
# SECONDS (default 30) is each speedtest's length; TTD_DEPTH (default 0: skipped) the depth of
# `tools/ttd.py` (one pass over the 50 bench positions; its time at a depth is not measured yet:
# try it here first). Writes every line to $OUT/threads.log when $OUT is set (the device's return folder).
set -euo pipefail
bin=$(realpath "$1") seconds=${2:-30} ttd_depth=${3:-0}
log=${OUT:-.}/threads.log
cores=$(nproc)
{
  echo "# $(date -u) $(lscpu | sed -n 's/^Model name: *//p'), $cores CPUs"
  "$bin" bench 2>&1 | tail -2
  threads=1
  while [ "$threads" -le "$cores" ]; do
    "$bin" speedtest --threads "$threads" --seconds "$seconds" --json 2>/dev/null
    echo
    if [ "$threads" -lt "$cores" ] && [ $((threads * 2)) -gt "$cores" ]; then
      threads=$cores
    else
      threads=$((threads * 2))
    fi
  done
  if [ "$ttd_depth" -gt 0 ]; then
    python3 "$(dirname "$0")/ttd.py" "$bin" --depth "$ttd_depth" --threads "$cores" --passes 1
  fi
  echo "# $(date -u) done"
} 2>&1 | tee "$log"
