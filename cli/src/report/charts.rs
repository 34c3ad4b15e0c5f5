//! The report's charts, drawn by plotters into SVG text.
//!
//! Every function here returns a [`Chart`]: always an `<svg>` (a chart
//! with nothing to show, or one plotters failed to draw, becomes a small
//! picture saying so, so a report is never missing a figure), and notes
//! for the caption about what could not be shown (zeros on a log axis).

use std::collections::{BTreeMap, BTreeSet};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{compact, grouped, Axis};
use super::Series;

/// A drawn chart: the SVG and what its caption should add.
pub struct Chart {
    pub svg: String,
    pub notes: Vec<String>,
}

/// Size of the bar and line charts and of the scatter plots, in pixels
/// (the page scales them down to fit narrower windows).
const WIDTH: u32 = 880;
const HEIGHT: u32 = 440;

/// Beyond this many bars (x values in a row times series with a count),
/// bars get too thin to read (under about 5 pixels): the series are drawn
/// as lines instead.
const MOST_BARS: i128 = 120;

const FONT: &str = "sans-serif";
const INK: RGBColor = RGBColor(51, 51, 51);
const GRID: RGBColor = RGBColor(221, 221, 221);
const LIGHT_GRID: RGBColor = RGBColor(240, 240, 240);
const ZERO_CELL: RGBColor = RGBColor(247, 247, 247);

/// Series colours in order (Tableau 10, readable on white and to most
/// colour-blind readers).
const PALETTE: [RGBColor; 10] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(118, 183, 178),
    RGBColor(176, 122, 161),
    RGBColor(156, 117, 95),
    RGBColor(255, 157, 167),
    RGBColor(237, 201, 72),
    RGBColor(89, 161, 79),
    RGBColor(225, 87, 89),
    RGBColor(186, 176, 172),
];

/// The colour of series `i` named `name`: game values keep the colours
/// GamesmanUni gives them (green win, red lose, yellow tie), so a reader
/// never has to look them up in the legend; others take the palette.
fn colour_of(name: &str, i: usize) -> RGBColor {
    match name.trim().to_ascii_lowercase().as_str() {
        "win" => RGBColor(46, 158, 79),
        "lose" => RGBColor(214, 69, 61),
        "tie" => RGBColor(224, 165, 38),
        "draw" => RGBColor(127, 127, 127),
        _ => PALETTE[i % PALETTE.len()],
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Plot<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<Axis, Axis>>;

/// Draws with `draw` on a white SVG of `size`; a failure becomes a picture
/// of the error rather than a half-drawn chart.
fn render(size: (u32, u32), draw: impl FnOnce(&Area) -> anyhow::Result<()>) -> String {
    let mut svg = String::new();
    let result = {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(anyhow::Error::from)
            .and_then(|()| draw(&root));
        drawn.and_then(|()| root.present().map_err(anyhow::Error::from))
    };
    match result {
        Ok(()) => svg,
        Err(e) => message(&format!("this chart could not be drawn: {e}")),
    }
}

/// A small picture holding only `text`: a chart with nothing to show.
pub fn message(text: &str) -> String {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 120)).into_drawing_area();
        let style = (FONT, 18)
            .into_font()
            .color(&INK)
            .pos(Pos::new(HPos::Center, VPos::Center));
        // Drawing on a string cannot fail; a failure would only leave the
        // picture blank, which is still well-formed SVG.
        let _ = root.fill(&WHITE);
        let _ = root.draw(&Rectangle::new(
            [(1, 1), (WIDTH as i32 - 2, 118)],
            GRID.stroke_width(1),
        ));
        let _ = root.draw(&Text::new(text.to_string(), (WIDTH as i32 / 2, 60), style));
        let _ = root.present();
    }
    svg
}

/// Pixels for the y tick labels and the axis description beside them.
fn y_label_room(labels: impl Iterator<Item = String>) -> u32 {
    let longest = labels.map(|l| l.chars().count()).max().unwrap_or(1) as u32;
    longest * 9 + 46
}

