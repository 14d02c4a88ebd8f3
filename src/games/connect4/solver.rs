//! The Connect Four solver: negamax alpha-beta over the bitboard position with transposition
//! tables of bounds (a small one that stays in the cache for positions near the end, a large one
//! for the rest), moves that lose at once pruned, the rest ordered by the threats they make
//! (centre columns first among equals) after a look at the children's table bounds (enhanced
//! transposition cutoffs), and the exact score found by a series of null-window
//! searches that narrow its interval (a weak solve asks only for its sign). With more than one
//! thread, every thread runs each null-window search over one shared table, and a thread skips
//! at first a move another thread is searching (ABDADA), coming back to it once its other moves
//! are done; the first thread to finish gives the result and stops the others.
//!
//! Scores, for the side to move: a win with the winner's k-th stone scores 22 - k, a loss the
//! negative of that, a draw 0 (the scoring of the public test sets).

use super::{Position, CELLS, WIDTH};
use crate::games::{first_to_finish, Busy};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The best score possible: winning with one's fourth stone.
pub const MAX_SCORE: i32 = (CELLS as i32 + 1) / 2 - 3;
/// The worst: losing to the opponent's fourth stone.
pub const MIN_SCORE: i32 = -(CELLS as i32) / 2 + 3;
/// Columns in the order moves are tried among equals: centre first.
const COLUMN_ORDER: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// A transposition table of score bounds in buckets of two entries. Each entry packs the
/// 49-bit symmetric key, the work that found it (log2 of the nodes searched below it, 6 bits) and
/// a bound byte (upper bounds as 1..=MAX-MIN+1, lower bounds above). The first entry of a bucket
/// keeps the result that cost the most; every other result goes to the second.
struct Table {
    /// Relaxed atomics: an entry is one word holding its own key, so a thread reads either
    /// a whole entry or a miss, never a mix of two.
    entries: Vec<AtomicU64>,
}

/// An empty entry: no 49-bit key shifted into place reaches it. (Filling with a non-zero value
/// also makes the system map every page now, not at its first touch mid-search.)
const EMPTY: u64 = u64::MAX;
/// Where the key starts in an entry (above the bound byte and the work).
const KEY_SHIFT: u32 = 14;
/// Where the work starts in an entry.
const WORK_SHIFT: u32 = 8;
/// The work field's largest value.
const MAX_WORK: u64 = 63;

impl Table {
    fn new(log2_entries: u32) -> Table {
        Table { entries: crate::memory::fixed_table(1 << log2_entries, || AtomicU64::new(EMPTY)) }
    }

    /// The first entry of `key`'s bucket.
    fn bucket(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) as usize & (self.entries.len() - 2)
    }

    /// Starts loading `key`'s bucket into the cache (see `memory::prefetch`).
    fn prefetch(&self, key: u64) {
        crate::memory::prefetch(&self.entries[self.bucket(key)]);
    }

    fn get(&self, key: u64) -> u8 {
        let bucket = self.bucket(key);
        self.entries[bucket..bucket + 2]
            .iter()
            .map(|entry| entry.load(Ordering::Relaxed))
            .find(|&entry| entry >> KEY_SHIFT == key)
            .map_or(0, |entry| entry as u8)
    }

    fn put(&self, key: u64, value: u8, nodes: u64) {
        let bucket = self.bucket(key);
        let work = u64::from(63 - nodes.max(1).leading_zeros()).min(MAX_WORK);
        let entry = key << KEY_SHIFT | work << WORK_SHIFT | u64::from(value);
        let (first, second) = (&self.entries[bucket], &self.entries[bucket + 1]);
        let old = first.load(Ordering::Relaxed);
        let old_work = if old == EMPTY { 0 } else { (old >> WORK_SHIFT) & MAX_WORK };
        if old >> KEY_SHIFT == key || old == EMPTY {
            first.store(entry, Ordering::Relaxed);
        } else if work >= old_work {
            second.store(old, Ordering::Relaxed);
            first.store(entry, Ordering::Relaxed);
        } else {
            second.store(entry, Ordering::Relaxed);
        }
    }
}

