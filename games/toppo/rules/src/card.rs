//! Cards: five colours by five symbols, each kind in several copies.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// A card's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Red.
    Red,
    /// Yellow.
    Yellow,
    /// White.
    White,
    /// Green.
    Green,
    /// Blue.
    Blue,
}

/// A card's symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Symbol {
    /// Two wavy lines.
    Waves,
    /// A circle.
    Circle,
    /// A square.
    Square,
    /// An "I" that is an "H" on its side.
    Ih,
    /// A plus.
    Plus,
}

impl Colour {
    /// All five, in order.
    pub const ALL: [Colour; 5] = [
        Colour::Red,
        Colour::Yellow,
        Colour::White,
        Colour::Green,
        Colour::Blue,
    ];

    /// The name in the notation.
    pub fn name(self) -> &'static str {
        ["red", "yellow", "white", "green", "blue"][self as usize]
    }
}

impl Symbol {
    /// All five, in order.
    pub const ALL: [Symbol; 5] = [
        Symbol::Waves,
        Symbol::Circle,
        Symbol::Square,
        Symbol::Ih,
        Symbol::Plus,
    ];

    /// The name in the notation.
    pub fn name(self) -> &'static str {
        ["waves", "circle", "square", "ih", "plus"][self as usize]
    }
}

/// A card: its kind is its colour and symbol; the copies of a kind are
/// alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

/// Kinds of card: 5 colours × 5 symbols.
pub const KINDS: usize = 25;

impl Card {
    /// The card of `colour` and `symbol`.
    pub const fn new(colour: Colour, symbol: Symbol) -> Card {
        Card(colour as u8 * 5 + symbol as u8)
    }

    /// The card of kind `k` (0..25: colour × 5 + symbol).
    pub fn of_kind(k: usize) -> Card {
        Card((k % KINDS) as u8)
    }

    /// Its kind, 0..25.
    pub fn kind(self) -> usize {
        usize::from(self.0)
    }

    /// Its colour: the kind's number divided by five.
    pub fn colour(self) -> Colour {
        Colour::ALL[usize::from(self.0 / 5)]
    }

    /// Its symbol: the kind's number modulo five.
    pub fn symbol(self) -> Symbol {
        Symbol::ALL[usize::from(self.0 % 5)]
    }

    /// True when `self` may go on `other` in a top: the same colour or the
    /// same symbol.
    pub fn fits(self, other: Card) -> bool {
        self.0 / 5 == other.0 / 5 || self.0 % 5 == other.0 % 5
    }
}

impl fmt::Display for Card {
    /// `red-circle`: colour, a hyphen, symbol.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.colour().name(), self.symbol().name())
    }
}

impl FromStr for Card {
    type Err = String;

    fn from_str(s: &str) -> Result<Card, String> {
        let t = s.trim().to_ascii_lowercase();
        let (c, y) = t
            .split_once('-')
            .ok_or_else(|| format!("{s:?} is not a card: colour-symbol, e.g. red-circle"))?;
        let colour = Colour::ALL
            .into_iter()
            .find(|x| x.name() == c)
            .ok_or_else(|| format!("{c:?} is not a colour: red, yellow, white, green, blue"))?;
        let symbol = Symbol::ALL
            .into_iter()
            .find(|x| x.name() == y)
            .ok_or_else(|| format!("{y:?} is not a symbol: waves, circle, square, ih, plus"))?;
        Ok(Card::new(colour, symbol))
    }
}

/// Cards from a comma-separated list, e.g. `red-circle,blue-plus`.
///
/// # Errors
/// A card that is not one, in words.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, String> {
    text.split(',').map(str::parse).collect()
}

/// The cards of one game: how many copies of each kind (the rules do
/// not print it; six of each of the 25 kinds makes the 150 cards of a
/// set), times the sets in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckSpec {
    /// Copies of each kind, by kind.
    pub copies: [u8; KINDS],
}

impl DeckSpec {
    /// `sets` sets of `per_kind` copies a kind.
    pub fn uniform(per_kind: u8, sets: u8) -> DeckSpec {
        DeckSpec {
            copies: [per_kind.saturating_mul(sets); KINDS],
        }
    }

    /// One set: 150 cards, six of each kind.
    pub fn one_set() -> DeckSpec {
        DeckSpec::uniform(6, 1)
    }

    /// Cards in all.
    pub fn len(&self) -> usize {
        self.copies.iter().map(|&c| usize::from(c)).sum()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every card, kind by kind.
    pub fn cards(&self) -> Vec<Card> {
        (0..KINDS)
            .flat_map(|k| std::iter::repeat_n(Card::of_kind(k), usize::from(self.copies[k])))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_read_back_and_fit_by_colour_or_symbol() {
        for k in 0..KINDS {
            let c = Card::of_kind(k);
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
            assert_eq!(Card::new(c.colour(), c.symbol()), c);
        }
        let rc: Card = "red-circle".parse().unwrap();
        assert!(rc.fits("Red-Plus".parse().unwrap()));
        assert!(rc.fits("blue-circle".parse().unwrap()));
        assert!(!rc.fits("blue-plus".parse().unwrap()));
        assert!("red".parse::<Card>().unwrap_err().contains("colour-symbol"));
        assert!("pink-circle".parse::<Card>().unwrap_err().contains("colour"));
        assert_eq!(DeckSpec::one_set().len(), 150);
        assert_eq!(DeckSpec::uniform(6, 2).len(), 300);
    }
}
