//! Making moves (copy-make: callers copy the position first; nothing is unmade but perft's plain
//! quiet moves). In the keyed make every change to a bitboard also updates the Zobrist key, so the
//! incremental key always equals `compute_key()` (tests check this over long random games).

use super::zobrist::{castling_key, en_passant_key, piece_key, SIDE_KEY};
use super::{CastleSide, Position};
use crate::attacks;
use crate::types::{Bitboard, Color, Move, MoveKind, Piece, Square};

/// What the side to move needs, computed once per position, to tell which of its moves give
/// check without a slider lookup per move.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// For each piece kind, the squares from which it would attack the enemy king (empty for
    /// the king, which never gives check itself).
    check_squares: [Bitboard; 6],
    /// The mover's pieces that alone block one of its sliders from the enemy king: moving one
    /// off that line uncovers a check.
    discoverers: Bitboard,
    their_king: Square,
}

impl Position {
    #[inline(always)]
    fn put_piece<const KEY: bool>(&mut self, color: Color, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.pieces[piece] |= bb;
        self.colors[color] |= bb;
        if KEY {
            self.key ^= piece_key(color, piece, sq);
        }
    }

    #[inline(always)]
    fn remove_piece<const KEY: bool>(&mut self, color: Color, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.pieces[piece] ^= bb;
        self.colors[color] ^= bb;
        if KEY {
            self.key ^= piece_key(color, piece, sq);
        }
    }

    /// Removes the piece of `color` on `sq` without finding out its kind: one AND per piece
    /// board and no branch, where `piece_on` would test the boards in turn (a branch that
    /// captures mispredict). For the unkeyed make only, which needs no Zobrist key.
    #[inline(always)]
    fn clear_square(&mut self, color: Color, sq: Square) {
        let keep = !Bitboard::from_square(sq);
        for board in &mut self.pieces {
            *board &= keep;
        }
        self.colors[color] &= keep;
    }

    #[inline(always)]
    fn move_piece<const KEY: bool>(&mut self, color: Color, piece: Piece, from: Square, to: Square) {
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.pieces[piece] ^= bb;
        self.colors[color] ^= bb;
        if KEY {
            self.key ^= piece_key(color, piece, from) ^ piece_key(color, piece, to);
        }
    }

