//! Core value types with no dependencies: squares, bitboards, colours, pieces and moves.

mod bitboard;
mod color;
mod moves;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use color::Color;
pub use moves::{Move, MoveKind, UciMove};
pub use piece::Piece;
pub use square::{File, ParseSquareError, Rank, Square};
