//! `topitop stats`: what GamesmanOne's tier analyzer reports, from a
//! database.

use std::io::Write;

use serde::Serialize;
use topitop_game::{Budget, Position, Tier, Value};

use crate::common::DbArgs;
use crate::scan::fold_blocks;

/// Arguments of `stats`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub db: DbArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// The longest game of one value, with an example.
#[derive(Clone, Debug, Default, Serialize)]
struct Longest {
    remoteness: u16,
    example: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
struct Totals {
    positions: u64,
    win: u64,
    lose: u64,
    tie: u64,
    draw: u64,
    unsolved: u64,
    /// Stored states that fail [`Position::is_valid`], left out of every
    /// other figure.
    unplayable_stored: u64,
    primitive: u64,
    moves: u64,
    longest_win: Longest,
    longest_lose: Longest,
    longest_tie: Longest,
}

impl Totals {
    fn note(slot: &mut Longest, r: u16, pos: Position) {
        if slot.example.is_none() || r > slot.remoteness {
            *slot = Longest {
                remoteness: r,
                example: Some(pos.to_string()),
            };
        }
    }

    fn merge(mut self, o: Totals) -> Totals {
        self.positions += o.positions;
        self.win += o.win;
        self.lose += o.lose;
        self.tie += o.tie;
        self.draw += o.draw;
        self.unsolved += o.unsolved;
        self.unplayable_stored += o.unplayable_stored;
        self.primitive += o.primitive;
        self.moves += o.moves;
        for (a, b) in [
            (&mut self.longest_win, o.longest_win),
            (&mut self.longest_lose, o.longest_lose),
            (&mut self.longest_tie, o.longest_tie),
        ] {
            if a.example.is_none() || (b.example.is_some() && b.remoteness > a.remoteness) {
                *a = b;
            }
        }
        self
    }
}

#[derive(Serialize)]
struct Report {
    file: String,
    rules: String,
    budget: String,
    file_bytes: u64,
    records_stored: u64,
    /// Symmetry classes (canonical positions) of positions of play.
    #[serde(flatten)]
    totals: Totals,
    /// Moves per non-primitive position.
    branching_factor: f64,
    /// States in our dense index.
    index_states: u64,
    /// Slots in GamesmanClassic's hash for the same budget.
    gamesman_classic_slots: u64,
    /// index_states / gamesman_classic_slots.
    gamesman_classic_hash_efficiency: f64,
    /// Symmetry classes / index states.
    stored_fraction: f64,
}

/// Runs `stats`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let db = args.db.open()?;
    let rules = db.rules();
    let totals = fold_blocks(
        &db,
        "analysing",
        |positions| {
            let mut t = Totals::default();
            for (pos, rec) in positions {
                if !pos.is_valid(rules.budget()) {
                    t.unplayable_stored += 1;
                    continue;
                }
                t.positions += 1;
                match rec.value() {
                    Some(Value::Win) => {
                        t.win += 1;
                        Totals::note(&mut t.longest_win, rec.remoteness(), pos);
                    }
                    Some(Value::Lose) => {
                        t.lose += 1;
                        Totals::note(&mut t.longest_lose, rec.remoteness(), pos);
                    }
                    Some(Value::Tie) => {
                        t.tie += 1;
                        Totals::note(&mut t.longest_tie, rec.remoteness(), pos);
                    }
                    Some(Value::Draw) => t.draw += 1,
                    None => t.unsolved += 1,
                }
                if rules.primitive(pos).is_some() {
                    t.primitive += 1;
                } else {
                    t.moves += rules.gamesman_moves(pos).len() as u64;
                }
            }
            Ok(t)
        },
        Totals::merge,
    )?;
    let slots = gamesman_classic_slots(rules.budget());
    let index_states = db.index().len();
    let report = Report {
        file: db.path().display().to_string(),
        rules: rules.ruleset().to_string(),
        budget: rules.budget().to_string(),
        file_bytes: db.file_len(),
        records_stored: db.header().records,
        branching_factor: totals.moves as f64 / (totals.positions - totals.primitive).max(1) as f64,
        index_states,
        gamesman_classic_slots: slots,
        gamesman_classic_hash_efficiency: index_states as f64 / slots as f64,
        stored_fraction: totals.positions as f64 / index_states as f64,
        totals,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    let t = &report.totals;
    writeln!(
        out,
        "{}: rules {} budget {}",
        report.file, report.rules, report.budget
    )?;
    writeln!(
        out,
        "file size            {} bytes ({} records stored)",
        report.file_bytes, report.records_stored
    )?;
    writeln!(out, "positions (classes)  {}", t.positions)?;
    writeln!(out, "  win                {}", t.win)?;
    writeln!(out, "  lose               {}", t.lose)?;
    writeln!(out, "  tie                {}", t.tie)?;
    writeln!(out, "  draw               {}", t.draw)?;
    if t.unsolved > 0 {
        writeln!(out, "  unsolved           {}", t.unsolved)?;
    }
    writeln!(out, "  primitive          {}", t.primitive)?;
    writeln!(
        out,
        "also stored          {} states play cannot reach (GamesmanClassic's hash has them; query refuses them)",
        t.unplayable_stored
    )?;
    for (name, l) in [
        ("win", &t.longest_win),
        ("lose", &t.longest_lose),
        ("tie", &t.longest_tie),
    ] {
        if let Some(e) = &l.example {
            writeln!(out, "longest {name:<5}        {} (e.g. {e})", l.remoteness)?;
        }
    }
    writeln!(
        out,
        "branching factor     {:.2} moves per non-primitive position",
        report.branching_factor
    )?;
    writeln!(
        out,
        "hash efficiency      our index {} states; GamesmanClassic's hash {} slots ({:.1}%)",
        report.index_states,
        report.gamesman_classic_slots,
        100.0 * report.gamesman_classic_hash_efficiency
    )?;
    writeln!(
        out,
        "symmetry             {:.1}% of indexed states stored as classes",
        100.0 * report.stored_fraction
    )?;
    Ok(())
}

/// The slots of GamesmanClassic's hash for `budget`: it has a tier for every
/// composition play can reach, so not for the one where both players own
/// two castles, which our index numbers too.
fn gamesman_classic_slots(budget: Budget) -> u64 {
    Tier::reachable(budget).iter().map(|t| t.size()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamesman_classic_slots_are_those_of_its_2231_tiers() {
        assert_eq!(gamesman_classic_slots(Budget::STANDARD), 2_972_507_380);
    }
}
