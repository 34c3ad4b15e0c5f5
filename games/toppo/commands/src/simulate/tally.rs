//! What a simulation keeps of its games: running sums for the summary
//! and histograms of bounded size for the report, so that its memory does
//! not grow with the number of games.

use std::collections::BTreeMap;

use games_toppo::sim::{Bot, Outcome};
use serde::Serialize;

/// The most bins of the histogram of game lengths: when one more would be
/// needed, the bins are made twice as wide.
pub const MAX_LENGTH_BINS: usize = 100;

/// The width of the length bins to begin with, in milliseconds.
const FIRST_BIN_MS: u64 = 10_000;

/// What one player got, summed over the games.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlayerSummary {
    /// Mean reaction time, ms.
    pub react_ms: f64,
    /// Mean penalty points a game.
    pub points: f64,
    /// Share of games won (calling "toppo").
    pub won: f64,
    /// Mean tops a game.
    pub tops: f64,
    /// Mean matches a game.
    pub matches: f64,
    /// Mean penalties a game.
    pub penalties: f64,
}

/// The summary of a simulation.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Of them, ended by a "toppo" call (the others hit the action limit).
    pub finished: u64,
    /// Players in each game, all of them bots.
    pub players: usize,
    /// Cards in a line.
    pub line: usize,
    /// Mean game length, simulated seconds.
    pub mean_seconds: f64,
    /// Mean full lines revealed a game, all players.
    pub mean_lines: f64,
    /// Each player, the first (player 1) first.
    pub per_player: Vec<PlayerSummary>,
    /// Penalty points a game that 100 ms more of mean reaction costs: the
    /// least-squares slope of mean points on mean reaction over the
    /// players (0 when they all react alike).
    pub points_per_100ms: f64,
    /// Games a second, on the threads used.
    pub games_per_second: f64,
}

/// One player's sums over the games.
#[derive(Clone, Debug, Default)]
struct PlayerSums {
    points: u128,
    won: u64,
    tops: u128,
    matched: u128,
    penalties: u128,
    /// Games by penalty points: at most one key a card of the game.
    by_points: BTreeMap<u64, u64>,
}

/// Running aggregates of a simulation's games: add each outcome once.
#[derive(Clone, Debug)]
pub struct Tally {
    games: u64,
    finished: u64,
    duration_ms: u128,
    lines: u128,
    players: Vec<PlayerSums>,
    /// Width of a length bin, ms.
    bin_ms: u64,
    /// Games by length bin (length / `bin_ms`).
    by_length: BTreeMap<u64, u64>,
}

impl Tally {
    /// An empty tally for `players` players.
    pub fn new(players: usize) -> Tally {
        Tally {
            games: 0,
            finished: 0,
            duration_ms: 0,
            lines: 0,
            players: vec![PlayerSums::default(); players],
            bin_ms: FIRST_BIN_MS,
            by_length: BTreeMap::new(),
        }
    }

