//! The Kalah solver: negamax alpha-beta to the end of the game with a table of bounds. Under
//! standard and empty-capture rules a value is the seeds the side to move will still gain over
//! its opponent (its final margin less the current store difference), which depends on the
//! houses alone, so positions that differ only in their stores share a table entry; the exact
//! value is found by MTD(f): null-window searches from a first guess of 0, each moving the
//! guess to the bound it returned. Under seed rules a value is a win (1) or a loss (-1).
//!
//! Moves are tried in the order: the table's best move, moves that sow into the own store,
//! the largest gain (captures); a child's table bound, or its exact value in the endgame
//! databases, that already proves a cut-off ends the node before any search (enhanced
//! transposition cutoff), and a child the databases hold is never searched. Every child's table
//! bucket or database entry is prefetched as soon as the child is sown. Buckets of two entries
//! (one cache line) keep the result of the largest search first. With several threads, each
//! searches the same window over one shared table, deferring moves another thread is searching
//! (ABDADA); the first to finish gives the result.

use super::endgame::{EndgameTable, TableIndex};
use super::{Board, Rules, Sown};
use crate::games::{first_to_finish, mix64, Busy};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// The table's size for `Solver::new`, in MB (`kalah solve --hash` sets another).
const DEFAULT_TABLE_MB: usize = 64;

/// `Entry::best` when no move is known.
const NO_MOVE: u8 = u8::MAX;

/// With several threads, positions with at least this many seeds in the houses are announced
/// as busy while searched: big enough subtrees that the announcement costs nothing.
const BUSY_MIN_SEEDS: u32 = 20;

/// A table entry: the key, the bounds proven for it, the house that gave the best value and
/// the size of the search that proved them.
#[derive(Clone, Copy)]
struct Entry {
    key: u128,
    lower: i16,
    upper: i16,
    best: u8,
    /// log2 of the nodes of the search that proved the bounds.
    work: u8,
}

impl Entry {
    fn unknown(key: u128) -> Entry {
        Entry { key, lower: i16::MIN, upper: i16::MAX, best: NO_MOVE, work: 0 }
    }
}

/// The data word's bit that marks a slot as written (an all-zero slot is empty).
const OCCUPIED: u64 = 1 << 63;

/// A 128-bit key folded to 64 mixed bits (the house counts are packed, not hashed).
fn fold(key: u128) -> u64 {
    mix64(key as u64 ^ ((key >> 64) as u64).rotate_left(17))
}

/// One slot: the data word (bounds, move, work) and each key half mixed and XORed with it.
type Slot = [AtomicU64; 3];

/// Two slots on one cache line (a probe reads one line; 16 bytes are padding).
#[repr(align(64))]
struct Bucket([Slot; 2]);

/// The table, shared by every thread without locks: a slot is three words, the data (bounds,
/// move, work) and each key half, mixed by `mix64` so that keys differing in a few bits differ
/// everywhere, XORed with the data. A slot read while another thread
/// writes it mixes two entries' words; it then passes the key check only if two 64-bit
/// equalities between unrelated mixed keys and data hold by chance (about 2^-64 a torn read),
/// so a reader sees the bounds stored for its key or a miss. With one thread nothing is torn.
struct Table {
    buckets: Vec<Bucket>,
    /// log2 of the number of buckets.
    bits: u32,
}

