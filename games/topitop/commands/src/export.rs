//! `topitop export`: the shared remoteness tables ([`topitop_cli::cmd::export`])
//! with Topitop's columns and options (`Columns`), or GamesmanClassic's
//! tier files (`--format gamesman-classic`, in `gamesman_classic`).

mod gamesman_classic;

use anyhow::Context;
use games_topitop_rules::{Budget, Player, Position, Rules, Tier, Value};
use topitop_cli::cmd::export::{Args, Extras, Format};
use topitop_db::Facts;

use crate::options::DbOptions;

/// What Topitop adds to every positions table, after `remoteness`: the
/// player to move (1 Blue, 2 Red), then the tier decoded: the pieces on
/// the board and those left to place, by kind.
pub const COLUMNS: [&str; 9] = [
    "turn",
    "board_blue_buckets",
    "board_red_buckets",
    "board_smalls",
    "board_larges",
    "left_blue_buckets",
    "left_red_buckets",
    "left_smalls",
    "left_larges",
];

/// What a Parquet positions file's `value` means.
pub const VALUE_VIEW: &str = "the value of the position for the player to move in it (turn)";

/// Topitop's additions to the shared export: [`COLUMNS`], tiers written
/// as their numbers, `--tier`, and metadata naming the rules and budget.
struct Columns {
    rules: Rules,
    /// `--tier`: the only tier written.
    tier: Option<u64>,
}

impl Extras<Rules> for Columns {
    fn columns(&self) -> &[&'static str] {
        &COLUMNS
    }
    fn cells(&self, pos: &Position, out: &mut Vec<u8>) {
        out.extend(piece_counts(*pos, self.rules.budget()));
    }
    fn numeric_tiers(&self) -> bool {
        true
    }
    fn keeps_tier(&self, name: &str) -> bool {
        self.tier.is_none_or(|t| name == t.to_string())
    }
    /// `topitop.version`, `topitop.rules` (`v0`, or `v1/` and the
    /// GamesmanClassic option), `topitop.budget`, `topitop.solver` (the
    /// program that solved the database), `topitop.table`, `topitop.tier`
    /// (`all` or the tier kept), `topitop.values` (`all` or the values
    /// kept, in the order win, lose, tie, draw) and `topitop.value_view`
    /// ([`VALUE_VIEW`]).
    fn metadata(&self, facts: &Facts, table: &str, values: &[Value]) -> Vec<(String, String)> {
        let mut kept = values.to_vec();
        kept.sort();
        kept.dedup();
        let values = if kept.is_empty() {
            "all".to_string()
        } else {
            kept.iter().map(|v| v.name()).collect::<Vec<_>>().join(",")
        };
        [
            ("topitop.version", env!("CARGO_PKG_VERSION").to_string()),
            ("topitop.rules", self.rules.ruleset().to_string()),
            ("topitop.budget", self.rules.budget().to_string()),
            ("topitop.solver", facts.program.clone()),
            ("topitop.table", table.to_string()),
            (
                "topitop.tier",
                self.tier.map_or_else(|| "all".to_string(), |t| t.to_string()),
            ),
            ("topitop.values", values),
            ("topitop.value_view", VALUE_VIEW.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }
}

/// The cells of [`COLUMNS`] for `pos`.
pub fn piece_counts(pos: Position, budget: Budget) -> [u8; 9] {
    let on = pos.board().pieces_used();
    let left = pos.pieces_left(budget);
    let turn = match pos.turn() {
        Player::Blue => 1,
        Player::Red => 2,
    };
    [
        turn, on[0], on[1], on[2], on[3], left[0], left[1], left[2], left[3],
    ]
}

/// Runs `export`: one row per symmetry class (the canonical position), or
/// with `--all-symmetries` one per position.
pub fn run(args: Args) -> anyhow::Result<()> {
    args.check_extras()?;
    if args.format == Format::GamesmanClassic {
        return gamesman_classic::run(&args);
    }
    anyhow::ensure!(
        !crate::options::exact(&args.db.rules),
        "--exact applies only to --format gamesman-classic"
    );
    let tier = crate::options::tier(&args.db.rules)?;
    let db = args.db.open()?;
    let rules = db.rules();
    if let Some(t) = tier {
        db.index()
            .tier_range(Tier::from_number(t, rules.budget())?)
            .with_context(|| format!("tier {t} is not in this database"))?;
    }
    topitop_cli::cmd::export::run(&rules, &db, &Columns { rules, tier }, args)
}
