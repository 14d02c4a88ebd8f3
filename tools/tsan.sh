#!/usr/bin/env bash
# Thread sanitizer run over the shared state of the parallel search (transposition table, split
# points, stop flag, node counters). Needs a nightly toolchain with rust-src:
#   rustup toolchain install nightly && rustup component add rust-src --toolchain nightly
# The standard library is rebuilt with the sanitizer (-Zbuild-std), so its atomics and locks are
# seen too. Exits non-zero if any step fails or ThreadSanitizer reports anything.
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-unknown-linux-gnu
dir=${TSAN_TARGET_DIR:-target/tsan}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export RUSTFLAGS="-Zsanitizer=thread"
# halt_on_error=0: report every race, not just the first. allocator_may_return_null=1: one unit test
# asks for an impossible table size and expects a clean refusal, not the sanitizer's abort.
export TSAN_OPTIONS="halt_on_error=0 allocator_may_return_null=1"

echo "== search unit tests (2 and 3 threads) under TSan"
cargo +nightly test -Zbuild-std --target "$target" --target-dir "$dir" --lib search 2>&1 | tee -a "$log"

echo "== bench 10 on 2, 3 and 8 threads under TSan"
cargo +nightly build --release -Zbuild-std=std,panic_abort --target "$target" --target-dir "$dir"
engine="$dir/$target/release/springer"
for threads in 2 3 8; do
  "$engine" bench 10 "$threads" 2>&1 | tee -a "$log" | tail -3
done

echo "== UCI: Threads=4, go infinite / stop, Hash resized and ucinewgame between searches"
{
  echo uci
  echo "setoption name Threads value 4"
  for i in 1 2 3 4 5 6; do
    echo "position startpos moves e2e4 e7e5"
    echo "go infinite"
    sleep 1
    echo stop
    echo "setoption name Hash value $((i * 8))"
    echo "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    echo "go movetime 700"
    sleep 0.3
    echo ucinewgame
    sleep 1
    echo isready
  done
  echo quit
} | "$engine" 2>&1 | tee -a "$log" | grep -c bestmove

reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
echo "ThreadSanitizer reports: $reports"
[ "$reports" -eq 0 ]
