//! Topitop's figures of `stats` ([`topitop_cli::cmd::stats`]): what
//! GamesmanOne's tier analyzer reports, from one scan of its database's
//! groups, and the page's heat map by pieces placed and tier scatter.

use std::collections::BTreeMap;

use games_topitop_rules::{symmetry, Board, Budget, MoveList, Position, Rules, StateIndex, Tier, Value};
use games_topitop_solved::{Database, Reached};
use games_topitop_table::Record;
use serde::Serialize;
use topitop_cli::cmd::stats::{add, Args, Counted, Extras};
use topitop_cli::report::{self, grouped};
use topitop_db::Reader;

use crate::options::DbOptions;
use crate::scan::fold_groups;

/// The longest game of one value, with an example.
#[derive(Clone, Debug, Default, Serialize)]
struct Longest {
    remoteness: u16,
    example: Option<String>,
}

/// The longest win, lose and tie, each with an example.
#[derive(Serialize)]
struct LongestGames {
    longest_win: Longest,
    longest_lose: Longest,
    longest_tie: Longest,
}

impl LongestGames {
    /// Of the first positions found with the longest win, lose and tie.
    fn of(found: [Option<(u16, Position)>; 3]) -> LongestGames {
        let [longest_win, longest_lose, longest_tie] = found.map(|l| {
            l.map_or_else(Longest::default, |(remoteness, pos)| Longest {
                remoteness,
                example: Some(pos.to_string()),
            })
        });
        LongestGames {
            longest_win,
            longest_lose,
            longest_tie,
        }
    }

    /// Each with its value's name.
    fn named(&self) -> [(&str, &Longest); 3] {
        [
            ("win", &self.longest_win),
            ("lose", &self.longest_lose),
            ("tie", &self.longest_tie),
        ]
    }
}

/// Counts of the positions play reaches from the start.
#[derive(Serialize)]
struct Reachable {
    positions: u64,
    win: u64,
    lose: u64,
    tie: u64,
    draw: u64,
    unsolved: u64,
    #[serde(flatten)]
    longest: LongestGames,
}

/// What the scan adds up, in the form cheapest to add to: counts indexed
/// by value and the longest games as positions, turned into [`Extra`]
/// (examples written out) once at the end.
#[derive(Clone, Debug, Default)]
struct Tally {
    /// Positions of play by value index (win, lose, tie, draw), unsolved
    /// last.
    by_value: [u64; 5],
    unplayable_stored: u64,
    primitive: u64,
    moves: u64,
    /// The first position found with the longest win, lose and tie.
    longest: [Option<(u16, Position)>; 3],
    /// The same two for the positions play reaches from the start.
    reached: [u64; 5],
    reached_longest: [Option<(u16, Position)>; 3],
    /// The positions (not classes) play reaches.
    reached_images: u64,
}

/// `b` into `a`: the longer of each longest game.
fn keep_longest(a: &mut [Option<(u16, Position)>; 3], b: [Option<(u16, Position)>; 3]) {
    for (a, b) in a.iter_mut().zip(b) {
        if let Some((r, _)) = b {
            if a.is_none_or(|(ra, _)| r > ra) {
                *a = b;
            }
        }
    }
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        for (a, b) in self.by_value.iter_mut().zip(o.by_value) {
            *a += b;
        }
        self.unplayable_stored += o.unplayable_stored;
        self.primitive += o.primitive;
        self.moves += o.moves;
        keep_longest(&mut self.longest, o.longest);
        for (a, b) in self.reached.iter_mut().zip(o.reached) {
            *a += b;
        }
        keep_longest(&mut self.reached_longest, o.reached_longest);
        self.reached_images += o.reached_images;
        self
    }
}

