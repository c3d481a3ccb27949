//! The `menace` command: a thin front door onto the library.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`menace boxes ... | head`), like other Unix tools.
    #[cfg(unix)]
    // SAFETY: restoring the default handler for SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e:#}");
            ExitCode::from(if cli::is_usage(&e) { 2 } else { 1 })
        }
    }
}
