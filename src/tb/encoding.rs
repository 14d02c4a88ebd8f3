//! The Syzygy index encoding's fixed tables, computed at compile time (`const fn`), and the
//! index of a set of pieces within one sub-table.
//!
//! A table position is the list of its pieces in the order the file gives, each on a square
//! already flipped so that the stronger side is White. The leading group (the kings plus one
//! more unique piece, or only the kings, or the leading pawns) is encoded with the board's
//! symmetries removed; every later group of like pieces as a combination of the squares left.

/// The most pieces a Syzygy table holds.
pub const MAX_PIECES: usize = 7;

/// `rank - file`: 0 on the a1-h8 diagonal, negative below it.
pub const fn diagonal_offset(sq: u8) -> i32 {
    (sq >> 3) as i32 - (sq & 7) as i32
}

const fn king_distance(a: u8, b: u8) -> i32 {
    let files = ((a & 7) as i32 - (b & 7) as i32).abs();
    let ranks = ((a >> 3) as i32 - (b >> 3) as i32).abs();
    if files > ranks {
        files
    } else {
        ranks
    }
}

/// The 28 squares below the a1-h8 diagonal, numbered 0..27 in square order.
pub const BELOW_DIAGONAL: [u16; 64] = {
    let mut map = [0u16; 64];
    let (mut sq, mut code) = (0, 0);
    while sq < 64 {
        if diagonal_offset(sq as u8) < 0 {
            map[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    map
};

/// The a1-d1-d4 triangle: b1 c1 d1 c2 d2 d3 are 0..5, then the diagonal a1 b2 c3 d4 are 6..9.
pub const TRIANGLE: [u16; 64] = {
    let mut map = [0u16; 64];
    let mut code = 0;
    let mut sq = 0;
    while sq <= 27 {
        if diagonal_offset(sq as u8) < 0 && (sq & 7) <= 3 {
            map[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    sq = 0;
    while sq <= 27 {
        if diagonal_offset(sq as u8) == 0 && (sq & 7) <= 3 {
            map[sq] = code;
            code += 1;
        }
        sq += 1;
    }
    map
};

/// The 462 placements of two kings with the first in the a1-d1-d4 triangle (and the second not
/// above the diagonal when the first is on it); both on the diagonal are numbered last.
pub const KING_PAIRS: [[u16; 64]; 10] = {
    let mut map = [[0u16; 64]; 10];
    let mut code = 0u16;
    // Pass 0 numbers the pairs not both on the diagonal, pass 1 those that are.
    let mut pass = 0;
    while pass < 2 {
        let mut idx = 0;
        while idx < 10 {
            let mut s1 = 0u8;
            while s1 <= 27 {
                let in_triangle = (s1 & 7) <= 3 && diagonal_offset(s1) <= 0;
                if in_triangle && TRIANGLE[s1 as usize] as usize == idx {
                    let mut s2 = 0u8;
                    while s2 < 64 {
                        let legal = king_distance(s1, s2) > 1;
                        let s1_diag = diagonal_offset(s1) == 0;
                        let above = s1_diag && diagonal_offset(s2) > 0;
                        let both_diag = s1_diag && diagonal_offset(s2) == 0;
                        if legal && !above && both_diag == (pass == 1) {
                            map[idx][s2 as usize] = code;
                            code += 1;
                        }
                        s2 += 1;
                    }
                }
                s1 += 1;
            }
            idx += 1;
        }
        pass += 1;
    }
    map
};

/// `BINOMIAL[k][n]`: the ways to choose `k` of `n` squares.
pub const BINOMIAL: [[u64; 65]; MAX_PIECES + 1] = {
    let mut table = [[0u64; 65]; MAX_PIECES + 1];
    let mut n = 0;
    while n <= 64 {
        let mut k = 0;
        while k <= MAX_PIECES {
            table[k][n] = if k == 0 {
                1
            } else if n == 0 {
                0
            } else {
                table[k - 1][n - 1] + table[k][n - 1]
            };
            k += 1;
        }
        n += 1;
    }
    table
};

/// Pawn squares a2-h7 numbered so that the leading pawn (nearest the edge, then lowest rank)
/// has the highest number: a2 = 47, h2 = 46, a3 = 45, ...
pub const PAWN_SQUARES: [u16; 64] = {
    let mut map = [0u16; 64];
    let mut available = 47i32;
    let mut file = 0;
    while file < 4 {
        let mut rank = 1;
        while rank <= 6 {
            let sq = rank * 8 + file;
            map[sq] = available as u16;
            map[sq ^ 7] = (available - 1) as u16;
            available -= 2;
            rank += 1;
        }
        file += 1;
    }
    map
};

/// `LEAD_PAWN_INDEX[count][sq]`: where the leading pawn group's index starts when its leading
/// pawn stands on `sq` (files a-d), for `count` leading pawns.
pub const LEAD_PAWN_INDEX: [[u64; 64]; 6] = lead_pawn_tables().0;

/// `LEAD_PAWN_GROUP_SIZE[count][file]`: the number of leading-pawn placements on that file.
pub const LEAD_PAWN_GROUP_SIZE: [[u64; 4]; 6] = lead_pawn_tables().1;

const fn lead_pawn_tables() -> ([[u64; 64]; 6], [[u64; 4]; 6]) {
    let mut index = [[0u64; 64]; 6];
    let mut size = [[0u64; 4]; 6];
    let mut count = 1;
    while count <= 5 {
        let mut file = 0;
        while file < 4 {
            let mut idx = 0;
            let mut rank = 1;
            while rank <= 6 {
                let sq = rank * 8 + file;
                index[count][sq] = idx;
                idx += BINOMIAL[count - 1][PAWN_SQUARES[sq] as usize];
                rank += 1;
            }
            size[count][file] = idx;
            file += 1;
        }
        count += 1;
    }
    (index, size)
}

/// Placements of three unique pieces with the first in the triangle (the leading group of a
/// pawnless table with a unique piece besides the kings).
pub const UNIQUE_TRIPLES: u64 = 31_332;

/// Placements of the two kings (the leading group when no other piece is unique).
pub const KING_PAIR_COUNT: u64 = 462;

fn flip_file(sq: u8) -> u8 {
    sq ^ 7
}

fn flip_rank(sq: u8) -> u8 {
    sq ^ 56
}

fn transpose(sq: u8) -> u8 {
    ((sq >> 3) | (sq << 3)) & 63
}

/// How a sub-table groups and orders its pieces (read from the file header).
#[derive(Clone, Debug, Default)]
pub struct Groups {
    /// Pieces in the file's order, as table codes (1-6 White pawn..king, 9-14 Black).
    pub pieces: [u8; MAX_PIECES],
    /// Pieces per group, zero-terminated.
    pub len: [usize; MAX_PIECES + 1],
    /// The multiplier of each group's index; `factor[groups]` is the sub-table's size.
    pub factor: [u64; MAX_PIECES + 1],
}

/// What the encoder needs to know about the table as a whole.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub piece_count: usize,
    pub has_pawns: bool,
    pub has_unique_pieces: bool,
    /// Pawns of the leading colour, then of the other.
    pub pawn_count: [u8; 2],
}

impl Groups {
    /// Splits `pieces` into groups and sets each group's factor, from the two order nibbles.
    pub fn new(shape: &Shape, pieces: [u8; MAX_PIECES], order: [u8; 2], file: usize) -> Option<Groups> {
        let mut groups = Groups { pieces, ..Groups::default() };
        let mut first_len: i32 = if shape.has_pawns {
            0
        } else if shape.has_unique_pieces {
            3
        } else {
            2
        };
        let mut n = 0;
        groups.len[0] = 1;
        for i in 1..shape.piece_count {
            first_len -= 1;
            if first_len > 0 || pieces[i] == pieces[i - 1] {
                groups.len[n] += 1;
            } else {
                n += 1;
                groups.len[n] = 1;
            }
        }
        n += 1;
        groups.len[n] = 0;

        let both_pawns = shape.has_pawns && shape.pawn_count[1] > 0;
        let mut next = if both_pawns { 2 } else { 1 };
        let mut free_squares = 64usize.checked_sub(groups.len[0] + if both_pawns { groups.len[1] } else { 0 })?;
        let mut size: u64 = 1;
        let (order0, order1) = (order[0] as usize, order[1] as usize);
        let mut k = 0;
        while next < n || k == order0 || k == order1 {
            if k > 16 {
                return None; // a corrupt order nibble: no group ever matches
            }
            if k == order0 {
                groups.factor[0] = size;
                let leading = if shape.has_pawns {
                    *LEAD_PAWN_GROUP_SIZE.get(groups.len[0])?.get(file)?
                } else if shape.has_unique_pieces {
                    UNIQUE_TRIPLES
                } else {
                    KING_PAIR_COUNT
                };
                size = size.checked_mul(leading)?;
            } else if k == order1 {
                groups.factor[1] = size;
                let squares = 48usize.checked_sub(groups.len[0])?;
                size = size.checked_mul(*BINOMIAL.get(groups.len[1])?.get(squares)?)?;
            } else {
                groups.factor[next] = size;
                size = size.checked_mul(*BINOMIAL.get(groups.len[next])?.get(free_squares)?)?;
                free_squares = free_squares.checked_sub(groups.len[next])?;
                next += 1;
            }
            k += 1;
        }
        groups.factor[n] = size;
        Some(groups)
    }

    /// The sub-table's size: the number of indices it encodes.
    pub fn table_size(&self) -> u64 {
        let groups = self.len.iter().position(|&len| len == 0).unwrap_or(MAX_PIECES);
        self.factor[groups]
    }

    /// The index of the pieces on `squares` (in this sub-table's piece order, the first
    /// `lead_pawns` being the leading pawns with the leading one first). `None` if the squares
    /// cannot be a position of this table.
    pub fn index(&self, shape: &Shape, squares: &mut [u8; MAX_PIECES], lead_pawns: usize) -> Option<u64> {
        let size = shape.piece_count;
        if squares[0] & 7 > 3 {
            squares[..size].iter_mut().for_each(|sq| *sq = flip_file(*sq));
        }
        let mut idx = if shape.has_pawns {
            let mut idx = LEAD_PAWN_INDEX[lead_pawns][squares[0] as usize];
            squares[1..lead_pawns].sort_by_key(|&sq| PAWN_SQUARES[sq as usize]);
            for (i, &sq) in squares.iter().enumerate().take(lead_pawns).skip(1) {
                idx += BINOMIAL[i][PAWN_SQUARES[sq as usize] as usize];
            }
            idx
        } else {
            self.leading_pieces_index(shape, squares)
        };

        idx = idx.checked_mul(self.factor[0])?;
        let mut start = self.len[0];
        let mut remaining_pawns = shape.has_pawns && shape.pawn_count[1] > 0;
        let mut next = 1;
        while self.len[next] != 0 {
            let end = start + self.len[next];
            squares[start..end].sort_unstable();
            let mut n = 0u64;
            for i in start..end {
                let sq = squares[i];
                let below = squares[..start].iter().filter(|&&s| sq > s).count();
                let free = (sq as usize).checked_sub(below + if remaining_pawns { 8 } else { 0 })?;
                n += BINOMIAL[i - start + 1][free];
            }
            remaining_pawns = false;
            idx = idx.checked_add(n.checked_mul(self.factor[next])?)?;
            start = end;
            next += 1;
        }
        Some(idx)
    }

    /// The index of a pawnless table's leading group (the first piece already on files a-d).
    fn leading_pieces_index(&self, shape: &Shape, squares: &mut [u8; MAX_PIECES]) -> u64 {
        let size = shape.piece_count;
        if squares[0] >> 3 > 3 {
            squares[..size].iter_mut().for_each(|sq| *sq = flip_rank(*sq));
        }
        // The first leading piece off the diagonal decides whether to mirror along it.
        for i in 0..self.len[0] {
            let offset = diagonal_offset(squares[i]);
            if offset == 0 {
                continue;
            }
            if offset > 0 {
                squares[i..size].iter_mut().for_each(|sq| *sq = transpose(*sq));
            }
            break;
        }
        if !shape.has_unique_pieces {
            return KING_PAIRS[TRIANGLE[squares[0] as usize] as usize][squares[1] as usize] as u64;
        }
        let (s0, s1, s2) = (squares[0] as u64, squares[1] as u64, squares[2] as u64);
        let adjust1 = (s1 > s0) as u64;
        let adjust2 = (s2 > s0) as u64 + (s2 > s1) as u64;
        let rank = |sq: u64| sq >> 3;
        let below = |sq: u64| BELOW_DIAGONAL[sq as usize] as u64;
        if diagonal_offset(squares[0]) != 0 {
            (TRIANGLE[s0 as usize] as u64 * 63 + (s1 - adjust1)) * 62 + s2 - adjust2
        } else if diagonal_offset(squares[1]) != 0 {
            (6 * 63 + rank(s0) * 28 + below(s1)) * 62 + s2 - adjust2
        } else if diagonal_offset(squares[2]) != 0 {
            6 * 63 * 62 + 4 * 28 * 62 + rank(s0) * 7 * 28 + (rank(s1) - adjust1) * 28 + below(s2)
        } else {
            6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + rank(s0) * 7 * 6 + (rank(s1) - adjust1) * 6 + (rank(s2) - adjust2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_tables_have_their_known_sizes() {
        // 462 king pairs, numbered 0..461 with every code used once.
        let mut seen = vec![false; 462];
        for (idx, row) in KING_PAIRS.iter().enumerate() {
            for (s2, &code) in row.iter().enumerate() {
                let s1 = (0..=27u8)
                    .find(|&s| (s & 7) <= 3 && diagonal_offset(s) <= 0 && TRIANGLE[s as usize] as usize == idx);
                let s1 = s1.expect("every triangle code has a square");
                let legal =
                    king_distance(s1, s2 as u8) > 1 && !(diagonal_offset(s1) == 0 && diagonal_offset(s2 as u8) > 0);
                if legal {
                    assert!(!seen[code as usize], "code {code} used twice");
                    seen[code as usize] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(BINOMIAL[2][62], 62 * 61 / 2);
        assert_eq!(BINOMIAL[5][64], 7_624_512);
        assert_eq!((PAWN_SQUARES[8], PAWN_SQUARES[15], PAWN_SQUARES[16]), (47, 46, 45));
        // One leading pawn: 6 ranks times the squares left below it, per file.
        assert_eq!(LEAD_PAWN_GROUP_SIZE[1], [6, 6, 6, 6]);
        assert_eq!(TRIANGLE[1], 0);
        assert_eq!((TRIANGLE[0], TRIANGLE[27]), (6, 9));
    }
}
