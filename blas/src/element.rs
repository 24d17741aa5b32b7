//! Element types and the scalar arithmetic the generic code needs.
use crate::types::Datatype;
use bytemuck::Pod;
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rocmath_kernels::blas::GemmFamily;

/// An element type of the typed GEMM API (`rocblas_{s,d,c,z,h}gemm`).
pub trait Element: Pod + Send + Sync + PartialEq + std::fmt::Debug + 'static {
    /// The kernel family that implements `gemm` for this type.
    const FAMILY: GemmFamily;
    const DATATYPE: Datatype;
    /// rocblas-bench's precision letter.
    const PRECISION: &'static str;
    /// The type kernels take alpha/beta in by value (f32 for f16; the type itself otherwise).
    type Compute: Pod + PartialEq;
    const ZERO: Self;
    const ONE: Self;
    fn to_compute(self) -> Self::Compute;
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
    fn is_one(self) -> bool {
        self == Self::ONE
    }
    /// Multiplies by a scalar (used for `C = beta * C` quick paths).
    fn scale(self, by: Self) -> Self;
}

macro_rules! element {
    ($t:ty, $fam:ident, $dt:ident, $p:literal, $compute:ty, $zero:expr, $one:expr, $to:expr, $scale:expr) => {
        impl Element for $t {
            const FAMILY: GemmFamily = GemmFamily::$fam;
            const DATATYPE: Datatype = Datatype::$dt;
            const PRECISION: &'static str = $p;
            type Compute = $compute;
            const ZERO: Self = $zero;
            const ONE: Self = $one;
            fn to_compute(self) -> $compute {
                ($to)(self)
            }
            fn scale(self, by: Self) -> Self {
                ($scale)(self, by)
            }
        }
    };
}

element!(f32, S, F32R, "s", f32, 0.0, 1.0, |x| x, |x: f32, b: f32| x * b);
element!(f64, D, F64R, "d", f64, 0.0, 1.0, |x| x, |x: f64, b: f64| x * b);
element!(Complex32, C, F32C, "c", Complex32, Complex32::new(0.0, 0.0), Complex32::new(1.0, 0.0), |x| x, |x, b| x * b);
element!(Complex64, Z, F64C, "z", Complex64, Complex64::new(0.0, 0.0), Complex64::new(1.0, 0.0), |x| x, |x, b| x * b);
element!(f16, H, F16R, "h", f32, f16::ZERO, f16::ONE, |x: f16| x.to_f32(), |x: f16, b: f16| f16::from_f32(
    x.to_f32() * b.to_f32()
));

/// A 16-bit input or output of `gemm_ex` (converted through f32, which is the compute type).
pub trait HalfLike: Pod + Send + Sync + std::fmt::Debug + 'static {
    const DATATYPE: Datatype;
    fn to_f32(self) -> f32;
    fn from_f32(v: f32) -> Self;
}

impl HalfLike for f16 {
    const DATATYPE: Datatype = Datatype::F16R;
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
    fn from_f32(v: f32) -> Self {
        f16::from_f32(v)
    }
}

impl HalfLike for bf16 {
    const DATATYPE: Datatype = Datatype::Bf16R;
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
    fn from_f32(v: f32) -> Self {
        bf16::from_f32(v)
    }
}

/// An output type of the mixed-precision `gemm_ex` forms: f32, or the input's own 16-bit type.
pub trait ExOutput: Pod + Send + Sync + std::fmt::Debug + 'static {
    const DATATYPE: Datatype;
    fn to_f32(self) -> f32;
    fn from_f32(v: f32) -> Self;
}

impl<T: HalfLike> ExOutput for T {
    const DATATYPE: Datatype = T::DATATYPE;
    fn to_f32(self) -> f32 {
        HalfLike::to_f32(self)
    }
    fn from_f32(v: f32) -> Self {
        HalfLike::from_f32(v)
    }
}

impl ExOutput for f32 {
    const DATATYPE: Datatype = Datatype::F32R;
    fn to_f32(self) -> f32 {
        self
    }
    fn from_f32(v: f32) -> Self {
        v
    }
}
