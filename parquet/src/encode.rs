//! Parquet's value encodings: bit packing, the RLE/bit-packing hybrid
//! (definition levels and dictionary keys), and the delta encodings
//! (DELTA_BINARY_PACKED, and DELTA_BYTE_ARRAY over it).

use crate::thrift::{varint, zigzag};

/// Bits needed for numbers up to `max` (at least one: a width of zero is
/// valid but not every reader takes it).
pub fn width(max: u64) -> u32 {
    (64 - max.leading_zeros()).max(1)
}

/// Appends `values` bit-packed at `width` bits each, least significant
/// bit first; the last byte is padded with zeros.
pub fn bit_pack(out: &mut Vec<u8>, values: impl IntoIterator<Item = u64>, width: u32) {
    let mut acc: u128 = 0;
    let mut bits = 0;
    for v in values {
        acc |= u128::from(v) << bits;
        bits += width;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        out.push(acc as u8);
    }
}

/// The most values in one bit-packed run: 63 groups of 8, a run header
/// of one byte (as other writers do; the format allows longer).
const MAX_LITERALS: usize = 63 * 8;

/// Appends `values` in the RLE/bit-packing hybrid at `width` bits: runs
/// of eight or more equal values as a count and the value, the rest
/// bit-packed in groups of eight (the last group padded, which a reader
/// knows to ignore from the page's value count).
pub fn rle(out: &mut Vec<u8>, values: &[u32], width: u32) {
    let bytes = width.div_ceil(8) as usize;
    let mut literals: Vec<u32> = Vec::with_capacity(MAX_LITERALS);
    let flush = |out: &mut Vec<u8>, literals: &mut Vec<u32>| {
        if literals.is_empty() {
            return;
        }
        let groups = literals.len().div_ceil(8);
        varint(out, ((groups as u64) << 1) | 1);
        literals.resize(groups * 8, 0);
        bit_pack(out, literals.iter().map(|&v| u64::from(v)), width);
        literals.clear();
    };
    let mut i = 0;
    while i < values.len() {
        let v = values[i];
        let mut run = values[i..].iter().take_while(|&&x| x == v).count();
        i += run;
        // A bit-packed run holds whole groups of eight: top the literals
        // up to a group boundary before a repeated run may start.
        while run > 0 && (!literals.len().is_multiple_of(8) || run < 8) {
            literals.push(v);
            run -= 1;
            if literals.len() == MAX_LITERALS {
                flush(out, &mut literals);
            }
        }
        if run > 0 {
            flush(out, &mut literals);
            varint(out, (run as u64) << 1);
            out.extend_from_slice(&v.to_le_bytes()[..bytes]);
        }
    }
    flush(out, &mut literals);
}

/// Values in a DELTA_BINARY_PACKED block, and miniblocks in a block.
const BLOCK: usize = 128;
const MINIBLOCKS: usize = 4;

/// Appends `values` as DELTA_BINARY_PACKED: the first value, then blocks
/// of 128 differences, each stored as its excess over the block's least
/// difference in four bit-packed miniblocks of 32.
pub fn delta_binary_packed(out: &mut Vec<u8>, values: &[i64]) {
    varint(out, BLOCK as u64);
    varint(out, MINIBLOCKS as u64);
    varint(out, values.len() as u64);
    varint(out, zigzag(values.first().copied().unwrap_or(0)));
    let deltas: Vec<i64> = values.windows(2).map(|w| w[1].wrapping_sub(w[0])).collect();
    let per_mini = BLOCK / MINIBLOCKS;
    for block in deltas.chunks(BLOCK) {
        let least = block.iter().copied().min().unwrap_or(0);
        varint(out, zigzag(least));
        let minis: Vec<&[i64]> = block.chunks(per_mini).collect();
        let widths: Vec<u32> = minis
            .iter()
            .map(|m| {
                let max = m.iter().map(|&d| d.wrapping_sub(least) as u64).max().unwrap_or(0);
                64 - max.leading_zeros()
            })
            .collect();
        for k in 0..MINIBLOCKS {
            // A miniblock the block does not reach has a width but no data.
            out.push(widths.get(k).copied().unwrap_or(0) as u8);
        }
        for (m, &w) in minis.iter().zip(&widths) {
            let excess = m.iter().map(|&d| d.wrapping_sub(least) as u64);
            // The last miniblock is padded to its full 32 values.
            let padding = std::iter::repeat_n(0, per_mini - m.len());
            bit_pack(out, excess.chain(padding), w);
        }
    }
}

