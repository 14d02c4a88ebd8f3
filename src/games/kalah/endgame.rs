//! Endgame databases for Kalah under standard and empty-capture rules: the exact value of every
//! distribution of at most `max_seeds` seeds over the houses, for the side to move (the seeds
//! it will still gain over its opponent, as in the solver; stores do not matter).
//!
//! Positions are indexed by seeds left and then by the rank of the houses among all
//! distributions of that many seeds (the side to move's houses first, then the opponent's, each
//! in sowing order). A layer is filled by a depth-first search over its own positions: a move
//! that keeps every seed in the houses only moves the mover's seeds towards its store (a seed
//! that reaches the store or a capture leaves the houses, into a smaller layer), so the moves
//! within a layer never come back to a position and the recursion ends.

use super::{Board, Rules, MAX_HOUSES};
use rayon::prelude::*;
use std::sync::atomic::{AtomicI8, Ordering};

/// Not computed yet (no value reaches it: |value| <= seeds on the board <= 127).
const UNKNOWN: i8 = i8::MIN;
/// The most seeds a table holds.
pub const MAX_TABLE_SEEDS: u32 = 40;
/// Pits in a table's distributions at most.
const MAX_TABLE_PITS: usize = 2 * MAX_HOUSES;
/// Binomial coefficients up to the largest table's needs.
type Binomials = [[u64; MAX_TABLE_PITS + 1]; MAX_TABLE_SEEDS as usize + MAX_TABLE_PITS + 1];

/// Where a position's value is held: its layer (seeds in the houses) and rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableIndex {
    seeds: u32,
    rank: usize,
}

/// Exact values of every position with at most `max_seeds` seeds in the houses.
pub struct EndgameTable {
    rules: Rules,
    houses: usize,
    max_seeds: u32,
    /// `binomial[n][k]` = n choose k, for the ranks.
    binomial: Box<Binomials>,
    /// Per layer (seeds in the houses), the values by rank. Atomics so that threads can fill a
    /// layer together: two threads that reach the same position store the same value.
    layers: Vec<Vec<AtomicI8>>,
}

impl EndgameTable {
    /// Builds the tables of every layer up to `max_seeds` seeds for `houses` houses a side;
    /// `None` under seed rules (whose values depend on the stores).
    /// With every thread of the current rayon pool. `None` under seed rules (whose values
    /// depend on the stores) or beyond `MAX_TABLE_SEEDS`.
    pub fn build(rules: Rules, houses: usize, max_seeds: u32) -> Option<EndgameTable> {
        if rules == Rules::Seed || !(1..=MAX_HOUSES).contains(&houses) || max_seeds > MAX_TABLE_SEEDS {
            return None;
        }
        let mut binomial = Box::new([[0u64; MAX_TABLE_PITS + 1]; MAX_TABLE_SEEDS as usize + MAX_TABLE_PITS + 1]);
        for n in 0..binomial.len() {
            binomial[n][0] = 1;
            for k in 1..=MAX_TABLE_PITS.min(n) {
                binomial[n][k] = binomial[n - 1][k - 1] + binomial[n - 1][k];
            }
        }
        let mut table = EndgameTable { rules, houses, max_seeds, binomial, layers: Vec::new() };
        /// Ranks a thread takes at a time.
        const CHUNK: usize = 4096;
        for seeds in 0..=max_seeds {
            let size = table.layer_size(seeds);
            table.layers.push(crate::memory::fixed_table(size, || AtomicI8::new(UNKNOWN)));
            let table = &table;
            (0..size.div_ceil(CHUNK)).into_par_iter().for_each(|chunk| {
                let mut houses_now = table.unrank(seeds, chunk * CHUNK);
                for rank in chunk * CHUNK..size.min((chunk + 1) * CHUNK) {
                    table.solve_at(&table.board(&houses_now[..2 * houses]), TableIndex { seeds, rank });
                    next_distribution(&mut houses_now[..2 * houses]);
                }
            });
        }
        Some(table)
    }

    /// The largest layer held.
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// Positions held, over every layer (one byte each).
    pub fn positions(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }

