//! GEMM: D = alpha * op(A) * op(B) + beta * C, column-major, every entry point funnelled into
//! one validated description ([`GemmCall`]) that the CPU and GPU back ends execute.
use crate::element::{Element, ExInput, ExOutput};
use crate::handle::Handle;
use crate::types::{BlasError, Datatype, Operation, PointerMode, Result, Status};
use crate::{cpu, gpu};
use half::f16;
use num_complex::{Complex32, Complex64};
use rocmath_kernels::blas::GemmFamily;
use rocmath_kernels::gen::gemm::BatchForm;
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

    /// Reads a scalar of type `ty` from host memory.
    ///
    /// # Safety
    /// `p` must be non-null and point to a valid value of that type.
    unsafe fn read(ty: ScalarType, p: *const u8) -> Scalar {
        match ty {
            ScalarType::F16 => Scalar::F32((p as *const f16).read_unaligned().to_f32()),
            ScalarType::F32 => Scalar::F32((p as *const f32).read_unaligned()),
            ScalarType::I32 => Scalar::I32((p as *const i32).read_unaligned()),
            ScalarType::F64 => Scalar::F64((p as *const f64).read_unaligned()),
            ScalarType::C32 => Scalar::C32((p as *const Complex32).read_unaligned()),
            ScalarType::C64 => Scalar::C64((p as *const Complex64).read_unaligned()),
        }
    }
}

/// The type alpha and beta have in the caller's memory (the API scalar type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScalarType {
    F16,
    F32,
    F64,
    I32,
    C32,
    C64,
}

impl ScalarType {
    /// The API scalar type of a family (half for `H`, whose kernels compute in f32).
    fn of_family(family: GemmFamily) -> ScalarType {
        use GemmFamily::*;
        match family {
            H => ScalarType::F16,
            S | Xf32 | Hss | Bss | Hhs | Bbs => ScalarType::F32,
            I8 => ScalarType::I32,
            D => ScalarType::F64,
            C => ScalarType::C32,
            Z => ScalarType::C64,
        }
    }

