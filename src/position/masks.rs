//! The design's masks, built with AND/COMPLEMENT over attack bitboards: squares attacked by a
//! side, pieces attacked and undefended (`ours & their_attacks & !our_attacks`), pin rays and
//! pinned pieces. Evaluation, move ordering and move generation read them from here.

use super::Position;
use crate::attacks;
use crate::types::{Bitboard, Color, Piece};

/// The lines along which `color`'s pieces are pinned to their king. Each ray runs from next to
/// the king up to and including the pinning piece, so a pinned piece may move within its ray.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PinRays {
    /// Rays along ranks and files (pinned by rooks and queens).
    pub orthogonal: Bitboard,
    /// Rays along diagonals (pinned by bishops and queens).
    pub diagonal: Bitboard,
}

/// What the enemy threatens: every square it attacks, and which of our pieces a cheaper enemy
/// piece attacks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Threats {
    /// Every square the enemy attacks.
    pub attacked: Bitboard,
    /// Our knights, bishops, rooks and queens attacked by a pawn, our rooks and queens by a
    /// knight or bishop, our queens by a rook: such a piece usually has to move.
    pub by_cheaper: Bitboard,
}

impl Position {
    /// The threats against `color`, in one pass over the enemy pieces (as many slider lookups
    /// as `attacked_by`).
    pub fn threats_against(&self, color: Color) -> Threats {
        let them = !color;
        let occupied = self.occupied();
        let by_pawns = attacks::pawns_attacks(them, self.pieces(them, Piece::Pawn));
        let mut by_minors = Bitboard::EMPTY;
        for sq in self.pieces(them, Piece::Knight) {
            by_minors |= attacks::knight(sq);
        }
        for sq in self.pieces(them, Piece::Bishop) {
            by_minors |= attacks::bishop(sq, occupied);
        }
        let mut by_rooks = Bitboard::EMPTY;
        for sq in self.pieces(them, Piece::Rook) {
            by_rooks |= attacks::rook(sq, occupied);
        }
        let mut by_queens = Bitboard::EMPTY;
        for sq in self.pieces(them, Piece::Queen) {
            by_queens |= attacks::queen(sq, occupied);
        }
        let attacked = by_pawns | by_minors | by_rooks | by_queens | attacks::king(self.king_square(them));
        let queens = self.pieces(color, Piece::Queen);
        let majors = self.pieces(color, Piece::Rook) | queens;
        let minors = self.pieces(color, Piece::Knight) | self.pieces(color, Piece::Bishop);
        let by_cheaper = (by_pawns & (minors | majors)) | (by_minors & majors) | (by_rooks & queens);
        Threats { attacked, by_cheaper }
    }

    /// Every square attacked by `color`'s pieces when `occupied` holds the blockers.
    #[inline]
    pub fn attacks_of(&self, color: Color, occupied: Bitboard) -> Bitboard {
        self.leaper_attacks(color) | self.slider_attacks(color, occupied)
    }

    /// Every square attacked by `color`'s pawns, knights and king, which no blocker stops.
    #[inline]
    pub fn leaper_attacks(&self, color: Color) -> Bitboard {
        self.leaper_attacks_with(color, self.pieces(color, Piece::Knight))
    }

    /// Every square attacked by `color`'s pawns and king and by the knights on `knights` (some
    /// of `color`'s: the move generator leaves out those far from the other king).
    #[inline]
    pub fn leaper_attacks_with(&self, color: Color, knights: Bitboard) -> Bitboard {
        let mut attacked = attacks::pawns_attacks(color, self.pieces(color, Piece::Pawn));
        attacked |= attacks::king(self.king_square(color));
        for sq in knights {
            attacked |= attacks::knight(sq);
        }
        attacked
    }

    /// Every square attacked by `color`'s bishops, rooks and queens when `occupied` holds the
    /// blockers.
    #[inline]
    pub fn slider_attacks(&self, color: Color, occupied: Bitboard) -> Bitboard {
        attacks::slider_map(self.diagonal_sliders(color), self.orthogonal_sliders(color), occupied)
    }

    /// Every square attacked by `color`.
    ///
    /// ```
    /// use springer::position::Position;
    /// use springer::types::{Color, Square};
    /// let pos = Position::startpos();
    /// assert!(pos.attacked_by(Color::White).contains(Square::F3));
    /// assert!(!pos.attacked_by(Color::White).contains(Square::E4));
    /// ```
    #[inline]
    pub fn attacked_by(&self, color: Color) -> Bitboard {
        self.attacks_of(color, self.occupied())
    }

    /// `color`'s pieces that the other side attacks and `color` does not defend.
    #[inline]
    pub fn undefended(&self, color: Color) -> Bitboard {
        let ours = self.colors[color];
        let their_attacks = self.attacked_by(!color);
        let our_attacks = self.attacked_by(color);
        ours & their_attacks & !our_attacks
    }

    /// `color`'s pieces that the other side attacks, defended or not.
    #[inline]
    pub fn attacked_pieces(&self, color: Color) -> Bitboard {
        self.colors[color] & self.attacked_by(!color)
    }

