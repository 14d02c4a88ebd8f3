//! Static evaluation: a tapered (middlegame to endgame) sum of terms, each a (mg, eg) pair from
//! one parameter table, linear in those parameters so a Texel tuner can fit them. White and
//! Black are scored by the same code with mirrored squares, so `eval(p) == eval(mirror(p))`.
//! The attack maps built here are the design's masks: attacked, undefended, king-zone attacks.

mod params;
pub mod terms;

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, File, Piece, Rank, Square};
use params::PARAMS;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use terms::*;

/// A (middlegame, endgame) pair of centipawn values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Score {
    /// The middlegame value.
    pub mg: i32,
    /// The endgame value.
    pub eg: i32,
}

impl Score {
    /// The pair (mg, eg).
    pub const fn new(mg: i32, eg: i32) -> Score {
        Score { mg, eg }
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, o: Score) -> Score {
        Score::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, o: Score) -> Score {
        Score::new(self.mg - o.mg, self.eg - o.eg)
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score::new(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, n: i32) -> Score {
        Score::new(self.mg * n, self.eg * n)
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, o: Score) {
        *self = *self + o;
    }
}

impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, o: Score) {
        *self = *self - o;
    }
}

/// The full game phase: knights and bishops count 1, rooks 2, queens 4.
pub const MAX_PHASE: i32 = 24;
/// The endgame scale that leaves a score unchanged.
pub const FULL_SCALE: i32 = 64;

/// Receives every term as it is counted (the tuner records them; play ignores them).
pub trait Trace {
    /// `count` instances of parameter `param` for `color`.
    fn term(&mut self, param: usize, color: Color, count: i32);
    /// The phase and endgame scale the final score is blended with.
    fn blend(&mut self, _phase: i32, _scale: i32) {}
}

/// A trace that records nothing (and compiles to nothing).
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn term(&mut self, _param: usize, _color: Color, _count: i32) {}
}

/// The parameter table in use (laid out as `terms` says).
pub fn current_params() -> &'static [Score] {
    &PARAMS
}

/// The evaluation of `pos` in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &mut NoTrace)
}

/// `evaluate`, reporting every term to `trace`.
pub fn evaluate_with<T: Trace>(pos: &Position, trace: &mut T) -> i32 {
    let white = Evaluation::new(pos, trace).white_relative();
    white * pos.side_to_move().sign()
}

/// Totals by term (White's and Black's shares), for the `eval` command.
pub struct Breakdown {
    /// Per term of `terms::TERMS`: the name, White's sum and Black's sum.
    pub terms: Vec<(&'static str, Score, Score)>,
    /// The game phase (0..=`MAX_PHASE`).
    pub phase: i32,
    /// The endgame scale (of `FULL_SCALE`).
    pub scale: i32,
    /// The final evaluation from White's point of view.
    pub white_score: i32,
}

impl Trace for Breakdown {
    fn term(&mut self, param: usize, color: Color, count: i32) {
        let index = TERMS.partition_point(|&(_, start, _)| start <= param) - 1;
        let value = PARAMS[param] * count;
        match color {
            Color::White => self.terms[index].1 += value,
            Color::Black => self.terms[index].2 += value,
        }
    }

    fn blend(&mut self, phase: i32, scale: i32) {
        self.phase = phase;
        self.scale = scale;
    }
}

/// The evaluation of `pos` split by term.
pub fn breakdown(pos: &Position) -> Breakdown {
    let mut totals = Breakdown {
        terms: TERMS.iter().map(|&(name, _, _)| (name, Score::default(), Score::default())).collect(),
        phase: 0,
        scale: FULL_SCALE,
        white_score: 0,
    };
    let stm = evaluate_with(pos, &mut totals);
    totals.white_score = stm * pos.side_to_move().sign();
    totals
}

/// Every square attacked by each piece kind of each colour, built once per evaluation.
struct AttackMaps {
    by_kind: [[Bitboard; 6]; 2],
    all: [Bitboard; 2],
    /// Each king's square and the squares around it.
    king_zone: [Bitboard; 2],
    /// Attack units against each side's king (see `KING_DANGER`).
    king_units: [i32; 2],
}

struct Evaluation<'a, T: Trace> {
    pos: &'a Position,
    trace: &'a mut T,
    score: Score,
}

/// Attack units a piece adds when it hits the enemy king zone.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// The square as seen from `color`'s side (White's squares unchanged, Black's flipped).
#[inline(always)]
fn relative(color: Color, sq: Square) -> Square {
    match color {
        Color::White => sq,
        Color::Black => sq.flip_rank(),
    }
}

