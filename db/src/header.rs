//! The one codec of the databases' headers: fields written in order, all
//! little-endian ([`HeaderWriter`]), read back in the same order with
//! every read checked against the header's length ([`Fields`]), and the
//! envelope the shared formats put around them ([`HeaderWriter::seal`], [`unseal`]):
//! the magic number, a `u16` version, a `u32` length, the fields, and
//! the XXH3-64 of all of it. A format's header is then its list of
//! fields, written once for writing and once for reading, side by side.
//!
//! Topitop's own format keeps its fixed 128-byte layout (its files must
//! stay byte-identical), and reads and writes its fields through the
//! same writer and cursor.
//!
//! # Examples
//!
//! ```
//! use topitop_db::header::{unseal, Envelope, HeaderWriter};
//!
//! let envelope = Envelope { magic: *b"MYFORMAT", format: "my format", known: &[1], max_body: 1 << 20 };
//! let mut w = HeaderWriter::new();
//! w.str8("mygame").u16(3).u64(1 << 40);
//! let bytes = w.seal(envelope.magic, 1);
//!
//! let mut opened = unseal(&bytes, &envelope)?;
//! let f = &mut opened.fields;
//! assert_eq!((f.str8()?, f.u16()?, f.u64()?), ("mygame".to_string(), 3, 1 << 40));
//! f.finish()?; // every field read
//!
//! // One bit changed anywhere is caught by the checksum.
//! let mut damaged = bytes.clone();
//! damaged[16] ^= 1;
//! assert!(unseal(&damaged, &envelope).is_err());
//! # Ok::<(), topitop_db::DbError>(())
//! ```

use crate::blocks::{checksum, BlockEntry, ENTRY_LEN};
use crate::error::DbError;

/// A header's fields being written.
#[derive(Default)]
pub struct HeaderWriter(Vec<u8>);

impl HeaderWriter {
    /// No fields yet.
    pub fn new() -> HeaderWriter {
        HeaderWriter::default()
    }

    /// Appends a byte.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }

    /// Appends a `u16`.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a `u32`.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a `u64`.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends bytes as they are.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0.extend_from_slice(b);
        self
    }

    /// Appends a text of at most 255 bytes after its length in one byte
    /// (a longer one is cut there).
    pub fn str8(&mut self, s: &str) -> &mut Self {
        let b = &s.as_bytes()[..s.len().min(255)];
        self.u8(b.len() as u8).bytes(b)
    }

    /// Appends a text of at most 65,535 bytes after its length in a `u16`
    /// (a longer one is cut there).
    pub fn str16(&mut self, s: &str) -> &mut Self {
        let b = &s.as_bytes()[..s.len().min(usize::from(u16::MAX))];
        self.u16(b.len() as u16).bytes(b)
    }

    /// Appends a block's entry ([`ENTRY_LEN`] bytes).
    pub fn entry(&mut self, e: &BlockEntry) -> &mut Self {
        e.encode_into(&mut self.0);
        self
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True before anything is written.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The bytes written, followed by their XXH3-64: a header whose
    /// envelope is its own (Topitop's fixed layout).
    pub fn checksummed(mut self) -> Vec<u8> {
        let sum = checksum(&self.0);
        self.0.extend_from_slice(&sum.to_le_bytes());
        self.0
    }

    /// The fields inside the shared envelope: `magic`, `version`, their
    /// length as a `u32`, the fields, then the XXH3-64 of all of that.
    pub fn seal(self, magic: [u8; 8], version: u16) -> Vec<u8> {
        let mut b = HeaderWriter(Vec::with_capacity(self.0.len() + 22));
        b.bytes(&magic)
            .u16(version)
            .u32(self.0.len() as u32)
            .bytes(&self.0);
        b.checksummed()
    }
}

/// The envelope of a shared format's header, opened.
pub struct Unsealed<'a> {
    /// The format version.
    pub version: u16,
    /// The fields.
    pub fields: Fields<'a>,
    /// Where the header ends in the file: past its checksum.
    pub end: u64,
}

