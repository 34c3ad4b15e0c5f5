//! The rules of Topitop in Markdown, as GamesmanUni's instructions panel
//! shows them, written for each variant from its rules: what a player with
//! no move does, what two crowned castles mean, and the tying rule, each
//! stated only where the variant has it.

use crate::{Rules, Ruleset, Value};

/// What happens to a player who has no move at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stuck {
    /// The turn passes (v1's default).
    Passes,
    /// The player loses (v1's no-move-loses option).
    Loses,
    /// The player wins (no-move-loses under misère).
    Wins,
    /// The game ends in a draw (v0, which has no pass).
    Draws,
}

/// The rules a variant's text must state, read from its [`Ruleset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Facts {
    stuck: Stuck,
    /// Two crowned castles lose instead of winning.
    misere: bool,
    tying_rule: bool,
}

impl Facts {
    fn of(ruleset: Ruleset) -> Facts {
        let stuck = match Rules::new(ruleset).stuck_value() {
            None => Stuck::Passes,
            Some(Value::Lose) => Stuck::Loses,
            Some(Value::Win) => Stuck::Wins,
            Some(Value::Draw | Value::Tie) => Stuck::Draws,
        };
        let variant = ruleset.variant();
        let v1 = matches!(ruleset, Ruleset::V1(_));
        Facts {
            stuck,
            misere: v1 && variant.misere(),
            tying_rule: v1 && variant.tying_rule(),
        }
    }
}

const PIECES: &str = "\
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
";

fn stuck_rule(stuck: Stuck) -> &'static str {
    match stuck {
        Stuck::Passes => "**No move:** if you have no move at all, you pass: the turn goes to your opponent.",
        Stuck::Loses => "**No move loses:** if you have no move at all, you lose at once. There is no pass.",
        Stuck::Wins => {
            "**No move loses, turned around by misère:** if you have no move at all, you win \
at once. There is no pass."
        }
        Stuck::Draws => {
            "**No pass:** if you have no move at all, the game ends at once with no winner: a \
draw, which this board announces as a tie (the game is over)."
        }
    }
}

fn goal(facts: Facts) -> String {
    let mut text = if facts.misere {
        "**Misère:** the first player to own **two crowned castles** loses: two of their \
buckets, each on a castle. Make your opponent build them first."
            .to_string()
    } else {
        "The first player to own **two crowned castles** wins: two of their buckets, each on \
a castle."
            .to_string()
    };
    if facts.tying_rule {
        let outcome = if facts.misere { "a loss" } else { "a win" };
        text.push_str(&format!(
            "\n\n**Tying rule:** when Blue completes a second crowned castle while Red has one, \
the game is a tie instead of {outcome} for Blue if some red bucket stands next to an \
uncrowned castle, or some red bucket on a small pile stands next to a large pile: Red could \
have finished too. (As in GamesmanClassic, the rule only ever applies to Blue's second castle.)"
        ));
    }
    text
}

fn playing_here(stuck: Stuck) -> &'static str {
    match stuck {
        Stuck::Passes => {
            "Click a button on an empty square to place the piece it shows (bucket, small pile, \
large pile), an arrow to move a stack, and **P** to pass when you have no other move."
        }
        Stuck::Loses | Stuck::Wins | Stuck::Draws => {
            "Click a button on an empty square to place the piece it shows (bucket, small pile, \
large pile), and an arrow to move a stack."
        }
    }
}

/// The instructions for a variant of `ruleset`, in English (the one
/// language written; every locale GamesmanUni asks for gets it).
pub fn instructions(ruleset: Ruleset) -> String {
    let facts = Facts::of(ruleset);
    let origin = match ruleset {
        Ruleset::V0 => {
            "\nThese are the original rules of the first GamesmanClassic Topitop (2006), \
played as a well-defined game.\n"
        }
        Ruleset::V1(_) => "",
    };
    format!(
        "{PIECES}\n{}\n\n## Goal\n\n{}\n{origin}\n## Playing here\n\n{}\n",
        stuck_rule(facts.stuck),
        goal(facts),
        playing_here(facts.stuck)
    )
}

#[cfg(test)]
mod tests {
    use crate::Variant;

    use super::*;

    /// Every ruleset GamesmanUni is served.
    fn rulesets() -> impl Iterator<Item = Ruleset> {
        Variant::all().map(Ruleset::V1).chain([Ruleset::V0])
    }

    /// Phrases (lower case) that each state one rule, and whether
    /// `ruleset` has it (read from the rules engine, not from [`Facts`]).
    fn rule_phrases(ruleset: Ruleset) -> Vec<(&'static str, bool)> {
        let rules = Rules::new(ruleset);
        let stuck = rules.stuck_value();
        let misere = matches!(ruleset, Ruleset::V1(v) if v.misere());
        let tying = matches!(ruleset, Ruleset::V1(v) if v.tying_rule());
        vec![
            ("you pass", stuck.is_none()),
            ("**p** to pass", stuck.is_none()),
            ("no pass", stuck.is_some()),
            ("you lose at once", stuck == Some(Value::Lose)),
            ("you win at once", stuck == Some(Value::Win)),
            ("draw", stuck == Some(Value::Draw)),
            ("**two crowned castles** wins", !misere),
            ("**two crowned castles** loses", misere),
            ("misère", misere),
            ("tying rule", tying),
            ("the game is a tie", tying),
            ("tie", tying || stuck == Some(Value::Draw)),
            ("instead of a win for blue", tying && !misere),
            ("instead of a loss for blue", tying && misere),
            ("original rules", ruleset == Ruleset::V0),
        ]
    }

    #[test]
    fn each_variant_states_exactly_its_own_rules() {
        for ruleset in rulesets() {
            let text = instructions(ruleset);
            assert!(text.starts_with("# Topitop"), "{ruleset}");
            let lower = text.to_lowercase();
            for (phrase, has) in rule_phrases(ruleset) {
                assert_eq!(
                    lower.contains(phrase),
                    has,
                    "{ruleset}: {phrase:?} should {}be there:\n{text}",
                    if has { "" } else { "not " }
                );
            }
        }
    }

    #[test]
    fn each_variant_explains_its_own_options() {
        let standard = instructions(Ruleset::V1(Variant::DEFAULT));
        assert!(standard.starts_with("# Topitop"));
        assert!(!standard.contains("## This variant"));
        let all = instructions(Ruleset::V1(Variant::new(7).unwrap()));
        for word in ["No move loses", "Tying rule", "Misère"] {
            assert!(all.contains(word), "{word}");
        }
        let misere = instructions(Ruleset::V1(Variant::new(4).unwrap()));
        assert!(misere.contains("Misère") && !misere.contains("Tying rule"));
        assert!(instructions(Ruleset::V0).contains("draw"));
    }

    #[test]
    fn texts_differ_exactly_where_rules_differ() {
        let texts: Vec<String> = rulesets().map(instructions).collect();
        let distinct: std::collections::HashSet<&String> = texts.iter().collect();
        assert_eq!(distinct.len(), texts.len());
    }
}
