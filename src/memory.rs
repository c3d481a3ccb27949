//! Hints to the processor, the kernel and the allocator about memory a
//! search is about to use: loading a cache line ahead of a lookup, huge
//! pages under a large table, freed memory kept for the next table. Hints
//! only: a program that ignores them computes the same.

/// Start loading the cache line holding `item`, so that reading it soon
/// after does not wait for memory: lookups whose keys are known together
/// overlap their loads.
#[inline]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch neither reads into the program nor faults,
        // and the address is that of a live reference anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Ask Linux for huge pages under all of `v`'s allocation (its capacity,
/// rounded inwards to whole pages), where it is large enough for one (2
/// MiB): a lookup anywhere in a table of many megabytes then misses the
/// TLB far less. Pages already touched keep their size, so advise a table
/// before filling it.
pub(crate) fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    advise(v, 2 << 20, libc::MADV_HUGEPAGE);
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// Ask Linux to back all of `v`'s allocation (its capacity, rounded
/// inwards to whole pages) with memory now, in one call, where it is a
/// megabyte or more: a table about to be filled at random otherwise takes
/// a fault on each page, two where a lookup reads the page before the
/// first write to it (the zero page, then a copy). Call it on a table just
/// made, before it is filled.
pub(crate) fn populate<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    advise(v, 1 << 20, libc::MADV_POPULATE_WRITE);
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// `madvise(advice)` on the whole pages within `v`'s allocation, where it
/// holds at least `least` bytes.
#[cfg(target_os = "linux")]
fn advise<T>(v: &Vec<T>, least: usize, advice: libc::c_int) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    // SAFETY: sysconf only reads a system setting.
    let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(0);
    if bytes < least || !page.is_power_of_two() {
        return;
    }
    let at = v.as_ptr() as usize;
    let first = (at + page - 1) & !(page - 1);
    let len = (at + bytes).saturating_sub(first) & !(page - 1);
    if len > 0 {
        // SAFETY: the advice (huge pages, or faulting pages in) covers only
        // whole pages within this Vec's own allocation and keeps their
        // contents; a kernel without it refuses, and nothing changes.
        unsafe {
            libc::madvise(first as *mut libc::c_void, len, advice);
        }
    }
}

/// Keep memory freed for the program's next allocations instead of giving
/// it back to the kernel at once. glibc serves every allocation over 32 MB
/// from a fresh mapping and unmaps it when freed, so each of the many
/// large, short-lived lists a compiled table's build makes (5×5 Hexapawn:
/// hundreds of megabytes in all) is faulted in and zeroed by the kernel
/// page by page again; kept, they are reused. (Not quite all: glibc's
/// arenas for other threads hold at most 64 MB at a time, so a larger list
/// made on a rayon worker is still mapped fresh.) The cost: the process keeps
/// its peak memory until it exits, and the peak is higher, as what is kept
/// is not always reused for a larger list (`train hexapawn:5x5 --opponent
/// perfect`: about 430 MB against 365 MB, and a quarter of a second
/// faster). For commands that build tables and end, not for a
/// long-running server. Call it before the first allocation it
/// should govern; [`give_back_freed_memory`] ends it.
pub fn keep_freed_memory() {
    set_thresholds(i32::MAX, i32::MAX);
}

/// Hand large blocks back to the kernel again when freed, as glibc does
/// once its thresholds have grown to their most (32 MB for a fresh
/// mapping, twice that kept at the heap's top), ending
/// [`keep_freed_memory`] for the allocations after it. Where no table is
/// built, what is kept is only the old copies of maps that grew, never
/// reused for the larger ones: training 6×6 Hexapawn 10^6 games against
/// perfect, whose boxes' map grows to 2.5 million, peaked at 783 MB
/// keeping freed memory and at 611 MB giving it back, in the same time.
pub fn give_back_freed_memory() {
    set_thresholds(32 << 20, 64 << 20);
}

fn set_thresholds(mmap: i32, trim: i32) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets two of glibc's allocation thresholds; any
    // value is valid, and a refusal (return 0) leaves them as they were.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, mmap);
        libc::mallopt(libc::M_TRIM_THRESHOLD, trim);
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = (mmap, trim);
}
