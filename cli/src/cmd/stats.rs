//! `topitop stats`: counts by value, the longest game, and the positions
//! play reaches, with and without symmetry, as text, JSON or an HTML page;
//! written once over [`Reader`], a game adding figures of its own through
//! [`Extras`].

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;
use topitop_db::Reader;
use topitop_game_api::{Game, Presentation, Reachability, Value};

use crate::common::{DbArgs, StartResult};
use crate::output::Output;
use crate::report::{self, grouped};

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
    /// The file's format, e.g. `value database`.
    pub format: String,
    /// The version of its format the file is in.
    pub format_version: u16,
    /// The version this program writes (`topitop convert` rewrites an
    /// older file in it).
    pub format_current: u16,
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
    /// Their symmetry classes; none for a game without symmetries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classes: Option<u64>,
    /// The file's bits over the positions it answers for (every image of
    /// a symmetry class counted): the size endgame tables are compared
    /// by. None when play reaches no position.
    pub bits_per_position: Option<f64>,
    /// The file's bits over the symmetry classes of those positions; none
    /// for a game without symmetries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bits_per_class: Option<f64>,
    /// Probe latencies, with `--probes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probes: Option<super::probe::Probes>,
    /// The game's own figures.
    #[serde(flatten)]
    pub extra: E,
}

/// The figures of a database every game's `stats` prints, and, for the
/// HTML page only, the breakdowns it charts.
#[derive(Clone, Debug, Default)]
pub struct Counted {
    /// Solved positions by value: win, lose, tie, draw.
    pub counts: [u64; 4],
    /// The most moves to the end of a game any stored position has.
    pub largest_remoteness: u16,
    /// Positions play reaches from the start.
    pub positions: u64,
    /// Their symmetry classes.
    pub classes: u64,
    /// Positions by remoteness, one histogram per value: win, lose, tie (a
    /// draw has none). Page only.
    pub by_remoteness: [Vec<u64>; 3],
    /// The tiers holding positions, by name, with their positions by
    /// value. Page only.
    pub tiers: Vec<(String, [u64; 4])>,
}

/// What a game adds to `stats`: its own count of the database where it
/// has a faster or finer one, and its own figures, printed after the
/// common ones in the text, the JSON and the page. [`Plain`] adds nothing.
pub trait Extras<G: Presentation>: Sync {
    /// The game's own figures, flattened into the JSON after the common
    /// ones.
    type Own: Serialize;
    /// Counts `db`, a database of `game`; with `detail` (the page), the
    /// breakdowns of [`Counted`] too, which plain `stats` does not pay for.
    ///
    /// # Errors
    /// A damaged database.
    fn count(&self, game: &G, db: &dyn Reader<G>, detail: bool) -> anyhow::Result<(Counted, Self::Own)>;
    /// Lines of text after the common ones.
    fn lines(&self, _own: &Self::Own) -> Vec<String> {
        Vec::new()
    }
    /// Rows (figure, number, note) of the page's totals after the common
    /// ones.
    fn rows(&self, _own: &Self::Own) -> Vec<Vec<String>> {
        Vec::new()
    }
    /// The page's sections between the chart of values and remoteness and
    /// the tiers table.
    fn sections(&self, _own: &Self::Own, _page: &mut report::Report) {}
}

/// The `stats` of a game that adds nothing to it: [`count`]'s figures.
pub struct Plain;

impl<G: Presentation> Extras<G> for Plain {
    type Own = ();
    fn count(&self, game: &G, db: &dyn Reader<G>, detail: bool) -> anyhow::Result<(Counted, ())> {
        Ok((count(game, db, detail)?, ()))
    }
}

