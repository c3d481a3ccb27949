//! What the page is shown of a game session, as JSON: its view, its board,
//! the box drawn from, the beads a game changed, and its boxes listed.

use serde_json::Value as Json;

use crate::labels::label_number;
use crate::session::apart::Deferred;
use crate::session::error::SessionError;
use crate::session::game::views::{
    to_json, BoardView, BoxCard, BoxDrawn, BoxesPage, Change, Curves, Draw, DrawnBead, ListedBead, MoveBoxes,
    MoveShown, RulesView, SessionView,
};
use crate::session::game::{GameSession, Listed};
use crate::session::requests::BoxQuery;
use crate::svg::{board_svg, box_card_svg, box_colours, box_svg_as, BeadMark, Options};
use menace_core::game::Player;
use menace_core::machine::BeadChange;
use menace_core::picture::Picture;
use menace_core::symmetry::Symmetry;
use menace_core::training::opponent::Opponent;

impl<G: Picture> GameSession<G> {
    /// Everything the page shows, as JSON.
    pub(super) fn view_json(&self) -> Json {
        let game = self.game();
        let side = self.trainer.machine().side();
        let machine = self.trainer.machine();
        to_json(&SessionView {
            game: game.spec(),
            machine: self.name,
            machine_side: self.side_name(side),
            person_side: self.side_name(side.other()),
            players: [self.side_name(Player::One), self.side_name(Player::Two)],
            can_draw: game.can_draw(),
            colours: game.board().colours,
            settings: machine.settings().describe(),
            seed: self.trainer.seed(),
            games_played: self.trainer.games_played(),
            score: self.score,
            against_person: self.against_person,
            boxes: machine.boxes().len(),
            beads: machine.total_beads(),
            exact: self.exact,
            trained_against: self.parked.as_ref().map(|(spec, _)| spec.to_string()),
            board: self.board_view(),
            symmetry_note: self.symmetry_note(),
            referee: self.referee,
            awaiting_bead: self.awaiting_view(),
            second_machine_boxes: self.second_machine().map(|m| m.boxes().len()),
            rules: RulesView {
                title: game.title(),
                rules: game.rules(),
                machine: machine.settings().what_it_does(self.name, game.can_draw()),
            },
            last_draw: self.last_draw.as_ref(),
            last_changes: &self.last_changes,
            message: self.message.as_deref(),
        })
    }

    /// The curves so far, as JSON.
    pub(super) fn curves_json(&self) -> Json {
        to_json(&Curves {
            window: self.curves.window(),
            games_played: self.trainer.games_played(),
            score: self.score,
            points: &self.points,
        })
    }

