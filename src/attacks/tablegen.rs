//! Generates every fixed table as Rust source: leaper attacks, slider attacks (magic or PEXT
//! layout), between/line masks and Zobrist keys. Plain u64 maths with no `crate::` imports, so
//! `build.rs` runs it at build time and the unit tests use it as the slow reference.

use std::fmt::Write;

/// Directions (file step, rank step) of a rook.
pub const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Directions (file step, rank step) of a bishop.
pub const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Seed of the xorshift generator behind the magics and the Zobrist keys: fixed, so tables and
/// hashes are the same in every build.
const SEED: u64 = 0x5350_5249_4e47_4552; // "SPRINGER"

/// The square `df` files and `dr` ranks from `sq`, if it is on the board.
fn step(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let (file, rank) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
}

fn leaper(sq: usize, steps: &[(i32, i32)]) -> u64 {
    steps.iter().filter_map(|&(df, dr)| step(sq, df, dr)).fold(0, |bb, to| bb | 1 << to)
}

/// Squares a knight on `sq` attacks.
pub fn knight_attacks(sq: usize) -> u64 {
    leaper(sq, &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)])
}

/// Squares a king on `sq` attacks.
pub fn king_attacks(sq: usize) -> u64 {
    leaper(sq, &[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)])
}

/// Squares from which a piece whose empty-board attacks are `attacks` reaches a square next to
/// a king on `sq`: the only such pieces that can take a square from that king.
pub fn near_king(sq: usize, attacks: impl Fn(usize) -> u64) -> u64 {
    let mut zone = king_attacks(sq);
    let mut reach = 0;
    while zone != 0 {
        reach |= attacks(zone.trailing_zeros() as usize);
        zone &= zone - 1;
    }
    reach
}

/// Squares a pawn of `color` (0 White, 1 Black) on `sq` attacks.
pub fn pawn_attacks(color: usize, sq: usize) -> u64 {
    let dr = if color == 0 { 1 } else { -1 };
    leaper(sq, &[(-1, dr), (1, dr)])
}

/// Squares a slider on `sq` moving in `directions` attacks when `occupied` holds the pieces:
/// each ray stops at (and includes) the first occupied square. The slow reference.
pub fn slider_attacks(sq: usize, occupied: u64, directions: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in directions {
        let mut current = sq;
        while let Some(next) = step(current, df, dr) {
            attacks |= 1 << next;
            if occupied >> next & 1 != 0 {
                break;
            }
            current = next;
        }
    }
    attacks
}

/// The squares whose occupancy changes a slider's attacks from `sq`: every ray square but the
/// last one before the edge.
pub fn relevant_mask(sq: usize, directions: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in directions {
        let mut current = sq;
        while let Some(next) = step(current, df, dr) {
            if step(next, df, dr).is_none() {
                break;
            }
            mask |= 1 << next;
            current = next;
        }
    }
    mask
}

/// Software parallel bit extract: the bits of `value` selected by `mask`, packed to the bottom.
/// Matches the BMI2 `pext` instruction.
pub fn pext(value: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 0;
    while mask != 0 {
        if value & mask & mask.wrapping_neg() != 0 {
            result |= 1 << bit;
        }
        mask &= mask - 1;
        bit += 1;
    }
    result
}

/// Every subset of `mask`, by the carry-rippler trick.
fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        let current = next?;
        let following = current.wrapping_sub(mask) & mask;
        next = (following != 0).then_some(following);
        Some(current)
    })
}

/// A xorshift64* generator: tiny, fast and reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// One square's slider lookup: `offset + index(occupied & mask)` addresses the attack table,
/// where the index is `pext(occupied, mask)` or `(occupied & mask) * magic >> shift`.
#[derive(Clone, Copy, Debug)]
pub struct SliderEntry {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: usize,
}

impl SliderEntry {
    /// The table slot of `occupied` in the magic layout.
    pub fn magic_index(&self, occupied: u64) -> usize {
        self.offset + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }

    /// The table slot of `occupied` in the PEXT layout.
    pub fn pext_index(&self, occupied: u64) -> usize {
        self.offset + pext(occupied, self.mask) as usize
    }
}

/// Finds a magic for `sq` such that every relevant occupancy maps to a slot holding its attacks
/// (two occupancies may share a slot only if their attacks agree).
fn find_magic(sq: usize, directions: &[(i32, i32)], rng: &mut Rng) -> (u64, u32) {
    let mask = relevant_mask(sq, directions);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let cases: Vec<(u64, u64)> = subsets(mask).map(|occ| (occ, slider_attacks(sq, occ, directions))).collect();
    let mut used = vec![(0u32, 0u64); 1 << bits];
    for attempt in 1u32.. {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let fits = cases.iter().all(|&(occ, attacks)| {
            let slot = &mut used[(occ.wrapping_mul(magic) >> shift) as usize];
            if slot.0 != attempt {
                *slot = (attempt, attacks);
                true
            } else {
                slot.1 == attacks
            }
        });
        if fits {
            return (magic, shift);
        }
    }
    unreachable!("the search above only ends by returning")
}