/// Runs `stats` on `db`, a database of `game`, with what `extras` adds.
///
/// # Errors
/// A damaged database, or an output that cannot be written.
pub fn run<G: Presentation, X: Extras<G>>(
    game: &G,
    db: &dyn Reader<G>,
    extras: &X,
    args: Args,
) -> anyhow::Result<()> {
    let facts = db.facts();
    // Opened first so a path that cannot be written fails before the work.
    let page_out = args
        .report
        .as_deref()
        .map(|p| Output::open(Some(p), &[&facts.path]))
        .transpose()?;
    // First, while no block has been read.
    let probes = match args.probes {
        Some(n) => super::probe::run(game, db, n, PROBE_SEED)?,
        None => None,
    };
    let (counted, own) = extras.count(game, db, page_out.is_some())?;
    let start = game.start();
    let [win, lose, tie, draw] = counted.counts;
    let r = Report {
        start: StartResult::new(
            game.format_position(&start),
            game.player_names(),
            // The first player moves first, impartial game or not.
            game.player_to_move(&start).unwrap_or(0),
            db.lookup(game, &start)?,
        ),
        file: facts.path.display().to_string(),
        game: facts.game,
        variant: facts.variant,
        format: facts.format.name.to_string(),
        format_version: facts.format.version,
        format_current: facts.format.current,
        file_bytes: facts.file_len,
        symmetric: facts.symmetric,
        win,
        lose,
        tie,
        draw,
        largest_remoteness: counted.largest_remoteness,
        indices: facts.tiers.iter().map(|t| t.size).sum(),
        positions: counted.positions,
        classes: game.has_symmetries().then_some(counted.classes),
        bits_per_position: bits_over(facts.file_len, counted.positions),
        bits_per_class: game
            .has_symmetries()
            .then(|| bits_over(facts.file_len, counted.classes))
            .flatten(),
        probes,
        extra: own,
    };
    if let Some(out) = page_out {
        let tiers = facts.tiers.len() as u64;
        match page(game, extras, &r, &counted, tiers).write_to(out)? {
            Some(path) => eprintln!("wrote {}", path.display()),
            // `--report -`: standard output holds the page, and only it.
            None => return Ok(()),
        }
    }
    print(&r, args.json, &extras.lines(&r.extra))
}

/// Counts `db` from its header and, where the header leaves them out (and
/// for `detail`), one pass over its records: the positions play reaches
/// are the stored classes the database's test of reachability (or the
/// game's answer) accepts, each counted with all its images.
///
/// # Errors
/// A damaged database.
pub fn count<G: Game>(game: &G, db: &dyn Reader<G>, detail: bool) -> anyhow::Result<Counted> {
    let facts = db.facts();
    // The header's figures, where it has them, over the pass's.
    let from_header = |mut c: Counted| {
        (c.counts, c.largest_remoteness) = (facts.counts, facts.max_remoteness);
        if let Some((positions, classes)) = facts.recorded_positions {
            (c.positions, c.classes) = (positions, classes);
        }
        c
    };
    if facts.recorded_positions.is_some() && !detail {
        return Ok(from_header(Counted::default()));
    }
    let recount = facts.recorded_positions.is_none();
    let mut all = Counted::default();
    // A game whose reached positions are found by a search forward is
    // counted from what the search found: asking it of every image of
    // every class took Topple 3x3 s8 a minute, its solve 3 s.
    let searched = if recount && game.reachability() == Reachability::Search {
        match topitop_db::reach::search(game) {
            Ok(reached) => {
                all.positions = reached.len() as u64;
                all.classes = reached.classes(game) as u64;
                true
            }
            Err(why) => {
                eprintln!("topitop: {why}");
                false
            }
        }
    } else {
        false
    };
    if searched && !detail {
        return Ok(from_header(all));
    }
    let ask = recount && !searched;
    let reached = (ask && game.reachability() != Reachability::Search)
        .then(|| db.reachable(game))
        .flatten();
    // A database of values holds one at every index, those naming no
    // position (or, with symmetry, another image) included.
    let (values_only, symmetric) = (facts.values_only, facts.symmetric);
    for (t, summary) in facts.tiers.iter().enumerate() {
        let before = all.counts;
        for chunk in db.chunks(game, t)? {
            let chunk = chunk?;
            let share = topitop_par::share_of(chunk.len(), 1 << 10);
            let parts = topitop_par::map_ranges(chunk.len(), share, |range| {
                let mut part = Counted::default();
                for (pos, rec) in &chunk[range] {
                    let canonical = pos.as_ref().map(|p| game.canonical(p) == *p);
                    if let (true, Some(p), Some(true)) = (ask, pos, canonical) {
                        // Each image asked: a class may hold positions no
                        // game comes to (Topple's reserves) beside others.
                        let reachable = |q: &G::Position| match &reached {
                            Some(test) => test(q),
                            None => game.reachable(q),
                        };
                        let n = game.images(p).iter().filter(|q| reachable(q)).count() as u64;
                        part.positions += n;
                        part.classes += u64::from(n > 0);
                    }
                    let stored = !values_only || canonical.is_some_and(|c| c || !symmetric);
                    if let (true, Some(v)) = (detail && stored, rec.value()) {
                        part.counts[v.index()] += 1;
                        // Draws have no remoteness and are not charted.
                        if v != Value::Draw {
                            add(
                                &mut part.by_remoteness[v.index()],
                                usize::from(rec.remoteness()),
                                1,
                            );
                        }
                    }
                }
                part
            });
            all = parts.into_iter().fold(all, Counted::merge);
        }
        let tier = [0, 1, 2, 3].map(|k| all.counts[k] - before[k]);
        if tier.iter().sum::<u64>() > 0 {
            all.tiers.push((summary.name.clone(), tier));
        }
    }
    Ok(from_header(all))
}

