//! The layout of the evaluation parameters: every term is a slice of one flat table of
//! (middlegame, endgame) pairs, so the evaluation and the Texel tuner agree on what each number
//! means. `params.rs` holds the values, written by `springer tune`.

/// Material by piece kind (the king's entry is unused).
pub const MATERIAL: usize = 0;
/// Piece-square tables, `[piece][square]`, squares from White's side (Black's are mirrored).
pub const PST: usize = MATERIAL + 6;
/// Knight mobility by the number of safe squares it reaches (0..=8).
pub const KNIGHT_MOBILITY: usize = PST + 6 * 64;
/// Bishop mobility (0..=13).
pub const BISHOP_MOBILITY: usize = KNIGHT_MOBILITY + 9;
/// Rook mobility (0..=14).
pub const ROOK_MOBILITY: usize = BISHOP_MOBILITY + 14;
/// Queen mobility (0..=27).
pub const QUEEN_MOBILITY: usize = ROOK_MOBILITY + 15;
/// Passed pawn by relative rank (index 0 = first rank).
pub const PASSED_PAWN: usize = QUEEN_MOBILITY + 28;
/// Passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE_PATH: usize = PASSED_PAWN + 8;
/// Passed pawn: distance (0..=7) from its own king to its stop square.
pub const PASSED_OWN_KING_DISTANCE: usize = PASSED_FREE_PATH + 8;
/// Passed pawn: distance (0..=7) from the enemy king to its stop square.
pub const PASSED_ENEMY_KING_DISTANCE: usize = PASSED_OWN_KING_DISTANCE + 8;
/// Passed pawn whose stop square holds an enemy piece, by relative rank.
pub const PASSED_BLOCKED: usize = PASSED_ENEMY_KING_DISTANCE + 8;
/// A pawn defended by a pawn or beside one (a phalanx), by relative rank.
pub const CONNECTED_PAWN: usize = PASSED_BLOCKED + 8;
/// A pawn with no friendly pawn on either adjacent file.
pub const ISOLATED_PAWN: usize = CONNECTED_PAWN + 8;
/// Each pawn beyond the first on a file.
pub const DOUBLED_PAWN: usize = ISOLATED_PAWN + 1;
/// A pawn that cannot advance safely and has no pawn behind it on adjacent files to support it.
pub const BACKWARD_PAWN: usize = DOUBLED_PAWN + 1;
/// Both bishops.
pub const BISHOP_PAIR: usize = BACKWARD_PAWN + 1;
/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
/// A rook on a file without friendly pawns.
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// A rook on the seventh rank (relative).
pub const ROOK_ON_SEVENTH: usize = ROOK_SEMI_OPEN_FILE + 1;
/// A knight or bishop on a square no enemy pawn can attack, defended by a pawn.
pub const OUTPOST: usize = ROOK_ON_SEVENTH + 1;
/// A knight or bishop right behind a friendly pawn.
pub const MINOR_BEHIND_PAWN: usize = OUTPOST + 1;
/// Each friendly pawn on the squares of a bishop's colour, per bishop.
pub const BISHOP_PAWNS_SAME_COLOR: usize = MINOR_BEHIND_PAWN + 1;
/// Pawns in front of the king: on the next rank (0) and the one after (1).
pub const KING_SHIELD: usize = BISHOP_PAWNS_SAME_COLOR + 1;
/// The king on a file without friendly pawns.
pub const KING_SEMI_OPEN_FILE: usize = KING_SHIELD + 2;
/// King danger by attack units (see `king.rs`), capped at `KING_DANGER_UNITS - 1`.
pub const KING_DANGER: usize = KING_SEMI_OPEN_FILE + 1;
/// The number of king-danger buckets.
pub const KING_DANGER_UNITS: usize = 40;
/// A piece attacked by an enemy pawn, by the attacked piece's kind.
pub const THREAT_BY_PAWN: usize = KING_DANGER + KING_DANGER_UNITS;
/// A piece attacked by an enemy knight or bishop, by kind.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 6;
/// A piece attacked by an enemy rook, by kind.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 6;
/// A piece attacked and not defended (the `undefended` mask), by kind.
pub const HANGING: usize = THREAT_BY_ROOK + 6;
/// The side to move's bonus.
pub const TEMPO: usize = HANGING + 6;
/// The number of parameters.
pub const NUM_PARAMS: usize = TEMPO + 1;

/// Every term's name, first index and length, in table order (for the tuner's output).
pub const TERMS: &[(&str, usize, usize)] = &[
    ("MATERIAL", MATERIAL, 6),
    ("PST", PST, 6 * 64),
    ("KNIGHT_MOBILITY", KNIGHT_MOBILITY, 9),
    ("BISHOP_MOBILITY", BISHOP_MOBILITY, 14),
    ("ROOK_MOBILITY", ROOK_MOBILITY, 15),
    ("QUEEN_MOBILITY", QUEEN_MOBILITY, 28),
    ("PASSED_PAWN", PASSED_PAWN, 8),
    ("PASSED_FREE_PATH", PASSED_FREE_PATH, 8),
    ("PASSED_OWN_KING_DISTANCE", PASSED_OWN_KING_DISTANCE, 8),
    ("PASSED_ENEMY_KING_DISTANCE", PASSED_ENEMY_KING_DISTANCE, 8),
    ("PASSED_BLOCKED", PASSED_BLOCKED, 8),
    ("CONNECTED_PAWN", CONNECTED_PAWN, 8),
    ("ISOLATED_PAWN", ISOLATED_PAWN, 1),
    ("DOUBLED_PAWN", DOUBLED_PAWN, 1),
    ("BACKWARD_PAWN", BACKWARD_PAWN, 1),
    ("BISHOP_PAIR", BISHOP_PAIR, 1),
    ("ROOK_OPEN_FILE", ROOK_OPEN_FILE, 1),
    ("ROOK_SEMI_OPEN_FILE", ROOK_SEMI_OPEN_FILE, 1),
    ("ROOK_ON_SEVENTH", ROOK_ON_SEVENTH, 1),
    ("OUTPOST", OUTPOST, 1),
    ("MINOR_BEHIND_PAWN", MINOR_BEHIND_PAWN, 1),
    ("BISHOP_PAWNS_SAME_COLOR", BISHOP_PAWNS_SAME_COLOR, 1),
    ("KING_SHIELD", KING_SHIELD, 2),
    ("KING_SEMI_OPEN_FILE", KING_SEMI_OPEN_FILE, 1),
    ("KING_DANGER", KING_DANGER, KING_DANGER_UNITS),
    ("THREAT_BY_PAWN", THREAT_BY_PAWN, 6),
    ("THREAT_BY_MINOR", THREAT_BY_MINOR, 6),
    ("THREAT_BY_ROOK", THREAT_BY_ROOK, 6),
    ("HANGING", HANGING, 6),
    ("TEMPO", TEMPO, 1),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_tile_the_table() {
        let mut next = 0;
        for &(name, start, len) in TERMS {
            assert_eq!(start, next, "{name}");
            next = start + len;
        }
        assert_eq!(next, NUM_PARAMS);
    }
}
