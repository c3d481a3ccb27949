//! The matchbox machine: a box of beads per position, a bead drawn to move,
//! beads added or taken away after the game.

pub mod beads;
pub mod boxes;
mod matchbox;
pub mod settings;
mod shelf;
pub mod words;

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::game::{Game, Outcome, Player};
use crate::search::solver::TooLarge;
use crate::symmetry::Symmetry;
use beads::Beads;
use boxes::{enumerate, BoxSet};
use matchbox::colours_of_moves;
pub use matchbox::{bead_colours, BoxIter, BoxList, BoxRef, MatchBox};
use settings::{BoxMode, EmptyBox, MachineSettings, Scope};
use shelf::Shelf;

/// Enumerate boxes up front in `auto` mode when the game has at most this many positions.
pub const AUTO_ENUMERATE_LIMIT: usize = 200_000;

/// A game's result from one player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// The machine won.
    Win,
    /// Drawn.
    Draw,
    /// The machine lost.
    Loss,
}

impl GameResult {
    /// The result of a finished game for `player`.
    pub fn for_player(outcome: Outcome, player: Player) -> GameResult {
        match outcome {
            Outcome::Win(p) if p == player => GameResult::Win,
            Outcome::Win(_) => GameResult::Loss,
            _ => GameResult::Draw,
        }
    }

    /// The same game seen by the other player.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// What reinforcement does to the beads played in a game of one result:
/// which draws it touches, and a count's change. The one rule of the
/// machine's learning, shared by [`Machine::reinforce`] and the exact
/// account of its life ([`crate::training::lifetime`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BeadRule {
    delta: i32,
    floor: u32,
    scope: Scope,
}

impl BeadRule {
    /// The rule of `settings` after a game of `result`.
    pub(crate) fn of(settings: &MachineSettings, result: GameResult) -> BeadRule {
        let r = settings.reinforcement;
        let delta = match result {
            GameResult::Win => r.win,
            GameResult::Draw => r.draw,
            GameResult::Loss => r.loss,
        };
        let floor = match settings.empty_box {
            EmptyBox::Floor(n) => n,
            _ => 0,
        };
        BeadRule {
            delta,
            floor,
            scope: r.scope,
        }
    }

    /// The draws of a game, in order, whose beads change: all, or the last.
    pub(crate) fn touched<T>(self, drawn: &[T]) -> &[T] {
        match self.scope {
            Scope::All => drawn,
            Scope::Last => &drawn[drawn.len().saturating_sub(1)..],
        }
    }

    /// A count after the change: never below the floor (nor below itself
    /// where it is under the floor already).
    pub(crate) fn after(self, before: u32) -> u32 {
        (i64::from(before) + i64::from(self.delta)).clamp(i64::from(self.floor.min(before)), i64::from(u32::MAX)) as u32
    }
}

/// One of `items`, uniformly at random, with one draw from `rng`: the
/// machine's move where it has no box, and the random player's.
#[inline]
pub(crate) fn uniform<T: Copy, R: Rng>(items: &[T], rng: &mut R) -> T {
    items[rng.random_range(0..items.len())]
}

/// What the machine does at its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice<M> {
    /// Play this move (on the real board).
    Play(M),
    /// Its box is empty and the rule is to resign.
    Resign,
}

/// The draw the machine made at one turn: which box and which colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    /// The box drawn from, in the machine's order of boxes.
    pub box_index: u32,
    /// The bead colour drawn (the index of its move in the box).
    pub colour: u32,
}

/// One bead count changed by reinforcement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeadChange {
    /// The box whose beads changed.
    pub box_index: u32,
    /// The bead colour that changed.
    pub colour: u32,
    /// Its beads before reinforcement.
    pub before: u32,
    /// Its beads after.
    pub after: u32,
}

