//! Property: every position string the parsers accept survives printing and
//! hashing, and so does every child of a valid one.
//!
//! Arbitrary bytes (read as UTF-8, lossily) as a one-line position string:
//! `parse_position_syntax` and `parse_position` never panic and agree (the
//! second accepts what the first accepts and validates); a parsed position
//! prints back to the input (the notation has one spelling per position),
//! and when its pieces fit the
//! standard budget its GamesmanClassic hash unhashes to it. For a valid
//! position, under v1 option 0, v1 option 1 and v0: the legal moves are
//! GamesmanClassic's list, or none at a primitive position; every child of
//! that list (which, like upstream, ignores primitives) fits the budget,
//! has a plausible forbidden slide and prints and hashes back; every child
//! of a legal move also validates and parses back through `parse_position`.
//! (A primitive position's children need not validate: after a win, the
//! winner is to move.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use games_topitop_rules::{
    gchash, parse_position, parse_position_syntax, play_unchecked, Budget, Position, Rules, Ruleset, Variant,
};

const BUDGET: Budget = Budget::STANDARD;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let raw = parse_position_syntax(&text);
    let checked = parse_position(&text, BUDGET);
    let Ok(pos) = raw else {
        assert!(checked.is_err(), "{text:?}: syntax refused, yet parsed");
        return;
    };
    assert_eq!(pos.to_string(), text, "printed form");
    check_round_trips(pos);
    match checked {
        Ok(valid) => {
            assert_eq!(valid, pos, "{text:?}");
            check_children(pos);
        }
        Err(_) => assert!(pos.validate(BUDGET).is_err(), "{text:?}: valid, yet refused"),
    }
});

/// The rulesets whose moves are checked.
fn rules() -> [Rules; 3] {
    let v1 = |n| Rules::new(Ruleset::V1(Variant::new(n).expect("a variant")));
    [v1(0), v1(1), Rules::new(Ruleset::V0)]
}

/// `pos` prints to a string that parses back to it, and hashes to a tier
/// position that unhashes to it when its pieces fit the budget.
fn check_round_trips(pos: Position) {
    let text = pos.to_string();
    assert_eq!(
        parse_position_syntax(&text).ok(),
        Some(pos),
        "{text}: printed form"
    );
    if fits_budget(pos) {
        let (tier, tier_position) = gchash::hash(pos);
        let back = gchash::unhash(tier.number(), tier_position, BUDGET);
        assert_eq!(
            back.ok(),
            Some(pos),
            "{text}: hash {}/{tier_position}",
            tier.number()
        );
    }
}

/// True when the board holds no more pieces of each kind than the budget.
fn fits_budget(pos: Position) -> bool {
    let used = pos.board().pieces_used();
    used.iter().zip(BUDGET.counts()).all(|(&u, max)| u <= max)
}

/// The children of the valid position `pos` under each ruleset.
fn check_children(pos: Position) {
    for rules in rules() {
        let all = rules.gamesman_moves(pos);
        let legal = rules.legal_moves(pos);
        let primitive = rules.primitive(pos).is_some();
        let expected: &[_] = if primitive { &[] } else { &all };
        assert_eq!(&legal[..], expected, "{pos} under {}", rules.ruleset());
        for &m in all.iter() {
            let child = play_unchecked(pos, m);
            assert!(fits_budget(child), "{pos} {m} -> {child}: over the budget");
            assert!(
                child.forbidden_is_plausible(),
                "{pos} {m} -> {child}: forbidden slide"
            );
            check_round_trips(child);
        }
        for &m in legal.iter() {
            let child = rules.play(pos, m).expect("a legal move plays");
            let why = child.validate(BUDGET).err();
            assert!(
                why.is_none(),
                "{pos} {m} -> {child} under {}: {why:?}",
                rules.ruleset()
            );
            assert_eq!(
                parse_position(&child.to_string(), BUDGET).ok(),
                Some(child),
                "{child}"
            );
        }
    }
}
