//! The CPU back end, which is also the reference GPU results are checked against.
//!
//! f32/f64/c32/c64 run on the `gemm` crate (cache-blocked, SIMD, rayon-parallel). The 16-bit
//! families compute in f32, as the GPU kernels do: inputs are widened once, the f32 product is
//! formed, and D is rounded once to its type.
use crate::element::ExOutput;
use crate::gemm::{GemmCall, Scalar, Scalars};
use crate::types::{BlasError, Operation, Result, Status};
use gemm::Parallelism;
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rocmath_kernels::blas::GemmFamily;

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
            _ => return Err(BlasError::new(Status::InternalError, "alpha", "scalar type does not match the family")),
        }
    }
    Ok(())
}

/// A, B, C and D of batch entry `batch`, typed: A/B as `In`, C/D as `Out`.
fn entry<In, Out>(call: &GemmCall, batch: usize) -> (*const In, *const In, *const Out, *mut Out) {
    let (i, o) = (std::mem::size_of::<In>(), std::mem::size_of::<Out>());
    (
        call.a.wrapping_add(batch * call.stride_a * i) as *const In,
        call.b.wrapping_add(batch * call.stride_b * i) as *const In,
        call.c.wrapping_add(batch * call.stride_c * o) as *const Out,
        call.d.wrapping_add(batch * call.stride_d * o) as *mut Out,
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

/// Widens an op-less stored matrix (rows x cols, leading dimension ld) to a dense f32 copy.
unsafe fn widen<In: ExOutput>(p: *const In, rows: usize, cols: usize, ld: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(rows * cols);
    for j in 0..cols {
        out.extend(std::slice::from_raw_parts(p.add(j * ld), rows).iter().map(|v| v.to_f32()));
    }
    out
}

/// One batch entry of a 16-bit-input GEMM computed in f32.
unsafe fn widened<In: ExOutput, Out: ExOutput>(call: &GemmCall, batch: usize, alpha: f32, beta: f32) {
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
