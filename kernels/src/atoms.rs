//! Matrix-core atoms: one header per instruction (`include/atoms/*.h`) and their Rust model.
//!
//! The C++ side is the source of truth for the lane layouts (each header documents its layout);
//! this model carries what the Rust side needs to name kernels, validate configs and compute
//! launch dimensions.

/// `include/atoms/atom_interface.h`: the common interface and AMD vector typedefs.
pub const INTERFACE: &str = include_str!("../include/atoms/atom_interface.h");

/// All atom headers, in the order they are concatenated into a translation unit.
pub const HEADERS: &[(&str, &str)] = &[
    ("atoms/atom_interface.h", INTERFACE),
    ("atoms/fma.h", include_str!("../include/atoms/fma.h")),
    ("atoms/fma_warp.h", include_str!("../include/atoms/fma_warp.h")),
    ("atoms/mfma_f32_32x32x8f16.h", include_str!("../include/atoms/mfma_f32_32x32x8f16.h")),
    ("atoms/mfma_f32_16x16x16f16.h", include_str!("../include/atoms/mfma_f32_16x16x16f16.h")),
    ("atoms/mfma_f32_32x32x8bf16_1k.h", include_str!("../include/atoms/mfma_f32_32x32x8bf16_1k.h")),
    ("atoms/mfma_f32_16x16x16bf16_1k.h", include_str!("../include/atoms/mfma_f32_16x16x16bf16_1k.h")),
    ("atoms/mfma_f32_32x32x2f32.h", include_str!("../include/atoms/mfma_f32_32x32x2f32.h")),
    ("atoms/mfma_f64_16x16x4f64.h", include_str!("../include/atoms/mfma_f64_16x16x4f64.h")),
    ("atoms/mfma_f64_16x16x4_z.h", include_str!("../include/atoms/mfma_f64_16x16x4_z.h")),
    ("atoms/mma_m16n8k16_f16.h", include_str!("../include/atoms/mma_m16n8k16_f16.h")),
    ("atoms/mma_m16n8k16_bf16.h", include_str!("../include/atoms/mma_m16n8k16_bf16.h")),
    ("atoms/mma_m8n8k4_f64.h", include_str!("../include/atoms/mma_m8n8k4_f64.h")),
    ("atoms/mma_m16n8k16_f64.h", include_str!("../include/atoms/mma_m16n8k16_f64.h")),
    ("atoms/mma_m16n8k8_f64.h", include_str!("../include/atoms/mma_m16n8k8_f64.h")),
    ("atoms/mma_z.h", include_str!("../include/atoms/mma_z.h")),
    ("atoms/mma_m16n8k8_tf32.h", include_str!("../include/atoms/mma_m16n8k8_tf32.h")),
    ("atoms/mma_m16n8k32_s8.h", include_str!("../include/atoms/mma_m16n8k32_s8.h")),
];

/// Which hardware an atom runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vendor {
    /// Any GPU (plain FMA).
    Any,
    /// AMD CDNA (gfx90a, gfx94x, gfx950): MFMA.
    Amd,
    /// NVIDIA sm_80 and newer: `mma.sync`.
    Nvidia,
}

