//! Shared checking code for rocmath's tests and benchmark harness: an independent f64 reference
//! for GEMM (a plain triple loop, not the library's CPU path), derived error bounds, random
//! inputs, and device discovery for tests (skip without a GPU; fail with ROCMATH_REQUIRE_GPU=1).
pub mod fft;

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rocmath_blas::{ComplexGemmRoute, GemmVariant, Handle, Operation};
use rocmath_runtime::Device;

/// A number the reference can widen to Complex64 and narrow back.
pub trait Num: bytemuck::Pod + Send + Sync + std::fmt::Debug + 'static {
    /// Unit roundoff of the type's own precision.
    const UNIT_ROUNDOFF: f64;
    /// Half the spacing of the type's subnormals: the absolute rounding error of a result that
    /// lands below the normal range.
    const SUBNORMAL_ROUNDOFF: f64;
    const IS_COMPLEX: bool = false;
    fn to_c64(self) -> Complex64;
    fn from_c64(v: Complex64) -> Self;
    fn nan() -> Self {
        Self::from_c64(Complex64::new(f64::NAN, f64::NAN))
    }
}

impl Num for f32 {
    const SUBNORMAL_ROUNDOFF: f64 = f32::MIN_POSITIVE as f64 * f32::EPSILON as f64 / 2.0;
    const UNIT_ROUNDOFF: f64 = f32::EPSILON as f64 / 2.0;
    fn to_c64(self) -> Complex64 {
        Complex64::new(self as f64, 0.0)
    }
    fn from_c64(v: Complex64) -> Self {
        v.re as f32
    }
}
impl Num for f64 {
    const SUBNORMAL_ROUNDOFF: f64 = f64::MIN_POSITIVE * f64::EPSILON / 2.0;
    const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;
    fn to_c64(self) -> Complex64 {
        Complex64::new(self, 0.0)
    }
    fn from_c64(v: Complex64) -> Self {
        v.re
    }
}
impl Num for Complex32 {
    const SUBNORMAL_ROUNDOFF: f64 = f32::MIN_POSITIVE as f64 * f32::EPSILON as f64 / 2.0;
    const UNIT_ROUNDOFF: f64 = f32::EPSILON as f64 / 2.0;
    const IS_COMPLEX: bool = true;
    fn to_c64(self) -> Complex64 {
        Complex64::new(self.re as f64, self.im as f64)
    }
    fn from_c64(v: Complex64) -> Self {
        Complex32::new(v.re as f32, v.im as f32)
    }
}
impl Num for Complex64 {
    const SUBNORMAL_ROUNDOFF: f64 = f64::MIN_POSITIVE * f64::EPSILON / 2.0;
    const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;
    const IS_COMPLEX: bool = true;
    fn to_c64(self) -> Complex64 {
        self
    }
    fn from_c64(v: Complex64) -> Self {
        v
    }
}
impl Num for f16 {
    const SUBNORMAL_ROUNDOFF: f64 = 1.0 / (1u64 << 25) as f64;
    const UNIT_ROUNDOFF: f64 = 1.0 / 2048.0;
    fn to_c64(self) -> Complex64 {
        Complex64::new(self.to_f64(), 0.0)
    }
    fn from_c64(v: Complex64) -> Self {
        f16::from_f64(v.re)
    }
}
impl Num for bf16 {
    const SUBNORMAL_ROUNDOFF: f64 = f32::MIN_POSITIVE as f64 / 256.0 / 2.0;
    const UNIT_ROUNDOFF: f64 = 1.0 / 256.0;
    fn to_c64(self) -> Complex64 {
        Complex64::new(self.to_f64(), 0.0)
    }
    fn from_c64(v: Complex64) -> Self {
        bf16::from_f64(v.re)
    }
}

/// A small, fast, seedable generator (xorshift64*), so that runs are reproducible.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [-1, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// A value of `T` in [-1, 1) (both parts for complex types).
    pub fn value<T: Num>(&mut self) -> T {
        let re = self.unit();
        let im = if T::IS_COMPLEX { self.unit() } else { 0.0 };
        T::from_c64(Complex64::new(re, im))
    }
    pub fn vec<T: Num>(&mut self, len: usize) -> Vec<T> {
        (0..len).map(|_| self.value()).collect()
    }
}

