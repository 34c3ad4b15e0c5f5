//! Thrift's compact protocol, the encoding of Parquet's page headers and
//! footer: only writing, and only the types those structures use.
//!
//! A field is a header (its id as a delta from the previous field's id
//! when that fits in four bits, and its type) and a value; integers are
//! zigzag varints; a struct ends with a stop byte; booleans live in the
//! field header itself.

/// Type codes of the compact protocol.
const TRUE: u8 = 1;
const FALSE: u8 = 2;
const BYTE: u8 = 3;
const I32: u8 = 5;
const I64: u8 = 6;
const BINARY: u8 = 8;
const LIST: u8 = 9;
/// A struct's type code, also the element type of a list of structs.
pub const STRUCT: u8 = 12;
/// The element type of a list of `i32` (Parquet's enums).
pub const LIST_I32: u8 = I32;
/// The element type of a list of strings.
pub const LIST_BINARY: u8 = BINARY;
/// The element type of a list of `i64`.
pub const LIST_I64: u8 = I64;
/// The element type of a list of booleans.
pub const LIST_BOOL: u8 = TRUE;

/// A compact-protocol encoder writing into a buffer.
#[derive(Default)]
pub struct Writer {
    out: Vec<u8>,
    /// The id of the last field written in the current struct.
    last: i16,
    /// The enclosing structs' `last`.
    stack: Vec<i16>,
}

/// Appends `v` as an unsigned LEB128 varint.
pub fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// `v` zigzag-encoded: small magnitudes, of either sign, small numbers.
pub fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

impl Writer {
    /// The bytes written, once the outermost struct is ended.
    pub fn into_bytes(self) -> Vec<u8> {
        debug_assert!(self.stack.is_empty(), "a struct left open");
        self.out
    }

    fn header(&mut self, id: i16, kind: u8) {
        let delta = id - self.last;
        if (1..=15).contains(&delta) {
            self.out.push(((delta as u8) << 4) | kind);
        } else {
            self.out.push(kind);
            varint(&mut self.out, zigzag(i64::from(id)));
        }
        self.last = id;
    }

    /// Field `id`: an `i8`.
    pub fn i8(&mut self, id: i16, v: i8) {
        self.header(id, BYTE);
        self.out.push(v as u8);
    }

    /// Field `id`: an `i32` (or one of Parquet's enums).
    pub fn i32(&mut self, id: i16, v: i32) {
        self.header(id, I32);
        varint(&mut self.out, zigzag(i64::from(v)));
    }

    /// Field `id`: an `i64`.
    pub fn i64(&mut self, id: i16, v: i64) {
        self.header(id, I64);
        varint(&mut self.out, zigzag(v));
    }

    /// Field `id`: a boolean.
    pub fn bool(&mut self, id: i16, v: bool) {
        self.header(id, if v { TRUE } else { FALSE });
    }

    /// Field `id`: bytes (or a string).
    pub fn binary(&mut self, id: i16, v: &[u8]) {
        self.header(id, BINARY);
        self.bytes(v);
    }

    /// Field `id`: a struct, whose fields follow until [`Writer::end`].
    pub fn begin(&mut self, id: i16) {
        self.header(id, STRUCT);
        self.open();
    }

    /// A struct as a list element (or the outermost struct), whose fields
    /// follow until [`Writer::end`].
    pub fn open(&mut self) {
        self.stack.push(self.last);
        self.last = 0;
    }

    /// Ends the innermost struct.
    pub fn end(&mut self) {
        self.out.push(0);
        self.last = self.stack.pop().unwrap_or(0);
    }

    /// Field `id`: a list of `len` elements of type `kind`, which follow
    /// ([`Writer::element_i32`], [`Writer::element_binary`], or structs
    /// each between [`Writer::open`] and [`Writer::end`]).
    pub fn list(&mut self, id: i16, kind: u8, len: usize) {
        self.header(id, LIST);
        if len < 15 {
            self.out.push(((len as u8) << 4) | kind);
        } else {
            self.out.push(0xF0 | kind);
            varint(&mut self.out, len as u64);
        }
    }

    /// A list element: an `i32`.
    pub fn element_i32(&mut self, v: i32) {
        varint(&mut self.out, zigzag(i64::from(v)));
    }

    /// A list element: an `i64`.
    pub fn element_i64(&mut self, v: i64) {
        varint(&mut self.out, zigzag(v));
    }

    /// A list element: a boolean, a byte of its own in a list (1 true,
    /// 2 false).
    pub fn element_bool(&mut self, v: bool) {
        self.out.push(if v { TRUE } else { FALSE });
    }

    /// A list element: bytes.
    pub fn element_binary(&mut self, v: &[u8]) {
        self.bytes(v);
    }

    fn bytes(&mut self, v: &[u8]) {
        varint(&mut self.out, v.len() as u64);
        self.out.extend_from_slice(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_zigzag() {
        let mut out = Vec::new();
        varint(&mut out, 1);
        varint(&mut out, 300);
        assert_eq!(out, [0x01, 0xAC, 0x02]);
        assert_eq!([0, -1, 1, -2, 2].map(zigzag), [0, 1, 2, 3, 4]);
        assert_eq!(zigzag(i64::MIN), u64::MAX);
    }

    #[test]
    fn field_headers_use_deltas_until_they_do_not_fit() {
        let mut w = Writer::default();
        w.open();
        w.i32(1, 3);
        w.bool(2, true);
        w.bool(3, false);
        w.i64(20, -1);
        w.begin(21);
        w.binary(1, b"ab");
        w.end();
        w.list(22, LIST_I32, 2);
        w.element_i32(0);
        w.element_i32(8);
        w.end();
        let bytes = w.into_bytes();
        assert_eq!(
            bytes,
            [
                0x15, 0x06, // field 1, i32, zigzag 3
                0x11, // field 2, true
                0x12, // field 3, false
                0x06, 0x28, 0x01, // field 20 (delta 17): long form, i64 -1
                0x1C, // field 21, struct
                0x18, 0x02, b'a', b'b', 0x00, // its field 1, binary; stop
                0x19, 0x25, 0x00, 0x10, // field 22, list of two i32: 0, 8
                0x00, // stop
            ]
        );
    }

    #[test]
    fn long_lists_carry_their_length_apart() {
        let mut w = Writer::default();
        w.open();
        w.list(1, LIST_BINARY, 15);
        let bytes = w.out.clone();
        assert_eq!(bytes, [0x19, 0xF8, 15]);
    }
}
