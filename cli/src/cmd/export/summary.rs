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

/// The summary rows of the whole database: (tier, value, remoteness,
/// count), the totals first (tier `all`), then each tier in file order,
/// each by value name and remoteness.
///
/// # Errors
/// As [`Walk::run`].
pub fn summarize<G: Game>(walk: &Walk<'_, G>) -> anyhow::Result<Vec<(String, &'static str, i64, u64)>> {
    // Keyed by the tier's place in the file plus one, 0 for the totals.
    let mut counts: BTreeMap<(usize, &'static str, i64), u64> = BTreeMap::new();
    walk.run(
        |rows| Ok(count(rows)),
        |chunk| {
            for (t, by_value) in chunk {
                for ((v, r), n) in by_value {
                    *counts.entry((0, v, r)).or_default() += n;
                    *counts.entry((t + 1, v, r)).or_default() += n;
                }
            }
            Ok(())
        },
    )?;
    Ok(counts
        .into_iter()
        .map(|((t, v, r), n)| {
            let tier = t.checked_sub(1).map_or("all", |t| walk.tier_name(t));
            (tier.to_string(), v, r, n)
        })
        .collect())
}
