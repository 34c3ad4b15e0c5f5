//! The game interface: everything the shared crates may know of a game,
//! split by concern as GamesmanOne splits its function tables:
//!
//! * [`Game`], the rules, required of every game: the start, moves,
//!   playing a move, the primitive value, legality, whose turn it is, the
//!   position and move notation (refusals are [`GameError`]s), and
//!   optionally the symmetries. A position is the game's own type, never
//!   an index: an 8×8 Topolo tier has more positions than a `u128`
//!   counts, and such boards are played and queried, never indexed.
//! * [`Presentation`], what a person sees: the text board, the words
//!   around it, GamesmanUni's AutoGUI board and the page's drawings. All
//!   optional.
//! * [`Search`], a player for boards too large to solve. Optional.
//! * [`Tiered`], required only for solving: the tiers, each tier's size,
//!   position ⇄ index inside a tier, and each tier's child tiers.
//!   Optional: the tier type (loop-free unless said otherwise).
//! * [`Registered`], what the command builds a game from: its name, its
//!   options and the variant its databases record.
//!
//! A game crate implements these, and checks itself against them with
//! [`conformance`]; the shared crates take any `G: Game`, `G: Tiered` or
//! `G: Registered`. Values are from the view of the player to move.
#![forbid(unsafe_code)]

pub mod board;
pub mod conformance;
mod error;
mod options;
pub mod rank;
mod record;
pub mod rng;

pub use error::{ErrorKind, GameError};
pub use options::{GameOption, Options};
pub use record::{Record, Value, MAX_REMOTENESS};

/// The images bundled with GamesmanUni (5.0.35, commit 3771794,
/// `src/models/images/svg/`) that hold an element with id
/// `MoveButtonSVG`, the only ones it can draw an `A_` move button from
/// (an image without one gives a button of no size), found there with
/// `git grep -l MoveButtonSVG` (the copy read lacked
/// `sevenpennies/7pennies.svg`, which may hold one too). A game's button
/// characters must use one of them, and its pieces none.
pub const MOVE_BUTTON_IMAGES: [&str; 86] = [
    "369mm/z.svg",
    "3spot/h.svg",
    "3spot/v.svg",
    "abrobad/propose.svg",
    "chopsticks/0.svg",
    "chopsticks/1.svg",
    "chopsticks/2.svg",
    "chopsticks/3.svg",
    "chopsticks/4.svg",
    "chopsticks/6.svg",
    "chopsticks/7.svg",
    "chopsticks/8.svg",
    "chopsticks/9.svg",
    "chungtoi/p.svg",
    "chungtoi/q.svg",
    "chungtoi/rotate.svg",
    "connect4twist/left.svg",
    "connect4twist/right.svg",
    "dshogi/chick_move_token.svg",
    "dshogi/elephant_move_token.svg",
    "dshogi/giraffe_move_token.svg",
    "euclidsgame/h.svg",
    "expantix/down.svg",
    "expantix/downn.svg",
    "expantix/left.svg",
    "expantix/leftt.svg",
    "expantix/right.svg",
    "expantix/rightt.svg",
    "expantix/up.svg",
    "expantix/upp.svg",
    "forestfox/button.svg",
    "general/basichitbox.svg",
    "hashi/horizpill.svg",
    "hashi/vertpill.svg",
    "lgame/1.svg",
    "lgame/2.svg",
    "lgame/3.svg",
    "lgame/4.svg",
    "lgame/5.svg",
    "lgame/6.svg",
    "lgame/7.svg",
    "lgame/8.svg",
    "lightsout/t.svg",
    "marble_circuit/Magenta.svg",
    "marble_circuit/Orange.svg",
    "marble_circuit/Teal.svg",
    "marble_circuit/Yellow.svg",
    "nim/grid.svg",
    "nim/t.svg",
    "othello/P.svg",
    "quickcross/rotate.svg",
    "rubiksmagic/p.svg",
    "rubiksmagic/q.svg",
    "rubiksmagic/r.svg",
    "rubiksmagic/s.svg",
    "spinout/clockwise.svg",
    "spinout/clockwise2.svg",
    "spinout/counterclockwise.svg",
    "spinout/counterclockwise2.svg",
    "squaredance/q.svg",
    "squaredance/r.svg",
    "squaredance/s.svg",
    "squaredance/t.svg",
    "swans/s.svg",
    "tictactwo/g.svg",
    "tootandotto/oo.svg",
    "tootandotto/tt.svg",
    "topitop/t.svg",
    "topitop/u.svg",
    "topitop/v.svg",
    "topitop/w.svg",
    "topspin/0_custom.svg",
    "topspin/11_custom.svg",
    "topspin/12_custom.svg",
    "topspin/1_custom.svg",
    "topspin/2_custom.svg",
    "topspin/3_custom.svg",
    "topspin/4_custom.svg",
    "topspin/5_custom.svg",
    "topspin/6_custom.svg",
    "topspin/7_custom.svg",
    "topspin/8_custom.svg",
    "topspin/9_custom.svg",
    "topspin/arrow_transparent.svg",
    "topspin/flipped_arrow.svg",
    "y/h.svg",
];

