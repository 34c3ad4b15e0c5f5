//! The first pass: moves generated once per half, and its children sorted
//! into in-tier edges and the record numbers of lower-tier children.
//!
//! Nothing here depends on a ruleset's primitives or on what a stuck side
//! gets: every ruleset of the game (the v1 variants and v0) has the same
//! moves, so one first pass serves all the rulesets solved together.

use games_topitop_rules::group::{half_len, plausible_slides, slot_in_half};
use games_topitop_rules::{play_unchecked, Board, Move, MoveList, Player, Position, Rules};
use games_topitop_table::{GroupIndex, TierGroups};
use rayon::prelude::*;

use super::parents::{Edge, Mode, PackedParentSet, ParentSet};

/// Groups per unit of parallel work.
const CHUNK_GROUPS: u32 = 256;

/// One side to move on one board, as the first pass finds it.
#[derive(Clone, Copy)]
pub(super) struct SharedHalf {
    /// Local index of its first position (slot 0, nothing forbidden).
    pub(super) start: u32,
    /// Its plausible forbidden slides (see [`games_topitop_rules::group`]).
    pub(super) mask: u64,
    /// Its number of positions: one more than its plausible slides.
    pub(super) len: u8,
    pub(super) board: Board,
    pub(super) turn: Player,
    /// Slot of the position that has no move but its forbidden slide (or no
    /// move at all), if any.
    pub(super) stuck: Option<u8>,
    /// Moves into this tier of slot 0.
    pub(super) in_tier_moves: u8,
    /// End of its lower-tier children in its part's [`Part::lower`] (they start
    /// where the previous half's end).
    pub(super) lower_end: u32,
}

/// What the first pass learns of a run of groups.
#[derive(Default)]
pub(super) struct Part {
    /// The halves in group order (Blue then Red for each board).
    pub(super) halves: Vec<SharedHalf>,
    /// The in-tier edges of moves, in the order of the halves.
    pub(super) edges: Vec<Edge>,
    /// The edges of passes: the only move of a stuck position, in the
    /// rulesets where a stuck side passes.
    pub(super) passes: Vec<Edge>,
    /// Record numbers of the children in lower tiers, half after half.
    pub(super) lower: Vec<u32>,
}

/// What the first pass learns of a tier: one part per chunk of groups, in
/// order, left as the threads made them rather than copied into one.
pub(super) struct FirstPass {
    parts: Vec<Part>,
}

impl FirstPass {
    /// Every half of the tier in order, with the record numbers of its
    /// lower-tier children.
    pub(super) fn halves(&self) -> impl Iterator<Item = (&SharedHalf, &[u32])> {
        self.parts.iter().flat_map(|part| {
            let mut end = 0;
            part.halves.iter().map(move |h| {
                let children = &part.lower[end as usize..h.lower_end as usize];
                end = h.lower_end;
                (h, children)
            })
        })
    }

    /// The in-tier edges of moves, and those of passes when `passes`.
    pub(super) fn edges(&self, passes: bool) -> impl Iterator<Item = &Edge> + Clone {
        let moves = self.parts.iter().flat_map(|p| &p.edges);
        let passes = self.parts.iter().filter(move |_| passes).flat_map(|p| &p.passes);
        moves.chain(passes)
    }

    /// Lets go of the edges once the parent rows hold them.
    pub(super) fn drop_edges(&mut self) {
        for part in &mut self.parts {
            part.edges = Vec::new();
            part.passes = Vec::new();
        }
    }
}

/// Runs the first pass over `tier` for `rules` (which share their moves):
/// a half is explored unless every ruleset finds its board decided.
///
/// # Panics
/// The tier has more halves than an edge can name.
pub(super) fn first_pass(rules: &[Rules], groups: &GroupIndex, tier: &TierGroups) -> FirstPass {
    assert!(
        2 * u64::from(tier.groups) <= u64::from(PackedParentSet::MAX_HALVES),
        "too many halves in one tier for an edge to name"
    );
    let search = Search { rules, groups, tier };
    let parts = (0..tier.groups.div_ceil(CHUNK_GROUPS))
        .into_par_iter()
        .map(|c| search.chunk(c * CHUNK_GROUPS..((c + 1) * CHUNK_GROUPS).min(tier.groups)))
        .collect();
    FirstPass { parts }
}

/// A move and its child's record number.
type Child = (Move, u64);

/// A move of Blue's, its child's record number, and the record number of
/// that child with Blue to move: Red's child by the same move, when Red
/// has it.
type BlueChild = (Move, u64, u64);

/// Buffers reused from group to group.
#[derive(Default)]
struct Scratch {
    moves: MoveList,
    /// Blue's children in the current group.
    blue: Vec<BlueChild>,
    /// The children of the half being explored.
    children: Vec<Child>,
}

