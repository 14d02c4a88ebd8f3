//! Legal move generation from the position's checkers and pin rays: every move emitted is legal,
//! so perft and search never filter afterwards. Moves go to a `MoveSink` in batches (one origin
//! and a target set, or a pawn shift and a target set), so a counter can add popcounts (perft's
//! bulk counting) while `MoveList` expands them into single moves.

mod list;

pub use list::{MoveList, MAX_MOVES};

use crate::attacks;
use crate::position::{CastleSide, PinRays, Position};
use crate::types::{Bitboard, Color, Move, MoveKind, Piece, Rank, Square};

/// Receives the generated moves. Generation hands over batches; the default batch methods
/// expand them into single moves for `push`, and a sink that only counts overrides them.
pub trait MoveSink {
    /// Whether generation keeps separate copies of the piece and pawn moves for a position not
    /// in check (the check mask folded away): fewer instructions for perft's sinks, which run
    /// little besides generation; for the search's, the larger code counted 1.2 % more
    /// instructions in `bench 9` (docs/measurements.md), so they keep the single copy.
    const UNCHECKED_COPY: bool = false;

    /// Receives one legal move.
    fn push(&mut self, mv: Move);

    /// The piece on `from` moves to each square of `quiets` (empty squares) and `captures`.
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, quiets: Bitboard, captures: Bitboard) {
        for to in quiets {
            self.push(Move::new(from, to, MoveKind::QUIET));
        }
        for to in captures {
            self.push(Move::new(from, to, MoveKind::CAPTURE));
        }
    }

    /// A pawn moves to each square of `targets` from the square `shift` below it
    /// (`from = to - shift`), as moves of `kind`.
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, shift: i8, kind: MoveKind) {
        for to in targets {
            self.push(Move::new(pawn_origin(to, shift), to, kind));
        }
    }

    /// The king on `king` castles with each rook of `rooks` (king side first).
    #[inline(always)]
    fn castles(&mut self, king: Square, rooks: Bitboard) {
        for rook in rooks.filter(|&rook| rook > king).chain(rooks.filter(|&rook| rook < king)) {
            self.push(Move::new(king, rook, MoveKind::CASTLE));
        }
    }

    /// Like `pawn_moves`, for promotions: four moves (queen, knight, rook, bishop) per target.
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, shift: i8, capture: bool) {
        for to in targets {
            let from = pawn_origin(to, shift);
            for piece in Piece::PROMOTIONS {
                self.push(Move::new(from, to, MoveKind::promotion(piece, capture)));
            }
        }
    }
}

/// Which moves to generate.
pub trait GenType {
    /// Captures and promotions.
    const NOISY: bool;
    /// Everything else: non-capturing moves, castling.
    const QUIET: bool;
}

/// Every legal move.
pub struct AllMoves;
/// Captures (en passant included) and promotions (quiet ones included): the quiescence moves.
pub struct NoisyMoves;
/// Legal moves that neither capture nor promote, castling included.
pub struct QuietMoves;

impl GenType for AllMoves {
    const NOISY: bool = true;
    const QUIET: bool = true;
}
impl GenType for NoisyMoves {
    const NOISY: bool = true;
    const QUIET: bool = false;
}
impl GenType for QuietMoves {
    const NOISY: bool = false;
    const QUIET: bool = true;
}

/// Appends every legal move for the side to move to `list`.
#[inline]
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    generate::<AllMoves, _>(pos, list);
}

/// Appends the legal moves of kind `G` for the side to move to `sink`.
#[inline]
pub fn generate<G: GenType, S: MoveSink>(pos: &Position, sink: &mut S) {
    match pos.side_to_move() {
        Color::White => generate_for::<G, S, true>(pos, sink),
        Color::Black => generate_for::<G, S, false>(pos, sink),
    }
}

/// The number of legal moves (perft's bulk count at the last ply). Not inlined: perft's loop
/// over a position's children keeps fewer values alive around a call than around this body
/// (about 3 % fewer instructions for the same counts).
#[inline(never)]
pub fn count_legal(pos: &Position) -> u64 {
    let mut counter = MoveCounter(0);
    generate::<AllMoves, _>(pos, &mut counter);
    counter.0
}