    /// The rays along which `color`'s pieces are pinned to their own king.
    #[inline(always)]
    pub fn pin_rays(&self, color: Color) -> PinRays {
        let ksq = self.king_square(color);
        let occupied = self.occupied();
        let theirs = self.colors[!color];
        let orthogonal = self.orthogonal_sliders(!color);
        let diagonal = self.diagonal_sliders(!color);
        let mut rays = PinRays::default();
        // The empty-board rays tell which enemy sliders stand on the king's lines, without a
        // slider lookup: most positions have none (always inlined: called out of line, this
        // costs more than it saves), and each kind of line is looked up only when a slider of
        // that kind stands on it.
        let orthogonal = attacks::rook_rays(ksq) & orthogonal;
        let diagonal = attacks::bishop_rays(ksq) & diagonal;
        if (orthogonal | diagonal).is_empty() {
            return rays;
        }
        // Looking from the king through our own pieces (only theirs block) finds the snipers.
        let orthogonal_snipers =
            if orthogonal.is_empty() { Bitboard::EMPTY } else { attacks::rook(ksq, theirs) & orthogonal };
        for sniper in orthogonal_snipers {
            let between = attacks::between(ksq, sniper);
            if (between & occupied).count() == 1 {
                rays.orthogonal |= between.with(sniper);
            }
        }
        let diagonal_snipers =
            if diagonal.is_empty() { Bitboard::EMPTY } else { attacks::bishop(ksq, theirs) & diagonal };
        for sniper in diagonal_snipers {
            let between = attacks::between(ksq, sniper);
            if (between & occupied).count() == 1 {
                rays.diagonal |= between.with(sniper);
            }
        }
        rays
    }

    /// `color`'s pieces pinned to their own king.
    #[inline]
    pub fn pinned(&self, color: Color) -> Bitboard {
        let rays = self.pin_rays(color);
        (rays.orthogonal | rays.diagonal) & self.colors[color]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("valid test FEN")
    }

    fn squares(list: &[Square]) -> Bitboard {
        list.iter().copied().collect()
    }

    #[test]
    fn undefended_finds_hanging_pieces() {
        // Ne5 is attacked by the d6 pawn and defended by nothing; Bb5 is attacked by the a6 pawn
        // but defended by the c4 pawn; the a6 pawn is attacked by Bb5 and defended by nothing.
        let p = pos("7k/8/p2p4/1B2N3/2P5/8/8/4K3 w - - 0 1");
        assert_eq!(p.undefended(Color::White), squares(&[Square::E5]));
        assert_eq!(p.attacked_pieces(Color::White), squares(&[Square::B5, Square::E5]));
        assert_eq!(p.undefended(Color::Black), squares(&[Square::A6]));
    }

    #[test]
    fn undefended_matches_naive_scan() {
        let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        for color in Color::ALL {
            let occupied = p.occupied();
            let naive: Bitboard = p
                .color(color)
                .filter(|&sq| {
                    let attackers = p.attackers_to(sq, occupied);
                    (attackers & p.color(!color)).is_nonempty() && (attackers & p.color(color)).is_empty()
                })
                .collect();
            assert_eq!(p.undefended(color), naive, "{color:?}");
        }
    }

    #[test]
    fn attacked_by_matches_attackers_to() {
        let p = pos("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
        for color in Color::ALL {
            let naive: Bitboard = Square::ALL
                .into_iter()
                .filter(|&sq| (p.attackers_to(sq, p.occupied()) & p.color(color)).is_nonempty())
                .collect();
            assert_eq!(p.attacked_by(color), naive, "{color:?}");
        }
    }

    #[test]
    fn threats_against_match_a_naive_scan() {
        // A piece's rank for "cheaper": pawn, minor, rook, queen, king.
        fn rank(piece: Piece) -> u8 {
            match piece {
                Piece::Pawn => 0,
                Piece::Knight | Piece::Bishop => 1,
                Piece::Rook => 2,
                Piece::Queen => 3,
                Piece::King => 4,
            }
        }
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            // The search issue's case: Bd2 attacks the queen on a5.
            "rnb1kbnr/p2p2pp/2p2p2/qp2p3/2P3P1/3P1N2/PP1BPPBP/RN1QK2R b KQkq - 2 6",
        ];
        for fen in fens {
            let p = pos(fen);
            for color in Color::ALL {
                let occupied = p.occupied();
                let cheapest_attacker = |sq: Square| {
                    (p.attackers_to(sq, occupied) & p.color(!color))
                        .into_iter()
                        .filter_map(|a| p.piece_on(a))
                        .map(rank)
                        .min()
                };
                let by_cheaper: Bitboard =
                    (p.color(color) & !p.pieces(color, Piece::Pawn) & !p.pieces(color, Piece::King))
                        .filter(|&sq| {
                            let own = p.piece_on(sq).map_or(0, rank);
                            cheapest_attacker(sq).is_some_and(|attacker| attacker < own)
                        })
                        .collect();
                let threats = p.threats_against(color);
                assert_eq!(threats.attacked, p.attacked_by(!color), "{fen} {color:?}");
                assert_eq!(threats.by_cheaper, by_cheaper, "{fen} {color:?}");
            }
        }
        let issue_case = pos(fens[2]).threats_against(Color::Black).by_cheaper;
        assert!(issue_case.contains(Square::A5), "the queen attacked by a bishop");
    }

    #[test]
    fn pins_and_checkers() {
        // Re8 pins Ne2 along the e file; Qa5 pins the d2 pawn along a5-e1.
        let p = pos("4r1k1/8/8/q7/8/8/3PN3/4K3 w - - 0 1");
        assert_eq!(p.pinned(Color::White), squares(&[Square::E2, Square::D2]));
        let rays = p.pin_rays(Color::White);
        assert!(rays.orthogonal.contains(Square::E8) && rays.orthogonal.contains(Square::E5));
        assert!(rays.diagonal.contains(Square::A5) && rays.diagonal.contains(Square::C3));
        assert!(!p.is_check());
        // Double check: Nf3 and Ra1 both attack e1.
        let checked = pos("4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1");
        assert_eq!(checked.checkers(), squares(&[Square::F3, Square::A1]));
    }
}
