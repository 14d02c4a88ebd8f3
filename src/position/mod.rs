//! `Position`: piece bitboards by kind and colour (no mailbox: a smaller copy is faster),
//! side to move, castling (by rook square, so Chess960 works), en passant, clocks, the
//! incrementally updated Zobrist key and the checkers of the side to move. Copy-make: a move is
//! made on a copy; nothing is unmade but perft's plain quiet moves (`restore_plain_quiet`).

mod fen;
mod make;
mod masks;
pub mod zobrist;

pub use fen::{DroppedRight, FenError, ParsedFen, Variant};
pub use make::CheckInfo;
pub use masks::{PinRays, Threats};

use crate::attacks;
use crate::types::{Bitboard, Color, File, Piece, Rank, Square};

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Which side of the king a castling rook stands on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CastleSide {
    /// Towards the H file; the king ends on G, the rook on F.
    King,
    /// Towards the A file; the king ends on C, the rook on D.
    Queen,
}

impl CastleSide {
    /// Both sides, king side first.
    pub const ALL: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// The side of a castling move of the king on `king` with the rook on `rook` (the same rank):
    /// the king side when the rook stands on a higher file.
    #[inline(always)]
    pub fn of(king: Square, rook: Square) -> CastleSide {
        if rook > king {
            CastleSide::King
        } else {
            CastleSide::Queen
        }
    }

    /// The files the king and the rook end on.
    pub const fn destination_files(self) -> (File, File) {
        match self {
            CastleSide::King => (File::G, File::F),
            CastleSide::Queen => (File::C, File::D),
        }
    }
}

/// The castling rights still held: one bit per colour and side.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights(0);

    const fn bit(color: Color, side: CastleSide) -> u8 {
        1 << (2 * color as u8 + side as u8)
    }

    /// Whether `color` may still castle on `side`.
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// Whether `color` holds any right.
    #[inline(always)]
    pub const fn has_any(self, color: Color) -> bool {
        self.0 & (3 << (2 * color as u8)) != 0
    }

    /// These rights plus `color`'s on `side`.
    pub const fn with(self, color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights(self.0 | Self::bit(color, side))
    }

    /// These rights less `color`'s on `side`.
    pub const fn without(self, color: Color, side: CastleSide) -> CastlingRights {
        CastlingRights(self.0 & !Self::bit(color, side))
    }

    /// These rights less both of `color`'s.
    pub const fn without_color(self, color: Color) -> CastlingRights {
        CastlingRights(self.0 & !(3 << (2 * color as u8)))
    }

    /// The 4-bit encoding (White king side = 1, White queen side = 2, Black: 4 and 8).
    #[inline(always)]
    pub const fn bits(self) -> usize {
        self.0 as usize
    }
}

/// A chess position. Cheap to copy (96 bytes): search and perft copy it to make a move.
#[derive(Clone, Debug)]
pub struct Position {
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    side_to_move: Color,
    castling: CastlingRights,
    /// The rook square of each right, indexed `[color][side]`; meaningful only while the right is held.
    castling_rooks: [[Square; 2]; 2],
    en_passant: Option<Square>,
    halfmove_clock: u16,
    fullmove_number: u16,
    key: u64,
    checkers: Bitboard,
    /// Whether FEN output writes castling as rook files (Shredder-FEN) rather than KQkq.
    shredder_castling: bool,
}

impl Position {
    /// The standard starting position.
    ///
    /// ```
    /// use springer::position::Position;
    /// assert_eq!(Position::startpos().to_fen(), springer::position::START_FEN);
    /// ```
    pub fn startpos() -> Position {
        match Position::from_fen(START_FEN) {
            Ok(pos) => pos,
            Err(e) => unreachable!("the start FEN is valid: {e}"),
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The pieces of `color` of kind `piece`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, piece: Piece) -> Bitboard {
        self.pieces[piece] & self.colors[color]
    }

    /// Every piece of kind `piece`, both colours.
    #[inline(always)]
    pub fn pieces_of_kind(&self, piece: Piece) -> Bitboard {
        self.pieces[piece]
    }

    /// Every piece of `color`.
    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.colors[color]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[Color::White] | self.colors[Color::Black]
    }

