//! Games between bots, in simulated time: each bot reveals cards at its
//! own pace, takes in a full line after its reaction time, and acts on it
//! as its strategy says, now and then wrongly. The game engine
//! ([`crate::game`]) judges every action, so a simulated game is a real
//! one: its actions replay to the same end.

use serde::Serialize;

use crate::check::{matches, top_order, tops_in};
use crate::game::{Action, Event, Game, Rules, Timed};
use topitop_game_api::rng::Rng;

/// When a bot matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Matching {
    /// Whenever a card of its line is identical to a display card.
    Always,
    /// Only with two or more such cards.
    Two,
    /// Never: it waits for a top.
    Never,
}

impl std::str::FromStr for Matching {
    type Err = String;
    fn from_str(s: &str) -> Result<Matching, String> {
        match s {
            "always" => Ok(Matching::Always),
            "two" => Ok(Matching::Two),
            "never" => Ok(Matching::Never),
            other => Err(format!(
                "{other:?} is not a matching strategy: always, two or never"
            )),
        }
    }
}

/// A simulated player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bot {
    /// Milliseconds to reveal a card: mean and deviation (normal, at least
    /// 50).
    pub reveal_ms: (f64, f64),
    /// Milliseconds to take in a full line, or the display after a
    /// restart, and act: mean and deviation (normal, at least 80).
    pub react_ms: (f64, f64),
    /// Chance that an action on a line is a mistake (a wrong top or match,
    /// or a top shouted on nothing), and chance to start too early after an
    /// interruption.
    pub error: f64,
    /// When it matches.
    pub matching: Matching,
}

/// The longest time a bot may take for anything, in milliseconds (an
/// hour): far beyond any person's reaction, far below where a game's clock
/// could come near the end of its 64 bits (a game stops after
/// [`MAX_ACTIONS`] actions, so its clock stays below 10^12 ms).
pub const MAX_BOT_MS: f64 = 3_600_000.0;

impl Bot {
    /// Checks that every field is in its range: times (means and
    /// deviations) from 0 to [`MAX_BOT_MS`], the error a chance from 0 to
    /// 1. `who` names the bot in the message (e.g. "player 2").
    ///
    /// # Errors
    /// A field out of its range, or not a number; the message names the
    /// field, its value and the range.
    pub fn check(&self, who: &str) -> Result<(), String> {
        let times = [
            ("reaction time", self.react_ms.0),
            ("reaction deviation", self.react_ms.1),
            ("reveal time", self.reveal_ms.0),
            ("reveal deviation", self.reveal_ms.1),
        ];
        for (what, ms) in times {
            if !(0.0..=MAX_BOT_MS).contains(&ms) {
                return Err(format!(
                    "{who}: a {what} of {ms} ms is out of range: from 0 to {MAX_BOT_MS} ms (an hour)"
                ));
            }
        }
        if !(0.0..=1.0).contains(&self.error) {
            return Err(format!(
                "{who}: an error rate of {} is not a chance: from 0 to 1",
                self.error
            ));
        }
        Ok(())
    }

    /// A bot reacting in `react` milliseconds on average (deviation a
    /// fifth of that), revealing a card in 250 ± 50 ms, wrong one time in
    /// a hundred, matching whenever it can.
    pub fn with_reaction(react: f64) -> Bot {
        Bot {
            reveal_ms: (250.0, 50.0),
            react_ms: (react, react / 5.0),
            error: 0.01,
            matching: Matching::Always,
        }
    }
}

/// What one simulated game gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Penalty points, by player.
    pub points: Vec<usize>,
    /// Who called "toppo".
    pub winner: usize,
    /// Simulated milliseconds.
    pub duration_ms: u64,
    /// Full lines revealed.
    pub lines: usize,
    /// Tops, by player.
    pub tops: Vec<usize>,
    /// Matches, by player.
    pub matched: Vec<usize>,
    /// Penalties, by player.
    pub penalties: Vec<usize>,
    /// Actions applied.
    pub actions: usize,
    /// False when the game hit the action limit before anyone called
    /// "toppo" (it is then scored as if the fewest cards had).
    pub finished: bool,
}

