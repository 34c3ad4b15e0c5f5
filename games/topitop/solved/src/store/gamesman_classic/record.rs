//! GamesmanClassic's 16-bit record: bits 0–1 the value (0 undecided, 1 win,
//! 2 lose, 3 tie), bit 2 visited, bits 3–7 mex (both unused by its tier
//! solver), bits 8–15 the remoteness; a draw is a tie at remoteness 255.

use games_topitop_rules::Value;
use games_topitop_table::Record;

/// GamesmanClassic's remoteness of a draw (`REMOTENESS_MAX`).
const DRAW_REMOTENESS: u8 = 255;

/// A GamesmanClassic record, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GcRecord {
    /// Not solved (an illegal slot, or never reached by the solver).
    Undecided,
    /// A value and remoteness (draws have remoteness 255).
    Solved(Value, u8),
}

impl GcRecord {
    /// Decodes the 16 record bits.
    pub fn from_bits(bits: u16) -> GcRecord {
        let remoteness = (bits >> 8) as u8;
        match bits & 3 {
            1 => GcRecord::Solved(Value::Win, remoteness),
            2 => GcRecord::Solved(Value::Lose, remoteness),
            3 if remoteness == DRAW_REMOTENESS => GcRecord::Solved(Value::Draw, DRAW_REMOTENESS),
            3 => GcRecord::Solved(Value::Tie, remoteness),
            _ => GcRecord::Undecided,
        }
    }

    /// The 16 bits GamesmanClassic's solver stores (visited and mex clear).
    pub const fn bits(self) -> u16 {
        match self {
            GcRecord::Undecided => 0,
            GcRecord::Solved(Value::Win, r) => (r as u16) << 8 | 1,
            GcRecord::Solved(Value::Lose, r) => (r as u16) << 8 | 2,
            GcRecord::Solved(Value::Tie, r) => (r as u16) << 8 | 3,
            GcRecord::Solved(Value::Draw, _) => (DRAW_REMOTENESS as u16) << 8 | 3,
        }
    }

    /// Our record in GamesmanClassic's terms, or `None` when it has none:
    /// an unsolved record, or a win, loss or tie at a remoteness of 255 or
    /// more (255 is the draw's marker, and GamesmanClassic's solver stops
    /// before storing more).
    pub fn from_record(record: Record) -> Option<GcRecord> {
        let value = record.value()?;
        if value == Value::Draw {
            return Some(GcRecord::Solved(Value::Draw, DRAW_REMOTENESS));
        }
        let r = u8::try_from(record.remoteness())
            .ok()
            .filter(|&r| r < DRAW_REMOTENESS)?;
        Some(GcRecord::Solved(value, r))
    }

    /// The value and remoteness as our [`Record`] (draws without remoteness);
    /// [`Record::UNSOLVED`] for an undecided slot.
    pub fn to_record(self) -> Record {
        match self {
            GcRecord::Undecided => Record::UNSOLVED,
            GcRecord::Solved(v, r) => Record::new(v, u16::from(r)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip() {
        for bits in 0..=u16::MAX {
            // Only the value and remoteness bits, as the solver writes them.
            if bits & 0xFC != 0 {
                continue;
            }
            let r = GcRecord::from_bits(bits);
            let canonical_draw = bits & 3 == 3 && bits >> 8 == 255;
            if bits & 3 != 0 || canonical_draw {
                assert_eq!(r.bits(), bits, "{bits:#06x}");
            } else {
                assert_eq!(r, GcRecord::Undecided);
            }
        }
    }

    #[test]
    fn records_convert_both_ways() {
        for (rec, gc) in [
            (Record::new(Value::Win, 7), Some(0x0701)),
            (Record::new(Value::Lose, 0), Some(0x0002)),
            (Record::new(Value::Tie, 254), Some(0xFE03)),
            (Record::new(Value::Draw, 0), Some(0xFF03)),
            (Record::new(Value::Tie, 255), None),
            (Record::new(Value::Win, 300), None),
            (Record::UNSOLVED, None),
        ] {
            let got = GcRecord::from_record(rec);
            assert_eq!(got.map(GcRecord::bits), gc, "{rec}");
            if let Some(g) = got {
                assert_eq!(g.to_record(), rec);
            }
        }
    }
}
