//! Shared helpers for the integration tests.
#![allow(dead_code)]

pub mod http;
pub mod rules;
pub mod toy;
