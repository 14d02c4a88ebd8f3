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
