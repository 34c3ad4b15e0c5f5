//! Which positions are positions of play, and the invariants every move
//! keeps: the tests and the fuzz target check each move against them.

use crate::board::{cells_of, CellNames};
use crate::position::{Color, Phase, Position, PAWNS};
use crate::rules::{Effects, Move, Topple};

/// What a check makes of the rule a position breaks: the words
/// (`Arguments::to_string`), or nothing where only whether it breaks one
/// matters: walks over millions of indices spent two fifths of their time
/// formatting words no one read.
type Why<'a, E> = &'a dyn Fn(std::fmt::Arguments<'_>) -> E;

/// The rule broken, in words.
fn words(a: std::fmt::Arguments<'_>) -> String {
    a.to_string()
}

impl Topple {
    /// Why `pos` is not a position of play, if it is not.
    ///
    /// # Errors
    /// The rule it breaks, in words.
    pub fn check(&self, pos: &Position) -> Result<(), String> {
        self.check_by(pos, &words)
    }

    /// Whether `pos` is a position of play ([`Topple::check`] without
    /// the words).
    pub fn is_play(&self, pos: &Position) -> bool {
        self.check_by(pos, &|_| ()).is_ok()
    }

    fn check_by<E>(&self, pos: &Position, why: Why<'_, E>) -> Result<(), E> {
        self.check_play_by(pos, why)?;
        if self.reset_cells(pos) != 0 {
            return Err(why(format_args!(
                "a line of three 3-stacks stands: the reset would have removed it"
            )));
        }
        if let Some(&(a, b)) = self.unlocked_takes(pos).first() {
            let s = self.shape();
            return Err(why(format_args!(
                "the pawn on {} can take the one on {} unopposed: the take would have happened",
                s.name(a),
                s.name(b)
            )));
        }
        Ok(())
    }

    /// Whether the board leaves nothing pending, no reset and no take: the
    /// part of [`Topple::check`] that does not depend on whose turn it is
    /// or on the counts.
    pub(crate) fn board_at_rest(&self, pos: &Position) -> bool {
        self.reset_cells(pos) == 0 && !self.has_unlocked_take(pos)
    }

    /// [`Topple::check`] but for the board at rest: the counts, and the
    /// turn and reserves as the phase of the game allows; true when all
    /// hold.
    pub(crate) fn plays(&self, pos: &Position) -> bool {
        self.check_play_by(pos, &|_| ()).is_ok()
    }

    fn check_play_by<E>(&self, pos: &Position, why: Why<'_, E>) -> Result<(), E> {
        self.check_counts(pos, why)?;
        match pos.phase() {
            Phase::First(Color::Red) => self.check_red_first(pos, why)?,
            Phase::First(Color::Blue) => self.check_blue_first(pos, why)?,
            Phase::Play => {
                let placed = self.supply() - pos.supply();
                if placed < 2 {
                    return Err(why(format_args!(
                        "both first moves are made, yet fewer than two pieces were placed"
                    )));
                }
                let made = 2 * (PAWNS - 1) - pos.reserve(Color::Red) - pos.reserve(Color::Blue);
                if made > placed - 2 {
                    return Err(why(format_args!(
                        "{made} pawns were made after the first moves, but only {} pieces were placed since",
                        placed - 2
                    )));
                }
            }
        }
        Ok(())
    }

    /// The cells, pawns, supply and reserves are within their counts.
    fn check_counts<E>(&self, pos: &Position, why: Why<'_, E>) -> Result<(), E> {
        let s = self.shape();
        let off = !s.all();
        if pos.all_pawns() & off != 0
            || pos
                .heights
                .iter()
                .enumerate()
                .any(|(b, &h)| h > 0 && off >> b & 1 == 1)
        {
            return Err(why(format_args!(
                "a stack or pawn past the edge of the {s} board"
            )));
        }
        if pos.pawns(Color::Red) & pos.pawns(Color::Blue) != 0 {
            return Err(why(format_args!("two pawns on one cell")));
        }
        if let Some(b) = cells_of(pos.all_pawns()).find(|&b| pos.height(b) == 0) {
            return Err(why(format_args!("a pawn on the empty cell {}", s.name(b))));
        }
        if pos.supply() > self.supply() {
            return Err(why(format_args!(
                "a supply of {}, more than the game's {}",
                pos.supply(),
                self.supply()
            )));
        }
        let placed = u32::from(self.supply() - pos.supply());
        if pos.pieces_on_board() > placed {
            return Err(why(format_args!(
                "{} pieces on the board, but only {placed} were placed",
                pos.pieces_on_board()
            )));
        }
        for c in Color::BOTH {
            if u32::from(pos.pawn_count(c)) + u32::from(pos.reserve(c)) > u32::from(PAWNS) {
                return Err(why(format_args!(
                    "{} has {} pawns on the board and {} in reserve, more than {PAWNS}",
                    c.name(),
                    pos.pawn_count(c),
                    pos.reserve(c)
                )));
            }
        }
        Ok(())
    }

    /// Red's first move: nothing has happened yet.
    fn check_red_first<E>(&self, pos: &Position, why: Why<'_, E>) -> Result<(), E> {
        if pos.supply() != self.supply() || pos.stacks() != 0 || pos.reserve(Color::Blue) != PAWNS {
            return Err(why(format_args!(
                "Red has every pawn in reserve, so nothing can have been played yet"
            )));
        }
        if pos.turn() != Color::Red {
            return Err(why(format_args!("Red moves first")));
        }
        Ok(())
    }

    /// Blue's first move: Red's first pawn alone on a stack of one.
    fn check_blue_first<E>(&self, pos: &Position, why: Why<'_, E>) -> Result<(), E> {
        let alone = pos.supply() == self.supply() - 1
            && pos.reserve(Color::Red) == PAWNS - 1
            && pos.pieces_on_board() == 1
            && pos.pawn_count(Color::Red) == 1;
        if !alone {
            return Err(why(format_args!(
                "Blue has every pawn in reserve, so only Red's first move can have been played"
            )));
        }
        if pos.turn() != Color::Blue {
            return Err(why(format_args!("Blue makes the second move")));
        }
        Ok(())
    }
}

/// The invariants of one move: `mv` is legal in `before` and plays to
/// `after`, a position of play, and the counts changed exactly as the
/// rules say (recounted from the boards, not only from the engine's
/// [`Effects`]):
///
/// * pieces on the board plus the supply fall only by the pieces a topple
///   threw past the edge (recounted from the geometry) and by three for
///   every stack a reset removed (the cells that emptied);
/// * for each player, pawns on the board plus reserve fall by exactly the
///   pawns crushed, reset and taken, and the reserve by the pawns that
///   entered;
/// * the supply falls by one for a placement or topple, and is kept by a
///   step; the turn passes;
/// * a step that takes nothing stays in its tier; every other move goes to
///   one of the tier's child tiers.
///
/// # Errors
/// The first invariant broken, in words.
pub fn transition(game: &Topple, before: &Position, mv: Move, after: &Position) -> Result<(), String> {
    if !game.is_legal(before, mv) {
        return Err(format!("{} is not legal", game.format_move(mv)));
    }
    let (played, fx) = game.play_traced(before, mv);
    if played != *after {
        return Err("the move plays to another position".into());
    }
    game.check(after)
        .map_err(|e| format!("the child is no position of play: {e}"))?;
    pieces_kept(game, before, mv, after, &fx)?;
    pawns_kept(before, after, &fx)?;
    if after.turn() != before.turn().other() {
        return Err("the turn did not pass".into());
    }
    tiers_kept(game, before, mv, after, &fx)
}

/// The piece count changed by the move's rule alone.
fn pieces_kept(
    game: &Topple,
    before: &Position,
    mv: Move,
    after: &Position,
    fx: &Effects,
) -> Result<(), String> {
    let placing = !matches!(mv, Move::Step { .. });
    if i64::from(before.supply()) - i64::from(after.supply()) != i64::from(placing) {
        return Err("the supply changed wrongly".into());
    }
    let off = match mv {
        Move::Topple { cell, dir } => {
            let h = i32::from(before.height(cell));
            (1..=h)
                .filter(|&k| game.shape().step(cell, dir.delta(), k).is_none())
                .count() as u32
        }
        _ => 0,
    };
    let emptied = cells_of(before.stacks() & !after.stacks()).count() as u32;
    if off != fx.off_board || 3 * emptied != fx.reset_pieces {
        return Err(format!(
            "pieces lost: {off} past the edge and {emptied} stacks reset, but the engine says {} and {}",
            fx.off_board, fx.reset_pieces
        ));
    }
    let total = |p: &Position| p.pieces_on_board() + u32::from(p.supply());
    if total(after) + off + 3 * emptied != total(before) {
        return Err(format!(
            "pieces on the board and in the supply went from {} to {}, losing {off} past the edge and {} reset",
            total(before),
            total(after),
            3 * emptied
        ));
    }
    Ok(())
}

/// Each player's pawns changed by the move's rule alone.
fn pawns_kept(before: &Position, after: &Position, fx: &Effects) -> Result<(), String> {
    for c in Color::BOTH {
        let i = c.index();
        let owned = |p: &Position| u32::from(p.pawn_count(c)) + u32::from(p.reserve(c));
        let lost = u32::from(fx.crushed[i]) + u32::from(fx.reset_pawns[i]) + u32::from(fx.taken[i]);
        if owned(after) + lost != owned(before) {
            return Err(format!(
                "{}'s pawns went from {} to {} with {lost} lost",
                c.name(),
                owned(before),
                owned(after)
            ));
        }
        if i64::from(before.reserve(c)) - i64::from(after.reserve(c)) != i64::from(fx.entered[i]) {
            return Err(format!(
                "{}'s reserve fell by other than the pawns made",
                c.name()
            ));
        }
    }
    Ok(())
}

/// A quiet step stays in its tier; every other move reaches a child tier.
fn tiers_kept(
    game: &Topple,
    before: &Position,
    mv: Move,
    after: &Position,
    fx: &Effects,
) -> Result<(), String> {
    let (from, to) = (game.tier_key(before), game.tier_key(after));
    let quiet = matches!(mv, Move::Step { .. }) && fx.take_rounds == 0;
    if quiet != (from == to) {
        return Err(format!(
            "tier {} to {}: a quiet step must stay, all else leave",
            from.name(),
            to.name()
        ));
    }
    if !quiet && !game.child_tiers_of(from).contains(&to) {
        return Err(format!("tier {} is not a child of {}", to.name(), from.name()));
    }
    Ok(())
}
