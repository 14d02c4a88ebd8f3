//! Attack lookups over the tables `build.rs` generates: leapers by square, sliders by square and
//! occupancy (PEXT where the target has BMI2, magic multiplication elsewhere), and the
//! between/line masks behind pins, checks and castling paths.

use crate::types::{Bitboard, Color, Square};

/// One square's slider lookup; see `tablegen::SliderEntry`.
pub struct SliderEntry {
    mask: u64,
    #[cfg_attr(springer_pext, allow(dead_code))]
    magic: u64,
    #[cfg_attr(springer_pext, allow(dead_code))]
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

// The generator is the tests' slow oracle; they use only part of it.
#[cfg(test)]
#[allow(dead_code)]
mod tablegen;

/// How sliders are looked up in this build: `pext` (BMI2) or `magic` multiplication.
pub const SLIDER_LOOKUP: &str = if cfg!(springer_pext) { "pext" } else { "magic" };

impl SliderEntry {
    /// The slot of `occupied` in `SLIDER_ATTACKS`.
    #[inline(always)]
    fn index(&self, occupied: Bitboard) -> usize {
        #[cfg(springer_pext)]
        // SAFETY: `springer_pext` is set by build.rs only when the build's target features
        // include bmi2, so every CPU this binary may run on has the PEXT instruction.
        let local = unsafe { std::arch::x86_64::_pext_u64(occupied.0, self.mask) } as usize;
        #[cfg(not(springer_pext))]
        let local = ((occupied.0 & self.mask).wrapping_mul(self.magic) >> self.shift) as usize;
        self.offset + local
    }
}

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq])
}

/// Squares from which a knight attacks a square next to a king on `sq` (knights elsewhere
/// cannot take a square from that king).
#[inline(always)]
pub fn knights_near_king(sq: Square) -> Bitboard {
    Bitboard(KNIGHTS_NEAR_KING[sq])
}

/// Squares whose diagonals (on an empty board) pass next to a king on `sq`: bishops and queens
/// elsewhere cannot take a square from that king.
#[inline(always)]
pub fn bishops_near_king(sq: Square) -> Bitboard {
    Bitboard(BISHOPS_NEAR_KING[sq])
}

/// Squares whose rank or file passes next to a king on `sq`: rooks and queens elsewhere cannot
/// take a square from that king.
#[inline(always)]
pub fn rooks_near_king(sq: Square) -> Bitboard {
    Bitboard(ROOKS_NEAR_KING[sq])
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color][sq])
}

/// The attacks stored for `entry` and `occupied`.
#[inline(always)]
fn slider(entry: &SliderEntry, occupied: Bitboard) -> Bitboard {
    let idx = entry.index(occupied);
    debug_assert!(idx < SLIDER_ATTACKS.len());
    // SAFETY: table generation gives each square `1 << mask.count_ones()` slots from its offset,
    // and both index forms stay below that: PEXT yields at most `mask.count_ones()` bits, and a
    // magic product shifted right by `64 - mask.count_ones()` does too. The last square's slots
    // end at the table's length; `tests::all_slider_indices_in_bounds` re-checks every subset.
    Bitboard(unsafe { *SLIDER_ATTACKS.get_unchecked(idx) })
}

/// Squares a rook on `sq` attacks, given the `occupied` squares.
#[inline(always)]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    slider(&ROOK_ENTRIES[sq], occupied)
}

/// Squares a bishop on `sq` attacks, given the `occupied` squares.
#[inline(always)]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    slider(&BISHOP_ENTRIES[sq], occupied)
}

/// Squares a rook on `sq` attacks on an empty board (its lines): no occupancy lookup.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq])
}

/// Squares a bishop on `sq` attacks on an empty board (its diagonals): no occupancy lookup.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq])
}

/// Squares a queen on `sq` attacks, given the `occupied` squares.
#[inline(always)]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// Every square attacked by bishop-like pieces on `diagonal` and rook-like pieces on
/// `orthogonal` (a queen in both) when `occupied` holds the blockers.
#[inline]
pub fn slider_map(diagonal: Bitboard, orthogonal: Bitboard, occupied: Bitboard) -> Bitboard {
    let mut attacked = Bitboard::EMPTY;
    for sq in diagonal {
        attacked |= bishop(sq, occupied);
    }
    for sq in orthogonal {
        attacked |= rook(sq, occupied);
    }
    attacked
}

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a][b])
}

/// The full line through `a` and `b` if they share one (both included), else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a][b])
}

/// The squares a king on `king` crosses and lands on when it castles with the rook on `rook`
/// (the same rank): none of them may be attacked.
#[inline(always)]
pub fn castling_king_path(king: Square, rook: Square) -> Bitboard {
    Bitboard(CASTLING_KING_PATH[king][rook])
}

