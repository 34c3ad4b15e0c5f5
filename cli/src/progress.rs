//! Progress on long work: a bar with ETA and rate on a terminal; where
//! standard error is not a terminal (a log, a pipe), a plain line every
//! [`LOG_EVERY`], so that a long run in a log still says how far it is and
//! a short one says nothing.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

/// How often a plain progress line is written where there is no bar.
pub const LOG_EVERY: Duration = Duration::from_secs(30);

/// Plain progress lines for standard error that is not a terminal: the
/// fraction done, the time so far and the time left at the rate so far.
struct Log {
    what: String,
    start: Instant,
    last: Instant,
}

impl Log {
    fn new(what: &str) -> Log {
        let now = Instant::now();
        Log {
            what: what.to_string(),
            start: now,
            last: now,
        }
    }

    /// Writes a line if [`LOG_EVERY`] has passed since the last; `detail`
    /// is added in parentheses.
    fn tick(&mut self, done: u64, total: u64, unit: &str, detail: impl FnOnce() -> String) {
        if self.last.elapsed() < LOG_EVERY || total == 0 {
            return;
        }
        self.last = Instant::now();
        let elapsed = self.start.elapsed();
        let fraction = done as f64 / total as f64;
        let left = if fraction > 0.0 {
            format!(
                ", about {} left",
                clock(elapsed.mul_f64((1.0 - fraction) / fraction))
            )
        } else {
            String::new()
        };
        eprintln!(
            "{}: {:.1}% of {unit}, {} elapsed{left} ({})",
            self.what,
            100.0 * fraction,
            clock(elapsed),
            detail()
        );
    }
}

/// `d` as `1h02m03s`, `2m03s` or `3s`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, m, sec) => format!("{m}m{sec:02}s"),
        (h, m, sec) => format!("{h}h{m:02}m{sec:02}s"),
    }
}

/// A solve's state when a tier finishes.
#[derive(Clone, Copy, Debug)]
pub struct TierDone {
    /// Tiers finished.
    pub tiers_done: usize,
    /// Tiers in all.
    pub tiers_total: usize,
    /// Positions solved in the tier just finished.
    pub solved: u64,
    /// Positions in the finished tiers.
    pub positions_done: u64,
    /// Positions in all tiers.
    pub positions_total: u64,
}

/// A tier-by-tier progress bar, one line of [`TierBars`].
pub struct TierBar {
    bar: Option<ProgressBar>,
    /// Where there is no bar.
    log: Option<Log>,
    solved: u64,
}

impl TierBar {
    /// A bar labelled `what` among the lines of `multi`, shown only when
    /// standard error is a terminal.
    fn shown_in(multi: &MultiProgress, what: &str) -> TierBar {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = multi.add(ProgressBar::new(0));
            b.set_style(
                ProgressStyle::with_template(
                    "{msg} [{bar:40}] {percent}% of positions, {elapsed} elapsed, ETA {eta} {prefix}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            b.set_message(what.to_string());
            b
        });
        let log = bar.is_none().then(|| Log::new(what));
        TierBar { bar, log, solved: 0 }
    }

    /// Records one finished tier.
    pub fn update(&mut self, p: TierDone) {
        self.solved += p.solved;
        if let Some(log) = &mut self.log {
            log.tick(p.positions_done, p.positions_total, "positions", || {
                format!("{}/{} tiers", p.tiers_done, p.tiers_total)
            });
        }
        if let Some(b) = &self.bar {
            b.set_length(p.positions_total);
            b.set_position(p.positions_done);
            let secs = b.elapsed().as_secs_f64().max(1e-9);
            b.set_prefix(format!(
                "({}/{} tiers, {:.1} M positions/s)",
                p.tiers_done,
                p.tiers_total,
                self.solved as f64 / secs / 1e6
            ));
        }
    }

    /// Clears the bar.
    pub fn finish(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }
}

/// One tier bar per ruleset solved together, each on its own line.
pub struct TierBars {
    bars: Vec<TierBar>,
}

