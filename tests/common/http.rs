//! A small HTTP client for the server tests (and the WebDriver protocol),
//! and polling with a generous timeout instead of sleeping for a fixed time.

use std::time::{Duration, Instant};

/// A response: its status and body.
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub content_type: String,
}

impl Reply {
    /// The body as JSON (panics with the body if it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// The `error` message of a refusal.
    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_default().to_string()
    }
}

/// Send a request with an optional body (sent as JSON) and return whatever came back.
pub fn call(method: &str, url: &str, body: Option<&str>) -> Reply {
    let agent = ureq::AgentBuilder::new().timeout(Duration::from_secs(120)).build();
    let request = agent.request(method, url).set("content-type", "application/json");
    let result = match body {
        Some(b) => request.send_string(b),
        None => request.call(),
    };
    let response = match result {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = response.status();
    let content_type = response.content_type().to_string();
    let body = response.into_string().unwrap_or_default();
    Reply {
        status,
        body,
        content_type,
    }
}

/// Poll `check` until it holds, panicking after `timeout` with `what`.
pub fn wait_until(what: &str, timeout: Duration, mut check: impl FnMut() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(
            start.elapsed() < timeout,
            "timed out after {timeout:?} waiting until {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
