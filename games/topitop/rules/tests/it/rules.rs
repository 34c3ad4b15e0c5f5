//! Move generation, stacking, the no-undo rule and every variant's primitive.

use games_topitop_rules::{
    parse_position, parse_position_syntax, play_unchecked, Budget, Move, Position, Rules, Ruleset, Value,
    Variant,
};

fn pos(s: &str) -> Position {
    parse_position(s, Budget::STANDARD).unwrap_or_else(|e| panic!("{e}"))
}

fn v1(n: i64) -> Rules {
    Rules::new(Ruleset::V1(Variant::new(n).unwrap()))
}

fn move_strings(rules: Rules, s: &str) -> Vec<String> {
    rules
        .gamesman_moves(pos(s))
        .iter()
        .map(|m| m.to_string())
        .collect()
}

fn has(rules: Rules, s: &str, m: &str) -> bool {
    rules.gamesman_moves(pos(s)).contains(m.parse::<Move>().unwrap())
}

#[test]
fn start_has_27_placements_in_upstream_order() {
    let moves = move_strings(Rules::default(), "1_---------");
    assert_eq!(moves.len(), 27);
    assert_eq!(&moves[..6], ["B1", "S1", "L1", "B2", "S2", "L2"]);
    let red = move_strings(Rules::default(), "2_B--------");
    assert_eq!(
        &red[..3],
        ["R2", "S2", "L2"],
        "Red places red buckets, and cannot move Blue's"
    );
    assert_eq!(red.len(), 24);
}

/// The order derived by hand from upstream's loop: destinations 1..9; on an
/// empty destination its placements, then slides from its neighbours in
/// ascending order; the forbidden 4-5 is left out.
#[test]
fn generation_order_of_a_midgame_position() {
    assert_eq!(
        move_strings(Rules::default(), "1_LS-L-SLLS45"),
        [
            "2-1", "B3", "S3", "2-3", "6-3", "2-4", "B5", "S5", "1-5", "2-5", "6-5", "7-5", "8-5", "9-5",
            "6-8", "9-8"
        ]
    );
}

#[test]
fn stacking_rules() {
    let r = Rules::default();
    // Bucket onto small pile and onto castle; only the mover's own bucket.
    assert!(has(r, "1_BS-------", "1-2"));
    assert_eq!(
        play_unchecked(pos("1_BS-------"), "1-2".parse().unwrap()).to_string(),
        "2_-X-------"
    );
    assert!(!has(r, "2_BS-------", "1-2"), "Red cannot move a blue bucket");
    assert!(has(r, "2_RC-------", "1-2"));
    assert_eq!(
        play_unchecked(pos("2_RC-------"), "1-2".parse().unwrap()).to_string(),
        "1_-Q-------"
    );
    // Small onto large makes a castle; either player may do it.
    assert!(has(r, "1_SL-------", "1-2") && has(r, "2_SL-------", "1-2"));
    assert_eq!(
        play_unchecked(pos("2_SL-------"), "1-2".parse().unwrap()).to_string(),
        "1_-C-------"
    );
    // A crowned small onto a large: only its owner.
    assert!(has(r, "1_XL-------", "1-2") && !has(r, "2_XL-------", "1-2"));
    assert!(has(r, "2_OL-------", "1-2") && !has(r, "1_OL-------", "1-2"));
    assert_eq!(
        play_unchecked(pos("2_OL-------"), "1-2".parse().unwrap()).to_string(),
        "1_-Q-------"
    );
    // What may not stack.
    for (s, m) in [
        ("1_LS-------", "1-2"), // large onto small
        ("1_SS-------", "1-2"), // small onto small
        ("1_CL-------", "1-2"), // castle onto large
        ("1_BL-------", "1-2"), // bucket onto large
        ("1_XS-------", "1-2"), // crowned small onto small
        ("1_SB-------", "1-2"), // anything onto a bucket
        ("1_BX-------", "1-2"),
        ("1_SP-------", "1-2"),
        ("1_LC-------", "1-2"),
        ("1_PL-------", "1-2"),
        ("1_BB-------", "1-2"),
    ] {
        assert!(!has(r, s, m), "{s} {m}");
    }
    // Whole structures slide to empty cells, except the opponent's.
    for s in [
        "1_P--------",
        "1_X--------",
        "1_C--------",
        "1_B--------",
        "2_Q--------",
        "2_O--------",
    ] {
        assert!(has(r, s, "1-2"), "{s}");
    }
    for s in [
        "2_P--------",
        "2_X--------",
        "2_B--------",
        "1_Q--------",
        "1_R--------",
        "1_O--------",
    ] {
        assert!(!has(r, s, "1-2"), "{s}");
    }
}

#[test]
fn placements_only_on_empty_cells_and_while_pieces_last() {
    let r = Rules::default();
    let moves = move_strings(r, "1_BBSSSSLL-");
    assert_eq!(
        moves.iter().filter(|m| m.len() == 2).collect::<Vec<_>>(),
        ["L9"],
        "no buckets or smalls left"
    );
    assert!(!has(r, "1_S--------", "S1"));
    assert!(!has(r, "1_---------", "R1"), "Blue cannot place a red bucket");
}

