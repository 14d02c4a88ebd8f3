//! Connect Four ("Vier gewinnt", 7 columns x 6 rows) on bitboards: one bit per cell and a
//! sentinel bit above each column (7 bits a column), the side to move's stones and the occupied
//! cells. Wins are found by shifts along the four directions; `key` is unique per position.

pub mod play;
pub mod solver;

use std::fmt;

/// Columns.
pub const WIDTH: usize = 7;
/// Rows.
pub const HEIGHT: usize = 6;
/// Cells on the board.
pub const CELLS: usize = WIDTH * HEIGHT;
/// The bits of one column, sentinel included.
const COLUMN_BITS: usize = HEIGHT + 1;
/// The bottom cell of every column.
const BOTTOM: u64 = {
    let mut mask = 0;
    let mut col = 0;
    while col < WIDTH {
        mask |= 1 << (col * COLUMN_BITS);
        col += 1;
    }
    mask
};
/// Every playable cell (no sentinels).
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
/// Rows 1, 3 and 5 (counting from 1 at the bottom): the cells the first player ends up with when
/// the second answers every stone on top of it ("claimeven"), and so the rows where a threat is
/// worth most to the first player; rows 2, 4 and 6 are the second player's.
pub(crate) const ODD_ROWS: u64 = BOTTOM * 0b10101;

/// The cells of column `col`.
const fn column_mask(col: usize) -> u64 {
    ((1 << HEIGHT) - 1) << (col * COLUMN_BITS)
}

/// The top cell of column `col`.
const fn top_cell(col: usize) -> u64 {
    1 << (HEIGHT - 1 + col * COLUMN_BITS)
}

/// The cells that would complete a four of `stones`, empty or not (callers mask them).
fn winning_cells(stones: u64) -> u64 {
    // Vertical: three stones below.
    let mut wins = (stones << 1) & (stones << 2) & (stones << 3);
    // Horizontal (shift by a column), then the two diagonals (a column plus or minus a row).
    for shift in [COLUMN_BITS, COLUMN_BITS - 1, COLUMN_BITS + 1] {
        let pair = (stones << shift) & (stones << (2 * shift));
        wins |= pair & (stones << (3 * shift)); // three to one side
        wins |= pair & (stones >> shift); // two to one side, one to the other
        let pair = (stones >> shift) & (stones >> (2 * shift));
        wins |= pair & (stones << shift);
        wins |= pair & (stones >> (3 * shift));
    }
    wins & BOARD
}

/// Whether `stones` hold four in a row.
fn has_four(stones: u64) -> bool {
    [1, COLUMN_BITS, COLUMN_BITS - 1, COLUMN_BITS + 1].into_iter().any(|shift| {
        let pairs = stones & (stones >> shift);
        pairs & (pairs >> (2 * shift)) != 0
    })
}

/// A Connect Four position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The side to move's stones.
    current: u64,
    /// Every stone.
    occupied: u64,
    /// Stones played.
    moves: usize,
}

/// Why a move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a column digit 1-7.
    NotAColumn { index: usize, found: char },
    /// The column is full.
    FullColumn { index: usize, column: usize },
    /// The game was already won before this move.
    GameOver { index: usize },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NotAColumn { index, found } => {
                write!(f, "move {}: '{found}' is not a column (1 to {WIDTH})", index + 1)
            }
            MoveError::FullColumn { index, column } => write!(f, "move {}: column {column} is full", index + 1),
            MoveError::GameOver { index } => write!(f, "move {}: the game was already won", index + 1),
        }
    }
}

impl std::error::Error for MoveError {}

impl Default for Position {
    fn default() -> Position {
        Position::empty()
    }
}

impl Position {
    /// The empty board.
    pub const fn empty() -> Position {
        Position { current: 0, occupied: 0, moves: 0 }
    }

