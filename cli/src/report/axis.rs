//! Axes of the report's charts: their range, tick marks and labels, and
//! how numbers are written on them.
//!
//! A chart is always drawn on plain `f64` coordinates; a logarithmic axis
//! carries log10 of the values. Doing the transform here rather than with
//! plotters' own log coordinates keeps one coordinate type for every chart
//! and lets us choose the ticks (powers of ten, labelled 1, 10, 100, 1k, …)
//! and decide what happens to zeros (they are left out, never clamped to a
//! made-up value).

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};

/// One axis: the plotted range `lo..hi` (log10 units on a log axis), the
/// labelled ticks and the lighter grid lines between them.
#[derive(Clone, Debug)]
pub struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
    pub minor: Vec<f64>,
    pub log: bool,
    /// Decimals of the labels of a linear axis (from its step).
    decimals: usize,
}

/// Fewest ticks a linear axis aims for; the step is the nice number (1, 2
/// or 5 times a power of ten) giving at most about [`TICKS`] of them.
const TICKS: f64 = 8.0;

impl Axis {
    /// A linear axis showing `min..=max`, widened to whole steps. With
    /// `from_zero` it starts at zero (counts: bars must start there).
    pub fn linear(min: f64, max: f64, from_zero: bool) -> Axis {
        let (mut min, mut max) = (min, max);
        if from_zero {
            min = min.min(0.0);
            max = max.max(0.0);
        }
        if max <= min {
            // One value: a unit either side (or above zero) keeps it in view.
            if from_zero || min == 0.0 {
                max = min + 1.0;
            } else {
                let pad = (min.abs() * 0.1).max(1.0);
                min -= pad;
                max += pad;
            }
        }
        let step = nice_step((max - min) / TICKS);
        let lo = (min / step).floor() * step;
        let hi = (max / step).ceil() * step;
        let hi = if hi > lo { hi } else { lo + step };
        Axis {
            lo,
            hi,
            ticks: steps(lo, hi, step),
            minor: Vec::new(),
            log: false,
            decimals: decimals_of(step),
        }
    }

    /// A linear axis of the integers `min..=max`, each drawn as a slot one
    /// unit wide centred on it, ticks on integers only.
    pub fn integers(min: i64, max: i64) -> Axis {
        let (min, max) = (min.min(max) as f64, max.max(min) as f64);
        let step = nice_step((max - min + 1.0) / (TICKS * 1.5)).max(1.0).round();
        let first = (min / step).ceil() * step;
        Axis {
            lo: min - 0.5,
            hi: max + 0.5,
            ticks: steps(first, max, step),
            minor: Vec::new(),
            log: false,
            decimals: 0,
        }
    }

    /// A log axis showing the positive values `min..=max` (both > 0), with
    /// `below` and `above` decades of room beyond them.
    pub fn log(min: f64, max: f64, below: f64, above: f64) -> Axis {
        let (a, b) = (min.log10(), max.log10());
        let (lo, hi) = if b - a < 0.5 {
            // One value (or nearly): half a decade around it.
            ((a + b) / 2.0 - 0.5, (a + b) / 2.0 + 0.5)
        } else {
            (a - below, b + above)
        };
        let decades = hi - lo;
        // Every decade labelled up to a dozen of them; beyond, every second
        // or third one, so labels never collide.
        let every = (decades / 12.0).ceil().max(1.0);
        let mut ticks: Vec<f64> = steps((lo / every).ceil() * every, hi, every);
        let mut minor = Vec::new();
        if every == 1.0 {
            for k in (lo.floor() as i64)..=(hi.ceil() as i64) {
                for m in 2..=9 {
                    let t = k as f64 + f64::from(m).log10();
                    if t > lo && t < hi {
                        minor.push(t);
                    }
                }
            }
        }
        if ticks.len() < 3 {
            // Less than two decades: also label 2× and 5×.
            ticks.extend(minor.iter().copied().filter(|t| {
                [2.0f64, 5.0]
                    .iter()
                    .any(|m| (t.rem_euclid(1.0) - m.log10()).abs() < 1e-9)
            }));
            ticks.sort_by(f64::total_cmp);
        }
        Axis {
            lo,
            hi,
            ticks,
            minor,
            log: true,
            decimals: 0,
        }
    }

