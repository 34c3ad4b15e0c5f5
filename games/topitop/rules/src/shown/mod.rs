//! What a person sees of Topitop beyond the rules: the rules text
//! GamesmanUni's instructions panel shows ([`instructions`]), its AutoGUI
//! theme ([`theme`]), the page's drawings of the board and pieces
//! ([`art`]) and what the page says beside the board ([`words`]). The
//! game interface's `Presentation` hands them to the shared server.

pub mod art;
pub mod instructions;
pub mod theme;
pub mod words;