/// The slider entries for one piece kind and their attack table, in the chosen layout.
pub fn slider_tables(
    directions: &[(i32, i32)],
    pext_layout: bool,
    rng_seed: u64,
    first_offset: usize,
) -> (Vec<SliderEntry>, Vec<u64>) {
    let mut rng = Rng(rng_seed);
    let mut entries = Vec::with_capacity(64);
    let mut table = Vec::new();
    let mut offset = first_offset;
    for sq in 0..64 {
        let mask = relevant_mask(sq, directions);
        let (magic, shift) =
            if pext_layout { (0, 64 - mask.count_ones()) } else { find_magic(sq, directions, &mut rng) };
        let entry = SliderEntry { mask, magic, shift, offset };
        let size = 1usize << mask.count_ones();
        table.resize(table.len() + size, 0);
        for occ in subsets(mask) {
            let slot = if pext_layout { entry.pext_index(occ) } else { entry.magic_index(occ) };
            table[slot - first_offset] = slider_attacks(sq, occ, directions);
        }
        offset += size;
        entries.push(entry);
    }
    (entries, table)
}

/// The squares strictly between `a` and `b` when they share a rank, file or diagonal, else 0.
pub fn between(a: usize, b: usize) -> u64 {
    line_parts(a, b).map_or(0, |(_, between)| between)
}

/// The whole line (edge to edge) through `a` and `b` when they share a rank, file or diagonal
/// (both squares included), else 0.
pub fn line(a: usize, b: usize) -> u64 {
    line_parts(a, b).map_or(0, |(line, _)| line)
}

fn line_parts(a: usize, b: usize) -> Option<(u64, u64)> {
    if a == b {
        return None;
    }
    let (df, dr) = ((b % 8) as i32 - (a % 8) as i32, (b / 8) as i32 - (a / 8) as i32);
    if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return None;
    }
    let dir = (df.signum(), dr.signum());
    let ray = |from: usize, d: (i32, i32)| slider_attacks(from, 0, &[d]);
    let line = ray(a, dir) | ray(a, (-dir.0, -dir.1)) | 1 << a;
    let between = ray(a, dir) & ray(b, (-dir.0, -dir.1));
    Some((line, between))
}

/// Castling of a king on `king` with the rook on `rook` (the same rank, different squares; any
/// other pair gives zeros): the king's path (the squares it crosses and lands on) and the squares
/// that must be empty (the king's and the rook's paths and landing squares, less their own two
/// squares). The king lands on the G file and the rook on the F file when the rook stands above
/// the king, else on C and D; Chess960 included.
pub fn castling_paths(king: usize, rook: usize) -> (u64, u64) {
    if king / 8 != rook / 8 || king == rook {
        return (0, 0);
    }
    let rank_start = king / 8 * 8;
    let (king_to, rook_to) =
        if rook > king { (rank_start + 6, rank_start + 5) } else { (rank_start + 2, rank_start + 3) };
    let king_path = between(king, king_to) | 1 << king_to;
    let clear = (king_path | between(rook, rook_to) | 1 << rook_to) & !(1 << king) & !(1 << rook);
    (king_path, clear)
}

/// The squares from which a slider with empty-board lines `rays` could attack a square of the
/// king's castling path with the rook on `rook` that is not next to the king (those are covered
/// by the near-king tables): the slider lookups castling adds to the king's own.
pub fn castling_reach(king: usize, rook: usize, rays: impl Fn(usize) -> u64) -> u64 {
    let far = castling_paths(king, rook).0 & !king_attacks(king);
    (0..64).filter(|&sq| far >> sq & 1 != 0).fold(0, |reach, sq| reach | rays(sq))
}

/// The Zobrist keys, drawn in this order: 2 x 6 x 64 piece-square keys (colour, piece, square),
/// 16 castling-rights keys, 8 en-passant file keys, then the side-to-move key.
pub fn zobrist_keys() -> Vec<u64> {
    let mut rng = Rng(SEED ^ 0x2b0b_2157);
    let mut keys: Vec<u64> = (0..2 * 6 * 64 + 8 + 1).map(|_| rng.next()).collect();
    // Castling keys are XOR combinations of four base keys, so a change of one right is one key.
    let base: Vec<u64> = (0..4).map(|_| rng.next()).collect();
    let castling =
        (0..16).map(|rights: usize| (0..4).filter(|bit| rights >> bit & 1 != 0).fold(0, |k, bit| k ^ base[bit]));
    let tail = keys.split_off(2 * 6 * 64);
    keys.extend(castling);
    keys.extend(tail);
    keys
}

fn render_array(out: &mut String, name: &str, ty: &str, values: impl Iterator<Item = u64>) {
    writeln!(out, "pub static {name}: {ty} = [").expect("write to String");
    for (i, v) in values.enumerate() {
        write!(out, "{v:#x},").expect("write to String");
        if i % 8 == 7 {
            out.push('\n');
        }
    }
    out.push_str("];\n");
}

