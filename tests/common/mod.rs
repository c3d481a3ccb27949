//! Shared helpers for the integration tests.
#![allow(dead_code)]

pub mod http;
pub mod rules;
pub mod toy;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh, empty scratch folder for one test, named after `name` and
/// unique in this run (tests run at once in one process share its id).
pub fn scratch(name: &str) -> PathBuf {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let n = MADE.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("menace-test-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// The game's move number that a sentence of the page's names, as in
/// "HER plays a2 (move 2 of the game).".
pub fn move_number(text: &str) -> usize {
    let number = text.split("(move ").nth(1).and_then(|rest| rest.split(' ').next());
    number
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no move number in {text:?}"))
}
