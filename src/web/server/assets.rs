//! The page: its HTML, CSS, JS modules and font, embedded in the program.

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::font::FONT_BYTES;

const INDEX_HTML: &str = include_str!("../page/index.html");
const STYLE_CSS: &str = include_str!("../page/style.css");
const APP_JS: &str = include_str!("../page/app.js");
const CHARTS_JS: &str = include_str!("../page/charts.js");

/// The page's routes.
pub(super) fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/charts.js",
            get(|| async { asset("text/javascript; charset=utf-8", CHARTS_JS) }),
        )
        .route("/DejaVuSans.ttf", get(font))
}

fn asset(kind: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        text,
    )
        .into_response()
}

/// The page itself: never inside another site's frame (a page that
/// frames it could trick a click), whoever links to it.
async fn index() -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("frame-ancestors 'none'"),
            ),
        ],
        INDEX_HTML,
    )
        .into_response()
}

async fn font() -> Response {
    (
        [(header::CONTENT_TYPE, HeaderValue::from_static("font/ttf"))],
        FONT_BYTES,
    )
        .into_response()
}
