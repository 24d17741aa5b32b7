//! The GPU back end (CUDA and HIP alike): picks the GEMM kernel for the device's arch,
//! compiles it once per device (memory + disk cache), and launches it on the handle's queue.
use crate::gemm::{GemmCall, Scalar, Scalars};
use crate::handle::Handle;
use crate::types::{BlasError, MathMode, Operation, Result, Status};
use num_complex::{Complex32, Complex64};
use rocmath_kernels::blas::{GemmConfig, GemmFamily, GemmKernel, GemmVariant, Trans, TransposeKernel};
use rocmath_kernels::gen::gemm::{BatchForm, GENERATOR};
use rocmath_tuning::{Lookup, Tables};
use rocmath_runtime::{Backend, GpuDevice, GpuQueue, KernelArgs, KernelSource, LaunchConfig, Module, TensorMap, TensorMapDesc};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

mod as_real;
use as_real::{gemm_as_real, AsRealPlan};

/// A GEMM kernel's module (its name carries its whole config), built the first time. Looked up
/// by the kernel itself, so that a call does not format and hash the module's name.
fn module(device: &GpuDevice, kernel: GemmKernel) -> Result<Arc<Module>> {
    type Key = (Backend, usize, GemmKernel);
    static MODULES: OnceLock<Mutex<HashMap<Key, Arc<Module>>>> = OnceLock::new();
    let key = (device.backend(), device.ordinal(), kernel);
    let modules = MODULES.get_or_init(Default::default);
    if let Some(m) = modules.lock().ok().and_then(|t| t.get(&key).cloned()) {
        return Ok(m);
    }
    let m = device.named_module(&kernel.module_name(), || kernel_source(&kernel))?;
    if let Ok(mut t) = modules.lock() {
        t.insert(key, m.clone());
    }
    Ok(m)
}

fn kernel_source(kernel: &GemmKernel) -> KernelSource {
    KernelSource { name: kernel.module_name(), source: kernel.source(), options: Vec::new(), arch_override: kernel.arch_override().map(String::from) }
}

fn transpose_source() -> KernelSource {
    KernelSource { name: TransposeKernel::MODULE.into(), source: TransposeKernel::source(), options: Vec::new(), arch_override: None }
}

/// The GEMM modules `rocmath-aot` compiles ahead of time for `arch` (see `rocmath_runtime::aot`):
/// every config the embedded tuning tables of the arch name (entries and fallbacks) that runs
/// there, with the unsplit twin of each split-K one (for calls without a workspace, or of one
/// slice), every family's fallback of every variant that runs there (the mma.sync kernels that
/// take calls TMA cannot describe among them), the operand transpose and the complex-as-real
/// copies. Each once.
pub fn aot_kernel_sources(arch: &str) -> Vec<KernelSource> {
    let mut kernels: Vec<GemmKernel> = Vec::new();
    for table in Tables::embedded().iter().filter(|t| t.arch == arch && t.generator == GENERATOR) {
        let Some(family) = GemmFamily::from_tag(&table.types) else { continue };
        let solutions = table.entries().iter().map(|e| e.solution.as_str()).chain(std::iter::once(table.fallback.as_str()));
        for kernel in solutions.filter_map(|sol| GemmConfig::parse(sol).ok().and_then(|c| GemmKernel::new(family, c).ok())) {
            kernels.push(kernel);
            if kernel.config.split_k > 1 {
                kernels.push(kernel.unsplit());
            }
        }
    }
    for family in GemmFamily::ALL {
        kernels.extend(GemmVariant::ALL.iter().filter_map(|&v| GemmKernel::arch_fallback(family, v, arch).ok()));
    }
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<KernelSource> = kernels.iter().filter(|k| k.supports_arch(arch) && seen.insert(k.module_name())).map(kernel_source).collect();
    out.push(transpose_source());
    out.push(as_real::source());
    out
}

fn trans(op: Operation) -> Trans {
    match op {
        Operation::None => Trans::N,
        Operation::Transpose => Trans::T,
        Operation::ConjugateTranspose => Trans::C,
    }
}

/// Tuning tables (committed ones, overlaid by `ROCMATH_TUNING_DIR`), loaded once per process.
fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::from_env)
}

/// The table layout tag (`nt`, ...); real families have no conjugate kernels.
fn layout(family: GemmFamily, trans_a: Operation, trans_b: Operation) -> String {
    let tag = |op: Operation| match (op, family.is_complex()) {
        (Operation::None, _) => 'n',
        (Operation::Transpose, _) | (Operation::ConjugateTranspose, false) => 't',
        (Operation::ConjugateTranspose, true) => 'c',
    };
    format!("{}{}", tag(trans_a), tag(trans_b))
}

/// Layouts whose table stands in, in this order, for a layout that has none.
const SIBLING_LAYOUTS: [&str; 4] = ["nt", "nn", "tn", "tt"];

/// The tuning tables' kernel for a call of `family` in `layout` on `arch`: the pick of the
/// layout's own table (exact size, else nearest, else its fallback) or, where that layout has no
/// table of the current generator, of the family's first sibling layout that has one. The best
/// blocking depends on the size far more than on the transposes (32x32 tiles for 32^3 batches
/// whatever the layout), so a sibling's pick beats the arch fallback. `None`: no table, or
/// nothing in it that validates for the family and runs on the arch.
fn table_pick(tables: &Tables, arch: &str, family: GemmFamily, layout: &str, [m, n, k, batch]: [usize; 4]) -> Option<GemmKernel> {
    let usable = |sol: &str| GemmConfig::parse(sol).ok().and_then(|c| GemmKernel::new(family, c).ok()).filter(|k| k.supports_arch(arch));
    let layouts = std::iter::once(layout).chain(SIBLING_LAYOUTS.into_iter().filter(|l| *l != layout));
    let table = layouts.into_iter().find_map(|l| match tables.gemm(arch, family.tag(), l, GENERATOR) {
        Lookup::Found(t) => Some(t),
        Lookup::Stale { .. } | Lookup::Missing => None,
    })?;
    table.select(m as u64, n as u64, k as u64, batch as u64, |sol| usable(sol).is_some()).and_then(|s| usable(&s.solution))
}

/// Shapes whose table picks [`cached_pick`] keeps; past this many it starts over.
const PICK_CACHE_SHAPES: usize = 4096;