impl<'a, T: Trace> Evaluation<'a, T> {
    fn new(pos: &'a Position, trace: &'a mut T) -> Evaluation<'a, T> {
        Evaluation { pos, trace, score: Score::default() }
    }

    /// Adds `count` times parameter `param` for `color` (subtracted for Black).
    #[inline(always)]
    fn add(&mut self, color: Color, param: usize, count: i32) {
        let value = PARAMS[param] * count;
        match color {
            Color::White => self.score += value,
            Color::Black => self.score -= value,
        }
        self.trace.term(param, color, count);
    }

    fn white_relative(mut self) -> i32 {
        let pos = self.pos;
        if is_insufficient_material(pos) {
            self.trace.blend(0, 0);
            return 0;
        }
        let mut maps = AttackMaps {
            by_kind: [[Bitboard::EMPTY; 6]; 2],
            all: [Bitboard::EMPTY; 2],
            king_zone: [Bitboard::EMPTY; 2],
            king_units: [0; 2],
        };
        for color in Color::ALL {
            let ksq = pos.king_square(color);
            maps.king_zone[color] = attacks::king(ksq).with(ksq);
            maps.by_kind[color][Piece::Pawn] = attacks::pawns_attacks(color, pos.pieces(color, Piece::Pawn));
            maps.by_kind[color][Piece::King] = attacks::king(ksq);
        }
        for color in Color::ALL {
            self.pieces(color, &mut maps);
        }
        for color in Color::ALL {
            maps.all[color] = maps.by_kind[color].iter().fold(Bitboard::EMPTY, |all, &bb| all | bb);
        }
        for color in Color::ALL {
            self.pawns(color);
            self.king(color, &maps);
            self.threats(color, &maps);
        }
        self.add(pos.side_to_move(), TEMPO, 1);

        let phase = game_phase(pos);
        let scale = endgame_scale(pos, self.score.eg);
        self.trace.blend(phase, scale);
        (self.score.mg * phase + self.score.eg * scale / FULL_SCALE * (MAX_PHASE - phase)) / MAX_PHASE
    }

    /// Material, piece-square tables, mobility and piece bonuses of `color`'s pieces; fills
    /// the attack maps and the king-attack units against the enemy king.
    fn pieces(&mut self, color: Color, maps: &mut AttackMaps) {
        let pos = self.pos;
        let them = !color;
        let occupied = pos.occupied();
        let own_pawns = pos.pieces(color, Piece::Pawn);
        let enemy_pawns = pos.pieces(them, Piece::Pawn);
        let enemy_pawn_attacks = attacks::pawns_attacks(them, enemy_pawns);
        let mobility_area = !(own_pawns | pos.pieces(color, Piece::King) | enemy_pawn_attacks);
        let enemy_zone = maps.king_zone[them];
        let enemy_pawn_span = pawn_attack_span(them, enemy_pawns);
        let mut units = 0;

        for piece in Piece::ALL {
            for sq in pos.pieces(color, piece) {
                self.add(color, MATERIAL + piece.index(), 1);
                self.add(color, PST + piece.index() * 64 + relative(color, sq).index(), 1);
                let reach = match piece {
                    Piece::Pawn | Piece::King => continue,
                    Piece::Knight => attacks::knight(sq),
                    Piece::Bishop => attacks::bishop(sq, occupied),
                    Piece::Rook => attacks::rook(sq, occupied),
                    Piece::Queen => attacks::queen(sq, occupied),
                };
                maps.by_kind[color][piece] |= reach;
                let mobility = (reach & mobility_area).count() as usize;
                let table = match piece {
                    Piece::Knight => KNIGHT_MOBILITY,
                    Piece::Bishop => BISHOP_MOBILITY,
                    Piece::Rook => ROOK_MOBILITY,
                    _ => QUEEN_MOBILITY,
                };
                self.add(color, table + mobility, 1);
                let zone_hits = (reach & enemy_zone).count() as i32;
                if zone_hits > 0 {
                    units += KING_ATTACK_WEIGHT[piece] + zone_hits;
                }
                match piece {
                    Piece::Rook => {
                        if relative(color, sq).rank() == Rank::Seventh {
                            self.add(color, ROOK_ON_SEVENTH, 1);
                        }
                        let file = Bitboard::file(sq.file());
                        if (file & (own_pawns | enemy_pawns)).is_empty() {
                            self.add(color, ROOK_OPEN_FILE, 1);
                        } else if (file & own_pawns).is_empty() {
                            self.add(color, ROOK_SEMI_OPEN_FILE, 1);
                        }
                    }
                    Piece::Knight | Piece::Bishop => {
                        let defended_by_pawn = (attacks::pawn(them, sq) & own_pawns).is_nonempty();
                        if defended_by_pawn && !enemy_pawn_span.contains(sq) {
                            self.add(color, OUTPOST, 1);
                        }
                        if (Bitboard::from_square(sq).forward(color.is_white()) & own_pawns).is_nonempty() {
                            self.add(color, MINOR_BEHIND_PAWN, 1);
                        }
                        if piece == Piece::Bishop {
                            let same_color = if Bitboard::LIGHT_SQUARES.contains(sq) {
                                Bitboard::LIGHT_SQUARES
                            } else {
                                !Bitboard::LIGHT_SQUARES
                            };
                            self.add(color, BISHOP_PAWNS_SAME_COLOR, (own_pawns & same_color).count() as i32);
                        }
                    }
                    _ => {}
                }
            }
        }
        if pos.pieces(color, Piece::Bishop).has_more_than_one() {
            self.add(color, BISHOP_PAIR, 1);
        }
        maps.king_units[them] = units;
    }

    /// Pawn structure of `color`: passed, connected, isolated, doubled and backward pawns.
    fn pawns(&mut self, color: Color) {
        let pos = self.pos;
        let them = !color;
        let white = color.is_white();
        let own = pos.pieces(color, Piece::Pawn);
        let enemy = pos.pieces(them, Piece::Pawn);
        let own_attacks = attacks::pawns_attacks(color, own);
        let enemy_attacks = attacks::pawns_attacks(them, enemy);
        let own_king = pos.king_square(color);
        let enemy_king = pos.king_square(them);
        for sq in own {
            let rank = relative(color, sq).rank().index();
            let file = sq.file();
            let adjacent = adjacent_files(file);
            let ahead = forward_span(color, sq);
            let stop = sq.forward(white);
            if (own & adjacent).is_empty() {
                self.add(color, ISOLATED_PAWN, 1);
            }
            if (own & ahead).is_nonempty() {
                self.add(color, DOUBLED_PAWN, 1);
            }
            let beside = Bitboard::from_square(sq).east() | Bitboard::from_square(sq).west();
            if (own_attacks.contains(sq)) || (own & beside).is_nonempty() {
                self.add(color, CONNECTED_PAWN + rank, 1);
            }
            // Backward: no friendly pawn level with or behind it on the adjacent files, and
            // its stop square is attacked by an enemy pawn.
            let supporters = own & adjacent & !forward_span_all(color, sq);
            if supporters.is_empty() && enemy_attacks.contains(stop) && (own & ahead).is_empty() {
                self.add(color, BACKWARD_PAWN, 1);
            }
            let blockers = enemy & (ahead | (forward_span_all(color, sq) & adjacent));
            if blockers.is_empty() && (own & ahead).is_empty() {
                self.add(color, PASSED_PAWN + rank, 1);
                if (pos.occupied() & ahead).is_empty() {
                    self.add(color, PASSED_FREE_PATH + rank, 1);
                }
                if pos.color(them).contains(stop) {
                    self.add(color, PASSED_BLOCKED + rank, 1);
                }
                self.add(color, PASSED_OWN_KING_DISTANCE + distance(own_king, stop), 1);
                self.add(color, PASSED_ENEMY_KING_DISTANCE + distance(enemy_king, stop), 1);
            }
        }
    }

    /// King shelter and king danger for `color`'s king.
    fn king(&mut self, color: Color, maps: &AttackMaps) {
        let pos = self.pos;
        let them = !color;
        let white = color.is_white();
        let ksq = pos.king_square(color);
        let own_pawns = pos.pieces(color, Piece::Pawn);
        let next = Bitboard::from_square(ksq).forward(white);
        let shield = next | next.east() | next.west();
        self.add(color, KING_SHIELD, (shield & own_pawns).count() as i32);
        self.add(color, KING_SHIELD + 1, (shield.forward(white) & own_pawns).count() as i32);
        if (Bitboard::file(ksq.file()) & own_pawns).is_empty() {
            self.add(color, KING_SEMI_OPEN_FILE, 1);
        }

        // Safe checks: squares from which an enemy piece would check, that it reaches, that we
        // do not defend and that it does not occupy.
        let occupied = pos.occupied();
        let unsafe_for_them = maps.all[color];
        let reachable = !pos.color(them) & !unsafe_for_them;
        let knight_checks = attacks::knight(ksq) & maps.by_kind[them][Piece::Knight] & reachable;
        let bishop_lines = attacks::bishop(ksq, occupied);
        let rook_lines = attacks::rook(ksq, occupied);
        let bishop_checks = bishop_lines & maps.by_kind[them][Piece::Bishop] & reachable;
        let rook_checks = rook_lines & maps.by_kind[them][Piece::Rook] & reachable;
        let queen_checks = (bishop_lines | rook_lines) & maps.by_kind[them][Piece::Queen] & reachable;
        let mut units = maps.king_units[color];
        units +=
            3 * (knight_checks.count() + bishop_checks.count() + rook_checks.count() + queen_checks.count()) as i32;
        if pos.pieces(them, Piece::Queen).is_empty() {
            units /= 2;
        }
        let bucket = units.clamp(0, KING_DANGER_UNITS as i32 - 1) as usize;
        self.add(color, KING_DANGER + bucket, 1);
    }

    /// `color`'s pieces under attack: by lesser pieces, and attacked while undefended.
    fn threats(&mut self, color: Color, maps: &AttackMaps) {
        let pos = self.pos;
        let them = !color;
        let ours = pos.color(color);
        let by_minor = maps.by_kind[them][Piece::Knight] | maps.by_kind[them][Piece::Bishop];
        // The design's mask: our pieces the enemy attacks and we do not defend.
        let undefended = ours & maps.all[them] & !maps.all[color];
        for piece in [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
            let mine = pos.pieces(color, piece);
            if mine.is_empty() {
                continue;
            }
            let by_pawn = (mine & maps.by_kind[them][Piece::Pawn]).count() as i32;
            let by_minor_count = (mine & by_minor).count() as i32;
            let by_rook = (mine & maps.by_kind[them][Piece::Rook]).count() as i32;
            let hanging = (mine & undefended).count() as i32;
            if by_pawn > 0 {
                self.add(color, THREAT_BY_PAWN + piece.index(), by_pawn);
            }
            if by_minor_count > 0 {
                self.add(color, THREAT_BY_MINOR + piece.index(), by_minor_count);
            }
            if by_rook > 0 {
                self.add(color, THREAT_BY_ROOK + piece.index(), by_rook);
            }
            if hanging > 0 {
                self.add(color, HANGING + piece.index(), hanging);
            }
        }
    }
}

