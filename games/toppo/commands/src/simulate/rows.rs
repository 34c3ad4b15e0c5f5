//! The rows of a simulation, a game and player each, streamed to CSV or
//! Parquet as the games come in: CSV line by line, Parquet a batch of
//! rows at a time into row groups, so that only a batch and the row group
//! being encoded are ever in memory.

use std::io::Write;

use games_toppo::sim::{Bot, Outcome};
use topitop_cli::parquet::{
    field, properties, schema, ChunkWriter, FileWriter, KeyValue, Kind, Values, ROW_GROUP_ROWS,
};

/// The columns of the rows: a row a game and player.
pub const COLUMNS: [&str; 11] = [
    "game",
    "seed",
    "player",
    "react_ms",
    "points",
    "won",
    "tops",
    "matches",
    "penalties",
    "seconds",
    "lines",
];

/// Rows gathered before they are handed to the Parquet encoder.
const BATCH_ROWS: usize = 1 << 16;

// A row group is whole batches, so a batch never straddles two.
const _: () = assert!(ROW_GROUP_ROWS.is_multiple_of(BATCH_ROWS));

/// One row: a game (its number and seed) and a player, numbered from 1 as
/// everywhere in Toppo's outputs.
#[derive(Clone, Copy, Debug)]
struct Row<'a> {
    game: u64,
    seed: u64,
    player: usize,
    react_ms: f64,
    o: &'a Outcome,
}

impl Row<'_> {
    /// `player` from 0 here, shown from 1.
    fn at(&self, v: &[usize]) -> u64 {
        v.get(self.player).copied().unwrap_or(0) as u64
    }
}

/// Where the rows go.
pub enum Rows<W: Write> {
    /// Comma-separated, a header line first.
    Csv(W),
    /// Apache Parquet.
    Parquet(Box<ParquetRows<W>>),
}

impl<W: Write> Rows<W> {
    /// CSV rows into `out`; the header is written now.
    ///
    /// # Errors
    /// Writing `out` failed.
    pub fn csv(mut out: W) -> anyhow::Result<Rows<W>> {
        writeln!(out, "{}", COLUMNS.join(","))?;
        Ok(Rows::Csv(out))
    }

    /// Parquet rows into `out`, with `metadata` in the file's footer.
    ///
    /// # Errors
    /// The encoder cannot be made.
    pub fn parquet(out: W, metadata: Vec<KeyValue>) -> anyhow::Result<Rows<W>> {
        Ok(Rows::Parquet(Box::new(ParquetRows::new(out, metadata)?)))
    }

    /// The rows of game number `game` (seeded `seed`), one a player,
    /// `bots` seat by seat (repeated over the seats).
    ///
    /// # Errors
    /// Writing or encoding failed.
    pub fn push(&mut self, game: u64, seed: u64, o: &Outcome, bots: &[Bot]) -> anyhow::Result<()> {
        for player in 0..o.points.len() {
            let row = Row {
                game,
                seed,
                player,
                react_ms: bots[player % bots.len()].react_ms.0,
                o,
            };
            match self {
                Rows::Csv(out) => writeln!(
                    out,
                    "{},{},{},{},{},{},{},{},{},{:.3},{}",
                    row.game,
                    row.seed,
                    row.player + 1,
                    row.react_ms,
                    row.at(&o.points),
                    o.finished && o.winner == player,
                    row.at(&o.tops),
                    row.at(&o.matched),
                    row.at(&o.penalties),
                    o.duration_ms as f64 / 1000.0,
                    o.lines
                )?,
                Rows::Parquet(p) => p.push(&row)?,
            }
        }
        Ok(())
    }

    /// Writes what is left (for Parquet, the last row group and the
    /// footer) and gives the output back.
    ///
    /// # Errors
    /// Writing or encoding failed.
    pub fn finish(self) -> anyhow::Result<W> {
        match self {
            Rows::Csv(out) => Ok(out),
            Rows::Parquet(p) => p.finish(),
        }
    }
}

/// The Parquet encoder and the batch being gathered for it.
pub struct ParquetRows<W: Write> {
    out: W,
    /// Encodes into a spool that is emptied into `out` after every row
    /// group: the encoder needs a `Send` writer, which an output is not.
    file: FileWriter,
    /// The row group being encoded, a column chunk a column (each
    /// compressed in memory as its pages fill), and its rows so far.
    group: Vec<ChunkWriter>,
    group_rows: usize,
    batch: Batch,
}

