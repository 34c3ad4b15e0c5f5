//! Move codes, move strings, position strings and AutoGUI strings.

use games_topitop_rules::sample::{playout_positions, Rng};
use games_topitop_rules::{
    autogui_move, autogui_position, parse_position, Budget, Move, MoveKind, ParseMoveError, Piece, Position,
    Rules,
};

#[test]
fn move_codes_match_upstream_examples() {
    for (s, code) in [
        ("B1", 0),
        ("S1", 512),
        ("L1", 768),
        ("B9", 136),
        ("R5", 4420),
        ("5-9", 72),
        ("2-1", 16),
        ("None", 1023),
    ] {
        let m: Move = s.parse().unwrap();
        assert_eq!(m.code(), code, "{s}");
        assert_eq!(m.to_string(), s);
        assert_eq!(Move::from_code(code as i64), Some(m));
    }
    assert_eq!(Move::place(Piece::RedBucket, 4).code(), 4420);
    assert_eq!(
        "r5".parse::<Move>().unwrap().code(),
        4420,
        "typed red placement gets the p2Turn bit"
    );
    assert_eq!("none".parse::<Move>().unwrap(), Move::PASS);
}

#[test]
fn from_code_rejects_codes_the_generator_never_makes() {
    for code in [324, 68 | 1 << 12, 0x28, 0x402, 1 << 13, -1, 1024, 0x99] {
        assert_eq!(Move::from_code(code), None, "code {code:#x}");
    }
}

#[test]
fn bad_move_strings_are_errors() {
    for s in [
        "", "B", "B0", "B10", "X5", "b", "5", "5-", "-5", "0-1", "1-0", "None ", "pass", "1--2", "B 5",
    ] {
        assert!(
            matches!(s.parse::<Move>(), Err(ParseMoveError::Syntax(_))),
            "{s:?}"
        );
    }
    for s in ["5-5", "1-3", "1-9", "3-7"] {
        assert!(
            matches!(s.parse::<Move>(), Err(ParseMoveError::NotAdjacent(_))),
            "{s:?}"
        );
    }
}

#[test]
fn every_generated_move_round_trips_through_string_and_code() {
    let rules = Rules::default();
    for pos in playout_positions(rules, 5_000, 50, &mut Rng::new(11)) {
        for &m in rules.gamesman_moves(pos).iter() {
            assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
            assert_eq!(Move::from_code(m.code() as i64), Some(m));
            if let MoveKind::Place { piece, .. } = m.kind() {
                assert_eq!(m.code() >> 12 == 1, piece == Piece::RedBucket);
            }
        }
    }
}

#[test]
fn position_strings_round_trip() {
    let rules = Rules::default();
    for pos in playout_positions(rules, 20_000, 40, &mut Rng::new(5)) {
        let s = pos.to_string();
        assert!(s.len() == 11 || s.len() == 13);
        assert_eq!(parse_position(&s, Budget::STANDARD).unwrap(), pos, "{s}");
        assert_eq!(Position::from_bits(pos.bits()), Some(pos));
    }
}

#[test]
fn autogui_position_matches_upstream_example() {
    let p = parse_position("1_LOBLRXLCS", Budget::STANDARD).unwrap();
    assert_eq!(
        autogui_position(p),
        "1_-----L-R--S---B--------L--R----B--S------L---S-L----S---"
    );
    let p = parse_position("1_LS-L-SLLS45", Budget::STANDARD).unwrap();
    let a = autogui_position(p);
    assert_eq!(a.len(), 58);
    assert!(a.ends_with("45"));
    let q = parse_position("2_PX--L----", Budget::STANDARD).unwrap();
    assert_eq!(&autogui_position(q)[..14], "2_B--S-L-B--S-");
    assert_eq!(autogui_position(Position::START), format!("1_{}", "-".repeat(56)));
}

#[test]
fn autogui_moves_match_upstream_examples() {
    for (s, a) in [
        ("5-9", "M_86_87_z"),
        ("9-5", "M_87_86_z"),
        ("2-1", "M_57_56_z"),
        ("1-2", "M_56_57_z"),
        ("2-4", "M_64_65_z"),
        ("8-9", "M_94_95_z"),
        ("B1", "A_t_96_y"),
        ("R5", "A_u_100_y"),
        ("S1", "A_v_105_w"),
        ("L9", "A_w_122_x"),
        ("None", "A_P_123_v"),
    ] {
        assert_eq!(autogui_move(s.parse().unwrap()), a, "{s}");
    }
}
