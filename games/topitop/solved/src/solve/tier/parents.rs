//! In-tier parents: the edges the first pass finds, grouped by child.
//!
//! A move of a half's first position (nothing forbidden) is a move of
//! every position of the half but at most one, so an edge names a set of
//! parents — a half and a [`Mode`] — rather than one parent. A pass, the
//! only move of one stuck position, names that position alone.

use games_topitop_rules::group::slot_in_half;

/// Which positions of a half have a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Every position: the move is not a plausible forbidden slide.
    AllOfHalf,
    /// Every position but the one at this slot, whose forbidden slide it is.
    AllBut(u8),
    /// Only the position at this slot: its pass, its only move.
    OnlySlot(u8),
}

impl Mode {
    /// The mode of a move with slide id `slide_id` (0 when not a slide) in
    /// a half with plausible-slide mask `mask`.
    pub(super) fn of_slide(mask: u64, slide_id: u8) -> Mode {
        match slide_id {
            0 => Mode::AllOfHalf,
            d => slot_in_half(mask, d).map_or(Mode::AllOfHalf, |s| Mode::AllBut(s as u8)),
        }
    }
}

/// The parents one in-tier edge names: some positions of one half.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ParentSet {
    /// The half's id: its place in the tier's list of halves.
    pub(super) half: u32,
    pub(super) mode: Mode,
}

impl ParentSet {
    /// Calls `f(slot)` for each slot of the set, in slot order, given the
    /// half's number of positions.
    #[inline]
    pub(super) fn for_each_slot(self, half_len: usize, mut f: impl FnMut(usize)) {
        // The slots before and after the one skipped, with no test per slot.
        let skip = match self.mode {
            Mode::OnlySlot(s) => return f(usize::from(s)),
            Mode::AllOfHalf => half_len,
            Mode::AllBut(s) => usize::from(s),
        };
        (0..skip.min(half_len)).chain(skip + 1..half_len).for_each(f);
    }
}

/// A [`ParentSet`] in 4 bytes, as the parent rows store it: one per
/// in-tier edge, kept through the whole settling.
///
/// Bits 7 and up hold the half; bits 0..7 the mode: 0 for
/// [`Mode::AllOfHalf`], s (1..=40) for [`Mode::AllBut`] (slot 0, nothing
/// forbidden, is never skipped), 64 + s for [`Mode::OnlySlot`]. A half's
/// slots are fewer than 42, so the three ranges never meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PackedParentSet(u32);

impl PackedParentSet {
    /// Halves that fit in the 25 bits left above the mode.
    pub(super) const MAX_HALVES: u32 = 1 << 25;
    const ONLY: u32 = 64;
    const MODE_BITS: u32 = 7;
    const MODE_MASK: u32 = (1 << Self::MODE_BITS) - 1;
}

impl From<ParentSet> for PackedParentSet {
    #[inline]
    fn from(set: ParentSet) -> Self {
        debug_assert!(set.half < Self::MAX_HALVES);
        let mode = match set.mode {
            Mode::AllOfHalf => 0,
            Mode::AllBut(s) => u32::from(s),
            Mode::OnlySlot(s) => Self::ONLY + u32::from(s),
        };
        PackedParentSet(set.half << Self::MODE_BITS | mode)
    }
}

impl From<PackedParentSet> for ParentSet {
    #[inline]
    fn from(PackedParentSet(code): PackedParentSet) -> Self {
        let mode = match code & PackedParentSet::MODE_MASK {
            0 => Mode::AllOfHalf,
            s if s < PackedParentSet::ONLY => Mode::AllBut(s as u8),
            s => Mode::OnlySlot((s - PackedParentSet::ONLY) as u8),
        };
        ParentSet {
            half: code >> PackedParentSet::MODE_BITS,
            mode,
        }
    }
}

/// A move into the tier: the child's local index and its parents.
#[derive(Clone, Copy)]
pub(super) struct Edge {
    pub(super) child: u32,
    pub(super) parents: PackedParentSet,
}

const _: () = assert!(size_of::<PackedParentSet>() == 4);
const _: () = assert!(size_of::<Edge>() == 8);

/// The in-tier parents of each position, in compressed rows: the rows are
/// built once and read twice (wins and losses, then ties).
pub(super) struct ParentRows {
    /// Row `i` is `sets[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    sets: Vec<PackedParentSet>,
}

impl ParentRows {
    /// Groups `edges` by child, keeping their order within a row: a
    /// counting sort, two passes and no comparisons.
    pub(super) fn new<'a>(len: usize, edges: impl Iterator<Item = &'a Edge> + Clone) -> ParentRows {
        let mut start = vec![0u32; len + 1];
        let mut count = 0;
        for e in edges.clone() {
            start[e.child as usize + 1] += 1;
            count += 1;
        }
        for i in 0..len {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut sets = vec![PackedParentSet(0); count];
        for e in edges {
            let at = &mut fill[e.child as usize];
            sets[*at as usize] = e.parents;
            *at += 1;
        }
        ParentRows { start, sets }
    }

    /// The parent sets of the position at local index `i`.
    #[inline]
    pub(super) fn of(&self, i: usize) -> &[PackedParentSet] {
        &self.sets[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games_topitop_rules::group::half_len;

    #[test]
    fn packing_round_trips() {
        let modes = [
            Mode::AllOfHalf,
            Mode::AllBut(1),
            Mode::AllBut(40),
            Mode::OnlySlot(0),
            Mode::OnlySlot(40),
        ];
        for half in [0, 1, 12_345, PackedParentSet::MAX_HALVES - 1] {
            for mode in modes {
                let set = ParentSet { half, mode };
                assert_eq!(ParentSet::from(PackedParentSet::from(set)), set);
            }
        }
    }

    #[test]
    fn slots_of_each_mode() {
        let mask = 0b1011; // slides 1, 2 and 4: slots 0..4
        let slots = |mode| {
            let mut v = Vec::new();
            ParentSet { half: 0, mode }.for_each_slot(half_len(mask), |s| v.push(s));
            v
        };
        assert_eq!(slots(Mode::of_slide(mask, 0)), [0, 1, 2, 3]);
        assert_eq!(slots(Mode::of_slide(mask, 3)), [0, 1, 2, 3]);
        assert_eq!(slots(Mode::of_slide(mask, 4)), [0, 1, 2]);
        assert_eq!(slots(Mode::OnlySlot(2)), [2]);
    }
}
