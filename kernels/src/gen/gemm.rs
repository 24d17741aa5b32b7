//! The GEMM generator: a typed config ([`GemmConfig`]) -> a named, validated translation unit.
//!
//! One module (translation unit) per (family, config, batch form) holds the kernels of every
//! transpose combination. Kernel names carry every parameter of the config, so a name is a
//! solution: tuning tables store [`GemmConfig::tag`] strings and [`GemmConfig::parse`] reads them
//! back.
//!
//! Two mainloops share the blocking (`src/blas/gemm.hip`):
//! * `stages == 1`: register-staged. Global -> registers (converted to the atom's input type,
//!   conjugated) -> LDS in the atom's preferred layout, padded. Every family and atom.
//! * `stages >= 2`: direct. Raw 16-byte copies into `stages` LDS buffers that keep the memory
//!   layout (cp.async on NVIDIA, so `stages - 1` tiles are in flight), padded or XOR-swizzled;
//!   fragments through the atom's loader (ldmatrix for the 16-bit mma atoms). Needs A/B stored
//!   in the atom's input type and no conjugation.
//!
//! The wgmma atoms (sm_90a) have their own mainloop (`src/blas/gemm_sm90.hip`): TMA copies into
//! 128-byte swizzled stages, a producer warpgroup and two consumer warpgroups, a persistent grid.
//! Their configs are `mt128xNx64_w2x1_sS_x_gG_o1_wgmma64xnx16{f16,bf16}`,
//! `mt128xNx32_..._wgmma64xnx8tf32` and `mt128xNx128_..._wgmma64xnx32s8`: the same fields, read
//! as two consumer warpgroups of 64 rows each, one wgmma per 32 bytes of k. `mt64xN..._w1x1` has one consumer of 64 rows;
//! `mt64xN..._w2x1` has two consumers that take whole 64-row tiles in turn (ping-pong: one
//! stores its tile while the other multiplies the next), for small batched matrices; `_o2` runs
//! two blocks per SM (with two consumers, 64-wide tiles only), `_o3` and `_o4` three or four of
//! one consumer. The tf32
//! and s8 instructions read k-contiguous operands only: their modules hold the TN kernel, and the
//! host copies other layouts' operands k-contiguous first, except for tf32 configs that transpose
//! in shared memory (`s3t`), whose modules hold every layout.

use crate::atoms::{self, Atom, AtomInput, Vendor};
use crate::blas::{AmdArch, Arch, GemmFamily, GemmVariant, Trans, GEMM_HIP, GEMM_SM90_HIP};

/// Generator id: bump when the meaning of a config (or its name) changes, so tables tuned by an
/// older generator are treated as stale.
pub const GENERATOR: &str = "rocmath-gemm/2";

/// Shared memory a block may use with the opt-in (sm_90: 227 KiB).
pub const MAX_DYNAMIC_LDS: u32 = 227 * 1024;
/// Static shared memory limit (all targets).
pub const MAX_STATIC_LDS: u32 = 48 * 1024;
/// LDS per workgroup on CDNA2/CDNA3.
pub const AMD_LDS: u32 = 64 * 1024;

/// How an LDS tile's rows are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LdsLayout {
    /// Rows padded by `a` (A tile) and `b` (B tile) elements.
    Pad { a: u32, b: u32 },
    /// 16-byte chunks XOR-swizzled by row (direct path only).
    Xor,
}

/// Blocking parameters of one GEMM kernel: the typed model the C++ config is emitted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmConfig {
    pub atom: Atom,
    /// Macro tile M x N x K.
    pub mt: [u32; 3],
    /// Waves (FMA atom: threads) per block along M and N.
    pub waves: [u32; 2],
    pub lds: LdsLayout,
    /// 1: register-staged mainloop; >= 2: direct copies into this many LDS buffers.
    pub stages: u32,
    /// Tile order: this many tile rows per group (1: row-major over the grid).
    pub group_m: u32,
    /// Occupancy the compiler must allow, which caps registers: NVIDIA blocks per SM
    /// (`__launch_bounds__`'s second argument); waves per SIMD (amdgpu_waves_per_eu) for the MFMA
    /// atoms on AMD, where the FMA atoms ask for none. wgmma: 1, or 2 for one-consumer tiles
    /// whose shared memory fits twice, and the persistent grid has that many blocks per SM.
    pub min_waves: u32,
    /// Direct path only: a persistent grid (as many blocks as fit on the device at once) whose
    /// blocks stream the K tiles of several tiles and batch entries through one pipeline, so
    /// that the next entry's loads overlap this one's multiply and store. For batches of small
    /// matrices. (wgmma configs are persistent by construction and leave this false.)
    pub persistent: bool,
    /// K slices per tile (1: none), as tuned. Each of a tile's blocks (wgmma: work units)
    /// multiplies one slice of K into a workspace in the accumulator type (f32 for wgmma); a
    /// second kernel sums the slices in order and applies alpha and beta. For tiles too few to
    /// fill the GPU with long K (16 x 8192 x 8192, 256 x 256 x 65536). The module only knows that
    /// it splits: the count is a kernel argument, and the host may run fewer slices than this
    /// where a call is far from the size it was tuned at (`split_slices` in blas/src/gpu.rs).
    /// wgmma configs, and blocked (not persistent) ones of real families with f32 or f64
    /// accumulators; strided calls only: pointer-array calls run the config's unsplit twin.
    /// Tag: `_k{split_k}`.
    pub split_k: u32,
    /// FMA atoms, 32-bit real inputs (s): the host first copies an operand stored k-contiguous
    /// (op(A) when A is transposed, op(B) when B is not) m- or n-contiguous into the handle's
    /// scratch with the transposing copy, and the kernel runs as NT. The FMA atoms multiply
    /// outer products of m- and n-contiguous LDS rows: NT is their fastest layout, and the copy
    /// costs one pass over the operand (3 % of a 2048^3 call). Strided calls only; pointer
    /// arrays, and calls whose copies cannot be made, run the same tiles on the stored layout.
    /// Tag: `r` after the stage count (`s3r`). It changes no kernel code.
    pub repack: bool,
    /// Direct path, blocked grid: fragments are read from LDS one atom k step ahead of the
    /// multiplies, across K tiles too. A K tile's last step waits for the next tile and passes
    /// the barrier before its own multiplies, then loads the next tile's first fragments and
    /// copies into the buffer just freed; so LDS latency and the copy's address arithmetic run
    /// under the matrix core's work instead of stalling it at every K tile (CUTLASS's multistage
    /// order). Costs a second set of fragment registers; needs an even number of atom k steps
    /// per K tile. Tag: `f` after the stage count (`s3f`).
    pub prefetch: bool,
    /// tf32 wgmma only: operands stored m- or n-contiguous (op(A) when A is not transposed,
    /// op(B) when B is) are transposed inside shared memory, not by a copy in global memory
    /// before the call. TMA loads them as stored into a second ring of stages, and the producer
    /// warpgroup's other three warps rewrite each stage k-major for wgmma (`gemm_sm90.hip`). One
    /// pass less over A and B, which matters where the multiply is about as cheap as that pass
    /// (small batched matrices); twice the shared memory per stage. Tag: `t` after the stage
    /// count (`s3t`).
    pub smem_transpose: bool,
    /// wgmma only: blocks run in clusters of two on adjacent tiles of a column of tiles (rows m0
    /// and m0 + MT_M, one n0), which read the same B tile: each block loads half of it into
    /// both blocks' stages by TMA multicast, so that L2 sends each B tile once per cluster
    /// (`MULTICAST` in gemm_sm90.hip; cuBLAS's sm_90 kernels run in clusters of two). Needs
    /// MT_N a multiple of 128, whole tiles per consumer (not ping-pong), no staging ring, one
    /// block per SM. Tag: `m` after the stage count (`s3m`).
    pub multicast: bool,
    /// wgmma only: the grid has one block a work unit (a tile, or a tile's K slice) instead of
    /// the persistent grid; the kernel is the same (its walk steps by the grid, so a block takes
    /// one unit), and `min_waves` blocks still fit an SM at once. For the small batches whose
    /// whole K fits the stages: each block issues all its loads at once and leaves, and the
    /// hardware starts the next block as one ends. On an H100, hss and bss 128^3 x 2048 with
    /// 128 x 64 tiles, 2 stages, 2 blocks an SM: 0.0970 ms against 0.1032 on the persistent
    /// grid and cuBLAS's 0.098 (benches/results/2026-11-21-h100-gemm.md, sixty-fourth
    /// session). Tag: `u` after the stage count (`s2u`). It changes no kernel code.
    pub unit_grid: bool,
}

/// The m16n8k16 mma atom of a 16-bit family (bf16 for B*, f16 otherwise).
fn mma16_atom(family: GemmFamily) -> Atom {
    if matches!(family, GemmFamily::Bss | GemmFamily::Bbs) {
        Atom::MmaM16n8k16Bf16
    } else {
        Atom::MmaM16n8k16F16
    }
}

/// Whether a module holds strided-batched kernels or pointer-array (`_batched`) kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BatchForm {
    /// A, B, C, D are base pointers; batch i is at base + i * stride.
    Strided,
    /// A, B, C, D are device arrays of pointers; batch i is at array[i] + stride (an offset).
    Pointers,
}

/// One compiled module: a family, a config and a batch form (holding every transpose).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmKernel {
    pub family: GemmFamily,
    pub config: GemmConfig,
    pub batch: BatchForm,
}

/// Grid and block for a launch; `shared_bytes` is the dynamic shared memory to request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaunchDims {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
}

impl GemmConfig {
    pub fn threads(&self) -> u32 {
        if self.is_wgmma() {
            // the consumer warpgroups plus the producer
            return (self.waves[0] * self.waves[1] + 1) * self.atom.wave();
        }
        self.waves[0] * self.waves[1] * self.atom.wave()
    }

    /// The sm_90a TMA + wgmma mainloop (`gemm_sm90.hip`).
    pub fn is_wgmma(&self) -> bool {
        self.atom.is_wgmma()
    }

    /// Whether the kernels read operands stored m- or n-contiguous as they are (else the host
    /// copies them k-contiguous first): every non-wgmma atom, the 16-bit wgmma ones (the
    /// instruction transposes), and tf32 wgmma with [`smem_transpose`](Self::smem_transpose).
    pub fn reads_mn_major(&self) -> bool {
        self.atom.reads_mn_major() || self.smem_transpose
    }

    /// A wgmma config whose two consumer warpgroups take whole 64-row tiles in turn.
    pub fn is_pingpong(&self) -> bool {
        self.is_wgmma() && self.waves == [2, 1] && self.mt[0] == 64
    }

    pub fn is_direct(&self) -> bool {
        self.stages >= 2
    }

    /// The variant (instruction class) of the atom.
    pub fn variant(&self) -> GemmVariant {
        match self.atom.vendor() {
            Vendor::Any => GemmVariant::Fma,
            Vendor::Nvidia if self.is_wgmma() => GemmVariant::Wgmma,
            Vendor::Nvidia => GemmVariant::Mma,
            Vendor::Amd => GemmVariant::Mfma,
        }
    }

    fn pads(&self) -> [u32; 2] {
        match self.lds {
            LdsLayout::Pad { a, b } => [a, b],
            LdsLayout::Xor => [0, 0],
        }
    }

