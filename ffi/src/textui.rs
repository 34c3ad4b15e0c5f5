//! The text interface: printing positions and moves, reading a move, the
//! option menu.

use std::ffi::c_char;

use games_topitop_rules::{Board, Cell, Move, Position};

use crate::core;
use crate::guard::guard;
use crate::options;
use crate::raw::{self, BOOLEAN, MOVE, POSITION, USERINPUT};

/// One of a cell's three drawing rows, top (2) to bottom (0), 7 wide.
fn cell_row(c: Cell, level: u8) -> &'static str {
    const BLUE: &str = "   B   ";
    const RED: &str = "   R   ";
    const SMALL: &str = "  /S\\  ";
    const LARGE: &str = " /_L_\\ ";
    const NONE: &str = "       ";
    use Cell::*;
    match (level, c) {
        (2, BlueCastle) => BLUE,
        (2, RedCastle) => RED,
        (1, BlueSmall) => BLUE,
        (1, RedSmall) => RED,
        (1, Castle | BlueCastle | RedCastle) => SMALL,
        (0, BlueBucket) => BLUE,
        (0, RedBucket) => RED,
        (0, Small | BlueSmall | RedSmall) => SMALL,
        (0, Large | Castle | BlueCastle | RedCastle) => LARGE,
        _ => NONE,
    }
}

/// The board drawing with the side information, as text.
pub(crate) fn render(pos: Position, prediction: &str) -> String {
    let board: Board = pos.board();
    let left = pos.pieces_left(games_topitop_rules::Budget::STANDARD);
    // Nine lines beside the nine drawing rows.
    let side = [
        format!("Turn: {} ({})", pos.turn(), pos.turn().digit()),
        format!(
            "Forbidden slide: {}",
            pos.forbidden().map_or("none".to_string(), |s| s.to_string())
        ),
        format!("Position: {pos}"),
        String::new(),
        "Pieces left to place:".to_string(),
        format!("  buckets: blue {}, red {}", left[0], left[1]),
        format!("  sand piles: small {}, large {}", left[2], left[3]),
        String::new(),
        prediction.to_string(),
    ];
    let mut out = String::from("\n        +-------+-------+-------+     cells:\n");
    let mut line = 0;
    for row in 0..3 {
        for level in (0..3).rev() {
            let cells: Vec<&str> = (0..3).map(|c| cell_row(board.get(row * 3 + c), level)).collect();
            let numbers = if level == 1 {
                format!("  {} {} {}", row * 3 + 1, row * 3 + 2, row * 3 + 3)
            } else {
                "       ".to_string()
            };
            let info = &side[line];
            out += &format!(
                "        |{}|{}|{}|   {numbers}   {info}\n",
                cells[0], cells[1], cells[2]
            );
            line += 1;
        }
        out += "        +-------+-------+-------+\n";
    }
    out + "\n"
}

/// Prints the board, whose turn it is, the forbidden slide, the pieces left
/// and the core's prediction.
///
/// # Safety
/// `player_name` is what the core's `GetPrediction` accepts: NULL or a
/// NUL-terminated string valid for the call.
#[no_mangle]
pub unsafe extern "C" fn PrintPosition(position: POSITION, player_name: *mut c_char, users_turn: BOOLEAN) {
    guard((), || match core::position_at(position) {
        Some(p) => {
            // SAFETY: our caller's promise for `player_name`.
            let prediction = unsafe { core::prediction(position, player_name, users_turn) };
            core::print(&render(p, &prediction));
        }
        None => core::print("\n(invalid position)\n"),
    });
}

/// Prints the computer's move.
///
/// # Safety
/// `computers_name` is NULL or a NUL-terminated string valid for the call.
#[no_mangle]
pub unsafe extern "C" fn PrintComputersMove(mv: MOVE, computers_name: *mut c_char) {
    guard((), || {
        // SAFETY: our caller's promise for `computers_name`.
        let name = unsafe { core::read_string(computers_name) }.unwrap_or("Computer");
        let text = Move::from_code(i64::from(mv)).map_or_else(|| "?".to_string(), |m| m.to_string());
        core::print(&format!("{name:>8}'s move: {text}\n"));
    });
}

/// Prompts for a move and lets the core read it (undo, abort, help and
/// moves); loops until the core has something to return.
///
/// # Safety
/// `mv` is valid for a write of one MOVE, and `player_name` is NULL or a
/// NUL-terminated string, both valid for the call: what the core's
/// `HandleDefaultTextInput` requires.
#[no_mangle]
pub unsafe extern "C" fn GetAndPrintPlayersMove(
    position: POSITION,
    mv: *mut MOVE,
    player_name: *mut c_char,
) -> USERINPUT {
    guard(raw::Abort, || {
        // SAFETY: our caller's promise for `player_name`.
        let name = unsafe { core::read_string(player_name) }
            .unwrap_or("Player")
            .to_string();
        loop {
            core::print(&format!("{name:>8}'s move [(u)ndo/B5 R5 S5 L5/4-5/None]: "));
            // SAFETY: our caller's promises for `mv` and `player_name`.
            let input = unsafe { core::handle_text_input(position, mv, player_name) };
            if input != raw::Continue {
                return input;
            }
        }
    })
}

/// The option menu: `s` no-move loss, `t` tying rule, `m` misère, `b` back.
#[no_mangle]
pub extern "C" fn GameSpecificMenu() {
    guard((), || loop {
        let n = options::getOption() as u8;
        let on = |bit: u8| if n & bit != 0 { "ON" } else { "OFF" };
        core::print(&format!(
            "\n\t----- Game-specific options for Topitop -----\n\n\
             \tCurrently option {n}.\n\n\
             \ts)\tA player with no move loses instead of passing: {}\n\
             \tt)\tTwo-tower tying rule: {}\n\
             \tm)\tMisere: {}\n\
             \tb)\tBack to the previous menu\n\n\
             Select an option: ",
            on(1),
            on(2),
            on(4)
        ));
        match core::get_char().to_ascii_lowercase() {
            b's' => options::select(n ^ 1),
            b't' => options::select(n ^ 2),
            b'm' => options::select(n ^ 4),
            b'b' => return,
            _ => core::print("\nNot an option; choose s, t, m or b.\n"),
        }
    });
}

/// No debug menu.
#[no_mangle]
pub extern "C" fn DebugMenu() {}

/// Tcl builds pass the option bits in `options[0]`.
///
/// # Safety
/// `options` is NULL or points to at least one int.
#[no_mangle]
pub unsafe extern "C" fn SetTclCGameSpecificOptions(options: *const i32) {
    if !options.is_null() {
        // SAFETY: the caller passes an array of at least one int.
        let n = unsafe { options.read() };
        guard((), || options::select((n & 7) as u8));
    }
}
