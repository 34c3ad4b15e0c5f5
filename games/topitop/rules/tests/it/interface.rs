//! Topitop behind the game interface agrees with Topitop's own engine:
//! perft through [`Game`] alone, strings both ways, legality.

use std::collections::HashSet;

use games_topitop_rules::perft::perft;
use games_topitop_rules::{Budget, Rules, Ruleset, Variant};
use topitop_game_api::{Game, Presentation};

/// Move sequences and distinct positions at each depth, through the
/// interface alone.
fn interface_perft<G: Game>(game: &G, depth: u32) -> Vec<(u64, u64)> {
    let mut level: Vec<(G::Position, u64)> = vec![(game.start(), 1)];
    let mut out = Vec::new();
    for _ in 0..depth {
        let mut next: std::collections::HashMap<G::Position, u64> = std::collections::HashMap::new();
        for (pos, paths) in &level {
            if game.primitive(pos).is_some() {
                continue;
            }
            for mv in game.moves(pos) {
                *next.entry(game.play(pos, mv)).or_default() += paths;
            }
        }
        out.push((next.values().sum(), next.len() as u64));
        level = next.into_iter().collect();
    }
    out
}

#[test]
fn perft_through_the_interface_is_topitops() {
    for ruleset in [
        Ruleset::V1(Variant::DEFAULT),
        Ruleset::V1(Variant::new(7).unwrap()),
        Ruleset::V0,
    ] {
        let rules = Rules::with_budget(ruleset, "2/1/2/2".parse::<Budget>().unwrap());
        let ours = interface_perft(&rules, 5);
        let theirs: Vec<(u64, u64)> = perft(rules, rules.start(), 5)
            .iter()
            .map(|l| (l.paths, l.positions))
            .collect();
        assert_eq!(ours, theirs, "{ruleset}");
    }
}

#[test]
fn strings_round_trip_and_illegal_input_is_refused() {
    let rules = Rules::new(Ruleset::V1(Variant::DEFAULT));
    assert_eq!(Game::variant(&rules), "v1_0");
    let small = Rules::with_budget(Ruleset::V1(Variant::new(4).unwrap()), "1/1/2/2".parse().unwrap());
    assert_eq!(Game::variant(&small), "v1_4_1-1-2-2");
    let start = Game::start(&rules);
    assert_eq!(rules.format_position(&start), "1_---------");
    let mut seen = HashSet::new();
    for mv in Game::moves(&rules, &start) {
        let text = rules.format_move(mv);
        assert_eq!(rules.parse_move(&start, &text), Ok(mv));
        let child = Game::play(&rules, &start, mv);
        let back = rules.parse_position(&rules.format_position(&child)).unwrap();
        assert_eq!(back, child);
        assert_eq!(rules.player_to_move(&child), Some(1), "Red moves second");
        seen.insert(rules.autogui_move(&start, mv).unwrap());
    }
    assert_eq!(seen.len(), 27, "27 distinct buttons at the start");
    assert!(
        rules.parse_move(&start, "1-2").is_err(),
        "no slide on an empty board"
    );
    assert!(rules.parse_position("1_ZZZ").is_err());
    assert!(
        small.parse_position("1_RR-------").is_err(),
        "two red buckets on a budget of one"
    );
}

#[test]
fn every_ruleset_keeps_the_game_interfaces_contract() {
    use topitop_game_api::conformance::{check_game, Settings};
    let budgets = ["2/2/4/4", "2/1/2/2", "1/1/1/1"];
    for ruleset in Variant::all().map(Ruleset::V1).chain([Ruleset::V0]) {
        for budget in budgets {
            let rules = Rules::with_budget(ruleset, budget.parse::<Budget>().unwrap());
            let settings = Settings {
                games: 40,
                seed: u64::from(ruleset.variant().number()),
                ..Settings::default()
            };
            let report = check_game(&rules, settings);
            assert!(report.passed(), "{} {budget}:\n{report}", ruleset.name());
            assert!(report.checks["symmetry"].made > 100, "{report}");
        }
    }
}

#[test]
fn options_and_variant_strings_name_the_rules_both_ways() {
    use topitop_game_api::{Options, Registered};
    for budget in [Budget::STANDARD, "1/1/2/2".parse().unwrap()] {
        for ruleset in Variant::all().map(Ruleset::V1).chain([Ruleset::V0]) {
            let rules = Rules::with_budget(ruleset, budget);
            assert_eq!(Rules::from_variant(&Game::variant(&rules)), Ok(rules));
        }
    }
    let options = Options::new()
        .with("rules", "v1")
        .with("variant", "5")
        .with("budget", "1/1/2/2");
    let rules = Rules::from_options(&options).unwrap();
    assert_eq!(Game::variant(&rules), "v1_5_1-1-2-2");
    assert_eq!(
        Rules::from_options(&Options::new()).unwrap(),
        Rules::new(Ruleset::V1(Variant::DEFAULT))
    );
    // One spelling a variant: the standard budget is never written.
    for bad in [
        "v1_0_2-2-4-4",
        "v1",
        "v2_0",
        "v0_3",
        "v1_8",
        "v1_0_1-1",
        "topitop_v1_0",
        "",
    ] {
        assert!(Rules::from_variant(bad).is_err(), "{bad}");
    }
    let e = Rules::from_options(&Options::new().with("variant", "misere")).unwrap_err();
    assert!(e.contains("numbers 0 to 7"), "{e}");
    assert!(Rules::from_options(&Options::new().with("rules", "v0").with("variant", "1")).is_err());
    assert!(Rules::from_options(&Options::new().with("budget", "9/9")).is_err());
}