    /// Bytes of one element as staged in LDS.
    pub fn lds_elem_bytes(&self, family: GemmFamily) -> u32 {
        match self.atom.input() {
            AtomInput::Compute => family.compute_bytes(),
            AtomInput::F16 | AtomInput::Bf16 => 2,
            AtomInput::F32 | AtomInput::Tf32 => 4,
            AtomInput::F64 => 8,
            AtomInput::I8 => 1,
            AtomInput::C64 => 16,
        }
    }

    /// Shared memory of one block, in bytes (static for `stages == 1`, dynamic otherwise). The
    /// direct path's tile shape depends on the transposes; this is the larger of the two.
    pub fn lds_bytes(&self, family: GemmFamily) -> u32 {
        let [mm, nn, kk] = self.mt;
        let [pa, pb] = self.pads();
        let e = self.lds_elem_bytes(family);
        if self.is_wgmma() {
            // (mirrors rm_sm90_config::SHARED_BYTES: alignment slack, stages, the epilogue's
            // staging buffers of 64 x 32 elements of D (f32 partial sums with split-K) per
            // consumer, two barriers a stage)
            let staged = if self.split_k > 1 { 4 } else { family.c_bytes() };
            // (a second ring of stages, and its two barriers a stage, for the in-smem transposes)
            let rings = if self.smem_transpose { 2 } else { 1 };
            let fixed = 1024 + rings * self.stages * (mm + nn) * kk * e + rings * 16 * self.stages;
            // (two staging buffers a consumer, or one where two would cost one of several blocks per SM)
            let buffer = self.waves[0] * 64 * 32 * staged;
            let two_fit = super::sm90_blocks_by_shared((fixed + 2 * buffer) as usize) >= self.min_waves as usize;
            let bufs = if self.min_waves > 1 && !two_fit { 1 } else { 2 };
            return fixed + bufs * buffer;
        }
        if !self.is_direct() {
            let (ka, kb) = self.atom.k_contiguous();
            let a = if ka { mm * (kk + pa) } else { kk * (mm + pa) };
            let b = if kb { nn * (kk + pb) } else { kk * (nn + pb) };
            return (a + b) * e;
        }
        let a = (mm * (kk + pa)).max(kk * (mm + pa));
        let b = (nn * (kk + pb)).max(kk * (nn + pb));
        self.stages * (a + b) * e
    }

    /// 32-bit accumulator registers per lane.
    pub fn accumulator_registers(&self, family: GemmFamily) -> u32 {
        let (am, an, _) = self.atom.shape();
        let rows = if self.is_pingpong() { self.mt[0] } else { self.mt[0] / self.waves[0] };
        let reps = (rows / am) * (self.mt[1] / self.waves[1] / an);
        let per_atom = self.atom.c_elems();
        let bytes = match self.atom.input() {
            AtomInput::Compute => family.compute_bytes(),
            AtomInput::F64 => 8,
            AtomInput::C64 => 16,
            _ => 4,
        };
        reps * per_atom * bytes / 4
    }

    /// Name fragment carrying every parameter:
    /// `mt128x128x32_w2x2_s4_x_g8_o1_mma16x8x16f16`, `mt64x64x16_t16x16_s1_p4x4_g1_o1_fma`; a
    /// persistent config's stage count ends in `p` (`s3p`), a repacking one's in `r` (`s3r`), a
    /// prefetching one's in `f` (`s3f`), one transposing in shared memory in `t` (`s3t`), one
    /// multicasting B in clusters of two in `m` (`s3m`), one launching a block a work unit in `u`
    /// (`s2u`).
    pub fn tag(&self) -> String {
        let [mm, nn, kk] = self.mt;
        let w = if self.atom == Atom::Fma { 't' } else { 'w' };
        let lds = match self.lds {
            LdsLayout::Pad { a, b } => format!("p{a}x{b}"),
            LdsLayout::Xor => "x".to_string(),
        };
        format!(
            "mt{mm}x{nn}x{kk}_{w}{}x{}_s{}{}{}{}{}{}{}_{lds}_g{}_o{}{}_{}",
            self.waves[0],
            self.waves[1],
            self.stages,
            if self.persistent { "p" } else { "" },
            if self.repack { "r" } else { "" },
            if self.prefetch { "f" } else { "" },
            if self.smem_transpose { "t" } else { "" },
            if self.multicast { "m" } else { "" },
            if self.unit_grid { "u" } else { "" },
            self.group_m,
            self.min_waves,
            if self.split_k > 1 { format!("_k{}", self.split_k) } else { String::new() },
            self.atom.tag()
        )
    }

    /// Reads a [`tag`](Self::tag) back (not validated: call [`validate`](Self::validate)).
    pub fn parse(tag: &str) -> Result<GemmConfig, String> {
        let bad = |why: &str| format!("solution `{tag}`: {why}");
        let parts: Vec<&str> = tag.split('_').collect();
        let (split, parts) = match parts[..] {
            [mt, w, s, lds, g, o, k, atom] => (Some(k), [mt, w, s, lds, g, o, atom]),
            [mt, w, s, lds, g, o, atom] => (None, [mt, w, s, lds, g, o, atom]),
            _ => return Err(bad("expected 7 `_`-separated fields, or 8 with split-K")),
        };
        let [mt, w, s, lds, g, o, atom] = parts;
        let nums = |s: &str, prefix: &str, n: usize| -> Result<Vec<u32>, String> {
            let rest = s.strip_prefix(prefix).ok_or_else(|| bad(&format!("`{s}` should start with `{prefix}`")))?;
            let v: Vec<u32> = rest.split('x').map(|x| x.parse().map_err(|_| bad(&format!("`{s}` is not numeric")))).collect::<Result<_, _>>()?;
            if v.len() != n {
                return Err(bad(&format!("`{s}` should have {n} numbers")));
            }
            Ok(v)
        };
        let atom = Atom::ALL.into_iter().find(|a| a.tag() == atom).ok_or_else(|| bad(&format!("unknown atom `{atom}`")))?;
        let mt = nums(mt, "mt", 3)?;
        let waves = nums(w, if atom == Atom::Fma { "t" } else { "w" }, 2)?;
        let lds = if lds == "x" {
            LdsLayout::Xor
        } else {
            let p = nums(lds, "p", 2)?;
            LdsLayout::Pad { a: p[0], b: p[1] }
        };
        let (s, unit_grid) = match s.strip_suffix('u') {
            Some(s) => (s, true),
            None => (s, false),
        };
        let (s, multicast) = match s.strip_suffix('m') {
            Some(s) => (s, true),
            None => (s, false),
        };
        let (s, smem_transpose) = match s.strip_suffix('t') {
            Some(s) => (s, true),
            None => (s, false),
        };
        let (s, prefetch) = match s.strip_suffix('f') {
            Some(s) => (s, true),
            None => (s, false),
        };
        let (s, repack) = match s.strip_suffix('r') {
            Some(s) => (s, true),
            None => (s, false),
        };
        let (s, persistent) = match s.strip_suffix('p') {
            Some(s) => (s, true),
            None => (s, false),
        };
        Ok(GemmConfig {
            atom,
            mt: [mt[0], mt[1], mt[2]],
            waves: [waves[0], waves[1]],
            lds,
            stages: nums(s, "s", 1)?[0],
            group_m: nums(g, "g", 1)?[0],
            min_waves: nums(o, "o", 1)?[0],
            persistent,
            split_k: match split {
                Some(k) => nums(k, "k", 1)?[0],
                None => 1,
            },
            repack,
            prefetch,
            smem_transpose,
            multicast,
            unit_grid,
        })
    }

    /// Rejects configs the blocking cannot run, with the reason, before any code is emitted.
    /// (Mirrors the static_asserts in gemm.hip, plus register and LDS budgets.)
    pub fn validate(&self, family: GemmFamily) -> Result<(), String> {
        let [mm, nn, kk] = self.mt;
        let (am, an, ak) = self.atom.shape();
        let [wm, wn] = self.waves;
        if mm == 0 || nn == 0 || kk == 0 || wm == 0 || wn == 0 {
            return Err("tile and wave counts must be positive".into());
        }
        // (wgmma: its persistent work units; the blocked grid's z holds the slices)
        let max_split = if self.is_wgmma() { 16 } else { 64 };
        if self.split_k == 0 || self.split_k > max_split {
            return Err(format!("split-K into {} slices (1 to {max_split})", self.split_k));
        }
        if self.unit_grid && !self.is_wgmma() {
            return Err("a grid of one block a unit (`u`): wgmma configs only (the others are blocked, or `p`)".into());
        }
        if self.repack && !(matches!(self.atom, Atom::Fma | Atom::FmaWarp) && family.ab_bytes() == 4 && !family.is_complex()) {
            return Err("repacked operands (`r`): FMA atoms on 32-bit real inputs only (the copy is the 32-bit transpose)".into());
        }
        if self.prefetch && (self.is_wgmma() || !self.is_direct() || self.persistent || (kk / ak) % 2 != 0) {
            return Err("fragment prefetch (`f`): blocked direct-path configs (stages >= 2, not persistent, not wgmma) with an even number of atom k steps per K tile".into());
        }
        if self.smem_transpose && self.atom != Atom::WgmmaTf32 {
            return Err("transposes in shared memory (`t`): tf32 wgmma configs only (the 16-bit forms read either order; s8 has none)".into());
        }
        if self.multicast && !self.is_wgmma() {
            return Err("B multicast in clusters of two (`m`): wgmma configs only".into());
        }
        if self.is_wgmma() {
            return self.validate_wgmma(family);
        }
        if self.split_k > 1 && (self.persistent || family == GemmFamily::I8) {
            return Err("split-K: wgmma configs, or blocked (not persistent) ones of families with floating-point accumulators".into());
        }
        if self.persistent && !self.is_direct() {
            return Err("a persistent grid streams K tiles through the direct path's stages (stages >= 2)".into());
        }
        if !(1..=8).contains(&self.stages) {
            return Err(format!("{} pipeline stages (1 to 8 supported)", self.stages));
        }
        if self.group_m == 0 || self.min_waves == 0 {
            return Err("group_m and min_waves must be positive".into());
        }
        let inp = self.atom.input();
        if !family.accepts(inp) {
            return Err(format!("atom {} multiplies {inp:?} but family {} has {:?} inputs", self.atom.tag(), family.tag(), family.input()));
        }
        if self.atom == Atom::FmaWarp && !matches!(family, GemmFamily::S | GemmFamily::Xf32 | GemmFamily::C) {
            return Err(format!("atom {}: f32 or complex f32 inputs as stored (s, xf32, c), not {}", self.atom.tag(), family.tag()));
        }
        if family.is_complex() && !(matches!(self.atom, Atom::Fma | Atom::FmaWarp) || inp == AtomInput::C64) {
            return Err(format!("atom {} has no complex form", self.atom.tag()));
        }
        if inp == AtomInput::C64 && (!self.is_direct() || self.lds == LdsLayout::Xor) {
            return Err(format!("atom {}: the direct path (stages >= 2) on padded LDS rows", self.atom.tag()));
        }
        if mm % wm != 0 || nn % wn != 0 {
            return Err(format!("macro tile {mm}x{nn} does not split over {wm}x{wn} waves"));
        }
        if (mm / wm) % am != 0 || (nn / wn) % an != 0 {
            return Err(format!("wave tile {}x{} is not a multiple of the atom {am}x{an}", mm / wm, nn / wn));
        }
        if kk % ak != 0 {
            return Err(format!("MT_K {kk} is not a multiple of the atom's K {ak}"));
        }
        let t = self.threads();
        if t > 1024 {
            return Err(format!("{t} threads per block exceed 1024"));
        }
        if self.atom.vendor() != Vendor::Amd && t * self.min_waves > 2048 {
            return Err(format!("{} blocks of {t} threads exceed an NVIDIA SM's 2048", self.min_waves));
        }
        let acc = self.accumulator_registers(family);
        let acc_limit = if self.atom.vendor() == Vendor::Amd { 256 } else { 128 };
        if acc > acc_limit {
            return Err(format!("{acc} accumulator registers per lane exceed {acc_limit}"));
        }
        let lds = self.lds_bytes(family);
        if self.is_direct() {
            self.validate_direct(family)?;
            if lds > MAX_DYNAMIC_LDS {
                return Err(format!("{lds} bytes of LDS exceed {MAX_DYNAMIC_LDS}"));
            }
        } else {
            if self.lds == LdsLayout::Xor {
                return Err("the XOR-swizzled layout needs the direct path (stages >= 2)".into());
            }
            if (mm * kk) % t != 0 || (kk * nn) % t != 0 {
                return Err(format!("A ({mm}x{kk}) and B ({kk}x{nn}) tiles do not split over {t} threads"));
            }
            let [pa, pb] = self.pads();
            let (ka, kb) = self.atom.k_contiguous();
            let v = self.atom.lds_vec();
            let row_a = if ka { kk + pa } else { mm + pa };
            let row_b = if kb { kk + pb } else { nn + pb };
            if row_a % v != 0 || row_b % v != 0 {
                return Err(format!("LDS rows ({row_a}, {row_b}) break the atom's {v}-element vector reads"));
            }
            if lds > MAX_STATIC_LDS {
                return Err(format!("{lds} bytes of static LDS exceed 48 KiB"));
            }
        }
        Ok(())
    }

