//! Perft: counts reasoned out by hand from the start, and the positions of
//! `tests/data/perft.txt` (mid-game, forbidden slides, stuck and primitive
//! positions, every ruleset, small budgets) checked depth by depth.

use games_topitop_rules::perft::{perft, PerftLevel};
use games_topitop_rules::{parse_position, Budget, MoveList, Position, Rules, Ruleset, Variant};

/// The perft positions; the file's header documents the format and how the
/// counts were checked.
const DATA: &str = include_str!("../data/perft.txt");

/// The data file may grow but not shrink below this many entries.
const MIN_ENTRIES: usize = 60;

/// Nor below this many entries for any one ruleset (v0 and each v1 option).
const MIN_ENTRIES_PER_RULESET: usize = 5;

fn counts(rules: Rules, root: Position, depth: u32) -> Vec<(u64, u64)> {
    perft(rules, root, depth)
        .iter()
        .map(|l: &PerftLevel| (l.paths, l.positions))
        .collect()
}

/// Depth 1: 9 cells × 3 pieces (B, S, L) = 27.
/// Depth 2: after each of the 27, Red has 8 empty cells × 3 pieces = 24
/// placements, plus, when Blue placed S or L, a slide of it to each of its
/// neighbours; the neighbour counts of the 9 cells add up to 40, so
/// 27·24 + 2·40 = 728 paths. Distinct positions: two-piece boards with one
/// Blue-placed and one Red-placed piece: 6 type pairs with different kinds
/// ({B,R} {B,S} {B,L} {S,R} {S,L} {L,R}) × 9·8 cells = 432, plus {S,S} and
/// {L,L} at C(9,2) = 36 each, makes 504; plus one S or L slid along one of
/// the 40 ordered slides, with its reverse forbidden: 80. 504 + 80 = 584.
#[test]
fn depths_one_and_two_by_hand() {
    let rules = Rules::default();
    assert_eq!(counts(rules, rules.start(), 2), [(27, 27), (728, 584)]);
}

#[test]
fn depths_three_and_four() {
    let want = [(27, 27), (728, 584), (20_168, 7_150), (537_608, 62_342)];
    let rules = Rules::default();
    assert_eq!(counts(rules, rules.start(), 4), want);
    // No primitive and no stuck position occurs this early, so these agree.
    for rules in [
        Rules::new(Ruleset::V0),
        Rules::new(Ruleset::V1(Variant::new(1).unwrap())),
        Rules::new(Ruleset::V1(Variant::new(4).unwrap())),
    ] {
        assert_eq!(counts(rules, rules.start(), 4), want, "{}", rules.ruleset());
    }
}

/// One entry of the data file.
#[derive(Debug)]
struct Entry {
    /// Line number in the file, from 1.
    line: usize,
    rules: Rules,
    root: Position,
    /// (paths, positions) at depths 1, 2, ...
    want: Vec<(u64, u64)>,
}

impl Entry {
    /// Where the entry is and what it says, for failure messages.
    fn describe(&self) -> String {
        format!(
            "line {}: rules {}, budget {}, position {}",
            self.line,
            self.rules.ruleset(),
            self.rules.budget(),
            self.root
        )
    }

    /// The side to move has no move but the pass, and the game is not over
    /// by two crowned castles.
    fn root_is_stuck(&self) -> bool {
        let mut list = MoveList::new();
        self.rules.generate_piece_moves(self.root, &mut list);
        list.is_empty()
            && self
                .rules
                .board_primitive(self.root.board(), self.root.turn())
                .is_none()
    }
}

/// Parses the data file.
///
/// # Errors
/// The first malformed line, as `line N: what is wrong: "the line"`.
fn parse_file(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let data = raw.split('#').next().unwrap_or_default().trim();
        if data.is_empty() {
            continue;
        }
        entries.push(parse_entry(line, data).map_err(|e| format!("line {line}: {e}: {raw:?}"))?);
    }
    Ok(entries)
}

/// Parses `RULES [BUDGET] POSITION : PATHS/POSITIONS ...` (comment removed).
fn parse_entry(line: usize, data: &str) -> Result<Entry, String> {
    let (head, tail) = data
        .split_once(':')
        .ok_or("no `:` between the position and the counts")?;
    let fields: Vec<&str> = head.split_whitespace().collect();
    let (rules, budget, position) = match fields[..] {
        [rules, position] => (rules, Budget::STANDARD, position),
        [rules, budget, position] => {
            let budget = budget.parse().map_err(|e| format!("budget {budget:?}: {e}"))?;
            (rules, budget, position)
        }
        _ => {
            return Err(format!(
                "expected `RULES [BUDGET] POSITION` before `:`, found {} fields",
                fields.len()
            ))
        }
    };
    let ruleset: Ruleset = rules.parse().map_err(|e| format!("rules {rules:?}: {e}"))?;
    let root = parse_position(position, budget).map_err(|e| e.to_string())?;
    let want = tail
        .split_whitespace()
        .map(parse_count)
        .collect::<Result<Vec<_>, _>>()?;
    if want.is_empty() {
        return Err("no counts after `:`".to_string());
    }
    Ok(Entry {
        line,
        rules: Rules::with_budget(ruleset, budget),
        root,
        want,
    })
}

