//! `springer datagen`: self-play games for training a network. Each game starts from the start
//! position (or a random Chess960 start) plus a few random legal moves, is searched at a node
//! limit per move with a fresh table, and ends by the rules or by adjudication. Games are
//! written in chunks (`format.rs`), each to a temporary file renamed when complete, so a chunk
//! is never half written and a stopped run resumes after its last chunk.

pub mod format;
pub mod rescore;

use crate::eval::is_insufficient_material;
use crate::movegen::{generate_legal, MoveList};
use crate::position::{Position, Variant};
use crate::search::history::Histories;
use crate::search::time::Limits;
use crate::search::tt::{TranspositionTable, MATE_BOUND};
use crate::search::{search, SearchContext, SearchControl, SearchResult};
use format::{decode_header, encode_chunk, ChunkHeader, GameRecord, GameResult};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A game is adjudicated won once the score stays beyond this for `WIN_PLIES` plies in a row...
const WIN_SCORE: i32 = 2000;
/// ...counted over both sides' searches.
const WIN_PLIES: u32 = 4;
/// A game is adjudicated drawn from this ply on once the score stays within `DRAW_SCORE`...
const DRAW_MIN_PLY: usize = 80;
/// ...centipawns...
const DRAW_SCORE: i32 = 10;
/// ...for this many plies in a row.
const DRAW_PLIES: u32 = 12;
/// Games still running at this many plies are drawn.
const MAX_PLIES: usize = 400;
/// The table each game starts afresh.
const HASH_MB: usize = 8;
/// The most a game's first search may score (centipawns, either side ahead): a random opening
/// that already hangs a piece is drawn again rather than played out as a foregone conclusion.
pub const DEFAULT_OPENING_SCORE_LIMIT: i32 = 400;

/// What `springer datagen` was asked for.
#[derive(Clone, Debug)]
pub struct Config {
    /// The directory the chunks go to (created if missing).
    pub out: PathBuf,
    /// Games to play in this run.
    pub games: u64,
    /// Games searched at once (one per thread).
    pub threads: usize,
    /// The soft node limit per move: no iteration starts past it, the one under way finishes.
    pub nodes: u64,
    /// The hard node limit per move, at least `nodes`: the search stops there even inside an
    /// iteration (`nodes` itself gives the hard limit that the data before 2026-12-01 was made with).
    pub hard_nodes: u64,
    /// Random legal moves played before the search takes over: this many or one more, at
    /// random, so that each side makes the last random move in half the games.
    pub random_plies: u32,
    /// An opening whose first search scores beyond this (either side ahead) is drawn again.
    pub opening_score_limit: i32,
    /// Start from random Chess960 positions.
    pub chess960: bool,
    /// Games per chunk file.
    pub games_per_chunk: u32,
    /// Seed of every game's random moves (game n uses a stream derived from seed and n).
    pub seed: u64,
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
    pub chunks: u64,
    pub seconds: f64,
}

