//! The ahead-of-time kernel cache: a read-only file of machine code for the kernels that common
//! plans use, built by `rocmath-aot` (on any machine with nvrtc; no GPU needed) and installed
//! beside the program or library. A plan whose kernels are all in it is created without starting
//! the compiler, as rocFFT does with the kernels it compiles when it is built.
//!
//! Entries are keyed like the kernel cache, by (module, arch, options, source) and the fixed
//! compiler name [`COMPILER`] in place of the compiler's version: a kernel whose source this
//! build generates differently is simply not found there, and is compiled as before. A stale or
//! missing file costs time, never correctness.
//!
//! Where: `ROCMATH_AOT_CACHE` names the file (set but empty: none, for measuring without it);
//! else [`FILE_NAME`] in the directory of the executable or shared library that holds rocmath.
//!
//! Format (little-endian): `RMAOT001`, a u64 count, then that many index rows sorted by digest
//! (key digest 32 bytes, payload offset u64, payload length u64, SHA-256 of the payload 32
//! bytes), then the payloads. Only the index is read when the file is opened; a payload is read
//! when asked for and checked against its SHA-256.
use crate::cache::CacheKey;
use crate::{Error, Result};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

const MAGIC: &[u8; 8] = b"RMAOT001";
const ROW: usize = 32 + 8 + 8 + 32;
/// Stands for the compiler's version in entry keys (see the module doc).
pub const COMPILER: &str = "aot";
/// The file's name beside the program or library.
pub const FILE_NAME: &str = "rocmath-kernels.aot";

/// The key of module `name` compiled from `source` with `options` for `arch`.
pub fn key(name: &str, arch: &str, options: &[String], source: &str) -> CacheKey {
    CacheKey::new(name, arch, COMPILER, options, source)
}

struct Row {
    digest: [u8; 32],
    offset: u64,
    len: u64,
    sha: [u8; 32],
}

/// An opened ahead-of-time cache file.
pub struct AotCache {
    path: PathBuf,
    file: File,
    rows: Vec<Row>,
}

impl std::fmt::Debug for AotCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AotCache({}, {} entries)", self.path.display(), self.rows.len())
    }
}

impl AotCache {
    /// Reads the index of the file at `path`; fails on a file that is not one.
    pub fn open(path: impl Into<PathBuf>) -> Result<AotCache> {
        let path = path.into();
        let bad = |what: &str| Error::Cache(format!("{}: {what}", path.display()));
        let mut file = File::open(&path).map_err(|e| bad(&e.to_string()))?;
        let size = file.metadata().map_err(|e| bad(&e.to_string()))?.len();
        let mut head = [0u8; 16];
        file.read_exact(&mut head).map_err(|_| bad("too short for a header"))?;
        if &head[..8] != MAGIC {
            return Err(bad("not a rocmath AOT kernel cache"));
        }
        let count = u64::from_le_bytes(head[8..16].try_into().expect("8 bytes"));
        let index_end = count.checked_mul(ROW as u64).and_then(|b| b.checked_add(16)).filter(|&e| e <= size).ok_or_else(|| bad("index past the end"))?;
        let mut index = vec![0u8; (index_end - 16) as usize];
        file.read_exact(&mut index).map_err(|e| bad(&e.to_string()))?;
        let mut rows = Vec::with_capacity(count as usize);
        for r in index.chunks_exact(ROW) {
            let row = Row {
                digest: r[..32].try_into().expect("32 bytes"),
                offset: u64::from_le_bytes(r[32..40].try_into().expect("8 bytes")),
                len: u64::from_le_bytes(r[40..48].try_into().expect("8 bytes")),
                sha: r[48..80].try_into().expect("32 bytes"),
            };
            if row.offset < index_end || row.offset.checked_add(row.len).is_none_or(|end| end > size) {
                return Err(bad("an entry lies outside the file"));
            }
            rows.push(row);
        }
        if !rows.windows(2).all(|w| w[0].digest < w[1].digest) {
            return Err(bad("index not sorted"));
        }
        Ok(AotCache { path, file, rows })
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The image stored under `key`, if there is one and it reads back whole.
    pub fn get(&self, key: &CacheKey) -> Option<Vec<u8>> {
        let row = &self.rows[self.rows.binary_search_by(|r| r.digest.cmp(&key.digest)).ok()?];
        let mut image = vec![0u8; row.len as usize];
        self.file.read_exact_at(&mut image, row.offset).ok()?;
        (Sha256::digest(&image).as_slice() == row.sha).then_some(image)
    }
}

/// Writes a cache file of `entries` (key, image) to `path` (through a temporary file and a
/// rename, so a reader sees the old file or the whole new one). Later duplicates of a key are
/// dropped.
pub fn write(path: &Path, entries: &[(CacheKey, Vec<u8>)]) -> Result<()> {
    let mut sorted: Vec<&(CacheKey, Vec<u8>)> = entries.iter().collect();
    sorted.sort_by_key(|e| e.0.digest);
    sorted.dedup_by(|b, a| a.0.digest == b.0.digest);
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(sorted.len() as u64).to_le_bytes());
    let mut offset = (16 + sorted.len() * ROW) as u64;
    for (key, image) in &sorted {
        out.extend_from_slice(&key.digest);
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(image.len() as u64).to_le_bytes());
        out.extend_from_slice(&Sha256::digest(image));
        offset += image.len() as u64;
    }
    for (_, image) in &sorted {
        out.extend_from_slice(image);
    }
    let io = |e: std::io::Error| Error::Cache(format!("{}: {e}", path.display()));
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    let mut f = File::create(&tmp).map_err(io)?;
    f.write_all(&out).and_then(|_| f.sync_all()).map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    }).map_err(io)
}