    /// An axis of `n` categories, each a slot one unit wide from 0, with a
    /// tick at the middle of each slot.
    pub fn categories(n: usize) -> Axis {
        Axis {
            lo: 0.0,
            hi: n.max(1) as f64,
            ticks: (0..n).map(|i| i as f64 + 0.5).collect(),
            minor: Vec::new(),
            log: false,
            decimals: 0,
        }
    }

    /// Where `v` goes on this axis, if it can be shown (a log axis cannot
    /// show zero or negative values).
    pub fn place(&self, v: f64) -> Option<f64> {
        if !v.is_finite() {
            None
        } else if self.log {
            (v > 0.0).then(|| v.log10())
        } else {
            Some(v)
        }
    }

    /// The label of the tick at plotted coordinate `t`.
    pub fn label(&self, t: f64) -> String {
        if self.log {
            // Round to 3 significant digits: 10^0.30103 is 1.9999….
            let v = 10f64.powf(t);
            let digits = v.abs().log10().floor();
            let unit = 10f64.powf(digits - 2.0);
            // Powers of ten read best all alike: 100, 1k, 10k.
            short((v / unit).round() * unit, 1000.0)
        } else if t.abs() >= 10_000.0 {
            compact(t)
        } else {
            format!("{:.*}", self.decimals, t)
        }
    }
}

/// The axis as plotters' coordinate: linear from `lo` to `hi`, its grid
/// lines at our ticks (bold) and minor ticks (light). Labels come from
/// [`Axis::label`], set as the mesh's formatter.
impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.hi - self.lo;
        let at = if span > 0.0 { (value - self.lo) / span } else { 0.0 };
        // As plotters maps its own f64 ranges; `as` saturates far outside.
        limit.0 + (f64::from(limit.1 - limit.0) * at + 1e-3).floor() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.minor.clone()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

/// `lo, lo + step, …` up to `hi` (with a little slack for rounding).
fn steps(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let n = ((hi - lo) / step + 1e-9).floor();
    if !(0.0..=1000.0).contains(&n) {
        return Vec::new();
    }
    (0..=n as usize).map(|i| lo + step * i as f64).collect()
}

/// The smallest of 1, 2, 5 × 10^k at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw.is_nan() || raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&s| s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * p)
}

/// Decimals needed to tell apart ticks `step` apart.
fn decimals_of(step: f64) -> usize {
    if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    }
}

/// `v` in at most about four characters' worth of digits: 1234, 12.3k,
/// 4.5M, 0.05. Exact below ten thousand for whole numbers.
pub fn compact(v: f64) -> String {
    short(v, 10_000.0)
}

/// `v` as [`compact`] writes it, with units (k, M, …) from `from` up.
fn short(v: f64, from: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let a = v.abs();
    if a < from {
        if v == v.round() {
            return format!("{v:.0}");
        }
        let decimals = if a >= 100.0 {
            0
        } else if a >= 1.0 {
            2 - a.log10().floor() as usize
        } else {
            // Two significant digits below one.
            (1.0 - a.log10().floor()) as usize
        };
        return trim_zeros(format!("{v:.decimals$}"));
    }
    const UNITS: [(f64, &str); 6] = [
        (1e18, "E"),
        (1e15, "P"),
        (1e12, "T"),
        (1e9, "G"),
        (1e6, "M"),
        (1e3, "k"),
    ];
    let mut i = UNITS.iter().position(|&(s, _)| a >= s).unwrap_or(UNITS.len() - 1);
    loop {
        let (scale, unit) = UNITS[i];
        let x = v / scale;
        let decimals = if x.abs() < 10.0 {
            2
        } else if x.abs() < 100.0 {
            1
        } else {
            0
        };
        let text = trim_zeros(format!("{x:.decimals$}"));
        // 999 999 rounds to "1000k": say 1M instead.
        if i > 0 && text.trim_start_matches('-').len() >= 4 && !text.contains('.') {
            i -= 1;
            continue;
        }
        return format!("{text}{unit}");
    }
}