/// What only the HTML page shows: the positions of play broken down by
/// value and remoteness, by value and pieces placed, and by tier. Collected
/// only for `--report`, so plain `stats` does no extra work.
#[derive(Clone, Debug, Default)]
struct Breakdown {
    /// Positions by remoteness, one histogram per value: win, lose, tie
    /// (a draw has no remoteness).
    remoteness: [Vec<u64>; 3],
    /// Positions by pieces placed, then by value index (win, lose, tie,
    /// draw) with unsolved last.
    pieces: Vec<[u64; 5]>,
    /// Positions by tier number, then by value index as `pieces` (ordered,
    /// so the page is the same every run).
    tiers: BTreeMap<u64, [u64; 5]>,
}

impl Breakdown {
    fn note(&mut self, pos: Position, value: Option<Value>, remoteness: u16) {
        if let Some(i) = value.filter(|v| *v != Value::Draw).map(Value::index) {
            add(&mut self.remoteness[i], usize::from(remoteness), 1);
        }
        let k = value.map_or(4, Value::index);
        let board = pos.board();
        let placed = board.pieces_used().iter().map(|&p| usize::from(p)).sum::<usize>();
        if self.pieces.len() <= placed {
            self.pieces.resize(placed + 1, [0; 5]);
        }
        self.pieces[placed][k] += 1;
        self.tiers.entry(Tier::of(board).number()).or_default()[k] += 1;
    }

    fn merge(mut self, o: Breakdown) -> Breakdown {
        for (a, b) in self.remoteness.iter_mut().zip(o.remoteness) {
            for (r, n) in b.into_iter().enumerate() {
                add(a, r, n);
            }
        }
        if self.pieces.len() < o.pieces.len() {
            self.pieces.resize(o.pieces.len(), [0; 5]);
        }
        for (a, b) in self.pieces.iter_mut().zip(o.pieces) {
            add_into(a, &b);
        }
        for (t, n) in o.tiers {
            add_into(self.tiers.entry(t).or_default(), &n);
        }
        self
    }
}

/// Adds `b` into `a` element by element.
fn add_into(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Topitop's own figures of `stats`, after the common ones: of the
/// positions of play stored, one per symmetry class (by value, they are
/// the common figures).
#[derive(Serialize)]
struct Extra {
    rules: String,
    budget: String,
    records_stored: u64,
    /// Symmetry classes of positions of play stored.
    play_classes: u64,
    unsolved: u64,
    /// Stored states that fail [`Position::is_valid`], left out of every
    /// other figure.
    unplayable_stored: u64,
    primitive: u64,
    moves: u64,
    #[serde(flatten)]
    longest: LongestGames,
    /// The positions games reach from the start, by value, with their
    /// longest games: the positions of play less those no game comes to.
    reachable: Reachable,
    /// Moves per non-primitive position.
    branching_factor: f64,
    /// States in our dense index.
    index_states: u64,
    /// Slots in GamesmanClassic's hash for the same budget.
    gamesman_classic_slots: u64,
    /// index_states / gamesman_classic_slots.
    gamesman_classic_hash_efficiency: f64,
    /// Symmetry classes / index states.
    stored_fraction: f64,
    /// The page's breakdowns (empty without `--report`).
    #[serde(skip)]
    breakdown: Breakdown,
}

/// Runs `stats`: the shared command, with Topitop's scan and figures.
pub fn run(args: Args) -> anyhow::Result<()> {
    let db = args.db.open()?;
    topitop_cli::cmd::stats::run(&db.rules(), &db, &Scan(&db), args)
}

/// Topitop's part of `stats`: one scan of the database's groups
/// ([`fold_groups`]) counts the common figures and its own at once, the
/// positions of play apart from the stored states play cannot reach.
struct Scan<'a>(&'a Database);

