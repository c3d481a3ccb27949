//! `menace merge DIR... --out DIR`: shards of one experiment, put together
//! into exactly the curves, summary and charts of one unsharded run.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use std::borrow::Cow;

use menace::charts::Plotters;
use menace::experiment::report::write_outputs_with;
use menace::experiment::units;

#[derive(Args)]
pub struct MergeArgs {
    /// The folders written by `menace run FILE --shard K/N --out DIR`, one per shard
    /// (anything else given, such as a log file, is passed over with a note).
    #[arg(required = true, value_name = "DIR")]
    shards: Vec<PathBuf>,
    /// Where to write the merged curves, summary and charts.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

pub fn run(args: MergeArgs) -> anyhow::Result<()> {
    let (shards, others) = units::shard_folders(&args.shards);
    for other in &others {
        eprintln!(
            "skipping '{}': not a shard folder (no experiment.json in it)",
            other.display()
        );
    }
    let merged = units::merge(&shards).map_err(|e| anyhow!(e))?;
    let exp = &merged.exp;
    outln!(
        "{}: {} arms × {} seeds × {} games, from {} shard folders",
        exp.name,
        exp.arms.len(),
        exp.seeds.len(),
        exp.games,
        shards.len()
    );
    let written = write_outputs_with(exp, &args.out, &Plotters, &mut |a| Ok(Cow::Owned(merged.arm(a)?)))
        .map_err(|e| anyhow!(e))?;
    super::run::report(exp, &written)?;
    Ok(())
}