    /// Distributions of `seeds` seeds over the houses of both sides.
    fn layer_size(&self, seeds: u32) -> usize {
        let pits = 2 * self.houses;
        self.binomial[seeds as usize + pits - 1][pits - 1] as usize
    }

    /// The value of `board` for the side to move when its houses hold at most `max_seeds`
    /// seeds and the rules and board size are the table's.
    pub fn probe(&self, board: &Board) -> Option<i32> {
        self.locate(board).and_then(|at| self.value(at))
    }

    /// Where `board`'s value is held, when the table holds it (see `probe`).
    pub fn locate(&self, board: &Board) -> Option<TableIndex> {
        let seeds = board.house_seeds(0) + board.house_seeds(1);
        if seeds > self.max_seeds || board.houses() != self.houses {
            return None;
        }
        Some(TableIndex { seeds, rank: self.rank(board, seeds) })
    }

    /// Starts loading the value at `at` into the cache (see `memory::prefetch`).
    pub fn prefetch(&self, at: TableIndex) {
        crate::memory::prefetch(&self.layers[at.seeds as usize][at.rank]);
    }

    /// The value at `at` (from `locate`), if it has been computed.
    pub fn value(&self, at: TableIndex) -> Option<i32> {
        let value = self.layers[at.seeds as usize][at.rank].load(Ordering::Relaxed);
        (value != UNKNOWN).then_some(i32::from(value))
    }

    /// The houses in table order: the side to move's, then the opponent's, each in sowing order.
    fn houses_of(&self, board: &Board) -> [u8; MAX_TABLE_PITS] {
        let mut out = [0u8; MAX_TABLE_PITS];
        let me = board.side();
        for (i, side) in [me, 1 - me].into_iter().enumerate() {
            let first = side * (self.houses + 1);
            out[i * self.houses..(i + 1) * self.houses].copy_from_slice(&board.pits[first..first + self.houses]);
        }
        out
    }

    /// The rank of `board`'s houses among the distributions of `seeds` seeds, in the order
    /// `next_distribution` visits them.
    fn rank(&self, board: &Board, seeds: u32) -> usize {
        let houses = self.houses_of(board);
        let pits = 2 * self.houses;
        let mut left = seeds as usize;
        let mut rank = 0u64;
        // Distributions whose first differing house holds more come first: for each house, count
        // those with the same houses before it and more seeds in it.
        for (i, &here) in houses[..pits - 1].iter().enumerate() {
            // Distributions of `left` with more than `here` in this house: `left - here - 1`
            // seeds over this house (the excess) and the `rest` houses after it. With
            // `left == here` that is C(rest - 1, rest) = 0, so no branch is needed.
            let rest = pits - 1 - i;
            left -= usize::from(here);
            rank += self.binomial[left + rest - 1][rest];
        }
        rank as usize
    }

    /// The distribution of `seeds` seeds at `rank` (the inverse of `rank`).
    fn unrank(&self, seeds: u32, mut rank: usize) -> [u8; MAX_TABLE_PITS] {
        let pits = 2 * self.houses;
        let mut out = [0u8; MAX_TABLE_PITS];
        let mut left = seeds as usize;
        for (i, house) in out[..pits - 1].iter_mut().enumerate() {
            let rest = pits - 1 - i;
            // Values from `left` down: each takes the distributions of the seeds left over the
            // houses after this one.
            let mut here = left;
            loop {
                let block = self.binomial[left - here + rest - 1][rest - 1] as usize;
                if rank < block {
                    break;
                }
                rank -= block;
                here -= 1;
            }
            *house = here as u8;
            left -= here;
        }
        out[pits - 1] = left as u8;
        out
    }

    /// A board with `houses` (table order), player 0 to move and empty stores.
    fn board(&self, houses: &[u8]) -> Board {
        let mut board = Board { pits: [0; super::MAX_PITS], houses: self.houses, side: 0 };
        board.pits[..self.houses].copy_from_slice(&houses[..self.houses]);
        board.pits[self.houses + 1..2 * self.houses + 1].copy_from_slice(&houses[self.houses..]);
        board
    }