/// The most actions one simulated game takes before it is stopped.
pub const MAX_ACTIONS: usize = 200_000;

/// `now` plus a normal draw of milliseconds (at least `floor`, at most
/// [`MAX_BOT_MS`]). The clock saturates rather than wraps: a time past the
/// end of 64 bits is "never", not a moment near the start of the game.
fn plus_draw(now: u64, rng: &mut Rng, (mean, dev): (f64, f64), floor: f64) -> u64 {
    let ms = (mean + dev * rng.normal()).clamp(floor, MAX_BOT_MS.max(floor));
    now.saturating_add(ms as u64)
}

/// The seed of game `game` of a run seeded `run`: SplitMix64 (Steele, Lea
/// and Flood) over the run's own mixed seed, so that every game of a run
/// has its own seed and two runs' sequences of seeds are unrelated (the
/// chance that two runs of n games share a seed is about n²/2⁶⁴), where
/// `run + game` would give `--seed 1` and `--seed 2` all but one game in
/// common.
pub fn game_seed(run: u64, game: u64) -> u64 {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    mix64(mix64(run).wrapping_add(game.wrapping_add(1).wrapping_mul(GAMMA)))
}

/// SplitMix64's finaliser: a bijection of 64 bits in which every input
/// bit changes about half of the output bits.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a bot will do next, and when.
#[derive(Clone, Debug)]
struct Plan {
    at: u64,
    action: Option<Action>,
}

/// A game at a table of bots and, in some seats, people: the bots act on
/// their plans as simulated time goes on, a person's actions come in with
/// their times. A table of bots alone is a simulated game ([`play`]).
#[derive(Clone, Debug)]
pub struct Table {
    game: Game,
    /// By seat: the bot, or `None` for a person.
    bots: Vec<Option<Bot>>,
    plans: Vec<Plan>,
    rng: Rng,
    tops: Vec<usize>,
    matched: Vec<usize>,
    penalties: Vec<usize>,
    actions: usize,
}

impl Table {
    /// A new game under `rules` from `seed`, `starter` starting, seat `k`
    /// played by `seats[k]` (`None`: a person).
    ///
    /// # Errors
    /// As [`Game::new`], seats that are not one a player, or a bot out of
    /// range ([`Bot::check`]; players are numbered from 1).
    pub fn new(rules: &Rules, seats: Vec<Option<Bot>>, seed: u64, starter: usize) -> Result<Table, String> {
        if seats.len() != rules.players {
            return Err(format!("{} seats for {} players", seats.len(), rules.players));
        }
        for (k, bot) in seats.iter().enumerate() {
            if let Some(bot) = bot {
                bot.check(&format!("the bot of player {}", k + 1))?;
            }
        }
        let n = rules.players;
        let mut t = Table {
            game: Game::new(rules.clone(), seed, starter)?,
            bots: seats,
            plans: (0..n)
                .map(|_| Plan {
                    at: u64::MAX,
                    action: None,
                })
                .collect(),
            rng: Rng::new(seed ^ 0x005E_ED0F_B075),
            tops: vec![0; n],
            matched: vec![0; n],
            penalties: vec![0; n],
            actions: 0,
        };
        t.replan_all(0);
        Ok(t)
    }

    /// The game being simulated, as far as it has been played.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Plans every bot afresh from `now` (after an interruption, or at
    /// the start).
    fn replan_all(&mut self, now: u64) {
        for p in 0..self.plans.len() {
            self.plans[p] = self.plan_for(p, now, true);
        }
    }

