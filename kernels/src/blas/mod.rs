//! BLAS kernels: GEMM (`gemm.hip`) and the typed model that names, instantiates and launches it.
//!
//! The generator ([`crate::gen::gemm`]) emits one module per (family, config, batch form) holding
//! every transpose combination. Kernel contract (all kernels, this parameter order):
//!
//! ```text
//! extern "C" __global__ void <name>(
//!     int m, int n, int k,
//!     Tcompute alpha, Tcompute beta,                     // by value (host pointer mode)
//!     const Tscalar* alpha_ptr, const Tscalar* beta_ptr, // device pointer mode when non-null
//!     const Tab* A, long long lda, long long stride_a,
//!     const Tab* B, long long ldb, long long stride_b,
//!     const Tc*  C, long long ldc, long long stride_c,
//!     Tc*        D, long long ldd, long long stride_d)
//! ```
//!
//! Pointer-array kernels (`_pa`) take `const Tab* const* A` (and likewise B, C, D): batch i uses
//! A[i] + stride_a, so the strides act as element offsets.
//!
//! D = alpha*op(A)*op(B) + beta*C, column-major, batch = blockIdx.z. beta == 0 => C is not read;
//! alpha == 0 or k == 0 => A and B are not read. D may alias C (ldd == ldc).
//! By-value complex scalars are `struct {float x, y;}` (8 bytes, align 4) / `struct {double x, y;}`
//! (16 bytes, align 8); for the `h` family alpha/beta by value are `float` and the pointers point
//! to `half`.
//!
//! Real families have no conjugate: [`GemmKernel::kernel_name`] maps `Trans::C` to `Trans::T`
//! for them, and their modules hold only the 4 distinct kernels (nn, nt, tn, tt). Complex
//! families hold all 9.

use crate::atoms::AtomInput;

/// The GEMM kernel source (`src/blas/gemm.hip`), include-free.
pub const GEMM_HIP: &str = include_str!("gemm.hip");
/// The sm_90a TMA + wgmma mainloop (`src/blas/gemm_sm90.hip`), appended after `gemm.hip`.
pub const GEMM_SM90_HIP: &str = include_str!("gemm_sm90.hip");

/// The translation unit of a hand-written BLAS module: a header naming `module`, the prelude,
/// and `body`, the text of `src/blas/<file>`.
fn standalone_source(module: &str, file: &str, body: &str) -> String {
    format!("// rocmath-kernels module {module} (generated, do not edit)\n{}\n// ---- src/blas/{file} ----\n{body}", crate::prelude())
}

/// The batched transposing copies of 32-bit and 8-bit elements (`src/blas/transpose.hip`) that
/// put the operands of the tf32 and s8 wgmma kernels k-contiguous.
pub struct TransposeKernel;

impl TransposeKernel {
    pub const MODULE: &'static str = "blas_transpose";
    /// The kernels, by element size.
    pub const KERNEL: &'static str = "rm_blas_transpose_b32";
    pub const KERNEL_B8: &'static str = "rm_blas_transpose_b8";
    /// Threads per block (32 x 8 over a 32 x 32 tile).
    pub const THREADS: u32 = 256;
    /// Rows and columns of one block's tile (32-bit elements).
    pub const TILE: u32 = 32;
    /// Rows and columns of one block's tile (bytes).
    pub const TILE_B8: u32 = 64;

    /// The translation unit: prelude + transpose.hip.
    pub fn source() -> String {
        standalone_source(Self::MODULE, "transpose.hip", include_str!("transpose.hip"))
    }
}

/// The copies that run a complex f32 GEMM as one real f32 GEMM (`src/blas/complex_real.hip`):
/// op(A) expanded to 2 x 2 real blocks with alpha folded in, op(B) copied k x n where it is not
/// N, and C scaled by a beta off the real axis.
pub struct ComplexRealKernels;

impl ComplexRealKernels {
    pub const MODULE: &'static str = "blas_c32_real";
    pub const PACK: &'static str = "rm_blas_c32_pack";
    pub const SCALE: &'static str = "rm_blas_c32_scale";
    /// Threads per block of both kernels (the pack: 32 x 8 over a 32 x 32 tile).
    pub const THREADS: u32 = 256;
    /// Rows and columns of one pack block's tile.
    pub const TILE: u32 = 32;