    /// The scalar type of a `gemm_ex` compute type: rocBLAS reads alpha/beta for these six
    /// only, and answers `not_implemented` for any other compute type before checking sizes.
    fn of_compute(compute: Datatype) -> Option<ScalarType> {
        Some(match compute {
            Datatype::F16R => ScalarType::F16,
            Datatype::F32R => ScalarType::F32,
            Datatype::F64R => ScalarType::F64,
            Datatype::I32R => ScalarType::I32,
            Datatype::F32C => ScalarType::C32,
            Datatype::F64C => ScalarType::C64,
            _ => return None,
        })
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
/// In [`BatchForm::Pointers`], `a`, `b`, `c`, `d` are arrays of `batch` matrix pointers and the
/// strides are element offsets applied to every entry (0 from every entry point).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GemmCall {
    pub family: GemmFamily,
    pub form: BatchForm,
    pub trans_a: Operation,
    pub trans_b: Operation,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub scalars: Scalars,
    pub a: *const u8,
    pub lda: usize,
    pub stride_a: i64,
    pub b: *const u8,
    pub ldb: usize,
    pub stride_b: i64,
    pub c: *const u8,
    pub ldc: usize,
    pub stride_c: i64,
    pub d: *mut u8,
    pub ldd: usize,
    pub stride_d: i64,
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
    /// The kernel family, or why the datatypes have none: rocBLAS refuses an unsupported
    /// combination (`not_implemented`) only after the size, quick-return and pointer checks.
    pub family: Result<GemmFamily>,
    /// How alpha and beta are read.
    pub scalar: ScalarType,
    pub form: BatchForm,
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
        if self.c == self.d as *const u8 && !self.c.is_null() && (self.ldc != self.ldd || self.stride_c != self.stride_d) {
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
                ScalarArg::Host(Scalar::read(self.scalar, p))
            } else {
                ScalarArg::Device
            }
        };
        let (alpha, beta) = (view(self.alpha), view(self.beta));
        match beta {
            ScalarArg::Null => return Err(null_err("beta")),
            // (The beta = 1 quick return is typed gemm's; gemm_ex refuses an unsupported type
            // combination even then.)
            ScalarArg::Host(b) if b.is_one() && handle.pointer_mode() == PointerMode::Host && self.family.is_ok() => {
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
        let family = self.family.clone()?;
        let u = |v: i64| v as usize;
        Ok(Some(GemmCall {
            family,
            form: self.form,
            trans_a,
            trans_b,
            m: u(self.m),
            n: u(self.n),
            k: u(self.k),
            scalars,
            a: self.a,
            lda: u(self.lda),
            stride_a: self.stride_a,
            b: self.b,
            ldb: u(self.ldb),
            stride_b: self.stride_b,
            c: self.c,
            ldc: u(self.ldc),
            stride_c: self.stride_c,
            d: self.d,
            ldd: u(self.ldd),
            stride_d: self.stride_d,
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
    gemm_strided_batched_raw(handle, trans_a, trans_b, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1)
}

/// `rocblas_{s,d,c,z,h}gemm_strided_batched`: [`gemm_raw`] over `batch_count` matrices, entry i
/// of each at its base pointer + i * stride elements (strides are `rocblas_stride`: any value).
///
/// # Safety
/// As [`gemm_raw`], for every entry of the batch.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_strided_batched_raw<T: Element>(
    handle: &Handle,
    trans_a: i32,
    trans_b: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const T,
    a: *const T,
    lda: i32,
    stride_a: i64,
    b: *const T,
    ldb: i32,
    stride_b: i64,
    beta: *const T,
    c: *mut T,
    ldc: i32,
    stride_c: i64,
    batch_count: i32,
) -> Result<()> {
    let ptrs = [a.cast(), b.cast(), c as *const u8];
    typed_raw::<T>(handle, BatchForm::Strided, [trans_a, trans_b], [m, n, k], [alpha, beta], ptrs, [lda, ldb, ldc], [stride_a, stride_b, stride_c], batch_count)
}

/// `rocblas_{s,d,c,z,h}gemm_batched`: `a`, `b`, `c` are arrays of `batch_count` matrix pointers
/// (device arrays of device pointers on a GPU; host arrays of host pointers on the CPU device).
/// A null array is `invalid_pointer` where a non-batched call would refuse a null matrix.
///
/// # Safety
/// Each non-null array must hold `batch_count` pointers, each valid as [`gemm_raw`]'s.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_batched_raw<T: Element>(
    handle: &Handle,
    trans_a: i32,
    trans_b: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const T,
    a: *const *const T,
    lda: i32,
    b: *const *const T,
    ldb: i32,
    beta: *const T,
    c: *const *mut T,
    ldc: i32,
    batch_count: i32,
) -> Result<()> {
    let ptrs = [a.cast(), b.cast(), c.cast()];
    typed_raw::<T>(handle, BatchForm::Pointers, [trans_a, trans_b], [m, n, k], [alpha, beta], ptrs, [lda, ldb, ldc], [0; 3], batch_count)
}

/// The typed entry points: D is C; alpha and beta have T's API scalar type.
#[allow(clippy::too_many_arguments)]
unsafe fn typed_raw<T: Element>(
    handle: &Handle,
    form: BatchForm,
    [trans_a, trans_b]: [i32; 2],
    [m, n, k]: [i32; 3],
    [alpha, beta]: [*const T; 2],
    [a, b, c]: [*const u8; 3],
    [lda, ldb, ldc]: [i32; 3],
    [stride_a, stride_b, stride_c]: [i64; 3],
    batch_count: i32,
) -> Result<()> {
    RawGemm {
        family: Ok(T::FAMILY),
        scalar: ScalarType::of_family(T::FAMILY),
        form,
        trans_a,
        trans_b,
        m: m.into(),
        n: n.into(),
        k: k.into(),
        alpha: alpha.cast(),
        a,
        lda: lda.into(),
        stride_a,
        b,
        ldb: ldb.into(),
        stride_b,
        beta: beta.cast(),
        c,
        ldc: ldc.into(),
        stride_c,
        d: c as *mut u8,
        ldd: ldc.into(),
        stride_d: stride_c,
        batch: batch_count.into(),
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
        (I8R, I32R, I32R) => GemmFamily::I8,
        _ => return None,
    })
}

/// The datatype arguments of the `_ex` entry points as validation needs them: values outside
/// `rocblas_datatype`/`rocblas_gemm_algo` are `invalid_value`; a compute type rocBLAS has no
/// scalar type for is `not_implemented` at once (rocBLAS reads alpha/beta before any other
/// check); any other unsupported combination is refused later, after the argument checks.
fn ex_types(a_type: i32, b_type: i32, c_type: i32, d_type: i32, compute_type: i32, algo: i32) -> Result<(Result<GemmFamily>, ScalarType)> {
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
    let scalar = ScalarType::of_compute(types.4)
        .ok_or_else(|| BlasError::new(Status::NotImplemented, "compute_type", format!("{:?} is not a compute type", types.4)))?;
    let family = gemm_ex_family(types.0, types.1, types.2, types.3, types.4).ok_or_else(|| {
        BlasError::new(Status::NotImplemented, "compute_type", format!("datatype combination {types:?} is not supported"))
    });
    Ok((family, scalar))
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
    gemm_strided_batched_ex_raw(
        handle, trans_a, trans_b, m, n, k, alpha, a, a_type, lda, 0, b, b_type, ldb, 0, beta, c, c_type, ldc, 0, d, d_type, ldd, 0, 1,
        compute_type, algo,
    )
}

/// `rocblas_gemm_strided_batched_ex`: [`gemm_ex_raw`] over a strided batch.
///
/// # Safety
/// As [`gemm_ex_raw`], for every entry of the batch.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_strided_batched_ex_raw(
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
    stride_a: i64,
    b: *const u8,
    b_type: i32,
    ldb: i32,
    stride_b: i64,
    beta: *const u8,
    c: *const u8,
    c_type: i32,
    ldc: i32,
    stride_c: i64,
    d: *mut u8,
    d_type: i32,
    ldd: i32,
    stride_d: i64,
    batch_count: i32,
    compute_type: i32,
    algo: i32,
) -> Result<()> {
    let (family, scalar) = ex_types(a_type, b_type, c_type, d_type, compute_type, algo)?;
    RawGemm {
        family,
        scalar,
        form: BatchForm::Strided,
        trans_a,
        trans_b,
        m: m.into(),
        n: n.into(),
        k: k.into(),
        alpha,
        a,
        lda: lda.into(),
        stride_a,
        b,
        ldb: ldb.into(),
        stride_b,
        beta,
        c,
        ldc: ldc.into(),
        stride_c,
        d,
        ldd: ldd.into(),
        stride_d,
        batch: batch_count.into(),
    }
    .run(handle)
}

/// `rocblas_gemm_batched_ex`: `a`, `b`, `c`, `d` are arrays of `batch_count` matrix pointers
/// (device arrays of device pointers on a GPU; host arrays on the CPU device).
///
/// # Safety
/// As [`gemm_ex_raw`], for every pointer of every non-null array.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm_batched_ex_raw(
    handle: &Handle,
    trans_a: i32,
    trans_b: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const u8,
    a: *const *const u8,
    a_type: i32,
    lda: i32,
    b: *const *const u8,
    b_type: i32,
    ldb: i32,
    beta: *const u8,
    c: *const *const u8,
    c_type: i32,
    ldc: i32,
    d: *const *mut u8,
    d_type: i32,
    ldd: i32,
    batch_count: i32,
    compute_type: i32,
    algo: i32,
) -> Result<()> {
    let (family, scalar) = ex_types(a_type, b_type, c_type, d_type, compute_type, algo)?;
    RawGemm {
        family,
        scalar,
        form: BatchForm::Pointers,
        trans_a,
        trans_b,
        m: m.into(),
        n: n.into(),
        k: k.into(),
        alpha,
        a: a.cast(),
        lda: lda.into(),
        stride_a: 0,
        b: b.cast(),
        ldb: ldb.into(),
        stride_b: 0,
        beta,
        c: c.cast(),
        ldc: ldc.into(),
        stride_c: 0,
        d: d as *mut u8,
        ldd: ldd.into(),
        stride_d: 0,
        batch: batch_count.into(),
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

/// Mixed precision (`gemm_ex`): inputs `A`, `B` of type `In`, output `C` of type `Out`,
/// updated in place, alpha and beta in `In`'s compute type. f16/bf16 inputs (f32 compute) with
/// f32 or same-type output (HSS, BSS, HHS, BBS in rocBLAS's terms); i8 inputs with i32 output
/// and i32 compute, wrapping modulo 2^32. Other pairings are `not_implemented`.
#[allow(clippy::too_many_arguments)]
pub fn gemm_ex<In: ExInput, Out: ExOutput>(
    handle: &Handle,
    trans_a: Operation,
    trans_b: Operation,
    m: usize,
    n: usize,
    k: usize,
    alpha: In::Compute,
    a: &DeviceBuffer<In>,
    lda: usize,
    b: &DeviceBuffer<In>,
    ldb: usize,
    beta: In::Compute,
    c: &mut DeviceBuffer<Out>,
    ldc: usize,
) -> Result<()> {
    gemm_strided_batched_ex(handle, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, Batch::ONE)
}

/// [`gemm_ex`] over a strided batch.
#[allow(clippy::too_many_arguments)]
pub fn gemm_strided_batched_ex<In: ExInput, Out: ExOutput>(
    handle: &Handle,
    trans_a: Operation,
    trans_b: Operation,
    m: usize,
    n: usize,
    k: usize,
    alpha: In::Compute,
    a: &DeviceBuffer<In>,
    lda: usize,
    b: &DeviceBuffer<In>,
    ldb: usize,
    beta: In::Compute,
    c: &mut DeviceBuffer<Out>,
    ldc: usize,
    batch: Batch,
) -> Result<()> {
    let family = ex_family::<In, Out>()?;
    let operands = Operands { a: a.as_ptr().cast(), b: b.as_ptr().cast(), c: c.as_mut_ptr().cast() };
    check_operands(handle, [trans_a, trans_b], [m, n, k], [(a, lda), (b, ldb)], (c, ldc), batch)?;
    let (alpha, beta) = (ex_scalar::<In>(alpha), ex_scalar::<In>(beta));
    run_safe(handle, family, [trans_a, trans_b], [m, n, k], alpha, beta, operands, [lda, ldb, ldc], batch)
}

/// D_i = alpha * op(A_i) * op(B_i) + beta * C_i for every entry i of the slices, in place in
/// `c[i]` (`gemm_batched`: any buffers, one matrix each, of the same shape). The pointer
/// arrays the kernels read are built and uploaded here. One A or B buffer may appear in several
/// entries; a C entry cannot alias another entry or an input, which the borrows already rule out.
#[allow(clippy::too_many_arguments)]
pub fn gemm_batched<T: Element>(
    handle: &Handle,
    trans_a: Operation,
    trans_b: Operation,
    m: usize,
    n: usize,
    k: usize,
    alpha: T,
    a: &[&DeviceBuffer<T>],
    lda: usize,
    b: &[&DeviceBuffer<T>],
    ldb: usize,
    beta: T,
    c: &mut [&mut DeviceBuffer<T>],
    ldc: usize,
) -> Result<()> {
    check_entries(handle, [trans_a, trans_b], [m, n, k], [(a, lda), (b, ldb)], (c, ldc))?;
    run_safe_batched(handle, T::FAMILY, [trans_a, trans_b], [m, n, k], scalar_of(alpha), scalar_of(beta), [a, b], c, [lda, ldb, ldc])
}

/// [`gemm_batched`] for the mixed-precision types of [`gemm_ex`] (`gemm_batched_ex`).
#[allow(clippy::too_many_arguments)]
pub fn gemm_batched_ex<In: ExInput, Out: ExOutput>(
    handle: &Handle,
    trans_a: Operation,
    trans_b: Operation,
    m: usize,
    n: usize,
    k: usize,
    alpha: In::Compute,
    a: &[&DeviceBuffer<In>],
    lda: usize,
    b: &[&DeviceBuffer<In>],
    ldb: usize,
    beta: In::Compute,
    c: &mut [&mut DeviceBuffer<Out>],
    ldc: usize,
) -> Result<()> {
    let family = ex_family::<In, Out>()?;
    check_entries(handle, [trans_a, trans_b], [m, n, k], [(a, lda), (b, ldb)], (c, ldc))?;
    let (alpha, beta) = (ex_scalar::<In>(alpha), ex_scalar::<In>(beta));
    run_safe_batched(handle, family, [trans_a, trans_b], [m, n, k], alpha, beta, [a, b], c, [lda, ldb, ldc])
}

fn ex_family<In: ExInput, Out: ExOutput>() -> Result<GemmFamily> {
    gemm_ex_family(In::DATATYPE, In::DATATYPE, Out::DATATYPE, Out::DATATYPE, In::COMPUTE).ok_or_else(|| {
        BlasError::new(Status::NotImplemented, "c", format!("{:?} output for {:?} input is not supported", Out::DATATYPE, In::DATATYPE))
    })
}

fn ex_scalar<In: ExInput>(v: In::Compute) -> Scalar {
    let ty = ScalarType::of_compute(In::COMPUTE).expect("every ExInput's compute type has a scalar type");
    // SAFETY: `v` is one value of the compute type, which `ty` names.
    unsafe { Scalar::read(ty, bytemuck::bytes_of(&v).as_ptr()) }
}

struct Operands {
    a: *const u8,
    b: *const u8,
    c: *mut u8,
}

/// Sizes and leading dimensions, in rocBLAS's order (before whether the buffers hold them).
fn check_shape([trans_a, trans_b]: [Operation; 2], [m, n, k]: [usize; 3], [lda, ldb, ldc]: [usize; 3], count: usize) -> Result<()> {
    let ra = op_shape(trans_a, m, k).0;
    let rb = op_shape(trans_b, k, n).0;
    for (name, v) in [("m", m), ("n", n), ("k", k), ("lda", lda), ("ldb", ldb), ("ldc", ldc), ("batch_count", count)] {
        to_i32(name, v)?;
    }
    for (name, ld, rows) in [("lda", lda, ra), ("ldb", ldb, rb), ("ldc", ldc, m)] {
        if ld < rows {
            return Err(size_err(name, format!("{ld} is less than the {rows} rows it must hold")));
        }
    }
    Ok(())
}

fn check_operands<In: bytemuck::Pod, Out: bytemuck::Pod>(
    handle: &Handle,
    [trans_a, trans_b]: [Operation; 2],
    [m, n, k]: [usize; 3],
    [(a, lda), (b, ldb)]: [(&DeviceBuffer<In>, usize); 2],
    (c, ldc): (&DeviceBuffer<Out>, usize),
    batch: Batch,
) -> Result<()> {
    check_shape([trans_a, trans_b], [m, n, k], [lda, ldb, ldc], batch.count)?;
    let (ra, ca) = op_shape(trans_a, m, k);
    let (rb, cb) = op_shape(trans_b, k, n);
    check_batched(handle, "a", a, ra, ca, lda, batch.stride_a, batch.count)?;
    check_batched(handle, "b", b, rb, cb, ldb, batch.stride_b, batch.count)?;
    check_batched(handle, "c", c, m, n, ldc, batch.stride_c, batch.count)
}

/// The pointer-array form: one matrix per buffer, as many A and B entries as C entries.
fn check_entries<In: bytemuck::Pod, Out: bytemuck::Pod>(
    handle: &Handle,
    [trans_a, trans_b]: [Operation; 2],
    [m, n, k]: [usize; 3],
    [(a, lda), (b, ldb)]: [(&[&DeviceBuffer<In>], usize); 2],
    (c, ldc): (&[&mut DeviceBuffer<Out>], usize),
) -> Result<()> {
    check_shape([trans_a, trans_b], [m, n, k], [lda, ldb, ldc], c.len())?;
    for (name, len) in [("a", a.len()), ("b", b.len())] {
        if len != c.len() {
            return Err(size_err(name, format!("{len} entries for a batch of {} C matrices", c.len())));
        }
    }
    let (ra, ca) = op_shape(trans_a, m, k);
    let (rb, cb) = op_shape(trans_b, k, n);
    for ((a, b), c) in a.iter().zip(b).zip(c) {
        check_batched(handle, "a", a, ra, ca, lda, 0, 1)?;
        check_batched(handle, "b", b, rb, cb, ldb, 0, 1)?;
        check_batched(handle, "c", c, m, n, ldc, 0, 1)?;
    }
    Ok(())
}

fn scalar_of<T: Element>(v: T) -> Scalar {
    let bytes = bytemuck::bytes_of(&v.to_compute()).to_vec();
    // SAFETY: `bytes` holds one value of T's compute type: f32 for the half family (whose API
    // scalar type is half), the API scalar type itself for every other.
    unsafe {
        match T::FAMILY {
            GemmFamily::H => Scalar::read(ScalarType::F32, bytes.as_ptr()),
            f => Scalar::read(ScalarType::of_family(f), bytes.as_ptr()),
        }
    }
}

/// Nothing to compute or write (rocBLAS's quick returns, which the safe API takes for every
/// family: alpha and beta are host values here).
fn quick_return([m, n, k]: [usize; 3], count: usize, alpha: Scalar, beta: Scalar) -> bool {
    m == 0 || n == 0 || count == 0 || (k == 0 || alpha.is_zero()) && beta.is_one()
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
    if quick_return([m, n, k], batch.count, alpha, beta) {
        return Ok(());
    }
    let call = GemmCall {
        family,
        form: BatchForm::Strided,
        trans_a,
        trans_b,
        m,
        n,
        k,
        scalars: Scalars::Value { alpha, beta },
        a: ops.a,
        lda,
        stride_a: batch.stride_a as i64,
        b: ops.b,
        ldb,
        stride_b: batch.stride_b as i64,
        c: ops.c as *const u8,
        ldc,
        stride_c: batch.stride_c as i64,
        d: ops.c,
        ldd: ldc,
        stride_d: batch.stride_c as i64,
        batch: batch.count,
    };
    // SAFETY: check_operands proved the buffers hold every element the call touches, on the
    // handle's device.
    unsafe { call.execute(handle) }
}

#[allow(clippy::too_many_arguments)]
fn run_safe_batched<In: bytemuck::Pod, Out: bytemuck::Pod>(
    handle: &Handle,
    family: GemmFamily,
    [trans_a, trans_b]: [Operation; 2],
    [m, n, k]: [usize; 3],
    alpha: Scalar,
    beta: Scalar,
    [a, b]: [&[&DeviceBuffer<In>]; 2],
    c: &mut [&mut DeviceBuffer<Out>],
    [lda, ldb, ldc]: [usize; 3],
) -> Result<()> {
    if quick_return([m, n, k], c.len(), alpha, beta) {
        return Ok(());
    }
    // Device pointers are 64-bit on every device (host pointers on the CPU, a 64-bit target).
    let a_ptrs: Vec<u64> = a.iter().map(|x| x.as_ptr() as u64).collect();
    let b_ptrs: Vec<u64> = b.iter().map(|x| x.as_ptr() as u64).collect();
    let c_ptrs: Vec<u64> = c.iter_mut().map(|x| x.as_mut_ptr() as u64).collect();
    let queue = handle.queue();
    // On a GPU the kernels read the arrays from device memory (from_slice waits for the copy).
    let on_device = |v: &[u64]| -> Result<Option<DeviceBuffer<u64>>> {
        Ok(if handle.device().is_gpu() { Some(DeviceBuffer::from_slice(queue, v)?) } else { None })
    };
    let (a_dev, b_dev, c_dev) = (on_device(&a_ptrs)?, on_device(&b_ptrs)?, on_device(&c_ptrs)?);
    let addr = |dev: &Option<DeviceBuffer<u64>>, host: &[u64]| dev.as_ref().map_or(host.as_ptr(), |d| d.as_ptr()) as *const u8;
    let c_arr = addr(&c_dev, &c_ptrs);
    let call = GemmCall {
        family,
        form: BatchForm::Pointers,
        trans_a,
        trans_b,
        m,
        n,
        k,
        scalars: Scalars::Value { alpha, beta },
        a: addr(&a_dev, &a_ptrs),
        lda,
        stride_a: 0,
        b: addr(&b_dev, &b_ptrs),
        ldb,
        stride_b: 0,
        c: c_arr,
        ldc,
        stride_c: 0,
        d: c_arr as *mut u8,
        ldd: ldc,
        stride_d: 0,
        batch: c.len(),
    };
    // SAFETY: check_entries proved every buffer holds its matrix, on the handle's device; the
    // arrays hold one pointer per entry.
    unsafe { call.execute(handle)? };
    // The kernels read the pointer arrays: they must outlive the launches.
    if handle.device().is_gpu() {
        queue.synchronize()?;
    }
    Ok(())
}
