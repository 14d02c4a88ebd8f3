//! One Syzygy file (`.rtbw` or `.rtbz`) memory-mapped read-only: its header parsed into sub-tables
//! (one per side to move and, with pawns, per leading-pawn file a-d) holding offsets into the map,
//! and the value at an index decompressed from its blocks. Only the pages a probe reads are loaded.
//!
//! Values are stored Huffman-coded after "recursive pairing": each symbol stands for a run of
//! values, found by walking a binary tree of symbol pairs. Every read from the map is bounds
//! checked, so a truncated or corrupt file gives an error or a wrong value, never a crash.

use super::encoding::{Groups, Shape, MAX_PIECES};
use memmap2::{Mmap, MmapOptions};
use std::path::Path;

/// Which of the two files of a table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Wdl,
    Dtz,
}

impl Kind {
    pub fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => [0x71, 0xE8, 0x23, 0x5D],
            Kind::Dtz => [0xD7, 0x66, 0x0C, 0xA5],
        }
    }
}

/// Sub-table flags (all but `SINGLE_VALUE` concern DTZ files).
mod flag {
    /// The DTZ sub-table stores Black to move.
    pub const STM: u8 = 1;
    /// DTZ values go through a per-result map.
    pub const MAPPED: u8 = 2;
    /// Win distances are stored in plies (else in moves).
    pub const WIN_PLIES: u8 = 4;
    /// Loss distances are stored in plies (else in moves).
    pub const LOSS_PLIES: u8 = 8;
    /// The DTZ map holds 16-bit values.
    pub const WIDE: u8 = 16;
    /// Every position of the sub-table has the same value.
    pub const SINGLE_VALUE: u8 = 128;
}

/// Symbols are 12 bits; a tree node's right child of `NO_CHILD` marks a leaf.
const NO_CHILD: u16 = 0xFFF;

/// The block size, span and Huffman code lengths a sane file can have.
const MAX_BLOCK_SHIFT: u8 = 24;
const MAX_SPAN_SHIFT: u8 = 32;
const MAX_SYMBOL_BITS: u8 = 32;

/// What went wrong reading a table file.
pub type ParseError = String;

/// One sub-table: its piece grouping and the coordinates of its compressed data in the file.
#[derive(Clone, Debug, Default)]
pub struct SubTable {
    pub groups: Groups,
    pub flags: u8,
    /// The value of every position when `SINGLE_VALUE` is set.
    single_value: u16,
    block_size: usize,
    span: u64,
    sparse_index: usize,
    sparse_len: u64,
    block_lengths: usize,
    block_lengths_len: u64,
    blocks: u64,
    data: usize,
    min_sym_len: u32,
    lowest_sym: usize,
    /// `base64[l]`: the lowest code of length `min_sym_len + l`, left-aligned in 64 bits.
    base64: Vec<u64>,
    /// Values (minus one) each symbol expands to.
    symlen: Vec<u32>,
    btree: usize,
    /// DTZ only: the byte offset of the first map value for win, loss, cursed win, blessed loss.
    pub map_start: [usize; 4],
}

/// A parsed table file: the map and, per sub-table, offsets into it (nothing of the file is copied
/// but what the header describes: code lengths and symbol runs, a few kilobytes).
#[derive(Debug)]
pub struct TableFile {
    map: Mmap,
    /// `[side][file]`; a symmetric WDL table or any DTZ table has one side, a pawnless one file.
    pub subs: Vec<Vec<SubTable>>,
}

/// Little-endian and big-endian reads that fail instead of reading past the end.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn u8(&self, at: usize) -> Result<u8, ParseError> {
        self.bytes.get(at).copied().ok_or_else(|| format!("truncated at byte {at}"))
    }

    fn u16_le(&self, at: usize) -> Result<u16, ParseError> {
        Ok(u16::from_le_bytes([self.u8(at)?, self.u8(at + 1)?]))
    }

    fn u32_le(&self, at: usize) -> Result<u32, ParseError> {
        Ok(u32::from_le_bytes([self.u8(at)?, self.u8(at + 1)?, self.u8(at + 2)?, self.u8(at + 3)?]))
    }
}

