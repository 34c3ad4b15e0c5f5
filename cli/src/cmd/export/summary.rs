//! `export --summary`: counts by tier, value and remoteness, made in the
//! same single pass as the positions table. What it holds is a count per
//! (tier, value, remoteness) that occurs, not the rows.

use std::collections::BTreeMap;

use topitop_game_api::{Game, Record, Value};

use super::walk::{Row, Walk};
use crate::cmd::value_name;

/// Counts by (value name, remoteness: -1 for a draw).
type Counts = BTreeMap<(&'static str, i64), u64>;

/// The counts of `rows`.
fn count<P>(rows: &[Row<P>]) -> BTreeMap<usize, Counts> {
    let mut counts: BTreeMap<usize, Counts> = BTreeMap::new();
    for r in rows {
        *counts
            .entry(r.tier)
            .or_default()
            .entry((value_name(r.record), remoteness(r.record)))
            .or_default() += 1;
    }
    counts
}

fn remoteness(r: Record) -> i64 {
    if r.value() == Some(Value::Draw) {
        -1
    } else {
        i64::from(r.remoteness())
    }
}

/// The summary rows of the whole database, sorted by tier name (`all`, the
/// totals, among them), value name and remoteness: (tier, value,
/// remoteness, count).
///
/// # Errors
/// As [`Walk::run`].
pub fn summarize<G: Game>(walk: &Walk<'_, G>) -> anyhow::Result<Vec<(String, &'static str, i64, u64)>> {
    let mut counts: BTreeMap<(String, &'static str, i64), u64> = BTreeMap::new();
    walk.run(
        |rows| Ok(count(rows)),
        |chunk| {
            for (t, by_value) in chunk {
                for ((v, r), n) in by_value {
                    *counts.entry(("all".into(), v, r)).or_default() += n;
                    *counts.entry((walk.tier_name(t).to_string(), v, r)).or_default() += n;
                }
            }
            Ok(())
        },
    )?;
    Ok(counts.into_iter().map(|((t, v, r), n)| (t, v, r, n)).collect())
}
