//! Writing a database from a solution: streaming, block by block, to a
//! temporary file that is synced and then renamed over the target.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use games_topitop_table::{GroupIndex, Solution};
use rayon::prelude::*;
use topitop_db::DbError;

use crate::store::block::to_heads_and_tails;
use crate::store::header::{checksum, BlockEntry, Header, SCHEME_CANONICAL_BOARDS, VERSION};

/// How to write.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// Boards per block: smaller blocks decompress faster, larger ones
    /// compress better.
    pub block_boards: u32,
    /// zstd level.
    pub level: i32,
    /// Recorded in the header as the writing program.
    pub solver: String,
    /// The header's symmetry flag, when it is not the solution's own: a
    /// file rewritten from another keeps how its solve ran.
    pub solved_with_symmetry: Option<bool>,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            block_boards: 4096,
            // Level 9 makes the standard game's file 6% smaller than level 3
            // for about 5% more solving time (docs/benchmarks.md).
            level: 9,
            solver: concat!("topitop ", env!("CARGO_PKG_VERSION")).to_string(),
            solved_with_symmetry: None,
        }
    }
}

/// What was written.
#[derive(Clone, Debug)]
pub struct WriteSummary {
    /// The header written.
    pub header: Header,
    /// Bytes of the file.
    pub bytes: u64,
}

/// The distinct records of `solution` (the codebook, sorted), the counts
/// of solved positions by value and the largest remoteness.
fn census(solution: &Solution) -> (Vec<u16>, [u64; 4], u16) {
    let seen = solution
        .records()
        .par_chunks(1 << 20)
        .map(|chunk| {
            let mut seen = vec![false; 1 << 16];
            for r in chunk {
                seen[usize::from(r.bits())] = true;
            }
            seen
        })
        .reduce(
            || vec![false; 1 << 16],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x |= y);
                a
            },
        );
    let book = (0..=u16::MAX).filter(|&b| seen[usize::from(b)]).collect();
    (book, solution.counts(), solution.largest_remoteness())
}

/// The raw bytes of block `b`: symbols in heads and tails (after the
/// boards' group sizes in a version that stores them) ([`SymbolOrder::HeadsAndTails`](crate::store::block::SymbolOrder)), and
/// the number of records. `layout` numbers the stored groups (canonical
/// boards); the records come from `solution`, whose own numbering holds the
/// same groups in the same order.
fn raw_block(
    solution: &Solution,
    layout: &GroupIndex,
    header: &Header,
    symbol_of: &[u16],
    b: u64,
) -> (Vec<u8>, u64) {
    let first = b * u64::from(header.block_boards);
    let end = (first + u64::from(header.block_boards)).min(header.boards);
    let width = usize::from(header.symbol_width);
    let mut sizes = vec![0u8; (end - first) as usize];
    let mut symbols = Vec::new();
    let mut records = 0;
    let own = solution.index();
    layout.for_each_group_of_boards(first..end, |n, g| {
        let g = if solution.is_symmetric() {
            g
        } else {
            own.group_of_board(n).expect("every board has a group")
        };
        let span = own.group_records(g);
        let stored = &solution.records()[span.start as usize..span.end as usize];
        match width {
            1 => symbols.extend(stored.iter().map(|r| symbol_of[usize::from(r.bits())] as u8)),
            _ => {
                for r in stored {
                    symbols.extend_from_slice(&symbol_of[usize::from(r.bits())].to_le_bytes());
                }
            }
        }
        records += span.end - span.start;
        sizes[(n - first) as usize] = (span.end - span.start) as u8;
    });
    let mut raw = Vec::with_capacity(sizes.len() + symbols.len());
    if header.stores_sizes() {
        raw.extend_from_slice(&sizes);
    }
    to_heads_and_tails(&sizes, &symbols, width, &mut raw);
    (raw, records)
}

