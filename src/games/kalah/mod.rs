//! Kalah (Kalaha): two rows of houses with a store at each player's right, seeds sown
//! counter-clockwise one a pit (the opponent's store skipped). Three rule sets: the founding
//! program's (`seed`), `standard` and `empty-capture`; board size from 1 to 8 houses a side.
//! Pits are kept in sowing order from player 0: its houses, its store, player 1's houses (the
//! first opposite player 0's last), player 1's store.

pub mod endgame;
pub mod play;
pub mod solver;

use std::fmt;
use std::str::FromStr;

/// The most houses a side.
pub const MAX_HOUSES: usize = 8;
/// Pits on the largest board.
const MAX_PITS: usize = 2 * MAX_HOUSES + 2;
/// The most seeds in a game, so that every pit fits the 7 bits a key gives it.
pub const MAX_SEEDS: u32 = 127;

/// Which Kalah.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// The founding program's: the last seed in an own empty house takes the opposite house's
    /// seeds (if any) to the store, the capturing seed staying; a store holding more than half of
    /// all seeds wins at once; a player who cannot move loses.
    Seed,
    /// The last seed in an own empty house takes itself and the opposite house's seeds to the
    /// store when that house has seeds; the game ends once a side's houses are all empty, each
    /// side banking the seeds left on its own side.
    Standard,
    /// As standard, but the capture happens with the opposite house empty too (the single seed
    /// goes to the store).
    EmptyCapture,
}

impl FromStr for Rules {
    type Err = String;

    fn from_str(text: &str) -> Result<Rules, String> {
        match text {
            "seed" => Ok(Rules::Seed),
            "standard" => Ok(Rules::Standard),
            "empty-capture" => Ok(Rules::EmptyCapture),
            _ => Err(format!("unknown rules '{}': expected seed, standard or empty-capture", short(text))),
        }
    }
}

fn short(text: &str) -> String {
    text.chars().take(30).collect()
}

/// A Kalah position: the pits, whose turn it is, and the board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pits: [u8; MAX_PITS],
    houses: usize,
    /// 0 or 1.
    side: usize,
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sown {
    /// The board after the move (and after the end-of-game banking, if it ended).
    pub board: Board,
    /// The mover moves again (the last seed fell into its store).
    pub again: bool,
    /// The game is over.
    pub over: bool,
}

impl Board {
    /// The start position: `houses` houses of `seeds` seeds a side, player 0 to move.
    pub fn start(houses: usize, seeds: u8) -> Result<Board, String> {
        if !(1..=MAX_HOUSES).contains(&houses) {
            return Err(format!("houses must be 1 to {MAX_HOUSES}"));
        }
        if seeds == 0 || 2 * houses * usize::from(seeds) > MAX_SEEDS as usize {
            return Err(format!("seeds must be at least 1, and at most {MAX_SEEDS} on the board"));
        }
        let mut pits = [0; MAX_PITS];
        for h in 0..houses {
            pits[h] = seeds;
            pits[houses + 1 + h] = seeds;
        }
        Ok(Board { pits, houses, side: 0 })
    }

    /// A position written as comma-separated pits in sowing order from the side to move: its
    /// houses, its store, the opponent's houses, the opponent's store (2 x houses + 2 numbers).
    pub fn parse(text: &str, houses: usize) -> Result<Board, String> {
        let mut board = Board::start(houses, 1)?;
        let values: Vec<&str> = text.split(',').map(str::trim).collect();
        if values.len() != 2 * houses + 2 {
            return Err(format!(
                "position '{}': expected {} comma-separated pits for {houses} houses a side",
                short(text),
                2 * houses + 2
            ));
        }
        let mut total = 0u32;
        for (i, value) in values.iter().enumerate() {
            let seeds: u8 =
                value.parse().map_err(|_| format!("position '{}': pit {} is not a seed count", short(text), i + 1))?;
            total += u32::from(seeds);
            board.pits[i] = seeds;
        }
        if total == 0 || total > MAX_SEEDS {
            return Err(format!("position '{}': the board must hold 1 to {MAX_SEEDS} seeds", short(text)));
        }
        Ok(board)
    }

    /// Houses a side.
    pub fn houses(&self) -> usize {
        self.houses
    }

