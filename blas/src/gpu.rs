//! The GPU back end (CUDA and HIP alike): picks the GEMM kernel for the device's arch,
//! compiles it once per device (memory + disk cache), and launches it on the handle's queue.
use crate::gemm::{GemmCall, Scalar, Scalars};
use crate::handle::Handle;
use crate::types::{BlasError, Operation, Result, Status};
use num_complex::{Complex32, Complex64};
use rocmath_kernels::blas::{GemmFamily, GemmKernel, Trans};
use rocmath_runtime::{GpuDevice, KernelArgs, KernelSource, LaunchConfig, Module};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Loaded GEMM modules, per device and kernel. The runtime caches by source hash too; this
/// table skips regenerating and hashing the source on every call.
static MODULES: OnceLock<Mutex<HashMap<(String, usize, GemmKernel), Arc<Module>>>> = OnceLock::new();

fn module(device: &GpuDevice, kernel: GemmKernel) -> Result<Arc<Module>> {
    let key = (device.backend().name().to_string(), device.ordinal(), kernel);
    let table = MODULES.get_or_init(Default::default);
    if let Some(m) = table.lock().map_err(|_| poisoned())?.get(&key) {
        return Ok(m.clone());
    }
    let source = KernelSource {
        name: kernel.module_name(),
        source: kernel.source(),
        options: Vec::new(),
        arch_override: None,
    };
    let m = device.module(&source)?;
    table.lock().map_err(|_| poisoned())?.insert(key, m.clone());
    Ok(m)
}

fn poisoned() -> BlasError {
    BlasError::new(Status::InternalError, "handle", "a thread panicked while holding the module table")
}

fn trans(op: Operation) -> Trans {
    match op {
        Operation::None => Trans::N,
        Operation::Transpose => Trans::T,
        Operation::ConjugateTranspose => Trans::C,
    }
}

/// The kernel a handle uses for `family` on `device`.
pub(crate) fn select(handle: &Handle, device: &GpuDevice, family: GemmFamily) -> Result<GemmKernel> {
    let arch = &device.properties().arch;
    let kernel = match handle.gemm_variant() {
        None => GemmKernel::select(family, arch),
        Some(v) => GemmKernel::new(family, v).map_err(|why| BlasError::new(Status::ArchMismatch, "handle", why))?,
    };
    if !kernel.supports_arch(arch) {
        return Err(BlasError::new(Status::ArchMismatch, "handle", format!("{} does not run on {arch}", kernel.module_name())));
    }
    Ok(kernel)
}

fn push_scalar(args: &mut KernelArgs, s: Scalar) {
    match s {
        Scalar::F32(v) => args.push(v),
        Scalar::F64(v) => args.push(v),
        Scalar::C32(v) => args.push(v),
        Scalar::C64(v) => args.push(v),
    };
}

/// A zero of the family's compute type, passed by value when the kernel reads device scalars.
fn compute_zero(family: GemmFamily) -> Scalar {
    match family {
        GemmFamily::D => Scalar::F64(0.0),
        GemmFamily::C => Scalar::C32(Complex32::new(0.0, 0.0)),
        GemmFamily::Z => Scalar::C64(Complex64::new(0.0, 0.0)),
        _ => Scalar::F32(0.0),
    }
}

const MAX_GRID_YZ: u32 = 65535;

/// Bytes of one A/B element and one C/D element of a family.
fn element_bytes(family: GemmFamily) -> (usize, usize) {
    use GemmFamily::*;
    match family {
        S => (4, 4),
        D | C => (8, 8),
        Z => (16, 16),
        H | Hhs | Bbs => (2, 2),
        Hss | Bss => (2, 4),
    }
}

/// Launches a validated GEMM on the handle's queue (asynchronously).
///
/// # Safety
/// The call's pointers must be device pointers of the handle's device, valid for the extents
/// the call describes.
pub(crate) unsafe fn gemm(handle: &Handle, call: &GemmCall) -> Result<()> {
    let queue = handle.queue().gpu().ok_or_else(|| BlasError::new(Status::InternalError, "handle", "not a GPU queue"))?;
    let device = queue.device();
    let kernel = select(handle, device, call.family)?;
    let module = module(device, kernel)?;
    let function = module.function(&kernel.kernel_name(trans(call.trans_a), trans(call.trans_b)))?;
    // Grid y and z are limited to 65535 blocks: batches beyond that are launched in chunks.
    let dims = kernel.launch_dims(call.m, call.n, 1);
    if dims.grid[1] > MAX_GRID_YZ {
        return Err(BlasError::new(Status::InvalidSize, "n", format!("{} needs more than {MAX_GRID_YZ} tile columns", call.n)));
    }
    let (ab, cd) = element_bytes(call.family);
    let mut first = 0;
    while first < call.batch {
        let count = (call.batch - first).min(MAX_GRID_YZ as usize);
        let at = |ptr: u64, stride: usize, size: usize| ptr + (first * stride * size) as u64;
        let mut args = KernelArgs::new();
        args.push(call.m as i32).push(call.n as i32).push(call.k as i32);
        let (alpha_ptr, beta_ptr) = match call.scalars {
            Scalars::Value { alpha, beta } => {
                push_scalar(&mut args, alpha);
                push_scalar(&mut args, beta);
                (0u64, 0u64)
            }
            Scalars::Device { alpha, beta } => {
                push_scalar(&mut args, compute_zero(call.family));
                push_scalar(&mut args, compute_zero(call.family));
                (alpha as u64, beta as u64)
            }
        };
        args.push(alpha_ptr).push(beta_ptr);
        for (ptr, ld, stride, size) in [
            (call.a as u64, call.lda, call.stride_a, ab),
            (call.b as u64, call.ldb, call.stride_b, ab),
            (call.c as u64, call.ldc, call.stride_c, cd),
            (call.d as u64, call.ldd, call.stride_d, cd),
        ] {
            args.push(at(ptr, stride, size)).push(ld as i64).push(stride as i64);
        }
        let cfg = LaunchConfig { grid: [dims.grid[0], dims.grid[1], count as u32], block: dims.block, shared_bytes: dims.shared_bytes };
        function.launch(queue, cfg, &mut args)?;
        first += count;
    }
    Ok(())
}
