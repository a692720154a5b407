//! The global allocator of the binary and the benchmarks: mimalloc.
//!
//! Checking a file allocates a few hundred small blocks (tree nodes, EL nodes,
//! strings); mimalloc roughly halves their cost against glibc's malloc
//! (docs/performance.md). The `mimalloc` crate sends every allocation through
//! `mi_malloc_aligned`, whose checks cost about as much again as the
//! allocation itself; every mimalloc block is aligned to at least 8 bytes, so
//! alignments up to 8 (nearly all of Rust's) take the plain calls here.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// Alignment every mimalloc block has (`MI_INTPTR_SIZE`: blocks are whole words).
const BLOCK_ALIGN: usize = 8;

pub struct MiMalloc;

/// A block for `layout` from `plain` when every block has its alignment,
/// else from `aligned`.
#[inline(always)]
unsafe fn new_block(
    layout: Layout,
    plain: unsafe extern "C" fn(usize) -> *mut c_void,
    aligned: unsafe extern "C" fn(usize, usize) -> *mut c_void,
) -> *mut u8 {
    unsafe {
        if layout.align() <= BLOCK_ALIGN {
            plain(layout.size()) as *mut u8
        } else {
            aligned(layout.size(), layout.align()) as *mut u8
        }
    }
}

// SAFETY: every path returns a block of at least `layout.size()` bytes aligned
// to `layout.align()` (the plain calls only for alignments every block has),
// or null; blocks are freed and resized by the allocator that made them.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { new_block(layout, mi::mi_malloc, mi::mi_malloc_aligned) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe { new_block(layout, mi::mi_zalloc, mi::mi_zalloc_aligned) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe {
            if layout.align() <= BLOCK_ALIGN {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}
