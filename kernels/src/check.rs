//! Static check of every kernel module: compiles with clang-19 for AMD (gfx90a, gfx942 code
//! objects) and NVIDIA (sm_90 PTX), then asserts on the result:
//!
//! * MFMA modules contain `v_mfma` instructions (llvm-objdump-19 -d), mma modules `mma.sync` (PTX);
//! * no scratch: `.private_segment_fixed_size == 0`, `.vgpr_spill_count == .sgpr_spill_count == 0`
//!   (llvm-readelf-19 --notes), no `scratch_`/`buffer_store` instructions;
//! * LDS (`.group_segment_fixed_size`) <= 64 KiB on AMD, static `.shared` <= 48 KiB per kernel in PTX;
//! * MFMA kernels reach >= 2 waves per SIMD on the unified 512-register file of CDNA2/3 (and the
//!   LDS of 64 KiB per CU);
//! * clang emits no warning (e.g. a missed `amdgpu-waves-per-eu` occupancy target).
//!
//! For NVIDIA targets every module is also compiled a second time with `__CUDACC_RTC__` defined
//! and a shim that stands in for what nvrtc predefines, so that the nvrtc-only branches of the
//! prelude are compiled too.

use crate::atoms::{Atom, Vendor};
use crate::blas::{self, GemmConfig, GemmFamily, GemmKernel, GemmVariant, Trans};
use crate::gen::fft;
use crate::gen::gemm::{BatchForm, LdsLayout};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

pub const CLANG: &str = "clang-19";
pub const OBJDUMP: &str = "llvm-objdump-19";
pub const READELF: &str = "llvm-readelf-19";
pub const INSTALL_HINT: &str = "apt-get install -y --no-install-recommends clang-19 lld-19 llvm-19";
pub const DEFAULT_ARCHS: [&str; 3] = ["gfx90a", "gfx942", "sm_90"];

/// What nvrtc predefines that clang (with -nocudainc) does not; used with -D__CUDACC_RTC__.
const NVRTC_SHIM: &str = r#"
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__
#define __cluster_dims__(...)
extern "C" __attribute__((device)) float fmaf(float, float, float);
extern "C" __attribute__((device)) double fma(double, double, double);
"#;

/// Command-line options of `kernels-check`.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub archs: Vec<String>,
    pub out: Option<PathBuf>,
    pub list: bool,
    pub jobs: usize,
    /// Also compile the NVIDIA modules in simulated-nvrtc mode (default on).
    pub nvrtc_sim: bool,
    /// Also check every tuner candidate of these families (`--candidates s,d`).
    pub candidates: Vec<GemmFamily>,
}

pub const USAGE: &str = "usage: kernels-check [--arch ARCH[,ARCH...]]... [--out DIR] [--jobs N] [--no-nvrtc-sim] [--candidates FAM[,FAM...]] [--list]
  --arch    targets to check (default gfx90a,gfx942,sm_90; also e.g. sm_80, gfx950)
  --candidates  also check every tuner candidate of these families (e.g. s,d) on each arch
  --out     keep the sources, assembly, objects and PTX in DIR
  --jobs    parallel compiles (default: available cores)
  --list    print the kernel names of every module and exit";

impl Options {
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut o = Options { nvrtc_sim: true, ..Default::default() };
        let mut it = args.into_iter();
        while let Some(a) = it.next() {
            let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value\n{USAGE}"));
            match a.as_str() {
                "--arch" => {
                    for x in value("--arch")?.split(',').filter(|s| !s.is_empty()) {
                        if blas::Arch::parse(x).is_none() {
                            return Err(format!("unknown arch '{x}' (expected sm_NN or gfxNNN)"));
                        }
                        o.archs.push(x.to_string());
                    }
                }
                "--out" => o.out = Some(PathBuf::from(value("--out")?)),
                "--jobs" => {
                    o.jobs = value("--jobs")?.parse().map_err(|_| "--jobs needs a number".to_string())?
                }
                "--no-nvrtc-sim" => o.nvrtc_sim = false,
                "--candidates" => {
                    for x in value("--candidates")?.split(',').filter(|s| !s.is_empty()) {
                        o.candidates.push(GemmFamily::from_tag(x).ok_or_else(|| format!("unknown GEMM family '{x}'"))?);
                    }
                }
                "--list" => o.list = true,
                "-h" | "--help" => return Err(USAGE.to_string()),
                _ => return Err(format!("unknown argument '{a}'\n{USAGE}")),
            }
        }
        if o.archs.is_empty() {
            o.archs = DEFAULT_ARCHS.iter().map(|s| s.to_string()).collect();
        }
        if o.jobs == 0 {
            o.jobs = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        }
        Ok(o)
    }
}

/// A translation unit to check: a shipped module, or an extra one that covers an atom no shipped
/// config uses.
#[derive(Clone, Debug)]
pub struct Unit {
    pub module: String,
    pub source: String,
    pub kernels: Vec<String>,
    pub atom: Atom,
    /// Static LDS the model expects (0 for direct-path configs, whose LDS is dynamic).
    pub lds_bytes: u32,
    /// Dynamic LDS requested at launch.
    pub dynamic_lds: u32,
    pub threads: u32,
    /// The GEMM kernel the unit holds (it knows its arches); FFT units have none.
    kernel: Option<GemmKernel>,
    /// Units without a GEMM kernel: the one vendor they are for, or `Any`.
    vendor: Vendor,
}

