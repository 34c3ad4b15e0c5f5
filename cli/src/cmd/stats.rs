//! `topitop stats --game NAME`: counts by value, the longest game, and the
//! positions play reaches, with and without symmetry.

use std::io::Write;
use std::path::PathBuf;

use rayon::prelude::*;
use serde::Serialize;
use topitop_db::SolvedDb;
use topitop_game_api::{Record, Tiered, Value};

use super::open;
use crate::common::{DbArgs, StartResult};
use crate::output::Output;
use crate::report;

/// What `stats --json` prints, the same fields for every game; a game
/// with figures of its own adds them as `extra`, after the common ones.
#[derive(Serialize)]
pub struct Report<E: Serialize = ()> {
    /// The headline: the start position's result.
    pub start: StartResult,
    /// The database file.
    pub file: String,
    /// The game, as `--game` names it.
    pub game: String,
    /// Its variant, as database file names hold it.
    pub variant: String,
    /// The file's size in bytes.
    pub file_bytes: u64,
    /// Whether the file holds one position per symmetry class.
    pub symmetric: bool,
    /// Solved positions by value (one per symmetry class with symmetry).
    pub win: u64,
    /// See `win`.
    pub lose: u64,
    /// See `win`.
    pub tie: u64,
    /// See `win`.
    pub draw: u64,
    /// The most moves to the end of a game any stored position has.
    pub largest_remoteness: u16,
    /// Indices of the position index (every tier's, for a tiered game).
    pub indices: u64,
    /// Positions play reaches from the start.
    pub positions: u64,
    /// Their symmetry classes.
    pub classes: u64,
    /// The game's own figures.
    #[serde(flatten)]
    pub extra: E,
}

impl<E: Serialize> Report<E> {
    /// Prints the report: JSON, or the common figures as text followed by
    /// `lines`, the game's own.
    ///
    /// # Errors
    /// A closed standard output.
    pub fn print(&self, json: bool, lines: &[String]) -> anyhow::Result<()> {
        let mut out = std::io::stdout().lock();
        if json {
            writeln!(out, "{}", serde_json::to_string_pretty(self)?)?;
            return Ok(());
        }
        writeln!(out, "{}", self.start.line())?;
        writeln!(out, "{}: {} {}", self.file, self.game, self.variant)?;
        writeln!(
            out,
            "file size            {} bytes ({} indices)",
            self.file_bytes, self.indices
        )?;
        writeln!(
            out,
            "solved               {} win, {} lose, {} tie, {} draw{}",
            self.win,
            self.lose,
            self.tie,
            self.draw,
            if self.symmetric {
                " (one per symmetry class)"
            } else {
                ""
            }
        )?;
        writeln!(out, "largest remoteness   {}", self.largest_remoteness)?;
        writeln!(
            out,
            "reachable positions  {} ({} symmetry classes)",
            self.positions, self.classes
        )?;
        for l in lines {
            writeln!(out, "{l}")?;
        }
        Ok(())
    }
}

/// Runs `stats` on `game`.
///
/// # Errors
/// A missing or damaged database, or an output that cannot be written.
pub fn run<G: Tiered>(game: G, args: Args) -> anyhow::Result<()> {
    let db = open(&game, &args.db)?;
    // Opened first so a path that cannot be written fails before the work.
    let report_out = args
        .report
        .as_deref()
        .map(|p| Output::open(Some(p), &[db.path()]))
        .transpose()?;
    // Every index that names a position of play is one play reaches
    // (the game's index promises it; Topolo's tests check it). An index
    // may hold every position or one per symmetry class: each class is
    // counted once, with all its positions. A database of values records
    // the counts its solve made.
    let (positions, classes) = db.recorded_positions().unwrap_or_else(|| {
        game.tiers()
            .par_iter()
            .map(|&t| {
                (0..game.tier_size(t))
                    .filter_map(|i| game.position(t, i))
                    .filter(|p| game.canonical(p) == *p)
                    .fold((0u64, 0u64), |(a, c), p| {
                        (a + game.images(&p).len() as u64, c + 1)
                    })
            })
            .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1))
    });
    let (g, v, _) = db.names();
    let counts = db.counts();
    let stored = db.tiers();
    let start = game.start();
    let start_rec = db.lookup(&game, &start)?;
    let r = Report {
        start: StartResult::new(
            game.format_position(&start),
            game.player_names(),
            game.player_to_move(&start),
            start_rec,
        ),
        file: db.path().display().to_string(),
        game: g.to_string(),
        variant: v.to_string(),
        file_bytes: db.file_len(),
        symmetric: db.symmetric(),
        win: counts[0],
        lose: counts[1],
        tie: counts[2],
        draw: counts[3],
        largest_remoteness: db.max_remoteness(),
        indices: stored.iter().map(|t| t.size).sum(),
        positions,
        classes,
        extra: (),
    };
    if let Some(out) = report_out {
        match html_report(&game, &db, &r)?.write_to(out)? {
            Some(path) => eprintln!("wrote {}", path.display()),
            // `--report -`: standard output holds the page, and only it.
            None => return Ok(()),
        }
    }
    r.print(args.json, &[])
}

