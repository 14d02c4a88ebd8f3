//! Springer: a bitboard chess engine. Modules are listed in dependency order: each uses only
//! those above it. Crate-wide lints (`unsafe_op_in_unsafe_fn`,
//! `clippy::undocumented_unsafe_blocks`) are set in Cargo.toml's `[lints]`, so they cover the binary,
//! tests and benches too.

pub mod output;
pub mod memory;
pub mod types;
pub mod attacks;
pub mod position;
pub mod movegen;
pub mod threads;
pub mod perft;
pub mod eval;
pub mod nnue;
pub mod tb;
pub mod search;
pub mod bench;
pub mod datagen;
pub mod train;
pub mod uci;
pub mod speedtest;
pub mod tune;
pub mod book;
pub mod games;
pub mod platform;

/// Helpers shared by the unit tests.
#[cfg(test)]
pub(crate) mod testing {
    /// A xorshift64 generator from `seed` (not zero): the tests' cheap, reproducible randomness.
    pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed;
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }
}
