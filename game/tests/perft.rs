//! Perft from the start, checked against counts reasoned out by hand.

use topitop_game::perft::{perft, PerftLevel};
use topitop_game::{Rules, Ruleset, Variant};

fn counts(rules: Rules, depth: u32) -> Vec<(u64, u64)> {
    perft(rules, rules.start(), depth)
        .iter()
        .map(|l: &PerftLevel| (l.paths, l.positions))
        .collect()
}

/// Depth 1: 9 cells × 3 pieces (B, S, L) = 27.
/// Depth 2: after each of the 27, Red has 8 empty cells × 3 pieces = 24
/// placements, plus, when Blue placed S or L, a slide of it to each of its
/// neighbours; the neighbour counts of the 9 cells add up to 40, so
/// 27·24 + 2·40 = 728 paths. Distinct positions: two-piece boards with one
/// Blue-placed and one Red-placed piece: 6 type pairs with different kinds
/// ({B,R} {B,S} {B,L} {S,R} {S,L} {L,R}) × 9·8 cells = 432, plus {S,S} and
/// {L,L} at C(9,2) = 36 each, makes 504; plus one S or L slid along one of
/// the 40 ordered slides, with its reverse forbidden: 80. 504 + 80 = 584.
#[test]
fn depths_one_and_two_by_hand() {
    assert_eq!(counts(Rules::default(), 2), [(27, 27), (728, 584)]);
}

#[test]
fn depths_three_and_four() {
    let want = [(27, 27), (728, 584), (20_168, 7_150), (537_608, 62_342)];
    assert_eq!(counts(Rules::default(), 4), want);
    // No primitive and no stuck position occurs this early, so these agree.
    for rules in [
        Rules::new(Ruleset::V0),
        Rules::new(Ruleset::V1(Variant::new(1).unwrap())),
        Rules::new(Ruleset::V1(Variant::new(4).unwrap())),
    ] {
        assert_eq!(counts(rules, 4), want, "{}", rules.ruleset());
    }
}
