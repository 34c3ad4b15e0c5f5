//! Two databases of one budget compared position by position: every
//! position of play tallied by its value on each side, and every difference
//! classified by its cause. The result is what `--json` prints (schema in
//! tools/crosscheck.schema.json).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use games_topitop_rules::{Move, Position, Rules, Tier, Value};
use games_topitop_solved::Database;
use games_topitop_table::Record;
use rayon::prelude::*;
use serde::Serialize;

use super::lines::{example_lines, ExampleLines};
use topitop_cli::progress::CountBar;

/// Value names, indexed as [`value_index`] numbers them.
pub const VALUE_NAMES: [&str; 5] = ["win", "lose", "tie", "draw", "unsolved"];

/// Values with a remoteness (win, lose, tie) are the first three indices.
const WITH_REMOTENESS: usize = 3;

/// The names of the values with a remoteness.
pub const WITH_REMOTENESS_NAMES: [&str; WITH_REMOTENESS] = ["win", "lose", "tie"];

fn value_index(r: Record) -> usize {
    r.value().map_or(4, Value::index)
}

/// Why a position's value or remoteness differs between the two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Cause {
    /// The position itself has different moves or a different primitive
    /// value under the two rulesets.
    Rules,
    /// Same moves and primitive value; only children's values differ.
    Propagated,
}

impl Cause {
    /// `rules` or `propagated`.
    pub fn name(self) -> &'static str {
        match self {
            Cause::Rules => "rules",
            Cause::Propagated => "propagated",
        }
    }
}

/// A move as the explanation says it: GamesmanClassic's string, the pass
/// (`None` there) said to be one, so that "moves None" does not read as
/// no moves.
fn said(m: Move) -> String {
    if m == Move::PASS {
        format!("{m} (the pass)")
    } else {
        m.to_string()
    }
}

/// What the two rulesets make differently of `pos` itself, if anything:
/// its primitive value, or its moves.
pub fn rules_difference(a: Rules, b: Rules, pos: Position) -> Option<String> {
    let (pa, pb) = (a.primitive(pos), b.primitive(pos));
    let ma: Vec<Move> = a.legal_moves(pos).iter().copied().collect();
    let mb: Vec<Move> = b.legal_moves(pos).iter().copied().collect();
    let moves = |m: &[Move]| -> String {
        if m.is_empty() {
            "no move".to_string()
        } else if m.len() <= 6 {
            let names: Vec<String> = m.iter().copied().map(said).collect();
            format!("moves {}", names.join(" "))
        } else {
            format!("{} moves", m.len())
        }
    };
    let side = |p: Option<Value>, m: &[Move]| match p {
        Some(v) => format!("primitive {}", v.name()),
        None => format!("not primitive, {}", moves(m)),
    };
    if pa != pb {
        return Some(format!("A: {}; B: {}", side(pa, &ma), side(pb, &mb)));
    }
    let only = |x: &[Move], y: &[Move]| -> Vec<String> {
        x.iter().filter(|m| !y.contains(m)).copied().map(said).collect()
    };
    let (oa, ob) = (only(&ma, &mb), only(&mb, &ma));
    if oa.is_empty() && ob.is_empty() {
        return None;
    }
    let list = |v: Vec<String>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(" ")
        }
    };
    Some(format!(
        "moves only under A: {}; only under B: {}",
        list(oa),
        list(ob)
    ))
}

/// One side's value and remoteness of a position.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// `win`, `lose`, `tie`, `draw` or `unsolved`.
    pub value: &'static str,
    /// Plies to the end under best play; `null` for a draw or unsolved.
    pub remoteness: Option<u16>,
}

impl Outcome {
    /// The outcome a record stores.
    pub fn of(r: Record) -> Outcome {
        Outcome {
            value: VALUE_NAMES[value_index(r)],
            remoteness: (value_index(r) < WITH_REMOTENESS).then(|| r.remoteness()),
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.remoteness {
            Some(r) => write!(f, "{} in {r}", self.value),
            None => f.write_str(self.value),
        }
    }
}

/// A database compared.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    /// Its file.
    pub file: String,
    /// Its rules (`v0`, `v1/0` ...).
    pub rules: String,
}

/// The start position on both sides.
#[derive(Clone, Debug, Serialize)]
pub struct Start {
    /// The position string.
    pub position: String,
    /// Under A.
    pub a: Outcome,
    /// Under B.
    pub b: Outcome,
}

/// How many positions differ.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Differ {
    /// In value.
    pub value: u64,
    /// In remoteness only (same value).
    pub remoteness_only: u64,
}

