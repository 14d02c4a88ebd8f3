//! Syzygy endgame tablebases behind a small safe API: the search asks for a position's WDL
//! (win / draw / loss) or DTZ (distance to the next capture or pawn move) and never sees a file
//! format.
//!
//! - `Tablebases::open` scans the directories for `.rtbw` / `.rtbz` files (only what is really on
//!   disk counts), checks each one's size and magic bytes, and registers the table under both
//!   colourings of its material.
//! - A table's file is memory-mapped read-only and its header parsed on its first probe
//!   (`OnceLock`, so any number of search threads may probe at once; the first waits for the
//!   header only, never for a whole file). The file stays on disk: a probe faults in the few pages
//!   it reads, which are file-backed, shared with every process mapping the file and dropped by
//!   the kernel when memory is short, so private memory does not grow with the tables (6-7 piece
//!   sets included). A file that fails to parse is reported once through `take_warnings` and
//!   treated as missing, so the search falls back to searching.
//! - Every read from a map is bounds checked, so a corrupt table cannot crash the engine (it gives
//!   an error or, at worst, a wrong value); the one `unsafe` (the mapping) is in `table.rs`.

mod encoding;
mod probe;
mod table;

use encoding::Shape;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use table::{Kind, TableFile};

use crate::position::Position;
use crate::types::{Color, Piece};

pub use encoding::MAX_PIECES;

/// A tablebase result for the side to move. The "cursed" and "blessed" results are wins and losses
/// that the fifty-move rule turns into draws.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Wdl {
    Loss,
    BlessedLoss,
    Draw,
    CursedWin,
    Win,
}

impl Wdl {
    /// From the tables' numbering, -2 (loss) to 2 (win).
    fn from_i32(v: i32) -> Option<Wdl> {
        Some(match v {
            -2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            2 => Wdl::Win,
            _ => return None,
        })
    }

    /// -2 (loss) to 2 (win).
    pub fn to_i32(self) -> i32 {
        self as i32 - 2
    }

    /// The result for the other side.
    pub fn negate(self) -> Wdl {
        Wdl::from_i32(-self.to_i32()).unwrap_or(Wdl::Draw)
    }

    /// The name printed by `springer probe`.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed-loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed-win",
            Wdl::Win => "win",
        }
    }
}

/// The count of each piece kind per colour, four bits each: equal for positions of one table.
pub(crate) fn material_key(counts: &[[u8; 6]; 2]) -> u64 {
    let mut key = 0;
    for (color, row) in counts.iter().enumerate() {
        for (piece, &n) in row.iter().enumerate() {
            key |= (n as u64 & 0xF) << (4 * (6 * color + piece));
        }
    }
    key
}

fn position_counts(pos: &Position) -> [[u8; 6]; 2] {
    let mut counts = [[0u8; 6]; 2];
    for color in Color::ALL {
        for piece in Piece::ALL {
            counts[color.index()][piece.index()] = pos.pieces(color, piece).count() as u8;
        }
    }
    counts
}

/// One table: the material of its file name and its two files, mapped on first use.
struct Entry {
    shape: Shape,
    /// The material key with the named (stronger) side as White, and with the colours swapped.
    key: u64,
    key2: u64,
    wdl_path: PathBuf,
    dtz_path: Option<PathBuf>,
    wdl: OnceLock<Option<TableFile>>,
    dtz: OnceLock<Option<TableFile>>,
}

impl Entry {
    fn symmetric(&self) -> bool {
        self.key == self.key2
    }
}

struct Registry {
    tables: HashMap<u64, Arc<Entry>>,
    max_pieces: usize,
    wdl_files: usize,
    dtz_files: usize,
    warnings: Mutex<Vec<String>>,
}

/// A handle to a set of opened tables: cheap to clone, shared by every search thread.
#[derive(Clone)]
pub struct Tablebases(Arc<Registry>);

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebases({})", self.summary())
    }
}

/// The separator of several directories in `SyzygyPath`.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// Parses a table name such as `KRBvKR` into the piece counts of its two sides.
fn parse_name(name: &str) -> Option<[[u8; 6]; 2]> {
    let (white, black) = name.split_once('v')?;
    let mut counts = [[0u8; 6]; 2];
    for (side, letters) in [white, black].iter().enumerate() {
        if !letters.starts_with('K') {
            return None;
        }
        for c in letters.chars() {
            let (piece, _) = Piece::from_fen_char(c).filter(|_| c.is_ascii_uppercase())?;
            counts[side][piece.index()] += 1;
        }
        if counts[side][Piece::King.index()] != 1 {
            return None;
        }
    }
    let total: usize = counts.iter().flatten().map(|&n| n as usize).sum();
    (3..=MAX_PIECES).contains(&total).then_some(counts)
}

fn shape_of(counts: &[[u8; 6]; 2]) -> Shape {
    let pawns = [counts[0][Piece::Pawn.index()], counts[1][Piece::Pawn.index()]];
    // The side with pawns (the one with fewer, if both have them) leads: it compresses better.
    let white_leads = pawns[1] == 0 || (pawns[0] > 0 && pawns[1] >= pawns[0]);
    let pawn_count = if white_leads { pawns } else { [pawns[1], pawns[0]] };
    let unique = counts.iter().any(|row| row[..Piece::King.index()].contains(&1));
    Shape {
        piece_count: counts.iter().flatten().map(|&n| n as usize).sum(),
        has_pawns: pawns[0] + pawns[1] > 0,
        has_unique_pieces: unique,
        pawn_count,
    }
}

