//! rocFFT's enums and statuses, with ROCm's numbering (rocfft.h: every enum is 0-based), and the
//! Rust error type.
use std::fmt;

/// `rocfft_status`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Success = 0,
    Failure = 1,
    InvalidArgValue = 2,
    InvalidDimensions = 3,
    InvalidArrayType = 4,
    InvalidStrides = 5,
    InvalidDistance = 6,
    InvalidOffset = 7,
    InvalidWorkBuffer = 8,
}

impl Status {
    /// The C enumerator's name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Success => "rocfft_status_success",
            Status::Failure => "rocfft_status_failure",
            Status::InvalidArgValue => "rocfft_status_invalid_arg_value",
            Status::InvalidDimensions => "rocfft_status_invalid_dimensions",
            Status::InvalidArrayType => "rocfft_status_invalid_array_type",
            Status::InvalidStrides => "rocfft_status_invalid_strides",
            Status::InvalidDistance => "rocfft_status_invalid_distance",
            Status::InvalidOffset => "rocfft_status_invalid_offset",
            Status::InvalidWorkBuffer => "rocfft_status_invalid_work_buffer",
        }
    }
}

/// `rocfft_transform_type`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransformType {
    ComplexForward = 0,
    ComplexInverse = 1,
    RealForward = 2,
    RealInverse = 3,
}

impl TransformType {
    pub fn from_raw(v: i32) -> Option<TransformType> {
        use TransformType::*;
        [ComplexForward, ComplexInverse, RealForward, RealInverse].get(usize::try_from(v).ok()?).copied()
    }
    pub fn is_real(self) -> bool {
        matches!(self, TransformType::RealForward | TransformType::RealInverse)
    }
    /// The sign of the exponent: -1 forward, +1 inverse (rocFFT's inverse is unnormalised).
    pub fn sign(self) -> i32 {
        match self {
            TransformType::ComplexForward | TransformType::RealForward => -1,
            TransformType::ComplexInverse | TransformType::RealInverse => 1,
        }
    }
}

/// `rocfft_precision`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    Single = 0,
    Double = 1,
    Half = 2,
}

impl Precision {
    pub fn from_raw(v: i32) -> Option<Precision> {
        use Precision::*;
        [Single, Double, Half].get(usize::try_from(v).ok()?).copied()
    }
    /// Bytes of one real scalar.
    pub fn real_bytes(self) -> usize {
        match self {
            Precision::Single => 4,
            Precision::Double => 8,
            Precision::Half => 2,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Precision::Single => "single",
            Precision::Double => "double",
            Precision::Half => "half",
        }
    }
}

/// `rocfft_result_placement`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    InPlace = 0,
    NotInPlace = 1,
}

impl Placement {
    pub fn from_raw(v: i32) -> Option<Placement> {
        [Placement::InPlace, Placement::NotInPlace].get(usize::try_from(v).ok()?).copied()
    }
}

/// `rocfft_array_type`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayType {
    ComplexInterleaved = 0,
    ComplexPlanar = 1,
    Real = 2,
    HermitianInterleaved = 3,
    HermitianPlanar = 4,
    Unset = 5,
}

impl ArrayType {
    pub fn from_raw(v: i32) -> Option<ArrayType> {
        use ArrayType::*;
        [ComplexInterleaved, ComplexPlanar, Real, HermitianInterleaved, HermitianPlanar, Unset]
            .get(usize::try_from(v).ok()?)
            .copied()
    }
    /// Planar arrays live in two buffers (real parts, imaginary parts).
    pub fn is_planar(self) -> bool {
        matches!(self, ArrayType::ComplexPlanar | ArrayType::HermitianPlanar)
    }
    /// How many buffers `rocfft_execute` reads for this array type.
    pub fn buffer_count(self) -> usize {
        if self.is_planar() {
            2
        } else {
            1
        }
    }
    /// Scalars per element in one buffer: 2 for interleaved complex, 1 for real and planar.
    pub fn scalars_per_element(self) -> usize {
        match self {
            ArrayType::ComplexInterleaved | ArrayType::HermitianInterleaved => 2,
            _ => 1,
        }
    }
}

/// An FFT error: the rocFFT status, the argument at fault, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FftError {
    pub status: Status,
    pub arg: &'static str,
    pub reason: String,
}

impl FftError {
    pub fn new(status: Status, arg: &'static str, reason: impl Into<String>) -> FftError {
        FftError { status, arg, reason: reason.into() }
    }
}

impl fmt::Display for FftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.arg, self.status.name(), self.reason)
    }
}

impl std::error::Error for FftError {}

impl From<rocmath_runtime::Error> for FftError {
    fn from(e: rocmath_runtime::Error) -> FftError {
        FftError::new(Status::Failure, "device", e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, FftError>;
