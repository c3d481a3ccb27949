//! Text on printed pages: widths measured with the shipped font's own
//! advances (SVG does not wrap text, so the pages wrap and fit it here).

use std::sync::OnceLock;

use crate::font::FONT_BYTES;

/// Millimetres in a typographic point.
pub const MM_PER_PT: f64 = 25.4 / 72.0;

/// The smallest text the sheets print, in points.
pub const MIN_PT: f64 = 7.0;

/// Advance widths of the shipped font, in em, for the characters it has.
struct Metrics {
    face: ttf_parser::Face<'static>,
    per_em: f64,
}

fn metrics() -> Option<&'static Metrics> {
    static METRICS: OnceLock<Option<Metrics>> = OnceLock::new();
    METRICS
        .get_or_init(|| {
            let face = ttf_parser::Face::parse(FONT_BYTES, 0).ok()?;
            let per_em = f64::from(face.units_per_em());
            Some(Metrics { face, per_em })
        })
        .as_ref()
}

/// The width in millimetres of `text` set at `pt` points.
pub fn width(text: &str, pt: f64) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| {
            metrics()
                .and_then(|m| {
                    let glyph = m.face.glyph_index(c)?;
                    Some(f64::from(m.face.glyph_hor_advance(glyph)?) / m.per_em)
                })
                // A character the font lacks is drawn as a box about this wide.
                .unwrap_or(0.7)
        })
        .sum();
    em * pt * MM_PER_PT
}

/// `text` broken into lines no wider than `max` millimetres at `pt` points,
/// at spaces (a word wider than a line gets a line of its own).
pub fn wrap(text: &str, pt: f64, max: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let tried = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width(&tried, pt) <= max || line.is_empty() {
            line = tried;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// At most `max` millimetres of `text` at `pt` points, an ellipsis marking a cut.
pub fn fitted(text: &str, pt: f64, max: f64) -> String {
    if width(text, pt) <= max {
        return text.to_string();
    }
    let mut out: String = text.to_string();
    while !out.is_empty() && width(&format!("{out}…"), pt) > max {
        out.pop();
    }
    format!("{out}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_come_from_the_font() {
        // DejaVu Sans: the digits are 1303 units of 2048 wide, a space 651.
        let digit = 1303.0 / 2048.0 * 10.0 * MM_PER_PT;
        assert!((width("0", 10.0) - digit).abs() < 1e-9);
        assert!((width("12 3", 10.0) - (3.0 * digit + 651.0 / 2048.0 * 10.0 * MM_PER_PT)).abs() < 1e-9);
    }

    #[test]
    fn wrapping_keeps_every_word_and_the_width() {
        let text = "open the box for the position on the board and shake it";
        let lines = wrap(text, 10.0, 30.0);
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), text);
        assert!(lines.iter().all(|l| width(l, 10.0) <= 30.0));
        assert_eq!(fitted("abc", 10.0, 100.0), "abc");
        assert!(width(&fitted(text, 10.0, 20.0), 10.0) <= 20.0);
    }
}