/// Counts by value (win, lose, tie, draw) of the records of one tier.
#[derive(Clone, Copy, Default)]
struct Counts([u64; 4]);

impl Counts {
    fn add(&mut self, r: Record) {
        if let Some(v) = r.value() {
            self.0[v.index()] += 1;
        }
    }

    fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// The HTML page of `stats --report`: the totals, positions by value and
/// remoteness, and every tier's counts, from the records themselves.
fn html_report<G: Tiered>(game: &G, db: &SolvedDb, r: &Report) -> anyhow::Result<report::Report> {
    let tiers = db.tiers();
    let by_name: std::collections::HashMap<String, G::Tier> =
        game.tiers().into_iter().map(|t| (game.tier_name(t), t)).collect();
    let mut by_remoteness = vec![Vec::<u64>::new(); 3];
    let mut add = |k: usize, rem: u16, n: u64| {
        let at = usize::from(rem);
        if by_remoteness[k].len() <= at {
            by_remoteness[k].resize(at + 1, 0);
        }
        by_remoteness[k][at] += n;
    };
    let mut rows = Vec::with_capacity(tiers.len());
    for (t, summary) in tiers.iter().enumerate() {
        let name = &summary.name;
        let tier = *by_name
            .get(name)
            .ok_or_else(|| anyhow::anyhow!("tier {name} is not one of {} {}", game.name(), game.variant()))?;
        let mut c = Counts::default();
        match db {
            // Its counts are in the header, one remoteness a tier.
            SolvedDb::Values(d) => {
                let stored = &d.header().tiers[t];
                c.0[..3].copy_from_slice(&stored.counts);
                let rem = game.fixed_remoteness(tier).unwrap_or(0);
                for (k, &n) in stored.counts.iter().enumerate() {
                    add(k, rem, n);
                }
            }
            SolvedDb::Records(_) => {
                for rec in db.tier_records(game, tier, t)? {
                    c.add(rec);
                    // Draws have no remoteness and are not charted.
                    if let Some(k) = rec.value().map(Value::index).filter(|&k| k < 3) {
                        add(k, rec.remoteness(), 1);
                    }
                }
            }
        }
        if c.total() > 0 {
            let mut row = vec![name.to_string(), report::grouped(c.total())];
            row.extend(c.0.iter().map(|&n| report::grouped(n)));
            rows.push(row);
        }
    }
    let title = format!("{} {}", game.title(), game.variant_title());
    let mut page = report::Report::new(&format!("{title}: database statistics"));
    page.paragraph(&format!("{}.", capitalised(&r.start.line())));
    let each = if r.symmetric {
        "one per symmetry class"
    } else {
        "every position"
    };
    page.paragraph(&format!(
        "Database {}: {} {}. Counts are of solved positions, {each}.",
        r.file, r.game, r.variant
    ));
    page.heading("Summary");
    let row = |figure: &str, n: String| vec![figure.to_string(), n];
    let start = game.start();
    let start_rec = db.lookup(game, &start)?;
    page.table(
        "Totals",
        &["figure", "number"],
        &[
            row("file size (bytes)", report::grouped(r.file_bytes)),
            row("indices", report::grouped(r.indices)),
            row("tiers", report::grouped(tiers.len() as u64)),
            row("positions play reaches", report::grouped(r.positions)),
            row("their symmetry classes", report::grouped(r.classes)),
            row(
                "solved positions",
                report::grouped(r.win + r.lose + r.tie + r.draw),
            ),
            row("win", report::grouped(r.win)),
            row("lose", report::grouped(r.lose)),
            row("tie", report::grouped(r.tie)),
            row("draw", report::grouped(r.draw)),
            row("largest remoteness", r.largest_remoteness.to_string()),
            row(
                &format!("start {}", game.format_position(&start)),
                start_rec.to_string(),
            ),
        ],
    );
    page.values_and_remoteness(&by_remoteness);
    page.heading("Tiers");
    page.paragraph(&format!(
        "Each tier of the database with its positions by value ({each})."
    ));
    page.table(
        "Positions by tier and value",
        &["tier", "positions", "win", "lose", "tie", "draw"],
        &rows,
    );
    Ok(page)
}

/// Arguments of `stats`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Where the database is.
    #[command(flatten)]
    pub db: DbArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report (tables and charts) to FILE
    /// (`-`: to standard output, instead of the text or JSON).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

/// `text` with its first letter upper-case.
pub fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
