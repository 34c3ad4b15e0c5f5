//! GamesmanClassic-exact tier hash: worked examples, whole-tier round trips
//! and the tier graph's figures.

use games_topitop_rules::geometry::Slide;
use games_topitop_rules::sample::Rng;
use games_topitop_rules::{gchash, parse_position, parse_position_syntax, Budget, Cell, Tier};
use topitop_game_api::rank;

const STD: Budget = Budget::STANDARD;

/// Examples worked by hand: (string, tier, boards m, tier size, rank, d, tier position).
const WORKED: [(&str, u64, u64, u64, u64, u8, u64); 4] = [
    ("1_---------", 0, 1, 82, 0, 0, 0),
    ("2_P--P-----", 0x20000, 36, 2_952, 33, 0, 1_476 + 1_353),
    (
        "2_PX--L----54",
        0x1001_0100,
        504,
        41_328,
        501,
        20,
        20_664 + 20_541 + 20,
    ),
    ("1_LS-L-SLLS45", 0x4300_0000, 1_260, 103_320, 872, 14, 35_752 + 14),
];

#[test]
fn worked_examples_hash_and_unhash() {
    for (s, tier, m, size, r, d, tp) in WORKED {
        let p = parse_position(s, STD).unwrap();
        let (t, got) = gchash::hash(p);
        assert_eq!(t.number(), tier, "{s}: tier");
        assert_eq!(t.arrangements(), m, "{s}: boards");
        assert_eq!(t.size(), size, "{s}: size");
        assert_eq!(
            rank::rank(p.board().cells().map(|c| c as u8), &t.counts()),
            r,
            "{s}: rank"
        );
        assert_eq!(p.forbidden_id(), d, "{s}: slide id");
        assert_eq!(got, tp, "{s}: tier position");
        assert_eq!(gchash::unhash(tier, tp, STD).unwrap(), p, "{s}: unhash");
    }
}

/// `2_P--P-----`: 28 arrangements put `-` in cell 1 (8 cells, 6 `-` and 2
/// `P`), then with `P` in cell 1, 5 arrangements put `-` in cells 2 and 3
/// and `P` in cell 4 is preceded by those with `-` there: C(5,1) = 5.
#[test]
fn rank_of_two_blue_castles_by_hand() {
    let p = parse_position_syntax("2_P--P-----").unwrap();
    let t = Tier::of(p.board());
    assert_eq!(
        rank::rank(p.board().cells().map(|c| c as u8), &t.counts()),
        28 + 5
    );
}

/// Every arrangement of a multiset in lexicographic order, by repeated
/// next-permutation: an implementation independent of the rank formula.
fn lexicographic_arrangements(mut cells: Vec<u8>) -> Vec<Vec<u8>> {
    cells.sort_unstable();
    let mut out = vec![cells.clone()];
    loop {
        let Some(i) = (0..cells.len().saturating_sub(1))
            .rev()
            .find(|&i| cells[i] < cells[i + 1])
        else {
            return out;
        };
        let j = (i + 1..cells.len()).rev().find(|&j| cells[j] > cells[i]).unwrap();
        cells.swap(i, j);
        cells[i + 1..].reverse();
        out.push(cells.clone());
    }
}

#[test]
fn rank_matches_enumeration_order_on_whole_small_tiers() {
    let mut checked = 0;
    for tier in Tier::reachable(STD)
        .into_iter()
        .filter(|t| t.arrangements() <= 3_000)
    {
        let counts = tier.counts();
        let multiset: Vec<u8> = (0..10u8)
            .flat_map(|c| std::iter::repeat_n(c, counts[c as usize] as usize))
            .collect();
        let all = lexicographic_arrangements(multiset);
        assert_eq!(all.len() as u64, tier.arrangements(), "tier {tier:#?}");
        for (i, cells) in all.iter().enumerate() {
            assert_eq!(rank::rank(cells.iter().copied(), &counts), i as u64);
            let mut back = [0u8; 9];
            rank::unrank(i as u64, &counts, &mut back);
            assert_eq!(&back[..], &cells[..]);
        }
        checked += 1;
    }
    assert!(checked > 300, "only {checked} small tiers");
}

#[test]
fn unhash_then_hash_is_identity_over_every_tier() {
    let mut rng = Rng::new(7);
    for tier in Tier::reachable(STD) {
        let size = tier.size();
        let samples: Box<dyn Iterator<Item = u64>> = if size <= 5_000 {
            Box::new(0..size)
        } else {
            let mut picks: Vec<u64> = (0..400).map(|_| rng.below(size)).collect();
            picks.extend([0, size / 2 - 1, size / 2, size - 1]);
            Box::new(picks.into_iter())
        };
        for tp in samples {
            let p = gchash::unhash(tier.number(), tp, STD).unwrap();
            assert_eq!(gchash::hash(p), (tier, tp), "tier {:#x} tp {tp}", tier.number());
        }
    }
}

