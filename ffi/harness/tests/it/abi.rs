//! The module driven through its C ABI by the C harness, compared with the
//! Rust engine's own answers.

use games_topitop_rules::sample::{playout_positions, Rng};
use games_topitop_rules::{
    autogui_move, autogui_position, gchash, parse_position, play_unchecked, symmetry, Budget, Position,
    Rules, Ruleset, Tier, Value, Variant,
};
use topitop_ffi_harness::Harness;

const STD: Budget = Budget::STANDARD;

fn rules(option: i32) -> Rules {
    Rules::new(Ruleset::V1(Variant::new(i64::from(option)).unwrap()))
}

/// The line the harness builds, from the engine directly.
fn native(rules: Rules, p: Position) -> String {
    let value = match rules.primitive(p) {
        None => 'U',
        Some(Value::Win) => 'W',
        Some(Value::Lose) => 'L',
        Some(Value::Tie | Value::Draw) => 'T',
    };
    let mut s = format!(
        "{p}|{}|{value}|{}|{}|",
        i32::from(gchash::gc_is_legal(p)),
        symmetry::canonical(p),
        autogui_position(p)
    );
    // GenerateMoves prepends, so its list runs in reverse generation order.
    for &m in rules.gamesman_moves(p).iter().rev() {
        let child = match rules.primitive(p) {
            None => play_unchecked(p, m).to_string(),
            Some(_) => "-".to_string(),
        };
        s += &format!("{}:{m}:{}>{child} ", m.code(), autogui_move(m));
    }
    s
}

fn walk_tiers(option: i32, full_up_to: u64, samples: u64, seed: u64) -> u64 {
    let mut h = Harness::start(option, false);
    let r = rules(option);
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for tier in Tier::reachable(STD) {
        let size = tier.size();
        let tps: Vec<u64> = if size <= full_up_to {
            (0..size).collect()
        } else {
            let mut v: Vec<u64> = (0..samples).map(|_| rng.below(size)).collect();
            v.extend([0, size - 1]);
            v
        };
        for tp in tps {
            let p = gchash::unhash(tier.number(), tp, STD).unwrap();
            assert_eq!(
                h.describe_tier_position(tier.number(), tp),
                native(r, p),
                "option {option} tier {:#x} tp {tp}",
                tier.number()
            );
            checked += 1;
        }
    }
    assert_eq!(h.live_nodes(), 0, "every list node was freed");
    checked
}

#[test]
fn option_0_over_every_tier() {
    let n = walk_tiers(0, 4_000, 40, 1);
    assert!(n > 100_000, "{n}");
}

#[test]
fn options_1_to_7_over_every_tier() {
    for option in 1..8 {
        let n = walk_tiers(option, 600, 8, option as u64);
        assert!(n > 20_000, "{n}");
    }
}

#[test]
fn tier_hooks_match_the_engine() {
    let mut h = Harness::start(0, false);
    for tier in Tier::reachable(STD) {
        let kids: String = tier
            .children(STD)
            .iter()
            .rev()
            .map(|c| format!("{} ", c.number()))
            .collect();
        assert_eq!(
            h.describe_tier(tier.number()),
            format!("{}|{tier}|{kids}", tier.size())
        );
    }
    for bad in [0x3u64, 0x9999, 1 << 40, u64::MAX] {
        let d = h.describe_tier(bad);
        assert!(
            d.starts_with("0|tier ") && d.ends_with("is not a tier of this game|"),
            "{d}"
        );
    }
    assert_eq!(h.live_nodes(), 0);
}

#[test]
fn string_to_position_as_interact_does() {
    let mut h = Harness::start(0, true);
    assert!(
        !h.load_tierdb_array(),
        "--interact does not load the tier DB array"
    );
    let r = rules(0);
    for p in playout_positions(r, 3_000, 40, &mut Rng::new(77)) {
        assert_eq!(h.describe_string(&p.to_string()), Some(native(r, p)), "{p}");
    }
    for bad in [
        "",
        "1_",
        "1_---------5",
        "3_---------",
        "1_--Z------",
        "1_BBB------",
        "1_PPQQ-----",
        "1_LS-L-SLLS54",
        "2_B--------12",
    ] {
        assert_eq!(h.describe_string(bad), None, "{bad:?}");
    }
}

#[test]
fn invalid_input_gets_gamesman_conventions() {
    let mut h = Harness::start(0, false);
    assert_eq!(h.bad_inputs(), 0, "bit mask of wrong answers");
}

#[test]
fn globals_and_hooks_after_initialize() {
    let mut h = Harness::start(0, false);
    assert!(h.load_tierdb_array());
    assert_eq!(
        h.globals(),
        format!("Topitop|topitop|1|1|0|1|0|{}|1|1|0|0|8", u64::MAX)
    );
    drop(h);
    let mut h = Harness::start(2, false);
    assert!(
        h.globals().starts_with("Topitop|topitop|1|1|1|"),
        "the tying rule makes ties possible"
    );
}

#[test]
fn option_menu_toggles_bits() {
    let mut h = Harness::start(0, false);
    assert_eq!(h.menu("s t b"), 3);
    assert_eq!(h.menu("s x b"), 2, "an unknown key changes nothing");
    assert_eq!(h.menu("m b"), 6);
    assert_eq!(h.menu("t m b"), 0);
}

#[test]
fn text_play_with_typed_moves() {
    let mut h = Harness::start(0, false);
    let dir = std::env::temp_dir().join(format!("topitop-harness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("play.txt");
    // A syntax error, an illegal move, then the line that reaches the stuck
    // position, typed red placements (R5) included, and the pass.
    let script = "L1 banana 1-3 L5 L7 L8 S2 S6 S9 5-4 B3 r5 3-6 5-2 9-8 R5 B3 S9 None";
    let (plies, last) = h.play(script, &out);
    let text = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let mut p = Position::START;
    let r = rules(0);
    for m in "L1 L5 L7 L8 S2 S6 S9 5-4 B3 R5 3-6 5-2 9-8 R5 B3 S9 None".split(' ') {
        p = r.play(p, m.parse().unwrap()).unwrap();
    }
    assert_eq!(plies, 17);
    assert_eq!(last, p.to_string());
    assert_eq!(last, "2_LOBLRXLCS");
    assert!(text.contains("Illegal move syntax: banana"), "{text}");
    assert!(text.contains("Illegal move syntax: 1-3"), "{text}");
    assert!(
        text.contains("     Bob's move: R5"),
        "typed R5 is accepted: {text}"
    );
    assert!(text.contains("   Alice's move: None"), "{text}");
    assert!(text.contains("Forbidden slide: 4-5"), "{text}");
    assert!(text.contains("Position: 1_LOBLRXLCS"), "{text}");
    assert!(parse_position(&last, STD).is_ok());
}