/// [`table_pick`] over the process's tables, else the arch's fallback, remembered per shape. A
/// pick parses and validates table entries (microseconds of host time, as long as a small
/// call's kernel), so each shape pays that once per process.
fn cached_pick(arch: &str, family: GemmFamily, layout: String, size: [usize; 4]) -> GemmKernel {
    type Key = (String, GemmFamily, String, [usize; 4]);
    static PICKS: OnceLock<Mutex<HashMap<Key, GemmKernel>>> = OnceLock::new();
    let picks = PICKS.get_or_init(Default::default);
    let key = (arch.to_string(), family, layout, size);
    if let Some(k) = picks.lock().ok().and_then(|t| t.get(&key).copied()) {
        return k;
    }
    let kernel = table_pick(tables(), arch, family, &key.2, size).unwrap_or_else(|| GemmKernel::select(family, arch));
    if let Ok(mut t) = picks.lock() {
        if t.len() >= PICK_CACHE_SHAPES {
            t.clear();
        }
        t.insert(key, kernel);
    }
    kernel
}

/// The kernel a handle uses for a call on `device` (f32 calls in xf32 math mode use the xf32
/// family): a pinned config, else a pinned variant's
/// fallback, else the tuning table's pick for the size ([`table_pick`]: exact, else nearest in
/// log space, else the table's fallback; a sibling layout's table where the layout has none),
/// else the arch's fallback. A stale or unusable table entry costs speed,
/// never correctness: only configs that validate for the family and run on the arch are taken.
pub(crate) fn select(
    handle: &Handle,
    device: &GpuDevice,
    family: GemmFamily,
    (trans_a, trans_b): (Operation, Operation),
    [m, n, k, batch]: [usize; 4],
) -> Result<GemmKernel> {
    let arch = &device.properties().arch;
    // xf32 math mode: rocBLAS lets every f32-input GEMM round its products to xf32.
    let family = match (family, handle.math_mode()) {
        (GemmFamily::S, MathMode::Xf32XdlMathOp) => GemmFamily::Xf32,
        (f, _) => f,
    };
    let mismatch = |why: String| BlasError::new(Status::ArchMismatch, "handle", why);
    let kernel = if let Some(cfg) = handle.gemm_config() {
        GemmKernel::new(family, cfg).map_err(mismatch)?
    } else if let Some(v) = handle.gemm_variant() {
        GemmKernel::arch_fallback(family, v, arch).map_err(mismatch)?
    } else {
        cached_pick(arch, family, layout(family, trans_a, trans_b), [m, n, k, batch])
    };
    if !kernel.supports_arch(arch) {
        return Err(mismatch(format!("{} does not run on {arch}", kernel.module_name())));
    }
    Ok(kernel)
}

/// The kernel module a gemm call of this shape would run on the handle's device (`None` on the
/// CPU), for the bench and the tuner to report. A wgmma module runs only when TMA can describe
/// the operands (see `tma_describes`); other calls of that shape run the mma.sync fallback. A
/// complex f32 shape that runs as a real product (see [`crate::ComplexGemmRoute`]) reports the
/// `s` kernel that runs it (for host scalars and strided batches).
#[allow(clippy::too_many_arguments)]
pub fn gemm_solution(
    handle: &Handle,
    family: GemmFamily,
    trans_a: Operation,
    trans_b: Operation,
    m: usize,
    n: usize,
    k: usize,
    batch: usize,
) -> Result<Option<GemmKernel>> {
    match handle.queue().gpu() {
        None => Ok(None),
        Some(q) => match as_real::real_kernel(handle, family, &q.device().properties().arch, (trans_a, trans_b), [m, n, k, batch]) {
            Some(real) => Ok(Some(real)),
            None => select(handle, q.device(), family, (trans_a, trans_b), [m, n, k, batch]).map(Some),
        },
    }
}

fn push_scalar(args: &mut KernelArgs, s: Scalar) {
    match s {
        Scalar::F32(v) => args.push(v),
        Scalar::F64(v) => args.push(v),
        Scalar::C32(v) => args.push(v),
        Scalar::C64(v) => args.push(v),
        Scalar::I32(v) => args.push(v),
    };
}

/// A zero of the family's compute type, passed by value when the kernel reads device scalars.
fn compute_zero(family: GemmFamily) -> Scalar {
    match family {
        GemmFamily::D => Scalar::F64(0.0),
        GemmFamily::C => Scalar::C32(Complex32::new(0.0, 0.0)),
        GemmFamily::Z => Scalar::C64(Complex64::new(0.0, 0.0)),
        GemmFamily::I8 => Scalar::I32(0),
        _ => Scalar::F32(0.0),
    }
}

const MAX_GRID_YZ: u32 = 65535;

/// Whether TMA tensor maps can describe the call's A and B (the wgmma kernels' operands):
/// strided form, 16-byte aligned bases, leading dimensions and batch strides multiples of 16
/// bytes (strides nonzero when batch > 1), nonempty extents. A host alpha of zero reads no A or B
/// at all, so it goes to the kernels that skip them.
fn tma_describes(call: &GemmCall) -> bool {
    let e = call.family.ab_bytes() as u64;
    let aligned = |v: u64| (v * e) % 16 == 0;
    let alpha_zero = match call.scalars {
        Scalars::Value { alpha, .. } => alpha.is_zero(),
        Scalars::Device { .. } => false,
    };
    let strides_ok = call.batch == 1
        || [call.stride_a, call.stride_b].iter().all(|&st| st > 0 && aligned(st as u64) && (st as u64) * e < 1 << 40);
    call.form == BatchForm::Strided
        && call.m > 0
        && call.n > 0
        && call.k > 0
        && !alpha_zero
        && !call.a.is_null()
        && !call.b.is_null()
        && (call.a as u64) % 16 == 0
        && (call.b as u64) % 16 == 0
        && aligned(call.lda as u64)
        && aligned(call.ldb as u64)
        && strides_ok
        && call.m.max(call.n).max(call.k).max(call.batch) <= u32::MAX as usize
}

/// The tensor map of op(A) (`is_a`) or op(B) as `gemm_sm90.hip` loads it: dimension 0 is the one
/// contiguous in memory; boxes of one 128-byte row by one K tile (128 bytes of k) for an m/n-
/// contiguous operand (64 x 64 16-bit, 32 x 32 tf32), one K tile x tile rows for a k-contiguous
/// one.
fn operand_map(kernel: &GemmKernel, call: &GemmCall, is_a: bool) -> TensorMapDesc {
    let (ptr, ld, stride, op, rows, tile_rows) = if is_a {
        (call.a, call.lda, call.stride_a, call.trans_a, call.m, kernel.config.mt[0])
    } else {
        (call.b, call.ldb, call.stride_b, call.trans_b, call.n, kernel.config.mt[1])
    };
    // op(A) is m-contiguous when A is not transposed; op(B) is n-contiguous when B is.
    let mn_major = (op == Operation::None) == is_a;
    let e = call.family.ab_bytes() as u64;
    let (inner, outer) = if mn_major { (rows, call.k) } else { (call.k, rows) };
    let batch_stride = if call.batch > 1 { stride as u64 * e } else { (ld as u64 * outer as u64 * e).next_multiple_of(16) };
    TensorMapDesc {
        element_bytes: e as u32,
        address: ptr as u64,
        dims: [inner as u64, outer as u64, call.batch as u64],
        strides: [ld as u64 * e, batch_stride],
        // A box row is 128 bytes: of m/n, or one K tile of k. A multicast config's blocks each
        // load half of a k-major B tile's rows (gemm_sm90.hip, MULTICAST).
        box_dims: [(128 / e) as u32, if mn_major { (128 / e) as u32 } else if !is_a && kernel.config.multicast { tile_rows / 2 } else { tile_rows }, 1],
    }
}

