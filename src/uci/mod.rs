//! The UCI engine loop. A reader thread turns stdin into lines (bounded in length, end of input
//! counting as `quit`), the loop answers `isready`, `stop` and `ponderhit` at once, and each
//! `go` runs on a search thread that prints exactly one `bestmove`; `setoption` during a search
//! waits until it ends. Bad input gets one `info string` line and the engine carries on.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod command;
pub mod options;
pub mod report;

pub use command::{Command, CommandError, Go};

use crate::bench;
use crate::book::Book;
use crate::eval;
use crate::memory;
use crate::movegen::{generate_legal, MoveList};
use crate::nnue::{self, Network};
use crate::perft;
use crate::position::{DroppedRight, FenError, Position, Variant};
use crate::say;
use crate::search::history::Histories;
use crate::search::live::LiveInfo;
use crate::search::strength::{Evaluation, Strength};
use crate::search::tablebase::TbSettings;
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{search, SearchContext, SearchControl};
use crate::tb::Tablebases;
use crate::threads::WorkerPool;
use crate::types::{Bitboard, Color, Move};
use options::{Change, Options};
use report::{info_line, live_line, print_bestmove};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The name `uci` reports.
pub const ENGINE_NAME: &str = concat!("Springer ", env!("CARGO_PKG_VERSION"));
/// The author `uci` reports.
pub const ENGINE_AUTHOR: &str = "the Springer developers";
/// Input lines longer than this are refused (and skipped to their end).
pub const MAX_LINE_BYTES: usize = 1 << 16;
/// Stack for the search thread: a position and a move list per ply, 128 plies deep.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// One line from the reader thread.
enum Input {
    Line(String),
    Refused(&'static str),
    End,
}

/// Reads up to the next newline, keeping at most `MAX_LINE_BYTES`; `Ok(None)` at end of input,
/// `Ok(Some(Err(..)))` for a line that was too long or not UTF-8.
fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<Result<String, &'static str>>> {
    buf.clear();
    let mut too_long = false;
    let mut seen_any = false;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (chunk, ends_line) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let used = chunk.len();
        if !too_long {
            if buf.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        reader.consume(used);
        if ends_line {
            break;
        }
    }
    if too_long {
        return Ok(Some(Err("input line longer than 64 KiB ignored")));
    }
    Ok(Some(String::from_utf8(std::mem::take(buf)).map_err(|_| "input line is not valid UTF-8; ignored")))
}

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    let (sender, receiver) = mpsc::channel();
    let reader = std::thread::Builder::new().name("uci-input".into()).spawn(move || {
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        let mut buf = Vec::new();
        loop {
            let input = match read_line(&mut lock, &mut buf) {
                Ok(Some(Ok(line))) => Input::Line(line),
                Ok(Some(Err(reason))) => Input::Refused(reason),
                Ok(None) | Err(_) => Input::End,
            };
            let end = matches!(input, Input::End);
            if sender.send(input).is_err() || end {
                break;
            }
        }
    });
    if reader.is_err() {
        say!("info string error: cannot start the input thread");
        return;
    }
    let mut engine = Engine::new();
    for input in receiver {
        match input {
            Input::Line(line) => match Command::parse(&line) {
                Ok(None) => {}
                Ok(Some(Command::Quit)) => break,
                Ok(Some(command)) => engine.handle(command),
                Err(e) => say!("info string error: {e}"),
            },
            Input::Refused(reason) => say!("info string error: {reason}"),
            Input::End => break,
        }
    }
    engine.finish_search();
}

struct Running {
    control: Arc<SearchControl>,
    /// Set by the search thread just before it prints its `bestmove`: joining it then is quick.
    done: Arc<AtomicBool>,
    handle: JoinHandle<Vec<Histories>>,
}

