//! What the browser page says of a Topitop position beside its board: the
//! pieces left to place, the slide forbidden for now, and at the end why
//! the game ended.

use crate::{Player, Position, Rules, Ruleset, Value};

/// The pieces left and the forbidden slide.
pub fn facts(rules: Rules, pos: Position) -> Vec<(String, String)> {
    let [blue, red, small, large] = pos.pieces_left(rules.budget());
    let plural = |n: u8, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut out = vec![(
        "Pieces left".to_string(),
        [
            plural(blue, "blue bucket", "blue buckets"),
            plural(red, "red bucket", "red buckets"),
            plural(small, "small pile", "small piles"),
            plural(large, "large pile", "large piles"),
        ]
        .join(", "),
    )];
    if let Some(slide) = pos.forbidden() {
        out.push((
            "Forbidden slide".to_string(),
            format!(
                "{slide}: {} may not slide the pile straight back this turn",
                pos.turn().name()
            ),
        ));
    }
    out
}

/// Why the game is over at `pos`: two crowned castles (and the tying
/// rule, misère), or no move where that ends the game.
pub fn ending(rules: Rules, pos: Position) -> Option<String> {
    let value = rules.primitive(pos)?;
    let mover = pos.turn();
    let verdict = match value {
        Value::Win => format!("{} wins", mover.name()),
        Value::Lose => format!("{} wins", mover.opponent().name()),
        Value::Tie => "a tie".to_string(),
        Value::Draw => "a draw".to_string(),
    };
    let board = pos.board();
    let crowned: Vec<&str> = [Player::Blue, Player::Red]
        .into_iter()
        .filter(|&p| board.castles_of(p) >= 2)
        .map(Player::name)
        .collect();
    if rules.board_primitive(board, mover).is_none() {
        return Some(format!(
            "{} has no move, which ends the game under these rules: {verdict}.",
            mover.name()
        ));
    }
    let who = crowned.join(" and ");
    let why = match (rules.ruleset(), value) {
        (_, Value::Tie) => format!(
            "{who} owns two crowned castles, but Red could still crown a second tower (the tying rule)"
        ),
        (Ruleset::V1(v), _) if v.misere() => format!("{who} owns two crowned castles, which loses in misère"),
        _ => format!("{who} owns two crowned castles"),
    };
    Some(format!("{why}: {verdict}."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_position, Budget, Variant};

    #[test]
    fn two_crowned_castles_end_the_game_for_their_owner() {
        let rules = Rules::new(Ruleset::V1(Variant::DEFAULT));
        // Blue's two crowned castles (P), Red to move.
        let pos = parse_position("2_PP-------", Budget::STANDARD).unwrap();
        let text = ending(rules, pos).unwrap();
        assert_eq!(text, "Blue owns two crowned castles: Blue wins.");
        assert_eq!(ending(rules, rules.start()), None);
    }

    #[test]
    fn the_pieces_left_and_the_forbidden_slide_are_listed() {
        let rules = Rules::new(Ruleset::V1(Variant::DEFAULT));
        let f = facts(rules, rules.start());
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].1,
            "2 blue buckets, 2 red buckets, 4 small piles, 4 large piles"
        );
        let pos = parse_position("1_LS-L-SLLS45", Budget::STANDARD).unwrap();
        let f = facts(rules, pos);
        assert_eq!(f[1].0, "Forbidden slide", "{f:?}");
    }
}