impl Unit {
    fn supports(&self, arch: &str) -> bool {
        match (&self.kernel, blas::Arch::parse(arch)) {
            (Some(k), _) => k.supports_arch(arch),
            (None, Some(blas::Arch::Nvidia(_))) => self.vendor != Vendor::Amd,
            (None, Some(blas::Arch::Amd(_))) => self.vendor != Vendor::Nvidia,
            (None, None) => false,
        }
    }

    /// An FFT Stockham module for `vendor` (`Any`: both).
    pub fn fft(k: &fft::StockhamKernel, vendor: Vendor) -> Unit {
        Unit {
            module: k.module_name(),
            source: k.source(),
            kernels: k.kernel_names(),
            atom: Atom::Fma,
            lds_bytes: k.static_shared_bytes() as u32,
            dynamic_lds: k.shared_bytes(),
            threads: k.threads(),
            kernel: None,
            vendor,
        }
    }

    /// One kernel of a hand-written BLAS module (every vendor), checked as a unit of its own
    /// with `lds_bytes` of static LDS: the modules below hold kernels whose tiles differ.
    fn blas_kernel(module: String, source: String, kernel: &str, lds_bytes: u32, threads: u32) -> Unit {
        Unit { module, source, kernels: vec![kernel.into()], atom: Atom::Fma, lds_bytes, dynamic_lds: 0, threads, kernel: None, vendor: Vendor::Any }
    }

    /// The BLAS transposing copies: `tile` in transpose.hip, 32 x 32 words with a padding column,
    /// and 64 x 64 bytes in rows of 68.
    pub fn blas_transpose() -> [Unit; 2] {
        use blas::TransposeKernel as K;
        [
            Unit::blas_kernel(K::MODULE.into(), K::source(), K::KERNEL, K::TILE * (K::TILE + 1) * 4, K::THREADS),
            Unit::blas_kernel(format!("{}_b8", K::MODULE), K::source(), K::KERNEL_B8, K::TILE_B8 * (K::TILE_B8 + 4), K::THREADS),
        ]
    }

    /// The copies of the complex-as-real GEMM route: only the pack has a tile in LDS (the complex
    /// f32 tile with its padding column, `tile` in complex_real.hip).
    pub fn blas_complex_real() -> [Unit; 2] {
        use blas::ComplexRealKernels as K;
        [
            Unit::blas_kernel(K::MODULE.into(), K::source(), K::PACK, K::TILE * (K::TILE + 1) * 8, K::THREADS),
            Unit::blas_kernel(format!("{}_scale", K::MODULE), K::source(), K::SCALE, 0, K::THREADS),
        ]
    }

    /// The FFT element-wise module of one precision.
    pub fn fft_util(u: fft::FftUtilKernels) -> Unit {
        Unit {
            module: u.module_name(),
            source: u.source(),
            kernels: u.kernel_names(),
            atom: Atom::Fma,
            lds_bytes: 0,
            dynamic_lds: 0,
            threads: fft::UTIL_THREADS,
            kernel: None,
            vendor: Vendor::Any,
        }
    }
}

impl Unit {
    /// The unit of one module.
    pub fn of(k: GemmKernel) -> Unit {
        Unit {
            module: k.module_name(),
            source: k.source(),
            kernels: k.kernel_names(),
            atom: k.config.atom,
            lds_bytes: if k.config.is_direct() { 0 } else { k.config.lds_bytes(k.family) },
            dynamic_lds: if k.config.is_direct() { k.config.lds_bytes(k.family) } else { 0 },
            threads: k.config.threads(),
            kernel: Some(k),
            vendor: k.config.atom.vendor(),
        }
    }
}

