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

/// An input type (A and B) of the mixed-precision `gemm_ex` forms, with its compute type:
/// f16 and bf16 compute in f32, i8 in i32. alpha and beta have the compute type.
pub trait ExInput: Pod + Send + Sync + std::fmt::Debug + 'static {
    const DATATYPE: Datatype;
    /// The compute type's datatype (`compute_type` of `rocblas_gemm_ex`).
    const COMPUTE: Datatype;
    type Compute: Pod + PartialEq + std::fmt::Debug;
}

/// A 16-bit floating-point input of `gemm_ex` (computed in f32).
pub trait HalfLike: ExInput<Compute = f32> {}

impl ExInput for f16 {
    const DATATYPE: Datatype = Datatype::F16R;
    const COMPUTE: Datatype = Datatype::F32R;
    type Compute = f32;
}
impl ExInput for bf16 {
    const DATATYPE: Datatype = Datatype::Bf16R;
    const COMPUTE: Datatype = Datatype::F32R;
    type Compute = f32;
}
impl HalfLike for f16 {}
impl HalfLike for bf16 {}

/// i8 inputs: products and sums in i32, wrapping modulo 2^32 (as rocBLAS's integer GEMM).
impl ExInput for i8 {
    const DATATYPE: Datatype = Datatype::I8R;
    const COMPUTE: Datatype = Datatype::I32R;
    type Compute = i32;
}

/// An output type (C and D) of the `gemm_ex` forms: f32 or the input's 16-bit type for
/// 16-bit inputs, i32 for i8 inputs. Other pairings are refused with `not_implemented`.
pub trait ExOutput: Pod + Send + Sync + std::fmt::Debug + 'static {
    const DATATYPE: Datatype;
}

impl ExOutput for f16 {
    const DATATYPE: Datatype = Datatype::F16R;
}
impl ExOutput for bf16 {
    const DATATYPE: Datatype = Datatype::Bf16R;
}
impl ExOutput for f32 {
    const DATATYPE: Datatype = Datatype::F32R;
}
impl ExOutput for i32 {
    const DATATYPE: Datatype = Datatype::I32R;
}
