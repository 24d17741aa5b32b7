//! On-disk cache of compiled kernels.
//!
//! Keyed by (module name, arch, compiler version, options, source): any change of these gives a
//! new key, so stale code is never loaded. Each entry carries a header with its key and a SHA-256
//! of its payload; a truncated or corrupt entry fails the check, is removed, and is rebuilt.
//! Entries are written to a unique temporary file and renamed into place, so two processes
//! filling the cache at once each see either no entry or a whole one.
use crate::{Error, Result};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"RMKC0001";
const HEADER: usize = 8 + 32 + 8 + 32;

/// A kernel cache key: SHA-256 over every input that changes the compiled code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CacheKey {
    pub module: String,
    pub digest: [u8; 32],
}

impl CacheKey {
    pub fn new(module: &str, arch: &str, compiler: &str, options: &[String], source: &str) -> CacheKey {
        let mut h = Sha256::new();
        for part in [module, arch, compiler] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        h.update((options.len() as u64).to_le_bytes());
        for o in options {
            h.update((o.len() as u64).to_le_bytes());
            h.update(o.as_bytes());
        }
        h.update((source.len() as u64).to_le_bytes());
        h.update(source.as_bytes());
        CacheKey { module: module.to_string(), digest: h.finalize().into() }
    }

    fn file_name(&self) -> String {
        let safe: String = self
            .module
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
            .take(80)
            .collect();
        let hex: String = self.digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
        format!("{safe}-{hex}.bin")
    }
}

/// How an entry was obtained, for tests and logging.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheOutcome {
    Hit,
    /// Not present: built and stored.
    Built,
    /// Present but corrupt or truncated: removed, rebuilt and stored.
    Rebuilt,
}

/// A cache directory.
#[derive(Clone, Debug)]
pub struct KernelCache {
    dir: PathBuf,
}

impl KernelCache {
    /// `ROCMATH_CACHE_DIR`, else `$XDG_CACHE_HOME/rocmath`, else `$HOME/.cache/rocmath`.
    pub fn from_env() -> Result<KernelCache> {
        let dir = if let Some(d) = std::env::var_os("ROCMATH_CACHE_DIR") {
            PathBuf::from(d)
        } else if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
            PathBuf::from(d).join("rocmath")
        } else if let Some(h) = std::env::var_os("HOME") {
            PathBuf::from(h).join(".cache").join("rocmath")
        } else {
            return Err(Error::Cache("no ROCMATH_CACHE_DIR, XDG_CACHE_HOME or HOME".into()));
        };
        KernelCache::at(dir)
    }

    pub fn at(dir: impl Into<PathBuf>) -> Result<KernelCache> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir).map_err(|e| Error::Cache(format!("{}: {e}", dir.display())))?;
        Ok(KernelCache { dir })
    }

    pub fn path_of(&self, key: &CacheKey) -> PathBuf {
        self.dir.join(key.file_name())
    }

    /// The cached image for `key`, or `build()`'s result, stored for next time. A failure to
    /// store is not an error: the image is still returned.
    pub fn get_or_build(
        &self,
        key: &CacheKey,
        build: impl FnOnce() -> Result<Vec<u8>>,
    ) -> Result<(Vec<u8>, CacheOutcome)> {
        let path = self.path_of(key);
        let outcome = match std::fs::read(&path) {
            Ok(bytes) => match decode(&bytes, key) {
                Some(payload) => return Ok((payload.to_vec(), CacheOutcome::Hit)),
                None => {
                    let _ = std::fs::remove_file(&path);
                    CacheOutcome::Rebuilt
                }
            },
            Err(_) => CacheOutcome::Built,
        };
        let image = build()?;
        let _ = self.store(&path, key, &image);
        Ok((image, outcome))
    }

    fn store(&self, path: &Path, key: &CacheKey, payload: &[u8]) -> std::io::Result<()> {
        let unique = format!(
            ".tmp-{}-{:?}-{}",
            std::process::id(),
            std::thread::current().id(),
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
        );
        let tmp = self.dir.join(format!("{}{unique}", key.file_name()));
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(MAGIC)?;
        f.write_all(&key.digest)?;
        f.write_all(&(payload.len() as u64).to_le_bytes())?;
        f.write_all(&Sha256::digest(payload))?;
        f.write_all(payload)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    }
}

/// The payload of a well-formed entry for `key`, or `None` if anything is off.
fn decode<'a>(bytes: &'a [u8], key: &CacheKey) -> Option<&'a [u8]> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC || bytes[8..40] != key.digest {
        return None;
    }
    let len = u64::from_le_bytes(bytes[40..48].try_into().ok()?) as usize;
    let payload = &bytes[HEADER..];
    if payload.len() != len || Sha256::digest(payload).as_slice() != &bytes[48..80] {
        return None;
    }
    Some(payload)
}
