//! Probing positions: the table index of a position, then WDL and DTZ with the captures (and,
//! for DTZ, pawn moves) that the tables leave to the prober resolved by a small search.
//!
//! The tables store no positions with an en-passant right and may store any value where the side
//! to move has a winning capture ("don't care"), so a position's WDL is the best of its captures'
//! results and the stored value; DTZ is undefined where the best move zeroes the fifty-move
//! counter, and each DTZ file stores one side to move only (the other is found one ply deeper).

use super::encoding::MAX_PIECES;
use super::table::{Kind, SubTable, TableFile};
use super::{Entry, Tablebases, Wdl};
use crate::movegen::{generate_legal, MoveList};
use crate::position::Position;
use crate::types::{Color, Piece};

/// A DTZ file stores only one side to move; the position has the other.
enum Stored<T> {
    Value(T),
    OtherSide,
}

/// The sign of `v`: -1, 0 or 1.
fn sign(v: i32) -> i32 {
    v.signum()
}

/// The DTZ of the move before a zeroing move that reaches `wdl` (for the side that made it).
fn dtz_before_zeroing(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Win => 1,
        Wdl::CursedWin => 101,
        Wdl::BlessedLoss => -101,
        Wdl::Loss => -1,
        Wdl::Draw => 0,
    }
}

/// The table code of a piece: 1-6 for White pawn..king, 9-14 for Black.
fn piece_code(piece: Piece, color: Color) -> u8 {
    piece.index() as u8 + 1 + if color == Color::Black { 8 } else { 0 }
}

fn is_zeroing(pos: &Position, mv: crate::types::Move) -> bool {
    mv.is_capture() || pos.piece_on(mv.from()) == Some(Piece::Pawn)
}

impl Tablebases {
    /// The value stored for `pos` in `kind`'s file (with no regard to captures or en passant).
    fn stored(&self, pos: &Position, kind: Kind) -> Option<Stored<(u16, &SubTable, &TableFile)>> {
        let entry: &Entry = self.entry(pos)?;
        let file = self.file(entry, kind)?;
        let shape = &entry.shape;
        let stm = pos.side_to_move();

        // Tables are stored with the stronger side (the file name's first) as White; a symmetric
        // table stores White to move only. Otherwise flip colours and ranks.
        let symmetric_black = entry.symmetric() && stm == Color::Black;
        let black_stronger = material_key_of(pos) != entry.key;
        let flip = symmetric_black || black_stronger;
        let (flip_color, flip_squares) = if flip { (8u8, 56u8) } else { (0, 0) };
        let table_stm = (flip as usize) ^ (stm == Color::Black) as usize;

        let mut squares = [0u8; MAX_PIECES];
        let mut pieces = [0u8; MAX_PIECES];
        let mut size = 0;
        let mut lead_pawns = 0;
        let mut lead_pawn_bb = crate::types::Bitboard::EMPTY;
        let mut tb_file = 0;
        if shape.has_pawns {
            // The leading colour's pawns come first; the leading pawn is the one nearest the edge
            // (then lowest): the highest `PAWN_SQUARES` number.
            let lead_code = file.subs.first()?.first()?.groups.pieces[0] ^ flip_color;
            let lead_color = if lead_code & 8 != 0 { Color::Black } else { Color::White };
            lead_pawn_bb = pos.pieces(lead_color, Piece::Pawn);
            for sq in lead_pawn_bb {
                squares[size] = sq as u8 ^ flip_squares;
                size += 1;
            }
            lead_pawns = size;
            let lead = (0..lead_pawns).max_by_key(|&i| super::encoding::PAWN_SQUARES[squares[i] as usize])?;
            squares.swap(0, lead);
            let file_of_lead = (squares[0] & 7) as usize;
            tb_file = file_of_lead.min(7 - file_of_lead);
        }

        if kind == Kind::Dtz {
            let sub = file.subs.first()?.get(tb_file)?;
            let one_side_suffices = entry.symmetric() && !shape.has_pawns;
            if !sub.stores_side(table_stm) && !one_side_suffices {
                return Some(Stored::OtherSide);
            }
        }

        for sq in pos.occupied() & !lead_pawn_bb {
            let piece = pos.piece_on(sq)?;
            let color = pos.color_on(sq)?;
            if size >= MAX_PIECES {
                return None;
            }
            squares[size] = sq as u8 ^ flip_squares;
            pieces[size] = piece_code(piece, color) ^ flip_color;
            size += 1;
        }
        if size != shape.piece_count {
            return None;
        }

        let side = if file.subs.len() == 2 { table_stm } else { 0 };
        let sub = file.subs.get(side)?.get(tb_file)?;
        // Put the pieces in the order the file encodes them.
        for i in lead_pawns..size.saturating_sub(1) {
            if let Some(j) = (i + 1..size).find(|&j| sub.groups.pieces[i] == pieces[j]) {
                pieces.swap(i, j);
                squares.swap(i, j);
            }
        }
        let idx = sub.groups.index(shape, &mut squares, lead_pawns)?;
        Some(Stored::Value((file.value(sub, idx)?, sub, file)))
    }

