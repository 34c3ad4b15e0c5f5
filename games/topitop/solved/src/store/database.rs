//! Reading a database from its bytes, wherever they live: checked on
//! opening, blocks decompressed on demand into a shared cache.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use games_topitop_rules::geometry::Slide;
use games_topitop_rules::group::{group_len, half_slides, plausible_slides, slot, MAX_GROUP};
use games_topitop_rules::{symmetry, Board, Player, Position, Rules, StateIndex, Value};
use games_topitop_table::{GroupIndex, Record, Solution};
use rayon::prelude::*;
use topitop_db::DbError;

use crate::store::block::{Block, SymbolOrder};
use crate::store::cache::{BlockCache, CacheStats};
use crate::store::header::{
    checksum, BlockEntry, Header, COMPACT_ENTRY_LEN, ENTRY_LEN, FIXED_LEN, VERSION_GROUP_ORDER,
};

/// Default bytes of decompressed blocks kept: enough for the whole standard
/// game, so that a server never decompresses a block twice.
pub const DEFAULT_CACHE_BYTES: usize = 256 << 20;

/// An open database over the bytes `D` of its file: a `Vec<u8>` read into
/// memory ([`Database::open`]), a memory map ([`Database::map`]) or any
/// buffer a test or fuzzer holds ([`Database::new`]). `Send + Sync` when
/// `D` is: share it between threads by reference or in an `Arc`.
pub struct Database<D = Vec<u8>> {
    path: PathBuf,
    bytes: D,
    header: Header,
    table: Vec<BlockEntry>,
    index: StateIndex,
    cache: BlockCache,
}

/// The largest decompressed block that `header` allows.
fn max_raw(header: &Header) -> u64 {
    let sizes = u64::from(header.stores_sizes());
    u64::from(header.block_boards) * (sizes + MAX_GROUP as u64 * u64::from(header.symbol_width))
}

impl Database<Vec<u8>> {
    /// Reads the database at `path` into memory and checks the header, the
    /// block table and their checksums (blocks are checked when first read,
    /// or all at once by [`Database::verify_blocks`]). Nothing that happens
    /// to the file afterwards affects the database.
    ///
    /// # Errors
    /// The file cannot be read, or is not a valid database; the error names
    /// the file.
    pub fn open(path: impl AsRef<Path>) -> Result<Database, DbError> {
        Database::open_with_cache(path, DEFAULT_CACHE_BYTES)
    }

    /// [`Database::open`] with a cache of `cache_bytes` decompressed bytes.
    ///
    /// # Errors
    /// As [`Database::open`].
    pub fn open_with_cache(path: impl AsRef<Path>, cache_bytes: usize) -> Result<Database, DbError> {
        let path = path.as_ref();
        let bytes = read_file(path)?;
        Database::with_cache(path, bytes, cache_bytes)
    }
}

/// The most bytes a header can take: the fixed part, the largest codebook
/// and the checksum.
const MAX_HEADER: u64 = FIXED_LEN as u64 + 2 * 65_535 + 8;

