//! FFT plans on every device present against f64 references, with rocFFT's accuracy criteria.
//! The naive DFT checks the CPU path itself in f64 on small sizes; after that the reference is
//! the naive DFT where it is cheap and the f64 CPU path (spot-checked by direct summation at
//! 2^22, 3^14 and 5^10) where it is not. Covered: every length 1..4096, powers of 2, 3 and 5 up
//! to 2^24, 3^15 and 5^10, primes, 2D/3D mixes, strides, distances, offsets, batches, every
//! array type, both placements, the three precisions (half rounded once), the scale factor,
//! inverse round trips, the CPU path's raw-pointer contract and the ndarray API. Outputs are
//! NaN-poisoned before each run, and every byte outside the layouts must come back untouched.
use num_complex::{Complex, Complex64};
use rocmath_fft::{ArrayType, Data, FftError, Placement, Plan, Precision, Status, TransformType};
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

// ---------------------------------------------------------------------------------------------
// Layouts: strides, distances, offsets, array types, placements.

/// Ways to lay out one side.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// Unit fastest stride, every slower stride and the distance padded.
    Padded,
    /// Every other element along the fastest dimension, padded slower strides.
    Strided,
    /// Transforms interleaved: distance 1, strides multiplied by the batch.
    BatchInterleaved,
    /// The slowest dimension fastest in memory (column-major), padded distance.
    Reversed,
}

/// Strides and distance of `shape` for arrays of `lengths` (elements of this side).
fn side(shape: Shape, lengths: &[usize], batch: usize) -> (Vec<usize>, usize) {
    let r = lengths.len();
    let mut s = vec![0; r];
    match shape {
        Shape::Padded | Shape::Strided => {
            s[0] = if matches!(shape, Shape::Padded) { 1 } else { 2 };
            for d in 1..r {
                s[d] = s[d - 1] * lengths[d - 1] + d;
            }
            (s.clone(), s[r - 1] * lengths[r - 1] + 3)
        }
        Shape::BatchInterleaved => {
            s[0] = batch;
            for d in 1..r {
                s[d] = s[d - 1] * lengths[d - 1];
            }
            (s, 1)
        }
        Shape::Reversed => {
            s[r - 1] = 1;
            for d in (0..r - 1).rev() {
                s[d] = s[d + 1] * lengths[d + 1] + 1;
            }
            (s.clone(), s[0] * lengths[0] + 2)
        }
    }
}

fn offsets(kind: ArrayType, a: usize, b: usize) -> Vec<usize> {
    if kind.is_planar() { vec![a, b] } else { vec![a] }
}

/// Valid array-type pairs of each transform.
fn array_types(t: TransformType) -> Vec<(ArrayType, ArrayType)> {
    match t {
        ComplexForward | ComplexInverse => vec![(ComplexInterleaved, ComplexInterleaved), (ComplexInterleaved, ComplexPlanar), (ComplexPlanar, ComplexInterleaved), (ComplexPlanar, ComplexPlanar)],
        RealForward => vec![(Real, HermitianInterleaved), (Real, HermitianPlanar)],
        RealInverse => vec![(HermitianInterleaved, Real), (HermitianPlanar, Real)],
    }
}

/// Out-of-place cases with every array type pair and every shape on each side.
fn out_of_place_layouts(t: TransformType, precision: Precision, lengths: &[usize], batch: usize, seed: u64) -> Vec<Case> {
    let shapes = [Shape::Padded, Shape::Strided, Shape::BatchInterleaved, Shape::Reversed];
    let half = lengths[0] / 2 + 1;
    let mut in_lengths = lengths.to_vec();
    let mut out_lengths = lengths.to_vec();
    if t == RealForward {
        out_lengths[0] = half;
    }
    if t == RealInverse {
        in_lengths[0] = half;
    }
    let mut cases = Vec::new();
    for (i, (it, ot)) in array_types(t).into_iter().enumerate() {
        for (j, &si) in shapes.iter().enumerate() {
            // Pair each input shape with a different output shape.
            let so = shapes[(j + 1 + i) % shapes.len()];
            let (in_strides, in_distance) = side(si, &in_lengths, batch);
            let (out_strides, out_distance) = side(so, &out_lengths, batch);
            let layout = LayoutSpec {
                in_type: Some(it),
                out_type: Some(ot),
                in_offsets: offsets(it, 3, 5),
                out_offsets: offsets(ot, 2, 7),
                in_strides,
                in_distance,
                out_strides,
                out_distance,
            };
            cases.push(Case::new(t, precision, lengths).batch(batch).layout(layout).seed(seed + 10 * i as u64 + j as u64));
        }
    }
    cases
}

/// In-place cases: complex with the same padded layout both sides (interleaved and planar);
/// real with the hermitian side padded and the real side at twice its slower strides, distance
/// and offset.
fn in_place_layouts(t: TransformType, precision: Precision, lengths: &[usize], batch: usize, seed: u64) -> Vec<Case> {
    let mut cases = Vec::new();
    if !t.is_real() {
        for (k, kind) in [ComplexInterleaved, ComplexPlanar].into_iter().enumerate() {
            for (j, shape) in [Shape::Padded, Shape::Strided, Shape::BatchInterleaved, Shape::Reversed].into_iter().enumerate() {
                let (strides, distance) = side(shape, lengths, batch);
                let layout = LayoutSpec {
                    in_type: Some(kind),
                    out_type: Some(kind),
                    in_offsets: offsets(kind, 4, 1),
                    out_offsets: offsets(kind, 4, 1),
                    in_strides: strides.clone(),
                    in_distance: distance,
                    out_strides: strides,
                    out_distance: distance,
                };
                cases.push(Case::new(t, precision, lengths).batch(batch).in_place().layout(layout).seed(seed + 10 * k as u64 + j as u64));
            }
        }
        return cases;
    }
    let mut herm = lengths.to_vec();
    herm[0] = lengths[0] / 2 + 1;
    for pad in [0, 3] {
        let mut h = vec![1; lengths.len()];
        for d in 1..lengths.len() {
            h[d] = h[d - 1] * herm[d - 1] + pad;
        }
        let hd = h[lengths.len() - 1] * herm[lengths.len() - 1] + pad;
        // Fastest strides are 1 on both sides; the slower ones (in scalars) line up.
        let real: Vec<usize> = h.iter().enumerate().map(|(d, s)| if d == 0 { 1 } else { 2 * s }).collect();
        let (herm_type, o) = (HermitianInterleaved, pad);
        let layout = if t == RealForward {
            LayoutSpec { in_type: Some(Real), out_type: Some(herm_type), in_offsets: vec![2 * o], out_offsets: vec![o], in_strides: real, in_distance: 2 * hd, out_strides: h, out_distance: hd }
        } else {
            LayoutSpec { in_type: Some(herm_type), out_type: Some(Real), in_offsets: vec![o], out_offsets: vec![2 * o], in_strides: h, in_distance: hd, out_strides: real, out_distance: 2 * hd }
        };
        cases.push(Case::new(t, precision, lengths).batch(batch).in_place().layout(layout).seed(seed + pad as u64));
    }
    // And the default in-place layout (the real side padded to the hermitian footprint).
    cases.push(Case::new(t, precision, lengths).batch(batch).in_place().seed(seed + 99));
    cases
}