/// Positions with at least this many empty cells are announced as busy while searched: deep
/// enough that the announcement costs nothing next to the search.
const BUSY_MIN_EMPTY: usize = 12;
/// Positions with at least this many empty cells probe their children's table entries before
/// searching any of them (enhanced transposition cutoffs).
const ETC_MIN_EMPTY: usize = 10;

/// The transposition tables: positions with few empty cells, by far the most numerous and the
/// cheapest to search again, in a small table that stays in the processor's caches; the rest in
/// the large one, where each probe is a trip to memory.
struct Tables {
    near_end: Table,
    deep: Table,
}

/// Positions with fewer empty cells than this go to the near-end table.
const NEAR_END_EMPTY: usize = 24;
/// The near-end table's size: 2^19 entries, 4 MB, which stays in a current processor's last-level
/// cache (measured in docs/games.md: 20-26 empty cells and 1-8 MB tried).
const NEAR_END_LOG2: u32 = 19;

impl Tables {
    /// The table for positions with `empty` empty cells.
    fn for_empty(&self, empty: usize) -> &Table {
        if empty < NEAR_END_EMPTY {
            &self.near_end
        } else {
            &self.deep
        }
    }
}

/// Solves positions, keeping its tables between them.
pub struct Solver {
    tables: Tables,
    threads: usize,
    /// Nodes searched since the last `solve` (every thread's).
    pub nodes: u64,
}

/// One thread's search of one null window.
struct Search<'a> {
    tables: &'a Tables,
    /// Shared with the other threads; `None` alone.
    busy: Option<&'a Busy>,
    /// Set by the first thread to finish: the others return at once and store nothing.
    stop: &'a AtomicBool,
    nodes: u64,
}

/// The table's bound byte for an upper bound `score`.
fn upper(score: i32) -> u8 {
    (score - MIN_SCORE + 1) as u8
}

/// The table's bound byte for a lower bound `score`.
fn lower(score: i32) -> u8 {
    (score + MAX_SCORE - 2 * MIN_SCORE + 2) as u8
}

/// A bound read back from the table.
enum Bound {
    Upper(i32),
    Lower(i32),
}

/// The bound in a table byte (the inverse of `upper` and `lower`); `None` for a miss (0).
fn bound_of(byte: u8) -> Option<Bound> {
    let byte = i32::from(byte);
    match byte {
        0 => None,
        _ if byte > MAX_SCORE - MIN_SCORE + 1 => Some(Bound::Lower(byte + 2 * MIN_SCORE - MAX_SCORE - 2)),
        _ => Some(Bound::Upper(byte + MIN_SCORE - 1)),
    }
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new(23)
    }
}

impl Solver {
    /// A solver whose main table has 2^`log2_entries` entries (8 bytes each), beside the 4 MB
    /// near-end table.
    pub fn new(log2_entries: u32) -> Solver {
        let tables = Tables { near_end: Table::new(NEAR_END_LOG2), deep: Table::new(log2_entries) };
        Solver { tables, threads: 1, nodes: 0 }
    }

    /// A solver whose main table takes at most `megabytes` (at least 1 MB, rounded down to a power
    /// of two).
    pub fn with_megabytes(megabytes: usize) -> Solver {
        let entries = (megabytes.max(1) << 20) / std::mem::size_of::<u64>();
        Solver::new(entries.ilog2())
    }

    /// Searches with `threads` threads (at least one).
    pub fn with_threads(mut self, threads: usize) -> Solver {
        self.threads = threads.max(1);
        self
    }

