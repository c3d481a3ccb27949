//! Per-game curves: the metrics recorded for each game, their mean and 95%
//! band over seeds, and a curves file read back.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

use serde_json::{json, Value as Json};

use super::error::OutputError;
use super::records::Records;
use crate::error::FieldError;
use crate::machine::GameResult;
use crate::training::exact::Expected;
use crate::training::trainer::{ExactPair, GameRecord, Snapshot};

/// One seed's run of an arm: the machine before its first game, and every game.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedRun {
    /// The untrained machine (game 0 of the curves).
    pub start: Snapshot,
    /// What each game left behind, in order.
    pub games: Records,
}

/// A curve recorded per game. The same names head the curves file's
/// columns, the summary's fields and the page's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    /// The share of the games in the window won.
    WinRate,
    /// The share of the games in the window drawn.
    DrawRate,
    /// The share of the games in the window lost.
    LossRate,
    /// Wins less losses so far.
    WinsMinusLosses,
    /// Michie's score so far: 3 a win, 1 a draw, -1 a loss.
    MichieScore,
    /// Games lost so far: what a class counts on its tally sheet.
    Losses,
    /// All the beads in all the boxes.
    Beads,
    /// The beads in the boxes of the machine's first move.
    FirstBoxBeads,
    /// How many boxes the machine has.
    Boxes,
    /// The machine's exact chance of each result against a perfect opponent.
    ExactPerfectWin,
    /// Against a perfect opponent, the chance of a draw.
    ExactPerfectDraw,
    /// Against a perfect opponent, the chance of a loss.
    ExactPerfectLoss,
    /// The machine's exact chance of each result against a random opponent.
    ExactRandomWin,
    /// Against a random opponent, the chance of a draw.
    ExactRandomDraw,
    /// Against a random opponent, the chance of a loss.
    ExactRandomLoss,
}

impl Metric {
    /// Every metric, in the curves file's column order.
    pub const ALL: [Metric; 15] = [
        Metric::WinRate,
        Metric::DrawRate,
        Metric::LossRate,
        Metric::WinsMinusLosses,
        Metric::MichieScore,
        Metric::Losses,
        Metric::Beads,
        Metric::FirstBoxBeads,
        Metric::Boxes,
        Metric::ExactPerfectWin,
        Metric::ExactPerfectDraw,
        Metric::ExactPerfectLoss,
        Metric::ExactRandomWin,
        Metric::ExactRandomDraw,
        Metric::ExactRandomLoss,
    ];

    /// Its name in files and on the page.
    pub fn name(self) -> &'static str {
        match self {
            Metric::WinRate => "win_rate",
            Metric::DrawRate => "draw_rate",
            Metric::LossRate => "loss_rate",
            Metric::WinsMinusLosses => "wins_minus_losses",
            Metric::MichieScore => "michie_score",
            Metric::Losses => "losses",
            Metric::Beads => "beads",
            Metric::FirstBoxBeads => "first_box_beads",
            Metric::Boxes => "boxes",
            Metric::ExactPerfectWin => "exact_perfect_win",
            Metric::ExactPerfectDraw => "exact_perfect_draw",
            Metric::ExactPerfectLoss => "exact_perfect_loss",
            Metric::ExactRandomWin => "exact_random_win",
            Metric::ExactRandomDraw => "exact_random_draw",
            Metric::ExactRandomLoss => "exact_random_loss",
        }
    }

    /// A share of the games in the window.
    pub fn is_rate(self) -> bool {
        matches!(self, Metric::WinRate | Metric::DrawRate | Metric::LossRate)
    }

    /// A share or a probability: between 0 and 1.
    pub fn is_probability(self) -> bool {
        !matches!(
            self,
            Metric::WinsMinusLosses
                | Metric::MichieScore
                | Metric::Losses
                | Metric::Beads
                | Metric::FirstBoxBeads
                | Metric::Boxes
        )
    }

    /// Whether each seed's value is a whole number (a count of games, beads
    /// or boxes, a score): a chart of it has whole-number ticks.
    pub fn is_whole(self) -> bool {
        !self.is_probability()
    }

    /// What the metric can be after `games` games: a band never reaches past it.
    pub fn bounds(self, games: u64) -> (f64, f64) {
        let g = games as f64;
        match self {
            Metric::WinsMinusLosses => (-g, g),
            Metric::MichieScore => (-g, 3.0 * g),
            Metric::Losses => (0.0, g),
            Metric::Beads | Metric::FirstBoxBeads | Metric::Boxes => (0.0, f64::INFINITY),
            _ => (0.0, 1.0),
        }
    }
}

