//! `Move`: 16 bits = from (6) | to (6) | kind (4). Castling is stored king-takes-own-rook
//! (`to` is the rook's square), which serves standard chess and Chess960 alike; the UCI text
//! form converts it back to the king's destination unless Chess960 notation is asked for.

use super::piece::Piece;
use super::square::{File, Square};
use std::fmt;

/// What kind of move a `Move` is; the 4-bit flag of the encoding.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveKind(u8);

impl MoveKind {
    /// A move to an empty square that is not one of the kinds below.
    pub const QUIET: MoveKind = MoveKind(0);
    /// A pawn's two-square advance.
    pub const DOUBLE_PUSH: MoveKind = MoveKind(1);
    /// Castling; the move's `to` is the castling rook's square.
    pub const CASTLE: MoveKind = MoveKind(2);
    /// A capture on the destination square.
    pub const CAPTURE: MoveKind = MoveKind(4);
    /// An en-passant capture.
    pub const EN_PASSANT: MoveKind = MoveKind(5);
    const PROMOTION: u8 = 8;
    const CAPTURE_BIT: u8 = 4;

    /// A promotion to `piece` (knight to queen), capturing or not.
    #[inline(always)]
    pub const fn promotion(piece: Piece, capture: bool) -> MoveKind {
        debug_assert!(matches!(piece, Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen));
        let capture_bit = if capture { Self::CAPTURE_BIT } else { 0 };
        MoveKind(Self::PROMOTION | capture_bit | (piece as u8 - 1))
    }
}

/// A move, encoded in 16 bits. `Move::NULL` (all zero) means "no move".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Move(u16);

impl Move {
    /// The absent move; printed `0000` in UCI.
    pub const NULL: Move = Move(0);

    /// The move `from` to `to` of the given kind.
    ///
    /// ```
    /// use springer::types::{Move, MoveKind, Square};
    /// let mv = Move::new(Square::E2, Square::E4, MoveKind::DOUBLE_PUSH);
    /// assert_eq!((mv.from(), mv.to()), (Square::E2, Square::E4));
    /// assert_eq!(mv.to_string(), "e2e4");
    /// ```
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from as u16 | (to as u16) << 6 | (kind.0 as u16) << 12)
    }

    /// The raw 16-bit encoding (for the transposition table).
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with this raw encoding; it may not be legal anywhere, so check before use.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as u8)
    }

    /// The destination square (the rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as u8)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        MoveKind((self.0 >> 12) as u8)
    }

    /// Whether this is `Move::NULL`.
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// Whether the move captures (en passant and capturing promotions included).
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.kind().0 & MoveKind::CAPTURE_BIT != 0
    }

    /// Whether the move promotes a pawn.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.kind().0 & MoveKind::PROMOTION != 0
    }

    /// Whether the move captures or promotes: what the quiescence search looks at.
    #[inline(always)]
    pub const fn is_noisy(self) -> bool {
        self.kind().0 & (MoveKind::PROMOTION | MoveKind::CAPTURE_BIT) != 0
    }

    /// Whether the move is castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.kind().0 == MoveKind::CASTLE.0
    }

    /// Whether the move is an en-passant capture.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.kind().0 == MoveKind::EN_PASSANT.0
    }

    /// The piece a pawn promotes to, if this is a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<Piece> {
        if self.is_promotion() {
            Some(Piece::from_index((self.kind().0 & 3) + 1))
        } else {
            None
        }
    }

    /// The square the king ends on when castling (G or C file), else `to()`.
    #[inline]
    pub const fn king_destination(self) -> Square {
        let (from, to) = (self.from(), self.to());
        if !self.is_castle() {
            return to;
        }
        let file = if (to as u8) > (from as u8) { File::G } else { File::C };
        Square::new(file, from.rank())
    }

    /// The UCI text of the move: standard notation (`e1g1`) or, with `chess960`,
    /// king-takes-rook (`e1h1`).
    pub fn to_uci(self, chess960: bool) -> UciMove {
        UciMove { mv: self, chess960 }
    }
}

/// A move formatted for UCI; see `Move::to_uci`.
pub struct UciMove {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mv = self.mv;
        if mv.is_null() {
            return f.write_str("0000");
        }
        let to = if self.chess960 { mv.to() } else { mv.king_destination() };
        write!(f, "{}{}", mv.from(), to)?;
        if let Some(piece) = mv.promotion() {
            write!(f, "{}", piece.to_char())?;
        }
        Ok(())
    }
}

/// Standard UCI notation.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_uci(false).fmt(f)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({} {:?})", self.to_uci(true), self.kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_keeps_every_field() {
        for from in Square::ALL {
            for to in [Square::A1, Square::H8, Square::D5] {
                for piece in Piece::PROMOTIONS {
                    for capture in [false, true] {
                        let mv = Move::new(from, to, MoveKind::promotion(piece, capture));
                        assert_eq!((mv.from(), mv.to()), (from, to));
                        assert_eq!(mv.promotion(), Some(piece));
                        assert_eq!(mv.is_capture(), capture);
                        assert!(mv.is_noisy() && !mv.is_castle());
                    }
                }
            }
        }
    }

    #[test]
    fn kinds_answer_their_questions() {
        let ep = Move::new(Square::E5, Square::D6, MoveKind::EN_PASSANT);
        assert!(ep.is_capture() && ep.is_en_passant() && !ep.is_promotion());
        let push = Move::new(Square::E2, Square::E4, MoveKind::DOUBLE_PUSH);
        assert!(!push.is_noisy() && push.promotion().is_none());
    }

    #[test]
    fn castling_prints_in_both_notations() {
        let short = Move::new(Square::E1, Square::H1, MoveKind::CASTLE);
        assert_eq!(short.to_uci(false).to_string(), "e1g1");
        assert_eq!(short.to_uci(true).to_string(), "e1h1");
        let long = Move::new(Square::E8, Square::A8, MoveKind::CASTLE);
        assert_eq!(long.to_string(), "e8c8");
        assert_eq!(Move::NULL.to_string(), "0000");
        let promo = Move::new(Square::B7, Square::A8, MoveKind::promotion(Piece::Knight, true));
        assert_eq!(promo.to_string(), "b7a8n");
    }
}
