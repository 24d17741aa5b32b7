//! GEMM: D = alpha * op(A) * op(B) + beta * C, column-major, every entry point funnelled into
//! one validated description ([`GemmCall`]) that the CPU and GPU back ends execute.
use crate::element::{Element, ExOutput, HalfLike};
use crate::handle::Handle;
use crate::types::{BlasError, Datatype, Operation, PointerMode, Result, Status};
use crate::{cpu, gpu};
use half::f16;
use num_complex::{Complex32, Complex64};
use rocmath_kernels::blas::GemmFamily;
use rocmath_runtime::DeviceBuffer;

/// alpha or beta as the compute type sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Scalar {
    F32(f32),
    F64(f64),
    C32(Complex32),
    C64(Complex64),
    I32(i32),
}

impl Scalar {
    pub(crate) fn is_zero(self) -> bool {
        match self {
            Scalar::F32(v) => v == 0.0,
            Scalar::F64(v) => v == 0.0,
            Scalar::C32(v) => v.re == 0.0 && v.im == 0.0,
            Scalar::C64(v) => v.re == 0.0 && v.im == 0.0,
            Scalar::I32(v) => v == 0,
        }
    }
    fn is_one(self) -> bool {
        match self {
            Scalar::F32(v) => v == 1.0,
            Scalar::F64(v) => v == 1.0,
            Scalar::C32(v) => v.re == 1.0 && v.im == 0.0,
            Scalar::C64(v) => v.re == 1.0 && v.im == 0.0,
            Scalar::I32(v) => v == 1,
        }
    }

    /// Reads a scalar of `family`'s API scalar type from host memory (half for `H`).
    ///
    /// # Safety
    /// `p` must be non-null and point to a valid value of that type.
    unsafe fn read(family: GemmFamily, p: *const u8) -> Scalar {
        use GemmFamily::*;
        match family {
            H => Scalar::F32((p as *const f16).read_unaligned().to_f32()),
            S | Xf32 | Hss | Bss | Hhs | Bbs => Scalar::F32((p as *const f32).read_unaligned()),
            I8 => Scalar::I32((p as *const i32).read_unaligned()),
            D => Scalar::F64((p as *const f64).read_unaligned()),
            C => Scalar::C32((p as *const Complex32).read_unaligned()),
            Z => Scalar::C64((p as *const Complex64).read_unaligned()),
        }
    }
}

/// Where the kernels find alpha and beta.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Scalars {
    /// Known on the host (host pointer mode, or any mode on the CPU device).
    Value { alpha: Scalar, beta: Scalar },
    /// Device pointers, read by the kernel (device pointer mode on a GPU).
    Device { alpha: *const u8, beta: *const u8 },
}

/// A validated GEMM, ready to execute. Pointers are device addresses (host addresses on the CPU).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GemmCall {
    pub family: GemmFamily,
    pub trans_a: Operation,
    pub trans_b: Operation,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub scalars: Scalars,
    pub a: *const u8,
    pub lda: usize,
    pub stride_a: usize,
    pub b: *const u8,
    pub ldb: usize,
    pub stride_b: usize,
    pub c: *const u8,
    pub ldc: usize,
    pub stride_c: usize,
    pub d: *mut u8,
    pub ldd: usize,
    pub stride_d: usize,
    pub batch: usize,
}

/// A scalar argument as validation sees it.
#[derive(Clone, Copy)]
enum ScalarArg {
    Null,
    /// A device pointer: its value is unknown on the host.
    Device,
    Host(Scalar),
}

/// The raw arguments of any GEMM entry point, before validation.
pub(crate) struct RawGemm {
    pub family: GemmFamily,
    pub trans_a: i32,
    pub trans_b: i32,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub alpha: *const u8,
    pub a: *const u8,
    pub lda: i64,
    pub stride_a: i64,
    pub b: *const u8,
    pub ldb: i64,
    pub stride_b: i64,
    pub beta: *const u8,
    pub c: *const u8,
    pub ldc: i64,
    pub stride_c: i64,
    pub d: *mut u8,
    pub ldd: i64,
    pub stride_d: i64,
    pub batch: i64,
}