static SYSTEM: OnceLock<Option<AotCache>> = OnceLock::new();
static LOADED: AtomicUsize = AtomicUsize::new(0);

/// The process's ahead-of-time cache (see the module doc for where it is looked for), if any.
pub fn system() -> Option<&'static AotCache> {
    SYSTEM
        .get_or_init(|| {
            let path = match std::env::var_os("ROCMATH_AOT_CACHE") {
                Some(p) if p.is_empty() => return None,
                Some(p) => PathBuf::from(p),
                None => own_object_dir()?.join(FILE_NAME),
            };
            match AotCache::open(&path) {
                Ok(c) => Some(c),
                // Absent beside the library is the normal case; a named file that fails to open
                // is worth a line, since the user asked for it.
                Err(e) => {
                    if std::env::var_os("ROCMATH_AOT_CACHE").is_some() {
                        eprintln!("[rocmath] ahead-of-time kernel cache not used: {e}");
                    }
                    None
                }
            }
        })
        .as_ref()
}

/// Modules this process loaded from the ahead-of-time cache.
pub fn loaded_modules() -> usize {
    LOADED.load(Ordering::Relaxed)
}

pub(crate) fn count_load() {
    LOADED.fetch_add(1, Ordering::Relaxed);
}

/// The directory of the file mapped at this function's address: the executable when rocmath is
/// linked in statically, the shared library (e.g. librocfft.so) when it is one.
fn own_object_dir() -> Option<PathBuf> {
    let here = own_object_dir as fn() -> Option<PathBuf> as usize;
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines().find_map(|line| {
        let mut fields = line.split_whitespace();
        let (lo, hi) = fields.next()?.split_once('-')?;
        let (lo, hi) = (usize::from_str_radix(lo, 16).ok()?, usize::from_str_radix(hi, 16).ok()?);
        let path = fields.nth(4)?;
        ((lo..hi).contains(&here) && path.starts_with('/')).then(|| Path::new(path).parent().map(Path::to_path_buf))?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries() -> Vec<(CacheKey, Vec<u8>)> {
        (0..5).map(|i| (key(&format!("m{i}"), "sm_90", &[], &format!("source {i}")), vec![i as u8; 100 + i])).collect()
    }

    #[test]
    fn written_entries_read_back_and_others_are_absent() {
        let dir = std::env::temp_dir().join(format!("rocmath-aot-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.aot");
        let e = entries();
        write(&path, &e).unwrap();
        let c = AotCache::open(&path).unwrap();
        assert_eq!(c.len(), 5);
        for (k, image) in &e {
            assert_eq!(c.get(k).as_ref(), Some(image));
        }
        // Same name, other source, options or arch: a different kernel, not found.
        assert!(c.get(&key("m1", "sm_90", &[], "source 2")).is_none());
        assert!(c.get(&key("m1", "sm_90", &["-DX".into()], "source 1")).is_none());
        assert!(c.get(&key("m1", "sm_100", &[], "source 1")).is_none());
        // A damaged payload is not returned; the rest still are.
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let c = AotCache::open(&path).unwrap();
        assert_eq!(c.get(&e[0].0).as_ref(), Some(&e[0].1));
        assert_eq!(e.iter().filter(|(k, _)| c.get(k).is_none()).count(), 1);
        // Truncated or foreign files are refused whole.
        std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
        assert!(AotCache::open(&path).is_err());
        std::fs::write(&path, b"RMKC0001 something else").unwrap();
        assert!(AotCache::open(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn own_object_dir_is_the_test_binarys() {
        let exe = std::env::current_exe().unwrap();
        assert_eq!(own_object_dir(), exe.parent().map(Path::to_path_buf));
    }
}
