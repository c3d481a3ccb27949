//! A chart written to its files: PNG and SVG, each atomically.

use std::path::{Path, PathBuf};

use menace_core::experiment::error::{ChartError, OutputError};
use menace_core::fsutil::write_atomic;

use super::chart::Chart;
use super::plan::Plan;
use super::render::{render_png, render_svg};
use super::style::ensure_font;

/// `stem` with `ext` appended (not replacing any dot already in the name).
fn with_suffix(stem: &Path, ext: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Draw `chart` to `stem.png` and `stem.svg` (each written atomically).
/// Errors name the file.
pub fn draw(chart: &Chart, stem: &Path) -> Result<(), OutputError> {
    let png = with_suffix(stem, "png");
    let svg = with_suffix(stem, "svg");
    let fail = |path: &Path| {
        let path = path.to_path_buf();
        move |error: ChartError| OutputError::Chart { path, error }
    };
    let plan = Plan::new(chart).map_err(fail(&png))?;
    ensure_font().map_err(fail(&png))?;
    write_atomic(&png, &render_png(&plan).map_err(fail(&png))?)?;
    write_atomic(&svg, render_svg(&plan).map_err(fail(&svg))?.as_bytes())?;
    Ok(())
}