/// A grid GamesmanUni bundles (5.0.35, commit 3771794,
/// `src/models/images/svg/`) for a board of `cols` × `rows` cells, as a
/// theme's `background`, when the board is square of 3 to 8 cells a side:
/// each image's cells split it evenly, so they lie under centres at
/// `(c + 0.5, r + 0.5)` in a space of `[cols, rows]` (read from the files
/// on 2026-11-29). None for other boards, oblong ones among them:
/// GamesmanUni has no file for them, and a `background` naming a file it
/// lacks breaks its board.
pub fn bundled_grid(cols: u32, rows: u32) -> Option<&'static str> {
    if cols != rows {
        return None;
    }
    Some(match cols {
        3 => "ttt/3x3grid.svg",
        4 => "dao/grid.svg",
        5 => "flowfree/grid.svg",
        6 => "konane/grid6x6.svg",
        7 => "nqueens/grid7.svg",
        8 => "nqueens/grid8.svg",
        _ => return None,
    })
}

/// A game's drawings for the browser page, as SVG markup.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardArt {
    /// The board under the pieces, in the coordinates of the AutoGUI
    /// theme's `space` (x to the right, y down).
    pub background: Option<String>,
    /// Each AutoGUI character's drawing, in a unit box centred on the
    /// origin; the page places it at its centre, scaled by the theme's
    /// scale for that character.
    pub pieces: Vec<(char, String)>,
    /// Where the page draws the position's pieces, by AutoGUI slot, when
    /// the theme's centres (placed for GamesmanUni's own images) do not
    /// suit these drawings: `None` keeps the theme's. Move controls are
    /// always at the theme's centres.
    pub centers: Option<Vec<[f64; 2]>>,
}

use std::fmt::Debug;
use std::hash::Hash;

/// A search's estimates of a position's moves ([`Search::estimate`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Estimates<M> {
    /// The search, e.g. `mcts`.
    pub method: &'static str,
    /// What it did: random games played, or positions evaluated.
    pub work: u64,
    /// Every legal move with its expected result for its maker, from 0
    /// (a loss) to 1 (a win), best first; `None` for a move the search
    /// never tried (no game went through it in the time given), which is
    /// no result at all, not an even one.
    pub moves: Vec<(M, Option<f64>)>,
}

/// How a game answers whether play reaches a position
/// ([`Game::reachability`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reachability {
    /// Every position [`Game::check`] accepts is reached by some game
    /// (Topolo's): nothing to search.
    Every,
    /// [`Game::reachable`] answers exactly (Topitop's backward search).
    Answered,
    /// Neither: the positions reached are found by a forward pass.
    Search,
}

