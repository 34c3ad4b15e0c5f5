//! `topitop toppo simulate`: games between bots in simulated time, on all
//! cores: how long a game lasts, who gets the penalty points, and what a
//! faster reaction is worth; a row a game and player to CSV or Parquet,
//! and an HTML report with charts. The games are played a chunk at a time
//! and their rows streamed out, so memory does not grow with `--games`.

mod rows;
mod tally;

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use games_toppo::sim::{game_seed, play, Bot, Matching, Outcome, MAX_BOT_MS};
use games_toppo::Rules;
use rayon::prelude::*;
use topitop_cli::output::Output;
use topitop_cli::parquet::KeyValue;
use topitop_cli::progress::CountBar;
use topitop_cli::report::{Report, Series};

pub use rows::{Rows, COLUMNS};
pub use tally::{PlayerSummary, Summary, Tally, MAX_LENGTH_BINS};

/// Games played at once (in parallel) before their rows are written: the
/// most outcomes ever held in memory.
pub const CHUNK_GAMES: u64 = 4096;

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
    /// Seed of the run: game k's seed is mixed from S and k (SplitMix64),
    /// so that different seeds give unrelated games; the rows give each
    /// game's seed.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Cards in the display and each line: 3, 4 or 5.
    #[arg(long, default_value_t = 3, value_name = "L")]
    pub line: usize,
    /// A bot, seat by seat from player 1 (repeat; the list is repeated
    /// over the seats):
    /// `react=MS,reveal=MS,error=P,matching=always|two|never`, every key
    /// optional (react 700, reveal 250, error 0.01,
    /// matching always; deviations a fifth of the reaction and 50 ms);
    /// times from 0 to 3600000 ms (an hour). Without any, player k
    /// (numbered from 1) reacts in 500 + 100·k ms.
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
/// A key or value that is not one, or a value out of its range (the
/// message names the value and the range).
pub fn parse_bot(spec: &str) -> anyhow::Result<Bot> {
    let mut bot = Bot::with_reaction(700.0);
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .with_context(|| format!("{part:?} in --bot {spec:?}: key=value"))?;
        let num = |max: f64, what: &str| -> anyhow::Result<f64> {
            let x: f64 = v
                .parse()
                .with_context(|| format!("{v:?} is not a number ({k} in --bot {spec:?})"))?;
            anyhow::ensure!(
                (0.0..=max).contains(&x),
                "{k}={v} in --bot {spec:?} is out of range: {what}"
            );
            Ok(x)
        };
        let ms = "milliseconds from 0 to 3600000 (an hour)";
        match k {
            "react" => {
                let r = num(MAX_BOT_MS, ms)?;
                bot.react_ms = (r, r / 5.0);
            }
            "reveal" => bot.reveal_ms = (num(MAX_BOT_MS, ms)?, bot.reveal_ms.1),
            "error" => bot.error = num(1.0, "a chance from 0 to 1")?,
            "matching" => bot.matching = v.parse::<Matching>().map_err(anyhow::Error::msg)?,
            other => anyhow::bail!("{other:?} in --bot: the keys are react, reveal, error, matching"),
        }
    }
    bot.check(&format!("--bot {spec:?}"))
        .map_err(anyhow::Error::msg)?;
    Ok(bot)
}

/// What a run plays: its rules, its bots seat by seat (repeated over the
/// seats), its seed and how many games.
#[derive(Clone, Debug)]
pub struct Run {
    /// The rules of every game.
    pub rules: Rules,
    /// The bots, from player 1 on.
    pub bots: Vec<Bot>,
    /// The run's seed: game k is seeded [`game_seed`]`(seed, k)`.
    pub seed: u64,
    /// Games to play.
    pub games: u64,
}

