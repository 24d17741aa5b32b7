//! Finding and opening vendor shared libraries at run time. Nothing here panics: a library that
//! is not found is an `Error::BackendUnavailable` listing every path tried and why it failed.
use crate::{Error, Result};
use libloading::Library;
use std::path::PathBuf;

/// Directories named by the usual toolkit variables (`<var>/lib64`, `<var>/lib`), in order.
pub fn toolkit_dirs(vars: &[&str], defaults: &[&str]) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for var in vars {
        if let Some(root) = std::env::var_os(var) {
            let root = PathBuf::from(root);
            dirs.push(root.join("lib64"));
            dirs.push(root.join("lib"));
        }
    }
    dirs.extend(defaults.iter().map(PathBuf::from));
    dirs
}

/// Opens the first library that loads, trying each soname in each directory, then each soname
/// through the system loader's own search path.
pub fn open_library(backend: &'static str, sonames: &[&str], dirs: &[PathBuf]) -> Result<Library> {
    let mut tried = Vec::new();
    let mut candidates: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        for name in sonames {
            let path = dir.join(name);
            if path.exists() {
                candidates.push(path);
            }
        }
    }
    candidates.extend(sonames.iter().map(PathBuf::from));
    for path in candidates {
        // SAFETY: loading a vendor library runs its initialisers; these are the vendor's
        // documented entry libraries and are loaded the way their own runtimes load them.
        match unsafe { Library::new(&path) } {
            Ok(lib) => return Ok(lib),
            Err(e) => tried.push(format!("{}: {e}", path.display())),
        }
    }
    Err(Error::BackendUnavailable { backend, tried })
}

/// Declares a table of C entry points loaded from one library, as a struct of function pointers
/// that keeps the library alive. A missing symbol makes loading fail with its name.
#[macro_export]
macro_rules! dyn_api {
    ($vis:vis struct $api:ident ($backend:expr) {
        $( $field:ident = $sym:literal : fn($($arg:ty),* $(,)?) -> $ret:ty ; )*
    }) => {
        #[allow(non_snake_case, dead_code)]
        $vis struct $api {
            _lib: ::libloading::Library,
            $( pub $field: unsafe extern "C" fn($($arg),*) -> $ret, )*
        }
        impl $api {
            #[allow(dead_code)]
            pub fn load(lib: ::libloading::Library, origin: &str) -> $crate::Result<Self> {
                // SAFETY: each symbol is declared with the signature of the vendor's header.
                unsafe {
                    $( let $field = *lib
                        .get::<unsafe extern "C" fn($($arg),*) -> $ret>(concat!($sym, "\0").as_bytes())
                        .map_err(|e| $crate::Error::BackendUnavailable {
                            backend: $backend,
                            tried: vec![format!("{origin}: symbol {}: {e}", $sym)],
                        })?; )*
                    Ok(Self { _lib: lib, $( $field, )* })
                }
            }
        }
    };
}
