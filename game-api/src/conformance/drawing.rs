//! The `drawing` check: what GamesmanUni is told to draw
//! ([`Presentation::image_autogui_data`], the AutoGUI strings of
//! positions and moves) holds together, and the page's drawings
//! ([`Presentation::board_art`]) cover it. A wrong index or a missing
//! image shows as nothing at all in GamesmanUni, with no error anywhere.

use serde_json::Value as Json;

use super::Report;
use crate::{Presentation, MOVE_BUTTON_IMAGES};

/// The theme's centres, images by character, and sounds (none: any).
struct Theme {
    centers: usize,
    images: serde_json::Map<String, Json>,
    sounds: Option<serde_json::Map<String, Json>>,
}

impl Theme {
    /// The default theme of `data`, or why it cannot be drawn.
    fn read(data: &str) -> Result<Theme, String> {
        let json: Json = serde_json::from_str(data).map_err(|e| format!("not JSON: {e}"))?;
        let name = json["defaultTheme"].as_str().ok_or("no defaultTheme")?;
        let theme = &json["themes"][name];
        let centers = theme["centers"]
            .as_array()
            .ok_or_else(|| format!("theme {name:?} has no centers"))?;
        if centers
            .iter()
            .any(|c| c.as_array().is_none_or(|xy| xy.len() != 2))
        {
            return Err(format!("theme {name:?}: a centre that is not [x, y]"));
        }
        Ok(Theme {
            centers: centers.len(),
            images: theme["charImages"].as_object().cloned().unwrap_or_default(),
            sounds: theme["sounds"].as_object().cloned(),
        })
    }

    /// The image of the character `c`, if the theme has one.
    fn image(&self, c: &str) -> Option<&str> {
        self.images.get(c)?["image"].as_str()
    }

    /// Why the move string `s` cannot be drawn, if it cannot: `A_c_k_s`
    /// (the button image of `c` at centre `k`) or `M_a_b_s`/`L_a_b_s`
    /// (an arrow or line between centres), `s` a sound of the theme.
    fn move_fault(&self, s: &str) -> Option<String> {
        let parts: Vec<&str> = s.split('_').collect();
        let [kind, a, b, sound] = parts[..] else {
            return Some("not four parts joined by _".into());
        };
        let centre = |t: &str| t.parse::<usize>().ok().filter(|&k| k < self.centers);
        let fault = match kind {
            "A" => match self.image(a) {
                None => Some(format!("{a:?} has no image")),
                Some(i) if !MOVE_BUTTON_IMAGES.contains(&i) => {
                    Some(format!("{i} cannot be a button in GamesmanUni"))
                }
                _ => centre(b).is_none().then(|| format!("{b} is no centre")),
            },
            "M" | "L" => (centre(a).is_none() || centre(b).is_none()).then(|| "a centre out of range".into()),
            _ => Some(format!("{kind:?} is no kind of move (A, M or L)")),
        };
        let no_sound = self.sounds.as_ref().is_some_and(|m| !m.contains_key(sound));
        fault.or_else(|| no_sound.then(|| format!("no sound {sound:?}")))
    }
}

/// The drawing checks of one game: its theme, read once, against which
/// each position met along the random games is checked ([`Drawing::check`]).
pub(super) struct Drawing {
    /// None: the game has no theme and is shown as text.
    theme: Option<Theme>,
}

impl Drawing {
    /// Reads `game`'s theme and checks that the page's drawings, when the
    /// game has its own, cover the theme's characters. None when the
    /// theme cannot be read (said in `report`): nothing more to check.
    pub(super) fn read<G: Presentation>(game: &G, report: &mut Report) -> Option<Drawing> {
        let theme = match game.image_autogui_data().map(|d| Theme::read(&d)) {
            None => None,
            Some(Ok(theme)) => Some(theme),
            Some(Err(why)) => {
                report.record("drawing", false, || format!("imageAutoGUIData: {why}"));
                return None;
            }
        };
        if let Some(theme) = &theme {
            let art = game.board_art();
            for c in theme.images.keys() {
                let drawn = art.pieces.is_empty() || art.pieces.iter().any(|(p, _)| p.to_string() == *c);
                report.record("drawing", drawn, || format!("the page has no drawing of {c:?}"));
            }
        }
        Some(Drawing { theme })
    }

    /// Checks `pos`, whose moves are `moves`: each move's string names
    /// centres, images and sounds the theme has, and no two moves share
    /// one; the entity string has a centre a character and draws no piece
    /// with a button's image. A game without a theme must give no move
    /// strings that need one.
    pub(super) fn check<G: Presentation>(
        &self,
        game: &G,
        pos: &G::Position,
        moves: &[G::Move],
        report: &mut Report,
    ) {
        let theme = self.theme.as_ref();
        let text = game.format_position(pos);
        let mut seen = std::collections::HashSet::new();
        for &mv in moves {
            let Some(s) = game.autogui_move(pos, mv) else {
                continue;
            };
            let fault = match theme {
                None => Some("a move string without a theme to draw it".to_string()),
                Some(t) => t.move_fault(&s),
            };
            let twice = !seen.insert(s.clone());
            report.record("drawing", fault.is_none() && !twice, || {
                format!(
                    "{text}: move {}'s {s}: {}",
                    game.format_move(mv),
                    fault.unwrap_or("twice".into())
                )
            });
        }
        let (Some(theme), Some(entities)) = (theme, game.autogui_position(pos)) else {
            return;
        };
        let too_long = entities.chars().count() > theme.centers;
        let button = entities.chars().find(|c| {
            theme
                .image(&c.to_string())
                .is_some_and(|i| MOVE_BUTTON_IMAGES.contains(&i))
        });
        report.record("drawing", !too_long && button.is_none(), || match button {
            Some(c) => format!("{text}: the piece {c:?} is drawn as a button"),
            None => format!(
                "{text}: {} characters for {} centres",
                entities.chars().count(),
                theme.centers
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::Theme;

    #[test]
    fn each_way_a_move_string_cannot_be_drawn_is_named() {
        let theme = Theme::read(
            r#"{"defaultTheme":"d","themes":{"d":{"centers":[[0,0],[1,0]],
            "charImages":{"a":{"image":"general/basichitbox.svg"},"p":{"image":"general/redpiece.svg"}},
            "sounds":{"x":"general/place.mp3"}}}}"#,
        )
        .unwrap();
        assert_eq!(theme.move_fault("A_a_1_x"), None);
        assert_eq!(theme.move_fault("M_0_1_x"), None);
        let faults = [
            ("A_p_1_x", "cannot be a button"),
            ("A_z_1_x", "has no image"),
            ("A_a_2_x", "no centre"),
            ("M_0_9_x", "out of range"),
            ("A_a_1_y", "no sound"),
            ("Q_0_1_x", "no kind of move"),
            ("A_a_1", "four parts"),
        ];
        for (s, why) in faults {
            let fault = theme.move_fault(s).unwrap_or_default();
            assert!(fault.contains(why), "{s}: {fault:?}");
        }
        assert!(Theme::read(r#"{"defaultTheme":"d","themes":{}}"#).is_err());
        assert!(Theme::read("{").is_err());
    }
}
