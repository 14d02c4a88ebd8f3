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
//! solvers).

use std::collections::TryReserveError;

/// Regions smaller than one huge page are not advised.
const HUGE_PAGE: usize = 2 << 20;

/// A vector of `len` values made by `fill`, its memory advised for huge pages before it is
/// written; an error when the system refuses the memory.
pub fn table<T>(len: usize, fill: impl FnMut() -> T) -> Result<Vec<T>, TryReserveError> {
    let mut values = Vec::new();
    values.try_reserve_exact(len)?;
    advise_huge_pages(values.as_ptr() as usize, len * std::mem::size_of::<T>());
    values.resize_with(len, fill);
    Ok(values)
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
    #[cfg(not(target_arch = "x86_64"))]
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
}