    /// The translation unit: prelude + complex_real.hip.
    pub fn source() -> String {
        standalone_source(Self::MODULE, "complex_real.hip", include_str!("complex_real.hip"))
    }
}

/// Element-type family (A/B type, C/D type, compute/by-value scalar type, scalar pointer type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GemmFamily {
    /// f32, f32, f32, f32
    S,
    /// f64, f64, f64, f64
    D,
    /// c32, c32, c32, c32
    C,
    /// c64, c64, c64, c64
    Z,
    /// f16, f16, f32 (converted from half on the API side), half
    H,
    /// f16, f32, f32, f32
    Hss,
    /// bf16, f32, f32, f32
    Bss,
    /// f16, f16, f32, f32
    Hhs,
    /// bf16, bf16, f32, f32
    Bbs,
    /// i8, i32, i32, i32 (integer products and sums wrap modulo 2^32)
    I8,
    /// f32, f32, f32, f32 with the products rounded to TF32 (xf32 math mode)
    Xf32,
}

/// Operation applied to A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trans {
    N,
    T,
    /// Conjugate transpose (same as T for real families).
    C,
}

/// How the inner product is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GemmVariant {
    /// Register-tiled scalar FMA, every arch, every family.
    Fma,
    /// NVIDIA tensor cores through `mma.sync` (sm_80+).
    Mma,
    /// AMD matrix cores through MFMA (gfx90a, gfx94x, gfx950).
    Mfma,
    /// NVIDIA Hopper warpgroup MMA fed by TMA (sm_90a; 16-bit inputs, strided batches).
    Wgmma,
}

impl GemmFamily {
    pub const ALL: [GemmFamily; 11] = [
        GemmFamily::S,
        GemmFamily::D,
        GemmFamily::C,
        GemmFamily::Z,
        GemmFamily::H,
        GemmFamily::Hss,
        GemmFamily::Bss,
        GemmFamily::Hhs,
        GemmFamily::Bbs,
        GemmFamily::I8,
        GemmFamily::Xf32,
    ];

    /// Short name used in kernel names (`s`, `hss`, ...).
    pub fn tag(self) -> &'static str {
        match self {
            GemmFamily::S => "s",
            GemmFamily::D => "d",
            GemmFamily::C => "c",
            GemmFamily::Z => "z",
            GemmFamily::H => "h",
            GemmFamily::Hss => "hss",
            GemmFamily::Bss => "bss",
            GemmFamily::Hhs => "hhs",
            GemmFamily::Bbs => "bbs",
            GemmFamily::I8 => "i8",
            GemmFamily::Xf32 => "xf32",
        }
    }

    /// The family with this [`tag`](Self::tag).
    pub fn from_tag(tag: &str) -> Option<GemmFamily> {
        GemmFamily::ALL.into_iter().find(|f| f.tag() == tag)
    }

    pub fn is_complex(self) -> bool {
        matches!(self, GemmFamily::C | GemmFamily::Z)
    }

    /// The A/B input element kind.
    pub fn input(self) -> AtomInput {
        match self {
            GemmFamily::S | GemmFamily::C => AtomInput::F32,
            GemmFamily::D | GemmFamily::Z => AtomInput::F64,
            GemmFamily::H | GemmFamily::Hss | GemmFamily::Hhs => AtomInput::F16,
            GemmFamily::Bss | GemmFamily::Bbs => AtomInput::Bf16,
            GemmFamily::I8 => AtomInput::I8,
            GemmFamily::Xf32 => AtomInput::Tf32,
        }
    }

    /// Whether an atom multiplying `input` computes this family (exactly, or, for xf32, at
    /// least as precisely as TF32).
    pub fn accepts(self, input: AtomInput) -> bool {
        input == AtomInput::Compute
            || input == self.input()
            || (self == GemmFamily::Xf32 && input == AtomInput::F32)
            || (self == GemmFamily::Z && input == AtomInput::C64)
    }

    /// C++ compute (accumulator) type.
    pub fn compute_cpp(self) -> &'static str {
        match self {
            GemmFamily::D => "double",
            GemmFamily::C => "rm_c32",
            GemmFamily::Z => "rm_c64",
            GemmFamily::I8 => "int",
            _ => "float",
        }
    }

    /// Bytes of one A/B element as stored.
    pub fn ab_bytes(self) -> u32 {
        match self {
            GemmFamily::S | GemmFamily::Xf32 => 4,
            GemmFamily::D | GemmFamily::C => 8,
            GemmFamily::Z => 16,
            GemmFamily::I8 => 1,
            _ => 2,
        }
    }

    /// Bytes of one C/D element as stored.
    pub fn c_bytes(self) -> u32 {
        match self {
            GemmFamily::H | GemmFamily::Hhs | GemmFamily::Bbs => 2,
            GemmFamily::Hss | GemmFamily::Bss | GemmFamily::I8 => 4,
            _ => self.ab_bytes(),
        }
    }

    /// Bytes of the compute type.
    pub fn compute_bytes(self) -> u32 {
        match self {
            GemmFamily::D | GemmFamily::C => 8,
            GemmFamily::Z => 16,
            _ => 4,
        }
    }

    /// C++ typedef of the family's types (`rm_gemm_ty_<tag>` in gemm.hip).
    pub fn types_cpp(self) -> String {
        format!("rm_gemm_ty_{}", self.tag())
    }
}

