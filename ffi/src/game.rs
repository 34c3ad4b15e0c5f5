//! The game functions and tier hooks of the module.

use std::ffi::c_char;
use std::ptr;

use games_topitop_rules::{gchash, play_unchecked, symmetry, Budget, Move, Tier, Value};

use crate::core;
use crate::guard::guard;
use crate::options::rules;
use crate::raw::{
    self, BOOLEAN, MOVE, MOVELIST, NULL_POSITION, POSITION, TIER, TIERLIST, TIERPOSITION, VALUE,
};
use crate::strings::PositionToString;

/// Installs the tier hooks and flags; keeps the selected option.
#[no_mangle]
pub extern "C" fn InitializeGame() {
    guard((), || {
        core::install_hooks(core::Hooks {
            canonical: GetCanonicalPosition,
            position_to_string: PositionToString,
            tier_children: gTierChildren,
            tier_size: gNumberOfTierPositions,
            tier_to_string: TierToString,
            is_legal: isLegal,
        })
    });
}

/// The window position after `mv`, or kBadPosition when `position` is not
/// in the window, `mv` is not one of its moves, or the child's tier is not
/// in the window.
#[no_mangle]
pub extern "C" fn DoMove(position: POSITION, mv: MOVE) -> POSITION {
    guard(NULL_POSITION, || {
        let Some(pos) = core::position_at(position) else {
            return NULL_POSITION;
        };
        match Move::from_code(i64::from(mv)) {
            Some(m) if rules().gamesman_moves(pos).contains(m) => {
                core::window_position(play_unchecked(pos, m)).unwrap_or(NULL_POSITION)
            }
            _ => NULL_POSITION,
        }
    })
}

/// The primitive value under the selected option, or `undecided`.
#[no_mangle]
pub extern "C" fn Primitive(position: POSITION) -> VALUE {
    guard(raw::undecided, || {
        match core::position_at(position).and_then(|p| rules().primitive(p)) {
            Some(Value::Win) => raw::win,
            Some(Value::Lose) => raw::lose,
            Some(Value::Tie) => raw::tie,
            // v1 has no primitive draws; the core stores a draw as a tie.
            Some(Value::Draw) => raw::tie,
            None => raw::undecided,
        }
    })
}

/// The moves, as upstream lists them (reverse generation order, the pass
/// alone when nothing else is possible), or NULL for an invalid position.
#[no_mangle]
pub extern "C" fn GenerateMoves(position: POSITION) -> *mut MOVELIST {
    guard(ptr::null_mut(), || match core::position_at(position) {
        Some(pos) => core::move_list(
            rules()
                .gamesman_moves(pos)
                .iter()
                .rev()
                .map(|m| MOVE::from(m.code())),
        ),
        None => ptr::null_mut(),
    })
}

/// The canonical representative under the 8 symmetries: the image with the
/// smallest tier position (a true canonical form, unlike upstream's).
#[no_mangle]
pub extern "C" fn GetCanonicalPosition(position: POSITION) -> POSITION {
    guard(NULL_POSITION, || {
        core::position_at(position)
            .and_then(|p| core::window_position(symmetry::canonical(p)))
            .unwrap_or(NULL_POSITION)
    })
}

/// Upstream's `isLegal`: which tier positions the solver visits.
#[no_mangle]
pub extern "C" fn isLegal(position: POSITION) -> BOOLEAN {
    guard(raw::FALSE, || {
        core::position_at(position).map_or(raw::FALSE, |p| BOOLEAN::from(gchash::gc_is_legal(p)))
    })
}

/// The child tiers, in upstream's list order; NULL for none or an invalid tier.
#[no_mangle]
pub extern "C" fn gTierChildren(tier: TIER) -> *mut TIERLIST {
    guard(ptr::null_mut(), || {
        match Tier::from_number(tier, Budget::STANDARD) {
            Ok(t) => core::tier_list(t.children(Budget::STANDARD).iter().rev().map(|c| c.number())),
            Err(_) => ptr::null_mut(),
        }
    })
}

/// The tier's size (82 per board), or 0 for an invalid tier.
#[no_mangle]
pub extern "C" fn gNumberOfTierPositions(tier: TIER) -> TIERPOSITION {
    guard(0, || {
        Tier::from_number(tier, Budget::STANDARD).map_or(0, |t| t.size())
    })
}

/// `BB: n, RB: n, ...` in memory the core frees; for an invalid tier a
/// sentence saying so.
#[no_mangle]
pub extern "C" fn TierToString(tier: TIER) -> *mut c_char {
    guard(ptr::null_mut(), || {
        let text =
            Tier::from_number(tier, Budget::STANDARD).map_or_else(|e| e.to_string(), |t| t.to_string());
        core::malloc_string(&text)
    })
}
