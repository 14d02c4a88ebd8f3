//! Writes every fixed table to $OUT_DIR/tables.rs (see src/attacks/tablegen.rs), picking the PEXT
//! slider layout when the target has BMI2 (and the `no-pext` feature is off).

#[path = "src/attacks/tablegen.rs"]
mod tablegen;

fn main() {
    println!("cargo:rerun-if-changed=src/attacks/tablegen.rs");
    println!("cargo::rustc-check-cfg=cfg(springer_pext)");
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let pext = arch == "x86_64"
        && features.split(',').any(|f| f == "bmi2")
        && std::env::var_os("CARGO_FEATURE_NO_PEXT").is_none();
    if pext {
        println!("cargo:rustc-cfg=springer_pext");
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("tables.rs"), tablegen::render_all(pext)).expect("write tables");
}
