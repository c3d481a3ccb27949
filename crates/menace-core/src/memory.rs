//! Hints to the processor and the operating system about memory a search
//! is about to use: loading a cache line ahead of a lookup, huge pages
//! under a large table, a table faulted in at once. Hints only: a program
//! that ignores them computes the same. The core asks the processor itself
//! and asks the operating system only through a [`PageAdvisor`] that a
//! program installs (the `menace` command installs Linux's `madvise`).

use std::sync::OnceLock;

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

/// How a program asks its operating system to treat a table's pages. Each
/// method is given the address and length in bytes of a live allocation
/// and may do nothing.
pub trait PageAdvisor: Sync {
    /// Back `bytes` bytes at `start` with huge pages where it can: a lookup
    /// anywhere in a table of many megabytes then misses the TLB far less.
    fn huge_pages(&self, start: *const u8, bytes: usize);
    /// Fault `bytes` bytes at `start` in now, in one call, instead of a
    /// fault a page as a table is filled at random.
    fn populate(&self, start: *const u8, bytes: usize);
}

static ADVISOR: OnceLock<&'static dyn PageAdvisor> = OnceLock::new();

/// Install the program's page advisor, once; a second call is ignored.
pub fn set_page_advisor(advisor: &'static dyn PageAdvisor) {
    let _ = ADVISOR.set(advisor);
}

/// Ask for huge pages under all of `v`'s allocation (its capacity). Pages
/// already touched keep their size, so advise a table before filling it.
pub(crate) fn advise_huge_pages<T>(v: &Vec<T>) {
    if let Some(a) = ADVISOR.get() {
        a.huge_pages(v.as_ptr().cast(), v.capacity() * std::mem::size_of::<T>());
    }
}

/// Ask for all of `v`'s allocation (its capacity) to be backed with memory
/// now. Call it on a table just made, before it is filled.
pub(crate) fn populate<T>(v: &Vec<T>) {
    if let Some(a) = ADVISOR.get() {
        a.populate(v.as_ptr().cast(), v.capacity() * std::mem::size_of::<T>());
    }
}