impl Table {
    /// A table of `mb` MB, rounded down to a power of two buckets (one at least).
    fn with_mb(mb: usize) -> Table {
        let buckets = (mb << 20) / std::mem::size_of::<Bucket>();
        let bits = buckets.max(1).ilog2();
        let empty = || [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
        let buckets = crate::memory::fixed_table(1 << bits, || Bucket([empty(), empty()]));
        Table { buckets, bits }
    }

    /// `key`'s bucket.
    fn bucket_of(&self, key: u128) -> &Bucket {
        let folded = fold(key);
        // A shift by 64 (a one-bucket table) would overflow: the top bits are taken in two steps.
        &self.buckets[((folded >> 1) >> (63 - self.bits)) as usize]
    }

    /// `key`'s slots.
    fn bucket(&self, key: u128) -> &[Slot; 2] {
        &self.bucket_of(key).0
    }

    /// The entry in `slot` if it holds `key`.
    fn read(slot: &Slot, key: u128) -> Option<Entry> {
        let [low, high, data] = slot;
        let data = data.load(Ordering::Relaxed);
        let hit = data & OCCUPIED != 0
            && low.load(Ordering::Relaxed) ^ data == mix64(key as u64)
            && high.load(Ordering::Relaxed) ^ data == mix64((key >> 64) as u64);
        hit.then_some(Entry {
            key,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (data >> 32) as u8,
            work: (data >> 40) as u8,
        })
    }

    /// The work of the entry in `slot` (0 if empty).
    fn work(slot: &Slot) -> u8 {
        (slot[2].load(Ordering::Relaxed) >> 40) as u8
    }

    fn write(slot: &Slot, entry: &Entry) {
        let data = OCCUPIED
            | u64::from(entry.lower as u16)
            | u64::from(entry.upper as u16) << 16
            | u64::from(entry.best) << 32
            | u64::from(entry.work) << 40;
        let [low, high, word] = slot;
        low.store(mix64(entry.key as u64) ^ data, Ordering::Relaxed);
        high.store(mix64((entry.key >> 64) as u64) ^ data, Ordering::Relaxed);
        word.store(data, Ordering::Relaxed);
    }

    /// Starts loading `key`'s bucket into the cache without waiting for it: the loads of
    /// several children's buckets then overlap instead of each waiting in turn.
    fn prefetch(&self, key: u128) {
        crate::memory::prefetch(self.bucket_of(key));
    }

    /// The table's entry for `key`, if it holds one.
    fn probe(&self, key: u128) -> Option<Entry> {
        let [first, second] = self.bucket(key);
        Table::read(first, key).or_else(|| Table::read(second, key))
    }

    /// Stores `entry`: first in its bucket when its search was at least as large as the first
    /// slot's (whose entry moves to second), else second.
    fn store(&self, entry: &Entry) {
        let [first, second] = self.bucket(entry.key);
        if Table::read(first, entry.key).is_some() {
            Table::write(first, entry);
        } else if entry.work >= Table::work(first) {
            for (to, from) in second.iter().zip(first) {
                to.store(from.load(Ordering::Relaxed), Ordering::Relaxed);
            }
            Table::write(first, entry);
        } else {
            Table::write(second, entry);
        }
    }
}

/// A legal move, the board it leaves and what the mover gained by it (store difference).
#[derive(Clone, Copy)]
struct Child {
    house: usize,
    sown: Sown,
    gain: i32,
    /// Where the endgame databases hold the child's value (for its side to move), if they do.
    in_table: Option<TableIndex>,
}

/// A solver for one rule set, keeping its table between positions of the same rules.
pub struct Solver {
    rules: Rules,
    table: Table,
    /// Exact values of positions with few seeds left, when built for these rules and board.
    endgame: Option<Arc<EndgameTable>>,
    threads: usize,
    /// Nodes searched since the last `solve` (every thread's).
    pub nodes: u64,
}

/// What one MTD(f) pass has proven: the final margin lies in `lower..=upper`, after `nodes`
/// nodes of the whole solve.
#[derive(Clone, Copy, Debug)]
pub struct MarginBounds {
    pub lower: i32,
    pub upper: i32,
    pub nodes: u64,
}

/// One thread's search of one window.
struct Search<'a> {
    rules: Rules,
    table: &'a Table,
    endgame: Option<&'a EndgameTable>,
    /// Shared with the other threads; `None` alone.
    busy: Option<&'a Busy>,
    /// Set by the first thread to finish: the others return at once and store nothing.
    stop: &'a AtomicBool,
    nodes: u64,
}

/// Seeds the mover's store gained minus seeds its opponent's store gained, `before` to `after`.
fn gained(before: &Board, after: &Board, mover: usize) -> i32 {
    let delta = |side: usize| after.store_seeds(side) as i32 - before.store_seeds(side) as i32;
    delta(mover) - delta(1 - mover)
}