/// Element (row, col) of op(X) for X column-major with leading dimension `ld`.
fn op_at<T: Num>(x: &[T], ld: usize, op: Operation, row: usize, col: usize) -> Complex64 {
    match op {
        Operation::None => x[row + col * ld].to_c64(),
        Operation::Transpose => x[col + row * ld].to_c64(),
        Operation::ConjugateTranspose => x[col + row * ld].to_c64().conj(),
    }
}

/// A GEMM problem's host data, as the reference sees it.
pub struct GemmCase<'a, In: Num, Out: Num> {
    pub trans_a: Operation,
    pub trans_b: Operation,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub alpha: Complex64,
    pub beta: Complex64,
    pub a: &'a [In],
    pub lda: usize,
    pub b: &'a [In],
    pub ldb: usize,
    /// C before the call.
    pub c: &'a [Out],
    pub ldc: usize,
    /// Unit roundoff of the compute type (f32 for the 16-bit families).
    pub compute_roundoff: f64,
}

/// The worst element of a check, for messages.
#[derive(Debug)]
pub struct Mismatch {
    pub row: usize,
    pub col: usize,
    pub got: Complex64,
    pub want: Complex64,
    pub bound: f64,
}

impl<In: Num, Out: Num> GemmCase<'_, In, Out> {
    /// Checks `d` (C after the call, same layout) on the given columns: every element of the
    /// m x n window within the derived bound
    ///   |D - D_ref| <= g * (|alpha| (|op A||op B|)_ij + |beta| |C_ij|) + u_out |D_ref|,
    ///   g = (k + 2) u_compute (doubled for complex arithmetic),
    /// no NaN where the reference has none (C is never read when beta = 0), and every element
    /// outside the window (the ld padding) untouched.
    pub fn check_columns(&self, d: &[Out], cols: &[usize]) -> Result<(), Mismatch> {
        let complex = if In::IS_COMPLEX || Out::IS_COMPLEX { 2.0 } else { 1.0 };
        let g = complex * (self.k as f64 + 2.0) * self.compute_roundoff;
        // Rounding of results below the normal range is absolute: half a subnormal spacing of
        // the output type (and of the compute type, through which every term passes).
        let tiny = 2.0 * (Out::SUBNORMAL_ROUNDOFF + In::SUBNORMAL_ROUNDOFF) + f64::MIN_POSITIVE;
        for &j in cols {
            for i in 0..self.m {
                let (mut sum, mut mag) = (Complex64::new(0.0, 0.0), 0.0);
                if self.alpha != Complex64::new(0.0, 0.0) {
                    for l in 0..self.k {
                        let p = op_at(self.a, self.lda, self.trans_a, i, l) * op_at(self.b, self.ldb, self.trans_b, l, j);
                        sum += p;
                        mag += p.norm();
                    }
                }
                let c = self.c[i + j * self.ldc].to_c64();
                let (cterm, cmag) = if self.beta == Complex64::new(0.0, 0.0) { (Complex64::new(0.0, 0.0), 0.0) } else { (self.beta * c, self.beta.norm() * c.norm()) };
                let want = self.alpha * sum + cterm;
                let got = d[i + j * self.ldc].to_c64();
                let bound = g * (self.alpha.norm() * mag + cmag) + Out::UNIT_ROUNDOFF * want.norm() * 2.0 + tiny;
                let err = (got - want).norm();
                if !(err <= bound) {
                    return Err(Mismatch { row: i, col: j, got, want, bound });
                }
            }
            for i in self.m..self.ldc {
                let before = self.c[i + j * self.ldc];
                let after = d[i + j * self.ldc];
                if bytemuck::bytes_of(&before) != bytemuck::bytes_of(&after) {
                    return Err(Mismatch { row: i, col: j, got: after.to_c64(), want: before.to_c64(), bound: 0.0 });
                }
            }
        }
        Ok(())
    }

    /// Checks a strided batch of `count` entries: `a`, `b` and `c` hold every entry, entry e at
    /// e times the `[a, b, c]` strides, and `d` is C after the call. Each entry as [`Self::check`]
    /// (its stride window of C past the m x n window untouched). Err: the entry and its mismatch.
    /// Entries are checked in parallel (the reference is most of a large batch test's time); the
    /// error reported is the first failing entry's.
    pub fn check_strided(&self, d: &[Out], count: usize, [sa, sb, sc]: [usize; 3]) -> Result<(), (usize, Mismatch)> {
        first_error(count, |e| {
            let entry = GemmCase { a: &self.a[e * sa..(e + 1) * sa], b: &self.b[e * sb..(e + 1) * sb], c: &self.c[e * sc..(e + 1) * sc], ..*self };
            entry.check(&d[e * sc..(e + 1) * sc]).map_err(|m| (e, m))
        })
    }

    /// Checks every column.
    pub fn check(&self, d: &[Out]) -> Result<(), Mismatch> {
        let cols: Vec<usize> = (0..self.n).collect();
        self.check_columns(d, &cols)?;
        // Columns past n within the buffer must be untouched too.
        if d.len() != self.c.len() || d[self.n * self.ldc.max(1)..].iter().zip(&self.c[self.n * self.ldc.max(1)..]).any(|(x, y)| bytemuck::bytes_of(x) != bytemuck::bytes_of(y)) {
            return Err(Mismatch { row: 0, col: self.n, got: Complex64::new(f64::NAN, 0.0), want: Complex64::new(0.0, 0.0), bound: 0.0 });
        }
        Ok(())
    }
}