/// One game's value of every metric (NaN: not recorded).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MetricRow([f64; Metric::ALL.len()]);

impl MetricRow {
    /// The row of a machine before the games counted (game 0 of the curves):
    /// no rates yet, no score.
    pub fn start(st: &Snapshot) -> MetricRow {
        row(
            [f64::NAN; 3],
            [0, 0, 0],
            st.total_beads,
            st.first_box_beads,
            st.boxes,
            st.exact,
        )
    }

    /// The row whose metrics `value` gives by name (NaN where it gives none).
    pub fn from_named(value: impl Fn(&str) -> Option<f64>) -> MetricRow {
        MetricRow(Metric::ALL.map(|m| value(m.name()).unwrap_or(f64::NAN)))
    }

    /// Each metric with its value, in [`Metric::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (Metric, f64)> + '_ {
        Metric::ALL.into_iter().zip(self.0)
    }
}

impl std::ops::Index<Metric> for MetricRow {
    type Output = f64;

    fn index(&self, m: Metric) -> &f64 {
        &self.0[m as usize]
    }
}

/// What a column of the curves file holds of its metric over the seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stat {
    /// The mean.
    Mean,
    /// The 95% band's low end.
    Low,
    /// The 95% band's high end.
    High,
    /// The 10th percentile.
    P10,
    /// The 90th percentile.
    P90,
    /// The exact expectation over every seed there could be, computed
    /// without sampling (`loss_rate_exact`: see [`crate::training::lifetime`]).
    Exact,
}

impl Stat {
    /// Every statistic, in the curves file's column order.
    pub const ALL: [Stat; 5] = [Stat::Mean, Stat::Low, Stat::High, Stat::P10, Stat::P90];

    fn suffix(self) -> &'static str {
        match self {
            Stat::Mean => "mean",
            Stat::Low => "low",
            Stat::High => "high",
            Stat::P10 => "p10",
            Stat::P90 => "p90",
            Stat::Exact => "exact",
        }
    }

    /// The curves file's column for a metric's statistic.
    pub fn column(self, m: Metric) -> String {
        format!("{}_{}", m.name(), self.suffix())
    }

    /// The metric and statistic a column holds, if it holds one.
    fn of_column(name: &str) -> Option<(Metric, Stat)> {
        Metric::ALL
            .into_iter()
            .flat_map(|m| Stat::ALL.into_iter().chain([Stat::Exact]).map(move |s| (m, s)))
            .find(|&(m, s)| s.column(m) == name)
    }
}

/// A mean over seeds with its 95% band (mean ± 1.96 standard errors).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// The mean over seeds.
    pub mean: f64,
    /// The band's low end.
    pub low: f64,
    /// The band's high end.
    pub high: f64,
    /// How many seeds it is over.
    pub n: usize,
}

impl Band {
    /// The band of the values that are not NaN; `None` if there are none.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Band> {
        let v: Vec<f64> = values.into_iter().filter(|x| !x.is_nan()).collect();
        if v.is_empty() {
            return None;
        }
        let n = v.len();
        let mean = v.iter().sum::<f64>() / n as f64;
        let half = if n > 1 {
            let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            1.96 * (var / n as f64).sqrt()
        } else {
            0.0
        };
        Some(Band {
            mean,
            low: mean - half,
            high: mean + half,
            n,
        })
    }

    /// The band cut to what the quantity can be (a probability within 0 and 1).
    pub fn within(self, lo: f64, hi: f64) -> Band {
        Band {
            low: self.low.clamp(lo, hi),
            high: self.high.clamp(lo, hi),
            ..self
        }
    }

    pub(crate) fn json(self) -> Json {
        json!({"mean": round(self.mean), "low": round(self.low), "high": round(self.high)})
    }
}

fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The `q`-quantile (0 to 1) of sorted values, interpolating between neighbours.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let at = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo as f64)
}

/// One game's row of the metrics (NaN: not recorded).
/// `scores`: wins less losses, Michie's score and the losses so far.
fn row(
    rates: [f64; 3],
    scores: [i64; 3],
    beads: u64,
    first_box_beads: u64,
    boxes: usize,
    exact: Option<ExactPair>,
) -> MetricRow {
    let pick = |side: Option<Expected>| side.map_or([f64::NAN; 3], |e| [e.win, e.draw, e.loss]);
    let perfect = pick(exact.and_then(|e| e.perfect));
    let random = pick(exact.and_then(|e| e.random));
    MetricRow([
        rates[0],
        rates[1],
        rates[2],
        scores[0] as f64,
        scores[1] as f64,
        scores[2] as f64,
        beads as f64,
        first_box_beads as f64,
        boxes as f64,
        perfect[0],
        perfect[1],
        perfect[2],
        random[0],
        random[1],
        random[2],
    ])
}

/// The curves of one run, a row per game from game 0 (the
/// untrained machine: no rates yet) to the last (NaN: not recorded).
pub fn run_curves(run: &SeedRun, window: u64) -> Vec<MetricRow> {
    let records = &run.games;
    let mut out = Vec::with_capacity(records.len() + 1);
    out.push(MetricRow::start(&run.start));
    let mut curves = RunningCurves::new(window);
    out.extend(records.iter().map(|r| curves.push(&r)));
    out
}

/// The curves of one run game by game, keeping only the last `window`
/// results: the rolling rates over them and the cumulative scores. The web
/// page follows a machine with it over any number of games.
#[derive(Clone, Debug)]
pub struct RunningCurves {
    window: usize,
    recent: VecDeque<GameResult>,
    /// Wins, draws and losses among `recent`: a game costs the same whatever the window.
    in_window: [usize; 3],
    wins_minus_losses: i64,
    michie_score: i64,
    losses: i64,
}

impl RunningCurves {
    /// Rolling rates over the last `window` games.
    pub fn new(window: u64) -> RunningCurves {
        RunningCurves {
            window: usize::try_from(window).unwrap_or(usize::MAX),
            recent: VecDeque::new(),
            in_window: [0; 3],
            wins_minus_losses: 0,
            michie_score: 0,
            losses: 0,
        }
    }

    /// The games in the rolling window.
    pub fn window(&self) -> usize {
        self.window
    }

    /// Add the next game; its row of the metrics.
    pub fn push(&mut self, r: &GameRecord) -> MetricRow {
        match r.result {
            GameResult::Win => {
                self.wins_minus_losses += 1;
                self.michie_score += 3;
            }
            GameResult::Draw => self.michie_score += 1,
            GameResult::Loss => {
                self.wins_minus_losses -= 1;
                self.michie_score -= 1;
                self.losses += 1;
            }
        }
        let slot = |res: GameResult| match res {
            GameResult::Win => 0,
            GameResult::Draw => 1,
            GameResult::Loss => 2,
        };
        self.recent.push_back(r.result);
        self.in_window[slot(r.result)] += 1;
        while self.recent.len() > self.window {
            if let Some(old) = self.recent.pop_front() {
                self.in_window[slot(old)] -= 1;
            }
        }
        let n = self.recent.len() as f64;
        let rates = self.in_window.map(|k| k as f64 / n);
        let scores = [self.wins_minus_losses, self.michie_score, self.losses];
        row(rates, scores, r.total_beads, r.first_box_beads, r.boxes, r.exact)
    }
}