/// A sink that only counts.
struct MoveCounter(u64);

impl MoveSink for MoveCounter {
    const UNCHECKED_COPY: bool = true;

    #[inline(always)]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, quiets: Bitboard, captures: Bitboard) {
        self.0 += u64::from((quiets | captures).count()); // disjoint: one popcount
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _shift: i8, _kind: MoveKind) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _shift: i8, _capture: bool) {
        self.0 += 4 * u64::from(targets.count());
    }

    #[inline(always)]
    fn castles(&mut self, _king: Square, rooks: Bitboard) {
        self.0 += u64::from(rooks.count());
    }
}

/// The origin of a pawn move that reached `to` by `shift`.
#[inline(always)]
pub fn pawn_origin(to: Square, shift: i8) -> Square {
    Square::from_index((to as i8 - shift) as u8)
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv);
    }
}

/// Squares one pawn step forward for White (`WHITE`) or Black, and the two capture steps.
#[inline(always)]
fn up<const WHITE: bool>(bb: Bitboard) -> Bitboard {
    bb.forward(WHITE)
}

#[inline(always)]
fn up_east<const WHITE: bool>(bb: Bitboard) -> Bitboard {
    bb.forward(WHITE).east()
}

#[inline(always)]
fn up_west<const WHITE: bool>(bb: Bitboard) -> Bitboard {
    bb.forward(WHITE).west()
}

#[inline(always)]
fn generate_for<G: GenType, S: MoveSink, const WHITE: bool>(pos: &Position, sink: &mut S) {
    let us = if WHITE { Color::White } else { Color::Black };
    let them = !us;
    let ours = pos.color(us);
    let theirs = pos.color(them);
    let occupied = ours | theirs;
    let ksq = pos.king_square(us);
    let checkers = pos.checkers();

    // King moves and castling need the squares the enemy attacks once the king has left its
    // square (so the king cannot step back along a checking slider's line): only the king's
    // targets (`king_danger`), unless castling needs its paths too (`castle_danger`).
    let without_king = occupied.without(ksq);
    let mut king_targets = attacks::king(ksq) & !ours;
    if !G::QUIET {
        king_targets &= theirs;
    }
    if !G::NOISY {
        king_targets &= !theirs;
    }
    // Castling candidates, by rook square: a right held, out of check, nothing between king
    // and rook (those squares always lie on the two paths).
    let mut castle_rooks = Bitboard::EMPTY;
    if G::QUIET && checkers.is_empty() && pos.castling_rights().has_any(us) {
        for side in CastleSide::ALL {
            if let Some(rook) = pos.castling_rook(us, side) {
                if (attacks::between(ksq, rook) & occupied).is_empty() {
                    castle_rooks = castle_rooks.with(rook);
                }
            }
        }
    }
    // Castling needs the squares on the king's paths as well: the enemy's map of every
    // square the king may step or castle through (`castle_danger`).
    let danger = if castle_rooks.is_nonempty() {
        castle_danger(pos, them, ksq, castle_rooks, without_king)
    } else {
        king_danger(pos, them, ksq, king_targets, without_king)
    };
    let safe = king_targets & !danger;
    sink.piece_moves(ksq, safe & !theirs, safe & theirs);
    // Castling is settled while the map is at hand; its moves still come last.
    let castles = castle_rooks
        .filter(|&rook| castling_is_legal(pos, us, ksq, rook, CastleSide::of(ksq, rook), occupied, danger))
        .collect::<Bitboard>();
    if checkers.has_more_than_one() {
        return; // double check: only the king may move
    }

    // Every other move must land on the check mask: the checker or a square blocking it. Most
    // positions pin nothing: a copy of the piece and pawn moves with no pin rays folds every pin
    // test away; for sinks that ask (`UNCHECKED_COPY`), copies for positions out of check fold
    // the check mask away too.
    let pins = pos.pin_rays(us);
    let pinned_any = ((pins.orthogonal | pins.diagonal) & ours).is_nonempty();
    let check_mask = match checkers.single() {
        Some(checker) => attacks::between(ksq, checker).with(checker),
        None => Bitboard::FULL,
    };
    match (S::UNCHECKED_COPY && checkers.is_empty(), pinned_any) {
        (true, false) => generate_piece_and_pawn_moves::<G, S, WHITE>(pos, sink, Bitboard::FULL, PinRays::default()),
        (true, true) => generate_piece_and_pawn_moves::<G, S, WHITE>(pos, sink, Bitboard::FULL, pins),
        (false, false) => generate_piece_and_pawn_moves::<G, S, WHITE>(pos, sink, check_mask, PinRays::default()),
        (false, true) => generate_piece_and_pawn_moves::<G, S, WHITE>(pos, sink, check_mask, pins),
    }

    if castles.is_nonempty() {
        sink.castles(ksq, castles);
    }
}

