#[global_allocator]
static GLOBAL: coordc::alloc::MiMalloc = coordc::alloc::MiMalloc;

fn main() {
    std::process::exit(coordc::cli::main());
}