/// Checks what can be checked without parsing: the size (Syzygy files are 16 bytes past a
/// multiple of 64) and the magic bytes.
fn check_file(path: &Path, kind: Kind) -> Result<(), String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.len() % 64 != 16 {
        return Err(format!("size {} is not that of a Syzygy file (truncated?)", meta.len()));
    }
    let mut magic = [0u8; 4];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).map_err(|e| e.to_string())?;
    if magic != kind.magic() {
        return Err("bad magic bytes".to_string());
    }
    Ok(())
}

impl Tablebases {
    /// Opens every table found in `paths` (directories separated by `PATH_SEPARATOR`). Returns the
    /// tables (none if not one was found) and the problems met on the way, each a line for the user.
    pub fn open(paths: &str) -> (Option<Tablebases>, Vec<String>) {
        let mut problems = Vec::new();
        let mut found: HashMap<String, (PathBuf, Option<PathBuf>)> = HashMap::new();
        let mut dtz_found: HashMap<String, PathBuf> = HashMap::new();
        for dir in paths.split(PATH_SEPARATOR).map(str::trim).filter(|d| !d.is_empty()) {
            let listing = match std::fs::read_dir(dir) {
                Ok(listing) => listing,
                Err(e) => {
                    problems.push(format!("cannot read Syzygy directory {dir}: {e}"));
                    continue;
                }
            };
            let mut in_dir = 0;
            for item in listing.flatten() {
                let path = item.path();
                let Some(file_name) = path.file_name().and_then(|n| n.to_str()) else { continue };
                let Some((name, ext)) = file_name.rsplit_once('.') else { continue };
                let kind = match ext {
                    "rtbw" => Kind::Wdl,
                    "rtbz" => Kind::Dtz,
                    _ => continue,
                };
                if parse_name(name).is_none() {
                    problems.push(format!("skipped {}: not a table name", path.display()));
                    continue;
                }
                if let Err(e) = check_file(&path, kind) {
                    problems.push(format!("skipped {}: {e}", path.display()));
                    continue;
                }
                in_dir += 1;
                match kind {
                    Kind::Wdl => {
                        found.entry(name.to_string()).or_insert((path, None));
                    }
                    Kind::Dtz => {
                        dtz_found.entry(name.to_string()).or_insert(path);
                    }
                }
            }
            if in_dir == 0 {
                problems.push(format!("no Syzygy tables in {dir}"));
            }
        }
        // A DTZ file counts only beside its WDL file (the one the tables are opened by).
        let dtz_files = dtz_found.keys().filter(|name| found.contains_key(*name)).count();
        for (name, dtz) in dtz_found {
            if let Some(entry) = found.get_mut(&name) {
                entry.1 = Some(dtz);
            }
        }

        let mut tables = HashMap::new();
        let mut max_pieces = 0;
        for (name, (wdl_path, dtz_path)) in &found {
            let counts = parse_name(name).expect("checked while scanning");
            let shape = shape_of(&counts);
            max_pieces = max_pieces.max(shape.piece_count);
            let key = material_key(&counts);
            let key2 = material_key(&[counts[1], counts[0]]);
            let entry = Arc::new(Entry {
                shape,
                key,
                key2,
                wdl_path: wdl_path.clone(),
                dtz_path: dtz_path.clone(),
                wdl: OnceLock::new(),
                dtz: OnceLock::new(),
            });
            tables.insert(key, Arc::clone(&entry));
            tables.insert(key2, entry);
        }
        if found.is_empty() {
            return (None, problems);
        }
        let registry =
            Registry { tables, max_pieces, wdl_files: found.len(), dtz_files, warnings: Mutex::new(Vec::new()) };
        (Some(Tablebases(Arc::new(registry))), problems)
    }

    /// The largest number of pieces (kings included) of a table found.
    pub fn max_pieces(&self) -> usize {
        self.0.max_pieces
    }

    /// `found N WDL and M DTZ tables, up to K pieces`.
    pub fn summary(&self) -> String {
        format!(
            "found {} WDL and {} DTZ tables, up to {} pieces",
            self.0.wdl_files, self.0.dtz_files, self.0.max_pieces
        )
    }

    /// Problems met while loading tables since the last call (a corrupt file, say), for the user.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.warnings.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The table holding `pos`'s material, if one was found.
    fn entry(&self, pos: &Position) -> Option<&Arc<Entry>> {
        self.0.tables.get(&material_key(&position_counts(pos)))
    }

    /// The parsed file of `kind` of `entry`, loading it on first use.
    fn file<'a>(&self, entry: &'a Entry, kind: Kind) -> Option<&'a TableFile> {
        let (cell, path) = match kind {
            Kind::Wdl => (&entry.wdl, Some(&entry.wdl_path)),
            Kind::Dtz => (&entry.dtz, entry.dtz_path.as_ref()),
        };
        cell.get_or_init(|| {
            let path = path?;
            match TableFile::open(path, kind, &entry.shape, entry.symmetric()) {
                Ok(file) => Some(file),
                Err(e) => {
                    let message = format!("Syzygy table {} unusable: {e}", path.display());
                    self.0.warnings.lock().unwrap_or_else(|e| e.into_inner()).push(message);
                    None
                }
            }
        })
        .as_ref()
    }
}

#[cfg(test)]
mod tests;
