//! Command-line options that make a machine's settings, shared by `train` and `play`.

use clap::Args;

use menace::machine::boxes::BoxSet;
use menace::machine::settings::{BeadSchedule, BoxMode, EmptyBox, MachineSettings, Reinforcement};
use menace::registry::default_settings;
use menace::AnyGame;

#[derive(Args, Clone, Debug)]
pub struct MachineArgs {
    /// Start from a preset: gardner (HER) or michie (MENACE) [default: the game's own machine].
    #[arg(long)]
    pub preset: Option<String>,
    /// Initial beads per colour by the machine's move number, e.g. 1 or 4,3,2,1.
    #[arg(long, value_parser = BeadSchedule::parse)]
    pub beads: Option<BeadSchedule>,
    /// gardner, michie, or win/draw/loss deltas like 3/1/-1 or 1/0/-1:last.
    #[arg(long, value_parser = Reinforcement::parse, allow_hyphen_values = true)]
    pub reinforcement: Option<Reinforcement>,
    /// What an empty box does: resign, restock, or floor:N.
    #[arg(long, value_parser = EmptyBox::parse)]
    pub empty_box: Option<EmptyBox>,
    /// Which positions get a box: all, choices or michie.
    #[arg(long, value_parser = BoxSet::parse)]
    pub box_set: Option<BoxSet>,
    /// Make boxes up front (enumerate), on first visit (first-visit), or choose by size (auto).
    #[arg(long, value_parser = BoxMode::parse)]
    pub box_mode: Option<BoxMode>,
    /// Keep mirror images in separate boxes.
    #[arg(long)]
    pub no_symmetry: bool,
}

impl MachineArgs {
    /// Whether any machine option was given.
    pub fn any(&self) -> bool {
        self.preset.is_some()
            || self.beads.is_some()
            || self.reinforcement.is_some()
            || self.empty_box.is_some()
            || self.box_set.is_some()
            || self.box_mode.is_some()
            || self.no_symmetry
    }

    /// The settings these options describe for `game`.
    pub fn settings(&self, game: &AnyGame) -> anyhow::Result<MachineSettings> {
        let mut s = match self.preset.as_deref() {
            None => default_settings(game),
            Some(name) => MachineSettings::preset(name).map_err(super::args::usage)?,
        };
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
        if self.no_symmetry {
            s.symmetry = false;
        }
        Ok(s)
    }
}
