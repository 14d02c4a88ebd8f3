# Builds of Springer. `cargo build --release` already builds for the CPU at hand (see
# .cargo/config.toml); these targets build release binaries for other machines and systems, the
# way rating lists take them, and the one OpenBench builds (`make EXE=<path> [EVALFILE=<net>]`).
#
#   make [EXE=path]          native build (this CPU), copied to $(EXE) (`.exe` added on Windows)
#   make TARGET=triple       the same for another target (x86-64-v2, or generic off x86-64; no native flags)
#   make EVALFILE=net ...    any build above or below with another net embedded (OpenBench's net tests)
#   make linux               dist/springer-V-linux-{x86-64,x86-64-v2,x86-64-v3,x86-64-v4}
#                            (v3 and v4 profile-guided; PGO=0 builds them plain: see below)
#   make windows             dist/springer-V-windows-{...}.exe   (x86_64-pc-windows-gnu, needs gcc-mingw-w64-x86-64)
#   make aarch64             dist/springer-V-linux-aarch64        (needs gcc-aarch64-linux-gnu)
#   make dist                the nine binaries above and dist/SHA256SUMS  (docs/release.md)
#   make auto                dist/auto/springer-V-{linux,windows}-x86-64-auto[.exe]: kernels chosen at
#                            start-up; not in the release (about 5 % slower than native, docs/release.md)
#   make x86-64-v3 ...       one Linux level; `make ... FEATURES=no-pext` for AMD Zen 1/2
#   make pgo [EXE=path]      native build, profile-guided (see below)
#
# The native flag of .cargo/config.toml never reaches these builds: each sets RUSTFLAGS, which
# replaces it, and build.rs refuses `target-cpu=native` in a cross build. Linux binaries link the C
# library statically and Windows ones need no DLL beside them, so each is one file that runs alone.
EXE ?= springer
FEATURES ?=
EVALFILE ?=
TARGET ?=
VERSION := $(shell sed -n 's/^version *= *"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
NAME = springer-$(VERSION)
DIST = dist
LEVELS = x86-64 x86-64-v2 x86-64-v3 x86-64-v4
# The baseline of the run-time dispatch binaries (docs/release.md: why v2).
AUTO_LEVEL = x86-64-v2
LINUX = x86_64-unknown-linux-gnu
WINDOWS = x86_64-pc-windows-gnu
ARM = aarch64-unknown-linux-gnu

CARGO_FEATURES = $(if $(FEATURES),--features $(FEATURES),)
# build.rs embeds this net instead of nets/default.nnue (and stops the build if it is not a net).
export SPRINGER_EVALFILE := $(if $(EVALFILE),$(abspath $(EVALFILE)),)
# Debian's cross linkers, named only for a build whose target is not this machine's (a native
# aarch64 or windows-gnu build links with the system's own).
HOST_TRIPLE := $(shell rustc -vV | sed -n 's/^host: //p')
ARM_LINKER ?= aarch64-linux-gnu-gcc
WINDOWS_LINKER ?= x86_64-w64-mingw32-gcc
cross_linker = $(if $(filter $(HOST_TRIPLE),$(1)),,$(if $(filter $(ARM),$(1)),CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=$(ARM_LINKER),)$(if $(filter $(WINDOWS),$(1)),CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=$(WINDOWS_LINKER),))

ifeq ($(OS),Windows_NT)
  HOST_SUFFIX = .exe
endif
# The suffix of what the plain `make` builds: .exe on Windows and for a Windows TARGET.
SUFFIX = $(if $(TARGET),$(if $(findstring windows,$(TARGET)),.exe,),$(HOST_SUFFIX))
EXE_FILE = $(patsubst %.exe,%,$(EXE))$(SUFFIX)

LINUX_BINS = $(LEVELS:%=$(DIST)/$(NAME)-linux-%)
WINDOWS_BINS = $(LEVELS:%=$(DIST)/$(NAME)-windows-%.exe)
ARM_BIN = $(DIST)/$(NAME)-linux-aarch64
AUTO_BINS = $(DIST)/auto/$(NAME)-linux-x86-64-auto $(DIST)/auto/$(NAME)-windows-x86-64-auto.exe

.PHONY: all FORCE linux windows aarch64 auto dist checksums portable $(LEVELS) release-all pgo clean

# (1) triple, (2) target-cpu, (3) extra cargo flags, (4) output file, (5) extra rustflags.
# Each output has its own target directory, so the builds never invalidate each other.
define build
	$(call cross_linker,$(1)) RUSTFLAGS="-C target-cpu=$(2) $(5)" cargo build --release --target $(1) $(3) --target-dir target-dist/$(notdir $(4))
	mkdir -p $(dir $(4))
	cp target-dist/$(notdir $(4))/$(1)/release/springer$(if $(findstring windows,$(1)),.exe,) $(4)
endef
STATIC = -C target-feature=+crt-static

all:
ifeq ($(TARGET),)
	cargo build --release $(CARGO_FEATURES) --target-dir target-openbench
	cp target-openbench/release/springer$(HOST_SUFFIX) $(EXE_FILE)
else
	$(call build,$(TARGET),$(if $(findstring x86_64,$(TARGET)),x86-64-v2,generic),$(CARGO_FEATURES),$(EXE_FILE),)
endif

# The v3 and v4 Linux binaries are profile-guided unless PGO=0: an instrumented x86-64-v3 build
# runs `bench` and a perft on this machine (so it needs AVX2 and BMI2), and both levels are built
# with what it recorded (v4 cannot be profiled on a machine without AVX-512; code compiled
# differently for it, such as the network kernels, gets none of v3's profile). Same moves and node
# counts, 12-17 % more nodes a second here (docs/release.md). The older levels serve older
# machines; Windows binaries cannot be profile-guided: Rust ships no profiler runtime for
# windows-gnu.
PGO ?= 1
PGO_LEVELS = x86-64-v3 x86-64-v4
RELEASE_PROFILE = $(abspath target-dist/pgo/merged.profdata)
uses_profile = $(and $(filter 1,$(PGO)),$(filter $(1),$(PGO_LEVELS)))

$(RELEASE_PROFILE): FORCE
	$(call profile,x86-64-v3,--target $(LINUX),$(STATIC),$(abspath target-dist/pgo),$(LINUX)/release/springer)

.SECONDEXPANSION:
$(LINUX_BINS): $(DIST)/$(NAME)-linux-%: FORCE $$(if $$(call uses_profile,$$*),$$(RELEASE_PROFILE))
	$(call build,$(LINUX),$*,$(CARGO_FEATURES),$@,$(STATIC)$(if $(call uses_profile,$*), -C profile-use=$(RELEASE_PROFILE)))

$(WINDOWS_BINS): $(DIST)/$(NAME)-windows-%.exe: FORCE
	$(call build,$(WINDOWS),$*,$(CARGO_FEATURES),$@,$(STATIC))

$(ARM_BIN): FORCE
	$(call build,$(ARM),generic,$(CARGO_FEATURES),$@,$(STATIC))

$(DIST)/auto/$(NAME)-linux-x86-64-auto: FORCE
	$(call build,$(LINUX),$(AUTO_LEVEL),--features runtime-dispatch,$@,$(STATIC))

$(DIST)/auto/$(NAME)-windows-x86-64-auto.exe: FORCE
	$(call build,$(WINDOWS),$(AUTO_LEVEL),--features runtime-dispatch,$@,$(STATIC))

linux: $(LINUX_BINS)
windows: $(WINDOWS_BINS)
aarch64: $(ARM_BIN)
auto: $(AUTO_BINS)
$(LEVELS): %: $(DIST)/$(NAME)-linux-%
portable: x86-64
release-all: linux

# The release: nine binaries (run `make -j2 dist` to build two at a time), then their checksums.
dist:
	$(MAKE) linux windows aarch64
	$(MAKE) checksums

checksums:
	cd $(DIST) && rm -f SHA256SUMS && sha256sum $(NAME)-* > SHA256SUMS && sha256sum -c SHA256SUMS

FORCE:

# Profile-guided build for this CPU: an instrumented build runs `bench` (the search) and a perft,
# llvm-profdata merges what they recorded, and the final build is optimised with it (same moves
# and node counts; bench 12.8 % more nodes a second on an idle Zen 5, docs/measurements.md).
# Needs rustup's llvm-tools component, whose llvm-profdata matches rustc's LLVM:
# `rustup component add llvm-tools`.
PGO_DIR = $(abspath target-pgo)
LLVM_PROFDATA ?= $(shell rustc --print sysroot)/lib/rustlib/$(shell rustc -vV | sed -n 's/^host: //p')/bin/llvm-profdata

# The profile, shared with the release binaries: (1) target-cpu, (2) cargo's target arguments,
# (3) more rustflags, (4) the directory (DIR/merged.profdata is the result), (5) the instrumented
# binary's path under DIR/generate.
define profile
	@test -x "$(LLVM_PROFDATA)" || { echo "make: llvm-profdata not found; run: rustup component add llvm-tools (for the release binaries, PGO=0 builds without a profile)" >&2; exit 2; }
	rm -rf $(4)/raw
	RUSTFLAGS="-C target-cpu=$(1) $(3) -C profile-generate=$(4)/raw" cargo build --release $(2) $(CARGO_FEATURES) --target-dir $(4)/generate
	{ $(4)/generate/$(5) bench > /dev/null 2>&1 && $(4)/generate/$(5) perft 5 > /dev/null; } || { echo "make: the instrumented build's profile run failed ($(1) must run on this machine; for the release binaries, PGO=0 builds without a profile)" >&2; exit 2; }
	"$(LLVM_PROFDATA)" merge -o $(4)/merged.profdata $(4)/raw
endef

pgo:
	$(call profile,native,,,$(PGO_DIR),release/springer$(HOST_SUFFIX))
	RUSTFLAGS="-C target-cpu=native -C profile-use=$(PGO_DIR)/merged.profdata" cargo build --release $(CARGO_FEATURES) --target-dir $(PGO_DIR)/use
	cp $(PGO_DIR)/use/release/springer$(HOST_SUFFIX) $(EXE_FILE)

clean:
	cargo clean --target-dir target-openbench
	rm -rf $(PGO_DIR) target-dist target-dispatch-test $(DIST)