/// The moves of every piece but the king, `pins` being the side to move's pin rays.
#[inline(always)]
fn generate_piece_and_pawn_moves<G: GenType, S: MoveSink, const WHITE: bool>(
    pos: &Position,
    sink: &mut S,
    check_mask: Bitboard,
    pins: PinRays,
) {
    let us = if WHITE { Color::White } else { Color::Black };
    let occupied = pos.occupied();
    let pinned = (pins.orthogonal | pins.diagonal) & pos.color(us);
    let quiet_targets = if G::QUIET { !occupied & check_mask } else { Bitboard::EMPTY };
    let capture_targets = if G::NOISY { pos.color(!us) & check_mask } else { Bitboard::EMPTY };

    for from in pos.pieces(us, Piece::Knight) & !pinned {
        let moves = attacks::knight(from);
        sink.piece_moves(from, moves & quiet_targets, moves & capture_targets);
    }
    for from in pos.diagonal_sliders(us) & !pins.orthogonal {
        let mut moves = attacks::bishop(from, occupied);
        if pins.diagonal.contains(from) {
            moves &= pins.diagonal;
        }
        sink.piece_moves(from, moves & quiet_targets, moves & capture_targets);
    }
    for from in pos.orthogonal_sliders(us) & !pins.diagonal {
        let mut moves = attacks::rook(from, occupied);
        if pins.orthogonal.contains(from) {
            moves &= pins.orthogonal;
        }
        sink.piece_moves(from, moves & quiet_targets, moves & capture_targets);
    }
    generate_pawn_moves::<G, S, WHITE>(pos, sink, check_mask, pins.orthogonal, pins.diagonal);
}

/// The squares `them` attacks among those next to the king on `ksq` and those its castling
/// paths with `castle_rooks` cross, when `occupied` holds the blockers: every pawn, knight and
/// the king, and only the sliders whose empty-board lines reach one of those squares (for the
/// path squares not next to the king, build.rs's tables by king and rook square say which).
/// Squares elsewhere may be missing from the result.
#[inline(always)]
fn castle_danger(pos: &Position, them: Color, ksq: Square, castle_rooks: Bitboard, occupied: Bitboard) -> Bitboard {
    let mut diagonal_reach = attacks::bishops_near_king(ksq);
    let mut orthogonal_reach = attacks::rooks_near_king(ksq);
    for rook in castle_rooks {
        diagonal_reach |= attacks::castling_diagonal_reach(ksq, rook);
        orthogonal_reach |= attacks::castling_orthogonal_reach(ksq, rook);
    }
    pos.leaper_attacks(them)
        | attacks::slider_map(
            pos.diagonal_sliders(them) & diagonal_reach,
            pos.orthogonal_sliders(them) & orthogonal_reach,
            occupied,
        )
}

/// The squares of `targets` (next to the king on `ksq`) that `them` attacks when `occupied`
/// holds the blockers: the pawns, the king, the knights near the king, and the sliders whose
/// empty-board lines pass next to the king, one lookup per slider line (a queen counts twice).
/// Squares outside `targets` may be missing from the result. (Looking up only the squares the
/// leapers left open, where they were few, branched more than it saved: docs/measurements.md.)
#[inline(always)]
fn king_danger(pos: &Position, them: Color, ksq: Square, targets: Bitboard, occupied: Bitboard) -> Bitboard {
    if targets.is_empty() {
        return Bitboard::EMPTY;
    }
    let leapers = pos.leaper_attacks_with(them, pos.pieces(them, Piece::Knight) & attacks::knights_near_king(ksq));
    let diagonal = pos.diagonal_sliders(them) & attacks::bishops_near_king(ksq);
    let orthogonal = pos.orthogonal_sliders(them) & attacks::rooks_near_king(ksq);
    leapers | attacks::slider_map(diagonal, orthogonal, occupied)
}

