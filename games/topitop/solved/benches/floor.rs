//! The floor of a solve: the work no solve can skip, and nothing else.
//!
//! For every stored record of the standard game (one group per canonical
//! board), generate the moves of each position, apply them, canonicalise
//! each child and look up its record number, with no solving: no record is
//! read or written. Measured twice:
//!
//! * **per record**: every stored position on its own, as a solver that
//!   treats positions one by one must (the floor as the issue defines it);
//! * **per half**: once per board and side to move, which is all the
//!   solver's first pass does, since the positions of a half share their
//!   moves but the forbidden slide (see `games_topitop_rules::group`).
//!
//! Each on one and on two threads; prints wall time, CPU time and records
//! per second. `cargo bench -p games-topitop-solved --bench floor [-- B/R/S/L]`.

use std::time::{Duration, Instant};

use games_topitop_rules::group::{half_slides, plausible_slides};
use games_topitop_rules::{play_unchecked, Budget, MoveList, Player, Position, Rules, Slide};
use games_topitop_table::GroupIndex;
use rayon::prelude::*;
use topitop_solver::usage::cpu_time;

/// Groups per unit of parallel work.
const CHUNK: u32 = 1024;

/// What one pass over every group found: positions whose moves were
/// generated, children looked up, and the sum of their record numbers.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Tally {
    explored: u64,
    children: u64,
    checksum: u64,
}

impl Tally {
    fn add(self, o: Tally) -> Tally {
        Tally {
            explored: self.explored + o.explored,
            children: self.children + o.children,
            checksum: self.checksum.wrapping_add(o.checksum),
        }
    }
}

fn floor(index: &GroupIndex, rules: Rules, per_record: bool) -> Tally {
    let groups = index.groups() as u32;
    (0..groups.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut moves = MoveList::new();
            let mut t = Tally::default();
            for g in c * CHUNK..((c + 1) * CHUNK).min(groups) {
                let board = index.board_of_group(g);
                let mask = plausible_slides(board);
                for turn in [Player::Blue, Player::Red] {
                    // A decided board has no moves to generate.
                    if rules.board_primitive(board, turn).is_some() {
                        continue;
                    }
                    let slides = half_slides(mask).take(if per_record { usize::MAX } else { 1 });
                    for d in slides {
                        let pos = Position::new(board, turn, Slide::from_id(d));
                        rules.generate_piece_moves(pos, &mut moves);
                        t.explored += 1;
                        // As the solver does: a child's cell counts from
                        // its parent's and the cells its move changed.
                        let packed = board.packed_counts();
                        for &m in moves.iter() {
                            let child = play_unchecked(pos, m);
                            let (j, _) = index
                                .index_and_half_len_counted(
                                    child,
                                    board.packed_counts_of(packed, child.board()),
                                )
                                .expect("children are indexable");
                            t.children += 1;
                            t.checksum = t.checksum.wrapping_add(j);
                        }
                    }
                }
            }
            t
        })
        .reduce(Tally::default, Tally::add)
}

fn main() {
    let budget: Budget = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map_or(Budget::STANDARD, |b| b.parse().expect("a budget B/R/S/L"));
    let rules = Rules::with_budget(Rules::default().ruleset(), budget);
    let start = Instant::now();
    let index = GroupIndex::new(budget, true);
    println!(
        "floor: budget {budget}, {} records in {} groups (index built in {:.2} s)",
        index.len(),
        index.groups(),
        start.elapsed().as_secs_f64()
    );
    for (label, per_record) in [("per record", true), ("per half", false)] {
        let mut first = None;
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            let cpu = cpu_time();
            let start = Instant::now();
            let tally = pool.install(|| floor(&index, rules, per_record));
            let wall = start.elapsed().as_secs_f64();
            let cpu = cpu.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));
            assert_eq!(*first.get_or_insert(tally), tally, "threads changed the children");
            println!(
                "floor {label}, {threads} thread{}: {} positions explored, {} children looked up; \
                 {wall:.2} s wall, {} CPU; {:.1} M records/s, {:.1} M children/s",
                if threads == 1 { "" } else { "s" },
                tally.explored,
                tally.children,
                cpu.map_or("unknown".to_string(), |c: Duration| format!(
                    "{:.2} s",
                    c.as_secs_f64()
                )),
                index.len() as f64 / wall / 1e6,
                tally.children as f64 / wall / 1e6,
            );
        }
    }
}