/// A matchbox machine playing one side of a game.
///
/// ```
/// use menace_core::prelude::*;
/// use menace_core::{Hexapawn, Player};
/// use menace_core::machine::{Choice, GameResult, Machine};
/// use menace_core::machine::settings::MachineSettings;
/// use rand::SeedableRng;
/// let game = Hexapawn::new(3, 3).unwrap();
/// let mut her = Machine::new(game.clone(), Player::Two, MachineSettings::gardner()).unwrap();
/// assert_eq!(her.boxes().len(), 19);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let after_b2 = menace_core::Game::try_play(&game, &menace_core::Rules::start(&game), "b2").unwrap();
/// assert!(matches!(her.choose(&after_b2, 1, &mut rng), Choice::Play(_)));
/// her.reinforce(GameResult::Loss);
/// assert_eq!(her.total_beads(), her.initial_total() - 1);
/// ```
#[derive(Clone, Debug)]
pub struct Machine<G: Game> {
    game: G,
    side: Player,
    settings: MachineSettings,
    boxes: Shelf<G::BoxKey>,
    enumerated: bool,
    history: Vec<Draw>,
    /// A buffer for legal moves and bead colours; where `colours_of` names
    /// a box, the buffer holds that box's colours.
    moves: Vec<G::Move>,
    colours_of: Option<u32>,
    /// Running totals, kept up to date so that reporting them costs nothing a game.
    beads: u64,
    first_move_beads: u64,
    initial_beads: u64,
}

impl<G: Game> Machine<G> {
    /// A fresh machine. With box mode `enumerate` every box is made now (an
    /// error if the game is too large); with `auto`, when the game is small.
    pub fn new(game: G, side: Player, settings: MachineSettings) -> Result<Machine<G>, TooLarge> {
        let mut machine = Machine::empty(game, side, settings, false);
        let found = match machine.settings.box_mode {
            BoxMode::FirstVisit => None,
            BoxMode::Enumerate => Some(enumerate(
                &machine.game,
                side,
                machine.settings.box_set,
                machine.settings.symmetry,
                crate::search::solver::DEFAULT_LIMIT,
            )?),
            BoxMode::Auto => enumerate(
                &machine.game,
                side,
                machine.settings.box_set,
                machine.settings.symmetry,
                AUTO_ENUMERATE_LIMIT,
            )
            .ok(),
        };
        if let Some(found) = found {
            for b in found {
                let own_move = (b.move_number - 1) / 2 + 1;
                let key = machine.game.box_key(&b.position);
                if machine.find(&key).is_none() {
                    let colours = bead_colours(&machine.game, &b.position, machine.settings.symmetry).len();
                    machine.insert_filled(key, own_move, colours);
                }
            }
            machine.enumerated = true;
        }
        Ok(machine)
    }

    /// Rebuild a machine from saved boxes (see [`crate::training::state`]).
    pub fn from_boxes(
        game: G,
        side: Player,
        settings: MachineSettings,
        enumerated: bool,
        boxes: Vec<MatchBox<G>>,
    ) -> Machine<G> {
        let mut machine = Machine::empty(game, side, settings, enumerated);
        for b in boxes {
            machine.insert(b);
        }
        machine
    }

    fn empty(game: G, side: Player, settings: MachineSettings, enumerated: bool) -> Machine<G> {
        Machine {
            game,
            side,
            settings,
            boxes: Shelf::new(),
            enumerated,
            history: Vec::new(),
            moves: Vec::new(),
            colours_of: None,
            beads: 0,
            first_move_beads: 0,
            initial_beads: 0,
        }
    }

    fn insert(&mut self, b: MatchBox<G>) -> u32 {
        self.count_in(b.own_move, b.total(), b.beads.len());
        self.boxes.push(b.key, b.own_move, b.beads.counts())
    }

    /// Add a new box for `key` with the initial beads for `own_move` in
    /// each of its `colours`: its number.
    fn insert_filled(&mut self, key: G::BoxKey, own_move: u32, colours: usize) -> u32 {
        let n = self.settings.beads.beads(own_move);
        self.count_in(own_move, u64::from(n) * colours as u64, colours);
        self.boxes.push_filled(key, own_move, n, colours)
    }

    /// Count a new box's beads in the running totals.
    fn count_in(&mut self, own_move: u32, beads: u64, colours: usize) {
        self.add_beads(own_move, beads as i64);
        self.initial_beads += u64::from(self.settings.beads.beads(own_move)) * colours as u64;
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The side the machine plays.
    pub fn side(&self) -> Player {
        self.side
    }

    /// Its settings.
    pub fn settings(&self) -> &MachineSettings {
        &self.settings
    }

    /// Whether every box was made up front.
    pub fn is_enumerated(&self) -> bool {
        self.enumerated
    }

    /// Every box, in the order made.
    pub fn boxes(&self) -> BoxList<'_, G> {
        BoxList::new(&self.boxes)
    }

    /// The draws made so far in the game in progress.
    pub fn history(&self) -> &[Draw] {
        &self.history
    }

    /// All beads in all boxes.
    pub fn total_beads(&self) -> u64 {
        self.beads
    }