/// Runs `check` on 0 .. count in parallel (rayon) and returns the lowest index's error, if any:
/// the result of checking them in order, for batch entries whose reference is most of a test's
/// time.
pub fn first_error<E: Send>(count: usize, check: impl Fn(usize) -> Result<(), E> + Sync + Send) -> Result<(), E> {
    use rayon::prelude::*;
    (0..count).into_par_iter().map(check).find_first(|r| r.is_err()).unwrap_or(Ok(()))
}

/// The devices tests run on: the CPU always, plus every GPU present. With
/// `ROCMATH_REQUIRE_GPU=1`, having no GPU is a failure (a panic in the test), not a skip.
/// Rows and columns of X as stored, for op(X) of `rows` x `cols`.
pub fn stored_shape(op: Operation, rows: usize, cols: usize) -> (usize, usize) {
    if op == Operation::None { (rows, cols) } else { (cols, rows) }
}

/// Handles to test with on `device`: the default selection, plus on a GPU complex f32 calls
/// pinned to the real route, and each pinned variant (so that every kernel a device can select
/// is exercised; a variant the device cannot run fails its calls with `ArchMismatch`).
pub fn test_handles(device: &Device) -> Vec<Handle> {
    let mut out = vec![Handle::on(device).unwrap()];
    if device.is_gpu() {
        // Complex f32 calls as one real product at every size (by default only large ones are).
        let mut h = Handle::on(device).unwrap();
        h.set_complex_gemm_route(Some(ComplexGemmRoute::AsReal));
        out.push(h);
        for v in GemmVariant::ALL {
            let mut h = Handle::on(device).unwrap();
            h.set_gemm_variant(Some(v));
            out.push(h);
        }
    }
    out
}

pub fn test_devices() -> Vec<Device> {
    let all = Device::all();
    let require = std::env::var("ROCMATH_REQUIRE_GPU").map(|v| v == "1").unwrap_or(false);
    if require && !all.iter().any(Device::is_gpu) {
        let why = [rocmath_runtime::cuda::driver().err(), rocmath_runtime::hip::driver().err()];
        panic!("ROCMATH_REQUIRE_GPU=1 but no GPU device could be opened: {why:?}");
    }
    all
}

/// Whether a per-config test checks the config named `tag`: all of them, unless
/// ROCMATH_TEST_CONFIGS lists comma-separated parts of names (a device session re-checks the
/// configs it added without the rest of a list that takes minutes). The tests that honour it
/// print how many configs they checked.
pub fn config_selected(tag: &str) -> bool {
    match std::env::var("ROCMATH_TEST_CONFIGS") {
        Ok(parts) if !parts.trim().is_empty() => parts.split(',').any(|p| !p.trim().is_empty() && tag.contains(p.trim())),
        _ => true,
    }
}

/// `ROCMATH_TEST_SHARD=i/n`: a long sweep checks only its every n-th case from the i-th, so that
/// n processes can share it (`None`: every case). A malformed value or `i >= n` panics.
pub fn test_shard() -> Option<(usize, usize)> {
    let value = std::env::var("ROCMATH_TEST_SHARD").ok()?;
    let shard = value.split_once('/').and_then(|(i, n)| Some((i.trim().parse::<usize>().ok()?, n.trim().parse::<usize>().ok()?)));
    match shard {
        Some((i, n)) if i < n => Some((i, n)),
        _ => panic!("ROCMATH_TEST_SHARD={value}: expected i/n with i < n"),
    }
}

