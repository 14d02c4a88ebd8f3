//! The datagen chunk format: games stored whole (start FEN, then 4 bytes per move), so a
//! position costs about four bytes and the trainer replays the moves to recover each board.
//!
//! A chunk file (`chunk-NNNNNN.bin`), every number little-endian:
//! - header: `SPRGDAT1` (8 bytes), the number of the first game (u64), the game count (u32);
//! - each game: FEN length (u8), the start FEN (ASCII; Shredder-FEN castling when Chess960),
//!   variant (u8: 0 standard, 1 Chess960), result (u8: 0 Black won, 1 draw, 2 White won), move
//!   count (u16), then per move the move (u16, Springer's `Move::bits`) and the search score
//!   before it (i16, centipawns for the side to move; mates as +-32000 less the plies to mate).

use crate::position::{Position, Variant};
use crate::types::Move;
use std::fmt;

/// The first eight bytes of every chunk file.
pub const MAGIC: &[u8; 8] = b"SPRGDAT1";

/// How a game ended, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWon,
    Draw,
    WhiteWon,
}

impl GameResult {
    fn byte(self) -> u8 {
        match self {
            GameResult::BlackWon => 0,
            GameResult::Draw => 1,
            GameResult::WhiteWon => 2,
        }
    }

    fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::BlackWon),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWon),
            _ => None,
        }
    }

    /// The result as White's score: 0, 0.5 or 1.
    pub fn white_score(self) -> f32 {
        f32::from(self.byte()) / 2.0
    }
}

/// One self-play game: the start position, each move with the score the search gave before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub start_fen: String,
    pub variant: Variant,
    pub result: GameResult,
    /// (move played, its search score for the side to move).
    pub moves: Vec<(Move, i16)>,
}

/// A scored position taken from a game, with the game's result.
#[derive(Clone, Debug)]
pub struct Sample {
    pub position: Position,
    /// The search score for the side to move, centipawns.
    pub score: i16,
    /// The move the search chose.
    pub best: Move,
    pub result: GameResult,
    /// Plies since the start position.
    pub ply: usize,
}

/// The trainer's filters: positions searched from this ply of a record on (the random opening
/// moves are not stored, so this skips the first searched plies too)...
pub const MIN_TRAINING_PLY: usize = 8;

impl Sample {
    /// ...and only quiet positions with a real score: not in check, a best move that is neither a
    /// capture nor a promotion (a tactical position's eval is not its score), no mate score.
    pub fn is_trainable(&self) -> bool {
        self.ply >= MIN_TRAINING_PLY
            && !self.position.is_check()
            && !self.best.is_noisy()
            && i32::from(self.score).abs() < crate::search::tt::MATE_BOUND
    }
}

impl GameRecord {
    /// Appends the game in the chunk format.
    pub fn write(&self, out: &mut Vec<u8>) {
        let fen = self.start_fen.as_bytes();
        out.push(fen.len() as u8);
        out.extend_from_slice(fen);
        out.push(u8::from(self.variant == Variant::Chess960));
        out.push(self.result.byte());
        out.extend_from_slice(&(self.moves.len() as u16).to_le_bytes());
        for &(mv, score) in &self.moves {
            out.extend_from_slice(&mv.bits().to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
    }

    /// Every position of the game with its score and the game's result, replaying the moves;
    /// an error if a move is not legal where it is played (a corrupt file).
    pub fn samples(&self) -> Result<Vec<Sample>, FormatError> {
        let parsed =
            Position::parse_fen(&self.start_fen, self.variant).map_err(|_| FormatError::BadGame("start FEN"))?;
        let mut position = parsed.position;
        let mut samples = Vec::with_capacity(self.moves.len());
        for (ply, &(best, score)) in self.moves.iter().enumerate() {
            if !crate::movegen::is_legal_move(&position, best) {
                return Err(FormatError::BadGame("a move that is not legal in its position"));
            }
            samples.push(Sample { position: position.clone(), score, best, result: self.result, ply });
            position.make_move(best);
        }
        Ok(samples)
    }
}

/// Why a chunk could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Not a chunk file (wrong magic).
    NotAChunk,
    /// The file ends inside a record.
    Truncated,
    /// A game record is malformed.
    BadGame(&'static str),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::NotAChunk => write!(f, "not a Springer datagen chunk (no SPRGDAT1 header)"),
            FormatError::Truncated => write!(f, "the chunk ends inside a record (truncated)"),
            FormatError::BadGame(what) => write!(f, "a game record is malformed: {what}"),
        }
    }
}

impl std::error::Error for FormatError {}

/// A chunk's header: the first game's number and the game count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkHeader {
    pub first_game: u64,
    pub games: u32,
}

/// A chunk file's bytes: the header, then the games.
pub fn encode_chunk(header: ChunkHeader, games: &[GameRecord]) -> Vec<u8> {
    let mut out = Vec::with_capacity(20 + games.iter().map(|g| 64 + 4 * g.moves.len()).sum::<usize>());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&header.first_game.to_le_bytes());
    out.extend_from_slice(&header.games.to_le_bytes());
    for game in games {
        game.write(&mut out);
    }
    out
}

/// Reads bytes off the front of a chunk.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        if self.bytes.len() < n {
            return Err(FormatError::Truncated);
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, FormatError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, FormatError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
}

/// The header of a chunk (read without the games, for resuming).
pub fn decode_header(bytes: &[u8]) -> Result<ChunkHeader, FormatError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(FormatError::NotAChunk);
    }
    let rest = &bytes[MAGIC.len()..];
    if rest.len() < 12 {
        return Err(FormatError::Truncated);
    }
    let mut first = [0u8; 8];
    first.copy_from_slice(&rest[..8]);
    let mut games = [0u8; 4];
    games.copy_from_slice(&rest[8..12]);
    Ok(ChunkHeader { first_game: u64::from_le_bytes(first), games: u32::from_le_bytes(games) })
}

/// The header and games of a chunk.
pub fn decode_chunk(bytes: &[u8]) -> Result<(ChunkHeader, Vec<GameRecord>), FormatError> {
    let header = decode_header(bytes)?;
    let mut reader = Reader { bytes: &bytes[MAGIC.len() + 12..] };
    let mut games = Vec::with_capacity(header.games as usize);
    for _ in 0..header.games {
        let fen_len = reader.u8()? as usize;
        let start_fen = std::str::from_utf8(reader.take(fen_len)?)
            .map_err(|_| FormatError::BadGame("start FEN is not text"))?
            .to_string();
        let variant = match reader.u8()? {
            0 => Variant::Standard,
            1 => Variant::Chess960,
            _ => return Err(FormatError::BadGame("variant")),
        };
        let result = GameResult::from_byte(reader.u8()?).ok_or(FormatError::BadGame("result"))?;
        let count = reader.u16()? as usize;
        let mut moves = Vec::with_capacity(count);
        for _ in 0..count {
            let mv = Move::from_bits(reader.u16()?);
            let score = reader.u16()? as i16;
            moves.push((mv, score));
        }
        games.push(GameRecord { start_fen, variant, result, moves });
    }
    if !reader.bytes.is_empty() {
        return Err(FormatError::BadGame("bytes after the last game"));
    }
    Ok((header, games))
}
