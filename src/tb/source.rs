//! Where a table file's bytes come from: a read-only memory map, or (the experiment measured in
//! docs/syzygy.md, chosen by `SPRINGER_TB_READS`) positioned reads of 4 KiB pages through a small
//! bounded cache shared by every file, or the whole file read into memory (the design before).
//! Either way a read past the end is `None`, never a crash.

use memmap2::Mmap;
use std::borrow::Cow;
use std::fs::File;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// How table files are read.
#[derive(Clone, Debug)]
pub enum Access {
    /// Memory-mapped, advised for random access (no read-ahead around a faulting page).
    Mapped,
    /// Memory-mapped with the kernel's default read-ahead.
    MappedReadahead,
    /// Read by page through the cache.
    Blocks(Arc<BlockCache>),
    /// Read whole into memory.
    Whole,
}

impl Access {
    /// Mapped, unless `SPRINGER_TB_READS` is `blocks` or `whole` (the experiment).
    pub fn from_env() -> Access {
        match std::env::var("SPRINGER_TB_READS").as_deref() {
            Ok("blocks") => Access::Blocks(Arc::new(BlockCache::new())),
            Ok("whole") => Access::Whole,
            Ok("mapped-readahead") => Access::MappedReadahead,
            _ => Access::Mapped,
        }
    }
}

/// One file's bytes.
#[derive(Debug)]
pub enum Source {
    Mapped(Mmap),
    Blocks(BlockFile),
    Whole(Vec<u8>),
}

impl Source {
    /// Opens `path` as `access` says.
    pub fn open(path: &Path, access: &Access) -> Result<Source, String> {
        if let Access::Whole = access {
            return std::fs::read(path).map(Source::Whole).map_err(|e| e.to_string());
        }
        let file = File::open(path).map_err(|e| e.to_string())?;
        match access {
            Access::Mapped | Access::MappedReadahead => {
                // SAFETY: `Mmap` hands out the file's bytes as a `&[u8]`, which Rust assumes never
                // changes: the map is read-only and private (copy-on-write), so this process never
                // writes it, but another process could change or truncate the file while it is
                // mapped (a truncated page then faults). Replacing tables under a running engine is
                // the user's error, as in every engine that maps them (Stockfish, Fathom,
                // shakmaty-syzygy). Nothing else is assumed of the bytes: a corrupt table is parsed
                // and probed with every read bounds checked against the map's length.
                let map = unsafe { Mmap::map(&file) }.map_err(|e| e.to_string())?;
                // Probes read a few scattered bytes: reading ahead around each would only fill memory.
                #[cfg(unix)]
                if let Access::Mapped = access {
                    let _ = map.advise(memmap2::Advice::Random);
                }
                Ok(Source::Mapped(map))
            }
            Access::Blocks(cache) => {
                let len = file.metadata().map_err(|e| e.to_string())?.len();
                let len = usize::try_from(len).map_err(|e| e.to_string())?;
                Ok(Source::Blocks(BlockFile { file, len, id: cache.next_id(), cache: Arc::clone(cache) }))
            }
            Access::Whole => unreachable!("read above"),
        }
    }

    /// The file's length in bytes.
    pub fn len(&self) -> usize {
        match self {
            Source::Mapped(map) => map.len(),
            Source::Blocks(file) => file.len,
            Source::Whole(bytes) => bytes.len(),
        }
    }

    /// `N` bytes at `at`, or `None` past the end.
    #[inline]
    pub fn array<const N: usize>(&self, at: usize) -> Option<[u8; N]> {
        match self {
            Source::Mapped(map) => map.get(at..at.checked_add(N)?)?.try_into().ok(),
            Source::Whole(bytes) => bytes.get(at..at.checked_add(N)?)?.try_into().ok(),
            Source::Blocks(file) => {
                let mut out = [0u8; N];
                file.read(at, &mut out)?;
                Some(out)
            }
        }
    }