    /// The shapes `gemm_sm90.hip` implements (its static_asserts, plus the shared-memory budget).
    fn validate_wgmma(&self, family: GemmFamily) -> Result<(), String> {
        let inp = self.atom.input();
        let e = self.lds_elem_bytes(family);
        if !family.accepts(inp) || family.ab_bytes() != e {
            return Err(format!("atom {} multiplies {inp:?}; family {} stores {:?}", self.atom.tag(), family.tag(), family.input()));
        }
        let [mm, nn, kk] = self.mt;
        if !matches!((self.waves, mm), ([2, 1], 128) | ([1, 1], 64) | ([2, 1], 64)) {
            return Err("wgmma: consumer warpgroups of 64 rows: two on a tile (w2x1, MT_M 128), one (w1x1, MT_M 64), or two taking 64-row tiles in turn (w2x1, MT_M 64)".into());
        }
        if self.is_pingpong() && self.split_k > 1 {
            return Err("wgmma: ping-pong consumers (w2x1, MT_M 64) take whole tiles, not K slices".into());
        }
        if family == GemmFamily::I8 && self.split_k > 1 {
            return Err("wgmma: split-K sums slices in f32; i8's s32 sums would lose bits".into());
        }
        if kk * e != 128 {
            return Err(format!("wgmma: MT_K is {} (one 128-byte swizzled row of {e}-byte elements)", 128 / e));
        }
        if nn % 64 != 0 || nn > 256 {
            return Err(format!("wgmma: MT_N {nn} must be a multiple of 64, at most 256"));
        }
        if self.lds != LdsLayout::Xor {
            return Err("wgmma: shared memory is 128-byte swizzled (`x`)".into());
        }
        if !(2..=16).contains(&self.stages) {
            return Err(format!("wgmma: {} stages (2 to 16)", self.stages));
        }
        if self.group_m == 0 || !((1..=2).contains(&self.min_waves) || ((1..=4).contains(&self.min_waves) && self.waves == [1, 1])) {
            return Err("wgmma: group_m positive, min_waves 1 or 2 (blocks per SM) or, with one consumer (w1x1), up to 4".into());
        }
        if self.min_waves == 2 && self.waves[0] == 2 && nn > 64 {
            // (two blocks of 384 threads: ptxas has 80 registers a thread, too few for 64 x 128
            // accumulators and their addresses)
            return Err("wgmma: two consumers at two blocks per SM take 64-wide tiles only".into());
        }
        if self.persistent {
            return Err("wgmma: the grid is persistent by construction (no `p` flag)".into());
        }
        if self.unit_grid && (self.multicast || self.split_k > 1) {
            // (not measured together; the launch would take them)
            return Err("wgmma: a grid of one block a unit (`u`) without multicast or split-K".into());
        }
        if self.multicast && (self.is_pingpong() || self.smem_transpose || self.min_waves != 1 || nn % 128 != 0) {
            return Err("wgmma: B multicast (`m`) needs whole tiles per consumer (not ping-pong), no transposes in shared memory, one block per SM and MT_N a multiple of 128 (halves of whole 64-wide boxes)".into());
        }
        let lds = self.lds_bytes(family);
        if lds > MAX_DYNAMIC_LDS {
            return Err(format!("{lds} bytes of shared memory exceed {MAX_DYNAMIC_LDS}"));
        }
        if super::sm90_blocks_by_shared(lds as usize) < self.min_waves as usize {
            return Err(format!("wgmma: {} blocks of {lds} bytes of shared memory do not fit an SM", self.min_waves));
        }
        Ok(())
    }

