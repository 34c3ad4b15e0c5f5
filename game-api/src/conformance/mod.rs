//! A game checked against the contract of [`Game`] and [`Tiered`] before
//! anything long is run on it, in the spirit of GamesmanOne's self-test:
//! random games are played from the start, and every position met and
//! every move of it is put through each promise the shared code relies
//! on. A game's tests run it; so does `topitop check --game NAME`.
//!
//! What is checked, by name (as [`Report`] lists it):
//!
//! * `legal`: every position play reaches passes [`Game::check`];
//! * `position-text`: a position's string reads back as the position;
//! * `move-text`: each move's string reads back, in its position, as the
//!   move, and no two moves of a position share a string;
//! * `game-over`: a position has no moves exactly when it is primitive;
//! * `turn`: [`Game::player_to_move`] is 0 or 1, and every move passes
//!   the turn; or, for an impartial game, it is `None` everywhere;
//! * `symmetry`: the canonical position is canonical itself, is among
//!   the position's images, which hold the position, each once, and all
//!   share its canonical form and primitive value; a game that declares
//!   no symmetries ([`Game::has_symmetries`]) has each position alone;
//! * `tier`: a position's tier is one of [`Tiered::tiers`], and a move
//!   leads to one of its tier's child tiers (or stays, in a loopy tier);
//! * `rank`: a position's index is inside its tier and unranks to it (or,
//!   where a class of symmetric positions shares an index, to one of them);
//!   random indices of every tier unrank to positions that rank back, and
//!   [`Tiered::walk_positions`] meets the same positions as unranking;
//! * `fixed-remoteness`: a tier's fixed remoteness is 0 where play ends,
//!   and one less in every child of a position that goes on;
//! * `reach`: on a board of at most [`REACH_LIMIT`] indices, every
//!   position play reaches is found and every indexed one the game
//!   accepts is walked: a game that says every accepted position is
//!   reached ([`Reachability::Every`](crate::Reachability)) or answers
//!   which are must be right (the counts go in the report either way);
//! * `name`, `variant`: the name is [`Registered::NAME`], and the variant
//!   string builds the same variant back;
//! * `drawing`: GamesmanUni's theme reads, and the AutoGUI strings of the
//!   positions and moves met name its centres, images and sounds, a
//!   move's button drawn from an image GamesmanUni can draw one from
//!   (checked by [`check_registered`] and [`check_presented`]).
//!
//! The games are random but seeded: a seed gives the same games on every
//! machine, so a violation found is found again.

use std::collections::BTreeMap;
use std::fmt;

use crate::rng::Rng;
use crate::{Game, Registered, TierType, Tiered};

mod drawing;

use drawing::Drawing;

/// How much to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Random games played from the start.
    pub games: u32,
    /// Where a game that has not ended is cut off (a loopy game may
    /// never end by chance).
    pub max_plies: u32,
    /// Random indices unranked in each tier.
    pub samples_per_tier: u32,
    /// The seed of the random games and indices.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            games: 200,
            max_plies: 300,
            samples_per_tier: 64,
            seed: 1,
        }
    }
}

/// The examples of a failed check kept in a report, each a sentence.
const EXAMPLES: usize = 3;

/// One check's tally.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Times the check was made.
    pub made: u64,
    /// Times it failed.
    pub failed: u64,
    /// The first few failures, in words.
    pub examples: Vec<String>,
}

/// What a conformance check found: each check's tally by name, and what
/// was played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Each check's tally, by the names of the module's list.
    pub checks: BTreeMap<&'static str, Tally>,
    /// Games played.
    pub games: u64,
    /// Games cut off at [`Settings::max_plies`].
    pub cut_off: u64,
    /// Positions met along the games.
    pub positions: u64,
    /// On a board small enough to go through whole ([`REACH_LIMIT`]):
    /// the symmetry classes play reaches from the start, and those of the
    /// tiers that [`Game::check`] accepts (a class a position, for a game
    /// without symmetries).
    pub reach: Option<(u64, u64)>,
}

/// The most indices a board may have for [`check_tiered`] to go through
/// it whole: every position play reaches against every indexed position
/// the game accepts.
pub const REACH_LIMIT: u64 = 1 << 21;

