//! `menace merge DIR... --out DIR`: shards of one experiment, put together
//! into exactly the curves, summary and charts of one unsharded run.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use menace::experiment::report::write_outputs;
use menace::experiment::units;

#[derive(Args)]
pub struct MergeArgs {
    /// The folders written by `menace run FILE --shard K/N --out DIR`, one per shard.
    #[arg(required = true, value_name = "DIR")]
    shards: Vec<PathBuf>,
    /// Where to write the merged curves, summary and charts.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

pub fn run(args: MergeArgs) -> anyhow::Result<()> {
    let (exp, results) = units::merge(&args.shards).map_err(|e| anyhow!(e))?;
    outln!(
        "{}: {} arms × {} seeds × {} games, from {} shard folders",
        exp.name,
        exp.arms.len(),
        exp.seeds.len(),
        exp.games,
        args.shards.len()
    );
    let written = write_outputs(&exp, &results, &args.out).map_err(|e| anyhow!(e))?;
    super::run::report(&exp, &results, &written)?;
    Ok(())
}