/// Plays `run`'s games in chunks of [`CHUNK_GAMES`] on all threads,
/// hands each game to `each` in order (its number, its seed, its
/// outcome), tallies them, and reports the games done to `progress`.
///
/// # Errors
/// A game cannot be set up (bad rules or bots), or `each` failed.
pub fn simulate(
    run: &Run,
    mut each: impl FnMut(u64, u64, &Outcome) -> anyhow::Result<()>,
    progress: impl Fn(u64) + Sync,
) -> anyhow::Result<Tally> {
    let players = run.rules.players as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    let mut tally = Tally::new(run.rules.players);
    let mut first = 0;
    while first < run.games {
        let n = CHUNK_GAMES.min(run.games - first);
        let outcomes: Vec<Outcome> = (first..first + n)
            .into_par_iter()
            .map(|g| {
                let o = play(
                    &run.rules,
                    &run.bots,
                    game_seed(run.seed, g),
                    (g % players) as usize,
                    None,
                )
                .map_err(anyhow::Error::msg);
                let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                if d.is_multiple_of(1024) {
                    progress(d);
                }
                o
            })
            .collect::<anyhow::Result<_>>()?;
        for (g, o) in (first..).zip(&outcomes) {
            tally.add(o);
            each(g, game_seed(run.seed, g), o)?;
        }
        first += n;
    }
    progress(run.games);
    Ok(tally)
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
        (1..=args.players)
            .map(|k| Bot::with_reaction(500.0 + 100.0 * k as f64))
            .collect()
    } else {
        args.bots
            .iter()
            .map(|s| parse_bot(s))
            .collect::<anyhow::Result<_>>()?
    };
    // Outputs checked and opened before the work, so that a bad path fails
    // at once; two outputs naming one file would leave only the second.
    if let (Some(out), Some(report)) = (&args.out, &args.report) {
        topitop_files::refuse_same_output(("-o", out), ("--report", report))?;
    }
    if args.format == Format::Parquet && args.out.is_some() {
        topitop_cli::parquet::check_target(args.out.as_deref())?;
    }
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
    let run = Run {
        rules,
        bots,
        seed: args.seed,
        games: args.games,
    };
    let mut rows = match rows_out.as_mut() {
        None => None,
        Some(out) => Some(match args.format {
            Format::Csv => Rows::csv(out.writer())?,
            Format::Parquet => Rows::parquet(out.writer(), metadata(&run))?,
        }),
    };
    let start = std::time::Instant::now();
    let bar = CountBar::new(
        &format!("simulating {} games of {} players", args.games, args.players),
        "games",
    );
    let tally = simulate(
        &run,
        |g, seed, o| match rows.as_mut() {
            Some(rows) => rows.push(g, seed, o, &run.bots),
            None => Ok(()),
        },
        |d| bar.set(d, args.games),
    )?;
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
    if let Some(rows) = rows {
        rows.finish()?;
    }
    let summary = tally.summary(&run.bots, args.line, secs);
    if let Some(out) = rows_out {
        if let Some(p) = out.finish()? {
            eprintln!("wrote {}", p.display());
        }
    }
    if let Some(out) = report_out {
        if let Some(p) = report(&tally, &summary).write_to(out)? {
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

/// The Parquet file's metadata: what the table is, and the run.
fn metadata(run: &Run) -> Vec<KeyValue> {
    vec![
        KeyValue::new("topitop.game".into(), "toppo".to_string()),
        KeyValue::new(
            "topitop.table".into(),
            "simulated games, a row a game and player (players from 1)".to_string(),
        ),
        KeyValue::new("topitop.players".into(), run.rules.players.to_string()),
        KeyValue::new("topitop.line".into(), run.rules.line.to_string()),
        KeyValue::new("topitop.seed".into(), run.seed.to_string()),
        KeyValue::new("topitop.version".into(), topitop_cli::VERSION.to_string()),
    ]
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

fn report(tally: &Tally, s: &Summary) -> Report {
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
        points: tally
            .by_length()
            .map(|(ms, n)| (i64::try_from(ms / 1000).unwrap_or(i64::MAX), n))
            .collect(),
    };
    r.bar_chart(
        &format!("Games by length ({}-second bins)", tally.bin_ms() / 1000),
        "seconds",
        "games",
        &[by_seconds],
        false,
    );
    let points: Vec<Series> = (0..s.players)
        .map(|p| Series {
            name: format!("player {}", p + 1),
            points: tally
                .by_points(p)
                .map(|(k, n)| (i64::try_from(k).unwrap_or(i64::MAX), n))
                .collect(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn two_players(seed: u64, games: u64) -> Run {
        Run {
            rules: Rules::standard(2, 3).unwrap(),
            bots: vec![Bot::with_reaction(600.0), Bot::with_reaction(800.0)],
            seed,
            games,
        }
    }

    /// The CSV rows of `run`, split into fields, and its tally.
    fn csv_rows(run: &Run) -> (Vec<Vec<String>>, Tally) {
        let mut rows = Rows::csv(Vec::new()).unwrap();
        let tally = simulate(run, |g, s, o| rows.push(g, s, o, &run.bots), |_| {}).unwrap();
        let text = String::from_utf8(rows.finish().unwrap()).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(COLUMNS.join(",").as_str()));
        let fields = lines
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect();
        (fields, tally)
    }

    #[test]
    fn the_summary_equals_the_one_computed_from_every_row() {
        let run = Run {
            rules: Rules::standard(3, 4).unwrap(),
            bots: vec![Bot::with_reaction(600.0), Bot::with_reaction(900.0)],
            seed: 7,
            games: CHUNK_GAMES + 300,
        };
        let (rows, tally) = csv_rows(&run);
        let s = tally.summary(&run.bots, 4, 1.0);
        assert_eq!(rows.len() as u64, 3 * run.games);
        assert_eq!(s.games, run.games);
        let n = run.games as f64;
        let col = |name: &str| COLUMNS.iter().position(|&c| c == name).unwrap();
        let num = |r: &Vec<String>, name: &str| r[col(name)].parse::<f64>().unwrap();
        for p in 0..3 {
            let mine: Vec<_> = rows
                .iter()
                .filter(|r| r[col("player")] == (p + 1).to_string())
                .collect();
            assert_eq!(mine.len() as u64, run.games);
            let mean = |name: &str| mine.iter().map(|r| num(r, name)).sum::<f64>() / n;
            let got = &s.per_player[p];
            assert_eq!(got.react_ms, [600.0, 900.0, 600.0][p]);
            for (name, value) in [
                ("points", got.points),
                ("tops", got.tops),
                ("matches", got.matches),
                ("penalties", got.penalties),
            ] {
                assert!((mean(name) - value).abs() < 1e-9, "player {}: {name}", p + 1);
            }
            let won = mine.iter().filter(|r| r[col("won")] == "true").count() as f64 / n;
            assert!((won - got.won).abs() < 1e-12);
            // The report's histogram of points holds every game.
            let by_points: u64 = tally.by_points(p).map(|(_, k)| k).sum();
            assert_eq!(by_points, run.games);
        }
        let firsts: Vec<_> = rows.iter().filter(|r| r[col("player")] == "1").collect();
        let seconds = firsts.iter().map(|r| num(r, "seconds")).sum::<f64>() / n;
        let lines = firsts.iter().map(|r| num(r, "lines")).sum::<f64>() / n;
        assert!((seconds - s.mean_seconds).abs() < 1e-9);
        assert!((lines - s.mean_lines).abs() < 1e-9);
        // Rows come in game order across chunks.
        let games: Vec<u64> = firsts.iter().map(|r| r[col("game")].parse().unwrap()).collect();
        assert_eq!(games, (0..run.games).collect::<Vec<_>>());
        assert_eq!(tally.by_length().map(|(_, k)| k).sum::<u64>(), run.games);
    }

    #[test]
    fn runs_with_different_seeds_share_no_games() {
        // Game k was seeded S + k: --seed 1 and --seed 2 shared all games
        // but one, each a game apart.
        let (one, _) = csv_rows(&two_players(1, 2000));
        let (two, _) = csv_rows(&two_players(2, 2000));
        let seeds = |rows: &[Vec<String>]| -> std::collections::HashSet<String> {
            rows.iter().map(|r| r[1].clone()).collect()
        };
        assert_eq!(seeds(&one).len(), 2000);
        assert_eq!(seeds(&one).intersection(&seeds(&two)).count(), 0);
        // The same seed again gives the same rows.
        let (again, _) = csv_rows(&two_players(1, 2000));
        assert_eq!(one, again);
    }

    #[test]
    fn parquet_rows_are_the_csv_rows() {
        use parquet::file::reader::FileReader;
        use parquet::file::serialized_reader::SerializedFileReader;
        use parquet::record::Field;
        let run = two_players(3, 500);
        let (csv, _) = csv_rows(&run);
        let mut rows = Rows::parquet(Vec::new(), metadata(&run)).unwrap();
        simulate(&run, |g, s, o| rows.push(g, s, o, &run.bots), |_| {}).unwrap();
        let bytes = bytes::Bytes::from(rows.finish().unwrap());
        let reader = SerializedFileReader::new(bytes).unwrap();
        let mut read: Vec<Vec<String>> = Vec::new();
        for row in reader.get_row_iter(None).unwrap() {
            // Each column read as the type it was written as (the row
            // reader shows the unsigned logical types as unsigned fields).
            let text = |(_, field): (&String, &Field)| -> String {
                match field {
                    Field::ULong(x) => x.to_string(),
                    Field::UInt(x) => x.to_string(),
                    Field::Bool(x) => x.to_string(),
                    Field::Double(x) => x.to_string(),
                    other => panic!("{other:?} in a column of simulated games"),
                }
            };
            read.push(row.unwrap().get_column_iter().map(text).collect());
        }
        assert_eq!(read.len(), csv.len());
        for (k, (p, c)) in read.iter().zip(&csv).enumerate() {
            for (j, (a, b)) in p.iter().zip(c).enumerate() {
                let same = a == b || a.parse::<f64>().ok() == b.parse::<f64>().ok();
                assert!(same, "row {k}, {}: {a} in Parquet, {b} in CSV", COLUMNS[j]);
            }
        }
    }

    /// Run as a child by the test below: plays `TOPPO_RSS_GAMES` games
    /// with their CSV rows thrown away, then prints its peak resident set.
    #[cfg(target_os = "linux")]
    #[test]
    fn rss_child() {
        let Some(games) = std::env::var("TOPPO_RSS_GAMES").ok().and_then(|g| g.parse().ok()) else {
            return;
        };
        let run = two_players(1, games);
        let mut rows = Rows::csv(std::io::sink()).unwrap();
        let tally = simulate(&run, |g, s, o| rows.push(g, s, o, &run.bots), |_| {}).unwrap();
        assert_eq!(tally.games(), games);
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let hwm = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        println!("peak {}", hwm.split_whitespace().nth(1).unwrap());
    }

    /// The peak resident set (kB) of a child playing `games` games.
    #[cfg(target_os = "linux")]
    fn peak_kb(games: u64) -> u64 {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "simulate::tests::rss_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("TOPPO_RSS_GAMES", games.to_string())
            .env("RAYON_NUM_THREADS", "2")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The harness prints the test's name on the same line.
        let after = text.split("peak ").nth(1).expect("the child's peak");
        after.split_whitespace().next().unwrap().parse().unwrap()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn memory_does_not_grow_with_the_games() {
        // Every outcome was once kept, so the peak grew with the number of
        // games played.
        let small = peak_kb(10_000);
        let large = peak_kb(100_000);
        assert!(
            large < small + 8 * 1024,
            "peak {small} kB for 10,000 games, {large} kB for 100,000"
        );
    }

    #[test]
    fn two_outputs_naming_one_file_are_refused_before_any_game() {
        // Both once shared one temporary: "wrote F", then "cannot sync
        // F.tmp.N", and the rows were gone.
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: Args,
        }
        let dir = std::env::temp_dir().join(format!("toppo-same-output-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        std::os::unix::fs::symlink("F", dir.join("L")).unwrap();
        let f = dir.join("F");
        for report in [dir.join("F"), dir.join("L")] {
            let cli = <Cli as clap::Parser>::parse_from([
                "simulate".as_ref(),
                "--games".as_ref(),
                "100000000".as_ref(),
                "-o".as_ref(),
                f.as_os_str(),
                "--report".as_ref(),
                report.as_os_str(),
            ]);
            let e = run(cli.args).unwrap_err().to_string();
            assert!(e.contains("name the same file"), "{e}");
            assert!(!f.exists(), "nothing written");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