/// `n` with a comma between groups of three digits, 1,234,567: the one
/// way every report writes a count (axes, tables, notes).
pub fn grouped(n: u64) -> String {
    grouped_by(n, ',')
}

/// `n` with `separator` between groups of three digits.
pub fn grouped_by(n: u64, separator: char) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3 + 1);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(separator);
        }
        out.push(c);
    }
    out
}

fn trim_zeros(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_numbers() {
        assert_eq!(compact(0.0), "0");
        assert_eq!(compact(7.0), "7");
        assert_eq!(compact(9999.0), "9999");
        assert_eq!(compact(12_345.0), "12.3k");
        assert_eq!(compact(1_000_000.0), "1M");
        assert_eq!(compact(999_999.0), "1M");
        assert_eq!(compact(2.5e9), "2.5G");
        assert_eq!(compact(u64::MAX as f64), "18.4E");
        assert_eq!(compact(0.05), "0.05");
        assert_eq!(compact(1.5), "1.5");
        assert_eq!(compact(-12_345.0), "-12.3k");
    }

    #[test]
    fn grouped_numbers() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    #[test]
    fn linear_axes_cover_their_values_with_nice_ticks() {
        let a = Axis::linear(0.0, 937.0, true);
        assert_eq!((a.lo, a.hi), (0.0, 1000.0));
        assert!(a.ticks.len() >= 4 && a.ticks.len() <= 12, "{:?}", a.ticks);
        assert_eq!(a.label(200.0), "200");
        let one = Axis::linear(5.0, 5.0, false);
        assert!(one.lo < 5.0 && one.hi > 5.0);
        let zero = Axis::linear(0.0, 0.0, true);
        assert_eq!((zero.lo, zero.hi), (0.0, 1.0));
        let small = Axis::linear(0.0, 0.35, false);
        assert_eq!(small.label(0.1), "0.10");
        let huge = Axis::linear(0.0, u64::MAX as f64, true);
        assert!(huge.hi >= u64::MAX as f64 && !huge.ticks.is_empty());
    }

    #[test]
    fn integer_axes_tick_whole_numbers() {
        let a = Axis::integers(0, 100);
        assert!(a.ticks.iter().all(|t| t.fract() == 0.0));
        assert!(a.ticks.len() <= 14, "{:?}", a.ticks);
        let one = Axis::integers(3, 3);
        assert_eq!(one.ticks, [3.0]);
        assert_eq!((one.lo, one.hi), (2.5, 3.5));
    }

    #[test]
    fn log_axes_label_powers_of_ten() {
        let a = Axis::log(1.0, 1e6, 0.3, 0.1);
        assert_eq!(
            a.ticks.iter().map(|&t| a.label(t)).collect::<Vec<_>>(),
            ["1", "10", "100", "1k", "10k", "100k", "1M"]
        );
        assert_eq!(a.place(0.0), None);
        assert_eq!(a.place(100.0), Some(2.0));
        let narrow = Axis::log(3.0, 7.0, 0.3, 0.1);
        let labels: Vec<_> = narrow.ticks.iter().map(|&t| narrow.label(t)).collect();
        assert!(labels.contains(&"5".to_string()), "{labels:?}");
        let wide = Axis::log(1.0, u64::MAX as f64, 0.3, 0.1);
        assert!(wide.ticks.len() <= 13, "{:?}", wide.ticks);
    }
}
