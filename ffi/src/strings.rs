//! Position and move strings, AutoGUI strings and text input.

use std::ffi::c_char;

use games_topitop_rules::{autogui_entities, parse_position, AutoGuiMove, Budget, Move, Player, Tier};

use crate::core;
use crate::guard::guard;
use crate::raw::{self, BOOLEAN, MOVE, NULL_POSITION, POSITION};

const POSITION_BUFFER: usize = raw::TOPITOP_POSITION_BUFFER as usize;
const MOVE_BUFFER: usize = raw::TOPITOP_MOVE_BUFFER as usize;

/// The one-line string (`1_LS-L-SLLS45`); empty for an invalid position.
///
/// # Safety
/// `buffer` is NULL or valid for writes of `TOPITOP_POSITION_BUFFER` bytes.
#[no_mangle]
pub unsafe extern "C" fn PositionToString(position: POSITION, buffer: *mut c_char) {
    guard((), || {
        let text = core::position_at(position)
            .map(|p| p.to_string())
            .unwrap_or_default();
        // SAFETY: our caller's promise for `buffer`.
        unsafe { core::write_buffer(buffer, POSITION_BUFFER, &text) };
    });
}

/// Parses a one-line string, moves the hash window to its tier and returns
/// its window position; NULL_POSITION for anything that is not a position of
/// the game (checked fully, unlike upstream).
///
/// # Safety
/// `position_string` is NULL or a NUL-terminated string valid for the call.
#[no_mangle]
pub unsafe extern "C" fn StringToPosition(position_string: *mut c_char) -> POSITION {
    guard(NULL_POSITION, || {
        // SAFETY: our caller's promise for `position_string`.
        let text = unsafe { core::read_string(position_string) };
        let Some(pos) = text.and_then(|s| parse_position(s, Budget::STANDARD).ok()) else {
            return NULL_POSITION;
        };
        core::initialize_window(Tier::of(pos.board()));
        core::window_position(pos).unwrap_or(NULL_POSITION)
    })
}

/// The AutoGUI position string; empty for an invalid position.
///
/// # Safety
/// `buffer` is NULL or valid for writes of `TOPITOP_POSITION_BUFFER` bytes.
#[no_mangle]
pub unsafe extern "C" fn PositionToAutoGUIString(position: POSITION, buffer: *mut c_char) {
    guard((), || match core::position_at(position) {
        Some(p) => {
            let turn = if p.turn() == Player::Blue { 1 } else { 2 };
            // SAFETY: our caller's promise for `buffer`.
            unsafe { core::autogui_position(turn, &autogui_entities(p), buffer) };
        }
        // SAFETY: as above.
        None => unsafe { core::write_buffer(buffer, POSITION_BUFFER, "") },
    });
}

/// `B5`, `R5`, `S5`, `L5`, `4-5` or `None`; empty for a code no move has.
///
/// # Safety
/// `buffer` is NULL or valid for writes of `TOPITOP_MOVE_BUFFER` bytes.
#[no_mangle]
pub unsafe extern "C" fn MoveToString(mv: MOVE, buffer: *mut c_char) {
    guard((), || {
        let text = Move::from_code(i64::from(mv))
            .map(|m| m.to_string())
            .unwrap_or_default();
        // SAFETY: our caller's promise for `buffer`.
        unsafe { core::write_buffer(buffer, MOVE_BUFFER, &text) };
    });
}

/// The AutoGUI move string; empty for a code no move has.
///
/// # Safety
/// `buffer` is NULL or valid for writes of `TOPITOP_MOVE_BUFFER` bytes.
#[no_mangle]
pub unsafe extern "C" fn MoveToAutoGUIString(_position: POSITION, mv: MOVE, buffer: *mut c_char) {
    guard((), || match Move::from_code(i64::from(mv)).map(AutoGuiMove::of) {
        Some(AutoGuiMove::Button { token, at, sound }) => {
            // SAFETY: our caller's promise for `buffer`.
            unsafe { core::autogui_button(token as u8, at, sound as u8, buffer) }
        }
        Some(AutoGuiMove::Arrow { from, to, sound }) => {
            // SAFETY: as above.
            unsafe { core::autogui_arrow(from, to, sound as u8, buffer) }
        }
        None => {
            // SAFETY: as above.
            unsafe { core::write_buffer(buffer, MOVE_BUFFER, "") }
        }
    });
}

/// TRUE for `B5`/`R5`/`S5`/`L5` (any case), a slide between neighbours
/// (`4-5`) or `None`.
///
/// # Safety
/// `input` is NULL or a NUL-terminated string valid for the call.
#[no_mangle]
pub unsafe extern "C" fn ValidTextInput(input: *mut c_char) -> BOOLEAN {
    guard(raw::FALSE, || {
        // SAFETY: our caller's promise for `input`.
        let text = unsafe { core::read_string(input) };
        BOOLEAN::from(text.is_some_and(|s| s.parse::<Move>().is_ok()))
    })
}

/// The move code of typed text, with the p2Turn bit on red-bucket
/// placements so that `R5` matches the generated move (upstream's typed
/// `R5` never does); -1 for text that is not a move.
///
/// # Safety
/// `input` is NULL or a NUL-terminated string valid for the call.
#[no_mangle]
pub unsafe extern "C" fn ConvertTextInputToMove(input: *mut c_char) -> MOVE {
    guard(-1, || {
        // SAFETY: our caller's promise for `input`.
        let text = unsafe { core::read_string(input) };
        text.and_then(|s| s.parse::<Move>().ok())
            .map_or(-1, |m| MOVE::from(m.code()))
    })
}
