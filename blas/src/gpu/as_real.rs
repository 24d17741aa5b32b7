//! Complex f32 GEMM as one real f32 GEMM (the 1m method; `complex_real.hip` says how): op(A)
//! expanded to 2 x 2 real blocks in the handle's scratch, with alpha folded in; op(B) as stored
//! when it is N (a complex k x n matrix is a real 2k x n one), else copied k x n; D, 2m x n real,
//! from the `s` kernels. On the H100 the `s` kernels run the same FLOPs faster than the complex
//! ones, whose real parts pair operands in one register bank (benches/results/2026-11-21-h100-gemm.md).
use super::{cached_pick, run, MAX_GRID_YZ};
use crate::gemm::{GemmCall, Scalar, Scalars};
use crate::handle::Handle;
use crate::types::{ComplexGemmRoute, Operation, Result};
use num_complex::Complex32;
use rocmath_kernels::blas::{ComplexRealKernels, GemmFamily, GemmKernel};
use rocmath_kernels::gen::gemm::BatchForm;
use rocmath_runtime::{GpuQueue, KernelArgs, KernelSource, LaunchConfig};

/// Bytes of a complex f32.
const E: usize = 8;

/// At most this much scratch holds one step's copies (unless the handle sets its own limit); a
/// call whose copies need more runs in K steps, each a real product adding into D, of whole
/// multiples of [`K_STEP`] columns.
const SCRATCH_CAP: usize = 1 << 30;
const K_STEP: usize = 256;

/// FLOPs the device runs in the time it moves one byte (H100: about 50 TFLOP/s of f32 FMA over
/// about 3 TB/s), and the share of the product's time the copies may take where the route is
/// chosen by size. Measured on the H100 (benches/results/2026-11-21-h100-gemm.md, thirty-first
/// session), the real route gains 4-37 % at the shapes this lets it take (NN 2048^3 least) and
/// loses at those it keeps from it: 1024^3 (9 %: the copies, and 128 tiles for 132 SMs), batches
/// of 128^3 (39 %: as many bytes copied as multiplied), B transposed for 16 rows (copied, 1 GB).
const FLOPS_PER_BYTE: f64 = 16.0;
const COPY_SHARE: f64 = 0.04;

/// Where the copies of one call go, and how the call is cut along K.
#[derive(Debug, PartialEq)]
pub(super) struct AsRealPlan {
    alpha: Complex32,
    beta: Complex32,
    /// Complex columns of op(A) (rows of op(B)) per step.
    kc: usize,
    /// Expanded A, as complex m x 2kc: its leading dimension (m rounded up to 2, so that the
    /// real columns start 16-byte aligned) and how many entries (1 where A is shared, stride 0).
    ld_a: usize,
    a_entries: usize,
    /// op(B) copied kc x n (B transposed): leading dimension and entries.
    b_copy: Option<(usize, usize)>,
    /// Where the B copy starts (256-byte aligned), and the bytes of both copies.
    b_at: usize,
    bytes: usize,
}

impl AsRealPlan {
    /// The plan of `call` where it runs as a real product: a strided complex f32 call with host
    /// scalars, alpha not zero and every extent non-zero, on the route the handle pins or, with
    /// none pinned (and no config or variant pinned), where the copies cost at most
    /// [`COPY_SHARE`] of the product ([`AsRealPlan::pays`]). `None`: the complex kernels run it.
    pub(super) fn new(handle: &Handle, call: &GemmCall) -> Option<AsRealPlan> {
        let route = handle.complex_gemm_route().or_else(|| (handle.gemm_config().is_some() || handle.gemm_variant().is_some()).then_some(ComplexGemmRoute::Direct));
        if route == Some(ComplexGemmRoute::Direct) {
            return None;
        }
        let plan = Self::of(call, handle.scratch_limit().unwrap_or(SCRATCH_CAP))?;
        (route == Some(ComplexGemmRoute::AsReal) || plan.pays(call)).then_some(plan)
    }

