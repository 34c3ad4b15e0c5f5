//! `topitop toppo simulate`: games between bots in simulated time, on all
//! cores: how long a game lasts, who gets the penalty points, and what a
//! faster reaction is worth; a row a game and player to CSV or Parquet,
//! and an HTML report with charts.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use arrow_array::{ArrayRef, BooleanArray, Float64Array, RecordBatch, UInt32Array, UInt64Array};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::file::metadata::KeyValue;
use rayon::prelude::*;
use serde::Serialize;
use topitop_cli::output::Output;
use topitop_cli::progress::CountBar;
use topitop_cli::report::{Report, Series};
use topitop_toppo::sim::{play, Bot, Matching, Outcome};
use topitop_toppo::Rules;

/// Output formats of the rows.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated, with a header line.
    Csv,
    /// Apache Parquet, typed columns.
    Parquet,
}

/// Arguments of `toppo simulate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Players, 2 to 8.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub players: usize,
    /// Games to play.
    #[arg(long, default_value_t = 1000, value_name = "G")]
    pub games: u64,
    /// Seed of the first game (game k has seed S + k).
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Cards in the display and each line: 3, 4 or 5.
    #[arg(long, default_value_t = 3, value_name = "L")]
    pub line: usize,
    /// A bot, seat by seat (repeat; the list is repeated over the seats):
    /// `react=MS,reveal=MS,error=P,matching=always|two|never`, every key
    /// optional (react 700, reveal 250, error 0.01, matching always;
    /// deviations a fifth of the reaction and 50 ms). Without any, bot k
    /// reacts in 600 + 100·k ms.
    #[arg(long = "bot", value_name = "SPEC")]
    pub bots: Vec<String>,
    /// A row a game and player, to FILE (`-`: standard output).
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The rows' format.
    #[arg(long, value_enum, default_value = "csv")]
    pub format: Format,
    /// An HTML report with charts, to FILE.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// A bot from its spec.
///
/// # Errors
/// A key or value that is not one.
pub fn parse_bot(spec: &str) -> anyhow::Result<Bot> {
    let mut bot = Bot::with_reaction(700.0);
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .with_context(|| format!("{part:?} in --bot {spec:?}: key=value"))?;
        let num = || -> anyhow::Result<f64> {
            let x: f64 = v
                .parse()
                .with_context(|| format!("{v:?} is not a number ({k})"))?;
            anyhow::ensure!(x.is_finite() && x >= 0.0, "{k}={v}: a number of at least 0");
            Ok(x)
        };
        match k {
            "react" => {
                let r = num()?;
                bot.react_ms = (r, r / 5.0);
            }
            "reveal" => bot.reveal_ms = (num()?, bot.reveal_ms.1),
            "error" => {
                let e = num()?;
                anyhow::ensure!(e <= 1.0, "error={v}: a chance, 0 to 1");
                bot.error = e;
            }
            "matching" => bot.matching = v.parse::<Matching>().map_err(anyhow::Error::msg)?,
            other => anyhow::bail!("{other:?} in --bot: the keys are react, reveal, error, matching"),
        }
    }
    Ok(bot)
}

/// What one player got, summed over the games.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlayerSummary {
    /// Mean reaction time, ms.
    pub react_ms: f64,
    /// Mean penalty points a game.
    pub points: f64,
    /// Share of games won (calling "toppo").
    pub won: f64,
    /// Mean tops a game.
    pub tops: f64,
    /// Mean matches a game.
    pub matches: f64,
    /// Mean penalties a game.
    pub penalties: f64,
}

/// The summary of a simulation.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Of them, ended by a "toppo" call (the others hit the action limit).
    pub finished: u64,
    /// Players.
    pub players: usize,
    /// Cards in a line.
    pub line: usize,
    /// Mean game length, simulated seconds.
    pub mean_seconds: f64,
    /// Mean full lines revealed a game, all players.
    pub mean_lines: f64,
    /// Each player.
    pub per_player: Vec<PlayerSummary>,
    /// Penalty points a game that 100 ms more of mean reaction costs: the
    /// least-squares slope of mean points on mean reaction over the
    /// players (0 when they all react alike).
    pub points_per_100ms: f64,
    /// Games a second, on the threads used.
    pub games_per_second: f64,
}

