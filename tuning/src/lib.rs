//! rocmath-tuning: tuning tables — the file format, loading, nearest-size selection and writing.
//!
//! A tuning table says, for one device arch, op, element-type family and layout, which solution
//! (kernel config) was fastest at each measured problem size. Tables are data: the library works
//! without them (every table has a fallback, and a caller with no table uses its own default), so a
//! missing, stale or malformed table costs speed, never correctness. This crate knows nothing of
//! kernels: solutions are opaque strings, and the caller says which ones it can still build.
//!
//! # Format
//!
//! JSON, one file per arch/op/types/layout, stored as `<arch>/<op>_<types>_<layout>.json` under a
//! table directory (the committed ones under `tuning/tables/`, e.g. `sm_90/gemm_hss_nt.json`):
//!
//! ```json
//! {
//!   "format": 1,
//!   "op": "gemm",
//!   "arch": "sm_90",
//!   "types": "hss",
//!   "layout": "nt",
//!   "generator": "rocmath-gemm/2",
//!   "device": "NVIDIA H100 80GB HBM3",
//!   "tuned": true,
//!   "date": "2026-11-21",
//!   "fallback": "mt128x128x32_w2x4_s3_mma16x8x16f16",
//!   "entries": [
//!     {"m": 4096, "n": 4096, "k": 4096, "batch": 1,
//!      "solution": "mt128x128x32_w2x4_s3_mma16x8x16f16", "gflops": 612345.6, "candidates": 17}
//!   ]
//! }
//! ```
//!
//! - `format`: always 1.
//! - `op`: the op (`gemm`; other GEMM-shaped ops may use the same entry shape).
//! - `arch`: the table's arch: `sm_90`, `sm_90a`, `gfx90a`, `gfx942`, ... (no feature suffixes;
//!   see [`arch_keys`] for how a device's arch name is matched).
//! - `types`: the element-type family tag (`s d c z h hss bss hhs bbs i8`, free string).
//! - `layout`: transpose tags of A and B (`n`, `t`, `c`), e.g. `nt`.
//! - `generator`: id of the kernel generator that produced the solutions. A table from another
//!   generator is stale ([`Lookup::Stale`]).
//! - `device`: the device it was measured on, or `untuned: <why>` for a hand-chosen table.
//! - `tuned`: false for hand-chosen tables.
//! - `date`: when it was measured or written (`YYYY-MM-DD`).
//! - `fallback`: the solution to use when no entry is usable.
//! - `entries`: sizes (`m`, `n`, `k`, `batch`, each >= 1, no size twice) and their solution;
//!   `gflops` (measured throughput) and `candidates` (how many were timed) are optional, and so
//!   is `device`: the device an entry was measured on where that is not the table's (sizes
//!   re-tuned on another machine and merged into the table).
//!
//! Unknown fields are errors, so a typo never silently drops data. `op`, `arch`, `types` and
//! `layout` may hold only ASCII letters, digits, `_` and `-`, and a file must be stored at the path
//! its contents name.
//!
//! # Use
//!
//! ```
//! use rocmath_tuning::{Lookup, Tables};
//!
//! let tables = Tables::from_env(); // embedded tables, overlaid by $ROCMATH_TUNING_DIR
//! for e in tables.errors() {
//!     eprintln!("tuning table ignored: {e}");
//! }
//! if let Lookup::Found(table) = tables.gemm("sm_90a", "hss", "nt", "rocmath-gemm/2") {
//!     let choice = table.select(4096, 4096, 4096, 1, |name| name.starts_with("mt"));
//!     println!("{choice:?}");
//! }
//! ```
//!
//! The tuner builds a [`GemmTable`] with [`GemmTable::new`], adds results with
//! [`GemmTable::upsert_entry`] and writes it with [`GemmTable::write_to`].

use std::fmt;
use std::path::{Path, PathBuf};

mod registry;
mod table;
#[cfg(test)]
mod tests;

pub use registry::{arch_keys, Lookup, TableKey, Tables, TUNING_DIR_ENV};
pub use table::{GemmEntry, GemmTable, How, Selection, FORMAT};

/// A table file that could not be loaded or written, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The file (or directory) concerned.
    pub file: PathBuf,
    /// What is wrong with it.
    pub reason: String,
}

impl TableError {
    pub(crate) fn new(file: &Path, reason: impl Into<String>) -> Self {
        Self { file: file.to_path_buf(), reason: reason.into() }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.reason)
    }
}

impl std::error::Error for TableError {}