/// Every fallback module in both batch forms, the `extra` modules (the configs the tuning tables
/// can select), and coverage units for the atoms that none of those uses.
pub fn units(extra: &[GemmKernel]) -> Vec<Unit> {
    let mut kernels: Vec<GemmKernel> = Vec::new();
    for k in GemmKernel::all() {
        kernels.push(k);
        if k.supports_batch(BatchForm::Pointers) {
            kernels.push(k.with_batch(BatchForm::Pointers));
        }
    }
    for k in extra.iter().copied().chain(persistent_coverage()).chain(split_k_coverage()).chain(prefetch_coverage()) {
        if !kernels.contains(&k) {
            kernels.push(k);
        }
    }
    let mut v: Vec<Unit> = kernels.into_iter().map(Unit::of).collect();
    let used: Vec<Atom> = v.iter().map(|u| u.atom).collect();
    for atom in Atom::ALL {
        if used.contains(&atom) {
            continue;
        }
        let Some((family, cfg)) = coverage_config(atom) else { continue };
        let kernel = GemmKernel::new(family, cfg).expect("coverage configs are valid");
        let module = format!("coverage_{}_{}", family.tag(), atom.tag());
        let name = |a: Trans, b: Trans| format!("gemm_{}_{}{}_{}", family.tag(), a.tag(), b.tag(), cfg.tag());
        let tr = [(Trans::N, Trans::T)];
        let mut source = kernel.source();
        let cut = source.find("// ---- instantiations:").expect("instantiation marker");
        source.truncate(cut);
        source.push_str(&format!("// ---- instantiations: {module} (atom coverage, not shipped) ----\n"));
        source.push_str(&blas::instantiations(family, &cfg, BatchForm::Strided, &module, name, &tr));
        v.push(Unit { module, kernels: tr.iter().map(|&(a, b)| name(a, b)).collect(), source, ..Unit::of(kernel) });
    }
    v.extend(Unit::blas_transpose());
    v.extend(Unit::blas_complex_real());
    // FFT: the kernels that fit CDNA's 64 KiB of LDS on every vendor, the longer ones on NVIDIA.
    let everywhere = fft::check_kernels(fft::SHARED_CDNA);
    for k in &everywhere {
        v.push(Unit::fft(k, Vendor::Any));
    }
    for k in fft::check_kernels(fft::SHARED_SM90).iter().filter(|k| !everywhere.contains(k)) {
        v.push(Unit::fft(k, Vendor::Nvidia));
    }
    for k in fft::check_cluster_kernels() {
        v.push(Unit::fft(&k, Vendor::Nvidia));
    }
    for precision in fft::FftPrecision::ALL {
        v.push(Unit::fft_util(fft::FftUtilKernels { precision }));
    }
    v
}

/// The modules the committed tuning tables can select (every entry and every fallback), and
/// what in the tables is unusable (unknown family, unparsable or invalid config, wrong arch).
pub fn table_kernels() -> (Vec<GemmKernel>, Vec<String>) {
    table_kernels_of(&rocmath_tuning::Tables::embedded())
}

/// [`table_kernels`] of any tables, e.g. [`rocmath_tuning::Tables::from_env`]: the GPU tests
/// check what a process would select, so a freshly tuned `ROCMATH_TUNING_DIR` can be checked
/// before it is committed.
pub fn table_kernels_of(tables: &rocmath_tuning::Tables) -> (Vec<GemmKernel>, Vec<String>) {
    let mut errors: Vec<String> = tables.errors().iter().map(|e| e.to_string()).collect();
    let mut v = Vec::new();
    for t in tables.iter().filter(|t| t.op == "gemm") {
        let Some(family) = GemmFamily::from_tag(&t.types) else {
            errors.push(format!("{}: unknown types `{}`", t.relative_path().display(), t.types));
            continue;
        };
        let solutions = t.entries().iter().map(|e| e.solution.as_str()).chain(std::iter::once(t.fallback.as_str()));
        for sol in solutions {
            match GemmConfig::parse(sol).and_then(|c| GemmKernel::new(family, c)) {
                Ok(k) if k.supports_arch(&t.arch) => {
                    if !v.contains(&k) {
                        v.push(k)
                    }
                }
                Ok(_) => errors.push(format!("{}: `{sol}` does not run on {}", t.relative_path().display(), t.arch)),
                Err(e) => errors.push(format!("{}: {e}", t.relative_path().display())),
            }
        }
    }
    (v, errors)
}

/// The strided modules of coverage configs given as (family, tag); `what` names the set in the
/// panic of a config that does not parse or validate (a bug in the list).
fn coverage_kernels(configs: &[(GemmFamily, &str)], what: &str) -> Vec<GemmKernel> {
    configs
        .iter()
        .map(|&(family, tag)| GemmConfig::parse(tag).and_then(|c| GemmKernel::new(family, c)).unwrap_or_else(|e| panic!("{what} coverage config {tag}: {e}")))
        .collect()
}

/// The persistent grid in both batch forms on every vendor (the FMA atom), and in pointer-array
/// form on sm_90 (DMMA), whatever the tables pick: the tables hold strided modules only.
fn persistent_coverage() -> Vec<GemmKernel> {
    let mut v = Vec::new();
    for k in coverage_kernels(&[(GemmFamily::S, "mt32x32x32_t8x8_s3p_p4x4_g8_o1_fma"), (GemmFamily::D, "mt32x32x32_w1x1_s3p_x_g8_o1_mma16x8x16f64")], "persistent") {
        if k.vendor() == Vendor::Any {
            v.push(k);
        }
        v.push(k.with_batch(BatchForm::Pointers));
    }
    v
}

/// Blocked split-K modules (slice kernels and the reduce) on every vendor, whatever the tables
/// pick: the FMA atom in f32, the f64 MFMA (AMD) and DMMA (sm_90) atoms, the 16-bit mma.sync one.
fn split_k_coverage() -> Vec<GemmKernel> {
    coverage_kernels(
        &[
            (GemmFamily::S, "mt64x64x16_w2x2_s3_p4x4_g8_o1_k4_fmaw32x16"),
            (GemmFamily::D, "mt128x64x16_w2x2_s1_p4x4_g1_o2_k2_mfma16x16x4f64"),
            (GemmFamily::D, "mt64x64x16_w2x2_s3_p4x4_g8_o3_k8_mma16x8x16f64"),
            (GemmFamily::Hss, "mt128x128x32_w2x2_s4_x_g8_o1_k2_mma16x8x16f16"),
        ],
        "split-K",
    )
}

