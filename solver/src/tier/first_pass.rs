//! The first pass: moves generated once per half, and its children sorted
//! into in-tier edges and a summary of what lower tiers say.

use rayon::prelude::*;
use topitop_game::group::{half_len, plausible_slides, slot_in_half};
use topitop_game::{play_unchecked, Move, MoveList, Player, Position, Rules};
use topitop_table::{GroupIndex, Record, TierGroups};

use super::half::Half;
use super::parents::{Edge, Mode, PackedParentSet, ParentSet};

/// Groups per unit of parallel work.
const CHUNK_GROUPS: u32 = 256;

/// What the first pass learns of a tier.
#[derive(Default)]
pub(super) struct FirstPass {
    /// The halves in group order (Blue then Red for each board).
    pub(super) halves: Vec<Half>,
    /// The in-tier edges, in the order of the halves.
    pub(super) edges: Vec<Edge>,
}

/// Runs the first pass over `tier`, given `records` with every lower tier
/// solved.
///
/// # Panics
/// The tier has more halves than an edge can name.
pub(super) fn first_pass(
    rules: Rules,
    groups: &GroupIndex,
    records: &[Record],
    tier: &TierGroups,
) -> FirstPass {
    assert!(
        2 * u64::from(tier.groups) <= u64::from(PackedParentSet::MAX_HALVES),
        "too many halves in one tier for an edge to name"
    );
    let search = Search {
        rules,
        groups,
        records,
        tier,
    };
    let parts: Vec<FirstPass> = (0..tier.groups.div_ceil(CHUNK_GROUPS))
        .into_par_iter()
        .map(|c| search.chunk(c * CHUNK_GROUPS..((c + 1) * CHUNK_GROUPS).min(tier.groups)))
        .collect();
    let mut all = FirstPass {
        halves: Vec::with_capacity(2 * tier.groups as usize),
        edges: Vec::new(),
    };
    for part in parts {
        all.halves.extend(part.halves);
        all.edges.extend(part.edges);
    }
    all
}

/// A move and its child's record number.
type Child = (Move, u64);

/// Buffers reused from group to group.
#[derive(Default)]
struct Scratch {
    moves: MoveList,
    /// Blue's children in the current group.
    blue: Vec<Child>,
    /// Red's children in the current group.
    red: Vec<Child>,
}

/// What the first pass needs to look children up.
struct Search<'a> {
    rules: Rules,
    groups: &'a GroupIndex,
    records: &'a [Record],
    tier: &'a TierGroups,
}

impl Search<'_> {
    /// The first pass over the tier's groups `chunk` (counted from the
    /// tier's first group).
    fn chunk(&self, chunk: std::ops::Range<u32>) -> FirstPass {
        let mut out = FirstPass::default();
        let mut scratch = Scratch::default();
        for g in chunk {
            self.group(g, &mut scratch, &mut out);
        }
        out
    }

    /// Both halves of the tier's group `g`.
    fn group(&self, g: u32, scratch: &mut Scratch, out: &mut FirstPass) {
        let board = self.groups.board_of_group(self.tier.first_group + g);
        let start = self.local(self.groups.group_records(self.tier.first_group + g).start);
        let mask = plausible_slides(board);
        scratch.blue.clear();
        for turn in [Player::Blue, Player::Red] {
            let first = start + turn as u32 * half_len(mask) as u32;
            let mut half = Half::new(first, mask, self.rules.board_primitive(board, turn));
            if half.board_primitive.is_none() {
                let half_id = 2 * g + turn as u32;
                let pos = Position::new(board, turn, None);
                self.explore(half_id, pos, &mut half, scratch, &mut out.edges);
            }
            out.halves.push(half);
        }
    }

    /// Generates the moves of `pos` (slot 0 of the half `half_id`) and
    /// sorts its children. Blue's children are kept in `scratch`: Red
    /// reuses those of the moves both sides have (they move a neutral
    /// structure, so the children differ only in the side to move).
    fn explore(
        &self,
        half_id: u32,
        pos: Position,
        half: &mut Half,
        scratch: &mut Scratch,
        edges: &mut Vec<Edge>,
    ) {
        let Scratch { moves, blue, red } = scratch;
        self.rules.generate_piece_moves(pos, moves);
        // Children are looked up first and sorted after: the reads of
        // lower-tier records then leave together and wait for memory side
        // by side.
        let children = match pos.turn() {
            Player::Blue => {
                blue.extend(moves.iter().map(|&m| (m, self.index(play_unchecked(pos, m)))));
                &blue[..]
            }
            Player::Red => {
                red.clear();
                // Both sides generate shared moves in the same relative order.
                let mut next_shared = 0;
                for &m in moves.iter() {
                    let j = self.red_child(play_unchecked(pos, m), m, blue, &mut next_shared);
                    red.push((m, j));
                }
                &red[..]
            }
        };
        for &(m, j) in children {
            self.sort_child(half_id, half, m, j, edges);
        }
        if let Some(slot) = stuck_slot(half.mask, moves) {
            half.stuck = Some(slot as u8);
            if self.rules.stuck_value().is_none() {
                self.pass(half_id, pos, slot as u8, edges);
            }
        }
    }

    /// The record number of Red's `child` by `m`, taken from `blue` (Blue's
    /// children, searched from `next`) when Blue has the move too.
    fn red_child(&self, child: Position, m: Move, blue: &[Child], next: &mut usize) -> u64 {
        match blue[*next..].iter().position(|&(b, _)| b == m) {
            Some(k) => {
                let (_, j) = blue[*next + k];
                *next += k + 1;
                // Blue's child has Red to move (second half of its group);
                // this one has Blue to move (first half).
                j - half_len(plausible_slides(child.board())) as u64
            }
            None => self.index(child),
        }
    }

    /// Counts child `j` (by `m`) of slot 0 of half `half_id` as an in-tier
    /// edge or into the half's lower-tier summary.
    fn sort_child(&self, half_id: u32, half: &mut Half, m: Move, j: u64, edges: &mut Vec<Edge>) {
        if self.tier.records.contains(&j) {
            let mode = Mode::of_slide(half.mask, m.slide_id());
            edges.push(self.edge(j, half_id, mode));
            half.in_tier_moves += 1;
        } else {
            half.lower.add(self.records[j as usize]);
        }
    }

    /// Adds the edge of the pass of slot `slot` (of `pos`'s half `half_id`).
    ///
    /// # Panics
    /// The pass leaves the tier.
    fn pass(&self, half_id: u32, pos: Position, slot: u8, edges: &mut Vec<Edge>) {
        let passed = Position::new(pos.board(), pos.turn().opponent(), None);
        let j = self.index(passed);
        assert!(self.tier.records.contains(&j), "a pass stays in its tier");
        edges.push(self.edge(j, half_id, Mode::OnlySlot(slot)));
    }

    fn edge(&self, child: u64, half: u32, mode: Mode) -> Edge {
        Edge {
            child: self.local(child),
            parents: ParentSet { half, mode }.into(),
        }
    }

    /// The local index of record number `j` of this tier.
    fn local(&self, j: u64) -> u32 {
        (j - self.tier.records.start) as u32
    }

    fn index(&self, pos: Position) -> u64 {
        self.groups.index(pos).expect("children are indexable")
    }
}

/// The slot of the position of a half whose only move is its forbidden
/// slide, given slot 0's `moves`; slot 0 when there is none at all.
fn stuck_slot(mask: u64, moves: &MoveList) -> Option<usize> {
    match moves.as_slice() {
        [] => Some(0),
        [m] if m.slide_id() != 0 => slot_in_half(mask, m.slide_id()),
        _ => None,
    }
}
