//! Reading a state file back (`train --resume`, `play --state`, `boxes
//! --state`): one way for every command, and one wording of its errors.

use std::path::Path;

use anyhow::anyhow;

use menace::fsutil::read_text;
use menace::prelude::*;
use menace::training::state;
use menace::training::trainer::Trainer;

/// The trainer a state file for `game` holds; errors name the file, and
/// the field where one is wrong. The command line's one bound on a state
/// file is its size ([`menace::fsutil::MAX_FILE_BYTES`]): it reads back any
/// machine `menace train` saves within it, however many boxes (`menace
/// serve --state` counts them first, against the server's own limit).
pub fn read_state<G: Game>(game: &G, path: &Path) -> anyhow::Result<Trainer<G>> {
    let text = read_text(path).map_err(|e| anyhow!(e))?;
    state::from_json(game, &text).map_err(|e| anyhow!("state file '{}': {e}", path.display()))
}
