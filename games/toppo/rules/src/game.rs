//! One game of Toppo: the rules text made exact (docs/toppo.md gives every
//! decision). Time is an input: every action carries the time it happens,
//! in milliseconds from the start of the game, and actions are applied in
//! the order of (time, player, the order given): the same seed and actions
//! always give the same game.

use std::collections::VecDeque;

use serde::Serialize;

use crate::card::{Card, DeckSpec};
use crate::check::tops_in;
use topitop_game_api::rng::Rng;

/// The rules of a game, as the table agrees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Players, 2 to 8.
    pub players: usize,
    /// Cards in the display and in each line: 3, 4 or 5 (not 5 with two
    /// players).
    pub line: usize,
    /// The cards (a second set from five players on).
    pub deck: DeckSpec,
    /// Cards each player is dealt.
    pub deal: usize,
    /// Penalty cards for a wrong top, a wrong match or a wrong "toppo".
    pub penalty: usize,
    /// Penalty cards for starting too early.
    pub early_penalty: usize,
    /// A player may call "toppo" with fewer cards than this (deck and
    /// line).
    pub toppo_below: usize,
    /// The display may be replaced once it has gone this long without a
    /// top (milliseconds); `None`: never.
    pub replace_after: Option<u64>,
}

impl Rules {
    /// The rules for `players` players and lines of `line` cards: the
    /// text's numbers, one set of 150 cards (six of each kind) for up to
    /// four players and two sets from five on, and the display replaceable
    /// after a minute without a top.
    ///
    /// # Errors
    /// Players outside 2..=8, a line outside 3..=5, or 5 with two players.
    pub fn standard(players: usize, line: usize) -> Result<Rules, String> {
        if !(2..=8).contains(&players) {
            return Err(format!("{players} players: Toppo is for 2 to 8"));
        }
        if !(3..=5).contains(&line) {
            return Err(format!("lines of {line}: the display has 3, 4 or 5 cards"));
        }
        if players == 2 && line == 5 {
            return Err("with two players the display has 3 or 4 cards, never 5".into());
        }
        Ok(Rules {
            players,
            line,
            deck: DeckSpec::uniform(6, if players >= 5 { 2 } else { 1 }),
            deal: 33,
            penalty: 5,
            early_penalty: 1,
            toppo_below: 10,
            replace_after: Some(60_000),
        })
    }
}

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Action {
    /// Reveals the top card of their deck onto their line.
    Reveal,
    /// Shouts "top", putting their line on the display in this order: for
    /// each display place, the line card put on it.
    Top {
        /// For each display place, the index in the line of the card put on
        /// it.
        order: Vec<usize>,
    },
    /// Puts line card `line` on display place `place`, claiming they are
    /// identical.
    Match {
        /// The line card.
        line: usize,
        /// The display place.
        place: usize,
    },
    /// Puts their line (what is left of it) under their deck.
    Renew,
    /// Calls "toppo": fewer than ten cards left.
    Toppo,
    /// Replaces the display with new cards, once it has gone long enough
    /// without a top.
    Replace,
}

/// An action at a time, by a player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Timed {
    /// Milliseconds from the start of the game.
    pub at: u64,
    /// The acting player's seat, from 0.
    pub player: usize,
    /// What they do.
    pub action: Action,
}

/// What happened, for a person: the page says it out loud.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Event {
    /// A player topped the display and starts again.
    Top {
        /// The player's seat, from 0.
        player: usize,
    },
    /// A player matched a card.
    Match {
        /// The player's seat, from 0.
        player: usize,
        /// The card matched, by name (e.g. `red-circle`).
        card: String,
    },
    /// A penalty, with its reason and the cards it cost.
    Penalty {
        /// The player's seat, from 0.
        player: usize,
        /// Why, in words.
        reason: String,
        /// Penalty cards taken from the stack.
        cards: usize,
    },
    /// The display was replaced.
    Replaced,
    /// The stack ran out and the covered display cards became a new one.
    Recycled {
        /// How many cards the new stack holds.
        cards: usize,
    },
    /// A player called "toppo" rightly: the game is over.
    Toppo {
        /// The player's seat, from 0.
        player: usize,
    },
    /// An action the rules do not allow now, ignored.
    Ignored {
        /// The player's seat, from 0.
        player: usize,
        /// Why.
        reason: String,
    },
}