/// Reads `N` bytes at `at`, zero past the end of `bytes` (a block's last bits may be read ahead).
fn padded<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    let mut out = [0u8; N];
    if let Some(tail) = bytes.get(at..) {
        let n = tail.len().min(N);
        out[..n].copy_from_slice(&tail[..n]);
    }
    out
}

/// Maps `path` read-only.
fn map_file(path: &Path) -> Result<Mmap, ParseError> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    // SAFETY: `Mmap` hands out the file's bytes as a `&[u8]`, which Rust assumes never changes:
    // the map is read-only and private (`MAP_PRIVATE`, copy-on-write), so no write through it can
    // reach the file and this process never writes it (its pages stay the page cache's), but
    // another process could change or truncate the file while it is mapped (a truncated page then
    // faults). Replacing tables under a running engine is the user's error, as in every engine
    // that maps them (Stockfish, Fathom, shakmaty-syzygy). Nothing else is assumed of the bytes:
    // a corrupt table is parsed and probed with every read bounds checked against the map's length.
    let map = unsafe { MmapOptions::new().map_copy_read_only(&file) }.map_err(|e| e.to_string())?;
    // Probes read a few scattered bytes: reading ahead around each would only fill memory.
    #[cfg(unix)]
    let _ = map.advise(memmap2::Advice::Random);
    Ok(map)
}

impl TableFile {
    /// Maps the file at `path` and parses its header (touching only the header's pages). `shape`
    /// comes from the file name; the header must agree with it.
    pub fn open(path: &Path, kind: Kind, shape: &Shape, symmetric: bool) -> Result<TableFile, ParseError> {
        TableFile::parse(map_file(path)?, kind, shape, symmetric)
    }

    fn parse(map: Mmap, kind: Kind, shape: &Shape, symmetric: bool) -> Result<TableFile, ParseError> {
        let bytes = &map[..];
        if bytes.len() < 5 || bytes[..4] != kind.magic() {
            return Err("not a Syzygy file of this kind (bad magic bytes)".to_string());
        }
        let r = Reader { bytes };
        let header = r.u8(4)?;
        if (header & 2 != 0) != shape.has_pawns || (header & 1 != 0) == symmetric {
            return Err("the header does not match the table's name".to_string());
        }
        let sides = if kind == Kind::Wdl && !symmetric { 2 } else { 1 };
        let files = if shape.has_pawns { 4 } else { 1 };
        let both_pawns = shape.has_pawns && shape.pawn_count[1] > 0;

        // Piece order and grouping, per file and side.
        let mut pos = 5;
        let mut subs = vec![vec![SubTable::default(); files]; sides];
        for file in 0..files {
            let first = r.u8(pos)?;
            let second = if both_pawns { r.u8(pos + 1)? } else { 0xFF };
            let order = [[first & 0xF, second & 0xF], [first >> 4, second >> 4]];
            pos += 1 + both_pawns as usize;
            // One byte per piece: White to move's piece in the low nibble, Black to move's high.
            let bytes = (0..shape.piece_count).map(|k| r.u8(pos + k)).collect::<Result<Vec<u8>, _>>()?;
            let mut pieces = [[0u8; MAX_PIECES]; 2];
            for (k, byte) in bytes.into_iter().enumerate() {
                [pieces[0][k], pieces[1][k]] = [byte & 0xF, byte >> 4];
            }
            pos += shape.piece_count;
            for (side, sub) in subs.iter_mut().enumerate() {
                let groups = Groups::new(shape, pieces[side], order[side], file).ok_or("corrupt piece grouping")?;
                sub[file].groups = groups;
            }
        }
        pos += pos & 1;

        for file in 0..files {
            for sub in subs.iter_mut() {
                pos = sub[file].read_sizes(&r, pos)?;
            }
        }
        if kind == Kind::Dtz {
            pos = read_dtz_maps(&r, &mut subs[0], pos)?;
        }
        for file in 0..files {
            for sub in subs.iter_mut() {
                sub[file].sparse_index = pos;
                pos = pos.saturating_add(usize::try_from(sub[file].sparse_len.saturating_mul(6)).unwrap_or(usize::MAX));
            }
        }
        for file in 0..files {
            for sub in subs.iter_mut() {
                sub[file].block_lengths = pos;
                pos = pos.saturating_add(
                    usize::try_from(sub[file].block_lengths_len.saturating_mul(2)).unwrap_or(usize::MAX),
                );
            }
        }
        for file in 0..files {
            for sub in subs.iter_mut() {
                pos = pos.saturating_add(63) & !63;
                sub[file].data = pos;
                let size = sub[file].blocks.saturating_mul(sub[file].block_size as u64);
                pos = pos.saturating_add(usize::try_from(size).unwrap_or(usize::MAX));
            }
        }
        if pos > bytes.len() {
            return Err(format!("truncated: the header describes {pos} bytes, the file has {}", bytes.len()));
        }
        Ok(TableFile { map, subs })
    }

