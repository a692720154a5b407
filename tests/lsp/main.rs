//! `coordc lsp`: every feature in process, bad input, and a real client
//! (Neovim) over stdio.

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod real_client;
mod server;
