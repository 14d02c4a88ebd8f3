//! The instruction set the network's loops (accumulator updates, the SCReLU output) run with.
//! The loops are plain Rust that LLVM vectorises for whatever instruction set it compiles them
//! with: the build's own (AVX-512 or AVX2 with `target-cpu=native`, NEON on aarch64, SSE2 in a
//! portable build), or, in a `runtime-dispatch` build for x86-64, the best the processor offers,
//! detected once at start-up: the same loops compiled a second and third time inside
//! `#[target_feature]` functions. Every choice computes the same integers.

/// An instruction set the network's loops can be compiled for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kernel {
    /// What the build targets (`build_kernel`): no extra features.
    Build,
    /// AVX2 (x86-64-v3), chosen at start-up.
    Avx2,
    /// AVX-512 F+BW (x86-64-v4), chosen at start-up.
    Avx512,
}

impl Kernel {
    /// The name `springer --version` prints.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Build => build_kernel(),
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
        }
    }

    /// Every kernel this processor can run, `Build` first (the tests compare them all).
    pub fn available() -> Vec<Kernel> {
        #[cfg_attr(not(all(target_arch = "x86_64", feature = "runtime-dispatch")), allow(unused_mut))]
        let mut kernels = vec![Kernel::Build];
        #[cfg(all(target_arch = "x86_64", feature = "runtime-dispatch"))]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 = has!("avx2") && has!("popcnt");
            if avx2 {
                kernels.push(Kernel::Avx2);
            }
            if avx2 && has!("avx512f") && has!("avx512bw") {
                kernels.push(Kernel::Avx512);
            }
        }
        kernels
    }
}

/// The widest vector instructions the build itself targets, as `springer --version` names them.
pub const fn build_kernel() -> &'static str {
    if cfg!(all(target_arch = "x86_64", target_feature = "avx512bw")) {
        "avx512"
    } else if cfg!(all(target_arch = "x86_64", target_feature = "avx2")) {
        "avx2"
    } else if cfg!(all(target_arch = "x86_64", target_feature = "sse4.1")) {
        "sse4.1"
    } else if cfg!(target_arch = "x86_64") {
        "sse2"
    } else if cfg!(all(target_arch = "aarch64", target_feature = "neon")) {
        "neon"
    } else {
        "portable"
    }
}

/// The kernel every evaluation uses: in a `runtime-dispatch` build the widest the processor
/// has (detected on first use), else the build's own.
#[inline(always)]
pub fn current() -> Kernel {
    #[cfg(all(target_arch = "x86_64", feature = "runtime-dispatch"))]
    {
        static DETECTED: std::sync::LazyLock<Kernel> =
            std::sync::LazyLock::new(|| Kernel::available().last().copied().unwrap_or(Kernel::Build));
        *DETECTED
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "runtime-dispatch")))]
    Kernel::Build
}

/// Runs `loops` compiled for `kernel`. `loops` must be an `#[inline(always)]` closure whose
/// callees are `#[inline(always)]` too, so that all of it is compiled inside the
/// `#[target_feature]` function below.
///
/// # Safety
/// `kernel` must be one of `Kernel::available()`: the others' instructions may not exist on this
/// processor.
#[inline(always)]
pub(crate) unsafe fn run_with<R>(kernel: Kernel, loops: impl FnOnce() -> R) -> R {
    match kernel {
        Kernel::Build => loops(),
        #[cfg(all(target_arch = "x86_64", feature = "runtime-dispatch"))]
        Kernel::Avx2 => {
            debug_assert!(Kernel::available().contains(&kernel));
            // SAFETY: the caller passes a kernel of `Kernel::available()` (this function's
            // contract), which offers AVX2 only when `is_x86_feature_detected!` found AVX2 and
            // POPCNT on this processor, the two features `with_avx2` is compiled with.
            unsafe { with_avx2(loops) }
        }
        #[cfg(all(target_arch = "x86_64", feature = "runtime-dispatch"))]
        Kernel::Avx512 => {
            debug_assert!(Kernel::available().contains(&kernel));
            // SAFETY: as for AVX2: `Kernel::available()` offers AVX-512 only when AVX-512F,
            // AVX-512BW, AVX2 and POPCNT were all detected on this processor.
            unsafe { with_avx512(loops) }
        }
        #[cfg(not(all(target_arch = "x86_64", feature = "runtime-dispatch")))]
        Kernel::Avx2 | Kernel::Avx512 => loops(),
    }
}

/// Runs `loops` with the current kernel (`current`); see `run_with` for what `loops` must be.
#[inline(always)]
pub fn run<R>(loops: impl FnOnce() -> R) -> R {
    // SAFETY: `current()` is `Kernel::Build` or the last of `Kernel::available()`.
    unsafe { run_with(current(), loops) }
}

#[cfg(all(target_arch = "x86_64", feature = "runtime-dispatch"))]
#[target_feature(enable = "avx2,popcnt")]
#[inline]
unsafe fn with_avx2<R>(loops: impl FnOnce() -> R) -> R {
    loops()
}

#[cfg(all(target_arch = "x86_64", feature = "runtime-dispatch"))]
#[target_feature(enable = "avx512f,avx512bw,avx2,popcnt")]
#[inline]
unsafe fn with_avx512<R>(loops: impl FnOnce() -> R) -> R {
    loops()
}
