//! `topitop stats`: what GamesmanOne's tier analyzer reports, from a
//! database, as text, JSON or an HTML report with charts.

use std::collections::BTreeMap;

use serde::Serialize;
use topitop_cli::cmd::stats::capitalised;
use topitop_cli::common::StartResult;
use topitop_cli::report::grouped;
use topitop_game_api::Game;
use topitop_rules::{symmetry, Board, Budget, MoveList, Player, Position, Rules, StateIndex, Tier, Value};
use topitop_solved::Reached;
use topitop_table::Record;

use topitop_cli::cmd::stats::Args;

/// `stats`' report with Topitop's own figures.
type StatsReport = topitop_cli::cmd::stats::Report<Extra>;

use crate::options::DbOptions;
use crate::scan::fold_groups;
use topitop_cli::output::Output;
use topitop_cli::report;

/// The longest game of one value, with an example.
#[derive(Clone, Debug, Default, Serialize)]
struct Longest {
    remoteness: u16,
    example: Option<String>,
}

/// The figures of the positions of play stored, one per symmetry class;
/// by value they are the common figures of `stats`, not repeated here.
#[derive(Clone, Debug, Default, Serialize)]
struct Totals {
    /// Symmetry classes of positions of play stored.
    play_classes: u64,
    #[serde(skip)]
    win: u64,
    #[serde(skip)]
    lose: u64,
    #[serde(skip)]
    tie: u64,
    #[serde(skip)]
    draw: u64,
    unsolved: u64,
    /// Stored states that fail [`Position::is_valid`], left out of every
    /// other figure.
    unplayable_stored: u64,
    primitive: u64,
    moves: u64,
    longest_win: Longest,
    longest_lose: Longest,
    longest_tie: Longest,
    /// The positions games reach from the start, by value, with their
    /// longest games: the positions of play less those no game comes to.
    reachable: Reachable,
}

/// Counts of the positions play reaches from the start.
#[derive(Clone, Debug, Default, Serialize)]
struct Reachable {
    positions: u64,
    win: u64,
    lose: u64,
    tie: u64,
    draw: u64,
    unsolved: u64,
    longest_win: Longest,
    longest_lose: Longest,
    longest_tie: Longest,
}

/// What the scan adds up, in the form cheapest to add to: counts indexed
/// by value and the longest games as positions, turned into [`Totals`]
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

    fn totals(&self) -> Totals {
        let of = |l: &[Option<(u16, Position)>; 3], k: usize| {
            l[k].map_or_else(Longest::default, |(r, pos)| Longest {
                remoteness: r,
                example: Some(pos.to_string()),
            })
        };
        let longest = |k: usize| of(&self.longest, k);
        let reached = |k: usize| of(&self.reached_longest, k);
        let [rwin, rlose, rtie, rdraw, runsolved] = self.reached;
        let reachable = Reachable {
            positions: self.reached.iter().sum(),
            win: rwin,
            lose: rlose,
            tie: rtie,
            draw: rdraw,
            unsolved: runsolved,
            longest_win: reached(0),
            longest_lose: reached(1),
            longest_tie: reached(2),
        };
        let [win, lose, tie, draw, unsolved] = self.by_value;
        Totals {
            play_classes: self.by_value.iter().sum(),
            win,
            lose,
            tie,
            draw,
            unsolved,
            unplayable_stored: self.unplayable_stored,
            primitive: self.primitive,
            moves: self.moves,
            longest_win: longest(0),
            longest_lose: longest(1),
            longest_tie: longest(2),
            reachable,
        }
    }
}

/// What only the HTML report shows: the positions of play broken down by
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
    /// Positions by tier number (ordered, so the report is the same every run).
    tiers: BTreeMap<u64, u64>,
}