/// One matrix instruction (or the scalar FMA).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// Scalar fused multiply-add in the compute type, one thread.
    Fma,
    /// f32 fused multiply-adds, warp-tiled: 32 lanes, each a 4 x 4 outer product from two
    /// 16-byte LDS reads (`include/atoms/fma_warp.h`; any GPU).
    FmaWarp,
    /// `v_mfma_f32_32x32x8f16`
    MfmaF32_32x32x8F16,
    /// `v_mfma_f32_16x16x16f16`
    MfmaF32_16x16x16F16,
    /// `v_mfma_f32_32x32x8bf16_1k`
    MfmaF32_32x32x8Bf16_1k,
    /// `v_mfma_f32_16x16x16bf16_1k`
    MfmaF32_16x16x16Bf16_1k,
    /// `v_mfma_f32_32x32x2f32`
    MfmaF32_32x32x2F32,
    /// `v_mfma_f64_16x16x4f64`
    MfmaF64_16x16x4F64,
    /// Complex f64 on `v_mfma_f64_16x16x4f64`: an 8 x 16 x 2 block of complex elements as one
    /// 16 x 16 x 4 real product (`include/atoms/mfma_f64_16x16x4_z.h`).
    MfmaF64_16x16x4Z,
    /// `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`
    MmaM16n8k16F16,
    /// `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`
    MmaM16n8k16Bf16,
    /// `mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64`
    MmaM8n8k4F64,
    /// `mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64` (sm_90 only)
    MmaM16n8k16F64,
    /// `mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64` (sm_90 only)
    MmaM16n8k8F64,
    /// Complex f64 on `mma.sync.aligned.m16n8k16.row.col.f64` (sm_90 only): an 8 x 8 x 8 block
    /// of complex elements as one 16 x 8 x 16 real product (`include/atoms/mma_z.h`).
    MmaM16n8k16Z,
    /// Complex f64 on `mma.sync.aligned.m16n8k8.row.col.f64` (sm_90 only): 8 x 8 x 4 complex as
    /// one 16 x 8 x 8 real product, half the fragment registers (`include/atoms/mma_z.h`).
    MmaM16n8k8Z,
    /// `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`
    MmaM16n8k8Tf32,
    /// `mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32`
    MmaM16n8k32S8,
    /// `wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16` (sm_90a, one warpgroup; N is the
    /// config's macro tile N; operands from shared memory through TMA; `gemm_sm90.hip`)
    WgmmaF16,
    /// `wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16` (as [`Atom::WgmmaF16`])
    WgmmaBf16,
    /// `wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32` (as [`Atom::WgmmaF16`], but both
    /// operands k-major in shared memory: the tf32 form has no transpose; the instruction drops
    /// the low 13 mantissa bits of the f32 it reads)
    WgmmaTf32,
    /// `wgmma.mma_async.sync.aligned.m64nNk32.s32.s8.s8` (as [`Atom::WgmmaTf32`]: both operands
    /// k-major; s32 accumulators, which wrap)
    WgmmaS8,
}

/// Element type an atom multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomInput {
    /// Whatever the compute type is (the FMA atom).
    Compute,
    F16,
    Bf16,
    F32,
    F64,
    /// f32 storage, products rounded to TF32 (NVIDIA tf32, AMD xf32).
    Tf32,
    I8,
    /// Interleaved complex f64, multiplied as 2 x 2 real blocks on f64 products.
    C64,
}

impl Atom {
    /// Every atom.
    pub const ALL: [Atom; 22] = [
        Atom::Fma,
        Atom::FmaWarp,
        Atom::MfmaF32_32x32x8F16,
        Atom::MfmaF32_16x16x16F16,
        Atom::MfmaF32_32x32x8Bf16_1k,
        Atom::MfmaF32_16x16x16Bf16_1k,
        Atom::MfmaF32_32x32x2F32,
        Atom::MfmaF64_16x16x4F64,
        Atom::MfmaF64_16x16x4Z,
        Atom::MmaM16n8k16F16,
        Atom::MmaM16n8k16Bf16,
        Atom::MmaM8n8k4F64,
        Atom::MmaM16n8k16F64,
        Atom::MmaM16n8k8F64,
        Atom::MmaM16n8k16Z,
        Atom::MmaM16n8k8Z,
        Atom::MmaM16n8k8Tf32,
        Atom::MmaM16n8k32S8,
        Atom::WgmmaF16,
        Atom::WgmmaBf16,
        Atom::WgmmaTf32,
        Atom::WgmmaS8,
    ];