/// Fragment-prefetch modules (`f`) on every vendor, whatever the tables pick: the scalar FMA
/// atom (every arch), the f64 MFMA atom (AMD) and the DMMA atom (sm_90).
fn prefetch_coverage() -> Vec<GemmKernel> {
    coverage_kernels(
        &[
            (GemmFamily::S, "mt128x128x8_t16x16_s3f_p4x4_g8_o1_fma"),
            (GemmFamily::D, "mt64x64x8_w2x2_s2f_p4x4_g8_o2_mfma16x16x4f64"),
            (GemmFamily::D, "mt128x64x32_w4x2_s3f_p4x4_g8_o1_mma16x8x16f64"),
        ],
        "prefetch",
    )
}

fn coverage_config(atom: Atom) -> Option<(GemmFamily, GemmConfig)> {
    let family = match atom {
        Atom::MfmaF32_16x16x16F16 | Atom::MfmaF32_32x32x8F16 | Atom::MmaM16n8k16F16 => GemmFamily::H,
        Atom::MfmaF32_32x32x8Bf16_1k | Atom::MfmaF32_16x16x16Bf16_1k | Atom::MmaM16n8k16Bf16 => GemmFamily::Bbs,
        Atom::FmaWarp => GemmFamily::S,
        // (the first d candidate that uses it, a direct-path tile: register staging would need
        // more than 48 KiB of static LDS at 128 x 128 x 32 in f64)
        Atom::MmaM16n8k8F64 => {
            return GemmConfig::candidates(GemmFamily::D, "sm_90").into_iter().find(|c| c.atom == atom).map(|c| (GemmFamily::D, c))
        }
        // (the fallback is the k8 form; the first k16 candidate)
        Atom::MmaM16n8k16Z => {
            return GemmConfig::candidates(GemmFamily::Z, "sm_90").into_iter().find(|c| c.atom == atom).map(|c| (GemmFamily::Z, c))
        }
        Atom::MmaM16n8k8Z => return GemmConfig::arch_fallback(GemmFamily::Z, GemmVariant::Mma, "sm_90").ok().map(|c| (GemmFamily::Z, c)),
        _ => return None,
    };
    // (the warp-tiled FMA atom in CUTLASS's SIMT blocking: 8 x 8 per lane, 8 warps)
    let warp_fma = atom == Atom::FmaWarp;
    let cfg = GemmConfig {
        atom,
        mt: if warp_fma { [128, 128, 8] } else { [128, 128, 32] },
        waves: if warp_fma { [2, 4] } else { [2, 2] },
        lds: if warp_fma { LdsLayout::Pad { a: 4, b: 4 } } else { LdsLayout::Pad { a: 8, b: 8 } },
        stages: 1,
        group_m: 1,
        min_waves: if atom.vendor() == Vendor::Amd { 2 } else { 1 },
        persistent: false,
        split_k: 1,
        repack: false,
        prefetch: false,
        smem_transpose: false,
        multicast: false,
        unit_grid: false,
    };
    cfg.validate(family).ok()?;
    Some((family, cfg))
}

/// Per-kernel result on one arch.
#[derive(Clone, Debug, Default)]
pub struct KernelReport {
    pub name: String,
    pub arch: String,
    pub vgpr: Option<u32>,
    pub agpr: Option<u32>,
    pub sgpr: Option<u32>,
    pub lds: u32,
    pub spills: u32,
    pub scratch: u32,
    pub waves_per_simd: Option<u32>,
    pub matrix: BTreeMap<String, u32>,
    pub failures: Vec<String>,
}

impl KernelReport {
    pub fn line(&self) -> String {
        let f = |x: Option<u32>| x.map_or("-".to_string(), |v| v.to_string());
        let mx = if self.matrix.is_empty() {
            "-".to_string()
        } else {
            self.matrix.iter().map(|(k, v)| format!("{k} x{v}")).collect::<Vec<_>>().join(", ")
        };
        format!(
            "{:<52} {:<7} vgpr {:>3} agpr {:>3} sgpr {:>3} lds {:>6} spills {} scratch {} waves/simd {:>2} | {}{}",
            self.name,
            self.arch,
            f(self.vgpr),
            f(self.agpr),
            f(self.sgpr),
            self.lds,
            self.spills,
            self.scratch,
            f(self.waves_per_simd),
            mx,
            if self.failures.is_empty() { String::new() } else { format!("  FAIL: {}", self.failures.join("; ")) }
        )
    }
}

/// Missing tools, each with how to install it.
pub fn missing_tools() -> Vec<String> {
    [CLANG, OBJDUMP, READELF]
        .iter()
        .filter(|t| Command::new(t).arg("--version").output().map(|o| !o.status.success()).unwrap_or(true))
        .map(|t| t.to_string())
        .collect()
}

fn run_tool(cmd: &mut Command) -> Result<(String, String), String> {
    let out = cmd.output().map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        let args: Vec<String> = cmd.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        return Err(format!("{} {} failed ({}):\n{}", cmd.get_program().to_string_lossy(), args.join(" "), out.status, stderr));
    }
    Ok((stdout, stderr))
}