/// Squares whose diagonals (on an empty board) reach a square of the king's castling path with
/// the rook on `rook` that is not next to the king: the bishops and queens castling adds to
/// `bishops_near_king`.
#[inline(always)]
pub fn castling_diagonal_reach(king: Square, rook: Square) -> Bitboard {
    Bitboard(CASTLING_DIAGONAL_REACH[king][rook])
}

/// Like `castling_diagonal_reach`, for ranks and files (rooks and queens).
#[inline(always)]
pub fn castling_orthogonal_reach(king: Square, rook: Square) -> Bitboard {
    Bitboard(CASTLING_ORTHOGONAL_REACH[king][rook])
}

/// The squares that must be empty for a king on `king` to castle with the rook on `rook` (the
/// same rank): both pieces' paths and landing squares, less the two pieces' own squares.
#[inline(always)]
pub fn castling_clear(king: Square, rook: Square) -> Bitboard {
    Bitboard(CASTLING_CLEAR[king][rook])
}

/// Whether `a`, `b` and `c` lie on one rank, file or diagonal.
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Every square attacked by the pawns in `pawns` of `color`.
#[inline(always)]
pub fn pawns_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let ahead = pawns.forward(color.is_white());
    ahead.east() | ahead.west()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_occupancies() -> impl Iterator<Item = u64> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        (0..2000).map(move |_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state & state.rotate_left(17)
        })
    }

    #[test]
    fn generated_tables_match_tablegen() {
        for sq in Square::ALL {
            let i = sq.index();
            assert_eq!(knight(sq).0, tablegen::knight_attacks(i));
            assert_eq!(king(sq).0, tablegen::king_attacks(i));
            assert_eq!(rook_rays(sq), rook(sq, Bitboard::EMPTY));
            assert_eq!(bishop_rays(sq), bishop(sq, Bitboard::EMPTY));
            for color in Color::ALL {
                assert_eq!(pawn(color, sq).0, tablegen::pawn_attacks(color.index(), i));
            }
            for b in Square::ALL {
                assert_eq!(between(sq, b).0, tablegen::between(i, b.index()));
                assert_eq!(line(sq, b).0, tablegen::line(i, b.index()));
                let (king_path, clear) = tablegen::castling_paths(i, b.index());
                assert_eq!((castling_king_path(sq, b).0, castling_clear(sq, b).0), (king_path, clear));
                let far = Bitboard(king_path) & !king(sq);
                let diagonal_reach = far.into_iter().fold(Bitboard::EMPTY, |reach, to| reach | bishop_rays(to));
                let orthogonal_reach = far.into_iter().fold(Bitboard::EMPTY, |reach, to| reach | rook_rays(to));
                assert_eq!(castling_diagonal_reach(sq, b), diagonal_reach);
                assert_eq!(castling_orthogonal_reach(sq, b), orthogonal_reach);
            }
        }
    }

    #[test]
    fn slider_lookups_match_ray_walk() {
        for sq in Square::ALL {
            for occ in random_occupancies() {
                let i = sq.index();
                assert_eq!(rook(sq, Bitboard(occ)).0, tablegen::slider_attacks(i, occ, &tablegen::ROOK_DIRECTIONS));
                assert_eq!(bishop(sq, Bitboard(occ)).0, tablegen::slider_attacks(i, occ, &tablegen::BISHOP_DIRECTIONS));
            }
        }
    }

    #[test]
    fn all_slider_indices_in_bounds() {
        for entries in [&ROOK_ENTRIES, &BISHOP_ENTRIES] {
            for entry in entries.iter() {
                let mut occ = 0u64;
                loop {
                    assert!(entry.index(Bitboard(occ)) < SLIDER_ATTACKS.len());
                    occ = occ.wrapping_sub(entry.mask) & entry.mask;
                    if occ == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn pieces_near_king_are_those_reaching_a_square_next_to_it() {
        // From the piece's side: a piece on `from` belongs exactly when its own empty-board
        // attacks meet the king's neighbours (the tables are built from the neighbours' side).
        for ksq in Square::ALL {
            for from in Square::ALL {
                let reaches = |attacks: Bitboard| (attacks & king(ksq)).is_nonempty();
                assert_eq!(knights_near_king(ksq).contains(from), reaches(knight(from)), "{ksq} {from}");
                assert_eq!(bishops_near_king(ksq).contains(from), reaches(bishop_rays(from)), "{ksq} {from}");
                assert_eq!(rooks_near_king(ksq).contains(from), reaches(rook_rays(from)), "{ksq} {from}");
            }
        }
    }

    #[test]
    fn pawn_set_attacks_match_single_square_attacks() {
        for color in Color::ALL {
            for sq in Square::ALL {
                assert_eq!(pawns_attacks(color, sq.into()), pawn(color, sq));
            }
        }
    }

    #[test]
    fn zobrist_keys_are_distinct() {
        let mut keys = tablegen::zobrist_keys();
        keys.retain(|&k| k != 0);
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
        assert_eq!(n, 768 + 15 + 8 + 1);
    }
}