impl TierBars {
    /// A bar for each of `labels`, shown only on a terminal.
    pub fn new(labels: &[String]) -> TierBars {
        let multi = MultiProgress::new();
        let bars = labels
            .iter()
            .map(|l| TierBar::shown_in(&multi, &format!("solving {l}")))
            .collect();
        TierBars { bars }
    }

    /// Records one finished tier of ruleset `k`.
    pub fn update(&mut self, k: usize, p: TierDone) {
        self.bars[k].update(p);
    }

    /// Clears the bars.
    pub fn finish(self) {
        self.bars.into_iter().for_each(TierBar::finish);
    }
}

/// A plain counting bar (blocks, positions, ...).
pub struct CountBar {
    bar: Option<ProgressBar>,
    /// Where there is no bar.
    log: Option<std::sync::Mutex<Log>>,
    unit: String,
}

impl CountBar {
    /// A bar labelled `what` counting `unit`, shown on a terminal (plain
    /// lines now and then elsewhere).
    pub fn new(what: &str, unit: &str) -> CountBar {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new(0);
            let template =
                format!("{{msg}} [{{bar:40}}] {{pos}}/{{len}} {unit}, {{elapsed}} elapsed, ETA {{eta}}");
            b.set_style(
                ProgressStyle::with_template(&template)
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            b.set_message(what.to_string());
            b
        });
        let log = bar.is_none().then(|| std::sync::Mutex::new(Log::new(what)));
        CountBar {
            bar,
            log,
            unit: unit.to_string(),
        }
    }

    /// `done` of `total` finished.
    pub fn set(&self, done: u64, total: u64) {
        if let Some(b) = &self.bar {
            b.set_length(total);
            b.set_position(done);
        }
        if let Some(log) = &self.log {
            if let Ok(mut log) = log.lock() {
                log.tick(done, total, &self.unit, || format!("{done}/{total}"));
            }
        }
    }

    /// Clears the bar.
    pub fn finish(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }
}

/// A [`CountBar`] over a database's tiers, counted in indices, where a
/// tier's chunks may hold fewer items than the tier has indices (Topitop's
/// hold about an eighth: counting what they held said "4m14s left" 7 s
/// from the end). Within a tier the count goes by what its chunks held, at
/// most the tier's size; at each tier's end it is the tiers' sizes so far.
pub struct TierCount {
    bar: CountBar,
    total: u64,
    tiers_done: u64,
    in_tier: u64,
}

impl TierCount {
    /// A bar labelled `what` over tiers of `total` indices in all.
    pub fn new(what: &str, total: u64) -> TierCount {
        TierCount {
            bar: CountBar::new(what, "indices"),
            total,
            tiers_done: 0,
            in_tier: 0,
        }
    }

    /// A chunk of `len` items of the tier under way, of `size` indices.
    pub fn chunk(&mut self, len: u64, size: u64) {
        self.in_tier = (self.in_tier + len).min(size);
        self.bar.set(self.done(), self.total);
    }

    /// The tier under way, of `size` indices, is finished.
    pub fn tier(&mut self, size: u64) {
        self.tiers_done += size;
        self.in_tier = 0;
        self.bar.set(self.tiers_done, self.total);
    }

    /// Indices counted done so far.
    fn done(&self) -> u64 {
        self.tiers_done + self.in_tier
    }

    /// Clears the bar.
    pub fn finish(self) {
        self.bar.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::{clock, TierCount};
    use std::time::Duration;

    #[test]
    fn tiers_whose_chunks_hold_few_of_their_indices_count_whole_when_done() {
        let mut c = TierCount::new("checking", 150);
        c.chunk(12, 100);
        assert_eq!(c.done(), 12);
        c.tier(100);
        assert_eq!(c.done(), 100, "a tier finished counts whole");
        c.chunk(5, 50);
        c.chunk(100, 50);
        assert_eq!(c.done(), 150, "never past the tier's end");
        c.tier(50);
        assert_eq!(c.done(), 150);
        c.finish();
    }

    #[test]
    fn durations_read_as_a_clock() {
        assert_eq!(clock(Duration::from_millis(3900)), "3s");
        assert_eq!(clock(Duration::from_secs(123)), "2m03s");
        assert_eq!(clock(Duration::from_secs(3723)), "1h02m03s");
    }
}