/// What the first pass needs to look children up.
struct Search<'a> {
    rules: &'a [Rules],
    groups: &'a GroupIndex,
    tier: &'a TierGroups,
}

impl Search<'_> {
    /// The first pass over the tier's groups `chunk` (counted from the
    /// tier's first group).
    fn chunk(&self, chunk: std::ops::Range<u32>) -> Part {
        let mut out = Part {
            halves: Vec::with_capacity(2 * chunk.len()),
            ..Part::default()
        };
        let mut scratch = Scratch::default();
        for g in chunk {
            self.group(g, &mut scratch, &mut out);
        }
        out
    }

    /// Both halves of the tier's group `g`.
    fn group(&self, g: u32, scratch: &mut Scratch, out: &mut Part) {
        let board = self.groups.board_of_group(self.tier.first_group + g);
        let start = self.local(self.groups.group_records(self.tier.first_group + g).start);
        let mask = plausible_slides(board);
        let len = half_len(mask);
        scratch.blue.clear();
        for turn in [Player::Blue, Player::Red] {
            let mut half = SharedHalf {
                start: start + turn as u32 * len as u32,
                mask,
                len: len as u8,
                board,
                turn,
                stuck: None,
                in_tier_moves: 0,
                lower_end: 0,
            };
            if self
                .rules
                .iter()
                .any(|r| r.board_primitive(board, turn).is_none())
            {
                let half_id = 2 * g + turn as u32;
                self.explore(half_id, &mut half, scratch, out);
            }
            half.lower_end = out.lower.len() as u32;
            out.halves.push(half);
        }
    }

    /// Generates the moves of the half's slot 0 and sorts its children.
    /// Blue's children are kept in `scratch`: Red reuses those of the moves
    /// both sides have (they move a neutral structure, so the children
    /// differ only in the side to move).
    fn explore(&self, half_id: u32, half: &mut SharedHalf, scratch: &mut Scratch, out: &mut Part) {
        let pos = Position::new(half.board, half.turn, None);
        let Scratch {
            moves,
            blue,
            children,
        } = scratch;
        // Every ruleset has the same moves.
        self.rules[0].generate_piece_moves(pos, moves);
        children.clear();
        // A child's cell counts follow from the parent's and the one or two
        // cells its move changed.
        let packed = pos.board().packed_counts();
        let look_up = |child: Position| {
            self.groups
                .index_and_half_len_counted(child, pos.board().packed_counts_of(packed, child.board()))
                .expect("children are indexable")
        };
        match pos.turn() {
            Player::Blue => {
                for &m in moves.iter() {
                    let (j, half_len) = look_up(play_unchecked(pos, m));
                    // The child has Red to move, the second half of its
                    // group; with Blue to move it is in the first.
                    blue.push((m, j, j - u64::from(half_len)));
                    children.push((m, j));
                }
            }
            Player::Red => {
                // Both sides generate shared moves in the same relative order.
                let mut next_shared = 0;
                for &m in moves.iter() {
                    let j = shared_child(m, blue, &mut next_shared)
                        .unwrap_or_else(|| look_up(play_unchecked(pos, m)).0);
                    children.push((m, j));
                }
            }
        }
        for &(m, j) in children.iter() {
            if self.tier.records.contains(&j) {
                let mode = Mode::of_slide(half.mask, m.slide_id());
                out.edges.push(self.edge(j, half_id, mode));
                half.in_tier_moves += 1;
            } else {
                out.lower
                    .push(u32::try_from(j).expect("record numbers fit 32 bits"));
            }
        }
        if let Some(slot) = stuck_slot(half.mask, moves) {
            half.stuck = Some(slot as u8);
            out.passes.push(self.pass(half_id, pos, slot as u8));
        }
    }

    /// The edge of the pass of slot `slot` (of `pos`'s half `half_id`).
    ///
    /// # Panics
    /// The pass leaves the tier.
    fn pass(&self, half_id: u32, pos: Position, slot: u8) -> Edge {
        let passed = Position::new(pos.board(), pos.turn().opponent(), None);
        let j = self.index(passed);
        assert!(self.tier.records.contains(&j), "a pass stays in its tier");
        self.edge(j, half_id, Mode::OnlySlot(slot))
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

/// The record number of Red's child by `m`, taken from `blue` (Blue's
/// children, searched from `next`) when Blue has the move too.
fn shared_child(m: Move, blue: &[BlueChild], next: &mut usize) -> Option<u64> {
    let k = blue[*next..].iter().position(|&(b, _, _)| b == m)?;
    let (_, _, j) = blue[*next + k];
    *next += k + 1;
    Some(j)
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
