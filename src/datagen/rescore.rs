//! `springer rescore`: older games' positions searched again by this build's net. Each game keeps
//! its moves and result; every position the trainer would use (`Sample::is_trainable`) gets the
//! score of a new search at the node limit, the way `datagen` scored its own positions (one
//! fresh table per game, the game's earlier positions as repetition history). Chunks keep their
//! names and headers, so a stopped run resumes after the last chunk it wrote.

use super::format::{decode_chunk, GameRecord};
use super::{check_node_limits, chunk_index, chunk_path, lock, search_position, write_chunk, HASH_MB};
use crate::search::history::Histories;
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What `springer rescore` was asked for.
#[derive(Clone, Debug)]
pub struct Config {
    /// The directory of chunks to rescore (left as it is).
    pub input: PathBuf,
    /// The directory the rescored chunks go to, under the same names (created if missing).
    pub out: PathBuf,
    /// Games searched at once (one per thread).
    pub threads: usize,
    /// The soft and hard node limits per position, as in `datagen`.
    pub nodes: u64,
    pub hard_nodes: u64,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    pub chunks: u64,
    /// Chunks already in the output directory, left alone.
    pub skipped: u64,
    pub positions: u64,
    /// Positions searched again (the trainable ones).
    pub rescored: u64,
    pub seconds: f64,
}

/// `record` with every trainable position's score replaced by a new search's; an error if a
/// move does not replay (a corrupt chunk).
pub fn rescore_game(record: &GameRecord, limits: &Limits) -> Result<(GameRecord, u64), String> {
    let samples = record.samples().map_err(|e| e.to_string())?;
    let tt = TranspositionTable::new(HASH_MB);
    let mut histories = vec![Histories::default()];
    let mut keys = Vec::with_capacity(samples.len());
    let mut moves = Vec::with_capacity(samples.len());
    let mut rescored = 0;
    for sample in &samples {
        let mut score = sample.score;
        if sample.is_trainable() {
            let found = search_position(&sample.position, limits, &tt, &mut histories, &keys);
            score = found.score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
            rescored += 1;
        }
        moves.push((sample.best, score));
        keys.push(sample.position.key());
    }
    Ok((GameRecord { moves, ..record.clone() }, rescored))
}

/// A game rescored with the count of positions searched, or why it could not be.
type Rescored = Result<(GameRecord, u64), String>;

/// `games` rescored on `threads` threads, in their order, with the positions searched.
fn rescore_games(games: &[GameRecord], limits: &Limits, threads: usize) -> Result<(Vec<GameRecord>, u64), String> {
    let results: Mutex<Vec<Option<Rescored>>> = Mutex::new(vec![None; games.len()]);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(games.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(game) = games.get(i) else { break };
                let result = rescore_game(game, limits);
                lock(&results)[i] = Some(result);
            });
        }
    });
    let mut rescored_games = Vec::with_capacity(games.len());
    let mut rescored = 0;
    for result in lock(&results).drain(..) {
        let (game, searched) = result.unwrap_or_else(|| Err("a game was not rescored".to_string()))?;
        rescored += searched;
        rescored_games.push(game);
    }
    Ok((rescored_games, rescored))
}

/// The chunk files of `dir` in order of their numbers.
fn chunks_in(dir: &Path) -> Result<Vec<(u64, PathBuf)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut chunks: Vec<(u64, PathBuf)> = entries
        .flatten()
        .filter_map(|entry| Some((chunk_index(&entry.file_name().to_string_lossy())?, entry.path())))
        .collect();
    chunks.sort();
    Ok(chunks)
}

