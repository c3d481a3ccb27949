//! Values read from the command line, and the usage error a bad one makes
//! (exit code 2): what every subcommand shares, apart from the dispatch.

/// A value on the command line that could not be read: what it was for,
/// the text, and what was expected.
pub use menace::error::InvalidValue as ArgError;

/// A count that must be a whole number from 1 up (games, seeds, K).
pub fn positive(text: &str) -> Result<u64, ArgError> {
    match text.trim().parse::<i128>() {
        Ok(n) if n >= 1 && n <= i128::from(u64::MAX) => Ok(n as u64),
        Ok(_) => Err(ArgError::new("count", text, "expected a whole number from 1 up")),
        Err(_) => Err(ArgError::new(
            "count",
            text,
            "not a whole number: expected a whole number from 1 up",
        )),
    }
}

/// A seed: a whole number from 0 to 2^64 − 1.
pub fn seed(text: &str) -> Result<u64, ArgError> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| ArgError::new("seed", text, format!("expected a whole number from 0 to {}", u64::MAX)))
}

/// A number of games for one run: 1 to 100 000 000 (memory stays flat: running totals only).
pub fn game_count(text: &str) -> Result<u64, ArgError> {
    let n = positive(text)?;
    if n > 100_000_000 {
        return Err(ArgError::new("games", text, "too many for one run: at most 100000000"));
    }
    Ok(n)
}

/// A bad value on the command line: reported like any error, but exit code 2.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// Wrap a message as a usage error.
pub fn usage(message: impl ToString) -> anyhow::Error {
    anyhow::Error::new(Usage(message.to_string()))
}

/// The help of a game argument: every game of the registry, as it reads them.
pub fn game_help() -> String {
    format!("The game spec: {}", menace::AnyGame::forms())
}

/// The game named on the command line; a bad spec is a usage error.
pub fn game_arg(spec: &str) -> anyhow::Result<menace::AnyGame> {
    menace::parse_spec(spec).map_err(usage)
}

/// Whether an error is a usage error (exit code 2).
pub fn is_usage(e: &anyhow::Error) -> bool {
    e.downcast_ref::<Usage>().is_some()
}
