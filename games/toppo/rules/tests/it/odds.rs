//! The exact odds against a Monte Carlo estimate drawn with the engine's
//! own deck, shuffle and checks.

use games_toppo::check::{matches, tops, tops_as_dealt};
use games_toppo::odds::{given, unconditional};
use games_toppo::{parse_cards, Card, DeckSpec};
use topitop_game_api::rng::Rng;

/// Draws `trials` displays (or uses `display`) and lines from a shuffled
/// deck; the share that top, top as dealt and match.
fn sample(deck: &DeckSpec, line: usize, display: Option<&[Card]>, trials: usize, seed: u64) -> [f64; 3] {
    let mut rng = Rng::new(seed);
    let mut hits = [0usize; 3];
    let mut cards = deck.cards();
    if let Some(d) = display {
        for c in d {
            let k = cards.iter().position(|x| x == c).unwrap();
            cards.swap_remove(k);
        }
    }
    for _ in 0..trials {
        rng.shuffle(&mut cards);
        let (d, l): (Vec<Card>, &[Card]) = match display {
            Some(d) => (d.to_vec(), &cards[..line]),
            None => (cards[..line].to_vec(), &cards[line..2 * line]),
        };
        hits[0] += usize::from(tops(l, &d));
        hits[1] += usize::from(tops_as_dealt(l, &d));
        hits[2] += usize::from(!matches(l, &d).is_empty());
    }
    hits.map(|h| h as f64 / trials as f64)
}

fn close(exact: f64, estimate: f64, trials: usize, what: &str) {
    // Four standard errors, and a floor for the rare events.
    let se = (exact * (1.0 - exact) / trials as f64).sqrt();
    assert!(
        (exact - estimate).abs() <= 4.0 * se + 1e-4,
        "{what}: exact {exact}, sampled {estimate} ({trials} draws)"
    );
}

#[test]
fn exact_odds_agree_with_sampling() {
    let deck = DeckSpec::one_set();
    let trials = 200_000;
    for line in [3, 4, 5] {
        let o = unconditional(&deck, line).unwrap();
        let s = sample(&deck, line, None, trials, line as u64);
        close(o.top, s[0], trials, &format!("top, lines of {line}"));
        close(
            o.top_as_dealt,
            s[1],
            trials,
            &format!("as dealt, lines of {line}"),
        );
        close(o.matched, s[2], trials, &format!("match, lines of {line}"));
        assert!(o.top_as_dealt <= o.top && o.top < 1.0, "{o:?}");
    }
    let d = parse_cards("red-circle,blue-plus,green-square").unwrap();
    let o = given(&deck, &d).unwrap();
    let s = sample(&deck, 3, Some(&d), trials, 9);
    close(o.top, s[0], trials, "top, given");
    close(o.top_as_dealt, s[1], trials, "as dealt, given");
    close(o.matched, s[2], trials, "match, given");
}