/// A curves file read back: per arm, its descriptive fields and metric columns.
#[derive(Clone, Debug)]
pub struct CurveTable {
    /// The experiment's title.
    pub title: String,
    /// The experiment's game spec.
    pub game_spec: String,
    /// The seeds, as the file writes them.
    pub seeds: String,
    /// The rolling window, as the file writes it.
    pub window: String,
    /// Arm name → (side, opponent, settings, rows of (game, column → value)).
    pub arms: Vec<ArmCurves>,
}

/// One arm's curves.
#[derive(Clone, Debug)]
pub struct ArmCurves {
    /// The arm's name.
    pub name: String,
    /// The game the arm played.
    pub game_spec: String,
    /// The side the machine plays.
    pub side: String,
    /// The opponent, as the experiment file names it.
    pub opponent: String,
    /// The machine's settings, in words.
    pub settings: String,
    /// The game number of each row.
    pub games: Vec<f64>,
    /// Each metric column read, a value a game.
    pub columns: BTreeMap<(Metric, Stat), Vec<f64>>,
}

impl ArmCurves {
    /// A metric's statistic game by game, if the file has its column.
    pub fn column(&self, m: Metric, s: Stat) -> Option<&[f64]> {
        self.columns.get(&(m, s)).map(Vec::as_slice)
    }
}

/// The most rows a curves file may have: the most a run writes (see
/// `MAX_CURVE_ROWS`: an arm's game 0 and last game come on top).
pub const MAX_FILE_ROWS: u64 = 1_000_400;

/// The longest row a curves file may have: its 70 numbers take at most
/// 1 750 bytes, the rest is the arm's words (an experiment whose words do
/// not fit is refused before it runs).
pub const MAX_ROW_BYTES: u64 = 64 << 10;

/// What a curves file read may hold: the bounds every run writes within.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// The most rows, header left out.
    pub rows: u64,
    /// The longest row, in bytes.
    pub row_bytes: u64,
}

impl Default for ReadLimits {
    fn default() -> ReadLimits {
        ReadLimits {
            rows: MAX_FILE_ROWS,
            row_bytes: MAX_ROW_BYTES,
        }
    }
}

/// The csv reader's buffer: how far it may read past the row it is on.
const READ_BUFFER: usize = 8 << 10;

/// A reader that counts its bytes and refuses to go `limit` past `mark`
/// (the end of the last whole row): one endless row cannot fill memory.
struct RowBound<R> {
    inner: R,
    read: std::rc::Rc<std::cell::Cell<u64>>,
    mark: std::rc::Rc<std::cell::Cell<u64>>,
    limit: u64,
}

impl<R: std::io::Read> std::io::Read for RowBound<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.read.get().saturating_sub(self.mark.get()) > self.limit {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a row longer than {} bytes", self.limit - READ_BUFFER as u64),
            ));
        }
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

impl CurveTable {
    /// Read a curves CSV written by `menace run`. Errors name the file, line and column.
    pub fn read(path: &Path) -> Result<CurveTable, OutputError> {
        Self::read_metrics(path, None, ReadLimits::default())
    }

    /// Read a curves CSV, keeping only the columns of `metrics` (all where
    /// `None`), streamed from the file: memory is the columns kept, whatever
    /// the file's size, within `limits`.
    pub fn read_metrics(
        path: &Path,
        metrics: Option<&[Metric]>,
        limits: ReadLimits,
    ) -> Result<CurveTable, OutputError> {
        let file = std::fs::File::open(path).map_err(|io| crate::fsutil::FileError::Io {
            action: "read",
            path: path.to_path_buf(),
            io,
        })?;
        Self::parse(std::io::BufReader::new(file), metrics, limits).map_err(|error| OutputError::Curves {
            path: path.to_path_buf(),
            error,
        })
    }

