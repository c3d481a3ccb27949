//! Reading files (bounded in size), writing them whole or not at all, and
//! locking a file against a second process.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest file the program reads (a state file of a large machine is
/// well under it); reading `/dev/zero` stops here instead of filling memory.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// A file that could not be read or written: the path, what was being done,
/// and the operating system's error (its kind kept, see [`FileError::kind`]).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The operating system refused.
    #[error("cannot {action} '{}': {io}", path.display())]
    Io {
        /// `read`, `write` or `create folder`.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        io: io::Error,
    },
    /// The path names something that is not a regular file (a folder, a device).
    #[error("cannot write '{}': it exists and is not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// A file expected to be one the program wrote is not a regular file (a
    /// FIFO would block the read for ever, a device never end).
    #[error("cannot read '{}': not a regular file", path.display())]
    NotRegular {
        /// The path.
        path: PathBuf,
    },
    /// The file is larger than the program reads.
    #[error("cannot read '{}': larger than {limit} bytes", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The most bytes read.
        limit: u64,
    },
    /// Another process holds the file's lock.
    #[error("'{}' is in use by another menace process (its lock '{}' is held): wait for it to finish", path.display(), lock.display())]
    Locked {
        /// The file.
        path: PathBuf,
        /// Its lock file.
        lock: PathBuf,
    },
}

impl FileError {
    /// The kind of the underlying error (`NotFound`, `PermissionDenied`, ...).
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            FileError::Io { io, .. } => io.kind(),
            FileError::NotAFile { .. } | FileError::NotRegular { .. } => io::ErrorKind::InvalidInput,
            FileError::TooLarge { .. } => io::ErrorKind::FileTooLarge,
            FileError::Locked { .. } => io::ErrorKind::WouldBlock,
        }
    }

    /// The file concerned.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Io { path, .. }
            | FileError::NotAFile { path }
            | FileError::NotRegular { path }
            | FileError::TooLarge { path, .. }
            | FileError::Locked { path, .. } => path,
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

/// The file a write to `path` replaces: a symbolic link's target (never a
/// dangling link), and never a device or folder.
fn write_target(path: &Path) -> Result<PathBuf, FileError> {
    let target = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).map_err(|e| FileError::io("write", path, e))?,
        _ => path.to_path_buf(),
    };
    if let Ok(m) = fs::metadata(&target) {
        if !m.is_file() {
            return Err(FileError::NotAFile { path: target });
        }
    }
    Ok(target)
}

/// The random characters in a temporary file's name: `.F.XXXXXX.menace-tmp`.
const TEMP_RANDOM: usize = 6;

/// The suffix of every temporary file the program writes.
const TEMP_SUFFIX: &str = ".menace-tmp";

/// A fresh, unpredictable temporary file beside `path`, made exclusively (a
/// planted link cannot redirect the write); one a kill leaves behind is
/// plainly a leftover. It is made with mode 0666 less the umask, as any
/// other program's new file is (0644 under 022), so that the file renamed
/// into place is readable by whom the user intends: tempfile's own default
/// is 0600 whatever the umask.
///
/// It comes locked (an advisory `flock`, let go when the file is closed), so
/// that [`remove_leftovers`] in another process passes over a live write.
fn temp_beside(path: &Path) -> Result<tempfile::NamedTempFile, FileError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| FileError::NotAFile {
        path: path.to_path_buf(),
    })?;
    loop {
        let prefix = format!(".{}.", name.to_string_lossy());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(TEMP_SUFFIX).rand_bytes(TEMP_RANDOM);
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let tmp = builder.tempfile_in(&dir).map_err(|e| FileError::io("write", path, e))?;
        tmp.as_file().lock().map_err(|e| FileError::io("write", path, e))?;
        // A cleaner may have taken it for a leftover between its making and
        // its lock: then it is gone from the folder, and another is made.
        if same_file(tmp.as_file(), tmp.path()) {
            return Ok(tmp);
        }
    }
}

/// Whether `path` names the file open as `file` (not another, not nothing).
#[cfg(unix)]
fn same_file(file: &fs::File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Without Unix's file numbers, a file open is taken to be the one its
/// path names (its lock still keeps a second writer off).
#[cfg(not(unix))]
fn same_file(_: &fs::File, path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Open for reading without waiting (a FIFO would block an open for ever)
/// and, with `no_follow`, without following a symbolic link.
fn open_options(no_follow: bool) -> fs::OpenOptions {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use rustix::fs::OFlags;
        let flags = if no_follow {
            OFlags::NONBLOCK | OFlags::NOFOLLOW
        } else {
            OFlags::NONBLOCK
        };
        // The flags are small positive bits on every Unix.
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, flags.bits() as i32);
    }
    #[cfg(not(unix))]
    let _ = no_follow;
    options
}