    /// The plan, whatever the route; `None` where the call cannot run as a real product.
    fn of(call: &GemmCall, cap: usize) -> Option<AsRealPlan> {
        let Scalars::Value { alpha: Scalar::C32(alpha), beta: Scalar::C32(beta) } = call.scalars else { return None };
        let (m, n, k, batch) = (call.m, call.n, call.k, call.batch);
        if call.family != GemmFamily::C || call.form != BatchForm::Strided || alpha == Complex32::new(0.0, 0.0) || m == 0 || n == 0 || k == 0 || batch == 0 {
            return None;
        }
        // The real call's extents are ints, as are the copies' rows; grid y runs over their
        // 32-column tiles.
        let tiles = |cols: usize| cols.div_ceil(ComplexRealKernels::TILE as usize);
        if 2 * m > i32::MAX as usize || 2 * k > i32::MAX as usize || n > i32::MAX as usize || tiles(n) > MAX_GRID_YZ as usize {
            return None;
        }
        let entries = |stride: i64| if stride == 0 { 1 } else { batch };
        let ld_a = m.next_multiple_of(2);
        let a_entries = entries(call.stride_a);
        let b_entries = (call.trans_b != Operation::None).then(|| entries(call.stride_b));
        let bytes_for = |kc: usize| -> Option<(usize, usize)> {
            let a = a_entries.checked_mul(ld_a)?.checked_mul(2 * kc)?.checked_mul(E)?.next_multiple_of(256);
            let b = match b_entries {
                Some(entries) => entries.checked_mul(kc.next_multiple_of(2))?.checked_mul(n)?.checked_mul(E)?,
                None => 0,
            };
            Some((a, a.checked_add(b)?))
        };
        let kc = match bytes_for(k) {
            Some((_, bytes)) if bytes <= cap => k,
            _ => {
                let per_column = a_entries.saturating_mul(ld_a * 2 * E).saturating_add(b_entries.map_or(0, |entries| entries.saturating_mul(n * E)));
                let mut kc = (cap / per_column.max(1)) / K_STEP * K_STEP;
                // (the copies' alignment padding may take a step off)
                while kc > 0 && bytes_for(kc).is_none_or(|(_, bytes)| bytes > cap) {
                    kc -= K_STEP;
                }
                if kc == 0 {
                    return None;
                }
                kc
            }
        };
        if tiles(kc) > MAX_GRID_YZ as usize {
            return None;
        }
        let (b_at, bytes) = bytes_for(kc)?;
        Some(AsRealPlan { alpha, beta, kc, ld_a, a_entries, b_copy: b_entries.map(|entries| (kc.next_multiple_of(2), entries)), b_at, bytes })
    }

    /// Whether the copies (A read and written twice over, B read and written, C scaled) take at
    /// most [`COPY_SHARE`] of the product's time, at [`FLOPS_PER_BYTE`].
    fn pays(&self, call: &GemmCall) -> bool {
        let (m, n, k, batch) = (call.m as f64, call.n as f64, call.k as f64, call.batch as f64);
        let mut copy_bytes = 3.0 * (m * k * E as f64) * self.a_entries as f64;
        if let Some((_, entries)) = self.b_copy {
            copy_bytes += 2.0 * (k * n * E as f64) * entries as f64;
        }
        if self.beta.im != 0.0 {
            copy_bytes += 2.0 * (m * n * E as f64) * batch;
        }
        copy_bytes * FLOPS_PER_BYTE <= COPY_SHARE * 8.0 * m * n * k * batch
    }
}

/// A strided call of `family` at this shape with packed operands (leading dimensions the stored
/// rows, strides the matrices' sizes), no memory behind its null pointers, alpha 1 and `beta`:
/// what a plan depends on, for [`real_kernel`] and the tests.
fn packed_call(family: GemmFamily, (trans_a, trans_b): (Operation, Operation), [m, n, k, batch]: [usize; 4], beta: Complex32) -> GemmCall {
    let (rows_a, rows_b) = (if trans_a == Operation::None { m } else { k }, if trans_b == Operation::None { k } else { n });
    GemmCall {
        family,
        form: BatchForm::Strided,
        trans_a,
        trans_b,
        m,
        n,
        k,
        scalars: Scalars::Value { alpha: Scalar::C32(Complex32::new(1.0, 0.0)), beta: Scalar::C32(beta) },
        a: std::ptr::null(),
        lda: rows_a.max(1),
        stride_a: (m * k) as i64,
        b: std::ptr::null(),
        ldb: rows_b.max(1),
        stride_b: (k * n) as i64,
        c: std::ptr::null(),
        ldc: m.max(1),
        stride_c: (m * n) as i64,
        d: std::ptr::null_mut(),
        ldd: m.max(1),
        stride_d: (m * n) as i64,
        batch,
    }
}