/// What [`unseal`] checks a header against.
pub struct Envelope {
    /// The format's magic number.
    pub magic: [u8; 8],
    /// The format's name, for an unknown version's message.
    pub format: &'static str,
    /// The versions this reader knows.
    pub known: &'static [u16],
    /// The longest body it accepts.
    pub max_body: u64,
}

/// Opens the envelope at the start of `file` (which may be just a prefix
/// holding the header).
///
/// # Errors
/// Bad magic, an unknown version, a body longer than allowed, truncation,
/// or a checksum mismatch.
pub fn unseal<'a>(file: &'a [u8], e: &Envelope) -> Result<Unsealed<'a>, DbError> {
    let len = file.len() as u64;
    let truncated = |what, end: u64| DbError::Truncated {
        what,
        start: 0,
        end,
        len,
    };
    if len < 8 || file[..8] != e.magic {
        return Err(if len < 8 && e.magic.starts_with(file) {
            truncated("the magic number", 8)
        } else {
            DbError::BadMagic
        });
    }
    let mut head = Fields::new(&file[8..]);
    let (Ok(version), Ok(body)) = (head.u16(), head.u32()) else {
        return Err(truncated("the header", 14));
    };
    if !e.known.contains(&version) {
        return Err(DbError::UnsupportedVersion {
            format: e.format,
            found: version,
            known: e.known,
        });
    }
    if u64::from(body) > e.max_body {
        return Err(DbError::corrupt("header", format!("a header of {body} bytes")));
    }
    let end = 14 + body as usize;
    if file.len() < end + 8 {
        return Err(truncated("the header", end as u64 + 8));
    }
    checksummed(file, end)?;
    Ok(Unsealed {
        version,
        fields: Fields::new(&file[14..end]),
        end: end as u64 + 8,
    })
}

/// Checks the XXH3-64 stored right after the header's first `end` bytes
/// against them.
///
/// # Errors
/// Too few bytes, or a checksum that differs.
pub fn checksummed(file: &[u8], end: usize) -> Result<(), DbError> {
    let stored = Fields::new(file.get(end..).unwrap_or_default()).u64()?;
    let computed = checksum(file.get(..end).unwrap_or_default());
    if stored != computed {
        return Err(DbError::Checksum {
            what: "header".into(),
            stored,
            computed,
        });
    }
    Ok(())
}

/// A cursor over a header's fields: each read takes the next bytes, or
/// fails naming the header as damaged when they run out.
pub struct Fields<'a> {
    b: &'a [u8],
    at: usize,
}

/// The error of a field past the header's end, or of a text that is not.
fn misfit() -> DbError {
    DbError::corrupt("header", "its fields do not add up to its length")
}

impl<'a> Fields<'a> {
    /// The fields in `b`.
    pub fn new(b: &'a [u8]) -> Fields<'a> {
        Fields { b, at: 0 }
    }

    /// The next `n` bytes.
    ///
    /// # Errors
    /// Fewer are left.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], DbError> {
        let end = self.at.checked_add(n).ok_or_else(misfit)?;
        let part = self.b.get(self.at..end).ok_or_else(misfit)?;
        self.at = end;
        Ok(part)
    }

    /// The next byte.
    ///
    /// # Errors
    /// None is left.
    pub fn u8(&mut self) -> Result<u8, DbError> {
        Ok(self.take(1)?[0])
    }

    /// The next `u16`.
    ///
    /// # Errors
    /// Too few bytes are left.
    pub fn u16(&mut self) -> Result<u16, DbError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// The next `u32`.
    ///
    /// # Errors
    /// Too few bytes are left.
    pub fn u32(&mut self) -> Result<u32, DbError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// The next `u64`.
    ///
    /// # Errors
    /// Too few bytes are left.
    pub fn u64(&mut self) -> Result<u64, DbError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// The next `N` bytes as an array.
    ///
    /// # Errors
    /// Too few bytes are left.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], DbError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    /// The next text written by [`HeaderWriter::str8`], checked to be
    /// printable.
    ///
    /// # Errors
    /// Too few bytes are left, or the text is not UTF-8 or holds control
    /// characters.
    pub fn str8(&mut self) -> Result<String, DbError> {
        let n = usize::from(self.u8()?);
        self.text(n)
    }

