use rocmath_fft::aot::{kernel_sources, target_properties};
use rocmath_fft::{Placement, Precision, TransformType};
fn main() {
    let props = target_properties("sm_90").unwrap();
    let mut plans = Vec::new();
    for e in [18usize, 20, 22, 24] { plans.push((TransformType::ComplexForward, Precision::Single, Placement::NotInPlace, vec![1usize << e], (1usize << 26) >> e)); }
    plans.push((TransformType::ComplexForward, Precision::Double, Placement::NotInPlace, vec![1usize << 20], 64));
    for s in kernel_sources(&plans, &props).unwrap() {
        std::fs::write(format!("/tmp/scratch/{}.cu", s.name), &s.source).unwrap();
    }
}
