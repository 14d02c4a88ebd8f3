//! The two sides. `!color` is the other side; `[T; 2]` arrays are indexed by `Color`.

use std::ops::{Index, IndexMut, Not};

/// White or Black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// Both sides, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this is White.
    #[inline(always)]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// `w` or `b`, as in FEN.
    pub const fn to_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// +1 for White, -1 for Black: turns a White-relative score into one for this side.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl<T> Index<Color> for [T; 2] {
    type Output = T;

    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        &self[c as usize]
    }
}

impl<T> IndexMut<Color> for [T; 2] {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self[c as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_swaps_sides() {
        assert_eq!(!Color::White, Color::Black);
        assert_eq!(!!Color::Black, Color::Black);
        assert_eq!(Color::Black.sign(), -1);
    }
}