    /// The WDL value stored for `pos`, -2..2.
    fn stored_wdl(&self, pos: &Position) -> Option<i32> {
        if pos.occupied().count() == 2 {
            return Some(0);
        }
        match self.stored(pos, Kind::Wdl)? {
            Stored::Value((v, _, _)) if v <= 4 => Some(v as i32 - 2),
            _ => None,
        }
    }

    /// The DTZ stored for `pos` (plies, positive), knowing its WDL.
    fn stored_dtz(&self, pos: &Position, wdl: Wdl) -> Option<Stored<i32>> {
        let (value, sub, file) = match self.stored(pos, Kind::Dtz)? {
            Stored::OtherSide => return Some(Stored::OtherSide),
            Stored::Value(found) => found,
        };
        let result = match wdl {
            Wdl::Win => 0,
            Wdl::Loss => 1,
            Wdl::CursedWin => 2,
            Wdl::BlessedLoss => 3,
            Wdl::Draw => return Some(Stored::Value(0)),
        };
        let mut dtz = file.mapped_dtz(sub, result, value)? as i32;
        let in_plies = match wdl {
            Wdl::Win => sub.in_plies(true),
            Wdl::Loss => sub.in_plies(false),
            _ => false,
        };
        if !in_plies {
            dtz *= 2;
        }
        Some(Stored::Value(dtz + 1))
    }

    /// The position's WDL with captures resolved; with `zeroing_moves`, pawn moves are tried too
    /// (as DTZ needs). Also says whether the best move is a zeroing one.
    fn search(&self, pos: &Position, zeroing_moves: bool) -> Option<(Wdl, bool)> {
        let mut moves = MoveList::new();
        generate_legal(pos, &mut moves);
        let mut best = -2;
        let mut tried = 0;
        for &mv in moves.iter() {
            let tried_here = mv.is_capture() || (zeroing_moves && is_zeroing(pos, mv));
            if !tried_here {
                continue;
            }
            tried += 1;
            let (child, _) = self.search(&pos.after(mv), false)?;
            let v = -child.to_i32();
            if v > best {
                best = v;
                if v >= 2 {
                    return Some((Wdl::Win, true));
                }
            }
        }
        // When every legal move was tried the stored value is not needed (and may be wrong:
        // positions with an en-passant capture are not stored).
        let all_tried = tried > 0 && tried == moves.len();
        let value = if all_tried { best } else { self.stored_wdl(pos)? };
        if best >= value {
            return Some((Wdl::from_i32(best)?, best > 0 || all_tried));
        }
        Some((Wdl::from_i32(value)?, false))
    }

