//! BLAS kernels: GEMM (`gemm.hip`) and the typed model that names, instantiates and launches it.
//!
//! One module (translation unit) per (family, variant) holds every transpose combination.
//! Kernel contract (all kernels, this parameter order):
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
//! D = alpha*op(A)*op(B) + beta*C, column-major, batch = blockIdx.z. beta == 0 => C is not read;
//! alpha == 0 or k == 0 => A and B are not read. D may alias C (ldd == ldc).
//! By-value complex scalars are `struct {float x, y;}` (8 bytes, align 4) / `struct {double x, y;}`
//! (16 bytes, align 8); for the `h` family alpha/beta by value are `float` and the pointers point
//! to `half`.
//!
//! Real families have no conjugate: [`GemmKernel::kernel_name`] maps `Trans::C` to `Trans::T`
//! for them, and their modules hold only the 4 distinct kernels (nn, nt, tn, tt). Complex
//! families hold all 9.

use crate::atoms::{self, Atom, AtomInput, Vendor};

/// The GEMM kernel source (`src/blas/gemm.hip`), include-free.
pub const GEMM_HIP: &str = include_str!("gemm.hip");

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
}

/// One compiled module: a family and a variant (holding every transpose).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmKernel {
    pub family: GemmFamily,
    pub variant: GemmVariant,
}

/// Grid and block for a launch. `shared_bytes` is the *dynamic* shared memory to request; the
/// GEMM kernels use static shared memory only, so it is 0 (see [`GemmConfig::lds_bytes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchDims {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
}

impl GemmFamily {
    pub const ALL: [GemmFamily; 9] = [
        GemmFamily::S,
        GemmFamily::D,
        GemmFamily::C,
        GemmFamily::Z,
        GemmFamily::H,
        GemmFamily::Hss,
        GemmFamily::Bss,
        GemmFamily::Hhs,
        GemmFamily::Bbs,
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
        }
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
        }
    }

    /// C++ compute (accumulator) type.
    pub fn compute_cpp(self) -> &'static str {
        match self {
            GemmFamily::D => "double",
            GemmFamily::C => "rm_c32",
            GemmFamily::Z => "rm_c64",
            _ => "float",
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

    fn cpp(self) -> &'static str {
        match self {
            Trans::N => "RM_OP_N",
            Trans::T => "RM_OP_T",
            Trans::C => "RM_OP_C",
        }
    }
}

impl GemmVariant {
    pub const ALL: [GemmVariant; 3] = [GemmVariant::Fma, GemmVariant::Mma, GemmVariant::Mfma];

    pub fn tag(self) -> &'static str {
        match self {
            GemmVariant::Fma => "fma",
            GemmVariant::Mma => "mma",
            GemmVariant::Mfma => "mfma",
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

/// Blocking parameters of one GEMM kernel: the typed model the C++ config is emitted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmConfig {
    pub atom: Atom,
    /// Macro tile M x N x K.
    pub mt: [u32; 3],
    /// Waves (FMA atom: threads) per block along M and N.
    pub waves: [u32; 2],
    /// LDS row padding of the A and B tiles, in elements.
    pub pad: [u32; 2],
    /// AMD: waves per SIMD the compiler is asked to allow (amdgpu_waves_per_eu).
    pub min_waves: u32,
}

impl GemmConfig {
    pub fn threads(&self) -> u32 {
        self.waves[0] * self.waves[1] * self.atom.wave()
    }

    /// Bytes of one element as staged in LDS.
    pub fn lds_elem_bytes(&self, family: GemmFamily) -> u32 {
        match self.atom.input() {
            AtomInput::Compute => family.compute_bytes(),
            AtomInput::F16 | AtomInput::Bf16 => 2,
            AtomInput::F32 => 4,
            AtomInput::F64 => 8,
        }
    }

