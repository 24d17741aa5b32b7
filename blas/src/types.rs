//! rocBLAS's enums and statuses, with ROCm's numbering (rocblas-types.h), and the Rust error type.
use std::fmt;

/// `rocblas_status`, same numbers as ROCm.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Success = 0,
    InvalidHandle = 1,
    NotImplemented = 2,
    InvalidPointer = 3,
    InvalidSize = 4,
    MemoryError = 5,
    InternalError = 6,
    PerfDegraded = 7,
    SizeQueryMismatch = 8,
    SizeIncreased = 9,
    SizeUnchanged = 10,
    InvalidValue = 11,
    Continue = 12,
    CheckNumericsFail = 13,
    ExcludedFromBuild = 14,
    ArchMismatch = 15,
}

impl Status {
    /// The C enumerator's name, as `rocblas_status_to_string` returns it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Success => "rocblas_status_success",
            Status::InvalidHandle => "rocblas_status_invalid_handle",
            Status::NotImplemented => "rocblas_status_not_implemented",
            Status::InvalidPointer => "rocblas_status_invalid_pointer",
            Status::InvalidSize => "rocblas_status_invalid_size",
            Status::MemoryError => "rocblas_status_memory_error",
            Status::InternalError => "rocblas_status_internal_error",
            Status::PerfDegraded => "rocblas_status_perf_degraded",
            Status::SizeQueryMismatch => "rocblas_status_size_query_mismatch",
            Status::SizeIncreased => "rocblas_status_size_increased",
            Status::SizeUnchanged => "rocblas_status_size_unchanged",
            Status::InvalidValue => "rocblas_status_invalid_value",
            Status::Continue => "rocblas_status_continue",
            Status::CheckNumericsFail => "rocblas_status_check_numerics_fail",
            Status::ExcludedFromBuild => "rocblas_status_excluded_from_build",
            Status::ArchMismatch => "rocblas_status_arch_mismatch",
        }
    }

    pub fn from_raw(v: i32) -> Option<Status> {
        use Status::*;
        const ALL: [Status; 16] = [
            Success, InvalidHandle, NotImplemented, InvalidPointer, InvalidSize, MemoryError, InternalError,
            PerfDegraded, SizeQueryMismatch, SizeIncreased, SizeUnchanged, InvalidValue, Continue,
            CheckNumericsFail, ExcludedFromBuild, ArchMismatch,
        ];
        ALL.get(usize::try_from(v).ok()?).copied()
    }
}

/// `rocblas_operation`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    None = 111,
    Transpose = 112,
    ConjugateTranspose = 113,
}

impl Operation {
    pub fn from_raw(v: i32) -> Option<Operation> {
        match v {
            111 => Some(Operation::None),
            112 => Some(Operation::Transpose),
            113 => Some(Operation::ConjugateTranspose),
            _ => None,
        }
    }
    /// rocblas-bench's letter: N, T or C.
    pub fn letter(self) -> char {
        match self {
            Operation::None => 'N',
            Operation::Transpose => 'T',
            Operation::ConjugateTranspose => 'C',
        }
    }
    pub fn from_letter(c: &str) -> Option<Operation> {
        match c {
            "N" | "n" => Some(Operation::None),
            "T" | "t" => Some(Operation::Transpose),
            "C" | "c" => Some(Operation::ConjugateTranspose),
            _ => None,
        }
    }
}

/// `rocblas_pointer_mode`: where alpha and beta live.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PointerMode {
    #[default]
    Host = 0,
    Device = 1,
}

impl PointerMode {
    pub fn from_raw(v: i32) -> Option<PointerMode> {
        match v {
            0 => Some(PointerMode::Host),
            1 => Some(PointerMode::Device),
            _ => None,
        }
    }
}

/// How a complex f32 GEMM runs on a GPU (see [`crate::Handle::set_complex_gemm_route`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComplexGemmRoute {
    /// On the complex kernels (`gemm_c_*`).
    Direct,
    /// As one real f32 product on the `s` kernels: op(A) expanded to 2 x 2 real blocks in the
    /// handle's scratch (the 1m method), op(B) copied k x n where it is transposed.
    AsReal,
}

/// `rocblas_math_mode`: whether single-precision GEMMs may use reduced-precision (xf32/TF32)
/// matrix-core products.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MathMode {
    #[default]
    Default = 0,
    /// `rocblas_xf32_xdl_math_op`: f32 GEMMs round products to xf32 (TF32 on NVIDIA).
    Xf32XdlMathOp = 1,
}

impl MathMode {
    pub fn from_raw(v: i32) -> Option<MathMode> {
        match v {
            0 => Some(MathMode::Default),
            1 => Some(MathMode::Xf32XdlMathOp),
            _ => None,
        }
    }
}

/// `rocblas_datatype`, same numbers as ROCm.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Datatype {
    F16R = 150,
    F32R = 151,
    F64R = 152,
    F16C = 153,
    F32C = 154,
    F64C = 155,
    I8R = 160,
    U8R = 161,
    I32R = 162,
    U32R = 163,
    I8C = 164,
    U8C = 165,
    I32C = 166,
    U32C = 167,
    Bf16R = 168,
    Bf16C = 169,
    Invalid = 255,
}

impl Datatype {
    pub fn from_raw(v: i32) -> Option<Datatype> {
        use Datatype::*;
        Some(match v {
            150 => F16R,
            151 => F32R,
            152 => F64R,
            153 => F16C,
            154 => F32C,
            155 => F64C,
            160 => I8R,
            161 => U8R,
            162 => I32R,
            163 => U32R,
            164 => I8C,
            165 => U8C,
            166 => I32C,
            167 => U32C,
            168 => Bf16R,
            169 => Bf16C,
            255 => Invalid,
            _ => return None,
        })
    }
}

/// An error from a BLAS call: the rocBLAS status it maps to, the argument at fault, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct BlasError {
    pub status: Status,
    /// The offending argument's name (`"lda"`, `"handle"`, ...), or the failing stage.
    pub argument: &'static str,
    pub reason: String,
}

impl BlasError {
    pub fn new(status: Status, argument: &'static str, reason: impl Into<String>) -> BlasError {
        BlasError { status, argument, reason: reason.into() }
    }
}

impl fmt::Display for BlasError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (argument `{}`): {}", self.status.name(), self.argument, self.reason)
    }
}

impl std::error::Error for BlasError {}

impl From<rocmath_runtime::Error> for BlasError {
    fn from(e: rocmath_runtime::Error) -> BlasError {
        use rocmath_runtime::Error as E;
        let status = match &e {
            E::InvalidArgument { .. } => Status::InvalidValue,
            E::Driver { name, .. } if name.contains("OUT_OF_MEMORY") || name.contains("OutOfMemory") => {
                Status::MemoryError
            }
            _ => Status::InternalError,
        };
        BlasError::new(status, "runtime", e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, BlasError>;
