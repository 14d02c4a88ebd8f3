//! Perft spread over many machines: `perft-split` writes the distinct positions some plies below
//! the root as work units (each with its multiplicity and the depth left), `perft-unit` counts
//! units anywhere and prints one checked result line per unit, and `perft-merge` checks that
//! every unit came back exactly once before it sums them.
//!
//! The units file is text: a header (`springer-perft-units 1`, `variant`, `root`, `depth`,
//! `plies`), one line `unit <index> <multiplicity> <depth left> <FEN>` per unit, and a last line
//! `checksum <hex>`: FNV-1a 64 of every line before it. A result line is `result <units checksum>
//! <index> <count> <check>`, the check being FNV-1a 64 of the line's other fields, so a result
//! from another split, a mangled line or a wrong index is refused by name.

use super::{legal_moves, perft_hashed_parallel, PerftTable};
use crate::position::{Position, Variant};
use crate::threads::WorkerPool;
use std::collections::HashMap;
use std::fmt;

const HEADER: &str = "springer-perft-units 1";

/// One work unit: a position, how many move orders reach it, and the plies still to count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub fen: String,
    pub multiplicity: u64,
    pub depth: u32,
}

/// A split: the root, the total depth, the plies split off and the units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    pub variant: Variant,
    pub root: String,
    pub depth: u32,
    pub plies: u32,
    pub units: Vec<Unit>,
}

/// Why a units file, a result or a merge was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitError(pub String);

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SplitError {}

fn error(message: impl Into<String>) -> SplitError {
    SplitError(message.into())
}

/// FNV-1a 64.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A FEN without what cannot change a perft count (the move counters, and an en-passant square
/// no legal move captures on), so that transpositions differing only in them are one unit.
fn board_fen(pos: &Position) -> String {
    let fen = pos.to_fen();
    let mut fields: Vec<&str> = fen.split_whitespace().take(4).collect();
    if pos.en_passant().is_some() && !legal_moves(pos).iter().any(|mv| mv.is_en_passant()) {
        fields[3] = "-";
    }
    format!("{} 0 1", fields.join(" "))
}

impl Split {
    /// The distinct positions `plies` plies below `root`, to be counted `depth - plies` deep.
    pub fn new(root: &Position, variant: Variant, depth: u32, plies: u32) -> Result<Split, SplitError> {
        if plies == 0 || plies > depth {
            return Err(error(format!("--plies must be within 1..={depth} (the depth)")));
        }
        let mut frontier: HashMap<String, (Position, u64)> = HashMap::from([(board_fen(root), (root.clone(), 1))]);
        for _ in 0..plies {
            let mut next: HashMap<String, (Position, u64)> = HashMap::new();
            for (pos, multiplicity) in frontier.into_values() {
                for &mv in legal_moves(&pos).iter() {
                    let child = pos.after(mv);
                    next.entry(board_fen(&child)).or_insert((child, 0)).1 += multiplicity;
                }
            }
            frontier = next;
        }
        let mut units: Vec<Unit> = frontier
            .into_iter()
            .map(|(fen, (_, multiplicity))| Unit { fen, multiplicity, depth: depth - plies })
            .collect();
        units.sort_by(|a, b| a.fen.cmp(&b.fen));
        Ok(Split { variant, root: root.to_fen(), depth, plies, units })
    }

    /// The units file's text.
    pub fn to_text(&self) -> String {
        let variant = if self.variant == Variant::Chess960 { "chess960" } else { "standard" };
        let mut text =
            format!("{HEADER}\nvariant {variant}\nroot {}\ndepth {}\nplies {}\n", self.root, self.depth, self.plies);
        for (index, unit) in self.units.iter().enumerate() {
            text.push_str(&format!("unit {index} {} {} {}\n", unit.multiplicity, unit.depth, unit.fen));
        }
        let checksum = fnv(&text);
        text.push_str(&format!("checksum {checksum:016x}\n"));
        text
    }