    /// Static LDS / shared memory of one block, in bytes.
    pub fn lds_bytes(&self, family: GemmFamily) -> u32 {
        let [mm, nn, kk] = self.mt;
        let (ka, kb) = self.atom.k_contiguous();
        let a = if ka { mm * (kk + self.pad[0]) } else { kk * (mm + self.pad[0]) };
        let b = if kb { nn * (kk + self.pad[1]) } else { kk * (nn + self.pad[1]) };
        (a + b) * self.lds_elem_bytes(family)
    }

    /// Name fragment carrying the parameters: `mt128x128x32_w2x2_mfma32x32x8f16`,
    /// `mt64x64x16_t16x16_fma`.
    pub fn tag(&self) -> String {
        let [mm, nn, kk] = self.mt;
        let w = if self.atom == Atom::Fma { 't' } else { 'w' };
        format!("mt{mm}x{nn}x{kk}_{w}{}x{}_{}", self.waves[0], self.waves[1], self.atom.tag())
    }

    /// Reject configs the blocking cannot run, with the reason, before any code is emitted.
    /// (Mirrors the static_asserts in gemm.hip.)
    pub fn validate(&self, family: GemmFamily) -> Result<(), String> {
        let [mm, nn, kk] = self.mt;
        let (am, an, ak) = self.atom.shape();
        let [wm, wn] = self.waves;
        if mm == 0 || nn == 0 || kk == 0 || wm == 0 || wn == 0 {
            return Err("tile and wave counts must be positive".into());
        }
        let want = family.input();
        match self.atom.input() {
            AtomInput::Compute => {}
            inp if inp == want => {}
            inp => {
                return Err(format!(
                    "atom {} multiplies {inp:?} but family {} has {want:?} inputs",
                    self.atom.tag(),
                    family.tag()
                ))
            }
        }
        if self.atom != Atom::Fma && family.is_complex() {
            return Err(format!("atom {} has no complex form", self.atom.tag()));
        }
        if mm % wm != 0 || nn % wn != 0 {
            return Err(format!("macro tile {mm}x{nn} does not split over {wm}x{wn} waves"));
        }
        if (mm / wm) % am != 0 || (nn / wn) % an != 0 {
            return Err(format!(
                "wave tile {}x{} is not a multiple of the atom {am}x{an}",
                mm / wm,
                nn / wn
            ));
        }
        if kk % ak != 0 {
            return Err(format!("MT_K {kk} is not a multiple of the atom's K {ak}"));
        }
        let t = self.threads();
        if t > 1024 {
            return Err(format!("{t} threads per block exceed 1024"));
        }
        if (mm * kk) % t != 0 || (kk * nn) % t != 0 {
            return Err(format!("A ({mm}x{kk}) and B ({kk}x{nn}) tiles do not split over {t} threads"));
        }
        let (ka, kb) = self.atom.k_contiguous();
        let v = self.atom.lds_vec();
        let row_a = if ka { kk + self.pad[0] } else { mm + self.pad[0] };
        let row_b = if kb { kk + self.pad[1] } else { nn + self.pad[1] };
        if row_a % v != 0 || row_b % v != 0 {
            return Err(format!("LDS rows ({row_a}, {row_b}) break the atom's {v}-element vector reads"));
        }
        let lds = self.lds_bytes(family);
        if lds > 48 * 1024 {
            return Err(format!("{lds} bytes of static LDS exceed 48 KiB"));
        }
        Ok(())
    }

    /// The C++ config type.
    pub fn cpp(&self, family: GemmFamily) -> String {
        let [mm, nn, kk] = self.mt;
        format!(
            "rm_gemm_config<{}, {mm}, {nn}, {kk}, {}, {}, {}, {}, {}>",
            self.atom.cpp(family.compute_cpp()),
            self.waves[0],
            self.waves[1],
            self.pad[0],
            self.pad[1],
            self.min_waves
        )
    }
}

impl GemmKernel {
    /// A (family, variant) pair, or the reason it is not supported.
    pub fn new(family: GemmFamily, variant: GemmVariant) -> Result<GemmKernel, String> {
        let k = GemmKernel { family, variant };
        k.config()?;
        Ok(k)
    }