/// One player's cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    /// The face-down deck, top first.
    pub deck: VecDeque<Card>,
    /// The line in front of them.
    pub line: Vec<Card>,
    /// True once they have matched from this line: only more matches or
    /// a renew are left.
    pub matched: bool,
    /// Cards revealed before the starter began (taken back with a penalty).
    pub early: bool,
}

impl Hand {
    /// Cards left: deck and line.
    pub fn cards(&self) -> usize {
        self.deck.len() + self.line.len()
    }
}

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    rng: Rng,
    hands: Vec<Hand>,
    /// The display: one pile a place, its top card last.
    piles: Vec<Vec<Card>>,
    /// The remaining stack, drawn from the end.
    stack: Vec<Card>,
    /// Who starts play after the last interruption.
    starter: usize,
    /// True once the starter has revealed a card since.
    started: bool,
    /// When the display was last topped (or laid out).
    last_top: u64,
    /// The time of the last action applied.
    now: u64,
    /// Penalty points at the end, by player (`None` while it goes on).
    points: Option<Vec<usize>>,
    /// Lines put down, for the figures: every full line revealed.
    lines: usize,
}

impl Game {
    /// A new game: the cards shuffled by `seed`, dealt, and `rules.line`
    /// cards laid out as the display; `starter` starts.
    ///
    /// # Errors
    /// Too few cards for the deal and the display.
    pub fn new(rules: Rules, seed: u64, starter: usize) -> Result<Game, String> {
        let mut rng = Rng::new(seed);
        let mut cards = rules.deck.cards();
        let need = rules.players * rules.deal + rules.line;
        if cards.len() < need {
            return Err(format!(
                "{} cards for {} players of {} and a display of {}: {need} are needed",
                cards.len(),
                rules.players,
                rules.deal,
                rules.line
            ));
        }
        rng.shuffle(&mut cards);
        let mut hands = Vec::with_capacity(rules.players);
        for _ in 0..rules.players {
            let deck: VecDeque<Card> = cards.split_off(cards.len() - rules.deal).into();
            hands.push(Hand {
                deck,
                line: Vec::new(),
                matched: false,
                early: false,
            });
        }
        let piles = (0..rules.line)
            .map(|_| vec![cards.pop().unwrap_or(Card::of_kind(0))])
            .collect();
        Ok(Game {
            starter: starter % rules.players,
            rules,
            rng,
            hands,
            piles,
            stack: cards,
            started: false,
            last_top: 0,
            now: 0,
            points: None,
            lines: 0,
        })
    }

    /// A game with the cards where they are given: each player's deck (top
    /// first), the display, and the stack (drawn from its end). For tests
    /// and worked examples.
    pub fn arranged(
        rules: Rules,
        decks: Vec<Vec<Card>>,
        display: Vec<Card>,
        stack: Vec<Card>,
        starter: usize,
    ) -> Game {
        Game {
            starter: starter % rules.players.max(1),
            rng: Rng::new(0),
            hands: decks
                .into_iter()
                .map(|d| Hand {
                    deck: d.into(),
                    line: Vec::new(),
                    matched: false,
                    early: false,
                })
                .collect(),
            piles: display.into_iter().map(|c| vec![c]).collect(),
            stack,
            rules,
            started: false,
            last_top: 0,
            now: 0,
            points: None,
            lines: 0,
        }
    }

    /// Every card in play: decks, lines, display piles and stack.
    pub fn card_count(&self) -> usize {
        self.hands.iter().map(Hand::cards).sum::<usize>()
            + self.piles.iter().map(Vec::len).sum::<usize>()
            + self.stack.len()
    }

    /// The rules the game was dealt under (players, line, deck).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Each player's cards.
    pub fn hands(&self) -> &[Hand] {
        &self.hands
    }

    /// The display's top cards, place by place.
    pub fn display(&self) -> Vec<Card> {
        self.piles.iter().filter_map(|p| p.last().copied()).collect()
    }