/// Runs `config`, a progress line per chunk to `progress`; the summary or the first error.
pub fn run(config: &Config, progress: &mut dyn FnMut(&Summary)) -> Result<Summary, String> {
    if config.threads == 0 {
        return Err("threads must be at least 1".to_string());
    }
    check_node_limits(config.nodes, config.hard_nodes)?;
    let chunks = chunks_in(&config.input)?;
    if chunks.is_empty() {
        return Err(format!("no chunk-*.bin files in {}", config.input.display()));
    }
    std::fs::create_dir_all(&config.out).map_err(|e| format!("cannot create {}: {e}", config.out.display()))?;
    let limits = Limits { nodes: Some(config.hard_nodes), soft_nodes: Some(config.nodes), ..Limits::default() };
    let start = Instant::now();
    let mut summary = Summary::default();
    for (index, path) in chunks {
        if chunk_path(&config.out, index).exists() {
            summary.skipped += 1;
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let (header, games) = decode_chunk(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let (rescored_games, rescored) =
            rescore_games(&games, &limits, config.threads).map_err(|e| format!("{}: {e}", path.display()))?;
        summary.positions += rescored_games.iter().map(|g| g.moves.len() as u64).sum::<u64>();
        summary.rescored += rescored;
        write_chunk(&config.out, index, header, &rescored_games)?;
        summary.chunks += 1;
        summary.seconds = start.elapsed().as_secs_f64();
        progress(&summary);
    }
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{config as datagen_config, temp_dir};
    use super::super::{play_game, Config as DatagenConfig};
    use super::*;

    /// Rescoring keeps a game's moves, result and untrainable scores, searches exactly the
    /// trainable positions, and does so deterministically; at the node limit the game was played
    /// at, by the same net, the new scores agree with the old ones on who stands better wherever
    /// the old score was clear (the table and histories differ, as only some positions are
    /// searched, so the scores themselves may move a little), and a deeper search changes some.
    #[test]
    fn rescoring_keeps_the_game_and_agrees_with_its_own_scores() {
        let datagen = DatagenConfig { seed: 11, ..datagen_config(Path::new("."), 1) };
        let game = play_game(&datagen, 3);
        let same = Limits { nodes: Some(2400), soft_nodes: Some(300), ..Limits::default() };
        let (again, rescored) = rescore_game(&game, &same).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(rescore_game(&game, &same).ok(), Some((again.clone(), rescored)), "deterministic");
        let samples = game.samples().unwrap_or_else(|e| unreachable!("{e}"));
        let trainable: Vec<bool> = samples.iter().map(|s| s.is_trainable()).collect();
        assert_eq!(rescored, trainable.iter().filter(|&&t| t).count() as u64);
        assert!(rescored > 0);
        assert_eq!(
            (again.result, &again.start_fen, again.moves.len()),
            (game.result, &game.start_fen, game.moves.len())
        );
        let (mut clear, mut agree, mut total_diff) = (0, 0, 0i64);
        for ((old, new), &trainable) in game.moves.iter().zip(&again.moves).zip(&trainable) {
            assert_eq!(old.0, new.0, "the moves are kept");
            if !trainable {
                assert_eq!(old.1, new.1, "an untrainable position keeps its score");
            } else if old.1.abs() >= CLEAR_SCORE {
                clear += 1;
                agree += usize::from(old.1.signum() == new.1.signum());
            }
            total_diff += (i64::from(old.1) - i64::from(new.1)).abs();
        }
        eprintln!(
            "rescored {rescored}: {agree} of {clear} clear scores agree, mean difference {} cp",
            total_diff / rescored as i64
        );
        assert_eq!(agree, clear);
        let deeper = Limits { nodes: Some(16_000), soft_nodes: Some(2_000), ..Limits::default() };
        let (other, _) = rescore_game(&game, &deeper).unwrap_or_else(|e| unreachable!("{e}"));
        assert!(
            game.moves.iter().zip(&other.moves).any(|(old, new)| old.1 != new.1),
            "a deeper search changes some scores"
        );
    }

    /// A score this far from 0 says clearly who stands better.
    const CLEAR_SCORE: i16 = 150;

    /// A directory is rescored chunk by chunk under the same names and headers; a second run
    /// skips what is there; a directory without chunks is an error.
    #[test]
    fn a_directory_is_rescored_and_resumed() {
        let games = temp_dir("rescore-games");
        let datagen = DatagenConfig { games_per_chunk: 2, ..datagen_config(&games, 4) };
        super::super::run(&datagen, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
        let out = temp_dir("rescore-out");
        let config = Config { input: games.clone(), out: out.clone(), threads: 2, nodes: 400, hard_nodes: 3200 };
        let first = run(&config, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!((first.chunks, first.skipped), (2, 0));
        assert!(first.rescored > 0 && first.rescored < first.positions);
        for index in 0..2 {
            let read = |dir: &Path| {
                let bytes = std::fs::read(chunk_path(dir, index)).unwrap_or_else(|e| unreachable!("{e}"));
                decode_chunk(&bytes).unwrap_or_else(|e| unreachable!("{e}"))
            };
            let ((old_header, old_games), (new_header, new_games)) = (read(&games), read(&out));
            assert_eq!(old_header, new_header);
            assert_eq!(old_games.len(), new_games.len());
        }
        let second = run(&config, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!((second.chunks, second.skipped), (0, 2));
        let empty = Config { input: out.join("nothing"), ..config };
        assert!(run(&empty, &mut |_| {}).is_err());
        let _ = std::fs::remove_dir_all(&games);
        let _ = std::fs::remove_dir_all(&out);
    }
}
