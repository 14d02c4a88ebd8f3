//! The Kalah solver: negamax alpha-beta to the end of the game with a table of bounds. Under
//! standard and empty-capture rules a value is the seeds the side to move will still gain over
//! its opponent (its final margin less the current store difference), which depends on the
//! houses alone, so positions that differ only in their stores share a table entry; the exact
//! value is found by MTD(f): null-window searches from a first guess of 0, each moving the
//! guess to the bound it returned. Under seed rules a value is a win (1) or a loss (-1).
//!
//! Moves are tried in the order: the table's best move, moves that sow into the own store,
//! the largest gain (captures); a child's table bound that already proves a cut-off ends the
//! node before any search (enhanced transposition cutoff); buckets of two entries keep the
//! result of the largest search first.

use super::endgame::EndgameTable;
use super::{Board, Rules};
use std::sync::Arc;

/// The table's size for `Solver::new`, in MB (`kalah solve --hash` sets another).
const DEFAULT_TABLE_MB: usize = 64;

/// A table entry: the key, the bounds proven for it and the house that gave the best value.
#[derive(Clone, Copy)]
struct Entry {
    key: u128,
    lower: i16,
    upper: i16,
    best: u8,
    /// The size of the search that proved the bounds: log2 of its nodes.
    work: u8,
}

/// A legal move, the board it leaves and what the mover gained by it (store difference).
#[derive(Clone, Copy)]
struct Child {
    house: usize,
    sown: super::Sown,
    gain: i32,
}

/// `Entry::best` when no move is known.
const NO_MOVE: u8 = u8::MAX;

/// A solver for one rule set, keeping its table between positions of the same rules.
pub struct Solver {
    rules: Rules,
    /// Buckets of two: the entry of the largest search first, the most recent other one second.
    table: Vec<[Entry; 2]>,
    /// log2 of the number of buckets.
    table_bits: u32,
    /// Exact values of positions with few seeds left, when built for these rules and board.
    endgame: Option<Arc<EndgameTable>>,
    /// Nodes searched since the last `solve`.
    pub nodes: u64,
}

/// Seeds the mover's store gained minus seeds its opponent's store gained, `before` to `after`.
fn gained(before: &Board, after: &Board, mover: usize) -> i32 {
    let delta = |side: usize| after.store_seeds(side) as i32 - before.store_seeds(side) as i32;
    delta(mover) - delta(1 - mover)
}

/// Under seed rules, the result of a finished game for `mover`: 1 if its store passed half the
/// seeds or the turn passed to an opponent who cannot move, -1 if it cannot move itself.
fn seed_rules_result(after: &Board, mover: usize) -> i32 {
    if 2 * after.store_seeds(mover) > after.total_seeds() || after.side() != mover {
        1
    } else {
        -1
    }
}

impl Solver {
    /// A solver for `rules` with an empty table of the default size.
    pub fn new(rules: Rules) -> Solver {
        Solver::with_table_mb(rules, DEFAULT_TABLE_MB)
    }

    /// A solver for `rules` with an empty table of `mb` MB, rounded down to a power of two (one
    /// bucket at least).
    pub fn with_table_mb(rules: Rules, mb: usize) -> Solver {
        let buckets = (mb << 20) / std::mem::size_of::<[Entry; 2]>();
        let table_bits = buckets.max(1).ilog2();
        let empty = Entry { key: u128::MAX, lower: i16::MIN, upper: i16::MAX, best: NO_MOVE, work: 0 };
        Solver { rules, table: vec![[empty; 2]; 1 << table_bits], table_bits, endgame: None, nodes: 0 }
    }

    /// Looks positions with few seeds left up in `endgame` instead of searching them.
    pub fn with_endgame(mut self, endgame: Arc<EndgameTable>) -> Solver {
        self.endgame = Some(endgame);
        self
    }

