//! The class is the machine, on the server itself: HER's boxes dealt among
//! the pupils' devices, each bead drawn only from the device holding its
//! box, the deal made again as pupils leave, and the mode kept.

use super::*;

use serde_json::json;

use menace::web::server::{ClassMode, TestHooks};

use super::classroom::{room_with, Room};

/// The deal as the teacher reads it: each pupil's boxes, in the order they joined.
fn deal(room: &Room) -> Vec<Vec<u64>> {
    let k = room.class();
    k["class"]["deal"]
        .as_array()
        .unwrap_or_else(|| panic!("no deal: {k}"))
        .iter()
        .map(|p| {
            p["boxes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_u64().unwrap())
                .collect()
        })
        .collect()
}

/// Every one of HER's 19 boxes held once.
fn all_held(d: &[Vec<u64>]) -> bool {
    let mut all: Vec<u64> = d.concat();
    all.sort_unstable();
    all == (1..=19).collect::<Vec<_>>()
}

#[test]
fn a_class_being_the_machine_draws_each_bead_on_the_device_holding_its_box() {
    let config = Config {
        class_mode: Some(ClassMode::Machine),
        ..Config::default()
    };
    let room = room_with(config, TestHooks::default());
    let mut pupils = [
        room.student("127.9.3.1", "Ada"),
        room.student("127.9.3.2", "Bo"),
        room.student("127.9.3.3", "Cy"),
    ];
    let d = deal(&room);
    assert_eq!(d.len(), 3);
    assert!(all_held(&d), "{d:?}");
    // Balanced by the games each box is in: boxes 1 and 2 (HER's first
    // move, one of them in every game) go to different pupils.
    assert_ne!(
        d.iter().position(|b| b.contains(&1)),
        d.iter().position(|b| b.contains(&2))
    );
    // Each pupil is told their own boxes.
    for (p, held) in pupils.iter_mut().zip(&d) {
        let k = room.ask(p, "GET", "/api/class", "");
        assert_eq!(k.body["class"]["your_boxes"], json!(held));
    }
    // The teacher plays White; HER waits for the holder of her box.
    let session = room.class()["session"].as_str().unwrap().to_string();
    let at = |what: &str| format!("/api/sessions/{session}/{what}");
    assert_eq!(room.teacher("POST", &at("game"), None).status, 200);
    let v = room.teacher("POST", &at("move"), Some(r#"{"move": "b2"}"#)).json();
    let label = v["awaiting_bead"]["box"].as_u64().expect("HER waits for a bead");
    let holder = d.iter().position(|b| b.contains(&label)).unwrap();
    let names = ["Ada", "Bo", "Cy"];
    let other = (holder + 1) % 3;
    let refused = room.ask(&mut pupils[other], "POST", "/api/class/bead", r#"{"draw": true}"#);
    assert_eq!(refused.status, 403);
    assert_eq!(
        refused.body["error"],
        format!("box {label} is {}'s to draw from, not yours", names[holder])
    );
    let both = room.ask(
        &mut pupils[holder],
        "POST",
        "/api/class/bead",
        r#"{"draw": true, "empty": true}"#,
    );
    assert_eq!(both.status, 400, "{}", both.body);
    let mut guest = super::classroom::Device {
        from: "127.9.3.9".to_string(),
        cookie: None,
    };
    assert_eq!(
        room.ask(&mut guest, "POST", "/api/class/bead", r#"{"draw": true}"#)
            .status,
        403
    );
    let drawn = room.ask(&mut pupils[holder], "POST", "/api/class/bead", r#"{"draw": true}"#);
    assert_eq!(drawn.status, 200, "{}", drawn.body);
    assert_eq!(drawn.body["view"]["board"]["history"].as_array().unwrap().len(), 2);
    assert!(drawn.body["view"]["awaiting_bead"].is_null());
    // No bead is waited for now: White is to move.
    let early = room.ask(&mut pupils[holder], "POST", "/api/class/bead", r#"{"draw": true}"#);
    assert_eq!(early.status, 409, "{}", early.body);
    // Bo leaves: his boxes go to Ada and Cy.
    let left = room.ask(&mut pupils[1], "POST", "/api/class/leave", "");
    assert_eq!(left.status, 200);
    assert_eq!(left.body["class"]["role"], "guest");
    let d2 = deal(&room);
    assert_eq!(d2.len(), 2);
    assert!(all_held(&d2), "{d2:?}");
    // The class plays the machine again: it draws its own beads.
    let r = room.teacher("POST", "/api/class/settings", Some(r#"{"mode": "players"}"#));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(room.teacher("POST", &at("game"), None).status, 200);
    let v = room.teacher("POST", &at("move"), Some(r#"{"move": "b2"}"#)).json();
    assert!(v["awaiting_bead"].is_null(), "{v}");
    assert_eq!(v["board"]["history"].as_array().unwrap().len(), 2, "HER moved at once");
    let off = room.ask(&mut pupils[0], "POST", "/api/class/bead", r#"{"draw": true}"#);
    assert_eq!(off.status, 409, "{}", off.body);
}
