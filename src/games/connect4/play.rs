//! Connect Four players by level, after the founding program: alpha-beta to a depth set by the
//! level, moves tried centre first, an evaluation that counts the four-in-a-rows still open to
//! each side, and a random pick among equally good moves. The perfect level plays the solver's
//! moves once `PERFECT_FROM_STONES` stones are on the board (every move there is solved within
//! seconds) and, before that, the centre on the empty board (the only winning first move) and
//! the deepest search otherwise.

use super::solver::Solver;
use super::{Position, CELLS, COLUMN_BITS, HEIGHT, ODD_ROWS, WIDTH};
use crate::games::TieBreaker;

/// Levels 1-7 search 2 x level - 1 plies; 8 plays perfectly once the solver is fast.
pub const PERFECT_LEVEL: u8 = 8;
/// The perfect level solves exactly from this many stones on.
pub const PERFECT_FROM_STONES: usize = 12;
/// Plies searched per level below the perfect one.
const PLIES_PER_LEVEL: u32 = 2;
/// The perfect level's search depth before the solver takes over.
const PERFECT_FALLBACK_DEPTH: u32 = 13;
/// Columns, centre first.
const CENTRE_FIRST: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];
/// A won game, above every evaluation (less the stones played, so sooner is better).
const WIN: i32 = 100_000;
/// An open line's worth by the stones already in it (1, 2 or 3).
const OPEN_LINE_WEIGHT: [i32; 4] = [0, 2, 6, 40];
/// The transposition table of the solver the perfect level uses (2^LOG2 entries).
const SOLVER_TABLE_LOG2: u32 = 23;

/// Every four-in-a-row on the board as a mask (69 of them).
fn lines() -> &'static [u64] {
    static LINES: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        let cell = |col: i32, row: i32| 1u64 << (col as usize * COLUMN_BITS + row as usize);
        let inside = |col: i32, row: i32| (0..WIDTH as i32).contains(&col) && (0..HEIGHT as i32).contains(&row);
        let mut lines = Vec::new();
        for col in 0..WIDTH as i32 {
            for row in 0..HEIGHT as i32 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if inside(col + 3 * dc, row + 3 * dr) {
                        lines.push((0..4).map(|k| cell(col + k * dc, row + k * dr)).fold(0, |a, b| a | b));
                    }
                }
            }
        }
        lines
    })
}

/// The side to move's open lines less the opponent's, each weighted by the stones in it; a
/// line that needs one more stone on a cell of its owner's parity counts twice.
pub fn evaluate(pos: &Position) -> i32 {
    let (mine, theirs) = (pos.current, pos.current ^ pos.occupied);
    let first_to_move = pos.moves().is_multiple_of(2);
    let good_rows = |side_is_first: bool| if side_is_first { ODD_ROWS } else { !ODD_ROWS };
    let value = |line: u64, stones: u64, side_is_first: bool| {
        let n = (line & stones).count_ones();
        let parity = n == 3 && line & !stones & good_rows(side_is_first) != 0;
        OPEN_LINE_WEIGHT[n.min(3) as usize] * if parity { 2 } else { 1 }
    };
    lines()
        .iter()
        .map(|&line| match (line & mine != 0, line & theirs != 0) {
            (true, false) => value(line, mine, first_to_move),
            (false, true) => -value(line, theirs, !first_to_move),
            _ => 0,
        })
        .sum()
}

/// A computer player.
pub struct Player {
    level: u8,
    solver: Option<Solver>,
    ties: TieBreaker,
}

impl Player {
    /// A player of `level` (1..=`PERFECT_LEVEL`); `seed` drives its choices among equal moves.
    pub fn new(level: u8, seed: u64) -> Player {
        let level = level.clamp(1, PERFECT_LEVEL);
        let solver = (level == PERFECT_LEVEL).then(|| Solver::new(SOLVER_TABLE_LOG2));
        Player { level, solver, ties: TieBreaker::new(seed) }
    }

    /// The column (0-based) this player drops into; `None` if the board is full.
    pub fn choose(&mut self, pos: &Position) -> Option<usize> {
        let legal: Vec<usize> = CENTRE_FIRST.into_iter().filter(|&c| pos.can_play(c)).collect();
        if legal.is_empty() {
            return None;
        }
        if let Some(&win) = legal.iter().find(|&&c| pos.is_winning_move(c)) {
            return Some(win);
        }
        let scored: Vec<(usize, i32)> = if self.level == PERFECT_LEVEL && pos.moves() == 0 {
            vec![(CENTRE_FIRST[0], 0)]
        } else if let Some(solver) = self.solver.as_mut().filter(|_| pos.moves() >= PERFECT_FROM_STONES) {
            legal.iter().map(|&c| (c, solved_value(solver, pos, c))).collect()
        } else {
            let depth = if self.level == PERFECT_LEVEL {
                PERFECT_FALLBACK_DEPTH
            } else {
                PLIES_PER_LEVEL * u32::from(self.level) - 1
            };
            root_values(pos, &legal, depth)
        };
        let best = scored.iter().map(|&(_, v)| v).max()?;
        let ties: Vec<usize> = scored.into_iter().filter(|&(_, v)| v == best).map(|(c, _)| c).collect();
        Some(ties[self.ties.below(ties.len())])
    }
}