    /// Instruction shape (M, N, K).
    pub fn shape(self) -> (u32, u32, u32) {
        match self {
            Atom::Fma => (1, 1, 1),
            Atom::FmaWarp => (32, 16, 1),
            Atom::MfmaF32_32x32x8F16 | Atom::MfmaF32_32x32x8Bf16_1k => (32, 32, 8),
            Atom::MfmaF32_16x16x16F16 | Atom::MfmaF32_16x16x16Bf16_1k => (16, 16, 16),
            Atom::MfmaF32_32x32x2F32 => (32, 32, 2),
            Atom::MfmaF64_16x16x4F64 => (16, 16, 4),
            // (in complex elements)
            Atom::MfmaF64_16x16x4Z => (8, 16, 2),
            Atom::MmaM16n8k16F16 | Atom::MmaM16n8k16Bf16 => (16, 8, 16),
            Atom::MmaM8n8k4F64 => (8, 8, 4),
            Atom::MmaM16n8k16F64 => (16, 8, 16),
            Atom::MmaM16n8k8F64 => (16, 8, 8),
            // (in complex elements)
            Atom::MmaM16n8k16Z => (8, 8, 8),
            Atom::MmaM16n8k8Z => (8, 8, 4),
            Atom::MmaM16n8k8Tf32 => (16, 8, 8),
            Atom::MmaM16n8k32S8 => (16, 8, 32),
            // N: the granule of the instruction's N (8 .. 256); one instruction spans a wave tile.
            Atom::WgmmaF16 | Atom::WgmmaBf16 => (64, 8, 16),
            Atom::WgmmaTf32 => (64, 8, 8),
            Atom::WgmmaS8 => (64, 8, 32),
        }
    }

    /// Accumulator elements per lane (`C_ELEMS`).
    pub fn c_elems(self) -> u32 {
        let (m, n, _) = self.shape();
        m * n / self.wave()
    }

    /// Lanes that execute one instruction together.
    pub fn wave(self) -> u32 {
        match self.vendor() {
            Vendor::Any if self == Atom::FmaWarp => 32,
            Vendor::Any => 1,
            Vendor::Amd => 64,
            Vendor::Nvidia if self.is_wgmma() => 128,
            Vendor::Nvidia => 32,
        }
    }

