//! Correction history: how far the search's scores landed from the static evaluation, kept as
//! running averages over positions with the same pawn structure and over positions in which
//! White's, or Black's, pieces other than pawns stand on the same squares, per side to move.
//! The static evaluation that pruning sees is moved by the mean of the three.

use super::tt::MATE_BOUND;
use crate::position::Position;
use crate::types::{Color, Piece};

/// Entries per side to move in each table.
const SIZE: usize = 16_384;
/// Entries are kept in 1/GRAIN centipawns, so small weights still move them.
const GRAIN: i32 = 256;
/// An update's weight is out of this...
const WEIGHT_SCALE: i32 = 256;
/// ...and a search of depth d weighs min(d + 1, MAX_WEIGHT).
const MAX_WEIGHT: i32 = 16;
/// An entry (and so the correction, the mean of the entries) is at most this many centipawns.
const MAX_CORRECTION_CP: i32 = 64;
/// The tables: pawn structure, White's other pieces, Black's other pieces.
const TABLES: usize = 3;

/// The correction tables of one search thread, each `2 * SIZE` entries (per side to move).
pub struct CorrectionHistory {
    tables: [Vec<i32>; TABLES],
}

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory { tables: std::array::from_fn(|_| vec![0; 2 * SIZE]) }
    }
}

/// A multiplicative hash of 64-bit words into 0..SIZE.
#[inline]
fn mix(words: &[u64]) -> usize {
    let h = words
        .iter()
        .fold(0x243f_6a88_85a3_08d3u64, |h, &w| (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29));
    (h.wrapping_mul(0x1656_67b1_9e37_79f9) >> 50) as usize % SIZE
}

/// The squares of `color`'s knights, bishops, rooks, queens and king, hashed.
#[inline]
fn non_pawn_slot(pos: &Position, color: Color) -> usize {
    let [n, b, r, q, k] =
        [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King].map(|piece| pos.pieces(color, piece).0);
    mix(&[n, b, r, q, k])
}

impl CorrectionHistory {
    /// The slot of `pos` in each table.
    #[inline]
    fn slots(pos: &Position) -> [usize; TABLES] {
        let stm = pos.side_to_move().index() * SIZE;
        let pawns = mix(&[pos.pieces(Color::White, Piece::Pawn).0, pos.pieces(Color::Black, Piece::Pawn).0]);
        [pawns, non_pawn_slot(pos, Color::White), non_pawn_slot(pos, Color::Black)].map(|slot| stm + slot)
    }

    /// `eval` (the raw static evaluation) moved by the mean error the searches of similar
    /// positions found.
    #[inline]
    pub fn correct(&self, pos: &Position, eval: i32) -> i32 {
        let slots = Self::slots(pos);
        let sum: i32 = self.tables.iter().zip(slots).map(|(table, slot)| table[slot]).sum();
        let correction = sum / (TABLES as i32 * GRAIN);
        (eval + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the entries of `pos` toward `error` (the search score less the raw evaluation),
    /// the more the deeper the search.
    pub fn update(&mut self, pos: &Position, depth: i32, error: i32) {
        let slots = Self::slots(pos);
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let target = (error * GRAIN).clamp(-MAX_CORRECTION_CP * GRAIN, MAX_CORRECTION_CP * GRAIN);
        for (table, slot) in self.tables.iter_mut().zip(slots) {
            let entry = &mut table[slot];
            *entry = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_errors_and_stay_bounded() {
        let pos = Position::startpos();
        let mut history = CorrectionHistory::default();
        assert_eq!(history.correct(&pos, 20), 20);
        for _ in 0..200 {
            history.update(&pos, 12, 40);
        }
        // Every table converges on the error, and the correction is their mean: about 40.
        let corrected = history.correct(&pos, 20);
        assert!((57..=60).contains(&corrected), "{corrected}");
        for _ in 0..200 {
            history.update(&pos, 12, 10_000);
        }
        let capped = history.correct(&pos, 0);
        assert!((MAX_CORRECTION_CP - 2..=MAX_CORRECTION_CP).contains(&capped), "{capped}");
        // The other side to move has its own entries.
        let black = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(history.correct(&black, 5), 5);
    }
}