    /// The bishops and queens of `color`: the pieces that attack along diagonals.
    #[inline(always)]
    pub fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces[Piece::Bishop] | self.pieces[Piece::Queen]) & self.colors[color]
    }

    /// The rooks and queens of `color`: the pieces that attack along ranks and files.
    #[inline(always)]
    pub fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces[Piece::Rook] | self.pieces[Piece::Queen]) & self.colors[color]
    }

    /// The kind of piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        let bb = Bitboard::from_square(sq);
        if (self.occupied() & bb).is_empty() {
            return None;
        }
        Piece::ALL.into_iter().find(|&p| (self.pieces[p] & bb).is_nonempty())
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_on(&self, sq: Square) -> Option<Color> {
        if self.colors[Color::White].contains(sq) {
            Some(Color::White)
        } else if self.colors[Color::Black].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        (self.pieces[Piece::King] & self.colors[color]).lsb()
    }

    /// The castling rights still held.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The square of the rook that castles for `color` on `side`, if that right is held.
    #[inline]
    pub fn castling_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        self.castling.has(color, side).then(|| self.castling_rooks[color][side as usize])
    }

    /// The en-passant target square, as FEN records it (after any double push).
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Half-moves since the last capture or pawn move (the fifty-move rule counts these).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The full-move number: 1 at the start, raised after each Black move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// The Zobrist key of the position (pieces, side, castling rights, capturable en passant).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// Every piece of either colour that attacks `sq`, given the `occupied` squares.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let knights = attacks::knight(sq) & self.pieces[Piece::Knight];
        let kings = attacks::king(sq) & self.pieces[Piece::King];
        let white_pawns = attacks::pawn(Color::Black, sq) & self.pieces(Color::White, Piece::Pawn);
        let black_pawns = attacks::pawn(Color::White, sq) & self.pieces(Color::Black, Piece::Pawn);
        let diagonal = attacks::bishop(sq, occupied) & (self.pieces[Piece::Bishop] | self.pieces[Piece::Queen]);
        let orthogonal = attacks::rook(sq, occupied) & (self.pieces[Piece::Rook] | self.pieces[Piece::Queen]);
        knights | kings | white_pawns | black_pawns | diagonal | orthogonal
    }

    /// Whether `sq` is attacked by a piece of `by`, given the `occupied` squares.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.colors[by];
        (attacks::knight(sq) & self.pieces[Piece::Knight] & them).is_nonempty()
            || (attacks::pawn(!by, sq) & self.pieces[Piece::Pawn] & them).is_nonempty()
            || (attacks::king(sq) & self.pieces[Piece::King] & them).is_nonempty()
            || (attacks::bishop(sq, occupied) & self.diagonal_sliders(by)).is_nonempty()
            || (attacks::rook(sq, occupied) & self.orthogonal_sliders(by)).is_nonempty()
    }

    /// The pieces of `by` that check the king of `!by`.
    #[inline]
    fn checkers_of(&self, by: Color) -> Bitboard {
        let ksq = self.king_square(!by);
        let occupied = self.occupied();
        let them = self.colors[by];
        ((attacks::knight(ksq) & self.pieces[Piece::Knight])
            | (attacks::pawn(!by, ksq) & self.pieces[Piece::Pawn])
            | (attacks::bishop(ksq, occupied) & (self.pieces[Piece::Bishop] | self.pieces[Piece::Queen]))
            | (attacks::rook(ksq, occupied) & (self.pieces[Piece::Rook] | self.pieces[Piece::Queen])))
            & them
    }

    /// Whether the en-passant square (if any) can be captured by a pawn of the side to move;
    /// only then does it count in the Zobrist key (the Polyglot convention).
    #[inline]
    fn en_passant_is_capturable(&self) -> bool {
        match self.en_passant {
            Some(ep) => {
                (attacks::pawn(!self.side_to_move, ep) & self.pieces(self.side_to_move, Piece::Pawn)).is_nonempty()
            }
            None => false,
        }
    }

    /// The position with colours swapped and the board flipped top to bottom: the same
    /// position seen from the other side (used to test that evaluation is symmetric).
    pub fn mirrored(&self) -> Position {
        let mut pos = self.clone();
        for piece in Piece::ALL {
            pos.pieces[piece] = self.pieces[piece].flip_ranks();
        }
        pos.colors = [self.colors[Color::Black].flip_ranks(), self.colors[Color::White].flip_ranks()];
        pos.side_to_move = !self.side_to_move;
        pos.castling = CastlingRights::NONE;
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling_rook(color, side) {
                    pos.castling = pos.castling.with(!color, side);
                    pos.castling_rooks[!color][side as usize] = rook.flip_rank();
                }
            }
        }
        pos.en_passant = self.en_passant.map(Square::flip_rank);
        pos.key = pos.compute_key();
        pos.checkers = pos.checkers_of(!pos.side_to_move);
        pos
    }

    /// The home rank of `color`'s pieces.
    #[inline(always)]
    pub(crate) fn back_rank(color: Color) -> Rank {
        match color {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }
}

