//! `topitop perft --game NAME DEPTH`: move sequences and distinct
//! positions at each depth from the start.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use topitop_game_api::Game;

use crate::common::available_memory;
use crate::options::GameArgs;

/// Bytes one distinct position costs in the next depth's map, hash table
/// slack included.
fn entry_bytes<G: Game>() -> u64 {
    (2 * std::mem::size_of::<(G::Position, u128)>() + 8) as u64
}

/// The memory positions may take: half of what the machine has free, so
/// that a deep perft counts sequences alone rather than push the machine
/// into swapping or the out-of-memory killer.
fn memory_budget() -> u64 {
    available_memory().map_or(2 << 30, |a| a / 2)
}

/// One depth's counts; `positions` is `None` once they are no longer
/// counted.
struct Row {
    depth: u32,
    sequences: u128,
    positions: Option<u64>,
}

/// Runs `perft` on `game`: depth by depth, each row printed as soon as it
/// is known. Sequences are counted in 128 bits (a count beyond that is
/// refused); distinct positions while the next depth's positions fit in
/// half the free memory, after which sequences alone are counted, depth
/// first, in constant memory.
///
/// # Errors
/// A count beyond 128 bits, or a closed standard output.
pub fn run<G: Game>(game: G, args: Args) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if !args.json {
        writeln!(out, "# {} {}", game.name(), game.variant())?;
        writeln!(out, "depth\tsequences\tpositions")?;
    }
    let mut rows = Vec::new();
    let mut emit = |out: &mut std::io::StdoutLock<'_>, row: Row| -> std::io::Result<()> {
        if !args.json {
            let p = row.positions.map_or("-".to_string(), |p| p.to_string());
            writeln!(out, "{}\t{}\t{p}", row.depth, row.sequences)?;
            out.flush()?;
        }
        rows.push(row);
        Ok(())
    };
    emit(
        &mut out,
        Row {
            depth: 0,
            sequences: 1,
            positions: Some(1),
        },
    )?;
    // The positions of the deepest depth counted with the number of
    // sequences reaching each.
    let mut level: HashMap<G::Position, u128> = HashMap::from([(game.start(), 1)]);
    let mut depth = 0;
    let budget = memory_budget();
    let mut dropped = None;
    while depth < args.depth {
        let edges: u64 = level.keys().map(|p| game.moves(p).len() as u64).sum();
        let need = edges.saturating_mul(entry_bytes::<G>());
        if need > budget {
            dropped = Some((depth + 1, need));
            break;
        }
        let next = widen(&game, &level, edges, depth + 1)?;
        if next.is_empty() {
            if !args.json {
                writeln!(
                    out,
                    "# every game has ended by depth {depth}: nothing deeper to count"
                )?;
            }
            break;
        }
        depth += 1;
        let sequences = next
            .values()
            .try_fold(0u128, |a, &n| a.checked_add(n))
            .ok_or_else(|| too_many(depth))?;
        emit(
            &mut out,
            Row {
                depth,
                sequences,
                positions: Some(next.len() as u64),
            },
        )?;
        level = next;
    }
    if let Some((from, need)) = dropped {
        if !args.json {
            writeln!(
                out,
                "# from depth {from} on, distinct positions are not counted: they would take about {:.1} GB, more than half the memory free; sequences are counted depth first",
                need as f64 / 1e9
            )?;
            out.flush()?;
        }
        for row in depth_first(&game, &level, depth, args.depth)? {
            emit(&mut out, row)?;
        }
    }
    if args.json {
        return write_json(&mut out, &game, &rows);
    }
    if dropped.is_none() && game.has_symmetries() {
        let classes: HashSet<G::Position> = level.keys().map(|p| game.canonical(p)).collect();
        writeln!(
            out,
            "# the last depth's positions fall in {} symmetry classes",
            classes.len()
        )?;
    }
    Ok(())
}

/// The positions one ply below `level` (which has `edges` moves), each
/// with the sequences reaching it; `depth` is theirs, for the error.
fn widen<G: Game>(
    game: &G,
    level: &HashMap<G::Position, u128>,
    edges: u64,
    depth: u32,
) -> anyhow::Result<HashMap<G::Position, u128>> {
    let mut next: HashMap<G::Position, u128> = HashMap::with_capacity(edges as usize);
    for (pos, &n) in level {
        for mv in game.moves(pos) {
            let slot = next.entry(game.play(pos, mv)).or_default();
            *slot = slot.checked_add(n).ok_or_else(|| too_many(depth))?;
        }
    }
    Ok(next)
}

/// The sequences of each depth after `depth` up to `last`, counted depth
/// first from every position of `level` (the deepest depth whose
/// positions were kept), weighted by the sequences reaching it; the rows
/// end where the game does.
fn depth_first<G: Game>(
    game: &G,
    level: &HashMap<G::Position, u128>,
    depth: u32,
    last: u32,
) -> anyhow::Result<Vec<Row>> {
    let mut counts = vec![0u128; (last - depth) as usize];
    for (pos, &n) in level {
        count_sequences(game, pos, n, &mut counts).ok_or_else(|| too_many(depth + 1))?;
    }
    Ok(counts
        .iter()
        .take_while(|&&s| s > 0)
        .enumerate()
        .map(|(k, &sequences)| Row {
            depth: depth + 1 + k as u32,
            sequences,
            positions: None,
        })
        .collect())
}

/// The rows as one JSON object, written by hand: a count beyond 64 bits
/// is still a JSON number.
fn write_json<G: Game>(out: &mut impl Write, game: &G, rows: &[Row]) -> anyhow::Result<()> {
    let depths: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{{\"depth\":{},\"sequences\":{},\"positions\":{}}}",
                r.depth,
                r.sequences,
                r.positions.map_or("null".to_string(), |p| p.to_string())
            )
        })
        .collect();
    writeln!(
        out,
        "{{\"game\":{},\"variant\":{},\"depth\":[{}]}}",
        serde_json::to_string(game.name())?,
        serde_json::to_string(&game.variant())?,
        depths.join(",")
    )?;
    Ok(())
}

/// Adds `weight` times the move sequences of each length `k + 1` from
/// `pos` to `counts[k]`; `None` when a count passes 128 bits.
fn count_sequences<G: Game>(game: &G, pos: &G::Position, weight: u128, counts: &mut [u128]) -> Option<()> {
    let Some((first, deeper)) = counts.split_first_mut() else {
        return Some(());
    };
    let moves = game.moves(pos);
    *first = first.checked_add(weight.checked_mul(moves.len() as u128)?)?;
    if !deeper.is_empty() {
        for mv in moves {
            count_sequences(game, &game.play(pos, mv), weight, deeper)?;
        }
    }
    Some(())
}

/// The error of a count that outgrows 128 bits.
fn too_many(depth: u32) -> anyhow::Error {
    anyhow::anyhow!("the move sequences of depth {depth} number more than 2^128, more than perft counts; ask for a smaller depth")
}

/// Arguments of `perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Deepest ply to count.
    #[arg(value_name = "DEPTH")]
    pub depth: u32,
    /// The game and its options.
    #[command(flatten)]
    pub rules: GameArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}