    /// All beads the boxes held when made.
    pub fn initial_total(&self) -> u64 {
        self.initial_beads
    }

    /// Roughly how many bytes the boxes take in memory, their index
    /// included.
    pub fn memory_bytes(&self) -> usize {
        self.boxes.memory_bytes()
    }

    /// What the boxes cannot take less than: each box's key and a byte a
    /// bead colour.
    pub fn key_and_bead_bytes(&self) -> usize {
        self.boxes.len() * std::mem::size_of::<G::BoxKey>() + self.boxes().iter().map(|b| b.beads.len()).sum::<usize>()
    }

    /// One move per bead colour of box `i`, in the frame of its position
    /// (see [`MatchBox::moves`]).
    ///
    /// # Panics
    /// If there is no box `i`.
    pub fn box_moves(&self, i: u32) -> Vec<G::Move> {
        self.boxes().get(i as usize).moves(&self.game, self.settings.symmetry)
    }

    /// The move of colour `colour` in box `i`, in the frame of its
    /// position: from the buffer where it holds that box's colours (a box
    /// just opened), else worked out into it.
    fn colour_move(&mut self, i: u32, colour: u32) -> G::Move {
        if self.colours_of != Some(i) {
            let position = self.game.key_position(self.boxes.key(i));
            self.game.legal_moves(&position, &mut self.moves);
            colours_of_moves(&self.game, &position, self.settings.symmetry, &mut self.moves);
            self.colours_of = Some(i);
        }
        self.moves[colour as usize]
    }

    /// Beads in the boxes of the machine's first move.
    pub fn first_move_beads(&self) -> u64 {
        self.first_move_beads
    }

    fn add_beads(&mut self, own_move: u32, delta: i64) {
        self.beads = self.beads.wrapping_add_signed(delta);
        if own_move == 1 {
            self.first_move_beads = self.first_move_beads.wrapping_add_signed(delta);
        }
    }

    /// The key of a position's box (its board and side to move, see
    /// [`Boxes::box_key`](crate::Boxes::box_key), of its canonical image when symmetry is on) and a
    /// symmetry taking the position to that image.
    pub fn key(&self, pos: &G::Position) -> (G::BoxKey, G::Symmetry) {
        if self.settings.symmetry {
            self.game.canonical_key(pos)
        } else {
            (self.game.box_key(pos), G::Symmetry::identity())
        }
    }

    /// The index of the box with this key.
    pub(crate) fn find(&self, key: &G::BoxKey) -> Option<u32> {
        self.boxes.find(key)
    }

    /// The index of the box for a real position, if the machine has one.
    pub fn box_for(&self, pos: &G::Position) -> Option<(u32, G::Symmetry)> {
        let (key, sym) = self.key(pos);
        self.find(&key).map(|i| (i, sym))
    }

    /// A new box for a key, with the initial beads for `own_move`.
    fn make_box(&self, key: G::BoxKey, own_move: u32) -> MatchBox<G> {
        let colours = bead_colours(&self.game, &self.game.key_position(&key), self.settings.symmetry).len();
        MatchBox {
            key,
            own_move,
            beads: Beads::filled(self.settings.beads.beads(own_move), colours),
        }
    }

    /// Whether [`Machine::choose`] at `pos` would open a new box: it has none
    /// for the position yet, and its box set takes it.
    pub fn would_open(&self, pos: &G::Position) -> bool {
        !self.enumerated && self.box_for(pos).is_none() && self.box_set_takes(pos, &mut Vec::new())
    }

    /// Whether the machine's box set gives `pos` a box (`moves`: a buffer
    /// for its legal moves).
    fn box_set_takes(&self, pos: &G::Position, moves: &mut Vec<G::Move>) -> bool {
        self.game.legal_moves(pos, moves);
        self.settings.box_set.includes(&self.game, pos, moves)
    }

    /// Pick a move for the real position `pos`, at the machine's `own_move`-th
    /// move, drawing a bead from its box (opening the box if needed).
    /// Positions outside the machine's box set are played without a box: the
    /// only move if forced, else a uniformly random one.
    pub fn choose<R: Rng>(&mut self, pos: &G::Position, own_move: u32, rng: &mut R) -> Choice<G::Move> {
        let (index, sym) = self.box_or_open_keyed(pos, own_move);
        let Some(i) = index else {
            let mut moves = std::mem::take(&mut self.moves);
            self.game.legal_moves(pos, &mut moves);
            let mv = uniform(&moves, rng);
            self.moves = moves;
            self.colours_of = None;
            return Choice::Play(mv);
        };
        let Some(colour) = self.draw(i, rng) else {
            return Choice::Resign;
        };
        let stored = self.colour_move(i, colour);
        Choice::Play(self.game.map_move(stored, sym.inverse()))
    }