fn size_err(arg: &'static str, reason: String) -> BlasError {
    BlasError::new(Status::InvalidSize, arg, reason)
}

fn null_err(arg: &'static str) -> BlasError {
    BlasError::new(Status::InvalidPointer, arg, "null pointer")
}

impl RawGemm {
    /// rocBLAS's argument checks, in rocBLAS's order. `Ok(None)` is a successful quick return
    /// (nothing to compute, nothing written).
    ///
    /// # Safety
    /// In host pointer mode (and on the CPU device) a non-null alpha/beta must point to a valid
    /// scalar of the family's API scalar type.
    unsafe fn validate(&self, handle: &Handle) -> Result<Option<GemmCall>> {
        let trans_a = Operation::from_raw(self.trans_a)
            .ok_or_else(|| BlasError::new(Status::InvalidValue, "trans_a", format!("{} is not a rocblas_operation", self.trans_a)))?;
        let trans_b = Operation::from_raw(self.trans_b)
            .ok_or_else(|| BlasError::new(Status::InvalidValue, "trans_b", format!("{} is not a rocblas_operation", self.trans_b)))?;
        for (name, v) in [("m", self.m), ("n", self.n), ("k", self.k), ("batch_count", self.batch)] {
            if v < 0 {
                return Err(size_err(name, format!("{v} is negative")));
            }
        }
        let rows_a = if trans_a == Operation::None { self.m } else { self.k };
        let rows_b = if trans_b == Operation::None { self.k } else { self.n };
        for (name, ld, rows) in [("lda", self.lda, rows_a), ("ldb", self.ldb, rows_b), ("ldc", self.ldc, self.m), ("ldd", self.ldd, self.m)] {
            if ld < rows {
                return Err(size_err(name, format!("{ld} is less than the {rows} rows it must hold")));
            }
        }
        if self.c as *const u8 == self.d as *const u8 && !self.c.is_null() && (self.ldc != self.ldd || self.stride_c != self.stride_d) {
            return Err(size_err("ldd", "C and D are the same matrix but ldc/stride_c differ from ldd/stride_d".into()));
        }
        if self.m == 0 || self.n == 0 || self.batch == 0 {
            return Ok(None);
        }
        let host_values = handle.pointer_mode() == PointerMode::Host || !handle.device().is_gpu();
        let view = |p: *const u8| {
            if p.is_null() {
                ScalarArg::Null
            } else if host_values {
                ScalarArg::Host(Scalar::read(self.family, p))
            } else {
                ScalarArg::Device
            }
        };
        let (alpha, beta) = (view(self.alpha), view(self.beta));
        match beta {
            ScalarArg::Null => return Err(null_err("beta")),
            ScalarArg::Host(b) if b.is_one() && handle.pointer_mode() == PointerMode::Host => {
                if self.k == 0 {
                    return Ok(None);
                }
                match alpha {
                    ScalarArg::Null => return Err(null_err("alpha")),
                    ScalarArg::Host(a) if a.is_zero() => return Ok(None),
                    _ => {}
                }
            }
            _ => {}
        }
        if self.k > 0 {
            let alpha_zero = match alpha {
                ScalarArg::Null => return Err(null_err("alpha")),
                ScalarArg::Host(a) => a.is_zero(),
                ScalarArg::Device => false,
            };
            if !alpha_zero && self.a.is_null() {
                return Err(null_err("a"));
            }
            if !alpha_zero && self.b.is_null() {
                return Err(null_err("b"));
            }
        }
        if self.c.is_null() {
            return Err(null_err("c"));
        }
        if self.d.is_null() {
            return Err(null_err("d"));
        }
        let scalars = match (alpha, beta) {
            (ScalarArg::Host(alpha), ScalarArg::Host(beta)) => Scalars::Value { alpha, beta },
            // k == 0 with a null alpha: alpha is never used.
            (ScalarArg::Null, ScalarArg::Host(beta)) => Scalars::Value { alpha: zero_of(beta), beta },
            _ => Scalars::Device { alpha: self.alpha, beta: self.beta },
        };
        let u = |v: i64| v as usize;
        Ok(Some(GemmCall {
            family: self.family,
            trans_a,
            trans_b,
            m: u(self.m),
            n: u(self.n),
            k: u(self.k),
            scalars,
            a: self.a,
            lda: u(self.lda),
            stride_a: u(self.stride_a),
            b: self.b,
            ldb: u(self.ldb),
            stride_b: u(self.stride_b),
            c: self.c,
            ldc: u(self.ldc),
            stride_c: u(self.stride_c),
            d: self.d,
            ldd: u(self.ldd),
            stride_d: u(self.stride_d),
            batch: u(self.batch),
        }))
    }

