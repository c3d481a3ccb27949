//! What a class keeps across a restart of its server: its keys, its
//! students (their ids, so their devices' cookies still name them), the
//! queue, the log and the teacher's settings, in a file beside the
//! machine's state file (`her.json`: `her.class.json`), written whole and
//! atomically after every change, as the state file is.

use std::net::IpAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use menace_core::fsutil::{read_regular_text, write_atomic};

/// A class as it is kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Kept {
    pub(super) code: String,
    pub(super) token: String,
    pub(super) students: Vec<KeptStudent>,
    /// Ids, in order: the student who was playing first (their game is
    /// lost with the server, not their place).
    pub(super) queue: Vec<String>,
    pub(super) log: Vec<KeptGame>,
    pub(super) games: u64,
    pub(super) joined: u32,
    pub(super) per_device: usize,
    pub(super) move_seconds: u64,
    /// The class plays the machine, or is it.
    #[serde(default)]
    pub(super) mode: crate::web::server::deal::ClassMode,
    /// Being the machine, the class draws from real cups.
    #[serde(default)]
    pub(super) cups: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct KeptStudent {
    pub(super) id: String,
    pub(super) number: u32,
    pub(super) name: String,
    pub(super) wins: u32,
    pub(super) draws: u32,
    pub(super) losses: u32,
    pub(super) device: IpAddr,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct KeptGame {
    pub(super) game: u64,
    pub(super) id: String,
    pub(super) student: String,
    pub(super) moves: Vec<String>,
    pub(super) result: String,
    /// Not a game: the teacher replaced the machine (the table and log began again).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(super) replaced: bool,
}

/// The class's file beside the state file `state`.
pub(super) fn beside(state: &Path) -> PathBuf {
    let stem = state
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    state.with_file_name(format!("{stem}.class.json"))
}

/// The class kept at `path`, if there is one; a file that cannot be read
/// as one is refused, naming it.
pub(super) fn read(path: &Path) -> Result<Option<Kept>, String> {
    if !path.exists() {
        return Ok(None);
    }
    let text = read_regular_text(path).map_err(|e| e.to_string())?;
    let kept: Kept = serde_json::from_str(&text).map_err(|e| format!("class file '{}': {e}", path.display()))?;
    Ok(Some(kept))
}

/// Write `kept` to `path`, whole or not at all.
pub(super) fn write(path: &Path, kept: &Kept) -> Result<(), String> {
    let text = serde_json::to_string_pretty(kept).map_err(|e| e.to_string())?;
    write_atomic(path, text.as_bytes()).map_err(|e| format!("the class could not be kept: {e}"))
}
