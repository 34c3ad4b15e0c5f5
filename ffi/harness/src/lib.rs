//! Safe access to the C harness (`harness.c`), which stands in for
//! GamesmanClassic's core and drives the topitop module only through its C
//! ABI. The harness keeps the core's global state, so every use goes
//! through one [`Harness`] lock.

use std::ffi::{c_char, c_int, c_long, CStr, CString};
use std::sync::{Mutex, MutexGuard};

// Links the module library whose C symbols the harness calls.
use topitop_gamesman as _;

extern "C" {
    fn harness_initialize(option: c_int, interact: c_int);
    fn harness_describe_tier_position(tier: u64, tier_position: u64, out: *mut c_char, cap: usize) -> c_int;
    fn harness_describe_string(position: *const c_char, out: *mut c_char, cap: usize) -> c_int;
    fn harness_describe_tier(tier: u64, out: *mut c_char, cap: usize);
    fn harness_bad_inputs() -> c_int;
    fn harness_play(moves: *const c_char, path: *const c_char, final_position: *mut c_char) -> c_int;
    fn harness_menu(keys: *const c_char) -> c_int;
    fn harness_globals(out: *mut c_char, cap: usize);
    fn harness_interact_flags() -> c_int;
    fn harness_live_nodes() -> c_long;
    fn harness_position_string(text: *const c_char, out: *mut c_char) -> c_int;
    fn harness_text_input(text: *const c_char, valid: *mut c_int) -> c_int;
    fn harness_move_string(mv: c_int, out: *mut c_char);
}

static LOCK: Mutex<()> = Mutex::new(());

/// Exclusive use of the harness and the module's global state.
pub struct Harness {
    _guard: MutexGuard<'static, ()>,
}

const DESCRIPTION: usize = 1 << 16;
// TOPITOP_POSITION_BUFFER and TOPITOP_MOVE_BUFFER of the module header.
const POSITION_BUFFER: usize = 128;
const MOVE_BUFFER: usize = 32;

fn text(buf: &[u8]) -> String {
    CStr::from_bytes_until_nul(buf).map_or_else(|_| String::new(), |s| s.to_string_lossy().into_owned())
}

impl Harness {
    /// Takes the harness, then sets `option` and runs InitializeGame as the
    /// core does at start-up (`interact` as with `--interact`).
    pub fn start(option: i32, interact: bool) -> Harness {
        let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: plain integers; the lock serialises access to the harness.
        unsafe { harness_initialize(option, c_int::from(interact)) };
        Harness { _guard: guard }
    }

    /// What the module says about `tier_position` of `tier`, reached the way
    /// the tier solver reaches it (window on the tier first).
    pub fn describe_tier_position(&mut self, tier: u64, tier_position: u64) -> String {
        let mut out = vec![0u8; DESCRIPTION];
        // SAFETY: `out` has `DESCRIPTION` bytes, as passed.
        let failures = unsafe {
            harness_describe_tier_position(tier, tier_position, out.as_mut_ptr().cast(), DESCRIPTION)
        };
        assert_eq!(failures, 0);
        text(&out)
    }

    /// What the module says about a position string after StringToPosition,
    /// or `None` when the module rejects the string.
    pub fn describe_string(&mut self, position: &str) -> Option<String> {
        let c = CString::new(position).ok()?;
        let mut out = vec![0u8; DESCRIPTION];
        // SAFETY: a NUL-terminated input and an output of the size passed.
        let ok = unsafe { harness_describe_string(c.as_ptr(), out.as_mut_ptr().cast(), DESCRIPTION) };
        (ok != 0).then(|| text(&out))
    }

    /// `size|name|children` of a tier through the installed hooks.
    pub fn describe_tier(&mut self, tier: u64) -> String {
        let mut out = vec![0u8; 4096];
        // SAFETY: an output of the size passed.
        unsafe { harness_describe_tier(tier, out.as_mut_ptr().cast(), out.len()) };
        text(&out)
    }

    /// A bit mask of invalid-input answers that were wrong (0 = all right).
    pub fn bad_inputs(&mut self) -> i32 {
        // SAFETY: no arguments.
        unsafe { harness_bad_inputs() }
    }

    /// Plays the typed `moves` in the text interface, writing its output to
    /// `path`; returns the plies played and the final position string.
    pub fn play(&mut self, moves: &str, path: &std::path::Path) -> (i32, String) {
        let m = CString::new(moves).expect("no NUL in moves");
        let p = CString::new(path.to_string_lossy().as_bytes()).expect("no NUL in path");
        let mut last = [0u8; 128];
        // SAFETY: NUL-terminated inputs; `last` has the 128 bytes a position
        // string buffer needs.
        let plies = unsafe { harness_play(m.as_ptr(), p.as_ptr(), last.as_mut_ptr().cast()) };
        (plies, text(&last))
    }

    /// Drives the option menu with `keys`; returns the option afterwards.
    pub fn menu(&mut self, keys: &str) -> i32 {
        let k = CString::new(keys).expect("no NUL in keys");
        // SAFETY: a NUL-terminated input.
        unsafe { harness_menu(k.as_ptr()) }
    }

    /// The module's globals and the core flags InitializeGame sets.
    pub fn globals(&mut self) -> String {
        let mut out = [0u8; 1024];
        // SAFETY: an output of the size passed.
        unsafe { harness_globals(out.as_mut_ptr().cast(), out.len()) };
        text(&out)
    }

    /// The core's gLoadTierdbArray after InitializeGame.
    pub fn load_tierdb_array(&mut self) -> bool {
        // SAFETY: no arguments.
        unsafe { harness_interact_flags() != 0 }
    }

    /// StringToPosition on `input` (any length), then PositionToString of
    /// the position it returns; `None` when the module rejects the input.
    pub fn string_to_position(&mut self, input: &CStr) -> Option<String> {
        let mut out = [0u8; POSITION_BUFFER];
        // SAFETY: a NUL-terminated input; `out` has the
        // TOPITOP_POSITION_BUFFER bytes PositionToString writes into.
        let ok = unsafe { harness_position_string(input.as_ptr(), out.as_mut_ptr().cast()) };
        (ok != 0).then(|| text(&out))
    }

    /// ValidTextInput's answer for `input` and ConvertTextInputToMove's
    /// code (-1 for input that is not a move).
    pub fn text_input(&mut self, input: &CStr) -> (bool, i32) {
        let mut valid: c_int = 0;
        // SAFETY: a NUL-terminated input and a live out-parameter.
        let code = unsafe { harness_text_input(input.as_ptr(), &mut valid) };
        (valid != 0, code)
    }

    /// MoveToString of `code`: empty for a code no move has.
    pub fn move_to_string(&mut self, code: i32) -> String {
        let mut out = [0u8; MOVE_BUFFER];
        // SAFETY: `out` has the TOPITOP_MOVE_BUFFER bytes MoveToString
        // writes into.
        unsafe { harness_move_string(code, out.as_mut_ptr().cast()) };
        text(&out)
    }

    /// List nodes allocated and not yet freed.
    pub fn live_nodes(&mut self) -> c_long {
        // SAFETY: no arguments.
        unsafe { harness_live_nodes() }
    }
}