    /// The check information for the side to move; see `make_move_with`.
    #[inline]
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side_to_move;
        let their_king = self.king_square(!us);
        let occupied = self.occupied();
        let diagonal = attacks::bishop(their_king, occupied);
        let orthogonal = attacks::rook(their_king, occupied);
        let mut discoverers = Bitboard::EMPTY;
        let snipers = (attacks::bishop_rays(their_king) & self.diagonal_sliders(us))
            | (attacks::rook_rays(their_king) & self.orthogonal_sliders(us));
        for sniper in snipers {
            let blockers = attacks::between(their_king, sniper) & occupied;
            if blockers.single().is_some() {
                discoverers |= blockers & self.colors[us];
            }
        }
        CheckInfo {
            check_squares: [
                attacks::pawn(!us, their_king),
                attacks::knight(their_king),
                diagonal,
                orthogonal,
                diagonal | orthogonal,
                Bitboard::EMPTY,
            ],
            discoverers,
            their_king,
        }
    }

    /// Whether `mv` (legal here) gives check; `info` is this position's `check_info()`.
    #[inline]
    pub fn gives_check(&self, mv: Move, info: &CheckInfo) -> bool {
        if mv.is_castle() || mv.is_en_passant() || mv.is_promotion() {
            return self.after(mv).is_check();
        }
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.piece_on(from) else {
            return false;
        };
        info.check_squares[piece].contains(to)
            || (info.discoverers.contains(from) && !attacks::aligned(from, to, info.their_king))
    }

    /// Plays `mv`, which must be legal in this position (from the move generator, or checked
    /// with `movegen::is_legal_move`).
    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        let info = self.check_info();
        self.make_move_with(mv, &info);
    }

    /// Plays `mv` (legal here) using this position's `check_info()`, computed once for all the
    /// moves of a position: the new checkers then cost a few bit tests instead of lookups.
    #[inline(always)]
    pub fn make_move_with(&mut self, mv: Move, info: &CheckInfo) {
        let Some(piece) = self.piece_on(mv.from()) else {
            debug_assert!(false, "no piece on {} for {mv:?} in {}", mv.from(), self.to_fen());
            return;
        };
        self.make_piece_move::<true>(mv, piece, info);
    }

    /// `make_move_with` for perft, which never reads the key, of a move of `piece` (the kind on
    /// the move's origin, which the generator knows): the Zobrist key and the clocks are left as
    /// they were (stale) and must not be used afterwards. Every other field is updated as usual.
    #[inline(always)]
    pub fn make_move_unkeyed(&mut self, mv: Move, piece: Piece, info: &CheckInfo) {
        debug_assert_eq!(self.piece_on(mv.from()), Some(piece), "{mv:?} in {}", self.to_fen());
        self.make_piece_move::<false>(mv, piece, info);
    }

    /// `make_move_unkeyed` for a plain quiet move (no capture, castling or promotion) of a
    /// knight, bishop, queen or pawn, or of a king or rook whose side holds no castling right,
    /// made from `parent` into this position: such a move cannot change the castling rights, so
    /// only the mover's two boards, the side to move, the en-passant square (`en_passant`: the
    /// square a pawn's double push crossed, else none) and the checkers change (the key and the
    /// clocks stay stale, as in `make_move_unkeyed`).
    ///
    /// This position must equal `parent` but for an earlier plain quiet move of the same
    /// `piece` made here: each of the changed fields is written from `parent`'s, never read back
    /// from this position, so the moves of one piece follow one another with nothing taken back
    /// in between (and no chain of stores and loads through one board), and
    /// `restore_plain_quiet` makes this position `parent` again after the last. Perft's
    /// every-leaf counting makes most of its moves here.
    #[inline(always)]
    pub fn make_plain_quiet_from(
        &mut self,
        parent: &Position,
        from: Square,
        to: Square,
        piece: Piece,
        en_passant: Option<Square>,
        info: &CheckInfo,
    ) {
        debug_assert!(
            matches!(piece, Piece::Knight | Piece::Bishop | Piece::Queen | Piece::Pawn)
                || !parent.castling.has_any(parent.side_to_move)
        );
        debug_assert!(parent.piece_on(to).is_none() && parent.piece_on(from) == Some(piece));
        debug_assert!(en_passant.is_none() || piece == Piece::Pawn);
        let us = parent.side_to_move;
        let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.pieces[piece] = parent.pieces[piece] ^ moved;
        self.colors[us] = parent.colors[us] ^ moved;
        self.en_passant = en_passant;
        self.side_to_move = !us;
        self.checkers = self.checkers_after(us, from, to, piece, info);
        debug_assert_eq!(self.checkers, self.checkers_of(us));
        debug_assert!(self.is_consistent());
    }

    /// Makes this position `parent` again after plain quiet moves of `piece` made here with
    /// `make_plain_quiet_from(parent, ..)`.
    #[inline(always)]
    pub fn restore_plain_quiet(&mut self, piece: Piece, parent: &Position) {
        let us = parent.side_to_move;
        self.pieces[piece] = parent.pieces[piece];
        self.colors[us] = parent.colors[us];
        self.side_to_move = us;
        self.en_passant = parent.en_passant;
        self.checkers = parent.checkers;
        debug_assert!(self.pieces == parent.pieces && self.colors == parent.colors);
    }

    /// The checkers once `us` moved `piece` from `from` to `to` by a move no special rule
    /// changes (not castling, en passant or a promotion): a direct check from `to` by the check
    /// info, or a discovered one, which needs the sliders' lines looked up.
    #[inline(always)]
    fn checkers_after(&self, us: Color, from: Square, to: Square, piece: Piece, info: &CheckInfo) -> Bitboard {
        if info.discoverers.contains(from) && !attacks::aligned(from, to, info.their_king) {
            self.checkers_of(us)
        } else if info.check_squares[piece].contains(to) {
            Bitboard::from_square(to)
        } else {
            Bitboard::EMPTY
        }
    }

    /// The make itself, for a move of `piece`. `FULL` says whether the Zobrist key and the clocks
    /// follow it: perft, which reads neither, leaves both stale.
    #[inline(always)]
    fn make_piece_move<const FULL: bool>(&mut self, mv: Move, piece: Piece, info: &CheckInfo) {
        let us = self.side_to_move;
        let them = !us;
        let (from, to) = (mv.from(), mv.to());
        debug_assert!(self.colors[us].contains(from));

        if FULL && self.en_passant_is_capturable() {
            if let Some(ep) = self.en_passant {
                self.key ^= en_passant_key(ep.file());
            }
        }
        self.en_passant = None;
        if FULL {
            let resets = mv.is_capture() || piece == Piece::Pawn;
            self.halfmove_clock = if resets { 0 } else { self.halfmove_clock.saturating_add(1) };
        }
        let rights_before = self.castling;
        let touched = Bitboard::from_square(from) | Bitboard::from_square(to);
        // Only moves of kings and rooks, or captures of rooks, can change castling rights.
        let rights_may_change = rights_before.bits() != 0
            && (touched & (self.pieces[Piece::Rook] | self.pieces[Piece::King])).is_nonempty();

        if mv.is_castle() {
            let side = CastleSide::of(from, to);
            let (king_file, rook_file) = side.destination_files();
            let rank = Position::back_rank(us);
            // Remove both before placing either: in Chess960 the squares may overlap.
            self.remove_piece::<FULL>(us, Piece::King, from);
            self.remove_piece::<FULL>(us, Piece::Rook, to);
            self.put_piece::<FULL>(us, Piece::King, Square::new(king_file, rank));
            self.put_piece::<FULL>(us, Piece::Rook, Square::new(rook_file, rank));
        } else {
            if mv.is_capture() {
                let captured_sq = if mv.is_en_passant() { to.forward(!us.is_white()) } else { to };
                if !FULL {
                    self.clear_square(them, captured_sq);
                } else if let Some(captured) = self.piece_on(captured_sq) {
                    self.remove_piece::<FULL>(them, captured, captured_sq);
                }
            }
            self.move_piece::<FULL>(us, piece, from, to);
            if let Some(promoted) = mv.promotion() {
                self.remove_piece::<FULL>(us, Piece::Pawn, to);
                self.put_piece::<FULL>(us, promoted, to);
            }
        }

        if rights_may_change {
            self.castling =
                self.rights_after(rights_before, piece, us, Bitboard::from_square(from) | Bitboard::from_square(to));
            if FULL && self.castling != rights_before {
                self.key ^= castling_key(rights_before.bits()) ^ castling_key(self.castling.bits());
            }
        }
        if FULL && us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side_to_move = them;
        if FULL {
            self.key ^= SIDE_KEY;
        }
        if mv.kind() == MoveKind::DOUBLE_PUSH {
            let ep = from.forward(us.is_white());
            self.en_passant = Some(ep);
            if FULL && self.en_passant_is_capturable() {
                self.key ^= en_passant_key(ep.file());
            }
        }
        // Castling, en passant and promotions change lines the check info did not foresee, and
        // a discovered check needs the sliders' lines recomputed.
        let special = mv.is_castle() || mv.is_en_passant() || mv.is_promotion();
        self.checkers = if special { self.checkers_of(us) } else { self.checkers_after(us, from, to, piece, info) };
        debug_assert_eq!(self.checkers, self.checkers_of(us), "checkers after {mv:?}");
        debug_assert!(!FULL || self.key == self.compute_key(), "incremental key after {mv:?}");
        debug_assert!(self.is_consistent(), "bitboards after {mv:?}: {self:?}");
    }

    /// The rights left after `piece` of `mover` moved between the `touched` squares: a king move
    /// ends both of its side's rights; any move from or to a castling rook's square ends that one.
    #[inline]
    fn rights_after(
        &self,
        mut rights: super::CastlingRights,
        piece: Piece,
        mover: Color,
        touched: Bitboard,
    ) -> super::CastlingRights {
        if piece == Piece::King {
            rights = rights.without_color(mover);
        }
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if rights.has(color, side) && touched.contains(self.castling_rooks[color][side as usize]) {
                    rights = rights.without(color, side);
                }
            }
        }
        rights
    }

    /// Whether the bitboards agree with each other: kinds and colours disjoint and covering the
    /// same squares, one king per side (checked after every move in debug builds).
    pub fn is_consistent(&self) -> bool {
        let mut union = Bitboard::EMPTY;
        for piece in Piece::ALL {
            if (union & self.pieces[piece]).is_nonempty() {
                return false;
            }
            union |= self.pieces[piece];
        }
        let colors_disjoint = (self.colors[Color::White] & self.colors[Color::Black]).is_empty();
        let kings = Color::ALL.iter().all(|&c| self.pieces(c, Piece::King).count() == 1);
        colors_disjoint && kings && union == (self.colors[Color::White] | self.colors[Color::Black])
    }

    /// Passes the move to the other side (null-move pruning); not allowed in check.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.is_check());
        if self.en_passant_is_capturable() {
            if let Some(ep) = self.en_passant {
                self.key ^= en_passant_key(ep.file());
            }
        }
        self.en_passant = None;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        self.side_to_move = !self.side_to_move;
        self.key ^= SIDE_KEY;
        self.checkers = Bitboard::EMPTY;
    }

    /// A copy of the position with `mv` played.
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        let mut next = self.clone();
        next.make_move(mv);
        next
    }
}
