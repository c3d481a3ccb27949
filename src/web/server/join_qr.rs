//! The join address as a QR code in SVG, for the projector: a phone's
//! camera opens the class page from the back of the room.

use std::fmt::Write;

/// `text` as a QR code: an SVG of one path, a module a unit, with the
/// standard quiet zone of four modules; None if it is too long to encode.
pub(super) fn svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    let width = code.width();
    let side = width + 8;
    let mut path = String::new();
    for (k, colour) in code.to_colors().into_iter().enumerate() {
        if colour == qrcode::Color::Dark {
            let _ = write!(path, "M{} {}h1v1h-1z", k % width + 4, k / width + 4);
        }
    }
    Some(format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" shape-rendering="crispEdges" role="img" aria-label="QR code of {text}"><rect width="{side}" height="{side}" fill="#fff"/><path d="{path}" fill="#000"/></svg>"##
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_address_is_a_square_of_dark_modules_inside_a_quiet_zone() {
        let svg = svg("http://192.168.1.20:8000/").unwrap();
        // 25 characters in byte mode at error correction M: version 2, 25 modules a side.
        assert!(svg.contains(r#"viewBox="0 0 33 33""#), "{svg}");
        // The three finder patterns' corners: each a dark module.
        for corner in ["M4 4h1", "M28 4h1", "M4 28h1"] {
            assert!(svg.contains(corner), "{corner} in {svg}");
        }
        assert!(!svg.contains("M3 "), "nothing in the quiet zone");
    }
}
