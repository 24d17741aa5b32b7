//! The CPU path: every plan runs here, and it is the reference for the GPU.
use crate::plan::Plan;
use crate::types::{FftError, Result, Status};
use std::ffi::c_void;

/// Runs `plan` on host memory.
///
/// # Safety
/// As [`Plan::execute_raw`]: the pointers are host memory covering the plan's layouts.
pub(crate) unsafe fn execute(_plan: &Plan, _input: &[*mut c_void], _output: &[*mut c_void]) -> Result<()> {
    Err(FftError::new(Status::Failure, "plan", "the CPU FFT path is being written"))
}