/// The tensor map `gemm_sm90.hip`'s epilogue stores D through: dimension 0 is m, boxes of 128
/// bytes of rows x 32 columns. `None` when TMA cannot describe D (base, ldd or batch stride not
/// multiples of 16 bytes, or past TMA's limits) or m does not fill whole 16-byte units: a TMA
/// store writes a unit that the tensor's edge cuts whole (on the H100, a box over m = 129 halves
/// wrote rows 129..135 in the ld padding). The kernel then writes D from registers.
fn output_map(call: &GemmCall) -> Option<TensorMapDesc> {
    let e = call.family.c_bytes() as u64;
    let fits = |bytes: u64| bytes % 16 == 0 && bytes < 1 << 40;
    let ld = (call.ldd as u64).checked_mul(e)?;
    let batch_stride = if call.batch > 1 {
        u64::try_from(call.stride_d).ok().filter(|&st| st > 0)?.checked_mul(e)?
    } else {
        ld.checked_mul(call.n as u64)?.next_multiple_of(16)
    };
    let ok = !call.d.is_null()
        && (call.d as u64) % 16 == 0
        && fits(ld)
        && fits(batch_stride)
        && (call.m as u64 * e) % 16 == 0
        && call.m.max(call.n).max(call.batch) <= u32::MAX as usize;
    ok.then(|| TensorMapDesc {
        element_bytes: e as u32,
        address: call.d as u64,
        dims: [call.m as u64, call.n as u64, call.batch as u64],
        strides: [ld, batch_stride],
        box_dims: [(128 / e) as u32, 32, 1],
    })
}

/// The workspace of a split-K call: per batch entry and K slice (`slices` of them) an ldw x n
/// matrix of `element` bytes (f32 for wgmma, the accumulator type for the blocked kernels), ldw =
/// m rounded up to 4 (so that the TMA stores of the slices write whole 16-byte units, and the
/// blocked kernels' vector stores stay aligned).
#[derive(Clone, Copy)]
struct SplitWorkspace {
    address: u64,
    ldw: usize,
    slices: usize,
}

/// The workspace of a split-K call may hold at most this many times the bytes of A and B that
/// the call multiplies (see [`split_slices`]).
const WORKSPACE_PER_OPERAND_BYTE: usize = 4;

/// How many K slices a split-K config's call runs (1: none, the config's unsplit twin runs it).
/// The config's count, tuned at its table entry, but at most one slice per K tile and at most
/// what keeps the workspace (written by the slices, read back by the reduce) within
/// [`WORKSPACE_PER_OPERAND_BYTE`] times the bytes of A and B: a call far from the entry its config
/// was tuned at splits less (1024^3 under the 64-slice pick of 256 x 256 x 65536 would have
/// written 268 MB of sums for 8 MB of operands; it takes 8 slices). Every tuned entry keeps its
/// count (`table_entries_keep_their_split_counts`).
fn split_slices(kernel: &GemmKernel, call: &GemmCall) -> usize {
    gemm_split_slices(kernel.family, &kernel.config, [call.m, call.n, call.k])
}

/// [`split_slices`] of a call of `family` and size m x n x k run on `config` (the tuner times a
/// split config that would run unsplit at the size it tunes as its unsplit twin, so that no
/// table entry names a split count its own size does not run).
pub fn gemm_split_slices(family: GemmFamily, config: &GemmConfig, [m, n, k]: [usize; 3]) -> usize {
    let tuned = config.split_k as usize;
    if tuned <= 1 {
        return 1;
    }
    let ktiles = k.div_ceil(config.mt[2] as usize);
    let element = if config.is_wgmma() { 4 } else { family.compute_bytes() as usize };
    let slice_bytes = m.next_multiple_of(4).saturating_mul(n).saturating_mul(element).max(1);
    let operand_bytes = (m.saturating_add(n)).saturating_mul(k).saturating_mul(family.ab_bytes() as usize);
    let fit = WORKSPACE_PER_OPERAND_BYTE.saturating_mul(operand_bytes) / slice_bytes;
    tuned.min(ktiles).min(fit).max(1)
}

impl SplitWorkspace {
    /// (ldw, bytes) for `call` split into `slices` slices of `element`-byte sums; `None` on
    /// overflow.
    fn size(call: &GemmCall, slices: usize, element: usize) -> Option<(usize, usize)> {
        let ldw = call.m.next_multiple_of(4);
        let bytes = ldw.checked_mul(call.n)?.checked_mul(call.batch)?.checked_mul(slices)?.checked_mul(element)?;
        Some((ldw, bytes))
    }

    fn map(&self, call: &GemmCall) -> TensorMapDesc {
        let ld = self.ldw as u64 * 4;
        TensorMapDesc {
            element_bytes: 4,
            address: self.address,
            dims: [self.ldw as u64, call.n as u64, (call.batch * self.slices) as u64],
            strides: [ld, ld * call.n as u64],
            box_dims: [32, 32, 1],
        }
    }
}

/// A wgmma call as it is launched: on k-contiguous copies of the operands where the atom needs
/// them, and with split-K, the workspace of the slices.
struct WgmmaRun {
    call: GemmCall,
    workspace: Option<SplitWorkspace>,
}

/// A transposing copy of an operand into the handle's scratch: the stored `rows` x `cols` matrix
/// at `src` (column-major, `ld`, batch `stride`, in elements) to `cols` x `rows`, leading
/// dimension `ld_out`, `entries` of them `ld_out * rows` apart. It puts op(A) or op(B)
/// k-contiguous for the tf32 and s8 wgmma kernels, and m/n-contiguous for repacking configs.
struct OperandCopy {
    is_a: bool,
    entries: usize,
    src: u64,
    rows: usize,
    cols: usize,
    ld: usize,
    stride: i64,
    ld_out: usize,
}

/// The operand copies of one call (elements of `element` bytes: 4 or 1) and their places in the
/// scratch: one after another, each 256-byte aligned, `bytes` in all.
struct CopyPlan {
    element: usize,
    copies: Vec<(usize, OperandCopy)>,
    bytes: usize,
}