#[inline(always)]
fn generate_pawn_moves<G: GenType, S: MoveSink, const WHITE: bool>(
    pos: &Position,
    sink: &mut S,
    check_mask: Bitboard,
    pin_orthogonal: Bitboard,
    pin_diagonal: Bitboard,
) {
    let us = if WHITE { Color::White } else { Color::Black };
    let them = !us;
    let pawns = pos.pieces(us, Piece::Pawn);
    let empty = !pos.occupied();
    let theirs = pos.color(them);
    let (promotion_rank, double_push_rank) = if WHITE {
        (Bitboard::RANK_8, Bitboard::rank(Rank::Fourth))
    } else {
        (Bitboard::RANK_1, Bitboard::rank(Rank::Fifth))
    };
    let forward: i8 = if WHITE { 8 } else { -8 };

    // Pushes: a diagonally pinned pawn cannot push; an orthogonally pinned one stays on its ray.
    let pushers = pawns & !pin_diagonal;
    let single =
        (up::<WHITE>(pushers & !pin_orthogonal) | (up::<WHITE>(pushers & pin_orthogonal) & pin_orthogonal)) & empty;
    let double = up::<WHITE>(single) & empty & double_push_rank & check_mask;
    let single = single & check_mask;

    // Captures: an orthogonally pinned pawn cannot capture; a diagonally pinned one stays on its ray.
    let capturers = pawns & !pin_orthogonal;
    let free = capturers & !pin_diagonal;
    let on_ray = capturers & pin_diagonal;
    let targets = theirs & check_mask;
    let east = (up_east::<WHITE>(free) | (up_east::<WHITE>(on_ray) & pin_diagonal)) & targets;
    let west = (up_west::<WHITE>(free) | (up_west::<WHITE>(on_ray) & pin_diagonal)) & targets;

    if G::QUIET {
        sink.pawn_moves(single & !promotion_rank, forward, MoveKind::QUIET);
        sink.pawn_moves(double, 2 * forward, MoveKind::DOUBLE_PUSH);
    }
    if G::NOISY {
        sink.pawn_moves(east & !promotion_rank, forward + 1, MoveKind::CAPTURE);
        sink.pawn_moves(west & !promotion_rank, forward - 1, MoveKind::CAPTURE);
        if (pawns & promotion_rank.forward(!WHITE)).is_nonempty() {
            sink.promotions(single & promotion_rank, forward, false);
            sink.promotions(east & promotion_rank, forward + 1, true);
            sink.promotions(west & promotion_rank, forward - 1, true);
        }
        if let Some(ep) = pos.en_passant() {
            generate_en_passant::<S, WHITE>(pos, sink, ep, capturers, check_mask, pin_diagonal);
        }
    }
}

#[inline(always)]
fn generate_en_passant<S: MoveSink, const WHITE: bool>(
    pos: &Position,
    sink: &mut S,
    ep: Square,
    capturers: Bitboard,
    check_mask: Bitboard,
    pin_diagonal: Bitboard,
) {
    let us = if WHITE { Color::White } else { Color::Black };
    let them = !us;
    let captured = ep.forward(!WHITE);
    // Legal only if it removes the checker or blocks the check.
    if !(check_mask.contains(ep) || check_mask.contains(captured)) {
        return;
    }
    let ksq = pos.king_square(us);
    for from in attacks::pawn(them, ep) & capturers {
        if pin_diagonal.contains(from) && !pin_diagonal.contains(ep) {
            continue;
        }
        // Two pawns leave the board's lines at once: re-check the king against every slider
        // (this catches the pin along the rank, and a diagonal opened by the captured pawn).
        let occupied = pos.occupied().without(from).without(captured).with(ep);
        let exposed = (attacks::rook(ksq, occupied) & pos.orthogonal_sliders(them))
            | (attacks::bishop(ksq, occupied) & pos.diagonal_sliders(them));
        if exposed.is_empty() {
            sink.push(Move::new(from, ep, MoveKind::EN_PASSANT));
        }
    }
}

