//! Applications as Oozie receives them and as `coordc check` checks them:
//! read from disk or from an editor's buffers (`files`), with their job
//! configuration, includes and bundles (`load`), and checked together
//! (`check`), the one entry `coordc check`, `coordc lsp`, the dry run and the
//! simulator share.

pub mod check;
pub mod files;
pub mod load;
pub(crate) mod locate;
pub mod settings;
pub mod simulation;
