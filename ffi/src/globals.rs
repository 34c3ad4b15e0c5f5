//! The global variables a GamesmanClassic module defines.

use std::ffi::c_char;
use std::ptr;

use crate::raw::{BOOLEAN, FALSE, NULL_POSITION, POSITION, TRUE};

/// A `const char *` global. C reads it; nothing writes it.
#[repr(transparent)]
pub struct ConstString(*const c_char);

// SAFETY: the pointer targets a 'static string literal that is never written,
// so sharing it between threads is sound.
unsafe impl Sync for ConstString {}

/// `void *` global (`gGameSpecificTclInit`), always NULL here.
#[repr(transparent)]
pub struct NullPointer(*const ());

// SAFETY: a null pointer that is never dereferenced or changed.
unsafe impl Sync for NullPointer {}

macro_rules! const_string {
    ($name:ident, $text:expr) => {
        #[doc = concat!("`", stringify!($name), "`.")]
        #[no_mangle]
        pub static $name: ConstString = ConstString($text.as_ptr());
    };
}

const_string!(kGameName, c"Topitop");
const_string!(kDBName, c"topitop");
const_string!(
    kAuthorName,
    c"Mike Hamada, Alex Choy (v0); Matthew Yu, Cameron Cheung (v1); Rust port by the topitop project"
);
const_string!(kHelpGraphicInterface, c"");
const_string!(
    kHelpTextInterface,
    c"Type a placement as the piece letter and a cell number (B5 blue bucket, R5 red\nbucket, S5 small pile, L5 large pile), a slide as two cell numbers (4-5), or\nNone to pass when you have no other move. Cells are numbered 1-9 row by row."
);
const_string!(
    kHelpOnYourTurn,
    c"Either place one of your pieces left in the box on an empty cell (your own\nbucket, a small or a large sand pile), or slide a structure one step in any\nof the 8 directions: onto an empty cell (anything without the opponent's\ncolour), your bucket onto a small pile or a castle, a small pile onto a large\none (making a castle), or your bucket-topped small pile onto a large pile.\nYou may not slide back a sand pile or castle your opponent just moved onto an\nempty cell. If you have no move, you pass (None), or, with the no-move-loses\noption, you lose."
);
const_string!(
    kHelpStandardObjective,
    c"Be the first to crown two castles (a small pile on a large pile) with your\nown buckets."
);
const_string!(
    kHelpReverseObjective,
    c"Misere: the player whose opponent crowns two castles wins."
);
const_string!(
    kHelpTieOccursWhen,
    c"With the two-tower tying rule (option bit 1): Blue crowns its second castle\nwhile Red has one and could still crown another (a red bucket next to a\ncastle, or a red bucket on a small pile next to a large pile)."
);
const_string!(
    kHelpExample,
    c"1_---------  Blue places L5 ...  2_----L----  Red places S1 ...\n1_S---L----  Blue slides 1-5: the small pile onto the large one makes a castle."
);

/// `kPartizan`: Blue and Red have different moves.
#[no_mangle]
pub static mut kPartizan: BOOLEAN = TRUE;
/// `kLoopy`: positions repeat.
#[no_mangle]
pub static mut kLoopy: BOOLEAN = TRUE;
/// `kTieIsPossible`: TRUE while the tying rule is selected.
#[no_mangle]
pub static mut kTieIsPossible: BOOLEAN = FALSE;
/// `kGameSpecificMenu`: the option menu exists.
#[no_mangle]
pub static mut kGameSpecificMenu: BOOLEAN = TRUE;
/// `kDebugMenu`: no debug menu.
#[no_mangle]
pub static mut kDebugMenu: BOOLEAN = FALSE;
/// `kDebugDetermineValue`.
#[no_mangle]
pub static mut kDebugDetermineValue: BOOLEAN = FALSE;
/// `kSupportsSymmetries`: GetCanonicalPosition is a true canonical form.
#[no_mangle]
pub static mut kSupportsSymmetries: BOOLEAN = TRUE;
/// `gNumberOfPositions`: set by the core's hash window.
#[no_mangle]
pub static mut gNumberOfPositions: POSITION = 0;
/// `gInitialPosition`: tier 0, tier position 0.
#[no_mangle]
pub static mut gInitialPosition: POSITION = 0;
/// `gMinimalPosition`.
#[no_mangle]
pub static mut gMinimalPosition: POSITION = 0;
/// `kBadPosition`: every bit set.
#[no_mangle]
pub static mut kBadPosition: POSITION = NULL_POSITION;
/// `gGameSpecificTclInit`: none.
#[no_mangle]
pub static gGameSpecificTclInit: NullPointer = NullPointer(ptr::null());

/// The number of positions in the current hash window.
pub(crate) fn number_of_positions() -> POSITION {
    // SAFETY: a plain read of an integer global; the core writes it only from
    // the thread that also calls the module.
    unsafe { ptr::addr_of!(gNumberOfPositions).read() }
}

pub(crate) fn set_tie_possible(on: bool) {
    // SAFETY: a plain write of an integer global, from the core's thread.
    unsafe { ptr::addr_of_mut!(kTieIsPossible).write(BOOLEAN::from(on)) }
}
