//! The BLAS handle: the queue ops run on, the pointer mode, a workspace, and kernel selection.
use crate::types::{BlasError, ComplexGemmRoute, MathMode, PointerMode, Result, Status};
use rocmath_kernels::blas::{GemmConfig, GemmVariant};
use rocmath_runtime::{Device, DeviceBuffer, GpuQueue, Queue};
use std::sync::Mutex;

/// A rocBLAS-shaped library context (`rocblas_handle`). rocSOLVER shares it, as in ROCm.
pub struct Handle {
    queue: Queue,
    pointer_mode: PointerMode,
    math_mode: MathMode,
    gemm_variant: Option<GemmVariant>,
    gemm_config: Option<GemmConfig>,
    complex_gemm_route: Option<ComplexGemmRoute>,
    scratch_limit: Option<usize>,
    workspace: Option<DeviceBuffer<u8>>,
    /// Device memory the library grows as its ops need it (operand copies: k-major for the tf32
    /// wgmma GEMMs, repacked for some blocked ones, expanded for complex f32 as a real product;
    /// split-K workspaces), apart from the caller's workspace; kept for the handle's life.
    scratch: Mutex<Option<DeviceBuffer<u8>>>,
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handle")
            .field("device", &self.queue.device().spec())
            .field("pointer_mode", &self.pointer_mode)
            .field("math_mode", &self.math_mode)
            .field("gemm_variant", &self.gemm_variant)
            .field("gemm_config", &self.gemm_config.map(|c| c.tag()))
            .field("complex_gemm_route", &self.complex_gemm_route)
            .field("scratch_limit", &self.scratch_limit)
            .field("workspace_bytes", &self.workspace_size())
            .finish()
    }
}

impl Handle {
    /// A handle on the device `ROCMATH_DEVICE` names, else the best one present, with a new queue.
    pub fn new() -> Result<Handle> {
        Handle::on(&Device::from_env()?)
    }

    /// A handle with a new queue on `device`.
    pub fn on(device: &Device) -> Result<Handle> {
        Ok(Handle::with_queue(device.new_queue()?))
    }

    /// A handle on `device`'s default stream (stream 0), as `rocblas_create_handle` makes one.
    pub fn on_default_stream(device: &Device) -> Handle {
        let queue = match device {
            Device::Cpu(_) => Queue::Cpu,
            // SAFETY: stream 0 (the legacy default stream) always exists.
            Device::Cuda(g) => Queue::Cuda(unsafe { GpuQueue::from_raw(g.clone(), 0) }),
            Device::Hip(g) => Queue::Hip(unsafe { GpuQueue::from_raw(g.clone(), 0) }),
        };
        Handle::with_queue(queue)
    }

    pub fn with_queue(queue: Queue) -> Handle {
        Handle {
            queue,
            pointer_mode: PointerMode::Host,
            math_mode: MathMode::Default,
            gemm_variant: None,
            gemm_config: None,
            complex_gemm_route: None,
            scratch_limit: None,
            workspace: None,
            scratch: Mutex::new(None),
        }
    }

    pub fn queue(&self) -> &Queue {
        &self.queue
    }

    pub fn device(&self) -> Device {
        self.queue.device()
    }

    /// Moves the handle to another queue of the same device.
    pub fn set_queue(&mut self, queue: Queue) -> Result<()> {
        if !queue.device().same_as(&self.queue.device()) {
            return Err(BlasError::new(Status::InvalidValue, "queue", "queue is on another device than the handle"));
        }
        // Ops still running on the old queue may read the scratch that the new queue's ops will
        // overwrite.
        if self.scratch.get_mut().map_or(true, |s| s.is_some()) {
            self.queue.synchronize()?;
        }
        self.queue = queue;
        Ok(())
    }

    pub fn pointer_mode(&self) -> PointerMode {
        self.pointer_mode
    }

    pub fn set_pointer_mode(&mut self, mode: PointerMode) {
        self.pointer_mode = mode;
    }

    pub fn math_mode(&self) -> MathMode {
        self.math_mode
    }

    /// In [`MathMode::Xf32XdlMathOp`], f32 GEMMs (every form: typed, batched, `gemm_ex` with
    /// all-f32 types) run the xf32 kernels on GPUs, whose products are rounded to TF32. The CPU
    /// device keeps computing in full f32, which is within the xf32 tolerance.
    pub fn set_math_mode(&mut self, mode: MathMode) {
        self.math_mode = mode;
    }