/// The engine's state between commands.
pub struct Engine {
    position: Position,
    /// Keys of the game's positions before `position`, for repetition draws.
    history: Vec<u64>,
    /// Why the last `position` command was refused, whole or from a move on; `go` says so.
    refused_position: Option<String>,
    options: Options,
    tt: Arc<TranspositionTable>,
    /// Move-ordering statistics, one per search thread; lent to the search while it runs.
    histories: Option<Vec<Histories>>,
    /// The worker threads of the parallel search, built once per `Threads` value above 1.
    pool: Option<Arc<WorkerPool>>,
    /// The opening book named by `BookFile`, if it loaded.
    book: Option<Book>,
    /// The Syzygy tables `SyzygyPath` found, if any.
    tablebases: Option<Tablebases>,
    /// State of the random choices (book moves, reduced strength).
    random: u64,
    running: Option<Running>,
    /// `setoption` changes received during the search, by option name: applied when it ends.
    deferred: Vec<(String, Change)>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the start position with default options.
    pub fn new() -> Engine {
        let options = Options::default();
        Engine {
            position: Position::startpos(),
            history: Vec::new(),
            refused_position: None,
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            options,
            histories: Some(vec![Histories::default()]),
            pool: None,
            book: None,
            tablebases: None,
            random: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x5eed, |d| d.as_nanos() as u64)
                | 1,
            running: None,
            deferred: Vec::new(),
        }
    }

    /// Carries out one command (`quit` is the caller's).
    pub fn handle(&mut self, command: Command) {
        self.reap_finished_search();
        match command {
            Command::Uci => {
                say!("id name {ENGINE_NAME}");
                say!("id author {ENGINE_AUTHOR}");
                for line in options::declarations() {
                    say!("{line}");
                }
                say!("uciok");
            }
            Command::Debug(_) | Command::Register => {}
            Command::IsReady => say!("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.finish_search();
                self.clear_tables();
            }
            Command::Position { fen, moves } => {
                self.finish_search();
                self.set_position(fen.as_deref(), &moves);
            }
            Command::Go(go) => self.go(go),
            Command::Stop => {
                if let Some(running) = &self.running {
                    running.control.request_stop();
                }
            }
            Command::PonderHit => {
                if let Some(running) = &self.running {
                    running.control.ponderhit();
                }
            }
            Command::Quit => self.finish_search(),
            Command::Display => {
                self.finish_search();
                self.display();
            }
            Command::Eval => {
                self.finish_search();
                self.print_eval();
            }
            Command::Bench { depth, threads } => {
                self.finish_search();
                let mut out = std::io::stdout().lock();
                if let Err(e) = bench::run(depth.unwrap_or(bench::DEFAULT_DEPTH), threads.unwrap_or(1), &mut out) {
                    crate::output::closed(e);
                }
            }
            Command::Perft { depth } => {
                self.finish_search();
                self.perft(depth);
            }
        }
    }

    /// Stops a running search and waits for it (it prints its `bestmove` first), then applies
    /// the `setoption` changes received while it ran.
    pub fn finish_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.control.request_stop();
            match running.handle.join() {
                Ok(histories) => self.histories = Some(histories),
                Err(_) => say!("info string error: the search thread failed"),
            }
        }
        for (name, change) in std::mem::take(&mut self.deferred) {
            self.apply(change);
            say!("info string setoption {name} applied after the search");
        }
    }

    /// Joins a search that has printed its `bestmove` (so the changes deferred during it apply
    /// before the next command is answered).
    fn reap_finished_search(&mut self) {
        if self.running.as_ref().is_some_and(|running| running.done.load(Ordering::Acquire)) {
            self.finish_search();
        }
    }

    /// Empties the table (on every search thread) and the move-ordering statistics.
    fn clear_tables(&mut self) {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(self.pool.as_deref()),
            None => self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb)),
        }
        for histories in self.histories.iter_mut().flatten() {
            histories.clear();
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let (change, warning) = match options::parse(name, value) {
            Ok(parsed) => parsed,
            Err(message) => {
                say!("info string error: {message}");
                return;
            }
        };
        if let Some(warning) = warning {
            say!("info string warning: {warning}");
        }
        if self.running.is_some() {
            // The search holds the table, the threads and the options it started with: the
            // change waits until it ends (a GUI should not send it then, but some do).
            let name: String = name.trim().chars().take(40).collect();
            say!("info string setoption {name} received during a search: deferred until it ends");
            self.deferred.push((name, change));
            return;
        }
        self.apply(change);
    }

    /// Allocates a table of `requested_mb` or, when the memory is not there, of the largest
    /// half, quarter, ... of it that is, and says what it got.
    fn set_hash(&mut self, requested_mb: usize) {
        // Drop the old table before allocating the new one.
        self.tt = Arc::new(TranspositionTable::new(1));
        let (tt, size) = TranspositionTable::within_memory(requested_mb, self.pool.as_deref());
        self.tt = Arc::new(tt);
        if size != requested_mb {
            let available = memory::available_bytes()
                .map(|bytes| bytes >> 20)
                .map(|mb| format!(" ({mb} MB of memory available)"))
                .unwrap_or_default();
            say!("info string warning: Hash {requested_mb} MB could not be allocated{available}; using {size} MB");
        }
        self.options.hash_mb = size;
        let (start, bytes) = self.tt.memory_range();
        if let Some(huge) = memory::huge_page_bytes(start, bytes) {
            say!("info string Hash {size} MB: {} MB of it on huge pages", huge >> 20);
        }
    }

    /// Carries out a checked `setoption` change (no search is running).
    fn apply(&mut self, change: Change) {
        match change {
            Change::Hash(mb) => self.set_hash(mb),
            Change::Threads(n) => self.set_threads(n),
            Change::MoveOverhead(ms) => self.options.move_overhead_ms = ms,
            Change::ClearHash => self.clear_tables(),
            Change::Ponder(on) => self.options.ponder = on,
            Change::Chess960(on) => self.options.chess960 = on,
            Change::MultiPv(n) => self.options.multipv = n,
            Change::ShowWdl(on) => self.options.show_wdl = on,
            Change::LimitStrength(on) => self.options.limit_strength = on,
            Change::Elo(elo) => self.options.elo = elo,
            Change::OwnBook(on) => {
                self.options.own_book = on;
                if on && self.book.is_none() && !self.options.book_file.is_empty() {
                    self.load_book();
                }
            }
            Change::UseNnue(on) => {
                // The table caches static evaluations: clear it when the evaluation changes.
                if on != self.options.use_nnue {
                    self.clear_tables();
                }
                self.options.use_nnue = on;
                nnue::set_enabled(on);
            }
            Change::EvalFile(path) => self.load_eval_file(path),
            Change::SyzygyPath(path) => self.open_tablebases(path),
            Change::SyzygyProbeDepth(depth) => self.options.syzygy_probe_depth = depth,
            Change::Syzygy50MoveRule(on) => self.options.syzygy_50_move_rule = on,
            Change::SyzygyProbeLimit(pieces) => self.options.syzygy_probe_limit = pieces,
            #[cfg(feature = "tune")]
            Change::Tunable(index, value) => crate::search::pruning::TUNABLES[index].set(value),
            Change::BookFile(path) => {
                self.options.book_file = path;
                self.book = None;
                if !self.options.book_file.is_empty() {
                    self.load_book();
                }
            }
        }
    }

    /// Opens the Syzygy tables in `path` (none when empty), reporting what was found and every
    /// directory or file that could not be used. Results may change: the TT is cleared.
    fn open_tablebases(&mut self, path: String) {
        self.tablebases = None;
        self.options.syzygy_path = path;
        self.clear_tables();
        if self.options.syzygy_path.is_empty() {
            say!("info string Syzygy tables off");
            return;
        }
        let (tables, problems) = Tablebases::open(&self.options.syzygy_path);
        for problem in problems {
            let kind = if problem.starts_with("skipped") { "warning" } else { "error" };
            say!("info string {kind}: {problem}");
        }
        match &tables {
            Some(tables) => say!("info string Syzygy: {}", tables.summary()),
            None => {
                say!("info string error: SyzygyPath {}: no tables found; probing off", self.options.syzygy_path)
            }
        }
        self.tablebases = tables;
    }

    /// Loads the net `EvalFile` names (the embedded one when empty); a file that cannot be read
    /// or is not a net for this build keeps the current net.
    fn load_eval_file(&mut self, path: String) {
        if path.is_empty() {
            nnue::reset_current();
            self.clear_tables();
            self.options.eval_file = path;
            say!("info string using the embedded net");
            return;
        }
        let loaded = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| Network::from_bytes(&bytes).map_err(|e| e.to_string()));
        match loaded {
            Ok(net) => {
                nnue::set_current(net);
                self.clear_tables();
                say!("info string net {path} loaded");
                self.options.eval_file = path;
            }
            Err(e) => say!("info string error: EvalFile {path}: {e}; keeping the current net"),
        }
    }

    fn load_book(&mut self) {
        match Book::open(std::path::Path::new(&self.options.book_file)) {
            Ok(book) => {
                say!("info string book {} loaded: {} entries", self.options.book_file, book.len());
                self.book = Some(book);
            }
            Err(e) => say!("info string error: {e}; playing without a book"),
        }
    }

    /// The next number of a xorshift generator (for book and reduced-strength choices).
    fn next_random(&mut self) -> u64 {
        self.random ^= self.random << 13;
        self.random ^= self.random >> 7;
        self.random ^= self.random << 17;
        self.random
    }

    /// Rebuilds the worker pool for `threads` (none for one) and gives each thread its tables.
    fn set_threads(&mut self, threads: usize) {
        self.pool = None;
        if threads > 1 {
            match WorkerPool::new(threads) {
                Ok(pool) => self.pool = Some(Arc::new(pool)),
                Err(e) => {
                    say!("info string error: {e}; searching with one thread");
                    self.options.threads = 1;
                    self.histories = Some(vec![Histories::default()]);
                    return;
                }
            }
        }
        self.options.threads = threads;
        let mut histories = self.histories.take().unwrap_or_default();
        histories.resize_with(threads, Histories::default);
        self.histories = Some(histories);
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Option<Move> {
        parse_move(pos, text, self.options.chess960)
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        match apply_position(fen, moves, self.options.chess960) {
            Err(e) => {
                say!("info string error: {e}; the position is unchanged");
                self.refused_position = Some(e.to_string());
            }
            Ok(applied) => {
                for right in &applied.dropped {
                    say!("info string warning: {right}");
                }
                if let Some(message) = &applied.error {
                    say!("info string error: {message}");
                }
                self.refused_position = applied.error;
                self.position = applied.position;
                self.history = applied.history;
            }
        }
    }

    fn go(&mut self, go: Go) {
        self.finish_search();
        // The error at `position` is repeated at each `go`, with the position searched instead,
        // so that a log shows the cause beside the move.
        if let Some(refused) = &self.refused_position {
            say!(
                "info string warning: the last position command was not applied in full ({refused}); searching {}",
                self.position.to_fen()
            );
        }
        if let Some((limits, strength)) = self.search_limits(go) {
            self.start_search(limits, strength);
        }
    }

    /// The limits of `go` with the options applied (`searchmoves` parsed, `MultiPV`, reduced
    /// strength), and the strength setting; `None` when the book answered instead (its move is
    /// already printed).
    fn search_limits(&mut self, go: Go) -> Option<(Limits, Option<Strength>)> {
        for warning in &go.warnings {
            say!("info string warning: {warning}");
        }
        let mut limits = go.limits;
        // A clock for the other side only would leave the search without an end: the missing
        // one counts as run out, so the engine moves at once rather than never.
        let us = self.position.side_to_move();
        if limits.time_ms[us].is_none() && limits.time_ms[!us].is_some() && limits.movetime_ms.is_none() {
            let (ours, theirs) = if us.is_white() { ("wtime", "btime") } else { ("btime", "wtime") };
            say!("info string warning: go has {theirs} but no {ours} for the side to move; {ours} taken as 0");
            limits.time_ms[us] = Some(0);
        }
        for text in &go.search_moves_text {
            match self.parse_move(&self.position, text) {
                Some(mv) => limits.search_moves.push(mv),
                None => say!(
                    "info string warning: searchmoves '{}' is not a legal move here; ignored",
                    text.chars().take(20).collect::<String>()
                ),
            }
        }
        if self.options.own_book && !limits.infinite && !limits.ponder && limits.search_moves.is_empty() {
            let random = self.next_random();
            if let Some(mv) = self.book.as_ref().and_then(|book| book.pick(&self.position, random)) {
                say!("info string book move {}", mv.to_uci(self.options.chess960));
                print_bestmove(mv, Move::NULL, self.options.chess960);
                return None;
            }
        }
        let strength = self.options.limit_strength.then(|| Strength::new(self.options.elo, Evaluation::current()));
        limits.multipv = self.options.multipv;
        if let Some(strength) = strength {
            limits.nodes = Some(limits.nodes.map_or(strength.node_limit(), |n| n.min(strength.node_limit())));
            limits.multipv = limits.multipv.max(strength.lines());
        }
        Some((limits, strength))
    }

    /// Starts the search thread, which prints the reports and exactly one `bestmove` (a move
    /// chosen by `strength` when it is set) and hands the histories back when joined.
    fn start_search(&mut self, limits: Limits, strength: Option<Strength>) {
        let shown_lines = self.options.multipv;
        let show_wdl = self.options.show_wdl;
        let random = self.next_random();
        let control = Arc::new(SearchControl::new(limits.ponder));
        let done = Arc::new(AtomicBool::new(false));
        let thread_done = Arc::clone(&done);
        let tt = Arc::clone(&self.tt);
        let pos = self.position.clone();
        let history = self.history.clone();
        let mut histories = self.histories.take().unwrap_or_default();
        histories.resize_with(self.options.threads.max(1), Histories::default);
        let pool = self.pool.clone();
        let chess960 = self.options.chess960;
        let overhead = self.options.move_overhead_ms;
        let thread_control = Arc::clone(&control);
        let tb_settings = self.tablebases.clone().map(|tables| TbSettings {
            tables,
            probe_depth: self.options.syzygy_probe_depth,
            rule50: self.options.syzygy_50_move_rule,
            probe_limit: self.options.syzygy_probe_limit,
        });
        let spawned =
            std::thread::Builder::new().name("search".into()).stack_size(SEARCH_STACK_BYTES).spawn(move || {
                let live = |info: &LiveInfo| say!("{}", live_line(info, chess960));
                let context = SearchContext {
                    tt: &tt,
                    control: &thread_control,
                    histories: &mut histories,
                    history: &history,
                    move_overhead_ms: overhead,
                    pool: pool.as_deref(),
                    tablebases: tb_settings.as_ref(),
                    live: Some(&live),
                };
                let result = search(&pos, &limits, context, &mut |report| {
                    if report.multipv <= shown_lines {
                        say!("{}", info_line(report, chess960, show_wdl));
                    }
                });
                if result.best_move == Move::NULL {
                    // No legal move: the score a GUI shows is mate (the side to move is mated)
                    // or a draw (stalemate).
                    say!("info depth 0 score {}", if pos.is_check() { "mate 0" } else { "cp 0" });
                }
                // Exactly one bestmove, and never before `stop` during an infinite or ponder search.
                while (limits.infinite || thread_control.is_pondering()) && !thread_control.stop_requested() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                let (best, ponder) = match strength.and_then(|s| s.choose(&result.lines, random)) {
                    Some(chosen) if chosen != result.best_move => {
                        let line = result.lines.iter().find(|line| line.pv.first() == Some(&chosen));
                        (chosen, line.and_then(|line| line.pv.get(1).copied()).unwrap_or(Move::NULL))
                    }
                    _ => (result.best_move, result.ponder_move),
                };
                thread_done.store(true, Ordering::Release);
                print_bestmove(best, ponder, chess960);
                for warning in tb_settings.iter().flat_map(|tb| tb.tables.take_warnings()) {
                    say!("info string error: {warning}");
                }
                histories
            });
        match spawned {
            Ok(handle) => self.running = Some(Running { control, done, handle }),
            Err(e) => {
                say!("info string error: cannot start the search thread ({e}); playing the first legal move");
                let mut list = MoveList::new();
                generate_legal(&self.position, &mut list);
                print_bestmove(list.first().copied().unwrap_or(Move::NULL), Move::NULL, self.options.chess960);
            }
        }
    }

    fn display(&self) {
        let pos = &self.position;
        say!("{pos}");
        say!("Key: {:016x}", pos.key());
        say!("Checkers: {}", squares(pos.checkers()));
        for color in Color::ALL {
            let name = if color.is_white() { "White" } else { "Black" };
            say!("Attacked by {name}: {}", squares(pos.attacked_by(color)));
            say!("{name} pieces attacked and undefended: {}", squares(pos.undefended(color)));
            say!("{name} pinned: {}", squares(pos.pinned(color)));
        }
        say!("{}", self.net_line());
    }

    /// The network's evaluation of the current position, as `eval` and `d` print it.
    fn net_line(&self) -> String {
        let score = nnue::current().evaluate(&self.position);
        let source = if self.options.eval_file.is_empty() { "embedded net" } else { &self.options.eval_file };
        let used = if self.options.use_nnue { "in use" } else { "not in use: UseNNUE is false" };
        format!(
            "NNUE evaluation ({source}, {used}): {} cp (White's view), {score} cp (side to move)",
            score * self.position.side_to_move().sign()
        )
    }

    fn print_eval(&self) {
        let breakdown = eval::breakdown(&self.position);
        say!("{:<28} {:>13} {:>13} {:>13}", "term (mg eg)", "White", "Black", "total");
        for (name, white, black) in &breakdown.terms {
            let total = *white - *black;
            say!(
                "{name:<28} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
                white.mg,
                white.eg,
                black.mg,
                black.eg,
                total.mg,
                total.eg
            );
        }
        say!(
            "phase {} of {}, endgame scale {} of {}",
            breakdown.phase,
            eval::MAX_PHASE,
            breakdown.scale,
            eval::FULL_SCALE
        );
        say!(
            "Hand-crafted evaluation: {} cp (White's view), {} cp (side to move)",
            breakdown.white_score,
            breakdown.white_score * self.position.side_to_move().sign()
        );
        say!("{}", self.net_line());
    }

    fn perft(&self, depth: u32) {
        let pool = match WorkerPool::new(self.options.threads) {
            Ok(pool) => pool,
            Err(e) => {
                say!("info string error: {e}");
                return;
            }
        };
        let start = std::time::Instant::now();
        let counts = perft::divide(&self.position, depth, &pool);
        for (mv, n) in &counts {
            say!("{}: {n}", mv.to_uci(self.options.chess960));
        }
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        say!("\nNodes searched: {total}");
        say!("info string perft {depth}: {total} nodes in {} ms", start.elapsed().as_millis());
    }
}

