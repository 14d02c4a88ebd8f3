//! The transposition table: 64-byte buckets (one cache line) of four entries, each entry two
//! `AtomicU64` words holding `key ^ data` and `data`. Threads share it without locks: a torn
//! write (words from two different stores) fails the key check and reads as a miss, so a probe
//! never returns data stored for another position. Moves from it are still checked for
//! legality before use, as a 64-bit key can collide.

use super::tablebase::TB_WIN_BOUND;
use crate::threads::WorkerPool;
use crate::types::Move;
use rayon::prelude::*;
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at least the stored score (a beta cutoff).
    Lower,
    /// The true score is at most the stored score (no move raised alpha).
    Upper,
    /// The stored score is exact (a PV node).
    Exact,
}

impl Bound {
    /// The bound of a node's `best` score searched in the window (`alpha`, `beta`).
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a node searched in (`alpha`, `beta`).
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

    /// Whether a stored `score` with this bound says more than a static `eval`: an exact score,
    /// or a bound on the side of the eval that it moves.
    #[inline]
    pub fn sharpens(self, score: i32, eval: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score > eval,
            Bound::Upper => score < eval,
        }
    }
}

/// Scores at or beyond this magnitude are mates (or mated), counted in plies from the root.
pub const MATE: i32 = 32_000;
/// The largest score that is not a mate score.
pub const MATE_BOUND: i32 = MATE - 1000;

/// A mate or tablebase score as stored in the table: relative to the node instead of the root,
/// so it stays right when the position is reached at another ply (both count plies from the
/// root: `MATE - ply`, `TB_WIN - ply`).
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of `score_to_tt`: a stored mate or tablebase score made relative to the root
/// again.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// One probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move found, possibly `Move::NULL`.
    pub mv: Move,
    /// The score in table form (see `score_from_tt`).
    pub score: i32,
    /// The static evaluation of the position (`NO_EVAL` when unknown).
    pub eval: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// What the score says.
    pub bound: Bound,
}

/// Static evaluation not stored.
pub const NO_EVAL: i32 = i16::MIN as i32;

const ENTRIES_PER_BUCKET: usize = 4;
/// Buckets `hashfull` samples: the first 250, 1000 entries, as UCI's permille suggests.
const HASHFULL_SAMPLE_BUCKETS: usize = 250;
/// A pool writes the table in this many parts per thread: few enough that each part is one long
/// `memset` (1 MB parts cleared 4 GB on two threads in 0.144 s, four parts a thread in 0.067 s;
/// docs/hash.md), enough that a thread the system delays leaves some of its share to the others.
const PARTS_PER_THREAD: usize = 4;

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

// data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | generation 6
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let bound_bits = match bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    u64::from(mv.bits())
        | u64::from(score.clamp(-32_767, 32_767) as i16 as u16) << 16
        | u64::from(eval.clamp(NO_EVAL, 32_767) as i16 as u16) << 32
        | u64::from(depth.clamp(0, 255) as u8) << 48
        | bound_bits << 56
        | u64::from(generation & 63) << 58
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match data >> 56 & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None, // an empty slot
    };
    Some(TtEntry {
        mv: Move::from_bits(data as u16),
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: i32::from((data >> 48) as u8),
        bound,
    })
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// The buckets in one part of a table of `count` written by `pool`.
fn part_len(count: usize, pool: &WorkerPool) -> usize {
    count.div_ceil(pool.threads() * PARTS_PER_THREAD).max(1)
}

/// Memory a new table leaves to the rest of the system: a size within this of the memory
/// available is halved until it fits, rather than risk the out-of-memory killer.
const HASH_HEADROOM_MB: usize = 256;

