//! Large tables (the transposition tables, the Kalah endgame databases) backed by huge pages
//! where the system allows it.
//!
//! A probe of a table far larger than the caches misses the TLB as well as the cache; on a
//! virtual machine the page walk that follows is itself a chain of memory accesses. With 2 MB
//! pages a 512 MB table needs 256 TLB entries instead of 131,072. Linux backs a region with huge
//! pages when transparent huge pages are `always`, or when they are `madvise` (a common default)
//! and the region was advised with `MADV_HUGEPAGE` before its pages were first touched: that is
//! what `table` does. Elsewhere, or when the kernel refuses, the table is the same, on small
//! pages. Measured in docs/measurements.md (bench) and docs/games.md (the Kalah and Connect Four
//! solvers); `huge_page_bytes` reads back what the kernel granted (docs/hash.md).

use std::collections::TryReserveError;

/// Regions smaller than one huge page are not advised.
#[cfg(any(target_os = "linux", test))]
const HUGE_PAGE: usize = 2 << 20;

/// A vector of `len` values made by `fill`, its memory advised for huge pages before it is
/// written; an error when the system refuses the memory.
pub fn table<T>(len: usize, fill: impl FnMut() -> T) -> Result<Vec<T>, TryReserveError> {
    let mut values = reserved(len)?;
    values.resize_with(len, fill);
    Ok(values)
}

/// An empty vector with room for exactly `len` values, its memory advised for huge pages and not
/// yet touched: the caller's first writes (from as many threads as it likes) fault the pages
/// in. An error when the system refuses the memory.
pub fn reserved<T>(len: usize) -> Result<Vec<T>, TryReserveError> {
    let mut values = Vec::new();
    values.try_reserve_exact(len)?;
    advise_huge_pages(values.as_ptr() as usize, len * std::mem::size_of::<T>());
    Ok(values)
}

/// The memory the system could still hand out without swapping, in bytes (Linux's
/// `MemAvailable`); `None` where unknown.
pub fn available_bytes() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|line| line.starts_with("MemAvailable:"))?;
    kilobytes_field(line).map(|kb| kb.saturating_mul(1024))
}

/// How many bytes of `[start, start + bytes)` the kernel backs with huge pages: the
/// `AnonHugePages` of the mappings in `/proc/self/smaps` that overlap it (at most `bytes`);
/// `None` where that file cannot be read (not Linux, no `/proc`).
pub fn huge_page_bytes(start: usize, bytes: usize) -> Option<usize> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    Some(huge_pages_in(&smaps, start, bytes))
}

/// `AnonHugePages` summed over the mappings of `smaps` (the text of `/proc/PID/smaps`) that
/// overlap `[start, start + bytes)`, capped at `bytes`. A mapping's header line is its address
/// range (`7f3a00000000-7f3a40000000 rw-p ...`); its fields follow it, one a line.
fn huge_pages_in(smaps: &str, start: usize, bytes: usize) -> usize {
    let end = start.saturating_add(bytes);
    let mut overlaps = false;
    let mut total = 0usize;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or_default();
        let range = first
            .split_once('-')
            .and_then(|(lo, hi)| Some((usize::from_str_radix(lo, 16).ok()?, usize::from_str_radix(hi, 16).ok()?)));
        if let Some((lo, hi)) = range {
            overlaps = lo < end && start < hi;
        } else if overlaps && first == "AnonHugePages:" {
            total = total.saturating_add(kilobytes_field(line).unwrap_or(0).saturating_mul(1024));
        }
    }
    total.min(bytes)
}

/// The number of a `Name:   1234 kB` line.
fn kilobytes_field(line: &str) -> Option<usize> {
    line.split_whitespace().nth(1)?.parse().ok()
}

/// As `table`, for sizes the program chose itself: when the memory cannot be had the program
/// ends as a plain `Vec` would (`handle_alloc_error`).
pub fn fixed_table<T>(len: usize, fill: impl FnMut() -> T) -> Vec<T> {
    table(len, fill).unwrap_or_else(|_| {
        let layout = std::alloc::Layout::array::<T>(len).unwrap_or_else(|_| std::alloc::Layout::new::<T>());
        std::alloc::handle_alloc_error(layout)
    })
}

