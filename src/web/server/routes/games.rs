//! The games the page offers, and one game spec checked.

use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value as Json};

use crate::web::server::error::{ApiError, ApiResult};
use crate::web::server::extract::Param;
use crate::web::server::reply::ok_json;

/// `/api/games`, `/api/games/{spec}`.
pub(super) fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/api/games", get(games))
        .route("/api/games/{spec}", get(one_game))
}

/// A title for the game list, from the game's own spec (its options too:
/// `Hexapawn, pawn=berolina (HER)`) and machine.
fn title(any: &menace_core::registry::AnyGame) -> String {
    let spec = any.spec();
    let (name, size, options) = menace_core::registry::split_spec(&spec);
    let mut title: String = name.chars().take(1).flat_map(char::to_uppercase).collect();
    title.push_str(&name[name.chars().next().map_or(0, char::len_utf8)..]);
    if let Some(size) = size {
        title.push(' ');
        title.push_str(&size.replace('x', "×"));
    }
    if let Some(options) = options {
        title.push_str(", ");
        title.push_str(options);
    }
    format!("{title} ({})", any.machine_name())
}

/// What the page lists of a game: its title, sides and historical machine.
fn game_entry(spec: &str, g: &menace_core::registry::AnyGame) -> Json {
    json!({
        "spec": spec,
        "title": title(g),
        "players": [g.player_name(menace_core::game::Player::One), g.player_name(menace_core::game::Player::Two)],
        "machine_side": g.player_name(g.machine_side()),
        "machine": g.machine_name(),
        "preset": g.machine_preset().name(),
    })
}

/// One game spec, checked: its entry, or what is wrong with it.
async fn one_game(Param(spec): Param) -> ApiResult {
    let g = menace_core::registry::parse_spec(&spec).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(ok_json(&game_entry(&spec, &g)))
}

/// The games the page offers (the registry's examples), with their sides
/// and historical machines.
async fn games() -> Response {
    let list: Vec<Json> = menace_core::registry::AnyGame::examples()
        .into_iter()
        .filter_map(|spec| {
            let g = menace_core::registry::parse_spec(spec).ok()?;
            Some(game_entry(spec, &g))
        })
        .collect();
    ok_json(&json!({
            "games": list,
            "presets": ["gardner", "michie"],
            "opponents": ["random", "perfect", "menace", "mcts:100"],
            "forms": menace_core::registry::AnyGame::forms(),
    }))
}
