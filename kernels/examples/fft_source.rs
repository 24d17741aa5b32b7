//! Print the source of the sm_90 Stockham kernel that plans run for one whole transform of N
//! points in one pass (the cluster kernel where `cluster_split` takes one, else the ordinary
//! kernel, its rows staged where plans stage them; plain load/store, forward), e.g. for
//! ptxas's register report: `python3 benches/device/nvrtc-resources.py fft s32768`. A `g`
//! after the length asks for the general load/store, a `b` for the fused Bluestein kernel of
//! that length (general too).
use rocmath_kernels::gen::fft::{cluster_split, FftPrecision, StockhamKernel, SHARED_SM90};

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    let precision = match arg.chars().next() {
        Some('s') => FftPrecision::F32,
        Some('d') => FftPrecision::F64,
        Some('h') => FftPrecision::F16,
        _ => usage(),
    };
    let bluestein = arg.ends_with('b');
    let Ok(n) = arg[1..].trim_end_matches(['g', 'b']).parse::<usize>() else { usage() };
    let kernel = match cluster_split(precision, precision, n, SHARED_SM90).filter(|_| !bluestein) {
        Some(k) => k,
        None => StockhamKernel::new(precision, precision, n, false, false, SHARED_SM90).unwrap_or_else(|e| {
            eprintln!("{arg}: {e}");
            std::process::exit(2)
        }),
    };
    let kernel = kernel.with_dir(-1).with_plain(!arg.ends_with('g') && !bluestein);
    let kernel = if bluestein {
        kernel.with_bluestein().unwrap_or_else(|e| panic!("{arg}: {e}"))
    } else if kernel.wants_staged_rows() {
        kernel.with_staged_rows().unwrap_or_else(|e| panic!("{arg}: {e}"))
    } else {
        kernel
    };
    print!("{}", kernel.source());
}

fn usage() -> ! {
    eprintln!("usage: fft_source PRECISION_AND_LENGTH[g|b]   (s32768, d16384g, s2160b)");
    std::process::exit(2)
}
