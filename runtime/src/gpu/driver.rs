//! The one trait that CUDA and HIP implement. Everything GPU-side above it (devices, queues,
//! buffers, modules, the kernel cache) is written once against this trait.
use crate::{Backend, DeviceProperties, Result};
use std::ffi::{c_void, CStr};

/// Opaque driver handles, stored as integers so that they are `Send + Sync`.
pub type RawStream = usize;
pub type RawEvent = usize;
pub type RawModule = usize;
pub type RawFunction = usize;

/// A GPU driver plus its run-time compiler. Every method that touches a device first makes
/// `ordinal` the current device of the calling thread (cheap: cached per thread).
pub trait Driver: Send + Sync + 'static {
    fn backend(&self) -> Backend;
    fn device_count(&self) -> Result<usize>;
    fn properties(&self, ordinal: usize) -> Result<DeviceProperties>;

    fn malloc(&self, ordinal: usize, bytes: usize) -> Result<u64>;
    fn free(&self, ordinal: usize, ptr: u64) -> Result<()>;
    /// Asynchronous on `stream` (0 is the legacy default stream).
    /// # Safety
    /// `src` must be valid for `bytes` until the stream has passed this copy.
    unsafe fn copy_h2d(&self, ordinal: usize, dst: u64, src: *const u8, bytes: usize, stream: RawStream) -> Result<()>;
    /// # Safety
    /// `dst` must be valid for `bytes` until the stream has passed this copy.
    unsafe fn copy_d2h(&self, ordinal: usize, dst: *mut u8, src: u64, bytes: usize, stream: RawStream) -> Result<()>;
    fn copy_d2d(&self, ordinal: usize, dst: u64, src: u64, bytes: usize, stream: RawStream) -> Result<()>;
    fn memset_d8(&self, ordinal: usize, dst: u64, value: u8, bytes: usize, stream: RawStream) -> Result<()>;

    fn stream_create(&self, ordinal: usize) -> Result<RawStream>;
    fn stream_destroy(&self, ordinal: usize, stream: RawStream) -> Result<()>;
    fn stream_synchronize(&self, ordinal: usize, stream: RawStream) -> Result<()>;

    fn event_create(&self, ordinal: usize) -> Result<RawEvent>;
    fn event_destroy(&self, ordinal: usize, event: RawEvent) -> Result<()>;
    fn event_record(&self, ordinal: usize, event: RawEvent, stream: RawStream) -> Result<()>;
    fn event_synchronize(&self, ordinal: usize, event: RawEvent) -> Result<()>;
    /// Milliseconds between two recorded, completed events.
    fn event_elapsed_ms(&self, ordinal: usize, start: RawEvent, end: RawEvent) -> Result<f32>;

    fn module_load(&self, ordinal: usize, image: &[u8]) -> Result<RawModule>;
    fn module_unload(&self, ordinal: usize, module: RawModule) -> Result<()>;
    fn module_function(&self, ordinal: usize, module: RawModule, name: &CStr) -> Result<RawFunction>;
    /// Raises a kernel's dynamic shared-memory (LDS) limit above the default 48 KiB.
    fn set_max_dynamic_shared(&self, ordinal: usize, function: RawFunction, bytes: u32) -> Result<()>;
    /// How many blocks of `block_threads` threads and `shared_bytes` of dynamic shared memory
    /// one SM (CU) holds at once (registers, shared memory, threads and the block limit), as the
    /// driver's occupancy calculator says. Dynamic shared memory above 48 KiB needs
    /// [`set_max_dynamic_shared`](Self::set_max_dynamic_shared) first.
    fn max_active_blocks(&self, ordinal: usize, function: RawFunction, block_threads: u32, shared_bytes: u32) -> Result<u32>;
    /// Encodes a TMA tensor map (NVIDIA sm_90+, `cuTensorMapEncodeTiled`); other drivers have
    /// none.
    fn tensor_map(&self, desc: &TensorMapDesc) -> Result<TensorMap> {
        let _ = desc;
        Err(crate::Error::InvalidArgument { name: "tensor_map", reason: format!("{:?} has no TMA tensor maps", self.backend()) })
    }
    /// # Safety
    /// `args` must point to one valid pointer per kernel parameter, each to a value of that
    /// parameter's type, and every device pointer among them must be valid for the kernel's use.
    #[allow(clippy::too_many_arguments)]
    unsafe fn launch(
        &self,
        ordinal: usize,
        function: RawFunction,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        stream: RawStream,
        args: *mut *mut c_void,
    ) -> Result<()>;

    /// Compiles `source` for `arch` (e.g. `sm_90`, `sm_90a`, `gfx942`) to a loadable image
    /// (CUBIN or code object).
    fn compile(&self, module: &str, source: &str, arch: &str, options: &[String]) -> Result<Vec<u8>>;
    /// Identifies the compiler exactly enough to key the kernel cache (e.g. `nvrtc 13.0`).
    fn compiler_version(&self) -> Result<String>;
}

/// A tiled TMA tensor map of `element_bytes`-byte elements (1, 2 or 4, copied as raw bits),
/// dimension 0 innermost (as `cuTensorMapEncodeTiled` takes it): `dims[i]` elements, `strides[i]`
/// bytes between consecutive indices of dimension i + 1, boxes of `box_dims`, 128-byte swizzle,
/// zero fill out of bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorMapDesc {
    pub element_bytes: u32,
    pub address: u64,
    pub dims: [u64; 3],
    pub strides: [u64; 2],
    pub box_dims: [u32; 3],
}

/// The opaque 128-byte `CUtensorMap`, passed by value as a kernel parameter.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorMap(pub [u64; 16]);

// SAFETY: plain bytes, no padding (16 x u64 = 128 bytes at 64-byte alignment).
unsafe impl bytemuck::Zeroable for TensorMap {}
unsafe impl bytemuck::Pod for TensorMap {}
