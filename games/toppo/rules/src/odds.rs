//! Exact odds: a display and then a line drawn at random without
//! replacement from the cards, computed by enumerating card kinds, never
//! sampled.
//!
//! Given a display, the line's chance to top it (in some order) sums the
//! hypergeometric chances of every multiset of kinds the line can be that
//! tops it; to top it as dealt, of every sequence of kinds that fits place
//! by place; to match, one less the chance that no line card is of a
//! display card's kind. Without a display given, these are summed over
//! every display multiset (its order does not matter: the line's cards
//! are exchangeable), displays alike up to a relabelling of colours and
//! symbols (and swapping the two) counted once when every kind has as many
//! copies.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::card::{Card, DeckSpec, KINDS};
use crate::check::tops;

/// A line's chances against a display.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Odds {
    /// Cards in the display and the line.
    pub line: usize,
    /// The line tops the display in some order.
    pub top: f64,
    /// The line tops the display as it was dealt.
    pub top_as_dealt: f64,
    /// At least one line card is identical to a display card (a match).
    #[serde(rename = "match")]
    pub matched: f64,
}

/// n choose k, as a float.
fn choose(n: u64, k: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    let mut r = 1.0;
    for i in 0..k {
        r = r * (n - i) as f64 / (i + 1) as f64;
    }
    r
}

/// Every multiset of `size` kinds with at most `avail[k]` of kind `k`, as
/// counts by kind, with its hypergeometric weight (the number of ways to
/// draw it).
fn multisets(avail: &[u64; KINDS], size: usize, mut each: impl FnMut(&[u8; KINDS], f64)) {
    fn go(
        k: usize,
        left: usize,
        avail: &[u64; KINDS],
        m: &mut [u8; KINDS],
        ways: f64,
        each: &mut dyn FnMut(&[u8; KINDS], f64),
    ) {
        if left == 0 {
            each(m, ways);
            return;
        }
        if k == KINDS {
            return;
        }
        let most = (avail[k] as usize).min(left);
        for c in 0..=most {
            m[k] = c as u8;
            go(k + 1, left - c, avail, m, ways * choose(avail[k], c as u64), each);
        }
        m[k] = 0;
    }
    let mut m = [0u8; KINDS];
    go(0, size, avail, &mut m, 1.0, &mut each);
}

fn cards_of(m: &[u8; KINDS]) -> Vec<Card> {
    (0..KINDS)
        .flat_map(|k| std::iter::repeat_n(Card::of_kind(k), usize::from(m[k])))
        .collect()
}

/// The chances of a line drawn from `deck` less `display`, against
/// `display` (its cards in order).
///
/// # Errors
/// A display of a length other than 3, 4 or 5, or of more copies of a
/// kind than the cards hold.
pub fn given(deck: &DeckSpec, display: &[Card]) -> Result<Odds, String> {
    let l = display.len();
    if !(3..=5).contains(&l) {
        return Err(format!("a display of {l} cards: 3, 4 or 5"));
    }
    let mut avail: [u64; KINDS] = std::array::from_fn(|k| u64::from(deck.copies[k]));
    for c in display {
        if avail[c.kind()] == 0 {
            return Err(format!("the display has more {c} cards than the deck"));
        }
        avail[c.kind()] -= 1;
    }
    let n: u64 = avail.iter().sum();
    let all = choose(n, l as u64);
    // In some order: every multiset the line can be.
    let mut top = 0.0;
    multisets(&avail, l, |m, ways| {
        if tops(&cards_of(m), display) {
            top += ways;
        }
    });
    // As dealt: every sequence that fits place by place, drawn in turn.
    fn dealt(i: usize, display: &[Card], avail: &mut [u64; KINDS], left: u64, p: f64) -> f64 {
        if i == display.len() {
            return p;
        }
        let mut sum = 0.0;
        for k in 0..KINDS {
            let c = Card::of_kind(k);
            if avail[k] > 0 && c.fits(display[i]) {
                let q = p * avail[k] as f64 / left as f64;
                avail[k] -= 1;
                sum += dealt(i + 1, display, avail, left - 1, q);
                avail[k] += 1;
            }
        }
        sum
    }
    let as_dealt = dealt(0, display, &mut avail.clone(), n, 1.0);
    // A match: not every line card avoids the display's kinds.
    let mut kinds = [false; KINDS];
    for c in display {
        kinds[c.kind()] = true;
    }
    let shown: u64 = (0..KINDS).filter(|&k| kinds[k]).map(|k| avail[k]).sum();
    let matched = 1.0 - choose(n - shown, l as u64) / all;
    Ok(Odds {
        line: l,
        top: top / all,
        top_as_dealt: as_dealt,
        matched,
    })
}

