//! Property: the module's C string functions agree with the rules crate on
//! any C string.
//!
//! Arbitrary bytes, cut at the first NUL as C sees them, go through the C
//! harness to StringToPosition, ValidTextInput and ConvertTextInputToMove;
//! the first 4 bytes are also a move code for MoveToString. None crashes;
//! StringToPosition accepts exactly what `parse_position` accepts (UTF-8
//! text only) and PositionToString of its position gives the rules crate's
//! canonical string; ValidTextInput and ConvertTextInputToMove accept
//! exactly the move strings, the latter with the move's code, and
//! MoveToString of that code prints a string that parses as the same move;
//! MoveToString of any code prints the move `Move::from_code` names, or
//! nothing.
#![no_main]

use std::ffi::{CStr, CString};

use libfuzzer_sys::fuzz_target;
use topitop_ffi_harness::Harness;
use games_topitop_rules::{parse_position, Budget, Move};

fuzz_target!(|data: &[u8]| {
    let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let input = CString::new(&data[..end]).expect("cut at the first NUL");
    // The module reads only UTF-8 text.
    let text = std::str::from_utf8(&data[..end]).ok();
    let mut code = [0u8; 4];
    let n = data.len().min(4);
    code[..n].copy_from_slice(&data[..n]);
    let mut harness = Harness::start(0, false);
    check_position(&mut harness, &input, text);
    check_text_input(&mut harness, &input, text);
    check_move_code(&mut harness, i32::from_le_bytes(code));
});

/// StringToPosition, then PositionToString, against `parse_position`.
fn check_position(harness: &mut Harness, input: &CStr, text: Option<&str>) {
    let expected = text.and_then(|s| parse_position(s, Budget::STANDARD).ok());
    let got = harness.string_to_position(input);
    assert_eq!(
        got,
        expected.map(|p| p.to_string()),
        "StringToPosition({input:?})"
    );
}

/// ValidTextInput and ConvertTextInputToMove against `Move`'s parser, and
/// MoveToString of the code they give.
fn check_text_input(harness: &mut Harness, input: &CStr, text: Option<&str>) {
    let expected = text.and_then(|s| s.parse::<Move>().ok());
    let (valid, code) = harness.text_input(input);
    assert_eq!(valid, expected.is_some(), "ValidTextInput({input:?})");
    let expected_code = expected.map_or(-1, |m| i32::from(m.code()));
    assert_eq!(code, expected_code, "ConvertTextInputToMove({input:?})");
    if code != -1 {
        let printed = harness.move_to_string(code);
        assert_eq!(
            printed.parse::<Move>().ok(),
            expected,
            "MoveToString({code}) = {printed:?}"
        );
    }
}

/// MoveToString of any code against `Move::from_code`.
fn check_move_code(harness: &mut Harness, code: i32) {
    let expected = Move::from_code(i64::from(code)).map_or_else(String::new, |m| m.to_string());
    assert_eq!(harness.move_to_string(code), expected, "MoveToString({code})");
}