    /// The bead a person drew from a real machine's box for `pos` (the
    /// referee's page): `Some(colour)` the colour's index in the box (whose
    /// move is played, and noted for reinforcement as a draw), `None` for
    /// an empty box (the machine resigns). An empty box is restocked first
    /// under [`EmptyBox::Restock`], as when the machine draws. A colour the
    /// box holds no bead of, or an empty box said of one that is not, is
    /// refused, saying why.
    pub fn choose_given(
        &mut self,
        pos: &G::Position,
        own_move: u32,
        colour: Option<u32>,
    ) -> Result<Choice<G::Move>, GivenDrawError> {
        let (index, sym) = self.box_or_open_keyed(pos, own_move);
        let Some(i) = index else {
            return Err(GivenDrawError::NoBox);
        };
        if self.boxes.counts(i).total() == 0 && self.settings.empty_box == EmptyBox::Restock {
            self.restock(i);
        }
        let b = self.boxes().get(i as usize);
        match colour {
            None if b.total() == 0 => Ok(Choice::Resign),
            None => Err(GivenDrawError::NotEmpty { beads: b.total() }),
            Some(c) if c as usize >= b.beads.len() => Err(GivenDrawError::NoSuchColour { colours: b.beads.len() }),
            Some(c) if b.beads.get(c as usize) == 0 => Err(GivenDrawError::NoBead),
            Some(c) => {
                let stored = self.colour_move(i, c);
                self.history.push(Draw {
                    box_index: i,
                    colour: c,
                });
                Ok(Choice::Play(self.game.map_move(stored, sym.inverse())))
            }
        }
    }

    /// The index of the box for `pos`, opened now (at the machine's
    /// `own_move`-th move) if the settings allow and it has none yet, as
    /// [`Machine::choose`] finds it; `None` where it plays without a box.
    pub(crate) fn box_or_open(&mut self, pos: &G::Position, own_move: u32) -> Option<u32> {
        self.box_or_open_keyed(pos, own_move).0
    }

    /// [`Machine::box_or_open`], with the symmetry taking `pos` to its box's position.
    fn box_or_open_keyed(&mut self, pos: &G::Position, own_move: u32) -> (Option<u32>, G::Symmetry) {
        let (key, sym) = self.key(pos);
        let index = match self.find(&key) {
            Some(i) => Some(i),
            None => self.open_box(pos, key, sym, own_move),
        };
        (index, sym)
    }

    /// Draw a bead from box `i` and note it for reinforcement: its colour,
    /// or `None` where the box is empty and the machine resigns. An empty
    /// box is restocked first under [`EmptyBox::Restock`].
    #[inline]
    pub(crate) fn draw<R: Rng>(&mut self, i: u32, rng: &mut R) -> Option<u32> {
        let mut total = self.boxes.counts(i).total();
        if total == 0 {
            match self.settings.empty_box {
                EmptyBox::Resign | EmptyBox::Floor(_) => return None,
                EmptyBox::Restock => total = self.restock(i),
            }
        }
        // Draw in u32 while the total fits, so the random stream is the same as ever.
        let r = match u32::try_from(total) {
            Ok(t) => u64::from(rng.random_range(0..t)),
            Err(_) => rng.random_range(0..total),
        };
        let colour = self.boxes.counts(i).colour_of_bead(r);
        self.history.push(Draw { box_index: i, colour });
        Some(colour)
    }

    /// Fill empty box `i` again with its starting beads (the restock rule),
    /// counted in the machine's totals: the beads it now holds.
    fn restock(&mut self, i: u32) -> u64 {
        let own = self.boxes.own_move(i);
        self.boxes.fill(i, self.settings.beads.beads(own));
        let total = self.boxes.counts(i).total();
        self.beads += total;
        if own == 1 {
            self.first_move_beads += total;
        }
        total
    }