    /// The display's top card at `place`.
    pub fn shown(&self, place: usize) -> Option<Card> {
        self.piles.get(place).and_then(|p| p.last().copied())
    }

    /// Cards left in the stack.
    pub fn stack(&self) -> usize {
        self.stack.len()
    }

    /// Who starts play.
    pub fn starter(&self) -> usize {
        self.starter
    }

    /// True once the starter has begun since the last interruption.
    pub fn started(&self) -> bool {
        self.started
    }

    /// When the display was last topped or laid out.
    pub fn last_top(&self) -> u64 {
        self.last_top
    }

    /// Full lines revealed so far.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// The time of the last action.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Penalty points by player once the game is over.
    pub fn points(&self) -> Option<&[usize]> {
        self.points.as_deref()
    }

    /// True once someone has called "toppo" rightly.
    pub fn is_over(&self) -> bool {
        self.points.is_some()
    }

    /// Takes up to `n` penalty cards from the stack (renewing it from the
    /// display's covered cards when it runs out), for the bottom of
    /// `player`'s deck; returns how many.
    fn penalty_cards(&mut self, player: usize, n: usize, events: &mut Vec<Event>) -> usize {
        let mut taken = 0;
        for _ in 0..n {
            if self.stack.is_empty() {
                self.recycle(events);
            }
            let Some(c) = self.stack.pop() else { break };
            self.hands[player].deck.push_back(c);
            taken += 1;
        }
        taken
    }

    /// The stack has run out: the covered cards of the display are
    /// shuffled into a new one.
    fn recycle(&mut self, events: &mut Vec<Event>) {
        let mut fresh = Vec::new();
        for p in &mut self.piles {
            let top = p.pop();
            fresh.append(p);
            p.extend(top);
        }
        if !fresh.is_empty() {
            self.rng.shuffle(&mut fresh);
            events.push(Event::Recycled { cards: fresh.len() });
            self.stack = fresh;
        }
    }

    /// Every player's line goes under their deck (an interruption).
    fn clear_lines(&mut self) {
        for h in &mut self.hands {
            let line = std::mem::take(&mut h.line);
            h.deck.extend(line);
            h.matched = false;
            h.early = false;
        }
    }

    /// Play stops; everyone's line goes back; `player` starts again.
    fn interrupt(&mut self, player: usize) {
        self.clear_lines();
        self.starter = player;
        self.started = false;
    }

    /// `player`'s penalty: their line and `n` cards under their deck,
    /// everyone's line back, and they start again.
    fn penalise(&mut self, player: usize, n: usize, reason: String, events: &mut Vec<Event>) {
        self.interrupt(player);
        let cards = self.penalty_cards(player, n, events);
        events.push(Event::Penalty {
            player,
            reason,
            cards,
        });
    }

    /// Applies one action; returns what happened.
    pub fn apply(&mut self, t: &Timed) -> Vec<Event> {
        let mut events = Vec::new();
        let p = t.player;
        if self.is_over() || p >= self.hands.len() {
            return events;
        }
        self.now = self.now.max(t.at);
        let e = &mut events;
        match &t.action {
            Action::Reveal => self.reveal(p, e),
            Action::Top { order } => self.top(p, order, t.at, e),
            Action::Match { line, place } => self.match_card(p, *line, *place, e),
            Action::Renew => self.renew(p, e),
            Action::Toppo => self.toppo(p, e),
            Action::Replace => self.replace(p, t.at, e),
        }
        events
    }