    /// Counts one game.
    pub fn add(&mut self, o: &Outcome) {
        self.games += 1;
        self.finished += u64::from(o.finished);
        self.duration_ms += u128::from(o.duration_ms);
        self.lines += o.lines as u128;
        for (p, s) in self.players.iter_mut().enumerate() {
            let points = o.points.get(p).copied().unwrap_or(0);
            s.points += points as u128;
            s.won += u64::from(o.finished && o.winner == p);
            s.tops += o.tops.get(p).copied().unwrap_or(0) as u128;
            s.matched += o.matched.get(p).copied().unwrap_or(0) as u128;
            s.penalties += o.penalties.get(p).copied().unwrap_or(0) as u128;
            *s.by_points.entry(points as u64).or_default() += 1;
        }
        *self.by_length.entry(o.duration_ms / self.bin_ms).or_default() += 1;
        while self.by_length.len() > MAX_LENGTH_BINS && self.bin_ms <= u64::MAX / 2 {
            self.bin_ms *= 2;
            let old = std::mem::take(&mut self.by_length);
            for (bin, n) in old {
                *self.by_length.entry(bin / 2).or_default() += n;
            }
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The width of a length bin, ms.
    pub fn bin_ms(&self) -> u64 {
        self.bin_ms
    }

    /// Games by length: (the bin's start in ms, games), shortest first.
    pub fn by_length(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.by_length
            .iter()
            .map(|(&bin, &n)| (bin.saturating_mul(self.bin_ms), n))
    }

    /// Games by the penalty points of player `p` (from 0): (points,
    /// games), fewest first.
    pub fn by_points(&self, p: usize) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.players[p].by_points.iter().map(|(&k, &n)| (k, n))
    }

    /// The summary: means over the games counted, `bots` seat by seat
    /// (repeated over the seats), `secs` the time the games took.
    pub fn summary(&self, bots: &[Bot], line: usize, secs: f64) -> Summary {
        let n = self.games.max(1) as f64;
        let mean = |sum: u128| sum as f64 / n;
        let per_player: Vec<PlayerSummary> = self
            .players
            .iter()
            .enumerate()
            .map(|(p, s)| PlayerSummary {
                react_ms: bots[p % bots.len()].react_ms.0,
                points: mean(s.points),
                won: s.won as f64 / n,
                tops: mean(s.tops),
                matches: mean(s.matched),
                penalties: mean(s.penalties),
            })
            .collect();
        Summary {
            games: self.games,
            finished: self.finished,
            players: self.players.len(),
            line,
            mean_seconds: mean(self.duration_ms) / 1000.0,
            mean_lines: mean(self.lines),
            points_per_100ms: slope(&per_player),
            per_player,
            games_per_second: self.games as f64 / secs.max(1e-9),
        }
    }
}

/// The least-squares slope of mean points on mean reaction over the
/// players, in points per 100 ms (0 when they all react alike).
fn slope(players: &[PlayerSummary]) -> f64 {
    let m = players.len() as f64;
    let mx = players.iter().map(|p| p.react_ms).sum::<f64>() / m;
    let my = players.iter().map(|p| p.points).sum::<f64>() / m;
    let sxx: f64 = players.iter().map(|p| (p.react_ms - mx).powi(2)).sum();
    let sxy: f64 = players.iter().map(|p| (p.react_ms - mx) * (p.points - my)).sum();
    if sxx > 0.0 {
        100.0 * sxy / sxx
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(duration_ms: u64, points: [usize; 2]) -> Outcome {
        Outcome {
            points: points.to_vec(),
            winner: usize::from(points[1] < points[0]),
            duration_ms,
            lines: 3,
            tops: vec![1, 2],
            matched: vec![0, 1],
            penalties: vec![0, 0],
            actions: 10,
            finished: true,
        }
    }

    #[test]
    fn the_histograms_stay_small_whatever_the_games() {
        let mut t = Tally::new(2);
        // Lengths spread over a million bins of 10 s, points over 300.
        for k in 0..200_000u64 {
            t.add(&outcome(k * 50_000 + k % 7, [(k % 301) as usize, 0]));
        }
        assert!(t.by_length.len() <= MAX_LENGTH_BINS, "{}", t.by_length.len());
        assert_eq!(t.by_length().map(|(_, n)| n).sum::<u64>(), 200_000);
        assert_eq!(t.by_points(0).count(), 301);
        assert_eq!(t.by_points(1).collect::<Vec<_>>(), [(0, 200_000)]);
        // Bins whose start times the width cover every length.
        let w = t.bin_ms();
        assert!(t.by_length().all(|(start, _)| start % w == 0));
        assert!(t.by_length().last().unwrap().0 <= 199_999 * 50_000);
        // Even at the end of the clock, the doubling stops.
        t.add(&outcome(u64::MAX, [0, 0]));
        assert!(t.by_length.len() <= MAX_LENGTH_BINS);
    }
}
