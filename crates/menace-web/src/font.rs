//! The one font the program draws text with, DejaVu Sans, embedded: charts
//! render with it and the classroom page serves it, so nothing depends on
//! the fonts a system has.

/// The TrueType file (licence in `assets/DejaVuSans-LICENSE.txt`).
pub static FONT_BYTES: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");
