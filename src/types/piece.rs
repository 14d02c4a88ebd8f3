//! Piece kinds, without colour (the colour lives in the position's colour bitboards).
//! `[T; 6]` arrays are indexed by `Piece`.

use super::color::Color;
use std::ops::{Index, IndexMut};

/// A kind of piece.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Piece {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Piece {
    /// Every kind, pawn first.
    pub const ALL: [Piece; 6] = [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];

    /// The kinds a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Piece; 4] = [Piece::Queen, Piece::Knight, Piece::Rook, Piece::Bishop];

    /// 0 (pawn) to 5 (king).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `i`; `i` must be below 6.
    #[inline]
    pub const fn from_index(i: u8) -> Piece {
        match i {
            0 => Piece::Pawn,
            1 => Piece::Knight,
            2 => Piece::Bishop,
            3 => Piece::Rook,
            4 => Piece::Queen,
            _ => Piece::King,
        }
    }

    /// The lowercase letter: `p n b r q k`.
    pub const fn to_char(self) -> char {
        match self {
            Piece::Pawn => 'p',
            Piece::Knight => 'n',
            Piece::Bishop => 'b',
            Piece::Rook => 'r',
            Piece::Queen => 'q',
            Piece::King => 'k',
        }
    }

    /// The FEN letter for this piece of `color` (upper case for White).
    pub const fn to_fen_char(self, color: Color) -> char {
        let c = self.to_char();
        match color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece and colour of a FEN letter (`P`..`K` White, `p`..`k` Black).
    ///
    /// ```
    /// use springer::types::{Color, Piece};
    /// assert_eq!(Piece::from_fen_char('N'), Some((Piece::Knight, Color::White)));
    /// assert_eq!(Piece::from_fen_char('x'), None);
    /// ```
    pub fn from_fen_char(c: char) -> Option<(Piece, Color)> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let piece = match c.to_ascii_lowercase() {
            'p' => Piece::Pawn,
            'n' => Piece::Knight,
            'b' => Piece::Bishop,
            'r' => Piece::Rook,
            'q' => Piece::Queen,
            'k' => Piece::King,
            _ => return None,
        };
        Some((piece, color))
    }
}

impl<T> Index<Piece> for [T; 6] {
    type Output = T;

    #[inline(always)]
    fn index(&self, p: Piece) -> &T {
        &self[p as usize]
    }
}

impl<T> IndexMut<Piece> for [T; 6] {
    #[inline(always)]
    fn index_mut(&mut self, p: Piece) -> &mut T {
        &mut self[p as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_letters_roundtrip() {
        for p in Piece::ALL {
            for c in Color::ALL {
                assert_eq!(Piece::from_fen_char(p.to_fen_char(c)), Some((p, c)));
            }
        }
    }
}
