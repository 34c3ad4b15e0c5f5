//! Property: move strings and move codes name the same 77 moves, both ways.
//!
//! Arbitrary bytes (read as UTF-8, lossily) as a move string, and integers
//! taken from the same bytes as move codes, never panic the parsers. A
//! parsed move prints to its canonical string (the input up to ASCII case),
//! which parses back to it, and its code maps back to it through
//! `Move::from_code`. `Move::from_code` accepts exactly the codes of the
//! placements, slides between neighbours and the pass, and a move it gives
//! has that code and prints to a string that parses back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use games_topitop_rules::geometry::adjacent;
use games_topitop_rules::{Move, Piece};

fuzz_target!(|data: &[u8]| {
    check_string(&String::from_utf8_lossy(data));
    let mut bytes = [0u8; 8];
    let n = data.len().min(8);
    bytes[..n].copy_from_slice(&data[..n]);
    // The whole i64 range, the C ABI's `int` MOVE, and the u16 codes densely.
    check_code(i64::from_le_bytes(bytes));
    check_code(i64::from(i32::from_le_bytes([
        bytes[0], bytes[1], bytes[2], bytes[3],
    ])));
    check_code(i64::from(u16::from_le_bytes([bytes[0], bytes[1]])));
});

/// A parsed move string prints canonically, parses back and keeps its code.
fn check_string(s: &str) {
    let Ok(m) = s.parse::<Move>() else {
        return;
    };
    let text = m.to_string();
    assert!(text.eq_ignore_ascii_case(s), "{s:?} parsed as {text}");
    assert_eq!(text.parse::<Move>().ok(), Some(m), "{text}");
    assert_eq!(
        Move::from_code(i64::from(m.code())),
        Some(m),
        "{text}: code {}",
        m.code()
    );
}

/// `Move::from_code` accepts exactly the codes of real moves, faithfully.
fn check_code(code: i64) {
    let m = Move::from_code(code);
    assert_eq!(m.is_some(), is_move_code(code), "code {code}");
    if let Some(m) = m {
        assert_eq!(i64::from(m.code()), code);
        assert_eq!(m.to_string().parse::<Move>().ok(), Some(m), "code {code}: {m}");
    }
}

/// True for the code of a placement, a slide between neighbours or the
/// pass, built from the constructors rather than the decoder.
fn is_move_code(code: i64) -> bool {
    let pieces = [Piece::BlueBucket, Piece::RedBucket, Piece::Small, Piece::Large];
    let places = pieces
        .into_iter()
        .flat_map(|p| (0..9).map(move |c| Move::place(p, c)));
    let pairs = (0..9).flat_map(|a| (0..9).map(move |b| (a, b)));
    let slides = pairs
        .filter(|&(a, b)| adjacent(a, b))
        .map(|(a, b)| Move::slide(a, b));
    let mut all = places.chain(slides).chain([Move::PASS]);
    all.any(|m| i64::from(m.code()) == code)
}
