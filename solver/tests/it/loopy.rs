//! The generic tier solver on loopy tiers against the naive fixed-point
//! solver, position by position, on a small game made to have wins, losses,
//! ties and draws, cycles inside tiers and moves between them.

use topitop_game_api::{Game, GameError, TierType, Tiered, Value};
use topitop_solver::loop_free::solve_loop_free;
use topitop_solver::naive::solve_naive;

/// Two tokens on a ring of `ring` cells and a pile of coins. A move steps
/// the mover's token one cell either way (the tier stays, and play may
/// cycle) or takes one or two coins (a lower
/// tier). The game ends when the pile is empty, when the mover's token
/// stands on cell 0 with an odd pile (a loss), or when the other player
/// steps onto the mover's token with an even pile (a loss); the empty pile's value depends on
/// the tokens (`ends`).
#[derive(Clone)]
struct Chase {
    ring: u8,
    coins: u8,
    ends: [Value; 3],
}

/// Coins, player 0's cell, player 1's cell, the player to move.
type Pos = (u8, u8, u8, u8);

impl Game for Chase {
    type Position = Pos;
    type Move = (bool, i8);

    fn name(&self) -> &'static str {
        "chase"
    }
    fn variant(&self) -> String {
        format!("{}-{}", self.ring, self.coins)
    }
    fn start(&self) -> Pos {
        (self.coins, 0, self.ring / 2, 0)
    }
    fn moves(&self, p: &Pos) -> Vec<(bool, i8)> {
        if self.primitive(p).is_some() {
            return Vec::new();
        }
        let c = p.0;
        let mut m = Vec::new();
        for d in [-1i8, 1] {
            m.push((false, d));
        }
        for k in 1..=2 {
            if c >= k as u8 {
                m.push((true, k));
            }
        }
        m
    }
    fn play(&self, p: &Pos, (take, n): (bool, i8)) -> Pos {
        let (c, a, b, t) = *p;
        if take {
            return (c - n as u8, a, b, 1 - t);
        }
        if t == 0 {
            (c, self.step(a, n), b, 1)
        } else {
            (c, a, self.step(b, n), 0)
        }
    }
    fn primitive(&self, p: &Pos) -> Option<Value> {
        let (c, a, b, t) = *p;
        let me = if t == 0 { a } else { b };
        if a == b && c % 2 == 0 && c > 0 {
            // The other player just stepped onto the mover's token.
            Some(Value::Lose)
        } else if c == 0 {
            Some(self.ends[(usize::from(a) + 2 * usize::from(b) + usize::from(t)) % 3])
        } else if me == 0 && c % 2 == 1 {
            Some(Value::Lose)
        } else {
            None
        }
    }
    fn check(&self, p: &Pos) -> Result<(), GameError> {
        let (c, a, b, t) = *p;
        (c <= self.coins && a < self.ring && b < self.ring && t < 2)
            .then_some(())
            .ok_or_else(|| GameError::rules(format!("{p:?}")))
    }
    fn parse_position(&self, _: &str) -> Result<Pos, GameError> {
        Err(GameError::notation("not needed"))
    }
    fn format_position(&self, p: &Pos) -> String {
        format!("{p:?}")
    }
    fn parse_move(&self, _: &Pos, _: &str) -> Result<(bool, i8), GameError> {
        Err(GameError::notation("not needed"))
    }
    fn format_move(&self, m: (bool, i8)) -> String {
        format!("{m:?}")
    }
    fn player_to_move(&self, p: &Pos) -> Option<usize> {
        Some(usize::from(p.3))
    }
}

impl Chase {
    fn step(&self, cell: u8, d: i8) -> u8 {
        ((i16::from(cell) + i16::from(d)).rem_euclid(i16::from(self.ring))) as u8
    }
}

impl Tiered for Chase {
    type Tier = u8;
    fn tiers(&self) -> Vec<u8> {
        (0..=self.coins).collect()
    }
    fn tier_of(&self, p: &Pos) -> u8 {
        p.0
    }
    fn tier_size(&self, _: u8) -> u64 {
        u64::from(self.ring).pow(2) * 2
    }
    fn index(&self, p: &Pos) -> u64 {
        (u64::from(p.1) * u64::from(self.ring) + u64::from(p.2)) * 2 + u64::from(p.3)
    }
    fn position(&self, tier: u8, i: u64) -> Option<Pos> {
        let r = u64::from(self.ring);
        let p = (tier, (i / 2 / r) as u8, (i / 2 % r) as u8, (i % 2) as u8);
        self.check(&p).ok().map(|()| p)
    }
    fn child_tiers(&self, tier: u8) -> Vec<u8> {
        (1..=2).filter(|&k| tier >= k).map(|k| tier - k).collect()
    }
    fn tier_name(&self, tier: u8) -> String {
        format!("c{tier}")
    }
    fn tier_type(&self, _: u8) -> TierType {
        TierType::Loopy
    }
}

