//! Shared helpers for the integration tests.
#![allow(dead_code)]

pub mod http;
pub mod rules;
pub mod toy;

/// The game's move number that a sentence of the page's names, as in
/// "HER plays a2 (move 2 of the game).".
pub fn move_number(text: &str) -> usize {
    let number = text.split("(move ").nth(1).and_then(|rest| rest.split(' ').next());
    number
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no move number in {text:?}"))
}