fn warnings(stderr: &str) -> Option<String> {
    let w: Vec<&str> = stderr.lines().filter(|l| l.contains("warning:")).collect();
    if w.is_empty() {
        None
    } else {
        Some(format!("compiler warnings: {}", w.join(" | ")))
    }
}

/// Compile and inspect one unit for one AMD arch.
fn check_amd(unit: &Unit, arch: &str, dir: &Path) -> Result<Vec<KernelReport>, String> {
    let stem = dir.join(format!("{}.{arch}", unit.module));
    let src = dir.join(format!("{}.hip", unit.module));
    let asm = stem.with_extension(format!("{arch}.s"));
    let obj = stem.with_extension(format!("{arch}.o"));
    let (_, err) = run_tool(
        Command::new(CLANG)
            .args(["-x", "hip", &format!("--offload-arch={arch}"), "--cuda-device-only", "-nogpulib", "-nogpuinc"])
            .args(["-O3", "-std=c++17", "-Wall", "-Wextra", "-S", "-o"])
            .arg(&asm)
            .arg(&src),
    )?;
    let warn = warnings(&err);
    run_tool(
        Command::new(CLANG)
            .args(["-target", "amdgcn-amd-amdhsa", &format!("-mcpu={arch}"), "-c", "-o"])
            .arg(&obj)
            .arg(&asm),
    )?;
    let (notes, _) = run_tool(Command::new(READELF).arg("--notes").arg(&obj))?;
    let (dis, _) = run_tool(Command::new(OBJDUMP).arg("-d").arg(&obj))?;
    let asm_text = std::fs::read_to_string(&asm).map_err(|e| format!("{}: {e}", asm.display()))?;
    let meta = parse_amd_notes(&notes);
    let code = split_amd_disassembly(&dis);
    let asm_info = parse_amd_asm_comments(&asm_text);
    let mut reports = Vec::new();
    for name in &unit.kernels {
        let mut r = KernelReport { name: name.clone(), arch: arch.to_string(), ..Default::default() };
        if let Some(w) = &warn {
            r.failures.push(w.clone());
        }
        let Some(m) = meta.get(name) else {
            r.failures.push("kernel not found in the code object metadata".into());
            reports.push(r);
            continue;
        };
        let g = |k: &str| m.get(k).copied();
        r.vgpr = g(".vgpr_count");
        r.agpr = g(".agpr_count");
        r.sgpr = g(".sgpr_count");
        r.lds = g(".group_segment_fixed_size").unwrap_or(0);
        r.scratch = g(".private_segment_fixed_size").unwrap_or(0);
        r.spills = g(".vgpr_spill_count").unwrap_or(0) + g(".sgpr_spill_count").unwrap_or(0);
        // Unified register file (CDNA2/3): arch VGPRs (rounded to 4) then AGPRs, allocated in
        // granules of 8, 512 per lane per SIMD; LDS 64 KiB per CU shared by the blocks.
        let total = asm_info.get(name).and_then(|a| a.get("TotalNumVgprs").copied()).unwrap_or_else(|| {
            let v = r.vgpr.unwrap_or(0);
            let a = r.agpr.unwrap_or(0);
            if a == 0 { v } else { v.div_ceil(4) * 4 + a }
        });
        let granule = total.max(1).div_ceil(8) * 8;
        let by_regs = (512 / granule).min(8);
        let waves_per_block = unit.threads.div_ceil(64);
        let by_lds = 65536u32.checked_div(r.lds + unit.dynamic_lds).map_or(8, |blocks| blocks * waves_per_block / 4);
        r.waves_per_simd = Some(by_regs.min(by_lds).min(8));
        let body = code.get(name).map(String::as_str).unwrap_or("");
        r.matrix = count_mnemonics(body, "v_mfma");
        if r.scratch != 0 {
            r.failures.push(format!("private segment (scratch) of {} bytes", r.scratch));
        }
        if r.spills != 0 {
            r.failures.push(format!("{} register spills", r.spills));
        }
        if body.contains("scratch_") || body.contains("buffer_store") {
            r.failures.push("scratch/buffer stores in the code".into());
        }
        if r.lds + unit.dynamic_lds > 65536 {
            r.failures.push(format!("LDS {} bytes exceeds 64 KiB", r.lds + unit.dynamic_lds));
        }
        // (a split-K module's `_reduce` kernel only adds the slices: no LDS, no matrix instruction)
        let reduce = name.ends_with("_reduce");
        let model_lds = if reduce { 0 } else { unit.lds_bytes };
        if r.lds != model_lds {
            r.failures.push(format!("LDS {} bytes differs from the model's {model_lds}", r.lds));
        }
        if unit.atom.vendor() == Vendor::Amd && !reduce {
            if r.matrix.is_empty() {
                r.failures.push("no v_mfma instruction".into());
            }
            if r.waves_per_simd.unwrap_or(0) < 2 {
                r.failures.push(format!("occupancy {} wave(s)/SIMD < 2 (total VGPR+AGPR {total})", r.waves_per_simd.unwrap_or(0)));
            }
        }
        if body.is_empty() {
            r.failures.push("kernel not found in the disassembly".into());
        }
        reports.push(r);
    }
    Ok(reports)
}