/// One tier's figures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TierRow {
    /// GamesmanClassic's tier number.
    pub tier: u64,
    /// The composition in words.
    pub name: String,
    /// Positions of play compared in the tier.
    pub positions: u64,
    /// Differing in value.
    pub value: u64,
    /// Differing in remoteness only.
    pub remoteness_only: u64,
    /// Differences of cause `rules`.
    pub rules: u64,
    /// Differences of cause `propagated`.
    pub propagated: u64,
}

impl TierRow {
    /// All differences in the tier.
    pub fn differences(&self) -> u64 {
        self.value + self.remoteness_only
    }

    fn add(&mut self, o: &TierRow) {
        self.positions += o.positions;
        self.value += o.value;
        self.remoteness_only += o.remoteness_only;
        self.rules += o.rules;
        self.propagated += o.propagated;
    }
}

/// Differing positions of one cause and one transition.
#[derive(Clone, Debug, Serialize)]
pub struct Transition {
    /// The cause.
    pub cause: Cause,
    /// Value under A.
    pub a: &'static str,
    /// Value under B (the same as `a` for a remoteness-only difference).
    pub b: &'static str,
    /// How many positions.
    pub positions: u64,
}

/// A differing position explained.
#[derive(Clone, Debug, Serialize)]
pub struct Example {
    /// Its cause.
    pub cause: Cause,
    /// Its value under A.
    pub a: Outcome,
    /// Its value under B.
    pub b: Outcome,
    /// The position string.
    pub position: String,
    /// Its tier's number.
    pub tier: u64,
    /// Its tier in words.
    pub tier_name: String,
    /// For cause `rules`: what the rulesets make differently of it.
    pub reason: Option<String>,
    /// The best lines of play and where they part.
    #[serde(flatten)]
    pub lines: ExampleLines,
}

/// Everything `crosscheck A B` reports.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// `topitop-crosscheck/1`.
    pub schema: &'static str,
    /// The start position under both.
    pub start: Start,
    /// Database A.
    pub a: Side,
    /// Database B.
    pub b: Side,
    /// The piece budget of both.
    pub budget: String,
    /// Positions of play compared (one per symmetry class).
    pub compared: u64,
    /// How many differ.
    pub differ: Differ,
    /// Differing positions by cause.
    pub causes: BTreeMap<&'static str, u64>,
    /// Positions by value under A, then value under B.
    pub transitions: BTreeMap<&'static str, BTreeMap<&'static str, u64>>,
    /// Differing positions by cause and transition, most first.
    pub transitions_by_cause: Vec<Transition>,
    /// For positions of the same value (win, lose, tie): how many have each
    /// remoteness difference B − A.
    pub remoteness_shift: BTreeMap<&'static str, BTreeMap<i32, u64>>,
    /// Positions by value and remoteness on each side: `a`/`b` → value →
    /// counts indexed by remoteness.
    pub remoteness_histogram: BTreeMap<&'static str, BTreeMap<&'static str, Vec<u64>>>,
    /// Tiers compared.
    pub tiers_compared: usize,
    /// Tiers with differences, most differences first.
    pub tiers: Vec<TierRow>,
    /// Examples: for each cause, its most common transitions.
    pub examples: Vec<Example>,
}

/// The running tally of one part of the positions.
#[derive(Default)]
struct Tally {
    matrix: [[u64; 5]; 5],
    shift: [BTreeMap<i32, u64>; WITH_REMOTENESS],
    hist: [[Vec<u64>; WITH_REMOTENESS]; 2],
    tiers: BTreeMap<u64, TierRow>,
    by_cause: BTreeMap<(Cause, usize, usize), u64>,
    /// Per (cause, transition) the example candidate with the shortest
    /// lines: (longer remoteness, position string).
    candidates: BTreeMap<(Cause, usize, usize), (u32, String)>,
}

