//! Training positions: read from datagen chunks and gen-0 text, filtered, and packed as feature
//! lists.

use crate::datagen::format::{decode_chunk, FormatError, Sample};
use crate::nnue::active_features;
use crate::position::{CastlingRights, Position};
use crate::search::tt::MATE_BOUND;
use crate::types::{Color, Square};
use std::fmt;
use std::path::{Path, PathBuf};

/// Text positions before this move number are skipped (the random opening moves).
const MIN_TEXT_MOVE: u16 = 5;

/// One training position: its pieces as White-perspective features, the side to move, the
/// search score (side to move, centipawns) and the game result (side to move: 0, 1, 2 halves).
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub features: [u16; 32],
    pub len: u8,
    pub white_to_move: bool,
    pub score: i16,
    pub result_halves: u8,
    /// No castling rights: the left-right mirror is the same position for the net.
    pub mirrorable: bool,
    /// Per colour (`Color` index): its king's square (what its perspective sees depends on it in
    /// a king-mirrored or king-bucketed net).
    pub kings: [Square; 2],
}

impl Entry {
    /// The entry for `pos` with `score` (side to move) and White's result in halves (0, 1, 2).
    pub fn new(pos: &Position, score: i16, white_result_halves: u8) -> Entry {
        let mut entry = Entry {
            features: [0; 32],
            len: 0,
            white_to_move: true,
            score,
            result_halves: 0,
            mirrorable: pos.castling_rights() == CastlingRights::NONE,
            kings: Color::ALL.map(|color| pos.king_square(color)),
        };
        for feature in active_features(pos) {
            entry.features[usize::from(entry.len)] = feature;
            entry.len += 1;
        }
        entry.white_to_move = pos.side_to_move() == Color::White;
        entry.result_halves = if entry.white_to_move { white_result_halves } else { 2 - white_result_halves };
        entry
    }

    /// The same entry with the board mirrored left to right (a feature's file is its low 3 bits).
    pub fn mirrored(&self) -> Entry {
        let mut mirrored = *self;
        mirrored.features.iter_mut().for_each(|f| *f ^= 7);
        mirrored.kings = self.kings.map(|king| Square::from_index(king as u8 ^ 7));
        mirrored
    }

    /// The pieces, as White-perspective features.
    pub fn features(&self) -> &[u16] {
        &self.features[..usize::from(self.len)]
    }
}

/// Why the data could not be read.
#[derive(Debug)]
pub enum LoadError {
    Io(PathBuf, std::io::Error),
    Chunk(PathBuf, FormatError),
    Text(PathBuf, usize, String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            LoadError::Chunk(path, e) => write!(f, "{}: {e}", path.display()),
            LoadError::Text(path, line, why) => write!(f, "{}:{line}: {why}", path.display()),
        }
    }
}

/// Every trainable position in `paths`: directories of datagen chunks or text files. With
/// `mirror`, each position without castling rights is added a second time with the board
/// mirrored left to right (files a-h swapped), which changes nothing the net can see but the
/// files.
pub fn load(paths: &[PathBuf], mirror: bool) -> Result<Vec<Entry>, LoadError> {
    let mut entries = Vec::new();
    load_all(paths, &mut entries)?;
    if mirror {
        let mirrored: Vec<Entry> = entries.iter().filter(|e| e.mirrorable).map(Entry::mirrored).collect();
        entries.extend(mirrored);
    }
    Ok(entries)
}

fn load_all(paths: &[PathBuf], entries: &mut Vec<Entry>) -> Result<(), LoadError> {
    for path in paths {
        if path.is_dir() {
            let mut chunks: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| LoadError::Io(path.clone(), e))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "bin"))
                .collect();
            chunks.sort();
            for chunk in chunks {
                load_chunk(&chunk, entries)?;
            }
        } else {
            load_text(path, entries)?;
        }
    }
    Ok(())
}

fn load_chunk(path: &Path, entries: &mut Vec<Entry>) -> Result<(), LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError::Io(path.to_path_buf(), e))?;
    let (_, games) = decode_chunk(&bytes).map_err(|e| LoadError::Chunk(path.to_path_buf(), e))?;
    for game in games {
        let white_halves = (game.result.white_score() * 2.0) as u8;
        let samples = game.samples().map_err(|e| LoadError::Chunk(path.to_path_buf(), e))?;
        entries.extend(
            samples.iter().filter(|s| Sample::is_trainable(s)).map(|s| Entry::new(&s.position, s.score, white_halves)),
        );
    }
    Ok(())
}

/// `FEN | score | bestmove | result` lines (the gen-0 format).
fn load_text(path: &Path, entries: &mut Vec<Entry>) -> Result<(), LoadError> {
    let text = std::fs::read_to_string(path).map_err(|e| LoadError::Io(path.to_path_buf(), e))?;
    for (number, line) in text.lines().enumerate() {
        let bad = |why: &str| LoadError::Text(path.to_path_buf(), number + 1, why.to_string());
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [fen, score, best, result] = fields[..] else {
            return Err(bad("expected `FEN | score | bestmove | result`"));
        };
        let pos = Position::from_fen(fen).map_err(|e| bad(&format!("bad FEN: {e}")))?;
        let score: i16 = score.parse().map_err(|_| bad("bad score"))?;
        let white_halves = match result {
            "1.0" | "1" => 2,
            "0.5" => 1,
            "0.0" | "0" => 0,
            _ => return Err(bad("result must be 1.0, 0.5 or 0.0")),
        };
        let best = crate::uci::parse_move(&pos, best, false).ok_or_else(|| bad("best move not legal"))?;
        let trainable = pos.fullmove_number() >= MIN_TEXT_MOVE
            && !pos.is_check()
            && !best.is_noisy()
            && i32::from(score).abs() < MATE_BOUND;
        if trainable {
            entries.push(Entry::new(&pos, score, white_halves));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mirrored_entry_is_the_mirrored_board() {
        let entry = |fen: &str| Entry::new(&Position::from_fen(fen).unwrap_or_else(|e| unreachable!("{e}")), 35, 2);
        let original = entry("4k3/8/8/3n4/8/8/1P6/4K2R b - - 0 1");
        let by_hand = entry("3k4/8/8/4n3/8/8/6P1/R2K4 b - - 0 1");
        let mut mirrored = original.mirrored().features().to_vec();
        let mut expected = by_hand.features().to_vec();
        mirrored.sort_unstable();
        expected.sort_unstable();
        assert_eq!(mirrored, expected);
        assert_eq!(original.kings, [Square::E1, Square::E8]);
        assert_eq!(original.mirrored().kings, by_hand.kings);
        assert!(original.mirrorable);
        assert!(!entry(crate::position::START_FEN).mirrorable);
        assert_eq!((original.score, original.result_halves, original.white_to_move), (35, 0, false));
    }
}