/// The grid, ticks and axis descriptions.
fn mesh(chart: &mut Plot, x: &Axis, y: &Axis, x_desc: &str, y_desc: &str) -> anyhow::Result<()> {
    let x_fmt = |v: &f64| x.label(*v);
    let y_fmt = |v: &f64| y.label(*v);
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style((FONT, 15).into_font().color(&INK))
        .axis_desc_style((FONT, 17).into_font().color(&INK))
        .bold_line_style(GRID.stroke_width(1))
        .light_line_style(LIGHT_GRID.stroke_width(1))
        .axis_style(INK.stroke_width(1))
        .draw()?;
    Ok(())
}

/// Draws the legend (a swatch and a name per series) down `area`, outside
/// the plot so it never hides data.
fn legend(area: &Area, entries: &[(String, RGBColor)]) -> anyhow::Result<()> {
    let style = (FONT, 16)
        .into_font()
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (name, colour)) in entries.iter().enumerate() {
        let y = 24 + 24 * i as i32;
        area.draw(&Rectangle::new([(6, y - 7), (20, y + 7)], colour.filled()))?;
        area.draw(&Text::new(name.clone(), (28, y), style.clone()))?;
    }
    Ok(())
}

/// Width of the legend of `names`.
fn legend_room(names: &[&str]) -> u32 {
    names
        .iter()
        .map(|n| n.chars().count() as u32)
        .max()
        .map_or(0, |n| n * 9 + 44)
}

/// Each series' counts by x, repeated x values added up.
fn summed(series: &[Series]) -> Vec<(&str, BTreeMap<i64, u64>)> {
    series
        .iter()
        .map(|s| {
            let mut m = BTreeMap::new();
            for &(x, n) in &s.points {
                let e: &mut u64 = m.entry(x).or_default();
                *e = e.saturating_add(n);
            }
            (s.name.as_str(), m)
        })
        .collect()
}

/// The y axis of `counts`, linear from 0 or logarithmic, with notes on
/// what a log scale cannot show.
fn count_axis(counts: &[u64], log_y: bool) -> (Axis, Vec<String>) {
    let top = counts.iter().copied().max().unwrap_or(0) as f64;
    let mut notes = Vec::new();
    if !log_y {
        return (Axis::linear(0.0, top, true), notes);
    }
    let y = match counts.iter().copied().filter(|&n| n > 0).min() {
        Some(least) => Axis::log(least as f64, top, 0.3, 0.15),
        None => {
            notes.push("every count is zero".to_string());
            Axis::log(1.0, 10.0, 0.0, 0.0)
        }
    };
    let zeros = counts.iter().filter(|&&n| n == 0).count();
    if zeros > 0 {
        notes.push(format!(
            "{} value and remoteness pairs with no position are left out: a log scale has no zero",
            grouped(zeros as u64)
        ));
    }
    (y, notes)
}

