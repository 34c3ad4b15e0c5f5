//! A bounded cache of decompressed blocks shared by all reader threads.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use topitop_db::DbError;

use crate::store::block::Block;

/// One slot per block; a slot's lock is held while its block loads, so two
/// threads never decompress the same block at once.
pub(crate) struct BlockCache {
    slots: Vec<Mutex<Option<Arc<Block>>>>,
    resident: AtomicUsize,
    capacity: usize,
    hand: AtomicUsize,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// Cache hit and miss counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups served from the cache.
    pub hits: u64,
    /// Lookups that decompressed a block.
    pub misses: u64,
    /// Bytes of decompressed blocks held.
    pub resident: usize,
}

impl BlockCache {
    pub(crate) fn new(blocks: usize, capacity: usize) -> BlockCache {
        BlockCache {
            slots: (0..blocks).map(|_| Mutex::new(None)).collect(),
            resident: AtomicUsize::new(0),
            capacity,
            hand: AtomicUsize::new(0),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// Block `b`, loading it with `load` if it is not held.
    pub(crate) fn get(
        &self,
        b: usize,
        load: impl FnOnce() -> Result<Block, DbError>,
    ) -> Result<Arc<Block>, DbError> {
        let block = {
            let mut slot = self.slots[b].lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(block) = slot.as_ref() {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(Arc::clone(block));
            }
            self.misses.fetch_add(1, Ordering::Relaxed);
            let block = Arc::new(load()?);
            self.resident.fetch_add(block.bytes(), Ordering::Relaxed);
            *slot = Some(Arc::clone(&block));
            block
        };
        self.evict(b);
        Ok(block)
    }

    /// Drops blocks, clock-wise from the hand, until the cache fits its
    /// capacity again; never `keep`, and never a slot another thread holds.
    fn evict(&self, keep: usize) {
        let n = self.slots.len();
        let mut tries = 0;
        while self.resident.load(Ordering::Relaxed) > self.capacity && tries < n {
            tries += 1;
            let i = self.hand.fetch_add(1, Ordering::Relaxed) % n;
            if i == keep {
                continue;
            }
            if let Ok(mut slot) = self.slots[i].try_lock() {
                if let Some(old) = slot.take() {
                    self.resident.fetch_sub(old.bytes(), Ordering::Relaxed);
                }
            }
        }
    }

    pub(crate) fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            resident: self.resident.load(Ordering::Relaxed),
        }
    }
}
