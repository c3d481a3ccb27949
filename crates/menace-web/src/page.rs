//! What both carriers of the page's requests answer alike, written once:
//! the games the page offers, a session's view and curves with the fields
//! added around the session's own (training's progress, the state file),
//! refusals they share, and the curves as the files `menace run` writes.
//! `menace serve` sends these over HTTP; [`crate::local`] to the page file.

use serde_json::{json, Map, Value as Json};

use crate::session::error::SessionError;
use crate::session::traits::Shown;
use menace_core::experiment::curves::MetricRow;
use menace_core::experiment::report::{curve_cells, curve_columns};
use menace_core::game::{MachinePreset, Player};
use menace_core::registry::{parse_spec, split_spec, AnyGame};

/// A training run in progress or just ended.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Whether it is running.
    pub running: bool,
    /// The opponent it trains against, as named.
    pub opponent: String,
    /// Games finished.
    pub done: u64,
    /// Games asked for.
    pub total: u64,
}

/// Where the machine is kept: the state file's path (`menace serve
/// --state`), and whether another tab's machine is the one kept there.
#[derive(Clone, Debug, Default)]
pub struct Kept {
    /// The state file's path, if any.
    pub path: Option<String>,
    /// Another tab's machine is the one saved to it.
    pub elsewhere: bool,
}

/// A session's view as the page reads it: the session's own, and the
/// fields around it (a note, such as a failed save, shown as its message).
pub fn view(session: &dyn Shown, progress: &Progress, kept: &Kept, note: Option<&str>) -> Json {
    let mut view = session.view();
    let p = progress;
    view["training"] = json!({"running": p.running, "opponent": p.opponent, "done": p.done, "total": p.total});
    view["state_file"] = json!(kept.path);
    view["state_held_elsewhere"] = json!(kept.path.is_some() && kept.elsewhere);
    if let Some(n) = note {
        view["message"] = json!(n);
    }
    view
}

/// A session's curves as the page reads them.
pub fn curves(session: &dyn Shown, progress: &Progress) -> Json {
    let p = progress;
    let mut curves = session.curves();
    curves["training"] = json!({"running": p.running, "done": p.done, "total": p.total});
    curves
}