    /// Whose turn: 0 or 1.
    pub fn side(&self) -> usize {
        self.side
    }

    fn store(&self, side: usize) -> usize {
        side * (self.houses + 1) + self.houses
    }

    fn first_house(&self, side: usize) -> usize {
        side * (self.houses + 1)
    }

    /// Seeds in `side`'s store.
    pub fn store_seeds(&self, side: usize) -> u32 {
        u32::from(self.pits[self.store(side)])
    }

    /// Seeds in `side`'s houses.
    pub fn house_seeds(&self, side: usize) -> u32 {
        let first = self.first_house(side);
        self.pits[first..first + self.houses].iter().map(|&s| u32::from(s)).sum()
    }

    /// Every seed on the board and in the stores.
    pub fn total_seeds(&self) -> u32 {
        self.pits[..2 * self.houses + 2].iter().map(|&s| u32::from(s)).sum()
    }

    /// Seeds in the side to move's house `house` (0 = the one farthest from its store).
    pub fn seeds_in(&self, house: usize) -> u8 {
        self.pits[self.first_house(self.side) + house]
    }

    /// Whether the side to move may sow house `house`.
    pub fn is_legal(&self, house: usize) -> bool {
        house < self.houses && self.seeds_in(house) > 0
    }

    /// An exact key of the houses (stores left out) and the side to move: 7 bits a house.
    pub fn houses_key(&self) -> u128 {
        let mut key = self.side as u128;
        for side in 0..2 {
            let first = self.first_house(side);
            for &seeds in &self.pits[first..first + self.houses] {
                key = key << 7 | u128::from(seeds);
            }
        }
        key
    }

    /// An exact key of every pit and the side to move (at most 113 + 14 bits).
    pub fn full_key(&self) -> u128 {
        self.houses_key() << 14 | u128::from(self.pits[self.store(0)]) << 7 | u128::from(self.pits[self.store(1)])
    }

    /// The winner (`None`: a draw) of a game that `mover`'s last move finished, as `sow`
    /// reported it: under seed rules the mover wins with more than half of all seeds in its
    /// store or when its opponent is left without a move, and loses when it is itself left
    /// without one; otherwise the larger store wins.
    pub fn winner(&self, rules: Rules, mover: usize) -> Option<usize> {
        match rules {
            Rules::Seed if 2 * self.store_seeds(mover) > self.total_seeds() || self.side != mover => Some(mover),
            Rules::Seed => Some(1 - mover),
            Rules::Standard | Rules::EmptyCapture => match self.store_seeds(0).cmp(&self.store_seeds(1)) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            },
        }
    }

    /// Sows the side to move's house `house` (which must be legal) under `rules`.
    pub fn sow(&self, house: usize, rules: Rules) -> Sown {
        let mut board = *self;
        let me = self.side;
        let pits = 2 * self.houses + 2;
        let own_store = self.store(me);
        let their_store = self.store(1 - me);
        let mut at = self.first_house(me) + house;
        let mut seeds = board.pits[at];
        board.pits[at] = 0;
        while seeds > 0 {
            // The next pit, wrapping (a compare, not a division, in this hot loop).
            at = if at + 1 == pits { 0 } else { at + 1 };
            if at == their_store {
                continue;
            }
            board.pits[at] += 1;
            seeds -= 1;
        }
        let own_houses = self.first_house(me)..self.first_house(me) + self.houses;
        let again = at == own_store;
        if own_houses.contains(&at) && board.pits[at] == 1 {
            let opposite = 2 * self.houses - at;
            let taken = board.pits[opposite];
            match rules {
                Rules::Seed if taken > 0 => {
                    board.pits[own_store] += taken;
                    board.pits[opposite] = 0;
                }
                Rules::Standard if taken > 0 => {
                    board.pits[own_store] += taken + 1;
                    board.pits[opposite] = 0;
                    board.pits[at] = 0;
                }
                Rules::EmptyCapture => {
                    board.pits[own_store] += taken + 1;
                    board.pits[opposite] = 0;
                    board.pits[at] = 0;
                }
                _ => {}
            }
        }
        if !again {
            board.side = 1 - me;
        }
        let over = match rules {
            Rules::Seed => 2 * board.store_seeds(me) > board.total_seeds() || board.house_seeds(board.side) == 0,
            Rules::Standard | Rules::EmptyCapture => {
                let over = board.house_seeds(0) == 0 || board.house_seeds(1) == 0;
                if over {
                    for side in 0..2 {
                        let first = board.first_house(side);
                        let banked: u8 = board.pits[first..first + board.houses].iter().sum();
                        board.pits[first..first + board.houses].fill(0);
                        let store = board.store(side);
                        board.pits[store] += banked;
                    }
                }
                over
            }
        };
        Sown { board, again, over }
    }
}

