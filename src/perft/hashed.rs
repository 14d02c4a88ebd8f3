//! Hashed perft: subtree counts cached by (Zobrist key, depth), for the deep counts where
//! transpositions repeat most of the work.
//!
//! A cached count is used only when the whole 64-bit key and the depth match, so a wrong count
//! needs two different positions with the same 64-bit key at the same depth: with `n` entries in
//! the table, each lookup has a chance of about `n / 2^64` of such a false hit (under 1 in 10^11
//! for a 1 GB table, 6.7 * 10^7 entries; summed over the ~10^10 lookups of a start-position perft
//! 10, under 1 in 20). Entries are two `u64` atomics written with the key XOR-ed by the data, so a
//! torn write between threads reads as a miss, never as a wrong count.

use super::perft;
use crate::movegen::{generate, AllMoves, MoveSink};
use crate::position::{CheckInfo, Position};
use crate::threads::WorkerPool;
use crate::types::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts below this depth are not cached (bulk counting is cheaper than a lookup).
const MIN_CACHED_DEPTH: u32 = 2;
/// Bits of the data word that hold the count; the depth is above them.
const COUNT_BITS: u32 = 56;

/// One cached count: `check` = key XOR data, `data` = depth << 56 | count.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// Two entries: the deeper subtree is kept in the first, the most recent in the second.
#[derive(Default)]
#[repr(align(32))]
struct Bucket {
    entries: [Entry; 2],
}

/// The perft cache, shared by every thread.
pub struct PerftTable {
    buckets: Vec<Bucket>,
}

impl PerftTable {
    /// A table of about `mb` megabytes (a power of two of buckets, at least one).
    pub fn new(mb: usize) -> PerftTable {
        let wanted = (mb.max(1) << 20) / std::mem::size_of::<Bucket>();
        let len = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        PerftTable { buckets: (0..len.max(1)).map(|_| Bucket::default()).collect() }
    }

    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key as usize) & (self.buckets.len() - 1)]
    }

    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        self.bucket(key).entries.iter().find_map(|entry| {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            (check ^ data == key && data >> COUNT_BITS == u64::from(depth)).then_some(data & ((1 << COUNT_BITS) - 1))
        })
    }

    fn store(&self, key: u64, depth: u32, count: u64) {
        let data = (u64::from(depth) << COUNT_BITS) | count;
        let bucket = self.bucket(key);
        let deep = &bucket.entries[0];
        let slot =
            if u64::from(depth) >= deep.data.load(Ordering::Relaxed) >> COUNT_BITS { deep } else { &bucket.entries[1] };
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

/// The perft count of `pos` at `depth` with subtree counts cached in `table`.
pub fn perft_hashed(pos: &Position, depth: u32, table: &PerftTable) -> u64 {
    if depth < MIN_CACHED_DEPTH {
        return perft(pos, depth);
    }
    if let Some(count) = table.probe(pos.key(), depth) {
        return count;
    }
    let mut visitor = HashedVisitor { parent: pos, info: pos.check_info(), depth: depth - 1, table, nodes: 0 };
    generate::<AllMoves, _>(pos, &mut visitor);
    table.store(pos.key(), depth, visitor.nodes);
    visitor.nodes
}

struct HashedVisitor<'a> {
    parent: &'a Position,
    info: CheckInfo,
    depth: u32,
    table: &'a PerftTable,
    nodes: u64,
}

impl MoveSink for HashedVisitor<'_> {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        let mut child = self.parent.clone();
        child.make_move_with(mv, &self.info);
        self.nodes += perft_hashed(&child, self.depth, self.table);
    }
}

/// `perft_hashed` on the pool's threads: the first two plies are split into tasks that share
/// the table.
pub fn perft_hashed_parallel(pos: &Position, depth: u32, table: &PerftTable, pool: &WorkerPool) -> u64 {
    if pool.threads() <= 1 || depth < 4 {
        return perft_hashed(pos, depth, table);
    }
    pool.install(|| super::split_two_plies(pos, depth, |child, left| perft_hashed(child, left, table)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_counts_equal_plain_counts() {
        let pool = WorkerPool::new(2).unwrap_or_else(|e| unreachable!("{e}"));
        for fen in [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            // A tiny table forces replacements and collisions of the index bits.
            for mb in [1, 16] {
                let table = PerftTable::new(mb);
                assert_eq!(perft_hashed(&pos, 4, &table), perft(&pos, 4), "{fen}");
                assert_eq!(perft_hashed_parallel(&pos, 5, &table, &pool), perft(&pos, 5), "{fen}");
            }
        }
    }

    #[test]
    fn a_count_is_found_only_under_its_key_and_depth() {
        let table = PerftTable::new(1);
        table.store(0xDEAD_BEEF, 5, 123_456);
        assert_eq!(table.probe(0xDEAD_BEEF, 5), Some(123_456));
        assert_eq!(table.probe(0xDEAD_BEEF, 4), None);
        assert_eq!(table.probe(0xDEAD_BEEF ^ (1 << 40), 5), None);
    }
}