fn add_vec(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        for (i, row) in o.matrix.iter().enumerate() {
            for (j, n) in row.iter().enumerate() {
                self.matrix[i][j] += n;
            }
        }
        for (mine, theirs) in self.shift.iter_mut().zip(o.shift) {
            for (k, n) in theirs {
                *mine.entry(k).or_default() += n;
            }
        }
        for (mine, theirs) in self.hist.iter_mut().zip(&o.hist) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                add_vec(m, t);
            }
        }
        for (t, row) in o.tiers {
            self.tiers.entry(t).or_default().add(&row);
        }
        for (k, n) in o.by_cause {
            *self.by_cause.entry(k).or_default() += n;
        }
        for (k, c) in o.candidates {
            let e = self.candidates.entry(k).or_insert_with(|| c.clone());
            if c < *e {
                *e = c;
            }
        }
        self
    }

    fn note(&mut self, rules: (Rules, Rules), pos: Position, ra: Record, rb: Record, row: &mut TierRow) {
        let (va, vb) = (value_index(ra), value_index(rb));
        self.matrix[va][vb] += 1;
        row.positions += 1;
        for (side, (v, r)) in [(va, ra), (vb, rb)].into_iter().enumerate() {
            if v < WITH_REMOTENESS {
                let h = &mut self.hist[side][v];
                let at = usize::from(r.remoteness());
                if h.len() <= at {
                    h.resize(at + 1, 0);
                }
                h[at] += 1;
            }
        }
        let same_value = va == vb;
        if same_value && va < WITH_REMOTENESS {
            let d = i32::from(rb.remoteness()) - i32::from(ra.remoteness());
            *self.shift[va].entry(d).or_default() += 1;
            if d == 0 {
                return;
            }
        } else if same_value {
            return;
        }
        if same_value {
            row.remoteness_only += 1;
        } else {
            row.value += 1;
        }
        let cause = if rules_difference(rules.0, rules.1, pos).is_some() {
            row.rules += 1;
            Cause::Rules
        } else {
            row.propagated += 1;
            Cause::Propagated
        };
        *self.by_cause.entry((cause, va, vb)).or_default() += 1;
        let length = |v: usize, r: Record| {
            if v < WITH_REMOTENESS {
                u32::from(r.remoteness())
            } else {
                // Draws have no end to reach: their lines run to the cap.
                u32::MAX
            }
        };
        let score = length(va, ra).max(length(vb, rb));
        let better = self
            .candidates
            .get(&(cause, va, vb))
            .is_none_or(|(s, p)| (score, pos.to_string()) < (*s, p.clone()));
        if better {
            self.candidates.insert((cause, va, vb), (score, pos.to_string()));
        }
    }
}