/// Parses `PATHS/POSITIONS`.
fn parse_count(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("count {s:?} is not PATHS/POSITIONS");
    let (paths, positions) = s.split_once('/').ok_or_else(bad)?;
    let paths: u64 = paths.parse().map_err(|_| bad())?;
    let positions: u64 = positions.parse().map_err(|_| bad())?;
    if positions > paths {
        return Err(format!("count {s:?} has more positions than paths"));
    }
    Ok((paths, positions))
}

fn data_entries() -> Vec<Entry> {
    parse_file(DATA).unwrap_or_else(|e| panic!("tests/data/perft.txt, {e}"))
}

/// The first depth at which the engine disagrees with `entry`, described.
fn mismatch(entry: &Entry) -> Option<String> {
    let got = counts(entry.rules, entry.root, entry.want.len() as u32);
    let i = (0..entry.want.len()).find(|&i| got.get(i) != Some(&entry.want[i]))?;
    let (want, got) = (entry.want[i], got.get(i).copied().unwrap_or_default());
    Some(format!(
        "{}, depth {}: expected {} paths / {} positions, got {} / {}",
        entry.describe(),
        i + 1,
        want.0,
        want.1,
        got.0,
        got.1
    ))
}

#[test]
fn data_file_counts() {
    let entries = data_entries();
    let failures: Vec<String> = entries.iter().filter_map(mismatch).collect();
    assert!(
        failures.is_empty(),
        "{} of {} entries of tests/data/perft.txt differ:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}

/// Whether an entry's root is of some kind.
type RootTest = fn(&Entry) -> bool;

#[test]
fn data_file_covers_every_ruleset_and_kind_of_root() {
    let entries = data_entries();
    assert!(
        entries.len() >= MIN_ENTRIES,
        "tests/data/perft.txt has {} entries, fewer than {MIN_ENTRIES}",
        entries.len()
    );
    for ruleset in std::iter::once(Ruleset::V0).chain(Variant::all().map(Ruleset::V1)) {
        let n = entries.iter().filter(|e| e.rules.ruleset() == ruleset).count();
        assert!(
            n >= MIN_ENTRIES_PER_RULESET,
            "tests/data/perft.txt has {n} entries for {ruleset}, fewer than {MIN_ENTRIES_PER_RULESET}"
        );
    }
    let kinds: [(&str, RootTest); 6] = [
        ("a forbidden slide", |e| e.root.forbidden().is_some()),
        ("two crowned castles", |e| {
            e.rules.board_primitive(e.root.board(), e.root.turn()).is_some()
        }),
        ("a side that must pass", |e| {
            e.root_is_stuck() && e.rules.stuck_value().is_none()
        }),
        ("a side without a move that ends the game", |e| {
            e.root_is_stuck() && e.rules.stuck_value().is_some()
        }),
        ("a side stuck by the forbidden slide", |e| {
            e.root_is_stuck() && e.root.forbidden().is_some()
        }),
        ("a budget other than 2/2/4/4", |e| !e.rules.budget().is_standard()),
    ];
    for (kind, is_kind) in kinds {
        assert!(
            entries.iter().any(is_kind),
            "tests/data/perft.txt has no root with {kind}"
        );
    }
}

#[test]
fn malformed_lines_fail_with_their_line_number() {
    let good = "v1/0 1_--------- : 27/27 728/584  # the start\n";
    assert_eq!(parse_file(good).map(|e| e.len()), Ok(1));
    for bad in [
        "v1/0 1_--------- 27/27",
        "v1/8 1_--------- : 27/27",
        "v2 1_--------- : 27/27",
        "v1/0 1/1/1 1_--------- : 27/27",
        "v1/0 1/1/1/1 1_BB------- : 27/27",
        "v1/0 1_-------- : 27/27",
        "v1/0 extra 1/1/1/1 1_--------- : 27/27",
        "v1/0 1_--------- : 27",
        "v1/0 1_--------- : 27/x",
        "v1/0 1_--------- : 27/28",
        "v1/0 1_--------- :",
    ] {
        let text = format!("# header\n{good}\n{bad}  # a comment\nv0 1_--------- : 27/27\n");
        let err = parse_file(&text).expect_err(bad);
        assert!(err.starts_with("line 4: ") && err.contains(bad), "{bad}: {err}");
    }
}
