//! Which charts there are and what each shows, and the points of the
//! charts drawn from a run's summary. Drawing them is a front end's (the
//! `menace` package's `charts`), behind [`super::report::ChartWriter`].

use super::curves::Metric;
use crate::registry::parse_spec;

/// A chart that can be drawn from a curves file.
pub struct ChartKind {
    /// The chart's name in an experiment file's `charts` (`loss_rate`).
    pub name: &'static str,
    /// The curve it plots.
    pub metric: Metric,
    /// Its title.
    pub title: &'static str,
    /// Its y axis's label, with units.
    pub y_label: &'static str,
}

/// Every chart there is.
pub const CHARTS: [ChartKind; 13] = [
    ChartKind {
        name: "losses",
        metric: Metric::Losses,
        title: "Games lost so far",
        y_label: "games lost so far",
    },
    ChartKind {
        name: "loss_rate",
        metric: Metric::LossRate,
        title: "Games lost",
        y_label: "lost",
    },
    ChartKind {
        name: "win_rate",
        metric: Metric::WinRate,
        title: "Games won",
        y_label: "won",
    },
    ChartKind {
        name: "draw_rate",
        metric: Metric::DrawRate,
        title: "Games drawn",
        y_label: "drawn",
    },
    ChartKind {
        name: "wins_minus_losses",
        metric: Metric::WinsMinusLosses,
        title: "Wins minus losses so far",
        y_label: "wins − losses (games)",
    },
    ChartKind {
        name: "michie_score",
        metric: Metric::MichieScore,
        title: "Score so far: +3 a win, +1 a draw, −1 a loss",
        y_label: "score (points)",
    },
    ChartKind {
        name: "beads",
        metric: Metric::Beads,
        title: "Beads in all boxes",
        y_label: "beads",
    },
    ChartKind {
        name: "first_box_beads",
        metric: Metric::FirstBoxBeads,
        title: "Beads in the boxes of the machine's first move",
        y_label: "beads",
    },
    ChartKind {
        name: "boxes",
        metric: Metric::Boxes,
        title: "Boxes opened",
        y_label: "boxes",
    },
    ChartKind {
        name: "exact_perfect_loss",
        metric: Metric::ExactPerfectLoss,
        title: "Chance of losing to a perfect opponent (worked out exactly)",
        y_label: "probability",
    },
    ChartKind {
        name: "exact_perfect_win",
        metric: Metric::ExactPerfectWin,
        title: "Chance of beating a perfect opponent (worked out exactly)",
        y_label: "probability",
    },
    ChartKind {
        name: "exact_random_win",
        metric: Metric::ExactRandomWin,
        title: "Chance of beating a random opponent (worked out exactly)",
        y_label: "probability",
    },
    ChartKind {
        name: "exact_random_loss",
        metric: Metric::ExactRandomLoss,
        title: "Chance of losing to a random opponent (worked out exactly)",
        y_label: "probability",
    },
];

/// Charts drawn when an experiment names none (those without data are skipped).
pub const DEFAULT_CHARTS: [&str; 5] = [
    "loss_rate",
    "wins_minus_losses",
    "beads",
    "exact_perfect_loss",
    "exact_random_win",
];

/// Below this many seeds a chart says its band is rough.
pub const FEW_SEEDS: u64 = 5;

/// Charts drawn from the runs themselves, not from a curves file: `menace
/// run` and `menace merge` draw them, `menace plot` cannot.
/// - `safe_vs_boxes`: per arm, the games until the machine was safe against
///   perfect play (its exact chance of losing reached 0 and stayed there),
///   against its number of boxes, on logarithmic axes: the picture of an
///   experiment whose arms play games of different sizes.
/// - `loss_vs_boxes`: per arm, its exact chance of losing to perfect play
///   after its last game (mean and 95% band over seeds) against its boxes.
pub const SUMMARY_CHARTS: [&str; 2] = ["safe_vs_boxes", "loss_vs_boxes"];

/// One arm's point on the `safe_vs_boxes` chart.
#[derive(Clone, Debug, PartialEq)]
pub struct SafePoint {
    /// The arm of the experiment file (one series a file arm).
    pub group: usize,
    /// The arm's name.
    pub group_name: String,
    /// The arm's game spec.
    pub game: String,
    /// The machine's boxes after its last game, mean over seeds.
    pub boxes: f64,
    /// Per seed, the games until safe (`None`: not safe by the end).
    pub safe: Vec<Option<u64>>,
    /// Per seed, the last recorded exact chance of losing to perfect play.
    pub final_loss: Vec<f64>,
}

/// A game's name on a chart of many games, as the game gives it
/// ([`About::short_name`](crate::game::About::short_name): a Hexapawn board
/// by its size, `4x3`, `3x3`; others by their spec's name, `tictactoe`,
/// `hex:3`); a spec no game reads, as it is.
pub fn short_game(spec: &str) -> String {
    parse_spec(spec).map_or_else(|_| spec.to_string(), |game| game.short_name())
}