    /// Player `p` turns their next card up, or starts too early and is
    /// penalised.
    fn reveal(&mut self, p: usize, events: &mut Vec<Event>) {
        let l = self.rules.line;
        let h = &self.hands[p];
        if h.matched {
            events.push(ignored(p, "a matched line is renewed, not completed"));
        } else if h.line.len() >= l {
            events.push(ignored(p, "the line is full"));
        } else if h.deck.is_empty() {
            events.push(ignored(p, "no card left to reveal"));
        } else if !self.started && p != self.starter {
            // Starting too early: the line and one card.
            let mut line = std::mem::take(&mut self.hands[p].line);
            if let Some(c) = self.hands[p].deck.pop_front() {
                line.push(c);
            }
            self.hands[p].deck.extend(line);
            let starter = self.starter;
            self.clear_lines();
            let cards = self.penalty_cards(p, self.rules.early_penalty, events);
            self.starter = starter;
            events.push(Event::Penalty {
                player: p,
                reason: "started before the starter".into(),
                cards,
            });
        } else {
            if p == self.starter {
                self.started = true;
            }
            let h = &mut self.hands[p];
            if let Some(c) = h.deck.pop_front() {
                h.line.push(c);
                if h.line.len() == l {
                    self.lines += 1;
                }
            }
        }
    }

    /// Player `p` shouts top, laying their line on the display in `order`.
    fn top(&mut self, p: usize, order: &[usize], at: u64, events: &mut Vec<Event>) {
        if self.hands[p].line.len() != self.rules.line || self.hands[p].matched {
            events.push(ignored(p, "a top needs a full line"));
        } else if tops_in(&self.hands[p].line, &self.display(), order) {
            let line = std::mem::take(&mut self.hands[p].line);
            for (place, &j) in order.iter().enumerate() {
                self.piles[place].push(line[j]);
            }
            self.interrupt(p);
            self.last_top = at;
            events.push(Event::Top { player: p });
        } else {
            let n = self.rules.penalty;
            let why = "shouted top, but the line does not top the display in that order";
            self.penalise(p, n, why.into(), events);
        }
    }

    /// Player `p` lays card `line` of their line on the display's `place`.
    fn match_card(&mut self, p: usize, line: usize, place: usize, events: &mut Vec<Event>) {
        let l = self.rules.line;
        let h = &self.hands[p];
        if (h.line.len() != l && !h.matched) || line >= h.line.len() || place >= l {
            events.push(ignored(p, "a match needs a full line and a card of it"));
            return;
        }
        let c = h.line[line];
        if self.shown(place) == Some(c) {
            let h = &mut self.hands[p];
            h.line.remove(line);
            h.matched = true;
            self.piles[place].push(c);
            events.push(Event::Match {
                player: p,
                card: c.to_string(),
            });
        } else {
            let n = self.rules.penalty;
            let why = format!("matched {c}, which is not the display's card there");
            self.penalise(p, n, why, events);
        }
    }

    /// Player `p` puts their line back under their deck.
    fn renew(&mut self, p: usize, events: &mut Vec<Event>) {
        let l = self.rules.line;
        let h = &mut self.hands[p];
        if h.line.len() != l && !h.matched {
            events.push(ignored(p, "a renew needs a full line"));
        } else {
            let line = std::mem::take(&mut h.line);
            h.deck.extend(line);
            h.matched = false;
        }
    }

    /// Player `p` calls toppo: the game ends if they hold few enough
    /// cards, else a penalty.
    fn toppo(&mut self, p: usize, events: &mut Vec<Event>) {
        if self.hands[p].cards() < self.rules.toppo_below {
            let points = self
                .hands
                .iter()
                .enumerate()
                .map(|(k, h)| if k == p { 0 } else { h.cards() })
                .collect();
            self.points = Some(points);
            events.push(Event::Toppo { player: p });
        } else {
            let n = self.rules.penalty;
            let left = self.hands[p].cards();
            self.penalise(p, n, format!("called toppo with {left} cards"), events);
        }
    }

    /// A new display from the stack, once long enough has passed without
    /// a top (asked by player `p`).
    fn replace(&mut self, p: usize, at: u64, events: &mut Vec<Event>) {
        match self.rules.replace_after {
            Some(after) if at >= self.last_top.saturating_add(after) => {
                for place in 0..self.rules.line {
                    if self.stack.is_empty() {
                        self.recycle(events);
                    }
                    if let Some(c) = self.stack.pop() {
                        self.piles[place].push(c);
                    }
                }
                self.clear_lines();
                self.last_top = at;
                self.started = false;
                events.push(Event::Replaced);
            }
            _ => events.push(ignored(
                p,
                "the display is replaced only after a while without a top",
            )),
        }
    }