/// Whether case `index` of a sweep is in this process's [`test_shard`].
pub fn in_test_shard(index: usize) -> bool {
    test_shard().is_none_or(|(i, n)| index % n == i)
}

/// The GPUs present (empty without one; a panic with ROCMATH_REQUIRE_GPU=1 and none).
pub fn test_gpus() -> Vec<Device> {
    let gpus: Vec<Device> = test_devices().into_iter().filter(Device::is_gpu).collect();
    if gpus.is_empty() {
        eprintln!("no GPU present: GPU cases skipped (set ROCMATH_REQUIRE_GPU=1 to make this a failure)");
    }
    gpus
}

/// Relative error of an f32 operand as the xf32 products take it (TF32: 10 stored mantissa
/// bits), in `rocblas_xf32_xdl_math_op` mode: 2^-10, since Hopper's wgmma (like CDNA3's xf32
/// MFMA) truncates, dropping the low 13 bits of the f32 it reads. (The mma.sync kernels round
/// with cvt.rna, within 2^-11.)
pub const TF32_UNIT_ROUNDOFF: f64 = 1.0 / 1024.0;

/// The `compute_roundoff` to give [`GemmCase`] for an f32 GEMM of depth `k` whose products take
/// TF32 operands and are accumulated in f32. Each product |a~ b~ - ab| <= (2u + u^2)|ab|
/// (u = [`TF32_UNIT_ROUNDOFF`]), and the f32 sum adds (k + 2) u_f32; GemmCase multiplies this
/// value by (k + 2), so the bound comes out as (2u + u^2 + (k + 2) u_f32) (|alpha| |A||B| +
/// |beta| |C|).
pub fn xf32_compute_roundoff(k: usize) -> f64 {
    let u = TF32_UNIT_ROUNDOFF;
    (2.0 * u + u * u) / (k as f64 + 2.0) + f32::EPSILON as f64 / 2.0
}

/// The exact result of an i8 GEMM (i8 inputs, i32 C/D, i32 alpha/beta), every operation
/// modulo 2^32: computed in i64 and reduced once at the end (reduction modulo 2^32 commutes
/// with + and *, so this is an independent route to the wrapping i32 result). Returns D with C's
/// layout; elements outside the m x n window are C's. C is not read where beta = 0.
#[allow(clippy::too_many_arguments)]
pub fn gemm_i8_reference(
    (trans_a, trans_b): (Operation, Operation),
    (m, n, k): (usize, usize, usize),
    alpha: i32,
    a: &[i8],
    lda: usize,
    b: &[i8],
    ldb: usize,
    beta: i32,
    c: &[i32],
    ldc: usize,
) -> Vec<i32> {
    let mut d = c.to_vec();
    for j in 0..n {
        let col = gemm_i8_reference_column((trans_a, trans_b), (m, k), alpha, a, lda, b, ldb, beta, c, ldc, j);
        d[j * ldc..j * ldc + m].copy_from_slice(&col);
    }
    d
}

/// Column `j` (its m elements) of [`gemm_i8_reference`]'s D, for checks that sample columns.
#[allow(clippy::too_many_arguments)]
pub fn gemm_i8_reference_column(
    (trans_a, trans_b): (Operation, Operation),
    (m, k): (usize, usize),
    alpha: i32,
    a: &[i8],
    lda: usize,
    b: &[i8],
    ldb: usize,
    beta: i32,
    c: &[i32],
    ldc: usize,
    j: usize,
) -> Vec<i32> {
    let at = |x: &[i8], ld: usize, op: Operation, row: usize, col: usize| -> i64 {
        if op == Operation::None { x[row + col * ld] as i64 } else { x[col + row * ld] as i64 }
    };
    (0..m)
        .map(|i| {
            let sum: i64 = (0..k).map(|l| at(a, lda, trans_a, i, l) * at(b, ldb, trans_b, l, j)).sum();
            let mut v = (alpha as i64).wrapping_mul(sum);
            if beta != 0 {
                v = v.wrapping_add((beta as i64).wrapping_mul(c[i + j * ldc] as i64));
            }
            v as i32
        })
        .collect()
}
