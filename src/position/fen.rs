//! FEN parsing and printing. Parsing checks every field and returns a `FenError` naming the field
//! and the fault; it never panics. In standard chess a castling right needs the king on e1/e8 and
//! the rook in its corner (a right that lacks them is dropped and reported); in Chess960 castling
//! accepts KQkq, X-FEN and Shredder-FEN (rook files). Printing round-trips what was read.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::{CastleSide, CastlingRights, Position};
use crate::attacks;
use crate::types::{Bitboard, Color, File, Piece, Rank, Square};
use std::fmt;

/// Which chess a FEN describes: it decides which castling rights are possible.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Variant {
    /// Standard chess: castling only with the king on e1/e8 and the rook on its corner.
    #[default]
    Standard,
    /// Chess960 (Fischer random): any king and rook placement on the back rank.
    Chess960,
}

/// A castling right that a standard-chess FEN gave but standard chess cannot have: the parser
/// drops it (a GUI may send stale rights; playing on without them is the legal reading).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedRight {
    /// The castling letter as written.
    pub letter: char,
    /// What standard chess needs for it.
    pub reason: &'static str,
}

impl fmt::Display for DroppedRight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "castling right '{}' dropped: {} (a Chess960 position needs UCI_Chess960, or --chess960 on the command line)",
            self.letter, self.reason
        )
    }
}

/// A parsed FEN and the castling rights dropped from it.
#[derive(Clone, Debug)]
pub struct ParsedFen {
    pub position: Position,
    /// Rights dropped because standard chess cannot have them (always empty in Chess960).
    pub dropped: Vec<DroppedRight>,
}

/// Why a FEN string was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The FEN had this many space-separated fields instead of 4 to 6.
    FieldCount(usize),
    /// The piece placement is malformed on this rank (8 = the first rank written).
    Placement { rank: u8, reason: &'static str },
    /// A field other than the placement is malformed or contradicts the board.
    Field { name: &'static str, text: String, reason: &'static str },
    /// The fields are well formed but describe an illegal position.
    Illegal(&'static str),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "FEN has {n} fields; expected 4 to 6 (placement, side, castling, en passant, halfmove clock, fullmove number)"),
            FenError::Placement { rank, reason } => write!(f, "FEN placement, rank {rank}: {reason}"),
            FenError::Field { name, text, reason } => write!(f, "FEN {name} field '{text}': {reason}"),
            FenError::Illegal(reason) => write!(f, "illegal position: {reason}"),
        }
    }
}

impl std::error::Error for FenError {}

fn field_error(name: &'static str, text: &str, reason: &'static str) -> FenError {
    // Keep error messages short even when the input is huge.
    let text: String = text.chars().take(40).collect();
    FenError::Field { name, text, reason }
}

fn castling_syntax_error(text: &str) -> FenError {
    field_error("castling", text, "expected '-' or up to four of KQkq or rook files A-H a-h")
}

fn check_castling_length(text: &str) -> Result<(), FenError> {
    if text.is_empty() || text.len() > 4 {
        return Err(castling_syntax_error(text));
    }
    Ok(())
}

