//! `speedtest`: the hardware benchmark. Games from real play (`src/speedtest.games`) are
//! replayed move by move; each position is searched for an equal share of the run's time on all
//! the threads, with one table kept across a game's moves and cleared (with the move-ordering
//! statistics) at each new game, as in a game. Its figure is nodes per second at a thread
//! count; `bench` is the search's signature instead (docs/benchmarking.md).

use crate::bench::nodes_per_second;
use crate::position::Position;
use crate::search::history::Histories;
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{search, SearchContext, SearchControl};
use crate::threads::{PoolError, WorkerPool};
use crate::types::Move;
use std::time::{Duration, Instant};

/// The run's length when none is asked for.
pub const DEFAULT_SECONDS: u64 = 120;

/// The table's size per search thread when none is asked for.
pub const HASH_MB_PER_THREAD: usize = 64;

/// How often the caller hears how far the run is.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(5);

/// The games, one a line: `startpos moves ...` or `<FEN> moves ...` (`#` lines are comments).
const GAMES_TEXT: &str = include_str!("speedtest.games");

/// A game to replay: its start and the moves played from it.
pub struct Game {
    start: Position,
    moves: Vec<Move>,
}

impl Game {
    /// The positions searched: the start and each position after a move, but the last.
    pub fn positions(&self) -> usize {
        self.moves.len()
    }
}

/// The speedtest's games, in order.
pub fn games() -> Vec<Game> {
    let lines = GAMES_TEXT.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#'));
    lines
        .enumerate()
        .map(|(i, line)| parse_game(line).unwrap_or_else(|e| unreachable!("speedtest game {i}: {e}")))
        .collect()
}

/// A game line: `startpos moves e2e4 ...` or `<FEN> moves ...`.
fn parse_game(line: &str) -> Result<Game, String> {
    let (start, moves) = line.split_once(" moves ").ok_or("no ' moves '")?;
    let mut position = match start.trim() {
        "startpos" => Position::startpos(),
        fen => Position::from_fen(fen).map_err(|e| e.to_string())?,
    };
    let start = position.clone();
    let mut played = Vec::new();
    for text in moves.split_whitespace() {
        let mv = crate::uci::parse_move(&position, text, false).ok_or_else(|| format!("illegal move {text}"))?;
        position.make_move(mv);
        played.push(mv);
    }
    Ok(Game { start, moves: played })
}

/// What a run uses.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Search threads.
    pub threads: usize,
    /// The table's size in MB (less if the memory is not there).
    pub hash_mb: usize,
    /// The run's length.
    pub seconds: u64,
}

impl Settings {
    /// Every logical CPU, `HASH_MB_PER_THREAD` per thread, `DEFAULT_SECONDS`.
    pub fn for_this_machine() -> Settings {
        let threads = crate::threads::available_cpus();
        Settings { threads, hash_mb: threads * HASH_MB_PER_THREAD, seconds: DEFAULT_SECONDS }
    }
}

/// How far a run is.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Positions searched.
    pub done: usize,
    /// Positions in the run.
    pub total: usize,
    /// Nodes so far.
    pub nodes: u64,
    /// Search time so far.
    pub elapsed: Duration,
}

impl Progress {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.elapsed)
    }
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct SpeedtestResult {
    /// Search threads.
    pub threads: usize,
    /// The table's size in MB as allocated.
    pub hash_mb: usize,
    /// Positions searched.
    pub positions: usize,
    /// The time each position was given, in milliseconds.
    pub movetime_ms: u64,
    /// Nodes over all positions and threads.
    pub nodes: u64,
    /// Search time (table clears between games not counted).
    pub elapsed: Duration,
    /// The table's fill after each search (UCI `hashfull`, permille), averaged.
    pub hashfull: usize,
    /// The CPU's name.
    pub cpu: String,
}

