//! The request guard: every request passes here before its handler. Its
//! `Host` and `Origin` must name this server, a body must be JSON, within the
//! size allowed (a state file's larger, read two at a time) and sent within
//! the time allowed. The body is read here, once, by [`read_within`], whose
//! error says by its type when the body was too large.

use std::pin::Pin;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::Body as _;

use crate::web::server::class::{Class, Door, Role};
use crate::web::server::error::{ApiError, ErrorKind};
use crate::web::server::shared::Shared;

/// Every request passes here first: its `Host` and `Origin` must name this
/// server (no other web page can drive it, nor a rebound name), a body must
/// be JSON, within the size allowed, and sent within the time allowed.
pub(super) async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    // The teacher's link (`/?teacher=TOKEN`) leaves the token in a cookie.
    let teacher_link = shared.class.as_ref().filter(|c| {
        request.uri().query().is_some_and(|q| {
            q.split('&')
                .any(|kv| kv.strip_prefix("teacher=") == Some(c.token.as_str()))
        })
    });
    let cookie = teacher_link.map(Class::teacher_cookie);
    let mut response = match checked(&shared, request).await {
        Ok(request) => {
            let mut response = next.run(request).await;
            if let Some(Ok(value)) = cookie.map(|c| HeaderValue::from_str(&c)) {
                response.headers_mut().append(header::SET_COOKIE, value);
            }
            response
        }
        Err(e) => e.into_response(),
    };
    // Every answer is what its type says: no browser guesses a script or a
    // page out of a state file or an error.
    response
        .headers_mut()
        .insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// In a classroom, who the request is, and whether that one may ask it:
/// a guest may open the page and join; a student may also play the class
/// machine and watch it (and read the games on offer); the teacher may do
/// everything.
fn admitted(class: &Class, request: &mut Request) -> Result<(), ApiError> {
    let door = request.extensions().get::<Door>().copied().unwrap_or(Door::Teacher);
    let role = class.role(door, request.headers(), request.uri().query());
    let path = request.uri().path();
    let get = request.method() == Method::GET;
    let public = get && super::assets::is_page_file(path);
    let allowed = match &role {
        Role::Teacher => true,
        Role::Student(_) => public || path.starts_with("/api/class") || (get && path == "/api/games"),
        Role::Guest => public || path == "/api/class" || path == "/api/class/join",
    };
    if !allowed {
        let why = match role {
            Role::Student(_) => "students may play the class machine and watch it; only the teacher may change it, train it, upload or download it",
            _ => "join the class first: open the page and give the class's join code (the teacher's screen shows it)",
        };
        return Err(ApiError::new(ErrorKind::Forbidden, why));
    }
    request.extensions_mut().insert(role);
    Ok(())
}

async fn checked(shared: &Shared, mut request: Request) -> Result<Request, ApiError> {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if !shared.hosts.allows(host) {
        return Err(ApiError::new(
            ErrorKind::WrongHost,
            format!(
                "host '{}' is not this server's: open it as http://{}/ (or start it with --allow-host NAME)",
                menace_core::error::shown(host),
                shared.hosts.describe().split(", ").next().unwrap_or_default()
            ),
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let allowed = origin.strip_prefix("http://").is_some_and(|h| shared.hosts.allows(h));
        if !allowed {
            return Err(ApiError::new(
                ErrorKind::Forbidden,
                format!(
                    "requests from the page at '{}' are refused: only this server's own page may use it",
                    menace_core::error::shown(origin)
                ),
            ));
        }
    }
    // A link to the page from another site (a school's page, a file) opens
    // it: a top-level GET of the page is a navigation, which changes nothing.
    // Everything else another site asks is refused.
    let navigation = request.method() == Method::GET
        && request.uri().path() == "/"
        && headers.get("sec-fetch-mode").is_some_and(|v| v == "navigate")
        && headers.get("sec-fetch-dest").is_none_or(|v| v == "document");
    if headers.get("sec-fetch-site").is_some_and(|v| v == "cross-site") && !navigation {
        return Err(ApiError::new(
            ErrorKind::Forbidden,
            "cross-site requests are refused: only this server's own page may use it",
        ));
    }
    if let Some(class) = &shared.class {
        admitted(class, &mut request)?;
    }
    let headers = request.headers();
    if !matches!(*request.method(), Method::POST | Method::PUT) {
        return Ok(request);
    }
    let upload = request.method() == Method::PUT;
    let limit = if upload {
        shared.config.max_upload
    } else {
        shared.config.max_body
    };
    let too_large = || {
        ApiError::new(
            ErrorKind::TooLarge,
            format!(
                "request body too large: at most {limit} bytes are accepted{}",
                if upload { " (a state file)" } else { "" }
            ),
        )
    };
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if length.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let has_body = length != Some(0) && (length.is_some() || headers.contains_key(header::TRANSFER_ENCODING));
    let kind = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let json = kind.is_some_and(|k| {
        k.split(';')
            .next()
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
    });
    if (has_body || kind.is_some()) && !json {
        return Err(ApiError::new(
            ErrorKind::NotJson,
            format!(
                "request body of type '{}': expected application/json",
                menace_core::error::shown(kind.unwrap_or("none"))
            ),
        ));
    }
    let (mut parts, body) = request.into_parts();
    if upload && length.is_none_or(|n| n > shared.config.max_body as u64) {
        // A large body waits its turn before it is read: two at a time.
        let permit = shared
            .big_bodies
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::stopping())?;
        parts.extensions.insert(BigBody(Arc::new(permit)));
    }
    let read = tokio::time::timeout(shared.config.body_timeout, read_within(body, limit)).await;
    let bytes = match read {
        Err(_) => {
            return Err(ApiError::new(
                ErrorKind::SlowBody,
                format!(
                    "request body not sent within {} seconds",
                    shared.config.body_timeout.as_secs()
                ),
            ))
        }
        Ok(Err(BodyError::TooLarge)) => return Err(too_large()),
        Ok(Err(BodyError::Unreadable(e))) => return Err(ApiError::bad(format!("request body unreadable: {e}"))),
        Ok(Ok(b)) => b,
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// The turn of a large body, held until its request is done with it.
#[derive(Clone)]
pub(super) struct BigBody(#[allow(dead_code)] Arc<tokio::sync::OwnedSemaphorePermit>);

/// Why a request body was not read.
#[derive(Debug)]
enum BodyError {
    /// More than the limit was sent.
    TooLarge,
    /// The connection failed while the body was sent.
    Unreadable(axum::Error),
}

/// A body read whole, refused (as [`BodyError::TooLarge`]) once more than
/// `limit` bytes of it have come.
async fn read_within(mut body: Body, limit: usize) -> Result<Bytes, BodyError> {
    let mut read: Vec<u8> = Vec::new();
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.map_err(BodyError::Unreadable)?;
        if let Ok(data) = frame.into_data() {
            if read.len().saturating_add(data.len()) > limit {
                return Err(BodyError::TooLarge);
            }
            read.extend_from_slice(&data);
        }
    }
    Ok(Bytes::from(read))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_over_the_limit_is_refused_by_its_error_type() {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let read = read_within(Body::from("12345"), 5).await;
            assert_eq!(read.map(|b| b.len()).ok(), Some(5));
            let over = read_within(Body::from("123456"), 5).await;
            assert!(matches!(over, Err(BodyError::TooLarge)), "{over:?}");
        });
    }
}