impl Extras<Rules> for Scan<'_> {
    type Own = Extra;

    fn count(&self, _: &Rules, _: &dyn Reader<Rules>, detail: bool) -> anyhow::Result<(Counted, Extra)> {
        let db = self.0;
        let rules = db.rules();
        let reached = games_topitop_solved::reach(rules, db.index());
        let (tally, breakdown) = fold_groups(
            db,
            "analysing",
            |(t, b): &mut (Tally, Breakdown), board, stored| {
                // Group order puts each half (one side to move) in one run.
                for half in stored.chunk_by(|x, y| x.0.turn() == y.0.turn()) {
                    tally_half(
                        t,
                        detail.then_some(&mut *b),
                        rules,
                        board,
                        half,
                        (&reached, db.index()),
                    );
                }
                Ok(())
            },
            |(ta, ba), (tb, bb)| (ta.merge(tb), ba.merge(bb)),
        )?;
        let slots = gamesman_classic_slots(rules.budget());
        let index_states = db.index().len();
        let play_classes = tally.by_value.iter().sum::<u64>();
        let [win, lose, tie, draw, unsolved] = tally.reached;
        let counted = Counted {
            counts: [0, 1, 2, 3].map(|k| tally.by_value[k]),
            largest_remoteness: tally.longest.iter().flatten().map(|l| l.0).max().unwrap_or(0),
            positions: tally.reached_images,
            classes: tally.reached.iter().sum(),
            by_remoteness: breakdown.remoteness.clone(),
            tiers: breakdown
                .tiers
                .iter()
                .map(|(t, n)| (t.to_string(), [n[0], n[1], n[2], n[3]]))
                .filter(|(_, n)| n.iter().sum::<u64>() > 0)
                .collect(),
        };
        let extra = Extra {
            rules: rules.ruleset().to_string(),
            budget: rules.budget().to_string(),
            records_stored: db.header().records,
            play_classes,
            unsolved: tally.by_value[4],
            unplayable_stored: tally.unplayable_stored,
            primitive: tally.primitive,
            moves: tally.moves,
            longest: LongestGames::of(tally.longest),
            reachable: Reachable {
                positions: counted.classes,
                win,
                lose,
                tie,
                draw,
                unsolved,
                longest: LongestGames::of(tally.reached_longest),
            },
            branching_factor: tally.moves as f64 / (play_classes - tally.primitive).max(1) as f64,
            index_states,
            gamesman_classic_slots: slots,
            gamesman_classic_hash_efficiency: index_states as f64 / slots as f64,
            stored_fraction: play_classes as f64 / index_states as f64,
            breakdown,
        };
        Ok((counted, extra))
    }

    /// Topitop's lines of `stats`, after the common ones.
    fn lines(&self, x: &Extra) -> Vec<String> {
        let (t, r) = (x, &x.reachable);
        let mut lines = vec![
            format!("rules                {} budget {}", x.rules, x.budget),
            format!("records stored       {}", x.records_stored),
            format!(
                "positions of play    {} classes: {} primitive{}",
                t.play_classes,
                t.primitive,
                if t.unsolved > 0 {
                    format!(", {} unsolved", t.unsolved)
                } else {
                    String::new()
                }
            ),
            format!(
                "reachable by value   {} win, {} lose, {} tie, {} draw",
                r.win, r.lose, r.tie, r.draw
            ),
            format!(
                "also stored          {} states play cannot reach (GamesmanClassic's hash has them; query refuses them)",
                t.unplayable_stored
            ),
        ];
        // Examples a game can come to: the longest of the reachable positions.
        for (name, l) in r.longest.named() {
            if let Some(e) = &l.example {
                lines.push(format!("longest {name:<5}        {} (e.g. {e})", l.remoteness));
            }
        }
        lines.push(format!(
            "branching factor     {:.2} moves per non-primitive position",
            x.branching_factor
        ));
        lines.push(format!(
            "hash efficiency      our index {} states; GamesmanClassic's hash {} slots ({:.1}%)",
            x.index_states,
            x.gamesman_classic_slots,
            100.0 * x.gamesman_classic_hash_efficiency
        ));
        lines.push(format!(
            "symmetry             {:.1}% of indexed states stored as classes",
            100.0 * x.stored_fraction
        ));
        lines
    }

    /// Topitop's rows of the page's totals (figure, number, note), after the
    /// common ones: the figures of its text lines.
    fn rows(&self, x: &Extra) -> Vec<Vec<String>> {
        let t = x;
        let row = |figure: &str, n: String, note: &str| vec![figure.to_string(), n, note.to_string()];
        let mut rows = vec![
            row("records stored", grouped(x.records_stored), ""),
            row(
                "positions (classes)",
                grouped(t.play_classes),
                "positions of play, one per symmetry class",
            ),
        ];
        if t.unsolved > 0 {
            rows.push(row("unsolved", grouped(t.unsolved), ""));
        }
        rows.push(row(
            "primitive",
            grouped(t.primitive),
            "positions where the game is over",
        ));
        rows.push(row(
            "also stored",
            grouped(t.unplayable_stored),
            "states play cannot reach (GamesmanClassic's hash has them; query refuses them)",
        ));
        let reach = &t.reachable;
        rows.push(row(
            "reachable",
            grouped(reach.positions),
            &format!(
                "of them, the ones games reach from the start: {} win, {} lose, {} tie, {} draw",
                grouped(reach.win),
                grouped(reach.lose),
                grouped(reach.tie),
                grouped(reach.draw)
            ),
        ));
        for (name, l) in reach.longest.named() {
            if let Some(e) = &l.example {
                rows.push(row(
                    &format!("longest {name}"),
                    l.remoteness.to_string(),
                    &format!("e.g. {e}"),
                ));
            }
        }
        rows.push(row(
            "branching factor",
            format!("{:.2}", x.branching_factor),
            "moves per non-primitive position",
        ));
        rows.push(row(
            "GamesmanClassic slots",
            grouped(x.gamesman_classic_slots),
            "slots of GamesmanClassic's hash for this budget",
        ));
        rows.push(row(
            "hash efficiency",
            format!("{:.1}%", 100.0 * x.gamesman_classic_hash_efficiency),
            "indices / GamesmanClassic slots",
        ));
        rows.push(row(
            "symmetry",
            format!("{:.1}%", 100.0 * x.stored_fraction),
            "of indexed states stored as classes",
        ));
        rows
    }

    /// Topitop's sections of the page: positions by value and pieces placed,
    /// and by tier against the tier's size.
    fn sections(&self, x: &Extra, page: &mut report::Report) {
        let (b, budget) = (&x.breakdown, self.0.rules().budget());
        page.heading("Values through the game");
        page.paragraph(
            "Pieces placed (buckets, small and large sand piles on the board) never decrease in play, \
             so they tell how far a game has gone.",
        );
        let mut row_labels: Vec<String> = ["win", "lose", "tie", "draw"].map(String::from).to_vec();
        let mut cells: Vec<Vec<u64>> = (0..4).map(|v| b.pieces.iter().map(|p| p[v]).collect()).collect();
        if x.unsolved > 0 {
            row_labels.push("unsolved".to_string());
            cells.push(b.pieces.iter().map(|p| p[4]).collect());
        }
        let col_labels: Vec<String> = (0..b.pieces.len()).map(|p| p.to_string()).collect();
        page.heat_map(
            "Positions by value and pieces placed",
            "value",
            "pieces placed",
            &row_labels,
            &col_labels,
            &cells,
        );

        page.heading("Tier sizes");
        let points: Vec<(f64, f64)> = b
            .tiers
            .iter()
            .map(|(&t, n)| {
                (
                    Tier::from_number(t, budget).map_or(0, |t| t.size()) as f64,
                    n.iter().sum::<u64>() as f64,
                )
            })
            .collect();
        page.paragraph(&format!(
            "A tier is the set of boards with the same count of each kind of structure; \
             GamesmanClassic gives each tier 82 slots per board. {} tiers hold positions of play, \
             of {} tiers in GamesmanClassic's hash. Each point is a tier: its size against the \
             positions stored for it, after symmetry and without the unreachable slots.",
            points.len(),
            Tier::reachable(budget).len()
        ));
        page.scatter(
            "Tier size and positions stored",
            "tier size (GamesmanClassic slots)",
            "positions stored (classes)",
            &points,
            true,
            true,
        );
    }
}

