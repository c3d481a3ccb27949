//! How a game is made from its spec string, and the machine history knows for it.

use super::players::Player;
use super::provided::Game;
use crate::error::InvalidValue;

/// How a game is chosen by a game spec string (`hexapawn:4x4`,
/// `hex:5,swap=off`), and the machine history knows it for. The registry's
/// one table lists the types that implement it.
pub trait GameSpec: Game + Sized {
    /// The names that select this game; the first is its own (`hexapawn`, `octopawn`).
    const NAMES: &'static [&'static str];
    /// The spec forms it accepts, for help and error messages.
    const FORMS: &'static str;
    /// Spec strings of small instances, each of which the shared rule suite checks.
    const EXAMPLES: &'static [&'static str];

    /// Make the game from a spec's parts: the `name` used (one of
    /// [`GameSpec::NAMES`], lower case), the `size` after `:` and the
    /// `options` after the first `,` (case kept). The error says what was
    /// expected; the registry adds the spec.
    fn from_spec(name: &str, size: Option<&str>, options: Option<&str>) -> Result<Self, InvalidValue>;

    /// The side its historical machine played (HER: Black; MENACE: X).
    fn machine_side(&self) -> Player {
        Player::One
    }

    /// Whether a machine's default side is the one that wins with best play,
    /// where that can be found quickly (Hexapawn: Black on 3×3 as Gardner
    /// had it, White on Octopawn); otherwise [`GameSpec::machine_side`].
    const SIDE_WINS: bool = false;

    /// What its historical machine is called (`HER`, `MENACE`).
    fn machine_name(&self) -> &'static str {
        "MENACE"
    }

    /// The preset its historical machine's settings come from.
    fn machine_preset(&self) -> MachinePreset {
        MachinePreset::Michie
    }
}

/// The settings of a historical machine, by whose they were (the machine
/// layer turns one into settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MachinePreset {
    /// Gardner's HER.
    Gardner,
    /// Michie's MENACE.
    Michie,
    /// MENACE as Matthew Scroggs's page (mscroggs.co.uk/menace) sets it up:
    /// Michie's, with 8/4/2/1 beads.
    Scroggs,
}

impl MachinePreset {
    /// Every preset, in the order help and error messages list them.
    pub const ALL: [MachinePreset; 3] = [MachinePreset::Gardner, MachinePreset::Michie, MachinePreset::Scroggs];

    /// Its name on the command line and in files: `gardner`, `michie`, `scroggs`.
    pub fn name(self) -> &'static str {
        match self {
            MachinePreset::Gardner => "gardner",
            MachinePreset::Michie => "michie",
            MachinePreset::Scroggs => "scroggs",
        }
    }

    /// Whose machine it is, in a few words: `Gardner's HER`.
    pub fn whose(self) -> &'static str {
        match self {
            MachinePreset::Gardner => "Gardner's HER",
            MachinePreset::Michie => "Michie's MENACE",
            MachinePreset::Scroggs => "MENACE as M. Scroggs's page sets it up",
        }
    }

    /// Read a preset by its name: `gardner`, `michie` or `scroggs`.
    pub fn parse(name: &str) -> Result<MachinePreset, InvalidValue> {
        MachinePreset::ALL
            .into_iter()
            .find(|p| p.name() == name.trim())
            .ok_or_else(|| InvalidValue::new("preset", name, "expected gardner, michie or scroggs"))
    }
}

/// A game that takes neither a size nor options: the error for either.
pub fn no_size_or_options(
    name: &str,
    size: Option<&str>,
    options: Option<&str>,
    why: &str,
) -> Result<(), InvalidValue> {
    if let Some(s) = size {
        return Err(InvalidValue::new("size", s, format!("{name} takes no size ({why})")));
    }
    if let Some(o) = options {
        return Err(unknown_option(o, &format!("{name} takes no options")));
    }
    Ok(())
}

/// An option after the comma of a game spec that the game does not take.
pub fn unknown_option(option: &str, expected: &str) -> InvalidValue {
    InvalidValue::new("unknown option", option, expected)
}
