//! Joining a class cannot be brute-forced: a device that sends wrong codes
//! waits, and wrong codes from many devices close joining until the
//! teacher gives a new code. Devices are told apart by address: each stands
//! on a loopback address of its own (127.0.0.0/8 all reaches this machine).

use super::*;

use std::collections::HashMap;

use menace::web::server::ClassKeys;

const CODE: &str = "ABCDEFGH";

fn class() -> Server {
    Server::with(Config {
        classroom: Some(ClassKeys {
            code: CODE.to_string(),
            token: "0123456789abcdef0123456789abcdef".to_string(),
        }),
        ..Config::default()
    })
}

/// A join with `code` from the device at `from` (a loopback address): the
/// status and the body, on a connection of its own.
fn join_from(s: &Server, from: [u8; 4], code: &str) -> (u16, String) {
    let body = format!(r#"{{"code": "{code}", "name": "Ada"}}"#);
    let request = format!(
        "POST /api/class/join HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        addr_of(s),
        body.len()
    );
    let source = std::net::Ipv4Addr::from(from).to_string();
    let mut stream = super::network::connect_from(&source, addr_of(s).parse().unwrap());
    stream.write_all(request.as_bytes()).unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).unwrap();
    let status = out.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = out.split_once("\r\n\r\n").map(|x| x.1.to_string()).unwrap_or_default();
    (status, body)
}

#[test]
fn a_device_that_guesses_waits_and_the_others_join() {
    let s = class();
    // 10 000 wrong codes from one device (127.0.0.1, kept alive).
    let mut refused = [0usize; 2];
    for k in 0..10_000 {
        let r = call(
            "POST",
            &format!("{}/api/class/join", s.base),
            Some(&format!(r#"{{"code": "W{k:07}"}}"#)),
        );
        match r.status {
            403 => refused[0] += 1,
            429 => refused[1] += 1,
            other => panic!("wrong code {k}: {other} {}", r.body),
        }
    }
    // Five misses are compared; every later one waits, uncompared.
    assert_eq!(refused, [5, 9_995]);
    // The right code from that device is refused now, the wait said in words.
    let r = call(
        "POST",
        &format!("{}/api/class/join", s.base),
        Some(&format!(r#"{{"code": "{CODE}"}}"#)),
    );
    assert_refused(&r, 429, "too many wrong codes from this device: try again in 1 minute");
    // Another device joins with it at once.
    let (status, body) = join_from(&s, [127, 0, 0, 7], CODE);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"role\":\"student\""), "{body}");
}

#[test]
fn wrong_codes_from_many_devices_close_joining_until_a_new_code() {
    let s = class();
    // 1 000 wrong codes from 250 devices, four each (below a device's own limit).
    let mut statuses = HashMap::new();
    for k in 0..1000u32 {
        let device = [127, 1, (k / 4 / 250) as u8, (k / 4 % 250) as u8 + 1];
        let (status, _) = join_from(&s, device, "WRONGONE");
        *statuses.entry(status).or_insert(0) += 1;
    }
    // 200 are compared, the 200th closing joining; the rest are refused uncompared.
    assert_eq!(statuses.get(&403), Some(&200), "{statuses:?}");
    assert_eq!(statuses.get(&429), Some(&800), "{statuses:?}");
    let (status, body) = join_from(&s, [127, 2, 0, 1], CODE);
    assert_eq!(status, 429, "{body}");
    assert!(
        body.contains("joining is closed: too many wrong codes were tried; the teacher can give a new code"),
        "{body}"
    );
    // The teacher's new code opens it again; the old one no longer works.
    let k = call("POST", &format!("{}/api/class/code", s.base), None).json();
    let code = k["class"]["code"].as_str().unwrap().to_string();
    assert_eq!(code.len(), 8);
    assert_ne!(code, CODE);
    let (status, body) = join_from(&s, [127, 2, 0, 2], CODE);
    assert_eq!(status, 403, "{body}");
    let (status, body) = join_from(&s, [127, 2, 0, 3], &code);
    assert_eq!(status, 200, "{body}");
}
