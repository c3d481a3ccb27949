//! The program's tests: the `menace` command, its files, the classroom
//! page's server and the page in a browser. The tests that need a tool
//! besides Rust (Chromium, poppler, Slurm, GNU parallel, Python) or minutes are
//! `#[ignore]`d with the reason; `.ci/run` installs the tools and runs them
//! (`cargo test --release -- --include-ignored`).

#[path = "../common/mod.rs"]
mod common;

mod browser;
mod cli;
mod committed;
mod experiment;
mod fuzz;
mod labels;
mod machine_spec;
mod modes;
mod parallel;
mod picture;
mod play;
mod probe;
mod python;
mod serve;
mod shards;
mod slurm;
mod tictactoe;