    /// Every valid (family, variant).
    pub fn all() -> Vec<GemmKernel> {
        let mut v = Vec::new();
        for variant in GemmVariant::ALL {
            for family in GemmFamily::ALL {
                if let Ok(k) = GemmKernel::new(family, variant) {
                    v.push(k);
                }
            }
        }
        v
    }

    /// The blocking config of this (family, variant), or why there is none.
    pub fn config(&self) -> Result<GemmConfig, String> {
        use GemmFamily as F;
        let f = self.family;
        let cfg = match self.variant {
            GemmVariant::Fma => GemmConfig {
                atom: Atom::Fma,
                // 64x64 tile, 16x16 threads each computing 4x4; complex double halves K to keep
                // LDS at 17 KiB.
                mt: [64, 64, if f == F::Z { 8 } else { 16 }],
                waves: [16, 16],
                pad: [4, 4],
                min_waves: 1,
            },
            GemmVariant::Mma => match f {
                F::H | F::Hss | F::Hhs | F::Bss | F::Bbs => GemmConfig {
                    atom: if matches!(f, F::Bss | F::Bbs) { Atom::MmaM16n8k16Bf16 } else { Atom::MmaM16n8k16F16 },
                    mt: [128, 128, 32],
                    waves: [2, 4],
                    pad: [8, 8],
                    min_waves: 1,
                },
                F::D => GemmConfig { atom: Atom::MmaM8n8k4F64, mt: [64, 64, 16], waves: [2, 2], pad: [4, 4], min_waves: 1 },
                F::S => return Err("mma: no f32 mma.sync without TF32 rounding; use the fma variant".into()),
                F::C | F::Z => return Err("mma: no complex mma.sync; use the fma variant".into()),
            },
            GemmVariant::Mfma => match f {
                F::H | F::Hss | F::Hhs => GemmConfig {
                    atom: Atom::MfmaF32_32x32x8F16,
                    mt: [128, 128, 32],
                    waves: [2, 2],
                    pad: [4, 4],
                    min_waves: 2,
                },
                F::Bss | F::Bbs => GemmConfig {
                    atom: Atom::MfmaF32_16x16x16Bf16_1k,
                    mt: [128, 128, 32],
                    waves: [2, 2],
                    pad: [4, 4],
                    min_waves: 2,
                },
                F::S => GemmConfig {
                    atom: Atom::MfmaF32_32x32x2F32,
                    mt: [128, 128, 16],
                    waves: [2, 2],
                    pad: [4, 4],
                    min_waves: 2,
                },
                F::D => GemmConfig {
                    atom: Atom::MfmaF64_16x16x4F64,
                    mt: [128, 64, 16],
                    waves: [2, 2],
                    pad: [4, 4],
                    min_waves: 2,
                },
                F::C | F::Z => return Err("mfma: no complex MFMA; use the fma variant".into()),
            },
        };
        cfg.validate(f)?;
        Ok(cfg)
    }

    fn cfg(&self) -> GemmConfig {
        self.config().expect("GemmKernel values are only built by new(), which validates")
    }

    /// Best variant of `family` for `arch`: mma on sm_80+, mfma on gfx90a/gfx94x/gfx950 where the
    /// family has one, else fma.
    pub fn select(family: GemmFamily, arch: &str) -> GemmKernel {
        for variant in [GemmVariant::Mma, GemmVariant::Mfma] {
            if let Ok(k) = GemmKernel::new(family, variant) {
                if k.supports_arch(arch) {
                    return k;
                }
            }
        }
        GemmKernel { family, variant: GemmVariant::Fma }
    }

    /// Whether this module can be compiled for and run on `arch`.
    pub fn supports_arch(&self, arch: &str) -> bool {
        let Some(a) = Arch::parse(arch) else { return false };
        match (self.variant, a) {
            (GemmVariant::Fma, _) => true,
            (GemmVariant::Mma, Arch::Nvidia(sm)) => sm >= 80,
            (GemmVariant::Mfma, Arch::Amd(AmdArch::Cdna23)) => true,
            _ => false,
        }
    }