impl Trans {
    pub const ALL: [Trans; 3] = [Trans::N, Trans::T, Trans::C];

    pub fn tag(self) -> char {
        match self {
            Trans::N => 'n',
            Trans::T => 't',
            Trans::C => 'c',
        }
    }

    pub(crate) fn cpp(self) -> &'static str {
        match self {
            Trans::N => "RM_OP_N",
            Trans::T => "RM_OP_T",
            Trans::C => "RM_OP_C",
        }
    }
}

impl GemmVariant {
    pub const ALL: [GemmVariant; 4] = [GemmVariant::Fma, GemmVariant::Mma, GemmVariant::Mfma, GemmVariant::Wgmma];

    pub fn tag(self) -> &'static str {
        match self {
            GemmVariant::Fma => "fma",
            GemmVariant::Mma => "mma",
            GemmVariant::Mfma => "mfma",
            GemmVariant::Wgmma => "wgmma",
        }
    }
}

/// A parsed target architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    /// NVIDIA `sm_XY` (XY as a number, e.g. 90).
    Nvidia(u32),
    /// AMD `gfxNNN` (kept as a short string code: the generation digits and letter).
    Amd(AmdArch),
}

/// AMD targets the kernels know about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AmdArch {
    /// gfx90a, gfx940, gfx941, gfx942, gfx950: MFMA with the bf16_1k and f64 forms, wave64.
    Cdna23,
    /// Any other gfx target (gfx908, RDNA ...): FMA only.
    Other,
}

impl Arch {
    /// Parse "sm_90", "sm_90a", "gfx942", "gfx90a:sramecc+:xnack-", "gfx1100".
    pub fn parse(arch: &str) -> Option<Arch> {
        let base = arch.split(':').next().unwrap_or("").trim().to_ascii_lowercase();
        if let Some(rest) = base.strip_prefix("sm_") {
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            let tail = &rest[digits.len()..];
            if digits.is_empty() || !(tail.is_empty() || tail == "a" || tail == "f") {
                return None;
            }
            return digits.parse().ok().map(Arch::Nvidia);
        }
        if let Some(rest) = base.strip_prefix("gfx") {
            if rest.is_empty() || !rest.chars().all(|c| c.is_ascii_alphanumeric()) {
                return None;
            }
            return Some(Arch::Amd(match rest {
                "90a" | "940" | "941" | "942" | "950" => AmdArch::Cdna23,
                _ => AmdArch::Other,
            }));
        }
        None
    }
}

pub use crate::gen::gemm::{instantiations, GemmConfig, GemmKernel, LaunchDims};