    /// Reads a units file, checking its checksum and every FEN.
    pub fn parse(text: &str) -> Result<(Split, u64), SplitError> {
        let body_end = text.rfind("checksum ").ok_or_else(|| error("no checksum line: not a whole units file"))?;
        let (body, last) = text.split_at(body_end);
        let stated = u64::from_str_radix(last.trim().trim_start_matches("checksum ").trim(), 16)
            .map_err(|_| error("the checksum line is not a hex number"))?;
        if fnv(body) != stated {
            return Err(error("the units file's checksum does not match: the file was changed or cut short"));
        }
        let mut lines = body.lines();
        if lines.next() != Some(HEADER) {
            return Err(error(format!("not a units file (the first line is not '{HEADER}')")));
        }
        let mut field = |name: &str| -> Result<String, SplitError> {
            lines
                .next()
                .and_then(|l| l.strip_prefix(name))
                .map(|v| v.trim().to_string())
                .ok_or_else(|| error(format!("missing '{name}' line")))
        };
        let variant = match field("variant")?.as_str() {
            "standard" => Variant::Standard,
            "chess960" => Variant::Chess960,
            other => return Err(error(format!("unknown variant '{other}'"))),
        };
        let root = field("root")?;
        let depth = field("depth")?.parse().map_err(|_| error("bad depth"))?;
        let plies = field("plies")?.parse().map_err(|_| error("bad plies"))?;
        let mut units = Vec::new();
        for line in lines {
            let parts: Vec<&str> = line.splitn(5, ' ').collect();
            let parsed = match parts[..] {
                ["unit", index, multiplicity, depth, fen] => index
                    .parse::<usize>()
                    .ok()
                    .filter(|&i| i == units.len())
                    .and(multiplicity.parse().ok())
                    .zip(depth.parse().ok())
                    .map(|(multiplicity, depth)| Unit { fen: fen.to_string(), multiplicity, depth }),
                _ => None,
            };
            let unit = parsed.ok_or_else(|| error(format!("bad unit line '{line}'")))?;
            Position::parse_fen(&unit.fen, variant).map_err(|e| error(format!("unit {}: {e}", units.len())))?;
            units.push(unit);
        }
        Ok((Split { variant, root, depth, plies, units }, stated))
    }
}

/// The result line of unit `index` of the units file with checksum `units`.
pub fn result_line(units: u64, index: usize, count: u64) -> String {
    let fields = format!("{units:016x} {index} {count}");
    format!("result {fields} {:016x}", fnv(&fields))
}

/// Counts unit `index` of `split` (with a `hash_mb` table on the pool's threads).
pub fn run_unit(split: &Split, index: usize, table: &PerftTable, pool: &WorkerPool) -> Result<u64, SplitError> {
    let unit = split
        .units
        .get(index)
        .ok_or_else(|| error(format!("no unit {index}: the file has units 0..{}", split.units.len())))?;
    let pos = Position::parse_fen(&unit.fen, split.variant).map_err(|e| error(e.to_string()))?.position;
    Ok(perft_hashed_parallel(&pos, unit.depth, table, pool))
}