/// Adds the stored positions of one half (a board with one side to move,
/// `half`, in group order) to `t`, and to `b` for the report. The half's
/// moves, its primitive value and the validity of all but the forbidden
/// slide are the same for each of its positions, so they are worked out
/// once.
fn tally_half(
    t: &mut Tally,
    mut b: Option<&mut Breakdown>,
    rules: Rules,
    board: Board,
    half: &[(Position, Record)],
    (reached, index): (&Reached, &StateIndex),
) {
    let Some(&(first, _)) = half.first() else {
        return;
    };
    let turn = first.turn();
    let open = Position::new(board, turn, None);
    // The board comes from the budget's index, so its pieces are within
    // the budget; what is left of validity is that the side to move has
    // not already won (nor both sides), for every position of the half.
    let playable = board.castles_of(turn) < 2;
    debug_assert_eq!(playable, open.is_valid(rules.budget()), "{open}");
    if !playable {
        t.unplayable_stored += half.len() as u64;
        return;
    }
    let mut moves = MoveList::new();
    rules.generate_piece_moves(open, &mut moves);
    // Bit id - 1 for each slide among the moves: a position forbidding
    // one of them has one move fewer.
    let slides = moves
        .iter()
        .filter(|m| m.slide_id() != 0)
        .fold(0u64, |acc, m| acc | 1 << (m.slide_id() - 1));
    let board_primitive = rules.board_primitive(board, turn);
    let self_symmetric = symmetry::board_standing(board).self_symmetric;
    let game_over = board.castles_of(turn.opponent()) >= 2;
    for &(pos, rec) in half {
        let d = pos.forbidden_id();
        // Group positions forbid only plausible slides (a neutral source,
        // an empty destination), so what is left of validity is that no
        // slide can follow the end of the game.
        debug_assert!(pos.forbidden_is_plausible() && pos.board() == board);
        if d != 0 && game_over {
            t.unplayable_stored += 1;
            continue;
        }
        debug_assert!(pos.is_valid(rules.budget()));
        if let Some(b) = b.as_deref_mut() {
            b.note(pos, rec.value(), rec.remoteness());
        }
        // Indexed, not matched: values come in no order a branch predicts.
        let k = rec.value_index();
        t.by_value[k] += 1;
        let reachable = reached.contains_class(index, pos);
        if reachable {
            t.reached[k] += 1;
            // Eight images unless a symmetry fixes the board (found once
            // for the half): only then are a position's images counted.
            t.reached_images += if self_symmetric {
                symmetry::images_of(pos).len() as u64
            } else {
                8
            };
        }
        if k < 3 {
            let r = rec.remoteness();
            if t.longest[k].is_none_or(|(longest, _)| r > longest) {
                t.longest[k] = Some((r, pos));
            }
            if reachable && t.reached_longest[k].is_none_or(|(longest, _)| r > longest) {
                t.reached_longest[k] = Some((r, pos));
            }
        }
        let own = moves.len() as u64 - if d == 0 { 0 } else { (slides >> (d - 1)) & 1 };
        let primitive = board_primitive.or(if own == 0 { rules.stuck_value() } else { None });
        if primitive.is_some() {
            t.primitive += 1;
        } else {
            // A stuck side that is not primitive passes: one move.
            t.moves += own.max(1);
        }
    }
}

/// The slots of GamesmanClassic's hash for `budget`: it has a tier for every
/// composition play can reach, so not for the one where both players own
/// two castles, which our index numbers too.
fn gamesman_classic_slots(budget: Budget) -> u64 {
    Tier::reachable(budget).iter().map(|t| t.size()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamesman_classic_slots_are_those_of_its_2231_tiers() {
        assert_eq!(gamesman_classic_slots(Budget::STANDARD), 2_972_507_380);
    }
}