    fn plan_for(&mut self, p: usize, now: u64, fresh: bool) -> Plan {
        match &self.bots[p] {
            Some(bot) => next_plan(&self.game, bot, p, &mut self.rng, now, fresh),
            None => Plan {
                at: u64::MAX,
                action: None,
            },
        }
    }

    /// Applies `t` and replans: everyone after an interruption, else the
    /// actor, and everyone waiting once the starter has begun. Returns
    /// what happened.
    pub fn act(&mut self, t: &Timed) -> Vec<Event> {
        let was_started = self.game.started();
        let events = self.game.apply(t);
        self.actions += 1;
        let mut interrupted = false;
        for e in &events {
            match e {
                Event::Top { player } => {
                    self.tops[*player] += 1;
                    interrupted = true;
                }
                Event::Match { player, .. } => self.matched[*player] += 1,
                Event::Penalty { player, .. } => {
                    self.penalties[*player] += 1;
                    interrupted = true;
                }
                Event::Replaced => interrupted = true,
                Event::Toppo { .. } | Event::Recycled { .. } | Event::Ignored { .. } => {}
            }
        }
        if interrupted {
            self.replan_all(t.at);
        } else {
            self.plans[t.player] = self.plan_for(t.player, t.at, false);
            if !was_started && self.game.started() {
                // The starter has begun: everyone may play.
                for q in 0..self.plans.len() {
                    if q != t.player {
                        self.plans[q] = self.plan_for(q, t.at, true);
                    }
                }
            }
        }
        events
    }

    /// The next thing the bots (or the display's replacement) would do, at
    /// or before `until`.
    fn next_due(&self, until: u64) -> Option<Timed> {
        let (p, at) = self
            .plans
            .iter()
            .enumerate()
            .map(|(p, plan)| (p, plan.at))
            .min_by_key(|&(p, at)| (at, p))?;
        if let Some(after) = self.game.rules().replace_after {
            let due = self.game.last_top().saturating_add(after);
            if due <= at && due <= until {
                return Some(Timed {
                    at: due,
                    player: self.game.starter(),
                    action: Action::Replace,
                });
            }
        }
        if at > until || at == u64::MAX {
            return None;
        }
        let action = self.plans[p].action.clone()?;
        Some(Timed {
            at,
            player: p,
            action,
        })
    }

    /// Lets the bots play until `until` (milliseconds), each action pushed
    /// to `log` if given; returns what happened.
    pub fn run_until(&mut self, until: u64, mut log: Option<&mut Vec<Timed>>) -> Vec<Event> {
        let mut events = Vec::new();
        while !self.game.is_over() && self.actions < MAX_ACTIONS {
            let Some(t) = self.next_due(until) else { break };
            if let Some(log) = log.as_deref_mut() {
                log.push(t.clone());
            }
            events.extend(self.act(&t));
        }
        events
    }

    /// What the game gave, so far or at its end.
    pub fn outcome(&self) -> Outcome {
        let finished = self.game.is_over();
        let points: Vec<usize> = match self.game.points() {
            Some(p) => p.to_vec(),
            None => self.game.hands().iter().map(|h| h.cards()).collect(),
        };
        let winner = points
            .iter()
            .enumerate()
            .min_by_key(|&(_, &x)| x)
            .map_or(0, |(k, _)| k);
        Outcome {
            points,
            winner,
            duration_ms: self.game.now(),
            lines: self.game.lines(),
            tops: self.tops.clone(),
            matched: self.matched.clone(),
            penalties: self.penalties.clone(),
            actions: self.actions,
            finished,
        }
    }
}

/// Plays one game between `bots` under `rules` from `seed`, `starter`
/// starting; with `log`, the actions applied are pushed to it.
///
/// # Errors
/// As [`Game::new`].
pub fn play(
    rules: &Rules,
    bots: &[Bot],
    seed: u64,
    starter: usize,
    log: Option<&mut Vec<Timed>>,
) -> Result<Outcome, String> {
    if bots.is_empty() {
        return Err("no bots".into());
    }
    let seats = (0..rules.players)
        .map(|p| Some(bots[p % bots.len()].clone()))
        .collect();
    let mut table = Table::new(rules, seats, seed, starter)?;
    table.run_until(u64::MAX - 1, log);
    Ok(table.outcome())
}

