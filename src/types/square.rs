//! Squares A1 = 0 … H8 = 63 (little-endian rank-file), with files and ranks; `[T; 64]` arrays are
//! indexed by `Square` directly, so no square is ever a bare integer outside this file.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

/// A square of the board; the discriminant is `8 * rank + file`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
#[rustfmt::skip]
pub enum Square {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

/// A file, A to H.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A rank, first to eighth (from White's side).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl File {
    /// Every file, A first.
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    /// The file with index `i` (0 = A); `i` must be below 8.
    #[inline]
    pub const fn from_index(i: u8) -> File {
        match i & 7 {
            0 => File::A,
            1 => File::B,
            2 => File::C,
            3 => File::D,
            4 => File::E,
            5 => File::F,
            6 => File::G,
            _ => File::H,
        }
    }

    /// Index 0 (A) to 7 (H).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file named by a lowercase letter `a`..`h`.
    pub fn from_char(c: char) -> Option<File> {
        ('a'..='h').contains(&c).then(|| File::from_index(c as u8 - b'a'))
    }

    /// The lowercase letter of the file.
    pub fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }
}

impl Rank {
    /// Every rank, first to eighth.
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    /// The rank with index `i` (0 = first); `i` must be below 8.
    #[inline]
    pub const fn from_index(i: u8) -> Rank {
        match i & 7 {
            0 => Rank::First,
            1 => Rank::Second,
            2 => Rank::Third,
            3 => Rank::Fourth,
            4 => Rank::Fifth,
            5 => Rank::Sixth,
            6 => Rank::Seventh,
            _ => Rank::Eighth,
        }
    }

    /// Index 0 (first rank) to 7 (eighth).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank named by a digit `1`..`8`.
    pub fn from_char(c: char) -> Option<Rank> {
        ('1'..='8').contains(&c).then(|| Rank::from_index(c as u8 - b'1'))
    }

    /// The digit of the rank.
    pub fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }
}

impl Square {
    /// Every square, A1 first and H8 last.
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = [
        Square::A1, Square::B1, Square::C1, Square::D1, Square::E1, Square::F1, Square::G1, Square::H1,
        Square::A2, Square::B2, Square::C2, Square::D2, Square::E2, Square::F2, Square::G2, Square::H2,
        Square::A3, Square::B3, Square::C3, Square::D3, Square::E3, Square::F3, Square::G3, Square::H3,
        Square::A4, Square::B4, Square::C4, Square::D4, Square::E4, Square::F4, Square::G4, Square::H4,
        Square::A5, Square::B5, Square::C5, Square::D5, Square::E5, Square::F5, Square::G5, Square::H5,
        Square::A6, Square::B6, Square::C6, Square::D6, Square::E6, Square::F6, Square::G6, Square::H6,
        Square::A7, Square::B7, Square::C7, Square::D7, Square::E7, Square::F7, Square::G7, Square::H7,
        Square::A8, Square::B8, Square::C8, Square::D8, Square::E8, Square::F8, Square::G8, Square::H8,
    ];

