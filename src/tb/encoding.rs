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

    // Table codes: White pawn, knight, rook, king; Black pawn, knight, king.
    const P: u8 = 1;
    const N: u8 = 2;
    const R: u8 = 4;
    const K: u8 = 6;
    const BP: u8 = 9;
    const BN: u8 = 10;
    const BK: u8 = 14;

    fn shape(pieces: &[u8], pawn_count: [u8; 2]) -> Shape {
        let unique = pieces.iter().any(|&p| p & 7 != 6 && pieces.iter().filter(|&&q| q == p).count() == 1);
        Shape { piece_count: pieces.len(), has_pawns: pawn_count[0] > 0, has_unique_pieces: unique, pawn_count }
    }

    fn groups(shape: &Shape, pieces: &[u8], order: [u8; 2], file: usize) -> Groups {
        let mut all = [0u8; MAX_PIECES];
        all[..pieces.len()].copy_from_slice(pieces);
        Groups::new(shape, all, order, file).expect("a valid grouping")
    }

    /// Calls `f` with every `k`-element subset of `squares` (in increasing order).
    fn for_each_subset(squares: &[u8], k: usize, chosen: &mut Vec<u8>, f: &mut impl FnMut(&[u8])) {
        if chosen.len() == k {
            return f(chosen);
        }
        for (i, &sq) in squares.iter().enumerate() {
            chosen.push(sq);
            for_each_subset(&squares[i + 1..], k, chosen, f);
            chosen.pop();
        }
    }

    /// The index of `squares` (in the grouping's piece order) with `lead_pawns` leading pawns.
    fn index_of(shape: &Shape, groups: &Groups, squares: &[u8], lead_pawns: usize) -> u64 {
        let mut all = [0u8; MAX_PIECES];
        all[..squares.len()].copy_from_slice(squares);
        let idx = groups.index(shape, &mut all, lead_pawns).expect("an index");
        assert!(idx < groups.table_size(), "{squares:?}: {idx} >= {}", groups.table_size());
        idx
    }

    /// Marks `value` seen in `seen`, failing if it was already seen or is out of range.
    fn mark(seen: &mut [bool], value: u64, what: &str) {
        let slot = seen.get_mut(value as usize).unwrap_or_else(|| panic!("{what}: {value} out of range"));
        assert!(!*slot, "{what}: {value} reached twice");
        *slot = true;
    }

    #[test]
    fn six_and_seven_piece_materials_have_their_known_sizes() {
        // KNNNNvK: the king pairs times the ways to place four knights on the 62 squares left.
        let knnnn = [K, BK, N, N, N, N];
        let s = shape(&knnnn, [0, 0]);
        assert!(!s.has_unique_pieces);
        assert_eq!(groups(&s, &knnnn, [0, 0xF], 0).table_size(), 462 * 557_845);
        // KQRNvKNN-like (three unique pieces lead): 31,332 triples, then 61, 60 and C(59, 2).
        let unique = [K, BK, 5, R, N, BN, BN];
        let s = shape(&unique, [0, 0]);
        assert_eq!(groups(&s, &unique, [0, 0xF], 0).table_size(), 196_209_130_320);
        // KRRvKNNN: the kings, two rooks on 62 squares, three knights on 60; the order of the
        // factors is the file's choice and leaves the size alone.
        let krr = [K, BK, R, R, BN, BN, BN];
        let s = shape(&krr, [0, 0]);
        for order in 0..3 {
            assert_eq!(groups(&s, &krr, [order, 0xF], 0).table_size(), 462 * 1_891 * 34_220, "order {order}");
        }
        // KPPPPPvK: five leading pawns, then each king.
        let pawns5 = [P, P, P, P, P, K, BK];
        let s = shape(&pawns5, [5, 0]);
        for (file, lead) in [700_336u64, 178_696, 23_176, 496].into_iter().enumerate() {
            assert_eq!(groups(&s, &pawns5, [0, 0xF], file).table_size(), lead * 59 * 58, "file {file}");
        }
        // KPPPvKPP: Black's two pawns lead (fewer), White's three take 3 of the 46 pawn squares left.
        let two_colours = [BP, BP, P, P, P, K, BK];
        let s = shape(&two_colours, [2, 3]);
        for (file, lead) in [252u64, 180, 108, 36].into_iter().enumerate() {
            let size = groups(&s, &two_colours, [0, 1], file).table_size();
            assert_eq!(size, lead * 15_180 * 59 * 58, "file {file}");
        }
    }

    /// Pawn sets of one to five pawns (up to KPPPPPvK): the leading pawn found as the prober finds
    /// it, and the leading group's index a bijection onto `0..LEAD_PAWN_GROUP_SIZE[count][file]`.
    #[test]
    fn leading_pawn_indices_are_a_bijection_for_every_file() {
        let pawn_squares: Vec<u8> = (8..56).collect();
        // Nearest the edge, then the lowest rank, then the a-d side first (as `PAWN_SQUARES` numbers).
        let lead_key = |sq: u8| {
            let file = sq & 7;
            (file.min(7 - file), sq >> 3, file > 3)
        };
        for (count, sizes) in LEAD_PAWN_GROUP_SIZE.iter().enumerate().skip(1) {
            let mut pieces = vec![P; count];
            pieces.extend([K, BK]);
            let s = shape(&pieces, [count as u8, 0]);
            let groups: Vec<Groups> = (0..4).map(|file| groups(&s, &pieces, [0, 0xF], file)).collect();
            let mut seen: Vec<Vec<bool>> = sizes.iter().map(|&size| vec![false; size as usize]).collect();
            for_each_subset(&pawn_squares, count, &mut Vec::new(), &mut |set| {
                let lead = *set.iter().min_by_key(|&&sq| lead_key(sq)).expect("a pawn");
                if lead & 7 > 3 {
                    return; // the mirror image of a set counted on files a-d
                }
                let mut squares: Vec<u8> =
                    std::iter::once(lead).chain(set.iter().copied().filter(|&sq| sq != lead)).collect();
                squares.extend([0, 1]); // the kings on a1 and b1: below every pawn, so a constant part
                let file = (lead & 7) as usize;
                let idx = index_of(&s, &groups[file], &squares, count);
                mark(&mut seen[file], idx % groups[file].factor[1], &format!("{count} pawns, file {file}"));
            });
            for (file, seen) in seen.iter().enumerate() {
                assert!(seen.iter().all(|&s| s), "{count} pawns, file {file}: an index never reached");
            }
        }
    }

    /// Six and seven pieces with pawns of both colours: the second pawn group is a combination of
    /// the 48 pawn squares less the leading pawns, a bijection onto `0..C(48 - lead, n)`.
    #[test]
    fn second_pawn_colour_indices_are_a_bijection() {
        for (lead, others) in [(1usize, 3usize), (2, 2), (2, 3)] {
            let mut pieces = vec![BP; lead];
            pieces.extend(std::iter::repeat_n(P, others));
            pieces.extend([K, BK]);
            let s = shape(&pieces, [lead as u8, others as u8]);
            // Leading pawns on a2 (the leading one) and b3, kings on a1 and b1.
            let lead_squares = [8u8, 17][..lead].to_vec();
            for order in [[0, 1], [1, 0]] {
                let g = groups(&s, &pieces, order, 0);
                let free: Vec<u8> = (8..56).filter(|sq| !lead_squares.contains(sq)).collect();
                let mut seen = vec![false; BINOMIAL[others][48 - lead] as usize];
                for_each_subset(&free, others, &mut Vec::new(), &mut |set| {
                    let squares: Vec<u8> = lead_squares.iter().chain(set).chain(&[0, 1]).copied().collect();
                    let idx = index_of(&s, &g, &squares, lead);
                    let component = idx / g.factor[1] % BINOMIAL[others][48 - lead];
                    mark(&mut seen, component, &format!("{lead} v {others} pawns, order {order:?}"));
                });
                assert!(seen.iter().all(|&s| s), "{lead} v {others} pawns: an index never reached");
            }
        }
    }

    /// Pawnless six and seven pieces: each group of like pieces after the kings is a combination
    /// of the squares its earlier groups leave, a bijection onto `0..C(free, n)`.
    #[test]
    fn like_piece_group_indices_are_a_bijection() {
        // The white king on b1 and the black king on h8: no mirroring of the board.
        let kings = [1u8, 63];
        let free: Vec<u8> = (0..64).filter(|sq| !kings.contains(sq)).collect();
        // KNNNNvK: four knights on 62 squares, the second group.
        let knnnn = [K, BK, N, N, N, N];
        let s = shape(&knnnn, [0, 0]);
        let g = groups(&s, &knnnn, [0, 0xF], 0);
        let mut seen = vec![false; 557_845];
        for_each_subset(&free, 4, &mut Vec::new(), &mut |set| {
            let squares: Vec<u8> = kings.iter().chain(set).copied().collect();
            mark(&mut seen, index_of(&s, &g, &squares, 0) / g.factor[1], "KNNNNvK knights");
        });
        assert!(seen.iter().all(|&s| s));

        // KRRvKNNN, factors in the file's order 2: three knights on the 60 squares the kings and
        // rooks leave, for rooks on a few placements.
        let krr = [K, BK, R, R, BN, BN, BN];
        let s = shape(&krr, [0, 0]);
        let g = groups(&s, &krr, [2, 0xF], 0);
        for rooks in [[0u8, 2], [30, 31], [61, 62], [2, 62]] {
            let left: Vec<u8> = free.iter().copied().filter(|sq| !rooks.contains(sq)).collect();
            let mut seen = vec![false; 34_220];
            for_each_subset(&left, 3, &mut Vec::new(), &mut |set| {
                let squares: Vec<u8> = kings.iter().chain(&rooks).chain(set).copied().collect();
                let component = index_of(&s, &g, &squares, 0) / g.factor[2] % 34_220;
                mark(&mut seen, component, &format!("KRRvKNNN knights, rooks {rooks:?}"));
            });
            assert!(seen.iter().all(|&s| s));
        }
    }

    /// Three unique leading pieces (a pawnless table with a unique piece, e.g. KQRNvKNN): every
    /// placement lands in `0..31,332`, and every index is reached.
    #[test]
    fn unique_triples_cover_their_range() {
        let pieces = [K, BK, 5, R, N, BN, BN];
        let s = shape(&pieces, [0, 0]);
        let g = groups(&s, &pieces, [0, 0xF], 0);
        let mut reached = vec![false; UNIQUE_TRIPLES as usize];
        // The other four pieces on e8-h8, which no triple here uses (every triple has a mirror
        // image off them), so the leading index is the remainder by the next factor. Kings side by
        // side are encoded too: the range counts them.
        for s0 in 0..60u8 {
            for s1 in (0..60u8).filter(|&s| s != s0) {
                for s2 in (0..60u8).filter(|&s| s != s0 && s != s1) {
                    let squares = [s0, s1, s2, 60, 61, 62, 63];
                    let idx = index_of(&s, &g, &squares, 0);
                    reached[(idx % g.factor[1]) as usize] = true;
                }
            }
        }
        let missed = reached.iter().filter(|&&r| !r).count();
        assert_eq!(missed, 0, "{missed} of {UNIQUE_TRIPLES} leading indices never reached");
    }
}
