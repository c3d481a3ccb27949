//! Writing files whole or not at all.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Write `bytes` to `path` atomically: into a temporary file beside it, then
/// renamed over it, so a reader (or a crash) never sees half a file. The
/// error names the path and what went wrong.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    // Write through a symbolic link to its target; never replace a device or folder.
    let resolved;
    let path = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            resolved = fs::canonicalize(path).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
            resolved.as_path()
        }
        _ => path,
    };
    if let Ok(m) = fs::metadata(path) {
        if !m.is_file() {
            return Err(format!(
                "cannot write '{}': it exists and is not a regular file",
                path.display()
            ));
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| format!("cannot write '{}': not a file name", path.display()))?;
    let tmp = dir.join(format!(".{}.tmp{}", name.to_string_lossy(), std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("cannot write '{}': {e}", path.display())
    })
}

/// Create a folder and its parents, naming it in the error.
pub fn create_dir(path: &Path) -> Result<(), String> {
    fs::create_dir_all(path).map_err(|e| format!("cannot create folder '{}': {e}", path.display()))
}

/// Read a whole file as text, naming it in the error.
pub fn read_text(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))
}
