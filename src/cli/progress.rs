//! The one helper that makes every progress bar.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `len` games with games per second and time left; hidden when
/// stdout is not a terminal, so pipes and files get clean output.
pub fn games_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if !std::io::stdout().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let style = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, {eta} left")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// A spinner counting the positions a long solve has stored, on stderr when
/// it is a terminal (hidden otherwise, and for solves too short to notice).
pub fn positions_spinner(what: &str) -> ProgressBar {
    counting_spinner(what, "positions stored")
}

/// A spinner of `what`, counting `counted` as it goes, on stderr when it is
/// a terminal (hidden otherwise).
fn counting_spinner(what: &str, counted: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let style = ProgressStyle::with_template(&format!("{{spinner}} {{msg}}: {{human_pos}} {counted}, {{elapsed}}"))
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.set_message(what.to_string());
    bar
}

/// A spinner counting the machines exact learning has found, on stderr
/// when it is a terminal (hidden otherwise).
pub fn machines_spinner(what: &str) -> ProgressBar {
    counting_spinner(what, "machines found")
}

/// A bar over the openings a long Hex solve works through, on stderr when
/// it is a terminal (hidden otherwise).
pub fn openings_bar(what: &str, len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    let style = ProgressStyle::with_template("{msg}: {bar:30} {pos}/{len} openings solved, {elapsed}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(what.to_string());
    bar
}
