//! What this binary was built for and what it runs with: the target, the instruction set
//! extensions compiled in, the slider lookup and the network's kernel. `springer --version`
//! prints it, so a tester can tell the release binaries apart.

use crate::nnue::kernels::{self, Kernel};

/// The version, as in Cargo.toml.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The target triple the binary was compiled for.
pub const TARGET: &str = env!("SPRINGER_TARGET");

/// The x86-64 extensions (and aarch64's NEON) the compiler was allowed to use everywhere.
pub fn compiled_features() -> Vec<&'static str> {
    let features = [
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("sse4.2", cfg!(target_feature = "sse4.2")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("avx512bw", cfg!(target_feature = "avx512bw")),
        ("neon", cfg!(target_feature = "neon")),
    ];
    features.into_iter().filter(|&(_, on)| on).map(|(name, _)| name).collect()
}

/// The lines `springer --version` prints after the name and version.
pub fn description() -> String {
    let features = compiled_features();
    let choice = if Kernel::available().len() > 1 || cfg!(feature = "runtime-dispatch") {
        let names: Vec<&str> = Kernel::available().iter().map(|kernel| kernel.name()).collect();
        format!(" (chosen at start-up from {})", names.join(", "))
    } else {
        String::new()
    };
    format!(
        "{VERSION}\ntarget: {TARGET}, compiled with: {}\nsliders: {}\nnetwork kernel: {}{choice}",
        if features.is_empty() { "baseline only".to_string() } else { features.join(" ") },
        crate::attacks::SLIDER_LOOKUP,
        kernels::current().name(),
    )
}

/// The CPU's name as the system gives it (Linux's `/proc/cpuinfo` `model name`, Windows'
/// `PROCESSOR_IDENTIFIER`), or the architecture where it gives none (many aarch64 kernels).
pub fn cpu_name() -> String {
    let from_cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|text| {
        text.lines()
            .find(|line| line.starts_with("model name") || line.starts_with("Model"))
            .and_then(|line| line.split_once(':'))
            .map(|(_, name)| name.split_whitespace().collect::<Vec<_>>().join(" "))
    });
    from_cpuinfo
        .or_else(|| std::env::var("PROCESSOR_IDENTIFIER").ok())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| format!("unknown {} CPU", std::env::consts::ARCH))
}
