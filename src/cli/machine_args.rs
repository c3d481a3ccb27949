//! Command-line options that make a machine's settings, shared by `train` and `play`.

use clap::Args;

use menace::game::MachinePreset;
use menace::machine::boxes::BoxSet;
use menace::machine::settings::{BeadSchedule, BoxMode, EmptyBox, MachineSettings, Reinforcement};
use menace::machine_spec::MachineSpec;
use menace::AnyGame;

#[derive(Args, Clone, Debug)]
pub struct MachineArgs {
    /// Start from a preset: gardner (HER), michie (MENACE) or scroggs (MENACE with 8/4/2/1 beads, as M. Scroggs's page) [default: the game's own machine].
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
    /// The machine these options describe.
    pub fn spec(&self) -> anyhow::Result<MachineSpec> {
        let preset = match self.preset.as_deref() {
            None => None,
            Some(name) => Some(MachinePreset::parse(name).map_err(super::args::usage)?),
        };
        Ok(MachineSpec {
            preset,
            beads: self.beads.clone(),
            reinforcement: self.reinforcement,
            empty_box: self.empty_box,
            box_set: self.box_set,
            box_mode: self.box_mode,
            symmetry: self.no_symmetry.then_some(false),
        })
    }

    /// Whether any machine option was given.
    pub fn any(&self) -> bool {
        self.spec().map_or(true, |s| s.is_given())
    }

    /// The settings these options describe for `game`.
    pub fn settings(&self, game: &AnyGame) -> anyhow::Result<MachineSettings> {
        Ok(self.spec()?.resolve(game))
    }
}
