//! A machine's settings: bead schedule, reinforcement, empty-box rule, box set.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{FieldError, InvalidValue};
use crate::game::MachinePreset;
use crate::machine::boxes::BoxSet;

/// Initial beads per colour, by the machine's own move number (1st, 2nd,
/// ...); the last entry repeats for later moves. Gardner: `[1]`; Michie: `[4, 3, 2, 1]`;
/// Scroggs's page: `[8, 4, 2, 1]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BeadSchedule(pub Vec<u32>);

impl BeadSchedule {
    /// Beads per colour for a box at the machine's `own_move`-th move (from 1).
    pub fn beads(&self, own_move: u32) -> u32 {
        let i = (own_move.max(1) - 1) as usize;
        self.0.get(i).or(self.0.last()).copied().unwrap_or(1)
    }

    /// Read `1`, `4/3/2/1` or `4,3,2,1`.
    pub fn parse(text: &str) -> Result<BeadSchedule, InvalidValue> {
        let err = || {
            InvalidValue::new(
                "bead schedule",
                text,
                "expected bead counts by move such as 1 or 4,3,2,1 (each 1 to 1000000)",
            )
        };
        let counts: Result<Vec<u32>, _> = text.split([',', '/']).map(|p| p.trim().parse::<u32>()).collect();
        match counts {
            Ok(c) if !c.is_empty() && c.iter().all(|&n| (1..=1_000_000).contains(&n)) => Ok(BeadSchedule(c)),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for BeadSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(u32::to_string).collect();
        write!(f, "{}", parts.join("/"))
    }
}

/// Which of the machine's moves a reinforcement touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Every move the machine played in the game.
    All,
    /// Only the machine's last move.
    Last,
}

/// Beads added (or taken away, if negative) after a win, a draw or a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reinforcement {
    /// Beads added to each bead played after a win.
    pub win: i32,
    /// Beads added after a draw.
    pub draw: i32,
    /// Beads added after a loss (negative: taken away).
    pub loss: i32,
    /// Which moves' beads change: every move played, or only the last.
    pub scope: Scope,
}

impl Reinforcement {
    /// Gardner's HER: after a loss, take away the bead of the last move; nothing else.
    pub const GARDNER: Reinforcement = Reinforcement {
        win: 0,
        draw: 0,
        loss: -1,
        scope: Scope::Last,
    };
    /// Michie's MENACE: +3 a win, +1 a draw, −1 a loss, on every move played.
    pub const MICHIE: Reinforcement = Reinforcement {
        win: 3,
        draw: 1,
        loss: -1,
        scope: Scope::All,
    };

    /// Read `gardner`, `michie`, or custom deltas `W/D/L` with an optional
    /// scope, e.g. `3/1/-1` (all moves) or `1/0/-1:last`.
    pub fn parse(text: &str) -> Result<Reinforcement, InvalidValue> {
        let err = || {
            InvalidValue::new(
                "reinforcement",
                text,
                "expected gardner, michie, or win/draw/loss deltas like 3/1/-1 or 1/0/-1:last, each from -1000000 to 1000000",
            )
        };
        match text.trim() {
            "gardner" => return Ok(Self::GARDNER),
            "michie" => return Ok(Self::MICHIE),
            _ => {}
        }
        let (deltas, scope) = match text.trim().split_once(':') {
            Some((d, "last")) => (d, Scope::Last),
            Some((d, "all")) => (d, Scope::All),
            Some(_) => return Err(err()),
            None => (text.trim(), Scope::All),
        };
        let parts: Result<Vec<i32>, _> = deltas.split(['/', ',']).map(|p| p.trim().parse::<i32>()).collect();
        match parts {
            Ok(p) if p.len() == 3 && p.iter().all(|d| d.unsigned_abs() <= 1_000_000) => Ok(Reinforcement {
                win: p[0],
                draw: p[1],
                loss: p[2],
                scope,
            }),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for Reinforcement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Self::GARDNER {
            return write!(f, "gardner");
        }
        if *self == Self::MICHIE {
            return write!(f, "michie");
        }
        let scope = if self.scope == Scope::Last { ":last" } else { "" };
        write!(f, "{:+}/{:+}/{:+}{scope}", self.win, self.draw, self.loss)
    }
}

/// What happens when the machine must draw from an empty box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "rule", content = "beads")]
pub enum EmptyBox {
    /// The machine resigns (the historical rule).
    Resign,
    /// The box is refilled with its initial beads.
    Restock,
    /// Bead counts never drop below this many (at least 1), so no box empties.
    Floor(u32),
}

impl EmptyBox {
    /// Read `resign`, `restock` or `floor:N` (N ≥ 1).
    pub fn parse(text: &str) -> Result<EmptyBox, InvalidValue> {
        let err = || {
            InvalidValue::new(
                "empty-box rule",
                text,
                "expected resign, restock or floor:N with N from 1 to 1000000",
            )
        };
        match text.trim() {
            "resign" => Ok(EmptyBox::Resign),
            "restock" => Ok(EmptyBox::Restock),
            t => match t.strip_prefix("floor:").map(str::parse::<u32>) {
                // The same bounds a state file is checked against, so what is accepted here loads again.
                Some(Ok(n)) if (1..=1_000_000).contains(&n) => Ok(EmptyBox::Floor(n)),
                _ => Err(err()),
            },
        }
    }
}

impl fmt::Display for EmptyBox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmptyBox::Resign => write!(f, "resign"),
            EmptyBox::Restock => write!(f, "restock"),
            EmptyBox::Floor(n) => write!(f, "floor:{n}"),
        }
    }
}

