//! rocmath-aot: builds the ahead-of-time kernel cache (`rocmath_runtime::aot`): the machine code
//! of the kernels of common FFT plans (`rocmath_fft::aot::common_plans`) and of the GEMM kernels
//! the tuning tables and fallbacks name (`rocmath_blas::aot_kernel_sources`), compiled with nvrtc
//! for the named CUDA arches. Needs nvrtc (CUDA_HOME or the usual places), not a GPU.
//!
//!   rocmath-aot [--arch sm_90[,sm_100...]] [--gemm] [--out FILE] [--jobs N] [--list]
//!
//! FFT kernels always; GEMM kernels with `--gemm` (153 modules, 65 MiB of the 91 for sm_90 in
//! the forty-fifth session: the wgmma kernels' machine code is large).
//!
//! `--out` defaults to `rocmath-kernels.aot` beside this program, which is where the programs
//! built with it (rocmath-bench, librocfft.so) look for it. `--list` prints the modules only.
use rocmath_runtime::cache::CacheKey;
use rocmath_runtime::cuda::Nvrtc;
use rocmath_runtime::KernelSource;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

const USAGE: &str = "usage: rocmath-aot [--arch sm_90[,sm_100...]] [--gemm] [--out FILE] [--jobs N] [--list]";

struct Args {
    arches: Vec<String>,
    out: Option<PathBuf>,
    jobs: usize,
    list: bool,
    gemm: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args { arches: vec!["sm_90".into()], out: None, jobs: std::thread::available_parallelism().map_or(1, |n| n.get()), list: false, gemm: false };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--arch" => a.arches = value()?.split(',').map(String::from).collect(),
            "--out" => a.out = Some(PathBuf::from(value()?)),
            "--jobs" => a.jobs = value()?.parse().ok().filter(|&j| j > 0).ok_or("--jobs takes a positive count")?,
            "--list" => a.list = true,
            "--gemm" => a.gemm = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(a)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let a = match parse(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("rocmath-aot: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rocmath-aot: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(a: &Args) -> Result<(), String> {
    let plans = rocmath_fft::aot::common_plans();
    let mut work: Vec<(String, KernelSource)> = Vec::new();
    for arch in &a.arches {
        let props = rocmath_fft::aot::target_properties(arch).ok_or_else(|| format!("no target figures for arch {arch}"))?;
        let sources = rocmath_fft::aot::kernel_sources(&plans, &props).map_err(|e| e.to_string())?;
        let gemm = if a.gemm { rocmath_blas::aot_kernel_sources(arch) } else { Vec::new() };
        println!("{arch}: {} FFT plans, {} FFT modules; {} GEMM modules", plans.len(), sources.len(), gemm.len());
        // A module compiled for another arch than the device's (sm_90a for wgmma) says so.
        work.extend(sources.into_iter().chain(gemm).map(|s| (s.arch_override.clone().unwrap_or_else(|| arch.clone()), s)));
    }
    if a.list {
        for (arch, s) in &work {
            println!("{arch} {}", s.name);
        }
        return Ok(());
    }
    let nvrtc = Nvrtc::get().map_err(|e| e.to_string())?;
    let (major, minor) = nvrtc.version().map_err(|e| e.to_string())?;
    println!("compiling with nvrtc {major}.{minor}, {} jobs", a.jobs);
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<(CacheKey, Vec<u8>)>> = Mutex::new(Vec::new());
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..a.jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((arch, s)) = work.get(i) else { break };
                match nvrtc.compile(&s.name, &s.source, arch, &s.options) {
                    Ok(image) => results.lock().unwrap_or_else(|e| e.into_inner()).push((rocmath_runtime::aot::key(&s.name, arch, &s.options, &s.source), image)),
                    Err(e) => failures.lock().unwrap_or_else(|e| e.into_inner()).push(format!("{arch} {}: {e}", s.name)),
                }
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                if d % 50 == 0 || d == work.len() {
                    println!("  {d}/{} modules, {:.0} s", work.len(), start.elapsed().as_secs_f64());
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    if !failures.is_empty() {
        return Err(format!("{} of {} modules failed to compile:\n{}", failures.len(), work.len(), failures.join("\n")));
    }
    let entries = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let out = match &a.out {
        Some(p) => p.clone(),
        None => std::env::current_exe().map_err(|e| e.to_string())?.with_file_name(rocmath_runtime::aot::FILE_NAME),
    };
    rocmath_runtime::aot::write(&out, &entries).map_err(|e| e.to_string())?;
    let bytes: usize = entries.iter().map(|e| e.1.len()).sum();
    println!("wrote {} ({} modules, {:.1} MiB) in {:.0} s", out.display(), entries.len(), bytes as f64 / (1 << 20) as f64, start.elapsed().as_secs_f64());
    Ok(())
}
