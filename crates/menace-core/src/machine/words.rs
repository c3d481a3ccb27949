//! A machine's settings in words, all written here from the settings
//! themselves: the short summary (`beads 1, reinforcement gardner, ...`)
//! that the command line, an experiment's curves and summary and the page
//! show; each part of it in plain words, for a chart's caption; and what a
//! machine does, in words for a class: its boxes and first beads, what each
//! result changes, and what it does at an empty box. The page says this
//! beside the game's rules, so the words and the beads a game changes
//! always agree.

use std::fmt;

use super::boxes::BoxSet;
use super::settings::{BeadSchedule, BoxMode, EmptyBox, MachineSettings, Reinforcement, Scope};

/// One part of a machine's settings as the summary names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `beads 4/3/2/1`.
    Beads(BeadSchedule),
    /// `reinforcement michie`, `reinforcement +1/+0/-1:last`.
    Reinforcement(Reinforcement),
    /// `empty box resign`.
    EmptyBox(EmptyBox),
    /// `boxes choices`.
    Boxes(BoxSet),
    /// `no symmetry`: mirror images kept in boxes of their own.
    NoSymmetry,
}

impl Setting {
    /// Read a part back from the summary's text (a curves file's
    /// `settings` column), by the same parsers the settings are read with;
    /// `None` for text that is no part.
    pub fn parse(part: &str) -> Option<Setting> {
        if part == "no symmetry" {
            return Some(Setting::NoSymmetry);
        }
        let (key, value) = part.rsplit_once(' ')?;
        match key {
            "beads" => BeadSchedule::parse(value).ok().map(Setting::Beads),
            "reinforcement" => Reinforcement::parse(value).ok().map(Setting::Reinforcement),
            "empty box" => EmptyBox::parse(value).ok().map(Setting::EmptyBox),
            "boxes" => BoxSet::parse(value).ok().map(Setting::Boxes),
            _ => None,
        }
    }

    /// The part in plain words, for a chart: `one bead a move`, `Gardner's rule`.
    pub fn plain(&self) -> String {
        match self {
            Setting::Beads(b) => match b.0.as_slice() {
                [1] => "one bead a move".to_string(),
                [n] => format!("{n} beads a move"),
                all => format!(
                    "beads by move {}",
                    all.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
                ),
            },
            Setting::Reinforcement(r) if *r == Reinforcement::GARDNER => "Gardner's rule".to_string(),
            Setting::Reinforcement(r) if *r == Reinforcement::MICHIE => "Michie's rule, +3/+1/−1".to_string(),
            Setting::Reinforcement(r) => format!(
                "{:+} a win, {:+} a draw, {} a loss{}",
                r.win,
                r.draw,
                format!("{:+}", r.loss).replace('-', "−"),
                if r.scope == Scope::Last {
                    " on the last move"
                } else {
                    ""
                }
            ),
            Setting::EmptyBox(EmptyBox::Resign) => "resigns at an empty box".to_string(),
            Setting::EmptyBox(EmptyBox::Restock) => "an empty box is refilled".to_string(),
            Setting::EmptyBox(EmptyBox::Floor(n)) => format!("never fewer than {n} beads"),
            Setting::Boxes(BoxSet::All) => "a box for every position".to_string(),
            Setting::Boxes(BoxSet::Choices) => "boxes only where there is a choice".to_string(),
            Setting::Boxes(BoxSet::Michie) => "Michie's boxes".to_string(),
            Setting::NoSymmetry => "mirror images in boxes of their own".to_string(),
        }
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setting::Beads(b) => write!(f, "beads {b}"),
            Setting::Reinforcement(r) => write!(f, "reinforcement {r}"),
            Setting::EmptyBox(e) => write!(f, "empty box {e}"),
            Setting::Boxes(b) => write!(f, "boxes {}", b.name()),
            Setting::NoSymmetry => write!(f, "no symmetry"),
        }
    }
}

