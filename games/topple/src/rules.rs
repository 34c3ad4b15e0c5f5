//! The rules: moves, playing a move with its topple, new pawn, reset and
//! takes, and the end of the game (docs/topple-rules.md, rules 1–9).

use std::fmt;

use crate::board::{cells_of, Direction, Shape};
use crate::error::RulesError;
use crate::position::{Color, Phase, Position};

/// A move: what a player does on one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// One piece from the supply onto `cell`: a first move (with the
    /// mover's first pawn on it), or a placement on an empty cell or a
    /// stack of 1 or 2.
    Place {
        /// Where, in [`Shape`]'s numbering.
        cell: u8,
    },
    /// One piece onto the stack of 3 or more on `cell`, toppling all but
    /// one piece towards `dir`.
    Topple {
        /// The stack's cell.
        cell: u8,
        /// Where the pieces fall.
        dir: Direction,
    },
    /// A pawn's king step from `from` to `to`.
    Step {
        /// The pawn's cell.
        from: u8,
        /// Its new cell.
        to: u8,
    },
}

/// The end of a game, from the view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Only the player to move has pawns on the board.
    Win,
    /// Only the opponent has, or the player to move has no legal move.
    Lose,
    /// Neither has.
    Tie,
}

/// What a move did besides moving its piece or pawn, counted per player
/// where it concerns pawns (Red's first): the evidence that
/// [`crate::check::transition`] checks the counts against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Pieces of a topple that fell past the edge.
    pub off_board: u32,
    /// Pieces of the stacks a reset removed.
    pub reset_pieces: u32,
    /// Pawns that came from the reserve (a first move or a third piece).
    pub entered: [u8; 2],
    /// Pawns a topple's landing crushed.
    pub crushed: [u8; 2],
    /// Pawns standing on stacks a reset removed.
    pub reset_pawns: [u8; 2],
    /// Pawns taken.
    pub taken: [u8; 2],
    /// Rounds of rule 7's takes the move set off (0 for a quiet move).
    pub take_rounds: u32,
}

/// Topple on one board with one supply of pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Topple {
    shape: Shape,
    supply: u8,
}

/// The fewest pieces: one for each player's first move.
pub const MIN_SUPPLY: u8 = 2;

impl Topple {
    /// The game on `shape` with `supply` pieces.
    ///
    /// # Errors
    /// A supply below [`MIN_SUPPLY`].
    pub fn new(shape: Shape, supply: u8) -> Result<Topple, RulesError> {
        if supply < MIN_SUPPLY {
            return Err(RulesError::Supply(format!("s{supply}")));
        }
        Ok(Topple { shape, supply })
    }

    /// The default: one piece for each cell of the board.
    pub fn with_default_supply(shape: Shape) -> Topple {
        Topple {
            shape,
            supply: shape.cells(),
        }
    }

    /// The game for the command's `--board RxC` and `--variant sN`
    /// (defaults: 8×8, one piece per cell).
    ///
    /// # Errors
    /// A board or supply that is not one of Topple's.
    pub fn from_options(board: Option<&str>, variant: Option<&str>) -> Result<Topple, RulesError> {
        let shape = board.map_or(Ok(Shape::STANDARD), str::parse)?;
        match variant {
            None => Ok(Topple::with_default_supply(shape)),
            Some(v) => Topple::new(shape, parse_supply(v)?),
        }
    }

    /// The board.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The pieces in the supply at the start.
    pub fn supply(&self) -> u8 {
        self.supply
    }

    /// The start: an empty board, the full supply, Red to move.
    pub fn start(&self) -> Position {
        Position::start(self.supply)
    }

    /// The end of the game, if `pos` is one: a player without pawns after
    /// both first moves, or a player to move with no legal move.
    #[inline]
    pub fn outcome(&self, pos: &Position) -> Option<Outcome> {
        self.pawn_outcome(pos).or_else(|| {
            let mut moves = Vec::new();
            self.generate(pos, &mut moves);
            moves.is_empty().then_some(Outcome::Lose)
        })
    }

    /// The end decided by the pawns on the board alone (rule 9).
    pub fn pawn_outcome(&self, pos: &Position) -> Option<Outcome> {
        if pos.phase() != Phase::Play {
            return None;
        }
        let me = pos.pawn_count(pos.turn()) > 0;
        let them = pos.pawn_count(pos.turn().other()) > 0;
        match (me, them) {
            (true, true) => None,
            (true, false) => Some(Outcome::Win),
            (false, true) => Some(Outcome::Lose),
            (false, false) => Some(Outcome::Tie),
        }
    }