/// The files beside `file`.
#[inline]
fn adjacent_files(file: File) -> Bitboard {
    let bb = Bitboard::file(file);
    bb.east() | bb.west()
}

/// The squares ahead of `sq` on its file, from `color`'s point of view.
#[inline]
fn forward_span(color: Color, sq: Square) -> Bitboard {
    Bitboard::file(sq.file()) & forward_span_all(color, sq)
}

/// Every square on ranks ahead of `sq`'s rank, from `color`'s point of view.
#[inline]
fn forward_span_all(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank().index() as u32;
    match color {
        Color::White => Bitboard(if rank >= 7 { 0 } else { !0u64 << (8 * (rank + 1)) }),
        Color::Black => Bitboard(if rank == 0 { 0 } else { !0u64 >> (8 * (8 - rank)) }),
    }
}

/// `bb` smeared toward `color`'s promotion rank (each square plus all squares ahead of it).
#[inline]
fn fill_forward(color: Color, bb: Bitboard) -> Bitboard {
    let mut x = bb.0;
    match color {
        Color::White => {
            x |= x << 8;
            x |= x << 16;
            x |= x << 32;
        }
        Color::Black => {
            x |= x >> 8;
            x |= x >> 16;
            x |= x >> 32;
        }
    }
    Bitboard(x)
}

