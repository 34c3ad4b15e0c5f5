//! `crosscheck --gamesman-classic DIR`: our database against
//! GamesmanClassic's own tier database files, slot by slot.

use std::collections::BTreeMap;
use std::io::Write;

use games_topitop_rules::{gchash, Position, Tier, Value};
use games_topitop_solved::store::gamesman_classic::{find_tier_files, read_tier_file, slot_record, GcRecord};
use games_topitop_solved::Database;
use games_topitop_table::Record;
use rayon::prelude::*;
use serde::Serialize;

use topitop_cli::common::Differ;
use topitop_cli::progress::CountBar;

#[derive(Clone, Debug, Default, Serialize)]
struct TierDiff {
    compared: u64,
    value_differs: u64,
    remoteness_differs: u64,
    missing: u64,
}

impl TierDiff {
    fn add(&mut self, o: &TierDiff) {
        self.compared += o.compared;
        self.value_differs += o.value_differs;
        self.remoteness_differs += o.remoteness_differs;
        self.missing += o.missing;
    }
}

#[derive(Serialize)]
struct Report {
    a: String,
    b: String,
    tiers: usize,
    total: TierDiff,
    by_tier: BTreeMap<u64, TierDiff>,
    examples: Vec<String>,
}

/// One position's comparison: (value differs, remoteness differs).
fn compare(a: (Option<Value>, u16), b: (Option<Value>, u16)) -> (bool, bool) {
    if a.0 != b.0 {
        return (true, false);
    }
    (false, a.0 != Some(Value::Draw) && a.1 != b.1)
}

fn ours(r: Record) -> (Option<Value>, u16) {
    (r.value(), r.remoteness())
}

fn show(r: (Option<Value>, u16)) -> String {
    match r.0 {
        Some(Value::Draw) => "draw".into(),
        Some(v) => format!("{} {}", v.name(), r.1),
        None => "unsolved".into(),
    }
}

type Part = (BTreeMap<u64, TierDiff>, Vec<String>);

fn note(
    part: &mut Part,
    tier: u64,
    pos: Position,
    a: (Option<Value>, u16),
    b: (Option<Value>, u16),
    keep: usize,
) {
    let d = part.0.entry(tier).or_default();
    d.compared += 1;
    let (v, r) = compare(a, b);
    d.value_differs += u64::from(v);
    d.remoteness_differs += u64::from(r);
    if (v || r) && part.1.len() < keep {
        part.1.push(format!("{pos}: {} vs {}", show(a), show(b)));
    }
}

fn merge(mut a: Part, b: Part, keep: usize) -> Part {
    for (t, d) in b.0 {
        a.0.entry(t).or_default().add(&d);
    }
    a.1.extend(b.1);
    a.1.truncate(keep);
    a
}

fn with_gamesman_classic(db: &Database, dir: &std::path::Path, keep: usize) -> anyhow::Result<(Part, usize)> {
    let rules = db.rules();
    let budget = rules.budget();
    let option = u64::from(db.rules().ruleset().variant().number());
    let files: Vec<_> = find_tier_files(dir)?
        .into_iter()
        .filter(|f| f.option == option)
        .collect();
    anyhow::ensure!(
        !files.is_empty(),
        "{}: no tier files for option {option} (the database's variant)",
        dir.display()
    );
    let bar = CountBar::new("comparing", "tiers");
    let done = std::sync::atomic::AtomicU64::new(0);
    let part = files
        .par_iter()
        .map(|f| -> anyhow::Result<Part> {
            let tier = Tier::from_number(f.tier, budget)
                .map_err(|e| anyhow::anyhow!("{}: {e}", f.path.display()))?;
            let records = read_tier_file(&f.path, tier.size())?;
            let mut part = Part::default();
            for (tp, &bits) in records.iter().enumerate() {
                let GcRecord::Solved(v, r) = GcRecord::from_bits(bits) else {
                    continue;
                };
                let pos = gchash::unhash(f.tier, tp as u64, budget)?;
                let theirs = (Some(v), u16::from(r));
                match db.get(pos) {
                    Ok(rec) => note(&mut part, f.tier, pos, theirs, ours(rec), keep),
                    // A slot outside our index (a forbidden slide no move
                    // leaves): what GamesmanClassic's rules make of its
                    // children, one ply, from our records.
                    Err(_) => match slot_record(rules, pos, |p| db.get(p).ok()) {
                        Ok(GcRecord::Solved(v2, r2)) => {
                            note(&mut part, f.tier, pos, theirs, (Some(v2), u16::from(r2)), keep)
                        }
                        _ => part.0.entry(f.tier).or_default().missing += 1,
                    },
                }
            }
            bar.set(
                done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                files.len() as u64,
            );
            Ok(part)
        })
        .try_reduce(Part::default, |x, y| Ok(merge(x, y, keep)))?;
    bar.finish();
    Ok((part, files.len()))
}

/// Runs `crosscheck --gamesman-classic DIR`; fails when anything differs.
pub fn run(db: &Database, dir: &std::path::Path, keep: usize, json: bool) -> anyhow::Result<()> {
    let (part, tiers) = with_gamesman_classic(db, dir, keep)?;
    let (by_tier, examples) = part;
    let mut total = TierDiff::default();
    for d in by_tier.values() {
        total.add(d);
    }
    let differing: BTreeMap<u64, TierDiff> = by_tier
        .into_iter()
        .filter(|(_, d)| d.value_differs + d.remoteness_differs > 0)
        .collect();
    let report = Report {
        a: dir.display().to_string(),
        b: db.path().display().to_string(),
        tiers,
        total,
        by_tier: differing,
        examples,
    };
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        let t = &report.total;
        writeln!(out, "A: {}\nB: {}", report.a, report.b)?;
        writeln!(
            out,
            "compared {} positions in {} tiers: {} differ in value, {} in remoteness only",
            t.compared, report.tiers, t.value_differs, t.remoteness_differs
        )?;
        if t.missing > 0 {
            // Slots outside our index are compared one ply from their
            // children; any left here could not be evaluated.
            writeln!(
                out,
                "{} slots solved by GamesmanClassic could not be compared (outside our index, children not all in the database)",
                t.missing
            )?;
        }
        if !report.by_tier.is_empty() {
            let budget = db.rules().budget();
            writeln!(
                out,
                "{:>12} {:>10} {:>10} {:>10}  composition",
                "tier", "compared", "value", "remoteness"
            )?;
            for (tier, d) in &report.by_tier {
                let name =
                    Tier::from_number(*tier, budget).map_or_else(|_| "?".to_string(), |t| t.describe(budget));
                writeln!(
                    out,
                    "{tier:>12} {:>10} {:>10} {:>10}  {name}",
                    d.compared, d.value_differs, d.remoteness_differs
                )?;
            }
        }
        for e in &report.examples {
            writeln!(out, "  {e}")?;
        }
    }
    let t = &report.total;
    if t.value_differs + t.remoteness_differs > 0 {
        return Err(Differ("the two sides differ".into()).into());
    }
    Ok(())
}
