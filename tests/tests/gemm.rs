//! GEMM against the independent f64 reference on every device present: tile-edge sizes, every
//! transpose pair, ld > rows, NaN-poisoned outputs, random alpha/beta (including 0), every
//! element type and mixed-precision form, and (on GPUs) every kernel variant the device runs.
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use proptest::prelude::*;
use rocmath_blas::{gemm, gemm_ex, gemm_solution, Element, ExOutput, GemmFamily, GemmVariant, HalfLike, Handle, Operation};
use rocmath_runtime::DeviceBuffer;
use rocmath_tests::{config_selected, stored_shape, test_devices, test_gpus, test_handles, GemmCase, Num, Rng};

const OPS: [Operation; 3] = [Operation::None, Operation::Transpose, Operation::ConjugateTranspose];
/// Sizes around the macro tiles the kernels use (16, 32, 64, 128) and a few primes.
const EDGE: [usize; 12] = [1, 2, 7, 15, 16, 17, 31, 33, 63, 64, 65, 131];



#[derive(Clone, Copy, Debug)]
struct Shape {
    ta: Operation,
    tb: Operation,
    m: usize,
    n: usize,
    k: usize,
    pad: [usize; 3],
    alpha_kind: u8,
    beta_kind: u8,
    seed: u64,
}

/// alpha/beta: 0 = zero, 1 = one, else random.
fn scalar<T: Num>(kind: u8, rng: &mut Rng) -> T {
    match kind {
        0 => T::from_c64(Complex64::new(0.0, 0.0)),
        1 => T::from_c64(Complex64::new(1.0, 0.0)),
        _ => rng.value(),
    }
}

struct Data<In, Out> {
    a: Vec<In>,
    b: Vec<In>,
    c: Vec<Out>,
    lda: usize,
    ldb: usize,
    ldc: usize,
}

fn data<In: Num, Out: Num>(s: &Shape, rng: &mut Rng, poison_c: bool) -> Data<In, Out> {
    let (ra, ca) = stored_shape(s.ta, s.m, s.k);
    let (rb, cb) = stored_shape(s.tb, s.k, s.n);
    let (lda, ldb, ldc) = (ra.max(1) + s.pad[0], rb.max(1) + s.pad[1], s.m.max(1) + s.pad[2]);
    let mut c: Vec<Out> = rng.vec(ldc * s.n);
    // The ld padding is poisoned always; the window too when beta = 0 (C must not be read).
    for j in 0..s.n {
        for i in 0..ldc {
            if i >= s.m || poison_c {
                c[i + j * ldc] = Out::nan();
            }
        }
    }
    Data { a: rng.vec(lda * ca.max(1)), b: rng.vec(ldb * cb.max(1)), c, lda, ldb, ldc }
}

type GemmFn<'a, S, In, Out> = dyn Fn(S, &DeviceBuffer<In>, usize, &DeviceBuffer<In>, usize, S, &mut DeviceBuffer<Out>, usize) -> rocmath_blas::Result<()> + 'a;

/// One shape through `call` on `handle`'s device, checked against the reference. `S` is the
/// API's scalar type (alpha, beta), `compute_roundoff` that of the type the kernels accumulate in.
fn run_case<S: Num, In: Num, Out: Num>(handle: &Handle, s: &Shape, label: &str, compute_roundoff: f64, call: &GemmFn<S, In, Out>) -> Result<(), String> {
    let mut rng = Rng::new(s.seed);
    let alpha: S = scalar(s.alpha_kind, &mut rng);
    let beta: S = scalar(s.beta_kind, &mut rng);
    let d: Data<In, Out> = data(s, &mut rng, beta.to_c64() == Complex64::new(0.0, 0.0));
    let q = handle.queue();
    let a = DeviceBuffer::from_slice(q, &d.a).unwrap();
    let b = DeviceBuffer::from_slice(q, &d.b).unwrap();
    let mut c = DeviceBuffer::from_slice(q, &d.c).unwrap();
    call(alpha, &a, d.lda, &b, d.ldb, beta, &mut c, d.ldc).map_err(|e| e.to_string())?;
    let got = c.to_vec(q).map_err(|e| e.to_string())?;
    let case = GemmCase {
        trans_a: s.ta,
        trans_b: s.tb,
        m: s.m,
        n: s.n,
        k: s.k,
        alpha: alpha.to_c64(),
        beta: beta.to_c64(),
        a: &d.a,
        lda: d.lda,
        b: &d.b,
        ldb: d.ldb,
        c: &d.c,
        ldc: d.ldc,
        compute_roundoff,
    };
    case.check(&got).map_err(|m| format!("{label} {handle:?} {s:?}: {m:?}"))
}

fn run_typed<T: Element + Num>(handle: &Handle, s: &Shape) -> Result<(), String> {
    let compute_roundoff = if T::PRECISION == "h" { f32::EPSILON as f64 / 2.0 } else { T::UNIT_ROUNDOFF };
    run_case::<T, T, T>(handle, s, T::PRECISION, compute_roundoff, &|alpha, a, lda, b, ldb, beta, c, ldc| {
        gemm(handle, s.ta, s.tb, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c, ldc)
    })
}

fn run_ex<In: HalfLike + Num, Out: ExOutput + Num>(handle: &Handle, s: &Shape) -> Result<(), String> {
    run_case::<f32, In, Out>(handle, s, "gemm_ex", f32::EPSILON as f64 / 2.0, &|alpha, a, lda, b, ldb, beta, c, ldc| {
        gemm_ex(handle, s.ta, s.tb, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c, ldc)
    })
}