    /// The exact value of `board` (in a layer being built or below, held `at`), computed and
    /// stored if unknown.
    fn solve_at(&self, board: &Board, at: TableIndex) -> i32 {
        if let Some(known) = self.value(at) {
            return known;
        }
        // Every child is sown and ranked and its entry asked for before the first is read, so
        // that the (random) loads overlap.
        let me = board.side();
        let unused = Pending { board: *board, gain: 0, again: false, at: None };
        let mut children = [unused; MAX_HOUSES];
        let mut count = 0;
        for house in (0..self.houses).filter(|&h| board.is_legal(h)) {
            let sown = board.sow(house, self.rules);
            let delta = |side: usize| sown.board.store_seeds(side) as i32 - board.store_seeds(side) as i32;
            let mut child = sown.board;
            // Children are looked up from empty stores (the value ignores them; this keeps the
            // seed counts small).
            child.pits[child.store(0)] = 0;
            child.pits[child.store(1)] = 0;
            // A child that is not over is in this layer or a smaller one: `locate` finds it.
            let at = if sown.over { None } else { self.locate(&child) };
            if let Some(at) = at {
                self.prefetch(at);
            }
            children[count] = Pending { board: child, gain: delta(me) - delta(1 - me), again: sown.again, at };
            count += 1;
        }
        let best = children[..count]
            .iter()
            .map(|c| match c.at {
                None => c.gain,
                Some(at) if c.again => c.gain + self.solve_at(&c.board, at),
                Some(at) => c.gain - self.solve_at(&c.board, at),
            })
            .max();
        // No move: only a given position; each side banks its own houses.
        let value = best.unwrap_or_else(|| board.house_seeds(me) as i32 - board.house_seeds(1 - me) as i32);
        self.layers[at.seeds as usize][at.rank].store(value as i8, Ordering::Relaxed);
        value
    }
}

/// A move's outcome while a position's value is computed: the child (stores emptied), what the
/// mover gained, and where the child's value is kept (`None`: the game is over).
#[derive(Clone, Copy)]
struct Pending {
    board: Board,
    gain: i32,
    again: bool,
    at: Option<TableIndex>,
}

/// The next distribution of the same seeds (the first house emptying towards the last), false
/// after the last one. From all seeds in the first house to all in the last.
fn next_distribution(houses: &mut [u8]) -> bool {
    let last = houses.len() - 1;
    // The rightmost house with seeds, not counting the last house.
    let Some(i) = (0..last).rev().find(|&i| houses[i] > 0) else {
        return false;
    };
    houses[i] -= 1;
    let moved = houses[last] + 1;
    houses[last] = 0;
    houses[i + 1] = moved;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kalah::solver::Solver;

    #[test]
    fn ranks_follow_the_visiting_order() {
        let table = EndgameTable::build(Rules::Standard, 2, 4).unwrap_or_else(|| unreachable!("standard rules"));
        for seeds in 0..=4u32 {
            let mut houses = vec![0u8; 4];
            houses[0] = seeds as u8;
            let mut expected = 0;
            loop {
                assert_eq!(table.rank(&table.board(&houses), seeds), expected, "{houses:?}");
                assert_eq!(table.unrank(seeds, expected)[..4], houses[..], "{expected}");
                expected += 1;
                if !next_distribution(&mut houses) {
                    break;
                }
            }
            assert_eq!(expected, table.layer_size(seeds), "{seeds} seeds");
        }
    }

    #[test]
    fn every_value_equals_the_solvers() {
        for rules in [Rules::Standard, Rules::EmptyCapture] {
            let table = EndgameTable::build(rules, 3, 7).unwrap_or_else(|| unreachable!("not seed rules"));
            let mut solver = Solver::new(rules);
            let mut checked = 0;
            for seeds in 1..=7u32 {
                let mut houses = vec![0u8; 6];
                houses[0] = seeds as u8;
                loop {
                    // Both sides to move, stores empty: the solver's margin is then the value.
                    for side in 0..2 {
                        let mut board = table.board(&houses);
                        board.side = side;
                        if (0..3).any(|h| board.is_legal(h)) {
                            assert_eq!(table.probe(&board), Some(solver.solve(&board)), "{houses:?} side {side}");
                            checked += 1;
                        }
                    }
                    if !next_distribution(&mut houses) {
                        break;
                    }
                }
            }
            assert!(checked > 1000, "{checked}");
        }
    }
}
