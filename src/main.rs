// No `unwrap`, `expect` or indexing that could panic on user input (issue 23; src/lib.rs).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

#[global_allocator]
static GLOBAL: coordc::alloc::MiMalloc = coordc::alloc::MiMalloc;

fn main() {
    std::process::exit(coordc::cli::main());
}