impl CopyPlan {
    fn new(element: usize) -> CopyPlan {
        debug_assert!(element == 4 || element == 1, "rm_blas_transpose_b32 and _b8");
        CopyPlan { element, copies: Vec::new(), bytes: 0 }
    }

    /// Places `copy` after the copies before it. `None`: `rm_blas_transpose_b32` cannot take its
    /// extents (ints; `cols` runs along grid y), or its size overflows.
    fn add(&mut self, copy: OperandCopy) -> Option<()> {
        if copy.rows >= 1 << 30 || copy.cols.div_ceil(TransposeKernel::TILE as usize) > MAX_GRID_YZ as usize {
            return None;
        }
        let size = copy.ld_out.checked_mul(copy.rows)?.checked_mul(copy.entries)?.checked_mul(self.element)?;
        let offset = self.bytes;
        self.bytes = offset.checked_add(size.next_multiple_of(COPY_ALIGN))?;
        self.copies.push((offset, copy));
        Some(())
    }
}

/// Launches the copies of `plan` into the scratch at `base` and points `call`'s A or B at each
/// copy. One launch makes both copies (grid z over A's entries, then B's), so that they run in
/// one wave and the call pays one launch for them; batches beyond one grid take several, each
/// with the next entries of both.
///
/// # Safety
/// As [`gemm`]; the scratch at `base` holds `plan.bytes`.
unsafe fn launch_copies(queue: &GpuQueue, plan: &CopyPlan, base: u64, call: &mut GemmCall) -> Result<()> {
    debug_assert!(plan.copies.len() <= 2, "a call copies A and B at most");
    let module = queue.device().named_module(TransposeKernel::MODULE, transpose_source)?;
    let (kernel, tile) = if plan.element == 1 { (TransposeKernel::KERNEL_B8, TransposeKernel::TILE_B8) } else { (TransposeKernel::KERNEL, TransposeKernel::TILE) };
    let function = module.function(kernel)?;
    let tile = tile as usize;
    let e = plan.element as i64;
    let per_launch = MAX_GRID_YZ as usize / plan.copies.len().max(1);
    let most = plan.copies.iter().map(|(_, c)| c.entries).max().unwrap_or(0);
    let mut first = 0;
    while first < most {
        let mut args = KernelArgs::new();
        let mut grid = [1u32, 1, 0];
        for (i, (offset, c)) in plan.copies.iter().enumerate() {
            let count = c.entries.saturating_sub(first).min(per_launch);
            let stride_out = (c.ld_out * c.rows) as i64;
            let dst = base + *offset as u64 + (first as i64 * stride_out * e) as u64;
            if i == 0 {
                args.push(count as i32);
            }
            args.push(if count == 0 { 0 } else { c.rows as i32 }).push(c.cols as i32);
            args.push(c.src.wrapping_add((first as i64 * c.stride * e) as u64)).push(c.ld as i64).push(c.stride);
            args.push(dst).push(c.ld_out as i64).push(stride_out);
            grid = [grid[0].max(c.rows.div_ceil(tile) as u32), grid[1].max(c.cols.div_ceil(tile) as u32), grid[2] + count as u32];
        }
        if plan.copies.len() == 1 {
            // No second copy: rows 0, and null pointers no block reads.
            args.push(0i32).push(0i32).push(0u64).push(0i64).push(0i64).push(0u64).push(0i64).push(0i64);
        }
        function.launch(queue, LaunchConfig { grid, block: [TransposeKernel::THREADS, 1, 1], shared_bytes: 0 }, &mut args)?;
        first += per_launch;
    }
    for (offset, c) in &plan.copies {
        let dst = base + *offset as u64;
        if c.is_a {
            call.a = dst as *const u8;
        } else {
            call.b = dst as *const u8;
        }
    }
    Ok(())
}

/// Copies land 256-byte aligned in the scratch.
const COPY_ALIGN: usize = 256;

/// The call a wgmma kernel runs, launching what it needs first: the call itself when the config
/// reads either operand order, else the call on k-contiguous copies of the operands stored m-
/// or n-contiguous (op(A) as TA = T, op(B) as TB = N), made in the handle's scratch by
/// `rm_blas_transpose_b32` (tf32) or `_b8` (s8); with split-K, the slices' workspace after them
/// in the scratch.
/// `None`: TMA cannot describe the operands, or the copies or the workspace cannot be made (too
/// large for a launch, or no memory for them); the mma.sync kernels run the call.
///
/// # Safety
/// As [`gemm`].
unsafe fn wgmma_call(handle: &Handle, queue: &GpuQueue, kernel: &GemmKernel, call: &GemmCall, scratch_from: usize) -> Result<Option<WgmmaRun>> {
    let slices = split_slices(kernel, call);
    let split = if slices > 1 {
        match SplitWorkspace::size(call, slices, 4) {
            Some(size) => Some(size),
            None => return Ok(None),
        }
    } else {
        None
    };
    let e = call.family.ab_bytes() as usize;
    let k_pad = call.k.next_multiple_of(16 / e);
    let mut out = *call;
    let mut copies = CopyPlan::new(e);
    if !kernel.config.reads_mn_major() && call.form == BatchForm::Strided {
        // This address stands in for the copies until the scratch exists.
        const ALIGNED: u64 = COPY_ALIGN as u64;
        let mut plan = |is_a: bool, src: *const u8, rows: usize, ld: usize, stride: i64| -> Option<(u64, usize, i64)> {
            copies.add(OperandCopy { is_a, entries: call.batch, src: src as u64, rows, cols: call.k, ld, stride, ld_out: k_pad })?;
            Some((ALIGNED, k_pad, (k_pad * rows) as i64))
        };
        if call.trans_a == Operation::None {
            let Some((a, lda, stride_a)) = plan(true, call.a, call.m, call.lda, call.stride_a) else { return Ok(None) };
            (out.a, out.lda, out.stride_a, out.trans_a) = (a as *const u8, lda, stride_a, Operation::Transpose);
        }
        if call.trans_b != Operation::None {
            let Some((b, ldb, stride_b)) = plan(false, call.b, call.n, call.ldb, call.stride_b) else { return Ok(None) };
            (out.b, out.ldb, out.stride_b, out.trans_b) = (b as *const u8, ldb, stride_b, Operation::None);
        }
    }
    if !tma_describes(&out) {
        return Ok(None);
    }
    // The workspace goes after the copies, in the same scratch (one allocation for the call).
    let workspace_offset = copies.bytes;
    let mut bytes = copies.bytes;
    if let Some((_, ws_bytes)) = split {
        let Some(total) = bytes.checked_add(ws_bytes) else { return Ok(None) };
        bytes = total;
    }
    if bytes == 0 {
        return Ok(Some(WgmmaRun { call: out, workspace: None }));
    }
    let Ok(base) = handle.scratch_at(scratch_from, bytes) else { return Ok(None) };
    let workspace = split.map(|(ldw, _)| SplitWorkspace { address: base + workspace_offset as u64, ldw, slices });
    if copies.copies.is_empty() {
        return Ok(Some(WgmmaRun { call: out, workspace }));
    }
    launch_copies(queue, &copies, base, &mut out)?;
    Ok(Some(WgmmaRun { call: out, workspace }))
}

