//! AMD: the HIP runtime (libamdhip64) and hiprtc, loaded at run time.
//! (Being written; until then `driver()` reports the backend unavailable.)
use crate::gpu::Driver;
use crate::{Error, Result};
use std::sync::Arc;

pub fn driver() -> Result<Arc<dyn Driver>> {
    Err(Error::BackendUnavailable { backend: "hip", tried: vec!["HIP driver not built yet".into()] })
}