/// The `q`-quantile of per-seed games until safe, a seed never safe
/// counting as more than any (nearest rank; `None`: such a seed's place).
pub fn safe_quantile(safe: &[Option<u64>], q: f64) -> Option<u64> {
    let mut v: Vec<u64> = safe.iter().map(|s| s.unwrap_or(u64::MAX)).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_unstable();
    let i = (q.clamp(0.0, 1.0) * (v.len() - 1) as f64).round() as usize;
    Some(v[i]).filter(|&g| g != u64::MAX)
}

/// A straight line through one arm's games until safe against its boxes,
/// on log scales: games ≈ `scale` × boxes^`slope`, fitted by least squares
/// to the logarithms of the seeds' medians, every game of the arm counted once.
#[derive(Clone, Debug, PartialEq)]
pub struct SafeTrend {
    /// The arm of the experiment file.
    pub group: usize,
    /// Its name.
    pub group_name: String,
    /// The power of boxes.
    pub slope: f64,
    /// Half the width of the slope's 95% confidence interval (Student's t
    /// with two fewer degrees of freedom than games).
    pub slope_within: f64,
    /// Games until safe at 1 box, on the line.
    pub scale: f64,
    /// Per game (its short name, its boxes, its median): how many times the
    /// line's value its median is (above 1: slower than the trend).
    pub ratios: Vec<(String, f64, f64)>,
}

impl SafeTrend {
    /// The line's games until safe at `boxes`.
    pub fn at(&self, boxes: f64) -> f64 {
        self.scale * boxes.powf(self.slope)
    }
}

/// Student's t at 97.5% for 1 to 30 degrees of freedom (past 30, 2.0 is
/// within 2.1% of every value).
const T975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
    2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/// Per arm of the file whose median seed got safe on every one of at least
/// three games: its trend ([`SafeTrend`]), fitted to the medians as the
/// chart draws them ([`safe_quantile`] at 0.5: of an even number of seeds,
/// the upper of the middle two). An arm has none where the median seed of
/// one of its games never got safe (its median there is not known) or was
/// safe from the start (a median of 0 has no logarithm).
pub fn safe_trends(points: &[SafePoint]) -> Vec<SafeTrend> {
    let mut groups: Vec<(usize, &str)> = points.iter().map(|p| (p.group, p.group_name.as_str())).collect();
    groups.sort_unstable();
    groups.dedup();
    let mut trends = Vec::new();
    for (group, name) in groups {
        let mine: Vec<&SafePoint> = points
            .iter()
            .filter(|p| p.group == group && !p.safe.is_empty())
            .collect();
        let medians: Option<Vec<(f64, f64, &SafePoint)>> = mine
            .iter()
            .map(|p| {
                let m = safe_quantile(&p.safe, 0.5)?;
                (m > 0 && p.boxes > 0.0).then_some((p.boxes.ln(), (m as f64).ln(), *p))
            })
            .collect();
        let Some(xy) = medians.filter(|v| v.len() >= 3) else {
            continue;
        };
        let n = xy.len() as f64;
        let mx = xy.iter().map(|p| p.0).sum::<f64>() / n;
        let my = xy.iter().map(|p| p.1).sum::<f64>() / n;
        let sxx: f64 = xy.iter().map(|p| (p.0 - mx).powi(2)).sum();
        if sxx == 0.0 {
            continue;
        }
        let slope = xy.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx;
        let intercept = my - slope * mx;
        let rss: f64 = xy.iter().map(|p| (p.1 - intercept - slope * p.0).powi(2)).sum();
        let se = (rss / (n - 2.0) / sxx).sqrt();
        let t = T975.get(xy.len() - 3).copied().unwrap_or(2.0);
        trends.push(SafeTrend {
            group,
            group_name: name.to_string(),
            slope,
            slope_within: t * se,
            scale: intercept.exp(),
            ratios: xy
                .iter()
                .map(|&(x, y, p)| (short_game(&p.game), p.boxes, (y - intercept - slope * x).exp()))
                .collect(),
        });
    }
    trends
}

#[cfg(test)]
mod tests {
    use super::safe_quantile;

    #[test]
    fn a_seed_never_safe_counts_as_more_than_any() {
        // Sorted by hand: 10, 20, 30, never.
        let safe = [Some(30), None, Some(10), Some(20)];
        assert_eq!(safe_quantile(&safe, 0.1), Some(10));
        // Rank 0.5 × 3 = 1.5, rounded to 2: the third, 30.
        assert_eq!(safe_quantile(&safe, 0.5), Some(30));
        assert_eq!(safe_quantile(&safe, 0.9), None);
        assert_eq!(safe_quantile(&[], 0.5), None);
        assert_eq!(safe_quantile(&[Some(0)], 0.5), Some(0));
    }