    /// Every legal move of `pos`, none when the game is over: placements
    /// and topples by cell (topples by direction), then pawn steps.
    #[inline]
    pub fn moves(&self, pos: &Position) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.pawn_outcome(pos).is_none() {
            self.generate(pos, &mut moves);
        }
        moves
    }

    /// The moves of `pos` as if the game were not over.
    fn generate(&self, pos: &Position, out: &mut Vec<Move>) {
        let me = pos.turn();
        let pawns = pos.all_pawns();
        if let Phase::First(_) = pos.phase() {
            // Rule 2: anywhere empty.
            let empty = self.shape.all() & !pos.stacks();
            out.extend(cells_of(empty).map(|cell| Move::Place { cell }));
            return;
        }
        if pos.supply() > 0 {
            // Rule 4: within two king steps of one of the mover's pawns.
            let zone = cells_of(pos.pawns(me)).fold(0, |z, p| z | self.shape.within(p, 2));
            for cell in cells_of(zone & !pawns) {
                if pos.height(cell) >= 3 {
                    out.extend(Direction::ALL.map(|dir| Move::Topple { cell, dir }));
                } else {
                    out.push(Move::Place { cell });
                }
            }
        }
        for from in cells_of(pos.pawns(me)) {
            let h = pos.height(from);
            for to in cells_of(self.shape.king_neighbours(from) & !pawns) {
                // Rule 3: onto a stack at most one higher or lower.
                let t = pos.height(to);
                if t >= 1 && t.abs_diff(h) <= 1 {
                    out.push(Move::Step { from, to });
                }
            }
        }
    }

    /// Whether `mv` is legal in `pos`.
    pub fn is_legal(&self, pos: &Position, mv: Move) -> bool {
        self.moves(pos).contains(&mv)
    }

    /// The position after `mv`, a legal move of `pos`.
    #[inline]
    pub fn play(&self, pos: &Position, mv: Move) -> Position {
        self.play_traced(pos, mv).0
    }

    /// The position after `mv`, a legal move of `pos`, and what it did:
    /// the move itself (with a topple's landings and a new pawn), then a
    /// reset, then rounds of takes, then the turn passes.
    #[inline]
    pub fn play_traced(&self, pos: &Position, mv: Move) -> (Position, Effects) {
        let mut p = *pos;
        let mut fx = Effects::default();
        let me = pos.turn();
        match mv {
            Move::Place { cell } => {
                p.supply -= 1;
                let h = p.heights[usize::from(cell)];
                p.heights[usize::from(cell)] = h + 1;
                let first = matches!(pos.phase(), Phase::First(_));
                // Rule 5: the third piece of a stack brings a pawn, if
                // the reserve has one.
                if (first || h == 2) && p.reserve[me.index()] > 0 {
                    p.reserve[me.index()] -= 1;
                    p.put_pawn(cell, me);
                    fx.entered[me.index()] += 1;
                }
            }
            Move::Topple { cell, dir } => {
                p.supply -= 1;
                self.topple(&mut p, cell, dir, &mut fx);
            }
            Move::Step { from, to } => {
                p.lift_pawn(from);
                p.put_pawn(to, me);
            }
        }
        self.reset(&mut p, &mut fx);
        self.take(&mut p, &mut fx);
        p.turn = me.other();
        (p, fx)
    }

    /// Rule 6: the stack of `h` ≥ 3 on `cell` (the placed piece not
    /// counted) keeps one piece and lays the other `h` one a cell towards
    /// `dir`, crushing the pawns there; those past the edge leave.
    fn topple(&self, p: &mut Position, cell: u8, dir: Direction, fx: &mut Effects) {
        let h = p.heights[usize::from(cell)];
        p.heights[usize::from(cell)] = 1;
        for k in 1..=i32::from(h) {
            let Some(land) = self.shape.step(cell, dir.delta(), k) else {
                fx.off_board += (i32::from(h) - k + 1) as u32;
                break;
            };
            p.heights[usize::from(land)] += 1;
            if let Some(c) = p.lift_pawn(land) {
                fx.crushed[c.index()] += 1;
            }
        }
    }

    /// The cells of every maximal line (row, column or diagonal) of three
    /// or more stacks exactly three high.
    pub fn reset_cells(&self, pos: &Position) -> u64 {
        // Only the board's cells: the scan runs after every move.
        let cells = usize::from(self.shape.cells());
        let threes = pos.heights[..cells]
            .iter()
            .enumerate()
            .filter(|(_, &h)| h == 3)
            .fold(0u64, |m, (b, _)| m | 1 << b);
        if threes.count_ones() < 3 {
            return 0;
        }
        let mut gone = 0;
        for dir in [Direction::E, Direction::N, Direction::NE, Direction::NW] {
            for cell in cells_of(threes) {
                let before = self.shape.step(cell, dir.delta(), -1);
                if before.is_some_and(|b| threes >> b & 1 == 1) {
                    continue; // not the start of its line
                }
                let mut line = 0u64;
                let mut at = Some(cell);
                while let Some(b) = at.filter(|&b| threes >> b & 1 == 1) {
                    line |= 1 << b;
                    at = self.shape.step(b, dir.delta(), 1);
                }
                if line.count_ones() >= 3 {
                    gone |= line;
                }
            }
        }
        gone
    }

    /// Rule 8: every line of three 3-stacks leaves the game with its
    /// pawns.
    fn reset(&self, p: &mut Position, fx: &mut Effects) {
        for cell in cells_of(self.reset_cells(p)) {
            fx.reset_pieces += 3;
            p.heights[usize::from(cell)] = 0;
            if let Some(c) = p.lift_pawn(cell) {
                fx.reset_pawns[c.index()] += 1;
            }
        }
    }

    /// Every possible take, `(taker's cell, taken pawn's cell)`: king
    /// neighbours of opposite colours, the taker's stack one higher.
    pub fn take_edges(&self, pos: &Position) -> Vec<(u8, u8)> {
        let mut edges = Vec::new();
        self.for_each_take_edge(pos, |a, b| edges.push((a, b)));
        edges
    }

    /// Calls `f(taker, taken)` for every possible take, in the order of
    /// [`Topple::take_edges`].
    fn for_each_take_edge(&self, pos: &Position, mut f: impl FnMut(u8, u8)) {
        for a in cells_of(pos.pawns(Color::Red)) {
            for b in cells_of(self.shape.king_neighbours(a) & pos.pawns(Color::Blue)) {
                let (ha, hb) = (pos.height(a), pos.height(b));
                if ha == hb + 1 {
                    f(a, b);
                } else if hb == ha + 1 {
                    f(b, a);
                }
            }
        }
    }

    /// The takes not locked: each alone in its part of the take graph, so
    /// that both its pawns take part in no other take (rule 7).
    pub fn unlocked_takes(&self, pos: &Position) -> Vec<(u8, u8)> {
        let edges = self.take_edges(pos);
        let mut degree = [0u8; 64];
        for &(a, b) in &edges {
            degree[usize::from(a)] += 1;
            degree[usize::from(b)] += 1;
        }
        edges
            .into_iter()
            .filter(|&(a, b)| degree[usize::from(a)] == 1 && degree[usize::from(b)] == 1)
            .collect()
    }

    /// Whether [`Topple::unlocked_takes`] has any, without listing them:
    /// the solver asks this of every board it walks.
    pub(crate) fn has_unlocked_take(&self, pos: &Position) -> bool {
        // At most 8 Red pawns with 8 neighbours each.
        let mut edges = [(0u8, 0u8); 64];
        let mut n = 0;
        let mut degree = [0u8; 64];
        self.for_each_take_edge(pos, |a, b| {
            edges[n] = (a, b);
            n += 1;
            degree[usize::from(a)] += 1;
            degree[usize::from(b)] += 1;
        });
        edges[..n]
            .iter()
            .any(|&(a, b)| degree[usize::from(a)] == 1 && degree[usize::from(b)] == 1)
    }

    /// Rule 7: rounds of unlocked takes, all of a round at once, until
    /// none is left. Each round removes a pawn, so this ends.
    #[inline]
    fn take(&self, p: &mut Position, fx: &mut Effects) {
        // Most moves cause no take: ask before listing them.
        while self.has_unlocked_take(p) {
            let takes = self.unlocked_takes(p);
            fx.take_rounds += 1;
            // The takes of a round share no pawn: in any order, the same.
            for (a, b) in takes {
                let taken = p.lift_pawn(b).expect("a take's pawn");
                let taker = p.lift_pawn(a).expect("a taker");
                fx.taken[taken.index()] += 1;
                p.put_pawn(b, taker);
            }
        }
    }
}

/// The supply of a variant option, `sN`.
pub(crate) fn parse_supply(text: &str) -> Result<u8, RulesError> {
    let bad = || RulesError::Supply(text.to_string());
    let digits = text.strip_prefix('s').ok_or_else(bad)?;
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let n: u8 = digits.parse().map_err(|_| bad())?;
    if n < MIN_SUPPLY {
        return Err(bad());
    }
    Ok(n)
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
