//! The seeded generator: its sequences stay as they were, and its draws
//! stay in range.

use topitop_game_api::rng::Rng;

#[test]
fn a_seed_gives_the_sequence_it_always_gave() {
    // Pinned: Toppo's games are replayed from their seeds.
    let mut r = Rng::new(1);
    let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
    let mut again = Rng::new(1);
    assert_eq!(first, (0..3).map(|_| again.next_u64()).collect::<Vec<_>>());
    assert_ne!(Rng::new(2).next_u64(), first[0]);
    let mut cards: Vec<u8> = (0..10).collect();
    Rng::new(7).shuffle(&mut cards);
    assert_eq!(cards, PINNED_SHUFFLE);
}

const PINNED_SHUFFLE: [u8; 10] = [9, 8, 3, 0, 7, 6, 4, 5, 1, 2];

#[test]
fn draws_stay_in_range_across_both_scalings() {
    let mut r = Rng::new(0);
    for n in [1u64, 2, 7, 1 << 32, (1 << 32) + 1, u64::MAX] {
        for _ in 0..1000 {
            assert!(r.below(n) < n, "{n}");
        }
    }
    let big: Vec<u64> = (0..1000).map(|_| r.below(u64::MAX)).collect();
    assert!(big.iter().any(|&x| x > 1 << 62), "the high range is reached");
    assert!((0..1000).map(|_| r.unit()).all(|u| (0.0..1.0).contains(&u)));
}
