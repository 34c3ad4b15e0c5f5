//! Progress on long work: a bar with ETA and rate on a terminal, nothing
//! otherwise.

use std::io::IsTerminal;

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

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
        TierBar { bar, solved: 0 }
    }

    /// Records one finished tier.
    pub fn update(&mut self, p: TierDone) {
        self.solved += p.solved;
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
pub struct CountBar(Option<ProgressBar>);

impl CountBar {
    /// A bar labelled `what` counting `unit`, shown only on a terminal.
    pub fn new(what: &str, unit: &str) -> CountBar {
        CountBar(std::io::stderr().is_terminal().then(|| {
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
        }))
    }

    /// `done` of `total` finished.
    pub fn set(&self, done: u64, total: u64) {
        if let Some(b) = &self.0 {
            b.set_length(total);
            b.set_position(done);
        }
    }

    /// Clears the bar.
    pub fn finish(self) {
        if let Some(b) = self.0 {
            b.finish_and_clear();
        }
    }
}
