//! Hints to the processor and the kernel about memory a search is about to
//! use: loading a cache line ahead of a lookup, and huge pages under a large
//! table. Hints only: a program that ignores them computes the same.

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
    {
        const HUGE: usize = 2 << 20;
        let bytes = v.capacity() * std::mem::size_of::<T>();
        // SAFETY: sysconf only reads a system setting.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(0);
        if bytes < HUGE || !page.is_power_of_two() {
            return;
        }
        let at = v.as_ptr() as usize;
        let first = (at + page - 1) & !(page - 1);
        let len = (at + bytes).saturating_sub(first) & !(page - 1);
        if len > 0 {
            // SAFETY: madvise only advises the kernel on whole pages within
            // this Vec's own allocation; it neither reads nor changes them.
            unsafe {
                libc::madvise(first as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}
