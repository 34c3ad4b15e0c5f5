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

use games_topolo::layout::{Layout, Tier};
use games_topolo::Position;

use crate::closed::{add_counts, StateParts, Subgames};
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

/// The template made last, with the per-state part of its
/// [`Subgames`], kept for the next unit of it.
pub type Made = Option<(usize, Template, Option<StateParts>)>;

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
    if made.as_ref().is_none_or(|(k, _, _)| *k != u.template) {
        *made = None;
        *made = Some((u.template, Template::new(layout, first, full), None));
    }
    let Some((_, t, parts)) = made.as_mut() else {
        return Vec::new();
    };
    let parts = parts.take().unwrap_or_else(|| Subgames::parts(layout, t));
    let sub = Subgames::with_parts(layout, t, parts);
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
    let parts = sub.into_parts();
    if let Some((_, _, kept)) = made.as_mut() {
        *kept = Some(parts);
    }
    out
}

/// The template's tiers (their places after its first, in the plan's
/// order) whose second class is empty: the closed positions the open
/// ones of step 2 move to, one a full first class.
fn empty_second(plan: &Plan, u: &Unit) -> Vec<usize> {
    let (first, full, _) = plan.templates()[u.template];
    let (tiers, _, _) = plan.template_tiers(first, full);
    tiers
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(t, Tier::Closed { second, .. } if second.iter().all(|&c| c == 0)))
        .map(|(i, _)| i)
        .collect()
}

/// The name of the small part kept beside unit `u`: its counts and its
/// values that step 2 reads, which is all process 0 reads of it before
/// writing the database.
pub fn side_name(plan: &Plan, u: &Unit) -> String {
    format!("{}.open", name(plan, u))
}

/// Bytes the side part of `u` is kept as: the unit's counts, then its
/// values in the tiers of `empty_second`, two bits each.
pub fn side_len(plan: &Plan, u: &Unit) -> u64 {
    let lens = states(plan, u.template);
    let n = u.codes.end - u.codes.start;
    let values: u64 = empty_second(plan, u).iter().map(|&i| lens[i] * n).sum();
    32 * lens.len() as u64 + values.div_ceil(4)
}

/// The values `start..start + len` of a unit's kept bytes (`body` after
/// the counts), one a byte.
fn run_of(body: &[u8], start: u64, len: u64) -> impl Iterator<Item = u8> + '_ {
    (start..start + len).map(move |j| body.get((j / 4) as usize).map_or(0, |b| b >> (2 * (j % 4)) & 3))
}

/// The side part of unit `u` from the bytes it is kept as.
pub fn side(plan: &Plan, u: &Unit, bytes: &[u8]) -> Vec<u8> {
    let lens = states(plan, u.template);
    let n = u.codes.end - u.codes.start;
    let (head, body) = bytes.split_at((32 * lens.len()).min(bytes.len()));
    let mut out = head.to_vec();
    let starts: Vec<u64> = lens
        .iter()
        .scan(0, |at, &l| Some(std::mem::replace(at, *at + l * n)))
        .collect();
    let vals: Vec<u8> = empty_second(plan, u)
        .into_iter()
        .flat_map(|i| run_of(body, starts[i], lens[i] * n))
        .collect();
    for chunk in vals.chunks(4) {
        out.push(chunk.iter().enumerate().fold(0u8, |b, (j, &v)| b | v << (2 * j)));
    }
    out
}

/// What process 0 holds once the units are done, to write the database
/// without holding every value: the header with every tier's counts, and
/// the values of the open tiers, the start, and the closed tiers step 2
/// read.
pub struct Gathered {
    /// The database header, but for its names and block checksums.
    pub header: topitop_db::packed::PackedHeader,
    /// Those tiers' values, by index.
    small: std::collections::HashMap<Tier, Vec<u8>>,
    /// The start's value.
    pub start: u8,
}