/// The canonical form of a display multiset under relabelling colours and
/// symbols and swapping the two: the least 5×5 count matrix (rows
/// colours) over column orders and the swap, rows sorted.
fn canonical(m: &[u8; KINDS]) -> [u8; KINDS] {
    let mat: [[u8; 5]; 5] = std::array::from_fn(|r| std::array::from_fn(|c| m[r * 5 + c]));
    let t: [[u8; 5]; 5] = std::array::from_fn(|r| std::array::from_fn(|c| mat[c][r]));
    let mut best = [u8::MAX; KINDS];
    let mut perm = [0usize, 1, 2, 3, 4];
    loop {
        for src in [&mat, &t] {
            let mut rows: [[u8; 5]; 5] = std::array::from_fn(|r| std::array::from_fn(|c| src[r][perm[c]]));
            rows.sort_unstable();
            let flat: [u8; KINDS] = std::array::from_fn(|k| rows[k / 5][k % 5]);
            if flat < best {
                best = flat;
            }
        }
        if !next_perm(&mut perm) {
            break;
        }
    }
    best
}

fn next_perm(p: &mut [usize; 5]) -> bool {
    let Some(i) = (1..5).rev().find(|&i| p[i - 1] < p[i]) else {
        return false;
    };
    let j = (i..5).rev().find(|&j| p[j] > p[i - 1]).unwrap_or(i);
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

/// The chances of a display and then a line of `line` cards, both drawn
/// at random from `deck`.
///
/// # Errors
/// A line of a length other than 3, 4 or 5.
pub fn unconditional(deck: &DeckSpec, line: usize) -> Result<Odds, String> {
    if !(3..=5).contains(&line) {
        return Err(format!("lines of {line} cards: 3, 4 or 5"));
    }
    let avail: [u64; KINDS] = std::array::from_fn(|k| u64::from(deck.copies[k]));
    let n: u64 = avail.iter().sum();
    let all = choose(n, line as u64);
    let uniform = deck.copies.iter().all(|&c| c == deck.copies[0]);
    // Display multisets by class (or each alone), with their chance.
    // Ordered, so that the sums, and the figures printed, are the same every run.
    let mut classes: BTreeMap<[u8; KINDS], f64> = BTreeMap::new();
    multisets(&avail, line, |m, ways| {
        let key = if uniform { canonical(m) } else { *m };
        *classes.entry(key).or_insert(0.0) += ways / all;
    });
    let mut total = Odds {
        line,
        top: 0.0,
        top_as_dealt: 0.0,
        matched: 0.0,
    };
    for (m, p) in classes {
        let o = given(deck, &cards_of(&m))?;
        total.top += p * o.top;
        total.top_as_dealt += p * o.top_as_dealt;
        total.matched += p * o.matched;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    #[test]
    fn the_classes_of_displays_add_up_and_keep_their_odds() {
        let deck = DeckSpec::one_set();
        let avail: [u64; KINDS] = [6; KINDS];
        let mut sum = 0.0;
        multisets(&avail, 3, |_, w| sum += w);
        assert!((sum - choose(150, 3)).abs() < 1e-6 * sum, "{sum}");
        // Relabelled displays have the same odds.
        let a = given(&deck, &parse_cards("red-circle,red-plus,blue-plus").unwrap()).unwrap();
        let b = given(
            &deck,
            &parse_cards("green-square,green-waves,white-waves").unwrap(),
        )
        .unwrap();
        let c = given(&deck, &parse_cards("red-circle,blue-circle,blue-plus").unwrap()).unwrap();
        for (x, y) in [(a, b), (a, c)] {
            assert!((x.top - y.top).abs() < 1e-12 && (x.matched - y.matched).abs() < 1e-12);
            assert!((x.top_as_dealt - y.top_as_dealt).abs() < 1e-12);
        }
        let m = |s: &str| {
            let mut m = [0u8; KINDS];
            for c in parse_cards(s).unwrap() {
                m[c.kind()] += 1;
            }
            m
        };
        assert_eq!(
            canonical(&m("red-circle,red-plus,blue-plus")),
            canonical(&m("green-square,green-waves,white-waves"))
        );
        assert_ne!(
            canonical(&m("red-circle,red-plus,blue-plus")),
            canonical(&m("red-circle,red-plus,red-waves"))
        );
    }
}
