//! A run's games kept compactly give back every record as it was played.

use menace::experiment::records::{RecordError, Records};
use menace::game::Player;
use menace::games::hex::Hex;
use menace::machine::settings::MachineSettings;
use menace::training::opponent::OpponentSpec;
use menace::training::trainer::Trainer;

#[test]
fn records_kept_compactly_are_the_games_played() {
    // Hex with the first player drawn each game: start seeds; exact results every third game.
    let game = Hex::new(3, false, None).unwrap();
    let mut t = Trainer::new(game, Player::One, MachineSettings::michie(), OpponentSpec::Random, 7).unwrap();
    let played: Vec<_> = (1..=40).map(|g| t.play_game(g % 3 == 0)).collect();
    assert!(played.iter().any(|r| r.start_seed.is_some()) && played.iter().any(|r| r.exact.is_some()));
    let kept = Records::of(&played).unwrap();
    assert_eq!(kept.len(), 40);
    assert_eq!(kept.iter().collect::<Vec<_>>(), played);
    assert_eq!(kept.last(), played.last().copied());
    assert_eq!(kept.get(40), None);
    let exact: Vec<_> = played.iter().filter_map(|r| r.exact.map(|e| (r.game, e))).collect();
    assert_eq!(kept.exact().collect::<Vec<_>>(), exact);
    assert_eq!(
        serde_json::to_value(&kept).unwrap(),
        serde_json::to_value(&played).unwrap()
    );
    // Games out of order are refused, naming both.
    let mut skipped = played.clone();
    skipped.remove(4);
    assert_eq!(Records::of(&skipped), Err(RecordError::OutOfOrder(6, 5)));
}
