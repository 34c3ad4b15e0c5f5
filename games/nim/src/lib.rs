//! Nim with three heaps of 3, 4 and 5 stones, normal play: a move takes
//! one or more stones from one heap; the player who cannot move loses.
//!
//! An impartial game: a position is the three heaps alone, without the
//! turn (`player_to_move` keeps its default, `None`). A position is
//! written `3-4-5`; a move `H:K`, taking K stones from heap H (1 to 3).
//! A tier is the number of stones left; its index is the heaps read as a
//! mixed-radix number (4 × 5 × 6 indices).
#![forbid(unsafe_code)]

mod art;

use topitop_game_api::{BoardArt, Game, GameError, Options, Presentation, Registered, Search, Tiered, Value};

/// The heaps at the start.
pub const HEAPS: [u8; 3] = [3, 4, 5];

/// The game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

/// A position: the stones of each heap.
pub type Heaps = [u8; 3];

/// A move: the heap (0 to 2) and the stones taken (at least one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    /// The heap, 0 to 2.
    pub heap: u8,
    /// The stones taken.
    pub count: u8,
}

impl Game for Nim {
    type Position = Heaps;
    type Move = Take;

    fn name(&self) -> &'static str {
        "nim"
    }

    fn variant(&self) -> String {
        "3-4-5".into()
    }

    fn start(&self) -> Heaps {
        HEAPS
    }

    fn moves(&self, pos: &Heaps) -> Vec<Take> {
        let mut v = Vec::new();
        for (h, &n) in pos.iter().enumerate() {
            for count in 1..=n {
                v.push(Take { heap: h as u8, count });
            }
        }
        v
    }

    fn play(&self, pos: &Heaps, mv: Take) -> Heaps {
        let mut p = *pos;
        p[usize::from(mv.heap)] -= mv.count;
        p
    }

    fn primitive(&self, pos: &Heaps) -> Option<Value> {
        (pos.iter().all(|&n| n == 0)).then_some(Value::Lose)
    }

    fn check(&self, pos: &Heaps) -> Result<(), GameError> {
        for (h, (&n, &max)) in pos.iter().zip(HEAPS.iter()).enumerate() {
            if n > max {
                return Err(GameError::rules(format!(
                    "heap {} holds {n} stones, more than the {max} it starts with",
                    h + 1
                )));
            }
        }
        Ok(())
    }

    fn parse_position(&self, text: &str) -> Result<Heaps, GameError> {
        let parts: Vec<&str> = text.trim().split('-').collect();
        let bad = || GameError::notation(format!("{text:?}: three heaps' stones, joined by -, e.g. 3-4-5"));
        if parts.len() != 3 {
            return Err(bad());
        }
        let mut p = [0u8; 3];
        for (k, s) in parts.iter().enumerate() {
            p[k] = s.parse().map_err(|_| bad())?;
        }
        self.check(&p)
            .map(|()| p)
            .map_err(|e| GameError::rules(format!("{text:?} cannot be reached: {e}")))
    }

    fn format_position(&self, pos: &Heaps) -> String {
        format!("{}-{}-{}", pos[0], pos[1], pos[2])
    }

    fn parse_move(&self, pos: &Heaps, text: &str) -> Result<Take, GameError> {
        let bad = || {
            GameError::notation(format!(
                "{text:?}: a move is HEAP-COUNT, e.g. 2-3 takes 3 stones from heap 2"
            ))
        };
        let (h, k) = text.trim().split_once('-').ok_or_else(bad)?;
        let heap: u8 = h.trim().parse().map_err(|_| bad())?;
        let count: u8 = k.trim().parse().map_err(|_| bad())?;
        if !(1..=3).contains(&heap) || count == 0 {
            return Err(bad());
        }
        let mv = Take {
            heap: heap - 1,
            count,
        };
        if !self.moves(pos).contains(&mv) {
            return Err(GameError::rules(format!(
                "heap {heap} holds {} stones: {count} cannot be taken",
                pos[usize::from(heap - 1)]
            )));
        }
        Ok(mv)
    }

    fn format_move(&self, mv: Take) -> String {
        format!("{}-{}", mv.heap + 1, mv.count)
    }
}

/// The heaps as text and as a board.
impl Presentation for Nim {
    fn show(&self, pos: &Heaps) -> String {
        let mut lines: Vec<String> = pos
            .iter()
            .enumerate()
            .map(|(h, &n)| format!("heap {}: {:<5} ({n})", h + 1, "o".repeat(usize::from(n))))
            .collect();
        if self.primitive(pos).is_some() {
            lines.push("game over".into());
        }
        lines.join("\n")
    }

    fn ending(&self, pos: &Heaps) -> Option<String> {
        self.primitive(pos)
            .map(|_| "no stones are left: the player to move cannot move and loses".into())
    }