    /// The exact score of `pos` (or with `weak`, its sign only: 1, 0 or -1).
    pub fn solve(&mut self, pos: &Position, weak: bool) -> i32 {
        self.nodes = 0;
        if pos.can_win_next() {
            return score_of_win_now(pos);
        }
        let (mut min, mut max) = (-((CELLS - pos.moves()) as i32) / 2, (CELLS as i32 + 1 - pos.moves() as i32) / 2);
        if weak {
            (min, max) = (-1, 1);
        }
        while min < max {
            // Probe nearer zero first: small scores are more common and cheaper to prove.
            let mut probe = min + (max - min) / 2;
            if probe <= 0 && min / 2 < probe {
                probe = min / 2;
            } else if probe >= 0 && max / 2 > probe {
                probe = max / 2;
            }
            let score = self.null_window(pos, probe);
            if score <= probe {
                max = score;
            } else {
                min = score;
            }
        }
        if weak {
            min.signum()
        } else {
            min
        }
    }

    /// The score of `pos` against the window (probe, probe + 1): above `probe` or not.
    fn null_window(&mut self, pos: &Position, probe: i32) -> i32 {
        let tables = &self.tables;
        let (score, nodes) = first_to_finish(self.threads, |busy, stop| {
            let mut search = Search { tables, busy, stop, nodes: 0 };
            (search.negamax(pos, probe, probe + 1), search.nodes)
        });
        self.nodes += nodes;
        score
    }

    /// The best column (0-based) for the side to move and its score; `None` if the board is
    /// full or the game is over.
    pub fn best_move(&mut self, pos: &Position) -> Option<(usize, i32)> {
        if let Some(col) = COLUMN_ORDER.into_iter().find(|&col| pos.can_play(col) && pos.is_winning_move(col)) {
            return Some((col, score_of_win_now(pos)));
        }
        let mut best: Option<(usize, i32)> = None;
        for col in COLUMN_ORDER.into_iter().filter(|&col| pos.can_play(col)) {
            let mut child = *pos;
            child.play(col);
            let score = if child.moves() == CELLS { 0 } else { -self.solve(&child, false) };
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((col, score));
            }
        }
        best
    }
}