/// Under seed rules, the result of a finished game for `mover`: 1 if its store passed half the
/// seeds or the turn passed to an opponent who cannot move, -1 if it cannot move itself.
fn seed_rules_result(after: &Board, mover: usize) -> i32 {
    if 2 * after.store_seeds(mover) > after.total_seeds() || after.side() != mover {
        1
    } else {
        -1
    }
}

/// The table key of `board` under `rules` (see the module comment).
fn key(rules: Rules, board: &Board) -> u128 {
    match rules {
        Rules::Seed => board.full_key(),
        Rules::Standard | Rules::EmptyCapture => board.houses_key(),
    }
}

impl Solver {
    /// A solver for `rules` with an empty table of the default size, one thread.
    pub fn new(rules: Rules) -> Solver {
        Solver::with_table_mb(rules, DEFAULT_TABLE_MB)
    }

    /// A solver for `rules` with an empty table of `mb` MB, rounded down to a power of two (one
    /// bucket at least), one thread.
    pub fn with_table_mb(rules: Rules, mb: usize) -> Solver {
        Solver { rules, table: Table::with_mb(mb), endgame: None, threads: 1, nodes: 0 }
    }

    /// Looks positions with few seeds left up in `endgame` instead of searching them.
    pub fn with_endgame(mut self, endgame: Arc<EndgameTable>) -> Solver {
        self.endgame = Some(endgame);
        self
    }

    /// Searches with `threads` threads (at least one) over the one table.
    pub fn with_threads(mut self, threads: usize) -> Solver {
        self.threads = threads.max(1);
        self
    }

    /// Under standard and empty-capture rules: the final margin for the side to move (its store
    /// minus the opponent's at the end). Under seed rules: 1 for a win, -1 for a loss.
    pub fn solve(&mut self, board: &Board) -> i32 {
        self.solve_reporting(board, &mut |_| {})
    }

    /// As `solve`, telling `report` the final margin's proven bounds after each MTD(f) pass
    /// (an hour-long solve shows its progress); seed rules have a single pass and no report.
    pub fn solve_reporting(&mut self, board: &Board, report: &mut dyn FnMut(MarginBounds)) -> i32 {
        self.nodes = 0;
        if self.rules == Rules::Seed {
            return self.window(board, -1, 1);
        }
        let me = board.side();
        let stores = board.store_seeds(me) as i32 - board.store_seeds(1 - me) as i32;
        let seeds = (board.house_seeds(0) + board.house_seeds(1)) as i32;
        let (mut min, mut max) = (-seeds, seeds);
        let mut guess = 0;
        while min < max {
            let probe = if guess == min { guess } else { guess - 1 }.clamp(min, max - 1);
            let value = self.window(board, probe, probe + 1);
            if value <= probe {
                max = value;
            } else {
                min = value;
            }
            guess = value;
            report(MarginBounds { lower: stores + min, upper: stores + max, nodes: self.nodes });
        }
        stores + min
    }

    /// The value of `board` in (alpha, beta), searched by every thread.
    fn window(&mut self, board: &Board, alpha: i32, beta: i32) -> i32 {
        let (rules, table, endgame) = (self.rules, &self.table, self.endgame.as_deref());
        let (value, nodes) = first_to_finish(self.threads, |busy, stop| {
            let mut search = Search { rules, table, endgame, busy, stop, nodes: 0 };
            (search.negamax(board, alpha, beta), search.nodes)
        });
        self.nodes += nodes;
        value
    }

    /// The best house (0 = the farthest from the store) for the side to move and its value,
    /// choosing among equals with `pick` (given how many there are); `None` if no move.
    pub fn best_move(&mut self, board: &Board, pick: &mut dyn FnMut(usize) -> usize) -> Option<(usize, i32)> {
        let me = board.side();
        let mut scored = Vec::new();
        for house in (0..board.houses()).filter(|&h| board.is_legal(h)) {
            let sown = board.sow(house, self.rules);
            let value = if sown.over {
                match self.rules {
                    Rules::Seed => seed_rules_result(&sown.board, me),
                    _ => sown.board.store_seeds(me) as i32 - sown.board.store_seeds(1 - me) as i32,
                }
            } else if sown.again {
                self.solve(&sown.board)
            } else {
                -self.solve(&sown.board)
            };
            scored.push((house, value));
        }
        let best = scored.iter().map(|&(_, v)| v).max()?;
        let ties: Vec<(usize, i32)> = scored.into_iter().filter(|&(_, v)| v == best).collect();
        let index = pick(ties.len()).min(ties.len() - 1);
        Some(ties[index])
    }
}