/// SplitMix64: a small, fast generator whose every seed gives a good stream.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, game: u64) -> Rng {
        let mut rng = Rng(seed ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        rng.next();
        rng
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The Chess960 start position number `n` (0..960, Scharnagl's numbering; 518 is the standard
/// start), as a FEN with Shredder-FEN castling.
pub fn chess960_start(n: usize) -> String {
    let mut rank = [' '; 8];
    let mut n = n % 960;
    rank[2 * (n % 4) + 1] = 'b';
    n /= 4;
    rank[2 * (n % 4)] = 'b';
    n /= 4;
    let place = |rank: &mut [char; 8], index: usize, piece: char| {
        let file = (0..8).filter(|&f| rank[f] == ' ').nth(index).unwrap_or(0);
        rank[file] = piece;
    };
    place(&mut rank, n % 6, 'q');
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (first, second) = KNIGHTS[n];
    place(&mut rank, second, 'n');
    place(&mut rank, first, 'n');
    for piece in ['r', 'k', 'r'] {
        place(&mut rank, 0, piece);
    }
    let black: String = rank.iter().collect();
    let files: Vec<char> = (0..8).filter(|&f| rank[f] == 'r').map(|f| (b'a' + f as u8) as char).collect();
    let castling: String =
        files.iter().rev().map(|f| f.to_ascii_uppercase()).chain(files.iter().rev().copied()).collect();
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{} w {castling} - 0 1", black.to_ascii_uppercase())
}

/// Plays one game, number `game`, under `config`.
pub fn play_game(config: &Config, game: u64) -> GameRecord {
    let mut rng = Rng::new(config.seed, game);
    loop {
        if let Some(record) = try_game(config, &mut rng) {
            return record;
        }
    }
}

/// One attempt at a game; `None` when the random opening already ended it or left one side
/// ahead by more than `opening_score_limit`.
fn try_game(config: &Config, rng: &mut Rng) -> Option<GameRecord> {
    let (start_fen, variant) = if config.chess960 {
        (chess960_start(rng.below(960)), Variant::Chess960)
    } else {
        (crate::position::START_FEN.to_string(), Variant::Standard)
    };
    let mut pos = Position::parse_fen(&start_fen, variant).ok()?.position;
    let random_plies = config.random_plies + (rng.next() & 1) as u32;
    for _ in 0..random_plies {
        let mut list = MoveList::new();
        generate_legal(&pos, &mut list);
        if list.is_empty() {
            return None;
        }
        pos.make_move(list[rng.below(list.len())]);
    }
    let mut list = MoveList::new();
    generate_legal(&pos, &mut list);
    if list.is_empty() {
        return None;
    }
    let opening_fen = pos.to_fen();

    let tt = TranspositionTable::new(HASH_MB);
    let mut histories = vec![Histories::default()];
    let mut keys: Vec<u64> = Vec::new();
    let mut moves = Vec::new();
    let (mut win_streak, mut draw_streak) = (WinStreak::default(), 0u32);
    let limits = Limits { nodes: Some(config.hard_nodes), soft_nodes: Some(config.nodes), ..Limits::default() };
    let result = loop {
        if let Some(result) = rule_result(&pos, &keys) {
            break result;
        }
        if moves.len() >= MAX_PLIES {
            break GameResult::Draw;
        }
        let found = search_position(&pos, &limits, &tt, &mut histories, &keys);
        let score = found.score;
        if moves.is_empty() && score.abs() > config.opening_score_limit {
            return None;
        }
        let white_score = if pos.side_to_move().is_white() { score } else { -score };
        moves.push((found.best_move, score.clamp(i16::MIN.into(), i16::MAX.into()) as i16));
        win_streak.add(white_score);
        draw_streak = if score.abs() <= DRAW_SCORE && moves.len() >= DRAW_MIN_PLY { draw_streak + 1 } else { 0 };
        if win_streak.plies >= WIN_PLIES || score.abs() >= MATE_BOUND {
            // Proven mates and long-agreed wins are adjudicated: the side ahead wins.
            break if white_score > 0 { GameResult::WhiteWon } else { GameResult::BlackWon };
        }
        if draw_streak >= DRAW_PLIES {
            break GameResult::Draw;
        }
        keys.push(pos.key());
        pos.make_move(found.best_move);
    };
    Some(GameRecord { start_fen: opening_fen, variant, result, moves })
}

/// Consecutive plies whose searches put the same side ahead by `WIN_SCORE` or more.
#[derive(Default)]
struct WinStreak {
    plies: u32,
    /// The side ahead: 1 White, -1 Black, 0 neither.
    side: i32,
}

impl WinStreak {
    /// Counts one more search, scoring `white_score` from White's view.
    fn add(&mut self, white_score: i32) {
        let side = if white_score.abs() >= WIN_SCORE { white_score.signum() } else { 0 };
        self.plies = match side {
            0 => 0,
            _ if side == self.side => self.plies + 1,
            _ => 1,
        };
        self.side = side;
    }
}

/// One search of a game's position `pos` (reached after the positions `keys`) under `limits`, on
/// one thread with the game's table and histories, no tablebases and no output.
fn search_position(
    pos: &Position,
    limits: &Limits,
    tt: &TranspositionTable,
    histories: &mut [Histories],
    keys: &[u64],
) -> SearchResult {
    let control = SearchControl::new(false);
    let context = SearchContext {
        tt,
        control: &control,
        histories,
        history: keys,
        move_overhead_ms: 0,
        pool: None,
        tablebases: None,
        live: None,
    };
    search(pos, limits, context, &mut |_| {})
}

/// The result the rules give `pos` (reached after the positions `keys`): mate, stalemate,
/// threefold repetition, the fifty-move rule, insufficient material; `None` while play goes on.
fn rule_result(pos: &Position, keys: &[u64]) -> Option<GameResult> {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    if list.is_empty() {
        if !pos.is_check() {
            return Some(GameResult::Draw);
        }
        return Some(if pos.side_to_move().is_white() { GameResult::BlackWon } else { GameResult::WhiteWon });
    }
    let reach = (pos.halfmove_clock() as usize).min(keys.len());
    let repeats = keys[keys.len() - reach..].iter().filter(|&&key| key == pos.key()).count();
    if repeats >= 2 || pos.halfmove_clock() >= 100 || is_insufficient_material(pos) {
        return Some(GameResult::Draw);
    }
    None
}

/// The chunk file name for chunk `index`.
fn chunk_path(dir: &Path, index: u64) -> PathBuf {
    dir.join(format!("chunk-{index:06}.bin"))
}

/// The index of a chunk file named `name` (`chunk-NNNNNN.bin`); `None` for any other file.
fn chunk_index(name: &str) -> Option<u64> {
    name.strip_prefix("chunk-")?.strip_suffix(".bin")?.parse().ok()
}

/// Checks a soft and a hard node limit per search: both at least 1, the hard one not below.
fn check_node_limits(nodes: u64, hard_nodes: u64) -> Result<(), String> {
    if nodes == 0 {
        return Err("the node limit must be at least 1".to_string());
    }
    if hard_nodes < nodes {
        return Err(format!("the hard node limit ({hard_nodes}) is below the soft one ({nodes})"));
    }
    Ok(())
}

/// The next chunk index and game number after the chunks already in `dir` (for resuming).
fn resume_point(dir: &Path) -> Result<(u64, u64), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let (mut next_chunk, mut next_game) = (0, 0);
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(index) = chunk_index(&name) else { continue };
        let bytes = std::fs::read(entry.path()).map_err(|e| format!("cannot read {name}: {e}"))?;
        let header = decode_header(&bytes).map_err(|e| format!("{name}: {e}"))?;
        next_chunk = next_chunk.max(index + 1);
        next_game = next_game.max(header.first_game + u64::from(header.games));
    }
    Ok((next_chunk, next_game))
}