    /// The position after `moves`, 1-based column digits from the empty board; a full column,
    /// a non-digit or a move after a win is an error.
    pub fn from_moves(moves: &str) -> Result<Position, MoveError> {
        let mut pos = Position::empty();
        for (index, found) in moves.chars().enumerate() {
            let column = found.to_digit(10).map(|d| d as usize).filter(|d| (1..=WIDTH).contains(d));
            let Some(column) = column else {
                return Err(MoveError::NotAColumn { index, found });
            };
            if !pos.can_play(column - 1) {
                return Err(MoveError::FullColumn { index, column });
            }
            if pos.is_winning_move(column - 1) && index + 1 < moves.chars().count() {
                return Err(MoveError::GameOver { index: index + 1 });
            }
            if pos.is_winning_move(column - 1) {
                // The last move wins: a finished game has no value for the side to move.
                return Err(MoveError::GameOver { index });
            }
            pos.play(column - 1);
        }
        Ok(pos)
    }

    /// Stones played so far.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// A key unique to the position (the side to move's stones plus one bit above each
    /// column's top stone).
    pub fn key(&self) -> u64 {
        self.current + self.occupied
    }

    /// The key of the mirror image (columns reversed): the same position for a solver, which
    /// stores the smaller of the two keys.
    pub fn mirrored_key(&self) -> u64 {
        let key = self.key();
        let column = (1 << COLUMN_BITS) - 1;
        (0..WIDTH).fold(0, |mirrored, col| {
            mirrored | ((key >> (col * COLUMN_BITS)) & column) << ((WIDTH - 1 - col) * COLUMN_BITS)
        })
    }

    /// The key shared by the position and its mirror image.
    pub fn symmetric_key(&self) -> u64 {
        self.key().min(self.mirrored_key())
    }

    /// Whether column `col` (0-based) has room.
    pub fn can_play(&self, col: usize) -> bool {
        col < WIDTH && self.occupied & top_cell(col) == 0
    }

    /// Drops a stone of the side to move into column `col` (0-based), which must have room.
    pub fn play(&mut self, col: usize) {
        self.play_cell((self.occupied + (1 << (col * COLUMN_BITS))) & column_mask(col));
    }

    /// Plays the move that fills `cell` (the lowest empty cell of its column).
    fn play_cell(&mut self, cell: u64) {
        self.current ^= self.occupied;
        self.occupied |= cell;
        self.moves += 1;
    }

    /// The cells where a stone can be dropped now.
    fn playable(&self) -> u64 {
        (self.occupied + BOTTOM) & BOARD
    }

    /// Empty cells that would complete a four for the side to move.
    fn own_wins(&self) -> u64 {
        winning_cells(self.current) & !self.occupied
    }

    /// Empty cells that would complete a four for the opponent.
    fn opponent_wins(&self) -> u64 {
        winning_cells(self.current ^ self.occupied) & !self.occupied
    }

    /// Whether dropping into column `col` wins at once.
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.own_wins() & self.playable() & column_mask(col) != 0
    }

    /// Whether the side to move can win with its next stone.
    pub fn can_win_next(&self) -> bool {
        self.own_wins() & self.playable() != 0
    }

    /// The playable cells that do not lose at once: a forced block if the opponent threatens
    /// one win, nothing if it threatens two, and never a cell just below an opponent's win.
    /// Meaningful only when the side to move cannot win next.
    fn non_losing_cells(&self) -> u64 {
        let mut playable = self.playable();
        let threats = self.opponent_wins();
        let forced = playable & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            playable = forced;
        }
        playable & !(threats >> 1)
    }

    /// An upper bound on the side to move's score from the second player's "claimeven": when
    /// every column has an even number of empty cells (so the first player is to move), the
    /// second player can answer each stone on top of it and so take every empty cell on rows 2,
    /// 4 and 6, leaving the first player those on rows 1, 3 and 5. If the first player has no
    /// four among its stones and those cells it cannot win (at most 0); if the second player
    /// also has a four among its own and the even-row cells, it loses (at most -1).
    fn claimeven_bound(&self) -> Option<i32> {
        let next_cells = self.occupied + BOTTOM;
        if next_cells & !ODD_ROWS & BOARD != 0 {
            return None; // a column with an odd number of empty cells
        }
        let empty = BOARD & !self.occupied;
        if has_four(self.current | (empty & ODD_ROWS)) {
            return None;
        }
        let theirs = self.current ^ self.occupied;
        Some(if has_four(theirs | (empty & !ODD_ROWS)) { -1 } else { 0 })
    }

    /// How many cells would complete a four for the side to move after it plays `cell`: the
    /// threats it would have (move ordering).
    fn threats_after(&self, cell: u64) -> u32 {
        (winning_cells(self.current | cell) & !(self.occupied | cell)).count_ones()
    }
}