/// Compares `a` with `b` (one budget) over every position of play and
/// explains the differences, with examples for the `examples` most common
/// transitions of each cause.
///
/// # Errors
/// Different budgets, or a damaged database.
pub fn compare(a: &Database, b: &Database, examples: usize) -> anyhow::Result<Comparison> {
    let budget = a.rules().budget();
    anyhow::ensure!(
        budget == b.rules().budget(),
        "{} and {} have different piece budgets ({} and {})",
        a.path().display(),
        b.path().display(),
        budget,
        b.rules().budget()
    );
    let rules = (a.rules(), b.rules());
    // Databases written with one block layout are read block against block;
    // otherwise B is looked up position by position.
    let (ha, hb) = (a.header(), b.header());
    let lockstep = ha.block_boards == hb.block_boards && ha.symmetric == hb.symmetric;
    let bar = CountBar::new("comparing", "blocks");
    let done = AtomicU64::new(0);
    let total = a.blocks() as u64;
    let tally = (0..a.blocks())
        .into_par_iter()
        .try_fold(Tally::default, |mut t, k| -> anyhow::Result<Tally> {
            let pa = a.block_positions(k)?;
            let pb = if lockstep {
                b.block_positions(k)?
            } else {
                Vec::new()
            };
            anyhow::ensure!(
                !lockstep || pb.len() == pa.len(),
                "block {k} holds {} positions in {} and {} in {}",
                pa.len(),
                a.path().display(),
                pb.len(),
                b.path().display()
            );
            // Boards come in tier order: a tier's row is kept until the tier changes.
            let mut row = TierRow::default();
            let mut current = None;
            for (i, &(pos, ra)) in pa.iter().enumerate() {
                if !pos.is_valid(budget) {
                    continue;
                }
                let rb = if lockstep {
                    anyhow::ensure!(
                        pb[i].0 == pos,
                        "block {k}: the two databases number positions differently"
                    );
                    pb[i].1
                } else {
                    b.get(pos)?
                };
                let tier = Tier::of(pos.board()).number();
                if current != Some(tier) {
                    if let Some(c) = current {
                        t.tiers.entry(c).or_default().add(&row);
                    }
                    row = TierRow::default();
                    current = Some(tier);
                }
                t.note(rules, pos, ra, rb, &mut row);
            }
            if let Some(c) = current {
                t.tiers.entry(c).or_default().add(&row);
            }
            bar.set(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Ok(t)
        })
        .try_reduce(Tally::default, |x, y| Ok(x.merge(y)))?;
    bar.finish();
    assemble(a, b, tally, examples)
}

fn assemble(a: &Database, b: &Database, t: Tally, examples: usize) -> anyhow::Result<Comparison> {
    let budget = a.rules().budget();
    let start = a.rules().start();
    let side = |db: &Database| Side {
        file: db.path().display().to_string(),
        rules: db.rules().ruleset().to_string(),
    };
    let mut differ = Differ::default();
    let mut causes: BTreeMap<&'static str, u64> = [("rules", 0), ("propagated", 0)].into();
    let mut transitions_by_cause: Vec<Transition> = t
        .by_cause
        .iter()
        .map(|(&(cause, va, vb), &n)| {
            if va == vb {
                differ.remoteness_only += n;
            } else {
                differ.value += n;
            }
            *causes.entry(cause.name()).or_default() += n;
            Transition {
                cause,
                a: VALUE_NAMES[va],
                b: VALUE_NAMES[vb],
                positions: n,
            }
        })
        .collect();
    transitions_by_cause.sort_by(|x, y| y.positions.cmp(&x.positions).then(x.cause.cmp(&y.cause)));
    let mut tiers: Vec<TierRow> = t
        .tiers
        .iter()
        .filter(|(_, r)| r.differences() > 0)
        .map(|(&n, r)| TierRow {
            tier: n,
            name: Tier::from_number(n, budget).map_or_else(|e| e.to_string(), |t| t.describe(budget)),
            ..r.clone()
        })
        .collect();
    tiers.sort_by(|x, y| y.differences().cmp(&x.differences()).then(x.tier.cmp(&y.tier)));
    let named = |m: &[u64; 5]| -> BTreeMap<&'static str, u64> {
        VALUE_NAMES.iter().zip(m).map(|(&v, &n)| (v, n)).collect()
    };
    let transitions = VALUE_NAMES
        .iter()
        .zip(&t.matrix)
        .map(|(&v, row)| (v, named(row)))
        .collect();
    let remoteness_shift = VALUE_NAMES
        .iter()
        .zip(&t.shift)
        .map(|(&v, m)| (v, m.clone()))
        .collect();
    let remoteness_histogram = ["a", "b"]
        .iter()
        .zip(&t.hist)
        .map(|(&s, h)| {
            (
                s,
                VALUE_NAMES.iter().zip(h).map(|(&v, c)| (v, c.clone())).collect(),
            )
        })
        .collect();
    let chosen = pick_examples(&t, &transitions_by_cause, examples);
    let examples = chosen
        .into_iter()
        .map(|(cause, p)| example(a, b, cause, &p))
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Comparison {
        schema: "topitop-crosscheck/1",
        start: Start {
            position: start.to_string(),
            a: Outcome::of(a.get(start)?),
            b: Outcome::of(b.get(start)?),
        },
        a: side(a),
        b: side(b),
        budget: budget.to_string(),
        compared: t.matrix.iter().flatten().sum(),
        differ,
        causes,
        transitions,
        transitions_by_cause,
        remoteness_shift,
        remoteness_histogram,
        tiers_compared: t.tiers.len(),
        tiers,
        examples,
    })
}

/// The positions to explain: for each cause, one of each of its
/// commonest `per_cause` transitions.
fn pick_examples(t: &Tally, by_cause: &[Transition], per_cause: usize) -> Vec<(Cause, String)> {
    let mut chosen = Vec::new();
    for cause in [Cause::Rules, Cause::Propagated] {
        chosen.extend(
            by_cause
                .iter()
                .filter(|tr| tr.cause == cause)
                .take(per_cause)
                .filter_map(|tr| {
                    let va = VALUE_NAMES.iter().position(|&v| v == tr.a)?;
                    let vb = VALUE_NAMES.iter().position(|&v| v == tr.b)?;
                    t.candidates
                        .get(&(cause, va, vb))
                        .map(|(_, p)| (cause, p.clone()))
                }),
        );
    }
    chosen
}

fn example(a: &Database, b: &Database, cause: Cause, position: &str) -> anyhow::Result<Example> {
    let budget = a.rules().budget();
    let pos = games_topitop_rules::parse_position(position, budget)?;
    let tier = Tier::of(pos.board());
    Ok(Example {
        cause,
        a: Outcome::of(a.get(pos)?),
        b: Outcome::of(b.get(pos)?),
        position: position.to_string(),
        tier: tier.number(),
        tier_name: tier.describe(budget),
        reason: rules_difference(a.rules(), b.rules(), pos),
        lines: example_lines(a, b, pos)?,
    })
}

#[cfg(test)]
mod tests {
    use super::said;
    use games_topitop_rules::Move;

    #[test]
    fn the_pass_is_said_to_be_one() {
        // "moves None" read as "no moves" in crosscheck's explanations.
        assert_eq!(said(Move::PASS), "None (the pass)");
        assert_eq!(said("B5".parse::<Move>().unwrap()), "B5");
    }
}