    /// The next text written by [`HeaderWriter::str16`], checked as
    /// [`Fields::str8`].
    ///
    /// # Errors
    /// As [`Fields::str8`].
    pub fn str16(&mut self) -> Result<String, DbError> {
        let n = usize::from(self.u16()?);
        self.text(n)
    }

    fn text(&mut self, n: usize) -> Result<String, DbError> {
        let text = String::from_utf8(self.take(n)?.to_vec()).map_err(|_| misfit())?;
        crate::error::printable(text)
    }

    /// The next block entry.
    ///
    /// # Errors
    /// Too few bytes are left.
    pub fn entry(&mut self) -> Result<BlockEntry, DbError> {
        Ok(BlockEntry::decode(self.take(ENTRY_LEN)?))
    }

    /// Checks that every field has been read.
    ///
    /// # Errors
    /// Bytes are left over.
    pub fn finish(&self) -> Result<(), DbError> {
        if self.at == self.b.len() {
            Ok(())
        } else {
            Err(misfit())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENVELOPE: Envelope = Envelope {
        magic: *b"TESTHEAD",
        format: "test format",
        known: &[3],
        max_body: 1 << 10,
    };

    fn sample() -> Vec<u8> {
        let mut w = HeaderWriter::new();
        w.str8("game")
            .u8(1)
            .u16(513)
            .u32(7)
            .u64(u64::MAX)
            .str16("tier name");
        w.seal(*b"TESTHEAD", 3)
    }

    #[test]
    fn fields_read_back_in_order_inside_their_envelope() {
        let b = sample();
        let mut u = unseal(&b, &ENVELOPE).unwrap();
        assert_eq!((u.version, u.end), (3, b.len() as u64));
        let f = &mut u.fields;
        assert_eq!(f.str8().unwrap(), "game");
        assert_eq!((f.u8().unwrap(), f.u16().unwrap(), f.u32().unwrap()), (1, 513, 7));
        assert_eq!(f.u64().unwrap(), u64::MAX);
        f.finish().unwrap_err();
        assert_eq!(f.str16().unwrap(), "tier name");
        f.finish().unwrap();
        // A read past the end is a damaged header, not a panic.
        assert!(f.u8().unwrap_err().to_string().contains("do not add up"));
    }

    #[test]
    fn a_damaged_envelope_is_refused_for_what_is_wrong() {
        let b = sample();
        let err = |b: &[u8]| unseal(b, &ENVELOPE).err().unwrap().to_string();
        assert!(err(&b[..5]).contains("magic number"), "{}", err(&b[..5]));
        assert!(err(b"NOTAHEADER....").contains("magic"));
        assert!(err(&b[..12]).contains("the header"));
        assert!(err(&b[..b.len() - 1]).contains("the header"));
        let mut other = b.clone();
        other[8] = 4;
        assert!(err(&other).contains("version 4"), "{}", err(&other));
        let mut flipped = b.clone();
        flipped[16] ^= 1;
        assert!(err(&flipped).contains("checksum"), "{}", err(&flipped));
        let mut long = b;
        long[10..14].copy_from_slice(&(2u32 << 10).to_le_bytes());
        assert!(err(&long).contains("a header of 2048 bytes"), "{}", err(&long));
    }

    #[test]
    fn texts_too_long_for_their_length_field_are_cut() {
        let mut w = HeaderWriter::new();
        w.str8(&"x".repeat(300));
        assert_eq!(w.len(), 256);
        let bytes = w.checksummed();
        assert_eq!(Fields::new(&bytes).str8().unwrap().len(), 255);
    }
}
