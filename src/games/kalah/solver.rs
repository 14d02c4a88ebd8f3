//! The Kalah solver: negamax alpha-beta to the end of the game with a table of bounds, moves
//! that sow into the own store first. Under standard and empty-capture rules a value is the
//! seeds the side to move will still gain over its opponent (its final margin less the current
//! store difference), which depends on the houses alone, so positions that differ only in
//! their stores share a table entry; the exact value is found by null-window searches that
//! narrow its interval. Under seed rules a value is a win (1) or a loss (-1).

use super::endgame::EndgameTable;
use super::{Board, Rules};
use std::sync::Arc;

/// Entries in the table, as a power of two.
const TABLE_BITS: u32 = 22;

/// A table entry: the key and the bounds proven for it.
#[derive(Clone, Copy)]
struct Entry {
    key: u128,
    lower: i16,
    upper: i16,
}

/// A solver for one rule set, keeping its table between positions of the same rules.
pub struct Solver {
    rules: Rules,
    table: Vec<Entry>,
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
    /// A solver for `rules` with an empty table.
    pub fn new(rules: Rules) -> Solver {
        let empty = Entry { key: u128::MAX, lower: i16::MIN, upper: i16::MAX };
        Solver { rules, table: vec![empty; 1 << TABLE_BITS], endgame: None, nodes: 0 }
    }

    /// Looks positions with few seeds left up in `endgame` instead of searching them.
    pub fn with_endgame(mut self, endgame: Arc<EndgameTable>) -> Solver {
        self.endgame = Some(endgame);
        self
    }

    fn slot(key: u128) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(17);
        (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - TABLE_BITS)) as usize
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
        while min < max {
            let probe = min + (max - min) / 2;
            let value = self.search(board, probe, probe + 1);
            if value <= probe {
                max = value;
            } else {
                min = value;
            }
        }
        stores + min
    }

    /// The value of `board` for the side to move in (alpha, beta) (see the module comment).
    fn search(&mut self, board: &Board, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.rules != Rules::Seed {
            // The side to move gains at most every seed left in the houses, and loses at most
            // as many: a window outside that range is decided already.
            let left = (board.house_seeds(0) + board.house_seeds(1)) as i32;
            if alpha >= left {
                return left;
            }
            if beta <= -left {
                return -left;
            }
            if let Some(value) = self.endgame.as_ref().and_then(|table| table.probe(board)) {
                return value;
            }
        }
        let key = self.key(board);
        let slot = Self::slot(key);
        let entry = self.table[slot];
        if entry.key == key {
            alpha = alpha.max(i32::from(entry.lower));
            beta = beta.min(i32::from(entry.upper));
            if alpha >= beta {
                return alpha;
            }
        }
        let (alpha_in, beta_in) = (alpha, beta);
        let mut best = i32::MIN;
        // Moves that end in the own store first (another move follows), then the house
        // nearest the store first.
        let mut moves = [0usize; super::MAX_HOUSES];
        let mut count = 0;
        for house in (0..board.houses()).rev().filter(|&h| board.is_legal(h)) {
            moves[count] = house;
            count += 1;
        }
        let to_store = |house: usize| usize::from(board.seeds_in(house)) == board.houses() - house;
        moves[..count].sort_by_key(|&h| !to_store(h));
        let me = board.side();
        if count == 0 {
            // Only a given position can leave the side to move without a move: under seed rules
            // it has lost; otherwise the game is over and each side banks its houses.
            return match self.rules {
                Rules::Seed => -1,
                _ => board.house_seeds(me) as i32 - board.house_seeds(1 - me) as i32,
            };
        }
        for &house in &moves[..count] {
            let sown = board.sow(house, self.rules);
            let value = if self.rules == Rules::Seed {
                if sown.over {
                    seed_rules_result(&sown.board, me)
                } else if sown.again {
                    self.search(&sown.board, alpha, beta)
                } else {
                    -self.search(&sown.board, -beta, -alpha)
                }
            } else {
                let now = gained(board, &sown.board, me);
                if sown.over {
                    now
                } else if sown.again {
                    now + self.search(&sown.board, alpha - now, beta - now)
                } else {
                    now - self.search(&sown.board, now - beta, now - alpha)
                }
            };
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        // Fail high: a lower bound; fail low: an upper bound; else exact.
        let mut stored = if entry.key == key { entry } else { Entry { key, lower: i16::MIN, upper: i16::MAX } };
        if best >= beta_in {
            stored.lower = stored.lower.max(best as i16);
        } else if best <= alpha_in {
            stored.upper = stored.upper.min(best as i16);
        } else {
            (stored.lower, stored.upper) = (best as i16, best as i16);
        }
        self.table[slot] = stored;
        best
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
    fn the_best_move_keeps_the_value_and_seed_rules_give_a_result() {
        let board = Board::start(4, 2).unwrap_or_else(|e| unreachable!("{e}"));
        let mut solver = Solver::new(Rules::EmptyCapture);
        let best = solver.best_move(&board, &mut |_| 0).map(|(_, v)| v);
        assert_eq!(best, Some(6));
        let seed = value(4, 3, Rules::Seed);
        assert!(seed == 1 || seed == -1);
    }
}