    /// Validates, then runs on the handle's device.
    ///
    /// # Safety
    /// Every non-null pointer must be valid on the handle's device for the extent that the sizes,
    /// leading dimensions, strides and batch count describe (host memory on the CPU device).
    pub(crate) unsafe fn run(&self, handle: &Handle) -> Result<()> {
        let Some(call) = self.validate(handle)? else { return Ok(()) };
        call.execute(handle)
    }
}

impl GemmCall {
    /// Runs on the handle's device: the CPU back end, or a kernel launch on the handle's queue.
    ///
    /// # Safety
    /// The pointers must be valid on the handle's device for the extents the call describes.
    unsafe fn execute(&self, handle: &Handle) -> Result<()> {
        if handle.device().is_gpu() {
            gpu::gemm(handle, self)
        } else {
            cpu::gemm(self)
        }
    }
}

fn zero_of(like: Scalar) -> Scalar {
    match like {
        Scalar::F32(_) => Scalar::F32(0.0),
        Scalar::F64(_) => Scalar::F64(0.0),
        Scalar::C32(_) => Scalar::C32(Complex32::new(0.0, 0.0)),
        Scalar::C64(_) => Scalar::C64(Complex64::new(0.0, 0.0)),
        Scalar::I32(_) => Scalar::I32(0),
    }
}

/// `rocblas_{s,d,c,z,h}gemm` with raw pointers and rocBLAS's status semantics: the entry point
/// of the C ABI. On a GPU, `a`, `b`, `c` are device pointers; alpha/beta follow the handle's
/// pointer mode. On the CPU device every pointer is a host pointer.
///
/// # Safety
/// Every non-null pointer must be valid for the extent the arguments describe.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_raw<T: Element>(
    handle: &Handle,
    trans_a: i32,
    trans_b: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const T,
    a: *const T,
    lda: i32,
    b: *const T,
    ldb: i32,
    beta: *const T,
    c: *mut T,
    ldc: i32,
) -> Result<()> {
    RawGemm {
        family: T::FAMILY,
        trans_a,
        trans_b,
        m: m.into(),
        n: n.into(),
        k: k.into(),
        alpha: alpha as *const u8,
        a: a as *const u8,
        lda: lda.into(),
        stride_a: 0,
        b: b as *const u8,
        ldb: ldb.into(),
        stride_b: 0,
        beta: beta as *const u8,
        c: c as *const u8,
        ldc: ldc.into(),
        stride_c: 0,
        d: c as *mut u8,
        ldd: ldc.into(),
        stride_d: 0,
        batch: 1,
    }
    .run(handle)
}

