//! One column chunk encoded into memory: its pages, its dictionary, its
//! statistics, and what the footer says of it.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use anyhow::Context;

use crate::encode::{delta_byte_array, rle, width};
use crate::thrift::{Writer, LIST_BINARY, LIST_BOOL, LIST_I64};
use crate::{ByteArray, Field, Kind, Values};

/// Rows in a data page at most, and its encoded bytes at most (checked
/// after each value, so a page may pass it by one value): the usual
/// limits, which let a reader skip pages by their statistics.
const PAGE_ROWS: usize = 20_000;
const PAGE_BYTES: usize = 1 << 20;

/// zstd's level for every page: several times smaller than uncompressed
/// at little cost.
const ZSTD_LEVEL: i32 = 1;

/// A column chunk's dictionary past this many bytes is given up and the
/// rest of the chunk written PLAIN: its values are mostly different.
const DICTIONARY_BYTES: usize = 1 << 20;

/// Parquet's encodings, page types and physical types, as numbered in
/// its Thrift definitions.
pub(crate) mod code {
    pub const PLAIN: i32 = 0;
    pub const RLE: i32 = 3;
    pub const DELTA_BYTE_ARRAY: i32 = 7;
    pub const RLE_DICTIONARY: i32 = 8;
    pub const DATA_PAGE: i32 = 0;
    pub const DICTIONARY_PAGE: i32 = 2;
    pub const BOOLEAN: i32 = 0;
    pub const INT32: i32 = 1;
    pub const INT64: i32 = 2;
    pub const DOUBLE: i32 = 5;
    pub const BYTE_ARRAY: i32 = 6;
}

/// A multiply-rotate hash for the dictionaries' keys: these are numbers
/// and short strings hashed once a row, for which the standard library's
/// keyed hash is several times slower and its protection against chosen
/// collisions is not needed (the rows are the program's own).
#[derive(Default)]
struct Quick(u64);