/// Compile and inspect one unit for one NVIDIA arch (PTX).
fn check_nvidia(unit: &Unit, arch: &str, dir: &Path, nvrtc_sim: bool) -> Result<Vec<KernelReport>, String> {
    let src = dir.join(format!("{}.hip", unit.module));
    let ptx = dir.join(format!("{}.{arch}.ptx", unit.module));
    // wgmma modules compile for the arch-specific target (sm_90a), as nvrtc does at run time.
    let target = unit.kernel.and_then(|k| k.arch_override()).unwrap_or(arch);
    let clang_cuda = |out: &Path, extra: &[&str]| {
        let mut c = Command::new(CLANG);
        c.args(["-x", "cuda", &format!("--cuda-gpu-arch={target}"), "--cuda-device-only", "-nocudainc", "-nocudalib"])
            .args(["-O3", "-std=c++17", "-Wall", "-Wextra", "-Wno-unknown-cuda-version", "-S"])
            .args(extra)
            .arg("-o")
            .arg(out)
            .arg(&src);
        run_tool(&mut c)
    };
    let (_, err) = clang_cuda(&ptx, &[])?;
    let mut warn = warnings(&err);
    if nvrtc_sim {
        let shim = dir.join("nvrtc_shim.h");
        let shim_s = shim.to_string_lossy().into_owned();
        let out = dir.join(format!("{}.{arch}.nvrtc-sim.ptx", unit.module));
        let (_, err2) = clang_cuda(&out, &["-D__CUDACC_RTC__", "-include", &shim_s])
            .map_err(|e| format!("simulated-nvrtc compile failed: {e}"))?;
        if let Some(w) = warnings(&err2) {
            warn = Some(format!("(nvrtc-sim) {w}"));
        }
    }
    let text = std::fs::read_to_string(&ptx).map_err(|e| format!("{}: {e}", ptx.display()))?;
    let (shared_decls, entries) = parse_ptx(&text);
    let mut reports = Vec::new();
    for name in &unit.kernels {
        let mut r = KernelReport { name: name.clone(), arch: arch.to_string(), ..Default::default() };
        if let Some(w) = &warn {
            r.failures.push(w.clone());
        }
        let Some(body) = entries.get(name) else {
            r.failures.push("kernel not found in the PTX".into());
            reports.push(r);
            continue;
        };
        r.lds = shared_decls.iter().filter(|(sym, _)| contains_ident(body, sym)).map(|(_, b)| *b).sum();
        let mnemonic = unit.atom.mnemonic().filter(|_| unit.atom.vendor() == Vendor::Nvidia).unwrap_or("mma.sync");
        r.matrix = count_mnemonics(body, mnemonic);
        if body.contains(".local") || body.contains("__local_depot") {
            r.failures.push("local memory (stack) used".into());
        }
        if r.lds > 48 * 1024 {
            r.failures.push(format!("static shared {} bytes exceeds 48 KiB", r.lds));
        }
        // (a split-K module's `_reduce` kernel only adds the slices: no shared memory, no matrix
        // instruction)
        let reduce = name.ends_with("_reduce");
        let model_lds = if reduce { 0 } else { unit.lds_bytes };
        if r.lds != model_lds {
            r.failures.push(format!("shared {} bytes differs from the model's {model_lds}", r.lds));
        }
        if unit.atom.vendor() == Vendor::Nvidia && r.matrix.is_empty() && !reduce {
            r.failures.push(format!("no {mnemonic} instruction"));
        }
        reports.push(r);
    }
    Ok(reports)
}

fn contains_ident(hay: &str, ident: &str) -> bool {
    let mut start = 0;
    while let Some(p) = hay[start..].find(ident) {
        let i = start + p;
        let before = hay[..i].chars().next_back();
        let after = hay[i + ident.len()..].chars().next();
        let is_id = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        if !is_id(before) && !is_id(after) {
            return true;
        }
        start = i + ident.len();
    }
    false
}

/// `.shared` declarations (symbol, bytes) and `.entry` bodies by kernel name.
pub fn parse_ptx(ptx: &str) -> (Vec<(String, u32)>, BTreeMap<String, String>) {
    let mut shared = Vec::new();
    for line in ptx.lines() {
        let l = line.trim();
        if !l.starts_with(".shared") && !l.contains(" .shared ") {
            continue;
        }
        if l.contains(".extern") {
            continue;
        }
        // .shared .align 16 .b8 NAME[BYTES];
        let Some(open) = l.rfind('[') else { continue };
        let Some(close) = l.rfind(']') else { continue };
        let count: u32 = l[open + 1..close].parse().unwrap_or(0);
        let elem = if l.contains(".b8") || l.contains(".u8") || l.contains(".s8") {
            1
        } else if l.contains("16 ") || l.contains(".b16") || l.contains(".u16") || l.contains(".f16") {
            2
        } else if l.contains(".b64") || l.contains(".u64") || l.contains(".f64") || l.contains(".s64") {
            8
        } else {
            4
        };
        let sym = l[..open].split_whitespace().last().unwrap_or("").to_string();
        shared.push((sym, count * elem));
    }
    let mut entries = BTreeMap::new();
    let mut rest = ptx;
    while let Some(p) = rest.find(".entry ") {
        let after = &rest[p + 7..];
        let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$').collect();
        let body_end = after.find("\n}").map(|e| e + 2).unwrap_or(after.len());
        entries.insert(name, after[..body_end].to_string());
        rest = &after[body_end..];
    }
    (shared, entries)
}

