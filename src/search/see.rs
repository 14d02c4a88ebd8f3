//! Static exchange evaluation: whether the capture sequence on a move's destination, each side
//! recapturing with its least valuable attacker (x-rays included), nets at least a threshold.
//! Used to order captures and to prune losing ones.

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Move, Piece};

/// Piece values for exchanges (the king is worth more than anything it could win).
pub const SEE_VALUES: [i32; 6] = [100, 300, 325, 500, 900, 20_000];

/// The value of what `mv` captures (a pawn for en passant, nothing for a quiet move).
#[inline]
pub fn captured_value(pos: &Position, mv: Move) -> i32 {
    if mv.is_en_passant() {
        SEE_VALUES[Piece::Pawn]
    } else {
        pos.piece_on(mv.to()).map_or(0, |p| SEE_VALUES[p])
    }
}

/// Whether the exchange started by `mv` gains at least `threshold` centipawns for the mover.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() || mv.is_en_passant() || mv.is_promotion() {
        // Rare in exchanges; count what is captured and stop there.
        return captured_value(pos, mv) >= threshold;
    }
    let (from, to) = (mv.from(), mv.to());
    let Some(moved) = pos.piece_on(from) else {
        return false;
    };
    let mut swap = captured_value(pos, mv) - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUES[moved] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.occupied().without(from).without(to);
    let mut attackers = pos.attackers_to(to, occupied) & occupied;
    let mut side = pos.side_to_move();
    let diagonal = pos.pieces_of_kind(Piece::Bishop) | pos.pieces_of_kind(Piece::Queen);
    let orthogonal = pos.pieces_of_kind(Piece::Rook) | pos.pieces_of_kind(Piece::Queen);
    // `result` is 1 while the side that moved last is winning the exchange.
    let mut result = true;
    loop {
        side = !side;
        attackers &= occupied;
        let mine = attackers & pos.color(side);
        if mine.is_empty() {
            break;
        }
        result = !result;
        let Some((piece, from)) = least_valuable(pos, mine) else {
            break;
        };
        if piece == Piece::King {
            // The king may only recapture if the other side has nothing left to answer with.
            if (attackers & pos.color(!side)).is_nonempty() {
                result = !result;
            }
            break;
        }
        swap = SEE_VALUES[piece] - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied = occupied.without(from);
        // Pieces behind the one that just captured join in along the same line.
        if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            attackers |= attacks::bishop(to, occupied) & diagonal;
        }
        if matches!(piece, Piece::Rook | Piece::Queen) {
            attackers |= attacks::rook(to, occupied) & orthogonal;
        }
    }
    result
}

fn least_valuable(pos: &Position, attackers: Bitboard) -> Option<(Piece, crate::types::Square)> {
    Piece::ALL.into_iter().find_map(|piece| {
        let of_kind = attackers & pos.pieces_of_kind(piece);
        of_kind.is_nonempty().then(|| (piece, of_kind.lsb()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveKind, Square};

    fn see_value(fen: &str, from: Square, to: Square) -> i32 {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
        let kind = if pos.occupied().contains(to) { MoveKind::CAPTURE } else { MoveKind::QUIET };
        let mv = Move::new(from, to, kind);
        assert!(crate::movegen::is_legal_move(&pos, mv), "{mv:?}");
        // The largest threshold the exchange still meets is its value.
        let mut value = -2000;
        while see_ge(&pos, mv, value + 1) {
            value += 1;
        }
        value
    }

    #[test]
    fn see_values_of_known_exchanges() {
        // Rook takes an undefended pawn.
        assert_eq!(see_value("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", Square::E1, Square::E5), 100);
        // Knight takes a pawn defended by a pawn: wins the pawn, loses the knight.
        assert_eq!(
            see_value("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", Square::D3, Square::E5),
            100 - 300
        );
        // Queen takes a pawn defended by a rook behind a rook: loses the queen.
        assert_eq!(see_value("4r1k1/4r3/8/4p3/8/8/4Q3/4K3 w - - 0 1", Square::E2, Square::E5), 100 - 900);
        // Rook takes a rook defended by a rook, a second rook behind ours (x-ray): RxR, RxR,
        // RxR nets a rook.
        assert_eq!(see_value("3r2k1/3r4/8/8/8/8/3R4/3R2K1 w - - 0 1", Square::D2, Square::D7), 500);
        // Quiet moves: to a square a pawn attacks loses the piece, elsewhere nothing.
        assert_eq!(see_value("4k3/8/2p5/8/8/8/8/1N2K3 w - - 0 1", Square::B1, Square::D2), 0);
        assert_eq!(see_value("4k3/8/2p5/8/8/8/8/3NK3 w - - 0 1", Square::D1, Square::B2), 0);
        assert_eq!(see_value("4k3/8/2p5/8/4N3/8/8/4K3 w - - 0 1", Square::E4, Square::D6), 0);
        assert_eq!(see_value("4k3/2p5/8/8/4N3/8/8/4K3 w - - 0 1", Square::E4, Square::D6), -300);
    }
}