    fn point(group: usize, boxes: f64, safe: &[Option<u64>]) -> super::SafePoint {
        super::SafePoint {
            group,
            group_name: format!("arm {group}"),
            game: format!("hexapawn:{}x3", boxes as u64),
            boxes,
            safe: safe.to_vec(),
            final_loss: Vec::new(),
        }
    }

    #[test]
    fn the_trend_of_games_until_safe_is_a_power_of_boxes() {
        use super::safe_trends;
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b.abs().max(1.0);
        // On the line exactly: medians 2·boxes^1.5 (16, 128, 1024), no spread.
        let exact = [
            point(0, 4.0, &[Some(16), Some(16), Some(99)]),
            point(0, 16.0, &[Some(128)]),
            point(0, 64.0, &[Some(1024)]),
            // An arm with a game whose median seed never got safe: no trend.
            point(1, 4.0, &[Some(1)]),
            point(1, 16.0, &[Some(5)]),
            point(1, 64.0, &[None, None, Some(3)]),
        ];
        let t = safe_trends(&exact);
        assert_eq!(t.len(), 1);
        assert!(
            close(t[0].slope, 1.5) && close(t[0].scale, 2.0) && t[0].slope_within < 1e-9,
            "{t:?}"
        );
        assert!(t[0].ratios.iter().all(|r| close(r.2, 1.0)));
        // Boxes 1, e, e² and medians 1, 3, 7, by hand: x is 0, 1, 2, so the
        // slope is (ln 7 − ln 1)/2 and the line passes through the means.
        let e = std::f64::consts::E;
        let off = [
            point(0, 1.0, &[Some(1)]),
            point(0, e, &[Some(3)]),
            point(0, e * e, &[Some(7)]),
        ];
        let t = &safe_trends(&off)[0];
        let slope = 7f64.ln() / 2.0;
        let intercept = (3f64.ln() + 7f64.ln()) / 3.0 - slope;
        assert!(close(t.slope, slope) && close(t.scale, intercept.exp()), "{t:?}");
        let residuals = [
            -intercept,
            3f64.ln() - intercept - slope,
            7f64.ln() - intercept - 2.0 * slope,
        ];
        // One degree of freedom: t = 12.706; the x's spread Σ(x − 1)² = 2.
        let se = (residuals.iter().map(|r| r * r).sum::<f64>() / 2.0).sqrt();
        assert!(close(t.slope_within, 12.706 * se), "{} {}", t.slope_within, 12.706 * se);
        assert!(close(t.ratios[1].2, residuals[1].exp()));
        // Fewer than three games: no trend.
        assert!(safe_trends(&off[..2]).is_empty());
    }

    /// The names charts gave before games named themselves, made from the
    /// spec string: every committed chart's titles and notes stay as they are.
    fn short_game_from_the_spec(spec: &str) -> String {
        let (name, rest) = spec.split_once(',').map_or((spec, None), |(n, r)| (n, Some(r)));
        let short = match name {
            "hexapawn" => "3x3".to_string(),
            "octopawn" => "4x4".to_string(),
            n => n.strip_prefix("hexapawn:").unwrap_or(n).to_string(),
        };
        match rest.filter(|r| r.contains("pawn=")) {
            Some(r) => format!("{short},{r}"),
            None => short,
        }
    }

    #[test]
    fn games_get_short_names_on_a_chart_of_many() {
        use super::short_game;
        assert_eq!(short_game("hexapawn"), "3x3");
        assert_eq!(short_game("octopawn"), "4x4");
        assert_eq!(short_game("hexapawn:4x3"), "4x3");
        assert_eq!(short_game("hexapawn:4x4,pawn=berolina"), "4x4,pawn=berolina");
        assert_eq!(short_game("hex:3,swap=off,first=red"), "hex:3");
        assert_eq!(short_game("tictactoe"), "tictactoe");
        assert_eq!(short_game("no such game"), "no such game");
        // Every spec of the committed experiments, as the runner keeps it
        // (the game's own spec), and every example game.
        let mut specs: Vec<String> = crate::registry::AnyGame::examples()
            .iter()
            .map(|s| s.to_string())
            .collect();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            let Ok(file) = serde_json::from_str::<serde_json::Value>(&text) else {
                continue;
            };
            let arms = file["arms"].as_array().cloned().unwrap_or_default();
            for game in std::iter::once(&file["game"]).chain(arms.iter().map(|a| &a["game"])) {
                let games = game.as_array().cloned().unwrap_or_else(|| vec![game.clone()]);
                specs.extend(games.iter().filter_map(|g| g.as_str()).map(str::to_string));
            }
        }
        assert!(specs.iter().any(|s| s == "hexapawn:5x5"), "{specs:?}");
        for spec in specs {
            let kept = crate::registry::parse_spec(&spec).unwrap().spec();
            assert_eq!(short_game(&kept), short_game_from_the_spec(&kept), "{spec}");
        }
    }
}