/// Equal when every field is, but castling rook squares and notation count only while a right
/// is held.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        let rooks_match = Color::ALL.into_iter().all(|color| {
            CastleSide::ALL.into_iter().all(|side| self.castling_rook(color, side) == other.castling_rook(color, side))
        });
        rooks_match
            && self.pieces == other.pieces
            && self.colors == other.colors
            && self.side_to_move == other.side_to_move
            && self.castling == other.castling
            && self.en_passant == other.en_passant
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
            && self.key == other.key
            && self.checkers == other.checkers
            && (self.castling == CastlingRights::NONE || self.shredder_castling == other.shredder_castling)
    }
}

impl Eq for Position {}

impl std::fmt::Display for Position {
    /// The board (eighth rank first), then the FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            write!(f, " {} ", rank.to_char())?;
            for file in File::ALL {
                let sq = Square::new(file, *rank);
                let c = match (self.piece_on(sq), self.color_on(sq)) {
                    (Some(p), Some(c)) => p.to_fen_char(c),
                    _ => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "    a b c d e f g h")?;
        write!(f, "Fen: {}", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_stays_small() {
        // Copy-make copies this once per node; the perft benches measured the mailbox's 64
        // bytes as 5-8% of perft time, so it was dropped.
        assert!(std::mem::size_of::<Position>() <= 96, "{}", std::mem::size_of::<Position>());
    }

    /// Perft's plain quiet moves (`make_plain_quiet_from`), made one after another in one copy
    /// as perft makes them (a piece's moves with no restore in between), each equal the
    /// general make of the same move, and the restore gives the parent back; over random games
    /// from positions with castling rights, pins, checks, en passant and Chess960 castling.
    #[test]
    fn plain_quiet_moves_from_the_parent_equal_the_general_make() {
        use crate::movegen::generate_legal;
        use crate::movegen::MoveList;
        use crate::types::MoveKind;
        let mut next = crate::testing::xorshift(0x5eed);
        let mut checked = 0;
        for (fen, chess960) in [
            (START_FEN, false),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
            ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false),
            ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true),
        ] {
            let variant = if chess960 { Variant::Chess960 } else { Variant::Standard };
            let mut pos =
                Position::parse_fen(fen, variant).map(|parsed| parsed.position).unwrap_or_else(|e| unreachable!("{e}"));
            for _ in 0..120 {
                let mut list = MoveList::new();
                generate_legal(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                let info = pos.check_info();
                let us = pos.side_to_move();
                let mut scratch = pos.clone();
                // One batch per kind of piece (perft's batches are one piece's moves, or all the
                // pawns' single pushes): the restore comes only after the last.
                for piece in Piece::ALL {
                    let plain_mover = matches!(piece, Piece::Knight | Piece::Bishop | Piece::Queen | Piece::Pawn)
                        || !pos.castling_rights().has_any(us);
                    let moves = list.iter().filter(|mv| {
                        pos.piece_on(mv.from()) == Some(piece)
                            && plain_mover
                            && (mv.kind() == MoveKind::QUIET || mv.kind() == MoveKind::DOUBLE_PUSH)
                    });
                    for &mv in moves {
                        let mut expected = pos.clone();
                        expected.make_move_unkeyed(mv, piece, &info);
                        let en_passant = (mv.kind() == MoveKind::DOUBLE_PUSH).then(|| mv.to().forward(!us.is_white()));
                        scratch.make_plain_quiet_from(&pos, mv.from(), mv.to(), piece, en_passant, &info);
                        assert!(scratch == expected, "{mv:?} in {}", pos.to_fen());
                        checked += 1;
                    }
                    scratch.restore_plain_quiet(piece, &pos);
                    assert!(scratch == pos, "restore after the {piece:?} moves in {}", pos.to_fen());
                }
                let mv = list[(next() % list.len() as u64) as usize];
                pos.make_move(mv);
            }
        }
        assert!(checked > 5_000, "{checked}");
    }
}
