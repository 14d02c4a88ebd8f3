//! The founding documents' other games, on the same search ideas as the chess engine (bitboards,
//! negamax alpha-beta, a transposition table, move ordering, iterative narrowing) but written for
//! each game: they share nothing with the chess hot path.

pub mod connect4;
pub mod kalah;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// SplitMix64's finaliser: a bijective 64-bit mix in which every input bit changes about half
/// the output bits.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Random picks among equally good moves (SplitMix64): nearby seeds give unrelated sequences,
/// so the games of a match differ from the first move on.
pub struct TieBreaker(u64);

impl TieBreaker {
    pub fn new(seed: u64) -> TieBreaker {
        TieBreaker(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The positions being searched now, by any thread of a parallel solver (keys in slots by hash;
/// a clash only costs some duplicated work). A thread defers a move whose position another
/// thread is searching (ABDADA), so the threads spread over the tree. Key 0 means an empty slot.
pub struct Busy {
    slots: Vec<AtomicU64>,
}

/// Slots in the busy table (2^`BUSY_LOG2`).
const BUSY_LOG2: u32 = 16;

impl Default for Busy {
    fn default() -> Busy {
        Busy::new()
    }
}

impl Busy {
    pub fn new() -> Busy {
        Busy { slots: (0..1usize << BUSY_LOG2).map(|_| AtomicU64::new(0)).collect() }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - BUSY_LOG2)) as usize]
    }

    /// Whether to search the position `key` now: false, deferring it, when `may_defer` (a
    /// node's first pass, not its first move) and another thread is searching it; else true,
    /// the position entered as busy (`leave` it after the search).
    pub fn claim(&self, key: u64, may_defer: bool) -> bool {
        let slot = self.slot(key);
        if may_defer && slot.load(Ordering::Relaxed) == key {
            return false;
        }
        slot.store(key, Ordering::Relaxed);
        true
    }

    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Runs `search(busy, stop)` on `threads` threads (alone, with no busy table) and returns the
/// value of the first to finish and every thread's nodes: `search` returns its value and nodes,
/// and returns at once, storing nothing, once `stop` is set, which the first finisher does.
pub fn first_to_finish<T: Send>(
    threads: usize,
    search: impl Fn(Option<&Busy>, &AtomicBool) -> (T, u64) + Sync,
) -> (T, u64) {
    let stop = AtomicBool::new(false);
    if threads <= 1 {
        return search(None, &stop);
    }
    let busy = Busy::new();
    let (busy, stop, search) = (&busy, &stop, &search);
    let results: Vec<(Option<T>, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(move || {
                    let (value, nodes) = search(Some(busy), stop);
                    // Only the first to finish was not cut short.
                    let first = !stop.swap(true, Ordering::Relaxed);
                    (first.then_some(value), nodes)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or((None, 0))).collect()
    });
    let nodes = results.iter().map(|r| r.1).sum();
    let value = results.into_iter().find_map(|r| r.0).unwrap_or_else(|| unreachable!("one thread finishes first"));
    (value, nodes)
}
