//! The `menace` command: a thin front door onto the library.

mod cli;

use std::process::ExitCode;

/// What `print!` says when standard output cannot be written (a full disk,
/// `> /dev/full`): reported as an error, not a crash.
const STDOUT_FAILED: &str = "failed printing to stdout";

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`menace boxes ... | head`), like other Unix tools.
    #[cfg(unix)]
    // SAFETY: restoring the default handler for SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !panic_text(info.payload()).starts_with(STDOUT_FAILED) {
            default_hook(info);
        }
    }));
    match std::panic::catch_unwind(cli::run) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("Error: {e:#}");
            ExitCode::from(if cli::is_usage(&e) { 2 } else { 1 })
        }
        Err(payload) => {
            let text = panic_text(payload.as_ref());
            match text.strip_prefix(STDOUT_FAILED) {
                Some(cause) => {
                    eprintln!("Error: cannot write to standard output{cause}");
                    ExitCode::from(1)
                }
                // Any other panic is a bug; the hook has reported it.
                None => ExitCode::from(101),
            }
        }
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}