    /// The GEMM kernel variant pinned on this handle, if any.
    pub fn gemm_variant(&self) -> Option<GemmVariant> {
        self.gemm_variant
    }

    /// Pins the GEMM kernel variant (for tests and benchmarks); `None` restores selection by
    /// arch. A variant the device cannot run makes gemm calls fail with `ArchMismatch`.
    pub fn set_gemm_variant(&mut self, variant: Option<GemmVariant>) {
        self.gemm_variant = variant;
    }

    /// The GEMM kernel config pinned on this handle, if any (it overrides a pinned variant).
    pub fn gemm_config(&self) -> Option<GemmConfig> {
        self.gemm_config
    }

    /// Pins one GEMM kernel config (for the tuner, tests and benchmarks); `None` restores
    /// selection by tuning table. A config the family or device cannot run makes gemm calls fail
    /// with `ArchMismatch`.
    pub fn set_gemm_config(&mut self, config: Option<GemmConfig>) {
        self.gemm_config = config;
    }

    /// The complex f32 GEMM route pinned on this handle, if any.
    pub fn complex_gemm_route(&self) -> Option<ComplexGemmRoute> {
        self.complex_gemm_route
    }

    /// Pins how complex f32 GEMMs run on GPUs (for tests and benchmarks); `None` restores the
    /// choice by size: host scalars, strided batches and shapes where the copies cost little
    /// next to the product run [`ComplexGemmRoute::AsReal`] (unless a config or variant is
    /// pinned, which pins the complex kernels). Calls the real route cannot take (pointer
    /// arrays, device scalars, host alpha zero, no scratch to be had) run direct whatever the
    /// pin.
    pub fn set_complex_gemm_route(&mut self, route: Option<ComplexGemmRoute>) {
        self.complex_gemm_route = route;
    }

    /// The most scratch the copies of one complex-as-real GEMM step may take (`None`: 1 GiB).
    pub fn scratch_limit(&self) -> Option<usize> {
        self.scratch_limit
    }

    /// Bounds the scratch of the complex-as-real copies (see [`ComplexGemmRoute::AsReal`]): a
    /// call whose copies need more runs in K steps whose copies fit, and one whose copies of 256
    /// columns do not fit runs direct. (Split-K workspaces and the wgmma operand copies keep
    /// their own bounds.)
    pub fn set_scratch_limit(&mut self, bytes: Option<usize>) {
        self.scratch_limit = bytes;
    }

    /// Gives the handle `bytes` of device scratch for ops that need it (none does yet).
    pub fn set_workspace(&mut self, bytes: usize) -> Result<()> {
        self.workspace = if bytes == 0 { None } else { Some(DeviceBuffer::zeroed(&self.queue, bytes)?) };
        Ok(())
    }

    pub fn workspace_size(&self) -> usize {
        self.workspace.as_ref().map_or(0, |w| w.len())
    }

    /// The device address of at least `bytes` of the handle's scratch, grown (reallocated) when
    /// smaller. Ops use it in queue order: a later op on the handle's queue may overwrite what
    /// an earlier one left there. The reallocation frees the old block only after the device
    /// is done with it (the driver's free waits for outstanding work).
    pub(crate) fn scratch(&self, bytes: usize) -> Result<u64> {
        self.scratch_at(0, bytes)
    }

    /// [`Handle::scratch`] past the first `from` bytes, which an op has filled and still reads
    /// (and holds addresses into): the address of `bytes` bytes at offset `from`. With `from` >
    /// 0 the block is never moved: where it is too small this is an error (the op sizes the
    /// first request for both parts).
    pub(crate) fn scratch_at(&self, from: usize, bytes: usize) -> Result<u64> {
        let total = from.checked_add(bytes).ok_or_else(|| BlasError::new(Status::MemoryError, "handle", "scratch size overflows"))?;
        let mut scratch = self.scratch.lock().map_err(|_| BlasError::new(Status::InternalError, "handle", "scratch lock poisoned"))?;
        if scratch.as_ref().is_none_or(|b| b.len() < total) {
            if from > 0 {
                return Err(BlasError::new(Status::MemoryError, "handle", "the scratch in use is too small"));
            }
            // The old block goes first, so that both are never held.
            *scratch = None;
            *scratch = Some(DeviceBuffer::zeroed(&self.queue, total)?);
        }
        Ok(scratch.as_ref().map_or(0, |b| b.as_ptr() as u64 + from as u64))
    }
}
