//! Safe wrappers over the GamesmanClassic core: the only place that calls
//! into it, reads its globals or touches raw buffers.

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use games_topitop_rules::{gchash, Budget, Position, Tier};

use crate::globals::number_of_positions;
use crate::raw;
use crate::raw::{MOVE, MOVELIST, POSITION, TIER, TIERLIST, TIERPOSITION};

/// The engine position at window position `p`, or `None` if the hash window
/// is not set up or `p` lies outside it. Checked before asking the core,
/// whose own check exits the program.
pub(crate) fn position_at(p: POSITION) -> Option<Position> {
    // SAFETY: reads an integer global of the core.
    let initialised = unsafe { ptr::addr_of!(raw::gHashWindowInitialized).read() } != 0;
    if !initialised || p >= number_of_positions() {
        return None;
    }
    let mut tier_position: TIERPOSITION = 0;
    let mut tier: TIER = 0;
    // SAFETY: the window is initialised and `p` is inside it, so the core
    // writes both out-parameters, which point to live locals.
    unsafe { raw::gUnhashToTierPosition(p, &mut tier_position, &mut tier) };
    gchash::unhash(tier, tier_position, Budget::STANDARD).ok()
}

/// The tiers of the current hash window (without the leading kBadTier).
fn window_tiers() -> Vec<TIER> {
    // SAFETY: integer and pointer globals of the core; when the window is
    // initialised, gTierInHashWindow holds gNumTiersInHashWindow entries.
    unsafe {
        if ptr::addr_of!(raw::gHashWindowInitialized).read() == 0 {
            return Vec::new();
        }
        let n = ptr::addr_of!(raw::gNumTiersInHashWindow).read();
        let tiers = ptr::addr_of!(raw::gTierInHashWindow).read();
        if tiers.is_null() || n <= 1 {
            return Vec::new();
        }
        std::slice::from_raw_parts(tiers, n as usize)[1..].to_vec()
    }
}

/// The window position of `pos`, or `None` if its tier is not in the
/// current window (the core would exit on it).
pub(crate) fn window_position(pos: Position) -> Option<POSITION> {
    let (tier, tier_position) = gchash::hash(pos);
    if !window_tiers().contains(&tier.number()) {
        return None;
    }
    // SAFETY: the tier is in the initialised window and the tier position is
    // below its size, the core's preconditions.
    Some(unsafe { raw::gHashToWindowPosition(tier_position, tier.number()) })
}

/// Moves the core's hash window to `tier` without loading a database.
pub(crate) fn initialize_window(tier: Tier) {
    // SAFETY: the core builds the window from the module's tier hooks, which
    // InitializeGame installed; `tier` is a valid tier.
    unsafe { raw::gInitializeHashWindow(tier.number(), raw::FALSE) }
}

/// A core move list holding `moves` in the given order (built by prepending
/// from the back, as the core expects lists to be built).
pub(crate) fn move_list(moves: impl DoubleEndedIterator<Item = MOVE>) -> *mut MOVELIST {
    let mut head: *mut MOVELIST = ptr::null_mut();
    for m in moves.rev() {
        // SAFETY: CreateMovelistNode allocates a node (exiting on failure)
        // whose `next` is the list built so far.
        head = unsafe { raw::CreateMovelistNode(m, head) };
    }
    head
}

/// A core tier list holding `tiers` in the given order.
pub(crate) fn tier_list(tiers: impl DoubleEndedIterator<Item = TIER>) -> *mut TIERLIST {
    let mut head: *mut TIERLIST = ptr::null_mut();
    for t in tiers.rev() {
        // SAFETY: as for move lists.
        head = unsafe { raw::CreateTierlistNode(t, head) };
    }
    head
}

/// `s` copied into memory from the core's SafeMalloc, for the core to free.
pub(crate) fn malloc_string(s: &str) -> *mut c_char {
    let bytes = s.as_bytes();
    // SAFETY: SafeMalloc returns a block of the requested size or exits.
    let p = unsafe { raw::SafeMalloc(bytes.len() + 1) }.cast::<u8>();
    if p.is_null() {
        return ptr::null_mut();
    }
    // SAFETY: `p` has room for the bytes and the terminating NUL.
    unsafe {
        ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len());
        p.add(bytes.len()).write(0);
    }
    p.cast()
}

/// Writes `s` and a NUL into `buf`, which the ABI sizes at `capacity`
/// bytes; a longer `s` is cut. Does nothing for a null `buf`.
///
/// # Safety
/// `buf` is NULL or valid for writes of `capacity` bytes.
pub(crate) unsafe fn write_buffer(buf: *mut c_char, capacity: usize, s: &str) {
    if buf.is_null() || capacity == 0 {
        return;
    }
    let n = s.len().min(capacity - 1);
    // SAFETY: `buf` holds `capacity` bytes (our caller's promise) and we
    // write at most that many.
    unsafe {
        ptr::copy_nonoverlapping(s.as_ptr(), buf.cast::<u8>(), n);
        buf.add(n).write(0);
    }
}

/// The text of a NUL-terminated C string, or `None` for NULL or non-UTF-8.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string that stays valid and unchanged
/// for `'a`.
pub(crate) unsafe fn read_string<'a>(s: *const c_char) -> Option<&'a str> {
    if s.is_null() {
        return None;
    }
    // SAFETY: our caller's promise.
    unsafe { CStr::from_ptr(s) }.to_str().ok()
}

