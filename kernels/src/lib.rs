//! rocmath-kernels: device code as data.
//!
//! * [`prelude()`]: the portable HIP-dialect prelude (`include/prelude.h`) that compiles with no
//!   header at all under nvrtc, hiprtc, and clang in CUDA and HIP modes.
//! * [`atoms`]: the matrix-core atom headers (`include/atoms/*.h`), one struct per instruction.
//! * [`blas`]: GEMM kernels (`src/blas/gemm.hip`) and the typed Rust model that names them,
//!   emits their `extern "C"` instantiations and computes launch dimensions.
//! * [`gen`]: generators (typed config -> source): GEMM tiles and FFT Stockham kernels.
//! * [`check`]: the static check run by the `kernels-check` binary.
//!
//! Every source handed to a run-time compiler is a single self-contained translation unit
//! (no `#include`): nvrtc and hiprtc get no include path.

pub mod atoms;
pub mod blas;
pub mod check;
pub mod gen;

/// The portable prelude (`include/prelude.h`), include-free.
pub fn prelude() -> &'static str {
    include_str!("../include/prelude.h")
}