/// Every square some pawn of `pawns` (of `color`) could ever attack by advancing.
#[inline]
fn pawn_attack_span(color: Color, pawns: Bitboard) -> Bitboard {
    let ahead = fill_forward(color, pawns.forward(color.is_white()));
    ahead.east() | ahead.west()
}

/// King distance (Chebyshev) between two squares.
#[inline]
fn distance(a: Square, b: Square) -> usize {
    let files = (a.file().index() as i32 - b.file().index() as i32).abs();
    let ranks = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    files.max(ranks) as usize
}

/// The game phase from the pieces on the board, `MAX_PHASE` in the opening down to 0.
pub fn game_phase(pos: &Position) -> i32 {
    let minors = (pos.pieces_of_kind(Piece::Knight) | pos.pieces_of_kind(Piece::Bishop)).count() as i32;
    let rooks = pos.pieces_of_kind(Piece::Rook).count() as i32;
    let queens = pos.pieces_of_kind(Piece::Queen).count() as i32;
    (minors + 2 * rooks + 4 * queens).min(MAX_PHASE)
}

/// Non-pawn material of `color` in the base piece values.
fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    let count = |piece| pos.pieces(color, piece).count() as i32;
    300 * count(Piece::Knight) + 325 * count(Piece::Bishop) + 500 * count(Piece::Rook) + 900 * count(Piece::Queen)
}