/// The (a, b, c/d, compute) datatype combinations `gemm_ex` accepts, and the kernel family
/// for each. rocBLAS requires a == b and c == d.
pub fn gemm_ex_family(a: Datatype, b: Datatype, c: Datatype, d: Datatype, compute: Datatype) -> Option<GemmFamily> {
    use Datatype::*;
    if a != b || c != d {
        return None;
    }
    Some(match (a, c, compute) {
        (F16R, F32R, F32R) => GemmFamily::Hss,
        (Bf16R, F32R, F32R) => GemmFamily::Bss,
        (F16R, F16R, F32R) => GemmFamily::Hhs,
        (Bf16R, Bf16R, F32R) => GemmFamily::Bbs,
        (F16R, F16R, F16R) => GemmFamily::H,
        (F32R, F32R, F32R) => GemmFamily::S,
        (F64R, F64R, F64R) => GemmFamily::D,
        (F32C, F32C, F32C) => GemmFamily::C,
        (F64C, F64C, F64C) => GemmFamily::Z,
        _ => return None,
    })
}

/// `rocblas_gemm_ex` with raw pointers and rocBLAS's status semantics. Datatypes and the
/// algorithm arrive as raw enum values so that bad ones get `invalid_value`/`not_implemented`.
///
/// # Safety
/// As [`gemm_raw`], for pointers of the named datatypes.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_ex_raw(
    handle: &Handle,
    trans_a: i32,
    trans_b: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const u8,
    a: *const u8,
    a_type: i32,
    lda: i32,
    b: *const u8,
    b_type: i32,
    ldb: i32,
    beta: *const u8,
    c: *const u8,
    c_type: i32,
    ldc: i32,
    d: *mut u8,
    d_type: i32,
    ldd: i32,
    compute_type: i32,
    algo: i32,
) -> Result<()> {
    let dt = |name: &'static str, v: i32| {
        Datatype::from_raw(v)
            .filter(|d| *d != Datatype::Invalid)
            .ok_or_else(|| BlasError::new(Status::InvalidValue, name, format!("{v} is not a rocblas_datatype")))
    };
    let types = (dt("a_type", a_type)?, dt("b_type", b_type)?, dt("c_type", c_type)?, dt("d_type", d_type)?, dt("compute_type", compute_type)?);
    // rocblas_gemm_algo_standard (0) and _solution_index (1).
    if !(0..=1).contains(&algo) {
        return Err(BlasError::new(Status::InvalidValue, "algo", format!("{algo} is not a rocblas_gemm_algo")));
    }
    let family = gemm_ex_family(types.0, types.1, types.2, types.3, types.4).ok_or_else(|| {
        BlasError::new(Status::NotImplemented, "compute_type", format!("datatype combination {types:?} is not supported"))
    })?;
    RawGemm {
        family,
        trans_a,
        trans_b,
        m: m.into(),
        n: n.into(),
        k: k.into(),
        alpha,
        a,
        lda: lda.into(),
        stride_a: 0,
        b,
        ldb: ldb.into(),
        stride_b: 0,
        beta,
        c,
        ldc: ldc.into(),
        stride_c: 0,
        d,
        ldd: ldd.into(),
        stride_d: 0,
        batch: 1,
    }
    .run(handle)
}

/// Strides between consecutive matrices of a strided batch, in elements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    pub count: usize,
    pub stride_a: usize,
    pub stride_b: usize,
    pub stride_c: usize,
}

impl Batch {
    /// One matrix each.
    pub const ONE: Batch = Batch { count: 1, stride_a: 0, stride_b: 0, stride_c: 0 };
}

fn check_batched<T: bytemuck::Pod>(handle: &Handle, name: &'static str, buf: &DeviceBuffer<T>, rows: usize, cols: usize, ld: usize, stride: usize, count: usize) -> Result<()> {
    if !buf.device().same_as(&handle.device()) {
        return Err(BlasError::new(Status::InvalidValue, name, "buffer is on another device than the handle"));
    }
    let one = if rows == 0 || cols == 0 { 0 } else { ld.saturating_mul(cols - 1).saturating_add(rows) };
    let need = if one == 0 || count == 0 { 0 } else { stride.saturating_mul(count - 1).saturating_add(one) };
    if buf.len() < need {
        return Err(BlasError::new(
            Status::InvalidSize,
            name,
            format!("holds {} elements; {count} {rows}x{cols} matrices with ld {ld} and stride {stride} need {need}", buf.len()),
        ));
    }
    Ok(())
}

