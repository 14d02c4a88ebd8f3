//! Polyglot opening books (`.bin`): 16-byte big-endian entries (key, move, weight, learn)
//! sorted by key. A position's moves are found by binary search on its Polyglot key and one is
//! picked at random in proportion to its weight. Only moves legal in the position are returned.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod polyglot_random;

use crate::movegen::{generate_legal, MoveList};
use crate::position::{CastleSide, Position};
use crate::types::{Color, Move, Piece, Square};
use polyglot_random::POLYGLOT_RANDOM;
use std::fmt;
use std::path::Path;

const ENTRY_BYTES: usize = 16;

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The Polyglot key of the position.
    pub key: u64,
    /// The move in Polyglot encoding (to, from, promotion; castling as king takes rook).
    pub raw_move: u16,
    /// How often to play it, relative to the position's other moves.
    pub weight: u16,
}

/// A book that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read.
    Unreadable(String),
    /// The file is not a Polyglot book.
    Malformed(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Unreadable(reason) => write!(f, "cannot read the book: {reason}"),
            BookError::Malformed(reason) => write!(f, "not a Polyglot book: {reason}"),
        }
    }
}

impl std::error::Error for BookError {}

/// A loaded opening book.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// Reads a book file.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|e| BookError::Unreadable(format!("{}: {e}", path.display())))?;
        Book::from_bytes(&bytes)
    }

    /// A book from the bytes of a `.bin` file: a whole number of entries, sorted by key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.is_empty() {
            return Err(BookError::Malformed("the file is empty".to_string()));
        }
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(BookError::Malformed(format!(
                "{} bytes is not a whole number of 16-byte entries",
                bytes.len()
            )));
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_BYTES)
            .map(|chunk| {
                let mut key = [0u8; 8];
                key.copy_from_slice(&chunk[..8]);
                Entry {
                    key: u64::from_be_bytes(key),
                    raw_move: u16::from_be_bytes([chunk[8], chunk[9]]),
                    weight: u16::from_be_bytes([chunk[10], chunk[11]]),
                }
            })
            .collect();
        if entries.windows(2).any(|pair| pair[0].key > pair[1].key) {
            return Err(BookError::Malformed("the entries are not sorted by key".to_string()));
        }
        Ok(Book { entries })
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The legal book moves of `pos` with their weights.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u16)> {
        let key = polyglot_key(pos);
        let start = self.entries.partition_point(|e| e.key < key);
        let mut legal = MoveList::new();
        generate_legal(pos, &mut legal);
        self.entries[start..]
            .iter()
            .take_while(|e| e.key == key)
            .filter_map(|e| decode_move(e.raw_move, &legal).map(|mv| (mv, e.weight)))
            .collect()
    }

    /// A book move for `pos`, drawn in proportion to the weights with `random` (any u64; equal
    /// weights when every weight is zero), or `None` when the book has nothing here.
    pub fn pick(&self, pos: &Position, random: u64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return moves.get((random % moves.len().max(1) as u64) as usize).map(|&(mv, _)| mv);
        }
        let mut ticket = random % total;
        for &(mv, weight) in &moves {
            if ticket < u64::from(weight) {
                return Some(mv);
            }
            ticket -= u64::from(weight);
        }
        None
    }
}

/// The legal move a Polyglot move encoding names.
fn decode_move(raw: u16, legal: &MoveList) -> Option<Move> {
    let to = Square::from_index((raw & 63) as u8);
    let from = Square::from_index((raw >> 6 & 63) as u8);
    let promotion = match raw >> 12 & 7 {
        0 => None,
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        4 => Some(Piece::Queen),
        _ => return None,
    };
    // Our castling is king-takes-rook too, so every kind of move compares by squares.
    legal.iter().copied().find(|mv| mv.from() == from && mv.to() == to && mv.promotion() == promotion)
}

/// The Polyglot encoding of `mv` (for writing books).
pub fn encode_move(mv: Move) -> u16 {
    let promotion = match mv.promotion() {
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        Some(Piece::Queen) => 4,
        _ => 0,
    };
    mv.to() as u16 | (mv.from() as u16) << 6 | promotion << 12
}

