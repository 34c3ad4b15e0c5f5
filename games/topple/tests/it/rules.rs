//! The worked examples of docs/topple-rules.md, one test each (the rule's
//! number first), checked through the public interface.

use games_topple::{transition, Color, Move, Phase, Position, Topple};
use topitop_game_api::{Game, Options, Presentation, Registered, Value};

fn game(variant: &str) -> Topple {
    <Topple as Registered>::from_variant(variant).unwrap()
}

fn pos(g: &Topple, text: &str) -> Position {
    g.parse_position(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays `mv` in `before`, checking the move's invariants, and returns
/// the child's string.
fn after(g: &Topple, before: &str, mv: &str) -> String {
    let p = pos(g, before);
    let m = Game::parse_move(g, &p, mv).unwrap_or_else(|e| panic!("{e}"));
    let child = Game::play(g, &p, m);
    transition(g, &p, m, &child).unwrap();
    g.format_position(&child)
}

fn move_strings(g: &Topple, text: &str) -> Vec<String> {
    let p = pos(g, text);
    Game::moves(g, &p).into_iter().map(|m| g.format_move(m)).collect()
}

#[test]
fn rule1_variants_name_board_and_supply() {
    let g = <Topple as Registered>::from_options(&Options::new().with("board", "3x3").with("variant", "s8"))
        .unwrap();
    assert_eq!(Game::variant(&g), "3x3-s8");
    assert_eq!(game("3x3-s8"), g);
    let default = <Topple as Registered>::from_options(&Options::new()).unwrap();
    assert_eq!(Game::variant(&default), "8x8-s64");
    assert_eq!(
        Game::variant(&Topple::from_options(Some("3x4"), None).unwrap()),
        "3x4-s12"
    );
    for bad in [
        "3x3", "3x3-s1", "3x3-s08", "3x3-8", "9x9-s8", "3x3-s256", "3X3-s8",
    ] {
        assert!(<Topple as Registered>::from_variant(bad).is_err(), "{bad}");
    }
    assert!(
        <Topple as Registered>::from_options(&Options::new().with("board", "2x2").with("variant", "s2"))
            .is_ok()
    );
    assert_eq!(g.player_names(), ["Red", "Blue"]);
}

#[test]
fn rule2_first_moves_place_a_pawn_anywhere_empty() {
    let g = game("3x3-s9");
    let start = Game::start(&g);
    assert_eq!(g.format_position(&start), ".../.../... r s9 r8 b8");
    assert_eq!(Game::moves(&g, &start).len(), 9);
    let one = after(&g, ".../.../... r s9 r8 b8", "b2");
    assert_eq!(one, ".../.1r./... b s8 r7 b8");
    // Blue is not lost for having no pawn yet; b2 holds Red's pawn.
    assert_eq!(Game::primitive(&g, &pos(&g, &one)), None);
    assert_eq!(
        move_strings(&g, &one),
        ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]
    );
    let two = after(&g, &one, "a1");
    assert_eq!(two, ".../.1r./1b.. r s7 r7 b7");
    assert_eq!(pos(&g, &two).phase(), Phase::Play);
}

/// Rule 3 and 4's board: Red's pawn on b2, two high.
const REACH: &str = "...../...../42b3../.2r2../1.... r s10 r7 b7";

#[test]
fn rule3_steps_go_one_king_step_to_a_stack_at_most_one_off() {
    let g = game("5x5-s25");
    let moves = move_strings(&g, REACH);
    let steps: Vec<&String> = moves.iter().filter(|m| m.contains('-')).collect();
    // a1 is one lower, c2 as high, c3 one higher; a3 (4) is two higher,
    // a2 b1 c1 are empty and b3 has a pawn.
    assert_eq!(steps, ["b2-a1", "b2-c2", "b2-c3"]);
}

#[test]
fn rule4_placements_reach_two_king_steps_and_never_a_pawn() {
    let g = game("5x5-s25");
    let moves = move_strings(&g, REACH);
    for yes in ["a1", "b1", "d4", "d1", "a4", "c2", "a3>n", "c3>sw"] {
        assert!(moves.iter().any(|m| m == yes), "{yes}");
    }
    // e1 is three steps away; b2 and b3 hold pawns; a3 and c3 topple.
    for no in ["e1", "e5", "b2", "b3", "a3", "c3"] {
        assert!(!moves.iter().any(|m| m == no), "{no}");
    }
    // 16 cells in reach, 2 with pawns; 2 of the 14 topple 8 ways.
    assert_eq!(moves.len(), 12 + 16 + 3);
    // An empty supply leaves the steps only.
    let dry = move_strings(&g, "...../...../42b3../.2r2../1.... r s0 r7 b7");
    assert_eq!(dry, ["b2-a1", "b2-c2", "b2-c3"]);
}

#[test]
fn rule5_a_third_piece_brings_a_pawn_if_the_reserve_has_one() {
    let g = game("3x3-s9");
    assert_eq!(
        after(&g, "..1b/.2./1r.. r s5 r7 b7", "b2"),
        "..1b/.3r./1r.. b s4 r6 b7"
    );
    // With an empty reserve the stack grows and nothing else happens.
    let g = game("3x3-s20");
    assert_eq!(
        after(&g, "..1b/.2./1r.. r s11 r0 b7", "b2"),
        "..1b/.3./1r.. b s10 r0 b7"
    );
}

#[test]
fn rule6_a_topple_spreads_all_but_one_piece_and_crushes() {
    let g = game("5x5-s25");
    let before = "....1b/...../..33b./1r..../..... r s15 r7 b6";
    // East: d3 and e3 take one each (d3 grows to 4 and does not topple, its
    // pawn crushed); the third falls past the edge.
    assert_eq!(
        after(&g, before, "c3>e"),
        "....1b/...../..141/1r..../..... b s14 r7 b6"
    );
    // North: c4 and c5, one past the edge; nothing crushed.
    assert_eq!(
        after(&g, before, "c3>n"),
        "..1.1b/..1../..13b./1r..../..... b s14 r7 b6"
    );
    let p = pos(&g, before);
    let (_, fx) = g.play_traced(&p, Game::parse_move(&g, &p, "c3>e").unwrap());
    assert_eq!((fx.off_board, fx.crushed), (1, [0, 1]));
    // A bare `c3` is no move: a stack of 3 topples.
    assert!(Game::parse_move(&g, &p, "c3")
        .unwrap_err()
        .message()
        .contains("topples"));
}

#[test]
fn rule6_a_topple_off_the_edge_loses_every_piece() {
    let g = game("3x3-s9");
    let before = "..1b/.../3.1r r s4 r7 b7";
    assert_eq!(after(&g, before, "a1>sw"), "..1b/.../1.1r b s3 r7 b7");
}

#[test]
fn rule7_a_pawn_one_higher_takes() {
    let g = game("3x3-s9");
    let child = after(&g, "..1b/.2./2r.. r s4 r7 b7", "a1-b2");
    assert_eq!(child, "..1r/.2./2.. b s4 r7 b7");
    // Blue has no pawn left: Blue, to move, has lost.
    assert_eq!(Game::primitive(&g, &pos(&g, &child)), Some(Value::Lose));
}

#[test]
fn rule7_the_inverse_moving_into_a_take() {
    let g = game("3x3-s9");
    assert_eq!(
        after(&g, "..1b/.1./2r.. b s4 r7 b7", "c3-b2"),
        "..1/.1r./2.. r s4 r7 b7"
    );
}

#[test]
fn rule7_takes_repeat_along_a_path() {
    let g = game("3x3-s20");
    let before = "..1b/4r../32b1b r s9 r7 b5";
    assert_eq!(after(&g, before, "a2-a1"), "..1b/4../321r b s9 r7 b5");
    let p = pos(&g, before);
    let (_, fx) = g.play_traced(&p, Game::parse_move(&g, &p, "a2-a1").unwrap());
    assert_eq!((fx.take_rounds, fx.taken), (2, [0, 2]));
}

#[test]
fn rule7_a_chain_is_a_lock() {
    let g = game("3x3-s20");
    // a1 (3) could take b1 (2), which could take c1 (1): both dormant.
    let p = pos(&g, ".../.../3r2b1r b s14 r6 b7");
    assert_eq!(g.take_edges(&p).len(), 2);
    assert!(g.unlocked_takes(&p).is_empty());
}

#[test]
fn rule7_two_takers_lock_until_one_steps_away() {
    let g = game("4x4-s16");
    // a1 and c1 (2) could both take b1 (1): locked.
    let before = "..../..../...2/2r1b2r. r s9 r6 b7";
    let p = pos(&g, before);
    assert_eq!(g.take_edges(&p).len(), 2);
    assert!(g.unlocked_takes(&p).is_empty());
    // c1 steps to d2, out of reach: a1 takes b1 at once.
    assert_eq!(after(&g, before, "c1-d2"), "..../..../...2r/21r2. b s9 r6 b7");
}

#[test]
fn rule8_a_line_of_three_3_stacks_is_reset() {
    let g = game("3x3-s20");
    // c1 becomes 3 (with a new pawn): a1 b1 c1 leave, pawn and all.
    let before = "..1b/.1r./332 r s10 r7 b7";
    assert_eq!(after(&g, before, "c1"), "..1b/.1r./... b s9 r6 b7");
    let p = pos(&g, before);
    let (_, fx) = g.play_traced(&p, Game::parse_move(&g, &p, "c1").unwrap());
    assert_eq!((fx.reset_pieces, fx.entered, fx.reset_pawns), (9, [1, 0], [1, 0]));
    // A line standing after a move is no position of play.
    assert!(g
        .parse_position("..1b/.1r./333 b s9 r6 b7")
        .unwrap_err()
        .message()
        .contains("reset"));
}

#[test]
fn rule8_a_longer_line_goes_whole() {
    let g = game("4x4-s16");
    assert_eq!(
        after(&g, "...1b/..../.1r../3323 r s3 r7 b7", "c1"),
        "...1b/..../.1r../.... b s2 r6 b7"
    );
}

#[test]
fn rule9_the_last_pawns_crushed_together_is_a_tie() {
    let g = game("3x3-s9");
    let child = after(&g, "..1b/.1r./3.. r s4 r7 b7", "a1>ne");
    assert_eq!(child, "..2/.2./1.. b s3 r7 b7");
    assert_eq!(Game::primitive(&g, &pos(&g, &child)), Some(Value::Tie));
    assert!(Game::moves(&g, &pos(&g, &child)).is_empty());
}

#[test]
fn rule9_a_player_who_cannot_move_loses() {
    let g = game("3x3-s5");
    for turn in ["r", "b"] {
        let p = pos(&g, &format!("..1b/.3./1r.. {turn} s0 r7 b7"));
        assert!(Game::moves(&g, &p).is_empty());
        assert_eq!(Game::primitive(&g, &p), Some(Value::Lose));
    }
}

#[test]
fn checks_refuse_impossible_positions_with_a_reason() {
    let g = game("3x3-s9");
    for (text, why) in [
        ("..1b/.2r./... r s6 r7 b7", "take"),
        ("..1b/.../333 r s0 r7 b7", "were placed"),
        (".../.../... b s9 r8 b8", "Red moves first"),
        ("..1b/.../1r.. r s10 r7 b7", "supply"),
        ("..1b/.../1r.. r s7 r0 b7", "pawns were made"),
        (".../.../1b.. r s8 r8 b7", "nothing can have been played"),
        (".../.../1r1r. r s7 r7 b7", "more than 8"),
        ("..1b/.../1r.. r s7 r7", "has 5"),
        ("..1b/.../1r.r r s7 r7 b7", "empty cell"),
    ] {
        let err = g.parse_position(text).unwrap_err().to_string();
        let any = why.split('|').any(|w| err.contains(w));
        assert!(any, "{text}: {err}");
    }
    let p: Position = g.parse_position("..1b/.../1r.. r s7 r7 b7").unwrap();
    assert_eq!(p.pawn_count(Color::Blue), 1);
    assert!(Game::parse_move(&g, &p, "c3").is_err(), "a pawn's cell");
    assert!(Game::parse_move(&g, &p, "a1-a2").is_err(), "an empty cell");
    assert!(matches!(Game::parse_move(&g, &p, "b2"), Ok(Move::Place { .. })));
}

#[test]
fn every_board_keeps_the_game_interfaces_contract() {
    use topitop_game_api::conformance::{check_registered, Settings};
    for variant in ["2x2-s4", "2x3-s6", "3x3-s8", "3x3-s12", "8x8-s64"] {
        let settings = Settings {
            games: 30,
            samples_per_tier: 8,
            ..Settings::default()
        };
        let report = check_registered(&game(variant), settings);
        assert!(report.passed(), "{variant}:\n{report}");
        assert!(report.checks["move-text"].made > 0, "{report}");
    }
}