    /// The stored value at `idx` in `sub` (before any DTZ mapping); `None` if the data is corrupt.
    pub fn value(&self, sub: &SubTable, idx: u64) -> Option<u16> {
        if sub.flags & flag::SINGLE_VALUE != 0 {
            return Some(sub.single_value);
        }
        let bytes = &self.map[..];
        let le16 = |at: usize| Some(u16::from_le_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]));

        // The sparse index points near the block holding `idx`; walk block lengths from there.
        let k = idx / sub.span;
        if k >= sub.sparse_len {
            return None;
        }
        let entry = sub.sparse_index.checked_add(usize::try_from(k).ok()?.checked_mul(6)?)?;
        let mut block = u32::from_le_bytes(bytes.get(entry..entry + 4)?.try_into().ok()?) as u64;
        let mut offset = le16(entry + 4)? as i64 + (idx % sub.span) as i64 - (sub.span / 2) as i64;
        let block_len = |block: u64| -> Option<i64> {
            if block >= sub.block_lengths_len {
                return None;
            }
            Some(le16(sub.block_lengths + 2 * block as usize)? as i64 + 1)
        };
        while offset < 0 {
            block = block.checked_sub(1)?;
            offset += block_len(block)?;
        }
        while offset >= block_len(block)? {
            offset -= block_len(block)?;
            block += 1;
        }
        if block >= sub.blocks {
            return None;
        }

        // Decode symbols from the start of the block until the one covering `offset`.
        let mut at = sub.data + block as usize * sub.block_size;
        let mut buf = u64::from_be_bytes(padded::<8>(bytes, at));
        at += 8;
        let mut buf_bits: i64 = 64;
        let symlen = |sym: u16| sub.symlen.get(sym as usize).map(|&len| len as i64 + 1);
        let mut sym;
        let max_symbols = sub.block_size as u64 * 8;
        let mut decoded = 0u64;
        loop {
            let mut len = 0;
            while buf < *sub.base64.get(len)? {
                len += 1;
            }
            let code_bits = len as u32 + sub.min_sym_len;
            let rank = (buf - sub.base64[len]).checked_shr(64 - code_bits).unwrap_or(0);
            sym = (rank as u16).wrapping_add(le16(sub.lowest_sym + 2 * len)?);
            let run = symlen(sym)?;
            if offset < run {
                break;
            }
            offset -= run;
            decoded += 1;
            if decoded > max_symbols || code_bits == 0 || code_bits as i64 > buf_bits {
                return None;
            }
            buf = buf.checked_shl(code_bits).unwrap_or(0);
            buf_bits -= code_bits as i64;
            if buf_bits <= 32 {
                buf_bits += 32;
                buf |= (u32::from_be_bytes(padded::<4>(bytes, at)) as u64) << (64 - buf_bits);
                at += 4;
            }
        }

        // Expand the symbol's pair tree down to the single value at `offset`.
        for _ in 0..=sub.symlen.len() {
            if symlen(sym)? == 1 {
                return self.btree_left(sub, sym);
            }
            let left = self.btree_left(sub, sym)?;
            let left_run = symlen(left)?;
            if offset < left_run {
                sym = left;
            } else {
                offset -= left_run;
                sym = self.btree_right(sub, sym)?;
            }
        }
        None
    }

    fn btree_node(&self, sub: &SubTable, sym: u16) -> Option<[u8; 3]> {
        let at = sub.btree + 3 * sym as usize;
        self.map.get(at..at + 3)?.try_into().ok()
    }

    fn btree_left(&self, sub: &SubTable, sym: u16) -> Option<u16> {
        let [a, b, _] = self.btree_node(sub, sym)?;
        Some(((b as u16 & 0xF) << 8) | a as u16)
    }

    fn btree_right(&self, sub: &SubTable, sym: u16) -> Option<u16> {
        let [_, b, c] = self.btree_node(sub, sym)?;
        Some(((c as u16) << 4) | (b as u16 >> 4))
    }

    /// A DTZ value from a sub-table's map (`result`: 0 win, 1 loss, 2 cursed win, 3 blessed loss).
    pub fn mapped_dtz(&self, sub: &SubTable, result: usize, value: u16) -> Option<u16> {
        if sub.flags & flag::MAPPED == 0 {
            return Some(value);
        }
        let start = sub.map_start[result];
        if sub.flags & flag::WIDE != 0 {
            let at = start + 2 * value as usize;
            Some(u16::from_le_bytes(self.map.get(at..at + 2)?.try_into().ok()?))
        } else {
            self.map.get(start + value as usize).map(|&v| v as u16)
        }
    }
}