/// What every game provides.
///
/// # Examples
///
/// A whole game: a heap of 7 stones, each player in turn takes one or two,
/// and the player who cannot move (the heap is empty) loses. With
/// [`Tiered`] and [`Registered`] it is solved, stored, queried and served
/// by every command; [`conformance`] checks it keeps this contract.
///
/// ```
/// use topitop_game_api::conformance::{check_registered, Settings};
/// use topitop_game_api::{Game, GameError, Options, Presentation, Registered, Search, Tiered, Value};
///
/// #[derive(Clone, Copy)]
/// struct Heap;
///
/// impl Game for Heap {
///     type Position = u8; // the stones left
///     type Move = u8; // the stones taken
///     fn name(&self) -> &'static str { "heap" }
///     fn variant(&self) -> String { "7".into() }
///     fn start(&self) -> u8 { 7 }
///     fn moves(&self, pos: &u8) -> Vec<u8> { (1..=2).filter(|&k| k <= *pos).collect() }
///     fn play(&self, pos: &u8, mv: u8) -> u8 { pos - mv }
///     fn primitive(&self, pos: &u8) -> Option<Value> { (*pos == 0).then_some(Value::Lose) }
///     fn check(&self, pos: &u8) -> Result<(), GameError> {
///         if *pos <= 7 { Ok(()) } else { Err(GameError::rules(format!("{pos} stones: the heap holds 7"))) }
///     }
///     fn parse_position(&self, text: &str) -> Result<u8, GameError> {
///         let pos = text.parse().map_err(|_| GameError::notation(format!("{text:?} is not a number of stones")))?;
///         self.check(&pos).map(|()| pos)
///     }
///     fn format_position(&self, pos: &u8) -> String { pos.to_string() }
///     fn parse_move(&self, pos: &u8, text: &str) -> Result<u8, GameError> {
///         match text.parse() {
///             Ok(k) if self.moves(pos).contains(&k) => Ok(k),
///             Ok(_) => Err(GameError::rules(format!("{text}: take 1 or 2, at most what is left"))),
///             Err(_) => Err(GameError::notation(format!("{text:?} is not a number of stones"))),
///         }
///     }
///     fn format_move(&self, mv: u8) -> String { mv.to_string() }
///     // Impartial: a heap is the same whoever takes from it, so the
///     // position leaves out the turn (`player_to_move` is `None`).
/// }
///
/// impl Tiered for Heap {
///     type Tier = u8; // one tier a heap size, one position in each
///     fn tiers(&self) -> Vec<u8> { (0..=7).collect() }
///     fn tier_of(&self, pos: &u8) -> u8 { *pos }
///     fn tier_size(&self, _: u8) -> u64 { 1 }
///     fn index(&self, _: &u8) -> u64 { 0 }
///     fn position(&self, tier: u8, index: u64) -> Option<u8> { (index == 0).then_some(tier) }
///     fn child_tiers(&self, tier: u8) -> Vec<u8> { (tier.saturating_sub(2)..tier).collect() }
///     fn tier_name(&self, tier: u8) -> String { format!("stones{tier}") }
/// }
///
/// // Shown as its position strings, and no search: the defaults.
/// impl Presentation for Heap {}
/// impl Search for Heap {}
///
/// impl Registered for Heap {
///     const NAME: &'static str = "heap";
///     fn from_options(_: &Options) -> Result<Heap, String> { Ok(Heap) }
///     fn from_variant(v: &str) -> Result<Heap, String> {
///         if v == "7" { Ok(Heap) } else { Err(format!("{v:?} is not a variant of heap")) }
///     }
/// }
///
/// let game = Heap;
/// let after = game.play(&game.start(), game.parse_move(&7, "1")?);
/// assert_eq!(game.format_position(&after), "6");
/// assert_eq!(game.player_to_move(&after), None);
/// assert!(game.parse_move(&1, "2").is_err());
/// let report = check_registered(&game, Settings::default());
/// assert!(report.passed(), "{report}");
/// # Ok::<(), GameError>(())
/// ```
pub trait Game: Send + Sync {
    /// A position: the game's own type.
    type Position: Copy + Eq + Hash + Ord + Debug + Send + Sync;
    /// A move, the game's own type; shared code only passes it back to
    /// the game and prints it through [`Game::format_move`].
    type Move: Copy + Eq + Debug + Send + Sync;