#[test]
fn no_undo_rule() {
    let r = Rules::default();
    let after = r.play(pos("2_S--------"), "1-2".parse().unwrap()).unwrap();
    assert_eq!(after.to_string(), "1_-S-------21");
    assert!(
        !r.gamesman_moves(after).contains("2-1".parse().unwrap()),
        "the reverse slide is forbidden"
    );
    assert!(r.gamesman_moves(after).contains("2-4".parse().unwrap()));
    let later = r.play(after, "B9".parse().unwrap()).unwrap();
    assert_eq!(later.forbidden(), None, "a placement clears it");
    assert!(r.gamesman_moves(later).contains("2-1".parse().unwrap()));
    // Only neutral slides onto empty cells set it.
    for (s, m) in [
        ("1_B--------", "1-2"),
        ("1_X--------", "1-2"),
        ("1_BS-------", "1-2"),
        ("1_SL-------", "1-2"),
    ] {
        assert_eq!(
            play_unchecked(pos(s), m.parse().unwrap()).forbidden(),
            None,
            "{s} {m}"
        );
    }
    for s in ["1_S--------", "1_L--------", "1_C--------"] {
        assert_eq!(
            play_unchecked(pos(s), "1-5".parse().unwrap())
                .forbidden()
                .map(|f| f.to_string()),
            Some("5-1".into())
        );
    }
    let passed = play_unchecked(pos("1_LS-L-SLLS45"), Move::PASS);
    assert_eq!(
        passed.to_string(),
        "2_LS-L-SLLS",
        "the pass flips the turn and clears the slide"
    );
}

/// A position play reaches in which Blue's only move is the pass.
const STUCK: &str = "1_LOBLRXLCS";

#[test]
fn stuck_position_is_reachable_and_passes_under_variant_0() {
    let r = Rules::default();
    let mut p = r.start();
    for m in "L1 L5 L7 L8 S2 S6 S9 5-4 B3 R5 3-6 5-2 9-8 R5 B3 S9".split(' ') {
        p = r.play(p, m.parse().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(p.to_string(), STUCK);
    assert_eq!(move_strings(r, STUCK), ["None"]);
    assert_eq!(r.primitive(p), None);
    assert_eq!(r.play(p, Move::PASS).unwrap().to_string(), "2_LOBLRXLCS");
}

/// Values under variants 0..=7, one letter each: W, L, T, or `-` for not
/// primitive.
fn values(letters: &str) -> Vec<Option<Value>> {
    letters
        .chars()
        .map(|c| match c {
            'W' => Some(Value::Win),
            'L' => Some(Value::Lose),
            'T' => Some(Value::Tie),
            _ => None,
        })
        .collect()
}

#[test]
fn primitive_in_every_variant() {
    let table = [
        // Blue has two castles, Red to move and no tie condition.
        ("2_PPQ------", "LLLLWWWW"),
        // Red bucket next to a castle: the tying rule ties.
        ("2_PPQRC----", "LLTTWWTT"),
        // Red bucket on a small next to a large: also a tie under bit 1.
        ("2_PPQOL----", "LLTTWWTT"),
        // Red has two castles, Blue to move: the tying rule is one-sided.
        ("1_QQPBC----", "LLLLWWWW"),
        // Only the pass: bit 0 makes it a loss.
        (STUCK, "-L-L-W-W"),
        ("1_---------", "--------"),
        ("2_PQ-------", "--------"),
    ];
    for (s, letters) in table {
        for (n, want) in values(letters).into_iter().enumerate() {
            assert_eq!(v1(n as i64).primitive(pos(s)), want, "{s} variant {n}");
        }
    }
}

#[test]
fn v0_rules() {
    let r = Rules::new(Ruleset::V0);
    assert_eq!(r.primitive(pos(STUCK)), Some(Value::Draw), "stuck is a draw");
    assert!(r.gamesman_moves(pos(STUCK)).is_empty(), "v0 has no pass");
    assert_eq!(r.primitive(pos("2_PPQ------")), Some(Value::Lose));
    assert_eq!(
        r.primitive(pos("2_PPQRC----")),
        Some(Value::Lose),
        "no tying rule"
    );
    // Its win test looks at the mover first (a position play cannot reach).
    assert_eq!(
        r.primitive(parse_position_syntax("1_PPQ------").unwrap()),
        Some(Value::Win)
    );
    assert_eq!(r.primitive(pos("1_---------")), None);
    assert_eq!(
        r.gamesman_moves(pos("1_LS-L-SLLS45")).len(),
        16,
        "same moves as v1"
    );
}

#[test]
fn rulesets_and_variants_parse() {
    assert_eq!(
        "v1/5".parse::<Ruleset>().unwrap(),
        Ruleset::V1(Variant::new(5).unwrap())
    );
    assert_eq!("v0".parse::<Ruleset>().unwrap(), Ruleset::V0);
    assert!("v0/1".parse::<Ruleset>().is_err());
    assert!("v2".parse::<Ruleset>().is_err());
    assert!(Variant::new(8).is_err() && Variant::new(-1).is_err());
    let v = Variant::new(6).unwrap();
    assert!(!v.no_move_loses() && v.tying_rule() && v.misere());
    assert_eq!(Variant::all().count(), 8);
}

#[test]
fn reduced_budget_limits_placements() {
    let small = Budget::new(1, 1, 2, 2).unwrap();
    let r = Rules::with_budget(Ruleset::V1(Variant::DEFAULT), small);
    let p = parse_position("2_B-S------", small).unwrap();
    let moves: Vec<String> = r.gamesman_moves(p).iter().map(|m| m.to_string()).collect();
    assert!(moves.contains(&"R2".to_string()) && moves.contains(&"S2".to_string()));
    let p = parse_position("1_B-SS-----", small).unwrap();
    assert!(!r
        .gamesman_moves(p)
        .iter()
        .any(|m| matches!(m.to_string().as_bytes()[0], b'B' | b'S')));
    assert!(parse_position("1_BB-------", small).is_err());
    assert_eq!("1/1/2/2".parse::<Budget>().unwrap(), small);
    assert!("1/1/2".parse::<Budget>().is_err() && "1/1/2/10".parse::<Budget>().is_err());
}
