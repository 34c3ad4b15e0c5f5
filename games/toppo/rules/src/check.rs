//! What a line of cards does to the display: top it (each line card on
//! the display card of its place, of the same colour or symbol, in some
//! order), top it as dealt, or match (a card identical to a display
//! card).

use crate::card::Card;

/// The longest line: five cards.
pub const MAX_LINE: usize = 5;

/// For each display place, the line cards that fit it (bit `j` for line
/// card `j`).
fn fitting(line: &[Card], display: &[Card]) -> [u8; MAX_LINE] {
    let mut m = [0u8; MAX_LINE];
    for (i, d) in display.iter().enumerate().take(MAX_LINE) {
        for (j, c) in line.iter().enumerate() {
            if c.fits(*d) {
                m[i] |= 1 << j;
            }
        }
    }
    m
}

/// An order that tops `display` with `line` (of the same length): for
/// each display place, the line card put on it; `None` if no order does.
pub fn top_order(line: &[Card], display: &[Card]) -> Option<Vec<usize>> {
    let n = display.len();
    if line.len() != n || n == 0 || n > MAX_LINE {
        return None;
    }
    let fit = fitting(line, display);
    // can[mask]: the places 0..popcount(mask) can take exactly the line
    // cards of `mask`, each on a card it fits.
    let full = (1usize << n) - 1;
    let mut can = [false; 1 << MAX_LINE];
    can[0] = true;
    for mask in 1..=full {
        let place = (mask as u32).count_ones() as usize - 1;
        let mut m = mask as u8 & fit[place];
        while m != 0 {
            let j = m.trailing_zeros();
            if can[mask & !(1 << j)] {
                can[mask] = true;
                break;
            }
            m &= m - 1;
        }
    }
    if !can[full] {
        return None;
    }
    // Walk back from the full set: the last place takes a card whose
    // removal leaves a set that can fill the places before it.
    let mut order = vec![0; n];
    let mut mask = full;
    for place in (0..n).rev() {
        let mut m = mask as u8 & fit[place];
        while m != 0 {
            let j = m.trailing_zeros() as usize;
            if can[mask & !(1 << j)] {
                order[place] = j;
                mask &= !(1 << j);
                break;
            }
            m &= m - 1;
        }
    }
    Some(order)
}

/// True when some order of `line` tops `display`.
pub fn tops(line: &[Card], display: &[Card]) -> bool {
    top_order(line, display).is_some()
}

/// True when `line` tops `display` as it lies, card `i` on place `i`.
pub fn tops_as_dealt(line: &[Card], display: &[Card]) -> bool {
    line.len() == display.len() && !line.is_empty() && line.iter().zip(display).all(|(c, d)| c.fits(*d))
}

/// True when `order` (for each place, the line card put on it) tops
/// `display` with `line`.
pub fn tops_in(line: &[Card], display: &[Card], order: &[usize]) -> bool {
    if order.len() != display.len() || line.len() != display.len() || display.is_empty() {
        return false;
    }
    let mut used = 0u8;
    order.iter().zip(display).all(|(&j, d)| {
        let fresh = j < line.len() && used >> j & 1 == 0;
        used |= 1 << j.min(7);
        fresh && line[j].fits(*d)
    })
}

/// Every match: (line card, display place) of identical cards.
pub fn matches(line: &[Card], display: &[Card]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (j, c) in line.iter().enumerate() {
        if let Some(i) = display.iter().position(|d| d == c) {
            out.push((j, i));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    /// Every permutation of `n`, by brute force, for checking.
    fn perms(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in perms(n - 1) {
            for k in 0..n {
                let mut q = p.clone();
                q.insert(k, n - 1);
                out.push(q);
            }
        }
        out
    }

    #[test]
    fn a_top_is_found_exactly_when_some_order_tops() {
        let d = parse_cards("red-circle,blue-plus,green-square").unwrap();
        let line = parse_cards("blue-waves,red-square,white-circle").unwrap();
        // As dealt: blue-waves on red-circle fits neither way.
        assert!(!tops_as_dealt(&line, &d));
        let order = top_order(&line, &d).unwrap();
        assert!(tops_in(&line, &d, &order));
        assert!(!tops_in(&line, &d, &[0, 1, 2]));
        assert!(!tops_in(&line, &d, &[1, 1, 2]), "a card used twice");
        // Against brute force over pseudo-random lines of 3, 4 and 5.
        let mut rng = topitop_game_api::rng::Rng::new(7);
        for n in 3..=5 {
            for _ in 0..2000 {
                let mut draw = || Card::of_kind(rng.index(25));
                let d: Vec<Card> = (0..n).map(|_| draw()).collect();
                let l: Vec<Card> = (0..n).map(|_| draw()).collect();
                let brute = perms(n).iter().any(|p| tops_in(&l, &d, p));
                assert_eq!(tops(&l, &d), brute, "{l:?} on {d:?}");
            }
        }
        assert_eq!(matches(&line, &d), vec![]);
        let line = parse_cards("green-square,red-circle,red-circle").unwrap();
        assert_eq!(matches(&line, &d), vec![(0, 2), (1, 0), (2, 0)]);
    }
}
