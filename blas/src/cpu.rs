//! The CPU back end, which is also the reference GPU results are checked against.
//!
//! f32/f64/c32/c64 run on the `gemm` crate (cache-blocked, SIMD, rayon-parallel). The 16-bit
//! families compute in f32, as the GPU kernels do: inputs are widened once, the f32 product is
//! formed, and D is rounded once to its type. The i8 family is exact: i32 products and sums
//! wrapping modulo 2^32, as the GPU kernels compute them.
use crate::gemm::{GemmCall, Scalar, Scalars};
use crate::types::{BlasError, Operation, Result, Status};
use gemm::Parallelism;
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rocmath_kernels::blas::GemmFamily;
use rocmath_kernels::gen::gemm::BatchForm;
use rayon::prelude::*;

/// Below this many multiply-adds a single thread is faster than waking the pool.
const PARALLEL_THRESHOLD: usize = 1 << 18;

/// Runs a validated GEMM on host memory.
///
/// # Safety
/// The call's pointers must be valid host pointers for the extents it describes.
pub(crate) unsafe fn gemm(call: &GemmCall) -> Result<()> {
    let Scalars::Value { alpha, beta } = call.scalars else {
        return Err(BlasError::new(Status::InternalError, "alpha", "device scalars on the CPU device"));
    };
    for batch in 0..call.batch {
        use GemmFamily::*;
        match (call.family, alpha, beta) {
            (S, Scalar::F32(al), Scalar::F32(be)) => typed::<f32>(call, batch, al, be, false),
            (D, Scalar::F64(al), Scalar::F64(be)) => typed::<f64>(call, batch, al, be, false),
            (C, Scalar::C32(al), Scalar::C32(be)) => typed::<Complex32>(call, batch, al, be, true),
            (Z, Scalar::C64(al), Scalar::C64(be)) => typed::<Complex64>(call, batch, al, be, true),
            (H | Hhs, Scalar::F32(al), Scalar::F32(be)) => widened::<f16, f16>(call, batch, al, be),
            (Hss, Scalar::F32(al), Scalar::F32(be)) => widened::<f16, f32>(call, batch, al, be),
            (Bss, Scalar::F32(al), Scalar::F32(be)) => widened::<bf16, f32>(call, batch, al, be),
            (Bbs, Scalar::F32(al), Scalar::F32(be)) => widened::<bf16, bf16>(call, batch, al, be),
            (I8, Scalar::I32(al), Scalar::I32(be)) => int8(call, batch, al, be),
            _ => return Err(BlasError::new(Status::InternalError, "alpha", "scalar type does not match the family")),
        }
    }
    Ok(())
}

/// A, B, C and D of batch entry `batch`, typed: A/B as `In`, C/D as `Out`. A null base (an A or
/// B that validation found is never read) stays null.
///
/// # Safety
/// In the pointer-array form each non-null array must hold `call.batch` pointers.
unsafe fn entry<In, Out>(call: &GemmCall, batch: usize) -> (*const In, *const In, *const Out, *mut Out) {
    let (i, o) = (std::mem::size_of::<In>() as i64, std::mem::size_of::<Out>() as i64);
    let at = |p: *const u8, stride: i64, size: i64| -> *const u8 {
        if p.is_null() {
            return p;
        }
        match call.form {
            BatchForm::Strided => p.wrapping_offset((batch as i64 * stride * size) as isize),
            // An array of matrix pointers; the stride is an element offset within each matrix.
            BatchForm::Pointers => (p as *const *const u8).add(batch).read().wrapping_offset((stride * size) as isize),
        }
    };
    (
        at(call.a, call.stride_a, i) as *const In,
        at(call.b, call.stride_b, i) as *const In,
        at(call.c, call.stride_c, o) as *const Out,
        at(call.d, call.stride_d, o) as *mut Out,
    )
}

/// Element strides of op(X) for an X stored column-major with leading dimension `ld`:
/// (column stride, row stride) as the `gemm` crate wants them.
fn op_strides(op: Operation, ld: usize) -> (isize, isize) {
    match op {
        Operation::None => (ld as isize, 1),
        _ => (1, ld as isize),
    }
}

fn parallelism(m: usize, n: usize, k: usize) -> Parallelism {
    if m.saturating_mul(n).saturating_mul(k) >= PARALLEL_THRESHOLD {
        Parallelism::Rayon(0)
    } else {
        Parallelism::None
    }
}

trait Scale: Copy + 'static {
    const ZERO: Self;
    fn is_zero(self) -> bool;
    fn mul(self, o: Self) -> Self;
}
macro_rules! scale {
    ($t:ty, $z:expr) => {
        impl Scale for $t {
            const ZERO: Self = $z;
            fn is_zero(self) -> bool {
                self == $z
            }
            fn mul(self, o: Self) -> Self {
                self * o
            }
        }
    };
}
scale!(f32, 0.0);
scale!(f64, 0.0);
scale!(Complex32, Complex32::new(0.0, 0.0));
scale!(Complex64, Complex64::new(0.0, 0.0));

