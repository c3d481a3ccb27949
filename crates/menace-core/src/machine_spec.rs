//! What a machine is, as a person says it: a preset and the settings that
//! change it. Every front end says it this way (the command line's flags,
//! an experiment file's arm, the page's request) and [`MachineSpec::resolve`]
//! makes the one machine it means on a game of the table.

use crate::error::FieldError;
use crate::game::MachinePreset;
use crate::machine::boxes::BoxSet;
use crate::machine::settings::{BeadSchedule, BoxMode, EmptyBox, MachineSettings, Reinforcement};
use crate::registry::{default_settings, AnyGame};

/// A preset (or the game's own machine) and the settings that change it;
/// what is not given is the preset's, and the box mode the game's own.
///
/// ```
/// use menace_core::machine::settings::{BoxMode, Reinforcement};
/// use menace_core::machine_spec::MachineSpec;
/// use menace_core::parse_spec;
///
/// let mut spec = MachineSpec::default();
/// spec.set("preset", "michie")?;
/// spec.set("reinforcement", "1/0/-1:last")?;
/// let chessapawn = parse_spec("chessapawn").unwrap();
/// let settings = spec.resolve(&chessapawn);
/// assert_eq!(settings.beads.to_string(), "4/3/2/1");
/// assert_eq!(settings.reinforcement, Reinforcement::parse("1/0/-1:last")?);
/// // Chessapawn is too large to enumerate: its boxes open as they are met.
/// assert_eq!(settings.box_mode, BoxMode::FirstVisit);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MachineSpec {
    /// Start from Gardner's or Michie's machine, not the game's own.
    pub preset: Option<MachinePreset>,
    /// Initial beads per colour by the machine's move number.
    pub beads: Option<BeadSchedule>,
    /// What each result adds or takes away.
    pub reinforcement: Option<Reinforcement>,
    /// What the machine does at an empty box.
    pub empty_box: Option<EmptyBox>,
    /// Which positions get a box.
    pub box_set: Option<BoxSet>,
    /// Boxes made up front or as positions are met.
    pub box_mode: Option<BoxMode>,
    /// Whether mirror images share a box (`false`: `--no-symmetry`).
    pub symmetry: Option<bool>,
}

/// The settings a [`MachineSpec`] reads from text, by the names experiment
/// files and the page give them (the command line's flags are these with
/// `--` and hyphens).
pub const FIELDS: [&str; 7] = [
    "preset",
    "beads",
    "reinforcement",
    "empty_box",
    "box_set",
    "box_mode",
    "symmetry",
];

impl MachineSpec {
    /// Read one setting from text, by its name in [`FIELDS`]. An error
    /// names the field and what was expected.
    pub fn set(&mut self, field: &str, text: &str) -> Result<(), FieldError> {
        let err = |e: crate::error::InvalidValue| FieldError::new(field, e);
        match field {
            "preset" => self.preset = Some(MachinePreset::parse(text).map_err(err)?),
            "beads" => self.beads = Some(BeadSchedule::parse(text).map_err(err)?),
            "reinforcement" => self.reinforcement = Some(Reinforcement::parse(text).map_err(err)?),
            "empty_box" => self.empty_box = Some(EmptyBox::parse(text).map_err(err)?),
            "box_set" => self.box_set = Some(BoxSet::parse(text).map_err(err)?),
            "box_mode" => self.box_mode = Some(BoxMode::parse(text).map_err(err)?),
            "symmetry" => {
                self.symmetry = Some(match text.trim() {
                    "true" | "on" => true,
                    "false" | "off" => false,
                    _ => return Err(FieldError::new(field, format!("'{text}': expected true or false"))),
                })
            }
            _ => {
                return Err(FieldError::new(
                    field,
                    format!("not a machine setting: expected one of {}", FIELDS.join(", ")),
                ))
            }
        }
        Ok(())
    }

    /// Whether anything is given.
    pub fn is_given(&self) -> bool {
        *self != MachineSpec::default()
    }

    /// The machine this spec means on `game`: the preset's settings (or the
    /// game's own machine), with the game's own box mode (a preset says how
    /// a machine learns, the game how many positions it has), then every
    /// setting given.
    pub fn resolve(&self, game: &AnyGame) -> MachineSettings {
        let own = default_settings(game);
        let mut s = match self.preset {
            None => own.clone(),
            Some(p) => MachineSettings::of_preset(p),
        };
        s.box_mode = own.box_mode;
        if let Some(b) = &self.beads {
            s.beads = b.clone();
        }
        if let Some(r) = self.reinforcement {
            s.reinforcement = r;
        }
        if let Some(e) = self.empty_box {
            s.empty_box = e;
        }
        if let Some(b) = self.box_set {
            s.box_set = b;
        }
        if let Some(m) = self.box_mode {
            s.box_mode = m;
        }
        if let Some(y) = self.symmetry {
            s.symmetry = y;
        }
        s
    }
}
