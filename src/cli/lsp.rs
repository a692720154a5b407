//! `coordc lsp`: the language server, on stdin and stdout.

#[derive(clap::Args)]
pub(super) struct LspArgs {
    /// Accepted for editors that pass it (VS Code's clients do): the
    /// server always speaks on stdin and stdout.
    #[arg(long)]
    stdio: bool,
}

pub(super) fn run(args: LspArgs) -> i32 {
    let _ = args.stdio;
    crate::lsp::serve_stdio()
}
