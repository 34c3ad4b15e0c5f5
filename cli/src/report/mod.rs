//! Self-contained HTML reports: headings, text, tables and charts in one
//! file that opens anywhere with nothing fetched from the network (the
//! style is inline, the charts are inline SVG drawn by plotters, there is
//! no script).
//!
//! The page is also well-formed XML (every element closed, only XML's own
//! entities), so tests and tools can read it with any XML parser.
//!
//! Every figure and table carries an `id` made from its caption (see
//! [`id_of`]), and the page lists them at the top when there are several.

mod axis;
mod charts;

pub use axis::{grouped, grouped_by};

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use crate::output::Output;

/// The style sheet, inlined into every page.
const STYLE: &str = include_str!("style.css");

/// One named series of counts by an integer x, for [`Report::bar_chart`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Series {
    /// Shown in the legend. `win`, `lose`, `tie` and `draw` get the colours
    /// GamesmanUni uses for them.
    pub name: String,
    /// (x, count) pairs in any order; counts of a repeated x add up.
    pub points: Vec<(i64, u64)>,
}

/// A report being built: add parts in reading order, then
/// [`Report::write_to`] it (or take [`Report::to_html`]).
#[derive(Clone, Debug)]
pub struct Report {
    title: String,
    /// The body, as finished HTML fragments.
    parts: Vec<String>,
    /// (id, caption) of each figure and table, for the contents list.
    contents: Vec<(String, String)>,
    ids: HashSet<String>,
}

/// Which kind of block an id names: figures are `fig-…`, tables `table-…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A chart ([`Report::bar_chart`], [`Report::heat_map`], [`Report::scatter`]).
    Figure,
    /// A table ([`Report::table`]).
    Table,
}

/// The `id` a figure or table captioned `caption` gets (the first one
/// with that caption; later ones add `-2`, `-3`, …): `fig-` or `table-`,
/// then the caption's letters and digits in lower case, every other run
/// of characters a single `-`. "Positions by value & remoteness" is
/// `fig-positions-by-value-remoteness`.
pub fn id_of(kind: Kind, caption: &str) -> String {
    let mut slug = String::new();
    for c in caption.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    let prefix = match kind {
        Kind::Figure => "fig",
        Kind::Table => "table",
    };
    if slug.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix}-{slug}")
    }
}

/// `text` safe in HTML (and XML) text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // XML 1.0 forbids most control characters even as references:
            // show them as U+FFFD rather than write an unreadable file.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// True when `cell` reads as a number (`-12`, `3.5`, `1e9`, `1 234`,
/// `12.5%`, `1,234`), so its column aligns it right.
fn is_numeric(cell: &str) -> bool {
    let s = cell.trim();
    let s = s.strip_suffix('%').unwrap_or(s).trim_end();
    let s = s.strip_prefix(['-', '+', '\u{2212}']).unwrap_or(s);
    let mut digits = 0;
    let mut seen_exponent = false;
    let mut previous = ' ';
    for c in s.chars() {
        match c {
            '0'..='9' => digits += 1,
            // Group separators: comma, underscore, space, thin spaces.
            ',' | '_' | ' ' | '\u{2009}' | '\u{202F}' if digits > 0 && !seen_exponent => {}
            '.' if !seen_exponent => {}
            'e' | 'E' if digits > 0 && !seen_exponent => seen_exponent = true,
            '-' | '+' if matches!(previous, 'e' | 'E') => {}
            _ => return false,
        }
        previous = c;
    }
    digits > 0 && !matches!(previous, 'e' | 'E' | '-' | '+')
}

impl Report {
    /// An empty report titled `title` (the page's title and top heading).
    pub fn new(title: &str) -> Report {
        Report {
            title: title.to_string(),
            parts: Vec::new(),
            contents: Vec::new(),
            ids: HashSet::new(),
        }
    }

    /// A section heading.
    pub fn heading(&mut self, text: &str) {
        self.parts.push(format!("<h2>{}</h2>", escape(text)));
    }