/// Columns being gathered, in [`COLUMNS`] order.
#[derive(Default)]
struct Batch {
    game: Vec<u64>,
    seed: Vec<u64>,
    player: Vec<u32>,
    react_ms: Vec<f64>,
    points: Vec<u32>,
    won: Vec<bool>,
    tops: Vec<u32>,
    matches: Vec<u32>,
    penalties: Vec<u32>,
    seconds: Vec<f64>,
    lines: Vec<u32>,
}

/// A count as the 32 bits of its column: no game comes near (a game
/// stops after 200,000 actions, with 300 cards), and saturation keeps
/// even a wrong count from wrapping.
fn u32_of(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

impl<W: Write> ParquetRows<W> {
    fn new(out: W, metadata: Vec<KeyValue>) -> anyhow::Result<ParquetRows<W>> {
        let kinds = [
            Kind::U64,
            Kind::U64,
            Kind::U32,
            Kind::F64,
            Kind::U32,
            Kind::Bool,
            Kind::U32,
            Kind::U32,
            Kind::U32,
            Kind::F64,
            Kind::U32,
        ];
        let fields = COLUMNS
            .iter()
            .zip(kinds)
            .map(|(n, k)| field(n, k, false))
            .collect();
        let file = FileWriter::new(schema(fields)?, properties(metadata, false))?;
        Ok(ParquetRows {
            out,
            group: file.chunk_writers()?,
            file,
            group_rows: 0,
            batch: Batch::default(),
        })
    }

    fn push(&mut self, r: &Row<'_>) -> anyhow::Result<()> {
        let b = &mut self.batch;
        b.game.push(r.game);
        b.seed.push(r.seed);
        b.player.push(u32_of(r.player as u64 + 1));
        b.react_ms.push(r.react_ms);
        b.points.push(u32_of(r.at(&r.o.points)));
        b.won.push(r.o.finished && r.o.winner == r.player);
        b.tops.push(u32_of(r.at(&r.o.tops)));
        b.matches.push(u32_of(r.at(&r.o.matched)));
        b.penalties.push(u32_of(r.at(&r.o.penalties)));
        b.seconds.push(r.o.duration_ms as f64 / 1000.0);
        b.lines.push(u32_of(r.o.lines as u64));
        if b.game.len() >= BATCH_ROWS {
            self.write_batch()?;
        }
        Ok(())
    }

    /// Hands the batch to the column writers, and closes the row group
    /// once it has [`ROW_GROUP_ROWS`] rows.
    fn write_batch(&mut self) -> anyhow::Result<()> {
        if self.batch.game.is_empty() {
            return Ok(());
        }
        let b = std::mem::take(&mut self.batch);
        self.group_rows += b.game.len();
        // Unsigned numbers as the column stores them: u32 in an i32, u64
        // as the same bits in an i64.
        let u64s = |v: Vec<u64>| Values::Int64(v.into_iter().map(|x| x as i64).collect());
        let u32s = |v: Vec<u32>| Values::Int32(v.into_iter().map(|x| x as i32).collect());
        let columns = [
            u64s(b.game),
            u64s(b.seed),
            u32s(b.player),
            Values::Double(b.react_ms),
            u32s(b.points),
            Values::Bool(b.won),
            u32s(b.tops),
            u32s(b.matches),
            u32s(b.penalties),
            Values::Double(b.seconds),
            u32s(b.lines),
        ];
        for (writer, values) in self.group.iter_mut().zip(&columns) {
            writer.write(values, None)?;
        }
        if self.group_rows >= ROW_GROUP_ROWS {
            self.close_group()?;
        }
        Ok(())
    }

    /// Appends the row group to the file and moves the bytes to the
    /// output.
    fn close_group(&mut self) -> anyhow::Result<()> {
        let writers = std::mem::replace(&mut self.group, self.file.chunk_writers()?);
        let chunks = writers
            .into_iter()
            .map(ChunkWriter::finish)
            .collect::<anyhow::Result<_>>()?;
        self.file.append(chunks)?;
        self.group_rows = 0;
        self.file.drain(&mut self.out)
    }

    fn finish(mut self) -> anyhow::Result<W> {
        self.write_batch()?;
        if self.group_rows > 0 {
            self.close_group()?;
        }
        self.file.finish(&mut self.out)?;
        Ok(self.out)
    }
}
