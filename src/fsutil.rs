//! Reading files, and writing them whole or not at all.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A file that could not be read or written: the path, what was being done,
/// and the operating system's error (its kind kept, see [`FileError::kind`]).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The operating system refused.
    #[error("cannot {action} '{}': {io}", path.display())]
    Io {
        /// `read`, `write` or `create folder`.
        action: &'static str,
        path: PathBuf,
        io: io::Error,
    },
    /// The path names something that is not a regular file (a folder, a device).
    #[error("cannot write '{}': it exists and is not a regular file", path.display())]
    NotAFile { path: PathBuf },
}

impl FileError {
    /// The kind of the underlying error (`NotFound`, `PermissionDenied`, ...).
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            FileError::Io { io, .. } => io.kind(),
            FileError::NotAFile { .. } => io::ErrorKind::InvalidInput,
        }
    }

    /// The file concerned.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Io { path, .. } | FileError::NotAFile { path } => path,
        }
    }

    fn io(action: &'static str, path: &Path, io: io::Error) -> FileError {
        FileError::Io {
            action,
            path: path.to_path_buf(),
            io,
        }
    }
}

/// Write `bytes` to `path` atomically: into a temporary file beside it, then
/// renamed over it, so a reader (or a crash) never sees half a file. The
/// error names the path and what went wrong.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    // Write through a symbolic link to its target; never replace a device or folder.
    let resolved;
    let path = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            resolved = fs::canonicalize(path).map_err(|e| FileError::io("write", path, e))?;
            resolved.as_path()
        }
        _ => path,
    };
    if let Ok(m) = fs::metadata(path) {
        if !m.is_file() {
            return Err(FileError::NotAFile {
                path: path.to_path_buf(),
            });
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| FileError::NotAFile {
        path: path.to_path_buf(),
    })?;
    let tmp = dir.join(format!(".{}.tmp{}", name.to_string_lossy(), std::process::id()));
    let result = (|| -> io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        FileError::io("write", path, e)
    })
}

/// Create a folder and its parents, naming it in the error.
pub fn create_dir(path: &Path) -> Result<(), FileError> {
    fs::create_dir_all(path).map_err(|e| FileError::io("create folder", path, e))
}

/// Read a whole file as text, naming it in the error.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    fs::read_to_string(path).map_err(|e| FileError::io("read", path, e))
}
