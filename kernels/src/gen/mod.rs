//! Generators: typed Rust models of kernel configurations -> self-contained source text.
//!
//! * [`gemm`]: GEMM tiles. A [`gemm::GemmConfig`] (macro tile, wave tiling, atom, LDS layout,
//!   pipeline depth, tile order) is validated with a reason, named by its parameters, and emitted
//!   as a translation unit: the prelude, the atoms, the blocking of `src/blas/gemm.hip` and the
//!   `extern "C"` instantiations of the config for every transpose.
pub mod fft;
pub mod gemm;
