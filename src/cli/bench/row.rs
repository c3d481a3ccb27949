//! A row of `menace bench`: one measured figure, and how it is printed.

use crate::cli::output::StdoutError;

/// One measured figure.
pub struct Row {
    pub what: String,
    pub work: String,
    pub rate: f64,
    pub unit: &'static str,
    pub seconds: f64,
    pub note: String,
}

impl Row {
    /// `count` things done in `seconds` (the `work`): their rate in `unit`.
    pub fn new(
        what: impl Into<String>,
        work: String,
        count: u64,
        unit: &'static str,
        seconds: f64,
        note: String,
    ) -> Row {
        Row {
            what: what.into(),
            work,
            rate: count as f64 / seconds,
            unit,
            seconds,
            note,
        }
    }

    /// `n` games in `seconds`: their rate in games a second.
    pub fn games(what: impl Into<String>, n: u64, seconds: f64, note: String) -> Row {
        Row::new(what, format!("{n} games"), n, "games/s", seconds, note)
    }
}

/// Print one row of the table.
pub fn print_row(r: &Row) -> Result<(), StdoutError> {
    let rate = if r.rate >= 1e6 {
        format!("{:.2} M", r.rate / 1e6)
    } else if r.rate >= 1e3 {
        format!("{:.1} k", r.rate / 1e3)
    } else {
        format!("{:.2}", r.rate)
    };
    outln!(
        "{:<58} {:>14} {:>14} {:>9.3}  {}",
        r.what,
        r.work,
        format!("{rate} {}", r.unit),
        r.seconds,
        r.note
    );
    Ok(())
}

/// The process's resident memory in MB, where the system says (Linux).
pub fn resident_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}