impl Counted {
    /// `o`, a count of other positions, added in (but not its tiers).
    fn merge(mut self, o: Counted) -> Counted {
        self.positions += o.positions;
        self.classes += o.classes;
        for (a, b) in self.counts.iter_mut().zip(o.counts) {
            *a += b;
        }
        for (a, b) in self.by_remoteness.iter_mut().zip(o.by_remoteness) {
            for (r, n) in b.into_iter().enumerate() {
                add(a, r, n);
            }
        }
        self
    }
}

/// The bits of a file of `bytes` over `n` positions; none for none.
#[allow(clippy::cast_precision_loss)] // a ratio printed to three places
fn bits_over(bytes: u64, n: u64) -> Option<f64> {
    (n > 0).then(|| 8.0 * bytes as f64 / n as f64)
}

/// Adds `n` to `histogram` at `at`, growing it as needed.
pub fn add(histogram: &mut Vec<u64>, at: usize, n: u64) {
    if histogram.len() <= at {
        histogram.resize(at + 1, 0);
    }
    histogram[at] += n;
}

/// Prints `r`: JSON, or the common figures as text followed by `lines`,
/// the game's own.
fn print<E: Serialize>(r: &Report<E>, json: bool, lines: &[String]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(r)?)?;
        return Ok(());
    }
    let each = if r.symmetric {
        " (one per symmetry class)"
    } else {
        ""
    };
    let common = [
        r.start.line(),
        format!("{}: {} {}", r.file, r.game, r.variant),
        format!(
            "file size            {} bytes ({} indices)",
            r.file_bytes, r.indices
        ),
        format!(
            "format               {}",
            topitop_db::reader::describe_format(
                &r.format,
                r.format_version,
                r.format_current,
                std::path::Path::new(&r.file)
            )
        ),
        format!(
            "solved               {} win, {} lose, {} tie, {} draw{each}",
            r.win, r.lose, r.tie, r.draw
        ),
        format!("largest remoteness   {}", r.largest_remoteness),
        match r.classes {
            Some(classes) => format!(
                "reachable positions  {} ({classes} symmetry classes)",
                r.positions
            ),
            None => format!("reachable positions  {}", r.positions),
        },
        match (r.bits_per_position, r.bits_per_class) {
            (Some(p), Some(c)) => {
                format!("size                 {p:.3} bits a position, {c:.3} a symmetry class")
            }
            (Some(p), None) => format!("size                 {p:.3} bits a position"),
            (None, _) => "size                 - (play reaches no position)".into(),
        },
    ];
    let probes = r.probes.as_ref().map(super::probe::Probes::line);
    for l in common.iter().chain(&probes).chain(lines) {
        writeln!(out, "{l}")?;
    }
    Ok(())
}