/// One batch entry of a same-type GEMM through the `gemm` crate.
unsafe fn typed<T: Scale>(call: &GemmCall, batch: usize, alpha: T, beta: T, complex: bool) {
    let (a, b, c, d) = entry::<T, T>(call, batch);
    let (m, n, k) = (call.m, call.n, call.k);
    // D starts as C (when beta reads it); the product then accumulates into D.
    if !beta.is_zero() && c != d as *const T {
        for j in 0..n {
            std::ptr::copy_nonoverlapping(c.add(j * call.ldc), d.add(j * call.ldd), m);
        }
    }
    if k == 0 || alpha.is_zero() {
        scale_in_place(d, m, n, call.ldd, beta);
        return;
    }
    let (a_cs, a_rs) = op_strides(call.trans_a, call.lda);
    let (b_cs, b_rs) = op_strides(call.trans_b, call.ldb);
    // gemm crate: dst = alpha_g * dst + beta_g * lhs * rhs, dst unread when read_dst is false,
    // so a NaN in C with beta = 0 never reaches D.
    gemm::gemm(
        m,
        n,
        k,
        d,
        call.ldd as isize,
        1,
        !beta.is_zero(),
        a,
        a_cs,
        a_rs,
        b,
        b_cs,
        b_rs,
        beta,
        alpha,
        false,
        complex && call.trans_a == Operation::ConjugateTranspose,
        complex && call.trans_b == Operation::ConjugateTranspose,
        parallelism(m, n, k),
    );
}

/// D = beta * D over an m x n window (beta = 0 writes zeros without reading).
unsafe fn scale_in_place<T: Scale>(d: *mut T, m: usize, n: usize, ldd: usize, beta: T) {
    for j in 0..n {
        let col = std::slice::from_raw_parts_mut(d.add(j * ldd), m);
        if beta.is_zero() {
            col.fill(T::ZERO);
        } else {
            col.iter_mut().for_each(|v| *v = v.mul(beta));
        }
    }
}

/// A 16-bit type or f32, converted through f32.
trait Widen: Copy {
    fn to_f32(self) -> f32;
    fn from_f32(v: f32) -> Self;
}
impl Widen for f16 {
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
    fn from_f32(v: f32) -> Self {
        f16::from_f32(v)
    }
}
impl Widen for bf16 {
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
    fn from_f32(v: f32) -> Self {
        bf16::from_f32(v)
    }
}
impl Widen for f32 {
    fn to_f32(self) -> f32 {
        self
    }
    fn from_f32(v: f32) -> Self {
        v
    }
}

/// Widens an op-less stored matrix (rows x cols, leading dimension ld) to a dense f32 copy.
unsafe fn widen<In: Widen>(p: *const In, rows: usize, cols: usize, ld: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(rows * cols);
    for j in 0..cols {
        out.extend(std::slice::from_raw_parts(p.add(j * ld), rows).iter().map(|v| v.to_f32()));
    }
    out
}

/// One batch entry of a 16-bit-input GEMM computed in f32.
unsafe fn widened<In: Widen, Out: Widen>(call: &GemmCall, batch: usize, alpha: f32, beta: f32) {
    let (m, n, k) = (call.m, call.n, call.k);
    let (a, b, c, d) = entry::<In, Out>(call, batch);
    let rows = |op: Operation, r: usize, cc: usize| if op == Operation::None { (r, cc) } else { (cc, r) };
    let mut acc = if beta == 0.0 { vec![0f32; m * n] } else { widen(c, m, n, call.ldc) };
    if k > 0 && alpha != 0.0 {
        let (ra, ca) = rows(call.trans_a, m, k);
        let (rb, cb) = rows(call.trans_b, k, n);
        let a32 = widen(a, ra, ca, call.lda);
        let b32 = widen(b, rb, cb, call.ldb);
        let (a_cs, a_rs) = op_strides(call.trans_a, ra);
        let (b_cs, b_rs) = op_strides(call.trans_b, rb);
        gemm::gemm(
            m,
            n,
            k,
            acc.as_mut_ptr(),
            m as isize,
            1,
            beta != 0.0,
            a32.as_ptr(),
            a_cs,
            a_rs,
            b32.as_ptr(),
            b_cs,
            b_rs,
            beta,
            alpha,
            false,
            false,
            false,
            parallelism(m, n, k),
        );
    } else {
        acc.iter_mut().for_each(|v| *v *= beta);
    }
    for j in 0..n {
        let col = std::slice::from_raw_parts_mut(d.add(j * call.ldd), m);
        for (dst, v) in col.iter_mut().zip(&acc[j * m..(j + 1) * m]) {
            *dst = Out::from_f32(*v);
        }
    }
}

/// One batch entry of the i8 GEMM, exact: i32 products and sums wrapping modulo 2^32 (what the
/// GPU kernels compute). C is not read when beta = 0, A and B not when alpha = 0.
unsafe fn int8(call: &GemmCall, batch: usize, alpha: i32, beta: i32) {
    let (a, b, c, d) = entry::<i8, i32>(call, batch);
    let (m, n, k) = (call.m, call.n, call.k);
    let (ta, tb, lda, ldb, ldc, ldd) = (call.trans_a, call.trans_b, call.lda, call.ldb, call.ldc, call.ldd);
    // Raw pointers are not Send: the column tasks get addresses. Each writes its own column of D
    // (ldd >= m), reading C's element before writing it when C is D.
    let (a, b, c, d) = (a as usize, b as usize, c as usize, d as usize);
    let at = |p: usize, op: Operation, ld: usize, row: usize, col: usize| -> i32 {
        let idx = if op == Operation::None { row + col * ld } else { col + row * ld };
        i32::from(*(p as *const i8).add(idx))
    };
    let column = |j: usize| {
        for i in 0..m {
            let mut acc = 0i32;
            if alpha != 0 {
                for l in 0..k {
                    acc = acc.wrapping_add(at(a, ta, lda, i, l).wrapping_mul(at(b, tb, ldb, l, j)));
                }
            }
            let mut v = alpha.wrapping_mul(acc);
            if beta != 0 {
                v = v.wrapping_add(beta.wrapping_mul(*(c as *const i32).add(i + j * ldc)));
            }
            *(d as *mut i32).add(i + j * ldd) = v;
        }
    };
    if m.saturating_mul(n).saturating_mul(k) >= PARALLEL_THRESHOLD {
        (0..n).into_par_iter().for_each(column);
    } else {
        (0..n).for_each(column);
    }
}
