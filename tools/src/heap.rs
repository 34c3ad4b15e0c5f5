//! How the C library's allocator treats large blocks. By default glibc
//! raises its threshold for serving a block from its own mapping each time
//! such a block is freed (up to 32 MB), so that the solvers' working
//! arrays, made and freed tier after tier, end up carved out of heaps it
//! keeps: a Topple solve then held about 1.6 times the memory it used
//! (3×3 with 10 pieces: 94 MB resident for 59 MB allocated; with the
//! threshold fixed, 70 MB; docs/benchmarks.md). A fixed threshold gives
//! every block of 128 kB or more back to the system when it is freed. It
//! is set as the tier solver starts, not for every command: Topolo's
//! solver, which makes and frees such blocks often, ran 7-12% slower.

/// Fixes glibc's threshold for mapping a block of its own at 128 kB (its
/// starting value), so that it no longer grows; elsewhere, nothing.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn return_large_blocks() {
    // SAFETY: mallopt only sets a tunable of glibc's allocator, under the
    // allocator's own lock (so other threads may be allocating), with a
    // parameter and value glibc documents; no pointer is passed. Its
    // result (0 when glibc declines) leaves the default in place, which
    // is still correct.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

/// Fixes glibc's threshold for mapping a block of its own; elsewhere,
/// nothing.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn return_large_blocks() {}

/// Gives the free memory of glibc's heaps back to the system
/// (`malloc_trim`): the server calls it now and then, so that a burst of
/// connections (a slowloris of 21,000 held 480 MB after they had gone)
/// does not keep its memory for good; elsewhere, nothing.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn return_free_memory() {
    // SAFETY: malloc_trim only returns pages glibc holds free to the
    // system, under each arena's own lock, so other threads may allocate
    // meanwhile; it takes no pointer and frees nothing in use. Its result
    // says whether any memory was returned, which changes nothing here.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Gives free heap memory back; elsewhere, nothing.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn return_free_memory() {}