impl Report {
    /// Counts one check of `name`; when it fails, `why` says how.
    pub fn record(&mut self, name: &'static str, ok: bool, why: impl FnOnce() -> String) {
        let tally = self.checks.entry(name).or_default();
        tally.made += 1;
        if !ok {
            tally.failed += 1;
            if tally.examples.len() < EXAMPLES {
                tally.examples.push(why());
            }
        }
    }

    /// The checks failed, in total.
    pub fn failures(&self) -> u64 {
        self.checks.values().map(|t| t.failed).sum()
    }

    /// True when no check failed.
    pub fn passed(&self) -> bool {
        self.failures() == 0
    }
}

/// A table, one check a row, then each failure's examples.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} random games ({} cut off), {} positions",
            self.games, self.cut_off, self.positions
        )?;
        writeln!(f, "{:<18} {:>12} {:>8}", "check", "made", "failed")?;
        for (name, t) in &self.checks {
            writeln!(f, "{name:<18} {:>12} {:>8}", t.made, t.failed)?;
        }
        for (name, t) in self.checks.iter().filter(|(_, t)| t.failed > 0) {
            for e in &t.examples {
                writeln!(f, "{name}: {e}")?;
            }
        }
        if let Some((reached, accepted)) = self.reach {
            write!(
                f,
                "the whole board, by symmetry class: play reaches {reached}; check accepts {accepted}"
            )?;
            if accepted > reached {
                write!(
                    f,
                    " (solve gives the other {} values; stats and export --reachable leave them out)",
                    accepted - reached
                )?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Checks `game` against [`Game`]'s contract alone (a game solved its
/// own way, with no tiers); see the module's list.
pub fn check_game<G: Game>(game: &G, settings: Settings) -> Report {
    let mut report = Report::default();
    playouts(game, settings, &mut report, &mut |_, _, _, _| {});
    report
}

/// Checks `game` against [`Tiered`]'s contract too: its tiers and ranks.
/// A game too large to index (no tiers) is checked as [`check_game`].
pub fn check_tiered<G: Tiered>(game: &G, settings: Settings) -> Report {
    let mut report = Report::default();
    tiered_checks(game, settings, &mut report, &mut |_, _, _, _| {});
    report
}

/// [`check_tiered`]'s checks into `report`, the random games' positions
/// also put through `more`.
fn tiered_checks<G: Tiered>(
    game: &G,
    settings: Settings,
    report: &mut Report,
    more: &mut More<'_, G::Position, G::Move>,
) {
    let tiers = game.tiers();
    if tiers.is_empty() {
        playouts(game, settings, report, more);
        return;
    }
    let known: std::collections::BTreeSet<G::Tier> = tiers.iter().copied().collect();
    playouts(game, settings, report, &mut |pos, moves, children, report| {
        check_ranks(game, &known, pos, children, report);
        more(pos, moves, children, report);
    });
    let mut rng = Rng::new(settings.seed ^ 0x5EED);
    for &tier in &tiers {
        sample_tier(game, tier, settings.samples_per_tier, &mut rng, report);
    }
    // Saturating: a large board's sizes may add up past a u64.
    let indices = tiers
        .iter()
        .fold(0u64, |a, &t| a.saturating_add(game.tier_size(t)));
    if indices <= REACH_LIMIT {
        check_reach(game, &tiers, report);
    }
}

/// Every position play reaches against every indexed position the game
/// accepts, as [`Game::reachability`] promises: for `Every`, each is
/// reached; for `Answered`, [`Game::reachable`] says which. Either way
/// the counts go in the report: a game whose `check` lets through
/// positions no game reaches sees how many.
fn check_reach<G: Tiered>(game: &G, tiers: &[G::Tier], report: &mut Report) {
    let mut seen = std::collections::HashSet::from([game.start()]);
    let mut stack = vec![game.start()];
    while let Some(pos) = stack.pop() {
        for mv in game.moves(&pos) {
            let child = game.play(&pos, mv);
            if seen.insert(child) {
                stack.push(child);
            }
        }
    }
    // By symmetry class on both sides, as `stats` counts them: an index
    // may stand for a whole class.
    let classes: std::collections::HashSet<G::Position> = seen.iter().map(|p| game.canonical(p)).collect();
    let promise = game.reachability();
    let mut accepted = 0u64;
    for &tier in tiers {
        game.walk_positions(tier, 0..game.tier_size(tier), true, &mut |_, pos| {
            accepted += 1;
            let reached = classes.contains(pos);
            let kept = match promise {
                crate::Reachability::Every => reached,
                crate::Reachability::Answered => game.reachable(pos) == reached,
                crate::Reachability::Search => return,
            };
            report.record("reach", kept, || {
                format!(
                    "{}: reached by play {reached}, but the game says {promise:?}",
                    game.format_position(pos)
                )
            });
        });
    }
    report.reach = Some((classes.len() as u64, accepted));
}

/// Checks a registered `game` as [`check_tiered`], its name and variant
/// string against its registration, and its drawing for GamesmanUni
/// along the same random games.
pub fn check_registered<G: Registered + Tiered>(game: &G, settings: Settings) -> Report {
    let mut report = Report::default();
    check_names(game, &mut report);
    let drawing = Drawing::read(game, &mut report);
    tiered_checks(game, settings, &mut report, &mut |pos, moves, _, report| {
        if let Some(d) = &drawing {
            d.check(game, pos, moves, report);
        }
    });
    report
}

/// Checks a registered `game` that is not behind [`Tiered`] (it is
/// solved and stored its own way) as [`check_game`], its name and variant
/// string, and its drawing along the same random games.
pub fn check_presented<G: Registered>(game: &G, settings: Settings) -> Report {
    let mut report = Report::default();
    check_names(game, &mut report);
    let drawing = Drawing::read(game, &mut report);
    playouts(game, settings, &mut report, &mut |pos, moves, _, report| {
        if let Some(d) = &drawing {
            d.check(game, pos, moves, report);
        }
    });
    report
}

/// Checks `game`'s name against its registration, and that its variant
/// string builds the game back, into `report`.
fn check_names<G: Registered>(game: &G, report: &mut Report) {
    report.record("name", game.name() == G::NAME, || {
        format!("Game::name is {:?}, Registered::NAME {:?}", game.name(), G::NAME)
    });
    let variant = game.variant();
    let back = G::from_variant(&variant).map(|g| g.variant());
    report.record("variant", back.as_ref() == Ok(&variant), || {
        format!("the variant {variant:?} builds back as {back:?}")
    });
}

/// A check of a position given its moves and children, beside
/// [`check_position`].
type More<'a, P, M> = dyn FnMut(&P, &[M], &[P], &mut Report) + 'a;

/// Plays the random games, checking each position met with
/// [`check_position`] and with `more` (given the position's moves and
/// children).
fn playouts<G: Game>(
    game: &G,
    settings: Settings,
    report: &mut Report,
    more: &mut More<'_, G::Position, G::Move>,
) {
    let mut rng = Rng::new(settings.seed);
    for _ in 0..settings.games {
        let mut pos = game.start();
        let mut plies = 0;
        loop {
            report.positions += 1;
            let moves = game.moves(&pos);
            let children: Vec<G::Position> = moves.iter().map(|&m| game.play(&pos, m)).collect();
            check_position(game, &pos, &moves, report);
            more(&pos, &moves, &children, report);
            if moves.is_empty() {
                break;
            }
            if plies == settings.max_plies {
                report.cut_off += 1;
                break;
            }
            pos = children[rng.index(children.len())];
            plies += 1;
        }
        report.games += 1;
    }
}

/// The checks of [`Game`] on `pos`, whose moves are `moves`.
fn check_position<G: Game>(game: &G, pos: &G::Position, moves: &[G::Move], report: &mut Report) {
    let text = game.format_position(pos);
    let legal = game.check(pos);
    report.record("legal", legal.is_ok(), || {
        format!("{text}: {}", legal.clone().unwrap_err())
    });
    let back = game.parse_position(&text);
    report.record("position-text", back.as_ref() == Ok(pos), || match &back {
        Ok(other) => format!("{text} reads back as {}", game.format_position(other)),
        Err(e) => format!("{text} does not read back: {e}"),
    });
    let primitive = game.primitive(pos);
    report.record("game-over", moves.is_empty() == primitive.is_some(), || {
        format!("{text}: {} moves, primitive value {primitive:?}", moves.len())
    });
    let turn = game.player_to_move(pos);
    report.record("turn", turn.is_none_or(|t| t < 2), || {
        format!("{text}: player {turn:?} to move")
    });
    let mut names = std::collections::HashSet::new();
    for &mv in moves {
        let name = game.format_move(mv);
        // The solvers' negamax counts on every move passing the turn; an
        // impartial game says no turn anywhere.
        let next = game.player_to_move(&game.play(pos, mv));
        let passes = match (turn, next) {
            (Some(t), Some(n)) => n == 1 - t.min(1),
            (t, n) => t.is_none() && n.is_none(),
        };
        report.record("turn", passes, || {
            format!("{text}: after {name}, player {next:?} to move, where player {turn:?} was")
        });
        // GamesmanUni's exported history joins moves with `:`, and the
        // page's address with spaces: a name holds neither.
        let plain = !name.is_empty() && !name.contains(':') && !name.chars().any(char::is_whitespace);
        report.record("move-text", plain, || {
            format!("{text}: the move {name:?} is empty or holds ':' or white space, which GamesmanUni's history and the page's address use to separate moves")
        });
        let back = game.parse_move(pos, &name);
        report.record(
            "move-text",
            back == Ok(mv) && names.insert(name.clone()),
            || match &back {
                Ok(m) if *m == mv => format!("{text}: two moves are written {name}"),
                Ok(m) => format!("{text}: {name} reads back as {}", game.format_move(*m)),
                Err(e) => format!("{text}: the move {name} does not read back: {e}"),
            },
        );
    }
    check_symmetry(game, pos, &text, primitive, report);
}

/// The promises of [`Game::canonical`] and [`Game::images`] on `pos`.
fn check_symmetry<G: Game>(
    game: &G,
    pos: &G::Position,
    text: &str,
    primitive: Option<crate::Value>,
    report: &mut Report,
) {
    let canonical = game.canonical(pos);
    let images = game.images(pos);
    if !game.has_symmetries() {
        let alone = canonical == *pos && images == [*pos];
        report.record("symmetry", alone, || {
            format!("{text}: the game declares no symmetries, yet the position has other images or another canonical form")
        });
        return;
    }
    let distinct: std::collections::HashSet<_> = images.iter().collect();
    let show = |p: &G::Position| game.format_position(p);
    let problem = if game.canonical(&canonical) != canonical {
        Some(format!(
            "its canonical {} is not canonical itself",
            show(&canonical)
        ))
    } else if !images.contains(pos) || !images.contains(&canonical) {
        Some(format!(
            "its images leave out it or its canonical {}",
            show(&canonical)
        ))
    } else if distinct.len() != images.len() {
        Some("its images repeat a position".to_string())
    } else if let Some(odd) = images.iter().find(|i| game.canonical(i) != canonical) {
        Some(format!("its image {} has another canonical form", show(odd)))
    } else {
        images
            .iter()
            .find(|i| game.primitive(i) != primitive)
            .map(|odd| format!("its image {} has another primitive value", show(odd)))
    };
    report.record("symmetry", problem.is_none(), || {
        format!("{text}: {}", problem.clone().unwrap_or_default())
    });
}

/// The promises of [`Tiered`] on `pos`, a position of play with the
/// given children, the game's tiers being `known`.
fn check_ranks<G: Tiered>(
    game: &G,
    known: &std::collections::BTreeSet<G::Tier>,
    pos: &G::Position,
    children: &[G::Position],
    report: &mut Report,
) {
    let text = || game.format_position(pos);
    let tier = game.tier_of(pos);
    report.record("tier", known.contains(&tier), || {
        format!(
            "{}: its tier {} is not among the game's",
            text(),
            game.tier_name(tier)
        )
    });
    if !known.contains(&tier) {
        return;
    }
    // A game indexed by symmetry class gives a class one index, which
    // unranks to the class's representative.
    let index = game.index(pos);
    let back = (index < game.tier_size(tier))
        .then(|| game.position(tier, index))
        .flatten();
    let same = back.is_some_and(|b| b == *pos || game.canonical(&b) == game.canonical(pos));
    report.record("rank", same, || {
        let named = back.map_or("nothing".to_string(), |b| game.format_position(&b));
        format!(
            "{}: index {index} of {} unranks to {named}",
            text(),
            game.tier_name(tier)
        )
    });
    let below = game.child_tiers(tier);
    let loopy = game.tier_type(tier) == TierType::Loopy;
    let fixed = game.fixed_remoteness(tier);
    if fixed.is_some() {
        report.record(
            "fixed-remoteness",
            !children.is_empty() || fixed == Some(0),
            || format!("{}: play ends here, in a tier of remoteness {fixed:?}", text()),
        );
    }
    for child in children {
        let t = game.tier_of(child);
        report.record("tier", below.contains(&t) || (loopy && t == tier), || {
            format!(
                "{}: a move leads to tier {}, not a child of {}",
                text(),
                game.tier_name(t),
                game.tier_name(tier)
            )
        });
        if let Some(r) = fixed {
            let theirs = game.fixed_remoteness(t);
            report.record("fixed-remoteness", theirs.map(|c| c + 1) == Some(r), || {
                format!("{}: remoteness {r} fixed, a child's tier {theirs:?}", text())
            });
        }
    }
}

/// Unranks `samples` random indices of `tier` (and walks a short range
/// from each), checking that what they name ranks back.
fn sample_tier<G: Tiered>(game: &G, tier: G::Tier, samples: u32, rng: &mut Rng, report: &mut Report) {
    let size = game.tier_size(tier);
    if size == 0 {
        return;
    }
    let name = game.tier_name(tier);
    for _ in 0..samples {
        let start = rng.below(size);
        let range = start..size.min(start.saturating_add(16));
        let mut unranked = Vec::new();
        for i in range.clone() {
            if let Some(p) = game.position(tier, i) {
                let ok = game.tier_of(&p) == tier && game.index(&p) == i && game.check(&p).is_ok();
                report.record("rank", ok, || {
                    format!(
                        "index {i} of {name} unranks to {}, which does not rank back or is not legal",
                        game.format_position(&p)
                    )
                });
                unranked.push((i, p));
            }
        }
        let mut walked = Vec::new();
        game.walk_positions(tier, range.clone(), false, &mut |i, p| walked.push((i, *p)));
        report.record("rank", walked == unranked, || {
            format!("walking {range:?} of {name} meets other positions than unranking")
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameError, Options, Value};

    /// Nim with one heap of up to 7 and moves of 1 or 2: right, or broken
    /// in one chosen way.
    #[derive(Clone, Copy, Default)]
    struct Heap {
        flaw: Option<&'static str>,
    }

    impl Game for Heap {
        type Position = u8;
        type Move = u8;
        fn name(&self) -> &'static str {
            if self.flaw == Some("name") {
                "pile"
            } else {
                "heap"
            }
        }
        fn variant(&self) -> String {
            "7".into()
        }
        fn start(&self) -> u8 {
            if self.flaw == Some("reach") {
                6
            } else {
                7
            }
        }
        fn reachability(&self) -> crate::Reachability {
            crate::Reachability::Every
        }
        fn moves(&self, pos: &u8) -> Vec<u8> {
            let mut m: Vec<u8> = (1..=2).filter(|&k| k <= *pos).collect();
            if self.flaw == Some("game-over") && *pos == 3 {
                m.clear();
            }
            m
        }
        fn play(&self, pos: &u8, mv: u8) -> u8 {
            pos - mv
        }
        fn primitive(&self, pos: &u8) -> Option<Value> {
            (*pos == 0).then_some(Value::Lose)
        }
        fn check(&self, pos: &u8) -> Result<(), GameError> {
            if *pos > 7 {
                return Err(GameError::rules("more than 7"));
            }
            Ok(())
        }
        fn parse_position(&self, text: &str) -> Result<u8, GameError> {
            text.parse()
                .map_err(|_| GameError::notation(format!("{text:?} is no heap")))
        }
        fn format_position(&self, pos: &u8) -> String {
            pos.to_string()
        }
        fn parse_move(&self, _: &u8, text: &str) -> Result<u8, GameError> {
            let sign = if self.flaw == Some("colon") { ':' } else { '-' };
            let m: u8 = text
                .strip_prefix(sign)
                .unwrap_or("x")
                .parse()
                .map_err(|_| GameError::notation("no move"))?;
            Ok(if self.flaw == Some("move-text") {
                m.min(1)
            } else {
                m
            })
        }
        fn format_move(&self, mv: u8) -> String {
            let sign = if self.flaw == Some("colon") { ':' } else { '-' };
            format!("{sign}{mv}")
        }
        /// Impartial; the flawed game claims a turn from the stones
        /// taken so far, which taking two does not pass.
        fn player_to_move(&self, pos: &u8) -> Option<usize> {
            (self.flaw == Some("turn")).then_some(usize::from((7 - pos) % 2 == 1))
        }
    }

    impl Tiered for Heap {
        type Tier = u8;
        fn tiers(&self) -> Vec<u8> {
            (0..=7).collect()
        }
        fn tier_of(&self, pos: &u8) -> u8 {
            *pos
        }
        fn tier_size(&self, _: u8) -> u64 {
            1
        }
        fn index(&self, _: &u8) -> u64 {
            0
        }
        fn position(&self, tier: u8, index: u64) -> Option<u8> {
            let off = u8::from(self.flaw == Some("rank") && tier == 5);
            (index == 0).then_some(tier + off)
        }
        fn child_tiers(&self, tier: u8) -> Vec<u8> {
            let lowest = if self.flaw == Some("tier") { 1 } else { 2 };
            (tier.saturating_sub(lowest)..tier).collect()
        }
        fn tier_name(&self, tier: u8) -> String {
            format!("heap{tier}")
        }
    }

    /// A stone a centre, and a button where the move leaves the heap's
    /// end (a centre past the board, for the flawed drawing).
    impl crate::Presentation for Heap {
        fn image_autogui_data(&self) -> Option<String> {
            let centers: Vec<String> = (0..7).map(|k| format!("[{k}.5,0.5]")).collect();
            Some(format!(
                r#"{{"defaultTheme":"t","themes":{{"t":{{"space":[7,1],"centers":[{}],
                "charImages":{{"s":{{"image":"general/brownpiece.svg","scale":1}},
                "a":{{"image":"general/basichitbox.svg","scale":1}}}},"sounds":{{"x":"general/remove.mp3"}}}}}}}}"#,
                centers.join(",")
            ))
        }
        fn autogui_position(&self, pos: &u8) -> Option<String> {
            Some(format!(
                "{}{}",
                "s".repeat(usize::from(*pos)),
                "-".repeat(usize::from(7 - pos))
            ))
        }
        fn autogui_move(&self, pos: &u8, mv: u8) -> Option<String> {
            let at = pos - mv + if self.flaw == Some("drawing") { 7 } else { 0 };
            Some(format!("A_a_{at}_x"))
        }
    }
    impl crate::Search for Heap {}

    impl Registered for Heap {
        const NAME: &'static str = "heap";
        fn from_options(_: &Options) -> Result<Heap, String> {
            Ok(Heap::default())
        }
        fn from_variant(_: &str) -> Result<Heap, String> {
            Ok(Heap::default())
        }
    }

    #[test]
    fn a_game_that_keeps_the_contract_passes_every_check() {
        let report = check_registered(&Heap::default(), Settings::default());
        assert!(report.passed(), "{report}");
        for name in [
            "legal",
            "position-text",
            "move-text",
            "game-over",
            "turn",
            "symmetry",
            "tier",
            "rank",
            "name",
            "variant",
            "drawing",
        ] {
            assert!(report.checks[name].made > 0, "{name} never checked: {report}");
        }
        assert_eq!(report.games, 200);
        assert_eq!(report.cut_off, 0);
    }

    /// The report on the heap game broken by `flaw`, and the checks that
    /// failed.
    fn failing(flaw: &'static str) -> (Report, Vec<&'static str>) {
        let report = check_registered(&Heap { flaw: Some(flaw) }, Settings::default());
        let failed = report
            .checks
            .iter()
            .filter(|(_, t)| t.failed > 0)
            .map(|(n, _)| *n)
            .collect();
        (report, failed)
    }

    #[test]
    fn each_broken_promise_is_caught_by_its_own_check() {
        for flaw in [
            "name",
            "game-over",
            "move-text",
            "rank",
            "tier",
            "reach",
            "turn",
            "drawing",
        ] {
            let (report, failed) = failing(flaw);
            assert_eq!(failed, [flaw], "{report}");
            assert!(!report.checks[flaw].examples.is_empty());
            assert!(report.to_string().contains(&format!("{flaw}: ")), "{report}");
        }
    }

    #[test]
    fn a_move_named_with_a_separator_fails_the_move_text_check() {
        let (report, failed) = failing("colon");
        assert_eq!(failed, ["move-text"], "{report}");
        assert!(report.to_string().contains("holds ':'"), "{report}");
    }

    #[test]
    fn one_seed_plays_the_same_games() {
        let settings = Settings {
            games: 20,
            ..Settings::default()
        };
        assert_eq!(
            check_tiered(&Heap::default(), settings),
            check_tiered(&Heap::default(), settings)
        );
        let other = check_tiered(&Heap::default(), Settings { seed: 9, ..settings });
        assert_ne!(other.positions, 0);
    }
}
