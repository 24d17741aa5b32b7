//! Print the source of the sm_90 Stockham kernel that plans run for one whole transform of N
//! points in one pass (the cluster kernel where `cluster_split` takes one, else the ordinary
//! kernel, its rows staged where plans stage them; plain load/store, forward), e.g. for
//! ptxas's register report: `python3 benches/device/nvrtc-resources.py fft s32768`. A `g`
//! after the length asks for the general load/store, a `b` for the fused Bluestein kernel of
//! that length (general too); `r` and `i` for the N-point kernel of a 2N-point real forward
//! (post-processing fused) and real inverse (pre-processing fused). `--shape` after it prints
//! the kernel's name, threads per block and dynamic and static shared bytes instead.
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
    let (real_forward, real_inverse) = (arg.ends_with('r'), arg.ends_with('i'));
    let Ok(n) = arg[1..].trim_end_matches(['g', 'b', 'r', 'i']).parse::<usize>() else { usage() };
    let ordinary = bluestein || real_forward || real_inverse;
    let kernel = match cluster_split(precision, precision, n, SHARED_SM90).filter(|_| !ordinary) {
        Some(k) => k,
        None => StockhamKernel::new(precision, precision, n, false, false, SHARED_SM90).unwrap_or_else(|e| {
            eprintln!("{arg}: {e}");
            std::process::exit(2)
        }),
    };
    let kernel = kernel.with_dir(if real_inverse { 1 } else { -1 }).with_plain(!arg.ends_with('g') && !bluestein);
    let kernel = if bluestein {
        kernel.with_bluestein().unwrap_or_else(|e| panic!("{arg}: {e}"))
    } else if real_forward {
        kernel.with_real_post().unwrap_or_else(|e| panic!("{arg}: {e}"))
    } else if real_inverse {
        kernel.with_real_pre().unwrap_or_else(|e| panic!("{arg}: {e}"))
    } else {
        kernel
    };
    let kernel = if !bluestein && kernel.wants_staged_rows() {
        kernel.with_staged_rows().unwrap_or_else(|e| panic!("{arg}: {e}"))
    } else {
        kernel
    };
    if std::env::args().nth(2).as_deref() == Some("--shape") {
        println!("{} {} {} {}", kernel.module_name(), kernel.threads(), kernel.shared_bytes(), kernel.static_shared_bytes());
    } else {
        print!("{}", kernel.source());
    }
}

fn usage() -> ! {
    eprintln!("usage: fft_source PRECISION_AND_LENGTH[g|b|r|i]   (s32768, d16384g, s2160b, s16r, s4096i)");
    std::process::exit(2)
}