    /// The NVIDIA compute capabilities (major * 10 + minor) an NVIDIA atom runs on: mma.sync
    /// from sm_80 on; wgmma and the m16n8k16 DMMA shape on sm_90 only (not on later majors).
    pub fn nvidia_sms(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Atom::WgmmaF16 | Atom::WgmmaBf16 | Atom::WgmmaTf32 | Atom::WgmmaS8 | Atom::MmaM16n8k16F64 | Atom::MmaM16n8k8F64 | Atom::MmaM16n8k16Z | Atom::MmaM16n8k8Z => {
                90..=90
            }
            _ => 80..=u32::MAX,
        }
    }

    /// The sm_90a warpgroup atoms (TMA-fed, warp-specialized mainloop of `gemm_sm90.hip`).
    pub fn is_wgmma(self) -> bool {
        matches!(self, Atom::WgmmaF16 | Atom::WgmmaBf16 | Atom::WgmmaTf32 | Atom::WgmmaS8)
    }

    /// Whether the atom reads an operand stored m- or n-contiguous (wgmma: from shared memory,
    /// transposed by the instruction). Only the 16-bit wgmma forms can; the tf32 and s8 ones need
    /// both operands k-contiguous (`gemm_sm90.hip`, and the transposing copy in front of it).
    pub fn reads_mn_major(self) -> bool {
        !matches!(self, Atom::WgmmaTf32 | Atom::WgmmaS8)
    }

    pub fn vendor(self) -> Vendor {
        match self {
            Atom::Fma | Atom::FmaWarp => Vendor::Any,
            Atom::MfmaF32_32x32x8F16
            | Atom::MfmaF32_16x16x16F16
            | Atom::MfmaF32_32x32x8Bf16_1k
            | Atom::MfmaF32_16x16x16Bf16_1k
            | Atom::MfmaF32_32x32x2F32
            | Atom::MfmaF64_16x16x4F64
            | Atom::MfmaF64_16x16x4Z => Vendor::Amd,
            Atom::MmaM16n8k16F16
            | Atom::MmaM16n8k16Bf16
            | Atom::MmaM8n8k4F64
            | Atom::MmaM16n8k16F64
            | Atom::MmaM16n8k8F64
            | Atom::MmaM16n8k16Z
            | Atom::MmaM16n8k8Z
            | Atom::MmaM16n8k8Tf32
            | Atom::MmaM16n8k32S8
            | Atom::WgmmaF16
            | Atom::WgmmaBf16
            | Atom::WgmmaTf32
            | Atom::WgmmaS8 => Vendor::Nvidia,
        }
    }

    pub fn input(self) -> AtomInput {
        match self {
            // (the warp-tiled one only where compute is f32 or complex f32: GemmConfig::validate)
            Atom::Fma | Atom::FmaWarp => AtomInput::Compute,
            Atom::MfmaF32_32x32x8F16 | Atom::MfmaF32_16x16x16F16 | Atom::MmaM16n8k16F16 | Atom::WgmmaF16 => AtomInput::F16,
            Atom::MfmaF32_32x32x8Bf16_1k | Atom::MfmaF32_16x16x16Bf16_1k | Atom::MmaM16n8k16Bf16 | Atom::WgmmaBf16 => {
                AtomInput::Bf16
            }
            Atom::MfmaF32_32x32x2F32 => AtomInput::F32,
            Atom::MfmaF64_16x16x4F64 | Atom::MmaM8n8k4F64 | Atom::MmaM16n8k16F64 | Atom::MmaM16n8k8F64 => AtomInput::F64,
            Atom::MmaM16n8k8Tf32 | Atom::WgmmaTf32 => AtomInput::Tf32,
            Atom::MmaM16n8k32S8 | Atom::WgmmaS8 => AtomInput::I8,
            Atom::MmaM16n8k16Z | Atom::MmaM16n8k8Z | Atom::MfmaF64_16x16x4Z => AtomInput::C64,
        }
    }

    /// LDS layout preference: (A k-contiguous, B k-contiguous). Mirrors `A_K_CONTIG`/`B_K_CONTIG`.
    pub fn k_contiguous(self) -> (bool, bool) {
        match self {
            Atom::Fma | Atom::FmaWarp | Atom::MfmaF32_32x32x2F32 | Atom::MfmaF64_16x16x4F64 | Atom::MfmaF64_16x16x4Z => (false, false),
            _ => (true, true),
        }
    }

    /// Elements read as one vector from LDS. Mirrors `A_VEC`/`B_VEC`, except that the warp-tiled
    /// FMA atom reads complex f32 two at a time (16 bytes): its 4 holds rows to a multiple of both.
    pub fn lds_vec(self) -> u32 {
        match self {
            Atom::MfmaF32_32x32x8F16
            | Atom::MfmaF32_16x16x16F16
            | Atom::MfmaF32_32x32x8Bf16_1k
            | Atom::MfmaF32_16x16x16Bf16_1k => 4,
            Atom::MmaM16n8k16F16 | Atom::MmaM16n8k16Bf16 => 2,
            Atom::MmaM16n8k32S8 | Atom::FmaWarp => 4,
            _ => 1,
        }
    }

    /// The C++ struct name; `compute` is the C++ compute type (used by the FMA atoms only).
    pub fn cpp(self, compute: &str) -> String {
        match self {
            Atom::Fma => format!("rm_atom_fma<{compute}>"),
            Atom::FmaWarp => format!("rm_atom_fma_warp<{compute}>"),
            Atom::MfmaF32_32x32x8F16 => "rm_atom_mfma_f32_32x32x8f16".into(),
            Atom::MfmaF32_16x16x16F16 => "rm_atom_mfma_f32_16x16x16f16".into(),
            Atom::MfmaF32_32x32x8Bf16_1k => "rm_atom_mfma_f32_32x32x8bf16_1k".into(),
            Atom::MfmaF32_16x16x16Bf16_1k => "rm_atom_mfma_f32_16x16x16bf16_1k".into(),
            Atom::MfmaF32_32x32x2F32 => "rm_atom_mfma_f32_32x32x2f32".into(),
            Atom::MfmaF64_16x16x4F64 => "rm_atom_mfma_f64_16x16x4f64".into(),
            Atom::MfmaF64_16x16x4Z => "rm_atom_mfma_f64_16x16x4_z".into(),
            Atom::MmaM16n8k16F16 => "rm_atom_mma_m16n8k16_f16".into(),
            Atom::MmaM16n8k16Bf16 => "rm_atom_mma_m16n8k16_bf16".into(),
            Atom::MmaM8n8k4F64 => "rm_atom_mma_m8n8k4_f64".into(),
            Atom::MmaM16n8k16F64 => "rm_atom_mma_m16n8k16_f64".into(),
            Atom::MmaM16n8k8F64 => "rm_atom_mma_m16n8k8_f64".into(),
            Atom::MmaM16n8k16Z => "rm_atom_mma_m16n8k16_z".into(),
            Atom::MmaM16n8k8Z => "rm_atom_mma_m16n8k8_z".into(),
            Atom::MmaM16n8k8Tf32 => "rm_atom_mma_m16n8k8_tf32".into(),
            Atom::MmaM16n8k32S8 => "rm_atom_mma_m16n8k32_s8".into(),
            // The generator emits the wrapper for the config's N (see gen::gemm).
            Atom::WgmmaF16 => "rm_wgmma_f16".into(),
            Atom::WgmmaBf16 => "rm_wgmma_bf16".into(),
            Atom::WgmmaTf32 => "rm_wgmma_tf32".into(),
            Atom::WgmmaS8 => "rm_wgmma_s8".into(),
        }
    }

    /// The tag that ends a kernel name (`mfma32x32x8f16`, `mma16x8x16bf16`, `fma`).
    pub fn tag(self) -> &'static str {
        match self {
            Atom::Fma => "fma",
            Atom::FmaWarp => "fmaw32x16",
            Atom::MfmaF32_32x32x8F16 => "mfma32x32x8f16",
            Atom::MfmaF32_16x16x16F16 => "mfma16x16x16f16",
            Atom::MfmaF32_32x32x8Bf16_1k => "mfma32x32x8bf16",
            Atom::MfmaF32_16x16x16Bf16_1k => "mfma16x16x16bf16",
            Atom::MfmaF32_32x32x2F32 => "mfma32x32x2f32",
            Atom::MfmaF64_16x16x4F64 => "mfma16x16x4f64",
            Atom::MfmaF64_16x16x4Z => "mfma16x16x4z",
            Atom::MmaM16n8k16F16 => "mma16x8x16f16",
            Atom::MmaM16n8k16Bf16 => "mma16x8x16bf16",
            Atom::MmaM8n8k4F64 => "mma8x8x4f64",
            Atom::MmaM16n8k16F64 => "mma16x8x16f64",
            Atom::MmaM16n8k8F64 => "mma16x8x8f64",
            Atom::MmaM16n8k16Z => "mma16x8x16z",
            Atom::MmaM16n8k8Z => "mma16x8x8z",
            Atom::MmaM16n8k8Tf32 => "mma16x8x8tf32",
            Atom::MmaM16n8k32S8 => "mma16x8x32s8",
            Atom::WgmmaF16 => "wgmma64xnx16f16",
            Atom::WgmmaBf16 => "wgmma64xnx16bf16",
            Atom::WgmmaTf32 => "wgmma64xnx8tf32",
            Atom::WgmmaS8 => "wgmma64xnx32s8",
        }
    }

    /// The mnemonic prefix the static check looks for in the compiled code.
    pub fn mnemonic(self) -> Option<&'static str> {
        match self.vendor() {
            Vendor::Any => None,
            Vendor::Amd => Some("v_mfma"),
            Vendor::Nvidia if self.is_wgmma() => Some("wgmma.mma_async"),
            Vendor::Nvidia => Some("mma.sync"),
        }
    }
}

/// All atom headers concatenated (include-free).
pub fn source() -> String {
    let mut s = String::new();
    for (name, text) in HEADERS {
        s.push_str(&format!("// ---- include/{name} ----\n"));
        s.push_str(text);
        s.push('\n');
    }
    s
}
