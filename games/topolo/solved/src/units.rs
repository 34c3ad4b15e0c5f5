//! Topolo's solve split into units for a distributed solve: step 1's
//! small games, a run of one template's full first classes a unit. A
//! small game reads nothing but its template, so units never wait for
//! each other; the process that writes the database then takes every
//! unit's values and counts and does steps 2 and 3 alone
//! ([`crate::solve::finish`]).
//!
//! A unit is kept as bytes: for each of its template's tiers (in the
//! plan's order) the four counts of [`Counting`], then the values of its
//! full first classes in each tier (one run a tier, tier after tier), two
//! bits each, four to a byte. A unit of all of a template's classes has
//! the bytes, and the name, a single process keeps for the template.

use std::ops::Range;

use rayon::prelude::*;

use crate::closed::{add_counts, Subgames};
use crate::plan::Plan;
use crate::solve::Counting;
use crate::subgame::Template;
use crate::values::Values;

/// One unit: full first classes `codes` (by rank) of template number
/// `template` of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The template's number among [`Plan::templates`].
    pub template: usize,
    /// Its full first classes, by rank among the template's.
    pub codes: Range<u64>,
}

/// The template made last, kept for the next unit of it.
pub type Made = Option<(usize, Template)>;

/// States of one full first class of template `k`: its tiers' indices
/// shared among its full classes.
fn states(plan: &Plan, k: usize) -> Vec<u64> {
    let (first, full, n) = plan.templates()[k];
    let (tiers, k0, _) = plan.template_tiers(first, full);
    (k0..k0 + tiers.len())
        .map(|i| plan.sizes()[i] / n.max(1))
        .collect()
}

/// The units of `plan`: each template's full first classes in runs of
/// about `part_size` states (at least one class).
pub fn units(plan: &Plan, part_size: u64) -> Vec<Unit> {
    let mut list = Vec::new();
    for (k, &(_, _, n)) in plan.templates().iter().enumerate() {
        let per = (part_size / states(plan, k).iter().sum::<u64>().max(1)).max(1);
        let mut r = 0;
        while r < n {
            let end = (r + per).min(n);
            list.push(Unit {
                template: k,
                codes: r..end,
            });
            r = end;
        }
    }
    list
}

/// Values the unit `u` solves.
pub fn values_of(plan: &Plan, u: &Unit) -> u64 {
    states(plan, u.template).iter().sum::<u64>() * (u.codes.end - u.codes.start)
}

/// The name `u` is kept under: its template's, and the run of classes
/// when it is not all of them.
pub fn name(plan: &Plan, u: &Unit) -> String {
    let (first, full, n) = plan.templates()[u.template];
    let base = Plan::template_name(first, &full);
    if u.codes == (0..n) {
        base
    } else {
        format!("{base}@{}-{}", u.codes.start, u.codes.end)
    }
}

/// Bytes `u` is kept as.
pub fn kept_len(plan: &Plan, u: &Unit) -> u64 {
    32 * states(plan, u.template).len() as u64 + values_of(plan, u).div_ceil(4)
}