impl fmt::Display for Position {
    /// The board, top row first: `X` the first player, `O` the second, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = if self.moves.is_multiple_of(2) { self.current } else { self.current ^ self.occupied };
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                let cell = 1u64 << (col * COLUMN_BITS + row);
                let c = if self.occupied & cell == 0 {
                    '.'
                } else if first & cell != 0 {
                    'X'
                } else {
                    'O'
                };
                write!(f, "{c}")?;
                if col + 1 < WIDTH {
                    write!(f, " ")?;
                }
            }
            writeln!(f)?;
        }
        write!(f, "1 2 3 4 5 6 7")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_are_found_in_every_direction() {
        let pos = |moves: &str| Position::from_moves(moves).unwrap_or_else(|e| unreachable!("{moves}: {e}"));
        // Vertical: X three times on column 1 (O on column 2), X to move.
        assert!(pos("121212").is_winning_move(0));
        // Horizontal: X on columns 1-3 of the bottom row (O above), X to move plays 4.
        assert!(pos("112233").is_winning_move(3));
        // Diagonal: X on (1,1), (2,2), (3,3); column 4 filled to its third row; X plays 4.
        let diagonal = pos("1223433474");
        assert!(diagonal.is_winning_move(3));
        assert!(!diagonal.is_winning_move(4));
        // Anti-diagonal: the mirror image of the same game.
        assert!(pos("7665455414").is_winning_move(3));
        // Two in a row is no threat.
        assert!(!pos("1727").can_win_next());
    }

    #[test]
    fn bad_move_strings_are_errors() {
        assert_eq!(Position::from_moves("128"), Err(MoveError::NotAColumn { index: 2, found: '8' }));
        assert_eq!(Position::from_moves("1a"), Err(MoveError::NotAColumn { index: 1, found: 'a' }));
        assert_eq!(Position::from_moves("1111111"), Err(MoveError::FullColumn { index: 6, column: 1 }));
        assert!(matches!(Position::from_moves("1212121"), Err(MoveError::GameOver { .. })));
        assert!(Position::from_moves("").is_ok_and(|p| p.moves() == 0));
    }

    #[test]
    fn keys_differ_where_positions_differ() {
        let mut keys = std::collections::HashSet::new();
        for moves in ["", "1", "2", "12", "21", "11", "44", "4444", "4445"] {
            let pos = Position::from_moves(moves).unwrap_or_else(|e| unreachable!("{e}"));
            assert!(keys.insert(pos.key()), "{moves}");
        }
        // The same stones reached in another order: the same key.
        let a = Position::from_moves("1234").map(|p| p.key());
        let b = Position::from_moves("3214").map(|p| p.key());
        assert_eq!(a, b);
        // Mirror images share the symmetric key and nothing else does.
        let key = |moves: &str| Position::from_moves(moves).map(|p| (p.key(), p.symmetric_key()));
        let (Ok((left, left_sym)), Ok((right, right_sym))) = (key("1123"), key("7765")) else {
            unreachable!("legal move strings")
        };
        assert_ne!(left, right);
        assert_eq!(left_sym, right_sym);
        assert_ne!(key("1123").map(|k| k.1), key("1124").map(|k| k.1));
        assert_eq!(key("44").map(|k| k.0), key("44").map(|k| k.1));
    }

    #[test]
    fn forced_blocks_and_double_threats() {
        // X has three stones in column 7: O must block there.
        let pos = Position::from_moves("71727").unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(pos.non_losing_cells().count_ones(), 1);
        assert_eq!(pos.non_losing_cells().trailing_zeros() as usize / COLUMN_BITS, 6);
        // X threatens both ends of an open three on the bottom row: O has no non-losing move.
        let pos = Position::from_moves("2232").map(|mut p| {
            p.play(3);
            p
        });
        let pos = pos.unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(pos.moves(), 5);
        assert_eq!(pos.non_losing_cells(), 0);
    }
}
