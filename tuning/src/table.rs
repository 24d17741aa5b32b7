//! One tuning table: the file format, its invariants, selection and writing.

use std::collections::HashMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::TableError;

/// The only file format version this library reads and writes.
pub const FORMAT: u32 = 1;

/// One measured problem size and the solution that won it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GemmEntry {
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub batch: u64,
    /// Opaque solution name (a kernel config name).
    pub solution: String,
    /// Measured throughput of `solution`; absent for hand-chosen entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gflops: Option<f64>,
    /// How many valid candidates were timed; absent for hand-chosen entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<u32>,
    /// The device this entry was measured on, where that is not the table's `device` (sizes
    /// re-tuned on another machine and merged in); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

impl GemmEntry {
    /// A hand-chosen entry (no measurement).
    pub fn new(m: u64, n: u64, k: u64, batch: u64, solution: impl Into<String>) -> Self {
        Self { m, n, k, batch, solution: solution.into(), gflops: None, candidates: None, device: None }
    }

    fn size(&self) -> [u64; 4] {
        [self.m, self.n, self.k, self.batch]
    }
}

/// How [`GemmTable::select`] found its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// An entry for exactly the requested (m, n, k, batch).
    Exact,
    /// The entry nearest in log space.
    Nearest,
    /// No usable entry: the table's fallback.
    Fallback,
}

/// The answer of [`GemmTable::select`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    pub solution: String,
    pub how: How,
}

/// A table of GEMM-shaped problems (m, n, k, batch) for one arch, op, element types and layout.
///
/// The header fields are public for the tuner to fill in; [`GemmTable::write_to`] checks the
/// invariants before anything is written. Entries go through [`GemmTable::upsert_entry`], which
/// keeps them free of duplicate sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct GemmTable {
    pub op: String,
    pub arch: String,
    pub types: String,
    pub layout: String,
    pub generator: String,
    pub device: String,
    pub tuned: bool,
    pub date: String,
    pub fallback: String,
    entries: Vec<GemmEntry>,
}

/// The file as it is on disk (serde's view of [`GemmTable`]).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    format: u32,
    op: String,
    arch: String,
    types: String,
    layout: String,
    generator: String,
    device: String,
    tuned: bool,
    date: String,
    fallback: String,
    entries: Vec<GemmEntry>,
}

impl GemmTable {
    /// An empty, untuned `gemm` table. Set `device`, `tuned` and `date` when measuring; set `op`
    /// for another GEMM-shaped op.
    pub fn new(
        arch: impl Into<String>,
        types: impl Into<String>,
        layout: impl Into<String>,
        generator: impl Into<String>,
        fallback: impl Into<String>,
    ) -> Self {
        Self {
            op: "gemm".into(),
            arch: arch.into(),
            types: types.into(),
            layout: layout.into(),
            generator: generator.into(),
            device: "untuned".into(),
            tuned: false,
            date: String::new(),
            fallback: fallback.into(),
            entries: Vec::new(),
        }
    }

    /// Parses and checks a table. `file` only names the source in errors.
    pub fn from_json(file: impl AsRef<Path>, text: &str) -> Result<Self, TableError> {
        let file = file.as_ref();
        let raw: TableFile = serde_json::from_str(text)
            .map_err(|e| TableError::new(file, format!("invalid table: {e}")))?;
        if raw.format != FORMAT {
            return Err(TableError::new(
                file,
                format!("unsupported format {} (this library reads format {FORMAT})", raw.format),
            ));
        }
        let table = Self {
            op: raw.op,
            arch: raw.arch,
            types: raw.types,
            layout: raw.layout,
            generator: raw.generator,
            device: raw.device,
            tuned: raw.tuned,
            date: raw.date,
            fallback: raw.fallback,
            entries: raw.entries,
        };
        table.validate().map_err(|reason| TableError::new(file, reason))?;
        Ok(table)
    }

    /// The entries, in file (or insertion) order.
    pub fn entries(&self) -> &[GemmEntry] {
        &self.entries
    }

    /// Adds `entry`, replacing (in place) and returning an entry of the same size.
    pub fn upsert_entry(&mut self, entry: GemmEntry) -> Option<GemmEntry> {
        match self.entries.iter_mut().find(|e| e.size() == entry.size()) {
            Some(slot) => Some(std::mem::replace(slot, entry)),
            None => {
                self.entries.push(entry);
                None
            }
        }
    }

    /// The file name this table is stored under: `<arch>/<op>_<types>_<layout>.json`.
    pub fn relative_path(&self) -> PathBuf {
        Path::new(&self.arch).join(format!("{}_{}_{}.json", self.op, self.types, self.layout))
    }

