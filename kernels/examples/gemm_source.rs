//! Print the source of one generated GEMM module (all four transposes of one config), e.g. to
//! compile it with nvcc -Xptxas -v on the GPU machine for its registers and SASS:
//! `cargo run -q --release -p rocmath-kernels --example gemm_source -- d mt64x64x16_w2x2_s4f_p4x4_g8_o3_mma16x8x8f64`
use rocmath_kernels::blas::GemmFamily;
use rocmath_kernels::gen::gemm::{GemmConfig, GemmKernel};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(family), Some(tag)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: gemm_source FAMILY CONFIG   (FAMILY: s, d, hss, xf32, ...)");
        std::process::exit(2);
    };
    let Some(family) = GemmFamily::from_tag(family) else {
        eprintln!("unknown family {family}");
        std::process::exit(2);
    };
    match GemmConfig::parse(tag).and_then(|c| GemmKernel::new(family, c)) {
        Ok(kernel) => print!("{}", kernel.source()),
        Err(e) => {
            eprintln!("{tag}: {e}");
            std::process::exit(2);
        }
    }
}
