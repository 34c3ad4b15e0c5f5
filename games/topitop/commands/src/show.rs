//! `topitop show`: everything the rules engine knows about one position.

use std::io::Write;

use serde::Serialize;
use topitop_rules::{
    autogui_move, autogui_position, gchash, parse_position, play_unchecked, symmetry, Player, Position, Rules,
};

use topitop_cli::cmd::show::Args;

use crate::options::RulesOptions;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveReport {
    #[serde(rename = "move")]
    mv: String,
    code: u16,
    autogui_move: String,
    position: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    position: String,
    rules: String,
    turn: &'static str,
    board: Vec<String>,
    forbidden_slide: Option<String>,
    pieces_left: PiecesLeft,
    primitive: Option<&'static str>,
    tier: u64,
    tier_position: u64,
    canonical: String,
    autogui_position: String,
    moves: Vec<MoveReport>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PiecesLeft {
    blue_buckets: u8,
    red_buckets: u8,
    smalls: u8,
    larges: u8,
}

fn report(rules: Rules, pos: Position) -> Report {
    let (tier, tier_position) = gchash::hash(pos);
    let left = pos.pieces_left(rules.budget());
    let board = pos.board().to_string();
    Report {
        position: pos.to_string(),
        rules: rules.ruleset().to_string(),
        turn: pos.turn().name(),
        board: board
            .as_bytes()
            .chunks(3)
            .map(|r| String::from_utf8_lossy(r).into_owned())
            .collect(),
        forbidden_slide: pos.forbidden().map(|s| s.to_string()),
        pieces_left: PiecesLeft {
            blue_buckets: left[0],
            red_buckets: left[1],
            smalls: left[2],
            larges: left[3],
        },
        primitive: rules.primitive(pos).map(|v| v.name()),
        tier: tier.number(),
        tier_position,
        canonical: symmetry::canonical(pos).to_string(),
        autogui_position: autogui_position(pos),
        moves: rules
            .legal_moves(pos)
            .iter()
            .map(|&m| MoveReport {
                mv: m.to_string(),
                code: m.code(),
                autogui_move: autogui_move(m),
                position: play_unchecked(pos, m).to_string(),
            })
            .collect(),
    }
}

/// Runs `show`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let pos = parse_position(&args.position, rules.budget())?;
    let r = report(rules, pos);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&r)?)?;
        return Ok(());
    }
    writeln!(out, "Position   {}   (rules {})", r.position, r.rules)?;
    writeln!(out)?;
    for (row, cells) in r.board.iter().enumerate() {
        let numbers: String = (1..=3).map(|c| format!("{} ", row * 3 + c)).collect();
        let spaced: String = cells.chars().map(|c| format!("{c} ")).collect();
        writeln!(out, "    {numbers}   {spaced}")?;
    }
    writeln!(out, "    ({})", topitop_rules::explain::LEGEND)?;
    writeln!(out)?;
    let digit = if pos.turn() == Player::Blue { 1 } else { 2 };
    writeln!(out, "Turn       {} ({digit})", r.turn)?;
    writeln!(
        out,
        "Forbidden  {}",
        r.forbidden_slide.as_deref().unwrap_or("none")
    )?;
    let l = &r.pieces_left;
    writeln!(
        out,
        "To place   blue buckets {}, red buckets {}, smalls {}, larges {}",
        l.blue_buckets, l.red_buckets, l.smalls, l.larges
    )?;
    writeln!(out, "Primitive  {}", r.primitive.unwrap_or("no (game goes on)"))?;
    writeln!(
        out,
        "GC hash    tier {} ({:#x}), tier position {}",
        r.tier, r.tier, r.tier_position
    )?;
    writeln!(out, "Canonical  {}", r.canonical)?;
    writeln!(out, "AutoGUI    {}", r.autogui_position)?;
    writeln!(out)?;
    writeln!(out, "Moves ({}):", r.moves.len())?;
    for m in &r.moves {
        writeln!(
            out,
            "  {:<5} code {:>4}  {:<10} -> {}",
            m.mv, m.code, m.autogui_move, m.position
        )?;
    }
    Ok(())
}
