//! zstd with one context a thread, made once and kept: making a context
//! for each block of a few kilobytes cost as much as compressing or
//! decompressing the block (about a twentieth of a Topple solve).

use std::cell::RefCell;

thread_local! {
    /// A bare context, for frames made with a dictionary.
    static DCTX: RefCell<Option<zstd::zstd_safe::DCtx<'static>>> = const { RefCell::new(None) };
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
    /// With the level it was made for.
    static COMPRESSOR: RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's decompression context.
fn with_decompressor<T>(
    f: impl FnOnce(&mut zstd::bulk::Decompressor<'static>) -> std::io::Result<T>,
) -> std::io::Result<T> {
    DECOMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        match slot.as_mut() {
            Some(d) => f(d),
            None => f(slot.insert(zstd::bulk::Decompressor::new()?)),
        }
    })
}

/// `bytes` decompressed into at most `capacity` bytes, with this thread's
/// context.
///
/// # Errors
/// Bytes that are no zstd frame, or that hold more than `capacity`.
pub fn decompress(bytes: &[u8], capacity: usize) -> std::io::Result<Vec<u8>> {
    with_decompressor(|d| d.decompress(bytes, capacity))
}

/// `bytes` decompressed into `out`, with this thread's context; the
/// bytes written.
///
/// # Errors
/// Bytes that are no zstd frame, or that hold more than `out`.
pub fn decompress_into(bytes: &[u8], out: &mut [u8]) -> std::io::Result<usize> {
    with_decompressor(|d| d.decompress_to_buffer(bytes, out))
}

/// `bytes`, compressed with the dictionary `dict` was prepared from,
/// decompressed into `out`, with this thread's context; the bytes
/// written.
///
/// # Errors
/// Bytes that are no zstd frame of that dictionary, or that hold more than
/// `out`.
pub fn decompress_with(
    bytes: &[u8],
    out: &mut [u8],
    dict: &zstd::dict::DecoderDictionary<'static>,
) -> std::io::Result<usize> {
    DCTX.with(|cell| {
        let mut slot = cell.borrow_mut();
        let d = slot.get_or_insert_with(zstd::zstd_safe::DCtx::create);
        d.decompress_using_ddict(out, bytes, dict.as_ddict())
            .map_err(|code| std::io::Error::other(zstd::zstd_safe::get_error_name(code)))
    })
}

/// The decompressed size a zstd frame's header records, if it records one.
pub fn content_size(frame: &[u8]) -> Option<u64> {
    zstd::zstd_safe::get_frame_content_size(frame).ok().flatten()
}

/// `raw` compressed at `level`, with this thread's context (made again
/// when the level changes).
///
/// # Errors
/// A level zstd refuses.
pub fn compress(raw: &[u8], level: i32) -> std::io::Result<Vec<u8>> {
    COMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|(l, _)| *l != level) {
            *slot = Some((level, zstd::bulk::Compressor::new(level)?));
        }
        let (_, c) = slot.as_mut().expect("made above");
        c.compress(raw)
    })
}