/// The legal move `text` names in `pos`: UCI notation, castling in either form.
pub fn parse_move(pos: &Position, text: &str, chess960: bool) -> Option<Move> {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    let text = text.to_ascii_lowercase();
    list.iter().copied().find(|mv| {
        mv.to_uci(chess960).to_string() == text || (mv.is_castle() && mv.to_uci(!chess960).to_string() == text)
    })
}

/// What a `position` command sets up.
#[derive(Clone, Debug)]
pub struct AppliedPosition {
    /// The position after the moves that could be played.
    pub position: Position,
    /// The keys of the positions before it.
    pub history: Vec<u64>,
    /// Why a move was refused, if one was (the moves after it are ignored).
    pub error: Option<String>,
    /// Castling rights dropped from the FEN because standard chess cannot have them.
    pub dropped: Vec<DroppedRight>,
}

/// Sets up `position startpos|fen FEN moves ...`: a bad FEN is an error (the caller keeps its
/// position); a bad move stops there, keeping the position after the moves before it. Without
/// `chess960` the FEN is read as standard chess (castling rights it cannot have are dropped).
pub fn apply_position(fen: Option<&str>, moves: &[String], chess960: bool) -> Result<AppliedPosition, FenError> {
    let variant = if chess960 { Variant::Chess960 } else { Variant::Standard };
    let (mut position, dropped) = match fen {
        None => (Position::startpos(), Vec::new()),
        Some(fen) => {
            let parsed = Position::parse_fen(fen, variant)?;
            (parsed.position, parsed.dropped)
        }
    };
    let mut history = Vec::with_capacity(moves.len());
    let mut error = None;
    for (i, text) in moves.iter().enumerate() {
        match parse_move(&position, text, chess960) {
            Some(mv) => {
                history.push(position.key());
                position.make_move(mv);
            }
            None => {
                let shown: String = text.chars().take(20).collect();
                error = Some(format!(
                    "move {} '{shown}' is not legal here; the position is set after the {i} moves before it",
                    i + 1
                ));
                break;
            }
        }
    }
    Ok(AppliedPosition { position, history, error, dropped })
}