/// Prints through C's stdio, so the text interleaves correctly with the
/// core's own output.
pub(crate) fn print(s: &str) {
    let Ok(c) = CString::new(s.replace('\0', "")) else {
        return;
    };
    // SAFETY: a constant "%s" format with one NUL-terminated argument.
    unsafe { raw::printf(c"%s".as_ptr(), c.as_ptr()) };
}

/// The core's prediction line for the text interface.
///
/// # Safety
/// `player` is NULL or a NUL-terminated string valid for the call.
pub(crate) unsafe fn prediction(p: POSITION, player: *mut c_char, users_turn: raw::BOOLEAN) -> String {
    // SAFETY: `player` as our caller promises; the core returns a string it
    // owns (or NULL), valid until its next call, which we copy at once.
    unsafe {
        let s = raw::GetPrediction(p, player, users_turn);
        read_string(s).unwrap_or("").to_string()
    }
}

/// The core's handling of one line of text input during play.
///
/// # Safety
/// `mv` is valid for a write of one MOVE and `player` is NULL or a
/// NUL-terminated string, both valid for the call.
pub(crate) unsafe fn handle_text_input(p: POSITION, mv: *mut MOVE, player: *mut c_char) -> raw::USERINPUT {
    // SAFETY: our caller's promises, which are the core's preconditions.
    unsafe { raw::HandleDefaultTextInput(p, mv, player) }
}

/// One key from the user, via the core.
pub(crate) fn get_char() -> u8 {
    // SAFETY: no arguments; the core reads standard input.
    unsafe { raw::GetMyChar() as u8 }
}

/// AutoGUI position string through the core's builder.
///
/// # Safety
/// `buf` is NULL or valid for writes of `TOPITOP_POSITION_BUFFER` bytes.
pub(crate) unsafe fn autogui_position(turn: i32, entities: &str, buf: *mut c_char) {
    let Ok(e) = CString::new(entities) else { return };
    if buf.is_null() {
        return;
    }
    // SAFETY: `buf` has the ABI's 128 bytes (our caller's promise) and the
    // result is 58 characters.
    unsafe { raw::AutoGUIMakePositionString(turn, e.as_ptr().cast_mut(), buf) }
}

/// AutoGUI button move string through the core's builder.
///
/// # Safety
/// `buf` is NULL or valid for writes of `TOPITOP_MOVE_BUFFER` bytes.
pub(crate) unsafe fn autogui_button(token: u8, at: u32, sound: u8, buf: *mut c_char) {
    if !buf.is_null() {
        // SAFETY: `buf` has the ABI's 32 bytes (our caller's promise); the
        // result is at most 10.
        unsafe { raw::AutoGUIMakeMoveButtonStringA(token as c_char, at, sound as c_char, buf) }
    }
}

/// AutoGUI arrow move string through the core's builder.
///
/// # Safety
/// `buf` is NULL or valid for writes of `TOPITOP_MOVE_BUFFER` bytes.
pub(crate) unsafe fn autogui_arrow(from: u32, to: u32, sound: u8, buf: *mut c_char) {
    if !buf.is_null() {
        // SAFETY: as for buttons.
        unsafe { raw::AutoGUIMakeMoveButtonStringM(from, to, sound as c_char, buf) }
    }
}

/// Installs the module's hooks and tier settings into the core.
pub(crate) fn install_hooks(hooks: Hooks) {
    // SAFETY: plain writes of the core's globals from its own thread, before
    // it uses them.
    unsafe {
        ptr::addr_of_mut!(raw::gCanonicalPosition).write(Some(hooks.canonical));
        ptr::addr_of_mut!(raw::gPositionToStringFunPtr).write(Some(hooks.position_to_string));
        ptr::addr_of_mut!(raw::gTierChildrenFunPtr).write(Some(hooks.tier_children));
        ptr::addr_of_mut!(raw::gNumberOfTierPositionsFunPtr).write(Some(hooks.tier_size));
        ptr::addr_of_mut!(raw::gTierToStringFunPtr).write(Some(hooks.tier_to_string));
        ptr::addr_of_mut!(raw::gIsLegalFunPtr).write(Some(hooks.is_legal));
        ptr::addr_of_mut!(raw::kSupportsTierGamesman).write(raw::TRUE);
        ptr::addr_of_mut!(raw::kExclusivelyTierGamesman).write(raw::TRUE);
        ptr::addr_of_mut!(raw::gInitialTier).write(0);
        ptr::addr_of_mut!(raw::gInitialTierPosition).write(0);
        if ptr::addr_of!(raw::gIsInteract).read() != 0 {
            ptr::addr_of_mut!(raw::gLoadTierdbArray).write(raw::FALSE);
        }
    }
}

/// The hook functions InitializeGame installs.
pub(crate) struct Hooks {
    pub canonical: unsafe extern "C" fn(POSITION) -> POSITION,
    pub position_to_string: unsafe extern "C" fn(POSITION, *mut c_char),
    pub tier_children: unsafe extern "C" fn(TIER) -> *mut TIERLIST,
    pub tier_size: unsafe extern "C" fn(TIER) -> TIERPOSITION,
    pub tier_to_string: unsafe extern "C" fn(TIER) -> *mut c_char,
    pub is_legal: unsafe extern "C" fn(POSITION) -> raw::BOOLEAN,
}
