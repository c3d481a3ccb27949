//! The program's memory policy, which is a process's business and not the
//! engine's: Linux's page advice under the core's large tables (huge pages,
//! pages faulted in at once), and glibc's thresholds for giving freed
//! memory back.

use menace_core::memory::PageAdvisor;

/// Linux's `madvise`, for the core's tables.
struct Madvise;

impl PageAdvisor for Madvise {
    fn huge_pages(&self, start: *const u8, bytes: usize) {
        #[cfg(target_os = "linux")]
        advise(start, bytes, 2 << 20, libc::MADV_HUGEPAGE);
        #[cfg(not(target_os = "linux"))]
        let _ = (start, bytes);
    }

    fn populate(&self, start: *const u8, bytes: usize) {
        #[cfg(target_os = "linux")]
        advise(start, bytes, 1 << 20, libc::MADV_POPULATE_WRITE);
        #[cfg(not(target_os = "linux"))]
        let _ = (start, bytes);
    }
}

/// Install Linux's page advice under the core's large tables.
pub fn advise_pages() {
    menace_core::memory::set_page_advisor(&Madvise);
}

/// `madvise(advice)` on the whole pages within the `bytes` bytes at `at`,
/// where they are at least `least` bytes.
#[cfg(target_os = "linux")]
fn advise(at: *const u8, bytes: usize, least: usize, advice: libc::c_int) {
    // SAFETY: sysconf only reads a system setting.
    let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(0);
    if bytes < least || !page.is_power_of_two() {
        return;
    }
    let at = at as usize;
    let first = (at + page - 1) & !(page - 1);
    let len = (at + bytes).saturating_sub(first) & !(page - 1);
    if len > 0 {
        // SAFETY: the advice (huge pages, or faulting pages in) covers only
        // whole pages within the caller's live allocation and keeps their
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
/// is not always reused for a larger list (docs/benchmarks.md has the
/// figures). For commands that build tables and end, not for a
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
/// reused for the larger ones: a higher peak for no time saved
/// (docs/benchmarks.md).
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