fn squares(bb: Bitboard) -> String {
    if bb.is_empty() {
        return "-".to_string();
    }
    bb.map(|sq| sq.to_string()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_reader_splits_lines_and_refuses_bad_ones() {
        let mut long = vec![b'a'; MAX_LINE_BYTES + 10];
        long.push(b'\n');
        let mut input = b"uci\nisready\r\n".to_vec();
        input.extend_from_slice(&long);
        input.extend_from_slice(b"\xff\xfe\nquit");
        let mut reader = std::io::BufReader::with_capacity(7, &input[..]);
        let mut buf = Vec::new();
        let mut got = Vec::new();
        while let Ok(Some(line)) = read_line(&mut reader, &mut buf) {
            got.push(line.map(|l| l.trim().to_string()));
        }
        assert_eq!(got.len(), 5);
        assert_eq!(got[0], Ok("uci".to_string()));
        assert_eq!(got[1], Ok("isready".to_string()));
        assert!(got[2].is_err() && got[3].is_err());
        assert_eq!(got[4], Ok("quit".to_string()));
    }

    #[test]
    fn position_keeps_the_moves_before_a_bad_one() {
        let mut engine = Engine::new();
        engine.set_position(None, &["e2e4".into(), "e7e5".into(), "e1e3".into(), "d2d4".into()]);
        assert_eq!(engine.position.to_fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
        assert_eq!(engine.history.len(), 2);
        let before = engine.position.clone();
        engine.set_position(Some("not a fen"), &[]);
        assert_eq!(engine.position, before);
    }

    #[test]
    fn castling_is_read_in_both_notations() {
        let mut engine = Engine::new();
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        engine.set_position(Some(fen), &["e1g1".into()]);
        assert!(engine.position.to_fen().starts_with("r3k2r/8/8/8/8/8/8/R4RK1 b kq"));
        engine.set_position(Some(fen), &["e1h1".into()]);
        assert!(engine.position.to_fen().starts_with("r3k2r/8/8/8/8/8/8/R4RK1 b kq"));
    }
}
