//! rocmath-bench: times rocmath ops on a device and, where the vendor library is present, the
//! vendor's op on the same inputs in the same run, and prints both and their ratio. Every
//! result is checked against the independent f64 reference before it is timed.
//!
//!   rocmath-bench                      the standard suite on the best device present
//!   rocmath-bench gemm --precision s --transA N --transB T -m 4096 -n 4096 -k 4096 \
//!                 [--lda ..] [--ldb ..] [--ldc ..] [--batch ..] [--alpha ..] [--beta ..] \
//!                 [--device cpu|cuda[:N]|hip[:N]] [--iters 20] [--warmup 3] [--group G] \
//!                 [--variant fma|mma|mfma|wgmma] [--config TAG] [--complex-route direct|real] [--no-peer]
//!   rocmath-bench fft --precision single|double|half --type c2c|r2c|c2r [--inverse] \
//!                 --length N[xN2[xN3]] (fastest first, as rocFFT) [--batch B] [--inplace] \
//!                 [--device cpu|cuda[:N]|hip[:N]] [--iters 20] [--warmup 3] [--no-peer]
//!   rocmath-bench suite [--device D] [--only gemm|fft]
mod cublas;
mod cufft;
mod fft_bench;

use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rocmath_bench::fft::{suite_cases, FftArgs};
use rocmath_bench::gemm::{check, sample_columns, time_calls, CallTime, typed_roundoff, DeviceData, HostData, I8Data, OurGemm, Problem, BENCH_CHECK_MACS, EX_ROUNDOFF};
use rocmath_blas::{gemm_ex_family, gemm_solution, ComplexGemmRoute, GemmConfig, gemm_strided_batched, gemm_strided_batched_ex, Datatype, Element, ExOutput, GemmFamily, GemmVariant, HalfLike, Handle, MathMode, Operation};
use rocmath_runtime::{Device, DeviceBuffer, Queue};
use rocmath_tests::{xf32_compute_roundoff, Num};
use std::process::ExitCode;