/// Solves the full first classes of `u` on every core and gives the
/// bytes it is kept as. `made` keeps the template between units of it.
pub fn solve(plan: &Plan, u: &Unit, made: &mut Made) -> Vec<u8> {
    let layout = plan.layout();
    let (first, full, _) = plan.templates()[u.template];
    if made.as_ref().is_none_or(|(k, _)| *k != u.template) {
        *made = None;
        *made = Some((u.template, Template::new(layout, first, full)));
    }
    let Some((_, t)) = made.as_ref() else {
        return Vec::new();
    };
    let sub = Subgames::new(layout, t);
    let codes = layout.full_codes(first, full);
    let (_, k0, _) = plan.template_tiers(first, full);
    let lens = states(plan, u.template);
    let n = u.codes.end - u.codes.start;
    // Each tier's run among the unit's values, and each template tier's
    // place in the plan's order.
    let mut starts = Vec::with_capacity(lens.len());
    let mut at = 0;
    for &len in &lens {
        starts.push(at);
        at += len * n;
    }
    let slot: Vec<usize> = t
        .tiers
        .iter()
        .map(|tt| plan.place(tt.tier).map_or(0, |(k, _)| k - k0))
        .collect();
    let values = Values::new(at);
    let counts = u
        .codes
        .clone()
        .into_par_iter()
        .fold(
            || (vec![0u8; t.len()], vec![[0u64; 4]; t.tiers.len()]),
            |(mut buf, mut counts), rank| {
                let code = codes[rank as usize];
                sub.settle(&sub.first_class(code), &mut buf, None);
                for (k, tt) in t.tiers.iter().enumerate() {
                    let i = slot[k];
                    values.put_run(
                        starts[i] + (rank - u.codes.start) * lens[i],
                        &buf[tt.start..tt.start + tt.len],
                    );
                }
                sub.count(code, &buf, &mut counts);
                (buf, counts)
            },
        )
        .map(|(_, c)| c)
        .reduce(|| vec![[0u64; 4]; t.tiers.len()], add_counts);
    let mut by_plan = vec![[0u64; 4]; lens.len()];
    for (k, c) in counts.iter().enumerate() {
        by_plan[slot[k]] = *c;
    }
    let mut out = Vec::with_capacity(kept_len(plan, u) as usize);
    for c in &by_plan {
        for x in c {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    let mut i = 0;
    while i < at {
        let run = values.run(i, (at - i).min(1 << 20));
        for chunk in run.chunks(4) {
            out.push(chunk.iter().enumerate().fold(0u8, |b, (j, &v)| b | v << (2 * j)));
        }
        i += run.len() as u64;
    }
    out
}

/// Puts the values and counts of unit `u`, kept as `bytes`, in their
/// places among the board's `values` and `counting`.
///
/// # Errors
/// The bytes are not as long as the unit is kept.
pub fn restore(
    plan: &Plan,
    u: &Unit,
    bytes: &[u8],
    values: &Values,
    counting: &Counting,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        bytes.len() as u64 == kept_len(plan, u),
        "unit {} holds {} bytes, not {}",
        name(plan, u),
        bytes.len(),
        kept_len(plan, u)
    );
    let (first, full, _) = plan.templates()[u.template];
    let (_, k0, _) = plan.template_tiers(first, full);
    let lens = states(plan, u.template);
    let (head, body) = bytes.split_at(32 * lens.len());
    let mut all = body.iter().flat_map(|&b| (0..4).map(move |j| b >> (2 * j) & 3));
    let n = u.codes.end - u.codes.start;
    for (i, &len) in lens.iter().enumerate() {
        let c: [u64; 4] = std::array::from_fn(|j| {
            let at = 32 * i + 8 * j;
            u64::from_le_bytes(head[at..at + 8].try_into().unwrap_or([0; 8]))
        });
        counting.add(k0 + i, &c);
        let at = plan.sizes()[..k0 + i].iter().sum::<u64>() + u.codes.start * len;
        let run: Vec<u8> = all.by_ref().take((len * n) as usize).collect();
        values.put_run(at, &run);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use topitop_topolo::layout::Layout;
    use topitop_topolo::{Shape, Topolo, Variant};

    use super::*;
    use crate::plan::KeepNothing;

    /// Units of any size, solved apart and put together, give the
    /// single solve's database, values and counts alike.
    #[test]
    fn units_put_together_are_the_single_solve() {
        for (r, c) in [(3, 3), (2, 4), (4, 3)] {
            let board = format!("{r}x{c}");
            let game = Topolo::new(Shape::new(r, c).unwrap(), Variant::Full);
            let plan = Plan::new(Layout::of(game).unwrap());
            let whole = crate::solve::solve(&plan, &mut KeepNothing, &|_, _| {}).unwrap();
            for part in [1, 50, 1 << 30] {
                let list = units(&plan, part);
                assert!(
                    part > 1000 || list.len() > plan.templates().len(),
                    "{board}: parts of {part} cut"
                );
                let values = Values::new(plan.indices());
                let counting = Counting::new(plan.tiers().len());
                let mut made = None;
                for u in &list {
                    let bytes = solve(&plan, u, &mut made);
                    assert_eq!(bytes.len() as u64, kept_len(&plan, u));
                    restore(&plan, u, &bytes, &values, &counting).unwrap();
                }
                let split = crate::solve::finish(&plan, &values, &counting, 0);
                assert!(
                    split.data == whole.data,
                    "{board}, parts of {part}: values differ"
                );
                assert_eq!(split.header.tiers, whole.header.tiers, "{board}, parts of {part}");
                assert_eq!(split.start, whole.start);
            }
        }
    }
}