/// Whether boxes are all made before the first game or opened as positions are met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoxMode {
    /// Enumerate when the game is small enough, else open on first visit.
    Auto,
    /// Every box the machine could need, made up front.
    Enumerate,
    /// A box is made the first time its position is met.
    FirstVisit,
}

impl BoxMode {
    /// Read `auto`, `enumerate` or `first-visit`.
    pub fn parse(text: &str) -> Result<BoxMode, InvalidValue> {
        match text.trim() {
            "auto" => Ok(BoxMode::Auto),
            "enumerate" => Ok(BoxMode::Enumerate),
            "first-visit" => Ok(BoxMode::FirstVisit),
            _ => Err(InvalidValue::new(
                "box mode",
                text,
                "expected auto, enumerate or first-visit",
            )),
        }
    }
}

/// Everything that decides how a machine plays and learns (but not its side).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MachineSettings {
    /// How many beads a box starts with, by move number.
    pub beads: BeadSchedule,
    /// What each result adds or takes away.
    pub reinforcement: Reinforcement,
    /// What the machine does at an empty box.
    pub empty_box: EmptyBox,
    /// Which positions get a box.
    pub box_set: BoxSet,
    /// Whether boxes are made up front or on first visit.
    pub box_mode: BoxMode,
    /// Merge positions that are images of each other under the game's symmetries.
    pub symmetry: bool,
}

impl MachineSettings {
    /// A preset by its name (see [`MachinePreset::name`]): `gardner`, `michie` or `scroggs`.
    pub fn preset(name: &str) -> Result<MachineSettings, InvalidValue> {
        MachinePreset::parse(name).map(MachineSettings::of_preset)
    }

    /// The settings of a historical machine.
    pub fn of_preset(preset: MachinePreset) -> MachineSettings {
        match preset {
            MachinePreset::Gardner => MachineSettings::gardner(),
            MachinePreset::Michie => MachineSettings::michie(),
            MachinePreset::Scroggs => MachineSettings::scroggs(),
        }
    }

    /// Gardner's HER: one bead per move, the last move's bead removed after a loss.
    pub fn gardner() -> MachineSettings {
        MachineSettings {
            beads: BeadSchedule(vec![1]),
            reinforcement: Reinforcement::GARDNER,
            empty_box: EmptyBox::Resign,
            box_set: BoxSet::All,
            box_mode: BoxMode::Auto,
            symmetry: true,
        }
    }

    /// Michie's MENACE: 4/3/2/1 beads, +3/+1/−1 on every move, no boxes for forced moves.
    pub fn michie() -> MachineSettings {
        MachineSettings {
            beads: BeadSchedule(vec![4, 3, 2, 1]),
            reinforcement: Reinforcement::MICHIE,
            empty_box: EmptyBox::Resign,
            box_set: BoxSet::Choices,
            box_mode: BoxMode::Auto,
            symmetry: true,
        }
    }

    /// MENACE as Matthew Scroggs's page (mscroggs.co.uk/menace, the
    /// defaults of its `menace.js`) sets it up: 8/4/2/1 beads by the
    /// machine's move, +3/+1/−1 on every move (no box below 0 beads), a box
    /// for each of the 304 positions up to symmetry where it has a choice,
    /// and an empty box resigns (an empty first box: it refuses to play).
    pub fn scroggs() -> MachineSettings {
        MachineSettings {
            beads: BeadSchedule(vec![8, 4, 2, 1]),
            reinforcement: Reinforcement::MICHIE,
            empty_box: EmptyBox::Resign,
            box_set: BoxSet::Choices,
            box_mode: BoxMode::Auto,
            symmetry: true,
        }
    }