/// Training or watching never drops a person's game unasked.
pub fn refuse_to_drop(session: &dyn Shown, discard: bool) -> Result<(), SessionError> {
    let moves = session.person_moves();
    if moves > 0 && !discard {
        return Err(SessionError::NotNow(format!(
            "a game is in progress ({moves} move{} of yours): finish it, or say to drop it (\"discard\": true)",
            if moves == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

/// The refusal of a request while the machine trains.
pub const TRAINING: &str = "the machine is training: wait for it to finish, or stop it";
/// The refusal of a request while the machine plays a watched game.
pub const WATCHING: &str = "the machine is playing a watched game: wait for it to end";
/// The refusal of a second run.
pub const ALREADY_TRAINING: &str = "the machine is already training";

/// A title for the game list: the game's own name for people (its
/// `About`: `Hexapawn with Berolina pawns`) and its machine's; a spec's
/// options the name does not tell (Hex's swap) follow it.
fn title(any: &AnyGame) -> String {
    let name = any.title();
    let spec = any.spec();
    let (_, _, options) = split_spec(&spec);
    let told = |option: &str| {
        let value = option.split('=').nth(1).unwrap_or_default();
        name.to_lowercase().contains(&value.to_lowercase())
    };
    let untold: Vec<&str> = options
        .map(|o| o.split(',').filter(|o| !told(o)).collect())
        .unwrap_or_default();
    match untold.is_empty() {
        true => format!("{name} ({})", any.machine_name()),
        false => format!("{name}, {} ({})", untold.join(", "), any.machine_name()),
    }
}

/// What the page lists of a game: its title, sides and historical machine.
fn game_entry(spec: &str, g: &AnyGame) -> Json {
    json!({
        "spec": spec,
        "title": title(g),
        "players": [g.player_name(Player::One), g.player_name(Player::Two)],
        "machine_side": g.player_name(g.machine_side()),
        "machine": g.machine_name(),
        "preset": g.machine_preset().name(),
    })
}

/// One game spec, checked: its entry, or what is wrong with it.
pub fn one_game(spec: &str) -> Result<Json, SessionError> {
    let g = parse_spec(spec).map_err(|e| SessionError::Invalid(e.to_string()))?;
    Ok(game_entry(spec, &g))
}

/// The games the page offers (the registry's examples), with their sides
/// and historical machines, and the presets, opponents and forms it names.
pub fn catalogue() -> Json {
    let list: Vec<Json> = AnyGame::examples()
        .into_iter()
        .filter_map(|spec| Some(game_entry(spec, &parse_spec(spec).ok()?)))
        .collect();
    json!({
        "games": list,
        "presets": MachinePreset::ALL.map(MachinePreset::name),
        "opponents": ["random", "perfect", "menace", "mcts:100"],
        "forms": AnyGame::forms(),
    })
}

/// The curves file's columns and rows (each cell as the CSV writes it) of
/// a session whose page shows `view` and `curves`, in the columns `menace
/// run` writes to its `curves.csv`: one seed (the session's), a row for
/// each point the page keeps, each naming its own game's opponent (a
/// session's games may be by hand, then against random, then perfect).
pub fn curves_table(view: &Json, curves: &Json) -> (Vec<String>, Vec<Vec<String>>) {
    let word = |key: &str| view[key].as_str().unwrap_or_default().to_string();
    let machine = word("machine");
    let points: &[Json] = curves["points"].as_array().map_or(&[], Vec::as_slice);
    // Each game's own opponent; game 0 (no game yet) takes the first game's.
    let first = points
        .iter()
        .find_map(|p| p["opponent"].as_str().filter(|o| !o.is_empty()))
        .or(view["trained_against"].as_str())
        .unwrap_or("human")
        .to_string();
    let (mut sorted, mut cell) = (Vec::new(), String::new());
    let rows = points
        .iter()
        .map(|p| {
            let g = p["game"].as_u64().unwrap_or(0);
            let opponent = p["opponent"].as_str().filter(|o| !o.is_empty()).unwrap_or(&first);
            let metrics = MetricRow::from_named(|name| p[name].as_f64());
            let mut row = vec![
                "menace serve".to_string(),
                format!("{machine} learns {}", word("game")),
                word("game"),
                format!("{machine} vs {opponent}"),
                word("machine_side"),
                opponent.to_string(),
                word("settings"),
                "1".to_string(),
                curves["window"].as_u64().unwrap_or(1).to_string(),
            ];
            row.push(g.to_string());
            let _ = curve_cells(g, &[metrics], [None, None], &mut sorted, &mut cell, &mut |c: &str| {
                row.push(c.to_string());
                Ok::<(), ()>(())
            });
            row
        })
        .collect();
    (curve_columns(), rows)
}

/// The curves table as CSV.
pub fn curves_csv(view: &Json, curves: &Json) -> Result<Vec<u8>, SessionError> {
    let (columns, rows) = curves_table(view, curves);
    let mut w = csv::Writer::from_writer(Vec::new());
    let written = std::iter::once(&columns)
        .chain(&rows)
        .try_for_each(|r| w.write_record(r));
    written
        .map_err(|e| e.to_string())
        .and_then(|()| w.into_inner().map_err(|e| e.to_string()))
        .map_err(SessionError::Internal)
}

/// A cell as a JSON number (a count as an integer), or null when empty.
fn number(cell: &str) -> Json {
    match cell.parse::<i64>() {
        Ok(i) => Json::from(i),
        Err(_) => cell
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(Json::Null, Json::Number),
    }
}

/// The same table as JSON: an object a row, numbers as numbers and the
/// empty cells (a rate before any game) as null.
pub fn curves_json(view: &Json, curves: &Json) -> String {
    let (columns, rows) = curves_table(view, curves);
    // The words before `game` stay text; every cell from `game` on is a number.
    let first_number = columns.iter().position(|c| c == "game").unwrap_or(columns.len());
    let objects: Vec<Json> = rows
        .iter()
        .map(|row| {
            let map: Map<String, Json> = columns
                .iter()
                .zip(row)
                .enumerate()
                .map(|(i, (c, v))| {
                    let value = if i < first_number {
                        Json::String(v.clone())
                    } else {
                        number(v)
                    };
                    (c.clone(), value)
                })
                .collect();
            Json::Object(map)
        })
        .collect();
    Json::Array(objects).to_string()
}

/// A file name for a download of a game's `spec`: `menace-hexapawn.json`.
pub fn file_name(spec: &str, suffix: &str) -> String {
    let name: String = spec
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("menace-{name}{suffix}")
}

/// A request's JSON body read into `T` (no body or only white space: `{}`),
/// refusing malformed JSON and unknown fields by name.
pub fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, SessionError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return serde_json::from_str("{}").map_err(|e| SessionError::Invalid(format!("request body: {e}")));
    }
    serde_json::from_slice(bytes)
        .map_err(|e| SessionError::Invalid(format!("request body: not the JSON expected: {e}")))
}

/// The most boxes a page lists, or prints, at once.
pub const MAX_LISTED_BOXES: usize = 2000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_list_names_games_as_their_rules_do() {
        let named = |spec: &str| title(&parse_spec(spec).unwrap());
        assert_eq!(named("tictactoe"), "Noughts and crosses (MENACE)");
        assert_eq!(named("hexapawn"), "Hexapawn (HER)");
        assert_eq!(
            named("hexapawn:3x5,pawn=berolina"),
            "Hexapawn on 3×5 with Berolina pawns (HER)"
        );
        assert_eq!(
            named("minihexchess"),
            format!("Mini Hexchess ({})", parse_spec("minihexchess").unwrap().machine_name())
        );
        // Hex's swap is not in its name: said after it.
        assert!(
            named("hex:4,swap=off").starts_with("Hex on 4×4, swap=off ("),
            "{}",
            named("hex:4,swap=off")
        );
        // Every game the page offers has its own line.
        let games = catalogue()["games"].as_array().unwrap().clone();
        let mut titles: Vec<&str> = games.iter().map(|g| g["title"].as_str().unwrap()).collect();
        let all = titles.len();
        titles.sort_unstable();
        titles.dedup();
        assert_eq!(titles.len(), all, "{titles:?}");
    }
}