    /// A paragraph of plain text (escaped: no markup).
    pub fn paragraph(&mut self, text: &str) {
        self.parts.push(format!("<p>{}</p>", escape(text)));
    }

    /// A fresh id for a block of `kind` captioned `caption`, recorded for
    /// the contents list.
    fn claim_id(&mut self, kind: Kind, caption: &str) -> String {
        let base = id_of(kind, caption);
        let mut id = base.clone();
        let mut n = 1;
        while !self.ids.insert(id.clone()) {
            n += 1;
            id = format!("{base}-{n}");
        }
        self.contents.push((id.clone(), caption.to_string()));
        id
    }

    /// A table with a caption and a header row. Rows shorter than the
    /// header are padded with empty cells; cells that read as numbers are
    /// aligned right (and their column's header with them).
    pub fn table(&mut self, caption: &str, headers: &[&str], rows: &[Vec<String>]) {
        let id = self.claim_id(Kind::Table, caption);
        let width = rows.iter().map(Vec::len).max().unwrap_or(0).max(headers.len());
        // A column is numeric when every non-empty cell in it is.
        let numeric: Vec<bool> = (0..width)
            .map(|c| {
                let mut cells = rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .filter(|s| !s.trim().is_empty())
                    .peekable();
                cells.peek().is_some() && cells.all(|s| is_numeric(s))
            })
            .collect();
        let class = |numeric: bool| if numeric { " class=\"num\"" } else { "" };
        let mut h = String::new();
        let _ = write!(
            h,
            "<div class=\"table\"><table id=\"{id}\">\n<caption>{}</caption>\n",
            escape(caption)
        );
        if !headers.is_empty() {
            h.push_str("<thead><tr>");
            for (c, head) in headers.iter().enumerate() {
                let _ = write!(h, "<th{}>{}</th>", class(numeric[c]), escape(head));
            }
            h.push_str("</tr></thead>\n");
        }
        h.push_str("<tbody>\n");
        for row in rows {
            h.push_str("<tr>");
            for c in 0..width {
                let cell = row.get(c).map_or("", String::as_str);
                let _ = write!(h, "<td{}>{}</td>", class(is_numeric(cell)), escape(cell));
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</tbody></table></div>");
        self.parts.push(h);
    }

    /// Adds a chart as a figure with its caption and notes.
    fn figure(&mut self, caption: &str, chart: charts::Chart) {
        let id = self.claim_id(Kind::Figure, caption);
        let mut h = String::new();
        let _ = write!(
            h,
            "<figure id=\"{id}\">\n{}\n<figcaption>{}",
            chart.svg.trim_end(),
            escape(caption)
        );
        for note in &chart.notes {
            let _ = write!(h, " <span class=\"note\">({})</span>", escape(note));
        }
        h.push_str("</figcaption>\n</figure>");
        self.parts.push(h);
    }

    /// Counts by an integer x (e.g. remoteness) for several named series
    /// (e.g. win, lose, tie), as grouped bars, or as lines (joining
    /// neighbouring x values only) when there would be more than 120 bars
    /// (x values from first to last, times series with a count). `log_y`
    /// for counts spanning decades; zero counts are then left out (the
    /// caption says how many).
    pub fn bar_chart(&mut self, caption: &str, x_label: &str, y_label: &str, series: &[Series], log_y: bool) {
        self.figure(caption, charts::bars(x_label, y_label, series, log_y));
    }

    /// A matrix of counts (e.g. value in A × value in B) as a heat map with
    /// the numbers printed in the cells (rounded, as 12.3k, where the exact
    /// number does not fit), colour on a log scale. `cells[r][c]` is row
    /// `r`, column `c`; short rows are padded with zeros, missing labels
    /// are the row or column number.
    pub fn heat_map(
        &mut self,
        caption: &str,
        row_axis: &str,
        col_axis: &str,
        row_labels: &[String],
        col_labels: &[String],
        cells: &[Vec<u64>],
    ) {
        self.figure(
            caption,
            charts::heat_map(row_axis, col_axis, row_labels, col_labels, cells),
        );
    }

    /// Points (x, y), e.g. (tier size, differences), optionally on log
    /// axes. Points a log axis cannot show (zero, negative) and points that
    /// are not numbers are left out, and the caption says how many.
    pub fn scatter(
        &mut self,
        caption: &str,
        x_label: &str,
        y_label: &str,
        points: &[(f64, f64)],
        log_x: bool,
        log_y: bool,
    ) {
        self.figure(caption, charts::scatter(x_label, y_label, points, log_x, log_y));
    }

    /// The whole page.
    pub fn to_html(&self) -> String {
        let mut h = String::new();
        let title = escape(&self.title);
        let _ = write!(
            h,
            "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n\
             <meta charset=\"utf-8\"/>\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
             <meta name=\"generator\" content=\"topitop {}\"/>\n\
             <title>{title}</title>\n<style>\n{}</style>\n</head>\n<body>\n<main>\n<h1>{title}</h1>\n",
            escape(env!("TOPITOP_VERSION")),
            STYLE
        );
        // A contents list pays off once there is something to skip to.
        if self.contents.len() >= 3 {
            h.push_str("<nav><ul>\n");
            for (id, caption) in &self.contents {
                let _ = writeln!(h, "<li><a href=\"#{id}\">{}</a></li>", escape(caption));
            }
            h.push_str("</ul></nav>\n");
        }
        for part in &self.parts {
            h.push_str(part);
            h.push('\n');
        }
        let _ = write!(
            h,
            "</main>\n<footer>Written by topitop {}. Self-contained: no scripts, nothing fetched.</footer>\n\
             </body>\n</html>\n",
            escape(env!("TOPITOP_VERSION"))
        );
        h
    }

    /// The section every database report has: a heading, what remoteness
    /// is, and the chart of positions by value (win, lose, tie: the
    /// histograms of `by_value`, indexed by remoteness) and remoteness.
    pub fn values_and_remoteness(&mut self, by_value: &[Vec<u64>]) {
        self.heading("Values and remoteness");
        self.paragraph(
            "Remoteness is the number of moves to the end of the game under perfect play: \
             the winner hurries, the loser delays. Draws have none and are not shown.",
        );
        let series: Vec<Series> = ["win", "lose", "tie"]
            .iter()
            .zip(by_value)
            .map(|(v, h)| Series {
                name: v.to_string(),
                points: h.iter().enumerate().map(|(r, &n)| (r as i64, n)).collect(),
            })
            .collect();
        self.bar_chart(
            "Positions by value and remoteness",
            "remoteness (moves)",
            "positions (log scale)",
            &series,
            true,
        );
    }

    /// Writes the page to `out`, opened beforehand (so that a path that
    /// cannot be written fails before the work of the report); returns the
    /// path written, if any (none for standard output).
    ///
    /// # Errors
    /// Writing failed; the target is left as it was.
    pub fn write_to(&self, mut out: Output) -> anyhow::Result<Option<PathBuf>> {
        out.writer().write_all(self.to_html().as_bytes())?;
        out.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that `html` is well-formed XML with a tiny parser of our own
    /// (the integration test also checks with a real one): tags nest and
    /// close, attributes are quoted, `&` starts only XML's entities.
    fn assert_well_formed(html: &str) {
        let body = html.strip_prefix("<!DOCTYPE html>\n").expect("doctype first");
        let mut stack: Vec<&str> = Vec::new();
        let mut rest = body;
        while let Some(i) = rest.find(['<', '&']) {
            let text = &rest[..i];
            assert!(
                !text.contains('>'),
                "stray > before {:?}",
                &rest[i..(i + 40).min(rest.len())]
            );
            rest = &rest[i..];
            if rest.starts_with('&') {
                let end = rest.find(';').expect("entity ends");
                let name = &rest[1..end];
                assert!(
                    ["amp", "lt", "gt", "quot", "apos"].contains(&name)
                        || name
                            .strip_prefix('#')
                            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit())),
                    "entity {name}"
                );
                rest = &rest[end + 1..];
                continue;
            }
            let end = rest.find('>').expect("tag ends");
            let tag = &rest[1..end];
            rest = &rest[end + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(stack.pop(), Some(name.trim()), "closing {name}");
            } else if !tag.ends_with('/') {
                let name = tag.split_whitespace().next().unwrap();
                stack.push(name);
            }
            // Attribute values are quoted: an even number of quotes.
            assert_eq!(tag.matches('"').count() % 2, 0, "{tag}");
        }
        assert!(stack.is_empty(), "unclosed {stack:?}");
    }

    fn sample() -> Report {
        let mut r = Report::new("Stats <of> \"topitop\" & co");
        r.heading("Totals & more");
        r.paragraph("a < b > c & 'd' \"e\"");
        r.table(
            "Totals",
            &["figure", "count"],
            &[
                vec!["win".into(), "12".into()],
                vec!["lose <x>".into(), "1 234".into()],
                vec!["short".into()],
            ],
        );
        r.bar_chart(
            "By value & remoteness",
            "remoteness",
            "positions",
            &[
                Series {
                    name: "win".into(),
                    points: vec![(0, 10), (1, 1000), (2, 0)],
                },
                Series {
                    name: "<lose>".into(),
                    points: vec![(1, 5)],
                },
            ],
            true,
        );
        r.heat_map(
            "A × B",
            "A",
            "B",
            &["win".into(), "lose".into()],
            &["win".into(), "lose".into()],
            &[vec![1, 2], vec![3, 40000]],
        );
        r.scatter(
            "Tier size vs positions",
            "tier size",
            "positions",
            &[(1.0, 2.0), (1e6, 3e4)],
            true,
            true,
        );
        r
    }

    #[test]
    fn the_page_is_well_formed_and_names_every_part() {
        let html = sample().to_html();
        assert_well_formed(&html);
        for id in [
            "table-totals",
            "fig-by-value-remoteness",
            "fig-a-b",
            "fig-tier-size-vs-positions",
        ] {
            assert!(html.contains(&format!("id=\"{id}\"")), "{id}");
            assert!(html.contains(&format!("href=\"#{id}\"")), "contents list {id}");
        }
        assert_eq!(html.matches("<figure").count(), 3);
        assert_eq!(html.matches("<svg").count(), 3);
        assert_eq!(html.matches("<figcaption>").count(), 3);
    }

    #[test]
    fn text_is_escaped_everywhere() {
        let html = sample().to_html();
        assert!(html.contains("<title>Stats &lt;of&gt; &quot;topitop&quot; &amp; co</title>"));
        assert!(html.contains("<p>a &lt; b &gt; c &amp; &#39;d&#39; &quot;e&quot;</p>"));
        assert!(html.contains("<td>lose &lt;x&gt;</td>"));
        // plotters escapes the legend too.
        assert!(html.contains("&lt;lose&gt;"));
        assert!(!html.contains("<lose>") && !html.contains("<x>") && !html.contains("<of>"));
        assert_eq!(escape("a\u{1}b"), "a\u{FFFD}b");
    }

    #[test]
    fn nothing_is_fetched() {
        let html = sample().to_html();
        for bad in ["src=", "<script", "<link", "@import", "url("] {
            assert!(!html.contains(bad), "{bad}");
        }
        assert!(!html.contains("href=\"http"));
    }

    #[test]
    fn each_chart_kind_draws_an_svg_under_its_caption() {
        let html = sample().to_html();
        for (id, caption) in [
            ("fig-by-value-remoteness", "By value &amp; remoteness"),
            ("fig-a-b", "A × B"),
            ("fig-tier-size-vs-positions", "Tier size vs positions"),
        ] {
            let start = html.find(&format!("<figure id=\"{id}\">")).unwrap();
            let figure = &html[start..start + html[start..].find("</figure>").unwrap()];
            assert!(figure.contains("<svg"), "{id}");
            assert!(figure.contains(&format!("<figcaption>{caption}")), "{id}");
        }
    }

    #[test]
    fn edge_cases_draw_without_panicking() {
        let mut r = Report::new("");
        r.bar_chart("empty", "x", "y", &[], false);
        r.bar_chart("empty series", "x", "y", &[Series::default()], true);
        r.bar_chart(
            "one point",
            "x",
            "y",
            &[Series {
                name: "tie".into(),
                points: vec![(7, 1)],
            }],
            true,
        );
        r.bar_chart(
            "huge",
            "x",
            "y",
            &[Series {
                name: "a".into(),
                points: vec![(i64::MIN, u64::MAX), (i64::MAX, u64::MAX), (0, u64::MAX)],
            }],
            false,
        );
        r.bar_chart(
            "all zero",
            "x",
            "y",
            &[Series {
                name: "a".into(),
                points: vec![(0, 0), (1, 0)],
            }],
            false,
        );
        r.heat_map("no cells", "a", "b", &[], &[], &[]);
        r.heat_map("zeros", "a", "b", &[], &[], &vec![vec![0; 3]; 3]);
        r.heat_map("one", "a", "b", &["r".into()], &["c".into()], &[vec![u64::MAX]]);
        r.scatter("no points", "x", "y", &[], false, false);
        r.scatter("one point", "x", "y", &[(3.0, 4.0)], false, false);
        r.scatter("one point log", "x", "y", &[(3.0, 4.0)], true, true);
        r.scatter("zeros log", "x", "y", &[(0.0, 0.0)], true, true);
        r.scatter(
            "infinite",
            "x",
            "y",
            &[(f64::INFINITY, 1.0), (1.0, f64::NAN)],
            false,
            false,
        );
        r.scatter(
            "huge",
            "x",
            "y",
            &[(0.0, 0.0), (u64::MAX as f64, 1e300)],
            false,
            false,
        );
        r.table("empty", &[], &[]);
        r.table("empty", &["a"], &[vec![], vec!["1".into(), "2".into()]]);
        let html = r.to_html();
        assert_well_formed(&html);
        assert_eq!(html.matches("<svg").count(), 14);
        assert!(html.contains("id=\"table-empty\"") && html.contains("id=\"table-empty-2\""));
        assert!(html.contains("no data"));
    }

    #[test]
    fn numeric_cells_align_right() {
        for yes in [
            "0", "-12", "3.5", "1e9", "1 234", "12.5%", "1,234", "+7", "2.5E-3",
        ] {
            assert!(is_numeric(yes), "{yes}");
        }
        for no in [
            "", "win", "1.2.3x", "e5", "-", "12 MB", "1e", "0x10", "NaN", "inf",
        ] {
            assert!(!is_numeric(no), "{no}");
        }
        let mut r = Report::new("t");
        r.table("t", &["name", "n"], &[vec!["a".into(), "12".into()]]);
        let html = r.to_html();
        assert!(html.contains("<th>name</th><th class=\"num\">n</th>"));
        assert!(html.contains("<td>a</td><td class=\"num\">12</td>"));
    }

    #[test]
    fn ids_come_from_captions() {
        assert_eq!(
            id_of(Kind::Figure, "Positions by value & remoteness"),
            "fig-positions-by-value-remoteness"
        );
        assert_eq!(
            id_of(Kind::Table, "  Totals (v1, 2/0/2/2)  "),
            "table-totals-v1-2-0-2-2"
        );
        assert_eq!(id_of(Kind::Table, "§§"), "table");
    }

    #[test]
    fn write_replaces_the_file() {
        let dir = std::env::temp_dir().join(format!("topitop-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.html");
        std::fs::write(&path, "old").unwrap();
        sample()
            .write_to(crate::output::Output::open(Some(&path), &[]).unwrap())
            .unwrap();
        assert!(std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("<!DOCTYPE html>"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
