//! Prints the tiers and total indices of small Topple variants, and perft
//! from the start: `cargo run --release -p games-topple --example
//! tier_sizes [variant …]`.

use games_topple::{perft, Topple};
use topitop_game_api::{Game, Registered, Tiered};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variants: Vec<String> = if args.is_empty() {
        let mut v: Vec<String> = (6..=12).map(|s| format!("3x3-s{s}")).collect();
        v.extend(["3x4-s6", "3x4-s8", "3x4-s10", "4x4-s6", "4x4-s8"].map(String::from));
        v
    } else {
        args
    };
    for v in variants {
        let g = match Topple::from_variant(&v) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let tiers = g.tiers();
        let total: u64 = tiers.iter().map(|&t| g.tier_size(t)).sum();
        let largest = tiers.iter().map(|&t| g.tier_size(t)).max().unwrap_or(0);
        let start = Game::start(&g);
        let counts: Vec<u64> = (1..=4).map(|d| perft(&g, &start, d)).collect();
        println!(
            "{v}: {} tiers, {total} indices ({} MiB at 2 bytes), largest tier {largest}; perft 1-4 {counts:?}",
            tiers.len(),
            (total * 2) >> 20
        );
    }
}