/// The call a repacking config runs (see `GemmConfig::repack`): NT, on m- and n-contiguous
/// copies of the operands stored k-contiguous (A when transposed, B when not), with the copies
/// that make them (`rm_blas_transpose_b32`, into the handle's scratch: the returned call's A and
/// B are placed by `launch_copies`). `None`: the call runs as stored, since nothing needs a
/// copy, A and B are not read (host alpha zero, k or an extent zero), the call uses pointer
/// arrays, or `rm_blas_transpose_b32` cannot take the copies (too large for a launch).
fn repack_plan(call: &GemmCall) -> Option<(GemmCall, CopyPlan)> {
    let alpha_zero = matches!(call.scalars, Scalars::Value { alpha, .. } if alpha.is_zero());
    let copy_a = call.trans_a != Operation::None;
    let copy_b = call.trans_b == Operation::None;
    if !(copy_a || copy_b)
        || call.form != BatchForm::Strided
        || alpha_zero
        || call.m == 0
        || call.n == 0
        || call.k == 0
        || call.a.is_null()
        || call.b.is_null()
    {
        return None;
    }
    let mut out = *call;
    let mut copies = CopyPlan::new(4);
    // The stored k x rows operand becomes rows x k, rows padded to 16 bytes (the kernels' vector
    // loads). An operand shared by every entry (stride 0) is copied once and stays shared.
    let mut plan = |is_a: bool, src: *const u8, rows: usize, ld: usize, stride: i64| -> Option<(usize, i64)> {
        let ld_out = rows.next_multiple_of(4);
        let entries = if stride == 0 { 1 } else { call.batch };
        copies.add(OperandCopy { is_a, entries, src: src as u64, rows: call.k, cols: rows, ld, stride, ld_out })?;
        Some((ld_out, if stride == 0 { 0 } else { (ld_out * call.k) as i64 }))
    };
    if copy_a {
        let (lda, stride_a) = plan(true, call.a, call.m, call.lda, call.stride_a)?;
        (out.lda, out.stride_a, out.trans_a) = (lda, stride_a, Operation::None);
    }
    if copy_b {
        let (ldb, stride_b) = plan(false, call.b, call.n, call.ldb, call.stride_b)?;
        (out.ldb, out.stride_b, out.trans_b) = (ldb, stride_b, Operation::Transpose);
    }
    Some((out, copies))
}

/// A blocked (not wgmma) call as it is launched: on the repacking copies where the config
/// repacks, and with split-K, the slices' workspace after the copies in the same scratch (one
/// allocation for the call: a second `scratch` call could move the first).
struct BlockedRun {
    call: GemmCall,
    workspace: Option<SplitWorkspace>,
}

/// What a blocked call needs in the scratch: the repacking copies, and the split-K workspace
/// after them. `attempts`: (bytes, ldw) with the workspace where it can be had, else without it
/// (the call runs unsplit); where not even the copies' scratch can be had, the call runs on the
/// stored operands.
struct BlockedPlan {
    call: GemmCall,
    copies: CopyPlan,
    slices: usize,
    /// Where the workspace starts, after the copies.
    ws_at: usize,
    attempts: [Option<(usize, Option<usize>)>; 2],
}

impl BlockedPlan {
    fn new(kernel: &GemmKernel, call: &GemmCall) -> BlockedPlan {
        let repack = if kernel.config.repack { repack_plan(call) } else { None };
        let (out, copies) = repack.unwrap_or_else(|| (*call, CopyPlan::new(4)));
        let alpha_zero = matches!(call.scalars, Scalars::Value { alpha, .. } if alpha.is_zero());
        let slices = split_slices(kernel, call);
        let split = if slices > 1 && call.form == BatchForm::Strided && !alpha_zero && call.m > 0 && call.n > 0 && call.k > 0 {
            SplitWorkspace::size(call, slices, kernel.family.compute_bytes() as usize)
        } else {
            None
        };
        let ws_at = copies.bytes.next_multiple_of(COPY_ALIGN);
        let attempts = [split.and_then(|(ldw, ws_bytes)| Some((ws_at.checked_add(ws_bytes)?, Some(ldw)))), Some((copies.bytes, None))];
        BlockedPlan { call: out, copies, slices, ws_at, attempts }
    }

    /// The scratch the call takes at most (0 for a wgmma kernel, whose calls this does not plan).
    fn most_bytes(kernel: &GemmKernel, call: &GemmCall) -> usize {
        if kernel.config.is_wgmma() {
            return 0;
        }
        BlockedPlan::new(kernel, call).attempts.into_iter().flatten().map(|(bytes, _)| bytes).max().unwrap_or(0)
    }
}

/// Prepares a blocked call: plans the repacking copies and the split-K workspace, allocates
/// both in the handle's scratch and launches the copies. A split-K config's call gets no
/// workspace (and runs the config's unsplit twin) where it uses pointer arrays, multiplies
/// nothing (k or an extent zero, host alpha zero), or the workspace cannot be had; where the
/// scratch cannot be had at all, the call also runs on the stored operands.
///
/// # Safety
/// As [`gemm`].
unsafe fn blocked_run(handle: &Handle, queue: &GpuQueue, kernel: &GemmKernel, call: &GemmCall, scratch_from: usize) -> Result<BlockedRun> {
    let BlockedPlan { call: mut out, copies, slices, ws_at, attempts } = BlockedPlan::new(kernel, call);
    for (bytes, ldw) in attempts.into_iter().flatten() {
        if bytes == 0 {
            return Ok(BlockedRun { call: out, workspace: None });
        }
        let Ok(base) = handle.scratch_at(scratch_from, bytes) else { continue };
        if !copies.copies.is_empty() {
            launch_copies(queue, &copies, base, &mut out)?;
        }
        return Ok(BlockedRun { call: out, workspace: ldw.map(|ldw| SplitWorkspace { address: base + ws_at as u64, ldw, slices }) });
    }
    Ok(BlockedRun { call: *call, workspace: None })
}

