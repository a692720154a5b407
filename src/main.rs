fn main() {
    std::process::exit(coordc::cli::main());
}
