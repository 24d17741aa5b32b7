//! rocmath: a GPU math library suite (BLAS, SOLVER, FFT, SPARSE) on AMD (HIP), NVIDIA (CUDA) and CPU.
//!
//! This umbrella crate re-exports the libraries; each also stands alone as `rocmath-<lib>`.
pub use rocmath_blas as blas;
pub use rocmath_fft as fft;
pub use rocmath_runtime as runtime;
pub use rocmath_runtime::{Device, DeviceBuffer, Error, Event, Queue};
pub use rocmath_solver as solver;
pub use rocmath_sparse as sparse;
