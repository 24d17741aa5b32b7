//! `cargo run --release -p rocmath-kernels --bin kernels-check [-- --arch gfx942 --out DIR --list]`
//!
//! Compiles every GEMM module (each fallback, in strided and pointer-array form, and every config
//! the committed tuning tables can select) with clang-19 for gfx90a and gfx942 (code objects) and sm_90 (PTX)
//! and asserts on the ISA: matrix instructions present, no spills/scratch, LDS within limits,
//! MFMA occupancy >= 2 waves/SIMD. Exits non-zero on any failure.

use rocmath_kernels::blas::GemmKernel;
use rocmath_kernels::check::{self, Options};
use std::process::ExitCode;

fn main() -> ExitCode {
    let opts = match Options::parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if opts.list {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let (extra, errors) = check::table_kernels();
        for e in errors {
            eprintln!("tuning table: {e}");
        }
        for k in GemmKernel::all().into_iter().chain(extra) {
            let archs: Vec<&str> =
                ["gfx90a", "gfx942", "sm_80", "sm_90"].into_iter().filter(|a| k.supports_arch(a)).collect();
            // A closed pipe (| head) just ends the listing.
            if writeln!(out, "# module {} ({})", k.module_name(), archs.join(", ")).is_err() {
                return ExitCode::SUCCESS;
            }
            for n in k.kernel_names() {
                if writeln!(out, "{n}").is_err() {
                    return ExitCode::SUCCESS;
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    let start = std::time::Instant::now();
    println!("kernels-check: archs {} ({} parallel compiles)", opts.archs.join(","), opts.jobs);
    let outcome = match check::run(&opts) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("kernels-check: {e}");
            return ExitCode::FAILURE;
        }
    };
    let failed: Vec<_> = outcome.reports.iter().filter(|r| !r.failures.is_empty()).collect();
    println!(
        "kernels-check: {} kernel/arch results, {} failed, {} compile errors, {:.1} s",
        outcome.reports.len(),
        failed.len(),
        outcome.errors.len(),
        start.elapsed().as_secs_f64()
    );
    if failed.is_empty() && outcome.errors.is_empty() && !outcome.reports.is_empty() {
        println!("kernels-check: OK");
        return ExitCode::SUCCESS;
    }
    for r in failed {
        eprintln!("FAIL {} {}: {}", r.name, r.arch, r.failures.join("; "));
    }
    for e in &outcome.errors {
        eprintln!("ERROR {e}");
    }
    if outcome.reports.is_empty() && outcome.errors.is_empty() {
        eprintln!("kernels-check: nothing was checked (no module supports the requested archs)");
    }
    ExitCode::FAILURE
}
