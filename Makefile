# OpenBench and other testers build with `make EXE=<path>`; the default target builds the
# engine (release, native CPU) and copies it there.
EXE ?= springer
RUSTFLAGS_NATIVE ?= -C target-cpu=native

.PHONY: all clean

all:
	RUSTFLAGS="$(RUSTFLAGS_NATIVE)" cargo build --release --target-dir target-openbench
	cp target-openbench/release/springer $(EXE)

clean:
	cargo clean --target-dir target-openbench