fn render_nested(out: &mut String, name: &str, ty: &str, rows: usize, values: impl Fn(usize) -> Vec<u64>) {
    writeln!(out, "pub static {name}: {ty} = [").expect("write to String");
    for row in 0..rows {
        out.push('[');
        for v in values(row) {
            write!(out, "{v:#x},").expect("write to String");
        }
        out.push_str("],\n");
    }
    out.push_str("];\n");
}

/// Every table as Rust source, for `include!`. `pext_layout` picks the slider layout.
pub fn render_all(pext_layout: bool) -> String {
    let mut out = String::with_capacity(4 << 20);
    writeln!(out, "// Generated by build.rs from src/attacks/tablegen.rs; do not edit.").expect("write");
    writeln!(out, "/// Whether the slider table uses the PEXT layout (else magic multiplication).").expect("write");
    writeln!(out, "pub const PEXT_LAYOUT: bool = {pext_layout};").expect("write");
    render_array(&mut out, "KNIGHT_ATTACKS", "[u64; 64]", (0..64).map(knight_attacks));
    render_array(&mut out, "KING_ATTACKS", "[u64; 64]", (0..64).map(king_attacks));
    render_array(&mut out, "KNIGHTS_NEAR_KING", "[u64; 64]", (0..64).map(|sq| near_king(sq, knight_attacks)));
    let bishop_rays = |sq: usize| slider_attacks(sq, 0, &BISHOP_DIRECTIONS);
    let rook_rays = |sq: usize| slider_attacks(sq, 0, &ROOK_DIRECTIONS);
    render_array(&mut out, "BISHOPS_NEAR_KING", "[u64; 64]", (0..64).map(|sq| near_king(sq, bishop_rays)));
    render_array(&mut out, "ROOKS_NEAR_KING", "[u64; 64]", (0..64).map(|sq| near_king(sq, rook_rays)));
    render_nested(&mut out, "PAWN_ATTACKS", "[[u64; 64]; 2]", 2, |c| (0..64).map(|sq| pawn_attacks(c, sq)).collect());
    let (rooks, rook_table) = slider_tables(&ROOK_DIRECTIONS, pext_layout, SEED, 0);
    let (bishops, bishop_table) = slider_tables(&BISHOP_DIRECTIONS, pext_layout, SEED ^ 0xb15b, rook_table.len());
    for (name, entries) in [("ROOK_ENTRIES", &rooks), ("BISHOP_ENTRIES", &bishops)] {
        writeln!(out, "pub static {name}: [SliderEntry; 64] = [").expect("write");
        for e in entries {
            writeln!(
                out,
                "SliderEntry {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
                e.mask, e.magic, e.shift, e.offset
            )
            .expect("write");
        }
        out.push_str("];\n");
    }
    render_array(&mut out, "ROOK_RAYS", "[u64; 64]", (0..64).map(|sq| slider_attacks(sq, 0, &ROOK_DIRECTIONS)));
    render_array(&mut out, "BISHOP_RAYS", "[u64; 64]", (0..64).map(|sq| slider_attacks(sq, 0, &BISHOP_DIRECTIONS)));
    let len = rook_table.len() + bishop_table.len();
    render_array(&mut out, "SLIDER_ATTACKS", &format!("[u64; {len}]"), rook_table.into_iter().chain(bishop_table));
    render_nested(&mut out, "BETWEEN", "[[u64; 64]; 64]", 64, |a| (0..64).map(|b| between(a, b)).collect());
    render_nested(&mut out, "LINE", "[[u64; 64]; 64]", 64, |a| (0..64).map(|b| line(a, b)).collect());
    render_nested(&mut out, "CASTLING_KING_PATH", "[[u64; 64]; 64]", 64, |k| {
        (0..64).map(|r| castling_paths(k, r).0).collect()
    });
    render_nested(&mut out, "CASTLING_CLEAR", "[[u64; 64]; 64]", 64, |k| {
        (0..64).map(|r| castling_paths(k, r).1).collect()
    });
    render_nested(&mut out, "CASTLING_DIAGONAL_REACH", "[[u64; 64]; 64]", 64, |k| {
        (0..64).map(|r| castling_reach(k, r, bishop_rays)).collect()
    });
    render_nested(&mut out, "CASTLING_ORTHOGONAL_REACH", "[[u64; 64]; 64]", 64, |k| {
        (0..64).map(|r| castling_reach(k, r, rook_rays)).collect()
    });
    let keys = zobrist_keys();
    render_nested(&mut out, "ZOBRIST_PIECE_SQUARE", "[[u64; 64]; 12]", 12, |i| keys[i * 64..(i + 1) * 64].to_vec());
    render_array(&mut out, "ZOBRIST_CASTLING", "[u64; 16]", keys[768..784].iter().copied());
    render_array(&mut out, "ZOBRIST_EN_PASSANT_FILE", "[u64; 8]", keys[784..792].iter().copied());
    writeln!(out, "pub const ZOBRIST_SIDE: u64 = {:#x};", keys[792]).expect("write");
    out
}
