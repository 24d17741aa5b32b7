//! Generators: typed Rust models of kernel configurations -> self-contained source text.
//!
//! * [`gemm`]: GEMM tiles. A [`gemm::GemmConfig`] (macro tile, wave tiling, atom, LDS layout,
//!   pipeline depth, tile order) is validated with a reason, named by its parameters, and emitted
//!   as a translation unit: the prelude, the atoms, the blocking of `src/blas/gemm.hip` and the
//!   `extern "C"` instantiations of the config for every transpose.
//! * [`fft`]: FFT kernels. A [`fft::StockhamKernel`] (length, radix passes, threads per transform,
//!   transforms per block, thread order, storage types) is emitted with its generated
//!   butterflies and pass list over the body of `src/fft/fft.hip`; the element-wise kernels of
//!   each precision come from [`fft::FftUtilKernels`].
pub mod fft;
pub mod gemm;

/// Blocks of `bytes` of shared memory each that one sm_90 multiprocessor holds: it has 228 KiB,
/// of which a block may take 227 and the driver keeps 1 KiB more per block.
pub fn sm90_blocks_by_shared(bytes: usize) -> usize {
    228 * 1024 / (bytes + 1024)
}

/// The number in environment variable `var`, if set, a number, and `allowed` (the generators'
/// tuning and A/B switches; each reads it once).
pub(crate) fn env_number(var: &str, allowed: impl Fn(usize) -> bool) -> Option<usize> {
    std::env::var(var).ok().and_then(|v| v.parse::<usize>().ok()).filter(|&v| allowed(v))
}