/// Steps 2 and 3 from the side parts of every unit (`read_side` gives
/// them), and the counts of the database's header.
///
/// # Errors
/// A side part that cannot be read or is not whole.
pub fn gather(
    plan: &Plan,
    list: &[Unit],
    read_side: &mut dyn FnMut(&Unit) -> std::io::Result<Vec<u8>>,
) -> anyhow::Result<Gathered> {
    let layout = plan.layout();
    let counting = Counting::new(plan.tiers().len());
    let mut small: std::collections::HashMap<Tier, Vec<u8>> = std::collections::HashMap::new();
    for u in list {
        let bytes = read_side(u)?;
        anyhow::ensure!(
            bytes.len() as u64 == side_len(plan, u),
            "{} holds {} bytes, not {}",
            side_name(plan, u),
            bytes.len(),
            side_len(plan, u)
        );
        let (first, full, _) = plan.templates()[u.template];
        let (tiers, k0, _) = plan.template_tiers(first, full);
        let lens = states(plan, u.template);
        let (head, body) = bytes.split_at(32 * tiers.len());
        for k in 0..tiers.len() {
            let c: [u64; 4] = std::array::from_fn(|j| {
                let at = 32 * k + 8 * j;
                u64::from_le_bytes(head[at..at + 8].try_into().unwrap_or([0; 8]))
            });
            counting.add(k0 + k, &c);
        }
        let n = u.codes.end - u.codes.start;
        let mut at = 0;
        for i in empty_second(plan, u) {
            let len = lens[i] * n;
            let tier = tiers[i];
            let all = small
                .entry(tier)
                .or_insert_with(|| vec![0; plan.sizes()[k0 + i] as usize]);
            let from = (u.codes.start * lens[i]) as usize;
            for (slot, v) in all[from..from + len as usize]
                .iter_mut()
                .zip(run_of(body, at, len))
            {
                *slot = v;
            }
            at += len;
        }
    }
    for first in layout.firsts() {
        for k in (1..layout.cells(first).len()).rev() {
            let levels = crate::open::level(plan, first, k, &|t, i| held(&small, t, i));
            for level in levels {
                let (tk, _) = plan.place(level.tier).unwrap_or((0, 0));
                counting.add(tk, &level.counts);
                small.insert(level.tier, level.values);
            }
        }
    }
    let v = crate::open::start(plan, &|t, i| held(&small, t, i));
    let (k, _) = plan.place(Tier::Start).unwrap_or((0, 0));
    let mut c = [0u64; 4];
    c[usize::from(v)] = 1;
    c[3] = 1;
    counting.add(k, &c);
    small.insert(Tier::Start, vec![v]);
    let empty = Position::EMPTY;
    let start = small
        .get(&Tier::Start)
        .and_then(|s| s.get(layout.index(&empty) as usize))
        .copied()
        .unwrap_or(v);
    Ok(Gathered {
        header: crate::solve::header(plan, &counting),
        small,
        start,
    })
}

/// Values process 0 of a distributed solve holds: those of the open
/// tiers and of the closed tiers step 2 reads (a byte each, the whole
/// run), and at most those of the largest template's units at once (two
/// bits each, while it writes the database).
pub fn gathered_values(plan: &Plan) -> (u64, u64) {
    let small = plan
        .tiers()
        .iter()
        .zip(plan.sizes())
        .filter(|(t, _)| !matches!(t, Tier::Closed { second, .. } if second.iter().any(|&c| c > 0)))
        .map(|(_, &size)| size)
        .sum();
    let largest = plan
        .templates()
        .iter()
        .map(|&(first, full, _)| {
            let (tiers, k0, _) = plan.template_tiers(first, full);
            plan.sizes()[k0..k0 + tiers.len()].iter().sum::<u64>()
        })
        .max()
        .unwrap_or(0);
    (small, largest)
}

/// Value `i` of `tier` among the values process 0 holds (a win, 0, for
/// one it does not: step 2 reads none such).
fn held(small: &std::collections::HashMap<Tier, Vec<u8>>, tier: Tier, i: u64) -> u8 {
    small
        .get(&tier)
        .and_then(|v| v.get(i as usize))
        .copied()
        .unwrap_or(0)
}

/// Ternary digits packed five to a byte as a tier's values are, given a
/// piece at a time and handed on in large pieces.
struct Packer<'s> {
    byte: u8,
    k: u32,
    place: u8,
    out: Vec<u8>,
    sink: &'s mut dyn FnMut(&[u8]) -> std::io::Result<()>,
}

impl Packer<'_> {
    fn push(&mut self, t: u8) -> std::io::Result<()> {
        self.byte += t * self.place;
        self.k += 1;
        if self.k == 5 {
            self.out.push(self.byte);
            (self.byte, self.k, self.place) = (0, 0, 1);
            if self.out.len() >= 1 << 20 {
                (self.sink)(&self.out)?;
                self.out.clear();
            }
        } else {
            self.place *= 3;
        }
        Ok(())
    }

    /// Ends a tier: the next starts a new byte.
    fn end_tier(&mut self) {
        if self.k > 0 {
            self.out.push(self.byte);
            (self.byte, self.k, self.place) = (0, 0, 1);
        }
    }

    fn finish(mut self) -> std::io::Result<()> {
        self.end_tier();
        (self.sink)(&self.out)
    }
}