/// Whether `mv` is legal in `pos`, without generating every move: for moves that come from
/// elsewhere (the transposition table, killers, counter moves, UCI text).
pub fn is_legal_move(pos: &Position, mv: Move) -> bool {
    let us = pos.side_to_move();
    let them = !us;
    let (from, to) = (mv.from(), mv.to());
    if mv.is_null() || !pos.color(us).contains(from) {
        return false;
    }
    let Some(piece) = pos.piece_on(from) else {
        return false;
    };
    let occupied = pos.occupied();
    let ksq = pos.king_square(us);
    if mv.is_castle() {
        let side = CastleSide::of(from, to);
        return piece == Piece::King
            && pos.castling_rook(us, side) == Some(to)
            && !pos.is_check()
            && (attacks::between(ksq, to) & occupied).is_empty()
            && castling_is_legal(pos, us, ksq, to, side, occupied, pos.attacks_of(them, occupied.without(ksq)));
    }
    if mv.is_en_passant() {
        // Rare: let the generator decide (it handles the pins that en passant can expose).
        let mut list = MoveList::new();
        generate::<NoisyMoves, _>(pos, &mut list);
        return list.contains(&mv);
    }
    if pos.color(us).contains(to) || mv.is_capture() != pos.color(them).contains(to) {
        return false;
    }
    // Only pawns double-push or promote; every other piece moves plainly (kinds 3, 6 and 7
    // are never generated).
    let plain = mv.kind() == MoveKind::QUIET || mv.kind() == MoveKind::CAPTURE;
    let pawn_only = mv.kind() == MoveKind::DOUBLE_PUSH || mv.is_promotion();
    if !(plain || (pawn_only && piece == Piece::Pawn)) {
        return false;
    }
    let last_rank = if us.is_white() { Bitboard::RANK_8 } else { Bitboard::RANK_1 };
    let reaches = match piece {
        Piece::Pawn => {
            if mv.is_promotion() != last_rank.contains(to) {
                return false;
            }
            let one_step = from.offset(0, if us.is_white() { 1 } else { -1 });
            if mv.is_capture() {
                attacks::pawn(us, from).contains(to)
            } else if mv.kind() == MoveKind::DOUBLE_PUSH {
                let start_rank = if us.is_white() { Rank::Second } else { Rank::Seventh };
                from.rank() == start_rank
                    && one_step.is_some_and(|step| !occupied.contains(step) && step.forward(us.is_white()) == to)
                    && !occupied.contains(to)
            } else {
                one_step == Some(to) && !occupied.contains(to)
            }
        }
        Piece::Knight => attacks::knight(from).contains(to),
        Piece::Bishop => attacks::bishop(from, occupied).contains(to),
        Piece::Rook => attacks::rook(from, occupied).contains(to),
        Piece::Queen => attacks::queen(from, occupied).contains(to),
        Piece::King => attacks::king(from).contains(to),
    };
    if !reaches {
        return false;
    }
    if piece == Piece::King {
        return !pos.is_attacked(to, them, occupied.without(from));
    }
    // Any other move is legal when our king is not attacked afterwards (the captured piece
    // attacks nothing any more).
    let after = occupied.without(from).with(to);
    let remaining = pos.color(them).without(to);
    let sliders = (attacks::rook(ksq, after) & pos.orthogonal_sliders(them))
        | (attacks::bishop(ksq, after) & pos.diagonal_sliders(them));
    let leapers = (attacks::knight(ksq) & pos.pieces_of_kind(Piece::Knight))
        | (attacks::pawn(us, ksq) & pos.pieces_of_kind(Piece::Pawn));
    ((sliders | leapers) & remaining).is_empty()
}