/// Starts loading the cache line that holds `value`, without waiting for it: loads of several
/// table entries issued this way overlap instead of each waiting for the one before.
#[inline]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let line: *const T = value;
        // SAFETY: a prefetch is a hint: it reads nothing into the program, writes nothing and
        // cannot fault (the pointer comes from a live reference anyway); the SSE instruction set
        // it needs is part of every x86-64 processor.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(line.cast()) };
    }
    #[cfg(target_arch = "aarch64")]
    {
        let line: *const T = value;
        // SAFETY: `prfm pldl1keep` (prefetch for a load, into L1, temporal: what `_MM_HINT_T0`
        // asks of x86) is a hint in the base A64 instruction set: it changes no register, flag or
        // memory the program sees and never faults, even on an unmapped address (the pointer comes
        // from a live reference anyway). std's `_prefetch` intrinsic is not stable on aarch64.
        unsafe {
            std::arch::asm!("prfm pldl1keep, [{line}]", line = in(reg) line, options(nostack, readonly, preserves_flags))
        };
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let _ = value;
}

/// Asks the kernel to back the whole huge pages inside `[start, start + bytes)` with huge pages;
/// a refusal (no transparent huge pages, another kernel) changes nothing but speed.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, bytes: usize) {
    /// Linux's `MADV_HUGEPAGE` (asm-generic/mman-common.h, the same on every architecture).
    const MADV_HUGEPAGE: i32 = 14;
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: `madvise` is the C library's function with this signature (POSIX; `advice` is an
        // int). `[first, end)` lies inside one live allocation of ours (rounded inward to page
        // boundaries, as `madvise` requires), and `MADV_HUGEPAGE` only chooses the page size that
        // backs it: contents, addresses and permissions stay as they are, so no Rust reference
        // is affected. The result is ignored on purpose (an error means small pages).
        unsafe { madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: usize, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_holds_what_fill_made() {
        let mut next = 0u64;
        let values = table(3 * HUGE_PAGE / 8 + 5, || {
            next += 1;
            next
        })
        .unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(values.len(), 3 * HUGE_PAGE / 8 + 5);
        assert!(values.iter().enumerate().all(|(i, &v)| v == i as u64 + 1));
        assert!(table(0, || 0u8).is_ok_and(|v| v.is_empty()));
    }

    #[test]
    fn huge_pages_are_summed_over_the_mappings_that_overlap() {
        let smaps = "\
00400000-00600000 r-xp 00000000 08:01 42 /usr/bin/springer
AnonHugePages:      2048 kB
7f0000000000-7f0000200000 rw-p 00000000 00:00 0
AnonHugePages:         0 kB
7f0000200000-7f0040200000 rw-p 00000000 00:00 0
Size:            1048576 kB
AnonHugePages:    786432 kB
VmFlags: rd wr mr mw me ac hg
7f0040200000-7f0040300000 rw-p 00000000 00:00 0
AnonHugePages:      1024 kB
";
        let table = 0x7f00_0010_0000;
        let gb = 1 << 30;
        // The head, the advised middle and the tail: 768 MB + 1 MB; the binary's mapping is outside.
        assert_eq!(huge_pages_in(smaps, table, gb + (2 << 20)), (768 << 20) + (1 << 20));
        assert_eq!(huge_pages_in(smaps, table, 1 << 20), 0);
        // Never more than the region itself.
        assert_eq!(huge_pages_in(smaps, 0x7f00_0020_0000, 1 << 20), 1 << 20);
        assert_eq!(huge_pages_in("", table, gb), 0);
    }

    #[test]
    fn a_reserved_table_is_empty_with_room_for_every_value() {
        let values: Vec<u64> = reserved(1000).unwrap_or_else(|e| unreachable!("{e}"));
        assert!(values.is_empty() && values.capacity() >= 1000);
        assert!(reserved::<u64>(usize::MAX / 4).is_err());
    }
}