/// The exact score of dropping into `col` (no immediate win there) for the side to move.
fn solved_value(solver: &mut Solver, pos: &Position, col: usize) -> i32 {
    let mut child = *pos;
    child.play(col);
    if child.moves() == CELLS {
        0
    } else {
        -solver.solve(&child, false)
    }
}

/// Each legal column's value to `depth` plies: exact for the best ones, an upper bound below
/// the best for the rest (each is searched with a window from just under the best so far).
fn root_values(pos: &Position, legal: &[usize], depth: u32) -> Vec<(usize, i32)> {
    let mut best = -WIN - 1;
    let mut scored = Vec::with_capacity(legal.len());
    for &col in legal {
        let mut child = *pos;
        child.play(col);
        let value = -search(&child, depth - 1, -WIN - 1, -(best - 1));
        best = best.max(value);
        scored.push((col, value));
    }
    scored
}

/// Negamax alpha-beta to `depth` plies, centre first; `evaluate` at the horizon.
fn search(pos: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if pos.can_win_next() {
        return WIN - pos.moves() as i32;
    }
    if pos.moves() >= CELLS - 1 {
        // The last stone cannot win (checked above): a draw.
        return 0;
    }
    if depth == 0 {
        return evaluate(pos);
    }
    let mut best = -WIN - 1;
    for col in CENTRE_FIRST.into_iter().filter(|&c| pos.can_play(c)) {
        let mut child = *pos;
        child.play(col);
        let value = -search(&child, depth - 1, -beta, -alpha);
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Plays a game between `players` (the first moves first) from `pos`: 1 if the first player
/// wins, -1 if the second does, 0 for a draw.
pub fn play_game(mut pos: Position, players: &mut [Player; 2]) -> i32 {
    let first_to_move = pos.moves() % 2;
    loop {
        let mover = (pos.moves() + first_to_move) % 2;
        let Some(col) = players[mover].choose(&pos) else {
            return 0;
        };
        if pos.is_winning_move(col) {
            return if mover == 0 { 1 } else { -1 };
        }
        pos.play(col);
        if pos.moves() == CELLS {
            return 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_evaluation_is_zero_sum_and_counts_open_lines() {
        assert_eq!(lines().len(), 69);
        assert_eq!(evaluate(&Position::empty()), 0);
        // One stone in the centre of the bottom row: 7 one-stone lines through it for the side
        // that played it, seen from the side to move (the other one).
        let pos = Position::from_moves("4").unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(evaluate(&pos), -7 * OPEN_LINE_WEIGHT[1]);
        // O replies on top of it: X keeps 6 lines (its vertical is blocked), O has 9 through the
        // second-row cell (4 horizontal, 1 vertical, 2 on each diagonal); X is to move.
        let pos = Position::from_moves("44").unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(evaluate(&pos), (6 - 9) * OPEN_LINE_WEIGHT[1]);
    }

    #[test]
    fn every_level_takes_a_win_and_blocks_a_loss() {
        // X (to move) has three in column 1; O threatens column 2 too.
        let win = Position::from_moves("121212").unwrap_or_else(|e| unreachable!("{e}"));
        // O (to move) must block column 1.
        let block = Position::from_moves("12121").unwrap_or_else(|e| unreachable!("{e}"));
        for level in 1..=PERFECT_LEVEL {
            let mut player = Player::new(level, 7);
            assert_eq!(player.choose(&win), Some(0), "level {level}");
            assert_eq!(player.choose(&block), Some(0), "level {level}");
        }
    }

    #[test]
    fn a_deeper_level_beats_a_shallow_one() {
        let mut deep_wins = 0;
        for game in 0..10u64 {
            let deep_first = game % 2 == 0;
            let (first, second) = if deep_first { (4, 1) } else { (1, 4) };
            let mut players = [Player::new(first, game), Player::new(second, game + 100)];
            let result = play_game(Position::empty(), &mut players);
            if result == if deep_first { 1 } else { -1 } {
                deep_wins += 1;
            }
        }
        assert!(deep_wins >= 8, "level 4 won {deep_wins} of 10 against level 1");
    }
}
