//! Position invariants over long random games: the incremental Zobrist key equals the key
//! computed from scratch, the stored checkers equal the attackers of the king, bitboards stay
//! consistent, and every move the generator gives is accepted by `movegen::is_legal_move`.

use springer::movegen::{generate_legal, is_legal_move, MoveList};
use springer::position::{Position, START_FEN};
use springer::types::{Bitboard, Color, Piece};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn assert_consistent(pos: &Position, context: &str) {
    assert_eq!(pos.key(), pos.compute_key(), "key: {context}");
    let us = pos.side_to_move();
    let ksq = pos.king_square(us);
    assert_eq!(pos.checkers(), pos.attackers_to(ksq, pos.occupied()) & pos.color(!us), "checkers: {context}");
    let mut union = Bitboard::EMPTY;
    for piece in Piece::ALL {
        let bb = pos.pieces_of_kind(piece);
        assert!((union & bb).is_empty(), "kinds overlap: {context}");
        union |= bb;
        for sq in bb {
            assert_eq!(pos.piece_on(sq), Some(piece), "piece_on: {context}");
        }
    }
    assert_eq!(union, pos.occupied(), "occupancy: {context}");
    assert!((pos.color(Color::White) & pos.color(Color::Black)).is_empty(), "colours overlap: {context}");
    assert_eq!(Position::from_fen(&pos.to_fen()).as_ref(), Ok(pos), "FEN round trip: {context}");
}

#[test]
fn zobrist_incremental_matches_recomputed() {
    let starts = [
        START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut rng = Rng(0x0dd_ba11_cafe_f00d);
    let mut moves_played = 0;
    for game in 0..600 {
        let start = starts[game % starts.len()];
        let mut pos = Position::from_fen(start).expect("valid start");
        for ply in 0..300 {
            let mut list = MoveList::new();
            generate_legal(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            assert!(is_legal_move(&pos, mv));
            let info = pos.check_info();
            let gives_check = pos.gives_check(mv, &info);
            let before = pos.to_fen();
            pos.make_move(mv);
            moves_played += 1;
            assert_eq!(gives_check, pos.is_check(), "gives_check of {mv:?} in {before}");
            assert_consistent(&pos, &format!("game {game} ply {ply} after {} from {before}", mv.to_uci(true)));
        }
    }
    assert!(moves_played > 50_000, "{moves_played}");
}

#[test]
fn null_move_flips_side_and_key() {
    let mut pos = Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3").expect("valid");
    let key = pos.key();
    pos.make_null_move();
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.en_passant(), None);
    assert_ne!(pos.key(), key);
    assert_eq!(pos.key(), pos.compute_key());
}

#[test]
fn mirrored_position_has_mirrored_moves() {
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").expect("valid");
    let mirror = pos.mirrored();
    assert_eq!(mirror.mirrored(), pos);
    assert_eq!(mirror.key(), mirror.compute_key());
    assert_eq!(springer::perft::perft(&mirror, 3), springer::perft::perft(&pos, 3));
}
