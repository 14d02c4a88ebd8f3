//! Moves that some thread is searching right now (a simplified ABDADA): when two threads
//! reach the same node, the second puts off the moves the first is busy with and searches the
//! others first, so that threads working on the same root move split its tree instead of
//! repeating it. Only the first move of a node is never put off (it is searched in full by
//! every thread, as young-brothers-wait requires), and only nodes at least `MIN_DEPTH` deep
//! take part. Entries are single atomic words written without locks: a lost or stale entry
//! only changes the order in which one thread searches its moves, never a result.

use crate::types::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// Nodes shallower than this are searched without looking at the table.
pub const MIN_DEPTH: i32 = 3;

/// Slots (a power of two): a few thousand are busy at once at most with many threads.
const SLOTS: usize = 1 << 15;

/// The table of (position, move) pairs being searched.
pub struct BusyMoves {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyMoves {
    fn default() -> Self {
        BusyMoves { slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }
}

/// The key of `mv` played from the position with key `key`.
#[inline]
fn move_key(key: u64, mv: Move) -> u64 {
    key ^ (u64::from(mv.bits()) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl BusyMoves {
    #[inline]
    fn slot(&self, move_key: u64) -> &AtomicU64 {
        &self.slots[(move_key as usize) & (SLOTS - 1)]
    }

    /// Whether another thread is searching `mv` from the position with key `key`.
    #[inline]
    pub fn is_busy(&self, key: u64, mv: Move) -> bool {
        let k = move_key(key, mv);
        self.slot(k).load(Ordering::Relaxed) == k
    }

    /// Marks `mv` from `key` as being searched.
    #[inline]
    pub fn enter(&self, key: u64, mv: Move) {
        let k = move_key(key, mv);
        self.slot(k).store(k, Ordering::Relaxed);
    }

    /// Clears the mark of `mv` from `key`, unless another pair has taken its slot since.
    #[inline]
    pub fn leave(&self, key: u64, mv: Move) {
        let k = move_key(key, mv);
        let slot = self.slot(k);
        if slot.load(Ordering::Relaxed) == k {
            slot.store(0, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_per_position_and_move() {
        let busy = BusyMoves::default();
        let mv = Move::from_bits(12 | 28 << 6);
        let other = Move::from_bits(11 | 27 << 6);
        assert!(!busy.is_busy(7, mv));
        busy.enter(7, mv);
        assert!(busy.is_busy(7, mv));
        assert!(!busy.is_busy(8, mv));
        assert!(!busy.is_busy(7, other));
        busy.leave(7, mv);
        assert!(!busy.is_busy(7, mv));
    }
}