    /// The position's win / draw / loss for the side to move, or `None` if its table is missing
    /// (or corrupt). Castling rights are not considered: the caller checks there are none.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        if pos.occupied().count() as usize > self.max_pieces() {
            return None;
        }
        self.search(pos, false).map(|(wdl, _)| wdl)
    }

    /// The position's DTZ for the side to move: plies to the next zeroing move with best play,
    /// positive when winning, negative when losing, 0 for a draw; beyond ±100 for a cursed win or
    /// blessed loss. May be one ply too high, as the tables' own convention (see README).
    pub fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        if pos.occupied().count() as usize > self.max_pieces() {
            return None;
        }
        self.dtz(pos, true)
    }

    /// DTZ; `may_go_deeper` is false one ply below a position whose side the file does not store,
    /// where the file must store the side (a corrupt file could otherwise send the prober back
    /// and forth for ever).
    fn dtz(&self, pos: &Position, may_go_deeper: bool) -> Option<i32> {
        let (wdl, zeroing_best) = self.search(pos, true)?;
        if wdl == Wdl::Draw {
            return Some(0);
        }
        if zeroing_best {
            return Some(dtz_before_zeroing(wdl));
        }
        match self.stored_dtz(pos, wdl)? {
            Stored::Value(dtz) => {
                let cursed = matches!(wdl, Wdl::CursedWin | Wdl::BlessedLoss);
                Some((dtz + if cursed { 100 } else { 0 }) * sign(wdl.to_i32()))
            }
            Stored::OtherSide if may_go_deeper => self.dtz_one_ply_deeper(pos, wdl),
            Stored::OtherSide => None,
        }
    }

    /// DTZ from the best child's DTZ, for positions whose side to move the file does not store.
    fn dtz_one_ply_deeper(&self, pos: &Position, wdl: Wdl) -> Option<i32> {
        let mut moves = MoveList::new();
        generate_legal(pos, &mut moves);
        let mut min_dtz = i32::MAX;
        for &mv in moves.iter() {
            let zeroing = is_zeroing(pos, mv);
            let child = pos.after(mv);
            let mut dtz =
                if zeroing { -dtz_before_zeroing(self.search(&child, false)?.0) } else { -self.dtz(&child, false)? };
            if dtz == 1 && child.is_check() && crate::movegen::count_legal(&child) == 0 {
                min_dtz = 1;
            }
            if !zeroing {
                dtz += sign(dtz);
            }
            if dtz < min_dtz && sign(dtz) == sign(wdl.to_i32()) {
                min_dtz = dtz;
            }
        }
        Some(if min_dtz == i32::MAX { -1 } else { min_dtz })
    }

    /// For each legal move of `pos`, the DTZ from `pos`'s side's point of view after playing it
    /// (a mating move has DTZ 1), as the root move ranking needs. `None` if a table is missing.
    pub fn root_dtz(&self, pos: &Position, mv: crate::types::Move) -> Option<i32> {
        let child = pos.after(mv);
        let mut dtz = if child.halfmove_clock() == 0 {
            dtz_before_zeroing(self.probe_wdl(&child)?.negate())
        } else {
            let d = -self.probe_dtz(&child)?;
            d + sign(d)
        };
        if dtz == 2 && child.is_check() && crate::movegen::count_legal(&child) == 0 {
            dtz = 1;
        }
        Some(dtz)
    }
}

impl Tablebases {
    /// The DTZ-optimal move of `pos`: the fastest zeroing of a win, a draw kept, the slowest loss
    /// (ties: the first generated). `None` without legal moves or with a table missing.
    pub fn best_move(&self, pos: &Position) -> Option<(crate::types::Move, i32)> {
        let mut moves = MoveList::new();
        generate_legal(pos, &mut moves);
        let preference = |dtz: i32| match dtz.signum() {
            1 => (2, -dtz),
            0 => (1, 0),
            _ => (0, -dtz),
        };
        let mut best: Option<(crate::types::Move, i32)> = None;
        for &mv in moves.iter() {
            let dtz = self.root_dtz(pos, mv)?;
            if best.is_none_or(|(_, b)| preference(dtz) > preference(b)) {
                best = Some((mv, dtz));
            }
        }
        best
    }
}

fn material_key_of(pos: &Position) -> u64 {
    super::material_key(&super::position_counts(pos))
}