impl SubTable {
    /// Whether this DTZ sub-table stores the side `stm` (0 White, 1 Black) to move.
    pub fn stores_side(&self, stm: usize) -> bool {
        (self.flags & flag::STM) as usize == stm
    }

    /// Whether win (`win`) or loss distances are stored in plies rather than moves.
    pub fn in_plies(&self, win: bool) -> bool {
        self.flags & if win { flag::WIN_PLIES } else { flag::LOSS_PLIES } != 0
    }

    /// Reads the block and Huffman code description at `pos`; returns the position after it.
    fn read_sizes(&mut self, r: &Reader, mut pos: usize) -> Result<usize, ParseError> {
        self.flags = r.u8(pos)?;
        pos += 1;
        if self.flags & flag::SINGLE_VALUE != 0 {
            self.single_value = r.u8(pos)? as u16;
            return Ok(pos + 1);
        }
        let block_shift = r.u8(pos)?;
        let span_shift = r.u8(pos + 1)?;
        if block_shift > MAX_BLOCK_SHIFT || span_shift > MAX_SPAN_SHIFT {
            return Err("corrupt block size".to_string());
        }
        self.block_size = 1 << block_shift;
        self.span = 1 << span_shift;
        self.sparse_len = self.groups.table_size().div_ceil(self.span);
        let padding = r.u8(pos + 2)? as u64;
        self.blocks = r.u32_le(pos + 3)? as u64;
        self.block_lengths_len = self.blocks + padding;
        let max_sym_len = r.u8(pos + 7)?;
        let min_sym_len = r.u8(pos + 8)?;
        if max_sym_len < min_sym_len || max_sym_len > MAX_SYMBOL_BITS || min_sym_len == 0 {
            return Err("corrupt Huffman code lengths".to_string());
        }
        pos += 9;
        self.min_sym_len = min_sym_len as u32;
        self.lowest_sym = pos;

        // Canonical Huffman: longer codes have lower values; base64[l] is the lowest code of
        // length min + l, left-aligned, so a code's length is found by comparing against it.
        let lengths = (max_sym_len - min_sym_len) as usize + 1;
        let mut base64 = vec![0u64; lengths];
        for i in (0..lengths - 1).rev() {
            let lowest = r.u16_le(pos + 2 * i)? as u64;
            let next_lowest = r.u16_le(pos + 2 * (i + 1))? as u64;
            base64[i] = (base64[i + 1].wrapping_add(lowest).wrapping_sub(next_lowest)) / 2;
        }
        for (i, base) in base64.iter_mut().enumerate() {
            *base = base.checked_shl(64 - i as u32 - self.min_sym_len).unwrap_or(0);
        }
        self.base64 = base64;
        pos += 2 * lengths;

        let symbols = r.u16_le(pos)? as usize;
        pos += 2;
        self.btree = pos;
        self.symlen = symbol_runs(r, pos, symbols)?;
        Ok(pos + 3 * symbols + (symbols & 1))
    }
}