    /// Vendor the module is written for (the FMA variant runs everywhere).
    pub fn vendor(&self) -> Vendor {
        self.cfg().atom.vendor()
    }

    /// Module name: one module per (family, variant), e.g. `gemm_hss_mma`.
    pub fn module_name(&self) -> String {
        format!("gemm_{}_{}", self.family.tag(), self.variant.tag())
    }

    /// The transposes whose kernels the module holds: 9 for complex, 4 for real (no C).
    pub fn transposes(&self) -> Vec<(Trans, Trans)> {
        let ops: &[Trans] = if self.family.is_complex() { &Trans::ALL } else { &[Trans::N, Trans::T] };
        let mut v = Vec::new();
        for &a in ops {
            for &b in ops {
                v.push((a, b));
            }
        }
        v
    }

    fn canonical(&self, t: Trans) -> Trans {
        if t == Trans::C && !self.family.is_complex() {
            Trans::T
        } else {
            t
        }
    }

    /// Kernel name, e.g. `gemm_hss_nt_mt128x128x32_w2x4_mma16x8x16f16`. Real families map C to T.
    pub fn kernel_name(&self, ta: Trans, tb: Trans) -> String {
        let (ta, tb) = (self.canonical(ta), self.canonical(tb));
        format!("gemm_{}_{}{}_{}", self.family.tag(), ta.tag(), tb.tag(), self.cfg().tag())
    }

    /// All kernel names of the module.
    pub fn kernel_names(&self) -> Vec<String> {
        self.transposes().into_iter().map(|(a, b)| self.kernel_name(a, b)).collect()
    }

    /// Complete translation unit: prelude + atoms + gemm.hip + the extern "C" kernels.
    pub fn source(&self) -> String {
        let cfg = self.cfg();
        let mut s = String::with_capacity(48 * 1024);
        s.push_str(&format!("// rocmath-kernels module {} (generated; do not edit)\n", self.module_name()));
        s.push_str("// ---- include/prelude.h ----\n");
        s.push_str(crate::prelude());
        s.push('\n');
        s.push_str(&atoms::source());
        s.push_str("// ---- src/blas/gemm.hip ----\n");
        s.push_str(GEMM_HIP);
        s.push_str(&format!("\n// ---- instantiations: {} ----\n", self.module_name()));
        s.push_str(&instantiations(self.family, &cfg, &self.module_name(), |a, b| self.kernel_name(a, b), &self.transposes()));
        s
    }