impl Breakdown {
    fn note(&mut self, pos: Position, value: Option<Value>, remoteness: u16) {
        if let Some(i) = value.filter(|v| *v != Value::Draw).map(Value::index) {
            bump(&mut self.remoteness[i], usize::from(remoteness));
        }
        let board = pos.board();
        let placed = board.pieces_used().iter().map(|&p| usize::from(p)).sum::<usize>();
        if self.pieces.len() <= placed {
            self.pieces.resize(placed + 1, [0; 5]);
        }
        self.pieces[placed][value.map_or(4, Value::index)] += 1;
        *self.tiers.entry(Tier::of(board).number()).or_default() += 1;
    }

    fn merge(mut self, o: Breakdown) -> Breakdown {
        for (a, b) in self.remoteness.iter_mut().zip(o.remoteness) {
            add_into(a, &b);
        }
        if self.pieces.len() < o.pieces.len() {
            self.pieces.resize(o.pieces.len(), [0; 5]);
        }
        for (a, b) in self.pieces.iter_mut().zip(o.pieces) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        for (t, n) in o.tiers {
            *self.tiers.entry(t).or_default() += n;
        }
        self
    }
}

/// Adds one at `i`, growing `v` as needed.
fn bump(v: &mut Vec<u64>, i: usize) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += 1;
}

