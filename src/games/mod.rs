//! The founding documents' other games, on the same search ideas as the chess engine (bitboards,
//! negamax alpha-beta, a transposition table, move ordering, iterative narrowing) but written for
//! each game: they share nothing with the chess hot path.

pub mod connect4;
pub mod kalah;