    /// Grid/block for an m x n x batch problem.
    /// Limits: ceil(n / MT_N) and batch must each be <= 65535 (grid y/z).
    pub fn launch_dims(&self, m: usize, n: usize, batch: usize) -> LaunchDims {
        let cfg = self.cfg();
        let gx = m.div_ceil(cfg.mt[0] as usize);
        let gy = n.div_ceil(cfg.mt[1] as usize);
        LaunchDims {
            grid: [gx as u32, gy as u32, batch as u32],
            block: [cfg.threads(), 1, 1],
            shared_bytes: 0,
        }
    }
}

/// The extern "C" instantiation block for a module (also used by the check for extra configs).
pub fn instantiations(
    family: GemmFamily,
    cfg: &GemmConfig,
    module: &str,
    name: impl Fn(Trans, Trans) -> String,
    transposes: &[(Trans, Trans)],
) -> String {
    let mut s = String::new();
    match cfg.atom.vendor() {
        Vendor::Amd => s.push_str(&format!(
            "#if !RM_AMD\n#error \"{module}: MFMA kernels need an AMD CDNA target (gfx90a, gfx94x, gfx950)\"\n#endif\n"
        )),
        Vendor::Nvidia => s.push_str(&format!(
            "#if !RM_NVIDIA || (RM_SM != 0 && RM_SM < 800)\n#error \"{module}: mma.sync kernels need NVIDIA sm_80 or newer\"\n#endif\n"
        )),
        Vendor::Any => {}
    }
    let cfg_name = format!("rm_cfg_{module}");
    s.push_str(&format!("typedef {} {cfg_name};\n", cfg.cpp(family)));
    for &(a, b) in transposes {
        s.push_str(&format!(
            "RM_GEMM_KERNEL({}, {cfg_name}, {}, {}, {})\n",
            name(a, b),
            family.types_cpp(),
            a.cpp(),
            b.cpp()
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_unique_and_carry_parameters() {
        let mut seen = HashSet::new();
        let mut modules = HashSet::new();
        for k in GemmKernel::all() {
            assert!(modules.insert(k.module_name()));
            let cfg = k.config().unwrap();
            for (a, b) in k.transposes() {
                let n = k.kernel_name(a, b);
                assert!(seen.insert(n.clone()), "duplicate {n}");
                assert!(n.starts_with(&format!("gemm_{}_{}{}_mt", k.family.tag(), a.tag(), b.tag())), "{n}");
                assert!(n.contains(&format!("mt{}x{}x{}", cfg.mt[0], cfg.mt[1], cfg.mt[2])), "{n}");
                assert!(n.ends_with(cfg.atom.tag()), "{n}");
                assert!(n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{n}");
            }
        }
        assert_eq!(
            GemmKernel::new(GemmFamily::Hss, GemmVariant::Mma).unwrap().kernel_name(Trans::N, Trans::T),
            "gemm_hss_nt_mt128x128x32_w2x4_mma16x8x16f16"
        );
        assert_eq!(
            GemmKernel::new(GemmFamily::S, GemmVariant::Fma).unwrap().kernel_name(Trans::C, Trans::N),
            "gemm_s_tn_mt64x64x16_t16x16_fma"
        );
        assert_eq!(
            GemmKernel::new(GemmFamily::C, GemmVariant::Fma).unwrap().kernel_name(Trans::C, Trans::N),
            "gemm_c_cn_mt64x64x16_t16x16_fma"
        );
    }

    #[test]
    fn all_counts() {
        let all = GemmKernel::all();
        let count = |v| all.iter().filter(|k| k.variant == v).count();
        assert_eq!(count(GemmVariant::Fma), 9);
        assert_eq!(count(GemmVariant::Mma), 6);
        assert_eq!(count(GemmVariant::Mfma), 7);
    }

    #[test]
    fn invalid_combinations_rejected_with_reason() {
        for (f, v) in [
            (GemmFamily::S, GemmVariant::Mma),
            (GemmFamily::C, GemmVariant::Mma),
            (GemmFamily::Z, GemmVariant::Mma),
            (GemmFamily::C, GemmVariant::Mfma),
            (GemmFamily::Z, GemmVariant::Mfma),
        ] {
            let e = GemmKernel::new(f, v).unwrap_err();
            assert!(!e.is_empty());
        }
        // Configs are validated with reasons too.
        let bad = GemmConfig { atom: Atom::MfmaF32_32x32x8F16, mt: [96, 128, 32], waves: [2, 2], pad: [4, 4], min_waves: 2 };
        assert!(bad.validate(GemmFamily::H).unwrap_err().contains("multiple of the atom"));
        let wrong_type = GemmConfig { atom: Atom::MfmaF32_32x32x8F16, mt: [128, 128, 32], waves: [2, 2], pad: [4, 4], min_waves: 2 };
        assert!(wrong_type.validate(GemmFamily::Bss).is_err());
        let misaligned = GemmConfig { atom: Atom::MmaM16n8k16F16, mt: [128, 128, 32], waves: [2, 4], pad: [3, 8], min_waves: 1 };
        assert!(misaligned.validate(GemmFamily::H).unwrap_err().contains("vector"));
    }

    #[test]
    fn select_picks_best_variant() {
        use GemmFamily as F;
        let sel = |f, a| GemmKernel::select(f, a).variant;
        assert_eq!(sel(F::Hss, "sm_90"), GemmVariant::Mma);
        assert_eq!(sel(F::Hss, "sm_90a"), GemmVariant::Mma);
        assert_eq!(sel(F::Bbs, "sm_80"), GemmVariant::Mma);
        assert_eq!(sel(F::D, "sm_90"), GemmVariant::Mma);
        assert_eq!(sel(F::Hss, "sm_75"), GemmVariant::Fma);
        assert_eq!(sel(F::S, "sm_90"), GemmVariant::Fma);
        assert_eq!(sel(F::Z, "sm_90"), GemmVariant::Fma);
        assert_eq!(sel(F::H, "gfx942"), GemmVariant::Mfma);
        assert_eq!(sel(F::S, "gfx90a:sramecc+:xnack-"), GemmVariant::Mfma);
        assert_eq!(sel(F::D, "gfx90a"), GemmVariant::Mfma);
        assert_eq!(sel(F::C, "gfx942"), GemmVariant::Fma);
        assert_eq!(sel(F::H, "gfx1100"), GemmVariant::Fma);
        assert_eq!(sel(F::H, "gfx908"), GemmVariant::Fma);
        assert_eq!(sel(F::H, "nonsense"), GemmVariant::Fma);
    }

    #[test]
    fn supports_arch() {
        let mma = GemmKernel::new(GemmFamily::H, GemmVariant::Mma).unwrap();
        assert!(mma.supports_arch("sm_80") && mma.supports_arch("sm_90") && !mma.supports_arch("sm_75"));
        assert!(!mma.supports_arch("gfx942"));
        let mfma = GemmKernel::new(GemmFamily::H, GemmVariant::Mfma).unwrap();
        assert!(mfma.supports_arch("gfx90a") && mfma.supports_arch("gfx942") && !mfma.supports_arch("gfx1100"));
        assert!(!mfma.supports_arch("sm_90"));
        let fma = GemmKernel::new(GemmFamily::Z, GemmVariant::Fma).unwrap();
        assert!(fma.supports_arch("sm_52") && fma.supports_arch("gfx1100") && !fma.supports_arch("x86"));
    }

    #[test]
    fn sources_contain_every_kernel_and_no_include() {
        for k in GemmKernel::all() {
            let src = k.source();
            for name in k.kernel_names() {
                assert!(src.contains(&format!("RM_GEMM_KERNEL({name},")), "{name} missing");
            }
            for (a, b) in [(Trans::C, Trans::C), (Trans::N, Trans::C)] {
                assert!(src.contains(&k.kernel_name(a, b)));
            }
            assert!(!src.lines().any(|l| l.trim_start().starts_with("#include")), "{} has #include", k.module_name());
            assert!(!src.contains("#pragma once"));
        }
    }

    #[test]
    fn launch_dims() {
        let k = GemmKernel::new(GemmFamily::S, GemmVariant::Fma).unwrap();
        let d = k.launch_dims(65, 128, 3);
        assert_eq!(d.grid, [2, 2, 3]);
        assert_eq!(d.block, [256, 1, 1]);
        let k = GemmKernel::new(GemmFamily::Hss, GemmVariant::Mma).unwrap();
        assert_eq!(k.launch_dims(1, 1, 1).block, [256, 1, 1]);
        let k = GemmKernel::new(GemmFamily::D, GemmVariant::Mfma).unwrap();
        let d = k.launch_dims(129, 65, 1);
        assert_eq!(d.grid, [2, 2, 1]);
        assert_eq!(d.block, [256, 1, 1]);
    }

    #[test]
    fn lds_within_limits() {
        for k in GemmKernel::all() {
            let b = k.config().unwrap().lds_bytes(k.family);
            assert!(b <= 48 * 1024, "{} uses {b} bytes", k.module_name());
        }
    }
}