/// One shape through the API form of `family` on `handle` (`None` for i8 and xf32, whose
/// checks live in gemm_i8_xf32.rs).
fn run_family(handle: &Handle, family: GemmFamily, s: &Shape) -> Option<Result<(), String>> {
    Some(match family {
        GemmFamily::S => run_typed::<f32>(handle, s),
        GemmFamily::D => run_typed::<f64>(handle, s),
        GemmFamily::C => run_typed::<Complex32>(handle, s),
        GemmFamily::Z => run_typed::<Complex64>(handle, s),
        GemmFamily::H => run_typed::<f16>(handle, s),
        GemmFamily::Hss => run_ex::<f16, f32>(handle, s),
        GemmFamily::Bss => run_ex::<bf16, f32>(handle, s),
        GemmFamily::Hhs => run_ex::<f16, f16>(handle, s),
        GemmFamily::Bbs => run_ex::<bf16, bf16>(handle, s),
        GemmFamily::I8 | GemmFamily::Xf32 => return None,
    })
}

/// Runs one shape for every type on every handle of every device. A variant the device cannot
/// run must be refused with ArchMismatch, not run.
fn run_all(s: &Shape) -> Result<(), String> {
    for device in test_devices() {
        for h in test_handles(&device) {
            let results = [
                run_typed::<f32>(&h, s),
                run_typed::<f64>(&h, s),
                run_typed::<Complex32>(&h, s),
                run_typed::<Complex64>(&h, s),
                run_typed::<f16>(&h, s),
                run_ex::<f16, f32>(&h, s),
                run_ex::<bf16, f32>(&h, s),
                run_ex::<f16, f16>(&h, s),
                run_ex::<bf16, bf16>(&h, s),
            ];
            for r in results {
                match r {
                    Err(e) if h.gemm_variant().is_some() && e.contains("arch_mismatch") => {}
                    Err(e) => return Err(format!("{}: {e}", device.spec())),
                    Ok(()) => {}
                }
            }
        }
    }
    Ok(())
}

