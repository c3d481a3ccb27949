//! `menace plot CSV`: redraw the charts from a curves file.

use std::path::PathBuf;

use anyhow::anyhow;
use clap::Args;

use menace::charts::draw_from_curves;
use menace::experiment::charts::{CHARTS, DEFAULT_CHARTS};

#[derive(Args)]
pub struct PlotArgs {
    /// A curves file written by `menace run` (curves.csv).
    csv: PathBuf,
    /// Where to write the charts [default: the curves file's folder].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// A chart to draw (repeat for several) [default: loss_rate, wins_minus_losses, beads and the exact results].
    #[arg(long = "chart", value_name = "NAME", value_parser = chart_name)]
    charts: Vec<String>,
}

fn chart_name(text: &str) -> Result<String, super::args::ArgError> {
    if CHARTS.iter().any(|c| c.name == text) {
        Ok(text.to_string())
    } else {
        let names: Vec<&str> = CHARTS.iter().map(|c| c.name).collect();
        Err(super::args::ArgError::new(
            "chart",
            text,
            format!("unknown: expected one of {}", names.join(", ")),
        ))
    }
}

pub fn run(args: PlotArgs) -> anyhow::Result<()> {
    let dir = args.out.clone().unwrap_or_else(|| {
        args.csv
            .parent()
            .map(|p| p.to_path_buf())
            .unwrap_or_else(|| PathBuf::from("."))
    });
    let names: Vec<String> = if args.charts.is_empty() {
        DEFAULT_CHARTS.iter().map(|s| s.to_string()).collect()
    } else {
        args.charts.clone()
    };
    // A chart at a time, with only its columns read: a million rows of curves fit.
    let written = draw_from_curves(&args.csv, &names, &dir).map_err(|e| anyhow!(e))?;
    if written.is_empty() {
        anyhow::bail!(
            "curves file '{}': no data for the charts asked for ({}): nothing drawn",
            args.csv.display(),
            names.join(", ")
        );
    }
    for w in written {
        outln!("{w}");
    }
    Ok(())
}
