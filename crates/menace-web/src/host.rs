//! What the engine asks of where it runs: a fresh seed for a machine made
//! without one. A server takes it from the operating system (through the
//! standard library's hashing keys); the page, built for
//! `wasm32-unknown-unknown`, from `crypto.getRandomValues`, which it hands
//! the module as the import `menace.random_seed`.

/// A seed no one chose, for a machine made without one.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0x6d65_6e61_6365);
    h.finish()
}

/// A seed no one chose, for a machine made without one.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub fn fresh_seed() -> u64 {
    #[link(wasm_import_module = "menace")]
    extern "C" {
        /// A whole number below 2^53, from the browser's random source.
        fn random_seed() -> f64;
    }
    // SAFETY: the import takes nothing and returns a number.
    unsafe { random_seed() as u64 }
}