    /// The boxes a query asks for (see [`Copied::boxes`](crate::session::traits::Copied::boxes)).
    pub(super) fn boxes_listed(&self, query: &BoxQuery, limit: usize) -> Result<Deferred<Json>, SessionError> {
        let game = self.game();
        let second = match query.machine.as_deref().map(str::trim) {
            None | Some("" | "first") => false,
            Some("second") => true,
            Some(other) => {
                return Err(SessionError::Invalid(format!(
                    "boxes: machine {other:?}: expected first or second"
                )))
            }
        };
        let (machine, name, last_game, last_changes) = if second {
            let machine = self.second_machine().ok_or_else(|| {
                SessionError::NotNow(format!(
                    "{} has no second machine: train it against a second {} first",
                    self.name, self.name
                ))
            })?;
            (machine, format!("a second {}", self.name), &[][..], &[][..])
        } else {
            (
                self.trainer.machine(),
                self.name.to_string(),
                &self.last_game[..],
                &self.last_changes[..],
            )
        };
        let all = machine.boxes();
        let find = query.find.as_deref().map(str::trim).filter(|f| !f.is_empty());
        let changed: Vec<u64> = last_changes.iter().map(|c| u64::from(c.number)).collect();
        let per_page = query.per_page.unwrap_or(24).clamp(1, limit.max(1));
        let mut last: Vec<usize> = last_game
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| i < all.len())
            .collect();
        last.dedup();
        let mut matched: Vec<usize> = (0..all.len())
            .filter(|&i| query.own_move.is_none_or(|m| all.get(i).own_move == m))
            .filter(|&i| find.is_none_or(|f| game.position_string(&all.get(i).position(game)).contains(f)))
            .collect();
        matched.sort_by_key(|&i| (all.get(i).own_move, i));
        let pages = matched.len().div_ceil(per_page).max(1);
        let page = query.page.unwrap_or(1).clamp(1, pages);
        let mut moves: Vec<(u32, usize)> = Vec::new();
        for b in all {
            match moves.iter_mut().find(|(m, _)| *m == b.own_move) {
                Some((_, n)) => *n += 1,
                None => moves.push((b.own_move, 1)),
            }
        }
        moves.sort();
        // Only the boxes shown are copied; they are drawn after the lock is let go.
        let copy = |&i: &usize| {
            let number = label_number(machine, i as u32);
            Listed {
                b: all.get(i).to_box(),
                in_last_game: last_game.contains(&(i as u32)),
                changed: changed.contains(&u64::from(number)),
                number,
            }
        };
        let list: Vec<Listed<G>> = matched
            .iter()
            .skip((page - 1) * per_page)
            .take(per_page)
            .map(copy)
            .collect();
        let last: Vec<Listed<G>> = last.iter().map(copy).collect();
        let mut answer = BoxesPage {
            game: game.spec(),
            machine: name,
            side: self.side_name(machine.side()),
            total: all.len(),
            matched: matched.len(),
            page,
            pages,
            per_page,
            moves: moves
                .iter()
                .map(|&(own_move, boxes)| MoveBoxes { own_move, boxes })
                .collect(),
            last_game: Vec::new(),
            boxes: Vec::new(),
        };
        let (game, turned, symmetry) = (game.clone(), self.turned, machine.settings().symmetry);
        Ok(Deferred::new(move || {
            let card = |l: &Listed<G>| {
                let b = &l.b;
                let pos = b.position(&game);
                let moves = b.moves(&game, symmetry);
                let colours = box_colours(&game, &pos, &moves);
                let marks: Vec<BeadMark<G::Move>> = moves
                    .iter()
                    .zip(b.beads.iter())
                    .zip(colours)
                    .map(|((&mv, beads), colour)| BeadMark {
                        mv,
                        beads,
                        colour,
                        drawn: false,
                    })
                    .collect();
                let beads = marks
                    .iter()
                    .map(|m| ListedBead {
                        mv: game.move_name(&pos, m.mv),
                        beads: m.beads,
                        colour: m.colour.name(),
                        css: m.colour.css(),
                    })
                    .collect();
                BoxCard {
                    number: l.number as usize,
                    own_move: b.own_move,
                    position: game.position_string(&pos),
                    svg: box_card_svg(&game, &pos, &marks, turned),
                    beads,
                    in_last_game: l.in_last_game,
                    changed: l.changed,
                }
            };
            answer.last_game = last.iter().map(card).collect();
            answer.boxes = list.iter().map(card).collect();
            to_json(&answer)
        }))
    }

    /// The second machine the tab's machine trains against (parked, or in
    /// the training run under way), if it has one.
    pub(super) fn second_machine(&self) -> Option<&menace_core::machine::Machine<G>> {
        let opponent = match &self.parked {
            Some((_, Some(o))) => o,
            _ => self.trainer.opponent(),
        };
        match opponent {
            Opponent::Menace(m) => Some(m),
            _ => None,
        }
    }

    /// The beads of box `index` as marks on the real board that `sym` maps
    /// the box's position to, `drawn` marking colours.
    fn real_marks(
        &self,
        index: u32,
        sym: G::Symmetry,
        drawn: impl Fn(G::Move, usize) -> bool,
    ) -> Vec<BeadMark<G::Move>> {
        let game = self.game();
        let b = self.trainer.machine().boxes().get(index as usize);
        let inverse = sym.inverse();
        // Colours are the box's own (a cell's colour is its cell in the box's position).
        let moves = self.trainer.machine().box_moves(index);
        let colours = box_colours(game, &b.position(game), &moves);
        moves
            .iter()
            .zip(b.beads.iter())
            .zip(colours)
            .enumerate()
            .map(|(c, ((&m, beads), colour))| {
                let real = game.map_move(m, inverse);
                BeadMark {
                    mv: real,
                    beads,
                    colour,
                    drawn: drawn(real, c),
                }
            })
            .collect()
    }

    /// The box a machine drew from at `pos` (the position before its move
    /// `mv`), drawn on the real board with the drawn bead marked.
    pub(super) fn draw(&self, pos: &G::Position, mv: G::Move, ply: usize) -> Draw {
        self.draw_marked(pos, Some(mv), ply)
    }

    /// The box the machine draws from at `pos`, a person to draw its bead
    /// from the real box (referee): nothing marked.
    pub(super) fn awaiting_view(&self) -> Option<BoxDrawn> {
        if !self.awaits_bead() {
            return None;
        }
        let pos = self.mode.person_game()?.position().clone();
        match self.draw_marked(&pos, None, self.history.len() + 1) {
            Draw::Boxed(b) => Some(b),
            Draw::Boxless { .. } => None,
        }
    }

    /// [`GameSession::draw`], `mv` the bead drawn if any.
    fn draw_marked(&self, pos: &G::Position, mv: Option<G::Move>, ply: usize) -> Draw {
        let game = self.game();
        let machine = self.trainer.machine();
        let name = |mv: Option<G::Move>| mv.map(|m| game.move_name(pos, m)).unwrap_or_default();
        let Some((index, sym)) = machine.box_for(pos) else {
            return Draw::Boxless {
                number: None,
                mv: name(mv),
                note: format!("{} has no box for this position and plays without one.", self.name),
            };
        };
        let b = machine.boxes().get(index as usize);
        let marks = self.real_marks(index, sym, |real, _| Some(real) == mv);
        let beads = marks
            .iter()
            .map(|m| DrawnBead {
                mv: game.move_name(pos, m.mv),
                beads: m.beads,
                colour: m.colour.name(),
                css: m.colour.css(),
                drawn: m.drawn,
            })
            .collect();
        let number = label_number(machine, index);
        Draw::Boxed(BoxDrawn {
            number,
            own_move: b.own_move,
            moment: self.moment(b.own_move, ply),
            mv: name(mv),
            mirrored: !sym.is_identity(),
            mirror_note: (!sym.is_identity()).then(|| self.mirror_note(number)),
            position: game.position_string(&b.position(game)),
            svg: box_svg_as(game, pos, &marks, 44.0, self.turned),
            beads,
        })
    }

    /// The beads the game changed, each box drawn exactly as it was shown
    /// while the game was played (the real board, the same move names).
    pub(super) fn changes(&self, changes: &[BeadChange]) -> Vec<Change> {
        let game = self.game();
        let boxes = self.trainer.machine().boxes();
        changes
            .iter()
            .map(|c| {
                let b = boxes.get(c.box_index as usize);
                let colour_index = c.colour as usize;
                let seen = self.drawn.iter().rev().find(|d| d.index == c.box_index);
                let (pos, sym, moment) = match seen {
                    Some(d) => (d.pos.clone(), d.sym, Some(self.moment(b.own_move, d.ply))),
                    None => (b.position(game), G::Symmetry::identity(), None),
                };
                let marks = self.real_marks(c.box_index, sym, |_, k| k == colour_index);
                let (mv, colour) = (marks[colour_index].mv, marks[colour_index].colour);
                Change {
                    number: label_number(self.trainer.machine(), c.box_index),
                    own_move: b.own_move,
                    moment,
                    position: game.position_string(&b.position(game)),
                    mv: game.move_name(&pos, mv),
                    mirrored: !sym.is_identity(),
                    mirror_note: (!sym.is_identity())
                        .then(|| self.mirror_note(label_number(self.trainer.machine(), c.box_index))),
                    colour: colour.name(),
                    css: colour.css(),
                    before: c.before,
                    after: c.after,
                    svg: box_svg_as(game, &pos, &marks, 44.0, self.turned),
                }
            })
            .collect()
    }

    /// The board the person plays on.
    pub(super) fn board_view(&self) -> BoardView<'_> {
        let game = self.game();
        let person = self.trainer.machine().side().other();
        let (pos, last, over, result) = match (self.mode.person_game(), &self.finished) {
            (Some(m), _) => (m.position().clone(), m.last_move(), false, None),
            (None, Some(f)) => (f.pos.clone(), f.last, true, Some(f.result.clone())),
            (None, None) => (game.start(), None, true, None),
        };
        let options = Options {
            unit: 64.0,
            interactive: true,
            // The cells of a move do not depend on the position (for every game so far).
            last: last.map(|mv| game.move_cells(&pos, mv)),
            names: true,
            turned: self.turned,
            ..Options::default()
        };
        let moves = if over || game.turn(&pos) != person {
            Vec::new()
        } else {
            game.moves(&pos)
                .into_iter()
                .map(|mv| {
                    let cells = game.move_cells(&pos, mv);
                    MoveShown {
                        name: game.move_name(&pos, mv),
                        from: cells.from,
                        to: cells.to,
                    }
                })
                .collect()
        };
        BoardView {
            svg: board_svg(game, &pos, &options),
            position: game.position_string(&pos),
            moves,
            to_move: game.player_name(game.turn(&pos)),
            over,
            result,
            history: &self.history,
            person_moves: self.person_moves,
            turned: self.turned,
        }
    }
}