/// Writes `solution` to `path` atomically: a temporary file beside it,
/// synced, then renamed. Calls `progress(done, total)` as blocks are
/// written.
///
/// # Errors
/// I/O errors, naming the file.
pub fn write(
    path: &Path,
    solution: &Solution,
    options: &WriteOptions,
    mut progress: impl FnMut(u64, u64),
) -> Result<WriteSummary, DbError> {
    let (codebook, counts, max_remoteness) = census(solution);
    let mut symbol_of = vec![0u16; 1 << 16];
    for (s, &bits) in codebook.iter().enumerate() {
        symbol_of[usize::from(bits)] = s as u16;
    }
    // The stored layout is the symmetric numbering; a solve without
    // symmetry contributes the groups of canonical boards only.
    let symmetric_layout;
    let layout = if solution.is_symmetric() {
        solution.index()
    } else {
        symmetric_layout = GroupIndex::new(solution.rules().budget(), true);
        &symmetric_layout
    };
    let boards = layout.states().boards();
    let block_boards = options.block_boards.clamp(1, 1 << 16);
    let blocks = boards.div_ceil(u64::from(block_boards));
    let mut header = Header {
        version: VERSION,
        rules: solution.rules(),
        scheme: SCHEME_CANONICAL_BOARDS,
        symbol_width: if codebook.len() <= 256 { 1 } else { 2 },
        block_boards,
        boards,
        records: 0,
        blocks,
        table_offset: 0,
        counts,
        max_remoteness,
        symmetric: options.solved_with_symmetry.unwrap_or(solution.is_symmetric()),
        solver: options.solver.clone(),
        codebook,
    };
    let io = |source| DbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let fill = |out: &mut BufWriter<File>| {
        let header_len = header.encoded_len() as u64;
        out.write_all(&vec![0u8; header_len as usize]).map_err(io)?;
        let mut offset = header_len;
        let mut table = Vec::with_capacity(blocks as usize);
        let batch = 256;
        let zstd_error =
            |b: u64, e: &dyn std::fmt::Display| DbError::corrupt(format!("block {b}"), format!("zstd: {e}"));
        for first in (0..blocks).step_by(batch) {
            let done: Vec<(Vec<u8>, u32, u64)> = (first..(first + batch as u64).min(blocks))
                .into_par_iter()
                // A compression context per task rather than per block.
                .map_init(
                    || zstd::bulk::Compressor::new(options.level),
                    |compressor, b| {
                        let compressor = compressor.as_mut().map_err(|e| zstd_error(b, e))?;
                        let (raw, records) = raw_block(solution, layout, &header, &symbol_of, b);
                        let packed = compressor.compress(&raw).map_err(|e| zstd_error(b, &e))?;
                        Ok((packed, raw.len() as u32, records))
                    },
                )
                .collect::<Result<_, DbError>>()?;
            for (packed, raw, records) in done {
                out.write_all(&packed).map_err(io)?;
                table.push(BlockEntry {
                    offset,
                    compressed: packed.len() as u32,
                    raw,
                    checksum: checksum(&packed),
                });
                offset += packed.len() as u64;
                header.records += records;
            }
            progress(table.len() as u64, blocks);
        }
        header.table_offset = offset;
        let mut table_bytes = Vec::with_capacity(header.table_len() as usize);
        for e in &table {
            if header.stores_sizes() {
                e.encode_into(&mut table_bytes);
            } else {
                table_bytes.extend_from_slice(&e.compressed.to_le_bytes());
                table_bytes.extend_from_slice(&e.checksum.to_le_bytes());
            }
        }
        let sum = checksum(&table_bytes);
        table_bytes.extend_from_slice(&sum.to_le_bytes());
        out.write_all(&table_bytes).map_err(io)?;
        // The header goes in last: a file cut short anywhere has no valid one.
        out.seek(SeekFrom::Start(0)).map_err(io)?;
        out.write_all(&header.encode()).map_err(io)?;
        Ok(offset + header.table_len())
    };
    let bytes = topitop_files::temps::write_whole(path, fill, io)?;
    Ok(WriteSummary { header, bytes })
}