impl Quick {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Quick {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for part in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..part.len()].copy_from_slice(part);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

/// What the encoder needs of a physical type.
trait Physical: Clone {
    /// The type's number in the format.
    const CODE: i32;
    /// What a dictionary looks values up by.
    type Key: Hash + Eq;
    fn key(&self) -> Self::Key;
    /// Appends `values` PLAIN-encoded.
    fn plain(values: &[Self], out: &mut Vec<u8>);
    /// This value's PLAIN size in bytes (a boolean counts one).
    fn plain_len(&self) -> usize;
    /// Appends `values` as DELTA_BYTE_ARRAY, which only text has.
    fn delta(values: &[Self], out: &mut Vec<u8>) -> anyhow::Result<()>;
    /// The value as statistics hold it (PLAIN, without a length).
    fn stat(&self) -> Vec<u8>;
    /// The order of the column's logical type: unsigned for the integer
    /// kinds (every integer [`Kind`] is unsigned), bytes for text; `None`
    /// for a value outside it (NaN).
    fn order(&self, other: &Self) -> Option<Ordering>;
}

impl Physical for ByteArray {
    const CODE: i32 = code::BYTE_ARRAY;
    type Key = ByteArray;
    fn key(&self) -> ByteArray {
        self.clone()
    }
    fn plain(values: &[Self], out: &mut Vec<u8>) {
        for v in values {
            out.extend_from_slice(&(v.as_bytes().len() as u32).to_le_bytes());
            out.extend_from_slice(v.as_bytes());
        }
    }
    fn plain_len(&self) -> usize {
        4 + self.as_bytes().len()
    }
    fn delta(values: &[Self], out: &mut Vec<u8>) -> anyhow::Result<()> {
        delta_byte_array(out, values.iter().map(ByteArray::as_bytes));
        Ok(())
    }
    fn stat(&self) -> Vec<u8> {
        self.as_bytes().to_vec()
    }
    fn order(&self, other: &Self) -> Option<Ordering> {
        Some(self.as_bytes().cmp(other.as_bytes()))
    }
}

/// The numeric types, which take no delta encoding here.
macro_rules! numeric {
    ($t:ty, $code:expr, $key:ty, $to_key:expr, $order:expr) => {
        impl Physical for $t {
            const CODE: i32 = $code;
            type Key = $key;
            fn key(&self) -> $key {
                $to_key(*self)
            }
            fn plain(values: &[Self], out: &mut Vec<u8>) {
                for v in values {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            fn plain_len(&self) -> usize {
                std::mem::size_of::<$t>()
            }
            fn delta(_: &[Self], _: &mut Vec<u8>) -> anyhow::Result<()> {
                anyhow::bail!("DELTA_BYTE_ARRAY is for text columns")
            }
            fn stat(&self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            fn order(&self, other: &Self) -> Option<Ordering> {
                $order(*self, *other)
            }
        }
    };
}

numeric!(i32, code::INT32, i32, |v| v, |a: i32, b: i32| Some(
    (a as u32).cmp(&(b as u32))
));
numeric!(i64, code::INT64, i64, |v| v, |a: i64, b: i64| Some(
    (a as u64).cmp(&(b as u64))
));
numeric!(f64, code::DOUBLE, u64, f64::to_bits, |a: f64, b: f64| a
    .partial_cmp(&b));

impl Physical for bool {
    const CODE: i32 = code::BOOLEAN;
    type Key = bool;
    fn key(&self) -> bool {
        *self
    }
    fn plain(values: &[Self], out: &mut Vec<u8>) {
        crate::encode::bit_pack(out, values.iter().map(|&b| u64::from(b)), 1);
    }
    fn plain_len(&self) -> usize {
        1
    }
    fn delta(_: &[Self], _: &mut Vec<u8>) -> anyhow::Result<()> {
        anyhow::bail!("DELTA_BYTE_ARRAY is for text columns")
    }
    fn stat(&self) -> Vec<u8> {
        vec![u8::from(*self)]
    }
    fn order(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A chunk's dictionary: its values in the order of their keys.
struct Dictionary<T: Physical> {
    keys: HashMap<T::Key, u32, BuildHasherDefault<Quick>>,
    values: Vec<T>,
    bytes: usize,
}

/// A column chunk's values being encoded, page by page.
struct Encoder<T: Physical> {
    /// While the chunk is dictionary encoded.
    dictionary: Option<Dictionary<T>>,
    /// The current page's keys into the dictionary, or its values.
    keys: Vec<u32>,
    values: Vec<T>,
    /// The PLAIN size of `values`.
    bytes: usize,
    /// DELTA_BYTE_ARRAY instead of PLAIN.
    delta: bool,
    /// The data pages written, for the chunk's statistics and its column
    /// index.
    written: Vec<PageStats<T>>,
}

/// A data page's least and greatest values (none in a page of nulls),
/// and its nulls.
struct PageStats<T> {
    least: Option<T>,
    greatest: Option<T>,
    values: usize,
    nulls: usize,
}

/// The least and greatest of `values` in their type's order, leaving
/// out values outside it (NaN).
fn extremes<'a, T: Physical + 'a>(values: impl Iterator<Item = &'a T>) -> (Option<T>, Option<T>) {
    let (mut least, mut greatest): (Option<&T>, Option<&T>) = (None, None);
    for v in values {
        if v.order(v).is_none() {
            continue;
        }
        if least.is_none_or(|m| v.order(m) == Some(Ordering::Less)) {
            least = Some(v);
        }
        if greatest.is_none_or(|m| v.order(m) == Some(Ordering::Greater)) {
            greatest = Some(v);
        }
    }
    (least.cloned(), greatest.cloned())
}

/// What a chunk's pages share, whatever the type of its values.
struct Pages {
    name: String,
    nullable: bool,
    compressor: zstd::bulk::Compressor<'static>,
    /// The current page's definition levels (optional columns) and rows.
    levels: Vec<u32>,
    rows: usize,
    /// The pages written: the dictionary's apart, since it comes first.
    dictionary: Option<Vec<u8>>,
    data: Vec<u8>,
    /// Bytes of the pages, headers included, before and after compression.
    uncompressed: u64,
    compressed: u64,
    encodings: Vec<i32>,
    /// Each data page's offset in `data`, size and first row.
    locations: Vec<(u64, i32, i64)>,
    /// Rows of the chunk, values and nulls.
    total: u64,
}

impl Pages {
    /// Compresses `body` and appends it as a page with `header` (which
    /// this completes with the page's sizes and type).
    fn page(
        &mut self,
        body: &[u8],
        dictionary: bool,
        header: impl FnOnce(&mut Writer),
    ) -> anyhow::Result<Vec<u8>> {
        let packed = self
            .compressor
            .compress(body)
            .with_context(|| format!("cannot compress a page of Parquet column {:?}", self.name))?;
        let mut h = Writer::default();
        h.open();
        h.i32(
            1,
            if dictionary {
                code::DICTIONARY_PAGE
            } else {
                code::DATA_PAGE
            },
        );
        h.i32(2, size(body.len())?);
        h.i32(3, size(packed.len())?);
        header(&mut h);
        h.end();
        let mut page = h.into_bytes();
        self.uncompressed += (page.len() + body.len()) as u64;
        self.compressed += (page.len() + packed.len()) as u64;
        page.extend_from_slice(&packed);
        Ok(page)
    }

    fn data_page(&mut self, body: &[u8], encoding: i32) -> anyhow::Result<()> {
        let rows = size(self.rows)?;
        let page = self.page(body, false, |h| {
            h.begin(5);
            h.i32(1, rows);
            h.i32(2, encoding);
            h.i32(3, code::RLE);
            h.i32(4, code::RLE);
            h.end();
        })?;
        let first = i64::try_from(self.total)? - i64::from(rows);
        self.locations
            .push((self.data.len() as u64, size(page.len())?, first));
        self.data.extend_from_slice(&page);
        self.uses(encoding);
        self.levels.clear();
        self.rows = 0;
        Ok(())
    }

    fn uses(&mut self, encoding: i32) {
        if !self.encodings.contains(&encoding) {
            self.encodings.push(encoding);
        }
    }
}

/// A page's size as the format's `i32`.
fn size(n: usize) -> anyhow::Result<i32> {
    i32::try_from(n).context("a Parquet page over 2 GiB")
}

impl<T: Physical> Encoder<T> {
    fn new(dictionary: bool, delta: bool) -> Encoder<T> {
        Encoder {
            dictionary: dictionary.then(|| Dictionary {
                keys: HashMap::default(),
                values: Vec::new(),
                bytes: 0,
            }),
            keys: Vec::new(),
            values: Vec::new(),
            bytes: 0,
            delta,
            written: Vec::new(),
        }
    }

    fn write(&mut self, pages: &mut Pages, values: &[T], levels: Option<&[i16]>) -> anyhow::Result<()> {
        let name = &pages.name;
        match (pages.nullable, levels) {
            (false, Some(_)) => anyhow::bail!("Parquet column {name:?} is required: it takes no nulls"),
            (true, None) => {
                anyhow::bail!("Parquet column {name:?} is optional: its definition levels are needed")
            }
            _ => {}
        }
        if let Some(levels) = levels {
            anyhow::ensure!(
                levels.iter().all(|&l| l == 0 || l == 1),
                "Parquet column {name:?}: a definition level other than 0 or 1"
            );
            let defined = levels.iter().filter(|&&l| l == 1).count();
            anyhow::ensure!(
                defined == values.len(),
                "Parquet column {name:?}: {} values for {defined} rows with a value",
                values.len()
            );
        }
        let rows = levels.map_or(values.len(), <[i16]>::len);
        let mut next = 0;
        for row in 0..rows {
            let present = levels.is_none_or(|l| l[row] == 1);
            // The value first: a page it ends (a dictionary given up)
            // holds the rows before this one.
            if present {
                self.push(pages, &values[next])?;
                next += 1;
            }
            if levels.is_some() {
                pages.levels.push(u32::from(present));
            }
            pages.rows += 1;
            pages.total += 1;
            if pages.rows >= PAGE_ROWS || self.bytes >= PAGE_BYTES {
                self.flush(pages)?;
            }
        }
        Ok(())
    }

    fn push(&mut self, pages: &mut Pages, v: &T) -> anyhow::Result<()> {
        if let Some(d) = &mut self.dictionary {
            if let Some(&key) = d.keys.get(&v.key()) {
                self.keys.push(key);
                return Ok(());
            }
            if d.bytes + v.plain_len() <= DICTIONARY_BYTES {
                let key = u32::try_from(d.values.len())?;
                d.keys.insert(v.key(), key);
                d.values.push(v.clone());
                d.bytes += v.plain_len();
                self.keys.push(key);
                return Ok(());
            }
            // The values are mostly different: the pages so far keep
            // their keys, the rest of the chunk is PLAIN.
            self.flush(pages)?;
            self.write_dictionary(pages)?;
        }
        self.bytes += v.plain_len();
        self.values.push(v.clone());
        Ok(())
    }

    fn write_dictionary(&mut self, pages: &mut Pages) -> anyhow::Result<()> {
        if let Some(d) = self.dictionary.take() {
            if d.values.is_empty() && !pages.encodings.contains(&code::RLE_DICTIONARY) {
                return Ok(());
            }
            let mut body = Vec::with_capacity(d.bytes);
            T::plain(&d.values, &mut body);
            let entries = size(d.values.len())?;
            let page = pages.page(&body, true, |h| {
                h.begin(7);
                h.i32(1, entries);
                h.i32(2, code::PLAIN);
                h.end();
            })?;
            pages.dictionary = Some(page);
            pages.uses(code::PLAIN);
        }
        Ok(())
    }

    /// Writes the current page, if it has rows.
    fn flush(&mut self, pages: &mut Pages) -> anyhow::Result<()> {
        if pages.rows == 0 {
            return Ok(());
        }
        self.page(pages)
    }

    /// Writes the current page, even empty.
    fn page(&mut self, pages: &mut Pages) -> anyhow::Result<()> {
        let (least, greatest, values) = match &self.dictionary {
            Some(d) => {
                // Each value of the page once: its keys, then their values.
                let mut used = vec![false; d.values.len()];
                for &k in &self.keys {
                    used[k as usize] = true;
                }
                let (l, g) = extremes(d.values.iter().zip(used).filter(|(_, u)| *u).map(|(v, _)| v));
                (l, g, self.keys.len())
            }
            None => {
                let (l, g) = extremes(self.values.iter());
                (l, g, self.values.len())
            }
        };
        self.written.push(PageStats {
            least,
            greatest,
            values,
            nulls: pages.rows - values,
        });
        let mut body = Vec::with_capacity(self.bytes + 64);
        if pages.nullable {
            let mut levels = Vec::new();
            rle(&mut levels, &pages.levels, 1);
            body.extend_from_slice(&(levels.len() as u32).to_le_bytes());
            body.extend_from_slice(&levels);
        }
        let encoding = if let Some(d) = &self.dictionary {
            let w = width(d.values.len().saturating_sub(1) as u64);
            body.push(w as u8);
            rle(&mut body, &self.keys, w);
            code::RLE_DICTIONARY
        } else if self.delta {
            T::delta(&self.values, &mut body)?;
            code::DELTA_BYTE_ARRAY
        } else {
            T::plain(&self.values, &mut body);
            code::PLAIN
        };
        pages.data_page(&body, encoding)?;
        self.keys.clear();
        self.values.clear();
        self.bytes = 0;
        Ok(())
    }

    fn finish(mut self, pages: &mut Pages) -> anyhow::Result<Statistics> {
        if pages.total == 0 {
            // No rows: one empty PLAIN page, no dictionary.
            self.dictionary = None;
        }
        if pages.rows > 0 || pages.data.is_empty() {
            self.page(pages)?;
        }
        self.write_dictionary(pages)?;
        let (least, _) = extremes(self.written.iter().filter_map(|p| p.least.as_ref()));
        let (_, greatest) = extremes(self.written.iter().filter_map(|p| p.greatest.as_ref()));
        Ok(Statistics {
            least: least.as_ref().map(T::stat),
            greatest: greatest.as_ref().map(T::stat),
            nulls: self.written.iter().map(|p| p.nulls as u64).sum(),
            column_index: self.column_index(),
        })
    }

    /// The chunk's column index (each data page's least and greatest
    /// values and nulls, which let a reader skip pages), or none when a
    /// page has values but none in order (NaN only).
    fn column_index(&self) -> Option<Vec<u8>> {
        let pages = &self.written;
        if pages.iter().any(|p| p.values > 0 && p.least.is_none()) {
            return None;
        }
        let filled: Vec<&PageStats<T>> = pages.iter().filter(|p| p.least.is_some()).collect();
        let rises = |get: fn(&PageStats<T>) -> &Option<T>, want: Ordering| {
            filled.windows(2).all(|w| {
                let (a, b) = (get(w[0]).as_ref(), get(w[1]).as_ref());
                a.zip(b)
                    .and_then(|(a, b)| a.order(b))
                    .is_some_and(|o| o == want || o == Ordering::Equal)
            })
        };
        fn least<T>(p: &PageStats<T>) -> &Option<T> {
            &p.least
        }
        fn greatest<T>(p: &PageStats<T>) -> &Option<T> {
            &p.greatest
        }
        // BoundaryOrder: 1 ascending, 2 descending, 0 neither.
        let order = if rises(least::<T>, Ordering::Less) && rises(greatest::<T>, Ordering::Less) {
            1
        } else if rises(least::<T>, Ordering::Greater) && rises(greatest::<T>, Ordering::Greater) {
            2
        } else {
            0
        };
        let mut w = Writer::default();
        w.open();
        w.list(1, LIST_BOOL, pages.len());
        for p in pages {
            w.element_bool(p.values == 0);
        }
        w.list(2, LIST_BINARY, pages.len());
        for p in pages {
            w.element_binary(&p.least.as_ref().map(T::stat).unwrap_or_default());
        }
        w.list(3, LIST_BINARY, pages.len());
        for p in pages {
            w.element_binary(&p.greatest.as_ref().map(T::stat).unwrap_or_default());
        }
        w.i32(4, order);
        w.list(5, LIST_I64, pages.len());
        for p in pages {
            w.element_i64(p.nulls as i64);
        }
        w.end();
        Some(w.into_bytes())
    }
}

/// A chunk's least and greatest values and its nulls, as the footer
/// holds them, and its column index.
pub(crate) struct Statistics {
    pub least: Option<Vec<u8>>,
    pub greatest: Option<Vec<u8>>,
    pub nulls: u64,
    pub column_index: Option<Vec<u8>>,
}

/// A [`ChunkWriter`]'s encoder, by the column's physical type.
enum Typed {
    Text(Encoder<ByteArray>),
    Int32(Encoder<i32>),
    Int64(Encoder<i64>),
    Bool(Encoder<bool>),
    Double(Encoder<f64>),
}

/// One column chunk encoded and compressed into memory, on any thread:
/// the row groups of a file can then be encoded in parallel and appended
/// to it in order ([`crate::FileWriter::append`]).
pub struct ChunkWriter {
    column: usize,
    kind: Kind,
    pages: Pages,
    typed: Typed,
}

/// A column chunk encoded by a [`ChunkWriter`], waiting to be appended.
pub struct Chunk {
    pub(crate) column: usize,
    pub(crate) bytes: Vec<u8>,
    pub(crate) meta: ChunkMeta,
}

/// What the footer says of a chunk; offsets count from the chunk's start.
pub(crate) struct ChunkMeta {
    pub name: String,
    pub physical: i32,
    pub encodings: Vec<i32>,
    pub rows: u64,
    pub uncompressed: u64,
    pub compressed: u64,
    pub data_offset: u64,
    pub dictionary_offset: Option<u64>,
    pub statistics: Statistics,
    /// Each data page's offset from the chunk's start, size and first row.
    pub locations: Vec<(u64, i32, i64)>,
}

impl ChunkWriter {
    /// A chunk of column `column` (its place in the schema), `field`;
    /// dictionary encoded unless `delta`
    /// (text columns only) or a boolean column.
    pub(crate) fn new(column: usize, field: &Field, delta: bool) -> anyhow::Result<ChunkWriter> {
        let dictionary = !delta && field.kind != Kind::Bool;
        anyhow::ensure!(
            !delta || field.kind == Kind::Text,
            "Parquet column {:?}: only text columns take DELTA_BYTE_ARRAY",
            field.name
        );
        let typed = match field.kind {
            Kind::Text => Typed::Text(Encoder::new(dictionary, delta)),
            Kind::U8 | Kind::U16 | Kind::U32 => Typed::Int32(Encoder::new(dictionary, false)),
            Kind::U64 => Typed::Int64(Encoder::new(dictionary, false)),
            Kind::Bool => Typed::Bool(Encoder::new(false, false)),
            Kind::F64 => Typed::Double(Encoder::new(dictionary, false)),
        };
        let compressor = zstd::bulk::Compressor::new(ZSTD_LEVEL).context("cannot start zstd")?;
        Ok(ChunkWriter {
            column,
            kind: field.kind,
            pages: Pages {
                name: field.name.clone(),
                nullable: field.nullable,
                compressor,
                levels: Vec::new(),
                rows: 0,
                dictionary: None,
                data: Vec::new(),
                uncompressed: 0,
                compressed: 0,
                encodings: vec![code::RLE],
                locations: Vec::new(),
                total: 0,
            },
            typed,
        })
    }

    /// Adds rows: `values`, and `defined` when the column is optional
    /// (one level a row: 1 for a value, 0 for a null).
    ///
    /// # Errors
    /// Values of another type than the column's, levels given for a
    /// required column or missing for an optional one, levels that do
    /// not match the values, or a compression failure.
    pub fn write(&mut self, values: &Values, defined: Option<&[i16]>) -> anyhow::Result<()> {
        let pages = &mut self.pages;
        match (&mut self.typed, values) {
            (Typed::Text(e), Values::Text(v)) => e.write(pages, v, defined),
            (Typed::Int32(e), Values::Int32(v)) => e.write(pages, v, defined),
            (Typed::Int64(e), Values::Int64(v)) => e.write(pages, v, defined),
            (Typed::Bool(e), Values::Bool(v)) => e.write(pages, v, defined),
            (Typed::Double(e), Values::Double(v)) => e.write(pages, v, defined),
            _ => anyhow::bail!(
                "Parquet column {:?} holds {:?}, not these values",
                pages.name,
                self.kind
            ),
        }
    }

    /// The chunk of `values` alone (see [`ChunkWriter::write`]).
    ///
    /// # Errors
    /// As [`ChunkWriter::write`] and [`ChunkWriter::finish`].
    pub fn encode(mut self, values: &Values, defined: Option<&[i16]>) -> anyhow::Result<Chunk> {
        self.write(values, defined)?;
        self.finish()
    }

    /// Encodes what is left and gives the chunk.
    ///
    /// # Errors
    /// A compression failure.
    pub fn finish(self) -> anyhow::Result<Chunk> {
        let mut pages = self.pages;
        let (physical, statistics) = match self.typed {
            Typed::Text(e) => (ByteArray::CODE, e.finish(&mut pages)?),
            Typed::Int32(e) => (i32::CODE, e.finish(&mut pages)?),
            Typed::Int64(e) => (i64::CODE, e.finish(&mut pages)?),
            Typed::Bool(e) => (bool::CODE, e.finish(&mut pages)?),
            Typed::Double(e) => (f64::CODE, e.finish(&mut pages)?),
        };
        let dictionary = pages.dictionary.unwrap_or_default();
        let data_offset = dictionary.len() as u64;
        let mut bytes = dictionary;
        bytes.extend_from_slice(&pages.data);
        pages.encodings.sort_unstable();
        Ok(Chunk {
            column: self.column,
            bytes,
            meta: ChunkMeta {
                name: pages.name,
                physical,
                encodings: pages.encodings,
                rows: pages.total,
                uncompressed: pages.uncompressed,
                compressed: pages.compressed,
                data_offset,
                dictionary_offset: (data_offset > 0).then_some(0),
                statistics,
                locations: pages
                    .locations
                    .iter()
                    .map(|&(at, size, first)| (data_offset + at, size, first))
                    .collect(),
            },
        })
    }
}
