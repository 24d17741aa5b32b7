//! The one error type of the runtime (and the layer every library error wraps).
use std::fmt;

/// Everything the runtime can fail with. Cheap to clone so that deferred errors (from `Drop`) can
/// be stored and reported later.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A vendor library (driver, compiler) could not be loaded. `tried` names every file or
    /// symbol that was attempted, with the loader's reason.
    BackendUnavailable { backend: &'static str, tried: Vec<String> },
    /// The backend loaded, but the requested device ordinal does not exist.
    NoSuchDevice { backend: &'static str, ordinal: usize, count: usize },
    /// `ROCMATH_DEVICE` (or a spec string) could not be parsed.
    InvalidDeviceSpec(String),
    /// A driver call returned an error code.
    Driver { backend: &'static str, call: &'static str, code: i32, name: String },
    /// Run-time compilation failed; `log` is the compiler's log.
    Compile { module: String, arch: String, log: String },
    /// A caller passed an argument the runtime cannot accept.
    InvalidArgument { name: &'static str, reason: String },
    /// The on-disk kernel cache could not be used (the compile still proceeds without it where
    /// possible; this surfaces only when nothing else can be done).
    Cache(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BackendUnavailable { backend, tried } => {
                write!(f, "{backend} backend unavailable; tried: {}", tried.join("; "))
            }
            Error::NoSuchDevice { backend, ordinal, count } => {
                write!(f, "{backend} device {ordinal} does not exist ({count} present)")
            }
            Error::InvalidDeviceSpec(s) => write!(
                f,
                "invalid device spec {s:?}: expected cpu, cuda, cuda:N, hip or hip:N"
            ),
            Error::Driver { backend, call, code, name } => {
                write!(f, "{backend} call {call} failed: {name} ({code})")
            }
            Error::Compile { module, arch, log } => {
                write!(f, "compiling {module} for {arch} failed:\n{log}")
            }
            Error::InvalidArgument { name, reason } => write!(f, "invalid argument `{name}`: {reason}"),
            Error::Cache(s) => write!(f, "kernel cache: {s}"),
        }
    }
}

impl std::error::Error for Error {}