const USAGE: &str = "usage: rocmath-bench [gemm OPTIONS | fft OPTIONS | suite [--device D] [--only gemm|fft]]
  gemm options: --precision s|d|c|z|h|hss|bss|hhs|bbs|xf32|i8  --transA N|T|C  --transB N|T|C
                -m M -n N -k K  [--lda L] [--ldb L] [--ldc L] [--batch B] [--alpha A] [--beta B]
                [--device cpu|cuda[:N]|hip[:N]] [--iters N] [--warmup N] [--group G] [--variant fma|mma|mfma|wgmma] [--config TAG]
                [--complex-route direct|real] [--no-peer]
                --iters timed samples, each of G back-to-back calls (default: as many as last 0.5 ms; --group 1
                times single calls from an idle device); the median sample's time over G is the call's
                xf32: f32 with rocblas_xf32_xdl_math_op (TF32 products; cuBLAS COMPUTE_32F_FAST_TF32)
                i8: i8 inputs, i32 C/D and integer alpha/beta (cuBLAS COMPUTE_32I; 2 ops a multiply-add)
                --config pins one kernel config by name (e.g. mt128x128x32_w2x2_s4_x_g8_o1_mma16x8x16f16)
                --complex-route pins how c runs: on the complex kernels, or as one real product (default: by size)
  fft options:  --precision single|double|half  --type c2c|r2c|c2r  [--inverse]  --length N[xN2[xN3]]
                [--batch B] [--inplace] [--device cpu|cuda[:N]|hip[:N]] [--iters N] [--warmup N] [--no-peer]
                lengths fastest first (rocFFT's order); the peer is cuFFT on NVIDIA, RustFFT and FFTW on the CPU;
                speed = peer ms / rocmath ms (> 1: rocmath is faster)
  With no arguments: the standard suite (GEMM, then FFT) on the best device present (ROCMATH_DEVICE overrides).";

#[derive(Clone, Debug)]
struct GemmArgs {
    precision: String,
    trans_a: Operation,
    trans_b: Operation,
    m: usize,
    n: usize,
    k: usize,
    lda: Option<usize>,
    ldb: Option<usize>,
    ldc: Option<usize>,
    batch: usize,
    alpha: f64,
    beta: f64,
    iters: usize,
    warmup: usize,
    /// Calls per timed sample (`None`: enough to last `SAMPLE_MS`).
    group: Option<usize>,
    variant: Option<GemmVariant>,
    config: Option<GemmConfig>,
    complex_route: Option<ComplexGemmRoute>,
    peer: bool,
}

impl Default for GemmArgs {
    fn default() -> Self {
        GemmArgs {
            precision: "s".into(),
            trans_a: Operation::None,
            trans_b: Operation::None,
            m: 1024,
            n: 1024,
            k: 1024,
            lda: None,
            ldb: None,
            ldc: None,
            batch: 1,
            alpha: 1.0,
            beta: 0.0,
            iters: 20,
            warmup: 3,
            group: None,
            variant: None,
            config: None,
            complex_route: None,
            peer: true,
        }
    }
}

/// One benchmark result line.
struct Outcome {
    label: String,
    ours_gflops: f64,
    ours_ms: f64,
    peer: Option<(f64, f64)>,
}

fn parse_gemm(args: &[String], device: &mut Option<String>) -> Result<GemmArgs, String> {
    let mut g = GemmArgs::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        let num = |v: String| v.parse::<usize>().map_err(|_| format!("{flag}: {v} is not a size"));
        match flag.as_str() {
            "--precision" | "-r" => g.precision = value()?.to_ascii_lowercase(),
            "--transA" | "--transposeA" => g.trans_a = Operation::from_letter(&value()?).ok_or("--transA takes N, T or C")?,
            "--transB" | "--transposeB" => g.trans_b = Operation::from_letter(&value()?).ok_or("--transB takes N, T or C")?,
            "-m" => g.m = num(value()?)?,
            "-n" => g.n = num(value()?)?,
            "-k" => g.k = num(value()?)?,
            "--lda" => g.lda = Some(num(value()?)?),
            "--ldb" => g.ldb = Some(num(value()?)?),
            "--ldc" => g.ldc = Some(num(value()?)?),
            "--batch" | "--batch_count" => g.batch = num(value()?)?,
            "--alpha" => g.alpha = value()?.parse().map_err(|_| "--alpha takes a number")?,
            "--beta" => g.beta = value()?.parse().map_err(|_| "--beta takes a number")?,
            "--iters" | "-i" => g.iters = num(value()?)?.max(1),
            "--warmup" | "-j" => g.warmup = num(value()?)?,
            "--group" => g.group = Some(num(value()?)?.max(1)),
            "--device" => *device = Some(value()?),
            "--no-peer" => g.peer = false,
            "--variant" => {
                g.variant = Some(match value()?.as_str() {
                    "fma" => GemmVariant::Fma,
                    "mma" => GemmVariant::Mma,
                    "mfma" => GemmVariant::Mfma,
                    "wgmma" => GemmVariant::Wgmma,
                    v => return Err(format!("--variant: unknown {v}")),
                })
            }
            "--config" => g.config = Some(GemmConfig::parse(&value()?)?),
            "--complex-route" => {
                g.complex_route = Some(match value()?.as_str() {
                    "direct" => ComplexGemmRoute::Direct,
                    "real" => ComplexGemmRoute::AsReal,
                    v => return Err(format!("--complex-route: unknown {v} (direct or real)")),
                })
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(g)
}

/// What one invocation runs.
#[derive(Debug)]
enum Command {
    Suite { gemm: bool, fft: bool },
    Gemm(GemmArgs),
    Fft(FftArgs),
}

/// Parses the command line after the program name; `--device` goes to `device`.
fn parse_command(args: &[String], device: &mut Option<String>) -> Result<Command, String> {
    match args.first().map(String::as_str) {
        None => Ok(Command::Suite { gemm: true, fft: true }),
        Some("suite") => {
            let (mut gemm, mut fft) = (true, true);
            let mut it = args[1..].iter();
            while let Some(flag) = it.next() {
                let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
                match flag.as_str() {
                    "--device" => *device = Some(value()?),
                    "--only" => match value()?.as_str() {
                        "gemm" => (gemm, fft) = (true, false),
                        "fft" => (gemm, fft) = (false, true),
                        v => return Err(format!("--only: unknown {v} (gemm or fft)")),
                    },
                    other => return Err(format!("suite: unknown option {other}")),
                }
            }
            Ok(Command::Suite { gemm, fft })
        }
        Some("gemm") => parse_gemm(&args[1..], device).map(Command::Gemm),
        Some("fft") => FftArgs::parse(&args[1..], device).map(Command::Fft),
        Some(other) => Err(format!("unknown command {other}")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let mut device_spec = None;
    let command = match parse_command(&args, &mut device_spec) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("rocmath-bench: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let device = match device_spec.as_deref().map(Device::parse).unwrap_or_else(Device::from_env) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("rocmath-bench: cannot open the device: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("device: {device}");
    let (cases, fft_cases) = match command {
        Command::Suite { gemm, fft } => (
            if gemm { standard_suite(&device) } else { Vec::new() },
            if fft { suite_cases(device.is_gpu()) } else { Vec::new() },
        ),
        Command::Gemm(g) => (vec![g], Vec::new()),
        Command::Fft(f) => (Vec::new(), vec![f]),
    };
    let total = cases.len() + fft_cases.len();
    let mut outcomes = Vec::new();
    let mut failed = false;
    for (i, case) in cases.iter().enumerate() {
        if total > 1 {
            println!("[{}/{}] gemm {} {}{} m={} n={} k={} batch={}", i + 1, total, case.precision, case.trans_a.letter(), case.trans_b.letter(), case.m, case.n, case.k, case.batch);
        }
        match run_gemm(&device, case) {
            Ok(o) => outcomes.push(o),
            Err(e) => {
                println!("  FAILED: {e}");
                failed = true;
            }
        }
    }
    let mut fft_outcomes = Vec::new();
    for (i, case) in fft_cases.iter().enumerate() {
        if total > 1 {
            println!("[{}/{}] fft {}", cases.len() + i + 1, total, case.label());
        } else {
            println!("fft {} device={}", case.label(), device.spec());
        }
        let o = fft_bench::run_fft(&device, case);
        failed |= o.failed;
        fft_outcomes.push(o);
    }
    if outcomes.len() > 1 {
        println!("\nsummary ({}):", device.spec());
        println!("{:<44} {:>12} {:>10} {:>12} {:>7}", "case", "rocmath GF/s", "ms", "peer GF/s", "ratio");
        for o in &outcomes {
            let (peer, ratio) = match o.peer {
                Some((gf, _)) => (format!("{gf:.1}"), format!("{:.3}", o.ours_gflops / gf)),
                None => ("-".into(), "-".into()),
            };
            println!("{:<44} {:>12.1} {:>10.4} {:>12} {:>7}", o.label, o.ours_gflops, o.ours_ms, peer, ratio);
        }
    }
    if fft_outcomes.len() > 1 {
        print_fft_summary(&device, &fft_outcomes);
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

/// The FFT cases side by side: ours (ms, GB/s, GFLOP/s, % of the copy bandwidth, plan
/// creation cold/warm) and each peer (ms, speed = peer ms / ours ms).
fn print_fft_summary(device: &Device, outcomes: &[fft_bench::FftOutcome]) {
    let peers = fft_bench::peer_names(device);
    println!("\nfft summary ({}; speed = peer ms / rocmath ms, > 1: rocmath faster):", device.spec());
    let mut head = format!("{:<26} {:>10} {:>9} {:>8} {:>6} {:>17}", "case", "ms", "GB/s", "GF/s", "%copy", "plan cold/warm ms");
    for p in peers {
        head.push_str(&format!(" {:>10} {:>7}", format!("{p} ms"), "speed"));
    }
    println!("{head}");
    for o in outcomes {
        let c = o.counts;
        let mut line = match o.ours_ms {
            Some(ms) => {
                let copy = o.copy_gbps.map_or("-".into(), |g| format!("{:.1}", 100.0 * c.gbps(ms) / g));
                format!("{:<26} {:>10.4} {:>9.1} {:>8.1} {:>6}", o.label, ms, c.gbps(ms), c.gflops(ms), copy)
            }
            None => format!("{:<26} {:>10} {:>9} {:>8} {:>6}", o.label, "FAILED", "-", "-", "-"),
        };
        let plan = o.plan_ms.map_or("-".into(), |(cold, warm)| format!("{cold:.1}/{warm:.3}"));
        line.push_str(&format!(" {plan:>17}"));
        for p in peers {
            match o.peers.iter().find(|x| x.name == *p).map(|x| &x.ms) {
                Some(Ok(ms)) => line.push_str(&format!(" {ms:>10.4} {:>7}", fft_bench::speed(o.ours_ms, *ms))),
                _ => line.push_str(&format!(" {:>10} {:>7}", "-", "-")),
            }
        }
        println!("{line}{}", if o.failed { "  FAILED" } else { "" });
    }
}

fn standard_suite(device: &Device) -> Vec<GemmArgs> {
    let sizes: &[usize] = if device.is_gpu() { &[1024, 4096] } else { &[256, 512] };
    let mut out = Vec::new();
    for p in ["s", "d", "c", "z", "h", "hss", "bss", "hhs", "bbs"] {
        for &s in sizes {
            let (iters, warmup) = if device.is_gpu() { (20, 3) } else { (5, 1) };
            out.push(GemmArgs { precision: p.into(), trans_a: Operation::None, trans_b: Operation::Transpose, m: s, n: s, k: s, iters, warmup, ..GemmArgs::default() });
        }
    }
    out
}

fn run_gemm(device: &Device, g: &GemmArgs) -> Result<Outcome, String> {
    use cublas::{compute as ct, dtype as dt};
    match g.precision.as_str() {
        "s" => bench_typed::<f32>(device, g, (dt::R_32F, dt::R_32F, ct::C32F)),
        // f32 with rocblas_xf32_xdl_math_op (TF32 products); cuBLAS with its fast-TF32 compute.
        "xf32" => bench_typed_as::<f32>(device, g, GemmFamily::Xf32, (dt::R_32F, dt::R_32F, ct::C32F_FAST_TF32), xf32_compute_roundoff(g.k)),
        "d" => bench_typed::<f64>(device, g, (dt::R_64F, dt::R_64F, ct::C64F)),
        "c" => bench_typed::<Complex32>(device, g, (dt::C_32F, dt::C_32F, ct::C32F)),
        "z" => bench_typed::<Complex64>(device, g, (dt::C_64F, dt::C_64F, ct::C64F)),
        "h" => bench_typed::<f16>(device, g, (dt::R_16F, dt::R_16F, ct::C32F)),
        "hss" => bench_ex::<f16, f32>(device, g, (dt::R_16F, dt::R_32F, ct::C32F)),
        "bss" => bench_ex::<bf16, f32>(device, g, (dt::R_16BF, dt::R_32F, ct::C32F)),
        "hhs" => bench_ex::<f16, f16>(device, g, (dt::R_16F, dt::R_16F, ct::C32F)),
        "bbs" => bench_ex::<bf16, bf16>(device, g, (dt::R_16BF, dt::R_16BF, ct::C32F)),
        "i8" => bench_i8(device, g),
        p => Err(format!("unknown precision {p}")),
    }
}

fn bench_typed<T: Element + Num>(device: &Device, g: &GemmArgs, peer: (i32, i32, i32)) -> Result<Outcome, String> {
    bench_typed_as::<T>(device, g, T::FAMILY, peer, typed_roundoff::<T>())
}

/// The typed gemm of `T` run as `family` (xf32: f32 in xf32 math mode), checked with `roundoff`.
fn bench_typed_as<T: Element + Num>(device: &Device, g: &GemmArgs, family: GemmFamily, peer: (i32, i32, i32), roundoff: f64) -> Result<Outcome, String> {
    let (alpha, beta) = (T::from_c64(Complex64::new(g.alpha, 0.0)), T::from_c64(Complex64::new(g.beta, 0.0)));
    bench::<T, T>(device, g, family, peer, roundoff, &|h, a, lda, b, ldb, c, ldc, batch| {
        gemm_strided_batched(h, g.trans_a, g.trans_b, g.m, g.n, g.k, alpha, a, lda, b, ldb, beta, c, ldc, batch)
    })
}

fn bench_ex<In: HalfLike + Num, Out: ExOutput + Num>(device: &Device, g: &GemmArgs, peer: (i32, i32, i32)) -> Result<Outcome, String> {
    let (alpha, beta) = (g.alpha as f32, g.beta as f32);
    let family = gemm_ex_family(In::DATATYPE, In::DATATYPE, Out::DATATYPE, Out::DATATYPE, Datatype::F32R).ok_or("unsupported gemm_ex types")?;
    bench::<In, Out>(device, g, family, peer, EX_ROUNDOFF, &|h, a, lda, b, ldb, c, ldc, batch| {
        gemm_strided_batched_ex(h, g.trans_a, g.trans_b, g.m, g.n, g.k, alpha, a, lda, b, ldb, beta, c, ldc, batch)
    })
}

fn bench<In: Num, Out: Num>(device: &Device, g: &GemmArgs, family: GemmFamily, (peer_in, peer_out, peer_compute): (i32, i32, i32), compute_roundoff: f64, ours: &OurGemm<In, Out>) -> Result<Outcome, String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let p = Problem::new(g.trans_a, g.trans_b, [g.m, g.n, g.k], [g.lda, g.ldb, g.ldc], g.batch, g.alpha, g.beta);
    let (lda, ldb, ldc) = (p.lda, p.ldb, p.ldc);
    let (sa, sb, sc) = p.strides();
    let batch = p.batch_strides();
    let host = HostData::<In, Out>::generate(&p);
    let mut handle = Handle::on(device).map_err(|e| err(&e))?;
    if family == GemmFamily::Xf32 {
        handle.set_math_mode(MathMode::Xf32XdlMathOp);
    }
    handle.set_gemm_variant(g.variant);
    handle.set_gemm_config(g.config);
    handle.set_complex_gemm_route(g.complex_route);
    let q = handle.queue().clone();
    let DeviceData { a, b, mut c } = DeviceData::upload(&q, &host)?;

    // Check first: the first and last matrices of the batch, on a sample of columns sized so
    // that the f64 reference stays quick.
    let cols = sample_columns(&p, BENCH_CHECK_MACS, false);
    if !p.is_empty() {
        ours(&handle, &a, lda, &b, ldb, &mut c, ldc, batch).map_err(|e| err(&e))?;
        let got = c.to_vec(&q).map_err(|e| err(&e))?;
        let verdict = check(&p, &host, &got, &cols, compute_roundoff, "rocmath")?;
        println!("  check: {verdict}");
    }

    let flops = p.flops(In::IS_COMPLEX);
    let time = time_calls(&q, g.warmup, g.iters, g.group, || ours(&handle, &a, lda, &b, ldb, &mut c, ldc, batch).map_err(|e| err(&e)))?;
    let (ms, gflops) = (time.ms, flops / time.ms / 1e6);
    let label = format!("{} {} {}x{}x{} b{}", g.precision, p.layout(), g.m, g.n, g.k, g.batch);
    let kernel = solution_tag(&handle, family, g);
    print!("gemm {label} lda={lda} ldb={ldb} ldc={ldc} alpha={} beta={} device={}{kernel}: rocmath {gflops:.1} GFLOP/s ({})", g.alpha, g.beta, device.spec(), time_note(&time));
    let peer = report_peer(device, g, flops, "GFLOP/s", gflops, || {
        let (peer_time, got) = peer_run::<In, Out>(&q, g, [peer_in, peer_out, peer_compute], (&a, lda, sa), (&b, ldb, sb), (&mut c, ldc, sc), &host.c)?;
        Ok((peer_time, check(&p, &host, &got, &cols, compute_roundoff, "cuBLAS").unwrap_or_else(|e| format!("peer check FAILED: {e}"))))
    });
    Ok(Outcome { label, ours_gflops: gflops, ours_ms: ms, peer })
}

/// ` kernel=<module>` for the module a call of `g`'s shape runs in `family` (empty on the CPU).
fn solution_tag(handle: &Handle, family: GemmFamily, g: &GemmArgs) -> String {
    match gemm_solution(handle, family, g.trans_a, g.trans_b, g.m, g.n, g.k, g.batch) {
        Ok(Some(k)) => format!(" kernel={}", k.module_name()),
        Ok(None) => String::new(),
        Err(e) => format!(" kernel=({e})"),
    }
}

/// Ends a bench line with cuBLAS on a CUDA device: `peer` times it and checks its result
/// (its time, the check's verdict); prints its rate in `unit` (`ops` per call), the ratio to
/// ours and the verdict, and returns (rate, ms). Elsewhere, or with --no-peer, says no peer was
/// timed.
fn report_peer(device: &Device, g: &GemmArgs, ops: f64, unit: &str, ours_rate: f64, peer: impl FnOnce() -> Result<(CallTime, String), String>) -> Option<(f64, f64)> {
    if !(g.peer && matches!(device, Device::Cuda(_))) {
        println!("  (no peer library timed on {})", device.spec());
        return None;
    }
    match peer() {
        Ok((time, verdict)) => {
            let rate = ops / time.ms / 1e6;
            println!("  cublas {rate:.1} {unit} ({})  ratio {:.3}", time_note(&time), ours_rate / rate);
            println!("  cublas check: {verdict}");
            Some((rate, time.ms))
        }
        Err(e) => {
            println!("  cublas unavailable: {e}");
            None
        }
    }
}

/// `0.0123 ms; host 4.1 us, 41 calls/sample`: a call's device time and what issuing it cost
/// the host.
fn time_note(t: &CallTime) -> String {
    format!("{:.4} ms; host {:.1} us, {} calls/sample", t.ms, t.host_us, t.group)
}

/// The i8 family (gemm_ex with i8 inputs, i32 C, D, alpha and beta; wrapping modulo 2^32): full
/// range i8 inputs, and the exact reference on sampled columns of the first and last entries for
/// ours and for cuBLAS (COMPUTE_32I). Its rates count 2 integer operations a multiply-add.
fn bench_i8(device: &Device, g: &GemmArgs) -> Result<Outcome, String> {
    use cublas::{compute as ct, dtype as dt};
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let int = |v: f64, name: &str| if v.fract() == 0.0 && v.abs() <= i32::MAX as f64 { Ok(v as i32) } else { Err(format!("i8: {name} {v} is not an i32")) };
    let (alpha, beta) = (int(g.alpha, "alpha")?, int(g.beta, "beta")?);
    let p = Problem::new(g.trans_a, g.trans_b, [g.m, g.n, g.k], [g.lda, g.ldb, g.ldc], g.batch, g.alpha, g.beta);
    let (lda, ldb, ldc) = (p.lda, p.ldb, p.ldc);
    let (sa, sb, sc) = p.strides();
    let data = I8Data::generate(&p);
    let (a, b, c) = (&data.a, &data.b, &data.c);
    let mut handle = Handle::on(device).map_err(|e| err(&e))?;
    handle.set_gemm_variant(g.variant);
    handle.set_gemm_config(g.config);
    handle.set_complex_gemm_route(g.complex_route);
    let q = handle.queue().clone();
    let up_err = |e: rocmath_runtime::Error| e.to_string();
    let (da, db) = (DeviceBuffer::from_slice(&q, a).map_err(up_err)?, DeviceBuffer::from_slice(&q, b).map_err(up_err)?);
    let mut dc = DeviceBuffer::from_slice(&q, c).map_err(up_err)?;
    let batch = p.batch_strides();
    let ours = |dc: &mut DeviceBuffer<i32>| {
        gemm_strided_batched_ex::<i8, i32>(&handle, g.trans_a, g.trans_b, g.m, g.n, g.k, alpha, &da, lda, &db, ldb, beta, dc, ldc, batch).map_err(|e| err(&e))
    };
    let cols = sample_columns(&p, BENCH_CHECK_MACS, false);
    let check_i8 = |got: &[i32], who: &str| data.check(&p, (alpha, beta), got, &cols, who);
    if !p.is_empty() {
        ours(&mut dc)?;
        println!("  check: {}", check_i8(&dc.to_vec(&q).map_err(up_err)?, "rocmath")?);
    }
    let ops = p.flops(false);
    let time = time_calls(&q, g.warmup, g.iters, g.group, || ours(&mut dc))?;
    let (ms, gops) = (time.ms, ops / time.ms / 1e6);
    let label = format!("{} {} {}x{}x{} b{}", g.precision, p.layout(), g.m, g.n, g.k, g.batch);
    let kernel = solution_tag(&handle, GemmFamily::I8, g);
    print!("gemm {label} lda={lda} ldb={ldb} ldc={ldc} alpha={alpha} beta={beta} device={}{kernel}: rocmath {gops:.1} GOP/s ({})", device.spec(), time_note(&time));
    let peer = report_peer(device, g, ops, "GOP/s", gops, || {
        let (peer_time, got) = peer_run::<i8, i32>(&q, g, [dt::R_8I, dt::R_32I, ct::C32I], (&da, lda, sa), (&db, ldb, sb), (&mut dc, ldc, sc), c)?;
        Ok((peer_time, check_i8(&got, "cuBLAS").unwrap_or_else(|e| format!("peer check FAILED: {e}"))))
    });
    Ok(Outcome { label, ours_gflops: gops, ours_ms: ms, peer })
}

/// Times cuBLAS on the same device buffers (C reset to the same input first), and returns its
/// result for checking.
#[allow(clippy::type_complexity)]
fn peer_run<In: bytemuck::Pod, Out: bytemuck::Pod>(
    q: &Queue,
    g: &GemmArgs,
    [tin, tout, compute]: [i32; 3],
    a: (&DeviceBuffer<In>, usize, usize),
    b: (&DeviceBuffer<In>, usize, usize),
    c: (&mut DeviceBuffer<Out>, usize, usize),
    c_host: &[Out],
) -> Result<(CallTime, Vec<Out>), String> {
    let stream = q.gpu().map(|g| g.raw()).ok_or("not a GPU queue")?;
    let lib = cublas::Cublas::new(stream).map_err(|e| e.to_string())?;
    let op = |o: Operation| match o {
        Operation::None => 0,
        Operation::Transpose => 1,
        Operation::ConjugateTranspose => 2,
    };
    // Scalars in the compute type: f64 for 64F, i32 for 32I, else f32 (complex: (re, im) pairs).
    let scal = |v: f64| -> [u8; 16] {
        let mut out = [0u8; 16];
        if compute == cublas::compute::C64F {
            out[..8].copy_from_slice(&v.to_le_bytes());
        } else if compute == cublas::compute::C32I {
            out[..4].copy_from_slice(&(v as i32).to_le_bytes());
        } else {
            out[..4].copy_from_slice(&(v as f32).to_le_bytes());
        }
        out
    };
    let (alpha, beta) = (scal(g.alpha), scal(g.beta));
    let (cbuf, ldc, sc) = c;
    cbuf.copy_from_host(q, c_host).map_err(|e| e.to_string())?;
    let cptr = cbuf.as_mut_ptr() as u64;
    let run = || -> Result<(), String> {
        // SAFETY: the buffers hold the described matrices on the device cuBLAS runs on.
        unsafe {
            lib.gemm(
                [op(g.trans_a), op(g.trans_b)],
                [g.m, g.n, g.k],
                alpha.as_ptr() as *const _,
                (a.0.as_ptr() as u64, tin, a.1, a.2 as i64),
                (b.0.as_ptr() as u64, tin, b.1, b.2 as i64),
                beta.as_ptr() as *const _,
                (cptr, tout, ldc, sc as i64),
                g.batch,
                compute,
            )
            .map_err(|e| e.to_string())
        }
    };
    run()?;
    let got = cbuf.to_vec(q).map_err(|e| e.to_string())?;
    let time = time_calls(q, g.warmup, g.iters, g.group, run)?;
    Ok((time, got))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> (Result<Command, String>, Option<String>) {
        let v: Vec<String> = s.split_whitespace().map(String::from).collect();
        let mut device = None;
        (parse_command(&v, &mut device), device)
    }

    #[test]
    fn commands() {
        assert!(matches!(parse("").0, Ok(Command::Suite { gemm: true, fft: true })));
        assert!(matches!(parse("suite").0, Ok(Command::Suite { gemm: true, fft: true })));
        let (c, d) = parse("suite --device cpu --only fft");
        assert!(matches!(c, Ok(Command::Suite { gemm: false, fft: true })));
        assert_eq!(d.as_deref(), Some("cpu"));
        assert!(matches!(parse("suite --only gemm").0, Ok(Command::Suite { gemm: true, fft: false })));
        assert!(parse("suite --only blas").0.is_err());
        assert!(parse("suite --fast").0.is_err());
        let (c, d) = parse("fft --precision half --type c2r --length 64x64 --batch 2 --device cuda:0");
        match c {
            Ok(Command::Fft(f)) => assert_eq!(f.label(), "c2r h 64x64 b2"),
            other => panic!("{other:?}"),
        }
        assert_eq!(d.as_deref(), Some("cuda:0"));
        assert!(matches!(parse("gemm -m 8").0, Ok(Command::Gemm(g)) if g.m == 8));
        assert!(parse("fft --type r2r --length 8").0.is_err());
        assert!(parse("conv").0.is_err());
    }
}
