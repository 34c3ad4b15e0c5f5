//! The selected option (variant). GamesmanClassic's interface has no
//! context argument, so the option lives in one atomic; everything below it
//! takes the rules as a value.

use std::sync::atomic::{AtomicU8, Ordering};

use games_topitop_rules::{Rules, Ruleset, Variant};

use crate::globals;
use crate::guard::guard;

static OPTION: AtomicU8 = AtomicU8::new(0);

/// The rules of the selected option.
pub(crate) fn rules() -> Rules {
    let n = OPTION.load(Ordering::Relaxed);
    Rules::new(Ruleset::V1(Variant::new(i64::from(n)).unwrap_or_default()))
}

/// Selects option `n` (0..8); `kTieIsPossible` follows the tying rule.
pub(crate) fn select(n: u8) {
    let n = n & 7;
    OPTION.store(n, Ordering::Relaxed);
    globals::set_tie_possible(n & 2 != 0);
}

/// The number of options: 8.
#[no_mangle]
pub extern "C" fn NumberOfOptions() -> i32 {
    8
}

/// The selected option: 4·misère + 2·tyingRule + immediateLoss.
#[no_mangle]
pub extern "C" fn getOption() -> i32 {
    i32::from(OPTION.load(Ordering::Relaxed))
}

/// Selects an option. Like upstream, only bits 0–2 are read (so `--option 8`
/// is option 0 and a negative number keeps its low bits).
#[no_mangle]
pub extern "C" fn setOption(option: i32) {
    guard((), || select((option & 7) as u8));
}
