//! Extractors answering with our error: a JSON body read into its type,
//! refusing malformed JSON and unknown fields by name; the path's
//! parameter; the address a request came from.

use std::net::IpAddr;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::web::server::class::Peer;
use crate::web::server::error::ApiError;

/// A request body, as JSON, read into `T` (no body or only white space: `{}`).
pub(super) struct JsonBody<T>(pub(super) T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<JsonBody<T>, ApiError> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|e| ApiError::bad(format!("request body unreadable: {}", e.body_text())))?;
        parse(&bytes).map(JsonBody)
    }
}

/// Read a JSON request body into `T`, refusing malformed JSON and unknown fields by name.
fn parse<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    Ok(menace_web::page::body(bytes)?)
}

/// The one parameter of a route's path (a session's id, a game's spec),
/// refused with our JSON error where it is not UTF-8 once decoded (axum's
/// own answer is plain text).
pub(super) struct Param(pub(super) String);

impl<S: Send + Sync> FromRequestParts<S> for Param {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Param, ApiError> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(Param(value)),
            Err(e) => Err(ApiError::bad(format!(
                "the path '{}' is not one this server knows: {}",
                menace_core::error::shown(parts.uri.path()),
                e.body_text()
            ))),
        }
    }
}

/// The address a request's connection came from; a router served without
/// the accept loop (which hands each request its address) has none, and
/// all its requests count as one address, 0.0.0.0.
pub(super) struct Address(pub(super) IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for Address {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Address, ApiError> {
        let peer = parts.extensions.get::<Peer>().map(|&Peer(ip)| ip);
        Ok(Address(peer.unwrap_or(IpAddr::from([0, 0, 0, 0]))))
    }
}