/// Per-kernel metadata (numeric keys) from `llvm-readelf --notes`.
pub fn parse_amd_notes(notes: &str) -> BTreeMap<String, BTreeMap<String, u32>> {
    let mut out = BTreeMap::new();
    let mut cur: BTreeMap<String, u32> = BTreeMap::new();
    let mut name: Option<String> = None;
    let mut in_kernels = false;
    let mut flush = |cur: &mut BTreeMap<String, u32>, name: &mut Option<String>| {
        if let Some(n) = name.take() {
            out.insert(n, std::mem::take(cur));
        } else {
            cur.clear();
        }
    };
    for line in notes.lines() {
        if line.starts_with("amdhsa.kernels:") {
            in_kernels = true;
            continue;
        }
        if !in_kernels {
            continue;
        }
        if line.starts_with("amdhsa.") {
            flush(&mut cur, &mut name);
            in_kernels = false;
            continue;
        }
        // Kernel entries start with "  - ." at indentation 2; args are deeper.
        let top = line.starts_with("  - .");
        let field = line.starts_with("    .");
        if top {
            flush(&mut cur, &mut name);
        }
        if top || field {
            let kv = line.trim_start().trim_start_matches("- ");
            if let Some((k, v)) = kv.split_once(':') {
                let k = k.trim();
                let v = v.trim();
                if k == ".name" {
                    name = Some(v.to_string());
                } else if let Ok(x) = v.parse::<u32>() {
                    cur.insert(k.to_string(), x);
                }
            }
        }
    }
    flush(&mut cur, &mut name);
    out
}

/// `; Name: value` comments after each kernel in the AMDGPU assembly.
fn parse_amd_asm_comments(asm: &str) -> BTreeMap<String, BTreeMap<String, u32>> {
    let mut out: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    let mut cur: Option<String> = None;
    for line in asm.lines() {
        if let Some(n) = line.strip_suffix(':') {
            if !n.starts_with('.') && !n.starts_with(' ') && !n.starts_with('\t') && !n.contains(' ') {
                cur = Some(n.to_string());
                continue;
            }
        }
        let l = line.trim();
        if let (Some(c), Some(rest)) = (&cur, l.strip_prefix("; ")) {
            if let Some((k, v)) = rest.split_once(": ") {
                if let Ok(x) = v.trim().parse::<u32>() {
                    out.entry(c.clone()).or_default().insert(k.trim().to_string(), x);
                }
            }
        }
    }
    out
}

/// Disassembly split by function symbol.
fn split_amd_disassembly(dis: &str) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut cur: Option<String> = None;
    for line in dis.lines() {
        // "0000000000001900 <gemm_...>:"
        if let (Some(a), true) = (line.find('<'), line.ends_with(">:")) {
            cur = Some(line[a + 1..line.len() - 2].to_string());
            continue;
        }
        if let Some(c) = &cur {
            let e = out.entry(c.clone()).or_default();
            e.push_str(line);
            e.push('\n');
        }
    }
    out
}

fn count_mnemonics(body: &str, prefix: &str) -> BTreeMap<String, u32> {
    let mut m = BTreeMap::new();
    for line in body.lines() {
        // objdump lines carry the instruction before "//"; PTX lines are "\tmnemonic operands;".
        let code = line.split("//").next().unwrap_or("");
        for tok in code.split(|c: char| c.is_whitespace() || c == '{') {
            if tok.starts_with(prefix) {
                *m.entry(tok.trim_end_matches(';').to_string()).or_insert(0) += 1;
                break;
            }
        }
    }
    m
}

/// Result of a whole check.
pub struct Outcome {
    pub reports: Vec<KernelReport>,
    pub errors: Vec<String>,
}