fn to_i32(name: &'static str, v: usize) -> Result<i32> {
    i32::try_from(v).map_err(|_| size_err(name, format!("{v} does not fit rocblas_int")))
}

fn op_shape(op: Operation, rows: usize, cols: usize) -> (usize, usize) {
    if op == Operation::None { (rows, cols) } else { (cols, rows) }
}

/// D = alpha * op(A) * op(B) + beta * C, in place in `c` (safe Rust API; alpha and beta by
/// value whatever the handle's pointer mode).
#[allow(clippy::too_many_arguments)]
pub fn gemm<T: Element>(
    handle: &Handle,
    trans_a: Operation,
    trans_b: Operation,
    m: usize,
    n: usize,
    k: usize,
    alpha: T,
    a: &DeviceBuffer<T>,
    lda: usize,
    b: &DeviceBuffer<T>,
    ldb: usize,
    beta: T,
    c: &mut DeviceBuffer<T>,
    ldc: usize,
) -> Result<()> {
    gemm_strided_batched(handle, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, Batch::ONE)
}

/// [`gemm`] over `batch.count` matrices laid out at fixed strides in each buffer.
#[allow(clippy::too_many_arguments)]
pub fn gemm_strided_batched<T: Element>(
    handle: &Handle,
    trans_a: Operation,
    trans_b: Operation,
    m: usize,
    n: usize,
    k: usize,
    alpha: T,
    a: &DeviceBuffer<T>,
    lda: usize,
    b: &DeviceBuffer<T>,
    ldb: usize,
    beta: T,
    c: &mut DeviceBuffer<T>,
    ldc: usize,
    batch: Batch,
) -> Result<()> {
    let operands = Operands { a: a.as_ptr().cast(), b: b.as_ptr().cast(), c: c.as_mut_ptr().cast() };
    check_operands(handle, [trans_a, trans_b], [m, n, k], [(a, lda), (b, ldb)], (c, ldc), batch)?;
    run_safe(handle, T::FAMILY, [trans_a, trans_b], [m, n, k], scalar_of(alpha), scalar_of(beta), operands, [lda, ldb, ldc], batch)
}

/// Mixed precision (`gemm_ex` with f32 compute): 16-bit inputs `A`, `B` (f16 or bf16), output
/// `C` in f32 or in the input type, updated in place. HSS, BSS, HHS and BBS in rocBLAS's terms.
#[allow(clippy::too_many_arguments)]
pub fn gemm_ex<In: HalfLike, Out: ExOutput>(
    handle: &Handle,
    trans_a: Operation,
    trans_b: Operation,
    m: usize,
    n: usize,
    k: usize,
    alpha: f32,
    a: &DeviceBuffer<In>,
    lda: usize,
    b: &DeviceBuffer<In>,
    ldb: usize,
    beta: f32,
    c: &mut DeviceBuffer<Out>,
    ldc: usize,
) -> Result<()> {
    gemm_strided_batched_ex(handle, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, Batch::ONE)
}

