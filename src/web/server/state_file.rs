//! The `--state` file: who may write it, and the version last read or
//! written, so that a save never overwrites a file changed by something else.

use std::path::PathBuf;
use std::sync::Mutex;

use crate::web::server::slot::lock;
use menace_core::fsutil::{write_atomic, FileError};

/// A file's identity and version, to tell whether something else changed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: i64,
    mtime_nsec: i64,
}

pub(super) fn stamp(path: &std::path::Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some(Stamp {
        dev: m.dev(),
        ino: m.ino(),
        len: m.len(),
        mtime: m.mtime(),
        mtime_nsec: m.mtime_nsec(),
    })
}

/// The `--state` file: who may write it, and the version last read or written.
pub(super) struct StateFile {
    pub(super) path: PathBuf,
    /// The session whose machine is saved to it.
    pub(super) owner: Mutex<Option<u64>>,
    /// The file as this server last saw it: a save finding another refuses.
    pub(super) seen: Mutex<Option<Stamp>>,
}

/// Why a machine was not saved to the `--state` file.
#[derive(Debug, thiserror::Error)]
pub(super) enum SaveError {
    #[error(
        "the machine was not saved: '{}' was changed on disk since this server last read or wrote it, \
         and is left as it is (download this machine to keep it; restart menace serve to use the new file)",
        .0.display()
    )]
    ChangedOnDisk(PathBuf),
    #[error("the machine could not be saved: {0}")]
    Write(#[from] FileError),
}

impl StateFile {
    pub(super) fn write(&self, text: &str) -> Result<(), SaveError> {
        let mut seen = lock(&self.seen);
        let now = stamp(&self.path);
        if now.is_some() && now != *seen {
            return Err(SaveError::ChangedOnDisk(self.path.clone()));
        }
        write_atomic(&self.path, text.as_bytes())?;
        *seen = stamp(&self.path);
        Ok(())
    }
}