    fn validate_direct(&self, family: GemmFamily) -> Result<(), String> {
        // (Complex operands stay as stored in LDS: every loader a complex family can reach
        // conjugates as it reads, the generic one and the complex atoms' own, by Off::CONJ.)
        if self.lds_elem_bytes(family) != family.ab_bytes() {
            return Err(format!(
                "the direct path copies raw elements: family {} stores {}-byte inputs but the atom takes {}-byte ones",
                family.tag(),
                family.ab_bytes(),
                self.lds_elem_bytes(family)
            ));
        }
        let e = family.ab_bytes();
        let v = 16 / e;
        for (what, d) in [("M", self.mt[0]), ("N", self.mt[1]), ("K", self.mt[2])] {
            if d % v != 0 {
                return Err(format!("MT_{what} {d} is not a multiple of the {v}-element (16-byte) copy chunk"));
            }
            match self.lds {
                LdsLayout::Xor if !(d / v).is_power_of_two() => {
                    return Err(format!("XOR swizzle needs a power-of-two count of 16-byte chunks per row (MT_{what} {d})"))
                }
                LdsLayout::Pad { a, b } => {
                    for p in [a, b] {
                        if (d + p) * e % 16 != 0 {
                            return Err(format!("padded LDS rows ({d} + {p} elements) are not 16-byte aligned"));
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The C++ config type.
    pub fn cpp(&self, family: GemmFamily) -> String {
        let [mm, nn, kk] = self.mt;
        if self.is_wgmma() {
            return format!(
                "rm_sm90_config<{}_n{nn}, {mm}, {nn}, {}, {}, {}, {}, {}, {}, {}, {}>",
                self.atom.cpp(""),
                self.stages,
                self.group_m,
                self.waves[0],
                family.c_bytes(),
                u32::from(self.split_k > 1),
                u32::from(self.smem_transpose),
                self.min_waves,
                u32::from(self.multicast)
            );
        }
        let [pa, pb] = self.pads();
        format!(
            "rm_gemm_config<{}, {mm}, {nn}, {kk}, {}, {}, {pa}, {pb}, {}, {}, {}, {}{}>",
            self.atom.cpp(family.compute_cpp()),
            self.waves[0],
            self.waves[1],
            self.min_waves,
            self.stages,
            u32::from(self.lds == LdsLayout::Xor),
            self.group_m,
            if self.prefetch { ", 1" } else { "" }
        )
    }

    /// Whether kernels of this config can be compiled for and run on `arch`.
    pub fn supports_arch(&self, family: GemmFamily, arch: &str) -> bool {
        let Some(a) = Arch::parse(arch) else { return false };
        let lds = self.lds_bytes(family);
        match (self.atom.vendor(), a) {
            (Vendor::Any, Arch::Nvidia(_)) => true,
            (Vendor::Any, Arch::Amd(_)) => lds <= AMD_LDS,
            // wgmma, setmaxnreg and the m16n8k16 DMMA exist on sm_90 only (not on later majors).
            (Vendor::Nvidia, Arch::Nvidia(sm)) => self.atom.nvidia_sms().contains(&sm),
            (Vendor::Amd, Arch::Amd(AmdArch::Cdna23)) => lds <= AMD_LDS,
            _ => false,
        }
    }

    /// A direct-path config as the generator's defaults make it: XOR-swizzled LDS, tiles walked
    /// in groups of 8 rows.
    fn direct(atom: Atom, mt: [u32; 3], waves: [u32; 2], stages: u32) -> GemmConfig {
        GemmConfig { atom, mt, waves, lds: LdsLayout::Xor, stages, group_m: 8, min_waves: 1, persistent: false, split_k: 1, repack: false, prefetch: false, smem_transpose: false, multicast: false, unit_grid: false }
    }

    /// A direct-path DMMA config (sm_90) on rows padded by 4 doubles (the f64 candidates and
    /// arch fallback); `min_waves` blocks per SM cap its registers.
    fn padded_dmma(atom: Atom, mt: [u32; 3], waves: [u32; 2], stages: u32, min_waves: u32) -> GemmConfig {
        GemmConfig { lds: LdsLayout::Pad { a: 4, b: 4 }, min_waves, ..GemmConfig::direct(atom, mt, waves, stages) }
    }

    /// A complex-f64 config (tile in complex elements) of `atom` (the DMMA or MFMA complex form)
    /// on the direct path. `k_contiguous` says which operands the layout it is for stores
    /// k-contiguous (A when transposed, B when not). A DMMA lane reads 16-byte elements at rows t
    /// and t + 4 of an 8-row (k-contiguous: 4-column) group, so a row stride of 2 (mod 8)
    /// elements when the tile is m- or n-contiguous, and 4 (mod 8) when it is k-contiguous, puts
    /// the eight lanes of each quarter warp on eight different bank groups.
    fn complex_tile(atom: Atom, mt: [u32; 3], waves: [u32; 2], stages: u32, min_waves: u32, k_contiguous: [bool; 2]) -> GemmConfig {
        let pad = |kc: bool, rows: u32| (if kc { 4 + 8 - mt[2] % 8 } else { 2 + 8 - rows % 8 }) % 8;
        let lds = LdsLayout::Pad { a: pad(k_contiguous[0], mt[0]), b: pad(k_contiguous[1], mt[1]) };
        GemmConfig { lds, min_waves, ..GemmConfig::direct(atom, mt, waves, stages) }
    }

    /// A wgmma config (sm_90a): 128 x `n` x (one 128-byte row of k) tiles, two consumer
    /// warpgroups, swizzled stages.
    fn wgmma(atom: Atom, n: u32, stages: u32) -> GemmConfig {
        let k = match atom.input() {
            AtomInput::Tf32 => 32,
            AtomInput::I8 => 128,
            _ => 64,
        };
        GemmConfig { atom, mt: [128, n, k], waves: [2, 1], lds: LdsLayout::Xor, stages, group_m: 8, min_waves: 1, persistent: false, split_k: 1, repack: false, prefetch: false, smem_transpose: false, multicast: false, unit_grid: false }
    }

    /// A register-staged config: padded LDS, row-major tile order.
    fn register_staged(atom: Atom, mt: [u32; 3], waves: [u32; 2], pad: u32, min_waves: u32) -> GemmConfig {
        GemmConfig { atom, mt, waves, lds: LdsLayout::Pad { a: pad, b: pad }, stages: 1, group_m: 1, min_waves, persistent: false, split_k: 1, repack: false, prefetch: false, smem_transpose: false, multicast: false, unit_grid: false }
    }

    /// The config of a variant when no tuning table has a better one (the fallback).
    pub fn fallback(family: GemmFamily, variant: GemmVariant) -> Result<GemmConfig, String> {
        use GemmFamily as F;
        let reg = GemmConfig::register_staged;
        let cfg = match variant {
            // 64x64 tile, 16x16 threads each computing 4x4; complex double halves K to keep LDS
            // at 17 KiB.
            GemmVariant::Fma => reg(Atom::Fma, [64, 64, if family == F::Z { 8 } else { 16 }], [16, 16], 4, 1),
            // (The FMA atom stages i8 widened to int in LDS, like 16-bit inputs widened to float.)
            GemmVariant::Mma => match family {
                F::H | F::Hss | F::Hhs | F::Bss | F::Bbs => GemmConfig::direct(mma16_atom(family), [128, 128, 32], [2, 2], 4),
                F::D => GemmConfig::direct(Atom::MmaM8n8k4F64, [64, 64, 16], [2, 2], 3),
                F::S => return Err("mma: no f32 mma.sync without TF32 rounding; use the fma variant".into()),
                F::Xf32 => GemmConfig::direct(Atom::MmaM16n8k8Tf32, [128, 128, 32], [2, 2], 3),
                F::I8 => GemmConfig::direct(Atom::MmaM16n8k32S8, [128, 128, 64], [2, 2], 3),
                F::C | F::Z => return Err("mma: no complex mma.sync; use the fma variant".into()),
            },
            GemmVariant::Wgmma => match family {
                F::H | F::Hss | F::Hhs => GemmConfig::wgmma(Atom::WgmmaF16, 256, 4),
                F::Bss | F::Bbs => GemmConfig::wgmma(Atom::WgmmaBf16, 256, 4),
                F::Xf32 => GemmConfig::wgmma(Atom::WgmmaTf32, 256, 4),
                F::I8 => GemmConfig::wgmma(Atom::WgmmaS8, 256, 4),
                _ => return Err(format!("wgmma: no {} form (16-bit, xf32 and i8 inputs only)", family.tag())),
            },
            GemmVariant::Mfma => match family {
                F::H | F::Hss | F::Hhs => reg(Atom::MfmaF32_32x32x8F16, [128, 128, 32], [2, 2], 4, 2),
                F::Bss | F::Bbs => reg(Atom::MfmaF32_16x16x16Bf16_1k, [128, 128, 32], [2, 2], 4, 2),
                // (xf32 on the f32 MFMA: products in full f32, more precise than TF32.)
                F::S | F::Xf32 => reg(Atom::MfmaF32_32x32x2F32, [128, 128, 16], [2, 2], 4, 2),
                F::D => reg(Atom::MfmaF64_16x16x4F64, [128, 64, 16], [2, 2], 4, 2),
                // (complex f64 as 2 x 2 real blocks on the f64 MFMA, 64 x 64 x 4 complex tiles:
                // the real work of a 128 x 64 x 8 f64 tile; the direct path, whose loaders
                // conjugate. K 4: 17 KiB of LDS in two stages leaves room for three blocks, 12
                // waves, per CU; 64 x 64 x 8 took 40 KiB and ran one wave per SIMD.)
                F::Z => GemmConfig::complex_tile(Atom::MfmaF64_16x16x4Z, [64, 64, 4], [2, 2], 2, 2, [false, false]),
                F::C => return Err("mfma: no complex f32 MFMA; use the fma variant".into()),
                F::I8 => return Err("mfma: no i8 atom yet; use the fma variant".into()),
            },
        };
        cfg.validate(family)?;
        Ok(cfg)
    }

    /// The fallback of a variant on `arch`: [`fallback`](Self::fallback), except where the arch
    /// has a faster atom that the portable fallback cannot use. f64 on sm_90: the m16n8k16 DMMA
    /// shape (Hopper's native FP64 tensor-core instruction; m8n8k4 issues at a lower rate there),
    /// with CUTLASS's Hopper DGEMM blocking, 128x64x16 over 2x2 warps, 3 stages, on padded rows
    /// (see the DMMA candidates).
    /// Complex f64 on sm_90: the k8 complex DMMA atom in 64 x 64 x 8 complex tiles over 2 x 2
    /// warps with fragment prefetch (the f64 table's 128 x 64 x 16 pick in complex form; the z NT
    /// table's pick at 1024-4096 on the H100, s28-e), rows padded for the NT layout (see
    /// `complex_tile`).
    pub fn arch_fallback(family: GemmFamily, variant: GemmVariant, arch: &str) -> Result<GemmConfig, String> {
        let special = match (family, variant) {
            (GemmFamily::D, GemmVariant::Mma) => Some(GemmConfig::padded_dmma(Atom::MmaM16n8k16F64, [128, 64, 16], [2, 2], 3, 1)),
            (GemmFamily::Z, GemmVariant::Mma) => {
                Some(GemmConfig { prefetch: true, ..GemmConfig::complex_tile(Atom::MmaM16n8k8Z, [64, 64, 8], [2, 2], 3, 1, [false, false]) })
            }
            _ => None,
        };
        if let Some(c) = special.filter(|c| c.supports_arch(family, arch)) {
            c.validate(family)?;
            return Ok(c);
        }
        GemmConfig::fallback(family, variant)
    }

    /// The configs the tuner tries for `family` on `arch` (all valid, all supported there).
    pub fn candidates(family: GemmFamily, arch: &str) -> Vec<GemmConfig> {
        use GemmFamily as F;
        let mut v = Vec::new();
        let nvidia = matches!(Arch::parse(arch), Some(Arch::Nvidia(sm)) if sm >= 80);
        let cdna = matches!(Arch::parse(arch), Some(Arch::Amd(AmdArch::Cdna23)));
        let (direct, reg) = (GemmConfig::direct, GemmConfig::register_staged);
        // Persistent small-batch configs: deeper pipelines, since one block streams many matrices.
        let persistent = |atom, mt, waves, stages| GemmConfig { persistent: true, ..direct(atom, mt, waves, stages) };
        for variant in GemmVariant::ALL {
            if let Ok(c) = GemmConfig::arch_fallback(family, variant, arch) {
                v.push(c);
            }
        }
        if nvidia {
            match family {
                F::H | F::Hss | F::Hhs | F::Bss | F::Bbs => {
                    let wg = if matches!(family, F::Bss | F::Bbs) { Atom::WgmmaBf16 } else { Atom::WgmmaF16 };
                    // (128 x 64 tiles: twice the blocks of 128 x 128 where m is small, as in 16 x 8192 x 8192,
                    // which reads B once and needs every SM's share of the bandwidth.)
                    for (n, stages) in [(256, 3), (256, 4), (128, 4), (128, 6), (192, 4), (64, 6), (64, 8)] {
                        v.push(GemmConfig::wgmma(wg, n, stages));
                    }
                    for (n, stages, split_k) in [(128, 4, 2), (128, 6, 2), (128, 4, 4), (64, 6, 2), (256, 4, 2)] {
                        v.push(GemmConfig { split_k, ..GemmConfig::wgmma(wg, n, stages) });
                    }
                    // Clusters of two sharing B by multicast (`m`): L2 sends B once per pair of
                    // tiles (cuBLAS's kernels at 8192 x 8192 x 128 run in clusters of two). On an
                    // H200, level with the plain tiles at h 4096^3 and 8192^3 and 4-7 % slower at
                    // 8192 x 8192 x 128 in h, hss and bss (2026-11-21-h100-gemm/s53-b.txt); kept
                    // for the tuner to weigh at other shapes.
                    for (n, stages, split_k) in [(256, 3, 1), (128, 6, 1), (128, 4, 2)] {
                        v.push(GemmConfig { split_k, multicast: true, ..GemmConfig::wgmma(wg, n, stages) });
                    }
                    // One consumer warpgroup, 64-row tiles: small m (16 x 8192 x 8192) fills every
                    // SM with fewer rows of A multiplied as zeros. (64 x 256 spills: 128
                    // accumulators without setmaxnreg's 232 registers.) 64 x 128 with 8 stages,
                    // the most that fit: more of B in flight an SM for 16 x 8192 x 8192, which
                    // reads B once (on an H200 2-11 % faster than 6 stages in the 16-bit
                    // families, NT and NN: 2026-11-21-h100-gemm/s51-a.txt, s51-c.txt).
                    for (n, stages, split_k) in [(64, 8, 1), (128, 6, 1), (128, 8, 1), (128, 6, 2)] {
                        v.push(GemmConfig { mt: [64, n, 64], waves: [1, 1], split_k, ..GemmConfig::wgmma(wg, n, stages) });
                    }
                    // Two consumers taking 64-row tiles in turn (small batches: 64^3 is one
                    // tile, whose store then overlaps the next tile's multiply), deep rings.
                    // (64 x 256 spills under the 168 registers of 384 threads.)
                    for (n, stages) in [(64, 8), (64, 12), (128, 6), (128, 8)] {
                        v.push(GemmConfig { mt: [64, n, 64], ..GemmConfig::wgmma(wg, n, stages) });
                    }
                    // One consumer, several blocks per SM (`o2`-`o3`): as many independent
                    // pipelines an SM, for the memory-bound small batches (64^3 f16: 16 KiB of A and
                    // B and 8-16 KiB of D a matrix, a few wgmma instructions). On an H200, 64^3 x
                    // 4096 5-8 % faster than the ping-pong tiles and h 128^3 x 2048 8 % faster than
                    // 128 x 128 (2026-11-21-h100-gemm/s50-a.txt, s50-b.txt). (Four blocks spill
                    // at 64 registers; split along K too, 16 x 8192 x 8192 ran 20-30 % slower than
                    // unsplit 64 x 128 tiles, s50-e.txt.)
                    // (o3 s4 has one epilogue staging buffer, where two would cost the third
                    // block: 1-3 % faster than o3 s3 at hss and bss 64^3 x 4096, s50-f.txt.)
                    for (n, stages, blocks) in [(64, 4, 2), (64, 5, 2), (64, 2, 3), (64, 3, 3), (64, 4, 3), (128, 3, 2)] {
                        v.push(GemmConfig { mt: [64, n, 64], waves: [1, 1], min_waves: blocks, ..GemmConfig::wgmma(wg, n, stages) });
                    }
                    // Two ping-pong consumers and two blocks per SM: 80 registers a thread, so
                    // 64 x 64 tiles (a 64 x 128 one needs about 90). bss 128^3 x 2048 2 % faster
                    // than 128 x 128 s6; 128 x 64 (two consumers on a tile) and 4 stages 7-12 %
                    // slower (2026-11-21-h100-gemm/s50-c.txt).
                    v.push(GemmConfig { mt: [64, 64, 64], min_waves: 2, ..GemmConfig::wgmma(wg, 64, 3) });
                    // A block a work unit (`u`), two stages (128^3's whole K), two blocks an SM:
                    // hss and bss 128^3 x 2048 5-6 % faster than on the persistent grid, 1 % faster
                    // than cuBLAS (2026-11-21-h100-gemm/s64-lines.txt).
                    for (mt, waves) in [([128, 64, 64], [2, 1]), ([64, 128, 64], [1, 1])] {
                        v.push(GemmConfig { mt, waves, min_waves: 2, unit_grid: true, ..GemmConfig::wgmma(wg, mt[1], 2) });
                    }
                    let atom = mma16_atom(family);
                    for (mt, waves) in [
                        ([64, 64, 32], [2, 2]),
                        ([128, 64, 32], [2, 2]),
                        ([64, 128, 32], [2, 2]),
                        ([128, 128, 32], [2, 2]),
                        ([128, 128, 32], [2, 4]),
                        ([128, 128, 64], [2, 2]),
                        ([128, 256, 32], [2, 4]),
                        ([256, 128, 32], [4, 2]),
                        ([128, 256, 64], [2, 4]),
                        ([256, 128, 64], [4, 2]),
                    ] {
                        for stages in [3, 4] {
                            v.push(direct(atom, mt, waves, stages));
                        }
                    }
                    // Small batched problems (32^3, 64^3): one block per matrix, small blocks so
                    // that many stay resident per SM while their loads are in flight.
                    // (2 x 2 warps of 16 x 16: cuBLAS's shape for d 32^3, fewer registers a lane.)
                    for (mt, waves) in [
                        ([32, 32, 32], [1, 1]),
                        ([32, 32, 32], [2, 1]),
                        ([32, 32, 32], [2, 2]),
                        ([64, 64, 64], [2, 2]),
                        ([64, 64, 64], [2, 1]),
                    ] {
                        v.push(direct(atom, mt, waves, 2));
                    }
                    for (mt, waves, stages) in [
                        ([32, 32, 32], [1, 1], 3),
                        ([32, 32, 32], [1, 1], 4),
                        ([32, 32, 32], [2, 1], 3),
                        ([32, 32, 32], [2, 2], 3),
                        ([64, 64, 64], [2, 2], 3),
                        ([64, 64, 32], [2, 2], 4),
                        ([128, 128, 32], [2, 2], 3),
                    ] {
                        v.push(persistent(atom, mt, waves, stages));
                    }
                    // Split-K on the mma.sync tiles: the wgmma configs split at most 16 ways, 64
                    // units at 256 x 256 x 65536 on 132 SMs.
                    for (mt, splits) in [([64, 64, 32], &[8, 16, 32, 64][..]), ([128, 128, 32], &[16, 64][..])] {
                        for &split_k in splits {
                            v.push(GemmConfig { split_k, ..direct(atom, mt, [2, 2], 4) });
                        }
                    }
                }
                F::Xf32 => {
                    for (n, stages) in [(256, 3), (256, 4), (128, 4), (128, 6), (192, 4)] {
                        v.push(GemmConfig::wgmma(Atom::WgmmaTf32, n, stages));
                    }
                    for (n, stages, split_k) in [(128, 4, 2), (128, 4, 4), (128, 6, 2)] {
                        v.push(GemmConfig { split_k, ..GemmConfig::wgmma(Atom::WgmmaTf32, n, stages) });
                    }
                    // Smaller tiles for 1024^3, which is 64 tiles of 128 x 128 on 132 SMs: 128 x 64
                    // (two consumers), 64-row tiles with one consumer, and ping-pong 64-row tiles
                    // (the 16-bit families' shapes, K tiles of 32 tf32).
                    for (n, stages) in [(64, 6), (64, 8)] {
                        v.push(GemmConfig::wgmma(Atom::WgmmaTf32, n, stages));
                    }
                    for (n, stages, split_k) in [(64, 8, 1), (128, 6, 1), (128, 6, 2)] {
                        v.push(GemmConfig { mt: [64, n, 32], waves: [1, 1], split_k, ..GemmConfig::wgmma(Atom::WgmmaTf32, n, stages) });
                    }
                    for (n, stages) in [(64, 8), (128, 6)] {
                        v.push(GemmConfig { mt: [64, n, 32], ..GemmConfig::wgmma(Atom::WgmmaTf32, n, stages) });
                    }
                    for (mt, waves) in [([128, 128, 32], [2, 2]), ([128, 128, 16], [2, 4]), ([128, 256, 16], [2, 4]), ([64, 64, 32], [2, 2])] {
                        for stages in [3, 4] {
                            v.push(direct(Atom::MmaM16n8k8Tf32, mt, waves, stages));
                        }
                    }
                    // The same wgmma shapes transposing MN-major operands in shared memory (`t`):
                    // no copy before the call, two rings of stages. For NT, NN and TT where the
                    // copy costs about as much as the multiply (the small batches).
                    let xposed = |mt: [u32; 3], waves: [u32; 2], stages| GemmConfig {
                        mt,
                        waves,
                        smem_transpose: true,
                        ..GemmConfig::wgmma(Atom::WgmmaTf32, mt[1], stages)
                    };
                    // (Three warps transpose, stage s by warp s % 3: stage counts of 3 and 6 keep
                    // them equally busy.)
                    for (mt, waves, stages) in [
                        ([128, 128, 32], [2, 1], 3),
                        ([128, 64, 32], [2, 1], 3),
                        ([128, 64, 32], [2, 1], 4),
                        ([64, 128, 32], [2, 1], 3),
                        ([64, 128, 32], [2, 1], 4),
                        ([64, 64, 32], [2, 1], 3),
                        ([64, 64, 32], [2, 1], 6),
                        ([64, 64, 32], [1, 1], 3),
                        ([64, 64, 32], [1, 1], 6),
                    ] {
                        v.push(xposed(mt, waves, stages));
                    }
                    // Two blocks per SM (`o2`, one consumer each, two stages: 83 KiB): two
                    // pipelines per SM for the 64^3 batches, which are bound by memory.
                    v.push(GemmConfig { min_waves: 2, ..xposed([64, 64, 32], [1, 1], 2) });
                    // (Three such blocks, or two of three stages, each with one epilogue staging
                    // buffer: 1-3 % slower at 64^3 x 4096 in every layout, s50-f.txt.)
                    // Three a block a work unit (`u`), though: 64^3 x 4096 0.0717-0.0719 ms against
                    // 0.0763 on the persistent grid, and the two-consumer s3t's 0.0726 (s64-lines.txt).
                    v.push(GemmConfig { min_waves: 3, unit_grid: true, ..xposed([64, 64, 32], [1, 1], 2) });
                    // Small batches (64^3, 128^3) in NT, NN and TT: tf32 wgmma reads only k-major
                    // operands, so those layouts pay a copy per call before it, which costs more
                    // than the multiply at these sizes (0.63-0.70 of cuBLAS at 128^3, s22).
                    // mma.sync reads either layout from LDS. Padded rows: 8 floats when the tile
                    // is m- (n-) contiguous, where a fragment read's lanes step k by rows (8
                    // banks apart), 4 when it is k-contiguous; the name's pads are A's then B's.
                    let tf32 = |pad: [u32; 2], mt, stages, persistent_grid| GemmConfig {
                        lds: LdsLayout::Pad { a: pad[0], b: pad[1] },
                        persistent: persistent_grid,
                        ..direct(Atom::MmaM16n8k8Tf32, mt, [2, 2], stages)
                    };
                    for pad in [[8, 8], [8, 4], [4, 8]] {
                        v.push(tf32(pad, [64, 64, 32], 3, false));
                        v.push(tf32(pad, [64, 64, 32], 4, true));
                    }
                    v.push(tf32([8, 8], [64, 64, 32], 2, false));
                    // K tiles of 16 (cuBLAS's 64 x 64 tf32 tile takes 16 x 6 stages): 3 % faster
                    // than the 32-deep tiles at 64^3 x 4096 on an H200 (2026-11-21-h100-gemm/s46-h.txt).
                    v.push(tf32([8, 8], [64, 64, 16], 4, false));
                    v.push(tf32([8, 8], [128, 128, 32], 2, false));
                    v.push(tf32([8, 8], [128, 128, 32], 3, true));
                    // Skinny m (16 x 8192 x 8192; see the f64 ones below): 16-row tiles, split along K.
                    for split_k in [1, 2, 4, 8] {
                        for stages in [3, 4] {
                            v.push(GemmConfig { split_k, min_waves: 2, waves: [1, 4], ..tf32([8, 8], [16, 128, 32], stages, false) });
                        }
                    }
                }
                F::I8 => {
                    // s8 wgmma (k-major operands; other layouts pay a byte-transposing copy):
                    // the 16-bit families' tile shapes with K tiles of 128 bytes. No split-K.
                    for (n, stages) in [(256, 3), (256, 4), (128, 4), (128, 6), (192, 4), (64, 6), (64, 8)] {
                        v.push(GemmConfig::wgmma(Atom::WgmmaS8, n, stages));
                    }
                    for (n, stages) in [(64, 8), (128, 6)] {
                        v.push(GemmConfig { mt: [64, n, 128], waves: [1, 1], ..GemmConfig::wgmma(Atom::WgmmaS8, n, stages) });
                        v.push(GemmConfig { mt: [64, n, 128], ..GemmConfig::wgmma(Atom::WgmmaS8, n, stages) });
                    }
                    for (mt, waves) in [([128, 128, 64], [2, 2]), ([128, 256, 64], [2, 4]), ([64, 64, 64], [2, 2])] {
                        for stages in [3, 4] {
                            v.push(direct(Atom::MmaM16n8k32S8, mt, waves, stages));
                        }
                    }
                }
                F::D => {
                    for (mt, waves) in [
                        ([64, 64, 16], [2, 2]),
                        ([64, 64, 32], [2, 2]),
                        ([128, 64, 16], [2, 2]),
                        ([64, 128, 16], [2, 2]),
                        ([128, 128, 16], [2, 4]),
                        ([128, 128, 16], [4, 2]),
                        ([128, 128, 32], [2, 4]),
                    ] {
                        for stages in [3, 4] {
                            v.push(direct(Atom::MmaM8n8k4F64, mt, waves, stages));
                        }
                    }
                    // sm_90's DMMA shapes (supports_arch drops these elsewhere), on padded rows
                    // (4 doubles: a row stride of 4 mod 16 doubles spreads the lanes of a fragment
                    // read over all banks), which keep every fragment address a per-lane base plus
                    // a constant; the XOR swizzle cost a register and two instructions per element
                    // read, and spilled in most of these shapes (H100, s14: 0.83-0.91 of cuBLAS at
                    // the squares with it, 0.83-0.94 without). `o` blocks per SM caps the
                    // registers; the k8 atom halves the fragments. cuBLAS's sm_90 picks, for
                    // comparison (ncu s14): 128x64x32 over 4x2 warps with k16 at 1024^3; 64x64x16
                    // over 2x2 warps, 4 stages, k8, three blocks per SM at 4096^3. (Four blocks
                    // per SM, o4, spill 96-128 bytes in either shape; so do the k8 64 x 128 and
                    // 128 x 64 tiles over 2 x 2 warps: nvrtc 13.0's ptxas report.)
                    for atom in [Atom::MmaM16n8k16F64, Atom::MmaM16n8k8F64] {
                        for (mt, waves, stages, min_waves) in [
                            ([64, 64, 16], [2, 2], 3, 3),
                            ([64, 64, 16], [2, 2], 4, 3),
                            ([64, 64, 32], [2, 2], 3, 2),
                            ([128, 64, 32], [4, 2], 3, 1),
                            ([128, 128, 16], [2, 4], 3, 1),
                        ] {
                            v.push(GemmConfig::padded_dmma(atom, mt, waves, stages, min_waves));
                        }
                    }
                    // (64 x 64 over 2 x 1 warps and 32 x 32 x 32 over one spill 72 and 272 bytes
                    // even padded; the 128 x 64 x 16 arch fallback joins the list first.)
                    v.push(GemmConfig::padded_dmma(Atom::MmaM16n8k16F64, [64, 128, 16], [2, 2], 3, 1));
                    // Fragment prefetch (`f`): the blockings above whose warps have room for a
                    // second fragment set (32 x 32 warp tiles, or 64 x 32 with the k8 atom).
                    for (atom, mt, waves, stages, min_waves) in [
                        (Atom::MmaM16n8k16F64, [128, 64, 32], [4, 2], 3, 1),
                        (Atom::MmaM16n8k16F64, [128, 64, 32], [4, 2], 4, 1),
                        (Atom::MmaM16n8k8F64, [128, 64, 32], [4, 2], 3, 1),
                        (Atom::MmaM16n8k16F64, [64, 64, 32], [2, 2], 3, 2),
                        (Atom::MmaM16n8k8F64, [64, 64, 32], [2, 2], 3, 2),
                        (Atom::MmaM16n8k8F64, [64, 64, 16], [2, 2], 4, 3),
                        (Atom::MmaM16n8k8F64, [64, 64, 16], [2, 2], 3, 3),
                        (Atom::MmaM16n8k8F64, [128, 64, 16], [2, 2], 3, 1),
                    ] {
                        v.push(GemmConfig { prefetch: true, ..GemmConfig::padded_dmma(atom, mt, waves, stages, min_waves) });
                    }
                    // Persistent small-batch tiles (XOR-swizzled; the 32 x 32 ones are the d 32^3
                    // table's, tuned in session 9).
                    // The 2 x 2 warp 32 x 32 tiles are cuBLAS's for d 32^3 (ncu s18: 80 registers, four
                    // warps a block, 85 % of DRAM bandwidth, where one warp a tile held 209 registers).
                    for (mt, waves, stages) in [
                        ([32, 32, 32], [1, 1], 3),
                        ([32, 32, 16], [1, 1], 4),
                        ([32, 32, 32], [2, 2], 3),
                        ([32, 32, 16], [2, 2], 4),
                        ([64, 64, 16], [2, 2], 4),
                        ([64, 64, 32], [2, 2], 3),
                    ] {
                        v.push(persistent(Atom::MmaM16n8k16F64, mt, waves, stages));
                    }
                    for stages in [2, 3] {
                        for atom in [Atom::MmaM16n8k16F64, Atom::MmaM16n8k8F64] {
                            v.push(direct(atom, [32, 32, 32], [2, 2], stages));
                            v.push(GemmConfig::padded_dmma(atom, [32, 32, 32], [2, 2], stages, 1));
                        }
                    }
                    v.push(persistent(Atom::MmaM16n8k8F64, [32, 32, 32], [2, 2], 3));
                    v.push(persistent(Atom::MmaM8n8k4F64, [64, 64, 16], [2, 2], 4));
                    // Split-K, for tiles too few to fill the GPU with long K (256 x 256 x 65536 is
                    // 16 tiles of 64 x 64: 16 slices made it 16x faster, s20-a).
                    for (mt, min_waves, splits) in [([64, 64, 16], 3, &[2, 4, 8, 16, 32][..]), ([128, 64, 16], 1, &[2, 4, 16, 32][..])] {
                        for &split_k in splits {
                            let c = GemmConfig::padded_dmma(Atom::MmaM16n8k16F64, mt, [2, 2], 3, min_waves);
                            v.push(GemmConfig { split_k, ..c });
                        }
                    }
                    // Skinny m (16 x 8192 x 8192): 16-row tiles of four warps side by side,
                    // split along K. The 64-row tiles multiply 48 rows of padding there, and the
                    // time floor is reading B once; n = 8192 gives 64 tiles of 128 columns, so the
                    // split fills the SMs.
                    for (mt, waves, stages, min_waves) in [([16, 128, 16], [1, 4], 4, 2), ([16, 256, 16], [1, 8], 4, 1)] {
                        for split_k in [1, 2, 4, 8] {
                            v.push(GemmConfig { split_k, ..GemmConfig::padded_dmma(Atom::MmaM16n8k16F64, mt, waves, stages, min_waves) });
                        }
                    }
                }
                // Complex f64 on the DMMA (sm_90; tiles in complex elements, each the real work
                // of a 2m x n x 2k f64 tile), each padded for every layout (which operands are
                // k-contiguous). The k8 atom's tiles are the f64 table's picks in complex form
                // (its 128 x 64 x 16 over 2 x 2 warps with prefetch at 2048-8192, 64 x 64 x 16 at
                // 1024^3 and 128^3 batches); the k16 atom's are the shapes whose fragments fit.
                // (Wave tiles of 32 x 32 complex on the k16 atom, as in 64 x 64 over 2 x 2 warps
                // or 128 x 64 over 4 x 2, spill 40-460 bytes in every layout: nvrtc 13.0's
                // ptxas.)
                F::Z => {
                    let k8 = |mt, waves, stages, min_waves, prefetch| (Atom::MmaM16n8k8Z, mt, waves, stages, min_waves, prefetch);
                    let k16 = |mt, waves, stages, min_waves| (Atom::MmaM16n8k16Z, mt, waves, stages, min_waves, false);
                    for (atom, mt, waves, stages, min_waves, prefetch) in [
                        k8([64, 64, 8], [2, 2], 3, 1, true),
                        k8([64, 64, 8], [2, 2], 3, 1, false),
                        k8([32, 64, 8], [2, 2], 3, 3, true),
                        k8([32, 64, 8], [2, 2], 3, 3, false),
                        k8([32, 32, 8], [2, 2], 4, 3, false),
                        k16([64, 64, 8], [2, 4], 3, 1),
                        k16([64, 64, 8], [4, 2], 3, 1),
                        k16([64, 64, 16], [4, 2], 3, 1),
                        k16([64, 64, 16], [2, 4], 3, 1),
                        k16([32, 64, 8], [2, 2], 4, 2),
                        k16([64, 32, 8], [2, 2], 4, 2),
                        k16([32, 32, 8], [2, 2], 4, 3),
                        k16([32, 32, 16], [2, 2], 3, 3),
                    ] {
                        for kc in [[false, false], [false, true], [true, true], [true, false]] {
                            v.push(GemmConfig { prefetch, ..GemmConfig::complex_tile(atom, mt, waves, stages, min_waves, kc) });
                        }
                    }
                    // Skinny m (16 x 8192 x 8192, whose floor is reading B's 1 GiB once): 16-row
                    // tiles of warps side by side, split along K, as in f64. The 32-row tiles
                    // multiply 16 rows of padding and give 128-256 blocks on 132 SMs (0.66 of
                    // cuBLAS, s28).
                    for (mt, waves, min_waves) in [([16, 128, 8], [1, 4], 2), ([16, 64, 8], [1, 2], 4)] {
                        for split_k in [1, 2, 4, 8] {
                            for kc in [[false, false], [false, true], [true, true], [true, false]] {
                                v.push(GemmConfig { split_k, ..GemmConfig::complex_tile(Atom::MmaM16n8k8Z, mt, waves, 4, min_waves, kc) });
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        if cdna {
            match family {
                F::H | F::Hss | F::Hhs => {
                    v.push(reg(Atom::MfmaF32_16x16x16F16, [128, 128, 32], [2, 2], 4, 2));
                    v.push(reg(Atom::MfmaF32_32x32x8F16, [128, 64, 32], [2, 2], 4, 2));
                }
                F::Bss | F::Bbs => {
                    v.push(reg(Atom::MfmaF32_32x32x8Bf16_1k, [128, 128, 32], [2, 2], 4, 2));
                    v.push(reg(Atom::MfmaF32_16x16x16Bf16_1k, [128, 64, 32], [2, 2], 4, 2));
                }
                F::S => v.push(reg(Atom::MfmaF32_32x32x2F32, [128, 64, 16], [2, 2], 4, 2)),
                F::D => v.push(reg(Atom::MfmaF64_16x16x4F64, [64, 64, 16], [2, 2], 4, 2)),
                // (complex tiles whose 16-byte elements leave LDS for at least two waves per SIMD
                // with every layout's pads; three stages of 64 x 64 x 4, and 32 x 64 x 4 over 1 x 2
                // waves, fell to one on the m/n-contiguous pads: kernels-check, gfx942)
                F::Z => {
                    for (mt, waves, stages) in [([64, 64, 4], [2, 2], 2), ([32, 32, 8], [2, 2], 2)] {
                        for kc in [[false, false], [false, true], [true, true], [true, false]] {
                            v.push(GemmConfig::complex_tile(Atom::MfmaF64_16x16x4Z, mt, waves, stages, 2, kc));
                        }
                    }
                }
                _ => {}
            }
        }
        // Scalar FMA (every arch): bigger per-thread tiles, and the direct path for S and D.
        match family {
            F::S | F::D | F::Xf32 => {
                for (mt, t) in [([128, 128, 8], [16, 16]), ([128, 64, 8], [16, 16]), ([64, 128, 8], [16, 16]), ([128, 128, 16], [16, 16])] {
                    v.push(reg(Atom::Fma, mt, t, 4, 1));
                    for stages in [2, 3] {
                        v.push(GemmConfig { lds: LdsLayout::Pad { a: 4, b: 4 }, ..direct(Atom::Fma, mt, t, stages) });
                    }
                }
                // Small batched problems: 32x32 and 64x64 tiles with 4x4 or 8x8 per thread.
                for (mt, t) in [([32, 32, 32], [8, 8]), ([32, 32, 16], [8, 8]), ([64, 64, 16], [8, 8]), ([64, 64, 32], [16, 16])] {
                    v.push(reg(Atom::Fma, mt, t, 4, 1));
                    v.push(GemmConfig { lds: LdsLayout::Pad { a: 4, b: 4 }, ..direct(Atom::Fma, mt, t, 2) });
                }
                for (mt, t, stages) in [([32, 32, 32], [8, 8], 3), ([32, 32, 16], [8, 8], 4), ([64, 64, 16], [8, 8], 3), ([64, 64, 16], [16, 16], 3)] {
                    v.push(GemmConfig { lds: LdsLayout::Pad { a: 4, b: 4 }, ..persistent(Atom::Fma, mt, t, stages) });
                }
                // Skinny m (16 x 8192 x 8192): 16-row tiles (4 x 32 threads of 4 x 4) split along
                // K. The K-32 ones read B in runs of 32 elements where it is k-contiguous (NN, TN),
                // not 16.
                for (k, splits) in [(16, &[1, 2, 4, 8][..]), (32, &[2, 4, 8][..])] {
                    for &split_k in splits {
                        let scalar = direct(Atom::Fma, [16, 128, k], [4, 32], 3);
                        v.push(GemmConfig { split_k, min_waves: 2, lds: LdsLayout::Pad { a: 4, b: 4 }, ..scalar });
                    }
                }
            }
            // Complex f32 has no exact matrix-core product (cuBLAS's cgemm runs on FMA too): the s
            // blockings with 8-byte elements, register-staged and on the direct path; 32 x 32
            // tiles and a persistent grid for the small batches. (Only the register-staged 64 x 64
            // x 8 ran before: 0.80-0.81 of cuBLAS at 1024^3 and 4096^3, H100, s28.) The direct
            // path's 8 x 4 and 4 x 8 complex per thread only on NVIDIA: on gfx90a 128 x 64 x 8
            // spilled 16-20 registers in CC (kernels-check).
            F::C => {
                let padded = |mt, t, stages| GemmConfig { lds: LdsLayout::Pad { a: 4, b: 4 }, ..direct(Atom::Fma, mt, t, stages) };
                for (mt, t) in [([64, 64, 8], [16, 16]), ([128, 64, 8], [16, 16]), ([64, 128, 8], [16, 16]), ([64, 64, 16], [16, 16]), ([32, 32, 16], [8, 8])] {
                    v.push(reg(Atom::Fma, mt, t, 4, 1));
                    if nvidia || mt[0] * mt[1] / (t[0] * t[1]) <= 16 {
                        for stages in [2, 3] {
                            v.push(padded(mt, t, stages));
                        }
                    }
                }
                for (mt, t, stages) in [([32, 32, 16], [8, 8], 3), ([64, 64, 8], [16, 16], 3)] {
                    v.push(GemmConfig { persistent: true, ..padded(mt, t, stages) });
                }
            }
            _ => {}
        }
        // Warp-tiled FMA (s, xf32 and c; validate drops it elsewhere).
        let warp = |mt, waves, stages, min_waves| {
            if stages == 1 {
                reg(Atom::FmaWarp, mt, waves, 4, min_waves)
            } else {
                GemmConfig { lds: LdsLayout::Pad { a: 4, b: 4 }, min_waves, ..direct(Atom::FmaWarp, mt, waves, stages) }
            }
        };
        if family == F::C {
            // Complex f32 (NVIDIA only): 32 x 32 warp tiles (4 x 8 complex, 64 accumulator
            // registers a lane: the s blocking's 8 x 8 budget, with 3/4 of its LDS bytes per FMA),
            // 4 to 16 warps; 32 x 16 (4 x 4) ones for small batches, persistent too; 32 x 128
            // over 1 x 4 warps, split along K, for m = 16. (On gfx90a and gfx942 every one of them
            // took 250-300 VGPRs with AGPR spills, some to scratch, at 0-1 waves per SIMD:
            // kernels-check, s30.)
            if nvidia {
                for (mt, waves, stages) in [
                    ([64, 64, 8], [2, 2], &[1, 2, 3][..]),
                    ([64, 64, 16], [2, 2], &[1, 3][..]),
                    ([128, 64, 8], [4, 2], &[1, 3][..]),
                    ([64, 128, 8], [2, 4], &[1, 3][..]),
                    ([128, 128, 8], [4, 4], &[1, 3][..]),
                    ([32, 32, 16], [1, 2], &[1, 2][..]),
                ] {
                    for &s in stages {
                        v.push(warp(mt, waves, s, 1));
                    }
                }
                for (mt, waves, stages) in [([32, 32, 16], [1, 2], 3), ([64, 64, 16], [2, 2], 3)] {
                    v.push(GemmConfig { persistent: true, ..warp(mt, waves, stages, 1) });
                }
                for split_k in [1, 2, 4, 8] {
                    v.push(GemmConfig { split_k, ..warp([32, 128, 16], [1, 4], 3, 2) });
                }
            }
        } else {
            // f32: 8 x 8 per lane (2 x 2 atoms over a 64 x 32 warp tile) in 128 x 128 x 8 blocks of
            // 8 warps is CUTLASS's SIMT SGEMM blocking; 128 x 256 gives 16 x 8 per lane; smaller
            // tiles for small and batched problems.
            for (mt, waves, stages) in [
                ([128, 128, 8], [2, 4], &[1, 2, 3, 4][..]),
                ([128, 128, 8], [4, 2], &[1, 3, 4][..]),
                ([256, 128, 8], [4, 2], &[3][..]),
                ([128, 128, 16], [2, 4], &[1, 3][..]),
                ([128, 256, 8], [2, 4], &[1, 3][..]),
                ([128, 64, 8], [2, 2], &[1, 3][..]),
                ([64, 128, 8], [2, 2], &[1, 3][..]),
                ([64, 64, 16], [2, 2], &[1, 3][..]),
                ([64, 64, 32], [2, 2], &[1, 2][..]),
                ([32, 32, 32], [1, 2], &[1, 2][..]),
                ([32, 32, 16], [1, 1], &[1, 2][..]),
            ] {
                for &s in stages {
                    v.push(warp(mt, waves, s, 1));
                }
            }
            for (mt, waves, stages) in [
                ([32, 32, 32], [1, 2], 3),
                ([32, 32, 32], [1, 2], 2),
                ([32, 32, 16], [1, 1], 4),
                ([32, 32, 16], [1, 1], 3),
                ([32, 32, 16], [1, 2], 3),
                ([64, 64, 16], [2, 2], 3),
                ([64, 64, 16], [2, 2], 4),
                ([64, 64, 32], [2, 2], 2),
            ] {
                v.push(GemmConfig { persistent: true, ..warp(mt, waves, stages, 1) });
            }
            // Two blocks of 8 warps per SM (128 registers a thread on NVIDIA).
            for (mt, waves, stages) in [
                ([128, 128, 8], [2, 4], 1),
                ([128, 128, 16], [2, 4], 3),
                ([128, 128, 16], [4, 2], 1),
                ([128, 128, 16], [4, 2], 4),
            ] {
                v.push(warp(mt, waves, stages, 2));
            }
            // (Fragment prefetch, `f`, gained nothing on these tiles: 128 x 128 x 16 s3 o2, its k4
            // split, and 128 x 128 x 8 s3 and s4 at the squares, H100 s23-b.)
            // Split-K (see the f64 ones above).
            for (mt, waves, min_waves, splits) in [([64, 64, 16], [2, 2], 1, &[2, 4, 8, 16, 32][..]), ([128, 128, 16], [2, 4], 2, &[2, 4, 16, 64][..])] {
                for &split_k in splits {
                    v.push(GemmConfig { split_k, ..warp(mt, waves, 3, min_waves) });
                }
            }
            // Skinny m (16 x 8192 x 8192): the smallest warp tiles (32 rows), split along K (see the
            // f64 ones above; the scalar 16-row tiles are with the other scalar ones).
            for split_k in [1, 2, 4, 8] {
                v.push(GemmConfig { split_k, ..warp([32, 128, 16], [1, 4], 3, 2) });
            }
        }
        // s: twins of the direct warp-tiled tiles from 64 x 64 up (not the persistent ones, whose
        // batches of small matrices would pay the copy of every entry) that run NN, TN and TT as
        // NT behind the transposing copy.
        if family == F::S {
            let twins: Vec<GemmConfig> = v
                .iter()
                .filter(|c| c.atom == Atom::FmaWarp && c.is_direct() && !c.persistent && c.mt[0] * c.mt[1] >= 64 * 64)
                .map(|c| GemmConfig { repack: true, ..*c })
                .collect();
            v.extend(twins);
        }
        let mut seen = std::collections::HashSet::new();
        v.retain(|c| c.validate(family).is_ok() && c.supports_arch(family, arch) && seen.insert(*c));
        v
    }
}

impl GemmKernel {
    /// A strided-batched module of `family` with `config`, or why the config cannot run it.
    pub fn new(family: GemmFamily, config: GemmConfig) -> Result<GemmKernel, String> {
        config.validate(family)?;
        Ok(GemmKernel { family, config, batch: BatchForm::Strided })
    }

    /// The fallback module of a variant (see [`GemmConfig::fallback`]).
    pub fn fallback(family: GemmFamily, variant: GemmVariant) -> Result<GemmKernel, String> {
        GemmKernel::new(family, GemmConfig::fallback(family, variant)?)
    }

    /// The same module in pointer-array form.
    pub fn with_batch(self, batch: BatchForm) -> GemmKernel {
        GemmKernel { batch, ..self }
    }

    /// Whether the config has kernels of this batch form (wgmma: strided only, since each TMA
    /// tensor map describes one strided tensor; split-K: strided only, see [`unsplit`](Self::unsplit)).
    pub fn supports_batch(&self, form: BatchForm) -> bool {
        !((self.config.is_wgmma() || self.config.split_k > 1) && form == BatchForm::Pointers)
    }

    /// The arch to compile for when it differs from the device's (`sm_90a` for wgmma).
    pub fn arch_override(&self) -> Option<&'static str> {
        self.config.is_wgmma().then_some("sm_90a")
    }

    /// The fallback module of a variant on `arch` (see [`GemmConfig::arch_fallback`]).
    pub fn arch_fallback(family: GemmFamily, variant: GemmVariant, arch: &str) -> Result<GemmKernel, String> {
        GemmKernel::new(family, GemmConfig::arch_fallback(family, variant, arch)?)
    }

    /// Every fallback module (each valid (family, variant), portable and per-arch), strided form.
    pub fn all() -> Vec<GemmKernel> {
        let mut v = Vec::new();
        for variant in GemmVariant::ALL {
            for family in GemmFamily::ALL {
                for k in [GemmKernel::fallback(family, variant), GemmKernel::arch_fallback(family, variant, "sm_90")].into_iter().flatten() {
                    if !v.contains(&k) {
                        v.push(k);
                    }
                }
            }
        }
        v
    }

    /// Best fallback of `family` for `arch`: wgmma on sm_90, mma on sm_80+, mfma on
    /// gfx90a/gfx94x/gfx950 where the family has one, else fma.
    pub fn select(family: GemmFamily, arch: &str) -> GemmKernel {
        for variant in [GemmVariant::Wgmma, GemmVariant::Mma, GemmVariant::Mfma] {
            if let Ok(k) = GemmKernel::arch_fallback(family, variant, arch) {
                if k.supports_arch(arch) {
                    return k;
                }
            }
        }
        GemmKernel::fallback(family, GemmVariant::Fma).expect("every family has an FMA fallback")
    }

    pub fn variant(&self) -> GemmVariant {
        self.config.variant()
    }

    /// Whether this module can be compiled for and run on `arch`.
    pub fn supports_arch(&self, arch: &str) -> bool {
        self.config.supports_arch(self.family, arch)
    }

    /// Vendor the module is written for (the FMA atom runs everywhere).
    pub fn vendor(&self) -> Vendor {
        self.config.atom.vendor()
    }

    fn suffix(&self) -> &'static str {
        match self.batch {
            BatchForm::Strided => "",
            BatchForm::Pointers => "_pa",
        }
    }

    /// Module name, e.g. `gemm_hss_mt128x128x32_w2x2_s4_x_g8_o1_mma16x8x16f16`.
    pub fn module_name(&self) -> String {
        format!("gemm_{}_{}{}", self.family.tag(), self.config.tag(), self.suffix())
    }

    /// The transposes whose kernels the module holds: 9 for complex, 4 for real (no C).
    ///
    /// A wgmma config that reads only k-major operands (tf32 without in-smem transposes, s8) has
    /// the one kernel whose op(A) and op(B) are both stored k-contiguous, TN; the host transposes
    /// other layouts into it.
    pub fn transposes(&self) -> Vec<(Trans, Trans)> {
        if self.config.is_wgmma() && !self.config.reads_mn_major() {
            return vec![(Trans::T, Trans::N)];
        }
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

    /// Kernel name, e.g. `gemm_hss_nt_mt128x128x32_w2x2_s4_x_g8_o1_mma16x8x16f16` (`_pa`
    /// appended for the pointer-array form). Real families map C to T.
    pub fn kernel_name(&self, ta: Trans, tb: Trans) -> String {
        let (ta, tb) = (self.canonical(ta), self.canonical(tb));
        format!("gemm_{}_{}{}_{}{}", self.family.tag(), ta.tag(), tb.tag(), self.config.tag(), self.suffix())
    }

    /// The split-K config's second kernel, which sums the slices into D (`None` without split-K).
    pub fn reduce_kernel_name(&self) -> Option<String> {
        (self.config.split_k > 1 && self.batch == BatchForm::Strided).then(|| format!("{}_reduce", self.module_name()))
    }

    /// The same module without split-K (what runs a split-K config's calls that have no
    /// workspace: pointer arrays, or no memory for it).
    pub fn unsplit(self) -> GemmKernel {
        GemmKernel { config: GemmConfig { split_k: 1, ..self.config }, ..self }
    }

    /// All kernel names of the module.
    pub fn kernel_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.transposes().into_iter().map(|(a, b)| self.kernel_name(a, b)).collect();
        v.extend(self.reduce_kernel_name());
        v
    }

    /// Complete translation unit: prelude + atoms + gemm.hip + the extern "C" kernels.
    pub fn source(&self) -> String {
        let mut s = String::with_capacity(64 * 1024);
        s.push_str(&format!("// rocmath-kernels module {} ({GENERATOR}; generated, do not edit)\n", self.module_name()));
        s.push_str("// ---- include/prelude.h ----\n");
        s.push_str(crate::prelude());
        s.push('\n');
        s.push_str(&atoms::source());
        s.push_str("// ---- src/blas/gemm.hip ----\n");
        s.push_str(GEMM_HIP);
        if self.config.is_wgmma() {
            if let Some(bits) = sm90_l2_hints() {
                s.push_str(&format!("#define RM_SM90_L2_HINTS {bits}\n"));
            }
            s.push_str("\n// ---- src/blas/gemm_sm90.hip ----\n");
            s.push_str(GEMM_SM90_HIP);
            s.push_str(&wgmma_wrapper(self.config.atom, self.config.mt[1]));
        }
        s.push_str(&format!("\n// ---- instantiations: {} ----\n", self.module_name()));
        s.push_str(&instantiations(
            self.family,
            &self.config,
            self.batch,
            &self.module_name(),
            |a, b| self.kernel_name(a, b),
            &self.transposes(),
        ));
        s
    }

    /// Grid/block/shared memory of a persistent launch (wgmma, or a `persistent` config): one
    /// block per tile (per K slice, `slices` of them, with split-K) of every batch entry, but no
    /// more than `resident_blocks`, the blocks the device holds at once (`min_waves` per SM for
    /// wgmma; SMs times the occupancy otherwise).
    /// A `multicast` config's grid is whole clusters of two, one per pair of tiles (the kernel
    /// walks pairs). A `unit_grid` config's is one block per unit, whatever `resident_blocks`.
    pub fn persistent_dims(&self, m: usize, n: usize, batch: usize, slices: usize, resident_blocks: usize) -> LaunchDims {
        let cfg = &self.config;
        let cluster = if cfg.multicast { 2 } else { 1 };
        let tiles = m.div_ceil(cluster * cfg.mt[0] as usize).saturating_mul(n.div_ceil(cfg.mt[1] as usize));
        let tiles = tiles.saturating_mul(batch).saturating_mul(slices);
        // (a unit grid: a block a unit, up to the grid's limit, past which blocks take several)
        let resident_blocks = if cfg.unit_grid { i32::MAX as usize } else { resident_blocks };
        let clusters = tiles.clamp(1, (resident_blocks / cluster).clamp(1, u32::MAX as usize / cluster));
        LaunchDims {
            grid: [(clusters * cluster) as u32, 1, 1],
            block: [cfg.threads(), 1, 1],
            shared_bytes: cfg.lds_bytes(self.family),
        }
    }

    /// Grid/block/shared memory for an m x n x batch problem. The caller keeps grid y and z
    /// within 65535 (batches are launched in chunks).
    pub fn launch_dims(&self, m: usize, n: usize, batch: usize) -> LaunchDims {
        let cfg = &self.config;
        LaunchDims {
            grid: [m.div_ceil(cfg.mt[0] as usize) as u32, n.div_ceil(cfg.mt[1] as usize) as u32, batch as u32],
            block: [cfg.threads(), 1, 1],
            shared_bytes: if cfg.is_direct() { cfg.lds_bytes(self.family) } else { 0 },
        }
    }
}

/// `ROCMATH_GEMM_L2_HINTS` (0-7): the L2 eviction hints of the wgmma kernels' TMA copies
/// (`RM_SM90_L2_HINTS` in gemm_sm90.hip), for A/B timing; unset, the kernel's default.
fn sm90_l2_hints() -> Option<usize> {
    static BITS: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *BITS.get_or_init(|| super::env_number("ROCMATH_GEMM_L2_HINTS", |b| b < 8))
}

/// The extern "C" instantiation block for a module (also used by the check for extra configs).
pub fn instantiations(
    family: GemmFamily,
    cfg: &GemmConfig,
    batch: BatchForm,
    module: &str,
    name: impl Fn(Trans, Trans) -> String,
    transposes: &[(Trans, Trans)],
) -> String {
    let mut s = String::new();
    match cfg.atom.vendor() {
        Vendor::Amd => s.push_str(&format!(
            "#if !RM_AMD\n#error \"{module}: MFMA kernels need an AMD CDNA target (gfx90a, gfx94x, gfx950)\"\n#endif\n"
        )),
        // The compute capabilities the atom runs on (Atom::nvidia_sms), as __CUDA_ARCH__ values.
        Vendor::Nvidia => {
            let (lo, hi) = cfg.atom.nvidia_sms().into_inner();
            let (test, needs) = match hi {
                _ if hi == lo => (format!("RM_SM != {}", lo * 10), format!("sm_{lo}")),
                u32::MAX => (format!("RM_SM < {}", lo * 10), format!("sm_{lo} or newer")),
                _ => (format!("RM_SM < {} || RM_SM > {}", lo * 10, hi * 10), format!("sm_{lo} to sm_{hi}")),
            };
            s.push_str(&format!(
                "#if !RM_NVIDIA || (RM_SM != 0 && {test})\n#error \"{module}: {} kernels need NVIDIA {needs}\"\n#endif\n",
                cfg.atom.tag()
            ))
        }
        Vendor::Any => {}
    }
    let cfg_name = format!("rm_cfg_{module}");
    s.push_str(&format!("typedef {} {cfg_name};\n", cfg.cpp(family)));
    if cfg.is_wgmma() {
        // (the launch asks for lds_bytes; the kernel lays its shared memory out by SHARED_BYTES)
        s.push_str(&format!(
            "static_assert({cfg_name}::SHARED_BYTES == {}, \"{module}: the host's shared-memory figure\");\n",
            cfg.lds_bytes(family)
        ));
    }
    let split = cfg.split_k > 1 && batch == BatchForm::Strided;
    let (mac, extra) = match (batch, cfg.persistent) {
        _ if cfg.is_wgmma() && cfg.multicast => ("RM_GEMM_SM90_KERNEL_CLUSTER2", String::new()),
        _ if cfg.is_wgmma() => ("RM_GEMM_SM90_KERNEL", String::new()),
        _ if split => ("RM_GEMM_KERNEL_SPLITK", String::new()),
        (BatchForm::Strided, false) => ("RM_GEMM_KERNEL", String::new()),
        (BatchForm::Pointers, false) => ("RM_GEMM_KERNEL_PA", String::new()),
        (BatchForm::Strided, true) => ("RM_GEMM_KERNEL_PERSISTENT", String::new()),
        (BatchForm::Pointers, true) => ("RM_GEMM_KERNEL_PA_PERSISTENT", String::new()),
    };
    for &(a, b) in transposes {
        s.push_str(&format!("{mac}({}, {cfg_name}, {}, {}, {}{extra})\n", name(a, b), family.types_cpp(), a.cpp(), b.cpp()));
    }
    if split {
        // (the wgmma kernels sum in f32 whatever the family; the blocked ones in their atom's type)
        let workspace = if cfg.is_wgmma() { "float".to_string() } else { format!("{cfg_name}::Atom::acc_t") };
        s.push_str(&format!("RM_GEMM_SPLITK_REDUCE({module}_reduce, {workspace}, {})\n", family.types_cpp()));
    }
    s
}

/// The `wgmma.mma_async m64n{n}k{K}` wrapper of a wgmma atom: accumulators `acc_t[n / 2]`
/// (float; int for s8), A and B from shared memory (descriptors), `TA`/`TB` = 1 for MN-major
/// (transposed) operands (16-bit forms only: the tf32 and s8 forms have no transpose
/// immediates); `accumulate` 0 makes it d = A B, ignoring d (wgmma's scale-d predicate: a
/// unit's first multiply, so that the accumulators need no zeroing). Generated because the
/// instruction names all n / 2 accumulator registers.
fn wgmma_wrapper(atom: Atom, n: u32) -> String {
    // (input type, its bytes, accumulator type: C++, PTX, inline-asm constraint)
    let (ty, bytes, (acc, dtype, reg)) = match atom {
        Atom::WgmmaBf16 => ("bf16", 2, ("float", "f32", "f")),
        Atom::WgmmaTf32 => ("tf32", 4, ("float", "f32", "f")),
        Atom::WgmmaS8 => ("s8", 1, ("int", "s32", "r")),
        _ => ("f16", 2, ("float", "f32", "f")),
    };
    let k = atom.shape().2;
    let regs = n / 2;
    let list = (0..regs).map(|i| format!("%{i}")).collect::<Vec<_>>().join(", ");
    let outs = (0..regs).map(|i| format!("\"+{reg}\"(d[{i}])")).collect::<Vec<_>>().join(", ");
    // The floating-point forms take scale-d and the immediate scales of A and B (and, 16-bit
    // only, the transposes); the integer form takes scale-d only.
    let scales = if acc == "float" { ", 1, 1" } else { "" };
    let (trans, trans_args, guard) = if atom.reads_mn_major() {
        (format!(", %{}, %{}", regs + 3, regs + 4), ", \"n\"(TA), \"n\"(TB)", "")
    } else {
        (String::new(), "", "        static_assert(!TA && !TB, \"k-major operands only\");\n")
    };
    format!(
        "\n// ---- generated: wgmma m64n{n}k{k} {ty} ----\n\
struct {name}_n{n} {{\n\
    typedef {acc} acc_t;\n\
    enum {{ N = {n}, K = {k}, ELEM_BYTES = {bytes} }};\n\
    template <int TA, int TB> static RM_INLINE void mma({acc} (&d)[{regs}], rm_u64 da, rm_u64 db, int accumulate) {{\n\
{guard}\
        asm volatile(\"{{ .reg .pred p; setp.ne.b32 p, %{r2}, 0; wgmma.mma_async.sync.aligned.m64n{n}k{k}.{dtype}.{ty}.{ty} {{{list}}}, %{r0}, %{r1}, p{scales}{trans}; }}\"\n\
                     : {outs}\n\
                     : \"l\"(da), \"l\"(db), \"r\"(accumulate){trans_args});\n\
    }}\n\
}};\n",
        name = atom.cpp(""),
        r0 = regs,
        r1 = regs + 1,
        r2 = regs + 2,
    )
}

#[cfg(test)]
mod tests;