#[test]
fn loopy_tiers_agree_with_the_naive_fixed_point_position_by_position() {
    use Value::{Lose, Tie, Win};
    let mut seen = [0usize; 4];
    // Ring 95: tiers of 18,050 indices, more than one thread's share.
    for ring in [3, 4, 5, 6, 7, 95] {
        for coins in 0..=if ring > 7 { 2 } else { 6 } {
            for ends in [
                [Win, Lose, Tie],
                [Tie, Tie, Lose],
                [Lose, Lose, Lose],
                [Win, Win, Win],
                [Tie, Win, Win],
                [Win, Tie, Tie],
            ] {
                let g = Chase { ring, coins, ends };
                let naive = solve_naive(&g);
                let solved = solve_loop_free(&g, false, |_, _| {}).unwrap();
                for (pos, want) in &naive {
                    let got = solved.get(&g, pos);
                    assert_eq!(got, *want, "{pos:?} on {}", g.variant());
                    seen[want.value().unwrap().index()] += 1;
                }
                let positions: u64 = g
                    .tiers()
                    .iter()
                    .map(|&t| {
                        (0..g.tier_size(t))
                            .filter(|&i| g.position(t, i).is_some())
                            .count() as u64
                    })
                    .sum();
                assert_eq!(naive.len() as u64, positions);
            }
        }
    }
    // Every kind of value came up, so each part of the solver was checked.
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    let long = (3..=7)
        .flat_map(|ring| {
            let g = Chase {
                ring,
                coins: 6,
                ends: [Win, Lose, Tie],
            };
            let naive = solve_naive(&g);
            naive.into_values().map(|r| r.remoteness()).collect::<Vec<_>>()
        })
        .max()
        .unwrap();
    assert!(long >= 4, "remoteness up to {long}");
}

/// Every record of every tier of `g`, solved on `threads` threads.
fn records_on(g: &Chase, threads: usize) -> Vec<Vec<topitop_game_api::Record>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let solved = pool.install(|| solve_loop_free(g, false, |_, _| {}).unwrap());
    g.tiers()
        .iter()
        .map(|&t| solved.tier(t).unwrap().unwrap().to_vec())
        .collect()
}

#[test]
fn loopy_tiers_solve_the_same_on_one_thread_and_on_several() {
    use Value::{Lose, Tie, Win};
    // Tiers of 125,000 indices: rounds with thousands of positions, shared
    // out between threads that race to claim the same parents.
    let mut seen = [0usize; 4];
    for ends in [[Win, Lose, Tie], [Tie, Tie, Lose], [Tie, Win, Win]] {
        let g = Chase {
            ring: 250,
            coins: 3,
            ends,
        };
        let one = records_on(&g, 1);
        for r in one.iter().flatten().filter(|r| r.is_solved()) {
            seen[r.value().unwrap().index()] += 1;
        }
        for threads in [2, 5] {
            let many = records_on(&g, threads);
            for (t, (a, b)) in one.iter().zip(&many).enumerate() {
                let differ = a.iter().zip(b).filter(|(x, y)| x != y).count();
                assert_eq!(differ, 0, "tier c{t} on {threads} threads, ends {ends:?}");
            }
        }
    }
    assert!(seen[..3].iter().all(|&n| n > 1000), "{seen:?}");
}

/// A store that keeps every tier in memory, by name, and counts what it is
/// asked for: a stand-in for the checkpoints on disk.
#[derive(Default)]
struct Shelf {
    tiers: std::collections::HashMap<String, Vec<topitop_game_api::Record>>,
    rereads: usize,
}

impl topitop_solver::loop_free::TierStore for Shelf {
    fn load(&mut self, _: &str, _: u64) -> Option<Vec<topitop_game_api::Record>> {
        None
    }
    fn save(&mut self, name: &str, records: &[topitop_game_api::Record]) -> std::io::Result<bool> {
        self.tiers.insert(name.to_string(), records.to_vec());
        Ok(true)
    }
    fn reread(&mut self, name: &str, size: u64) -> std::io::Result<Vec<topitop_game_api::Record>> {
        self.rereads += 1;
        let r = self.tiers.get(name).cloned().unwrap_or_default();
        assert_eq!(r.len() as u64, size, "tier {name}");
        Ok(r)
    }
}

#[test]
fn tiers_left_to_the_store_are_read_back_the_same() {
    use Value::{Lose, Tie, Win};
    let g = Chase {
        ring: 9,
        coins: 6,
        ends: [Tie, Win, Lose],
    };
    let memory = solve_loop_free(&g, false, |_, _| {}).unwrap();
    let mut shelf = Shelf::default();
    let (stored, resumed) =
        topitop_solver::loop_free::solve_loop_free_kept(&g, false, &mut shelf, |_, _| {}).unwrap();
    assert_eq!(resumed, 0);
    assert_eq!(shelf.tiers.len(), g.tiers().len(), "every tier kept as solved");
    // Only the tiers a parent still reads stay in memory: the lowest tiers
    // are gone from it, and read back from the store.
    let low = g.tiers()[0];
    assert_eq!(stored.tier(low).unwrap(), None, "left to the store");
    for &t in &g.tiers() {
        let back = stored.tier_kept(&g, t, &mut shelf).unwrap().unwrap();
        assert_eq!(Some(back), memory.tier(t).unwrap(), "tier {t:?}");
    }
    assert!(shelf.rereads >= g.tiers().len() - 1, "{} rereads", shelf.rereads);
    for c in 0..=6 {
        for a in 0..9 {
            let p = (c, a, (a + 4) % 9, c % 2);
            let kept = stored.get_kept(&g, &p, &mut shelf).unwrap();
            assert_eq!(kept, memory.get(&g, &p), "{p:?}");
        }
    }
}
