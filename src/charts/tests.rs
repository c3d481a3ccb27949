//! Charts drawn to files and read back: formats, text, ranges, and the
//! errors a chart that cannot be drawn gives.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use plotters::prelude::*;

use super::plan::Plan;
use super::render::{render, tick_label};
use super::style::{ensure_font, HEIGHT, WIDTH};
use super::write::draw;
use super::{Chart, Series};
use menace_core::experiment::error::OutputError;

fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let d = std::env::temp_dir().join(format!(
        "menace-chart-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn sample() -> Chart {
    let a = (0..=50)
        .map(|i| {
            let x = i as f64 * 20.0;
            let m = 1.0 / (1.0 + x / 200.0);
            (x, m, m - 0.08, m + 0.08)
        })
        .collect();
    let b = (0..=50)
        .map(|i| {
            let x = i as f64 * 20.0;
            let m = 0.2 + 0.5 / (1.0 + x / 100.0);
            (x, m, m - 0.03 - x / 20000.0, m + 0.05)
        })
        .collect();
    Chart {
        title: "MENACE losses against a random player".into(),
        subtitle: "20 runs, 3 beads per move, reward +3/+1/-1".into(),
        x_label: "games played".into(),
        y_label: "loss rate".into(),
        series: vec![
            Series {
                label: "MENACE (first)".into(),
                points: a,
                spread: Vec::new(),
                exact: Vec::new(),
            },
            Series {
                label: "HER (second)".into(),
                points: b,
                spread: Vec::new(),
                exact: Vec::new(),
            },
        ],
        y_floor: None,
        y_ceiling: None,
        log_x: false,
        log_y: false,
        whole_y: false,
        markers: false,
        notes: Vec::new(),
        trends: Vec::new(),
    }
}

fn count_non_white(buf: &[u8], rows: std::ops::Range<u32>, cols: std::ops::Range<u32>) -> (usize, usize) {
    let (mut non_white, mut dark) = (0, 0);
    for y in rows {
        for x in cols.clone() {
            let i = ((y * WIDTH + x) * 3) as usize;
            let px = &buf[i..i + 3];
            if px != [255, 255, 255] {
                non_white += 1;
            }
            if px.iter().all(|&c| c < 100) {
                dark += 1;
            }
        }
    }
    (non_white, dark)
}

#[test]
fn chart_writes_png_and_svg() {
    let dir = temp_dir("files");
    let stem = dir.join("losses");
    let chart = sample();
    draw(&chart, &stem).unwrap();

    let png = std::fs::read(dir.join("losses.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&png[12..16], b"IHDR");
    let w = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
    let h = u32::from_be_bytes([png[20], png[21], png[22], png[23]]);
    assert_eq!((w, h), (WIDTH, HEIGHT));
    assert!(png.len() > 10_000, "PNG suspiciously small: {} bytes", png.len());

    let svg = std::fs::read_to_string(dir.join("losses.svg")).unwrap();
    assert!(svg.contains("<svg"));
    assert!(svg.contains(&chart.title));
    assert!(svg.contains(&chart.subtitle));
    assert!(svg.contains("MENACE (first)"));
    assert!(svg.contains("HER (second)"));
    assert!(svg.contains("games played"));

    // No temporary files are left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chart_stem_with_dot_keeps_its_name() {
    let dir = temp_dir("dot");
    draw(&sample(), &dir.join("run.v2")).unwrap();
    assert!(dir.join("run.v2.png").is_file());
    assert!(dir.join("run.v2.svg").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chart_embedded_font_draws_text() {
    ensure_font().unwrap();
    let chart = sample();
    let plan = Plan::new(&chart).unwrap();
    let mut buf = vec![0u8; (WIDTH * HEIGHT * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (WIDTH, HEIGHT)).into_drawing_area();
        render(&root, &plan).unwrap();
    }
    let (non_white, _) = count_non_white(&buf, 0..HEIGHT, 0..WIDTH);
    assert!(non_white > 20_000, "only {non_white} non-white pixels");
    // The title band holds nothing but the title text.
    let (_, dark) = count_non_white(&buf, 0..45, 200..800);
    assert!(dark > 300, "only {dark} dark pixels in the title area");
    // The corners outside the plot stay white.
    let (corner, _) = count_non_white(&buf, 0..8, 0..8);
    assert_eq!(corner, 0);
}

#[test]
fn chart_empty_is_an_error() {
    let dir = temp_dir("empty");
    let mut chart = sample();
    chart.series.clear();
    let e = draw(&chart, &dir.join("empty")).unwrap_err().to_string();
    assert!(e.contains("no series"), "{e}");
    assert!(e.contains("empty.png"), "{e}");

    let mut chart = sample();
    chart.series[1].points.clear();
    let e = draw(&chart, &dir.join("empty")).unwrap_err().to_string();
    assert!(e.contains("HER (second)"), "{e}");

    let mut chart = sample();
    for s in &mut chart.series {
        s.points = vec![(f64::NAN, 1.0, 0.0, 2.0), (1.0, f64::NAN, f64::NAN, f64::INFINITY)];
    }
    let e = draw(&chart, &dir.join("empty")).unwrap_err().to_string();
    assert!(e.contains("no finite points"), "{e}");

    assert!(!dir.join("empty.png").exists());
    assert!(!dir.join("empty.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chart_nan_points_do_not_panic() {
    let dir = temp_dir("nan");
    let mut chart = sample();
    chart.series[0].points[3].1 = f64::NAN;
    chart.series[0].points[10] = (f64::NAN, f64::NAN, f64::NAN, f64::NAN);
    chart.series[0].points[20].2 = f64::NAN;
    chart.series[1].points[0].3 = f64::INFINITY;
    chart.series[1].points[5].0 = f64::NEG_INFINITY;
    chart.series.push(Series {
        label: "all missing".into(),
        points: vec![(f64::NAN, f64::NAN, f64::NAN, f64::NAN)],
        spread: Vec::new(),
        exact: Vec::new(),
    });
    draw(&chart, &dir.join("nan")).unwrap();
    assert!(dir.join("nan.png").is_file());
    assert!(std::fs::read_to_string(dir.join("nan.svg"))
        .unwrap()
        .contains("all missing"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chart_log_axes_leave_out_what_they_cannot_show() {
    let dir = temp_dir("log");
    let mut chart = sample();
    chart.log_x = true;
    chart.log_y = true;
    chart.markers = true;
    // x = 0 and y = 0 have no place on a logarithmic axis: left out, not drawn at -inf.
    chart.series[0].points = vec![(0.0, 5.0, 4.0, 6.0), (10.0, 0.0, 0.0, 1.0), (100.0, 50.0, 20.0, 80.0)];
    chart.series[1].points = vec![(1000.0, 500.0, 400.0, 600.0)];
    chart.notes = vec![(100.0, 80.0, "hexapawn".into()), (-1.0, 1.0, "nowhere".into())];
    let plan = Plan::new(&chart).unwrap();
    // The points at x = 0 and at y = 0 drop out (the latter's bar with its
    // low end): x from 100 to 1000, y from 20 to 600, each axis widened
    // by a factor of 1.5 (a tenth of its decades, at least 1.5); y's top
    // by another 2 for the notes (a fifth of its decades, at least 2).
    assert_eq!(plan.x_range, (100.0 / 1.5, 1000.0 * 1.5));
    assert_eq!(plan.y_range, (20.0 / 1.5, 600.0 * 1.5 * 2.0));
    assert_eq!(plan.chart.notes.len(), 1);
    draw(&chart, &dir.join("log")).unwrap();
    let svg = std::fs::read_to_string(dir.join("log.svg")).unwrap();
    assert!(svg.contains("hexapawn") && !svg.contains("nowhere"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chart_tick_labels_are_short() {
    assert_eq!(tick_label(100.0, 1000.0), "100");
    assert_eq!(tick_label(0.25, 1.0), "0.25");
    assert_eq!(tick_label(0.30000000000000004, 1.1), "0.3");
    assert_eq!(tick_label(-0.0001, 1.0), "0");
    assert_eq!(tick_label(2.5, f64::NAN), "2.5");
}

#[test]
fn chart_degenerate_ranges() {
    let dir = temp_dir("flat");
    let chart = Chart {
        title: "flat".into(),
        subtitle: String::new(),
        x_label: "x".into(),
        y_label: "y".into(),
        series: vec![Series {
            label: "one point".into(),
            points: vec![(5.0, 0.5, 0.5, 0.5)],
            spread: Vec::new(),
            exact: Vec::new(),
        }],
        y_floor: None,
        y_ceiling: None,
        log_x: false,
        log_y: false,
        whole_y: false,
        markers: false,
        notes: Vec::new(),
        trends: Vec::new(),
    };
    let plan = Plan::new(&chart).unwrap();
    assert_eq!(plan.x_range, (4.0, 6.0));
    assert_eq!(plan.y_range, (-0.5, 1.5));
    draw(&chart, &dir.join("flat")).unwrap();
    assert!(dir.join("flat.png").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chart_ranges_have_margin() {
    let chart = sample();
    let plan = Plan::new(&chart).unwrap();
    assert_eq!(plan.x_range, (0.0, 1000.0));
    // Band extremes are 1.08 at x = 0 and the lowest band edge at x = 1000.
    let (lo, hi) = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.2), b.max(p.3)));
    let m = 0.05 * (hi - lo);
    assert!((plan.y_range.0 - (lo - m)).abs() < 1e-12);
    assert!((plan.y_range.1 - (hi + m)).abs() < 1e-12);
}

#[test]
fn chart_unwritable_target_names_the_file() {
    let dir = temp_dir("bad");
    let stem = dir.join("missing-sub").join("x");
    let e = draw(&sample(), &stem).unwrap_err();
    // The operating system's error keeps its kind and the file its name.
    match &e {
        OutputError::File(f) => {
            assert_eq!(f.kind(), std::io::ErrorKind::NotFound);
            assert!(f.path().ends_with("x.png"), "{e}");
        }
        other => panic!("expected a file error, got {other}"),
    }
    assert!(e.to_string().contains("x.png"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
