//! Print the source of the sm_90 Stockham kernel that plans run for one whole transform of N
//! points in one pass (the cluster kernel where `cluster_split` takes one, else the ordinary
//! kernel; plain load/store, forward), e.g. for ptxas's register report:
//! `python3 benches/device/nvrtc-resources.py fft s32768`
use rocmath_kernels::gen::fft::{cluster_split, FftPrecision, StockhamKernel, SHARED_SM90};

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    let precision = match arg.chars().next() {
        Some('s') => FftPrecision::F32,
        Some('d') => FftPrecision::F64,
        Some('h') => FftPrecision::F16,
        _ => usage(),
    };
    let Ok(n) = arg[1..].trim_end_matches('g').parse::<usize>() else { usage() };
    let kernel = match cluster_split(precision, precision, n, SHARED_SM90) {
        Some(k) => k,
        None => StockhamKernel::new(precision, precision, n, false, false, SHARED_SM90).unwrap_or_else(|e| {
            eprintln!("{arg}: {e}");
            std::process::exit(2)
        }),
    };
    // `g` after the length: the general load/store instead of the plain one.
    print!("{}", kernel.with_dir(-1).with_plain(!arg.ends_with('g')).source());
}

fn usage() -> ! {
    eprintln!("usage: fft_source PRECISION_AND_LENGTH   (s32768, d16384, h65536)");
    std::process::exit(2)
}