/// Sums the result lines in `results` for the units file with checksum `units`: an error names
/// every unit missing or repeated, and any line that is not a valid result of this split.
pub fn merge(split: &Split, units: u64, results: &str) -> Result<u64, SplitError> {
    let mut counts: Vec<Vec<u64>> = vec![Vec::new(); split.units.len()];
    let mut problems = Vec::new();
    for (number, line) in results.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let parsed = match parts[..] {
            ["result", checksum, index, count, check] => {
                let fields = format!("{checksum} {index} {count}");
                let valid = u64::from_str_radix(check, 16).ok() == Some(fnv(&fields));
                let ours = u64::from_str_radix(checksum, 16).ok() == Some(units);
                match (valid, ours, index.parse::<usize>(), count.parse::<u64>()) {
                    (false, ..) => Err("its check does not match (a changed line)"),
                    (true, false, ..) => Err("it belongs to another units file"),
                    (true, true, Ok(i), Ok(c)) if i < counts.len() => Ok((i, c)),
                    _ => Err("its unit index is not in this file"),
                }
            }
            _ => Err("not a result line"),
        };
        match parsed {
            Ok((index, count)) => counts[index].push(count),
            Err(why) => problems.push(format!("result line {}: {why}", number + 1)),
        }
    }
    for (index, found) in counts.iter().enumerate() {
        match found.len() {
            1 => {}
            0 => problems.push(format!("unit {index} is missing ({})", split.units[index].fen)),
            n => problems.push(format!("unit {index} came back {n} times ({})", split.units[index].fen)),
        }
    }
    if !problems.is_empty() {
        let shown = problems.len().min(20);
        let more =
            if problems.len() > shown { format!("\n... and {} more", problems.len() - shown) } else { String::new() };
        return Err(error(format!("{}{more}", problems[..shown].join("\n"))));
    }
    Ok(split.units.iter().zip(&counts).map(|(unit, found)| unit.multiplicity * found[0]).sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;

    fn kiwipete() -> Position {
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap_or_else(|e| unreachable!("{e}"))
    }

    #[test]
    fn split_units_merge_to_the_plain_count() {
        let pool = WorkerPool::new(1).unwrap_or_else(|e| unreachable!("{e}"));
        let table = PerftTable::new(4);
        let root = Position::startpos();
        let split = Split::new(&root, Variant::Standard, 5, 3).unwrap_or_else(|e| unreachable!("{e}"));
        // 8,902 move orders reach 5,362 distinct positions three plies deep.
        assert_eq!(split.units.iter().map(|u| u.multiplicity).sum::<u64>(), 8_902);
        assert_eq!(split.units.len(), 5_362);
        let text = split.to_text();
        let (read, checksum) = Split::parse(&text).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(read, split);
        let results: String = (0..read.units.len())
            .map(|i| result_line(checksum, i, run_unit(&read, i, &table, &pool).unwrap_or(0)) + "\n")
            .collect();
        assert_eq!(merge(&read, checksum, &results), Ok(perft(&root, 5)));
    }

    #[test]
    fn lost_repeated_and_foreign_results_are_named() {
        let split = Split::new(&kiwipete(), Variant::Standard, 3, 1).unwrap_or_else(|e| unreachable!("{e}"));
        let (_, checksum) = Split::parse(&split.to_text()).unwrap_or_else(|e| unreachable!("{e}"));
        let lines: Vec<String> = (0..split.units.len()).map(|i| result_line(checksum, i, 5)).collect();
        let all = lines.join("\n");
        assert_eq!(merge(&split, checksum, &all), Ok(5 * 48));
        let without_7: Vec<&str> = lines.iter().enumerate().filter(|(i, _)| *i != 7).map(|(_, l)| l.as_str()).collect();
        let lost = merge(&split, checksum, &without_7.join("\n")).unwrap_err().0;
        assert!(lost.contains("unit 7 is missing"), "{lost}");
        let repeated = merge(&split, checksum, &format!("{all}\n{}", lines[3])).unwrap_err().0;
        assert!(repeated.contains("unit 3 came back 2 times"), "{repeated}");
        let changed = all.replacen(" 5 ", " 6 ", 1);
        assert!(merge(&split, checksum, &changed).unwrap_err().0.contains("check does not match"));
        let foreign = result_line(checksum ^ 1, 0, 5);
        assert!(merge(&split, checksum, &format!("{all}\n{foreign}")).unwrap_err().0.contains("another units file"));
    }

    #[test]
    fn a_changed_or_cut_units_file_is_refused() {
        let text = Split::new(&kiwipete(), Variant::Standard, 3, 1).unwrap_or_else(|e| unreachable!("{e}")).to_text();
        assert!(Split::parse(&text[..text.len() / 2]).is_err());
        assert!(Split::parse(&text.replacen("unit 0 1 2", "unit 0 2 2", 1)).unwrap_err().0.contains("checksum"));
        assert!(Split::new(&kiwipete(), Variant::Standard, 3, 4).is_err());
    }
}