    fn slot(&self, key: u128) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(17);
        // A shift by 64 (a one-bucket table) would overflow: the top bits are taken in two steps.
        ((folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 1) >> (63 - self.table_bits)) as usize
    }

    /// The table's entry for `key`, if it holds one.
    fn probe(&self, key: u128) -> Option<Entry> {
        self.table[self.slot(key)].iter().find(|e| e.key == key).copied()
    }

    /// Stores `entry`: first in its bucket when its search was at least as large as the first
    /// entry's (which moves to second), else second.
    fn store(&mut self, entry: Entry) {
        let slot = self.slot(entry.key);
        let bucket = &mut self.table[slot];
        if bucket[0].key == entry.key || entry.work >= bucket[0].work {
            if bucket[0].key != entry.key {
                bucket[1] = bucket[0];
            }
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }

    fn key(&self, board: &Board) -> u128 {
        match self.rules {
            Rules::Seed => board.full_key(),
            Rules::Standard | Rules::EmptyCapture => board.houses_key(),
        }
    }

    /// Under standard and empty-capture rules: the final margin for the side to move (its store
    /// minus the opponent's at the end). Under seed rules: 1 for a win, -1 for a loss.
    pub fn solve(&mut self, board: &Board) -> i32 {
        self.nodes = 0;
        if self.rules == Rules::Seed {
            return self.search(board, -1, 1);
        }
        let me = board.side();
        let stores = board.store_seeds(me) as i32 - board.store_seeds(1 - me) as i32;
        let seeds = (board.house_seeds(0) + board.house_seeds(1)) as i32;
        let (mut min, mut max) = (-seeds, seeds);
        let mut guess = 0;
        while min < max {
            let probe = if guess == min { guess } else { guess - 1 }.clamp(min, max - 1);
            let value = self.search(board, probe, probe + 1);
            if value <= probe {
                max = value;
            } else {
                min = value;
            }
            guess = value;
        }
        stores + min
    }

    /// The value of `board` for the side to move in (alpha, beta) (see the module comment).
    fn search(&mut self, board: &Board, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(value) = self.decided(board, alpha, beta) {
            return value;
        }
        // Table bounds.
        let key = self.key(board);
        let nodes_before = self.nodes;
        let found = self.probe(key);
        let known = found.is_some();
        let entry = found.unwrap_or(Entry { key, lower: i16::MIN, upper: i16::MAX, best: NO_MOVE, work: 0 });
        if known {
            alpha = alpha.max(i32::from(entry.lower));
            beta = beta.min(i32::from(entry.upper));
            if alpha >= beta {
                return alpha;
            }
        }
        let me = board.side();
        let hinted = if known { usize::from(entry.best) } else { usize::from(NO_MOVE) };
        let (children, count) = self.ordered_children(board, hinted);
        if count == 0 {
            // Only a given position can leave the side to move without a move: under seed rules
            // it has lost; otherwise the game is over and each side banks its houses.
            return match self.rules {
                Rules::Seed => -1,
                _ => board.house_seeds(me) as i32 - board.house_seeds(1 - me) as i32,
            };
        }
        if let Some(value) = self.transposition_cutoff(&children[..count], beta) {
            return value;
        }
        // The moves.
        let (alpha_in, beta_in) = (alpha, beta);
        let (mut best, mut best_house) = (i32::MIN, NO_MOVE);
        for child in &children[..count] {
            let (sown, now) = (&child.sown, child.gain);
            let value = if self.rules == Rules::Seed {
                if sown.over {
                    seed_rules_result(&sown.board, me)
                } else if sown.again {
                    self.search(&sown.board, alpha, beta)
                } else {
                    -self.search(&sown.board, -beta, -alpha)
                }
            } else if sown.over {
                now
            } else if sown.again {
                now + self.search(&sown.board, alpha - now, beta - now)
            } else {
                now - self.search(&sown.board, now - beta, now - alpha)
            };
            if value > best {
                (best, best_house) = (value, child.house as u8);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        // The store: fail high gives a lower bound, fail low an upper bound, else exact.
        let work = (u64::BITS - (self.nodes - nodes_before).leading_zeros()) as u8;
        let mut stored = Entry { best: best_house, work: work.max(entry.work), ..entry };
        if best >= beta_in {
            stored.lower = stored.lower.max(best as i16);
        } else if best <= alpha_in {
            stored.upper = stored.upper.min(best as i16);
        } else {
            (stored.lower, stored.upper) = (best as i16, best as i16);
        }
        self.store(stored);
        best
    }

    /// A value that needs no search under standard and empty-capture rules: a window beyond the
    /// seeds left in the houses (the side to move gains at most all of them and loses at most
    /// as many), or a position in the endgame databases.
    fn decided(&self, board: &Board, alpha: i32, beta: i32) -> Option<i32> {
        if self.rules == Rules::Seed {
            return None;
        }
        let left = (board.house_seeds(0) + board.house_seeds(1)) as i32;
        if alpha >= left {
            return Some(left);
        }
        if beta <= -left {
            return Some(-left);
        }
        self.endgame.as_ref().and_then(|table| table.probe(board))
    }

    /// The legal moves sown, in search order: the table's best move, then moves that sow into
    /// the own store (another move follows), then the largest gain for the mover (captures),
    /// then the house nearest the store.
    fn ordered_children(&self, board: &Board, hinted: usize) -> ([Child; super::MAX_HOUSES], usize) {
        let me = board.side();
        let unused = Child { house: 0, sown: super::Sown { board: *board, again: false, over: false }, gain: 0 };
        let mut children = [unused; super::MAX_HOUSES];
        let mut count = 0;
        for house in (0..board.houses()).rev().filter(|&h| board.is_legal(h)) {
            let sown = board.sow(house, self.rules);
            children[count] = Child { house, gain: gained(board, &sown.board, me), sown };
            count += 1;
        }
        children[..count].sort_by_key(|c| (c.house != hinted, !c.sown.again, -c.gain));
        (children, count)
    }

    /// Enhanced transposition cutoff under standard and empty-capture rules: a value at or
    /// above `beta` that a child's table bound already proves, before any child is searched.
    fn transposition_cutoff(&self, children: &[Child], beta: i32) -> Option<i32> {
        if self.rules == Rules::Seed {
            return None;
        }
        for child in children.iter().filter(|c| !c.sown.over) {
            let Some(entry) = self.probe(self.key(&child.sown.board)) else {
                continue;
            };
            // Another move: the child's value adds to the gain; else it is the opponent's.
            let proven = if child.sown.again {
                (entry.lower > i16::MIN).then(|| child.gain + i32::from(entry.lower))
            } else {
                (entry.upper < i16::MAX).then(|| child.gain - i32::from(entry.upper))
            };
            if let Some(value) = proven.filter(|&v| v >= beta) {
                return Some(value);
            }
        }
        None
    }

    /// The best house (0 = the farthest from the store) for the side to move and its value,
    /// choosing among equals with `pick` (given how many there are); `None` if no move.
    pub fn best_move(&mut self, board: &Board, pick: &mut dyn FnMut(usize) -> usize) -> Option<(usize, i32)> {
        let me = board.side();
        let mut scored = Vec::new();
        for house in (0..board.houses()).filter(|&h| board.is_legal(h)) {
            let sown = board.sow(house, self.rules);
            let value = if sown.over {
                match self.rules {
                    Rules::Seed => seed_rules_result(&sown.board, me),
                    _ => sown.board.store_seeds(me) as i32 - sown.board.store_seeds(1 - me) as i32,
                }
            } else if sown.again {
                self.solve(&sown.board)
            } else {
                -self.solve(&sown.board)
            };
            scored.push((house, value));
        }
        let best = scored.iter().map(|&(_, v)| v).max()?;
        let ties: Vec<(usize, i32)> = scored.into_iter().filter(|&(_, v)| v == best).collect();
        let index = pick(ties.len()).min(ties.len() - 1);
        Some(ties[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(houses: usize, seeds: u8, rules: Rules) -> i32 {
        let board = Board::start(houses, seeds).unwrap_or_else(|e| unreachable!("{e}"));
        Solver::new(rules).solve(&board)
    }

    #[test]
    fn small_boards_have_their_published_values() {
        // Irving, Donkers and Uiterwijk (2000), empty-capture rules: first player's margin.
        assert_eq!(value(4, 2, Rules::EmptyCapture), 6);
        assert_eq!(value(4, 3, Rules::EmptyCapture), 8);
        assert_eq!(value(4, 4, Rules::EmptyCapture), 2);
        assert_eq!(value(5, 2, Rules::EmptyCapture), 0);
        assert_eq!(value(6, 1, Rules::EmptyCapture), 2);
    }

    #[test]
    fn a_one_bucket_table_still_gives_exact_values() {
        // Every store evicts: bounds, best moves and transposition cut-offs come and go.
        for (houses, seeds, rules, expected) in [
            (4, 3, Rules::EmptyCapture, 8),
            (4, 2, Rules::EmptyCapture, 6),
            (5, 2, Rules::Standard, value(5, 2, Rules::Standard)),
        ] {
            let board = Board::start(houses, seeds).unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!(Solver::with_table_mb(rules, 0).solve(&board), expected, "({houses},{seeds})");
        }
    }

    #[test]
    fn the_best_move_keeps_the_value_and_seed_rules_give_a_result() {
        let board = Board::start(4, 2).unwrap_or_else(|e| unreachable!("{e}"));
        let mut solver = Solver::new(Rules::EmptyCapture);
        let best = solver.best_move(&board, &mut |_| 0).map(|(_, v)| v);
        assert_eq!(best, Some(6));
        let seed = value(4, 3, Rules::Seed);
        assert!(seed == 1 || seed == -1);
    }
}
