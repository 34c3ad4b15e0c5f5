//! Every position's record under a ruleset.

use std::sync::Arc;

use games_topitop_rules::group::group;
use games_topitop_rules::{symmetry, Player, Position, Rules, Value};
use rayon::prelude::*;

use crate::{GroupIndex, Record};

/// Every position's record, numbered by a [`GroupIndex`].
///
/// With symmetry, records are kept for the groups of canonical boards only;
/// [`Solution::get`] looks other positions up through their canonical form.
pub struct Solution {
    rules: Rules,
    /// Shared by the solutions of rulesets solved together.
    index: Arc<GroupIndex>,
    records: Vec<Record>,
}

impl Solution {
    /// Assembles a solution from records numbered by a fresh index of
    /// `rules`' budget, with or without symmetry.
    ///
    /// # Panics
    /// `records` does not match the index size.
    pub fn from_parts(rules: Rules, records: Vec<Record>, symmetric: bool) -> Solution {
        Solution::from_index(rules, GroupIndex::new(rules.budget(), symmetric), records)
    }

    /// Assembles a solution from records numbered by `index`.
    ///
    /// # Panics
    /// `records` does not match the index size.
    pub fn from_index(rules: Rules, index: impl Into<Arc<GroupIndex>>, records: Vec<Record>) -> Solution {
        let index = index.into();
        assert_eq!(
            records.len() as u64,
            index.len(),
            "one record per indexed position"
        );
        Solution {
            rules,
            index,
            records,
        }
    }

    /// The rules solved.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The numbering the records follow.
    pub fn index(&self) -> &GroupIndex {
        &self.index
    }

    /// The records by number.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// True when only canonical boards were solved.
    pub fn is_symmetric(&self) -> bool {
        self.index.is_symmetric()
    }

    /// The record of `pos`, or `None` if it is not indexable.
    pub fn get(&self, pos: Position) -> Option<Record> {
        self.index.index(pos).ok().map(|i| self.records[i as usize])
    }

    /// Solved states by value (win, lose, tie, draw), one per symmetry
    /// class when the solve used symmetry: the positions of play and the
    /// states [`Solution::unplayable_counts`] counts. A database header
    /// keeps these figures.
    pub fn counts(&self) -> [u64; 4] {
        let mut counts = count_values(&self.records);
        for i in self.index.duplicates() {
            if let Some(v) = self.records[i as usize].value() {
                counts[v.index()] -= 1;
            }
        }
        counts
    }

    /// The part of [`Solution::counts`] that no game can reach: classes
    /// that fail [`Position::is_valid`]. They occur only on boards where a
    /// player owns two castles, so only those boards' groups are read.
    pub fn unplayable_counts(&self) -> [u64; 4] {
        let budget = self.rules.budget();
        (0..self.index.groups() as u32)
            .into_par_iter()
            .filter(|&g| {
                let b = self.index.board_of_group(g);
                b.castles_of(Player::Blue) >= 2 || b.castles_of(Player::Red) >= 2
            })
            .map(|g| {
                let mut c = [0u64; 4];
                let first = self.index.group_records(g).start;
                for (k, pos) in group(self.index.board_of_group(g)).enumerate() {
                    let stored_class = !self.is_symmetric() || symmetry::canonical(pos) == pos;
                    if stored_class && !pos.is_valid(budget) {
                        if let Some(v) = self.records[(first + k as u64) as usize].value() {
                            c[v.index()] += 1;
                        }
                    }
                }
                c
            })
            .reduce(|| [0; 4], |a, b| std::array::from_fn(|k| a[k] + b[k]))
    }

    /// The largest remoteness of a win, loss or tie.
    pub fn largest_remoteness(&self) -> u16 {
        self.records
            .par_chunks(1 << 20)
            .map(|chunk| {
                chunk
                    .iter()
                    .filter(|r| matches!(r.value(), Some(Value::Win | Value::Lose | Value::Tie)))
                    .map(|r| r.remoteness())
                    .max()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0)
    }
}

fn count_values(records: &[Record]) -> [u64; 4] {
    records
        .par_chunks(1 << 20)
        .map(|chunk| {
            // Four sets of counters, so that runs of one value (the usual
            // case) do not wait on one counter's last increment.
            let mut lanes = [[0u64; 5]; 4];
            let mut quads = chunk.chunks_exact(4);
            for q in &mut quads {
                for (lane, r) in lanes.iter_mut().zip(q) {
                    lane[r.value_index()] += 1;
                }
            }
            for r in quads.remainder() {
                lanes[0][r.value_index()] += 1;
            }
            std::array::from_fn(|k| lanes.iter().map(|l| l[k]).sum())
        })
        .reduce(|| [0; 4], |a, b| std::array::from_fn(|k| a[k] + b[k]))
}
