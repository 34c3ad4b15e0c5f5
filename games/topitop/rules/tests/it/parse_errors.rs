//! Every malformed or impossible position string gets its specific error.

use games_topitop_rules::sample::Rng;
use games_topitop_rules::{parse_position, Budget, ParsePositionError as E, Player, PositionError as P};

fn err(s: &str) -> E {
    match parse_position(s, Budget::STANDARD) {
        Ok(p) => panic!("{s:?} parsed as {p}"),
        Err(e) => e,
    }
}

#[test]
fn malformed_strings() {
    for s in [
        "",
        "1",
        "1_--------",
        "1_----------",
        "1_---------5",
        "1_---------123",
        "1_\u{e9}---------",
    ] {
        assert!(matches!(err(s), E::Length { .. }), "{s:?}: {}", err(s));
    }
    assert!(matches!(err("3_---------"), E::Turn { found: '3', .. }));
    assert!(matches!(err("0_---------"), E::Turn { .. }));
    assert!(matches!(err("B_---------"), E::Turn { .. }));
    assert!(matches!(err("1----------"), E::Separator { found: '-', .. }));
    assert!(matches!(err("1 ---------"), E::Separator { .. }));
    assert!(matches!(
        err("1_--Z------"),
        E::UnknownCell {
            cell: 3,
            found: 'Z',
            ..
        }
    ));
    assert!(
        matches!(err("1_b--------"), E::UnknownCell { cell: 1, .. }),
        "v0 letters are not v1 letters"
    );
    assert!(matches!(err("1_--------_"), E::UnknownCell { cell: 9, .. }));
    assert!(matches!(
        err("1_\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}"),
        E::UnknownCell { cell: 1, .. }
    ));
    for s in [
        "1_---------55",
        "1_---------13",
        "1_---------0a",
        "1_---------19",
        "1_---------1a",
        "1_---------01",
    ] {
        assert!(matches!(err(s), E::Slide { .. }), "{s:?}: {}", err(s));
    }
}

#[test]
fn impossible_positions() {
    let too_many = |s: &str, kind: &str| match err(s) {
        E::Impossible {
            reason: P::TooManyPieces { kind: k, .. },
            ..
        } => assert_eq!(k, kind, "{s}"),
        e => panic!("{s}: {e}"),
    };
    too_many("1_BBB------", "blue buckets");
    too_many("1_BXP------", "blue buckets");
    too_many("1_RRO------", "red buckets");
    too_many("1_SSSSS----", "small piles");
    too_many("1_XOCCS----", "small piles");
    too_many("1_CCCCL----", "large piles");
    too_many("1_LLLLL----", "large piles");
    assert!(matches!(
        err("1_PPQQ-----"),
        E::Impossible {
            reason: P::BothWon,
            ..
        }
    ));
    assert!(matches!(
        err("1_PP-------"),
        E::Impossible {
            reason: P::MoverAlreadyWon { mover: Player::Blue },
            ..
        }
    ));
    assert!(matches!(
        err("2_QQ-------"),
        E::Impossible {
            reason: P::MoverAlreadyWon { mover: Player::Red },
            ..
        }
    ));
    for s in [
        "1_S--------21", // source empty
        "1_B--------12", // a bucket never sets the restriction
        "1_X--------12",
        "1_SS-------12", // destination occupied
        "1_QQ-S-----45", // Red had won before the slide
    ] {
        assert!(
            matches!(
                err(s),
                E::Impossible {
                    reason: P::ImpossibleForbidden { .. },
                    ..
                }
            ),
            "{s}: {}",
            err(s)
        );
    }
    assert!(parse_position("1_S--------12", Budget::STANDARD).is_ok());
    assert!(
        parse_position("2_PPQ------", Budget::STANDARD).is_ok(),
        "Blue just won"
    );
}

#[test]
fn messages_name_the_input_and_the_problem() {
    let msg = err("1_--Z------").to_string();
    assert!(
        msg.contains("1_--Z------") && msg.contains("cell 3") && msg.contains("'Z'"),
        "{msg}"
    );
    let msg = err("1_BBB------").to_string();
    assert!(msg.contains("3 blue buckets") && msg.contains("only 2"), "{msg}");
}

#[test]
fn arbitrary_strings_never_panic_and_accepted_ones_round_trip() {
    let cells: Vec<char> = "-------BRSLXOCPQ".chars().collect();
    let noise: Vec<char> = "12_-BRSLXOCPQ0345789 z\u{e9}".chars().collect();
    let mut rng = Rng::new(99);
    let mut accepted = 0;
    for _ in 0..200_000 {
        // Mostly well-shaped strings, some mutated, some pure noise, so
        // that every check gets exercised.
        let mut s: Vec<char> = if rng.below(4) == 0 {
            (0..rng.below(16))
                .map(|_| noise[rng.below(noise.len() as u64) as usize])
                .collect()
        } else {
            let mut v = vec![if rng.below(2) == 0 { '1' } else { '2' }, '_'];
            v.extend((0..9).map(|_| cells[rng.below(cells.len() as u64) as usize]));
            if rng.below(2) == 0 {
                v.extend([
                    (b'1' + rng.below(9) as u8) as char,
                    (b'1' + rng.below(9) as u8) as char,
                ]);
            }
            v
        };
        if rng.below(3) == 0 && !s.is_empty() {
            let i = rng.below(s.len() as u64) as usize;
            s[i] = noise[rng.below(noise.len() as u64) as usize];
        }
        let s: String = s.into_iter().collect();
        if let Ok(p) = parse_position(&s, Budget::STANDARD) {
            assert_eq!(p.to_string(), s);
            accepted += 1;
        }
    }
    assert!(accepted > 0);
}