/// Counts by integer x for each series, as grouped bars or (when there are
/// too many x values for bars) lines with a marker at each point.
pub fn bars(x_desc: &str, y_desc: &str, series: &[Series], log_y: bool) -> Chart {
    let data = summed(series);
    let xs: BTreeSet<i64> = data.iter().flat_map(|(_, m)| m.keys().copied()).collect();
    let (Some(&xmin), Some(&xmax)) = (xs.first(), xs.last()) else {
        return Chart {
            svg: message("no data"),
            notes: Vec::new(),
        };
    };
    let counts: Vec<u64> = data.iter().flat_map(|(_, m)| m.values().copied()).collect();
    let (y, notes) = count_axis(&counts, log_y);
    let x = Axis::integers(xmin, xmax);
    // Series with nothing to draw take no room in a group of bars.
    let drawn: Vec<bool> = data.iter().map(|(_, m)| m.values().any(|&n| n > 0)).collect();
    let groups = drawn.iter().filter(|&&d| d).count().max(1);
    let slots = i128::from(xmax) - i128::from(xmin) + 1;
    let as_bars = slots.saturating_mul(groups as i128) <= MOST_BARS;
    let names: Vec<&str> = data.iter().map(|(n, _)| *n).collect();
    let legend_w = legend_room(&names);
    let entries: Vec<(String, RGBColor)> = data
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.to_string(), colour_of(n, i)))
        .collect();
    // The legend names only what is drawn (no "tie" for a game without ties).
    let listed: Vec<(String, RGBColor)> = entries
        .iter()
        .zip(&drawn)
        .filter(|(_, &d)| d)
        .map(|(e, _)| e.clone())
        .collect();
    let svg = render((WIDTH, HEIGHT), |root| {
        let (plot_area, legend_area) = root.split_horizontally(WIDTH - legend_w);
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(14)
            .x_label_area_size(54)
            .y_label_area_size(y_label_room(y.ticks.iter().map(|&t| y.label(t))))
            .build_cartesian_2d(x.clone(), y.clone())?;
        mesh(&mut chart, &x, &y, x_desc, y_desc)?;
        let w = 0.84 / groups as f64;
        // The bars of one x are centred on it, side by side in series
        // order: a lone bar (wins at odd remoteness, losses at even) sits
        // on its own x, not beside its neighbour's as if they were a pair.
        let present = |x: i64| {
            data.iter()
                .filter(|(_, m)| m.get(&x).is_some_and(|&n| n > 0))
                .count()
        };
        for (i, (_, m)) in data.iter().enumerate() {
            let colour = entries[i].1;
            let plotted = m
                .iter()
                .filter(|&(_, &n)| n > 0)
                .filter_map(|(&x, &n)| Some((x, y.place(n as f64)?)));
            if as_bars {
                if !drawn[i] {
                    continue;
                }
                chart.draw_series(plotted.map(|(x, top)| {
                    let before = data[..i]
                        .iter()
                        .filter(|(_, m)| m.get(&x).is_some_and(|&n| n > 0))
                        .count();
                    let x0 = x as f64 - w * present(x) as f64 / 2.0 + w * before as f64;
                    Rectangle::new([(x0, y.lo), (x0 + w, top)], colour.filled())
                }))?;
            } else {
                let points: Vec<(i64, f64)> = plotted.collect();
                // A line joins neighbouring x values only: across a gap (or
                // a zero on a log axis) it would invent counts.
                for run in points.chunk_by(|a, b| a.0.checked_add(1) == Some(b.0)) {
                    chart.draw_series(LineSeries::new(
                        run.iter().map(|&(x, v)| (x as f64, v)),
                        colour.stroke_width(2),
                    ))?;
                }
                chart.draw_series(
                    points
                        .iter()
                        .map(|&(x, v)| Circle::new((x as f64, v), 3, colour.filled())),
                )?;
            }
        }
        legend(&legend_area, &listed)
    });
    Chart { svg, notes }
}