/// Adds `b` into `a` element by element, growing `a` as needed.
fn add_into(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Topitop's own figures of `stats`, after the common ones.
#[derive(Serialize)]
struct Extra {
    rules: String,
    budget: String,
    records_stored: u64,
    #[serde(flatten)]
    totals: Totals,
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
}

/// Runs `stats`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let db = args.db.open()?;
    let rules = db.rules();
    // Opened first so a path that cannot be written fails before the work.
    let report_out = args
        .report
        .as_deref()
        .map(|p| Output::open(Some(p), &[db.path()]))
        .transpose()?;
    let detail = report_out.is_some();
    let reached = topitop_solved::reach(rules, db.index());
    let (totals, breakdown) = fold_groups(
        &db,
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
    let reached_images = totals.reached_images;
    let totals = totals.totals();
    let slots = gamesman_classic_slots(rules.budget());
    let index_states = db.index().len();
    let start = rules.start();
    let longest = [&totals.longest_win, &totals.longest_lose, &totals.longest_tie];
    let report = StatsReport {
        start: StartResult::new(
            start.to_string(),
            [Player::Blue.name(), Player::Red.name()],
            usize::from(start.turn() == Player::Red),
            db.get(start)?,
        ),
        file: db.path().display().to_string(),
        game: rules.name().to_string(),
        variant: rules.variant(),
        file_bytes: db.file_len(),
        symmetric: true,
        win: totals.win,
        lose: totals.lose,
        tie: totals.tie,
        draw: totals.draw,
        largest_remoteness: longest.iter().map(|l| l.remoteness).max().unwrap_or(0),
        indices: index_states,
        positions: reached_images,
        classes: totals.reachable.positions,
        extra: Extra {
            rules: rules.ruleset().to_string(),
            budget: rules.budget().to_string(),
            records_stored: db.header().records,
            branching_factor: totals.moves as f64 / (totals.play_classes - totals.primitive).max(1) as f64,
            index_states,
            gamesman_classic_slots: slots,
            gamesman_classic_hash_efficiency: index_states as f64 / slots as f64,
            stored_fraction: totals.play_classes as f64 / index_states as f64,
            totals,
        },
    };
    if let Some(out) = report_out {
        match html_report(&report, &breakdown, rules.budget()).write_to(out)? {
            Some(path) => eprintln!("wrote {}", path.display()),
            // `--report -`: standard output holds the page, and only it.
            None => return Ok(()),
        }
    }
    report.print(args.json, &text_lines(&report.extra))
}

/// Topitop's own lines of `stats`, after the common ones.
fn text_lines(x: &Extra) -> Vec<String> {
    let t = &x.totals;
    let r = &t.reachable;
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
    for (name, l) in [
        ("win", &r.longest_win),
        ("lose", &r.longest_lose),
        ("tie", &r.longest_tie),
    ] {
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

/// The rows of the totals table: figure, number, note. The figures the text
/// output prints, in its order.
fn total_rows(r: &StatsReport) -> Vec<Vec<String>> {
    let x = &r.extra;
    let t = &x.totals;
    let row = |figure: &str, n: String, note: &str| vec![figure.to_string(), n, note.to_string()];
    let mut rows = vec![
        row("file size (bytes)", grouped(r.file_bytes), ""),
        row("records stored", grouped(x.records_stored), ""),
        row(
            "positions (classes)",
            grouped(t.play_classes),
            "positions of play, one per symmetry class",
        ),
        row("win", grouped(t.win), ""),
        row("lose", grouped(t.lose), ""),
        row("tie", grouped(t.tie), ""),
        row("draw", grouped(t.draw), ""),
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
    for (name, l) in [
        ("win", &reach.longest_win),
        ("lose", &reach.longest_lose),
        ("tie", &reach.longest_tie),
    ] {
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
        "index states",
        grouped(x.index_states),
        "states in our dense index",
    ));
    rows.push(row(
        "GamesmanClassic slots",
        grouped(x.gamesman_classic_slots),
        "slots of GamesmanClassic's hash for this budget",
    ));
    rows.push(row(
        "hash efficiency",
        format!("{:.1}%", 100.0 * x.gamesman_classic_hash_efficiency),
        "index states / GamesmanClassic slots",
    ));
    rows.push(row(
        "symmetry",
        format!("{:.1}%", 100.0 * x.stored_fraction),
        "of indexed states stored as classes",
    ));
    rows
}

/// The HTML report: the totals, then positions by value and remoteness, by
/// value and pieces placed, and by tier.
fn html_report(r: &StatsReport, b: &Breakdown, budget: Budget) -> report::Report {
    let name = std::path::Path::new(&r.file)
        .file_name()
        .map_or_else(|| r.file.clone(), |n| n.to_string_lossy().into_owned());
    let mut page = report::Report::new(&format!("Topitop database statistics: {name}"));
    page.paragraph(&format!("{}.", capitalised(&r.start.line())));
    page.paragraph(&format!(
        "Database {}: rules {}, budget {}. Every count below is of positions of play, one per \
         symmetry class; the {} stored states that play cannot reach are left out.",
        r.file, r.extra.rules, r.extra.budget, r.extra.totals.unplayable_stored
    ));
    page.heading("Summary");
    page.table("Totals", &["figure", "number", "note"], &total_rows(r));

    page.values_and_remoteness(&b.remoteness);

    page.heading("Values through the game");
    page.paragraph(
        "Pieces placed (buckets, small and large sand piles on the board) never decrease in play, \
         so they tell how far a game has gone.",
    );
    let mut row_labels: Vec<String> = ["win", "lose", "tie", "draw"].map(String::from).to_vec();
    let mut cells: Vec<Vec<u64>> = (0..4).map(|v| b.pieces.iter().map(|p| p[v]).collect()).collect();
    if r.extra.totals.unsolved > 0 {
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

    page.heading("Tiers");
    let points: Vec<(f64, f64)> = b
        .tiers
        .iter()
        .map(|(&t, &n)| {
            (
                Tier::from_number(t, budget).map_or(0, |t| t.size()) as f64,
                n as f64,
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

    // Last, so the charts come first on the screen.
    page.heading("The numbers behind the charts");
    let longest = b.remoteness.iter().map(Vec::len).max().unwrap_or(0);
    let rows: Vec<Vec<String>> = (0..longest)
        .map(|r| {
            let mut row = vec![r.to_string()];
            row.extend(
                b.remoteness
                    .iter()
                    .map(|h| grouped(h.get(r).copied().unwrap_or(0))),
            );
            row
        })
        .collect();
    page.table(
        "Positions by remoteness",
        &["remoteness", "win", "lose", "tie"],
        &rows,
    );
    page
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