const LAYOUT_LENGTHS: [&[usize]; 8] = [&[12], &[7], &[1], &[6, 5], &[5, 4], &[4, 3, 3], &[3, 2, 5], &[8, 1, 2]];

#[test]
fn layouts_every_array_type_and_placement() {
    let mut cases = Vec::new();
    for (i, lengths) in LAYOUT_LENGTHS.iter().enumerate() {
        for (k, t) in TRANSFORMS.into_iter().enumerate() {
            for batch in [1, 3] {
                let seed = 1000 * i as u64 + 100 * k as u64 + batch as u64;
                cases.extend(out_of_place_layouts(t, Single, lengths, batch, seed));
                cases.extend(in_place_layouts(t, Single, lengths, batch, seed));
            }
        }
    }
    check_all(cases, Reference::Naive);
}

#[test]
fn layouts_in_double_and_half() {
    let mut cases = Vec::new();
    for (i, lengths) in [&[10][..], &[9, 4], &[4, 3, 6]].iter().enumerate() {
        for (k, t) in TRANSFORMS.into_iter().enumerate() {
            for precision in [Double, Half] {
                let seed = 7000 + 100 * i as u64 + 10 * k as u64;
                cases.extend(out_of_place_layouts(t, precision, lengths, 2, seed));
                cases.extend(in_place_layouts(t, precision, lengths, 2, seed));
            }
        }
    }
    check_all(cases, Reference::Naive);
}

// ---------------------------------------------------------------------------------------------
// Sizes.

