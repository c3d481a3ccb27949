//! The page: its HTML, CSS, JS modules and font, embedded in the program.

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::font::FONT_BYTES;

const INDEX_HTML: &str = include_str!("../page/index.html");
const STYLE_CSS: &str = include_str!("../page/style.css");

/// The page's script, ES modules by their paths: `app.js` is the one the
/// page loads, and it imports the others.
pub(crate) const SCRIPTS: [(&str, &str); 11] = [
    ("/app.js", include_str!("../page/app.js")),
    ("/state.js", include_str!("../page/state.js")),
    ("/api.js", include_str!("../page/api.js")),
    ("/board.js", include_str!("../page/board.js")),
    ("/render.js", include_str!("../page/render.js")),
    ("/boxes.js", include_str!("../page/boxes.js")),
    ("/actions.js", include_str!("../page/actions.js")),
    ("/classroom.js", include_str!("../page/classroom.js")),
    ("/charts.js", include_str!("../page/charts.js")),
    ("/engine.js", include_str!("../page/engine.js")),
    ("/offline.js", include_str!("../page/offline.js")),
];

/// Whether `path` is one of the page's own files, which anyone who reaches
/// the server may load.
pub(crate) fn is_page_file(path: &str) -> bool {
    matches!(path, "/" | "/style.css" | "/DejaVuSans.ttf") || SCRIPTS.iter().any(|(p, _)| *p == path)
}

/// The page's routes.
pub(super) fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new()
        .route("/", get(index))
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/DejaVuSans.ttf", get(font));
    for (path, text) in SCRIPTS {
        router = router.route(
            path,
            get(move || async move { asset("text/javascript; charset=utf-8", text) }),
        );
    }
    router
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