/// The HTML page of `stats --report`: the totals, the chart of positions
/// by value and remoteness, the game's sections, every tier's counts, and
/// the numbers behind the chart.
fn page<G: Presentation, X: Extras<G>>(
    game: &G,
    extras: &X,
    r: &Report<X::Own>,
    c: &Counted,
    tiers: u64,
) -> report::Report {
    let mut page = report::Report::new(&format!(
        "{} {}: database statistics",
        game.title(),
        game.variant_title()
    ));
    page.paragraph(&format!(
        "Start position {}: {}.",
        r.start.position, r.start.result
    ));
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
    let row = |figure: &str, n: String, note: &str| vec![figure.to_string(), n, note.to_string()];
    let mut rows = vec![
        row("file size (bytes)", grouped(r.file_bytes), ""),
        row("indices", grouped(r.indices), "positions the index numbers"),
        row("tiers", grouped(tiers), ""),
        row("positions play reaches", grouped(r.positions), "from the start"),
        row(
            "bits a position",
            r.bits_per_position.map_or("-".into(), |b| format!("{b:.3}")),
            "the file's bits over the positions play reaches",
        ),
        row("solved positions", grouped(r.win + r.lose + r.tie + r.draw), each),
        row("win", grouped(r.win), ""),
        row("lose", grouped(r.lose), ""),
        row("tie", grouped(r.tie), ""),
        row("draw", grouped(r.draw), ""),
        row("largest remoteness", r.largest_remoteness.to_string(), ""),
        row(&format!("start {}", r.start.position), r.start.result.clone(), ""),
    ];
    if let Some(classes) = r.classes {
        rows.insert(4, row("their symmetry classes", grouped(classes), ""));
    }
    rows.extend(extras.rows(&r.extra));
    page.table("Totals", &["figure", "number", "note"], &rows);
    page.values_and_remoteness(&c.by_remoteness);
    extras.sections(&r.extra, &mut page);
    if !c.tiers.is_empty() {
        page.heading("Tiers");
        page.paragraph(&format!(
            "Each tier of the database with its positions by value ({each})."
        ));
        let rows: Vec<Vec<String>> = c
            .tiers
            .iter()
            .map(|(name, n)| {
                let mut row = vec![name.clone(), grouped(n.iter().sum())];
                row.extend(n.iter().map(|&n| grouped(n)));
                row
            })
            .collect();
        page.table(
            "Positions by tier and value",
            &["tier", "positions", "win", "lose", "tie", "draw"],
            &rows,
        );
    }
    // Last, so the charts come first on the screen.
    page.heading("The numbers behind the charts");
    let longest = c.by_remoteness.iter().map(Vec::len).max().unwrap_or(0);
    let rows: Vec<Vec<String>> = (0..longest)
        .map(|rem| {
            let mut row = vec![rem.to_string()];
            row.extend(
                c.by_remoteness
                    .iter()
                    .map(|h| grouped(h.get(rem).copied().unwrap_or(0))),
            );
            row
        })
        .collect();
    page.table(
        "Positions by remoteness",
        &["remoteness", "win", "lose", "tie"],
        &rows,
    );
    page
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
    /// Also time N lookups of positions met in random play from the start,
    /// first on an empty block cache, then again with every block they
    /// touched held decoded (mean, median and 99th percentile), as a probe
    /// benchmark of the file. A value database then keeps up to 2N blocks
    /// decoded (each of at most 16 KiB; the blocks touched, at most N).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub probes: Option<u32>,
}

/// The random games `--probes` samples, the same each run.
const PROBE_SEED: u64 = 1;