fn shape_strategy() -> impl Strategy<Value = Shape> {
    let dim = prop_oneof![proptest::sample::select(EDGE.to_vec()), 1usize..200];
    (0..3usize, 0..3usize, dim.clone(), dim.clone(), dim, [0..4usize, 0..4usize, 0..4usize], 0..4u8, 0..4u8, any::<u64>())
        .prop_map(|(ta, tb, m, n, k, pad, alpha_kind, beta_kind, seed)| Shape { ta: OPS[ta], tb: OPS[tb], m, n, k, pad, alpha_kind, beta_kind, seed })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn gemm_matches_reference(s in shape_strategy()) {
        run_all(&s).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn every_transpose_pair_at_tile_edges() {
    let mut seed = 1;
    for ta in OPS {
        for tb in OPS {
            for (m, n, k) in [(65, 17, 33), (1, 1, 1), (64, 64, 64), (131, 63, 7)] {
                seed += 1;
                let s = Shape { ta, tb, m, n, k, pad: [3, 1, 2], alpha_kind: 2, beta_kind: (seed % 3) as u8 * 2, seed };
                run_all(&s).unwrap();
            }
        }
    }
}

#[test]
fn k_zero_and_alpha_zero_scale_c_only() {
    for (k, alpha_kind, beta_kind) in [(0, 2, 2), (0, 2, 0), (9, 0, 2), (9, 0, 0)] {
        let s = Shape { ta: Operation::None, tb: Operation::Transpose, m: 19, n: 5, k, pad: [1, 0, 2], alpha_kind, beta_kind, seed: 7 };
        run_all(&s).unwrap();
    }
}

/// Found by the property test on the H200 run: alpha = 0 makes D = beta * C, which lands in
/// f16's subnormal range for some elements; the bound must allow absolute subnormal rounding.
#[test]
fn subnormal_results_within_bound() {
    let s = Shape { ta: Operation::None, tb: Operation::None, m: 31, n: 46, k: 1, pad: [0, 0, 1], alpha_kind: 0, beta_kind: 2, seed: 8427019391622638234 };
    run_all(&s).unwrap();
}

#[test]
fn k_one_and_huge_k() {
    for k in [1, 40_000] {
        let s = Shape { ta: Operation::Transpose, tb: Operation::None, m: 9, n: 6, k, pad: [0, 1, 0], alpha_kind: 2, beta_kind: 2, seed: 11 };
        run_all(&s).unwrap();
    }
}

#[test]
fn pinned_variant_a_device_cannot_run_is_refused() {
    for device in test_devices() {
        let arch = device.properties().arch;
        let mut h = Handle::on(&device).unwrap();
        // MFMA never runs on the CPU or NVIDIA; MMA never on the CPU or AMD.
        let foreign = if arch.starts_with("gfx") { GemmVariant::Mma } else { GemmVariant::Mfma };
        h.set_gemm_variant(Some(foreign));
        let q = h.queue().clone();
        let a = DeviceBuffer::from_slice(&q, &[1f32; 4]).unwrap();
        let mut c = DeviceBuffer::from_slice(&q, &[5f32; 4]).unwrap();
        let r = gemm(&h, Operation::None, Operation::None, 2, 2, 2, 1.0, &a, 2, &a, 2, 0.0, &mut c, 2);
        if device.is_gpu() {
            assert_eq!(r.unwrap_err().status, rocmath_blas::Status::ArchMismatch);
            assert_eq!(c.to_vec(&q).unwrap(), vec![5f32; 4], "C written although the call was refused");
        } else {
            // The CPU device has one implementation; the pin does not apply there.
            r.unwrap();
        }
    }
}

/// Strided batches, including more entries than one launch's grid can hold (65535).
#[test]
fn strided_batch_beyond_one_launch() {
    use rocmath_blas::{gemm_strided_batched, Batch};
    let (m, n, k, count) = (3usize, 2usize, 4usize, 70_001usize);
    let (sa, sb, sc) = (m * k + 1, k * n + 2, m * n + 3);
    let mut rng = Rng::new(99);
    let a: Vec<f32> = rng.vec(sa * count);
    let b: Vec<f32> = rng.vec(sb * count);
    let c: Vec<f32> = rng.vec(sc * count);
    for device in test_devices() {
        for h in test_handles(&device) {
            let q = h.queue().clone();
            let (da, db) = (DeviceBuffer::from_slice(&q, &a).unwrap(), DeviceBuffer::from_slice(&q, &b).unwrap());
            let mut dc = DeviceBuffer::from_slice(&q, &c).unwrap();
            let batch = Batch { count, stride_a: sa, stride_b: sb, stride_c: sc };
            match gemm_strided_batched(&h, Operation::None, Operation::None, m, n, k, 1.5f32, &da, m, &db, k, -0.5, &mut dc, m, batch) {
                Err(e) if h.gemm_variant().is_some() && e.status == rocmath_blas::Status::ArchMismatch => continue,
                r => r.unwrap(),
            }
            let got = dc.to_vec(&q).unwrap();
            for e in [0, 1, 65_534, 65_535, 65_536, count - 1] {
                let case = GemmCase {
                    trans_a: Operation::None,
                    trans_b: Operation::None,
                    m,
                    n,
                    k,
                    alpha: Complex64::new(1.5, 0.0),
                    beta: Complex64::new(-0.5, 0.0),
                    a: &a[e * sa..e * sa + m * k],
                    lda: m,
                    b: &b[e * sb..e * sb + k * n],
                    ldb: k,
                    c: &c[e * sc..e * sc + m * n],
                    ldc: m,
                    compute_roundoff: f32::EPSILON as f64 / 2.0,
                };
                case.check(&got[e * sc..e * sc + m * n]).unwrap_or_else(|mm| panic!("{} entry {e}: {mm:?}", device.spec()));
                // The gap between matrices is never written.
                assert_eq!(got[e * sc + m * n..(e + 1) * sc].iter().map(|v| v.to_bits()).collect::<Vec<_>>(), c[e * sc + m * n..(e + 1) * sc].iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            }
        }
    }
}

/// The sm_90a kernels (TMA + wgmma, warp-specialized, persistent), pinned, on shapes whose
/// operands TMA can describe (leading dimensions multiples of 8 elements): every N/T pair around
/// the 128 x 256 x 64 tile (partial tiles in m, n and k, several K tiles, more tiles than the
/// H100's 132 SMs so that blocks loop), every 16-bit form, beta = 0 over NaN-poisoned C, and
/// alpha = 0. ldc is a multiple of 8 elements (D stored by TMA, clipped at the edges) or not
/// (D written from registers). Elsewhere the pin is refused (ArchMismatch) and C is left alone.
#[test]
fn wgmma_kernels_at_tile_edges() {
    let ops = [Operation::None, Operation::Transpose];
    for device in test_gpus() {
        let mut h = Handle::on(&device).unwrap();
        h.set_gemm_variant(Some(GemmVariant::Wgmma));
        let runs = device.properties().arch == "sm_90";
        let picked = gemm_solution(&h, GemmFamily::Hss, Operation::None, Operation::Transpose, 256, 256, 256, 1);
        match picked {
            Ok(Some(k)) => assert!(runs && k.config.is_wgmma(), "{k:?} picked on {}", device.properties().arch),
            Err(e) => assert!(!runs && e.status == rocmath_blas::Status::ArchMismatch, "{e}"),
            Ok(None) => panic!("a GPU handle has a kernel"),
        }
        let mut seed = 100;
        for ta in ops {
            for tb in ops {
                for &(m, n, k) in &[(128, 256, 64), (129, 257, 65), (1, 1, 1), (7, 300, 1000), (300, 9, 130), (1920, 2304, 16)] {
                    if m * n * k > 10_000_000 && (ta, tb) != (Operation::None, Operation::Transpose) {
                        continue; // the persistent loop once (the reference is O(mnk) on the host)
                    }
                    seed += 1;
                    let (ra, _) = stored_shape(ta, m, k);
                    let (rb, _) = stored_shape(tb, k, n);
                    let extra = 8 * (seed % 2) as usize;
                    let c_pad = m.next_multiple_of(8) - m;
                    let pad = [ra.next_multiple_of(8) - ra + extra, rb.next_multiple_of(8) - rb, [c_pad, c_pad + 8, c_pad + 1][(seed % 3) as usize]];
                    let beta_kind = [0, 2, 1][(seed % 3) as usize];
                    let s = Shape { ta, tb, m, n, k, pad, alpha_kind: 2, beta_kind, seed };
                    let results = [
                        run_typed::<f16>(&h, &s),
                        run_ex::<f16, f32>(&h, &s),
                        run_ex::<bf16, f32>(&h, &s),
                        run_ex::<f16, f16>(&h, &s),
                        run_ex::<bf16, bf16>(&h, &s),
                    ];
                    for r in results {
                        match r {
                            Err(e) if !runs && e.contains("arch_mismatch") => {}
                            r => r.unwrap(),
                        }
                    }
                }
            }
        }
        // alpha = 0 (A and B unread) and a K that ends mid-tile with beta = 1.
        for (alpha_kind, beta_kind, k) in [(0, 2, 64), (2, 1, 100)] {
            let s = Shape { ta: Operation::None, tb: Operation::Transpose, m: 136, n: 264, k, pad: [0, 0, 5], alpha_kind, beta_kind, seed: 5 };
            match run_ex::<f16, f32>(&h, &s) {
                Err(e) if !runs && e.contains("arch_mismatch") => {}
                r => r.unwrap(),
            }
        }
    }
}

/// One hss NT strided-batched GEMM (f16 A and B, f32 C) on `h`, checked entry by entry: lda =
/// m + 8, ldb = n, the given ldc, and batch strides that leave `c_gap` elements between
/// entries of C (64 of A, 8 of B).
fn hss_nt_strided_batch(h: &Handle, (m, n, k, count): (usize, usize, usize, usize), ldc: usize, c_gap: usize, (alpha, beta): (f32, f32), seed: u64) -> Result<(), String> {
    use rocmath_blas::{gemm_strided_batched_ex, Batch};
    let q = h.queue().clone();
    let (lda, ldb) = (m + 8, n);
    let (sa, sb, sc) = (lda * k + 64, ldb * k + 8, ldc * n + c_gap);
    let mut rng = Rng::new(seed);
    let a: Vec<f16> = rng.vec(sa * count);
    let b: Vec<f16> = rng.vec(sb * count);
    let c: Vec<f32> = rng.vec(sc * count);
    let (da, db) = (DeviceBuffer::from_slice(&q, &a).unwrap(), DeviceBuffer::from_slice(&q, &b).unwrap());
    let mut dc = DeviceBuffer::from_slice(&q, &c).unwrap();
    let batch = Batch { count, stride_a: sa, stride_b: sb, stride_c: sc };
    gemm_strided_batched_ex(h, Operation::None, Operation::Transpose, m, n, k, alpha, &da, lda, &db, ldb, beta, &mut dc, ldc, batch).map_err(|e| e.to_string())?;
    let got = dc.to_vec(&q).unwrap();
    let case = GemmCase {
        trans_a: Operation::None,
        trans_b: Operation::Transpose,
        m,
        n,
        k,
        alpha: Complex64::new(alpha as f64, 0.0),
        beta: Complex64::new(beta as f64, 0.0),
        a: &a,
        lda,
        b: &b,
        ldb,
        c: &c,
        ldc,
        compute_roundoff: f32::EPSILON as f64 / 2.0,
    };
    case.check_strided(&got, count, [sa, sb, sc]).map_err(|(e, x)| format!("ldc {ldc}, entry {e}: {x:?}"))
}

/// Strided batches through the wgmma kernels: one persistent launch walks the tiles of every
/// entry (the batch is the tensor maps' third dimension). D's layout is one TMA can store
/// through (ldc and stride_c multiples of 8 elements) or one it cannot.
#[test]
fn wgmma_strided_batches() {
    for device in test_gpus() {
        if device.properties().arch != "sm_90" {
            continue; // the pin's refusal is covered above
        }
        let mut h = Handle::on(&device).unwrap();
        h.set_gemm_variant(Some(GemmVariant::Wgmma));
        let m = 136;
        for (ldc, c_gap) in [(m + 3, 1), (m + 8, 16)] {
            hss_nt_strided_batch(&h, (m, 72, 80, 5), ldc, c_gap, (0.75, 0.5), 77).unwrap();
        }
    }
}

/// Every config the tuning tables of `families` can select for this GPU's arch (entries and
/// fallbacks; the committed tables overlaid by ROCMATH_TUNING_DIR, so a tuner's new tables can be
/// checked before they are committed), pinned, on an every-transpose shape that cuts its macro
/// tile in all three dimensions, with leading dimensions of A and B that TMA can describe (so
/// wgmma configs run their own kernels), ldc aligned (D stored by TMA) in three layouts and not
/// in one. i8 and xf32 configs are covered by gemm_i8_xf32.rs. (One test per group of
/// families: all of them on a cold kernel cache took longer than the device tool's 10-minute
/// call.)
fn table_configs_match_reference(families: &[GemmFamily]) {
    let (kernels, errors) = rocmath_kernels::check::table_kernels_of(&rocmath_tuning::Tables::from_env());
    assert!(errors.is_empty(), "{errors:?}");
    for device in test_gpus() {
        let arch = device.properties().arch;
        let mut ran = 0;
        for kernel in kernels.iter().filter(|k| families.contains(&k.family) && k.supports_arch(&arch) && config_selected(&k.config.tag())) {
            let mut h = Handle::on(&device).unwrap();
            h.set_gemm_config(Some(kernel.config));
            let [mm, nn, kk] = kernel.config.mt;
            let (m, n, k) = (mm as usize + 8, nn as usize + 16, 2 * kk as usize + 8);
            for (i, (ta, tb)) in [(Operation::None, Operation::Transpose), (Operation::Transpose, Operation::None), (Operation::None, Operation::None), (Operation::Transpose, Operation::Transpose)].into_iter().enumerate() {
                let (ra, _) = stored_shape(ta, m, k);
                let (rb, _) = stored_shape(tb, k, n);
                let pad = [ra.next_multiple_of(8) - ra, rb.next_multiple_of(8) - rb, [0, 0, 1, 8][i]];
                let s = Shape { ta, tb, m, n, k, pad, alpha_kind: 2, beta_kind: [0, 2][i % 2], seed: 40 + i as u64 };
                let Some(r) = run_family(&h, kernel.family, &s) else { continue };
                r.unwrap_or_else(|e| panic!("{}: {e}", kernel.module_name()));
            }
            ran += 1;
        }
        let tags: Vec<&str> = families.iter().map(|f| f.tag()).collect();
        eprintln!("{arch}: {ran} table configs of {} checked", tags.join(", "));
    }
}

/// The family groups of the table tests below.
const TABLE_GROUPS: [&[GemmFamily]; 4] = [
    &[GemmFamily::S],
    &[GemmFamily::D],
    &[GemmFamily::C, GemmFamily::Z],
    &[GemmFamily::H, GemmFamily::Hss, GemmFamily::Bss, GemmFamily::Hhs, GemmFamily::Bbs],
];

#[test]
fn table_configs_match_reference_s() {
    table_configs_match_reference(TABLE_GROUPS[0]);
}

#[test]
fn table_configs_match_reference_d() {
    table_configs_match_reference(TABLE_GROUPS[1]);
}

#[test]
fn table_configs_match_reference_complex() {
    table_configs_match_reference(TABLE_GROUPS[2]);
}

#[test]
fn table_configs_match_reference_16_bit() {
    table_configs_match_reference(TABLE_GROUPS[3]);
}

/// Every family whose configs this file checks is in exactly one group (a new family must join
/// one, or the tables' configs would go unchecked).
#[test]
fn table_groups_cover_every_family() {
    for f in GemmFamily::ALL.into_iter().filter(|f| !matches!(f, GemmFamily::I8 | GemmFamily::Xf32)) {
        assert_eq!(TABLE_GROUPS.iter().filter(|g| g.contains(&f)).count(), 1, "{f:?}");
    }
}

/// Pins each of `configs` on `device` and checks `T` GEMMs in every transpose pair at the three
/// shapes `shapes(macro tile, pair index)` gives, (m, n, k, aligned): aligned leading dimensions
/// are padded to `vec` elements (vector copies), the others take odd pads (element copies).
/// Each config's seeds count up from `first_seed`; beta is 0 over NaN C or random, by seed.
fn configs_at_tile_edges<T: Element + Num>(
    device: &rocmath_runtime::Device,
    configs: &[rocmath_kernels::blas::GemmConfig],
    vec: usize,
    first_seed: u64,
    shapes: impl Fn([usize; 3], usize) -> [(usize, usize, usize, bool); 3],
) {
    for cfg in configs {
        let mut h = Handle::on(device).unwrap();
        h.set_gemm_config(Some(*cfg));
        let mut seed = first_seed;
        for (i, (ta, tb)) in [(0, 1), (1, 0), (0, 0), (1, 1)].into_iter().enumerate() {
            for (m, n, k, aligned) in shapes(cfg.mt.map(|d| d as usize), i) {
                seed += 1;
                let (ta, tb) = (OPS[ta], OPS[tb]);
                let pad = if aligned {
                    let (ra, _) = stored_shape(ta, m, k);
                    let (rb, _) = stored_shape(tb, k, n);
                    // (ldc too: the epilogue's vector path, with rows past m in the padding)
                    [ra.next_multiple_of(vec) - ra, rb.next_multiple_of(vec) - rb, m.next_multiple_of(vec) + vec - m]
                } else {
                    [1, 3, 0]
                };
                let s = Shape { ta, tb, m, n, k, pad, alpha_kind: 2, beta_kind: (seed % 2) as u8 * 2, seed };
                run_typed::<T>(&h, &s).unwrap_or_else(|e| panic!("{}: {s:?}: {e}", cfg.tag()));
            }
        }
    }
}

/// Every warp-tiled FMA candidate (f32, `fmaw32x16`) this GPU runs, pinned, in every transpose
/// pair: m, n and k cut mid-tile and off the 4-element vectors (so edge chunks take the element
/// path), several K tiles; leading dimensions aligned and not (vector and element copies, and
/// the epilogue's vector and element stores); beta 0 over NaN C and beta random.
#[test]
fn warp_fma_configs_at_tile_edges() {
    use rocmath_kernels::atoms::Atom;
    use rocmath_kernels::blas::GemmConfig;
    for device in test_gpus() {
        let arch = device.properties().arch;
        let configs: Vec<GemmConfig> = GemmConfig::candidates(GemmFamily::S, &arch).into_iter().filter(|c| c.atom == Atom::FmaWarp).collect();
        assert!(!configs.is_empty(), "{arch}: no warp-tiled FMA candidates");
        configs_at_tile_edges::<f32>(&device, &configs, 4, 900, |[mm, nn, kk], i| {
            [(mm + 5, nn + 3, 3 * kk + 3, i % 2 == 0), (2 * mm, nn, kk, true), (mm - 1, 2 * nn + 1, kk - 1, false)]
        });
        eprintln!("{arch}: {} warp-tiled FMA configs checked", configs.len());
    }
}

/// Every f64 tensor-core (DMMA) candidate this GPU runs, blocked grid, pinned, in every transpose
/// pair: m, n and k cut mid-tile and off the 2-element chunks (edge chunks take the element
/// path), tiles wholly inside with several K tiles (the plan copies and interior loop), leading
/// dimensions aligned and not; beta 0 over NaN C and beta random. Persistent ones are in
/// gemm_batched.rs.
#[test]
fn dmma_configs_at_tile_edges() {
    use rocmath_kernels::atoms::{Atom, AtomInput};
    use rocmath_kernels::blas::GemmConfig;
    for device in test_gpus() {
        let arch = device.properties().arch;
        let configs: Vec<GemmConfig> = GemmConfig::candidates(GemmFamily::D, &arch)
            .into_iter()
            .filter(|c| c.variant() == GemmVariant::Mma && c.atom.input() == AtomInput::F64 && c.atom != Atom::MmaM8n8k4F64 && !c.persistent)
            .collect();
        if configs.is_empty() {
            continue; // the DMMA shapes are sm_90's only
        }
        configs_at_tile_edges::<f64>(&device, &configs, 2, 1700, |[mm, nn, kk], i| {
            [(mm + 5, nn + 3, 3 * kk + 3, i % 2 == 0), (2 * mm, 2 * nn, 6 * kk, true), (mm - 1, 2 * nn + 1, kk - 1, false)]
        });
        eprintln!("{arch}: {} DMMA configs checked", configs.len());
    }
}

/// Every unsplit complex-f64 matrix-core candidate this GPU runs (the DMMA forms `mma16x8x16z`
/// and `mma16x8x8z` on sm_90, `mfma16x16x4z` on gfx90a/gfx942; the split ones are in
/// gemm_batched's `split_k_configs_match_reference`), pinned, in all nine transpose pairs
/// (the conjugating loaders): see [`complex_configs_at_tile_edges`].
#[test]
fn z_dmma_configs_at_tile_edges() {
    use rocmath_kernels::atoms::AtomInput;
    use rocmath_kernels::blas::GemmConfig;
    for device in test_gpus() {
        let arch = device.properties().arch;
        let configs: Vec<GemmConfig> = GemmConfig::candidates(GemmFamily::Z, &arch).into_iter().filter(|c| c.atom.input() == AtomInput::C64 && c.split_k == 1).collect();
        if configs.is_empty() {
            continue; // no complex matrix-core atom on this GPU
        }
        let checked = complex_configs_at_tile_edges::<Complex64>(&device, &configs, 2100);
        eprintln!("{arch}: {checked} complex matrix-core configs checked");
    }
}

/// Every complex-f32 candidate (the scalar and the warp-tiled FMA atom: register-staged, and on
/// the direct path, where the fragment loaders conjugate as they read; persistent grids and
/// split-K among them), pinned, in all nine transpose pairs: see [`complex_configs_at_tile_edges`].
#[test]
fn c_fma_configs_at_tile_edges() {
    use rocmath_kernels::atoms::Atom;
    use rocmath_kernels::blas::GemmConfig;
    for device in test_gpus() {
        let arch = device.properties().arch;
        let configs = GemmConfig::candidates(GemmFamily::C, &arch);
        assert!(configs.iter().any(|c| c.is_direct() && !c.persistent) && configs.iter().any(|c| c.persistent), "{arch}: c candidates");
        if arch == "sm_90" {
            // (the warp-tiled c tiles are NVIDIA-only: they spill on gfx90a and gfx942)
            assert!(configs.iter().any(|c| c.atom == Atom::FmaWarp && c.is_direct()) && configs.iter().any(|c| c.atom == Atom::FmaWarp && !c.is_direct()), "{arch}: warp-tiled c candidates");
        }
        let checked = complex_configs_at_tile_edges::<Complex32>(&device, &configs, 2300);
        eprintln!("{arch}: {checked} complex f32 configs checked");
    }
}

/// Complex f32 as one real product, its copies held to a scratch limit that cuts K into steps
/// of 256 columns (three steps, the last partial: the limit and shape of the unit test
/// `copies_past_the_cap_run_in_k_steps` in blas/src/gpu/as_real.rs), in all nine transpose
/// pairs, with complex alpha; beta 0 over NaN C, 1, and random (off the real axis: C is scaled
/// into D before the steps add into it).
#[test]
fn c_as_real_in_k_steps() {
    use rocmath_blas::ComplexGemmRoute;
    for device in test_gpus() {
        let mut h = Handle::on(&device).unwrap();
        h.set_complex_gemm_route(Some(ComplexGemmRoute::AsReal));
        h.set_scratch_limit(Some(300 * 712));
        let mut seed = 4100;
        for (ta, tb) in (0..9).map(|i| (OPS[i / 3], OPS[i % 3])) {
            for beta_kind in [0, 1, 2] {
                seed += 1;
                let s = Shape { ta, tb, m: 40, n: 9, k: 700, pad: [(seed % 3) as usize, 1, 2], alpha_kind: 2, beta_kind, seed };
                run_typed::<Complex32>(&h, &s).unwrap();
            }
        }
    }
}

/// `configs` (those ROCMATH_TEST_CONFIGS selects) pinned in all nine transpose pairs: m, n and k
/// cut mid-tile, tiles wholly inside with several K tiles (the plan copies and the interior
/// epilogue), leading dimensions aligned and not; complex alpha, beta 0 over NaN C and beta
/// random. Returns how many configs ran.
fn complex_configs_at_tile_edges<T: Element + Num>(device: &rocmath_runtime::Device, configs: &[rocmath_kernels::blas::GemmConfig], first_seed: u64) -> usize {
    let mut checked = 0;
    for cfg in configs.iter().filter(|c| config_selected(&c.tag())) {
        let mut h = Handle::on(device).unwrap();
        h.set_gemm_config(Some(*cfg));
        let [mm, nn, kk] = cfg.mt.map(|d| d as usize);
        let mut seed = first_seed;
        for (ta, tb) in (0..9).map(|i| (OPS[i / 3], OPS[i % 3])) {
            for (m, n, k, aligned) in [(mm + 5, nn + 3, 3 * kk + 3, false), (2 * mm, 2 * nn, 6 * kk, true), (mm - 1, 2 * nn + 1, kk - 1, true)] {
                seed += 1;
                let pad = if aligned { [0, 0, (seed % 2) as usize] } else { [1, 3, 2] };
                let s = Shape { ta, tb, m, n, k, pad, alpha_kind: 2, beta_kind: (seed % 2) as u8 * 2, seed };
                run_typed::<T>(&h, &s).unwrap_or_else(|e| panic!("{}: {s:?}: {e}", cfg.tag()));
            }
        }
        checked += 1;
    }
    checked
}

/// `family` (16-bit) on `h`, whose pinned config is `tag`, in the four N/T pairs at each (m, n,
/// k) of `shapes`: leading dimensions of A and B that TMA can describe, ldc padded by
/// `c_pads[seed % 3]`, beta 0 over NaN C and beta random, seeds counting up from `first_seed`.
/// Shapes over 10^7 multiply-adds run in NT only (the reference is O(mnk) on the host).
fn every_transpose_at_shapes(h: &Handle, family: GemmFamily, tag: &str, shapes: &[(usize, usize, usize)], c_pads: [usize; 3], first_seed: u64) {
    let mut seed = first_seed;
    for (ta, tb) in [(0, 1), (1, 0), (0, 0), (1, 1)] {
        let (ta, tb) = (OPS[ta], OPS[tb]);
        for &(m, n, k) in shapes {
            if m * n * k > 10_000_000 && (ta, tb) != (Operation::None, Operation::Transpose) {
                continue;
            }
            seed += 1;
            let (ra, _) = stored_shape(ta, m, k);
            let (rb, _) = stored_shape(tb, k, n);
            let pad = [ra.next_multiple_of(8) - ra, rb.next_multiple_of(8) - rb, c_pads[(seed % 3) as usize]];
            let s = Shape { ta, tb, m, n, k, pad, alpha_kind: 2, beta_kind: (seed % 2) as u8 * 2, seed };
            let r = run_family(h, family, &s).expect("a 16-bit family");
            r.unwrap_or_else(|e| panic!("{} {tag}: {s:?}: {e}", family.tag()));
        }
    }
}

/// Runs `body` on a handle pinned to each sm_90 wgmma candidate of `families` that `keep` takes
/// (and ROCMATH_TEST_CONFIGS selects), once `enough` holds for each family's list; `what` names
/// the configs in the messages. Other GPUs are skipped: wgmma pins there are refused
/// (wgmma_kernels_at_tile_edges).
fn each_pinned_wgmma_candidate(
    what: &str,
    families: &[GemmFamily],
    keep: impl Fn(&rocmath_kernels::blas::GemmConfig) -> bool,
    enough: impl Fn(&[rocmath_kernels::blas::GemmConfig]) -> bool,
    mut body: impl FnMut(&Handle, GemmFamily, &rocmath_kernels::blas::GemmConfig),
) {
    use rocmath_kernels::blas::GemmConfig;
    for device in test_gpus() {
        let arch = device.properties().arch;
        if arch != "sm_90" {
            continue;
        }
        let mut checked = 0;
        for &family in families {
            let configs: Vec<GemmConfig> = GemmConfig::candidates(family, &arch).into_iter().filter(|c| keep(c)).collect();
            assert!(enough(&configs), "{arch}: {family:?} {what} candidates");
            for cfg in configs.iter().filter(|c| config_selected(&c.tag())) {
                let mut h = Handle::on(&device).unwrap();
                h.set_gemm_config(Some(*cfg));
                body(&h, family, cfg);
                checked += 1;
            }
        }
        eprintln!("{arch}: {checked} {what} configs checked");
    }
}

/// Every split-K and 64-row tile candidate (wgmma, sm_90a; one consumer, or two in turn) of the
/// 16-bit families, pinned, in every transpose pair: m small (16 rows of a 64- or 128-row tile), m off
/// the workspace's 4-row units and the tile, K tiles fewer than the slices (the call takes one
/// slice per K tile), K over many tiles; ldc aligned or not (D through TMA or registers, or the second
/// kernel); beta 0 over NaN C and beta random. Batches are in `wgmma_split_k_strided_batches`.
#[test]
fn wgmma_split_k_and_64_row_configs_at_tile_edges() {
    each_pinned_wgmma_candidate(
        "split-K and 64-row",
        &[GemmFamily::Hss, GemmFamily::H, GemmFamily::Bss, GemmFamily::Bbs],
        |c| c.is_wgmma() && (c.split_k > 1 || c.mt[0] == 64),
        |v| v.iter().any(|c| c.split_k > 1) && v.iter().any(|c| c.waves == [1, 1]) && v.iter().any(|c| c.is_pingpong()),
        |h, family, cfg| every_transpose_at_shapes(h, family, &cfg.tag(), &[(16, 300, 1000), (129, 257, 65), (136, 72, 640)], [0, 1, 2], 1300),
    );
}

/// The multicast candidates (clusters of two blocks on a pair of tiles in m sharing B, sm_90a)
/// of the 16-bit families, pinned, in every transpose pair: one pair of tiles, an odd count of
/// tiles in m (the last pair's second tile lies wholly past m: its loads are zeros, its stores
/// clipped), one row, K over many tiles, more pairs than clusters fit at once (the walk loops);
/// ldc aligned or not; beta 0 over NaN C and beta random. Then strided batches of many more
/// pairs than clusters, D through TMA and from registers.
#[test]
fn wgmma_multicast_configs_at_tile_edges() {
    each_pinned_wgmma_candidate(
        "multicast",
        &[GemmFamily::Hss, GemmFamily::H, GemmFamily::Bss, GemmFamily::Hhs],
        |c| c.multicast,
        |v| v.iter().any(|c| c.split_k > 1) && v.iter().any(|c| c.split_k == 1),
        |h, family, cfg| {
            let shapes = [(129, 257, 65), (300, 9, 130), (1, 1, 1), (7, 300, 1000), (1920, 2304, 16)];
            every_transpose_at_shapes(h, family, &cfg.tag(), &shapes, [0, 1, 8], 1700);
            if family == GemmFamily::Hss {
                let m = 300;
                for (k, count, ldc, c_gap, seed) in [(200, 97, m + 4, 16, 1800), (130, 61, m + 3, 1, 1801)] {
                    hss_nt_strided_batch(h, (m, 72, k, count), ldc, c_gap, (0.75, 0.5), seed).unwrap_or_else(|e| panic!("{}: {e}", cfg.tag()));
                }
            }
        },
    );
}

/// Ping-pong configs (two consumers taking 64-row tiles in turn), and one-consumer configs that
/// run several blocks per SM (`o2`-`o4`: a persistent grid of that many blocks an SM), over
/// batches of many more tiles than resident blocks, so that every block runs several units (a
/// ping-pong block units of both consumers), odd and even counts of them, and
/// each consumer steps over the other's stages: K tiles of 4 per unit (k = 200) wrap every ring
/// at different points, and 16 per unit (k = 1000) wrap it within a unit (more K tiles than
/// stages: the mainloops must take turns). D stored by TMA (ldc aligned) and from registers (not).
/// The several-blocks candidates include grids of a block a unit (`u`), whose blocks run one
/// unit each, over as many blocks.
#[test]
fn wgmma_pingpong_strided_batches() {
    use rocmath_kernels::blas::GemmConfig;
    for device in test_gpus() {
        if device.properties().arch != "sm_90" {
            continue;
        }
        let configs: Vec<GemmConfig> =
            GemmConfig::candidates(GemmFamily::Hss, "sm_90").into_iter().filter(|c| c.is_pingpong() || (c.is_wgmma() && c.min_waves > 1)).collect();
        assert!(configs.iter().any(|c| c.is_pingpong()) && configs.iter().any(|c| c.min_waves > 2), "ping-pong and several-blocks candidates");
        let configs: Vec<GemmConfig> = configs.into_iter().filter(|c| config_selected(&c.tag())).collect();
        for cfg in &configs {
            let mut h = Handle::on(&device).unwrap();
            h.set_gemm_config(Some(*cfg));
            let m = 72;
            for (k, count, ldc, c_gap, seed) in [(200, 601, m + 8, 16, 1500), (200, 601, m + 3, 1, 1501), (1000, 397, m + 8, 16, 1502)] {
                hss_nt_strided_batch(&h, (m, 72, k, count), ldc, c_gap, (0.75, 0.5), seed).unwrap_or_else(|e| panic!("{}: {e}", cfg.tag()));
            }
        }
        eprintln!("{} ping-pong and several-blocks configs checked", configs.len());
    }
}

/// Split-K over strided batches: the workspace holds every entry's slices, and the second
/// kernel reads C and writes D with their own batch strides.
#[test]
fn wgmma_split_k_strided_batches() {
    use rocmath_kernels::blas::GemmConfig;
    for device in test_gpus() {
        if device.properties().arch != "sm_90" {
            continue;
        }
        let cfg = GemmConfig::candidates(GemmFamily::Hss, "sm_90").into_iter().find(|c| c.split_k > 1).expect("a split-K candidate");
        let mut h = Handle::on(&device).unwrap();
        h.set_gemm_config(Some(cfg));
        let m = 40;
        hss_nt_strided_batch(&h, (m, 200, 700, 3), m + 1, 5, (-0.5, 1.5), 1400).unwrap_or_else(|e| panic!("{}: {e}", cfg.tag()));
    }
}

/// The cooperative wgmma candidates (two consumers on 128-row tiles, unsplit; plain and
/// multicast) of the 16-bit families, pinned: a unit's first wgmma overwrites the accumulators
/// that the previous unit left (scale-d 0), and the walk decodes units by rm_fastdiv. Every
/// transpose pair at one tile, tiles cut in all three dimensions, 1 to 3 K tiles and one K tile
/// more than the ring has stages; alpha = 0 (no unit has K tiles: the accumulators stay zero);
/// then hss strided batches of many more tiles than blocks (every block walks several units of
/// several entries; two tile rows, a partial group), D through TMA and from registers. (Whole
/// groups of tile rows: wgmma_kernels_at_tile_edges' 1920 x 2304.)
#[test]
fn wgmma_cooperative_configs_at_tile_edges() {
    each_pinned_wgmma_candidate(
        "cooperative",
        &[GemmFamily::Hss, GemmFamily::H, GemmFamily::Bss],
        |c| c.is_wgmma() && c.waves == [2, 1] && c.mt[0] == 128 && c.split_k == 1,
        |v| v.len() >= 4 && v.iter().any(|c| c.multicast),
        |h, family, cfg| {
            let long_k = 64 * cfg.stages as usize + 1; // one K tile more than the ring
            let shapes = [(128, cfg.mt[1] as usize, 64), (129, 257, 65), (300, 9, 130), (257, 129, 192), (136, 72, long_k)];
            every_transpose_at_shapes(h, family, &cfg.tag(), &shapes, [0, 1, 8], 1900);
            let s = Shape { ta: Operation::None, tb: Operation::Transpose, m: 136, n: 264, k: 64, pad: [0, 0, 5], alpha_kind: 0, beta_kind: 2, seed: 1950 };
            run_family(h, family, &s).expect("a 16-bit family").unwrap_or_else(|e| panic!("{}: alpha 0: {e}", cfg.tag()));
            if family == GemmFamily::Hss {
                let m = 200;
                for (k, count, ldc, c_gap, seed) in [(128, 151, m + 4, 16, 1960), (192, 150, m + 3, 1, 1961), (long_k, 61, m + 4, 16, 1962)] {
                    hss_nt_strided_batch(h, (m, 200, k, count), ldc, c_gap, (0.75, 0.5), seed).unwrap_or_else(|e| panic!("{}: {e}", cfg.tag()));
                }
            }
        },
    );
}
