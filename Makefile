# Release binaries. `cargo build --release` already builds for the CPU at hand (see
# .cargo/config.toml); these targets build for other machines, the way rating lists run several
# builds. OpenBench and other testers build with `make EXE=<path>`.
#
#   make                 native build (this CPU), copied to $(EXE)
#   make portable        any x86-64 (no popcount, no BMI2): x86-64-v1
#   make x86-64-v2       + SSE4.2, POPCNT            (Nehalem and later)
#   make x86-64-v3       + AVX2, BMI2 (PEXT), FMA    (Haswell, Zen; `make ... FEATURES=no-pext` for Zen 1/2)
#   make x86-64-v4       + AVX-512                   (Skylake-X, Zen 4)
#   make release-all     all four portable levels into dist/
#   make pgo             native build, profile-guided (see below), copied to $(EXE)
EXE ?= springer
FEATURES ?=
CARGO_FEATURES = $(if $(FEATURES),--features $(FEATURES),)
LEVELS = x86-64 x86-64-v2 x86-64-v3 x86-64-v4

.PHONY: all portable $(LEVELS) release-all pgo clean

all:
	cargo build --release $(CARGO_FEATURES) --target-dir target-openbench
	cp target-openbench/release/springer $(EXE)

portable: x86-64

# RUSTFLAGS replaces the native flag of .cargo/config.toml; each level has its own target dir so
# that the builds do not invalidate each other.
$(LEVELS):
	RUSTFLAGS="-C target-cpu=$@" cargo build --release $(CARGO_FEATURES) --target-dir target-$@
	mkdir -p dist
	cp target-$@/release/springer dist/springer-$@

release-all: $(LEVELS)

# Profile-guided build for this CPU: an instrumented build runs `bench` (the search) and a perft,
# llvm-profdata merges what they recorded, and the final build is optimised with it (same moves
# and node counts; bench 12.8 % more nodes a second on an idle Zen 5, docs/measurements.md).
# Needs rustup's llvm-tools component, whose llvm-profdata matches rustc's LLVM:
# `rustup component add llvm-tools`.
PGO_DIR = $(abspath target-pgo)
LLVM_PROFDATA ?= $(shell rustc --print sysroot)/lib/rustlib/$(shell rustc -vV | sed -n 's/^host: //p')/bin/llvm-profdata

pgo:
	@test -x "$(LLVM_PROFDATA)" || { echo "make pgo: llvm-profdata not found; run: rustup component add llvm-tools" >&2; exit 2; }
	rm -rf $(PGO_DIR)/profiles
	RUSTFLAGS="-C target-cpu=native -C profile-generate=$(PGO_DIR)/profiles" cargo build --release $(CARGO_FEATURES) --target-dir $(PGO_DIR)/generate
	$(PGO_DIR)/generate/release/springer bench > /dev/null 2>&1
	$(PGO_DIR)/generate/release/springer perft 5 > /dev/null
	"$(LLVM_PROFDATA)" merge -o $(PGO_DIR)/merged.profdata $(PGO_DIR)/profiles
	RUSTFLAGS="-C target-cpu=native -C profile-use=$(PGO_DIR)/merged.profdata" cargo build --release $(CARGO_FEATURES) --target-dir $(PGO_DIR)/use
	cp $(PGO_DIR)/use/release/springer $(EXE)

clean:
	cargo clean --target-dir target-openbench
	rm -rf $(PGO_DIR)
	for level in $(LEVELS); do cargo clean --target-dir target-$$level; done
	rm -rf dist