    /// Open a box on first visit if the settings allow; `None` if the
    /// position is played without a box.
    /// Its colours are left in the buffer of moves.
    fn open_box(&mut self, pos: &G::Position, key: G::BoxKey, sym: G::Symmetry, own_move: u32) -> Option<u32> {
        if self.enumerated {
            return None;
        }
        let mut moves = std::mem::take(&mut self.moves);
        self.colours_of = None;
        let included = self.box_set_takes(pos, &mut moves);
        if included {
            // The legal moves of the box's position are those of `pos`,
            // taken there by the symmetry (the rules' suite checks that a
            // symmetry maps the legal moves onto the image's).
            let position = self.game.key_position(&key);
            if sym != G::Symmetry::identity() {
                for m in moves.iter_mut() {
                    *m = self.game.map_move(*m, sym);
                }
            }
            colours_of_moves(&self.game, &position, self.settings.symmetry, &mut moves);
        }
        let colours = moves.len();
        self.moves = moves;
        if !included {
            return None;
        }
        let i = self.insert_filled(key, own_move, colours);
        self.colours_of = Some(i);
        Some(i)
    }

    /// Reinforce the moves of the game just played, and start afresh.
    /// Returns every bead count that changed.
    pub fn reinforce(&mut self, result: GameResult) -> Vec<BeadChange> {
        let mut changes = Vec::new();
        self.reinforce_each(result, |c| changes.push(c));
        changes
    }

    /// [`Machine::reinforce`] without the list of changes: nothing allocated.
    pub fn reinforce_quietly(&mut self, result: GameResult) {
        self.reinforce_each(result, |_| {});
    }

    fn reinforce_each(&mut self, result: GameResult, mut changed: impl FnMut(BeadChange)) {
        let rule = BeadRule::of(&self.settings, result);
        let history = std::mem::take(&mut self.history);
        for d in rule.touched(&history) {
            let before = self.boxes.counts(d.box_index).get(d.colour as usize);
            let after = rule.after(before);
            if after != before {
                self.boxes.set(d.box_index, d.colour as usize, after);
                let delta = i64::from(after) - i64::from(before);
                self.add_beads(self.boxes.own_move(d.box_index), delta);
                changed(BeadChange {
                    box_index: d.box_index,
                    colour: d.colour,
                    before,
                    after,
                });
            }
        }
        self.history = history;
        self.history.clear();
    }

    /// The box the machine would draw from in `pos`, without drawing or
    /// opening it (a box not opened yet, as it would be made), and the
    /// symmetry taking its moves back to the real board; `None` where it
    /// plays without a box, uniformly among the legal moves (see
    /// [`Machine::choose`]).
    pub fn box_to_draw(&self, pos: &G::Position) -> Option<(ToDraw<'_, G>, G::Symmetry)> {
        let (key, sym) = self.key(pos);
        if let Some(i) = self.find(&key) {
            return Some((ToDraw::Kept(self.boxes().get(i as usize)), sym));
        }
        if self.enumerated || !self.settings.box_set.includes(&self.game, pos, &self.game.moves(pos)) {
            return None;
        }
        Some((ToDraw::New(self.make_box(key, 1)), sym))
    }

    /// Forget the draws of a game in progress without reinforcing.
    pub fn abandon(&mut self) {
        self.history.clear();
    }

    /// The box set in use.
    pub fn box_set(&self) -> BoxSet {
        self.settings.box_set
    }
}
/// The box [`Machine::box_to_draw`] finds: one the machine has, or one it
/// would make.
#[derive(Debug)]
pub enum ToDraw<'a, G: Game> {
    /// A box the machine has.
    Kept(BoxRef<'a, G>),
    /// A box not opened yet, as it would be made.
    New(MatchBox<G>),
}

impl<G: Game> ToDraw<'_, G> {
    /// The box, either way.
    pub fn view(&self) -> BoxRef<'_, G> {
        match self {
            ToDraw::Kept(b) => *b,
            ToDraw::New(b) => b.view(),
        }
    }
}

/// Why a bead said to be drawn from a real box (the referee's page) is
/// refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GivenDrawError {
    /// The game is over, or the opponent is to move.
    #[error("it is not the machine's turn")]
    NotTheMachinesTurn,
    /// The machine plays this position without a box (a forced move, say).
    #[error("the machine has no box for this position")]
    NoBox,
    /// The box was said to be empty, but holds beads.
    #[error("the box holds {beads} beads: it is not empty")]
    NotEmpty {
        /// The beads it holds.
        beads: u64,
    },
    /// No colour of that number.
    #[error("the box has {colours} colours")]
    NoSuchColour {
        /// The colours it has.
        colours: usize,
    },
    /// The box holds no bead of the colour said.
    #[error("the box holds no bead of that colour")]
    NoBead,
}