    /// Check values that did not come through the parsers (a state file).
    pub fn validate(&self) -> Result<(), FieldError> {
        if self.beads.0.is_empty() || self.beads.0.iter().any(|n| !(1..=1_000_000).contains(n)) {
            return Err(FieldError::new(
                "beads",
                format!("'{}' must list 1 to 1000000 beads a move", self.beads),
            ));
        }
        let r = self.reinforcement;
        // unsigned_abs: i32::MIN has no i32 absolute value.
        if [r.win, r.draw, r.loss].iter().any(|d| d.unsigned_abs() > 1_000_000) {
            return Err(FieldError::new(
                "reinforcement",
                format!("deltas {r} must lie between -1000000 and 1000000"),
            ));
        }
        if let EmptyBox::Floor(n) = self.empty_box {
            if !(1..=1_000_000).contains(&n) {
                return Err(FieldError::new("empty_box", format!("floor {n} must be 1 to 1000000")));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_round_trip() {
        for text in ["gardner", "michie", "+2/+0/-1:last", "+1/+1/-2"] {
            assert_eq!(Reinforcement::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(Reinforcement::parse("3/1/-1").unwrap(), Reinforcement::MICHIE);
        assert!(Reinforcement::parse("3/1").unwrap_err().to_string().contains("'3/1'"));
        assert_eq!(BeadSchedule::parse("4,3,2,1").unwrap().to_string(), "4/3/2/1");
        assert_eq!(BeadSchedule::parse("8/4/2/1").unwrap().beads(6), 1);
        assert!(BeadSchedule::parse("0").is_err());
        assert!(BeadSchedule::parse("-1").is_err());
        assert_eq!(EmptyBox::parse("floor:2").unwrap(), EmptyBox::Floor(2));
        assert!(EmptyBox::parse("floor:0").is_err());
        assert!(EmptyBox::parse("explode")
            .unwrap_err()
            .to_string()
            .contains("'explode'"));
    }

    /// Scroggs's page's defaults, written out by hand from its `menace.js`
    /// (`"start":[8,4,2,1]`, `"incentives":[1,3,-1]` for a draw, a win and a
    /// loss, `"removesymm":true`, no box where one square is left).
    #[test]
    fn the_scroggs_preset_is_the_pages_defaults() {
        let s = MachineSettings::preset("scroggs").unwrap();
        assert_eq!(s, MachineSettings::scroggs());
        assert_eq!(s.beads, BeadSchedule(vec![8, 4, 2, 1]));
        assert_eq!(
            [1, 2, 3, 4, 5].map(|m| s.beads.beads(m)),
            [8, 4, 2, 1, 1],
            "8 beads for its 1st move, 4, 2, then 1"
        );
        assert_eq!(
            s.reinforcement,
            Reinforcement {
                win: 3,
                draw: 1,
                loss: -1,
                scope: Scope::All
            }
        );
        assert_eq!(s.empty_box, EmptyBox::Resign);
        assert_eq!(s.box_set, BoxSet::Choices);
        assert_eq!(s.box_mode, BoxMode::Auto);
        assert!(s.symmetry);
        assert!(s.validate().is_ok());
        // Michie's machine but for the beads.
        assert_ne!(s, MachineSettings::michie());
        assert_eq!(
            MachineSettings {
                beads: BeadSchedule(vec![4, 3, 2, 1]),
                ..s
            },
            MachineSettings::michie()
        );
        assert_eq!(
            MachineSettings::of_preset(MachinePreset::Scroggs),
            MachineSettings::scroggs()
        );
    }

    #[test]
    fn presets_by_name() {
        for (name, preset) in [
            ("gardner", MachinePreset::Gardner),
            ("michie", MachinePreset::Michie),
            ("scroggs", MachinePreset::Scroggs),
            (" scroggs ", MachinePreset::Scroggs),
        ] {
            assert_eq!(MachinePreset::parse(name).unwrap(), preset);
            assert_eq!(preset.name(), name.trim());
        }
        let err = MachinePreset::parse("Scroggs").unwrap_err().to_string();
        assert!(err.contains("'Scroggs'"), "{err}");
        assert!(err.contains("expected gardner, michie or scroggs"), "{err}");
        assert!(MachineSettings::preset("menace").is_err());
    }
}