fn summarise(outcomes: &[Outcome], bots: &[Bot], players: usize, line: usize, secs: f64) -> Summary {
    let n = outcomes.len().max(1) as f64;
    let per_player: Vec<PlayerSummary> = (0..players)
        .map(|p| PlayerSummary {
            react_ms: bots[p % bots.len()].react_ms.0,
            points: outcomes.iter().map(|o| o.points[p] as f64).sum::<f64>() / n,
            won: outcomes.iter().filter(|o| o.finished && o.winner == p).count() as f64 / n,
            tops: outcomes.iter().map(|o| o.tops[p] as f64).sum::<f64>() / n,
            matches: outcomes.iter().map(|o| o.matched[p] as f64).sum::<f64>() / n,
            penalties: outcomes.iter().map(|o| o.penalties[p] as f64).sum::<f64>() / n,
        })
        .collect();
    // Least squares of points on reaction, over the players.
    let m = per_player.len() as f64;
    let mx = per_player.iter().map(|p| p.react_ms).sum::<f64>() / m;
    let my = per_player.iter().map(|p| p.points).sum::<f64>() / m;
    let sxx: f64 = per_player.iter().map(|p| (p.react_ms - mx).powi(2)).sum();
    let sxy: f64 = per_player
        .iter()
        .map(|p| (p.react_ms - mx) * (p.points - my))
        .sum();
    Summary {
        games: outcomes.len() as u64,
        finished: outcomes.iter().filter(|o| o.finished).count() as u64,
        players,
        line,
        mean_seconds: outcomes
            .iter()
            .map(|o| o.duration_ms as f64 / 1000.0)
            .sum::<f64>()
            / n,
        mean_lines: outcomes.iter().map(|o| o.lines as f64).sum::<f64>() / n,
        per_player,
        points_per_100ms: if sxx > 0.0 { 100.0 * sxy / sxx } else { 0.0 },
        games_per_second: outcomes.len() as f64 / secs.max(1e-9),
    }
}

/// Runs `toppo simulate`.
///
/// # Errors
/// Bad options, or an output that cannot be written.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = Rules::standard(args.players, args.line).map_err(anyhow::Error::msg)?;
    anyhow::ensure!(args.games > 0, "--games must be at least 1");
    topitop_cli::common::init_threads(args.threads)?;
    let bots: Vec<Bot> = if args.bots.is_empty() {
        (0..args.players)
            .map(|k| Bot::with_reaction(600.0 + 100.0 * k as f64))
            .collect()
    } else {
        args.bots
            .iter()
            .map(|s| parse_bot(s))
            .collect::<anyhow::Result<_>>()?
    };
    // Outputs opened before the work, so that a bad path fails at once.
    let mut rows_out = args
        .out
        .as_deref()
        .map(|p| Output::open(Some(p), &[]))
        .transpose()?;
    let report_out = args
        .report
        .as_deref()
        .map(|p| Output::open(Some(p), &[]))
        .transpose()?;
    let start = std::time::Instant::now();
    let bar = CountBar::new(
        &format!("simulating {} games of {} players", args.games, args.players),
        "games",
    );
    let done = std::sync::atomic::AtomicU64::new(0);
    let outcomes: Vec<Outcome> = (0..args.games)
        .into_par_iter()
        .map(|g| {
            let o = play(
                &rules,
                &bots,
                args.seed.wrapping_add(g),
                (g % args.players as u64) as usize,
                None,
            )
            .map_err(anyhow::Error::msg);
            let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if d.is_multiple_of(1024) || d == args.games {
                bar.set(d, args.games);
            }
            o
        })
        .collect::<anyhow::Result<_>>()?;
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
    let summary = summarise(&outcomes, &bots, args.players, args.line, secs);
    if let Some(out) = rows_out.as_mut() {
        match args.format {
            Format::Csv => write_csv(out.writer(), &outcomes, &bots, args.seed)?,
            Format::Parquet => write_parquet(out.writer(), &outcomes, &bots, args.seed, &summary)?,
        }
    }
    if let Some(out) = rows_out {
        if let Some(p) = out.finish()? {
            eprintln!("wrote {}", p.display());
        }
    }
    if let Some(out) = report_out {
        if let Some(p) = report(&outcomes, &summary).write_to(out)? {
            eprintln!("wrote {}", p.display());
        }
    }
    // With the rows on standard output, the summary goes to standard error.
    let to_stderr = args.out.as_deref().is_some_and(|p| p.as_os_str() == "-");
    let text = if args.json {
        serde_json::to_string_pretty(&summary)?
    } else {
        summary_text(&summary)
    };
    if to_stderr {
        eprintln!("{text}");
    } else {
        writeln!(std::io::stdout().lock(), "{text}")?;
    }
    Ok(())
}

