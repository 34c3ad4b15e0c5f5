//! What GamesmanClassic's tier solver stores in every slot of a tier,
//! computed from our records.
//!
//! GamesmanClassic's hash gives each board 82 slots: 2 turns × 41
//! forbidden-slide ids *d*. Its solver fills exactly the slots that its
//! `isLegal` accepts (*d* = 0, or the slide's destination empty, its source
//! occupied and not the mover's colour); the others stay 0. An accepted
//! slot is of one of two kinds:
//!
//! * *d* = 0, or a neutral S, L or C on the source: a position of our index
//!   (this includes boards the parser calls unreachable, such as the mover
//!   already owning two castles; they are indexed and solved like any
//!   other). Its record is ours, taken through the symmetry that makes its
//!   board canonical.
//! * the source holds the *opponent's* stack: no move leaves such a slide,
//!   so it is outside our index. The mover cannot slide the opponent's
//!   stacks anyway, so GamesmanClassic generates exactly the moves of the
//!   same board and turn with *d* = 0; the slot has the same children,
//!   hence the same primitive value or the same one-ply combination of
//!   them, which is the *d* = 0 record. [`tier_stream`] copies it;
//!   [`slot_record`] computes any slot from its children instead, and the
//!   tests check that the two agree.

use std::sync::OnceLock;

use games_topitop_rules::group::{group_len, half_len, plausible_slides, slot_in_half};
use games_topitop_rules::symmetry::{self, Symmetry};
use games_topitop_rules::{
    gchash, play_unchecked, Board, Budget, Cell, Player, Position, Rules, Ruleset, Slide, Tier, Value,
};
use games_topitop_table::{Record, Solution};

use super::{ExportError, GcRecord, FILE_VERSION, HEADER_BYTES};

/// The tiers GamesmanClassic's tier solver solves: those reachable from
/// tier 0 (2,231 for the standard budget; the composition in which both
/// players own two castles is not among them), by tier number.
pub fn solved_tiers(budget: Budget) -> Vec<Tier> {
    Tier::reachable(budget)
}

/// GamesmanClassic's option number for `rules`.
///
/// # Errors
/// [`ExportError::NoLayout`] for v0: GamesmanClassic's tier database
/// belongs to its current module, whose options are v1's variants.
pub fn option_of(rules: Rules) -> Result<u8, ExportError> {
    match rules.ruleset() {
        Ruleset::V1(v) => Ok(v.number()),
        Ruleset::V0 => Err(ExportError::NoLayout),
    }
}

/// A tier's uncompressed stream, as GamesmanClassic's solver writes it.
#[derive(Clone, Debug)]
pub struct TierStream {
    /// The header (version, size) and one big-endian record per slot.
    pub bytes: Vec<u8>,
    /// Slots holding a value (the others are 0).
    pub solved: u64,
}

/// Slide-id bit masks (bit id − 1): the slides out of each cell and into
/// each cell, and each slide's image under each symmetry.
struct SlideTables {
    out_of: [u64; 9],
    into: [u64; 9],
    image: [[u8; 41]; 8],
}

fn slide_tables() -> &'static SlideTables {
    static TABLES: OnceLock<SlideTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = SlideTables {
            out_of: [0; 9],
            into: [0; 9],
            image: [[0; 41]; 8],
        };
        for s in Slide::all() {
            t.out_of[s.from()] |= 1 << (s.id() - 1);
            t.into[s.to()] |= 1 << (s.id() - 1);
            for sym in Symmetry::ALL {
                let p = Position::new(Board::EMPTY, Player::Blue, Some(s));
                t.image[sym.index()][s.id() as usize] = symmetry::transform(p, sym).forbidden_id();
            }
        }
        t
    })
}

/// The slides `isLegal` accepts on `board` beyond the plausible ones, by
/// side to move: destination empty, source holding the opponent's colour.
fn vacuous_slides(board: Board, t: &SlideTables) -> [u64; 2] {
    let mut into_empty = 0;
    let mut from = [0u64; 2];
    for (i, cell) in board.cells().into_iter().enumerate() {
        if cell == Cell::Empty {
            into_empty |= t.into[i];
        }
        // The source holds the colour of the side not to move.
        match cell.owner() {
            Some(Player::Red) => from[0] |= t.out_of[i],
            Some(Player::Blue) => from[1] |= t.out_of[i],
            None => {}
        }
    }
    [from[0] & into_empty, from[1] & into_empty]
}