    /// The game from `seed` with `actions` applied in the order of their
    /// time, then player, then the order given.
    ///
    /// # Errors
    /// As [`Game::new`].
    pub fn replay(
        rules: Rules,
        seed: u64,
        starter: usize,
        actions: &[Timed],
    ) -> Result<(Game, Vec<Event>), String> {
        let mut g = Game::new(rules, seed, starter)?;
        let mut order: Vec<usize> = (0..actions.len()).collect();
        order.sort_by_key(|&k| (actions[k].at, actions[k].player, k));
        let mut events = Vec::new();
        for k in order {
            events.extend(g.apply(&actions[k]));
        }
        Ok((g, events))
    }
}

/// A session of several games, with running totals: the player with the
/// most penalty points starts the next game and chooses its line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Penalty points so far, by player.
    pub points: Vec<usize>,
}

impl Totals {
    /// Adds a finished game's points.
    pub fn add(&mut self, points: &[usize]) {
        if self.points.len() < points.len() {
            self.points.resize(points.len(), 0);
        }
        for (t, p) in self.points.iter_mut().zip(points) {
            *t += p;
        }
    }
}

/// An action of `player` that does nothing, and why.
fn ignored(player: usize, why: &str) -> Event {
    Event::Ignored {
        player,
        reason: why.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_cards;

    fn c(s: &str) -> Vec<Card> {
        parse_cards(s).unwrap()
    }

    fn at(at: u64, player: usize, action: Action) -> Timed {
        Timed { at, player, action }
    }

    /// Two players, lines of 3; player 0 holds three cards that top the
    /// display only in the order 2, 0, 1, then filler.
    fn table() -> Game {
        let rules = Rules::standard(2, 3).unwrap();
        let mut d0 = c("blue-waves,green-square,red-plus");
        d0.extend(c(
            "white-ih,white-ih,white-ih,white-ih,white-ih,white-ih,white-ih,white-ih,white-ih,white-ih",
        ));
        let d1 = c("red-circle,yellow-waves,white-ih,white-ih,white-ih,white-ih,white-ih,white-ih,white-ih,white-ih,white-ih,white-ih");
        let display = c("red-circle,blue-plus,green-square");
        let stack = c("yellow-plus,yellow-plus,yellow-plus,yellow-plus,yellow-plus,yellow-plus,yellow-plus");
        Game::arranged(rules, vec![d0, d1], display, stack, 0)
    }

    fn reveal3(g: &mut Game, p: usize, from: u64) {
        for k in 0..3 {
            g.apply(&at(from + k, p, Action::Reveal));
        }
    }

    #[test]
    fn a_top_in_the_right_order_takes_the_display_and_a_wrong_one_costs_five() {
        let mut g = table();
        let total = g.card_count();
        reveal3(&mut g, 0, 0);
        // Player 1, waiting for the starter no longer, has a card out.
        g.apply(&at(5, 1, Action::Reveal));
        assert_eq!(g.hands()[1].line.len(), 1);
        // red-plus on red-circle, blue-waves on blue-plus, green-square on green-square.
        let e = g.apply(&at(10, 0, Action::Top { order: vec![2, 0, 1] }));
        assert_eq!(e, vec![Event::Top { player: 0 }]);
        assert_eq!(g.display(), c("red-plus,blue-waves,green-square"));
        assert!(g.hands()[1].line.is_empty(), "the others' lines go back");
        assert_eq!(g.hands()[0].cards(), 10);
        assert_eq!((g.starter(), g.started()), (0, false));
        assert_eq!(g.card_count(), total, "no card lost or made");
        // The same cards in the dealt order: a wrong top, five cards.
        let mut g = table();
        reveal3(&mut g, 0, 0);
        let e = g.apply(&at(10, 0, Action::Top { order: vec![0, 1, 2] }));
        assert!(
            matches!(
                &e[..],
                [Event::Penalty {
                    player: 0,
                    cards: 5,
                    ..
                }]
            ),
            "{e:?}"
        );
        assert_eq!(g.hands()[0].cards(), 13 + 5);
        assert_eq!(g.card_count(), total);
    }

    #[test]
    fn starting_before_the_starter_costs_a_card_and_waits_on() {
        let mut g = table();
        let e = g.apply(&at(0, 1, Action::Reveal));
        assert!(
            matches!(
                &e[..],
                [Event::Penalty {
                    player: 1,
                    cards: 1,
                    ..
                }]
            ),
            "{e:?}"
        );
        assert_eq!(g.hands()[1].cards(), 12 + 1);
        assert!(g.hands()[1].line.is_empty());
        assert_eq!((g.starter(), g.started()), (0, false));
        // Once the starter has begun, anyone may.
        g.apply(&at(1, 0, Action::Reveal));
        let e = g.apply(&at(2, 1, Action::Reveal));
        assert!(e.is_empty(), "{e:?}");
    }

    #[test]
    fn a_match_changes_the_display_and_ends_the_line() {
        let mut g = table();
        g.apply(&at(0, 0, Action::Reveal));
        reveal3(&mut g, 1, 1);
        // red-circle is the display's first card.
        let e = g.apply(&at(10, 1, Action::Match { line: 0, place: 0 }));
        assert_eq!(
            e,
            vec![Event::Match {
                player: 1,
                card: "red-circle".into()
            }]
        );
        assert!(g.hands()[1].matched);
        let e = g.apply(&at(11, 1, Action::Reveal));
        assert!(
            matches!(&e[..], [Event::Ignored { .. }]),
            "the line is not completed: {e:?}"
        );
        g.apply(&at(12, 1, Action::Renew));
        assert!(g.hands()[1].line.is_empty() && !g.hands()[1].matched);
        // A card matched where it is not identical: five cards.
        let mut g = table();
        g.apply(&at(0, 0, Action::Reveal));
        reveal3(&mut g, 1, 1);
        let e = g.apply(&at(10, 1, Action::Match { line: 1, place: 0 }));
        assert!(
            matches!(
                &e[..],
                [Event::Penalty {
                    player: 1,
                    cards: 5,
                    ..
                }]
            ),
            "{e:?}"
        );
        assert_eq!(g.starter(), 1);
    }

    #[test]
    fn toppo_ends_the_game_below_ten_cards_only() {
        let mut g = table();
        let e = g.apply(&at(0, 1, Action::Toppo));
        assert!(
            matches!(
                &e[..],
                [Event::Penalty {
                    player: 1,
                    cards: 5,
                    ..
                }]
            ),
            "{e:?}"
        );
        // Player 0 tops, leaving ten cards: still too many.
        let mut g = table();
        reveal3(&mut g, 0, 0);
        g.apply(&at(10, 0, Action::Top { order: vec![2, 0, 1] }));
        let e = g.apply(&at(11, 0, Action::Toppo));
        assert!(matches!(&e[..], [Event::Penalty { .. }]), "{e:?}");
        // With nine it ends the game: the other's cards are their points.
        let mut g = table();
        g.hands[0].deck.truncate(9);
        let e = g.apply(&at(20, 0, Action::Toppo));
        assert_eq!(e, vec![Event::Toppo { player: 0 }]);
        assert_eq!(g.points(), Some(&[0, 12][..]));
    }

    #[test]
    fn the_stack_is_renewed_from_the_covered_display_and_an_untopped_display_replaced() {
        let mut g = table();
        let total = g.card_count();
        reveal3(&mut g, 0, 0);
        g.apply(&at(10, 0, Action::Top { order: vec![2, 0, 1] }));
        // Penalties take the seven stack cards and one more: the three
        // covered display cards become the stack.
        for t in [20, 30] {
            g.apply(&at(t, 1, Action::Toppo));
        }
        assert_eq!(g.card_count(), total);
        assert_eq!(g.stack(), 7 + 3 - 10);
        // A minute without a top: the display may be replaced.
        let e = g.apply(&at(30_000, 0, Action::Replace));
        assert!(matches!(&e[..], [Event::Ignored { .. }]), "{e:?}");
        let e = g.apply(&at(70_000, 0, Action::Replace));
        assert!(e.contains(&Event::Replaced), "{e:?}");
        assert_eq!(g.card_count(), total);
    }
}