    /// Picks a solution for (m, n, k, batch): an exact entry, else the entry nearest in log space
    /// (sum over the four sizes of `(ln x - ln y)^2`, sizes below 1 counted as 1), else the
    /// fallback. Entries (and the fallback) whose solution `is_usable` rejects are skipped: a
    /// solution the current generator no longer accepts costs speed, never correctness. `None`
    /// when nothing is usable: the caller uses its own default. Ties go to the first entry.
    pub fn select(
        &self,
        m: u64,
        n: u64,
        k: u64,
        batch: u64,
        is_usable: impl Fn(&str) -> bool,
    ) -> Option<Selection> {
        let want = [m, n, k, batch];
        let mut best: Option<&GemmEntry> = None;
        let mut best_d = f64::INFINITY;
        for entry in self.entries.iter().filter(|e| is_usable(&e.solution)) {
            if entry.size() == want {
                return Some(Selection { solution: entry.solution.clone(), how: How::Exact });
            }
            // Strictly less: the first of equally near entries wins. Distances are finite.
            let d = log_distance(want, entry.size());
            if d < best_d {
                (best, best_d) = (Some(entry), d);
            }
        }
        if let Some(entry) = best {
            return Some(Selection { solution: entry.solution.clone(), how: How::Nearest });
        }
        is_usable(&self.fallback)
            .then(|| Selection { solution: self.fallback.clone(), how: How::Fallback })
    }

    /// The table as pretty JSON (with a final newline), entries sorted by (batch, m, n, k) so that
    /// rewriting a table gives a small diff.
    pub fn to_json_pretty(&self) -> String {
        let mut entries = self.entries.clone();
        entries.sort_by_key(|e| (e.batch, e.m, e.n, e.k));
        let file = TableFile {
            format: FORMAT,
            op: self.op.clone(),
            arch: self.arch.clone(),
            types: self.types.clone(),
            layout: self.layout.clone(),
            generator: self.generator.clone(),
            device: self.device.clone(),
            tuned: self.tuned,
            date: self.date.clone(),
            fallback: self.fallback.clone(),
            entries,
        };
        // Strings, integers, bools, options and vectors: serde_json cannot fail on these (a
        // non-finite gflops becomes null, and `validate` rejects it before writing).
        let mut text = serde_json::to_string_pretty(&file).expect("a TableFile always serializes");
        text.push('\n');
        text
    }

    /// Checks the table and writes it to `<dir>/<arch>/<op>_<types>_<layout>.json` atomically
    /// (a temporary file in the same directory, then a rename). Returns the path written.
    pub fn write_to(&self, dir: impl AsRef<Path>) -> Result<PathBuf, TableError> {
        let path = dir.as_ref().join(self.relative_path());
        self.validate().map_err(|reason| TableError::new(&path, reason))?;
        let parent = path.parent().unwrap_or(dir.as_ref());
        let io_err = |what: &str, e: std::io::Error| TableError::new(&path, format!("{what}: {e}"));
        fs::create_dir_all(parent).map_err(|e| io_err("cannot create directory", e))?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // Unique per process and call, so concurrent writers never share a temporary file.
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let unique = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = parent.join(format!(".{name}.{}-{unique}.tmp", std::process::id()));
        let result = (|| {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(self.to_json_pretty().as_bytes())?;
            f.sync_all()?;
            fs::rename(&tmp, &path)
        })();
        if let Err(e) = result {
            let _ = fs::remove_file(&tmp);
            return Err(io_err("cannot write", e));
        }
        Ok(path)
    }

    /// The invariants every loaded or written table satisfies; `Err` carries the reason.
    fn validate(&self) -> Result<(), String> {
        for (field, value) in [
            ("op", &self.op),
            ("arch", &self.arch),
            ("types", &self.types),
            ("layout", &self.layout),
        ] {
            if value.is_empty() {
                return Err(format!("`{field}` is empty"));
            }
            // These name the file: keep them plain so they cannot escape the table directory.
            if !value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                return Err(format!(
                    "`{field}` {value:?} may hold only ASCII letters, digits, '_' and '-'"
                ));
            }
        }
        if self.generator.is_empty() {
            return Err("`generator` is empty".into());
        }
        if self.fallback.is_empty() {
            return Err("`fallback` is empty".into());
        }
        let mut seen: HashMap<[u64; 4], usize> = HashMap::new();
        for (i, e) in self.entries.iter().enumerate() {
            let [m, n, k, batch] = e.size();
            if e.size().contains(&0) {
                return Err(format!(
                    "entry {i}: sizes must be >= 1 (m={m} n={n} k={k} batch={batch})"
                ));
            }
            if e.solution.is_empty() {
                return Err(format!("entry {i}: `solution` is empty"));
            }
            if let Some(g) = e.gflops {
                if !(g.is_finite() && g >= 0.0) {
                    return Err(format!("entry {i}: `gflops` must be finite and >= 0, is {g}"));
                }
            }
            if let Some(first) = seen.insert(e.size(), i) {
                return Err(format!(
                    "entries {first} and {i} have the same size (m={m} n={n} k={k} batch={batch})"
                ));
            }
        }
        Ok(())
    }
}

fn log_distance(a: [u64; 4], b: [u64; 4]) -> f64 {
    let ln = |x: u64| (x.max(1) as f64).ln();
    a.iter().zip(&b).map(|(&x, &y)| (ln(x) - ln(y)).powi(2)).sum()
}