/// Launches the split-K reduce of `kernel` (its module's second kernel): D = alpha * (the sum of
/// the slices in `ws`) + beta * C, every entry of `call`.
///
/// # Safety
/// As [`gemm`]; `ws` holds the slices of every entry.
unsafe fn launch_reduce(queue: &GpuQueue, kernel: &GemmKernel, module: &Module, call: &GemmCall, ws: SplitWorkspace) -> Result<()> {
    let Some(reduce) = kernel.reduce_kernel_name() else {
        return Err(BlasError::new(Status::InternalError, "handle", format!("{} has no split-K reduce", kernel.module_name())));
    };
    // One thread per 16-byte vector of sums along m where that makes at least four blocks of 256
    // per SM, else one per element; a grid-stride loop over at most 16 blocks per SM
    // (rm_gemm_splitk_reduce_body).
    const THREADS: usize = 256;
    let sms = queue.device().properties().compute_units.max(1);
    let element = if kernel.config.is_wgmma() { 4 } else { kernel.family.compute_bytes() as usize };
    let vectors = call.m.div_ceil(16 / element).saturating_mul(call.n).saturating_mul(call.batch);
    let wide = vectors >= 4 * THREADS * sms;
    let items = if wide { vectors } else { call.m.saturating_mul(call.n).saturating_mul(call.batch) };
    let blocks = items.div_ceil(THREADS).clamp(1, 16 * sms);
    let mut args = KernelArgs::new();
    args.push(call.m as i32).push(call.n as i32).push(call.batch as i32).push(ws.slices as i32).push(i32::from(wide));
    let (alpha_ptr, beta_ptr) = push_scalars(&mut args, kernel.family, call.scalars);
    args.push(alpha_ptr).push(beta_ptr);
    args.push(ws.address).push(ws.ldw as i64);
    args.push(call.c as u64).push(call.ldc as i64).push(call.stride_c);
    args.push(call.d as u64).push(call.ldd as i64).push(call.stride_d);
    let cfg = LaunchConfig { grid: [blocks as u32, 1, 1], block: [THREADS as u32, 1, 1], shared_bytes: 0 };
    module.function(&reduce)?.launch(queue, cfg, &mut args)?;
    Ok(())
}

/// Launches a wgmma (sm_90a) kernel: tensor maps for A, B and (where TMA can describe it) D, one
/// persistent launch for all batch entries (or one block a work unit, `GemmConfig::unit_grid`).
/// With split-K the kernel stores the slices' sums to the workspace (through its tensor map, in
/// D's place), and a second kernel adds them into D.
///
/// # Safety
/// As [`gemm`].
unsafe fn launch_wgmma(queue: &GpuQueue, kernel: &GemmKernel, module: &Module, run: &WgmmaRun) -> Result<()> {
    let call = &run.call;
    let device = queue.device();
    let function = module.function(&kernel.kernel_name(trans(call.trans_a), trans(call.trans_b)))?;
    let map_a = device.driver().tensor_map(&operand_map(kernel, call, true))?;
    let map_b = device.driver().tensor_map(&operand_map(kernel, call, false))?;
    let slices = run.workspace.map_or(1, |ws| ws.slices);
    let map_d = match run.workspace {
        Some(ws) => Some(device.driver().tensor_map(&ws.map(call))?),
        // A D the driver will not map (an interleaved batch layout it rejects, say) is written
        // from registers instead; the zero map is then never read.
        None => output_map(call).and_then(|desc| device.driver().tensor_map(&desc).ok()),
    };
    let mut args = KernelArgs::new();
    args.push(map_a).push(map_b).push(map_d.unwrap_or(TensorMap([0; 16]))).push(i32::from(map_d.is_some()));
    args.push(call.m as i32).push(call.n as i32).push(call.k as i32).push(call.batch as i32).push(slices as i32);
    let (alpha_ptr, beta_ptr) = push_scalars(&mut args, kernel.family, call.scalars);
    args.push(alpha_ptr).push(beta_ptr);
    args.push(call.c as u64).push(call.ldc as i64).push(call.stride_c);
    args.push(call.d as u64).push(call.ldd as i64).push(call.stride_d);
    // (min_waves blocks per SM: 1, or 2-4 for one-consumer tiles that fit that many times)
    let resident = device.properties().compute_units * kernel.config.min_waves as usize;
    let dims = kernel.persistent_dims(call.m, call.n, call.batch, slices, resident);
    let cfg = LaunchConfig { grid: dims.grid, block: dims.block, shared_bytes: dims.shared_bytes };
    function.launch(queue, cfg, &mut args)?;
    match run.workspace {
        Some(ws) => launch_reduce(queue, kernel, module, call, ws),
        None => Ok(()),
    }
}

/// Pushes alpha and beta by value (host mode) or zeros by value (device mode); returns the
/// device pointers (0 in host mode).
fn push_scalars(args: &mut KernelArgs, family: GemmFamily, scalars: Scalars) -> (u64, u64) {
    match scalars {
        Scalars::Value { alpha, beta } => {
            push_scalar(args, alpha);
            push_scalar(args, beta);
            (0, 0)
        }
        Scalars::Device { alpha, beta } => {
            push_scalar(args, compute_zero(family));
            push_scalar(args, compute_zero(family));
            (alpha as u64, beta as u64)
        }
    }
}

/// Launches a validated GEMM on the handle's queue (asynchronously).
///
/// # Safety
/// The call's pointers must be device pointers of the handle's device, valid for the extents
/// the call describes.
pub(crate) unsafe fn gemm(handle: &Handle, call: &GemmCall) -> Result<()> {
    let queue = handle.queue().gpu().ok_or_else(|| BlasError::new(Status::InternalError, "handle", "not a GPU queue"))?;
    if let Some(plan) = AsRealPlan::new(handle, call) {
        if gemm_as_real(handle, queue, call, &plan)? {
            return Ok(());
        }
    }
    let kernel = select(handle, queue.device(), call.family, (call.trans_a, call.trans_b), [call.m, call.n, call.k, call.batch])?;
    run(handle, queue, kernel, call, 0)
}