/// The Polyglot key of `pos`, computed from scratch.
pub fn polyglot_key(pos: &Position) -> u64 {
    let mut key = 0;
    for sq in pos.occupied() {
        if let (Some(piece), Some(color)) = (pos.piece_on(sq), pos.color_on(sq)) {
            // Kinds are ordered black pawn, white pawn, black knight, ... white king.
            let kind = 2 * piece.index() + usize::from(color == Color::White);
            key ^= POLYGLOT_RANDOM[64 * kind + sq.index()];
        }
    }
    let rights = pos.castling_rights();
    for (i, (color, side)) in [
        (Color::White, CastleSide::King),
        (Color::White, CastleSide::Queen),
        (Color::Black, CastleSide::King),
        (Color::Black, CastleSide::Queen),
    ]
    .into_iter()
    .enumerate()
    {
        if rights.has(color, side) {
            key ^= POLYGLOT_RANDOM[768 + i];
        }
    }
    if let Some(ep) = pos.en_passant() {
        // Only when a pawn of the side to move stands beside the pawn that just advanced.
        let us = pos.side_to_move();
        if (crate::attacks::pawn(!us, ep) & pos.pieces(us, Piece::Pawn)).is_nonempty() {
            key ^= POLYGLOT_RANDOM[772 + ep.file().index()];
        }
    }
    if pos.side_to_move() == Color::White {
        key ^= POLYGLOT_RANDOM[780];
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polyglot_keys_match_the_published_examples() {
        // The format's reference keys (start position and positions after 1. e4, 1... d5).
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b_9618_1691_fc9c),
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c_9b50_fd11_4196),
            ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756_b944_61c5_0fb0),
            ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662f_afb9_65db_29d4),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a4_8b5a_8e47_ff78),
        ];
        for (fen, expected) in cases {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!(polyglot_key(&pos), expected, "{fen}");
        }
    }

    fn book_bytes(entries: &[(u64, Move, u16)]) -> Vec<u8> {
        let mut sorted = entries.to_vec();
        sorted.sort_by_key(|e| e.0);
        let mut bytes = Vec::new();
        for (key, mv, weight) in sorted {
            bytes.extend_from_slice(&key.to_be_bytes());
            bytes.extend_from_slice(&encode_move(mv).to_be_bytes());
            bytes.extend_from_slice(&weight.to_be_bytes());
            bytes.extend_from_slice(&0u32.to_be_bytes());
        }
        bytes
    }

    #[test]
    fn a_tiny_book_gives_its_moves_by_weight() {
        let start = Position::startpos();
        let key = polyglot_key(&start);
        let e4 = Move::new(Square::E2, Square::E4, crate::types::MoveKind::DOUBLE_PUSH);
        let d4 = Move::new(Square::D2, Square::D4, crate::types::MoveKind::DOUBLE_PUSH);
        let bogus = Move::new(Square::E2, Square::E5, crate::types::MoveKind::QUIET);
        let book = Book::from_bytes(&book_bytes(&[(key, e4, 3), (key, d4, 1), (key, bogus, 50), (key ^ 1, d4, 9)]))
            .unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(book.moves(&start), vec![(e4, 3), (d4, 1)]);
        let picks: Vec<Move> = (0..4).filter_map(|r| book.pick(&start, r)).collect();
        assert_eq!(picks, vec![e4, e4, e4, d4]);
        assert_eq!(book.pick(&start.after(e4), 0), None);
    }

    #[test]
    fn malformed_books_are_refused() {
        assert!(matches!(Book::from_bytes(&[]), Err(BookError::Malformed(_))));
        assert!(matches!(Book::from_bytes(&[0; 17]), Err(BookError::Malformed(_))));
        let mut unsorted = vec![0u8; 32];
        unsorted[0] = 1;
        assert!(matches!(Book::from_bytes(&unsorted), Err(BookError::Malformed(_))));
        assert!(matches!(Book::open(Path::new("/nonexistent/book.bin")), Err(BookError::Unreadable(_))));
    }

    #[test]
    fn castling_in_a_book_is_king_takes_rook() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap_or_else(|e| unreachable!("{e}"));
        let mut legal = MoveList::new();
        generate_legal(&pos, &mut legal);
        let raw = Square::H1 as u16 | (Square::E1 as u16) << 6;
        assert!(decode_move(raw, &legal).is_some_and(|mv| mv.is_castle()));
    }
}
