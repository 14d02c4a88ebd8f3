#!/usr/bin/env bash
# Checks the release binaries in dist/ where they run (docs/release.md): each one's `bench 8`
# signature must equal the reference build's, and the perft suites (depth <= 4) must pass under
# the Linux and Windows (under wine) x86-64 v1 builds and the aarch64 build (under qemu).
# A binary whose instruction set this CPU lacks, or whose runner (wine, qemu-aarch64) is not
# installed, is named as skipped. Exit code 1 on any mismatch or failure.
#
#   tools/release-check.sh REFERENCE [DIST_DIR]      e.g. tools/release-check.sh target/release/springer
set -euo pipefail
reference=${1:?usage: tools/release-check.sh REFERENCE_BINARY [DIST_DIR]}
dist=${2:-dist}
version=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
name=springer-$version
shim_dir=$(mktemp -d)
trap 'rm -rf "$shim_dir"' EXIT

signature() { "$@" bench 8 2>&1 | awk '/^Nodes searched/ {print $3}'; }
want=$(signature "$reference")
[ -n "$want" ] || { echo "the reference $reference printed no bench signature" >&2; exit 1; }
echo "reference $reference: bench 8 signature $want"
failures=0

# What runs a binary on this machine ("" = directly), or nothing when it cannot run here.
cpu_flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
has() { for flag in "$@"; do [[ " $cpu_flags " == *" $flag "* ]] || return 1; done; }
level_runs() {
  case $1 in
    *-v2* | *-auto*) has popcnt sse4_2 ;;
    *-v3*) has popcnt sse4_2 avx2 bmi2 fma ;;
    *-v4*) has popcnt sse4_2 avx2 bmi2 fma avx512f avx512bw avx512vl avx512dq ;;
    *) return 0 ;;
  esac
}

wine_ready=no
if command -v wine >/dev/null && command -v x86_64-w64-mingw32-gcc >/dev/null; then
  # Debian's wine 8 lacks bcryptprimitives.dll: a test-only stand-in goes beside copies of the
  # .exe files (tools/wine-shim), never into dist/.
  if x86_64-w64-mingw32-gcc -shared -O2 -o "$shim_dir/bcryptprimitives.dll" tools/wine-shim/bcryptprimitives.c -ladvapi32; then
    cp "$dist"/*.exe "$dist"/auto/*.exe "$shim_dir"/ 2>/dev/null || true
    wine_ready=yes
  fi
fi
runner() { # prints the command prefix for $1, or fails
  local file=$1
  case $file in
    *.exe) [ $wine_ready = yes ] && level_runs "$file" && echo "env WINEDEBUG=-all wine $shim_dir/$(basename "$file")" ;;
    *aarch64*) command -v qemu-aarch64 >/dev/null && echo "qemu-aarch64 $file" ;;
    *) level_runs "$file" && echo "$file" ;;
  esac
}

suites() { # perft suites to depth 4 under the given command; fails if any case fails
  local status=0 out
  for suite in perft-suites/*.epd; do
    flag=()
    [[ $(basename "$suite") == chess960.epd ]] && flag=(--chess960)
    out=$("$@" perft-suite "$suite" --max-depth 4 --threads 2 "${flag[@]}" 2>&1) || status=1
    echo "        $(basename "$suite"): $(tail -n 1 <<<"$out")"
  done
  return $status
}

suite_targets=("$dist/$name-linux-x86-64" "$dist/$name-windows-x86-64.exe" "$dist/$name-linux-aarch64")
# dist/auto/ holds the run-time dispatch binaries when `make auto` built them (not released).
for file in "$dist"/$name-* "$dist"/auto/$name-*; do
  [ -e "$file" ] || continue
  [[ $file == *SHA256SUMS ]] && continue
  if ! cmd=$(runner "$file"); then
    echo "skipped $(basename "$file"): this machine cannot run it (instruction set, wine or qemu missing)"
    continue
  fi
  # shellcheck disable=SC2086
  got=$(signature $cmd) || got="(the binary failed)"
  if [ "$got" = "$want" ]; then
    echo "ok      $(basename "$file"): bench 8 signature $got"
  else
    echo "FAILED  $(basename "$file"): bench 8 signature '$got', want $want"
    failures=$((failures + 1))
  fi
  for target in "${suite_targets[@]}"; do
    if [ "$file" = "$target" ]; then
      # shellcheck disable=SC2086
      if ! suites $cmd; then
        echo "FAILED  $(basename "$file"): perft suites"
        failures=$((failures + 1))
      fi
    fi
  done
done
(cd "$dist" && sha256sum -c --quiet SHA256SUMS) || { echo "FAILED  SHA256SUMS"; failures=$((failures + 1)); }
[ $failures -eq 0 ] && echo "release check: every binary that runs here agrees with the reference" || exit 1