/// Writes a chunk: to a temporary file first, renamed once complete.
fn write_chunk(dir: &Path, index: u64, header: ChunkHeader, games: &[GameRecord]) -> Result<(), String> {
    let path = chunk_path(dir, index);
    let tmp = path.with_extension("tmp");
    let bytes = encode_chunk(header, games);
    let written = std::fs::File::create(&tmp)
        .and_then(|mut file| file.write_all(&bytes).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, &path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {e}", path.display())
    })
}

/// Finished games waiting to fill a chunk, by game number, and the chunks written so far. A
/// chunk holds consecutive games from `first_game` on, so its header names exactly the games in
/// it and a resumed run neither repeats nor skips one (threads finish games out of order).
struct Pending {
    games: BTreeMap<u64, GameRecord>,
    next_chunk: u64,
    first_game: u64,
    summary: Summary,
    error: Option<String>,
}

/// Runs `config`, printing a progress line per chunk to `progress`; returns the summary or the
/// first error (a bad directory, a full disk).
pub fn run(config: &Config, progress: &mut (dyn FnMut(&Summary) + Send)) -> Result<Summary, String> {
    if config.games_per_chunk == 0 || config.threads == 0 {
        return Err("games per chunk and threads must be at least 1".to_string());
    }
    check_node_limits(config.nodes, config.hard_nodes)?;
    std::fs::create_dir_all(&config.out).map_err(|e| format!("cannot create {}: {e}", config.out.display()))?;
    let (next_chunk, first_game) = resume_point(&config.out)?;
    let start = Instant::now();
    let next_game = AtomicU64::new(first_game);
    let last_game = first_game + config.games;
    let pending = Mutex::new(Pending {
        games: BTreeMap::new(),
        next_chunk,
        first_game,
        summary: Summary::default(),
        error: None,
    });
    let progress = Mutex::new(progress);
    // Writes the games from `first_game` on that are finished without a gap, at most a chunk.
    let flush = |pending: &mut Pending| {
        let mut games = Vec::new();
        while games.len() < config.games_per_chunk as usize {
            match pending.games.remove(&(pending.first_game + games.len() as u64)) {
                Some(game) => games.push(game),
                None => break,
            }
        }
        let header = ChunkHeader { first_game: pending.first_game, games: games.len() as u32 };
        if let Err(e) = write_chunk(&config.out, pending.next_chunk, header, &games) {
            pending.error.get_or_insert(e);
            return;
        }
        pending.next_chunk += 1;
        pending.first_game += games.len() as u64;
        pending.summary.chunks += 1;
        pending.summary.games += games.len() as u64;
        pending.summary.positions += games.iter().map(|g| g.moves.len() as u64).sum::<u64>();
        pending.summary.seconds = start.elapsed().as_secs_f64();
        if let Ok(mut report) = progress.lock() {
            report(&pending.summary);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..config.threads {
            scope.spawn(|| loop {
                let game = next_game.fetch_add(1, Ordering::SeqCst);
                if game >= last_game || lock(&pending).error.is_some() {
                    break;
                }
                let record = play_game(config, game);
                let mut pending = lock(&pending);
                pending.games.insert(game, record);
                // One game can complete more than one chunk when the games before it are in.
                loop {
                    let chunk_end = pending.first_game + u64::from(config.games_per_chunk);
                    let complete = (pending.first_game..chunk_end).all(|n| pending.games.contains_key(&n));
                    if !complete || pending.error.is_some() {
                        break;
                    }
                    flush(&mut pending);
                }
            });
        }
    });
    // Every game of the run is finished: what is left is a short chunk without gaps.
    let mut pending = lock(&pending);
    if !pending.games.is_empty() && pending.error.is_none() {
        flush(&mut pending);
    }
    debug_assert!(pending.games.is_empty() || pending.error.is_some(), "games left unwritten");
    if let Some(error) = pending.error.take() {
        return Err(error);
    }
    pending.summary.seconds = start.elapsed().as_secs_f64();
    Ok(pending.summary)
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::format::decode_chunk;
    use super::*;
    use crate::types::Move;

    pub(super) fn config(dir: &Path, games: u64) -> Config {
        Config {
            out: dir.to_path_buf(),
            games,
            threads: 2,
            nodes: 300,
            hard_nodes: 300 * 8,
            random_plies: 8,
            opening_score_limit: DEFAULT_OPENING_SCORE_LIMIT,
            chess960: false,
            games_per_chunk: 3,
            seed: 7,
        }
    }

    pub(super) fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("springer-datagen-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_hard_node_limit_below_the_soft_one_is_refused() {
        let dir = temp_dir("hard-below-soft");
        let config = Config { hard_nodes: 299, ..config(&dir, 1) };
        let error = run(&config, &mut |_| {}).err();
        assert_eq!(error.as_deref(), Some("the hard node limit (299) is below the soft one (300)"));
        assert!(!dir.exists(), "nothing is written");
    }

    #[test]
    fn chunks_round_trip_and_replay_legally_and_runs_resume() {
        let dir = temp_dir("roundtrip");
        let first = run(&config(&dir, 4), &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!((first.games, first.chunks), (4, 2));
        let second = run(&config(&dir, 2), &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!((second.games, second.chunks), (2, 1));
        let mut numbers = Vec::new();
        let (mut positions, mut trainable) = (0, 0);
        for index in 0..3 {
            let bytes = std::fs::read(chunk_path(&dir, index)).unwrap_or_else(|e| unreachable!("{e}"));
            let (header, games) = decode_chunk(&bytes).unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!(header.games as usize, games.len());
            numbers.extend(header.first_game..header.first_game + u64::from(header.games));
            for game in &games {
                let samples = game.samples().unwrap_or_else(|e| unreachable!("{e}"));
                positions += samples.len() as u64;
                trainable += samples.iter().filter(|s| s.is_trainable()).count() as u64;
                let end = samples.last().map(|s| s.position.after(s.best)).unwrap_or_else(|| unreachable!());
                // A game that ended by mate has the mated side to move and the mater as winner.
                let mut list = MoveList::new();
                generate_legal(&end, &mut list);
                if list.is_empty() && end.is_check() {
                    let expected =
                        if end.side_to_move().is_white() { GameResult::BlackWon } else { GameResult::WhiteWon };
                    assert_eq!(game.result, expected);
                }
            }
        }
        assert_eq!(numbers, (0..6).collect::<Vec<_>>());
        assert!(trainable > 0 && trainable < positions, "{trainable} of {positions}");
        assert_eq!(positions, first.positions + second.positions);
        assert!(!chunk_path(&dir, 3).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Threads finish games out of order; each chunk still holds exactly the games its header
    /// names, so a resumed run neither repeats nor skips one.
    #[test]
    fn a_chunk_holds_the_games_its_header_names() {
        let dir = temp_dir("ordered");
        let cfg = Config { games_per_chunk: 1, ..config(&dir, 12) };
        run(&cfg, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
        for index in 0..12 {
            let bytes = std::fs::read(chunk_path(&dir, index)).unwrap_or_else(|e| unreachable!("{e}"));
            let (header, games) = decode_chunk(&bytes).unwrap_or_else(|e| unreachable!("{e}"));
            assert_eq!((header.first_game, games.len()), (index, 1));
            assert_eq!(games[0], play_game(&cfg, index), "chunk {index}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Openings leave either side to move (8 or 9 random plies) and neither side ahead by more
    /// than the limit at the first search.
    #[test]
    fn openings_alternate_the_last_random_mover_and_stay_near_level() {
        let cfg = Config { nodes: 200, hard_nodes: 1600, ..config(Path::new("."), 1) };
        let mut black_to_move = 0;
        for game in 0..16 {
            let record = play_game(&cfg, game);
            if record.start_fen.split(' ').nth(1) == Some("b") {
                black_to_move += 1;
            }
            let first_score = i32::from(record.moves[0].1);
            assert!(first_score.abs() <= cfg.opening_score_limit, "game {game}: {first_score}");
        }
        assert!((3..=13).contains(&black_to_move), "{black_to_move} of 16 openings with Black to move");
    }

    #[test]
    fn only_one_side_ahead_in_a_row_adjudicates_a_win() {
        let mut streak = WinStreak::default();
        for score in [2500, -2500, 2500, -2500] {
            streak.add(score);
        }
        assert_eq!(streak.plies, 1, "the lead changed hands each ply");
        for score in [2000, 3000, 2100, 2000] {
            streak.add(score);
        }
        assert_eq!((streak.plies, streak.side), (4, 1), "White ahead for four plies");
        streak.add(1999);
        assert_eq!(streak.plies, 0);
    }

    #[test]
    fn each_game_is_determined_by_seed_and_number() {
        let cfg = config(Path::new("."), 1);
        assert_eq!(play_game(&cfg, 5), play_game(&cfg, 5));
        assert_ne!(play_game(&cfg, 5).start_fen, play_game(&cfg, 6).start_fen);
    }

    #[test]
    fn chess960_starts_are_valid_and_518_is_standard() {
        assert_eq!(chess960_start(518), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
        let mut distinct = std::collections::HashSet::new();
        for n in 0..960 {
            let fen = chess960_start(n);
            assert!(Position::parse_fen(&fen, Variant::Chess960).is_ok(), "{fen}");
            distinct.insert(fen);
        }
        assert_eq!(distinct.len(), 960);
    }

    #[test]
    fn corrupt_chunks_are_errors_not_panics() {
        let game = GameRecord {
            start_fen: crate::position::START_FEN.to_string(),
            variant: Variant::Standard,
            result: GameResult::Draw,
            moves: vec![(Move::NULL, 0)],
        };
        let bytes = encode_chunk(ChunkHeader { first_game: 0, games: 1 }, &[game]);
        for len in 0..bytes.len() {
            assert!(decode_chunk(&bytes[..len]).is_err());
        }
        let (_, games) = decode_chunk(&bytes).unwrap_or_else(|e| unreachable!("{e}"));
        assert!(games[0].samples().is_err(), "a null move is not legal");
    }

    #[test]
    fn an_unwritable_directory_is_an_error() {
        let file = temp_dir("file");
        std::fs::write(&file, b"not a directory").unwrap_or_else(|e| unreachable!("{e}"));
        assert!(run(&config(&file, 1), &mut |_| {}).is_err());
        let _ = std::fs::remove_file(&file);
    }
}