impl Search<'_> {
    /// Negamax in (alpha, beta) of a position where the side to move cannot win at once.
    fn negamax(&mut self, pos: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.stop.load(Ordering::Relaxed) {
            return 0;
        }
        let candidates = pos.non_losing_cells();
        if candidates == 0 {
            // Every move lets the opponent win next.
            return -((CELLS - pos.moves()) as i32) / 2;
        }
        if pos.moves() >= CELLS - 2 {
            return 0;
        }
        // Bounds from the game's length: the opponent cannot win at its next stone.
        let min = -((CELLS - 2 - pos.moves()) as i32) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut max = (CELLS as i32 - 1 - pos.moves() as i32) / 2;
        let key = pos.symmetric_key();
        let table = self.tables.for_empty(CELLS - pos.moves());
        let nodes_before = self.nodes;
        match bound_of(table.get(key)) {
            Some(Bound::Lower(bound)) if alpha < bound => {
                alpha = bound;
                if alpha >= beta {
                    return alpha;
                }
            }
            Some(Bound::Upper(bound)) => max = bound,
            _ => {}
        }
        if let Some(bound) = pos.claimeven_bound() {
            max = max.min(bound);
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }

        if let Some(score) = self.transposition_cutoff(pos, candidates, beta) {
            table.put(key, lower(score), self.nodes - nodes_before);
            return score;
        }

        // Order: most threats made first, centre columns first among equals (a stable sort
        // over the centre-first order).
        let mut moves = [(0u32, 0u64); WIDTH];
        let mut count = 0;
        for col in COLUMN_ORDER {
            let cell = candidates & super::column_mask(col);
            if cell != 0 {
                moves[count] = (pos.threats_after(cell), cell);
                count += 1;
            }
        }
        moves[..count].sort_by_key(|&(threats, _)| std::cmp::Reverse(threats));
        // With other threads: a move one of them is searching waits for a second pass (never
        // the first move, which every thread searches).
        let shared = self.busy.filter(|_| CELLS - pos.moves() >= BUSY_MIN_EMPTY);
        let mut cells = moves.map(|(_, cell)| cell);
        let mut len = count;
        for pass in 0..2 {
            let mut deferred = 0;
            for i in 0..len {
                let cell = cells[i];
                let mut child = *pos;
                child.play_cell(cell);
                let busy_key = shared.map(|busy| (busy, child.symmetric_key()));
                if busy_key.is_some_and(|(busy, child_key)| !busy.claim(child_key, pass == 0 && i > 0)) {
                    cells[deferred] = cell; // deferred <= i: that slot is done with
                    deferred += 1;
                    continue;
                }
                let score = -self.negamax(&child, -beta, -alpha);
                if let Some((busy, child_key)) = busy_key {
                    busy.leave(child_key);
                }
                if self.stop.load(Ordering::Relaxed) {
                    return 0;
                }
                if score >= beta {
                    table.put(key, lower(score), self.nodes - nodes_before);
                    return score;
                }
                alpha = alpha.max(score);
            }
            len = deferred;
        }
        table.put(key, upper(alpha), self.nodes - nodes_before);
        alpha
    }

    /// Enhanced transposition cutoff: a score of at least `beta` proven by a child's stored
    /// upper bound, before any child is searched (only where enough cells are empty that the
    /// probes cost little next to the search they can save).
    fn transposition_cutoff(&self, pos: &Position, candidates: u64, beta: i32) -> Option<i32> {
        if CELLS - pos.moves() < ETC_MIN_EMPTY {
            return None;
        }
        // Every child's bucket is asked for before the first is read, so the loads overlap.
        let table = self.tables.for_empty(CELLS - pos.moves() - 1);
        let mut keys = [0u64; WIDTH];
        let mut count = 0;
        let mut cells = candidates;
        while cells != 0 {
            let cell = cells & cells.wrapping_neg();
            cells &= cells - 1;
            let mut child = *pos;
            child.play_cell(cell);
            keys[count] = child.symmetric_key();
            table.prefetch(keys[count]);
            count += 1;
        }
        for &key in &keys[..count] {
            if let Some(Bound::Upper(bound)) = bound_of(table.get(key)) {
                if -bound >= beta {
                    return Some(-bound);
                }
            }
        }
        None
    }
}

/// The score of winning with the next stone.
fn score_of_win_now(pos: &Position) -> i32 {
    (CELLS as i32 + 1 - pos.moves() as i32) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first cases of the public "End-Easy" and "Middle-Easy" sets (Test_L3_R1, Test_L2_R1).
    const CASES: &str = include_str!("../../../tests/fixtures/connect4-sample.txt");

    /// The sample's positions with their scores and lines.
    fn cases() -> impl Iterator<Item = (Position, i32, &'static str)> {
        CASES.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(|line| {
            let mut fields = line.split_whitespace();
            let (moves, expected) = (fields.next().unwrap_or_default(), fields.next().unwrap_or_default());
            let expected: i32 = expected.parse().unwrap_or_else(|e| unreachable!("{line}: {e}"));
            let pos = Position::from_moves(moves).unwrap_or_else(|e| unreachable!("{line}: {e}"));
            (pos, expected, line)
        })
    }

    #[test]
    fn solves_the_sample_exactly_and_weakly() {
        let mut solver = Solver::new(20);
        let mut solved = 0;
        for (pos, expected, line) in cases() {
            assert_eq!(solver.solve(&pos, false), expected, "{line}");
            assert_eq!(solver.solve(&pos, true), expected.signum(), "{line}");
            solved += 1;
        }
        assert!(solved >= 100);
    }

    #[test]
    fn two_threads_give_the_same_scores() {
        let mut solver = Solver::new(20).with_threads(2);
        for (pos, expected, line) in cases().step_by(5) {
            assert_eq!(solver.solve(&pos, false), expected, "{line}");
            assert_eq!(solver.solve(&pos, true), expected.signum(), "{line}");
        }
        // A position deep enough for the threads to share work (announced as busy), with a
        // known score (Test_L1_R2): both threads' nodes are counted.
        let pos = Position::from_moves("32751571231557").unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(solver.solve(&pos, false), -3);
        assert!(solver.nodes > 0);
    }

    #[test]
    fn best_move_keeps_the_score() {
        let mut solver = Solver::new(20);
        // From a middlegame position: the best move's score is the position's score.
        let pos = Position::from_moves("2252576253462244111563365343671351441").unwrap_or_else(|e| unreachable!("{e}"));
        let score = solver.solve(&pos, false);
        let best = solver.best_move(&pos).map(|(_, s)| s);
        assert_eq!(best, Some(score));
    }
}