/// Colour of a heat-map cell at `t` in 0..=1 (light yellow to dark blue,
/// the YlGnBu scale: darker is more).
fn heat(t: f64) -> RGBColor {
    const STOPS: [(u8, u8, u8); 5] = [
        (237, 248, 177),
        (127, 205, 187),
        (65, 182, 196),
        (29, 145, 192),
        (12, 44, 132),
    ];
    let t = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Where a count falls on the heat map's log colour scale: 0 for 1, 1 for
/// the largest count.
fn heat_level(n: u64, most: u64) -> f64 {
    if most <= 1 {
        1.0
    } else {
        (n.max(1) as f64).ln() / (most as f64).ln()
    }
}

/// A matrix of counts as coloured cells with the counts printed in them.
/// Missing cells (short rows) count as zero; missing labels are numbers.
pub fn heat_map(
    row_desc: &str,
    col_desc: &str,
    row_labels: &[String],
    col_labels: &[String],
    cells: &[Vec<u64>],
) -> Chart {
    let rows = cells.len().max(row_labels.len());
    let cols = cells
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .max(col_labels.len());
    if rows == 0 || cols == 0 {
        return Chart {
            svg: message("no data"),
            notes: Vec::new(),
        };
    }
    let cell = |r: usize, c: usize| cells.get(r).and_then(|row| row.get(c)).copied().unwrap_or(0);
    let label = |labels: &[String], i: usize| labels.get(i).cloned().unwrap_or_else(|| i.to_string());
    let most = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .map(|(r, c)| cell(r, c))
        .max()
        .unwrap_or(0);
    let mut notes = Vec::new();
    if most == 0 {
        notes.push("every count is zero".to_string());
    }

    let cw = (760 / cols as u32).clamp(26, 110);
    let ch = (360 / rows as u32).clamp(24, 44);
    let y_room = y_label_room((0..rows).map(|r| label(row_labels, r)));
    let scale_w = 96;
    let (margin, x_room) = (14, 58);
    let width = margin * 2 + y_room + cw * cols as u32 + scale_w;
    let height = margin * 2 + x_room + ch * rows as u32;

    // Rows top to bottom: row r sits between y = rows - r - 1 and rows - r.
    let x_fmt = |v: &f64| label(col_labels, v.floor().max(0.0) as usize);
    let y_fmt = |v: &f64| label(row_labels, rows - 1 - (v.floor().max(0.0) as usize).min(rows - 1));
    let font_px = (f64::from(ch) * 0.45).min(16.0);
    let svg = render((width, height), |root| {
        let (plot_area, scale_area) = root.split_horizontally(width - scale_w);
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(margin)
            .x_label_area_size(x_room)
            .y_label_area_size(y_room)
            .build_cartesian_2d(Axis::categories(cols), Axis::categories(rows))?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(col_desc)
            .y_desc(row_desc)
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .label_style((FONT, 15).into_font().color(&INK))
            .axis_desc_style((FONT, 17).into_font().color(&INK))
            .axis_style(INK.stroke_width(1))
            .draw()?;
        for r in 0..rows {
            let y0 = (rows - r - 1) as f64;
            for c in 0..cols {
                let n = cell(r, c);
                let t = heat_level(n, most);
                let fill = if n == 0 { ZERO_CELL } else { heat(t) };
                let x0 = c as f64;
                chart.draw_series([Rectangle::new([(x0, y0), (x0 + 1.0, y0 + 1.0)], fill.filled())])?;
                chart.draw_series([Rectangle::new(
                    [(x0, y0), (x0 + 1.0, y0 + 1.0)],
                    WHITE.stroke_width(1),
                )])?;
                if let Some(text) = cell_text(n, f64::from(cw) - 6.0, font_px) {
                    let ink = if n == 0 {
                        RGBColor(170, 170, 170)
                    } else if t > 0.55 {
                        WHITE
                    } else {
                        INK
                    };
                    let style = (FONT, font_px)
                        .into_font()
                        .color(&ink)
                        .pos(Pos::new(HPos::Center, VPos::Center));
                    chart.draw_series([Text::new(text, (x0 + 0.5, y0 + 0.5), style)])?;
                }
            }
        }
        colour_scale(
            &scale_area,
            most,
            margin as i32,
            (height - margin - x_room) as i32,
        )
    });
    Chart { svg, notes }
}

/// The text of a cell holding `n`, if any fits `room` pixels at `font_px`:
/// the exact count, else a rounded one (12.3k), else none.
fn cell_text(n: u64, room: f64, font_px: f64) -> Option<String> {
    // Digits of a sans-serif font are about 0.6 em wide.
    let fits = |s: &str| s.chars().count() as f64 * font_px * 0.6 <= room;
    [grouped(n), compact(n as f64)].into_iter().find(|s| fits(s))
}

/// The heat map's colour key: a bar from 1 to `most` with its powers of ten.
fn colour_scale(area: &Area, most: u64, top: i32, bottom: i32) -> anyhow::Result<()> {
    if most == 0 {
        return Ok(());
    }
    let (x0, x1) = (12, 28);
    let steps = 60;
    let span = (bottom - top).max(steps);
    for i in 0..steps {
        // Top of the bar is the most.
        let t = 1.0 - f64::from(i) / f64::from(steps);
        let ya = top + span * i / steps;
        let yb = top + span * (i + 1) / steps;
        area.draw(&Rectangle::new([(x0, ya), (x1, yb)], heat(t).filled()))?;
    }
    area.draw(&Rectangle::new(
        [(x0, top), (x1, top + span)],
        GRID.stroke_width(1),
    ))?;
    let style = (FONT, 14)
        .into_font()
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let at = |t: f64| top + ((1.0 - t) * f64::from(span)).round() as i32;
    let mut marks: Vec<(f64, String)> = vec![(0.0, "1".to_string()), (1.0, compact(most as f64))];
    let decades = (most as f64).log10().floor() as i32;
    let every = (decades / 6 + 1).max(1);
    for k in (every..=decades).step_by(every as usize) {
        let t = heat_level(10u64.saturating_pow(k as u32), most);
        // Skip a power of ten that would sit on the label of the most.
        if (1.0 - t) * f64::from(span) > 26.0 && t * f64::from(span) > 22.0 {
            marks.push((t, compact(10f64.powi(k))));
        }
    }
    for (t, text) in marks {
        area.draw(&PathElement::new(
            [(x1, at(t)), (x1 + 4, at(t))],
            INK.stroke_width(1),
        ))?;
        area.draw(&Text::new(text, (x1 + 7, at(t)), style.clone()))?;
    }
    Ok(())
}

/// Points (x, y) as dots, each axis linear or logarithmic.
pub fn scatter(x_desc: &str, y_desc: &str, points: &[(f64, f64)], log_x: bool, log_y: bool) -> Chart {
    let shown = |v: f64, log: bool| v.is_finite() && (!log || v > 0.0);
    let kept: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|&(x, y)| shown(x, log_x) && shown(y, log_y))
        .collect();
    let mut notes = Vec::new();
    let dropped = points.len() - kept.len();
    if dropped > 0 {
        notes.push(format!(
            "{dropped} of {} points not drawn (zero or negative on a log axis, or not a number)",
            points.len()
        ));
    }
    notes.push("each dot is translucent: a darker dot is several points in one place".to_string());
    if kept.is_empty() {
        return Chart {
            svg: message("no data"),
            notes,
        };
    }
    let range = |f: fn(&(f64, f64)) -> f64| {
        let lo = kept.iter().map(f).fold(f64::INFINITY, f64::min);
        let hi = kept.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    };
    let axis = |(lo, hi): (f64, f64), log: bool| {
        if log {
            Axis::log(lo, hi, 0.15, 0.15)
        } else {
            let pad = (hi - lo) * 0.04;
            Axis::linear(lo - pad, hi + pad, false)
        }
    };
    let x = axis(range(|p| p.0), log_x);
    let y = axis(range(|p| p.1), log_y);
    let colour = PALETTE[0];
    let svg = render((WIDTH, HEIGHT + 40), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(14)
            .margin_right(30)
            .x_label_area_size(54)
            .y_label_area_size(y_label_room(y.ticks.iter().map(|&t| y.label(t))))
            .build_cartesian_2d(x.clone(), y.clone())?;
        mesh(&mut chart, &x, &y, x_desc, y_desc)?;
        let style = ShapeStyle {
            color: colour.mix(0.7),
            filled: true,
            stroke_width: 1,
        };
        chart.draw_series(
            kept.iter()
                .filter_map(|&(px, py)| Some(Circle::new((x.place(px)?, y.place(py)?), 3, style))),
        )?;
        Ok(())
    });
    Chart { svg, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many `<tag …>` elements of `svg` have `attribute` (plotters
    /// writes one element a line).
    fn shapes(svg: &str, tag: &str, attribute: &str) -> usize {
        svg.lines()
            .filter(|l| l.starts_with(&format!("<{tag} ")) && l.contains(attribute))
            .count()
    }

    fn series(name: &str, points: &[(i64, u64)]) -> Series {
        Series {
            name: name.to_string(),
            points: points.to_vec(),
        }
    }

    #[test]
    fn bars_for_few_x_values_and_lines_for_many() {
        // The series' colour (win green) marks its shapes. 120 bars fit.
        let many: Vec<(i64, u64)> = (0..60).map(|x| (x, 1)).collect();
        let c = bars(
            "x",
            "y",
            &[
                series("win", &many),
                series("lose", &many),
                series("tie", &[(0, 0)]),
            ],
            false,
        );
        assert_eq!(
            shapes(&c.svg, "rect", "fill=\"#D6453D\""),
            61,
            "60 bars and the legend"
        );
        let few = bars("x", "y", &[series("win", &[(0, 5), (1, 7)])], false);
        assert_eq!(
            shapes(&few.svg, "rect", "fill=\"#2E9E4F\""),
            3,
            "two bars and the legend"
        );
        assert_eq!(shapes(&few.svg, "polyline", "#2E9E4F"), 0);
        let many: Vec<(i64, u64)> = (0..200).map(|x| (x, x as u64 + 1)).collect();
        let lines = bars("x", "y", &[series("win", &many)], true);
        assert_eq!(
            shapes(&lines.svg, "polyline", "stroke=\"#2E9E4F\""),
            1,
            "{}",
            lines.svg
        );
    }

    #[test]
    fn the_legend_names_only_what_is_drawn_and_lone_bars_sit_on_their_x() {
        let c = bars(
            "x",
            "y",
            &[
                series("win", &[(1, 5), (3, 7)]),
                series("lose", &[(2, 6)]),
                series("tie", &[(0, 0)]),
            ],
            false,
        );
        assert!(
            c.svg.contains("\nwin\n") && c.svg.contains("\nlose\n"),
            "{}",
            c.svg
        );
        assert!(
            !c.svg.contains("\ntie\n"),
            "no ties, no tie in the legend: {}",
            c.svg
        );
        // Each x has one bar, centred on it: the gaps between the bars of
        // x = 1, 2 and 3 are equal, so no two read as a pair.
        let lefts: Vec<f64> = c
            .svg
            .split("<rect")
            .filter(|r| r.contains("fill=\"#2E9E4F\"") || r.contains("fill=\"#D6453D\""))
            .filter_map(|r| r.split("x=\"").nth(1)?.split('"').next()?.parse().ok())
            .collect();
        let mut bars_only: Vec<f64> = lefts.clone();
        bars_only.sort_by(f64::total_cmp);
        bars_only.truncate(3);
        let gaps: Vec<f64> = bars_only.windows(2).map(|w| w[1] - w[0]).collect();
        assert!((gaps[0] - gaps[1]).abs() <= 1.0, "{lefts:?}");
    }

    #[test]
    fn a_gap_breaks_the_line() {
        let points: Vec<(i64, u64)> = (0..200).filter(|&x| x != 50).map(|x| (x, 10)).collect();
        let c = bars("x", "y", &[series("win", &points)], false);
        assert_eq!(shapes(&c.svg, "polyline", "stroke=\"#2E9E4F\""), 2);
    }

    #[test]
    fn zeros_on_a_log_axis_are_noted_not_drawn() {
        let c = bars("x", "y", &[series("tie", &[(0, 0), (1, 100), (2, 0)])], true);
        assert!(
            c.notes
                .iter()
                .any(|n| n.starts_with("2 value and remoteness pairs with no position")),
            "{:?}",
            c.notes
        );
        let all_zero = bars("x", "y", &[series("tie", &[(0, 0)])], true);
        assert!(all_zero.svg.contains("<svg"));
        let s = scatter("x", "y", &[(0.0, 1.0), (10.0, 10.0), (f64::NAN, 1.0)], true, true);
        assert!(s.notes[0].starts_with("2 of 3 points"), "{:?}", s.notes);
    }

    #[test]
    fn heat_map_prints_counts_and_colours_zeros_apart() {
        let c = heat_map(
            "A",
            "B",
            &["win".into(), "lose".into()],
            &["win".into(), "lose".into()],
            &[vec![1234, 0], vec![5, 1]],
        );
        assert!(c.svg.contains("1,234"), "{}", c.svg);
        assert!(c.svg.contains("#F7F7F7") || c.svg.contains("#f7f7f7"));
        let ragged = heat_map("A", "B", &[], &[], &[vec![1], vec![], vec![2, 3, 4]]);
        assert!(ragged.svg.contains("<svg"));
        let zero = heat_map("A", "B", &[], &[], &[vec![0, 0], vec![0, 0]]);
        assert_eq!(zero.notes, ["every count is zero"]);
        let huge = heat_map("A", "B", &[], &[], &[vec![u64::MAX, 1]]);
        assert!(huge.svg.contains("18.4E"), "{}", huge.svg);
    }

    #[test]
    fn heat_colours_run_light_to_dark() {
        let lum = |c: RGBColor| u32::from(c.0) + u32::from(c.1) + u32::from(c.2);
        assert!(lum(heat(0.0)) > lum(heat(0.5)) && lum(heat(0.5)) > lum(heat(1.0)));
        assert_eq!(heat_level(1, 1), 1.0);
        assert_eq!(heat_level(1, 1000), 0.0);
    }
}