    /// Up to `len` bytes at `at` (fewer at the end of the file), or `None` if `at` is past it.
    pub fn slice(&self, at: usize, len: usize) -> Option<Cow<'_, [u8]>> {
        let len = len.min(self.len().checked_sub(at)?);
        match self {
            Source::Mapped(map) => Some(Cow::Borrowed(&map[at..at + len])),
            Source::Whole(bytes) => Some(Cow::Borrowed(&bytes[at..at + len])),
            Source::Blocks(file) => {
                let mut out = vec![0u8; len];
                file.read(at, &mut out)?;
                Some(Cow::Owned(out))
            }
        }
    }
}

/// A file read by positioned reads through the shared cache.
#[derive(Debug)]
pub struct BlockFile {
    file: File,
    len: usize,
    id: u64,
    cache: Arc<BlockCache>,
}

impl BlockFile {
    /// Fills `out` from `at`; `None` past the end or on a read error.
    fn read(&self, at: usize, out: &mut [u8]) -> Option<()> {
        if at.checked_add(out.len())? > self.len {
            return None;
        }
        let mut done = 0;
        while done < out.len() {
            let pos = at + done;
            let page = pos / PAGE;
            let within = pos % PAGE;
            let n = (PAGE - within).min(out.len() - done);
            self.cache.copy(self, page, within, &mut out[done..done + n])?;
            done += n;
        }
        Some(())
    }

    /// Reads page `page` (the part of it inside the file) into `buf`.
    fn load(&self, page: usize, buf: &mut [u8; PAGE]) -> Option<()> {
        let start = page * PAGE;
        let n = PAGE.min(self.len.checked_sub(start)?);
        read_exact_at(&self.file, &mut buf[..n], start as u64).ok()
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, at)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}

#[cfg(not(any(unix, windows)))]
fn read_exact_at(_file: &File, _buf: &mut [u8], _at: u64) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// The cache's page size.
const PAGE: usize = 4096;
/// Shards (each behind its own lock) and pages per shard: 2 MiB in all.
const SHARDS: usize = 64;
const WAYS: usize = 8;

/// Recently read pages of every file, least recently used evicted per shard.
#[derive(Debug)]
pub struct BlockCache {
    shards: Vec<Mutex<Shard>>,
    ids: AtomicU64,
}

#[derive(Debug)]
struct Shard {
    keys: [u64; WAYS],
    used: [u64; WAYS],
    clock: u64,
    pages: Vec<[u8; PAGE]>,
}

impl BlockCache {
    /// An empty cache (its pages are allocated as they fill).
    pub fn new() -> BlockCache {
        let shard = || Mutex::new(Shard { keys: [u64::MAX; WAYS], used: [0; WAYS], clock: 0, pages: Vec::new() });
        BlockCache { shards: (0..SHARDS).map(|_| shard()).collect(), ids: AtomicU64::new(0) }
    }

    fn next_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed)
    }

    /// Copies `out.len()` bytes from `within` of `file`'s page `page`, reading it on a miss.
    fn copy(&self, file: &BlockFile, page: usize, within: usize, out: &mut [u8]) -> Option<()> {
        let key = (file.id << 40) | page as u64;
        let shard = &self.shards[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize % SHARDS];
        {
            let mut s = shard.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(way) = s.keys.iter().position(|&k| k == key) {
                s.clock += 1;
                s.used[way] = s.clock;
                out.copy_from_slice(&s.pages[way][within..within + out.len()]);
                return Some(());
            }
        }
        // A miss: read outside the lock, so other threads keep using the shard meanwhile.
        let mut buf = [0u8; PAGE];
        file.load(page, &mut buf)?;
        out.copy_from_slice(&buf[within..within + out.len()]);
        let mut s = shard.lock().unwrap_or_else(|e| e.into_inner());
        let way = if s.pages.len() < WAYS {
            s.pages.push([0; PAGE]);
            s.pages.len() - 1
        } else {
            (0..WAYS).min_by_key(|&w| s.used[w]).unwrap_or(0)
        };
        s.clock += 1;
        s.keys[way] = key;
        s.used[way] = s.clock;
        s.pages[way] = buf;
        Some(())
    }
}

impl Default for BlockCache {
    fn default() -> BlockCache {
        BlockCache::new()
    }
}