/// The real kernel a call of this shape runs where it takes the real route (host scalars alpha
/// 1 and beta 0, packed strided operands), for [`super::gemm_solution`]; `None`: the complex
/// kernels run it.
pub(super) fn real_kernel(handle: &Handle, family: GemmFamily, arch: &str, trans: (Operation, Operation), size: [usize; 4]) -> Option<GemmKernel> {
    let call = packed_call(family, trans, size, Complex32::new(0.0, 0.0));
    let plan = AsRealPlan::new(handle, &call)?;
    Some(plan.step_kernel(arch, &call, plan.kc.min(call.k)))
}

pub(super) fn source() -> KernelSource {
    KernelSource { name: ComplexRealKernels::MODULE.into(), source: ComplexRealKernels::source(), options: Vec::new(), arch_override: None }
}

/// The real product of one K step of `kk` columns: the step's expanded columns of op(A) at
/// `base` times its rows of op(B) (`b`, `ldb`, `stride_b`: in the stored B or its copy), into D.
/// The `first` step adds `beta` times (`c`, `ldc`, `stride_c`); the later ones add into D.
#[allow(clippy::too_many_arguments)]
fn step_call(call: &GemmCall, plan: &AsRealPlan, base: u64, (b, ldb, stride_b): (u64, usize, i64), first: bool, kk: usize, (beta, c, ldc, stride_c): (f32, *const u8, usize, i64)) -> GemmCall {
    let (beta, c, ldc, stride_c) = if first { (beta, c, ldc, stride_c) } else { (1.0, call.d as *const u8, call.ldd, call.stride_d) };
    GemmCall {
        family: GemmFamily::S,
        form: BatchForm::Strided,
        trans_a: Operation::None,
        trans_b: Operation::None,
        m: 2 * call.m,
        n: call.n,
        k: 2 * kk,
        scalars: Scalars::Value { alpha: Scalar::F32(1.0), beta: Scalar::F32(beta) },
        a: base as *const u8,
        lda: 2 * plan.ld_a,
        stride_a: if plan.a_entries == 1 { 0 } else { 2 * plan.a_stride() as i64 },
        b: b as *const u8,
        ldb: 2 * ldb,
        stride_b: 2 * stride_b,
        c,
        ldc: 2 * ldc,
        stride_c: 2 * stride_c,
        d: call.d,
        ldd: 2 * call.ldd,
        stride_d: 2 * call.stride_d,
        batch: call.batch,
    }
}

impl AsRealPlan {
    /// Complex elements between the expanded entries of A.
    fn a_stride(&self) -> usize {
        self.ld_a * 2 * self.kc
    }

    /// The real kernel of a step of `kk` columns.
    fn step_kernel(&self, arch: &str, call: &GemmCall, kk: usize) -> GemmKernel {
        cached_pick(arch, GemmFamily::S, "nn".into(), [2 * call.m, call.n, 2 * kk, call.batch])
    }
}