fn summary_text(s: &Summary) -> String {
    let mut t = format!(
        "{} games of {} players, lines of {} ({} ended by a toppo call), {:.0} games/s\n\
         a game lasts {:.1} s and {:.1} full lines on average\n\
         player  react ms  points  won     tops  matches  penalties\n",
        s.games, s.players, s.line, s.finished, s.games_per_second, s.mean_seconds, s.mean_lines
    );
    for (k, p) in s.per_player.iter().enumerate() {
        t.push_str(&format!(
            "{:<7} {:>8.0} {:>7.2} {:>5.1}% {:>6.2} {:>8.2} {:>10.2}\n",
            k + 1,
            p.react_ms,
            p.points,
            100.0 * p.won,
            p.tops,
            p.matches,
            p.penalties
        ));
    }
    t.push_str(&format!(
        "100 ms more of reaction costs {:.2} penalty points a game (least squares over the players)",
        s.points_per_100ms
    ));
    t
}

/// The columns of the rows: a row a game and player.
const COLUMNS: [&str; 11] = [
    "game",
    "seed",
    "player",
    "react_ms",
    "points",
    "won",
    "tops",
    "matches",
    "penalties",
    "seconds",
    "lines",
];

fn write_csv(out: &mut impl Write, outcomes: &[Outcome], bots: &[Bot], seed: u64) -> anyhow::Result<()> {
    writeln!(out, "{}", COLUMNS.join(","))?;
    for (g, o) in outcomes.iter().enumerate() {
        for p in 0..o.points.len() {
            writeln!(
                out,
                "{g},{},{},{},{},{},{},{},{},{:.3},{}",
                seed.wrapping_add(g as u64),
                p + 1,
                bots[p % bots.len()].react_ms.0,
                o.points[p],
                o.finished && o.winner == p,
                o.tops[p],
                o.matched[p],
                o.penalties[p],
                o.duration_ms as f64 / 1000.0,
                o.lines
            )?;
        }
    }
    Ok(())
}

