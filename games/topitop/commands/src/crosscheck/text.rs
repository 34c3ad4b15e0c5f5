//! The text report of `crosscheck A B`.

use std::io::Write;

use super::explain::{Comparison, Example, VALUE_NAMES};

/// Tier rows shown without `--all-tiers`.
const TIERS_SHOWN: usize = 15;

/// Remoteness differences listed per value, the most frequent.
const SHIFTS_SHOWN: usize = 9;

/// `n` with thousands separated by commas.
pub fn thousands(n: u64) -> String {
    topitop_cli::report::grouped_by(n, ',')
}

/// The values that occur on either side (unsolved only when present).
pub fn values_present(c: &Comparison) -> Vec<&'static str> {
    VALUE_NAMES
        .iter()
        .copied()
        .filter(|&v| {
            v != "unsolved"
                || c.transitions[v].values().any(|&n| n > 0)
                || c.transitions.values().any(|row| row[v] > 0)
        })
        .collect()
}

/// Writes the report.
pub fn write(out: &mut impl Write, c: &Comparison, all_tiers: bool) -> std::io::Result<()> {
    writeln!(
        out,
        "start {}: A ({}) {}, B ({}) {}",
        c.start.position, c.a.rules, c.start.a, c.b.rules, c.start.b
    )?;
    writeln!(out, "A: {} (rules {})", c.a.file, c.a.rules)?;
    writeln!(out, "B: {} (rules {})", c.b.file, c.b.rules)?;
    let d = &c.differ;
    writeln!(
        out,
        "compared {} positions of play (budget {}, one per symmetry class): {} differ, {} in value and {} in remoteness only",
        thousands(c.compared),
        c.budget,
        thousands(d.value + d.remoteness_only),
        thousands(d.value),
        thousands(d.remoteness_only)
    )?;
    writeln!(
        out,
        "causes: {} rules (the position's own moves or primitive value differ), {} propagated (same moves and primitive value; only children's values differ)",
        thousands(c.causes["rules"]),
        thousands(c.causes["propagated"])
    )?;

    values(out, c)?;
    if !c.transitions_by_cause.is_empty() {
        writeln!(out, "\ndifferences by cause and transition (A → B):")?;
        for t in &c.transitions_by_cause {
            let what = if t.a == t.b {
                format!("{}, other remoteness", t.a)
            } else {
                format!("{} → {}", t.a, t.b)
            };
            writeln!(
                out,
                "  {:<11} {what:<24} {:>12}",
                t.cause.name(),
                thousands(t.positions)
            )?;
        }
    }

    if !c.tiers.is_empty() {
        tiers(out, c, all_tiers)?;
    }
    if !c.examples.is_empty() {
        writeln!(out, "\nexamples (one per cause and common transition):")?;
        for e in &c.examples {
            example(out, c, e)?;
        }
    }
    Ok(())
}

/// The transition matrix of values, and the commonest remoteness shifts
/// of positions whose value is the same.
fn values(out: &mut impl Write, c: &Comparison) -> std::io::Result<()> {
    let values = values_present(c);
    writeln!(out, "\nvalue under A (rows) and under B (columns):")?;
    write!(out, "{:>10}", "")?;
    for v in &values {
        write!(out, " {v:>12}")?;
    }
    writeln!(out)?;
    for a in &values {
        write!(out, "{a:>10}")?;
        for b in &values {
            write!(out, " {:>12}", thousands(c.transitions[a][b]))?;
        }
        writeln!(out)?;
    }

    writeln!(
        out,
        "\nremoteness B − A where the value is the same (most frequent differences):"
    )?;
    for (v, shifts) in &c.remoteness_shift {
        if shifts.is_empty() {
            continue;
        }
        let mut top: Vec<(&i32, &u64)> = shifts.iter().collect();
        top.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
        let more = top.len().saturating_sub(SHIFTS_SHOWN);
        top.truncate(SHIFTS_SHOWN);
        top.sort();
        let list: Vec<String> = top
            .iter()
            .map(|(d, n)| format!("{d:+}: {}", thousands(**n)))
            .collect();
        let tail = if more > 0 {
            format!("  (and {more} more)")
        } else {
            String::new()
        };
        writeln!(out, "  {v:<5} {}{tail}", list.join("  "))?;
    }
    Ok(())
}

/// The tiers with most differences (all of them with `all_tiers`).
fn tiers(out: &mut impl Write, c: &Comparison, all_tiers: bool) -> std::io::Result<()> {
    let shown = if all_tiers {
        c.tiers.len()
    } else {
        c.tiers.len().min(TIERS_SHOWN)
    };
    let which = if shown == c.tiers.len() {
        "all of them".to_string()
    } else {
        format!("the {shown} with most (--all-tiers for all)")
    };
    writeln!(
        out,
        "\ntiers: {} of {} have differences; {which}:",
        thousands(c.tiers.len() as u64),
        thousands(c.tiers_compared as u64)
    )?;
    writeln!(
        out,
        "{:>10} {:>10} {:>10} {:>10} {:>10} {:>10}  tier: composition",
        "differ", "value", "remoteness", "rules", "propagated", "positions"
    )?;
    for r in &c.tiers[..shown] {
        writeln!(
            out,
            "{:>10} {:>10} {:>10} {:>10} {:>10} {:>10}  {}: {}",
            thousands(r.differences()),
            thousands(r.value),
            thousands(r.remoteness_only),
            thousands(r.rules),
            thousands(r.propagated),
            thousands(r.positions),
            r.tier,
            r.name
        )?;
    }
    Ok(())
}

fn example(out: &mut impl Write, c: &Comparison, e: &Example) -> std::io::Result<()> {
    writeln!(out, "\n[{}] {}: A {}, B {}", e.cause.name(), e.position, e.a, e.b)?;
    writeln!(out, "  tier {}: {}", e.tier, e.tier_name)?;
    if let Some(r) = &e.reason {
        writeln!(out, "  why: {r}")?;
    }
    let l = &e.lines;
    let cell = |p: Option<&super::lines::Ply>| match p {
        Some(p) => format!(
            "{:<13} {:<11} {}",
            p.position,
            p.outcome.to_string(),
            p.best_move.as_deref().unwrap_or("(end)")
        ),
        None => String::new(),
    };
    writeln!(
        out,
        "  {:>4}  {:<32}  B ({})",
        "ply",
        format!("A ({})", c.a.rules),
        c.b.rules
    )?;
    for i in 0..l.line_a.len().max(l.line_b.len()) {
        let mark = if Some(i) == l.diverge_at { "*" } else { " " };
        writeln!(
            out,
            "  {i:>3}{mark}  {:<32}  {}",
            cell(l.line_a.get(i)),
            cell(l.line_b.get(i))
        )?;
    }
    match l.diverge_at {
        Some(d) => writeln!(out, "  * the best lines part at ply {d}")?,
        None => writeln!(out, "  the best lines agree to the end")?,
    }
    match &l.nearest_rules_cause {
        Some(n) => writeln!(out, "  {}", n.describe())?,
        None => writeln!(out, "  no position whose own rules differ found within reach")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(43_614_788), "43,614,788");
    }
}