/// Reads the database file at `path`, checking before it reads the whole
/// that it is a regular file (a FIFO or device is refused at once), that it
/// starts as a database does, and that its length is the one its header
/// gives: memory is only ever taken for a file that can be a database.
fn read_file(path: &Path) -> Result<Vec<u8>, DbError> {
    let io = |source| DbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = topitop_files::open_regular(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut bytes = Vec::new();
    let mut reader = std::io::Read::take(file, MAX_HEADER.min(len));
    std::io::Read::read_to_end(&mut reader, &mut bytes).map_err(io)?;
    let header = Header::decode(&bytes).map_err(|e| e.in_file(path))?;
    let expected = header.table_offset.saturating_add(header.table_len());
    if expected > len {
        return Err(DbError::Truncated {
            what: "the file (as its header gives it)",
            start: 0,
            end: expected,
            len,
        }
        .in_file(path));
    }
    if expected < len {
        return Err(DbError::corrupt(
            "file",
            format!(
                "{} bytes after the block table, which ends the file",
                len - expected
            ),
        )
        .in_file(path));
    }
    let mut file = reader.into_inner();
    bytes.reserve_exact((len - bytes.len() as u64) as usize);
    std::io::Read::read_to_end(&mut std::io::Read::take(&mut file, len), &mut bytes).map_err(io)?;
    Ok(bytes)
}

impl<D: AsRef<[u8]> + Sync> Database<D> {
    /// The database held in `bytes`; `name` stands for its path in errors.
    /// Checks the header, the block table and their checksums.
    ///
    /// # Errors
    /// The bytes are not a valid database.
    pub fn new(name: impl Into<PathBuf>, bytes: D) -> Result<Database<D>, DbError> {
        Database::with_cache(name, bytes, DEFAULT_CACHE_BYTES)
    }

    /// [`Database::new`] with a cache of `cache_bytes` decompressed bytes.
    ///
    /// # Errors
    /// As [`Database::new`].
    pub fn with_cache(
        name: impl Into<PathBuf>,
        bytes: D,
        cache_bytes: usize,
    ) -> Result<Database<D>, DbError> {
        let path = name.into();
        Database::from_parts(path.clone(), bytes, cache_bytes).map_err(|e| e.in_file(path))
    }

    fn from_parts(path: PathBuf, bytes: D, cache_bytes: usize) -> Result<Database<D>, DbError> {
        let file = bytes.as_ref();
        let len = file.len() as u64;
        let header = Header::decode(file)?;
        let index = StateIndex::new(header.rules.budget());
        if header.boards != index.boards() {
            return Err(DbError::corrupt(
                "header",
                format!(
                    "{} boards, but budget {} has {}",
                    header.boards,
                    header.rules.budget(),
                    index.boards()
                ),
            ));
        }
        let start = header.table_offset;
        let end = start.saturating_add(header.table_len());
        if end > len || start < header.encoded_len() as u64 {
            return Err(DbError::Truncated {
                what: "the block table",
                start,
                end,
                len,
            });
        }
        if end < len {
            // The table ends the file: bytes after it are no checksum's.
            return Err(DbError::corrupt(
                "file",
                format!("{} bytes after the block table, which ends the file", len - end),
            ));
        }
        let table_bytes = &file[start as usize..end as usize];
        let (entries, sum) = table_bytes.split_at(table_bytes.len() - 8);
        let stored = u64::from_le_bytes(sum.try_into().unwrap_or([0; 8]));
        let computed = checksum(entries);
        if stored != computed {
            return Err(DbError::Checksum {
                what: "block table".into(),
                stored,
                computed,
            });
        }
        let table: Vec<BlockEntry> = if header.stores_sizes() {
            entries.chunks_exact(ENTRY_LEN).map(BlockEntry::decode).collect()
        } else {
            // Offsets follow the lengths; the decompressed length is
            // bounded here and checked exactly when the block decodes
            // against its boards' group sizes.
            let mut offset = header.encoded_len() as u64;
            entries
                .chunks_exact(COMPACT_ENTRY_LEN)
                .map(|e| {
                    let compressed = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
                    let entry = BlockEntry {
                        offset,
                        compressed,
                        raw: max_raw(&header) as u32,
                        checksum: u64::from_le_bytes(e[4..12].try_into().unwrap_or([0; 8])),
                    };
                    offset = offset.saturating_add(u64::from(compressed));
                    entry
                })
                .collect()
        };
        let mut next = header.encoded_len() as u64;
        for (b, e) in table.iter().enumerate() {
            let stop = e.offset.checked_add(u64::from(e.compressed));
            if e.offset < next || stop.is_none_or(|s| s > start) || e.compressed == 0 {
                return Err(DbError::corrupt(
                    "block table",
                    format!(
                        "block {b} at {}..+{} is outside the data area or overlaps block {}",
                        e.offset,
                        e.compressed,
                        b.max(1) - 1
                    ),
                ));
            }
            if u64::from(e.raw) > max_raw(&header) {
                return Err(DbError::corrupt(
                    "block table",
                    format!("block {b} claims {} decompressed bytes", e.raw),
                ));
            }
            next = e.offset + u64::from(e.compressed);
        }
        if !header.stores_sizes() && next != start {
            // No bytes between the blocks and the table that no checksum
            // covers.
            return Err(DbError::corrupt(
                "block table",
                format!("its blocks end at {next}, not at the table at {start}"),
            ));
        }
        let blocks = table.len();
        Ok(Database {
            path,
            bytes,
            header,
            table,
            index,
            cache: BlockCache::new(blocks, cache_bytes),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header as read and checked when the file was opened.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The rules the database solves.
    pub fn rules(&self) -> Rules {
        self.header.rules
    }

    /// The dense state index of the database's budget.
    pub fn index(&self) -> &StateIndex {
        &self.index
    }

    /// Bytes of the file.
    pub fn file_len(&self) -> u64 {
        self.bytes.as_ref().len() as u64
    }

    /// Cache hits, misses and resident bytes so far.
    pub fn cache_stats(&self) -> CacheStats {
        self.cache.stats()
    }

    /// Number of blocks.
    pub fn blocks(&self) -> usize {
        self.table.len()
    }

    /// Boards held by block `b`.
    fn block_boards(&self, b: usize) -> usize {
        let first = b as u64 * u64::from(self.header.block_boards);
        (self.header.boards - first).min(u64::from(self.header.block_boards)) as usize
    }

    /// Reads, checks and decodes block `b` without the cache.
    fn load(&self, b: usize) -> Result<Block, DbError> {
        let e = self.table[b];
        let start = e.offset as usize;
        let bytes = &self.bytes.as_ref()[start..start + e.compressed as usize];
        let computed = checksum(bytes);
        if computed != e.checksum {
            return Err(DbError::Checksum {
                what: format!("block {b}"),
                stored: e.checksum,
                computed,
            });
        }
        // From version 3 the table gives only a bound: the frame's own
        // content size, within it, makes room for exactly the block.
        let room = match topitop_db::zstd_ctx::content_size(bytes) {
            Some(n) if !self.header.stores_sizes() && n <= u64::from(e.raw) => n as usize,
            _ => e.raw as usize,
        };
        let mut raw = topitop_db::zstd_ctx::decompress(bytes, room)
            .map_err(|err| DbError::corrupt(format!("block {b}"), format!("zstd: {err}")))?;
        if self.header.stores_sizes() && raw.len() != e.raw as usize {
            return Err(DbError::corrupt(
                format!("block {b}"),
                format!("{} bytes decompressed, the table says {}", raw.len(), e.raw),
            ));
        }
        if !self.header.stores_sizes() {
            // The sizes a writer of version 2 stored, from the boards: the
            // block then decodes as one of version 2 did.
            let mut sized = self.group_sizes(b)?;
            sized.extend_from_slice(&raw);
            raw = sized;
        }
        Block::decode(
            b as u64,
            raw,
            self.block_boards(b),
            usize::from(self.header.symbol_width),
            self.header.codebook.len(),
            if self.header.version == VERSION_GROUP_ORDER {
                SymbolOrder::Groups
            } else {
                SymbolOrder::HeadsAndTails
            },
        )
    }

    /// The group size of each board of block `b`, as the rules give it:
    /// [`group_len`] for a canonical board, 0 for any other.
    fn group_sizes(&self, b: usize) -> Result<Vec<u8>, DbError> {
        let first = b as u64 * u64::from(self.header.block_boards);
        let boards = self.block_boards(b);
        let mut sizes = Vec::with_capacity(boards);
        for board in self.index.board_walk(first, first + boards as u64) {
            let canonical =
                symmetry::non_canonical_prefix(board).is_none() && symmetry::board_standing(board).canonical;
            sizes.push(if canonical { group_len(board) as u8 } else { 0 });
        }
        if sizes.len() != boards {
            return Err(DbError::corrupt(
                format!("block {b}"),
                format!("its boards end after {} of {boards}", sizes.len()),
            ));
        }
        Ok(sizes)
    }

    fn block(&self, b: usize) -> Result<Arc<Block>, DbError> {
        self.cache
            .get(b, || self.load(b))
            .map_err(|e| e.in_file(&self.path))
    }

    /// The value and remoteness of `pos` (any of its symmetric images).
    ///
    /// # Errors
    /// The position is not in the database's index, or the block holding it
    /// is corrupt.
    pub fn get(&self, pos: Position) -> Result<Record, DbError> {
        let key = symmetry::canonical(pos);
        let not_here = || not_indexable(pos);
        let n = self.index.board_number(key.board()).map_err(|_| not_here())?;
        let at = slot(key).ok_or_else(not_here)?;
        let per = u64::from(self.header.block_boards);
        let b = (n / per) as usize;
        let j = (n % per) as usize;
        let block = self.block(b)?;
        let symbol = block
            .symbol(b as u64, j, at, group_len(key.board()))
            .map_err(|e| e.in_file(&self.path))?;
        Ok(Record::from_bits(self.header.codebook[symbol]).unwrap_or(Record::UNSOLVED))
    }

    /// The stored positions of block `b` that are canonical (one per
    /// symmetry class) with their records, in storage order.
    ///
    /// # Errors
    /// The block is corrupt.
    pub fn block_positions(&self, b: usize) -> Result<Vec<(Position, Record)>, DbError> {
        let mut out = Vec::new();
        self.for_each_group(b, |_, stored| {
            out.extend_from_slice(stored);
            Ok::<(), DbError>(())
        })?;
        Ok(out)
    }

    /// Calls `f` once for each board of block `b` that stores records, in
    /// storage order, with the board and the positions of its group that
    /// are canonical (one per symmetry class) with their records, in group
    /// order: Blue's half, then Red's. A caller that works per half (one
    /// board and side to move) does its board work once this way.
    ///
    /// # Errors
    /// The block is corrupt, or `f` failed.
    pub fn for_each_group<E: From<DbError>>(
        &self,
        b: usize,
        f: impl FnMut(Board, &[(Position, Record)]) -> Result<(), E>,
    ) -> Result<(), E> {
        let block = self.block(b)?;
        self.each_group_of(b, &block, f)
    }

    /// [`Database::for_each_group`] of `block`, block `b` as decoded.
    fn each_group_of<E: From<DbError>>(
        &self,
        b: usize,
        block: &Block,
        mut f: impl FnMut(Board, &[(Position, Record)]) -> Result<(), E>,
    ) -> Result<(), E> {
        let first = b as u64 * u64::from(self.header.block_boards);
        let mut stored = Vec::with_capacity(MAX_GROUP);
        let mut boards = self.index.board_walk(first, first + block.boards() as u64);
        let mut at = 0;
        for j in 0..block.boards() {
            let board = boards.next().ok_or_else(|| {
                DbError::corrupt(format!("block {b}"), format!("board {j} is past the last board"))
                    .in_file(&self.path)
            })?;
            let size = block.size(j);
            let standing = symmetry::board_standing(board);
            let expected = if standing.canonical { group_len(board) } else { 0 };
            if size != expected {
                return Err(DbError::corrupt(
                    format!("block {b}"),
                    format!("board {j} ({board}) stores {size} records, expected {expected}"),
                )
                .in_file(&self.path)
                .into());
            }
            if size == 0 {
                continue;
            }
            stored.clear();
            let mut symbols = block.symbols_from(at, size);
            let mask = plausible_slides(board);
            for turn in [Player::Blue, Player::Red] {
                for d in half_slides(mask) {
                    let pos = Position::new(board, turn, Slide::from_id(d));
                    let Some(symbol) = symbols.next() else { break };
                    // A board smaller than all its other images makes every
                    // position of its group canonical; only a board a
                    // symmetry fixes keeps positions that are images of others.
                    if !standing.self_symmetric || symmetry::canonical(pos) == pos {
                        let bits = self.header.codebook[symbol];
                        stored.push((pos, Record::from_bits(bits).unwrap_or(Record::UNSOLVED)));
                    }
                }
            }
            at += size;
            f(board, &stored)?;
        }
        Ok(())
    }

    /// Checks every block: checksum, decompression, structure, that the
    /// records add up to the header's count, and the header's figures
    /// (counts by value, one per symmetry class, and the largest
    /// remoteness) against the records. Calls `progress(done, total)` as
    /// blocks finish.
    ///
    /// # Errors
    /// The first problem found.
    pub fn verify_blocks(&self, progress: impl Fn(usize, usize) + Sync) -> Result<(), DbError> {
        let total = self.table.len();
        let done = std::sync::atomic::AtomicUsize::new(0);
        let (records, figures) = (0..total)
            .into_par_iter()
            .map(|b| {
                let block = self.load(b).map_err(|e| e.in_file(&self.path))?;
                let mut figures = Figures::default();
                self.each_group_of(b, &block, |_, stored| {
                    stored.iter().for_each(|(_, r)| figures.add(*r));
                    Ok::<(), DbError>(())
                })?;
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                if n.is_multiple_of(64) || n == total {
                    progress(n, total);
                }
                Ok((block.records(), figures))
            })
            .try_reduce(|| (0, Figures::default()), |a, b| Ok((a.0 + b.0, a.1.merge(b.1))))?;
        self.compare_figures(figures.counts, figures.largest)?;
        if records != self.header.records {
            return Err(DbError::corrupt(
                "blocks",
                format!(
                    "{records} records stored, the header says {}",
                    self.header.records
                ),
            )
            .in_file(&self.path));
        }
        Ok(())
    }

    /// The whole table as a [`Solution`] (the groups of canonical boards),
    /// e.g. for the Bellman check. Takes 2 bytes per stored record.
    ///
    /// # Errors
    /// A block is corrupt or does not hold the groups the layout calls for.
    pub fn to_solution(&self, progress: impl Fn(usize, usize) + Sync) -> Result<Solution, DbError> {
        let solution = self.records_whole(progress)?;
        self.check_figures(&solution)?;
        Ok(solution)
    }

    /// [`Database::to_solution`] without checking the header's figures
    /// against the records, which the shared `verify` does not check (its
    /// loaded and block-by-block lookups must find the same).
    ///
    /// # Errors
    /// As [`Database::to_solution`], but for the figures.
    pub(crate) fn records_whole(&self, progress: impl Fn(usize, usize) + Sync) -> Result<Solution, DbError> {
        let index = GroupIndex::new(self.header.rules.budget(), true);
        let mut records = Vec::with_capacity(index.len() as usize);
        let total = self.table.len();
        let per = u64::from(self.header.block_boards);
        let batch = 256;
        for first in (0..total).step_by(batch) {
            let parts: Vec<Vec<Record>> = (first..(first + batch).min(total))
                .into_par_iter()
                .map(|b| self.block_records(&index, b as u64 * per, b))
                .collect::<Result<_, _>>()?;
            records.extend(parts.into_iter().flatten());
            progress((first + batch).min(total), total);
        }
        if records.len() as u64 != index.len() {
            return Err(DbError::corrupt(
                "blocks",
                format!(
                    "{} records stored where the layout has {}",
                    records.len(),
                    index.len()
                ),
            )
            .in_file(&self.path));
        }
        Ok(Solution::from_index(self.header.rules, index, records))
    }

    /// Checks the header's figures against the records: the counts by
    /// value and the largest remoteness. (The symmetry flag says how the
    /// solve ran; the records are the same either way, so nothing in them
    /// can confirm it. The header's checksum covers it.)
    fn check_figures(&self, solution: &Solution) -> Result<(), DbError> {
        self.compare_figures(solution.counts(), solution.largest_remoteness())
    }

    /// The header's figures against `counts` by value and the `largest`
    /// remoteness found in the records.
    fn compare_figures(&self, counts: [u64; 4], largest: u16) -> Result<(), DbError> {
        let wrong = |what: &str, header: String, records: String| {
            DbError::corrupt(
                "header",
                format!("{what} {header} in the header, {records} in the records"),
            )
            .in_file(&self.path)
        };
        if counts != self.header.counts {
            return Err(wrong(
                "counts by value (win, lose, tie, draw)",
                format!("{:?}", self.header.counts),
                format!("{counts:?}"),
            ));
        }
        if largest != self.header.max_remoteness {
            return Err(wrong(
                "largest remoteness",
                self.header.max_remoteness.to_string(),
                largest.to_string(),
            ));
        }
        Ok(())
    }

    /// The records of block `b` (whose first board is number `first`), in
    /// storage order, checking each group's size against `index`.
    fn block_records(&self, index: &GroupIndex, first: u64, b: usize) -> Result<Vec<Record>, DbError> {
        let block = self.block(b)?;
        let mut out = Vec::with_capacity(block.records() as usize);
        for j in 0..block.boards() {
            let expected = index
                .group_of_board(first + j as u64)
                .map_or(0, |g| index.group_records(g).end - index.group_records(g).start);
            if block.size(j) as u64 != expected {
                return Err(DbError::corrupt(
                    format!("block {b}"),
                    format!("board {j} stores {} records, expected {expected}", block.size(j)),
                )
                .in_file(&self.path));
            }
            out.extend(
                block.group_symbols(j).map(|symbol| {
                    Record::from_bits(self.header.codebook[symbol]).unwrap_or(Record::UNSOLVED)
                }),
            );
        }
        Ok(out)
    }
}

/// The error of a lookup of `pos`, which the index cannot number.
pub(crate) fn not_indexable(pos: Position) -> DbError {
    DbError::NotIndexable(format!(
        "position {pos} (over the piece budget or an impossible forbidden slide)"
    ))
}

/// The header's figures as a pass over the records finds them.
#[derive(Clone, Copy, Default)]
struct Figures {
    /// Records by value: win, lose, tie, draw.
    counts: [u64; 4],
    /// The largest remoteness of a win, loss or tie.
    largest: u16,
}

impl Figures {
    fn add(&mut self, r: Record) {
        if let Some(v) = r.value() {
            self.counts[v.index()] += 1;
            if v != Value::Draw {
                self.largest = self.largest.max(r.remoteness());
            }
        }
    }

    fn merge(self, o: Figures) -> Figures {
        Figures {
            counts: std::array::from_fn(|k| self.counts[k] + o.counts[k]),
            largest: self.largest.max(o.largest),
        }
    }
}
