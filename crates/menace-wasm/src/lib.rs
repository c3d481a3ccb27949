//! The page's engine ([`menace_web::local::Engine`]) as a WebAssembly
//! module, with a plain C interface and no generated glue: the page file's
//! Web Worker writes a request (JSON: method, path with query, body) into
//! memory the module gives it, calls [`menace_request`], and reads the
//! reply (JSON: status, kind, body, file) back; while a training run is
//! on it calls [`menace_step`] between messages.
//!
//! The module imports two functions from the page, as `menace.now_ms`
//! (`performance.now()`) and `menace.random_seed` (from
//! `crypto.getRandomValues`): the clock and the seed that
//! `wasm32-unknown-unknown` lacks.

use std::cell::RefCell;
use std::time::Duration;

use menace_web::local::Engine;

thread_local! {
    static ENGINE: RefCell<Engine> = RefCell::new(Engine::default());
    /// The last reply, kept until the next request.
    static REPLY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A request as the worker writes it.
#[derive(serde::Deserialize)]
struct Request {
    method: String,
    path: String,
    #[serde(default)]
    body: String,
}

/// A reply as the worker reads it.
#[derive(serde::Serialize)]
struct Reply<'a> {
    status: u16,
    kind: &'a str,
    body: &'a str,
    file: Option<&'a str>,
}

/// Room for `len` bytes the worker writes a request into, to be given to
/// [`menace_request`] (which frees it).
#[no_mangle]
pub extern "C" fn menace_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len);
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Answer the request of `len` bytes at `ptr` (from [`menace_alloc`]); the
/// reply's bytes are at the address returned, [`menace_reply_len`] long,
/// until the next request.
///
/// # Safety
/// `ptr` must come from `menace_alloc(len)`, with `len` bytes written.
#[no_mangle]
pub unsafe extern "C" fn menace_request(ptr: *mut u8, len: usize) -> *const u8 {
    // SAFETY: the caller's promise: allocated by `menace_alloc(len)`, written whole.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len) };
    let text = match serde_json::from_slice::<Request>(&bytes) {
        Ok(request) => ENGINE.with(|e| {
            let reply = e
                .borrow_mut()
                .request(&request.method, &request.path, request.body.as_bytes());
            let out = Reply {
                status: reply.status,
                kind: reply.kind,
                body: &reply.body,
                file: reply.file.as_deref(),
            };
            serde_json::to_vec(&out)
        }),
        Err(e) => serde_json::to_vec(&Reply {
            status: 400,
            kind: "application/json",
            body: &serde_json::json!({ "error": format!("the page's request to its engine: {e}") }).to_string(),
            file: None,
        }),
    };
    REPLY.with(|r| {
        let mut r = r.borrow_mut();
        *r = text.unwrap_or_default();
        r.as_ptr()
    })
}

/// The length of the last reply.
#[no_mangle]
pub extern "C" fn menace_reply_len() -> usize {
    REPLY.with(|r| r.borrow().len())
}

/// Play training runs on for about `ms` milliseconds: 1 if one is still on.
#[no_mangle]
pub extern "C" fn menace_step(ms: f64) -> u32 {
    let budget = Duration::from_secs_f64(ms.max(0.0) / 1000.0);
    ENGINE.with(|e| u32::from(e.borrow_mut().step(budget)))
}
