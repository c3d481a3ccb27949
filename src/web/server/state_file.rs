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
    /// A digest of the text last read from it or written to it: a file
    /// touched (its time changed, its text not) is still this server's.
    pub(super) text: Mutex<Option<u64>>,
    /// Why the last save failed, until one succeeds: the machine in memory
    /// holds games the file does not.
    pub(super) unsaved: Mutex<Option<String>>,
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
    pub(super) fn new(path: PathBuf) -> StateFile {
        StateFile {
            seen: Mutex::new(stamp(&path)),
            path,
            owner: Mutex::new(None),
            text: Mutex::new(None),
            unsaved: Mutex::new(None),
        }
    }

    /// The file's text was read (to make a machine of it).
    pub(super) fn read(&self, text: &str) {
        *lock(&self.text) = Some(digest(text.as_bytes()));
    }

    /// Save `text`, unless something else changed the file's text since
    /// this server last read or wrote it; whether it failed is kept.
    pub(super) fn write(&self, text: &str) -> Result<(), SaveError> {
        let saved = self.write_unless_changed(text);
        *lock(&self.unsaved) = saved.as_ref().err().map(ToString::to_string);
        saved
    }

    fn write_unless_changed(&self, text: &str) -> Result<(), SaveError> {
        let mut seen = lock(&self.seen);
        let now = stamp(&self.path);
        if now.is_some() && now != *seen && !self.unchanged() {
            return Err(SaveError::ChangedOnDisk(self.path.clone()));
        }
        write_atomic(&self.path, text.as_bytes())?;
        *seen = stamp(&self.path);
        *lock(&self.text) = Some(digest(text.as_bytes()));
        Ok(())
    }

    /// Whether the file, found with another time or identity, still holds
    /// the text this server last read or wrote (a `touch`, a copy back).
    fn unchanged(&self) -> bool {
        let known = *lock(&self.text);
        known.is_some() && std::fs::read(&self.path).ok().map(|b| digest(&b)) == known
    }
}

/// FNV-1a, 64 bits: enough to tell a file's text from another's here
/// (not a defence: whoever can write the file can do anything to it).
fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}