/// Castling on `side` with the rook on `rook` (nothing stands between them): every square the
/// king and rook cross or land on is empty (but for the two of them), no square the king
/// passes or lands on is in `danger`, and the rook was not shielding the king's destination
/// from a rook or queen on the back rank (a Chess960 case). The squares come from build.rs's
/// tables by king and rook square.
#[inline]
fn castling_is_legal(
    pos: &Position,
    us: Color,
    ksq: Square,
    rook: Square,
    side: CastleSide,
    occupied: Bitboard,
    danger: Bitboard,
) -> bool {
    if (occupied & attacks::castling_clear(ksq, rook)).is_nonempty()
        || (danger & attacks::castling_king_path(ksq, rook)).is_nonempty()
    {
        return false;
    }
    let rank = ksq.rank();
    let rank_sliders = pos.orthogonal_sliders(!us) & Bitboard::rank(rank);
    if rank_sliders.is_empty() {
        return true;
    }
    let king_to = Square::new(side.destination_files().0, rank);
    (attacks::rook(king_to, occupied.without(ksq).without(rook)) & rank_sliders).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(fen: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"));
        let mut list = MoveList::new();
        generate_legal(&pos, &mut list);
        let mut names: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        names.sort();
        names
    }

    #[test]
    fn noisy_and_quiet_partition_all_moves() {
        for fen in [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
        ] {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            let (mut all, mut noisy, mut quiet) = (MoveList::new(), MoveList::new(), MoveList::new());
            generate::<AllMoves, _>(&pos, &mut all);
            generate::<NoisyMoves, _>(&pos, &mut noisy);
            generate::<QuietMoves, _>(&pos, &mut quiet);
            assert!(noisy.iter().all(|m| m.is_noisy()), "{fen}");
            assert!(quiet.iter().all(|m| !m.is_noisy()), "{fen}");
            assert_eq!(noisy.len() + quiet.len(), all.len(), "{fen}");
            assert!(all.iter().all(|&m| noisy.contains(&m) || quiet.contains(&m)));
            assert_eq!(count_legal(&pos), all.len() as u64);
        }
    }

    #[test]
    fn en_passant_respects_the_rank_pin() {
        assert!(!moves("8/8/8/KPp4r/8/8/8/7k w - c6 0 2").contains(&"b5c6".to_string()));
        assert!(moves("8/8/8/1Pp4r/K7/8/8/7k w - c6 0 2").contains(&"b5c6".to_string()));
    }

    #[test]
    fn castling_needs_a_safe_empty_path() {
        let both = moves("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert!(both.contains(&"e1g1".to_string()) && both.contains(&"e1c1".to_string()));
        // The f1 square is attacked by the f8 rook: no short castling; long castling is fine.
        let attacked = moves("r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1");
        assert!(!attacked.contains(&"e1g1".to_string()) && attacked.contains(&"e1c1".to_string()));
        // b1 may be attacked (only the rook crosses it), but not occupied.
        let b1 = moves("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert!(b1.contains(&"e1c1".to_string()));
        assert!(!moves("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1").contains(&"e1c1".to_string()));
        // In check: no castling.
        assert!(!moves("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1").iter().any(|m| m == "e1g1" || m == "e1c1"));
    }

    #[test]
    fn chess960_castling_rook_may_not_shield_the_king() {
        // Castling queen side leaves the king on c1 exposed to the a1 queen once b1's rook moves.
        let pos = Position::from_fen("7k/8/8/8/8/8/8/qRK5 w B - 0 1").unwrap_or_else(|e| unreachable!("{e}"));
        assert!(!is_legal_move(&pos, Move::new(Square::C1, Square::B1, MoveKind::CASTLE)));
    }

    #[test]
    fn is_legal_move_agrees_with_generation() {
        let mut next = crate::testing::xorshift(0xfeed);
        let mut checked = 0;
        for fen in [
            crate::position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let mut pos = Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}"));
            let mut previous = MoveList::new();
            for _ in 0..200 {
                let mut list = MoveList::new();
                generate_legal(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                // Every legal move, the last position's moves, and random encodings.
                let randoms: Vec<Move> = (0..64).map(|_| Move::from_bits(next() as u16)).collect();
                for &mv in list.iter().chain(previous.iter()).chain(randoms.iter()) {
                    assert_eq!(is_legal_move(&pos, mv), list.contains(&mv), "{mv:?} in {}", pos.to_fen());
                    checked += 1;
                }
                let mv = list[(next() % list.len() as u64) as usize];
                previous = list;
                pos.make_move(mv);
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    #[test]
    fn double_check_allows_only_king_moves() {
        let names = moves("4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1");
        assert!(names.iter().all(|m| m.starts_with("e1")), "{names:?}");
    }
}