    /// The game's name in commands, files and URLs, e.g. `topolo`.
    fn name(&self) -> &'static str;

    /// The variant being played, as the database file names it, e.g.
    /// `3x4` or `3x4_size-only`.
    fn variant(&self) -> String;

    /// The position play starts from.
    fn start(&self) -> Self::Position;

    /// Every legal move of `pos`; none when the game is over.
    fn moves(&self, pos: &Self::Position) -> Vec<Self::Move>;

    /// The position after `mv`, a legal move of `pos`.
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;

    /// The value of `pos` for the player to move if the game is over there
    /// (a primitive position), else `None`.
    fn primitive(&self, pos: &Self::Position) -> Option<Value>;

    /// Why `pos` is not a position of play, if it is not: a position the
    /// game can continue from or has ended in, that the solver gives a
    /// value.
    ///
    /// # Errors
    /// The rule it breaks ([`ErrorKind::Rules`]), in words.
    fn check(&self, pos: &Self::Position) -> Result<(), GameError>;

    /// The position a string names, checked with [`Game::check`].
    ///
    /// # Errors
    /// A malformed string ([`ErrorKind::Notation`]) or a position play
    /// does not reach ([`ErrorKind::Rules`]), with the reason.
    fn parse_position(&self, text: &str) -> Result<Self::Position, GameError>;

    /// The string of `pos`.
    fn format_position(&self, pos: &Self::Position) -> String;

    /// The move a string names in `pos`, checked to be legal there.
    ///
    /// # Errors
    /// A malformed move ([`ErrorKind::Notation`]) or one not legal in
    /// `pos` ([`ErrorKind::Rules`]), with the reason.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, GameError>;

    /// The string of `mv`.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Optional: whether some game played from [`Game::start`] comes to
    /// `pos`, a position [`Game::check`] accepts. By default true; the
    /// shared commands rely on it only as [`Game::reachability`] says.
    fn reachable(&self, _pos: &Self::Position) -> bool {
        true
    }

    /// Optional: how [`Game::reachable`] answers. By default
    /// [`Reachability::Search`]: the shared commands find the positions
    /// games reach by a forward pass from the start.
    fn reachability(&self) -> Reachability {
        Reachability::Search
    }

    /// Optional: who moves in `pos`, 0 for the first player and 1 for
    /// the second, for a partisan game (whose positions differ by who
    /// moves). `None`, the default: an impartial game, whose positions
    /// are the same whoever moves and need not carry the turn (a record a
    /// position, not two). Every move passes the turn (the solvers'
    /// negamax counts on it), so a command that knows the plies played
    /// tells the players apart by them, and one that does not names
    /// neither.
    fn player_to_move(&self, _pos: &Self::Position) -> Option<usize> {
        None
    }

    /// Optional: true when the game has symmetries, declared by
    /// [`images`](Game::images) and [`canonical`](Game::canonical): a
    /// solve then keeps one position a class, and `solve --no-symmetry`
    /// is offered. By default none, a valid answer: every position is a
    /// class of its own, and nothing is said of classes.
    fn has_symmetries(&self) -> bool {
        false
    }

    /// Optional: every position of `pos`'s symmetry class, `pos` among
    /// them, each once; by default `pos` alone (no symmetries).
    fn images(&self, pos: &Self::Position) -> Vec<Self::Position> {
        vec![*pos]
    }

    /// Optional: the representative of `pos`'s symmetry class. Every
    /// position of a class has the same value and remoteness. By default
    /// a game has no symmetries.
    fn canonical(&self, pos: &Self::Position) -> Self::Position {
        *pos
    }
}

