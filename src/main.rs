// mimalloc: EL parsing allocates a node per operand; it roughly halves the cost of
// those allocations against glibc's malloc (docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(coordc::cli::main());
}
