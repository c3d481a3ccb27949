//! Reading a state file back (`train --resume`, `play --state`, `boxes
//! --state`): one way for every command, and one wording of its errors.

use std::path::Path;

use anyhow::anyhow;

use menace::fsutil::{open_stream, read_open};
use menace::prelude::*;
use menace::training::state;
use menace::training::trainer::Trainer;

/// The trainer a state file for `game` holds; errors name the file, and
/// the field where one is wrong. The command line's one bound on a state
/// file is its size ([`menace::fsutil::MAX_FILE_BYTES`]): it reads back any
/// machine `menace train` saves within it, however many boxes (`menace
/// serve --state` counts them first, against the server's own limit).
/// A regular file is read as a stream, never held whole, each box checked
/// as it arrives: a bad file is refused at its first bad box, and a good
/// one costs about the machine it holds.
pub fn read_state<G: Game>(game: &G, path: &Path) -> anyhow::Result<Trainer<G>> {
    let read = match open_stream(path).map_err(|e| anyhow!(e))? {
        Ok(file) => state::from_reader_within(game, file, state::ReadLimits::default()),
        Err(other) => state::from_json(game, &read_open(other, path).map_err(|e| anyhow!(e))?),
    };
    read.map_err(|e| anyhow!("state file '{}': {e}", path.display()))
}