/// Launches `call` on `kernel`, its copies and split-K workspace in the handle's scratch past
/// the first `scratch_from` bytes (which the caller has filled for this call).
///
/// # Safety
/// As [`gemm`].
unsafe fn run(handle: &Handle, queue: &GpuQueue, mut kernel: GemmKernel, call: &GemmCall, scratch_from: usize) -> Result<()> {
    let device = queue.device();
    if kernel.config.is_wgmma() {
        // A split-K pick whose call takes one slice runs the unsplit twin.
        if split_slices(&kernel, call) == 1 {
            kernel = kernel.unsplit();
        }
        if let Some(run) = wgmma_call(handle, queue, &kernel, call, scratch_from)? {
            let module = module(device, kernel)?;
            return launch_wgmma(queue, &kernel, &module, &run);
        }
        // Operands TMA cannot describe (or pointer arrays): the mma.sync kernels run the call.
        kernel = GemmKernel::fallback(kernel.family, GemmVariant::Mma)
            .map_err(|why| BlasError::new(Status::ArchMismatch, "handle", why))?;
    }
    let run = blocked_run(handle, queue, &kernel, call, scratch_from)?;
    let call = &run.call;
    let kernel = if kernel.config.split_k > 1 && run.workspace.is_none() { kernel.unsplit() } else { kernel };
    let kernel = kernel.with_batch(call.form);
    let module = module(device, kernel)?;
    let function = module.function(&kernel.kernel_name(trans(call.trans_a), trans(call.trans_b)))?;
    let (ab, cd) = (kernel.family.ab_bytes() as i64, kernel.family.c_bytes() as i64);
    // The kernel's parameters for the batch entries from `first` on.
    let args_from = |first: usize| {
        let at = |ptr: u64, stride: i64, size: i64| match call.form {
            BatchForm::Strided => (ptr as i64).wrapping_add(first as i64 * stride * size) as u64,
            // Pointer arrays: this chunk starts `first` entries in (a null array stays null:
            // validation found it is never read).
            BatchForm::Pointers if ptr == 0 => 0,
            BatchForm::Pointers => ptr + (first * std::mem::size_of::<u64>()) as u64,
        };
        let mut args = KernelArgs::new();
        args.push(call.m as i32).push(call.n as i32).push(call.k as i32);
        let (alpha_ptr, beta_ptr) = push_scalars(&mut args, kernel.family, call.scalars);
        args.push(alpha_ptr).push(beta_ptr);
        for (ptr, ld, stride, size) in [
            (call.a as u64, call.lda, call.stride_a, ab),
            (call.b as u64, call.ldb, call.stride_b, ab),
            (call.c as u64, call.ldc, call.stride_c, cd),
            (call.d as u64, call.ldd, call.stride_d, cd),
        ] {
            args.push(at(ptr, stride, size)).push(ld as i64).push(stride);
        }
        args
    };
    if kernel.config.persistent {
        // One launch for every entry, as many blocks as the device holds at once.
        let per_sm = function.max_active_blocks(kernel.config.threads(), kernel.config.lds_bytes(kernel.family))?.max(1) as usize;
        let dims = kernel.persistent_dims(call.m, call.n, call.batch, 1, per_sm * device.properties().compute_units);
        let mut args = args_from(0);
        args.push(call.batch as i32);
        let cfg = LaunchConfig { grid: dims.grid, block: dims.block, shared_bytes: dims.shared_bytes };
        function.launch(queue, cfg, &mut args)?;
        return Ok(());
    }
    // Grid y and z are limited to 65535 blocks: batches beyond that are launched in chunks (with
    // split-K, grid z holds every slice of the chunk's entries).
    let dims = kernel.launch_dims(call.m, call.n, 1);
    if dims.grid[1] > MAX_GRID_YZ {
        return Err(BlasError::new(Status::InvalidSize, "n", format!("{} needs more than {MAX_GRID_YZ} tile columns", call.n)));
    }
    let slices = run.workspace.map_or(1, |ws| ws.slices);
    let mut first = 0;
    while first < call.batch {
        let count = (call.batch - first).min(MAX_GRID_YZ as usize / slices);
        let mut args = args_from(first);
        if let Some(ws) = run.workspace {
            // This chunk's slices: `slices` matrices of ldw x n per entry from `first` on.
            let offset = (first * slices * call.n * ws.ldw * kernel.family.compute_bytes() as usize) as u64;
            args.push(ws.address + offset).push(ws.ldw as i64).push(slices as i32);
        }
        let grid = [dims.grid[0], dims.grid[1], (count * slices) as u32];
        function.launch(queue, LaunchConfig { grid, block: dims.block, shared_bytes: dims.shared_bytes }, &mut args)?;
        first += count;
    }
    match run.workspace {
        Some(ws) => launch_reduce(queue, &kernel, &module, call, ws),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rocmath_tuning::{GemmEntry, GemmTable};

    fn table(layout: &str, entries: &[([u64; 4], &str)]) -> GemmTable {
        let mut t = GemmTable::new("sm_90", "hss", layout, GENERATOR, "mt128x256x64_w2x1_s4_x_g8_o1_wgmma64xnx16f16");
        for ([m, n, k, b], sol) in entries {
            t.upsert_entry(GemmEntry::new(*m, *n, *k, *b, *sol));
        }
        t
    }

    #[test]
    fn ahead_of_time_sources_cover_the_tables_and_fallbacks_once() {
        let sources = aot_kernel_sources("sm_90");
        let names: std::collections::HashSet<&str> = sources.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names.len(), sources.len(), "each module once");
        // What a call with no table would run, for every family, and the transpose.
        for family in GemmFamily::ALL {
            assert!(names.contains(GemmKernel::select(family, "sm_90").module_name().as_str()), "{family:?}");
        }
        assert!(names.contains(TransposeKernel::MODULE));
        // Every config the embedded sm_90 tables name.
        for t in Tables::embedded().iter().filter(|t| t.arch == "sm_90" && t.generator == GENERATOR) {
            let family = GemmFamily::from_tag(&t.types).unwrap();
            for e in t.entries() {
                let k = GemmKernel::new(family, GemmConfig::parse(&e.solution).unwrap()).unwrap();
                assert!(names.contains(k.module_name().as_str()), "{}", e.solution);
                // Calls without a workspace (or with one slice) run a split-K pick's unsplit twin.
                if k.config.split_k > 1 {
                    assert!(names.contains(k.unsplit().module_name().as_str()), "{}'s unsplit twin", e.solution);
                }
            }
        }
        // wgmma modules say they compile for sm_90a; no AMD module is listed.
        assert!(sources.iter().filter(|s| s.name.contains("wgmma")).all(|s| s.arch_override.as_deref() == Some("sm_90a")));
        assert!(sources.iter().all(|s| !s.name.contains("mfma")));
        assert!(aot_kernel_sources("gfx942").iter().all(|s| !s.name.contains("wgmma") && !s.name.contains("mma16")));
    }

    /// An NT call of `family` with no memory behind it (for the host's sizing rules).
    fn sized_call(family: GemmFamily, [m, n, k, batch]: [usize; 4]) -> GemmCall {
        let null = std::ptr::null();
        GemmCall {
            family,
            form: BatchForm::Strided,
            trans_a: Operation::None,
            trans_b: Operation::Transpose,
            m,
            n,
            k,
            scalars: Scalars::Device { alpha: null, beta: null },
            a: null,
            lda: m,
            stride_a: (m * k) as i64,
            b: null,
            ldb: n,
            stride_b: (n * k) as i64,
            c: null,
            ldc: m,
            stride_c: (m * n) as i64,
            d: std::ptr::null_mut(),
            ldd: m,
            stride_d: (m * n) as i64,
            batch,
        }
    }

    #[test]
    fn table_entries_keep_their_split_counts() {
        let mut split_entries = 0;
        for t in Tables::embedded().iter().filter(|t| t.generator == GENERATOR) {
            let family = GemmFamily::from_tag(&t.types).unwrap();
            for e in t.entries() {
                let k = GemmKernel::new(family, GemmConfig::parse(&e.solution).unwrap()).unwrap();
                let size = [e.m, e.n, e.k, e.batch].map(|x| x as usize);
                assert_eq!(split_slices(&k, &sized_call(family, size)), k.config.split_k as usize, "{} {}: {size:?} {}", t.arch, t.types, e.solution);
                split_entries += usize::from(k.config.split_k > 1);
            }
        }
        assert!(split_entries > 0, "the tables have split-K entries");
    }

    /// The GEMM issue's benchmark shapes are entries of the sm_90 NT tables, so that an entry
    /// tuned for another size cannot become their nearest pick (4096 x 4096 x 65536 once took
    /// the split-K pick of 1024 x 1024 x 65536 that way, at 0.64 of cuBLAS).
    #[test]
    fn goal_shapes_have_sm90_entries() {
        let squares = [1024u64, 2048, 4096, 8192].map(|s| [s, s, s, 1]);
        let batches = [[32, 32, 32, 10000], [64, 64, 64, 4096], [128, 128, 128, 2048]];
        let skinny = [[8192, 8192, 128, 1], [16, 8192, 8192, 1], [4096, 4096, 65536, 1]];
        let tables = Tables::embedded();
        for (types, shapes) in [
            ("hss", [&squares[..], &batches, &skinny].concat()),
            ("bss", [&squares[..], &batches, &skinny].concat()),
            ("h", [&squares[..], &batches, &skinny].concat()),
            ("s", [&squares[..], &batches].concat()),
            ("d", [&squares[..], &batches].concat()),
            ("xf32", squares.to_vec()),
            ("z", [&squares[..3], &batches, &skinny[..2]].concat()),
        ] {
            let t = tables.iter().find(|t| t.arch == "sm_90" && t.types == types && t.layout == "nt").expect(types);
            for [m, n, k, batch] in shapes {
                assert!(t.entries().iter().any(|e| [e.m, e.n, e.k, e.batch] == [m, n, k, batch]), "{types} nt: no entry for {m}x{n}x{k} x {batch}");
            }
        }
    }

    /// A remembered pick is the pick: the first call of a shape and the calls after it (from the
    /// cache) select what the tables select, at every entry's size and between entries.
    #[test]
    fn remembered_picks_are_the_tables_picks() {
        for t in tables().iter().filter(|t| t.arch == "sm_90" && t.generator == GENERATOR) {
            let family = GemmFamily::from_tag(&t.types).unwrap();
            for e in t.entries() {
                for size in [[e.m, e.n, e.k, e.batch], [e.m + 1, e.n, e.k + 3, e.batch]].map(|s| s.map(|x| x as usize)) {
                    let want = table_pick(tables(), "sm_90", family, &t.layout, size).unwrap_or_else(|| GemmKernel::select(family, "sm_90"));
                    for _ in 0..2 {
                        assert_eq!(cached_pick("sm_90", family, t.layout.clone(), size), want, "{} {}: {size:?}", t.types, t.layout);
                    }
                }
            }
        }
    }

    #[test]
    fn split_counts_follow_the_call() {
        let s64 = GemmKernel::new(GemmFamily::S, GemmConfig::parse("mt128x128x16_w2x4_s3_p4x4_g8_o2_k64_fmaw32x16").unwrap()).unwrap();
        let slices = |kernel: &GemmKernel, size| split_slices(kernel, &sized_call(kernel.family, size));
        // Where it was tuned, all 64 slices: 16.8 MB of sums for 134 MB of operands.
        assert_eq!(slices(&s64, [256, 256, 65536, 1]), 64);
        // 1024^3 far from there: 4 MB a slice, 8 MB of operands, so 8 slices (not 268 MB of sums).
        assert_eq!(slices(&s64, [1024, 1024, 1024, 1]), 8);
        // No more slices than K tiles of 16; one slice: the unsplit twin runs.
        assert_eq!(slices(&s64, [64, 64, 48, 1]), 3);
        assert_eq!(slices(&s64, [4096, 4096, 4096, 1]), 8);
        assert_eq!(slices(&s64, [8192, 8192, 128, 1]), 1);
        assert_eq!(slices(&s64, [0, 0, 0, 1]), 1);
        // wgmma sums in f32 whatever the family; unsplit configs take one slice.
        let wg = GemmKernel::new(GemmFamily::H, GemmConfig::parse("mt128x128x64_w2x1_s4_x_g8_o1_k4_wgmma64xnx16f16").unwrap()).unwrap();
        assert_eq!(slices(&wg, [1024, 1024, 65536, 1]), 4);
        assert_eq!(slices(&wg, [2048, 2048, 1024, 1]), 2);
        assert_eq!(slices(&wg, [8192, 8192, 1024, 1]), 1);
        assert_eq!(slices(&wg.unsplit(), [1024, 1024, 65536, 1]), 1);
    }

    #[test]
    fn a_layout_without_a_table_uses_a_siblings() {
        let small = "mt32x32x32_w2x1_s2_x_g8_o1_mma16x8x16f16";
        let nn_pick = "mt64x64x32_w2x2_s3_x_g8_o1_mma16x8x16f16";
        let mut tables = Tables::new();
        tables.insert(table("nt", &[([32, 32, 32, 10000], small)]));
        let pick = |tables: &Tables, layout: &str| table_pick(tables, "sm_90", GemmFamily::Hss, layout, [32, 32, 32, 10000]).map(|k| k.config.tag());
        // tn and tt have no table: nt's pick (not the arch fallback's 128x256 tile).
        assert_eq!(pick(&tables, "tn").as_deref(), Some(small));
        assert_eq!(pick(&tables, "tt").as_deref(), Some(small));
        // A layout's own table wins over its siblings.
        tables.insert(table("nn", &[([32, 32, 32, 10000], nn_pick)]));
        assert_eq!(pick(&tables, "nn").as_deref(), Some(nn_pick));
        assert_eq!(pick(&tables, "tn").as_deref(), Some(small), "nt comes first among the siblings");
        // No table of the family at all, or an arch that runs none of its solutions: no pick.
        assert!(table_pick(&tables, "sm_90", GemmFamily::Bss, "nt", [32, 32, 32, 1]).is_none());
        assert!(table_pick(&tables, "gfx942", GemmFamily::Hss, "nt", [32, 32, 32, 1]).is_none());
    }
}