/// Runs `call` as planned. `false`: the scratch for the copies could not be had, nothing was
/// launched, and the complex kernels should run it.
///
/// # Safety
/// As [`super::gemm`].
pub(super) unsafe fn gemm_as_real(handle: &Handle, queue: &GpuQueue, call: &GemmCall, plan: &AsRealPlan) -> Result<bool> {
    let device = queue.device();
    let arch = &device.properties().arch;
    // One scratch block for the copies and, after them, what the real kernels of the steps (a
    // whole one, and the last) take themselves: a later request that moved the block would
    // leave the copies' addresses behind. Without room for the latter they run without it.
    let (beta_real, c_real) = (plan.beta.im == 0.0, (plan.beta.re, call.c, call.ldc, call.stride_c));
    let b_stored = (call.b as u64, call.ldb, call.stride_b);
    let steps = [plan.kc, call.k % plan.kc];
    let kernels_bytes = steps.iter().filter(|&&kk| kk > 0).map(|&kk| {
        // (an aligned address stands in for the scratch; the sizes do not depend on it)
        let real = step_call(call, plan, super::COPY_ALIGN as u64, b_stored, true, kk, c_real);
        super::BlockedPlan::most_bytes(&plan.step_kernel(arch, call, kk), &real)
    });
    let kernels_bytes = kernels_bytes.max().unwrap_or(0);
    let base = match plan.bytes.checked_add(kernels_bytes).map(|bytes| handle.scratch(bytes)) {
        Some(Ok(base)) => base,
        _ => match handle.scratch(plan.bytes) {
            Ok(base) => base,
            Err(_) => return Ok(false),
        },
    };
    let module = device.named_module(ComplexRealKernels::MODULE, source)?;
    let pack = module.function(ComplexRealKernels::PACK)?;
    let threads = ComplexRealKernels::THREADS;
    // A beta off the real axis scales C into D first; the real product then adds into D.
    let mut c_first = c_real;
    if !beta_real {
        let total = call.m * call.n * call.batch;
        let sms = device.properties().compute_units.max(1);
        let blocks = total.div_ceil(threads as usize).clamp(1, 16 * sms) as u32;
        let mut args = KernelArgs::new();
        args.push(call.m as i32).push(call.n as i32).push(call.batch as i32).push(plan.beta);
        args.push(call.c as u64).push(call.ldc as i64).push(call.stride_c);
        args.push(call.d as u64).push(call.ldd as i64).push(call.stride_d);
        let cfg = LaunchConfig { grid: [blocks, 1, 1], block: [threads, 1, 1], shared_bytes: 0 };
        module.function(ComplexRealKernels::SCALE)?.launch(queue, cfg, &mut args)?;
        c_first = (1.0, call.d as *const u8, call.ldd, call.stride_d);
    }
    let op = |t: Operation| match t {
        Operation::None => 0i32,
        Operation::Transpose => 1,
        Operation::ConjugateTranspose => 2,
    };
    // One pack launch per up to 65535 entries (grid z).
    let launch_pack = |rows: usize, cols: usize, trans: Operation, expand: bool, (src, ld, stride): (u64, usize, i64), entries: usize, (dst, ld_out, stride_out): (u64, usize, usize)| -> Result<()> {
        let tile = ComplexRealKernels::TILE as usize;
        let mut first = 0;
        while first < entries {
            let count = (entries - first).min(MAX_GRID_YZ as usize);
            let mut args = KernelArgs::new();
            args.push(rows as i32).push(cols as i32).push(op(trans)).push(i32::from(expand)).push(plan.alpha);
            args.push(src.wrapping_add((first as i64 * stride * E as i64) as u64)).push(ld as i64).push(stride);
            args.push(dst + (first * stride_out * E) as u64).push(ld_out as i64).push(stride_out as i64);
            let grid = [rows.div_ceil(tile) as u32, cols.div_ceil(tile) as u32, count as u32];
            pack.launch(queue, LaunchConfig { grid, block: [threads, 1, 1], shared_bytes: 0 }, &mut args)?;
            first += count;
        }
        Ok(())
    };
    let mut k0 = 0;
    while k0 < call.k {
        let kk = plan.kc.min(call.k - k0);
        // Columns k0.. of op(A): further along A's columns (N), or down its rows (T, C).
        let a_from = if call.trans_a == Operation::None { k0 * call.lda } else { k0 };
        let a_src = (call.a as u64).wrapping_add((a_from * E) as u64);
        launch_pack(call.m, kk, call.trans_a, true, (a_src, call.lda, call.stride_a), plan.a_entries, (base, plan.ld_a, plan.a_stride()))?;
        // Rows k0.. of op(B): down B's rows (N), or along its columns (T, C: copied).
        let b = match plan.b_copy {
            Some((ld_b, entries)) => {
                let src = (call.b as u64).wrapping_add((k0 * call.ldb * E) as u64);
                let dst = base + plan.b_at as u64;
                launch_pack(kk, call.n, call.trans_b, false, (src, call.ldb, call.stride_b), entries, (dst, ld_b, ld_b * call.n))?;
                (dst, ld_b, if entries == 1 { 0 } else { (ld_b * call.n) as i64 })
            }
            None => ((call.b as u64).wrapping_add((k0 * E) as u64), call.ldb, call.stride_b),
        };
        let real = step_call(call, plan, base, b, k0 == 0, kk, c_first);
        run(handle, queue, plan.step_kernel(arch, call, kk), &real, plan.bytes)?;
        k0 += kk;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(trans_b: Operation, size: [usize; 4], beta: Complex32) -> GemmCall {
        packed_call(GemmFamily::C, (Operation::None, trans_b), size, beta)
    }

    #[test]
    fn chosen_by_size_where_the_copies_cost_little() {
        let zero = Complex32::new(0.0, 0.0);
        let pays = |t: Operation, size: [usize; 4]| {
            let c = call(t, size, zero);
            AsRealPlan::of(&c, SCRATCH_CAP).unwrap().pays(&c)
        };
        for size in [[4096, 4096, 4096, 1], [8192, 8192, 8192, 1], [16, 8192, 8192, 1], [2048, 2048, 2048, 1]] {
            assert!(pays(Operation::None, size), "{size:?}");
        }
        assert!(pays(Operation::Transpose, [4096, 4096, 4096, 1]) && pays(Operation::Transpose, [2048, 2048, 2048, 1]));
        // A batch of small products copies as much as it multiplies; so does copying a big B
        // for a 16-row product.
        for (t, size) in [(Operation::None, [128, 128, 128, 2048]), (Operation::None, [32, 32, 32, 10000]), (Operation::Transpose, [16, 8192, 8192, 1]), (Operation::None, [1024, 1024, 1024, 1])] {
            assert!(!pays(t, size), "{t:?} {size:?}");
        }
    }

    #[test]
    fn copies_past_the_cap_run_in_k_steps() {
        let plan = AsRealPlan::of(&call(Operation::ConjugateTranspose, [8192, 8192, 8192, 1], Complex32::new(0.0, 1.0)), SCRATCH_CAP).unwrap();
        assert!(plan.kc < 8192 && plan.kc % K_STEP == 0, "{plan:?}");
        assert!(plan.bytes <= SCRATCH_CAP && plan.b_at % 256 == 0, "{plan:?}");
        let whole = AsRealPlan::of(&call(Operation::None, [4096, 4096, 4096, 1], Complex32::new(0.0, 0.0)), SCRATCH_CAP).unwrap();
        assert_eq!((whole.kc, whole.b_copy, whole.bytes), (4096, None, 4096 * 2 * 4096 * E));
        // The limit gemm.rs's `c_as_real_in_k_steps` sets: steps of 256 columns, in N and T.
        for t in [Operation::None, Operation::Transpose] {
            let plan = AsRealPlan::of(&call(t, [40, 9, 700, 1], Complex32::new(0.0, 0.0)), 300 * 712).unwrap();
            assert_eq!(plan.kc, 256, "{t:?}");
        }
        // Copies of 256 columns that do not fit: the call runs direct.
        assert!(AsRealPlan::of(&call(Operation::None, [40, 9, 700, 1], Complex32::new(0.0, 0.0)), 255 * 640).is_none());
    }

    #[test]
    fn calls_the_real_route_cannot_take() {
        let mut c = call(Operation::None, [64, 64, 64, 1], Complex32::new(0.0, 0.0));
        assert!(AsRealPlan::of(&c, SCRATCH_CAP).is_some());
        c.form = BatchForm::Pointers;
        assert!(AsRealPlan::of(&c, SCRATCH_CAP).is_none());
        c.form = BatchForm::Strided;
        c.scalars = Scalars::Value { alpha: Scalar::C32(Complex32::new(0.0, 0.0)), beta: Scalar::C32(Complex32::new(1.0, 0.0)) };
        assert!(AsRealPlan::of(&c, SCRATCH_CAP).is_none());
        c.scalars = Scalars::Device { alpha: 256 as *const u8, beta: 256 as *const u8 };
        assert!(AsRealPlan::of(&c, SCRATCH_CAP).is_none());
        let mut z = call(Operation::None, [64, 64, 64, 1], Complex32::new(0.0, 0.0));
        z.family = GemmFamily::Z;
        assert!(AsRealPlan::of(&z, SCRATCH_CAP).is_none());
    }
}
