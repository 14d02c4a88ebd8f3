//! Kalah players by level, as in the founding BASIC program: level N searches N moves ahead
//! (a move that earns another counts as one), alpha-beta with moves into the own store first,
//! scores the store difference at the horizon (under seed rules, less the seeds in the own houses,
//! see `horizon_value`), and picks at random among equally good moves.
//! The perfect level solves the game exactly once few enough seeds are left in the houses, and
//! searches `PERFECT_FALLBACK_DEPTH` moves before that (the opening of a large board is beyond
//! an exact solve in play).

use super::solver::Solver;
use super::{Board, Rules};
use crate::games::TieBreaker;

/// The founding program's six levels, then perfect play.
pub const PERFECT_LEVEL: u8 = 7;
/// The perfect level solves exactly with at most this many seeds left in the houses.
pub const PERFECT_SEEDS: u32 = 36;
/// The perfect level's search depth before that.
const PERFECT_FALLBACK_DEPTH: u32 = 12;
/// A won or lost game, beyond every horizon value.
const DECIDED: i32 = 1000;
/// Under seed rules, a seed in the store counts this many times a seed in the houses (with the
/// opposite sign; measured in docs/games.md).
const SEED_RULES_STORE_WEIGHT: i32 = 3;

/// A computer player.
pub struct Player {
    level: u8,
    rules: Rules,
    solver: Option<Solver>,
    ties: TieBreaker,
}

impl Player {
    /// A player of `level` (1..=`PERFECT_LEVEL`) under `rules`; `seed` drives its choices among
    /// equal moves.
    pub fn new(level: u8, rules: Rules, seed: u64) -> Player {
        let solver = (level >= PERFECT_LEVEL).then(|| Solver::new(rules));
        Player { level: level.clamp(1, PERFECT_LEVEL), rules, solver, ties: TieBreaker::new(seed) }
    }

    /// The house (0 = farthest from the store) this player sows; `None` if it has no move.
    pub fn choose(&mut self, board: &Board) -> Option<usize> {
        let mut ties = TieBreaker::new(self.ties.next_u64());
        let mut pick = move |n: usize| ties.below(n);
        let left = board.house_seeds(0) + board.house_seeds(1);
        if let Some(solver) = self.solver.as_mut().filter(|_| left <= PERFECT_SEEDS) {
            return solver.best_move(board, &mut pick).map(|(house, _)| house);
        }
        let depth = if self.level >= PERFECT_LEVEL { PERFECT_FALLBACK_DEPTH } else { u32::from(self.level) };
        let mut scored = Vec::new();
        for house in (0..board.houses()).filter(|&h| board.is_legal(h)) {
            scored.push((house, self.move_value(board, house, depth)));
        }
        let best = scored.iter().map(|&(_, v)| v).max()?;
        let ties: Vec<usize> = scored.into_iter().filter(|&(_, v)| v == best).map(|(h, _)| h).collect();
        Some(ties[pick(ties.len())])
    }

    /// The value of sowing `house` for the side to move, searching `depth` moves in all.
    fn move_value(&self, board: &Board, house: usize, depth: u32) -> i32 {
        let me = board.side();
        let sown = board.sow(house, self.rules);
        if sown.over {
            return self.final_value(&sown.board, me);
        }
        if sown.again {
            self.search(&sown.board, depth - 1, -DECIDED - 1, DECIDED + 1)
        } else {
            -self.search(&sown.board, depth - 1, -DECIDED - 1, DECIDED + 1)
        }
    }

    /// The value of a finished game for `me`: a win or loss under seed rules, else the margin.
    fn final_value(&self, board: &Board, me: usize) -> i32 {
        let margin = board.store_seeds(me) as i32 - board.store_seeds(1 - me) as i32;
        match self.rules {
            Rules::Seed if 2 * board.store_seeds(me) > board.total_seeds() || board.side() != me => DECIDED,
            Rules::Seed => -DECIDED,
            _ => margin.signum() * DECIDED + margin,
        }
    }

    /// The value of `board` for the side to move at the horizon: the store difference; under
    /// seed rules, where the seeds left on a side are not banked at the end, the store
    /// difference times `SEED_RULES_STORE_WEIGHT` minus the house difference (a seed in the own
    /// houses can only be sown on, much of it into the opponent's houses, or be captured).
    fn horizon_value(&self, board: &Board) -> i32 {
        let me = board.side();
        let difference = |of: fn(&Board, usize) -> u32| of(board, me) as i32 - of(board, 1 - me) as i32;
        match self.rules {
            Rules::Seed => SEED_RULES_STORE_WEIGHT * difference(Board::store_seeds) - difference(Board::house_seeds),
            _ => difference(Board::store_seeds),
        }
    }

