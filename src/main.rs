//! The `menace` command: a thin front door onto the library.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // Standard output is written through `cli::write_out`, which returns its
    // errors: SIGPIPE stays ignored (Rust's default), so a closed pipe is an
    // error of kind BrokenPipe, handled below like any other.
    let result = cli::run().and_then(|()| cli::flush_out().map_err(Into::into));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => match e.downcast_ref::<cli::StdoutError>() {
            // The reader went away (`menace ... | head`): nothing more to say, to no one.
            Some(out) if out.is_closed_pipe() => ExitCode::SUCCESS,
            _ => {
                eprintln!("Error: {e:#}");
                ExitCode::from(if cli::is_usage(&e) { 2 } else { 1 })
            }
        },
    }
}