/// Gives the database's values, every tier in the plan's order, to
/// `sink`: the tiers [`Gathered`] holds from there, and each template's
/// closed tiers from its units, read with `read_unit` a template at a
/// time (the memory of the largest template's values, two bits each).
///
/// # Errors
/// A unit that cannot be read or is not whole, or the sink's.
pub fn write_values(
    plan: &Plan,
    list: &[Unit],
    g: &Gathered,
    read_unit: &mut dyn FnMut(&Unit) -> std::io::Result<Vec<u8>>,
    sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut packer = Packer {
        byte: 0,
        k: 0,
        place: 1,
        out: Vec::with_capacity(1 << 20),
        sink,
    };
    let tiers = plan.tiers();
    let mut k = 0;
    let mut next_unit = 0;
    while k < tiers.len() {
        if let Some(v) = g
            .small
            .get(&tiers[k])
            .filter(|_| !matches!(tiers[k], Tier::Closed { .. }))
        {
            for &t in v {
                packer.push(t)?;
            }
            packer.end_tier();
            k += 1;
            continue;
        }
        let Tier::Closed { first, full, .. } = tiers[k] else {
            return Err(std::io::Error::other(format!(
                "tier {} was not solved",
                Layout::tier_name(tiers[k])
            )));
        };
        // A template's tiers follow each other, and so do its units.
        let template = list.get(next_unit).map_or(usize::MAX, |u| u.template);
        if plan
            .templates()
            .get(template)
            .is_none_or(|&(f, a, _)| (f, a) != (first, full))
        {
            return Err(std::io::Error::other(format!(
                "no unit holds tier {}",
                Layout::tier_name(tiers[k])
            )));
        }
        let units: Vec<&Unit> = list[next_unit..]
            .iter()
            .take_while(|u| u.template == template)
            .collect();
        next_unit += units.len();
        let kept = units
            .iter()
            .map(|u| {
                let bytes = read_unit(u)?;
                if bytes.len() as u64 != kept_len(plan, u) {
                    return Err(std::io::Error::other(format!(
                        "{} holds {} bytes, not {}",
                        name(plan, u),
                        bytes.len(),
                        kept_len(plan, u)
                    )));
                }
                Ok(bytes)
            })
            .collect::<std::io::Result<Vec<Vec<u8>>>>()?;
        let lens = states(plan, template);
        for (i, &len) in lens.iter().enumerate() {
            for (u, bytes) in units.iter().zip(&kept) {
                let n = u.codes.end - u.codes.start;
                let body = &bytes[32 * lens.len()..];
                let start: u64 = lens[..i].iter().map(|l| l * n).sum();
                for t in run_of(body, start, len * n) {
                    packer.push(t)?;
                }
            }
            packer.end_tier();
        }
        k += lens.len();
    }
    packer.finish()
}

#[cfg(test)]
mod tests {
    use games_topolo::layout::Layout;
    use games_topolo::{Shape, Topolo, Variant};

    use topitop_db::packed::{write_packed, write_packed_streamed};

    use super::*;
    use crate::plan::KeepNothing;

    /// Units of any size, solved apart, gathered and written a template
    /// at a time, give the single solve's database, byte for byte.
    #[test]
    fn units_written_together_are_the_single_solve() {
        let dir = tempfile::tempdir().unwrap();
        for (r, c) in [(3, 3), (2, 4), (4, 3)] {
            let board = format!("{r}x{c}");
            let game = Topolo::new(Shape::new(r, c).unwrap(), Variant::Full);
            let plan = Plan::new(Layout::of(game).unwrap());
            let whole = crate::solve::solve(&plan, &mut KeepNothing, &|_, _| {}).unwrap();
            let one = dir.path().join(format!("{board}-one.db"));
            write_packed(&one, whole.header.clone(), &whole.data).unwrap();
            for part in [1, 50, 1 << 30] {
                let list = units(&plan, part);
                assert!(
                    part > 1000 || list.len() > plan.templates().len(),
                    "{board}: parts of {part} cut"
                );
                let mut made = None;
                let kept: Vec<Vec<u8>> = list
                    .iter()
                    .map(|u| {
                        let bytes = solve(&plan, u, &mut made);
                        assert_eq!(bytes.len() as u64, kept_len(&plan, u));
                        bytes
                    })
                    .collect();
                let at = |u: &Unit| list.iter().position(|x| x == u).unwrap();
                let g = gather(&plan, &list, &mut |u| Ok(side(&plan, u, &kept[at(u)]))).unwrap();
                let split = dir.path().join(format!("{board}-{part}.db"));
                let header = write_packed_streamed(
                    &split,
                    g.header.clone(),
                    topitop_db::packed::DEFAULT_LEVEL,
                    |sink| write_values(&plan, &list, &g, &mut |u| Ok(kept[at(u)].clone()), sink),
                )
                .unwrap();
                assert_eq!(header.tiers, whole.header.tiers, "{board}, parts of {part}");
                assert!(
                    std::fs::read(&one).unwrap() == std::fs::read(&split).unwrap(),
                    "{board}, parts of {part}: the files differ"
                );
                assert_eq!(crate::solve::trit_value(g.start), whole.start);
            }
        }
    }
}
