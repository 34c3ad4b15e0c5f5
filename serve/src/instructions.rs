//! The rules of Topitop in Markdown, as GamesmanUni's instructions panel
//! shows them, with a note on what each variant changes.

use topitop_game::{Ruleset, Variant};

const RULES: &str = "\
# Topitop

A building race on a 3 × 3 board, for two players: **Blue** moves first, **Red** second.

## Pieces

* 2 blue buckets and 2 red buckets: each player owns the buckets of their colour.
* 4 small and 4 large sand piles: neutral, anyone may use them.

A small pile on a large pile is a **castle**. A bucket on a castle is a **crowned castle** \
of the bucket's colour. A bucket on a small pile belongs to its colour too.

## On your turn

Do one of these:

1. **Place** one of your own buckets, or a small or a large pile, on an empty square, while \
any are left. Pieces are never placed on top of others: stacks are built by moving.
2. **Move** a piece or stack one square in any of the 8 directions:
   * onto an empty square: anything that does not carry your opponent's bucket;
   * onto a small pile or a castle: one of your own single buckets;
   * onto a large pile: a small pile (making a castle), or your own bucket standing on a \
small pile (making a crowned castle).

Nothing goes onto a bucket, and stacks never come apart.

**No undo:** when your opponent has just moved a neutral pile or castle onto an empty \
square, you may not move it straight back on your next turn. (Later you may.)

**Stuck:** if you have no move at all, you pass.

## Goal

The first player to own **two crowned castles** wins: two of their buckets, each on a \
castle.

## Playing here

Click a button on an empty square to place the piece it shows (bucket, small pile, large \
pile), an arrow to move a stack, and **P** to pass when you have no other move.
";

/// What `variant` changes, as a Markdown section (empty for the standard
/// game).
fn variant_notes(variant: Variant) -> String {
    let mut notes = Vec::new();
    if variant.no_move_loses() {
        notes.push("* **No move loses:** a player who has no move loses at once instead of passing.");
    }
    if variant.tying_rule() {
        notes.push(
            "* **Tying rule:** when Blue completes a second crowned castle while Red has one, \
the game is a tie instead of a win for Blue if some red bucket stands next to an uncrowned \
castle, or some red bucket on a small pile stands next to a large pile: Red could have \
finished too. (As in GamesmanClassic, the rule only ever saves Red.)",
        );
    }
    if variant.misere() {
        notes.push(
            "* **Misère:** the objective is reversed: a player who builds two crowned castles \
loses, and a player who is stuck under the no-move-loses rule wins.",
        );
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!("\n## This variant\n\n{}\n", notes.join("\n"))
    }
}

const V0_NOTES: &str = "
## This variant: the original rules (2006)

The first GamesmanClassic version of Topitop, played as a well-defined game:

* **No pass:** a player with no move is stuck, and the game is a **draw**.
* The game ends as soon as one player owns two crowned castles.
";

/// The instructions for a variant of `ruleset`, in `locale`. Only `en-US` is
/// written; every other locale gets it too.
pub fn instructions(ruleset: Ruleset, _locale: &str) -> String {
    let notes = match ruleset {
        Ruleset::V0 => V0_NOTES.to_string(),
        Ruleset::V1(v) => variant_notes(v),
    };
    format!("{RULES}{notes}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variant_explains_its_own_options() {
        let standard = instructions(Ruleset::V1(Variant::DEFAULT), "en-US");
        assert!(standard.starts_with("# Topitop"));
        assert!(!standard.contains("## This variant"));
        let all = instructions(Ruleset::V1(Variant::new(7).unwrap()), "fr-FR");
        for word in ["No move loses", "Tying rule", "Misère"] {
            assert!(all.contains(word), "{word}");
        }
        let misere = instructions(Ruleset::V1(Variant::new(4).unwrap()), "en-US");
        assert!(misere.contains("Misère") && !misere.contains("Tying rule"));
        assert!(instructions(Ruleset::V0, "en-US").contains("draw"));
    }
}
