//! rocmath-blas: rocBLAS-shaped BLAS on every rocmath device (CPU, CUDA, HIP).
//!
//! Each op validates its arguments with rocBLAS's statuses and order (nothing is written on
//! error; empty sizes return early), selects a kernel for the device, and launches it on the
//! handle's queue. The CPU implementation is also the reference the GPU is checked against.
//!
//! Two layers: the safe API ([`gemm`], [`gemm_ex`], their batched forms) over [`DeviceBuffer`]s, whose errors name
//! the argument at fault; and the raw, pointer-based functions ([`gemm_raw`], [`gemm_ex_raw`])
//! with rocBLAS's exact semantics, which the C ABI calls.
//!
//! [`DeviceBuffer`]: rocmath_runtime::DeviceBuffer
mod cpu;
mod element;
mod gemm;
mod gpu;
mod handle;
mod types;

pub use element::{Element, ExInput, ExOutput, HalfLike};
pub use gemm::{
    gemm, gemm_batched, gemm_batched_ex, gemm_batched_ex_raw, gemm_batched_raw, gemm_ex, gemm_ex_family, gemm_ex_raw, gemm_raw,
    gemm_strided_batched, gemm_strided_batched_ex, gemm_strided_batched_ex_raw, gemm_strided_batched_raw, Batch,
};
pub use gpu::{aot_kernel_sources, gemm_solution, gemm_split_slices};
pub use handle::Handle;
pub use rocmath_kernels::blas::{GemmConfig, GemmFamily, GemmKernel, GemmVariant};
pub use types::{BlasError, ComplexGemmRoute, Datatype, MathMode, Operation, PointerMode, Result, Status};
