//! The founding documents' other games, on the same search ideas as the chess engine (bitboards,
//! negamax alpha-beta, a transposition table, move ordering, iterative narrowing) but written for
//! each game: they share nothing with the chess hot path.

pub mod connect4;
pub mod kalah;

/// Random picks among equally good moves (SplitMix64): nearby seeds give unrelated sequences,
/// so the games of a match differ from the first move on.
pub struct TieBreaker(u64);

impl TieBreaker {
    pub fn new(seed: u64) -> TieBreaker {
        TieBreaker(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