/// The run length (minus one) of every symbol: 0 for a leaf, else the sum of its two children's
/// runs plus one. A depth-first walk with an explicit stack: a corrupt tree can neither recurse
/// deeply nor loop (a cycle is reported).
fn symbol_runs(r: &Reader, btree: usize, symbols: usize) -> Result<Vec<u32>, ParseError> {
    const UNSEEN: u8 = 0;
    const EXPANDING: u8 = 1;
    const DONE: u8 = 2;
    let node = |sym: usize| -> Result<(usize, usize), ParseError> {
        let at = btree + 3 * sym;
        let (a, b, c) = (r.u8(at)? as usize, r.u8(at + 1)? as usize, r.u8(at + 2)? as usize);
        Ok((((b & 0xF) << 8) | a, (c << 4) | (b >> 4)))
    };
    let mut runs = vec![0u32; symbols];
    let mut state = vec![UNSEEN; symbols];
    let mut stack = Vec::new();
    for root in 0..symbols {
        stack.push((root, false));
        while let Some((sym, children_done)) = stack.pop() {
            let (left, right) = node(sym)?;
            if children_done {
                runs[sym] = runs[left].wrapping_add(runs[right]).wrapping_add(1);
                state[sym] = DONE;
                continue;
            }
            match state[sym] {
                DONE => continue,
                EXPANDING => return Err("corrupt symbol tree (a cycle)".to_string()),
                _ => {}
            }
            if right == NO_CHILD as usize {
                state[sym] = DONE;
                continue;
            }
            if left >= symbols || right >= symbols {
                return Err("corrupt symbol tree".to_string());
            }
            state[sym] = EXPANDING;
            stack.push((sym, true));
            for child in [left, right] {
                match state[child] {
                    DONE => {}
                    EXPANDING => return Err("corrupt symbol tree (a cycle)".to_string()),
                    _ => stack.push((child, false)),
                }
            }
        }
    }
    Ok(runs)
}

/// Reads the DTZ value maps that follow the sizes; returns the position after them.
fn read_dtz_maps(r: &Reader, subs: &mut [SubTable], mut pos: usize) -> Result<usize, ParseError> {
    for sub in subs.iter_mut() {
        if sub.flags & flag::MAPPED == 0 {
            continue;
        }
        if sub.flags & flag::WIDE != 0 {
            pos += pos & 1;
            for start in sub.map_start.iter_mut() {
                *start = pos + 2;
                pos += 2 + 2 * r.u16_le(pos)? as usize;
            }
        } else {
            for start in sub.map_start.iter_mut() {
                *start = pos + 1;
                pos += 1 + r.u8(pos)? as usize;
            }
        }
    }
    Ok(pos + (pos & 1))
}
