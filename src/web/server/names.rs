//! Students' names, checked as they join or the teacher renames them: a
//! name is shown on every screen in the room, so it must be one of its
//! own (not another student's, not the machine's), short, and made of
//! characters that are shown as they are: no controls, and none of the
//! invisible ones that reorder or hide text (bidirectional controls,
//! zero-width characters).

/// Characters a name holds at most.
pub(super) const NAME_CHARS: usize = 24;

/// Why a name was refused, in words a student reads.
pub(super) fn check(name: &str, machine: &str, taken: impl Fn(&str) -> bool) -> Result<String, String> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(c) = name.chars().find(|c| hidden(*c)) {
        return Err(format!(
            "a name may not hold U+{:04X}, a character that is not shown as it is: use letters, digits and spaces",
            u32::from(c)
        ));
    }
    let count = name.chars().count();
    if count > NAME_CHARS {
        return Err(format!(
            "a name is at most {NAME_CHARS} characters (this one has {count})"
        ));
    }
    if key(&name) == key(machine) {
        return Err(format!("{machine} is the machine's name: choose your own"));
    }
    if taken(&key(&name)) {
        return Err(format!("{name} is taken in this class: choose another name"));
    }
    Ok(name)
}

/// Names compared as a reader tells them apart: case and spacing aside.
pub(super) fn key(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Characters shown other than as they are, or not at all: controls
/// (Unicode's Cc), format characters (Cf: bidirectional controls,
/// zero-width spaces and joiners, the byte-order mark, tags), line and
/// paragraph separators, private use and non-characters.
fn hidden(c: char) -> bool {
    let u = u32::from(c);
    c.is_control()
        || matches!(
            u,
            0x00AD
                | 0x0600..=0x0605
                | 0x061C
                | 0x06DD
                | 0x070F
                | 0x0890..=0x0891
                | 0x08E2
                | 0x180E
                | 0x200B..=0x200F
                | 0x2028..=0x202E
                | 0x2060..=0x2064
                | 0x2066..=0x206F
                | 0xE000..=0xF8FF
                | 0xFDD0..=0xFDEF
                | 0xFEFF
                | 0xFFF9..=0xFFFB
                | 0x110BD
                | 0x110CD
                | 0x13430..=0x1343F
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0001
                | 0xE0020..=0xE007F
                | 0xF0000..=0x10FFFF
        )
        || u & 0xFFFE == 0xFFFE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> bool {
        false
    }

    #[test]
    fn names_shown_as_they_are_pass_with_their_spacing_tidied() {
        assert_eq!(check("  Ada   Lovelace ", "HER", none), Ok("Ada Lovelace".to_string()));
        assert_eq!(check("Zoë 李", "HER", none), Ok("Zoë 李".to_string()));
        assert_eq!(check(&"x".repeat(24), "HER", none).map(|n| n.len()), Ok(24));
    }

    #[test]
    fn hidden_characters_are_refused_by_code_point() {
        for (c, code) in [
            ('\u{202E}', "U+202E"),
            ('\u{2066}', "U+2066"),
            ('\u{200B}', "U+200B"),
            ('\u{7}', "U+0007"),
            ('\u{FEFF}', "U+FEFF"),
        ] {
            let e = check(&format!("Ada{c}"), "HER", none).unwrap_err();
            assert!(e.contains(code), "{e}");
        }
    }

    #[test]
    fn the_machines_name_others_names_and_long_names_are_refused() {
        assert_eq!(
            check("her", "HER", none),
            Err("HER is the machine's name: choose your own".to_string())
        );
        let taken = |k: &str| k == "ada";
        assert_eq!(
            check("ADA ", "HER", taken),
            Err("ADA is taken in this class: choose another name".to_string())
        );
        assert_eq!(
            check(&"x".repeat(25), "HER", none),
            Err("a name is at most 24 characters (this one has 25)".to_string())
        );
    }
}
