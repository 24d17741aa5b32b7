//! rocmath-fft: rocFFT-shaped FFT plans (batched 1D/2D/3D, complex and real, single, double and
//! half precision, any length) on every rocmath device.
//!
//! A [`Plan`] is validated with rocFFT's statuses when it is created and bound to a device: on a
//! GPU its kernels are generated, compiled (or loaded from the cache) and its twiddle tables
//! uploaded then, so executing is launches only. The CPU path is also the reference the GPU is
//! checked against.
//!
//! Two layers: [`Plan::execute`] over typed [`DeviceBuffer`]s, whose errors name the argument at
//! fault, and [`Plan::execute_raw`] over pointers with rocFFT's semantics, which the C ABI calls.
//!
//! Beside the plans, [`nd`] transforms [`ndarray`] arrays: `nd::fft`, `ifft`, `rfft`, `irfft` of
//! their last 1 to 3 axes, on any queue.
//!
//! [`DeviceBuffer`]: rocmath_runtime::DeviceBuffer
pub mod aot;
mod columns;
mod lines;
mod cpu;
mod gpu;
pub mod nd;
mod plan;
mod types;

pub use plan::{Data, FftReal, Layout, Plan, PlanDescription};
pub use nd::{fft, ifft, irfft, rfft};
pub use types::{ArrayType, FftError, Placement, Precision, Result, Status, TransformType};
