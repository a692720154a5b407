//! `coordc lsp`