impl SpeedtestResult {
    /// Nodes per second, all threads together.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.elapsed)
    }

    /// Nodes per second per thread.
    pub fn nps_per_thread(&self) -> u64 {
        self.nps() / self.threads.max(1) as u64
    }

    /// What the run reports, in order: the label of its text line, its JSON key, its value.
    fn figures(&self) -> [(&'static str, &'static str, Figure); 11] {
        let number = |n: u64| Figure::Number(n);
        [
            ("Engine", "engine", Figure::Text(crate::uci::ENGINE_NAME.to_string())),
            ("CPU", "cpu", Figure::Text(self.cpu.clone())),
            ("Threads", "threads", number(self.threads as u64)),
            ("Hash (MB)", "hash_mb", number(self.hash_mb as u64)),
            ("Positions", "positions", number(self.positions as u64)),
            ("Time per position (ms)", "movetime_ms", number(self.movetime_ms)),
            ("Total time (ms)", "time_ms", number(self.elapsed.as_millis() as u64)),
            ("Hash fill average (permille)", "hashfull", number(self.hashfull as u64)),
            ("Nodes searched", "nodes", number(self.nodes)),
            ("Nodes/second", "nps", number(self.nps())),
            ("Nodes/second per thread", "nps_per_thread", number(self.nps_per_thread())),
        ]
    }

    /// The result as lines of text, `Label: value` each.
    pub fn text(&self) -> String {
        self.figures().iter().map(|(label, _, value)| format!("{label}: {value}\n")).collect()
    }

    /// The result as one JSON object.
    pub fn json(&self) -> String {
        let members: Vec<String> = self
            .figures()
            .iter()
            .map(|(_, key, value)| match value {
                Figure::Text(text) => format!("\"{key}\":\"{}\"", json_escaped(text)),
                Figure::Number(n) => format!("\"{key}\":{n}"),
            })
            .collect();
        format!("{{{}}}", members.join(","))
    }
}

/// One reported value.
enum Figure {
    Text(String),
    Number(u64),
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Figure::Text(text) => f.write_str(text),
            Figure::Number(n) => write!(f, "{n}"),
        }
    }
}

/// `text` as the inside of a JSON string.
fn json_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// Replays every game under `settings`, calling `progress` about every `PROGRESS_INTERVAL`.
pub fn run(settings: &Settings, progress: &mut dyn FnMut(&Progress)) -> Result<SpeedtestResult, PoolError> {
    let threads = settings.threads.max(1);
    let pool = WorkerPool::new(threads)?;
    let (mut tt, hash_mb) = TranspositionTable::within_memory(settings.hash_mb, Some(&pool));
    let mut histories: Vec<Histories> = (0..threads).map(|_| Histories::default()).collect();
    let games = games();
    let total: usize = games.iter().map(Game::positions).sum();
    let movetime_ms = (settings.seconds.saturating_mul(1000) / total.max(1) as u64).max(1);
    let limits = Limits { movetime_ms: Some(movetime_ms), ..Limits::default() };

    let mut now = Progress { done: 0, total, nodes: 0, elapsed: Duration::ZERO };
    let mut hashfull_sum = 0;
    let mut last_report = Instant::now();
    for game in &games {
        tt.clear(Some(&pool));
        histories.iter_mut().for_each(Histories::clear);
        let mut position = game.start.clone();
        let mut keys = Vec::with_capacity(game.moves.len());
        for &mv in &game.moves {
            let control = SearchControl::new(false);
            let context = SearchContext {
                tt: &tt,
                control: &control,
                histories: &mut histories,
                history: &keys,
                move_overhead_ms: 0,
                pool: Some(&pool),
                tablebases: None,
                live: None,
            };
            let start = Instant::now();
            let result = search(&position, &limits, context, &mut |_| {});
            now.elapsed += start.elapsed();
            now.nodes += result.nodes;
            now.done += 1;
            hashfull_sum += tt.hashfull();
            // The game goes on with the move played in it, whatever the search chose.
            keys.push(position.key());
            position.make_move(mv);
            if last_report.elapsed() >= PROGRESS_INTERVAL {
                progress(&now);
                last_report = Instant::now();
            }
        }
    }
    Ok(SpeedtestResult {
        threads,
        hash_mb,
        positions: total,
        movetime_ms,
        nodes: now.nodes,
        elapsed: now.elapsed,
        hashfull: hashfull_sum / total.max(1),
        cpu: crate::platform::cpu_name(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_parses_and_is_long_enough_to_be_a_game() {
        let games = games();
        assert!(games.len() >= 8, "{} games", games.len());
        for game in &games {
            assert!(game.positions() >= 40, "{} moves", game.positions());
        }
    }

    #[test]
    fn a_bad_game_line_is_an_error() {
        assert!(parse_game("startpos moves e2e4 e7e5 e1e3").is_err());
        assert!(parse_game("startpos e2e4").is_err());
        assert!(parse_game("8/8/8 w - - 0 1 moves e2e4").is_err());
    }

    #[test]
    fn a_short_run_searches_every_position_on_two_threads() {
        let settings = Settings { threads: 2, hash_mb: 4, seconds: 1 };
        let result = run(&settings, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
        let total: usize = games().iter().map(Game::positions).sum();
        assert_eq!(result.positions, total);
        assert!(result.nodes > total as u64, "{} nodes", result.nodes);
        assert!(result.hashfull <= 1000);
        assert!(result.json().starts_with("{\"engine\":\"Springer "));
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_escaped("a\"b\\c\n"), "a\\\"b\\\\c\\u000a");
    }
}