/// Check before any work that [`write_atomic`] can write `path`: its folder
/// takes a new file, and it is not a folder, a device or a dangling link.
pub fn check_writable(path: &Path) -> Result<(), FileError> {
    temp_beside(&write_target(path)?).map(drop)
}

/// Write `bytes` to `path` atomically: into a temporary file beside it, then
/// renamed over it, so a reader (or a crash) never sees half a file. The
/// error names the path and what went wrong.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomic_with(path, &mut |w| w.write_all(bytes))
}

/// [`write_atomic`] of what `write` writes, streamed through a buffer: a
/// large file is never held whole in memory.
pub fn write_atomic_with(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> Result<(), FileError> {
    // Write through a symbolic link to its target; never replace a device or folder.
    let path = write_target(path)?;
    let mut tmp = temp_beside(&path)?;
    let result = (|| -> io::Result<()> {
        let mut w = io::BufWriter::new(tmp.as_file_mut());
        write(&mut w)?;
        w.flush()?;
        drop(w);
        tmp.as_file().sync_all()?;
        tmp.persist(&path).map_err(|e| e.error)?;
        Ok(())
    })();
    result.map_err(|e| FileError::io("write", &path, e))
}

/// An advisory lock on a file, held until dropped: a second process that
/// asks for it gets [`FileError::Locked`] at once. The lock lives in a file
/// beside it (`.NAME.lock`), since writing replaces the file itself.
#[derive(Debug)]
pub struct FileLock {
    _file: fs::File,
}

/// The file `path` names once symbolic links are followed (to a target
/// that need not exist yet): two spellings of one file get one lock.
fn resolve_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    // A loop of links ends here, and the last name is locked.
    for _ in 0..40 {
        match fs::read_link(&path) {
            Ok(target) => {
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                }
            }
            Err(_) => break,
        }
    }
    path
}

/// Whether `file_name` is that of a temporary file of a write to a file
/// named `name`: `.NAME.XXXXXX.menace-tmp`, exactly (not that of a write to
/// `NAME.x`, say).
fn is_temp_of(file_name: &str, name: &str) -> bool {
    let random = file_name
        .strip_prefix('.')
        .and_then(|n| n.strip_prefix(name))
        .and_then(|n| n.strip_prefix('.'))
        .and_then(|n| n.strip_suffix(TEMP_SUFFIX));
    random.is_some_and(|r| r.len() == TEMP_RANDOM && r.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Remove the temporary files killed writes to `path` left beside it; how
/// many were removed. A temporary file being written by a live process is
/// locked (see `temp_beside`) and kept, so this is safe to call at any time.
pub fn remove_leftovers(path: &Path) -> usize {
    let path = resolve_links(path);
    let (Some(name), dir) = (path.file_name(), path.parent()) else {
        return 0;
    };
    let dir = match dir {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = name.to_string_lossy();
    let Ok(entries) = fs::read_dir(&dir) else { return 0 };
    entries
        .filter_map(Result::ok)
        .filter(|e| is_temp_of(&e.file_name().to_string_lossy(), &name) && e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| remove_if_unlocked(&e.path()))
        .count()
}

/// Remove the temporary file `path` unless a live write holds its lock.
fn remove_if_unlocked(path: &Path) -> bool {
    let Ok(file) = open_options(true).open(path) else {
        return false;
    };
    if file.try_lock().is_err() {
        return false;
    }
    // Still the file opened (not renamed into place in the meantime): the
    // lock held keeps a writer from taking it until it is gone.
    same_file(&file, path) && fs::remove_file(path).is_ok()
}

/// Lock `path` for this process (see [`FileLock`]); the lock is the file's
/// own whatever link it is reached by.
pub fn lock(path: &Path) -> Result<FileLock, FileError> {
    let shown = path;
    let path = &resolve_links(path);
    let name = path.file_name().ok_or_else(|| FileError::NotAFile {
        path: path.to_path_buf(),
    })?;
    let lock = path.with_file_name(format!(".{}.lock", name.to_string_lossy()));
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map_err(|e| FileError::io("lock", shown, e))?;
    match file.try_lock() {
        Ok(()) => Ok(FileLock { _file: file }),
        Err(fs::TryLockError::WouldBlock) => Err(FileError::Locked {
            path: shown.to_path_buf(),
            lock,
        }),
        Err(fs::TryLockError::Error(e)) => Err(FileError::io("lock", shown, e)),
    }
}

/// Create a folder and its parents, naming it in the error.
pub fn create_dir(path: &Path) -> Result<(), FileError> {
    fs::create_dir_all(path).map_err(|e| FileError::io("create folder", path, e))
}

/// Read a whole file as text, naming it in the error; at most
/// [`MAX_FILE_BYTES`] (a device that never ends is refused, not read forever).
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let file = fs::File::open(path).map_err(|e| FileError::io("read", path, e))?;
    read_open(file, path)
}

/// [`read_text`] of a file the program itself wrote (a unit of a run, a
/// shard's record): anything but a regular file is refused, and opening
/// never waits (a FIFO named like a unit would block an open for ever).
pub fn read_regular_text(path: &Path) -> Result<String, FileError> {
    read_open(open_regular(path)?, path)
}

/// A regular file opened for reading without waiting (anything else is
/// refused, as by [`read_regular_text`]), for a caller that reads it as a
/// stream: counting a state file's boxes before reading it whole.
pub fn open_regular(path: &Path) -> Result<fs::File, FileError> {
    let file = open_options(false)
        .open(path)
        .map_err(|e| FileError::io("read", path, e))?;
    let meta = file.metadata().map_err(|e| FileError::io("read", path, e))?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
        });
    }
    Ok(file)
}

