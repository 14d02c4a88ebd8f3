//! Writes every fixed table to $OUT_DIR/tables.rs (see src/attacks/tablegen.rs), picking the PEXT
//! slider layout when the target has BMI2, unless the `no-pext` feature is on or the build is for
//! an AMD Zen 1/2 processor (where PEXT is microcoded and magics are faster). Also names the net
//! to embed (`SPRINGER_EVALFILE`, which `make EVALFILE=...` sets) and stops a cross build that
//! would inherit `target-cpu=native`.

#[path = "src/attacks/tablegen.rs"]
mod tablegen;

fn main() {
    println!("cargo:rerun-if-changed=src/attacks/tablegen.rs");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    println!("cargo::rustc-check-cfg=cfg(springer_pext)");
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let pext = arch == "x86_64"
        && features.split(',').any(|f| f == "bmi2")
        && std::env::var_os("CARGO_FEATURE_NO_PEXT").is_none()
        && !slow_pext_target();
    if pext {
        println!("cargo:rustc-cfg=springer_pext");
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("tables.rs"), tablegen::render_all(pext)).expect("write tables");
    refuse_native_cross_build();
    embed_net();
    println!("cargo:rustc-env=SPRINGER_TARGET={}", std::env::var("TARGET").unwrap_or_default());
}

/// `target-cpu=native` (.cargo/config.toml's default) describes this machine, so a binary for
/// another target built with it would be wrong or would not build: stop with what to do instead.
fn refuse_native_cross_build() {
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let native = flags.split('\x1f').any(|flag| flag.ends_with("target-cpu=native"));
    let (host, target) = (std::env::var("HOST").unwrap_or_default(), std::env::var("TARGET").unwrap_or_default());
    if native && host != target {
        eprintln!(
            "error: building for {target} with target-cpu=native (from .cargo/config.toml) would describe this \
             {host} machine instead: set RUSTFLAGS (for example RUSTFLAGS=\"-C target-cpu=x86-64-v2\") or use \
             the Makefile's targets (`make windows`, `make aarch64`, `make dist`)"
        );
        std::process::exit(1);
    }
}

/// The first bytes of every net format `nnue::file` reads.
const NET_MAGICS: [&[u8; 8]; 3] = [b"SPRNNUE1", b"SPRNNUE2", b"SPRNNUE3"];

/// Tells the crate which net file to embed (`SPRINGER_NET_FILE`): `SPRINGER_EVALFILE` when set
/// (OpenBench's network tests), else nets/default.nnue. A missing file or one that is not a
/// Springer net stops the build with a message naming it; src/nnue/mod.rs checks its size.
fn embed_net() {
    println!("cargo:rerun-if-env-changed=SPRINGER_EVALFILE");
    let manifest = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let path = match std::env::var_os("SPRINGER_EVALFILE").filter(|path| !path.is_empty()) {
        Some(path) => manifest.join(path),
        None => manifest.join("nets").join("default.nnue"),
    };
    println!("cargo:rerun-if-changed={}", path.display());
    let mut magic = [0u8; 8];
    let read = std::fs::File::open(&path).and_then(|mut file| std::io::Read::read_exact(&mut file, &mut magic));
    if let Err(e) = read {
        eprintln!("error: EVALFILE {}: {e}", path.display());
        std::process::exit(1);
    }
    if !NET_MAGICS.contains(&&magic) {
        eprintln!(
            "error: EVALFILE {} is not a Springer net: it does not start with SPRNNUE1, SPRNNUE2 or SPRNNUE3 \
             (`springer train` writes them; docs/nnue.md)",
            path.display()
        );
        std::process::exit(1);
    }
    println!("cargo:rustc-env=SPRINGER_NET_FILE={}", path.display());
}

/// Whether the build targets a processor with slow (microcoded) PEXT: `-C target-cpu=znver1` or
/// `znver2`, or `native` on such a host (the default build, see .cargo/config.toml).
fn slow_pext_target() -> bool {
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let cpu = flags.split('\x1f').filter_map(|flag| flag.split("target-cpu=").nth(1)).next_back();
    match cpu {
        Some("znver1" | "znver2") => true,
        Some("native") => host_has_slow_pext(),
        _ => false,
    }
}

/// AMD Zen 1 and Zen 2 (family 0x17) and Hygon Dhyana (family 0x18, a Zen 1): PEXT and PDEP
/// take a microcoded loop there, about 20 times slower than on Intel or Zen 3.
#[cfg(target_arch = "x86_64")]
fn host_has_slow_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    // SAFETY: the build script runs on the host, an x86-64 processor, and every x86-64 processor
    // has the CPUID instruction with leaves 0 and 1. (`__cpuid` is a safe function in newer Rust;
    // the block keeps rust-version 1.87 building.)
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1)) };
    let mut name = [0u8; 12];
    name[..4].copy_from_slice(&vendor.ebx.to_le_bytes());
    name[4..8].copy_from_slice(&vendor.edx.to_le_bytes());
    name[8..].copy_from_slice(&vendor.ecx.to_le_bytes());
    let base_family = (signature.eax >> 8) & 0xf;
    let family = if base_family == 0xf { base_family + ((signature.eax >> 20) & 0xff) } else { base_family };
    matches!((&name, family), (b"AuthenticAMD", 0x17) | (b"HygonGenuine", 0x18))
}

#[cfg(not(target_arch = "x86_64"))]
fn host_has_slow_pext() -> bool {
    false
}