/// How much of the endgame score survives (of `FULL_SCALE`): drawish material shrinks it.
fn endgame_scale(pos: &Position, eg: i32) -> i32 {
    let strong = if eg >= 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let strong_pawns = pos.pieces(strong, Piece::Pawn).count();
    let (strong_npm, weak_npm) = (non_pawn_material(pos, strong), non_pawn_material(pos, weak));
    if strong_pawns == 0 && strong_npm - weak_npm <= 325 {
        // Without pawns, a minor piece's edge (or less) rarely wins.
        return if strong_npm < 500 { 0 } else { FULL_SCALE / 4 };
    }
    let bishops = pos.pieces_of_kind(Piece::Bishop);
    let only_bishops = strong_npm == 325 && weak_npm == 325 && bishops.count() == 2;
    if only_bishops && (bishops & Bitboard::LIGHT_SQUARES).count() == 1 {
        return FULL_SCALE / 2; // opposite-coloured bishops
    }
    FULL_SCALE
}

/// Whether neither side can possibly mate: bare kings, or a lone minor piece against a king.
pub fn is_insufficient_material(pos: &Position) -> bool {
    let heavy = pos.pieces_of_kind(Piece::Pawn) | pos.pieces_of_kind(Piece::Rook) | pos.pieces_of_kind(Piece::Queen);
    if heavy.is_nonempty() {
        return false;
    }
    let minors = pos.pieces_of_kind(Piece::Knight) | pos.pieces_of_kind(Piece::Bishop);
    minors.count() <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{generate_legal, MoveList};

    #[test]
    fn evaluation_is_mirror_symmetric() {
        let mut state = 0x9e37_79b9u64;
        let mut checked = 0;
        for fen in [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let mut pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            for _ in 0..120 {
                assert_eq!(evaluate(&pos), evaluate(&pos.mirrored()), "{}", pos.to_fen());
                checked += 1;
                let mut list = MoveList::new();
                generate_legal(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos.make_move(list[(state % list.len() as u64) as usize]);
            }
        }
        assert!(checked > 200);
    }

    #[test]
    fn start_position_is_balanced_and_material_counts() {
        let start = Position::startpos();
        assert!(evaluate(&start).abs() < 50);
        let queen_up = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        assert!(evaluate(&queen_up) > 500);
        let black_view = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"));
        assert!(evaluate(&black_view) < -500);
    }

    #[test]
    fn pawn_spans_match_square_by_square_walks() {
        let pawns = Bitboard::from_square(Square::C2) | Square::F5.into() | Square::H7.into();
        for color in Color::ALL {
            let mut walked = Bitboard::EMPTY;
            for sq in pawns {
                let mut ahead = Bitboard::from_square(sq).forward(color.is_white());
                while ahead.is_nonempty() {
                    walked |= ahead.east() | ahead.west();
                    ahead = ahead.forward(color.is_white());
                }
            }
            assert_eq!(pawn_attack_span(color, pawns), walked, "{color:?}");
        }
        assert_eq!(forward_span(Color::White, Square::E2).count(), 6);
        assert_eq!(forward_span(Color::Black, Square::E2).count(), 1);
    }

    #[test]
    fn insufficient_material_is_zero() {
        for fen in ["8/8/4k3/8/8/3NK3/8/8 w - - 0 1", "8/8/4k3/8/8/3BK3/8/8 b - - 0 1", "8/8/4k3/8/8/4K3/8/8 w - - 0 1"]
        {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            assert!(is_insufficient_material(&pos));
            assert_eq!(evaluate(&pos), 0);
        }
        let rook = Position::from_fen("8/8/4k3/8/8/3RK3/8/8 w - - 0 1").unwrap_or_else(|e| unreachable!("{e}"));
        assert!(!is_insufficient_material(&rook) && evaluate(&rook) > 300);
    }
}