/// What `solve_lines` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveSummary {
    pub positions: u64,
    /// Positions whose score differs from the expected one given on their line.
    pub mismatches: u64,
    /// Lines with a malformed move string or expected score.
    pub bad_lines: u64,
    pub nodes: u64,
    pub micros: u128,
}

/// Solves each line `<moves> [<expected>]` of `input`, printing `<moves> <score> <nodes> <µs>`
/// (or `error: ...` for a bad line, after which the run goes on) and a summary line.
pub fn solve_lines(
    input: impl std::io::BufRead,
    weak: bool,
    (threads, megabytes): (usize, usize),
    out: &mut dyn std::io::Write,
) -> std::io::Result<SolveSummary> {
    let mut solver = Solver::with_megabytes(megabytes).with_threads(threads);
    let mut summary = SolveSummary::default();
    for line in input.lines() {
        let line = line?;
        let mut fields = line.split_whitespace();
        let Some(first) = fields.next() else {
            // An empty line is the empty board.
            solve_one(&mut solver, "", None, weak, &mut summary, out)?;
            continue;
        };
        if first.starts_with('#') {
            continue;
        }
        let expected = match fields.next().map(str::parse::<i32>) {
            None => None,
            Some(Ok(score)) => Some(score),
            Some(Err(_)) => {
                summary.bad_lines += 1;
                writeln!(out, "error: line '{}': the expected score is not a number", short(&line))?;
                continue;
            }
        };
        solve_one(&mut solver, first, expected, weak, &mut summary, out)?;
    }
    let mean = |total: f64| if summary.positions == 0 { 0.0 } else { total / summary.positions as f64 };
    writeln!(
        out,
        "positions {} mismatches {} bad lines {} mean time {:.1} us mean nodes {:.0}",
        summary.positions,
        summary.mismatches,
        summary.bad_lines,
        mean(summary.micros as f64),
        mean(summary.nodes as f64)
    )?;
    Ok(summary)
}

fn short(text: &str) -> String {
    text.chars().take(60).collect()
}

fn solve_one(
    solver: &mut Solver,
    moves: &str,
    expected: Option<i32>,
    weak: bool,
    summary: &mut SolveSummary,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let pos = match Position::from_moves(moves) {
        Ok(pos) => pos,
        Err(e) => {
            summary.bad_lines += 1;
            return writeln!(out, "error: '{}': {e}", short(moves));
        }
    };
    let start = std::time::Instant::now();
    let score = solver.solve(&pos, weak);
    let micros = start.elapsed().as_micros();
    summary.positions += 1;
    summary.nodes += solver.nodes;
    summary.micros += micros;
    let wanted = expected.map(|e| if weak { e.signum() } else { e });
    let verdict = match wanted {
        Some(w) if w != score => {
            summary.mismatches += 1;
            format!(" MISMATCH expected {w}")
        }
        _ => String::new(),
    };
    writeln!(out, "{moves} {score} {} {micros}{verdict}", solver.nodes)
}