/// What a game shows a person beside its rules: the position drawn as
/// text, the words around it, and the boards GamesmanUni and the browser
/// page draw. Every function has a default that is correct, only plainer:
/// a game with none of its own writes `impl Presentation for MyGame {}`
/// and is shown as its position strings and a list of moves.
pub trait Presentation: Game {
    /// Optional: the players' names, first player first.
    fn player_names(&self) -> [&'static str; 2] {
        ["first", "second"]
    }

    /// Optional: `pos` drawn for a person, several lines (the board, who
    /// moves, what is left); by default its string.
    fn show(&self, pos: &Self::Position) -> String {
        self.format_position(pos)
    }

    /// Optional: what a player reads off `pos` beside the board, as
    /// (label, text) pairs: the pieces left, a shared supply, a move
    /// forbidden for now. By default none.
    fn facts(&self, _pos: &Self::Position) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Optional: why the game is over at `pos`, in words that name what
    /// decided it (the groups compared, the pawn lost); `None` for a
    /// position of play, and by default.
    fn ending(&self, _pos: &Self::Position) -> Option<String> {
        None
    }

    /// Optional: the game's display name (e.g. `Topolo`); by default its
    /// [`name`](Game::name).
    fn title(&self) -> String {
        self.name().to_string()
    }

    /// Optional: the variant's display name (e.g. `3×4, group size only`);
    /// by default its [`variant`](Game::variant) string.
    fn variant_title(&self) -> String {
        self.variant()
    }

    /// Optional: the rules for a person, as Markdown (GamesmanUni shows it
    /// beside the board); by default none.
    fn instructions(&self) -> String {
        String::new()
    }

    /// Optional: how a person types a move, and what the drawing's letters
    /// mean, for `play`'s greeting (e.g. `B5 places a bucket on cell 5`);
    /// by default none: the moves are typed as `show` lists them.
    fn move_help(&self) -> Option<String> {
        None
    }

    /// Optional: GamesmanUni's AutoGUI entity string of `pos`, without the
    /// `1_`/`2_` turn prefix (one character a centre of
    /// [`image_autogui_data`](Presentation::image_autogui_data)). `None`: the
    /// position string stands in, and GamesmanUni draws no board.
    fn autogui_position(&self, _pos: &Self::Position) -> Option<String> {
        None
    }

    /// Optional: GamesmanUni's AutoGUI string of `mv` played in `pos`
    /// (e.g. `A_a_12_x`, a button); unique among `pos`'s moves. `None`:
    /// the move string stands in, listed as a text button.
    fn autogui_move(&self, _pos: &Self::Position, _mv: Self::Move) -> Option<String> {
        None
    }

    /// Optional: GamesmanUni's `imageAutoGUIData` as JSON text (themes,
    /// centres, images bundled in GamesmanUni). `None`: GamesmanUni shows
    /// the position as text and the moves as a list.
    fn image_autogui_data(&self) -> Option<String> {
        None
    }

    /// Optional: the game's own drawings of the pieces and board of its
    /// [`image_autogui_data`](Presentation::image_autogui_data), for the browser
    /// page of `topitop serve` (GamesmanUni draws its own bundled images
    /// instead). By default none: the page draws plain discs.
    fn board_art(&self) -> BoardArt {
        BoardArt::default()
    }
}

/// What a game offers for boards too large to solve: a player that
/// estimates each move by a search. By default none (`impl Search for
/// MyGame {}`): positions are answered from a database only.
pub trait Search: Game {
    /// Optional: true when the game has a player for positions no
    /// database holds ([`Search::estimate`]).
    fn can_estimate(&self) -> bool {
        false
    }

    /// Optional: every legal move of `pos` with its estimated result for
    /// the player making it (1 a win, ½ a tie, 0 a loss), best first, from
    /// a search given `budget` of time: for boards too large to solve. The
    /// search ends early, with what it has, as soon as `stop` is set (from
    /// another thread: the server sets it when the client has gone), and
    /// keeps its memory bounded however long it is given. By default none.
    fn estimate(
        &self,
        _pos: &Self::Position,
        _budget: std::time::Duration,
        _stop: &std::sync::atomic::AtomicBool,
    ) -> Option<Estimates<Self::Move>> {
        None
    }
}