impl fmt::Display for Board {
    /// Player 2's houses right to left above, player 1's left to right below, stores at the
    /// ends, each row's house numbers (1 = farthest from its store) beside it; the side to move
    /// is marked.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.houses;
        let top: Vec<String> = (0..m).rev().map(|h| format!("{:>3}", self.pits[m + 1 + h])).collect();
        let bottom: Vec<String> = (0..m).map(|h| format!("{:>3}", self.pits[h])).collect();
        let labels: Vec<String> = (1..=m).map(|h| format!("{h:>3}")).collect();
        let top_labels: Vec<String> = (1..=m).rev().map(|h| format!("{h:>3}")).collect();
        writeln!(f, "     {}", top_labels.join(""))?;
        writeln!(f, "     {}{}", top.join(""), if self.side == 1 { "   <- player 2 to move" } else { "" })?;
        writeln!(f, "{:>3} {}{:>4}", self.pits[2 * m + 1], " ".repeat(3 * m), self.pits[m])?;
        writeln!(f, "     {}{}", bottom.join(""), if self.side == 0 { "   <- player 1 to move" } else { "" })?;
        write!(f, "     {}", labels.join(""))
    }
}

/// Counts the move sequences of `plies` moves from `board` (a move that earns another counts as
/// a ply of its own; finished games stop counting): a perft for Kalah.
pub fn perft(board: &Board, rules: Rules, plies: u32) -> u64 {
    if plies == 0 {
        return 1;
    }
    (0..board.houses)
        .filter(|&house| board.is_legal(house))
        .map(|house| {
            let sown = board.sow(house, rules);
            if sown.over {
                u64::from(plies == 1)
            } else {
                perft(&sown.board, rules, plies - 1)
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second, plainly written sowing for the perft cross-check: seeds dealt out with an
    /// explicit list of the pits a side sows into.
    fn naive_sow(pits: &[u8], houses: usize, side: usize, house: usize, rules: Rules) -> (Vec<u8>, usize, bool) {
        let mut pits = pits.to_vec();
        let own_store = side * (houses + 1) + houses;
        let order: Vec<usize> = (0..2 * houses + 2).filter(|&p| p != (1 - side) * (houses + 1) + houses).collect();
        let start = side * (houses + 1) + house;
        let mut position = order.iter().position(|&p| p == start).unwrap_or(0);
        let mut seeds = std::mem::take(&mut pits[start]);
        let mut last = start;
        while seeds > 0 {
            position = (position + 1) % order.len();
            last = order[position];
            pits[last] += 1;
            seeds -= 1;
        }
        let own = (side * (houses + 1))..(side * (houses + 1) + houses);
        if own.contains(&last) && pits[last] == 1 {
            let opposite = 2 * houses - last;
            let capture = match rules {
                Rules::Seed => pits[opposite] > 0,
                Rules::Standard => pits[opposite] > 0,
                Rules::EmptyCapture => true,
            };
            if capture {
                pits[own_store] += pits[opposite];
                pits[opposite] = 0;
                if rules != Rules::Seed {
                    pits[own_store] += 1;
                    pits[last] = 0;
                }
            }
        }
        let next = if last == own_store { side } else { 1 - side };
        let houses_of =
            |pits: &[u8], s: usize| -> u32 { (0..houses).map(|h| u32::from(pits[s * (houses + 1) + h])).sum() };
        let over = match rules {
            Rules::Seed => {
                2 * u32::from(pits[own_store]) > pits.iter().map(|&p| u32::from(p)).sum() || houses_of(&pits, next) == 0
            }
            _ => houses_of(&pits, 0) == 0 || houses_of(&pits, 1) == 0,
        };
        (pits, next, over)
    }

    fn naive_perft(pits: &[u8], houses: usize, side: usize, rules: Rules, plies: u32) -> u64 {
        if plies == 0 {
            return 1;
        }
        (0..houses)
            .filter(|&h| pits[side * (houses + 1) + h] > 0)
            .map(|h| {
                let (next_pits, next, over) = naive_sow(pits, houses, side, h, rules);
                if over {
                    u64::from(plies == 1)
                } else {
                    naive_perft(&next_pits, houses, next, rules, plies - 1)
                }
            })
            .sum()
    }

    #[test]
    fn perft_agrees_with_a_plain_sowing_under_every_rule_set() {
        for rules in [Rules::Seed, Rules::Standard, Rules::EmptyCapture] {
            for (houses, seeds, plies) in [(6, 4, 6), (6, 3, 6), (4, 2, 8), (3, 3, 8)] {
                let board = Board::start(houses, seeds).unwrap_or_else(|e| unreachable!("{e}"));
                let pits = &board.pits[..2 * houses + 2];
                let fast = perft(&board, rules, plies);
                assert_eq!(fast, naive_perft(pits, houses, 0, rules, plies), "{rules:?} ({houses},{seeds}) {plies}");
                assert!(fast > 0);
            }
        }
        // The first ply of Kalah(6,4): six moves; the third house's four seeds end in the store.
        let start = Board::start(6, 4).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(perft(&start, Rules::Standard, 1), 6);
        assert!(start.sow(2, Rules::Standard).again);
    }

    #[test]
    fn start_position_counts_are_pinned_per_rule_set() {
        // Kalah(6,4) from the start, 1 to 9 plies (`springer kalah perft 9 --rules R`). The rule
        // sets agree until the first capture is possible (ply 5) and part ways after it.
        let start = Board::start(6, 4).unwrap_or_else(|e| unreachable!("{e}"));
        let common = [6, 35, 185, 942];
        let pinned: [(Rules, [u64; 5]); 3] = [
            (Rules::Seed, [4712, 23452, 115883, 572138, 2817029]),
            (Rules::Standard, [4690, 23233, 114430, 563055, 2763490]),
            (Rules::EmptyCapture, [4685, 23169, 113959, 559885, 2743126]),
        ];
        for (rules, deeper) in pinned {
            let expected = common.iter().chain(&deeper);
            for (plies, &count) in (1..).zip(expected) {
                assert_eq!(perft(&start, rules, plies), count, "{rules:?} perft {plies}");
            }
        }
    }

    #[test]
    fn captures_follow_each_rule_set() {
        // Player 0 sows house 0 (one seed) into empty house 1, opposite which stand 3 seeds.
        let board = Board::parse("1,0,2,5,0,0,0,3,0,0,0", 4).map(|_| ()).err();
        assert!(board.is_some(), "11 pits for 4 houses is malformed");
        let board = Board::parse("1,0,2,5,0,1,0,3,0,1", 4).unwrap_or_else(|e| unreachable!("{e}"));
        // Houses of player 1: pits 5..9 = [1,0,3,0]; house 1 (pit 1) is opposite pit 7 (3 seeds).
        let standard = board.sow(0, Rules::Standard).board;
        assert_eq!((standard.pits[1], standard.pits[7], standard.store_seeds(0)), (0, 0, 4));
        let seed = board.sow(0, Rules::Seed).board;
        assert_eq!((seed.pits[1], seed.pits[7], seed.store_seeds(0)), (1, 0, 3));
        // Opposite house empty: only empty-capture takes the single seed.
        let empty = Board::parse("1,0,2,5,0,0,0,0,3,1", 4).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(empty.sow(0, Rules::Standard).board.store_seeds(0), 0);
        assert_eq!(empty.sow(0, Rules::EmptyCapture).board.store_seeds(0), 1);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!("nonsense".parse::<Rules>().is_err());
        assert!(Board::start(0, 4).is_err());
        assert!(Board::start(9, 4).is_err());
        assert!(Board::parse("4,4,x,4,0,4,4,4,4,0", 4).is_err());
        assert!(Board::parse("0,0,0,0,0,0,0,0,0,0", 4).is_err());
        assert!(Board::parse("4,4,4", 4).is_err());
    }
}