impl Search<'_> {
    /// The value of `board` for the side to move in (alpha, beta) (see the module comment).
    fn negamax(&mut self, board: &Board, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.stop.load(Ordering::Relaxed) {
            return 0;
        }
        if let Some(value) = self.decided(board, alpha, beta) {
            return value;
        }
        // Table bounds.
        let key = key(self.rules, board);
        let nodes_before = self.nodes;
        let found = self.table.probe(key);
        let entry = found.unwrap_or(Entry::unknown(key));
        if found.is_some() {
            alpha = alpha.max(i32::from(entry.lower));
            beta = beta.min(i32::from(entry.upper));
            if alpha >= beta {
                return alpha;
            }
        }
        let me = board.side();
        let (mut children, count) = self.ordered_children(board, usize::from(entry.best));
        if count == 0 {
            // Only a given position can leave the side to move without a move: under seed rules
            // it has lost; otherwise the game is over and each side banks its houses.
            return match self.rules {
                Rules::Seed => -1,
                _ => board.house_seeds(me) as i32 - board.house_seeds(1 - me) as i32,
            };
        }
        if let Some(value) = self.transposition_cutoff(&children[..count], beta) {
            return value;
        }

        // The moves. With other threads, a move one of them is searching waits for a second
        // pass (never the first move, which every thread searches).
        let shared = self.busy.filter(|_| board.house_seeds(0) + board.house_seeds(1) >= BUSY_MIN_SEEDS);
        let (alpha_in, beta_in) = (alpha, beta);
        let (mut best, mut best_house) = (i32::MIN, NO_MOVE);
        let mut len = count;
        'passes: for pass in 0..2 {
            let mut deferred = 0;
            for i in 0..len {
                let child = children[i];
                let busy_key = shared.filter(|_| !child.sown.over).map(|busy| (busy, busy_key(self.rules, &child)));
                if busy_key.is_some_and(|(busy, child_key)| !busy.claim(child_key, pass == 0 && i > 0)) {
                    children[deferred] = child; // deferred <= i: that slot is done with
                    deferred += 1;
                    continue;
                }
                let value = self.child_value(me, &child, alpha, beta);
                if let Some((busy, child_key)) = busy_key {
                    busy.leave(child_key);
                }
                if value > best {
                    (best, best_house) = (value, child.house as u8);
                }
                alpha = alpha.max(value);
                if alpha >= beta {
                    break 'passes;
                }
            }
            len = deferred;
        }
        if self.stop.load(Ordering::Relaxed) {
            return 0;
        }

        // The store: fail high gives a lower bound, fail low an upper bound, else exact.
        let work = (u64::BITS - (self.nodes - nodes_before).leading_zeros()) as u8;
        let mut stored = Entry { best: best_house, work: work.max(entry.work), ..entry };
        if best >= beta_in {
            stored.lower = stored.lower.max(best as i16);
        } else if best <= alpha_in {
            stored.upper = stored.upper.min(best as i16);
        } else {
            (stored.lower, stored.upper) = (best as i16, best as i16);
        }
        self.table.store(&stored);
        best
    }

    /// The value for `me` of playing `child` in (alpha, beta).
    fn child_value(&mut self, me: usize, child: &Child, alpha: i32, beta: i32) -> i32 {
        let (sown, now) = (&child.sown, child.gain);
        if self.rules == Rules::Seed {
            if sown.over {
                seed_rules_result(&sown.board, me)
            } else if sown.again {
                self.negamax(&sown.board, alpha, beta)
            } else {
                -self.negamax(&sown.board, -beta, -alpha)
            }
        } else if sown.over {
            now
        } else if let Some(value) = self.known(child) {
            if sown.again {
                now + value
            } else {
                now - value
            }
        } else if sown.again {
            now + self.negamax(&sown.board, alpha - now, beta - now)
        } else {
            now - self.negamax(&sown.board, now - beta, now - alpha)
        }
    }

    /// A value that needs no search under standard and empty-capture rules: a window beyond the
    /// seeds left in the houses (the side to move gains at most all of them and loses at most
    /// as many), or a position in the endgame databases.
    fn decided(&self, board: &Board, alpha: i32, beta: i32) -> Option<i32> {
        if self.rules == Rules::Seed {
            return None;
        }
        let left = (board.house_seeds(0) + board.house_seeds(1)) as i32;
        if alpha >= left {
            return Some(left);
        }
        if beta <= -left {
            return Some(-left);
        }
        self.endgame.and_then(|table| table.probe(board))
    }

    /// `child`'s value for its side to move from the endgame databases, when they hold it.
    fn known(&self, child: &Child) -> Option<i32> {
        self.endgame.zip(child.in_table).and_then(|(table, at)| table.value(at))
    }

    /// The legal moves sown, in search order: the table's best move, then moves that sow into
    /// the own store (another move follows), then the largest gain for the mover (captures),
    /// then the house nearest the store.
    fn ordered_children(&self, board: &Board, hinted: usize) -> ([Child; super::MAX_HOUSES], usize) {
        let me = board.side();
        let unused =
            Child { house: 0, sown: Sown { board: *board, again: false, over: false }, gain: 0, in_table: None };
        let mut children = [unused; super::MAX_HOUSES];
        let mut count = 0;
        for house in (0..board.houses()).rev().filter(|&h| board.is_legal(h)) {
            let sown = board.sow(house, self.rules);
            // Every child's value is asked for (from the databases or the table) before the
            // first is read, so that the loads overlap.
            let in_table = self.endgame.filter(|_| !sown.over).and_then(|table| table.locate(&sown.board));
            match (in_table, self.endgame) {
                (Some(at), Some(table)) => table.prefetch(at),
                _ if !sown.over && self.rules != Rules::Seed => self.table.prefetch(key(self.rules, &sown.board)),
                _ => {}
            }
            children[count] = Child { house, gain: gained(board, &sown.board, me), sown, in_table };
            count += 1;
        }
        children[..count].sort_by_key(|c| (c.house != hinted, !c.sown.again, -c.gain));
        (children, count)
    }

    /// Enhanced transposition cutoff under standard and empty-capture rules: a value at or
    /// above `beta` that a child's table bound already proves, before any child is searched.
    fn transposition_cutoff(&self, children: &[Child], beta: i32) -> Option<i32> {
        if self.rules == Rules::Seed {
            return None;
        }
        for child in children.iter().filter(|c| !c.sown.over) {
            // A child in the endgame databases has an exact value (it is never in the table).
            let (lower, upper) = match self.known(child) {
                Some(value) => (value, value),
                None => match self.table.probe(key(self.rules, &child.sown.board)) {
                    Some(entry) => (i32::from(entry.lower), i32::from(entry.upper)),
                    None => continue,
                },
            };
            // Another move: the child's value adds to the gain; else it is the opponent's.
            let proven = if child.sown.again {
                (lower > i32::from(i16::MIN)).then(|| child.gain + lower)
            } else {
                (upper < i32::from(i16::MAX)).then(|| child.gain - upper)
            };
            if let Some(value) = proven.filter(|&v| v >= beta) {
                return Some(value);
            }
        }
        None
    }
}