    fn title(&self) -> String {
        "Nim".into()
    }

    fn variant_title(&self) -> String {
        "heaps of 3, 4 and 5".into()
    }

    fn instructions(&self) -> String {
        "Three heaps hold 3, 4 and 5 stones. The players take turns taking one \
         or more stones from one heap. The player who cannot move (no stones \
         are left) loses."
            .into()
    }

    fn move_help(&self) -> Option<String> {
        Some("2-3 takes 3 stones from heap 2".into())
    }

    /// A character a slot, heap 1's three slots first: `s` a stone, `-` none.
    fn autogui_position(&self, pos: &Heaps) -> Option<String> {
        let mut s = String::new();
        for (h, &max) in HEAPS.iter().enumerate() {
            for j in 0..max {
                s.push(if j < pos[h] { 's' } else { '-' });
            }
        }
        Some(s)
    }

    /// A button on the lowest stone taken: `A_a_<slot>_x`.
    fn autogui_move(&self, pos: &Heaps, mv: Take) -> Option<String> {
        let h = usize::from(mv.heap);
        let slot = art::slot(h, pos[h] - mv.count);
        Some(format!("A_a_{slot}_x"))
    }

    fn image_autogui_data(&self) -> Option<String> {
        Some(art::autogui())
    }

    fn board_art(&self) -> BoardArt {
        art::board_art()
    }
}

/// No search: positions are answered from a database only.
impl Search for Nim {}

impl Tiered for Nim {
    type Tier = u8;

    fn tiers(&self) -> Vec<u8> {
        (0..=HEAPS.iter().sum::<u8>()).collect()
    }

    fn tier_of(&self, pos: &Heaps) -> u8 {
        pos.iter().sum()
    }

    fn tier_size(&self, _tier: u8) -> u64 {
        HEAPS.iter().map(|&n| u64::from(n) + 1).product()
    }

    fn index(&self, pos: &Heaps) -> u64 {
        pos.iter()
            .zip(HEAPS.iter())
            .rev()
            .fold(0, |i, (&n, &max)| i * (u64::from(max) + 1) + u64::from(n))
    }

    fn position(&self, tier: u8, mut index: u64) -> Option<Heaps> {
        let mut p = [0u8; 3];
        for (k, &max) in HEAPS.iter().enumerate() {
            let base = u64::from(max) + 1;
            p[k] = (index % base) as u8;
            index /= base;
        }
        (index == 0 && self.tier_of(&p) == tier).then_some(p)
    }

    fn child_tiers(&self, tier: u8) -> Vec<u8> {
        (0..tier).collect()
    }

    fn tier_name(&self, tier: u8) -> String {
        format!("stones{tier}")
    }
}

/// No options: one set of heaps, one variant.
impl Registered for Nim {
    const NAME: &'static str = "nim";

    fn from_options(_: &Options) -> Result<Nim, String> {
        Ok(Nim)
    }

    fn from_variant(variant: &str) -> Result<Nim, String> {
        if variant == "3-4-5" {
            Ok(Nim)
        } else {
            Err(format!("{variant:?} is not a Nim variant (only 3-4-5)"))
        }
    }
}

#[cfg(test)]
mod tests {
    use topitop_game_api::conformance::{check_registered, Settings};
    use topitop_game_api::{Game, Presentation, Tiered};

    use super::Nim;

    #[test]
    fn keeps_the_game_interfaces_contract() {
        let report = check_registered(&Nim, Settings::default());
        assert!(report.passed(), "{report}");
        assert_eq!(report.games, 200);
    }

    #[test]
    fn positions_carry_no_turn_and_every_index_round_trips() {
        let g = Nim;
        assert_eq!(g.player_to_move(&g.start()), None);
        let mut n = 0;
        for t in g.tiers() {
            for i in 0..g.tier_size(t) {
                if let Some(p) = g.position(t, i) {
                    assert_eq!(g.index(&p), i);
                    n += 1;
                }
            }
        }
        assert_eq!(n, 4 * 5 * 6);
    }

    #[test]
    fn the_autogui_board_has_a_slot_a_stone_and_a_button_a_move() {
        let g = Nim;
        let pos = g.parse_position("1-0-2").unwrap();
        assert_eq!(g.autogui_position(&pos).unwrap(), "s------ss---");
        let buttons: Vec<String> = g
            .moves(&pos)
            .iter()
            .map(|&m| g.autogui_move(&pos, m).unwrap())
            .collect();
        assert_eq!(buttons, ["A_a_0_x", "A_a_8_x", "A_a_7_x"]);
        let theme = g.image_autogui_data().unwrap();
        assert!(theme.contains("general/basichitbox.svg"), "{theme}");
        let art = g.board_art();
        for c in ['s', 'a'] {
            assert!(art.pieces.iter().any(|(p, _)| *p == c), "{c}");
        }
    }
}
