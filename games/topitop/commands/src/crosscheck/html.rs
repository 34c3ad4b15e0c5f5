//! `crosscheck A B --report FILE.html`: the comparison as one
//! self-contained page of tables and charts.

use super::explain::{Comparison, WITH_REMOTENESS_NAMES};
use super::text::{thousands, values_present};
use topitop_cli::report::{Report, Series};

/// The report of `c`: tables and charts of everything the text shows.
pub fn page(c: &Comparison) -> Report {
    let mut r = Report::new(&format!("Topitop: {} against {}", c.a.rules, c.b.rules));
    summary(&mut r, c);
    values(&mut r, c);
    histograms(&mut r, c);
    causes(&mut r, c);
    tiers(&mut r, c);
    examples(&mut r, c);
    r
}

/// The start position, the files and the summary figures.
fn summary(r: &mut Report, c: &Comparison) {
    let d = &c.differ;
    r.paragraph(&format!(
        "Start position {}: A ({}) {}, B ({}) {}.",
        c.start.position, c.a.rules, c.start.a, c.b.rules, c.start.b
    ));
    r.table(
        "Databases compared",
        &["side", "file", "rules"],
        &[
            vec!["A".into(), c.a.file.clone(), c.a.rules.clone()],
            vec!["B".into(), c.b.file.clone(), c.b.rules.clone()],
        ],
    );
    r.table(
        "Summary",
        &["figure", "positions"],
        &[
            vec!["positions of play compared".into(), thousands(c.compared)],
            vec!["differ in value".into(), thousands(d.value)],
            vec!["differ in remoteness only".into(), thousands(d.remoteness_only)],
            vec![
                "cause: rules (own moves or primitive value differ)".into(),
                thousands(c.causes["rules"]),
            ],
            vec![
                "cause: propagated (only children's values differ)".into(),
                thousands(c.causes["propagated"]),
            ],
        ],
    );
}

/// The values under each side: the transition matrix and the remoteness shift.
fn values(r: &mut Report, c: &Comparison) {
    r.heading("Values under A and under B");
    let values = values_present(c);
    let labels: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    let cells: Vec<Vec<u64>> = values
        .iter()
        .map(|a| values.iter().map(|b| c.transitions[a][b]).collect())
        .collect();
    r.heat_map(
        "Transition matrix: positions by value under A and under B",
        &format!("value under A ({})", c.a.rules),
        &format!("value under B ({})", c.b.rules),
        &labels,
        &labels,
        &cells,
    );
    let shift: Vec<Series> = c
        .remoteness_shift
        .iter()
        .filter(|(_, m)| !m.is_empty())
        .map(|(v, m)| Series {
            name: v.to_string(),
            points: m.iter().map(|(&d, &n)| (i64::from(d), n)).collect(),
        })
        .collect();
    r.bar_chart(
        "Remoteness difference B minus A, positions of the same value",
        "remoteness under B minus under A",
        "positions",
        &shift,
        true,
    );
}

/// Positions by value and remoteness under each side.
fn histograms(r: &mut Report, c: &Comparison) {
    r.heading("Positions by value and remoteness");
    for (side, rules) in [("a", &c.a.rules), ("b", &c.b.rules)] {
        let series: Vec<Series> = WITH_REMOTENESS_NAMES
            .iter()
            .map(|v| Series {
                name: v.to_string(),
                points: c.remoteness_histogram[side][v]
                    .iter()
                    .enumerate()
                    .filter(|(_, &n)| n > 0)
                    .map(|(k, &n)| (k as i64, n))
                    .collect(),
            })
            .collect();
        r.bar_chart(
            &format!(
                "Positions by value and remoteness under {} ({rules})",
                side.to_uppercase()
            ),
            "remoteness",
            "positions",
            &series,
            true,
        );
    }
}

/// The differing positions by cause and transition.
fn causes(r: &mut Report, c: &Comparison) {
    r.heading("Differences by cause");
    let rows: Vec<Vec<String>> = c
        .transitions_by_cause
        .iter()
        .map(|t| {
            vec![
                t.cause.name().into(),
                t.a.into(),
                t.b.into(),
                thousands(t.positions),
            ]
        })
        .collect();
    r.table(
        "Differing positions by cause and transition",
        &["cause", "value under A", "value under B", "positions"],
        &rows,
    );
}

/// The differences by tier: against tier size, and the tiers with most.
fn tiers(r: &mut Report, c: &Comparison) {
    r.heading("Differences by tier");
    let points: Vec<(f64, f64)> = c
        .tiers
        .iter()
        .map(|t| (t.positions as f64, t.differences() as f64))
        .collect();
    r.scatter(
        "Differences by tier size",
        "positions of play in the tier",
        "positions that differ",
        &points,
        true,
        true,
    );
    let rows: Vec<Vec<String>> = c
        .tiers
        .iter()
        .take(50)
        .map(|t| {
            vec![
                t.tier.to_string(),
                t.name.clone(),
                thousands(t.positions),
                thousands(t.differences()),
                thousands(t.value),
                thousands(t.remoteness_only),
                thousands(t.rules),
                thousands(t.propagated),
            ]
        })
        .collect();
    r.table(
        &format!(
            "Tiers with most differences ({} of {} tiers differ; the first 50)",
            c.tiers.len(),
            c.tiers_compared
        ),
        &[
            "tier",
            "composition",
            "positions",
            "differ",
            "value",
            "remoteness",
            "rules",
            "propagated",
        ],
        &rows,
    );
}

/// Each example with both sides' best lines side by side.
fn examples(r: &mut Report, c: &Comparison) {
    r.heading("Examples");
    for e in &c.examples {
        r.paragraph(&format!(
            "[{}] {} (tier {}: {}): A {}, B {}.{}",
            e.cause.name(),
            e.position,
            e.tier,
            e.tier_name,
            e.a,
            e.b,
            e.reason
                .as_deref()
                .map(|w| format!(" Why: {w}."))
                .unwrap_or_default()
        ));
        let l = &e.lines;
        let cell = |p: Option<&super::lines::Ply>| {
            p.map_or_else(
                || ["".to_string(), "".to_string(), "".to_string()],
                |p| {
                    [
                        p.position.clone(),
                        p.outcome.to_string(),
                        p.best_move.clone().unwrap_or_else(|| "(end)".into()),
                    ]
                },
            )
        };
        let rows: Vec<Vec<String>> = (0..l.line_a.len().max(l.line_b.len()))
            .map(|i| {
                let mark = if Some(i) == l.diverge_at {
                    " (lines part)"
                } else {
                    ""
                };
                let mut row = vec![format!("{i}{mark}")];
                row.extend(cell(l.line_a.get(i)));
                row.extend(cell(l.line_b.get(i)));
                row
            })
            .collect();
        r.table(
            &format!("Best lines from {} ({})", e.position, e.cause.name()),
            &[
                "ply",
                "A position",
                "A value",
                "A move",
                "B position",
                "B value",
                "B move",
            ],
            &rows,
        );
        if let Some(n) = &l.nearest_rules_cause {
            let text = n.describe();
            r.paragraph(&format!("{}{}.", text[..1].to_uppercase(), &text[1..]));
        }
    }
}