/// `child`'s position folded to the busy table's non-zero 64-bit key.
fn busy_key(rules: Rules, child: &Child) -> u64 {
    fold(key(rules, &child.sown.board)) | 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(houses: usize, seeds: u8, rules: Rules) -> i32 {
        let board = Board::start(houses, seeds).unwrap_or_else(|e| unreachable!("{e}"));
        Solver::new(rules).solve(&board)
    }

    #[test]
    fn small_boards_have_their_published_values() {
        // Irving, Donkers and Uiterwijk (2000), empty-capture rules: first player's margin.
        assert_eq!(value(4, 2, Rules::EmptyCapture), 6);
        assert_eq!(value(4, 3, Rules::EmptyCapture), 8);
        assert_eq!(value(4, 4, Rules::EmptyCapture), 2);
        assert_eq!(value(5, 2, Rules::EmptyCapture), 0);
        assert_eq!(value(6, 1, Rules::EmptyCapture), 2);
    }

    #[test]
    fn reported_bounds_narrow_to_the_value() {
        let board = Board::start(4, 4).unwrap_or_else(|e| unreachable!("{e}"));
        let mut reports = Vec::new();
        let value = Solver::new(Rules::EmptyCapture).solve_reporting(&board, &mut |b| reports.push(b));
        assert_eq!(value, 2);
        let last = reports.last().copied().unwrap_or_else(|| unreachable!("no pass reported"));
        assert_eq!((last.lower, last.upper), (2, 2));
        for pair in reports.windows(2) {
            assert!(pair[1].lower >= pair[0].lower && pair[1].upper <= pair[0].upper, "{pair:?}");
            assert!(pair[1].nodes > pair[0].nodes, "{pair:?}");
        }
        assert!(reports.iter().all(|b| b.lower <= 2 && 2 <= b.upper), "{reports:?}");
    }

    #[test]
    fn a_one_bucket_table_still_gives_exact_values() {
        // Every store evicts: bounds, best moves and transposition cut-offs come and go.
        for (houses, seeds, rules, expected) in [
            (4, 3, Rules::EmptyCapture, 8),
            (4, 2, Rules::EmptyCapture, 6),
            (5, 2, Rules::Standard, value(5, 2, Rules::Standard)),
        ] {
            let board = Board::start(houses, seeds).unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!(Solver::with_table_mb(rules, 0).solve(&board), expected, "({houses},{seeds})");
        }
    }

    #[test]
    fn two_threads_over_one_table_give_the_same_values() {
        for (houses, seeds, rules) in
            [(4, 3, Rules::EmptyCapture), (4, 4, Rules::EmptyCapture), (5, 3, Rules::Standard), (4, 3, Rules::Seed)]
        {
            let board = Board::start(houses, seeds).unwrap_or_else(|e| unreachable!("{e}"));
            let alone = Solver::new(rules).solve(&board);
            for _ in 0..3 {
                assert_eq!(
                    Solver::with_table_mb(rules, 1).with_threads(2).solve(&board),
                    alone,
                    "({houses},{seeds}) {rules:?}"
                );
            }
        }
    }

    #[test]
    fn endgame_databases_change_no_value() {
        // Children the databases hold are valued from them (also in the transposition cut-off):
        // the values must be the plain search's, from the start and from middle-game positions.
        for (houses, seeds, rules) in [(4, 4, Rules::EmptyCapture), (4, 3, Rules::Standard), (5, 3, Rules::Standard)] {
            let table =
                Arc::new(EndgameTable::build(rules, houses, 9).unwrap_or_else(|| unreachable!("not seed rules")));
            let mut board = Board::start(houses, seeds).unwrap_or_else(|e| unreachable!("{e}"));
            let mut plain = Solver::new(rules);
            let mut with_table = Solver::new(rules).with_endgame(Arc::clone(&table));
            let mut two_threads = Solver::with_table_mb(rules, 1).with_endgame(Arc::clone(&table)).with_threads(2);
            for ply in 0..6 {
                let expected = plain.solve(&board);
                assert_eq!(with_table.solve(&board), expected, "({houses},{seeds}) {rules:?} ply {ply}");
                assert_eq!(two_threads.solve(&board), expected, "({houses},{seeds}) {rules:?} ply {ply}, two threads");
                // On along the first legal move (the game stays in its middle for six plies).
                let Some(house) = (0..houses).find(|&h| board.is_legal(h)) else { break };
                let sown = board.sow(house, rules);
                if sown.over {
                    break;
                }
                board = sown.board;
            }
        }
    }

    #[test]
    fn the_best_move_keeps_the_value_and_seed_rules_give_a_result() {
        let board = Board::start(4, 2).unwrap_or_else(|e| unreachable!("{e}"));
        let mut solver = Solver::new(Rules::EmptyCapture);
        let best = solver.best_move(&board, &mut |_| 0).map(|(_, v)| v);
        assert_eq!(best, Some(6));
        let seed = value(4, 3, Rules::Seed);
        assert!(seed == 1 || seed == -1);
    }
}