/// How the positions of a tier can move between each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TierType {
    /// No move stays within the tier: every move leads to a child tier.
    LoopFree,
    /// Moves may stay within the tier, and cycles are possible.
    Loopy,
}

/// What solving needs of a game besides [`Game`]: positions grouped in
/// tiers, each indexed densely.
pub trait Tiered: Game {
    /// A tier's name.
    type Tier: Copy + Eq + Hash + Ord + Debug + Send + Sync;

    /// Every tier.
    fn tiers(&self) -> Vec<Self::Tier>;

    /// The tier of `pos`.
    fn tier_of(&self, pos: &Self::Position) -> Self::Tier;

    /// The number of indices of `tier` (every position of the tier has one
    /// below it; some indices may name no position of play).
    fn tier_size(&self, tier: Self::Tier) -> u64;

    /// The index of `pos` inside its tier.
    fn index(&self, pos: &Self::Position) -> u64;

    /// The position at `index` of `tier`, or `None` if that index names no
    /// position of play.
    fn position(&self, tier: Self::Tier, index: u64) -> Option<Self::Position>;

    /// The tiers the moves of `tier`'s positions lead to.
    fn child_tiers(&self, tier: Self::Tier) -> Vec<Self::Tier>;

    /// A tier's name for files and progress, e.g. `r4.1.0-b3.1.0`.
    fn tier_name(&self, tier: Self::Tier) -> String;

    /// Optional: the remoteness every position of `tier` has, when the
    /// game fixes it (every game from such a position lasts as long:
    /// Topolo's empty cells). A game that gives it for every tier may be
    /// stored as values alone. By default none.
    fn fixed_remoteness(&self, _tier: Self::Tier) -> Option<u16> {
        None
    }

    /// Optional: how positions move within `tier` (loop-free by default).
    fn tier_type(&self, _tier: Self::Tier) -> TierType {
        TierType::LoopFree
    }

    /// Optional: calls `f(index, position)`, in index order, for each
    /// index of `range` in `tier` that names a position of play, and with
    /// `canonical_only` only for positions that are their class's
    /// canonical one. Solvers walk whole tiers through this, so a game
    /// whose index steps from one index to the next more cheaply than it
    /// unranks each (or can tell a board is not canonical before checking
    /// it is a position) overrides it. By default each index is unranked
    /// on its own by [`Tiered::position`].
    fn walk_positions(
        &self,
        tier: Self::Tier,
        range: std::ops::Range<u64>,
        canonical_only: bool,
        f: &mut dyn FnMut(u64, &Self::Position),
    ) {
        for i in range {
            if let Some(p) = self.position(tier, i) {
                if !canonical_only || self.canonical(&p) == p {
                    f(i, &p);
                }
            }
        }
    }
}

/// A game the command can build: from the command's options, and from the
/// variant string its databases record. The one line that registers a
/// game names a type implementing this (with [`Tiered`] too, for the
/// shared solver and formats; without, the game brings its own).
pub trait Registered: Presentation + Search + Sized + 'static {
    /// The game's name as `--game` takes it (the same as
    /// [`Game::name`]).
    const NAME: &'static str;

    /// The options the game takes, with their help and defaults: the
    /// command offers these and refuses any other. By default none (one
    /// board, one variant).
    const OPTIONS: &'static [GameOption] = &[];

    /// The game the given `options` select (each not given: the game's
    /// default). Only [`Registered::OPTIONS`] are ever given.
    ///
    /// # Errors
    /// A value the game does not have, said for a person.
    fn from_options(options: &Options) -> Result<Self, String>;

    /// The game whose [`Game::variant`] is `variant`, as a database's
    /// header records it.
    ///
    /// # Errors
    /// A string that is no variant of the game.
    fn from_variant(variant: &str) -> Result<Self, String>;
}