    fn parse(
        input: impl std::io::Read,
        metrics: Option<&[Metric]>,
        limits: ReadLimits,
    ) -> Result<CurveTable, FieldError> {
        let (read, mark) = Default::default();
        let bounded = RowBound {
            inner: input,
            read: std::rc::Rc::clone(&read),
            mark: std::rc::Rc::clone(&mark),
            limit: limits.row_bytes + READ_BUFFER as u64,
        };
        let mut r = csv::ReaderBuilder::new()
            .buffer_capacity(READ_BUFFER)
            .from_reader(bounded);
        let header: Vec<String> = r
            .headers()
            .map_err(|e| FieldError::new("header", e))?
            .iter()
            .map(str::to_string)
            .collect();
        // A column named twice would fill one curve with two columns' values.
        for (i, h) in header.iter().enumerate() {
            if header[..i].contains(h) {
                return Err(FieldError::new(
                    "header",
                    format!("column '{h}' appears twice: expected each column once"),
                ));
            }
        }
        let col = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .ok_or_else(|| FieldError::new("header", format!("missing column '{name}'")))
        };
        let (title_c, spec_c, arm_c, side_c, opp_c, set_c, seeds_c, win_c, game_c) = (
            col("title")?,
            col("game_spec")?,
            col("arm")?,
            col("side")?,
            col("opponent")?,
            col("settings")?,
            col("seeds")?,
            col("window")?,
            col("game")?,
        );
        // The metric columns kept, found once rather than on every row.
        let kept: Vec<(usize, (Metric, Stat))> = header
            .iter()
            .enumerate()
            .filter_map(|(c, h)| Some((c, Stat::of_column(h)?)))
            .filter(|(_, (m, _))| metrics.is_none_or(|ms| ms.contains(m)))
            .collect();
        let mut table = CurveTable {
            title: String::new(),
            game_spec: String::new(),
            seeds: String::new(),
            window: String::new(),
            arms: Vec::new(),
        };
        let set = |to: &mut String, from: &str| {
            if to != from {
                from.clone_into(to);
            }
        };
        let mut rec = csv::StringRecord::new();
        let mut rows = 0u64;
        loop {
            let line = rows + 2;
            match r.read_record(&mut rec) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => return Err(FieldError::new(format!("line {line}"), e)),
            }
            mark.set(r.position().byte());
            rows += 1;
            if rows > limits.rows {
                return Err(FieldError::new(
                    format!("line {line}"),
                    format!("more than {} rows: a run writes at most that many", limits.rows),
                ));
            }
            let get = |c: usize| rec.get(c).unwrap_or("");
            set(&mut table.title, get(title_c));
            set(&mut table.game_spec, get(spec_c));
            set(&mut table.seeds, get(seeds_c));
            set(&mut table.window, get(win_c));
            let name = get(arm_c);
            if table.arms.last().is_none_or(|a| a.name != name) {
                table.arms.push(ArmCurves {
                    name: name.to_string(),
                    game_spec: get(spec_c).to_string(),
                    side: get(side_c).to_string(),
                    opponent: get(opp_c).to_string(),
                    settings: get(set_c).to_string(),
                    games: Vec::new(),
                    columns: BTreeMap::new(),
                });
            }
            let Some(arm) = table.arms.last_mut() else { continue };
            let game: f64 = get(game_c).parse().map_err(|_| {
                FieldError::new(
                    format!("line {line}"),
                    format!("column 'game': '{}' is not a number", get(game_c)),
                )
            })?;
            arm.games.push(game);
            for &(c, column) in &kept {
                let cell = get(c);
                let v = if cell.is_empty() {
                    f64::NAN
                } else {
                    cell.parse().map_err(|_| {
                        FieldError::new(
                            format!("line {line}"),
                            format!("column '{}': '{cell}' is not a number", header[c]),
                        )
                    })?
                };
                arm.columns.entry(column).or_default().push(v);
            }
        }
        if table.arms.is_empty() {
            return Err(FieldError::new("", "no rows"));
        }
        Ok(table)
    }
}