    /// Negamax alpha-beta to `depth` moves; `horizon_value` at the horizon.
    fn search(&self, board: &Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        let me = board.side();
        if depth == 0 {
            return self.horizon_value(board);
        }
        let mut moves: Vec<usize> = (0..board.houses()).rev().filter(|&h| board.is_legal(h)).collect();
        if moves.is_empty() {
            // Only a given position leaves the side to move without a move.
            return if self.rules == Rules::Seed { -DECIDED } else { 0 };
        }
        let to_store = |house: usize| usize::from(board.seeds_in(house)) == board.houses() - house;
        moves.sort_by_key(|&h| !to_store(h));
        let mut best = -DECIDED - 1;
        for house in moves {
            let sown = board.sow(house, self.rules);
            let value = if sown.over {
                self.final_value(&sown.board, me)
            } else if sown.again {
                self.search(&sown.board, depth - 1, alpha, beta)
            } else {
                -self.search(&sown.board, depth - 1, -beta, -alpha)
            };
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The result of a game between two players from `board`: the final margin for player 0 (the
/// side to move at the start), or under seed rules 1 / -1.
pub fn play_game(board: Board, rules: Rules, players: &mut [Player; 2]) -> i32 {
    let first = board.side();
    let mut board = board;
    loop {
        let mover = board.side();
        let Some(house) = players[mover].choose(&board) else {
            // A side without a move: it loses under seed rules; otherwise the game is over.
            return match rules {
                Rules::Seed if mover == first => -1,
                Rules::Seed => 1,
                _ => board.store_seeds(first) as i32 - board.store_seeds(1 - first) as i32,
            };
        };
        let sown = board.sow(house, rules);
        board = sown.board;
        if sown.over {
            return match (rules, board.winner(rules, mover)) {
                (Rules::Seed, Some(winner)) if winner == first => 1,
                (Rules::Seed, _) => -1,
                _ => board.store_seeds(first) as i32 - board.store_seeds(1 - first) as i32,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deeper_level_beats_a_shallow_one_and_perfect_play_keeps_the_value() {
        // Seed rules, Kalah(6,6): level 4 against level 1, each side first in turn.
        let board = Board::start(6, 6).unwrap_or_else(|e| unreachable!("{e}"));
        let mut deep_wins = 0;
        for game in 0..20u64 {
            let deep_first = game % 2 == 0;
            let (a, b) = if deep_first { (4, 1) } else { (1, 4) };
            let mut players = [Player::new(a, Rules::Seed, game + 1), Player::new(b, Rules::Seed, game + 101)];
            let result = play_game(board, Rules::Seed, &mut players);
            deep_wins += usize::from((result > 0) == deep_first);
        }
        assert!(deep_wins >= 14, "level 4 won only {deep_wins} of 20 against level 1");

        // Level 6 against level 3, as `kalah match --levels 6 3 --rules seed --games 100 --seed 1`
        // (97 wins with the horizon value; 90 with the store difference alone).
        let mut level_six_wins = 0;
        for game in 0..100u64 {
            let six_first = game % 2 == 0;
            let seed = 1_000_003 + 2 * game;
            let (a, b) = if six_first { (6, 3) } else { (3, 6) };
            let mut players = [Player::new(a, Rules::Seed, seed), Player::new(b, Rules::Seed, seed + 1)];
            let result = play_game(board, Rules::Seed, &mut players);
            level_six_wins += usize::from((result > 0) == six_first);
        }
        assert!(level_six_wins >= 93, "level 6 won only {level_six_wins} of 100 against level 3");

        // Kalah(4,3), empty-capture: worth +8 to the first player; perfect play gets all of it.
        let small = Board::start(4, 3).unwrap_or_else(|e| unreachable!("{e}"));
        for seed in 1..=4 {
            let mut players =
                [Player::new(PERFECT_LEVEL, Rules::EmptyCapture, seed), Player::new(3, Rules::EmptyCapture, seed)];
            assert!(play_game(small, Rules::EmptyCapture, &mut players) >= 8);
        }
    }
}