/// [`gemm_ex`] over a strided batch.
#[allow(clippy::too_many_arguments)]
pub fn gemm_strided_batched_ex<In: HalfLike, Out: ExOutput>(
    handle: &Handle,
    trans_a: Operation,
    trans_b: Operation,
    m: usize,
    n: usize,
    k: usize,
    alpha: f32,
    a: &DeviceBuffer<In>,
    lda: usize,
    b: &DeviceBuffer<In>,
    ldb: usize,
    beta: f32,
    c: &mut DeviceBuffer<Out>,
    ldc: usize,
    batch: Batch,
) -> Result<()> {
    let family = gemm_ex_family(In::DATATYPE, In::DATATYPE, Out::DATATYPE, Out::DATATYPE, Datatype::F32R)
        .ok_or_else(|| BlasError::new(Status::NotImplemented, "c", "unsupported output type"))?;
    let operands = Operands { a: a.as_ptr().cast(), b: b.as_ptr().cast(), c: c.as_mut_ptr().cast() };
    check_operands(handle, [trans_a, trans_b], [m, n, k], [(a, lda), (b, ldb)], (c, ldc), batch)?;
    run_safe(handle, family, [trans_a, trans_b], [m, n, k], Scalar::F32(alpha), Scalar::F32(beta), operands, [lda, ldb, ldc], batch)
}

struct Operands {
    a: *const u8,
    b: *const u8,
    c: *mut u8,
}

fn check_operands<In: bytemuck::Pod, Out: bytemuck::Pod>(
    handle: &Handle,
    [trans_a, trans_b]: [Operation; 2],
    [m, n, k]: [usize; 3],
    [(a, lda), (b, ldb)]: [(&DeviceBuffer<In>, usize); 2],
    (c, ldc): (&DeviceBuffer<Out>, usize),
    batch: Batch,
) -> Result<()> {
    let (ra, ca) = op_shape(trans_a, m, k);
    let (rb, cb) = op_shape(trans_b, k, n);
    // Sizes and leading dimensions first (rocBLAS's order), then whether the buffers hold them.
    for (name, v) in [("m", m), ("n", n), ("k", k), ("lda", lda), ("ldb", ldb), ("ldc", ldc), ("batch_count", batch.count)] {
        to_i32(name, v)?;
    }
    for (name, ld, rows) in [("lda", lda, ra), ("ldb", ldb, rb), ("ldc", ldc, m)] {
        if ld < rows {
            return Err(size_err(name, format!("{ld} is less than the {rows} rows it must hold")));
        }
    }
    check_batched(handle, "a", a, ra, ca, lda, batch.stride_a, batch.count)?;
    check_batched(handle, "b", b, rb, cb, ldb, batch.stride_b, batch.count)?;
    check_batched(handle, "c", c, m, n, ldc, batch.stride_c, batch.count)
}

fn scalar_of<T: Element>(v: T) -> Scalar {
    let bytes = bytemuck::bytes_of(&v.to_compute()).to_vec();
    // SAFETY: `bytes` holds one value of T's compute type, which is what `read` expects for
    // every family but H, whose API scalar is half: handled by going through f32 explicitly.
    unsafe {
        match T::FAMILY {
            GemmFamily::H => Scalar::F32((bytes.as_ptr() as *const f32).read_unaligned()),
            f => Scalar::read(f, bytes.as_ptr()),
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run_safe(
    handle: &Handle,
    family: GemmFamily,
    [trans_a, trans_b]: [Operation; 2],
    [m, n, k]: [usize; 3],
    alpha: Scalar,
    beta: Scalar,
    ops: Operands,
    [lda, ldb, ldc]: [usize; 3],
    batch: Batch,
) -> Result<()> {
    if m == 0 || n == 0 || batch.count == 0 || (k == 0 || alpha.is_zero()) && beta.is_one() {
        return Ok(());
    }
    let call = GemmCall {
        family,
        trans_a,
        trans_b,
        m,
        n,
        k,
        scalars: Scalars::Value { alpha, beta },
        a: ops.a,
        lda,
        stride_a: batch.stride_a,
        b: ops.b,
        ldb,
        stride_b: batch.stride_b,
        c: ops.c as *const u8,
        ldc,
        stride_c: batch.stride_c,
        d: ops.c,
        ldd: ldc,
        stride_d: batch.stride_c,
        batch: batch.count,
    };
    // SAFETY: check_operands proved the buffers hold every element the call touches, on the
    // handle's device.
    unsafe { call.execute(handle) }
}
