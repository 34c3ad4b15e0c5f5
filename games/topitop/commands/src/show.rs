//! `topitop show`: the shared command, with what only Topitop's rules
//! know of a position (the forbidden slide, the pieces left, its place in
//! GamesmanClassic's hash) and of a move (its GamesmanClassic code).

use games_topitop_rules::{gchash, Move, Position, Rules};
use serde_json::json;
use topitop_cli::cmd::show::{Detail, Details};

/// What only Topitop's rules know of a position and a move.
pub struct Topitop;

impl Details<Rules> for Topitop {
    fn position(&self, rules: &Rules, pos: &Position) -> Vec<Detail> {
        let (tier, tier_position) = gchash::hash(*pos);
        let [blue, red, small, large] = pos.pieces_left(rules.budget());
        let forbidden = pos.forbidden().map(|s| s.to_string());
        vec![
            Detail {
                key: None,
                label: "Letters",
                text: games_topitop_rules::explain::LEGEND.to_string(),
                json: json!(null),
            },
            Detail {
                key: Some("forbidden_slide"),
                label: "Forbidden",
                text: forbidden.clone().unwrap_or_else(|| "none".into()),
                json: json!(forbidden),
            },
            Detail {
                key: Some("pieces_left"),
                // The board's drawing says what is left to place.
                label: "",
                text: String::new(),
                json: json!({"blue_buckets": blue, "red_buckets": red, "smalls": small, "larges": large}),
            },
            Detail {
                key: Some("tier"),
                label: "GC tier",
                text: format!("{} ({:#x})", tier.number(), tier.number()),
                json: json!(tier.number()),
            },
            Detail {
                key: Some("tier_position"),
                label: "GC index",
                text: tier_position.to_string(),
                json: json!(tier_position),
            },
        ]
    }

    fn of_move(&self, _: &Rules, _: &Position, mv: Move) -> Vec<Detail> {
        vec![Detail {
            key: Some("code"),
            label: "code",
            text: format!("{:>4}", mv.code()),
            json: json!(mv.code()),
        }]
    }
}