/// The largest of `requested_mb`, its half, its quarter, ... (at least 1 MB) that is at most
/// `available_mb` (any, when that is unknown).
fn hash_within(requested_mb: usize, available_mb: Option<usize>) -> usize {
    let mut size = requested_mb.max(1);
    while size > 1 && available_mb.is_some_and(|available| size > available) {
        size /= 2;
    }
    size
}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU64,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket), written by this thread.
    ///
    /// Panics if the memory cannot be had: for fixed sizes and sizes granted before; sizes from
    /// input go through `try_new`.
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes, None).expect("memory for a transposition table of a fixed size")
    }

    /// A table of about `megabytes` MB, its entries first written by `pool`'s threads (this
    /// thread alone without one), or an error when the system refuses the memory.
    pub fn try_new(megabytes: usize, pool: Option<&WorkerPool>) -> Result<TranspositionTable, TryReserveError> {
        let count = (megabytes.clamp(1, usize::MAX >> 21) << 20) / std::mem::size_of::<Bucket>();
        TranspositionTable::with_buckets(count.max(1), pool)
    }

    /// A table of `requested_mb` or, when the memory is not there, of the largest half,
    /// quarter, ... of it that fits (`HASH_HEADROOM_MB` left to the rest of the system) and can
    /// be allocated, at least 1 MB; with the size it got.
    pub fn within_memory(requested_mb: usize, pool: Option<&WorkerPool>) -> (TranspositionTable, usize) {
        let available_mb = crate::memory::available_bytes().map(|bytes| (bytes >> 20).saturating_sub(HASH_HEADROOM_MB));
        let mut size = hash_within(requested_mb, available_mb);
        loop {
            match TranspositionTable::try_new(size, pool) {
                Ok(tt) => return (tt, size),
                Err(_) if size > 1 => size /= 2,
                Err(_) => return (TranspositionTable::new(1), 1),
            }
        }
    }

    fn with_buckets(count: usize, pool: Option<&WorkerPool>) -> Result<TranspositionTable, TryReserveError> {
        let mut buckets = crate::memory::reserved(count)?;
        // The first write faults each page in (the kernel zeroes it then): on many threads the
        // faults and the writes overlap. `par_extend` writes in place into the reserved room.
        match pool {
            Some(pool) => pool.install(|| {
                let part = part_len(count, pool);
                buckets.par_extend((0..count).into_par_iter().with_min_len(part).map(|_| Bucket::default()))
            }),
            None => buckets.resize_with(count, Bucket::default),
        }
        Ok(TranspositionTable { buckets, generation: AtomicU64::new(0) })
    }

    /// The size in MB.
    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Where the table's memory starts and how many bytes it spans (to ask the system how it is
    /// backed).
    pub fn memory_range(&self) -> (usize, usize) {
        (self.buckets.as_ptr() as usize, std::mem::size_of_val(self.buckets.as_slice()))
    }

    /// Empties every entry, on `pool`'s threads (this thread alone without one).
    pub fn clear(&mut self, pool: Option<&WorkerPool>) {
        match pool {
            Some(pool) => pool.install(|| {
                let part = part_len(self.buckets.len(), pool);
                self.buckets.par_chunks_mut(part).for_each(|chunk| chunk.fill_with(Bucket::default));
            }),
            None => self.buckets.fill_with(Bucket::default),
        }
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn current_generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) & 63) as u8
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key's high bits onto the table without a division.
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `key`'s bucket into the cache: called as soon as a child's key is known,
    /// the load overlaps the work done before the child probes it.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::memory::prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for entry in &self.bucket(key).entries {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a search result for `key`, replacing the same key or the least valuable entry
    /// (shallowest, oldest). A new result without a move keeps the old move of the same key.
    pub fn store(&self, key: u64, mut mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.current_generation();
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for entry in &bucket.entries {
            let data = entry.data.load(Ordering::Relaxed);
            let stored_key = entry.key_xor_data.load(Ordering::Relaxed) ^ data;
            if stored_key == key {
                if let Some(old) = unpack(data) {
                    // Keep a deeper exact result of this search unless the new one is exact.
                    if bound != Bound::Exact && old.depth > depth + 3 && generation_of(data) == generation {
                        return;
                    }
                    if mv.is_null() {
                        mv = old.mv;
                    }
                }
                victim = entry;
                break;
            }
            let Some(old) = unpack(data) else {
                victim = entry;
                break;
            };
            let age = i32::from(generation.wrapping_sub(generation_of(data)) & 63);
            let worth = old.depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = entry;
            }
        }
        let data = pack(mv, score, eval, depth, bound, generation);
        victim.key_xor_data.store(key ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written during the current search (UCI `hashfull`): the
    /// first `HASHFULL_SAMPLE_BUCKETS` buckets, or all of a smaller table.
    pub fn hashfull(&self) -> usize {
        let generation = self.current_generation();
        let sample = self.buckets.len().min(HASHFULL_SAMPLE_BUCKETS);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for entry in &bucket.entries {
                let data = entry.data.load(Ordering::Relaxed);
                if unpack(data).is_some() && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        used * 1000 / (sample * ENTRIES_PER_BUCKET)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tablebase::TB_WIN;
    use crate::search::MAX_PLY;

    #[test]
    fn hash_is_halved_until_it_fits_the_memory_available() {
        assert_eq!(hash_within(65_536, Some(22_000)), 16_384);
        assert_eq!(hash_within(16_384, Some(16_384)), 16_384);
        assert_eq!(hash_within(20_000, Some(12_000)), 10_000);
        assert_eq!(hash_within(256, None), 256);
        assert_eq!(hash_within(256, Some(0)), 1);
        assert_eq!(hash_within(0, Some(100)), 1);
    }
    use crate::types::{MoveKind, Square};

    #[test]
    fn impossible_sizes_are_refused_not_aborted() {
        assert!(TranspositionTable::try_new(usize::MAX, None).is_err());
        assert!(TranspositionTable::try_new(1 << 40, None).is_err());
        assert_eq!(TranspositionTable::try_new(2, None).map(|tt| tt.megabytes()).ok(), Some(2));
    }

    /// The smallest key that `bucket` of a table of `buckets` holds.
    fn key_in_bucket(bucket: usize, buckets: usize) -> u64 {
        ((bucket as u128) << 64).div_ceil(buckets as u128) as u64
    }

    #[test]
    fn hashfull_is_the_permille_of_sampled_entries_of_this_search() {
        for buckets in [1, 3, 249, 250, 251, 16_384] {
            let tt = TranspositionTable::with_buckets(buckets, None).unwrap_or_else(|e| unreachable!("{e}"));
            tt.new_search();
            assert_eq!(tt.hashfull(), 0, "{buckets} buckets");
            let sampled = buckets.min(HASHFULL_SAMPLE_BUCKETS);
            let fill = |entries: u64| {
                for bucket in 0..sampled {
                    for i in 0..entries {
                        tt.store(key_in_bucket(bucket, buckets) + i, Move::NULL, 0, 0, 1, Bound::Exact);
                    }
                }
            };
            // One entry of four in every sampled bucket; buckets beyond the sample do not count.
            fill(1);
            if buckets > sampled {
                tt.store(key_in_bucket(buckets - 1, buckets), Move::NULL, 0, 0, 1, Bound::Exact);
            }
            assert_eq!(tt.hashfull(), 250, "{buckets} buckets");
            fill(4);
            assert_eq!(tt.hashfull(), 1000, "{buckets} buckets");
            // Entries of an earlier search are not counted, however full the table.
            tt.new_search();
            assert_eq!(tt.hashfull(), 0, "{buckets} buckets");
            fill(2);
            assert_eq!(tt.hashfull(), 500, "{buckets} buckets");
        }
    }

    #[test]
    fn a_pool_writes_and_clears_the_same_table() {
        let pool = WorkerPool::new(2).unwrap_or_else(|e| unreachable!("{e}"));
        let mut tt = TranspositionTable::try_new(3, Some(&pool)).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!((tt.megabytes(), tt.buckets.len()), (3, 3 * (1 << 20) / 64));
        assert!(tt.buckets.iter().flat_map(|b| &b.entries).all(|e| e.data.load(Ordering::Relaxed) == 0));
        tt.new_search();
        let keys: Vec<u64> = (0..1000u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
        for &key in &keys {
            tt.store(key, Move::NULL, 1, 0, 3, Bound::Lower);
        }
        assert!(keys.iter().any(|&key| tt.probe(key).is_some()));
        tt.clear(Some(&pool));
        assert!(keys.iter().all(|&key| tt.probe(key).is_none()));
        assert!(tt.buckets.iter().flat_map(|b| &b.entries).all(|e| e.data.load(Ordering::Relaxed) == 0));
        assert_eq!(tt.current_generation(), 0);
    }

    #[test]
    fn bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn store_then_probe_returns_every_field() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(Square::E2, Square::E4, MoveKind::DOUBLE_PUSH);
        tt.store(0xdead_beef, mv, -123, 45, 7, Bound::Lower);
        assert_eq!(tt.probe(0xdead_beef), Some(TtEntry { mv, score: -123, eval: 45, depth: 7, bound: Bound::Lower }));
        assert_eq!(tt.probe(0xdead_beee), None);
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        tt.store(key, Move::NULL, 10, 0, 3, Bound::Exact);
        // Simulate a torn write: the data word of another store next to this key's check word.
        let bucket = tt.bucket(key);
        let other = pack(Move::new(Square::A2, Square::A3, MoveKind::QUIET), 99, 0, 9, Bound::Exact, 0);
        bucket.entries[0].data.store(other, Ordering::Relaxed);
        assert_eq!(tt.probe(key), None);
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        // Mate in 3 plies seen from the root, stored at ply 2: one ply from the node.
        let root_score = MATE - 3;
        let stored = score_to_tt(root_score, 2);
        assert_eq!(stored, MATE - 1);
        // Reached again at ply 6, the same mate is 7 plies from the root.
        assert_eq!(score_from_tt(stored, 6), MATE - 7);
        assert_eq!(score_from_tt(score_to_tt(-(MATE - 4), 3), 3), -(MATE - 4));
        assert_eq!(score_to_tt(250, 10), 250);
    }

    #[test]
    fn tablebase_scores_are_stored_relative_to_the_node() {
        // A tablebase win found at ply 5 and stored there reads, at ply 9, as the same win 4
        // plies further from the root: still a tablebase score, never a mate.
        let stored = score_to_tt(TB_WIN - 5, 5);
        assert_eq!(stored, TB_WIN);
        assert_eq!(score_from_tt(stored, 9), TB_WIN - 9);
        assert_eq!(score_from_tt(score_to_tt(-(TB_WIN - 7), 7), 2), -(TB_WIN - 2));
        let deepest = score_from_tt(score_to_tt(TB_WIN - 3, 3), MAX_PLY);
        assert!((TB_WIN_BOUND..MATE_BOUND).contains(&deepest));
    }

    #[test]
    fn replacement_prefers_shallow_and_old_entries() {
        let tt = TranspositionTable::new(1);
        let base = 0x8000_0000_0000_0000u64;
        // Five keys mapping to the same bucket (same high bits).
        for (i, depth) in [(1u64, 9), (2, 2), (3, 8), (4, 7)] {
            tt.store(base | i, Move::NULL, 0, 0, depth, Bound::Exact);
        }
        tt.store(base | 5, Move::NULL, 0, 0, 5, Bound::Exact);
        assert!(tt.probe(base | 2).is_none(), "the depth-2 entry is replaced");
        assert!(tt.probe(base | 5).is_some() && tt.probe(base | 1).is_some());
    }
}