/// In [`gc_bits_table`], the entry of a record GamesmanClassic cannot
/// store: the visited bit, which its solver never leaves in a file.
const UNSTORABLE: u16 = 4;

/// GamesmanClassic's bits for each of our 2¹⁶ record bit patterns.
fn gc_bits_table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..=u16::MAX)
            .map(|bits| {
                Record::from_bits(bits)
                    .and_then(GcRecord::from_record)
                    .map_or(UNSTORABLE, GcRecord::bits)
            })
            .collect()
    })
}

/// The GamesmanClassic bits of `record`, stored for the position `pos()`.
#[inline]
fn gc_bits(table: &[u16], record: Record, pos: impl FnOnce() -> Position) -> Result<u16, ExportError> {
    match table[usize::from(record.bits())] {
        UNSTORABLE => Err(unstorable(pos(), record)),
        bits => Ok(bits),
    }
}

fn unstorable(pos: Position, record: Record) -> ExportError {
    ExportError::Unstorable {
        position: pos.to_string(),
        record: record.to_string(),
    }
}

/// Every slot of `tier` as GamesmanClassic's solver stores it, from the
/// records of `solution`, as the uncompressed stream of its tier file.
///
/// # Errors
/// v0 rules ([`ExportError::NoLayout`]), a tier outside the solution's
/// budget, or a record GamesmanClassic cannot store (unsolved, or a
/// remoteness of 255 or more).
///
/// # Panics
/// A solution whose records do not follow its index's groups.
pub fn tier_stream(solution: &Solution, tier: Tier) -> Result<TierStream, ExportError> {
    let mut bytes = Vec::new();
    let solved = fill_tier_stream(solution, tier, &mut bytes)?;
    Ok(TierStream { bytes, solved })
}

/// [`tier_stream`] into `bytes` (cleared first), returning the number of
/// solved slots.
pub(crate) fn fill_tier_stream(
    solution: &Solution,
    tier: Tier,
    bytes: &mut Vec<u8>,
) -> Result<u64, ExportError> {
    option_of(solution.rules())?;
    let index = solution.index();
    let states = index.states();
    let no_tier = || ExportError::NoSuchTier(tier.number());
    let range = states.tier_range(tier).ok_or_else(no_tier)?;
    let groups = &index.tiers()[states.tier_ordinal(tier).ok_or_else(no_tier)?];
    let size = tier.size();
    bytes.clear();
    bytes.resize(HEADER_BYTES + 2 * size as usize, 0);
    bytes[..2].copy_from_slice(&FILE_VERSION.to_be_bytes());
    bytes[2..6].copy_from_slice(&(size as u32).to_be_bytes());
    bytes[6..10].copy_from_slice(&((size >> 32) as u32).to_be_bytes());
    let symmetries: &[Symmetry] = if index.is_symmetric() {
        &Symmetry::ALL
    } else {
        &[Symmetry::Identity]
    };
    let mut solved = 0;
    for g in groups.first_group..groups.first_group + groups.groups {
        let key = index.board_of_group(g);
        let records = &solution.records()[index.group_records(g).start as usize..][..group_len(key)];
        // Each distinct image of the key board takes its slots from the
        // group: a position's record is that of its image on the key board.
        let mut done = [Board::EMPTY; 8];
        for (k, &sym) in symmetries.iter().enumerate() {
            let board = symmetry::transform(Position::new(key, Player::Blue, None), sym).board();
            if done[..k].contains(&board) {
                continue;
            }
            done[k] = board;
            let rank = states
                .board_number(board)
                .expect("a symmetry keeps a board's composition")
                - range.board_offset;
            let base = HEADER_BYTES + 2 * 41 * rank as usize;
            let half = 2 * 41 * range.boards() as usize;
            solved += put_board(bytes, [base, base + half], board, key, sym.inverse(), records)?;
        }
    }
    Ok(solved)
}

