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
EXE ?= springer
FEATURES ?=
CARGO_FEATURES = $(if $(FEATURES),--features $(FEATURES),)
LEVELS = x86-64 x86-64-v2 x86-64-v3 x86-64-v4

.PHONY: all portable $(LEVELS) release-all clean

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

clean:
	cargo clean --target-dir target-openbench
	for level in $(LEVELS); do cargo clean --target-dir target-$$level; done
	rm -rf dist