/// A file opened to be read as a stream (a state file, read a box at a
/// time, never held whole): `Ok(Err(file))` for anything but a regular
/// file, to read with [`read_open`] as [`read_text`] would (it cannot be
/// read twice, nor its size known), and a regular file larger than
/// [`read_text`] reads refused as it would refuse it.
pub fn open_stream(path: &Path) -> Result<Result<fs::File, fs::File>, FileError> {
    let file = fs::File::open(path).map_err(|e| FileError::io("read", path, e))?;
    let meta = file.metadata().map_err(|e| FileError::io("read", path, e))?;
    if !meta.is_file() {
        return Ok(Err(file));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_FILE_BYTES,
        });
    }
    Ok(Ok(file))
}

/// [`read_text`] of a file already open.
pub fn read_open(file: fs::File, path: &Path) -> Result<String, FileError> {
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io("read", path, e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_FILE_BYTES,
        });
    }
    String::from_utf8(bytes).map_err(|e| FileError::io("read", path, io::Error::new(io::ErrorKind::InvalidData, e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_write_to_the_file_itself_is_its_temporary_file() {
        assert!(is_temp_of(".m.json.Ab3dE9.menace-tmp", "m.json"));
        // Another file's: a write to `m.json.x`, or to `m`.
        assert!(!is_temp_of(".m.json.x.Zq81Lm.menace-tmp", "m.json"));
        assert!(!is_temp_of(".m.json.Ab3dE9.menace-tmp", "m"));
        // Not the pattern: the wrong length, characters, prefix or suffix.
        assert!(!is_temp_of(".m.json.Ab3dE.menace-tmp", "m.json"));
        assert!(!is_temp_of(".m.json.Ab3d-9.menace-tmp", "m.json"));
        assert!(!is_temp_of("m.json.Ab3dE9.menace-tmp", "m.json"));
        assert!(!is_temp_of(".m.json.Ab3dE9.menace-tmpx", "m.json"));
        assert!(!is_temp_of(".m.json.lock", "m.json"));
    }

    #[test]
    fn a_cleaner_never_takes_a_live_writers_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.json");
        let stop = std::sync::atomic::AtomicBool::new(false);
        let bytes = vec![b'x'; 1 << 20];
        std::thread::scope(|s| {
            let writers: Vec<_> = (0..2)
                .map(|_| {
                    s.spawn(|| {
                        for _ in 0..40 {
                            write_atomic(&path, &bytes).unwrap();
                        }
                    })
                })
                .collect();
            s.spawn(|| {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    remove_leftovers(&path);
                }
            });
            for w in writers {
                w.join().unwrap();
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(fs::read(&path).unwrap().len(), 1 << 20);
        // A temporary file nobody holds is a leftover, and goes.
        fs::write(dir.path().join(".f.json.Ab3dE9.menace-tmp"), b"half").unwrap();
        assert_eq!(remove_leftovers(&path), 1);
    }
}