impl Position {
    /// Parses a standard-chess FEN (4 to 6 fields; missing counters default to `0 1`); castling
    /// rights that standard chess cannot have are dropped (`parse_fen` says which).
    ///
    /// ```
    /// use springer::position::{FenError, Position};
    /// assert!(Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1").is_ok());
    /// assert_eq!(Position::from_fen("8/8/8 w - -"), Err(FenError::Placement { rank: 5, reason: "expected 8 ranks separated by '/'" }));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(fen, Variant::Standard).map(|parsed| parsed.position)
    }

    /// Parses a FEN of `variant`, reporting the castling rights dropped in standard chess.
    ///
    /// ```
    /// use springer::position::{Position, Variant};
    /// let fen = "r3k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1";
    /// let standard = Position::parse_fen(fen, Variant::Standard).unwrap();
    /// assert_eq!(standard.position.to_fen(), "r3k2r/8/8/8/8/8/8/1R2K1R1 w kq - 0 1");
    /// assert_eq!(standard.dropped.len(), 2);
    /// let chess960 = Position::parse_fen(fen, Variant::Chess960).unwrap();
    /// assert_eq!(chess960.position.to_fen(), fen);
    /// ```
    pub fn parse_fen(fen: &str, variant: Variant) -> Result<ParsedFen, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        pos.parse_placement(fields[0])?;
        pos.side_to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(field_error("side to move", other, "expected 'w' or 'b'")),
        };
        pos.check_material()?;
        let dropped = match variant {
            Variant::Standard => pos.parse_standard_castling(fields[2])?,
            Variant::Chess960 => {
                pos.parse_chess960_castling(fields[2])?;
                Vec::new()
            }
        };
        pos.parse_en_passant(fields[3])?;
        pos.halfmove_clock = match fields.get(4) {
            Some(text) => text
                .parse()
                .map_err(|_| field_error("halfmove clock", text, "expected a whole number from 0 to 65535"))?,
            None => 0,
        };
        pos.fullmove_number = match fields.get(5) {
            Some(text) => text
                .parse()
                .map_err(|_| field_error("fullmove number", text, "expected a whole number from 0 to 65535"))?,
            None => 1,
        };
        if pos.checkers_of(pos.side_to_move).is_nonempty() {
            return Err(FenError::Illegal("the side not to move is in check"));
        }
        if attacks::king(pos.king_square(Color::White)).contains(pos.king_square(Color::Black)) {
            return Err(FenError::Illegal("the kings stand on adjacent squares"));
        }
        pos.checkers = pos.checkers_of(!pos.side_to_move);
        pos.key = pos.compute_key();
        Ok(ParsedFen { position: pos, dropped })
    }

    fn empty() -> Position {
        Position {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            side_to_move: Color::White,
            castling: CastlingRights::NONE,
            castling_rooks: [[Square::H1, Square::A1], [Square::H8, Square::A8]],
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            checkers: Bitboard::EMPTY,
            shredder_castling: false,
        }
    }

    fn parse_placement(&mut self, placement: &str) -> Result<(), FenError> {
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            let rank = 8u8.saturating_sub(ranks.len().min(8) as u8);
            return Err(FenError::Placement { rank, reason: "expected 8 ranks separated by '/'" });
        }
        for (row, text) in ranks.iter().enumerate() {
            let rank_number = 8 - row as u8;
            let rank = Rank::from_index(rank_number - 1);
            let mut file = 0u8;
            let mut after_digit = false;
            for c in text.chars() {
                if let Some(skip) = c.to_digit(10) {
                    if !(1..=8).contains(&skip) {
                        return Err(FenError::Placement {
                            rank: rank_number,
                            reason: "empty-square counts must be 1 to 8",
                        });
                    }
                    if after_digit {
                        return Err(FenError::Placement {
                            rank: rank_number,
                            reason: "two empty-square counts in a row (write their sum as one digit)",
                        });
                    }
                    after_digit = true;
                    file += skip as u8;
                } else {
                    after_digit = false;
                    let Some((piece, color)) = Piece::from_fen_char(c) else {
                        return Err(FenError::Placement {
                            rank: rank_number,
                            reason: "unknown piece letter (expected one of PNBRQK pnbrqk)",
                        });
                    };
                    if file >= 8 {
                        return Err(FenError::Placement { rank: rank_number, reason: "more than 8 squares" });
                    }
                    let sq = Square::new(File::from_index(file), rank);
                    let bb = Bitboard::from_square(sq);
                    self.pieces[piece] |= bb;
                    self.colors[color] |= bb;
                    file += 1;
                }
                if file > 8 {
                    return Err(FenError::Placement { rank: rank_number, reason: "more than 8 squares" });
                }
            }
            if file < 8 {
                return Err(FenError::Placement { rank: rank_number, reason: "fewer than 8 squares" });
            }
        }
        Ok(())
    }

    /// Kings, pawn ranks and piece counts: what any position reachable from a legal game has.
    /// (The piece-count bound also keeps every move list within its 256 slots.)
    fn check_material(&self) -> Result<(), FenError> {
        for color in Color::ALL {
            let kings = self.pieces(color, Piece::King).count();
            if kings == 0 {
                return Err(FenError::Illegal(if color.is_white() {
                    "White has no king"
                } else {
                    "Black has no king"
                }));
            }
            if kings > 1 {
                return Err(FenError::Illegal(if color.is_white() {
                    "White has more than one king"
                } else {
                    "Black has more than one king"
                }));
            }
            let count = |piece| self.pieces(color, piece).count() as i32;
            let pawns = count(Piece::Pawn);
            let promoted = (count(Piece::Knight) - 2).max(0)
                + (count(Piece::Bishop) - 2).max(0)
                + (count(Piece::Rook) - 2).max(0)
                + (count(Piece::Queen) - 1).max(0);
            if self.colors[color].count() > 16 || pawns > 8 || promoted > 8 - pawns {
                return Err(FenError::Illegal(
                    "too many pieces: over 16 for a side, over 8 pawns, or more promoted pieces than missing pawns",
                ));
            }
        }
        if (self.pieces[Piece::Pawn] & (Bitboard::RANK_1 | Bitboard::RANK_8)).is_nonempty() {
            return Err(FenError::Illegal("a pawn stands on the first or eighth rank"));
        }
        Ok(())
    }

    /// Standard castling: KQkq (or the corner rooks' files, HAha), in any order; a right whose
    /// king is not on e1/e8 or whose rook is not in its corner is dropped and returned.
    fn parse_standard_castling(&mut self, text: &str) -> Result<Vec<DroppedRight>, FenError> {
        let mut dropped = Vec::new();
        if text == "-" {
            return Ok(dropped);
        }
        check_castling_length(text)?;
        for c in text.chars() {
            let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
            let side = match c.to_ascii_lowercase() {
                'k' | 'h' => CastleSide::King,
                'q' | 'a' => CastleSide::Queen,
                'b'..='g' => {
                    dropped.push(DroppedRight {
                        letter: c,
                        reason: "standard chess castles only with the a- and h-rooks",
                    });
                    continue;
                }
                _ => return Err(castling_syntax_error(text)),
            };
            let rank = Position::back_rank(color);
            let (corner, reason) = match side {
                CastleSide::King => (File::H, "it needs the king on its e-file square and a rook on the h-file corner"),
                CastleSide::Queen => {
                    (File::A, "it needs the king on its e-file square and a rook on the a-file corner")
                }
            };
            let rook = Square::new(corner, rank);
            if self.king_square(color) != Square::new(File::E, rank) || !self.pieces(color, Piece::Rook).contains(rook)
            {
                dropped.push(DroppedRight { letter: c, reason });
                continue;
            }
            if self.castling.has(color, side) {
                return Err(field_error("castling", text, "the same right is given twice"));
            }
            self.castling = self.castling.with(color, side);
            self.castling_rooks[color][side as usize] = rook;
        }
        Ok(dropped)
    }

    /// Chess960 castling: KQkq as X-FEN (the outermost rook on that side of the king) or
    /// Shredder-FEN rook files; a right without its king or rook is refused.
    fn parse_chess960_castling(&mut self, text: &str) -> Result<(), FenError> {
        if text == "-" {
            return Ok(());
        }
        check_castling_length(text)?;
        let mut all_files = true;
        for c in text.chars() {
            let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
            let rank = Position::back_rank(color);
            let ksq = self.king_square(color);
            if ksq.rank() != rank {
                return Err(field_error(
                    "castling",
                    text,
                    "a side with castling rights must have its king on its back rank",
                ));
            }
            let rooks_on_rank = self.pieces(color, Piece::Rook) & Bitboard::rank(rank);
            let rook = match c.to_ascii_lowercase() {
                // X-FEN: K and Q name the outermost rook on that side of the king.
                'k' => rooks_on_rank.filter(|sq| sq.file() > ksq.file()).last(),
                'q' => { rooks_on_rank }.find(|sq| sq.file() < ksq.file()),
                f @ 'a'..='h' => File::from_char(f)
                    .map(|file| Square::new(file, rank))
                    .filter(|&sq| rooks_on_rank.contains(sq) && sq != ksq),
                _ => return Err(castling_syntax_error(text)),
            };
            all_files &= !matches!(c, 'K' | 'Q' | 'k' | 'q');
            let Some(rook) = rook else {
                return Err(field_error("castling", text, "no rook of that colour stands where the right says"));
            };
            let side = if rook.file() > ksq.file() { CastleSide::King } else { CastleSide::Queen };
            if self.castling.has(color, side) {
                return Err(field_error("castling", text, "the same right is given twice"));
            }
            self.castling = self.castling.with(color, side);
            self.castling_rooks[color][side as usize] = rook;
        }
        self.shredder_castling = all_files;
        Ok(())
    }

    fn parse_en_passant(&mut self, text: &str) -> Result<(), FenError> {
        if text == "-" {
            return Ok(());
        }
        let Ok(ep) = text.parse::<Square>() else {
            return Err(field_error("en passant", text, "expected '-' or a square such as e3"));
        };
        let us = self.side_to_move;
        let expected_rank = if us.is_white() { Rank::Sixth } else { Rank::Third };
        if ep.rank() != expected_rank {
            return Err(field_error(
                "en passant",
                text,
                "the square must be on the sixth rank with White to move, the third with Black",
            ));
        }
        let pushed_to = ep.forward(!us.is_white());
        let pushed_from = ep.forward(us.is_white());
        let occupied = self.occupied();
        if occupied.contains(ep) || occupied.contains(pushed_from) || !self.pieces(!us, Piece::Pawn).contains(pushed_to)
        {
            return Err(field_error("en passant", text, "no pawn can have just advanced two squares past it"));
        }
        self.en_passant = Some(ep);
        Ok(())
    }

    /// The position as FEN, castling written as it was read (KQkq/X-FEN or Shredder-FEN).
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                let sq = Square::new(file, *rank);
                match (self.piece_on(sq), self.color_on(sq)) {
                    (Some(piece), Some(color)) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.to_fen_char(color));
                    }
                    _ => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if *rank != Rank::First {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(self.side_to_move.to_char());
        fen.push(' ');
        let before = fen.len();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling_rook(color, side) {
                    fen.push(self.castling_letter(color, side, rook));
                }
            }
        }
        if fen.len() == before {
            fen.push('-');
        }
        match self.en_passant {
            Some(ep) => fen.push_str(&format!(" {ep}")),
            None => fen.push_str(" -"),
        }
        fen.push_str(&format!(" {} {}", self.halfmove_clock, self.fullmove_number));
        fen
    }

    /// K/Q when the rook is the outermost one on its side (X-FEN), else its file.
    fn castling_letter(&self, color: Color, side: CastleSide, rook: Square) -> char {
        let ksq = self.king_square(color);
        let rooks = self.pieces(color, Piece::Rook) & Bitboard::rank(rook.rank());
        let outermost = match side {
            CastleSide::King => rooks.filter(|sq| sq.file() > ksq.file()).last(),
            CastleSide::Queen => { rooks }.find(|sq| sq.file() < ksq.file()),
        };
        let letter = if self.shredder_castling || outermost != Some(rook) {
            rook.file().to_char()
        } else if side == CastleSide::King {
            'k'
        } else {
            'q'
        };
        if color.is_white() {
            letter.to_ascii_uppercase()
        } else {
            letter
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess960(fen: &str) -> Result<Position, FenError> {
        Position::parse_fen(fen, Variant::Chess960).map(|parsed| parsed.position)
    }

    #[test]
    fn fen_roundtrip_keeps_every_field() {
        for fen in [
            super::super::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
            "4k3/8/8/8/8/8/8/4K2R w K - 17 120",
        ] {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"));
            assert_eq!(pos.to_fen(), fen);
            assert_eq!(chess960(fen).map(|pos| pos.to_fen()).as_deref(), Ok(fen));
        }
        for fen in [
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 b GBgb - 0 1",
        ] {
            let pos = chess960(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"));
            assert_eq!(pos.to_fen(), fen);
        }
    }

    #[test]
    fn standard_chess_drops_rights_it_cannot_have_and_normalises_the_order() {
        let cases = [
            // Rooks off their corners: only black's rights stand (the issue's example).
            ("r3k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/1R2K1R1 w kq - 0 1", "KQ"),
            // King off e1.
            ("r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1", "KQ"),
            // A Shredder-FEN file of an inner rook.
            ("4k3/8/8/8/8/8/8/R3K1RR w GQ - 0 1", "4k3/8/8/8/8/8/8/R3K1RR w Q - 0 1", "G"),
            // No rook at all.
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "K"),
            // Corner files and any order are the same rights, printed as KQkq.
            ("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ""),
            ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ""),
        ];
        for (fen, expected, dropped) in cases {
            let parsed = Position::parse_fen(fen, Variant::Standard).unwrap_or_else(|e| unreachable!("{fen}: {e}"));
            assert_eq!(parsed.position.to_fen(), expected, "{fen}");
            let letters: String = parsed.dropped.iter().map(|right| right.letter).collect();
            assert_eq!(letters, dropped, "{fen}");
            assert!(parsed.dropped.iter().all(|right| right.to_string().contains("Chess960")));
        }
        // In Chess960 the same rook placement is a legal castling setup.
        let pos = chess960("r3k2r/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1").unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(pos.castling_rook(Color::White, CastleSide::King), Some(Square::G1));
    }

    #[test]
    fn missing_counters_default() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - -");
        assert_eq!(pos.map(|p| p.to_fen()), Ok("4k3/8/8/8/8/8/8/4K3 b - - 0 1".to_string()));
    }

    #[test]
    fn x_fen_picks_outermost_rook_and_prints_inner_by_file() {
        let pos = chess960("4k3/8/8/8/8/8/8/R3K1RR w KQ - 0 1").unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(pos.castling_rook(Color::White, CastleSide::King), Some(Square::H1));
        assert_eq!(pos.castling_rook(Color::White, CastleSide::Queen), Some(Square::A1));
        let inner = chess960("4k3/8/8/8/8/8/8/R3K1RR w GQ - 0 1").unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(inner.castling_rook(Color::White, CastleSide::King), Some(Square::G1));
        assert_eq!(inner.to_fen(), "4k3/8/8/8/8/8/8/R3K1RR w GQ - 0 1");
    }

    #[test]
    fn fen_errors_name_the_fault() {
        let cases: &[(&str, FenError)] = &[
            ("", FenError::FieldCount(0)),
            ("8/8/8/8/8/8/8/8 w - - 0 1 extra", FenError::FieldCount(7)),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
                FenError::Placement { rank: 1, reason: "expected 8 ranks separated by '/'" },
            ),
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::Placement { rank: 7, reason: "more than 8 squares" },
            ),
            (
                "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::Placement { rank: 7, reason: "fewer than 8 squares" },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                FenError::Placement { rank: 1, reason: "unknown piece letter (expected one of PNBRQK pnbrqk)" },
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::Placement { rank: 6, reason: "empty-square counts must be 1 to 8" },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenError::Placement {
                    rank: 4,
                    reason: "two empty-square counts in a row (write their sum as one digit)",
                },
            ),
            ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", field_error("side to move", "x", "expected 'w' or 'b'")),
            (
                "4k3/8/8/8/8/8/8/4K2R w KX - 0 1",
                field_error("castling", "KX", "expected '-' or up to four of KQkq or rook files A-H a-h"),
            ),
            ("4k3/8/8/8/8/8/8/4K2R w KH - 0 1", field_error("castling", "KH", "the same right is given twice")),
            ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", field_error("en passant", "e9", "expected '-' or a square such as e3")),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
                field_error(
                    "en passant",
                    "e3",
                    "the square must be on the sixth rank with White to move, the third with Black",
                ),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
                field_error("en passant", "e6", "no pawn can have just advanced two squares past it"),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - x 1",
                field_error("halfmove clock", "x", "expected a whole number from 0 to 65535"),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 -1",
                field_error("fullmove number", "-1", "expected a whole number from 0 to 65535"),
            ),
            ("8/8/8/8/8/8/8/4K3 w - - 0 1", FenError::Illegal("Black has no king")),
            ("4k3/8/8/8/8/8/8/4KK2 w - - 0 1", FenError::Illegal("White has more than one king")),
            ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", FenError::Illegal("a pawn stands on the first or eighth rank")),
            (
                "QQQQkQQQ/QQQQQQQQ/8/8/8/8/8/4K3 w - - 0 1",
                FenError::Illegal(
                    "too many pieces: over 16 for a side, over 8 pawns, or more promoted pieces than missing pawns",
                ),
            ),
            ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", FenError::Illegal("the side not to move is in check")),
            ("8/8/8/3kK3/8/8/8/8 w - - 0 1", FenError::Illegal("the kings stand on adjacent squares")),
            ("8/8/8/8/8/8/6k1/7K b - - 0 1", FenError::Illegal("the kings stand on adjacent squares")),
        ];
        for (fen, expected) in cases {
            assert_eq!(Position::from_fen(fen).as_ref().err(), Some(expected), "{fen}");
            assert_eq!(chess960(fen).as_ref().err(), Some(expected), "{fen}");
            assert!(!expected.to_string().is_empty());
        }
        // Chess960 refuses a right without its king or rook, where standard chess drops it.
        let chess960_cases: &[(&str, FenError)] = &[
            (
                "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
                field_error("castling", "K", "no rook of that colour stands where the right says"),
            ),
            (
                "4k3/8/8/8/8/8/4K3/7R w K - 0 1",
                field_error("castling", "K", "a side with castling rights must have its king on its back rank"),
            ),
        ];
        for (fen, expected) in chess960_cases {
            assert_eq!(chess960(fen).as_ref().err(), Some(expected), "{fen}");
        }
    }

    #[test]
    fn mutated_fens_never_panic() {
        // A property test without a crate: random edits of valid FENs must parse or fail cleanly,
        // and whatever parses must print a FEN that parses back to the same position.
        const ALPHABET: &[u8] = b"pnbrqkPNBRQKxX0123456789/ -wbKQkqA-Hah\t\xc3\xa9";
        let seeds = [
            super::super::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
        ];
        let mut next = crate::testing::xorshift(0x1234_5678_9abc_def1);
        let mut parsed = 0;
        for i in 0..200_000 {
            let mut bytes = seeds[i % seeds.len()].as_bytes().to_vec();
            for _ in 0..(1 + next() % 4) {
                let at = (next() as usize) % (bytes.len() + 1);
                match next() % 3 {
                    0 if at < bytes.len() => bytes[at] = ALPHABET[next() as usize % ALPHABET.len()],
                    1 => bytes.insert(at, ALPHABET[next() as usize % ALPHABET.len()]),
                    _ if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {}
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            for variant in [Variant::Standard, Variant::Chess960] {
                if let Ok(ParsedFen { position, .. }) = Position::parse_fen(&text, variant) {
                    parsed += 1;
                    let again = Position::parse_fen(&position.to_fen(), variant).map(|parsed| parsed.position);
                    assert_eq!(again.as_ref(), Ok(&position), "{text}");
                }
            }
        }
        assert!(parsed > 1000, "the mutations should leave some FENs valid ({parsed})");
    }
}
