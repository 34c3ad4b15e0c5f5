//! What the first pass learns of each half, for the settling to read.

use std::num::NonZeroU16;

use games_topitop_rules::{Rules, Value};
use games_topitop_table::Record;

use super::first_pass::SharedHalf;

/// A remoteness, or none, in 2 bytes.
///
/// It holds 1 + the remoteness, so that `None` takes the niche of
/// [`NonZeroU16`], the value 0; a remoteness is at most
/// [`MAX_REMOTENESS`](games_topitop_table::MAX_REMOTENESS), far from `u16::MAX`.
/// The stored value is also the remoteness a parent gets through such a
/// child, which [`MaybeRemoteness::parent_remoteness`] reads for free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MaybeRemoteness(Option<NonZeroU16>);

const _: () = assert!(size_of::<MaybeRemoteness>() == 2);

impl Default for MaybeRemoteness {
    fn default() -> Self {
        Self::none()
    }
}

impl MaybeRemoteness {
    /// No remoteness.
    pub(super) const fn none() -> Self {
        MaybeRemoteness(None)
    }

    /// The remoteness, if any.
    #[inline]
    pub(super) fn get(self) -> Option<u16> {
        self.0.map(|r| r.get() - 1)
    }

    /// One more than the remoteness, if any: that of a parent that wins or
    /// ties through this child.
    #[inline]
    pub(super) fn parent_remoteness(self) -> Option<u16> {
        self.0.map(NonZeroU16::get)
    }

    /// Keeps the smaller of this and `r` (`r` if none).
    #[inline]
    pub(super) fn keep_min(&mut self, r: u16) {
        let r = NonZeroU16::MIN.saturating_add(r);
        self.0 = Some(self.0.map_or(r, |m| m.min(r)));
    }

    /// Keeps the larger of this and `r` (`r` if none).
    #[inline]
    pub(super) fn keep_max(&mut self, r: u16) {
        // `None` orders below every `Some`.
        self.0 = self.0.max(Some(NonZeroU16::MIN.saturating_add(r)));
    }
}

/// What already solved lower tiers say of a half's moves: one summary
/// stands for every position of the half, since no move it lacks leaves
/// the tier.
#[derive(Clone, Copy, Default)]
pub(super) struct LowerSummary {
    /// The smallest remoteness of a losing child.
    pub(super) lose_min: MaybeRemoteness,
    /// The largest remoteness of a winning child.
    pub(super) win_max: MaybeRemoteness,
    /// The smallest remoteness of a tying child.
    pub(super) tie_min: MaybeRemoteness,
    /// Some child is a tie or a draw, so the position cannot lose.
    pub(super) tie_or_draw: bool,
}

impl LowerSummary {
    /// Counts in one child's record.
    ///
    /// # Panics
    /// The child is unsolved: the tiers are not solved children first.
    pub(super) fn add(&mut self, child: Record) {
        let r = child.remoteness();
        match child.value() {
            Some(Value::Lose) => self.lose_min.keep_min(r),
            Some(Value::Win) => self.win_max.keep_max(r),
            Some(Value::Tie) => {
                self.tie_min.keep_min(r);
                self.tie_or_draw = true;
            }
            Some(Value::Draw) => self.tie_or_draw = true,
            None => panic!("a child in a lower tier is unsolved: tier order is wrong"),
        }
    }

    /// If every child is a win (for the opponent), the remoteness of the
    /// loss they allow, one more than the slowest (0 with no child); `None`
    /// if some child is not a win.
    #[inline]
    pub(super) fn loss_remoteness(&self) -> Option<u16> {
        (!self.tie_or_draw && self.lose_min.get().is_none())
            .then(|| self.win_max.parent_remoteness().unwrap_or(0))
    }
}

/// One side to move on one board: the positions of one half of its group,
/// which share their moves but for the forbidden slide.
#[derive(Clone, Copy)]
pub(super) struct Half {
    /// Local index of its first position (slot 0, nothing forbidden).
    pub(super) start: u32,
    /// Its number of positions.
    pub(super) len: u8,
    /// The primitive value of every position of the half (board decided).
    pub(super) board_primitive: Option<Value>,
    /// Slot of the position that has no move but its forbidden slide (or no
    /// move at all), if any: it passes or is primitive.
    pub(super) stuck: Option<u8>,
    /// Moves into this tier of slot 0.
    pub(super) in_tier_moves: u8,
    /// The moves into lower tiers, the same for every slot but `stuck`.
    pub(super) lower: LowerSummary,
    /// Every position of the half is known settled, so no parent set that
    /// names it can change anything: set by the settling once it sees so.
    pub(super) settled: bool,
}

impl Half {
    /// The half the first pass found as `shared`, under `rules`, whose
    /// lower-tier children have the records `lower_children`.
    pub(super) fn new(
        shared: &SharedHalf,
        rules: Rules,
        lower_children: impl Iterator<Item = Record>,
    ) -> Half {
        let board_primitive = rules.board_primitive(shared.board, shared.turn);
        let mut lower = LowerSummary::default();
        // A decided board's positions never read their children.
        if board_primitive.is_none() {
            lower_children.for_each(|r| lower.add(r));
        }
        Half {
            start: shared.start,
            len: shared.len,
            board_primitive,
            stuck: shared.stuck,
            in_tier_moves: shared.in_tier_moves,
            lower,
            settled: false,
        }
    }

    /// Its number of positions.
    #[inline]
    pub(super) fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Its positions' slots.
    #[inline]
    pub(super) fn slots(&self) -> std::ops::Range<usize> {
        0..self.len()
    }

    /// The local index of slot `slot`.
    #[inline]
    pub(super) fn local(&self, slot: usize) -> usize {
        self.start as usize + slot
    }

    #[inline]
    fn is_stuck(&self, slot: usize) -> bool {
        self.stuck.is_some_and(|s| usize::from(s) == slot)
    }

    /// The primitive value of slot `slot`, given what a stuck side gets.
    #[inline]
    pub(super) fn primitive(&self, slot: usize, stuck_value: Option<Value>) -> Option<Value> {
        self.board_primitive
            .or(if self.is_stuck(slot) { stuck_value } else { None })
    }

    /// What lower tiers say of slot `slot`: nothing for a stuck position,
    /// whose only move (the pass) stays in the tier.
    #[inline]
    pub(super) fn lower_of(&self, slot: usize) -> LowerSummary {
        if self.is_stuck(slot) {
            LowerSummary::default()
        } else {
            self.lower
        }
    }

    /// In-tier moves of slot `slot`: slot 0's, less the forbidden one; the
    /// pass alone for a stuck position; none on a decided board, whose
    /// moves are never generated (its positions are primitive).
    pub(super) fn in_tier_moves_of(&self, slot: usize) -> u8 {
        if self.board_primitive.is_some() {
            0
        } else if self.is_stuck(slot) {
            1
        } else {
            self.in_tier_moves - u8::from(slot != 0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maybe_remoteness() {
        let mut m = MaybeRemoteness::none();
        assert_eq!(m.get(), None);
        m.keep_min(7);
        m.keep_min(9);
        assert_eq!((m.get(), m.parent_remoteness()), (Some(7), Some(8)));
        m.keep_min(0);
        assert_eq!(m.get(), Some(0));
        let mut m = MaybeRemoteness::none();
        m.keep_max(0);
        m.keep_max(3);
        m.keep_max(2);
        assert_eq!(m.get(), Some(3));
    }
}