/// Appends `values` as DELTA_BYTE_ARRAY: each value's prefix shared with
/// the value before and its length, then the rest of each value
/// (DELTA_LENGTH_BYTE_ARRAY: the lengths, then the bytes end to end).
pub fn delta_byte_array<'a>(out: &mut Vec<u8>, values: impl Iterator<Item = &'a [u8]> + Clone) {
    let mut prefixes = Vec::new();
    let mut suffixes = Vec::new();
    let mut previous: &[u8] = &[];
    for v in values.clone() {
        let shared = previous.iter().zip(v).take_while(|(a, b)| a == b).count();
        prefixes.push(shared as i64);
        suffixes.push((v.len() - shared) as i64);
        previous = v;
    }
    delta_binary_packed(out, &prefixes);
    delta_binary_packed(out, &suffixes);
    for (v, &shared) in values.zip(&prefixes) {
        out.extend_from_slice(&v[shared as usize..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_packing_is_the_formats_example() {
        // The format's own example: 0 to 7 at three bits.
        let mut out = Vec::new();
        bit_pack(&mut out, 0..8, 3);
        assert_eq!(out, [0b1000_1000, 0b1100_0110, 0b1111_1010]);
    }

    #[test]
    fn widths() {
        assert_eq!([0, 1, 2, 3, 4, 255, 256].map(width), [1, 1, 2, 2, 3, 8, 9]);
    }

    #[test]
    fn runs_and_literals() {
        let mut out = Vec::new();
        rle(&mut out, &[1; 10], 1);
        assert_eq!(out, [10 << 1, 1], "a run of ten ones");
        out.clear();
        // Three literals, then a run of nine: five of the run complete the
        // group of eight, the other four are too few for a run.
        let v = [0, 1, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5];
        rle(&mut out, &v, 3);
        assert_eq!(out[0], (2 << 1) | 1, "two groups of literals");
        let mut expected = vec![(2 << 1) | 1];
        bit_pack(&mut expected, v.iter().map(|&x| u64::from(x)).chain([0; 4]), 3);
        assert_eq!(out, expected);
        out.clear();
        // Eight literals then a run of twelve: the run stays a run.
        let v: Vec<u32> = (0..8).map(|i| i % 4).chain([3; 12]).collect();
        rle(&mut out, &v, 2);
        assert_eq!(out, [(1 << 1) | 1, 0b1110_0100, 0b1110_0100, 12 << 1, 3]);
    }

    #[test]
    fn long_literals_split_into_runs_of_63_groups() {
        let v: Vec<u32> = (0..1000).map(|i| i % 2).collect();
        let mut out = Vec::new();
        rle(&mut out, &v, 1);
        // 504 values (63 bytes), 496 values (62 bytes), each with a header.
        assert_eq!(out.len(), 1 + 63 + 1 + 62);
        assert_eq!(out[0], (63 << 1) | 1);
        assert_eq!(out[64], (62 << 1) | 1);
    }

    #[test]
    fn delta_binary_packed_of_a_sequence() {
        let mut out = Vec::new();
        delta_binary_packed(&mut out, &[7, 8, 9, 10, 11]);
        // Header: 128, 4 miniblocks, 5 values, first 7; one block: least
        // difference 1, widths 0 (every excess is 0), no data at width 0.
        assert_eq!(out, [0x80, 0x01, 4, 5, 14, 2, 0, 0, 0, 0]);
        out.clear();
        delta_binary_packed(&mut out, &[1, 3, 2]);
        // Differences 2, -1: least -1, excesses 3, 0 at two bits, padded
        // to 32 values (8 bytes).
        assert_eq!(out[..10], [0x80, 0x01, 4, 3, 2, 1, 2, 0, 0, 0]);
        assert_eq!(out[10..], [0b0000_0011, 0, 0, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn delta_byte_array_shares_prefixes() {
        let words: [&[u8]; 3] = [b"1_ab", b"1_ac", b"2"];
        let mut out = Vec::new();
        delta_byte_array(&mut out, words.iter().copied());
        let mut expected = Vec::new();
        delta_binary_packed(&mut expected, &[0, 3, 0]);
        delta_binary_packed(&mut expected, &[4, 1, 1]);
        expected.extend_from_slice(b"1_abc2");
        assert_eq!(out, expected);
    }
}