#[test]
fn unhash_rejects_bad_tiers_and_positions() {
    assert!(gchash::unhash(0, 82, STD).is_err());
    assert!(gchash::unhash(0x3, 0, STD).is_err(), "three blue buckets");
    assert!(gchash::unhash(1 << 40, 0, STD).is_err(), "bits above the counts");
    assert!(
        gchash::unhash(0x9999, 0, STD).is_err(),
        "more than nine structures"
    );
    assert!(gchash::unhash(0x20000, 2_952, STD).is_err());
    assert!(gchash::unhash(0x20000, 2_951, STD).is_ok());
}

#[test]
fn tier_graph_figures() {
    let reachable = Tier::reachable(STD);
    assert_eq!(reachable.len(), 2_231);
    assert_eq!(reachable.iter().filter(|t| t.is_terminal()).count(), 146);
    assert!(reachable
        .iter()
        .all(|t| t.children(STD).is_empty() == t.is_terminal()));
    let all = Tier::all(STD);
    assert_eq!(all.len(), 2_232);
    let missing: Vec<_> = all.iter().filter(|t| !reachable.contains(t)).collect();
    assert_eq!(missing.len(), 1);
    let c = missing[0].counts();
    assert_eq!(
        (c[Cell::BlueCastle as usize], c[Cell::RedCastle as usize], c[0]),
        (2, 2, 5)
    );
    assert_eq!(reachable.iter().map(|t| t.size()).sum::<u64>(), 2_972_507_380);
    assert_eq!(
        reachable.iter().map(|t| t.arrangements()).sum::<u64>(),
        36_250_090
    );
    assert_eq!(reachable.iter().map(|t| t.size()).max(), Some(14_878_080));
    assert_eq!(reachable.last().map(|t| t.number()), Some(0x4_0000_0022));
}

#[test]
fn tier_children_of_start_and_a_merge_tier() {
    let kids: Vec<u64> = Tier::START.children(STD).iter().map(|t| t.number()).collect();
    assert_eq!(
        kids,
        [0x1, 0x10, 0x100_0000, 0x1000_0000],
        "B, R, S, L placements; no self loop"
    );
    // One blue bucket and one small pile: itself, 4 placements, then B+S -> X.
    let t = Tier::from_number(0x100_0001, STD).unwrap();
    let kids: Vec<u64> = t.children(STD).iter().map(|t| t.number()).collect();
    assert_eq!(
        kids,
        [0x100_0001, 0x100_0002, 0x100_0011, 0x200_0001, 0x1100_0001, 0x100]
    );
    assert_eq!(
        Tier::from_number(0x20000, STD).unwrap().to_string(),
        "BB: 0, RB: 0, BS: 0, RS: 0, BC: 2, RC: 0, S: 0, L: 0, C: 0"
    );
}

#[test]
fn slide_ids_follow_upstream_table() {
    for (id, from, to) in [
        (1, 1, 2),
        (9, 3, 2),
        (14, 4, 5),
        (17, 5, 1),
        (20, 5, 4),
        (25, 6, 2),
        (33, 8, 4),
        (40, 9, 8),
    ] {
        let s = Slide::from_id(id).unwrap();
        assert_eq!((s.from() + 1, s.to() + 1), (from, to), "id {id}");
        assert_eq!(Slide::new(from - 1, to - 1), Some(s));
    }
    assert_eq!(Slide::all().count(), 40);
    assert!(Slide::from_id(0).is_none() && Slide::from_id(41).is_none());
    assert!(Slide::new(0, 2).is_none() && Slide::new(4, 4).is_none());
}

#[test]
fn upstream_is_legal_is_looser_than_validate() {
    let legal = |s: &str| gchash::gc_is_legal(parse_position_syntax(s).unwrap());
    assert!(legal("1_---------"));
    assert!(legal("1_LS-L-SLLS45"), "L slid 5->4");
    assert!(!legal("1_LS-L-SLLS54"), "source empty");
    assert!(!legal("1_LS-L-SLLS41"), "destination occupied");
    assert!(!legal("1_B--------12"), "own bucket at the source");
    assert!(
        legal("2_B--------12"),
        "opponent's bucket: upstream accepts, play cannot produce it"
    );
    assert!(parse_position("2_B--------12", STD).is_err());
}