impl MachineSettings {
    /// The settings' parts, as the summary names them (the box mode, how
    /// boxes are made, changes no game and is left out).
    pub fn parts(&self) -> Vec<Setting> {
        let mut parts = vec![
            Setting::Beads(self.beads.clone()),
            Setting::Reinforcement(self.reinforcement),
            Setting::EmptyBox(self.empty_box),
            Setting::Boxes(self.box_set),
        ];
        if !self.symmetry {
            parts.push(Setting::NoSymmetry);
        }
        parts
    }

    /// The short summary for titles, summaries and curves files:
    /// `beads 1, reinforcement gardner, empty box resign, boxes all`.
    ///
    /// ```
    /// use menace_core::machine::settings::MachineSettings;
    /// use menace_core::machine::words::Setting;
    /// let text = MachineSettings::michie().describe();
    /// assert_eq!(text, "beads 4/3/2/1, reinforcement michie, empty box resign, boxes choices");
    /// let plain: Vec<String> = text.split(", ").filter_map(Setting::parse).map(|p| p.plain()).collect();
    /// assert_eq!(plain[0], "beads by move 4, 3, 2, 1");
    /// assert_eq!(plain[1], "Michie's rule, +3/+1/−1");
    /// ```
    pub fn describe(&self) -> String {
        self.parts()
            .iter()
            .map(Setting::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What a machine called `name` with these settings does, in three or
    /// four short paragraphs: its boxes and beads, how it moves, what each
    /// result changes (a draw only where the game `can_draw`), and what
    /// happens at an empty box.
    ///
    /// ```
    /// use menace_core::machine::settings::MachineSettings;
    /// let her = MachineSettings::gardner().what_it_does("HER", false).join(" ");
    /// assert!(her.contains("After a win, no bead changes."));
    /// assert!(her.contains("only the box of HER's last move changes: it loses 1 bead of the colour drawn from it"));
    /// assert!(!her.contains("a draw"));
    /// let menace = MachineSettings::michie().what_it_does("MENACE", true).join(" ");
    /// assert!(menace.contains("After a win, every box MENACE drew from gains 3 beads of the colour drawn from it."));
    /// ```
    pub fn what_it_does(&self, name: &str, can_draw: bool) -> Vec<String> {
        let mut boxes = format!(
            "{name} keeps a matchbox for each position it may face{}. A box holds beads of one colour for each move it may make there: to start, {}. To move, {name} draws a bead at random from the box for the position and plays that colour's move.",
            box_set_words(self.box_set),
            schedule_words(&self.beads)
        );
        if self.box_mode == BoxMode::FirstVisit {
            boxes.push_str(" It opens a box the first time it meets a position.");
        }
        vec![
            boxes,
            reinforcement_words(&self.reinforcement, name, can_draw),
            empty_box_words(self.empty_box, &self.reinforcement, name),
        ]
    }
}

/// Which positions have a box, after "a matchbox for each position it may face".
fn box_set_words(set: BoxSet) -> &'static str {
    match set {
        BoxSet::All => "",
        BoxSet::Choices => " where it has a choice of moves (a forced move it plays without a box)",
        BoxSet::Michie => {
            " where it has a choice of moves and some hope (where it cannot win at once and every move lets the other side win at once, it moves at random without a box, as Michie left those boxes out)"
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `1 bead` / `3 beads`.
fn beads(n: u64) -> String {
    if n == 1 {
        "1 bead".to_string()
    } else {
        format!("{n} beads")
    }
}

/// The first beads of a box, by the machine's move: `one bead of each
/// colour`, or `4 beads of each colour in a box for its 1st move, 3 for its
/// 2nd, ... and 1 for its 4th and later`.
fn schedule_words(schedule: &BeadSchedule) -> String {
    let mut counts = schedule.0.clone();
    // The last count repeats for later moves: a run of it at the end says no more.
    while counts.len() > 1 && counts[counts.len() - 1] == counts[counts.len() - 2] {
        counts.pop();
    }
    match counts.as_slice() {
        [] | [1] => "one bead of each colour".to_string(),
        [k] => format!("{} of each colour", beads(u64::from(*k))),
        [first, rest @ ..] => {
            let mut parts = vec![format!(
                "{} of each colour in a box for its 1st move",
                beads(u64::from(*first))
            )];
            let last = rest.len();
            for (i, k) in rest.iter().enumerate() {
                let own = ordinal(i + 2);
                parts.push(if i + 1 == last {
                    format!("and {k} for its {own} and later")
                } else {
                    format!("{k} for its {own}")
                });
            }
            parts.join(", ")
        }
    }
}

/// What one result changes, as a sentence after "After a win" (or several
/// results with the same change: "After a win or a draw").
fn change_words(delta: i32, scope: Scope, name: &str) -> String {
    let n = u64::from(delta.unsigned_abs());
    let (verb, tail) = if delta > 0 {
        ("gains", "")
    } else {
        ("loses", if n > 1 { " (as many as it holds)" } else { "" })
    };
    match (delta, scope) {
        (0, _) => "no bead changes".to_string(),
        (_, Scope::All) => format!(
            "every box {name} drew from {verb} {} of the colour drawn from it{tail}",
            beads(n)
        ),
        (_, Scope::Last) => format!(
            "only the box of {name}'s last move changes: it {verb} {} of the colour drawn from it{tail}; no other bead changes",
            beads(n)
        ),
    }
}

/// What each result changes: a sentence per change, results that change the
/// same named together, draws left out of a game that has none.
fn reinforcement_words(r: &Reinforcement, name: &str, can_draw: bool) -> String {
    let mut results = vec![("a win", r.win)];
    if can_draw {
        results.push(("a draw", r.draw));
    }
    results.push(("a loss", r.loss));
    let mut groups: Vec<(Vec<&str>, i32)> = Vec::new();
    for (result, delta) in results {
        match groups.iter_mut().find(|(_, d)| *d == delta) {
            Some((named, _)) => named.push(result),
            None => groups.push((vec![result], delta)),
        }
    }
    let mut said: Vec<String> = groups
        .iter()
        .map(|(named, delta)| format!("After {}, {}.", named.join(" or "), change_words(*delta, r.scope, name)))
        .collect();
    let rule = if *r == Reinforcement::GARDNER {
        Some("Gardner's rule")
    } else if *r == Reinforcement::MICHIE {
        Some("Michie's rule")
    } else {
        None
    };
    said.push(match rule {
        Some(rule) => format!("This is {rule}."),
        None => format!("This is the rule {r}."),
    });
    said.join(" ")
}

/// What happens when the box to draw from is empty.
fn empty_box_words(rule: EmptyBox, r: &Reinforcement, name: &str) -> String {
    let never_loses = r.win >= 0 && r.draw >= 0 && r.loss >= 0;
    match rule {
        _ if never_loses => "This rule never takes a bead away, so no box ever empties.".to_string(),
        EmptyBox::Resign => {
            let after = match (r.loss, r.scope) {
                (0, _) => "; no bead changes".to_string(),
                (_, Scope::Last) => format!(
                    ", and as after any loss the box of {name}'s last move, the one that led there, {} {} of the colour drawn from it",
                    if r.loss > 0 { "gains" } else { "loses" },
                    beads(u64::from(r.loss.unsigned_abs()))
                ),
                (_, Scope::All) => ", and the boxes it drew from change as after any loss".to_string(),
            };
            format!("If the box {name} must draw from is empty, {name} resigns: the game counts as a loss{after}.")
        }
        EmptyBox::Restock => format!(
            "If the box {name} must draw from is empty, it is filled again with its starting beads, and {name} draws from it."
        ),
        EmptyBox::Floor(k) => format!(
            "No colour in a box ever drops below {}: where taking beads away would leave fewer, it keeps that many. So no box ever empties.",
            beads(u64::from(k))
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_in_words() {
        let words = |s: &str| schedule_words(&BeadSchedule::parse(s).unwrap());
        assert_eq!(words("1"), "one bead of each colour");
        assert_eq!(words("2/2/2"), "2 beads of each colour");
        assert_eq!(
            words("4/3/2/1"),
            "4 beads of each colour in a box for its 1st move, 3 for its 2nd, 2 for its 3rd, and 1 for its 4th and later"
        );
        assert_eq!(
            words("8/4/4"),
            "8 beads of each colour in a box for its 1st move, and 4 for its 2nd and later"
        );
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(22), "22nd");
    }

    #[test]
    fn a_custom_rule_says_its_own_numbers() {
        let mut s = MachineSettings::michie();
        s.reinforcement = Reinforcement::parse("2/0/-3:last").unwrap();
        s.empty_box = EmptyBox::Floor(2);
        let text = s.what_it_does("M", true).join(" ");
        assert!(text.contains("After a win, only the box of M's last move changes: it gains 2 beads of the colour drawn from it; no other bead changes."), "{text}");
        assert!(text.contains("After a draw, no bead changes."), "{text}");
        assert!(
            text.contains("it loses 3 beads of the colour drawn from it (as many as it holds)"),
            "{text}"
        );
        assert!(text.contains("+2/+0/-3:last"), "{text}");
        assert!(text.contains("No colour in a box ever drops below 2 beads"), "{text}");
        s.reinforcement = Reinforcement::parse("1/1/0").unwrap();
        let text = s.what_it_does("M", true).join(" ");
        assert!(
            text.contains("After a win or a draw, every box M drew from gains 1 bead"),
            "{text}"
        );
        assert!(text.contains("After a loss, no bead changes."), "{text}");
        assert!(text.contains("no box ever empties"), "{text}");
    }
}

#[cfg(test)]
mod parts_tests {
    use super::*;

    #[test]
    fn every_part_reads_back_and_says_itself_plainly() {
        let custom = MachineSettings {
            beads: BeadSchedule(vec![3]),
            reinforcement: Reinforcement::parse("1/0/-1:last").unwrap(),
            empty_box: EmptyBox::Floor(2),
            box_set: BoxSet::Michie,
            box_mode: BoxMode::Auto,
            symmetry: false,
        };
        assert_eq!(
            custom.describe(),
            "beads 3, reinforcement +1/+0/-1:last, empty box floor:2, boxes michie, no symmetry"
        );
        let plain: Vec<String> = custom
            .describe()
            .split(", ")
            .map(|part| {
                let setting = Setting::parse(part).expect("a part");
                assert_eq!(setting.to_string(), part);
                setting.plain()
            })
            .collect();
        assert_eq!(
            plain,
            [
                "3 beads a move",
                "+1 a win, +0 a draw, −1 a loss on the last move",
                "never fewer than 2 beads",
                "Michie's boxes",
                "mirror images in boxes of their own",
            ]
        );
        let her: Vec<String> = MachineSettings::gardner().parts().iter().map(Setting::plain).collect();
        assert_eq!(
            her,
            [
                "one bead a move",
                "Gardner's rule",
                "resigns at an empty box",
                "a box for every position"
            ]
        );
        assert_eq!(Setting::parse("seed 3"), None);
    }

    #[test]
    fn the_scroggs_preset_in_words() {
        let s = MachineSettings::scroggs();
        assert_eq!(
            s.describe(),
            "beads 8/4/2/1, reinforcement michie, empty box resign, boxes choices"
        );
        let plain: Vec<String> = s.parts().iter().map(Setting::plain).collect();
        assert_eq!(
            plain,
            [
                "beads by move 8, 4, 2, 1",
                "Michie's rule, +3/+1/−1",
                "resigns at an empty box",
                "boxes only where there is a choice"
            ]
        );
        let text = s.what_it_does("MENACE", true).join(" ");
        assert!(
            text.contains("8 beads of each colour in a box for its 1st move, 4 for its 2nd, 2 for its 3rd, and 1 for its 4th and later"),
            "{text}"
        );
        assert!(
            text.contains("After a win, every box MENACE drew from gains 3 beads of the colour drawn from it."),
            "{text}"
        );
    }
}