    /// The square with index `i` (A1 = 0); `i` must be below 64.
    ///
    /// ```
    /// use springer::types::Square;
    /// assert_eq!(Square::from_index(12), Square::E2);
    /// ```
    #[inline(always)]
    pub const fn from_index(i: u8) -> Square {
        debug_assert!(i < 64);
        // A match in square order compiles to the identity (a table lookup would cost a load).
        match i & 63 {
            0 => Square::A1,
            1 => Square::B1,
            2 => Square::C1,
            3 => Square::D1,
            4 => Square::E1,
            5 => Square::F1,
            6 => Square::G1,
            7 => Square::H1,
            8 => Square::A2,
            9 => Square::B2,
            10 => Square::C2,
            11 => Square::D2,
            12 => Square::E2,
            13 => Square::F2,
            14 => Square::G2,
            15 => Square::H2,
            16 => Square::A3,
            17 => Square::B3,
            18 => Square::C3,
            19 => Square::D3,
            20 => Square::E3,
            21 => Square::F3,
            22 => Square::G3,
            23 => Square::H3,
            24 => Square::A4,
            25 => Square::B4,
            26 => Square::C4,
            27 => Square::D4,
            28 => Square::E4,
            29 => Square::F4,
            30 => Square::G4,
            31 => Square::H4,
            32 => Square::A5,
            33 => Square::B5,
            34 => Square::C5,
            35 => Square::D5,
            36 => Square::E5,
            37 => Square::F5,
            38 => Square::G5,
            39 => Square::H5,
            40 => Square::A6,
            41 => Square::B6,
            42 => Square::C6,
            43 => Square::D6,
            44 => Square::E6,
            45 => Square::F6,
            46 => Square::G6,
            47 => Square::H6,
            48 => Square::A7,
            49 => Square::B7,
            50 => Square::C7,
            51 => Square::D7,
            52 => Square::E7,
            53 => Square::F7,
            54 => Square::G7,
            55 => Square::H7,
            56 => Square::A8,
            57 => Square::B8,
            58 => Square::C8,
            59 => Square::D8,
            60 => Square::E8,
            61 => Square::F8,
            62 => Square::G8,
            _ => Square::H8,
        }
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square::from_index(rank as u8 * 8 + file as u8)
    }

    /// Index 0 (A1) to 63 (H8).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file of the square.
    #[inline]
    pub const fn file(self) -> File {
        File::from_index(self as u8 & 7)
    }

    /// The rank of the square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::from_index(self as u8 >> 3)
    }

    /// The square `files` to the right and `ranks` up, if it is on the board.
    pub const fn offset(self, files: i8, ranks: i8) -> Option<Square> {
        let file = self.file() as i8 + files;
        let rank = self.rank() as i8 + ranks;
        if file < 0 || file > 7 || rank < 0 || rank > 7 {
            None
        } else {
            Some(Square::from_index((rank * 8 + file) as u8))
        }
    }

    /// The square reflected across the middle of the board (A1 <-> A8): the same square seen from
    /// the other side.
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square::from_index(self as u8 ^ 56)
    }

    /// The square one rank forward for `white` (up) or black (down); the caller ensures it exists.
    #[inline]
    pub const fn forward(self, white: bool) -> Square {
        if white {
            Square::from_index(self as u8 + 8)
        } else {
            Square::from_index(self as u8 - 8)
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

/// The text was not a square name such as `e4`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a square such as e4")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1`..`h8`.
    ///
    /// ```
    /// use springer::types::Square;
    /// assert_eq!("e4".parse(), Ok(Square::E4));
    /// assert!("i9".parse::<Square>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(file), Some(rank)) => Ok(Square::new(file, rank)),
                _ => Err(ParseSquareError),
            },
            _ => Err(ParseSquareError),
        }
    }
}

impl<T> Index<Square> for [T; 64] {
    type Output = T;

    #[inline(always)]
    fn index(&self, sq: Square) -> &T {
        &self[sq as usize]
    }
}

impl<T> IndexMut<Square> for [T; 64] {
    #[inline(always)]
    fn index_mut(&mut self, sq: Square) -> &mut T {
        &mut self[sq as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_file_rank_roundtrip() {
        for (i, &sq) in Square::ALL.iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(Square::from_index(i as u8), sq);
            assert_eq!(Square::new(sq.file(), sq.rank()), sq);
            assert_eq!(sq.to_string().parse(), Ok(sq));
        }
    }

    #[test]
    fn offset_stays_on_board() {
        assert_eq!(Square::A1.offset(-1, 0), None);
        assert_eq!(Square::H8.offset(0, 1), None);
        assert_eq!(Square::E4.offset(1, 2), Some(Square::F6));
        assert_eq!(Square::E2.flip_rank(), Square::E7);
    }

    #[test]
    fn bad_square_names_are_errors() {
        for s in ["", "e", "e44", "z1", "a0", "A1", "é1"] {
            assert!(s.parse::<Square>().is_err(), "{s}");
        }
    }
}