#[test]
fn cpu_double_matches_naive_dft_larger() {
    // The f64 CPU path is the reference below: check it against the naive DFT past the sizes of
    // the exhaustive tests (radix mixes, primes through Rader and Bluestein, real odd/even).
    let cpu = Device::cpu();
    let mut failures = Vec::new();
    for n in [97, 128, 243, 255, 256, 257, 625, 1000, 1024, 2187, 4096, 4099] {
        for t in TRANSFORMS {
            let case = Case::new(t, Double, &[n]).seed(n as u64);
            if let Err(e) = check_case(&cpu, &case, Reference::Naive) {
                failures.push(format!("{case:?}: {e}"));
            }
        }
    }
    for lengths in [&[64, 48][..], &[27, 25, 8], &[17, 128]] {
        for t in TRANSFORMS {
            let case = Case::new(t, Double, lengths).seed(3);
            if let Err(e) = check_case(&cpu, &case, Reference::Naive) {
                failures.push(format!("{case:?}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn double_reference_spot_checks_at_large_sizes() {
    // Direct summation at a few bins validates the f64 CPU path where the naive DFT cannot run.
    let mut rng = Rng::new(11);
    for n in [1 << 22, 3usize.pow(14), 5usize.pow(10)] {
        let x: Vec<Complex64> = (0..n).map(|_| Complex64::new(rng.unit(), rng.unit())).collect();
        let y = fft::cpu_double(ComplexForward, &[n], 1, &x).unwrap();
        let bins = [1, n / 3 + 1, n - 2];
        let err = fft::spot_check_bins(&x, &y, -1, &bins);
        // rocFFT's double bound relative to the largest output is eps * ln N.
        assert!(err <= fft::EPS_DOUBLE * (n as f64).ln(), "n = {n}: relative error {err}");
    }
}

#[test]
fn every_length_to_4096_single_c2c_on_the_cpu() {
    let cpu = Device::cpu();
    let failures: Vec<String> = (1..=4096)
        .map(|n| Case::new(ComplexForward, Single, &[n]).seed(n as u64))
        .filter_map(|case| check_case(&cpu, &case, Reference::CpuDouble).err().map(|e| format!("{case:?}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{} lengths failed:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
}

/// On GPUs every distinct length is a kernel to compile (about a second each with an empty
/// cache), so they get a spread instead of every length: all to 64, each radix alone and in
/// mixes, the longest single passes, four-step and Bluestein lengths.
#[test]
fn spread_of_lengths_single_c2c() {
    let lengths = (1..=64).chain([
        81, 100, 121, 125, 128, 169, 192, 243, 256, 289, 343, 384, 500, 512, 625, 768, 1000, 1024, 1331, 2048, 2187, 2197,
        2401, 2431, 3125, 4096, 4913, 8192, 12005, 16384, 4099, 4111, 5003,
    ]);
    check_all(lengths.map(|n| Case::new(ComplexForward, Single, &[n]).batch(2).seed(n as u64)), Reference::CpuDouble);
}

#[test]
fn powers_of_2_3_5() {
    let mut cases = Vec::new();
    let mut push = |n: usize, k: usize| {
        let batch = if n <= 4096 { 3 } else { 1 };
        let t = if k & 1 == 0 { ComplexForward } else { ComplexInverse };
        cases.push(Case::new(t, Single, &[n]).batch(batch).seed(n as u64));
    };
    for k in 1..=24 {
        push(1 << k, k);
    }
    for k in 1..=15 {
        push(3usize.pow(k as u32), k);
    }
    for k in 1..=10 {
        push(5usize.pow(k as u32), k);
    }
    check_all(cases, Reference::Auto);
}

#[test]
fn cluster_kernels() {
    // On sm_90 these lengths run as one transform per cluster of blocks (each block a decimated
    // sub-transform, then one radix-`cluster` pass through distributed shared memory): every
    // cluster size plans pick (3, 5, 7, 8), general load/store (planar, strided, unaligned
    // offsets) and plain, in place, both directions, three precisions. Elsewhere they take the
    // other paths, checked the same. Single and half 16384 were clusters of 4 until radix-32
    // rows held them in one 512-thread block (1: no cluster); 4374 and 6250 were clusters of 3
    // and 5 until the odd composite radices held them in one block.
    // (length, precision, blocks per transform on sm_90)
    let lengths = [
        (11979, Single, 3),
        (16384, Single, 1),
        (27000, Single, 5),
        (16807, Single, 7),
        (32768, Single, 8),
        (65536, Single, 8),
        (32768, Double, 8),
        (12005, Double, 7),
        (16384, Double, 8),
        (16384, Half, 1),
    ];
    let mut cases = Vec::new();
    for (i, &(n, precision, _)) in lengths.iter().enumerate() {
        for (k, t) in [ComplexForward, ComplexInverse].into_iter().enumerate() {
            let seed = 9000 + 100 * i as u64 + 10 * k as u64;
            cases.extend(out_of_place_layouts(t, precision, &[n], 2, seed));
            cases.extend(in_place_layouts(t, precision, &[n], 2, seed + 5));
        }
    }
    check_all(cases, Reference::CpuDouble);
    // (The A/B switches change which lengths take clusters, and how many blocks.)
    let switched = ["ROCMATH_FFT_CLUSTER", "ROCMATH_FFT_CLUSTER_BYTES", "ROCMATH_FFT_ROW_RADIX", "ROCMATH_FFT_ODD_RADIX"].iter().any(|v| std::env::var_os(v).is_some());
    for device in fft_devices() {
        if !device.properties().has_clusters() || switched {
            continue;
        }
        for &(n, precision, cluster) in &lengths {
            let plan = Plan::new(&device, Placement::NotInPlace, ComplexForward, precision, &[n], 2, None).unwrap();
            let print = plan.describe();
            if cluster == 1 {
                assert!(!print.contains("_cl"), "{n} {precision:?} on {}: a cluster:\n{print}", device.spec());
            } else {
                assert!(print.contains(&format!("_cl{cluster}_")), "{n} {precision:?} on {}: not a cluster of {cluster}:\n{print}", device.spec());
            }
        }
    }
}

/// A GPU plan runs a kernel's leaner variant (no pass reading its twiddles ahead: `_nta`; no
/// exchange layouts: `_nx`; `StockhamKernel::variants`) only where that holds at least 1.5 times
/// the kernel's blocks per SM, and its print says which ran, with every block count. Either way
/// the transform is right. On an H200 (forty-fourth session) 7680 and 8748 ran without passes
/// ahead, 1000 and 2688 with them, 6174 and 4914 without exchange layouts (before their radix-2
/// passes joined odd ones). 646 and 8262 keep a radix-2 or radix-6 first pass whose exchange
/// layout pads every pair or six with 4.
#[test]
fn leaner_variants_only_where_they_hold_more_blocks() {
    let lengths = [1000, 2688, 7680, 8748, 646, 8262];
    let mut cases = Vec::new();
    for (i, &n) in lengths.iter().enumerate() {
        for (j, precision) in [Single, Half].into_iter().enumerate() {
            for (k, t) in [ComplexForward, ComplexInverse].into_iter().enumerate() {
                cases.push(Case::new(t, precision, &[n]).batch(3).seed(9700 + 100 * i as u64 + 10 * j as u64 + k as u64));
            }
        }
    }
    check_all(cases, Reference::CpuDouble);
    if ["ROCMATH_FFT_TW_AHEAD", "ROCMATH_FFT_EXCHANGE_LAYOUTS"].iter().any(|v| std::env::var_os(v).is_some()) {
        return;
    }
    let leaner = |name: &str| name.contains("_nta_") || name.contains("_nx_");
    for device in fft_devices().into_iter().filter(Device::is_gpu) {
        for &n in &lengths {
            let plan = Plan::new(&device, Placement::NotInPlace, ComplexForward, Single, &[n], 2, None).unwrap();
            let print = plan.describe();
            let line = print.lines().find(|l| l.contains("Stockham pass")).unwrap_or_else(|| panic!("{n}: no Stockham pass:\n{print}"));
            println!("{n} on {}: {line}", device.spec());
            let (function, ran, others) = compared_blocks(line).unwrap_or_else(|| panic!("{n}: no variant compared: {line}"));
            let kernel = if leaner(&function) { others.iter().find(|o| !leaner(&o.1)).unwrap().0 } else { ran };
            assert!(others.iter().all(|o| o.0 <= ran || 2 * o.0 < 3 * kernel), "{n} on {}: {line}", device.spec());
            assert!(!leaner(&function) || 2 * ran >= 3 * kernel, "{n} on {}: {line}", device.spec());
        }
    }
}

/// (the kernel run, its blocks per SM, the others compared: (blocks, name))
type Compared = (String, u32, Vec<(u32, String)>);

/// From a Stockham line of a plan's print, "... NAME (A blocks per SM; B for NAME2, C for
/// NAME3) outer ...": the kernel run, its blocks per SM, and each other kernel compared with
/// its blocks. None where the line compares none.
fn compared_blocks(line: &str) -> Option<Compared> {
    let (head, rest) = line.split_once(" blocks per SM; ")?;
    let (function, ran) = head.rsplit_once(" (")?;
    let function = function.rsplit(' ').next()?.to_string();
    let others = rest.split_once(") outer")?.0.split(", ").map(|o| o.split_once(" for ").and_then(|(b, name)| Some((b.parse().ok()?, name.to_string())))).collect::<Option<Vec<_>>>()?;
    Some((function, ran.parse().ok()?, others))
}

#[test]
fn plan_print_parses() {
    let line = "  pass 0: Stockham pass (forward): fft_a_nx_fwd (2 blocks per SM; 1 for fft_a_fwd, 1 for fft_a_nta_fwd) outer [(2, 10, 10)] scale 1";
    assert_eq!(compared_blocks(line), Some(("fft_a_nx_fwd".to_string(), 2, vec![(1, "fft_a_fwd".to_string()), (1, "fft_a_nta_fwd".to_string())])));
    assert_eq!(compared_blocks("  pass 0: Stockham pass (forward): fft_b_fwd outer [(2, 10, 10)] scale 1"), None);
}

/// Complex transforms of each length in `lengths`, single, double and half, both directions,
/// `batch` transforms each; seeds from `seed` by position.
fn complex_every_precision(lengths: &[usize], batch: usize, seed: u64) -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, &n) in lengths.iter().enumerate() {
        for (j, precision) in [Single, Double, Half].into_iter().enumerate() {
            for (k, t) in [ComplexForward, ComplexInverse].into_iter().enumerate() {
                cases.push(Case::new(t, precision, &[n]).batch(batch).seed(seed + 100 * i as u64 + 10 * j as u64 + k as u64));
            }
        }
    }
    cases
}

/// Real forward and inverse single transforms of each length, two each, seeded by the length.
fn real_both_ways(lengths: &[usize]) -> Vec<Case> {
    lengths.iter().flat_map(|&n| [RealForward, RealInverse].map(|t| Case::new(t, Single, &[n]).batch(2).seed(n as u64))).collect()
}

#[test]
fn short_rows_staged_both_ways() {
    // Row kernels whose threads span under 128 bytes of a transform per access (f32: fewer than
    // 16 threads per transform) load and store through shared memory in element order
    // (`StockhamKernel::with_staged_rows`). Batches of 1000 and 333 fill several blocks and
    // leave the last one partial (16 single takes 170 transforms a block, 13 takes 256); the
    // layouts put strides, planar sides, offsets and in-place rows under the staged stores;
    // odd real lengths store a prefix (n_out < n) and read a mirrored half.
    let mut cases = complex_every_precision(&[2, 13, 16, 17, 19, 32, 38, 64, 100, 128], 1000, 17000);
    for (i, n) in [13, 16, 38].into_iter().enumerate() {
        for (k, t) in [ComplexForward, ComplexInverse].into_iter().enumerate() {
            let seed = 18000 + 100 * i as u64 + 10 * k as u64;
            cases.extend(out_of_place_layouts(t, Single, &[n], 333, seed));
            cases.extend(in_place_layouts(t, Double, &[n], 333, seed + 5));
        }
    }
    for n in [13, 26, 32, 77] {
        for t in [RealForward, RealInverse] {
            cases.push(Case::new(t, Single, &[n]).batch(1000).seed(19000 + n as u64));
        }
    }
    cases.push(Case::new(ComplexForward, Single, &[16, 16]).batch(300).seed(19500));
    check_all(cases, Reference::CpuDouble);
}

#[test]
fn real_transforms_in_one_launch() {
    // Even real lengths whose half fits one pass run one kernel each way: the forward's
    // post-processing after the passes, the inverse's pre-processing on the loads
    // (`StockhamKernel::with_real_pre`); where the half is short, both run in rows staged
    // through shared memory.
    // Halves of 1 to 3 points (the pairs k, h - k meet or coincide), short halves staged both
    // ways (in batches of 1000 and 333: several blocks, the last one partial), and long ones to
    // the longest single pass (16384 single). Every layout puts strides, planar sides, offsets,
    // column-ordered blocks and in-place rows under the fused ends.
    let mut cases = Vec::new();
    for (i, n) in [4, 6, 8, 26, 32, 64, 250, 256, 2048, 8192, 32768].into_iter().enumerate() {
        for (k, t) in [RealForward, RealInverse].into_iter().enumerate() {
            for (j, p) in [Single, Double, Half].into_iter().enumerate() {
                let batch = if n <= 256 { 1000 } else { 3 };
                cases.push(Case::new(t, p, &[n]).batch(batch).seed(21000 + 100 * i as u64 + 10 * j as u64 + k as u64));
            }
        }
    }
    for (i, n) in [6, 32, 256, 4096].into_iter().enumerate() {
        for (k, t) in [RealForward, RealInverse].into_iter().enumerate() {
            let seed = 22000 + 100 * i as u64 + 50 * k as u64;
            let batch = if n <= 256 { 333 } else { 3 };
            cases.extend(out_of_place_layouts(t, Single, &[n], batch, seed));
            cases.extend(in_place_layouts(t, Double, &[n], batch, seed + 30));
        }
    }
    // Batch-interleaved on both sides (blocks that read and write columns).
    for (i, n) in [32, 1024].into_iter().enumerate() {
        for (k, t) in [RealForward, RealInverse].into_iter().enumerate() {
            let half = n / 2 + 1;
            let (in_len, out_len) = if t == RealForward { (n, half) } else { (half, n) };
            let (in_type, out_type) = if t == RealForward { (Real, HermitianInterleaved) } else { (HermitianInterleaved, Real) };
            let batch = 40;
            let (in_strides, in_distance) = side(Shape::BatchInterleaved, &[in_len], batch);
            let (out_strides, out_distance) = side(Shape::BatchInterleaved, &[out_len], batch);
            let layout = LayoutSpec { in_type: Some(in_type), out_type: Some(out_type), in_offsets: vec![1], out_offsets: vec![2], in_strides, in_distance, out_strides, out_distance };
            cases.push(Case::new(t, Single, &[n]).batch(batch).layout(layout).seed(22900 + 10 * i as u64 + k as u64));
        }
    }
    // The fused dimension 0 of 2D and 3D real transforms.
    for lengths in [&[64, 9][..], &[16, 16, 16], &[8, 5, 3]] {
        for t in [RealForward, RealInverse] {
            cases.push(Case::new(t, Single, lengths).batch(2).seed(23000 + lengths[0] as u64));
        }
    }
    check_all(cases, Reference::CpuDouble);
}

#[test]
fn long_rows_in_batches_past_one_wave() {
    // Plain one-transform row kernels of long rows ask L2 for the input of the block one wave
    // of blocks later (`StockhamKernel::next_prefetch`; sm_90), which only batches longer than
    // a wave reach (132 SMs x 1-2 blocks on an H100): 16384 and 8192 single, double 8192 and
    // half 16384, out of place and in place, and at padded distances (inputs not 16-byte
    // aligned: the prefetch asks for the aligned units inside); beside them the real transforms
    // of 32768, whose kernels keep none.
    let mut cases = Vec::new();
    let long = [(ComplexForward, Single, 16384, 300), (ComplexInverse, Single, 8192, 600), (ComplexForward, Double, 8192, 300), (ComplexInverse, Half, 16384, 300), (RealForward, Single, 32768, 300), (RealInverse, Single, 32768, 300)];
    for (i, (t, p, n, batch)) in long.into_iter().enumerate() {
        cases.push(Case::new(t, p, &[n]).batch(batch).seed(24000 + i as u64));
    }
    cases.push(Case::new(ComplexForward, Single, &[16384]).batch(300).in_place().seed(24010));
    let (strides, distance) = side(Shape::Padded, &[16384], 300);
    let padded = LayoutSpec { in_type: Some(ComplexInterleaved), out_type: Some(ComplexInterleaved), in_offsets: vec![1], out_offsets: vec![3], in_strides: strides.clone(), in_distance: distance, out_strides: strides, out_distance: distance };
    cases.push(Case::new(ComplexInverse, Single, &[16384]).batch(300).layout(padded).seed(24011));
    check_all(cases, Reference::CpuDouble);
}

#[test]
fn odd_composite_radices() {
    // Lengths whose odd primes pack into the composite butterflies (9, 15, 21, 25, 27; on sm_90,
    // single): one pass (252 = 4 9 7, 675 = 9 5 5 3, 2187 = 9 9 9 3, 3375 = 15 15 15 and 6000 =
    // 16 25 15 where the larger cap saves two passes, 4374 = 2 9 9 9 3, 5400 = 8 15 15 3, 6561 =
    // 27 27 9, 7203 = 21 7 7 7, 15625 = 25 25 25, 19683 = 27 27 27 in 729 threads),
    // four-step (177147, whose 243-point columns run 27 9; 15625 in double), every precision,
    // both directions; real transforms of 750 and 13122 (halves of 375 and 6561). 375 and 3000
    // keep a pass per prime: the radix-3 and radix-5 paths beside them.
    let mut cases = complex_every_precision(&[252, 375, 675, 2187, 3000, 3375, 4374, 5400, 6000, 6561, 7203, 15625, 19683, 177147], 2, 12000);
    cases.extend(real_both_ways(&[750, 13122]));
    check_all(cases, Reference::CpuDouble);
}

#[test]
fn radix_10_passes() {
    // Rows whose factors 2 and 5 pair into radix-10 passes, in unpadded shared rows (1000 = 10
    // 10 10, and with ROCMATH_FFT_TENS=1 every length here: 10, 100, 500 = 10 10 5, 2000 = 10 10
    // 10 2, 5000, 10000, 10^5 through four-step rows), every precision, both directions; real
    // transforms of 2000 and 1000 (halves of 1000 and 500); strided layouts at 1000.
    let mut cases = complex_every_precision(&[10, 100, 500, 1000, 2000, 5000, 10000, 100000], 2, 19000);
    cases.extend(real_both_ways(&[1000, 2000]));
    for t in [ComplexForward, ComplexInverse] {
        cases.extend(out_of_place_layouts(t, Single, &[1000], 3, 19900));
    }
    check_all(cases, Reference::CpuDouble);
}

#[test]
fn radix_19() {
    // The prime butterfly past 17: one pass (19, 361 = 19 19, 323 = 19 17 in column order too,
    // 1444 = 4 19 19, 2432 = 16 8 19), a cluster on sm_90 (19456 = 8 x 2432), four-step
    // (19 x 2^15), every precision, both directions; real transforms of 646 and 1444.
    let mut cases = complex_every_precision(&[19, 361, 323, 1444, 2432, 19456, 19 << 15], 2, 16000);
    cases.extend(real_both_ways(&[646, 1444]));
    for t in [ComplexForward, ComplexInverse] {
        cases.extend(out_of_place_layouts(t, Single, &[323], 3, 16900));
    }
    check_all(cases, Reference::CpuDouble);
}

#[test]
fn primes() {
    let mut cases = Vec::new();
    for n in [2, 3, 17, 257, 4099, 7919, 65537] {
        for t in TRANSFORMS {
            cases.push(Case::new(t, Single, &[n]).batch(2).seed(n as u64));
        }
        cases.push(Case::new(ComplexForward, Double, &[n]).seed(n as u64 + 1));
    }
    check_all(cases, Reference::Auto);
}

#[test]
fn bluestein_lengths() {
    // Lengths with a prime factor past 19 take Bluestein over a 7-smooth length m >= 2n - 1. Up
    // to m of one block that is one fused kernel (both transforms and the filter product in
    // shared memory: 23 -> 45 points, 1031 -> 2100, 2062 -> 4200, 4099 -> 8232, 8191 -> 16384);
    // longer ones run five launches (65537 -> 131220, four-step). Every layout (planar,
    // strided, batch-interleaved, reversed, offsets; in and out of place), three precisions,
    // both directions; real transforms of odd prime length (hermitian input mirrored, half the
    // output stored); 2D with the prime along the slower dimension (column kernels).
    let mut cases = Vec::new();
    for (i, (n, precision)) in [(23, Single), (1031, Single), (2062, Single), (8191, Single), (1031, Double), (4099, Double), (1031, Half)].into_iter().enumerate() {
        for (k, t) in [ComplexForward, ComplexInverse].into_iter().enumerate() {
            let seed = 15000 + 100 * i as u64 + 10 * k as u64;
            cases.extend(out_of_place_layouts(t, precision, &[n], 2, seed));
            cases.extend(in_place_layouts(t, precision, &[n], 2, seed + 5));
        }
    }
    for (i, t) in [RealForward, RealInverse].into_iter().enumerate() {
        cases.extend(out_of_place_layouts(t, Single, &[1031], 2, 15900 + i as u64));
        cases.extend(in_place_layouts(t, Single, &[1031], 2, 15950 + i as u64));
    }
    for lengths in [&[6, 1031][..], &[1031, 6], &[23, 5, 29]] {
        for t in TRANSFORMS {
            cases.push(Case::new(t, Single, lengths).batch(2).seed(lengths.iter().sum::<usize>() as u64));
        }
    }
    cases.push(Case::new(ComplexForward, Single, &[65537]).seed(65537));
    check_all(cases, Reference::CpuDouble);
}

#[test]
fn real_lengths() {
    // Every real length to 130 (odd and even paths, n/2 odd and even) in each precision, then
    // a few long ones.
    let mut cases = Vec::new();
    for n in 1..=130 {
        for t in [RealForward, RealInverse] {
            for p in [Single, Double, Half] {
                cases.push(Case::new(t, p, &[n]).batch(2).seed(n as u64));
            }
        }
    }
    for n in [1 << 16, 6561, 10000, 12289, 1 << 20] {
        for t in [RealForward, RealInverse] {
            cases.push(Case::new(t, Single, &[n]).seed(n as u64));
        }
    }
    check_all(cases, Reference::Auto);
}

const MIXES: [&[usize]; 14] = [
    &[64, 64],
    &[100, 27],
    &[33, 17],
    &[256, 9],
    &[2, 4096],
    &[4096, 2],
    &[1, 1000],
    &[16, 16, 16],
    &[15, 16, 17],
    &[32, 20, 9],
    &[5, 7, 128],
    &[128, 128, 2],
    &[2, 3, 4],
    &[1, 1, 1],
];

#[test]
fn multi_dimensional_mixes() {
    let mut cases = Vec::new();
    for (i, lengths) in MIXES.iter().enumerate() {
        for t in TRANSFORMS {
            for (batch, in_place, p) in [(1, false, Single), (3, true, Single), (2, false, Double), (2, true, Half)] {
                if p == Half && lengths.iter().product::<usize>() > 8192 {
                    continue; // keep |X| well inside f16's range
                }
                let mut case = Case::new(t, p, lengths).batch(batch).seed(i as u64 * 13 + batch as u64);
                if in_place {
                    case = case.in_place();
                }
                cases.push(case);
            }
        }
    }
    check_all(cases, Reference::Auto);
}

#[test]
fn large_batches_and_transforms() {
    // Parallel paths: many small transforms grouped per task, many 1D lines, and large
    // multi-dimensional transforms whose passes run in parallel (the real inverse's work array
    // in chunks of transforms).
    let cases = vec![
        Case::new(ComplexForward, Single, &[16, 16]).batch(500),
        Case::new(ComplexInverse, Double, &[5, 6, 7]).batch(100).in_place(),
        Case::new(RealForward, Single, &[10, 12]).batch(300),
        Case::new(RealInverse, Single, &[12, 10]).batch(300).in_place(),
        Case::new(RealInverse, Half, &[8, 8, 8]).batch(70),
        Case::new(ComplexForward, Single, &[8]).batch(5000),
        Case::new(RealForward, Double, &[30]).batch(2000).in_place(),
        Case::new(ComplexForward, Single, &[1024, 1024]),
        Case::new(RealForward, Single, &[512, 256, 3]).in_place(),
        Case::new(RealInverse, Single, &[1024, 1024]).batch(9),
        Case::new(ComplexInverse, Half, &[256, 256]).batch(2),
    ];
    check_all(cases, Reference::Auto);
}

#[test]
fn scale_factors() {
    let mut cases = Vec::new();
    for (i, lengths) in [&[16][..], &[9, 10], &[4, 5, 6]].iter().enumerate() {
        let n: usize = lengths.iter().product();
        for t in TRANSFORMS {
            for p in [Single, Double, Half] {
                for scale in [0.5, 1.0 / n as f64, -3.0, 0.0] {
                    cases.push(Case::new(t, p, lengths).batch(2).scale(scale).seed(i as u64));
                }
            }
        }
    }
    // Scale with layouts and in place.
    cases.extend(out_of_place_layouts(ComplexInverse, Single, &[6, 5], 2, 1).into_iter().map(|c| c.scale(0.25)));
    cases.extend(in_place_layouts(RealInverse, Single, &[6, 5], 2, 1).into_iter().map(|c| c.scale(1.0 / 30.0)));
    check_all(cases, Reference::Naive);
}

/// Forward, then inverse scaled by 1/N, on `device`: the input must come back within rocFFT's
/// bounds relative to the input (an independent check of the library against itself).
fn round_trip(device: &Device, forward: TransformType, precision: Precision, lengths: &[usize], batch: usize) -> Result<(), String> {
    let n: usize = lengths.iter().product();
    let inverse = if forward == ComplexForward { ComplexInverse } else { RealInverse };
    let fwd = Case::new(forward, precision, lengths).batch(batch).in_place();
    let inv = Case::new(inverse, precision, lengths).batch(batch).scale(1.0 / n as f64);
    let (pf, pi) = (fwd.plan(device).map_err(|e| e.to_string())?, inv.plan(device).map_err(|e| e.to_string())?);
    match precision {
        Single => round_trip_typed::<f32>(device, &pf, &pi, forward, n, batch),
        Double => round_trip_typed::<f64>(device, &pf, &pi, forward, n, batch),
        Half => round_trip_typed::<half::f16>(device, &pf, &pi, forward, n, batch),
    }
}

fn round_trip_typed<T: rocmath_fft::FftReal + rocmath_tests::Num>(device: &Device, fwd: &Plan, inv: &Plan, forward: TransformType, n: usize, batch: usize) -> Result<(), String> {
    let q = device.new_queue().map_err(|e| e.to_string())?;
    let mut rng = Rng::new(n as u64 + batch as u64);
    let e = |e: FftError| e.to_string();
    let r = |e: rocmath_runtime::Error| e.to_string();
    let (x, y): (Vec<Complex64>, Vec<Complex64>) = if forward == ComplexForward {
        let x: Vec<Complex<T>> = (0..n * batch).map(|_| Complex::new(rng.value::<T>(), rng.value::<T>())).collect();
        let mut a = DeviceBuffer::from_slice(&q, &x).map_err(r)?;
        let mut b = DeviceBuffer::<Complex<T>>::zeroed(&q, n * batch).map_err(r)?;
        fwd.execute::<T>(&q, Data::Interleaved(&mut a), None).map_err(e)?;
        inv.execute::<T>(&q, Data::Interleaved(&mut a), Some(Data::Interleaved(&mut b))).map_err(e)?;
        let c = |v: &Complex<T>| Complex64::new(v.re.to_c64().re, v.im.to_c64().re);
        (x.iter().map(c).collect(), b.to_vec(&q).map_err(r)?.iter().map(c).collect())
    } else {
        // In place, the real rows are padded to the hermitian footprint.
        let p = fwd.input_layout().clone();
        let rows = n / fwd.lengths()[0] * batch;
        let mut buf = vec![T::nan(); fwd.input_scalars()[0].max(fwd.output_scalars()[0])];
        let mut x = Vec::new();
        for row in 0..rows {
            for i in 0..fwd.lengths()[0] {
                let v = rng.value::<T>();
                buf[row * p.strides.get(1).copied().unwrap_or(p.distance) + i] = v;
                x.push(Complex64::new(v.to_c64().re, 0.0));
            }
        }
        let mut a = DeviceBuffer::from_slice(&q, &buf).map_err(r)?;
        let mut b = DeviceBuffer::<T>::zeroed(&q, n * batch).map_err(r)?;
        fwd.execute::<T>(&q, Data::Real(&mut a), None).map_err(e)?;
        // The in-place real buffer holds interleaved hermitian elements now.
        let herm: Vec<Complex<T>> = bytemuck::cast_slice(&a.to_vec(&q).map_err(r)?).to_vec();
        let mut h = DeviceBuffer::from_slice(&q, &herm).map_err(r)?;
        if inv.input_scalars()[0] > 2 * herm.len() {
            return Err("the packed inverse input is larger than the in-place forward output".into());
        }
        inv.execute::<T>(&q, Data::Interleaved(&mut h), Some(Data::Real(&mut b))).map_err(e)?;
        (x, b.to_vec(&q).map_err(r)?.iter().map(|v| Complex64::new(v.to_c64().re, 0.0)).collect())
    };
    let acc = accuracy(&y, &x, n, fft::type_epsilon(T::PRECISION));
    if acc.passes() { Ok(()) } else { Err(format!("{acc:?}")) }
}

#[test]
fn inverse_round_trips() {
    let mut failures = Vec::new();
    for device in fft_devices() {
        for forward in [ComplexForward, RealForward] {
            for p in [Single, Double, Half] {
                for (lengths, batch) in [(&[1][..], 1), (&[2], 3), (&[1000], 2), (&[4099], 1), (&[48, 35], 2), (&[7, 8, 9], 3), (&[1 << 16], 1)] {
                    if p == Half && lengths.iter().product::<usize>() > 8192 {
                        continue;
                    }
                    if let Err(e) = round_trip(&device, forward, p, lengths, batch) {
                        failures.push(format!("{} {forward:?} {p:?} {lengths:?} x{batch}: {e}", device.spec()));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// The CPU path's own contract (raw pointers).

/// A single-precision c2c plan of `n` x `batch`, out of place, run with the same buffer as
/// input and output: the CPU path sees the overlap, runs line by line (each line read whole
/// before it is written), so the result is the in-place transform.
#[test]
fn cpu_out_of_place_with_aliased_buffers_runs_serially() {
    let cpu = Device::cpu();
    let q = cpu.new_queue().unwrap();
    let (n, batch) = (256, 300);
    let plan = Plan::new(&cpu, Placement::NotInPlace, ComplexForward, Single, &[n], batch, None).unwrap();
    let mut rng = Rng::new(3);
    let x: Vec<Complex<f32>> = (0..n * batch).map(|_| Complex::new(rng.unit() as f32, rng.unit() as f32)).collect();
    let mut buf = DeviceBuffer::from_slice(&q, &x).unwrap();
    let p = buf.as_mut_ptr() as *mut c_void;
    // SAFETY: the buffer holds the plan's input and output; nothing else uses it.
    unsafe { plan.execute_raw(&q, &[p], &[p], None).unwrap() };
    let got: Vec<Complex64> = buf.to_vec(&q).unwrap().iter().map(|v| Complex64::new(v.re as f64, v.im as f64)).collect();
    let xd: Vec<Complex64> = x.iter().map(|v| Complex64::new(v.re as f64, v.im as f64)).collect();
    let want = fft::cpu_double(ComplexForward, &[n], batch, &xd).unwrap();
    let acc = accuracy(&got, &want, n, fft::EPS_SINGLE);
    assert!(acc.passes(), "{acc:?}");
}

#[test]
fn interleaved_pointers_one_scalar_into_a_pair() {
    // Buffers that start one float into an allocation: scalar-aligned, but not on a pair. GPU
    // plans pick their lean kernels for interleaved layouts assuming pair alignment; such an
    // execution must take the general kernels instead (a single pass and a four-step length).
    for device in fft_devices() {
        let q = device.new_queue().unwrap();
        for (n, batch) in [(256, 8), (1 << 15, 2)] {
            let plan = Plan::new(&device, Placement::NotInPlace, ComplexForward, Single, &[n], batch, None).unwrap();
            let mut rng = Rng::new(n as u64);
            let mut scalars = vec![0f32; 2 * n * batch + 1];
            scalars[1..].iter_mut().for_each(|v| *v = rng.unit() as f32);
            let mut a = DeviceBuffer::from_slice(&q, &scalars).unwrap();
            let mut out = DeviceBuffer::from_slice(&q, &vec![f32::NAN; 2 * n * batch + 1]).unwrap();
            let ip = (a.as_mut_ptr() as *mut f32).wrapping_add(1) as *mut c_void;
            let op = (out.as_mut_ptr() as *mut f32).wrapping_add(1) as *mut c_void;
            // SAFETY: each buffer holds 1 + the plan's n * batch interleaved elements.
            unsafe { plan.execute_raw(&q, &[ip], &[op], None) }.unwrap_or_else(|e| panic!("{}: {n}: {e}", device.spec()));
            let got = out.to_vec(&q).unwrap();
            assert!(got[0].is_nan(), "{}: {n}: the scalar before the output was written", device.spec());
            let pairs = |v: &[f32]| v.chunks(2).map(|c| Complex64::new(c[0] as f64, c[1] as f64)).collect::<Vec<_>>();
            let want = fft::cpu_double(ComplexForward, &[n], batch, &pairs(&scalars[1..])).unwrap();
            let acc = accuracy(&pairs(&got[1..]), &want, n, fft::EPS_SINGLE);
            assert!(acc.passes(), "{}: {n}: {acc:?}", device.spec());
        }
    }
}

#[test]
fn cpu_rejects_misaligned_pointers() {
    let cpu = Device::cpu();
    let q = cpu.new_queue().unwrap();
    let plan = Plan::new(&cpu, Placement::NotInPlace, ComplexForward, Single, &[8], 1, None).unwrap();
    let mut a = DeviceBuffer::<f32>::zeroed(&q, 40).unwrap();
    let mut b = DeviceBuffer::<f32>::zeroed(&q, 40).unwrap();
    let good = b.as_mut_ptr() as *mut c_void;
    let bad = (a.as_mut_ptr() as *mut u8).wrapping_add(2) as *mut c_void;
    // SAFETY: both buffers hold 16 + 2 interleaved elements (the misaligned one is refused
    // before any access).
    let err = unsafe { plan.execute_raw(&q, &[bad], &[good], None) }.unwrap_err();
    assert_eq!(err.status, Status::InvalidArgValue);
    assert!(b.to_vec(&q).unwrap().iter().all(|v| *v == 0.0), "nothing is written");
    let err = unsafe { plan.execute_raw(&q, &[good], &[bad], None) }.unwrap_err();
    assert_eq!((err.status, err.arg), (Status::InvalidArgValue, "out_buffer"));
}


// ---------------------------------------------------------------------------------------------
// The ndarray API.

mod nd_api {
    use super::*;
    use ndarray::{s, Array, ArrayD, Axis, IxDyn};
    use num_complex::Complex32;
    use rocmath_fft::nd;

    fn c64(v: &Complex32) -> Complex64 {
        Complex64::new(v.re as f64, v.im as f64)
    }

    fn random(shape: &[usize], seed: u64) -> ArrayD<Complex32> {
        let mut rng = Rng::new(seed);
        Array::from_shape_fn(IxDyn(shape), |_| Complex32::new(rng.unit() as f32, rng.unit() as f32))
    }

    /// The naive transform of the last `axes` axes of `x` (standard layout order).
    fn reference(x: &ArrayD<Complex32>, axes: usize, transform: TransformType) -> Vec<Complex64> {
        let lengths: Vec<usize> = x.shape()[x.ndim() - axes..].iter().rev().copied().collect();
        let data: Vec<Complex64> = x.iter().map(c64).collect();
        naive(transform, &lengths, &data)
    }

    fn assert_close(got: impl Iterator<Item = Complex64>, want: &[Complex64], n: usize, what: &str) {
        let got: Vec<Complex64> = got.collect();
        let acc = accuracy(&got, want, n, fft::EPS_SINGLE);
        assert!(acc.passes(), "{what}: {acc:?}");
    }

    #[test]
    fn fft_and_ifft_of_the_last_axes() {
        for device in fft_devices() {
            let q = device.new_queue().unwrap();
            let x = random(&[2, 3, 6, 5], 1);
            for axes in 1..=3 {
                let n: usize = x.shape()[4 - axes..].iter().product();
                let y = nd::fft(&q, x.view(), axes).unwrap();
                assert_eq!(y.shape(), x.shape());
                assert_close(y.iter().map(c64), &reference(&x, axes, ComplexForward), n, "fft");
                let back = nd::ifft(&q, y.view(), axes).unwrap();
                let want: Vec<Complex64> = x.iter().map(c64).collect();
                assert_close(back.iter().map(c64), &want, n, "ifft(fft(x))");
            }
        }
    }

    #[test]
    fn views_with_any_strides() {
        for device in fft_devices() {
            let q = device.new_queue().unwrap();
            let base = random(&[4, 8, 6], 2);
            // Column-major (read through its own strides), a stepped slice, reversed axes and a
            // permutation that keeps the data in one block: each must equal the transform of
            // the same logical array in standard layout.
            let mut views = vec![base.view().reversed_axes().into_dyn()];
            views.push(base.slice(s![.., ..;2, 1..]).into_dyn());
            let mut flipped = base.view();
            flipped.invert_axis(Axis(2));
            views.push(flipped.into_dyn());
            views.push(base.view().permuted_axes(vec![1, 0, 2]).into_dyn());
            for (i, v) in views.into_iter().enumerate() {
                let standard = v.as_standard_layout().into_owned();
                for axes in 1..=2 {
                    let n: usize = v.shape()[3 - axes..].iter().product();
                    let y = nd::fft(&q, v.view(), axes).unwrap();
                    assert_close(y.iter().map(c64), &reference(&standard, axes, ComplexForward), n, &format!("view {i}, {axes} axes"));
                }
            }
        }
    }

    #[test]
    fn rfft_and_irfft() {
        for device in fft_devices() {
            let q = device.new_queue().unwrap();
            for shape in [[3usize, 4, 10], [2, 5, 7]] {
                let x = random(&shape, 3).mapv(|v| v.re);
                let xc = x.mapv(|v| Complex32::new(v, 0.0));
                for axes in 1..=2 {
                    let n: usize = shape[3 - axes..].iter().product();
                    let y = nd::rfft(&q, x.view(), axes).unwrap();
                    assert_eq!(y.shape()[2], shape[2] / 2 + 1);
                    assert_close(y.iter().map(c64), &reference(&xc, axes, RealForward), n, "rfft");
                    let back = nd::irfft(&q, y.view(), shape[2], axes).unwrap();
                    assert_eq!(back.shape(), x.shape());
                    let want: Vec<Complex64> = x.iter().map(|v| Complex64::new(*v as f64, 0.0)).collect();
                    assert_close(back.iter().map(|v| Complex64::new(*v as f64, 0.0)), &want, n, "irfft(rfft(x))");
                }
            }
        }
    }

    #[test]
    fn double_and_half() {
        for device in fft_devices() {
            let q = device.new_queue().unwrap();
            let x = random(&[3, 16], 4);
            let want = reference(&x, 1, ComplexForward);
            let xd = x.mapv(|v| Complex64::new(v.re as f64, v.im as f64));
            let yd = nd::fft(&q, xd.view(), 1).unwrap();
            assert!(accuracy(&yd.iter().copied().collect::<Vec<_>>(), &want, 16, fft::EPS_DOUBLE).passes());
            let xh = x.mapv(|v| Complex::new(half::f16::from_f32(v.re), half::f16::from_f32(v.im)));
            let want_h = naive(ComplexForward, &[16], &xh.iter().map(|v| Complex64::new(v.re.to_f64(), v.im.to_f64())).collect::<Vec<_>>());
            let yh = nd::fft(&q, xh.view(), 1).unwrap();
            let got: Vec<Complex64> = yh.iter().map(|v| Complex64::new(v.re.to_f64(), v.im.to_f64())).collect();
            assert!(accuracy(&got, &want_h, 16, fft::EPS_HALF).passes());
        }
    }

    #[test]
    fn shapes_it_refuses_and_empty_batches() {
        let q = Device::cpu().new_queue().unwrap();
        let x = random(&[2, 3], 5);
        for axes in [0, 3, 4] {
            assert_eq!(nd::fft(&q, x.view(), axes).unwrap_err().status, Status::InvalidDimensions, "axes = {axes}");
        }
        let y = nd::rfft(&q, x.mapv(|v| v.re).view(), 1).unwrap();
        assert_eq!(nd::irfft(&q, y.view(), 5, 1).unwrap_err().status, Status::InvalidDimensions);
        assert_eq!(nd::irfft(&q, y.view(), 3, 1).unwrap().shape(), &[2, 3]);
        assert_eq!(nd::irfft(&q, y.view(), 2, 1).unwrap().shape(), &[2, 2]);
        let empty = random(&[0, 3], 6);
        assert_eq!(nd::fft(&q, empty.view(), 1).unwrap().shape(), &[0, 3]);
        let no_points = random(&[3, 0], 6);
        assert_eq!(nd::fft(&q, no_points.view(), 1).unwrap_err().status, Status::InvalidDimensions);
    }
}

/// Half precision is computed in f32 and rounded to f16 once, at the end: every element of a
/// multi-dimensional half transform is the f32 transform of the same values, correctly rounded
/// (within half an f16 ulp, plus a few f32 ulps for the two f32 runs' own differences). Rounding
/// the intermediate passes to f16 would miss this by up to an ulp.
#[test]
fn cpu_half_rounds_once() {
    use half::f16;
    let cpu = Device::cpu();
    let q = cpu.new_queue().unwrap();
    let ulp16 = |y: f64| {
        let y = y.abs().max(f16::MIN_POSITIVE.to_f64());
        2f64.powi(y.log2().floor() as i32 - 10)
    };
    for (t, lengths) in [(ComplexForward, &[32usize, 24][..]), (ComplexInverse, &[6, 10, 8]), (RealForward, &[40, 12]), (RealInverse, &[18, 5, 4])] {
        let batch = 2;
        let half_plan = Plan::new(&cpu, Placement::NotInPlace, t, Half, lengths, batch, None).unwrap();
        let single_plan = Plan::new(&cpu, Placement::NotInPlace, t, Single, lengths, batch, None).unwrap();
        let mut rng = Rng::new(21);
        let input = fft::random_input(&mut rng, t, lengths, batch);
        let (in_n, out_n) = (half_plan.input_scalars()[0], half_plan.output_scalars()[0]);
        let (mut h_in, mut s_in) = (vec![f16::ZERO; in_n], vec![0f32; in_n]);
        let complex_in = t != RealForward;
        for (i, v) in input.iter().enumerate() {
            let (re, im) = (f16::from_f64(v.re), f16::from_f64(v.im));
            if complex_in {
                (h_in[2 * i], h_in[2 * i + 1]) = (re, im);
                (s_in[2 * i], s_in[2 * i + 1]) = (re.to_f32(), im.to_f32());
            } else {
                (h_in[i], s_in[i]) = (re, re.to_f32());
            }
        }
        let (mut h_out, mut s_out) = (vec![f16::ZERO; out_n], vec![0f32; out_n]);
        // SAFETY: host vectors of the plans' sizes (CPU device pointers are host pointers).
        unsafe {
            half_plan.execute_raw(&q, &[h_in.as_mut_ptr() as *mut c_void], &[h_out.as_mut_ptr() as *mut c_void], None).unwrap();
            single_plan.execute_raw(&q, &[s_in.as_mut_ptr() as *mut c_void], &[s_out.as_mut_ptr() as *mut c_void], None).unwrap();
        }
        for (i, (h, s)) in h_out.iter().zip(&s_out).enumerate() {
            let (h, y) = (h.to_f64(), *s as f64);
            let allowed = 0.5 * ulp16(y) + 4.0 * f32::EPSILON as f64 * y.abs();
            assert!((h - y).abs() <= allowed, "{t:?} {lengths:?} scalar {i}: half {h}, single {y}");
        }
    }
}
