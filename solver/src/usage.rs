//! CPU time used by this process, for benchmarks and the solve's report.

use std::time::Duration;

/// User plus system CPU time of this process so far (all its threads,
/// finished ones included), read from `/proc/self/stat`; `None` where the
/// system does not say (not Linux). The kernel counts in ticks of 1/100 s.
pub fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name, field 2, is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of the line: the 12th and 13th after the name.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_grows_with_work() {
        let Some(before) = cpu_time() else {
            eprintln!("no /proc/self/stat here: skipped");
            return;
        };
        // Spin until the count has grown by 200 ms of CPU: on a loaded
        // machine that takes longer than 200 ms of wall time, so the
        // deadline is generous; a count that never moves fails it.
        let start = std::time::Instant::now();
        let mut x = 1u64;
        let mut after = before;
        while after < before + Duration::from_millis(200) && start.elapsed() < Duration::from_secs(60) {
            for _ in 0..1_000_000 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            after = cpu_time().unwrap();
        }
        assert!(
            after >= before + Duration::from_millis(200),
            "{before:?} -> {after:?} in {:?}",
            start.elapsed()
        );
    }
}