/// A bot's next action from `now`: start (or start too early), reveal,
/// act on a full line, go on matching, or call "toppo". `fresh`: play has
/// just (re)started for it.
fn next_plan(game: &Game, bot: &Bot, p: usize, rng: &mut Rng, now: u64, fresh: bool) -> Plan {
    let h = &game.hands()[p];
    let rules = game.rules();
    let react = |rng: &mut Rng| plus_draw(now, rng, bot.react_ms, 80.0);
    let reveal = |rng: &mut Rng| plus_draw(now, rng, bot.reveal_ms, 50.0);
    if h.cards() < rules.toppo_below {
        return Plan {
            at: react(rng),
            action: Some(Action::Toppo),
        };
    }
    if !game.started() && p != game.starter() {
        // Waiting for the starter; now and then starting too early.
        if fresh && rng.unit() < bot.error {
            return Plan {
                at: react(rng),
                action: Some(Action::Reveal),
            };
        }
        return Plan {
            at: u64::MAX,
            action: None,
        };
    }
    let display = game.display();
    if h.matched {
        // Going on matching, else the rest of the line goes back.
        let action = match matches(&h.line, &display).first() {
            Some(&(line, place)) => Action::Match { line, place },
            None => Action::Renew,
        };
        return Plan {
            at: reveal(rng),
            action: Some(action),
        };
    }
    if h.line.len() < rules.line {
        // The first card after a restart is the bot's reaction; then its
        // pace.
        let at = if fresh { react(rng) } else { reveal(rng) };
        return Plan {
            at,
            action: Some(Action::Reveal),
        };
    }
    // A full line: top, match or renew, now and then wrongly.
    let order = top_order(&h.line, &display);
    let found = matches(&h.line, &display);
    let wants_match = match bot.matching {
        Matching::Always => !found.is_empty(),
        Matching::Two => found.len() >= 2,
        Matching::Never => false,
    };
    let mistake = rng.unit() < bot.error;
    let action = match (order, mistake) {
        (Some(order), false) => Action::Top { order },
        (Some(order), true) => {
            // The right cards in a wrong order, when there is one.
            let mut wrong: Vec<usize> = order.clone();
            wrong.rotate_left(1);
            if tops_in(&h.line, &display, &wrong) {
                Action::Top { order }
            } else {
                Action::Top { order: wrong }
            }
        }
        (None, false) if wants_match => {
            let (line, place) = found[0];
            Action::Match { line, place }
        }
        (None, false) => Action::Renew,
        (None, true) => {
            // A card matched where it is not identical, or a top shouted
            // on nothing.
            match (0..h.line.len()).find_map(|j| {
                (0..display.len())
                    .find(|&i| display[i] != h.line[j])
                    .map(|i| (j, i))
            }) {
                Some((line, place)) if !found.is_empty() || rng.unit() < 0.5 => Action::Match { line, place },
                _ => Action::Top {
                    order: (0..rules.line).collect(),
                },
            }
        }
    };
    Plan {
        at: react(rng),
        action: Some(action),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_replays_to_the_same_end_from_its_seed_and_actions() {
        let rules = Rules::standard(4, 3).unwrap();
        let bots: Vec<Bot> = [600.0, 700.0, 800.0, 900.0].map(Bot::with_reaction).to_vec();
        let mut log = Vec::new();
        let a = play(&rules, &bots, 11, 0, Some(&mut log)).unwrap();
        assert!(a.finished, "{a:?}");
        assert_eq!(a.points.iter().filter(|&&p| p == 0).count(), 1, "{a:?}");
        let b = play(&rules, &bots, 11, 0, None).unwrap();
        assert_eq!(a, b, "the same seed, the same game");
        let (g, _) = Game::replay(rules.clone(), 11, 0, &log).unwrap();
        assert_eq!(
            g.points(),
            Some(&a.points[..]),
            "the actions replay to the same end"
        );
        let c = play(&rules, &bots, 12, 0, None).unwrap();
        assert_ne!(a, c, "another seed, another game");
    }

    #[test]
    fn absurd_bot_times_are_refused_naming_the_value_and_the_range() {
        // react=2e19 once wrapped the clock: games ended "by a toppo call"
        // after 162 lines where react=1e18 gave none.
        let rules = Rules::standard(2, 3).unwrap();
        for react in [2e19, 1e300, f64::INFINITY, f64::NAN, -1.0] {
            let e = play(&rules, &[Bot::with_reaction(react)], 1, 0, None).unwrap_err();
            assert!(
                e.contains("player 1") && e.contains("reaction time"),
                "{react}: {e}"
            );
            assert!(e.contains("from 0 to 3600000 ms"), "{react}: {e}");
        }
        let mut bot = Bot::with_reaction(700.0);
        bot.reveal_ms = (1e20, 10.0);
        let e = play(&rules, &[Bot::with_reaction(700.0), bot], 1, 0, None).unwrap_err();
        assert!(
            e.contains("player 2") && e.contains("reveal time of 100000000000000000000 ms"),
            "{e}"
        );
        let mut bot = Bot::with_reaction(700.0);
        bot.error = 1.5;
        assert!(play(&rules, &[bot], 1, 0, None)
            .unwrap_err()
            .contains("error rate of 1.5"));
    }

    #[test]
    fn the_clock_saturates_instead_of_wrapping() {
        let mut rng = Rng::new(3);
        assert_eq!(plus_draw(u64::MAX - 5, &mut rng, (1000.0, 0.0), 80.0), u64::MAX);
        assert_eq!(plus_draw(10, &mut rng, (f64::MAX, 0.0), 80.0), 10 + 3_600_000);
        // A bot slower than the display's replacement (a minute) never
        // acts: the game stops at the action limit, with no line and no
        // toppo call (the wrapped clock once ended such games by a call).
        let rules = Rules::standard(2, 3).unwrap();
        let o = play(&rules, &[Bot::with_reaction(MAX_BOT_MS)], 5, 0, None).unwrap();
        assert!(!o.finished && o.lines == 0 && o.actions == MAX_ACTIONS, "{o:?}");
        // A slow one within it plays real games.
        let o = play(&rules, &[Bot::with_reaction(20_000.0)], 5, 0, None).unwrap();
        assert!(o.finished && o.lines > 0 && o.duration_ms > 20_000, "{o:?}");
    }

    #[test]
    fn two_runs_seeds_are_unrelated() {
        // With game k seeded S + k, runs seeded 1 and 2 shared 19,999 of
        // 20,000 games.
        let one: std::collections::HashSet<u64> = (0..20_000).map(|k| game_seed(1, k)).collect();
        let two: std::collections::HashSet<u64> = (0..20_000).map(|k| game_seed(2, k)).collect();
        assert_eq!(one.len(), 20_000, "a run's games have their own seeds");
        assert_eq!(one.intersection(&two).count(), 0);
        assert_eq!(game_seed(1, 7), game_seed(1, 7), "reproducible");
        // And so are their deals: the first hand dealt in each game.
        let rules = Rules::standard(2, 3).unwrap();
        let deal = |s: u64| format!("{:?}", Game::new(rules.clone(), s, 0).unwrap().hands()[0]);
        let a: std::collections::HashSet<String> = (0..2_000).map(|k| deal(game_seed(1, k))).collect();
        let shared = (0..2_000).filter(|&k| a.contains(&deal(game_seed(2, k)))).count();
        assert_eq!(shared, 0);
    }
}
