//! The GPU path (CUDA and HIP alike): generated Stockham kernels per pass.
use crate::plan::Plan;
use crate::types::{FftError, Result, Status};
use rocmath_runtime::{GpuDevice, GpuQueue};
use std::ffi::c_void;

/// A plan's GPU side: its passes, compiled kernels and twiddle tables.
pub(crate) struct GpuPlan {}

impl GpuPlan {
    pub(crate) fn new(_plan: &Plan, _device: &GpuDevice) -> Result<GpuPlan> {
        Err(FftError::new(Status::Failure, "device", "the GPU FFT path is being written"))
    }
    pub(crate) fn work_bytes(&self) -> usize {
        0
    }
    pub(crate) fn describe(&self) -> String {
        String::new()
    }
    /// # Safety
    /// As [`Plan::execute_raw`].
    pub(crate) unsafe fn execute(
        &self,
        _plan: &Plan,
        _queue: &GpuQueue,
        _input: &[*mut c_void],
        _output: &[*mut c_void],
        _work: Option<(*mut c_void, usize)>,
    ) -> Result<()> {
        Err(FftError::new(Status::Failure, "device", "the GPU FFT path is being written"))
    }
}
