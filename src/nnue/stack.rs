//! The search's accumulators, one per ply, updated lazily: making a move records only its
//! `Delta`; evaluating a position applies the deltas since the nearest computed ancestor, or
//! computes the accumulator from the thread's `RefreshCache` where no ancestor is known (the
//! root, a helper thread joining a split point, a king whose move changed what its side sees:
//! across the d/e line of a king-mirrored net, into another king bucket).

use super::{Accumulator, Delta, Network, RefreshCache};
use crate::position::Position;

#[derive(Clone, Copy)]
enum State {
    /// `acc` is this ply's accumulator.
    Computed,
    /// This ply's position is its parent's changed by the delta; `acc` is stale.
    Pending(Delta),
    /// Nothing is known: compute from the position.
    Unknown,
}

#[derive(Clone, Copy)]
struct Slot {
    acc: Accumulator,
    state: State,
}

/// One accumulator per ply of the search path, for one network.
pub struct AccumulatorStack {
    slots: Vec<Slot>,
    /// Where a ply with no computed ancestor starts from; it outlives `forget`.
    cache: RefreshCache,
}

impl AccumulatorStack {
    /// A stack for `plies` plies, every one unknown.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            slots: vec![Slot { acc: Accumulator::ZERO, state: State::Unknown }; plies],
            cache: RefreshCache::new(),
        }
    }

    /// Forgets every ply (a new root, or a path copied from another thread).
    pub fn forget(&mut self) {
        self.slots.iter_mut().for_each(|slot| slot.state = State::Unknown);
    }

    /// Forgets every ply and computes the accumulator of `pos`, the position at `ply` (a new
    /// root, or a split point a helper joins), so that the plies below it always start from a
    /// computed one. Without it, a root whose evaluation comes from the TT is never computed,
    /// and every later position whose ancestors were not evaluated either is computed from
    /// scratch.
    pub fn reset(&mut self, net: &Network, pos: &Position, ply: usize) {
        self.forget();
        self.slots[ply] = Slot { acc: self.cache.refreshed(net, pos), state: State::Computed };
    }

    /// Records that the position at `ply` is `after`, one move (or a null move) from `before`
    /// at `ply - 1`. A move `net` cannot update (a king crossing the d/e line in a
    /// king-mirrored net, or into another king bucket) leaves the ply unknown, so it is
    /// computed from its position (or a later one's) when evaluated.
    #[inline]
    pub fn push(&mut self, net: &Network, ply: usize, before: &Position, after: &Position) {
        let delta = Delta::between(net, before, after);
        self.slots[ply].state = if delta.is_updatable() { State::Pending(delta) } else { State::Unknown };
    }

    /// The evaluation of `pos`, the position at `ply` of the current path.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        let mut base = ply;
        loop {
            match self.slots[base].state {
                State::Computed => break,
                State::Pending(_) if base > 0 => base -= 1,
                _ => {
                    self.slots[ply] = Slot { acc: self.cache.refreshed(net, pos), state: State::Computed };
                    base = ply;
                    break;
                }
            }
        }
        for next in base + 1..=ply {
            if let State::Pending(delta) = self.slots[next].state {
                let (done, rest) = self.slots.split_at_mut(next);
                done[next - 1].acc.update_into(net, &delta, &mut rest[0].acc);
                rest[0].state = State::Computed;
            }
        }
        net.output(&self.slots[ply].acc, pos)
    }
}