/// Writes the 82 slots of `board` (at byte offsets `at` for Blue and Red
/// to move) from `records`, the group of `key`, the image of `board` under
/// `to_key`. Returns the number of solved slots.
fn put_board(
    bytes: &mut [u8],
    at: [usize; 2],
    board: Board,
    key: Board,
    to_key: Symmetry,
    records: &[Record],
) -> Result<u64, ExportError> {
    let t = slide_tables();
    let table = gc_bits_table();
    let key_mask = plausible_slides(key);
    let half = half_len(key_mask);
    let plausible = plausible_slides(board);
    let vacuous = vacuous_slides(board, t);
    for (turn, player) in [Player::Blue, Player::Red].into_iter().enumerate() {
        let slots = &mut bytes[at[turn]..at[turn] + 82];
        let mut put = |d: u8, bits: u16| slots[2 * d as usize..][..2].copy_from_slice(&bits.to_be_bytes());
        let at = |d: u8| Position::new(board, player, Slide::from_id(d));
        let d0 = gc_bits(table, records[turn * half], || at(0))?;
        put(0, d0);
        for d in ids(plausible) {
            // A symmetry maps plausible slides to plausible slides.
            let slot = slot_in_half(key_mask, t.image[to_key.index()][d as usize])
                .expect("the image of a plausible slide is plausible");
            put(d, gc_bits(table, records[turn * half + slot], || at(d))?);
        }
        for d in ids(vacuous[turn]) {
            put(d, d0);
        }
    }
    Ok(2 + u64::from(2 * plausible.count_ones() + vacuous[0].count_ones() + vacuous[1].count_ones()))
}

/// The slide ids in a mask (bit id − 1), ascending.
fn ids(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let k = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            k + 1
        })
    })
}

/// What GamesmanClassic's solver stores in the slot `pos` under `rules`,
/// computed from our records `lookup` by its rules alone: undecided where
/// `isLegal` rejects the slot; the record `lookup` has for a position of
/// our index (a plausible forbidden slide, or none); otherwise one ply, as its solver combines children (§10 of the reference): the
/// primitive value at remoteness 0, else a win one more than the nearest
/// losing child, a tie one more than the nearest tying child, a draw if the
/// nearest such child is a draw, a loss one more than the farthest child.
///
/// # Errors
/// v0 rules, an indexed position (the slot or a child) `lookup` does not
/// have, or a record GamesmanClassic cannot store.
pub fn slot_record(
    rules: Rules,
    pos: Position,
    lookup: impl Fn(Position) -> Option<Record>,
) -> Result<GcRecord, ExportError> {
    option_of(rules)?;
    if !gchash::gc_is_legal(pos) {
        return Ok(GcRecord::Undecided);
    }
    let record = |p: Position| {
        lookup(p).ok_or_else(|| ExportError::NoRecord {
            position: p.to_string(),
        })
    };
    if pos.forbidden_is_plausible() {
        let (v, r) = storable(pos, record(pos)?)?;
        return Ok(GcRecord::Solved(v, r));
    }
    if let Some(v) = rules.primitive(pos) {
        return Ok(GcRecord::Solved(v, 0));
    }
    let (mut min_lose, mut min_tie, mut max_win) = (None::<u8>, None::<u8>, None::<u8>);
    for m in rules.gamesman_moves(pos).iter() {
        let child = play_unchecked(pos, *m);
        let r = record(child)?;
        let (v, r) = storable(child, r)?;
        let slot = match v {
            Value::Lose => &mut min_lose,
            Value::Tie | Value::Draw => &mut min_tie,
            Value::Win => {
                max_win = max_win.max(Some(r));
                continue;
            }
        };
        *slot = Some(slot.map_or(r, |s| s.min(r)));
    }
    Ok(match (min_lose, min_tie) {
        (Some(r), _) => GcRecord::Solved(Value::Win, r + 1),
        (None, Some(255)) => GcRecord::Solved(Value::Draw, 255),
        (None, Some(r)) => GcRecord::Solved(Value::Tie, r + 1),
        (None, None) => GcRecord::Solved(Value::Lose, max_win.map_or(0, |r| r + 1)),
    })
}

/// A record's value and GamesmanClassic remoteness, if it has them.
fn storable(pos: Position, record: Record) -> Result<(Value, u8), ExportError> {
    match GcRecord::from_record(record) {
        Some(GcRecord::Solved(v, r)) => Ok((v, r)),
        _ => Err(unstorable(pos, record)),
    }
}