fn write_parquet(
    out: &mut impl Write,
    outcomes: &[Outcome],
    bots: &[Bot],
    seed: u64,
    s: &Summary,
) -> anyhow::Result<()> {
    let rows: Vec<(usize, usize, &Outcome)> = outcomes
        .iter()
        .enumerate()
        .flat_map(|(g, o)| (0..o.points.len()).map(move |p| (g, p, o)))
        .collect();
    let u64s = |f: &dyn Fn(usize, usize, &Outcome) -> u64| -> ArrayRef {
        Arc::new(rows.iter().map(|&(g, p, o)| f(g, p, o)).collect::<UInt64Array>())
    };
    let u32s = |f: &dyn Fn(usize, usize, &Outcome) -> u32| -> ArrayRef {
        Arc::new(rows.iter().map(|&(g, p, o)| f(g, p, o)).collect::<UInt32Array>())
    };
    let f64s = |f: &dyn Fn(usize, usize, &Outcome) -> f64| -> ArrayRef {
        Arc::new(rows.iter().map(|&(g, p, o)| f(g, p, o)).collect::<Float64Array>())
    };
    let columns: Vec<ArrayRef> = vec![
        u64s(&|g, _, _| g as u64),
        u64s(&|g, _, _| seed.wrapping_add(g as u64)),
        u32s(&|_, p, _| p as u32 + 1),
        f64s(&|_, p, _| bots[p % bots.len()].react_ms.0),
        u32s(&|_, p, o| o.points[p] as u32),
        Arc::new(
            rows.iter()
                .map(|&(_, p, o)| Some(o.finished && o.winner == p))
                .collect::<BooleanArray>(),
        ),
        u32s(&|_, p, o| o.tops[p] as u32),
        u32s(&|_, p, o| o.matched[p] as u32),
        u32s(&|_, p, o| o.penalties[p] as u32),
        f64s(&|_, _, o| o.duration_ms as f64 / 1000.0),
        u32s(&|_, _, o| o.lines as u32),
    ];
    let types = [
        DataType::UInt64,
        DataType::UInt64,
        DataType::UInt32,
        DataType::Float64,
        DataType::UInt32,
        DataType::Boolean,
        DataType::UInt32,
        DataType::UInt32,
        DataType::UInt32,
        DataType::Float64,
        DataType::UInt32,
    ];
    let schema = Arc::new(Schema::new(
        COLUMNS
            .iter()
            .zip(types)
            .map(|(n, t)| Field::new(*n, t, false))
            .collect::<Vec<_>>(),
    ));
    let meta = vec![
        KeyValue::new("topitop.game".into(), "toppo".to_string()),
        KeyValue::new(
            "topitop.table".into(),
            "simulated games, a row a game and player".to_string(),
        ),
        KeyValue::new("topitop.players".into(), s.players.to_string()),
        KeyValue::new("topitop.line".into(), s.line.to_string()),
        KeyValue::new("topitop.version".into(), topitop_cli::VERSION.to_string()),
    ];
    let mut w = ArrowWriter::try_new(
        Vec::new(),
        Arc::clone(&schema),
        Some(topitop_cli::parquet::properties(meta, false)),
    )?;
    w.write(&RecordBatch::try_new(schema, columns)?)?;
    out.write_all(&w.into_inner()?)?;
    Ok(())
}

fn report(outcomes: &[Outcome], s: &Summary) -> Report {
    let mut r = Report::new(&format!(
        "Toppo: {} simulated games of {} players",
        topitop_cli::report::grouped(s.games),
        s.players
    ));
    r.paragraph(&format!(
        "Bots in simulated time, lines of {} cards. A game lasts {:.1} s and {:.1} full lines on average; {} of {} ended by a toppo call. 100 ms more of mean reaction costs {:.2} penalty points a game (least squares over the players).",
        s.line,
        s.mean_seconds,
        s.mean_lines,
        topitop_cli::report::grouped(s.finished),
        topitop_cli::report::grouped(s.games),
        s.points_per_100ms
    ));
    r.heading("Players");
    let rows: Vec<Vec<String>> = s
        .per_player
        .iter()
        .enumerate()
        .map(|(k, p)| {
            vec![
                (k + 1).to_string(),
                format!("{:.0}", p.react_ms),
                format!("{:.2}", p.points),
                format!("{:.1}%", 100.0 * p.won),
                format!("{:.2}", p.tops),
                format!("{:.2}", p.matches),
                format!("{:.2}", p.penalties),
            ]
        })
        .collect();
    r.table(
        "Each player, a game on average",
        &[
            "player",
            "reaction (ms)",
            "penalty points",
            "won",
            "tops",
            "matches",
            "penalties",
        ],
        &rows,
    );
    r.scatter(
        "Mean penalty points by mean reaction time, a point a player",
        "mean reaction (ms)",
        "penalty points a game",
        &s.per_player
            .iter()
            .map(|p| (p.react_ms, p.points))
            .collect::<Vec<_>>(),
        false,
        false,
    );
    r.heading("Games");
    let by_seconds = Series {
        name: "games".into(),
        points: outcomes
            .iter()
            .map(|o| ((o.duration_ms / 10_000 * 10) as i64, 1))
            .collect(),
    };
    r.bar_chart(
        "Games by length (10-second bins)",
        "seconds",
        "games",
        &[by_seconds],
        false,
    );
    let points: Vec<Series> = (0..s.players)
        .map(|p| Series {
            name: format!("player {}", p + 1),
            points: outcomes.iter().map(|o| (o.points[p] as i64, 1)).collect(),
        })
        .collect();
    r.bar_chart(
        "Penalty points a game, each player",
        "penalty points",
        "games",
        &points,
        false,
    );
    r
}