/// Run the check. Prints one line per kernel per arch as results arrive (in a stable order at
/// the end of each unit), returns every report and hard error.
pub fn run(opts: &Options) -> Result<Outcome, String> {
    let missing = missing_tools();
    if !missing.is_empty() {
        return Err(format!(
            "missing tool(s): {}. Install them with:\n    {INSTALL_HINT}\n(the check needs clang-19 with the AMDGPU and NVPTX targets, llvm-objdump-19 and llvm-readelf-19)",
            missing.join(", ")
        ));
    }
    let (dir, keep) = match &opts.out {
        Some(d) => (d.clone(), true),
        None => (std::env::temp_dir().join(format!("rocmath-kernels-check-{}", std::process::id())), false),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::write(dir.join("nvrtc_shim.h"), NVRTC_SHIM).map_err(|e| e.to_string())?;
    let (mut extra, table_errors) = table_kernels();
    if !table_errors.is_empty() {
        return Err(format!("tuning tables: {}", table_errors.join("; ")));
    }
    for &family in &opts.candidates {
        for arch in &opts.archs {
            for c in GemmConfig::candidates(family, arch) {
                let k = GemmKernel::new(family, c).expect("candidates are valid");
                if !extra.contains(&k) {
                    extra.push(k);
                }
            }
        }
    }
    let units = units(&extra);
    let mut jobs: Vec<(usize, String)> = Vec::new();
    for (i, u) in units.iter().enumerate() {
        std::fs::write(dir.join(format!("{}.hip", u.module)), &u.source).map_err(|e| e.to_string())?;
        for arch in &opts.archs {
            if u.supports(arch) {
                jobs.push((i, arch.clone()));
            }
        }
    }
    // Longest first: MFMA/mma modules, then the complex ones.
    jobs.sort_by_key(|(i, a)| (units[*i].atom == Atom::Fma, std::cmp::Reverse(units[*i].kernels.len()), a.clone()));
    let queue = Arc::new(Mutex::new(jobs.into_iter().collect::<std::collections::VecDeque<_>>()));
    let results = Arc::new(Mutex::new(Vec::new()));
    let units = Arc::new(units);
    let workers = opts.jobs.max(1);
    std::thread::scope(|s| {
        for _ in 0..workers {
            let queue = Arc::clone(&queue);
            let results = Arc::clone(&results);
            let units = Arc::clone(&units);
            let dir = dir.clone();
            let nvrtc_sim = opts.nvrtc_sim;
            s.spawn(move || loop {
                let Some((i, arch)) = queue.lock().expect("queue").pop_front() else { break };
                let u = &units[i];
                let r = match blas::Arch::parse(&arch) {
                    Some(blas::Arch::Amd(_)) => check_amd(u, &arch, &dir),
                    Some(blas::Arch::Nvidia(_)) => check_nvidia(u, &arch, &dir, nvrtc_sim),
                    None => Err(format!("unknown arch {arch}")),
                };
                let r = r.map_err(|e| format!("{} for {arch}: {e}", u.module));
                if let Ok(reps) = &r {
                    let mut out = String::new();
                    for k in reps {
                        out.push_str(&k.line());
                        out.push('\n');
                    }
                    print!("{out}");
                } else if let Err(e) = &r {
                    println!("ERROR {e}");
                }
                results.lock().expect("results").push((i, arch, r));
            });
        }
    });
    let mut results = std::mem::take(&mut *results.lock().expect("results"));
    results.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let mut out = Outcome { reports: Vec::new(), errors: Vec::new() };
    for (_, _, r) in results {
        match r {
            Ok(reps) => out.reports.extend(reps),
            Err(e) => out.errors.push(e),
        }
    }
    if !keep {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_notes() {
        let notes = "amdhsa.kernels:\n  - .agpr_count:     4\n    .args:\n      - .offset:         0\n        .size:           8\n    .group_segment_fixed_size: 18432\n    .name:           k1\n    .vgpr_count:     100\n  - .agpr_count:     0\n    .name:           k2\n    .vgpr_count:     7\namdhsa.target:   amdgcn-amd-amdhsa--gfx90a\n";
        let m = parse_amd_notes(notes);
        assert_eq!(m["k1"][".agpr_count"], 4);
        assert_eq!(m["k1"][".vgpr_count"], 100);
        assert_eq!(m["k1"][".group_segment_fixed_size"], 18432);
        assert_eq!(m["k2"][".vgpr_count"], 7);
    }

    #[test]
    fn parses_ptx() {
        let ptx = ".shared .align 16 .b8 _ZZ1fE2sA[10240];\n.shared .align 16 .b8 _ZZ1gE2sA[512];\n.visible .entry k1(\n.param .u32 p\n)\n{\n\tld.shared.u32 %r1, [_ZZ1fE2sA+4];\n\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%r1};\n}\n.visible .entry k2(\n)\n{\n\tret;\n}\n";
        let (sh, e) = parse_ptx(ptx);
        assert_eq!(sh.len(), 2);
        assert!(contains_ident(&e["k1"], "_ZZ1fE2sA"));
        assert!(!contains_ident(&e["k2"], "_ZZ1fE2sA"));
        assert_eq!(count_mnemonics(&e["k1"], "mma.sync").values().sum::<u32>(), 1);
    }

    #[test]
    fn units_cover_every_atom() {
        let us = units(&[]);
        for a in Atom::ALL {
            assert!(us.iter().any(|u| u.atom == a), "{a:?} not covered");
        }
    }

    #[test]
    fn units_have_distinct_modules() {
        // Two units of one module would compile to the same files at once (a kernels-check run
        // once read a half-written object that way).
        let us = units(&[]);
        let mut seen = std::collections::HashSet::new();
        for u in &us {
            assert!(seen.insert(u.module.clone()), "{} twice", u.module);
        }
    }

    #[test]
    fn options() {
        let o = Options::parse(["--arch".to_string(), "gfx942,sm_80".to_string()]).unwrap();
        assert_eq!(o.archs, vec!["gfx942", "sm_80"]);
        assert!(Options::parse(["--arch".to_string(), "x86".to_string()]).is_err());
        assert!(Options::parse(["--bogus".to_string()]).is_err());
        assert_eq!(Options::parse(Vec::<String>::new()).unwrap().archs.len(), 3);
    }
}
