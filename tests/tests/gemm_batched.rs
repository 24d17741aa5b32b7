//! Batched GEMM in both forms (strided; arrays of matrix pointers, safe and raw) against the f64
//! reference on every device present: tile-edge sizes, every transpose pair, ld > rows,
//! NaN-poisoned C, alpha/beta 0/1/random, batch > 1, one A shared by several entries.
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use proptest::prelude::*;
use rocmath_blas::{gemm_batched, gemm_batched_ex, gemm_batched_raw, gemm_strided_batched, gemm_strided_batched_ex, Batch, Element, ExInput, ExOutput, Handle, Operation, Status};
use rocmath_runtime::DeviceBuffer;
use rocmath_kernels::blas::{GemmConfig, GemmFamily};
use rocmath_tests::{config_selected, first_error, in_test_shard, stored_shape, test_devices, test_gpus, test_handles, GemmCase, Num, Rng};

const OPS: [Operation; 3] = [Operation::None, Operation::Transpose, Operation::ConjugateTranspose];
const EDGE: [usize; 10] = [1, 2, 15, 16, 17, 31, 33, 64, 65, 131];



#[derive(Clone, Copy, Debug)]
struct Shape {
    ta: Operation,
    tb: Operation,
    m: usize,
    n: usize,
    k: usize,
    pad: [usize; 3],
    count: usize,
    /// Every entry reads entry 0's A (pointer-array form) / stride_a = 0 (strided form).
    share_a: bool,
    alpha_kind: u8,
    beta_kind: u8,
    seed: u64,
}

fn scalar<T: Num>(kind: u8, rng: &mut Rng) -> T {
    match kind {
        0 => T::from_c64(Complex64::new(0.0, 0.0)),
        1 => T::from_c64(Complex64::new(1.0, 0.0)),
        _ => rng.value(),
    }
}

/// Host data of every entry: A, B, C (ld padding poisoned, and the window when beta = 0).
struct Entries<In, Out> {
    a: Vec<Vec<In>>,
    b: Vec<Vec<In>>,
    c: Vec<Vec<Out>>,
    ld: [usize; 3],
}

fn entries<In: Num, Out: Num>(s: &Shape, rng: &mut Rng, poison_c: bool) -> Entries<In, Out> {
    let (ra, ca) = stored_shape(s.ta, s.m, s.k);
    let (rb, cb) = stored_shape(s.tb, s.k, s.n);
    let ld = [ra.max(1) + s.pad[0], rb.max(1) + s.pad[1], s.m.max(1) + s.pad[2]];
    let mut e = Entries { a: vec![], b: vec![], c: vec![], ld };
    for _ in 0..s.count {
        e.a.push(rng.vec(ld[0] * ca.max(1)));
        e.b.push(rng.vec(ld[1] * cb.max(1)));
        let mut c: Vec<Out> = rng.vec(ld[2] * s.n);
        for j in 0..s.n {
            for i in 0..ld[2] {
                if i >= s.m || poison_c {
                    c[i + j * ld[2]] = Out::nan();
                }
            }
        }
        e.c.push(c);
    }
    e
}

impl<In: Num, Out: Num> Entries<In, Out> {
    fn a_of(&self, s: &Shape, i: usize) -> &[In] {
        &self.a[if s.share_a { 0 } else { i }]
    }

    fn check(&self, s: &Shape, i: usize, alpha: Complex64, beta: Complex64, compute_roundoff: f64, got: &[Out]) -> Result<(), String> {
        let case = GemmCase {
            trans_a: s.ta,
            trans_b: s.tb,
            m: s.m,
            n: s.n,
            k: s.k,
            alpha,
            beta,
            a: self.a_of(s, i),
            lda: self.ld[0],
            b: &self.b[i],
            ldb: self.ld[1],
            c: &self.c[i],
            ldc: self.ld[2],
            compute_roundoff,
        };
        case.check(got).map_err(|mm| format!("entry {i}: {mm:?}"))
    }
}

type PaFn<'a, S, In, Out> = dyn Fn(S, &[&DeviceBuffer<In>], usize, &[&DeviceBuffer<In>], usize, S, &mut [&mut DeviceBuffer<Out>], usize) -> rocmath_blas::Result<()> + 'a;
type StridedFn<'a, S, In, Out> = dyn Fn(S, &DeviceBuffer<In>, usize, &DeviceBuffer<In>, usize, S, &mut DeviceBuffer<Out>, usize, Batch) -> rocmath_blas::Result<()> + 'a;

/// The pointer-array form through the safe API.
fn run_pointers<S: Num, In: Num, Out: Num>(h: &Handle, s: &Shape, compute_roundoff: f64, call: &PaFn<S, In, Out>) -> Result<(), String> {
    let mut rng = Rng::new(s.seed);
    let (alpha, beta): (S, S) = (scalar(s.alpha_kind, &mut rng), scalar(s.beta_kind, &mut rng));
    let e: Entries<In, Out> = entries(s, &mut rng, beta.to_c64() == Complex64::new(0.0, 0.0));
    let q = h.queue();
    let up = |v: &Vec<In>| DeviceBuffer::from_slice(q, v).unwrap();
    let a: Vec<DeviceBuffer<In>> = e.a.iter().map(up).collect();
    let b: Vec<DeviceBuffer<In>> = e.b.iter().map(up).collect();
    let mut c: Vec<DeviceBuffer<Out>> = e.c.iter().map(|v| DeviceBuffer::from_slice(q, v).unwrap()).collect();
    let a_refs: Vec<&DeviceBuffer<In>> = (0..s.count).map(|i| &a[if s.share_a { 0 } else { i }]).collect();
    let b_refs: Vec<&DeviceBuffer<In>> = b.iter().collect();
    let mut c_refs: Vec<&mut DeviceBuffer<Out>> = c.iter_mut().collect();
    call(alpha, &a_refs, e.ld[0], &b_refs, e.ld[1], beta, &mut c_refs, e.ld[2]).map_err(|err| err.to_string())?;
    for (i, ci) in c.iter().enumerate() {
        e.check(s, i, alpha.to_c64(), beta.to_c64(), compute_roundoff, &ci.to_vec(q).unwrap())?;
    }
    Ok(())
}

/// The strided form: entries packed into one buffer each, with a poisoned gap between them.
fn run_strided<S: Num, In: Num, Out: Num>(h: &Handle, s: &Shape, compute_roundoff: f64, call: &StridedFn<S, In, Out>) -> Result<(), String> {
    let mut rng = Rng::new(s.seed ^ 0x5151);
    let (alpha, beta): (S, S) = (scalar(s.alpha_kind, &mut rng), scalar(s.beta_kind, &mut rng));
    let e: Entries<In, Out> = entries(s, &mut rng, beta.to_c64() == Complex64::new(0.0, 0.0));
    let gap = 3;
    let (sa, sb, sc) = (if s.share_a { 0 } else { e.a[0].len() + gap }, e.b[0].len() + gap, e.c[0].len() + gap);
    let pack = |v: &[Vec<In>], stride: usize| -> Vec<In> {
        let mut out = vec![In::nan(); stride * (s.count - 1) + v[0].len()];
        for (i, x) in v.iter().enumerate() {
            out[i * stride..i * stride + x.len()].copy_from_slice(x);
        }
        out
    };
    let mut c_host = vec![Out::nan(); sc * (s.count - 1) + e.c[0].len()];
    for (i, x) in e.c.iter().enumerate() {
        c_host[i * sc..i * sc + x.len()].copy_from_slice(x);
    }
    let q = h.queue();
    let a = DeviceBuffer::from_slice(q, &pack(if s.share_a { &e.a[..1] } else { &e.a }, sa)).unwrap();
    let b = DeviceBuffer::from_slice(q, &pack(&e.b, sb)).unwrap();
    let mut c = DeviceBuffer::from_slice(q, &c_host).unwrap();
    let batch = Batch { count: s.count, stride_a: sa, stride_b: sb, stride_c: sc };
    call(alpha, &a, e.ld[0], &b, e.ld[1], beta, &mut c, e.ld[2], batch).map_err(|err| err.to_string())?;
    let got = c.to_vec(q).unwrap();
    // (entries checked in parallel: the reference is most of a large batch's time)
    first_error(s.count, |i| {
        e.check(s, i, alpha.to_c64(), beta.to_c64(), compute_roundoff, &got[i * sc..i * sc + e.c[i].len()])?;
        if i + 1 < s.count && got[i * sc + e.c[i].len()..(i + 1) * sc].iter().any(|v| !v.to_c64().re.is_nan()) {
            return Err(format!("gap after entry {i} written"));
        }
        Ok(())
    })
}

fn typed<T: Element + Num>(h: &Handle, s: &Shape) -> Result<(), String> {
    typed_forms::<T>(h, s, true)
}

/// The strided form, and the pointer-array form too when `pointers`.
fn typed_forms<T: Element + Num>(h: &Handle, s: &Shape, pointers: bool) -> Result<(), String> {
    let roundoff = if T::PRECISION == "h" { f32::EPSILON as f64 / 2.0 } else { T::UNIT_ROUNDOFF };
    if pointers {
        run_pointers::<T, T, T>(h, s, roundoff, &|al, a, lda, b, ldb, be, c, ldc| gemm_batched(h, s.ta, s.tb, s.m, s.n, s.k, al, a, lda, b, ldb, be, c, ldc))
            .map_err(|e| format!("{}gemm_batched: {e}", T::PRECISION))?;
    }
    run_strided::<T, T, T>(h, s, roundoff, &|al, a, lda, b, ldb, be, c, ldc, batch| {
        gemm_strided_batched(h, s.ta, s.tb, s.m, s.n, s.k, al, a, lda, b, ldb, be, c, ldc, batch)
    })
    .map_err(|e| format!("{}gemm_strided_batched: {e}", T::PRECISION))
}

fn ex<In: ExInput<Compute = f32> + Num, Out: ExOutput + Num>(h: &Handle, s: &Shape) -> Result<(), String> {
    ex_forms::<In, Out>(h, s, true)
}

fn ex_forms<In: ExInput<Compute = f32> + Num, Out: ExOutput + Num>(h: &Handle, s: &Shape, pointers: bool) -> Result<(), String> {
    let roundoff = f32::EPSILON as f64 / 2.0;
    if pointers {
        run_pointers::<f32, In, Out>(h, s, roundoff, &|al, a, lda, b, ldb, be, c, ldc| gemm_batched_ex(h, s.ta, s.tb, s.m, s.n, s.k, al, a, lda, b, ldb, be, c, ldc))
            .map_err(|e| format!("gemm_batched_ex {:?}->{:?}: {e}", In::DATATYPE, Out::DATATYPE))?;
    }
    run_strided::<f32, In, Out>(h, s, roundoff, &|al, a, lda, b, ldb, be, c, ldc, batch| {
        gemm_strided_batched_ex(h, s.ta, s.tb, s.m, s.n, s.k, al, a, lda, b, ldb, be, c, ldc, batch)
    })
    .map_err(|e| format!("gemm_strided_batched_ex {:?}->{:?}: {e}", In::DATATYPE, Out::DATATYPE))
}

/// The strided form (and the pointer-array one when `pointers`) of a family's typed or
/// `_ex` API, as the per-config tests run them.
fn family_forms(h: &Handle, family: GemmFamily, s: &Shape, pointers: bool) -> Result<(), String> {
    match family {
        GemmFamily::S => typed_forms::<f32>(h, s, pointers),
        GemmFamily::D => typed_forms::<f64>(h, s, pointers),
        GemmFamily::C => typed_forms::<Complex32>(h, s, pointers),
        GemmFamily::Z => typed_forms::<Complex64>(h, s, pointers),
        GemmFamily::H => typed_forms::<f16>(h, s, pointers),
        GemmFamily::Hss => ex_forms::<f16, f32>(h, s, pointers),
        GemmFamily::Bss => ex_forms::<bf16, f32>(h, s, pointers),
        GemmFamily::Hhs => ex_forms::<f16, f16>(h, s, pointers),
        GemmFamily::Bbs => ex_forms::<bf16, bf16>(h, s, pointers),
        f => Err(format!("no per-config batched test for family {}", f.tag())),
    }
}

fn run_all(s: &Shape) -> Result<(), String> {
    for device in test_devices() {
        for h in test_handles(&device) {
            for r in [
                typed::<f32>(&h, s),
                typed::<f64>(&h, s),
                typed::<Complex32>(&h, s),
                typed::<Complex64>(&h, s),
                typed::<f16>(&h, s),
                ex::<f16, f32>(&h, s),
                ex::<bf16, f32>(&h, s),
                ex::<f16, f16>(&h, s),
                ex::<bf16, bf16>(&h, s),
            ] {
                match r {
                    Err(e) if h.gemm_variant().is_some() && e.contains("arch_mismatch") => {}
                    Err(e) => return Err(format!("{} {h:?} {s:?}: {e}", device.spec())),
                    Ok(()) => {}
                }
            }
        }
    }
    Ok(())
}

fn shape_strategy() -> impl Strategy<Value = Shape> {
    let dim = prop_oneof![proptest::sample::select(EDGE.to_vec()), 1usize..80];
    (0..3usize, 0..3usize, dim.clone(), dim.clone(), dim, [0..3usize, 0..3usize, 0..3usize], 1..5usize, any::<bool>(), 0..4u8, 0..4u8, any::<u64>()).prop_map(
        |(ta, tb, m, n, k, pad, count, share_a, alpha_kind, beta_kind, seed)| Shape { ta: OPS[ta], tb: OPS[tb], m, n, k, pad, count, share_a, alpha_kind, beta_kind, seed },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn batched_forms_match_reference(s in shape_strategy()) {
        run_all(&s).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn every_transpose_pair_and_scalar_kind() {
    let mut seed = 100;
    for ta in OPS {
        for tb in OPS {
            for (m, n, k, count) in [(17, 33, 16, 3), (1, 1, 1, 2), (65, 7, 0, 2)] {
                seed += 1;
                let s = Shape { ta, tb, m, n, k, pad: [1, 2, 3], count, share_a: seed % 2 == 0, alpha_kind: (seed % 3) as u8, beta_kind: (seed % 4) as u8, seed };
                run_all(&s).unwrap();
            }
        }
    }
}

/// Arrays of pointers into one buffer, more entries than one launch's grid holds (65535): the
/// raw form (device arrays of device pointers), launched in chunks.
#[test]
fn pointer_array_batch_beyond_one_launch() {
    let (m, n, k, count) = (3usize, 2usize, 4usize, 70_001usize);
    let (sa, sb, sc) = (m * k + 1, k * n + 2, m * n + 3);
    let mut rng = Rng::new(77);
    let a: Vec<f32> = rng.vec(sa * count);
    let b: Vec<f32> = rng.vec(sb * count);
    let c: Vec<f32> = rng.vec(sc * count);
    for device in test_devices() {
        for h in test_handles(&device) {
            let q = h.queue().clone();
            let (da, db) = (DeviceBuffer::from_slice(&q, &a).unwrap(), DeviceBuffer::from_slice(&q, &b).unwrap());
            let mut dc = DeviceBuffer::from_slice(&q, &c).unwrap();
            // Entries in reverse order, so that entry i is not at base + i * stride.
            let ptrs = |base: u64, stride: usize| -> Vec<u64> { (0..count).map(|i| base + ((count - 1 - i) * stride * 4) as u64).collect() };
            let pa = DeviceBuffer::from_slice(&q, &ptrs(da.as_ptr() as u64, sa)).unwrap();
            let pb = DeviceBuffer::from_slice(&q, &ptrs(db.as_ptr() as u64, sb)).unwrap();
            let pc = DeviceBuffer::from_slice(&q, &ptrs(dc.as_mut_ptr() as u64, sc)).unwrap();
            let (alpha, beta) = (1.5f32, -0.5f32);
            let r = unsafe {
                gemm_batched_raw::<f32>(&h, Operation::None as i32, Operation::None as i32, m as i32, n as i32, k as i32, &alpha, pa.as_ptr().cast(), m as i32, pb.as_ptr().cast(), k as i32, &beta, pc.as_ptr().cast(), m as i32, count as i32)
            };
            match r {
                Err(e) if h.gemm_variant().is_some() && e.status == Status::ArchMismatch => continue,
                r => r.unwrap(),
            }
            q.synchronize().unwrap();
            let got = dc.to_vec(&q).unwrap();
            for i in [0, 1, 65_534, 65_535, 65_536, count - 1] {
                let e = count - 1 - i; // where entry i's matrices are
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
                case.check(&got[e * sc..e * sc + m * n]).unwrap_or_else(|mm| panic!("{} entry {i}: {mm:?}", device.spec()));
                assert_eq!(got[e * sc + m * n..(e + 1) * sc].iter().map(|v| v.to_bits()).collect::<Vec<_>>(), c[e * sc + m * n..(e + 1) * sc].iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            }
        }
    }
}

/// Every persistent config the tuner may pick on this GPU, pinned: entries cut in all three
/// dimensions of the macro tile (several tiles and K tiles per entry), every transpose pair,
/// beta 0 (NaN C) and not, alpha 0, k = 0, a shared A; and a batch with more work items than the
/// grid has blocks, so that each block streams several entries through its pipeline. The
/// pointer-array form is checked on each family's first config (the forms share the body).
#[test]
fn persistent_configs_match_reference() {
    for device in test_gpus() {
        let arch = device.properties().arch;
        let mut ran = 0;
        for family in [GemmFamily::S, GemmFamily::D, GemmFamily::H, GemmFamily::Hss, GemmFamily::Bss, GemmFamily::Hhs, GemmFamily::Bbs] {
            let configs: Vec<GemmConfig> = GemmConfig::candidates(family, &arch).into_iter().filter(|c| c.persistent).collect();
            for (index, cfg) in configs.iter().enumerate() {
                let mut h = Handle::on(&device).unwrap();
                h.set_gemm_config(Some(*cfg));
                let [mm, nn, kk] = cfg.mt.map(|d| d as usize);
                let mut shapes = Vec::new();
                for (i, (ta, tb)) in [(0, 1), (1, 0), (0, 0), (1, 1)].into_iter().enumerate() {
                    let (alpha_kind, beta_kind) = [(2, 0), (2, 2), (0, 2), (1, 1)][i];
                    let base = Shape { ta: OPS[ta], tb: OPS[tb], m: mm + 8, n: nn + 16, k: 2 * kk + 8, pad: [1, 0, [0, 2][i % 2]], count: 5, share_a: i == 3, alpha_kind, beta_kind, seed: 500 + i as u64 };
                    shapes.push((base, index == 0));
                }
                shapes.push((Shape { k: 0, count: 3, ..shapes[0].0 }, false));
                // 4000 entries of one or two tiles: more items than any grid of resident blocks.
                shapes.push((Shape { m: mm - 3, n: 5, k: kk + 1, count: 4000, pad: [0, 0, 0], share_a: false, alpha_kind: 2, beta_kind: 2, ..shapes[0].0 }, false));
                for (s, pointers) in shapes {
                    family_forms(&h, family, &s, pointers).unwrap_or_else(|e| panic!("{} {}: {s:?}: {e}", family.tag(), cfg.tag()));
                }
                ran += 1;
            }
        }
        assert!(ran > 0, "{arch}: no persistent candidates");
        eprintln!("{arch}: {ran} persistent configs checked");
    }
}

/// Every blocked split-K candidate (s, d, and the s repacking twins: copies and workspace in one
/// scratch; c's warp-tiled FMA and z's complex DMMA tiles, whose slices sum complex; the 16-bit
/// mma.sync tiles in hss, bss and h) this GPU runs, pinned, strided batches:
/// entries cut mid-tile in m, n and k, every transpose pair, K tiles fewer than the config's
/// slices (the call then takes fewer, as it does where the workspace would be large: slice counts
/// other than the config's), an A shared by every entry, beta 0 over NaN C and random; host alpha 0 and
/// k = 0 (no workspace: the unsplit twin runs); the pointer-array form (the unsplit twin) on the
/// first config; and on the configs of 32 slices and more, more entries than one launch's grid z
/// holds.
#[test]
fn split_k_configs_match_reference() {
    for device in test_gpus() {
        let arch = device.properties().arch;
        let mut configs: Vec<(GemmFamily, GemmConfig)> = Vec::new();
        for family in [GemmFamily::S, GemmFamily::D, GemmFamily::C, GemmFamily::Z, GemmFamily::Hss, GemmFamily::Bss, GemmFamily::H] {
            configs.extend(GemmConfig::candidates(family, &arch).into_iter().filter(|c| c.split_k > 1 && !c.is_wgmma()).map(|c| (family, c)));
        }
        assert!(configs.iter().any(|(f, _)| *f == GemmFamily::S), "{arch}: no split-K candidates");
        configs.retain(|(_, c)| config_selected(&c.tag()));
        // (ROCMATH_TEST_SHARD=i/n: every n-th config from the i-th; the pointer-array form runs
        // in shard 0, with the first config.)
        let mut checked = 0;
        for (index, (family, cfg)) in configs.iter().enumerate() {
            if !in_test_shard(index) {
                continue;
            }
            checked += 1;
            let mut h = Handle::on(&device).unwrap();
            h.set_gemm_config(Some(*cfg));
            let [mm, nn, kk] = cfg.mt.map(|d| d as usize);
            let splits = cfg.split_k as usize;
            let mut shapes = Vec::new();
            for (i, (ta, tb)) in [(0, 1), (1, 0), (0, 0), (1, 1)].into_iter().enumerate() {
                let base = Shape { ta: OPS[ta], tb: OPS[tb], m: mm + 5, n: nn + 3, k: 2 * splits * kk + 3, pad: [1, 3, 3], count: 3, share_a: i == 3, alpha_kind: 2, beta_kind: [0, 2][i % 2], seed: 900 + i as u64 };
                shapes.push((base, index == 0 && i == 0));
                shapes.push((Shape { m: mm - 1, n: 2 * nn + 1, k: kk * (splits - 1) - 1, count: 2, ..base }, false));
            }
            shapes.push((Shape { alpha_kind: 0, ..shapes[0].0 }, false));
            shapes.push((Shape { k: 0, ..shapes[0].0 }, false));
            if splits >= 32 {
                shapes.push((Shape { m: 5, n: 7, k: 2 * splits * kk, count: 65535 / splits + 3, pad: [0, 0, 1], share_a: false, ..shapes[0].0 }, false));
            }
            for (s, pointers) in shapes {
                family_forms(&h, *family, &s, pointers).unwrap_or_else(|e| panic!("{} {}: {s:?}: {e}", family.tag(), cfg.tag()));
            }
        }
        eprintln!("{arch}: {checked} of {} split-K configs checked", configs.len());
    }
}

/// Split-K results must not depend on timing: the slices are added in slice order. The table's
/// split-K picks for s and d on sm_90 (and the first split candidate of s, d, c and z), pinned: the
/// same call twenty times into a NaN-poisoned C, every result bitwise equal to the first, the
/// first against the reference, and a call of another shape in between (which reuses the
/// workspace).
#[test]
fn split_k_results_repeat_bitwise() {
    for device in test_gpus() {
        let arch = device.properties().arch;
        let mut picked: Vec<(GemmFamily, GemmConfig)> = Vec::new();
        for family in [GemmFamily::S, GemmFamily::D, GemmFamily::C, GemmFamily::Z] {
            let mut candidates = GemmConfig::candidates(family, &arch).into_iter().filter(|c| c.split_k > 1 && !c.is_wgmma());
            picked.extend(candidates.next().map(|c| (family, c)));
            if arch == "sm_90" && matches!(family, GemmFamily::S | GemmFamily::D) {
                let tag = if family == GemmFamily::S { "mt128x128x16_w2x4_s3_p4x4_g8_o2_k4_fmaw32x16" } else { "mt128x64x16_w2x2_s3_p4x4_g8_o1_k16_mma16x8x16f64" };
                picked.push((family, GemmConfig::parse(tag).unwrap()));
            }
        }
        assert!(!picked.is_empty(), "{arch}: no split-K candidates");
        for (family, cfg) in picked {
            let mut h = Handle::on(&device).unwrap();
            h.set_gemm_config(Some(cfg));
            let (m, n, k) = (3 * cfg.mt[0] as usize + 7, 2 * cfg.mt[1] as usize + 1, 4 * cfg.split_k as usize * cfg.mt[2] as usize + 5);
            let r = match family {
                GemmFamily::S => repeat_case::<f32>(&h, (m, n, k), 20),
                GemmFamily::C => repeat_case::<Complex32>(&h, (m, n, k), 20),
                GemmFamily::Z => repeat_case::<Complex64>(&h, (m, n, k), 20),
                _ => repeat_case::<f64>(&h, (m, n, k), 20),
            };
            r.unwrap_or_else(|e| panic!("{} {}: {e}", family.tag(), cfg.tag()));
        }
    }
}

fn repeat_case<T: Element + Num>(h: &Handle, (m, n, k): (usize, usize, usize), repeats: usize) -> Result<(), String> {
    let q = h.queue();
    let mut rng = Rng::new(4242);
    let a: Vec<T> = rng.vec(m * k);
    let b: Vec<T> = rng.vec(n * k);
    let poison = vec![T::nan(); m * n];
    let (da, db) = (DeviceBuffer::from_slice(q, &a).unwrap(), DeviceBuffer::from_slice(q, &b).unwrap());
    let (alpha, beta) = (T::from_c64(Complex64::new(0.5, 0.0)), T::from_c64(Complex64::new(0.0, 0.0)));
    let batch = Batch { count: 1, stride_a: 0, stride_b: 0, stride_c: 0 };
    let mut first: Option<Vec<T>> = None;
    for r in 0..repeats {
        let mut c = DeviceBuffer::from_slice(q, &poison).unwrap();
        gemm_strided_batched(h, Operation::None, Operation::Transpose, m, n, k, alpha, &da, m, &db, n, beta, &mut c, m, batch).map_err(|e| e.to_string())?;
        let got = c.to_vec(q).unwrap();
        match &first {
            None => {
                let case = GemmCase { trans_a: Operation::None, trans_b: Operation::Transpose, m, n, k, alpha: alpha.to_c64(), beta: beta.to_c64(), a: &a, lda: m, b: &b, ldb: n, c: &poison, ldc: m, compute_roundoff: T::UNIT_ROUNDOFF };
                case.check(&got).map_err(|x| format!("{m}x{n}x{k}: {x:?}"))?;
                first = Some(got);
            }
            Some(f) if bytemuck::cast_slice::<T, u8>(f) != bytemuck::cast_slice::<T, u8>(&got) => return Err(format!("{m}x{n}x{k}: repeat {r} differs from the first result")),
            Some(_) => {}
        }
        if r == repeats / 2 {
            // Another shape between repeats, in the same workspace.
            let (m2, n2) = (m / 2 + 1, n / 2 + 1);
            let poison2 = vec![T::nan(); m2 * n2];
            let mut c2 = DeviceBuffer::from_slice(q, &poison2).unwrap();
            gemm_strided_batched(h, Operation::None, Operation::Transpose, m2, n2, k, alpha, &da, m, &db, n, beta, &mut c2, m2, batch).map_err(|e| e.to_string())?;
            let case = GemmCase { trans_a: Operation::None, trans_b: Operation::Transpose, m: m2, n: n2, k, alpha: alpha.to_c64(), beta: beta.to_c64(), a: &a, lda: m, b: &b, ldb: n, c: &poison2, ldc: m2, compute_roundoff: T::UNIT_ROUNDOFF };
            case.check(&c2.to_vec(q).unwrap()).map_err(|x| format!("{m2}x{n2}x{k}: {x:?}"))?;
        }
    }
    Ok(())
}

/// Every repacking candidate (s; `r`: NN, TN and TT run as NT on transposed copies in the
/// handle's scratch) this GPU runs, pinned, strided batches: entries cut mid-tile in m, n and k
/// with odd leading dimensions (the copies' padded rows), every transpose pair, an A shared by
/// every entry (stride 0: copied once), beta 0 over NaN C and random, alpha 0 and k = 0 (nothing
/// copied); the pointer-array form (no copies, the stored layout) on the first config.
#[test]
fn repacking_configs_match_reference() {
    for device in test_gpus() {
        let arch = device.properties().arch;
        let configs: Vec<GemmConfig> = GemmConfig::candidates(GemmFamily::S, &arch).into_iter().filter(|c| c.repack).collect();
        assert!(!configs.is_empty(), "{arch}: no repacking candidates");
        for (index, cfg) in configs.iter().enumerate() {
            let mut h = Handle::on(&device).unwrap();
            h.set_gemm_config(Some(*cfg));
            let [mm, nn, kk] = cfg.mt.map(|d| d as usize);
            for (i, (ta, tb)) in [(0, 1), (1, 0), (0, 0), (1, 1)].into_iter().enumerate() {
                let base = Shape { ta: OPS[ta], tb: OPS[tb], m: mm + 5, n: nn + 3, k: 2 * kk + 3, pad: [1, 3, 3], count: 3, share_a: i == 3, alpha_kind: 2, beta_kind: [0, 2][i % 2], seed: 700 + i as u64 };
                for s in [base, Shape { alpha_kind: 0, beta_kind: 2, ..base }, Shape { k: 0, ..base }] {
                    typed_forms::<f32>(&h, &s, index == 0 && s.k > 0 && s.alpha_kind == 2).unwrap_or_else(|e| panic!("{}: {s:?}: {e}", cfg.tag()));
                }
            }
        }
        eprintln!("{arch}: {} repacking configs checked", configs.len());
    }
}

#[test]
fn safe_batched_api_names_the_argument() {
    for device in test_devices() {
        let h = Handle::on(&device).unwrap();
        let q = h.queue().clone();
        let a = DeviceBuffer::from_slice(&q, &[1f32; 6]).unwrap();
        let small = DeviceBuffer::from_slice(&q, &[1f32; 5]).unwrap();
        let mut c0 = DeviceBuffer::from_slice(&q, &[0f32; 9]).unwrap();
        let mut c1 = DeviceBuffer::from_slice(&q, &[0f32; 9]).unwrap();
        let (nn, t) = (Operation::None, Operation::Transpose);
        let mut cs = [&mut c0, &mut c1];
        let e = gemm_batched(&h, nn, nn, 3, 3, 2, 1.0, &[&a], 3, &[&a, &a], 2, 0.0, &mut cs, 3).unwrap_err();
        assert_eq!((e.status, e.argument), (Status::InvalidSize, "a"), "{e}");
        let e = gemm_batched(&h, nn, nn, 3, 3, 2, 1.0, &[&a, &a], 3, &[&a], 2, 0.0, &mut cs, 3).unwrap_err();
        assert_eq!((e.status, e.argument), (Status::InvalidSize, "b"), "{e}");
        let e = gemm_batched(&h, nn, nn, 3, 3, 2, 1.0, &[&a, &small], 3, &[&a, &a], 2, 0.0, &mut cs, 3).unwrap_err();
        assert_eq!((e.status, e.argument), (Status::InvalidSize, "a"), "{e}");
        let e = gemm_batched(&h, t, nn, 3, 3, 2, 1.0, &[&a, &a], 1, &[&a, &a], 2, 0.0, &mut cs, 3).unwrap_err();
        assert_eq!((e.status, e.argument), (Status::InvalidSize, "lda"), "{e}");
        let e = gemm_batched(&h, nn, nn, 3, 3, 2, 1.0, &[&a, &a], 3, &[&a, &a], 2, 0.0, &mut cs, 4).unwrap_err();
        assert_eq!((e.status, e.argument), (Status::InvalidSize, "c"), "{e}");
        let e = gemm_batched_ex::<i8, f32>(&h, nn, nn, 1, 1, 1, 1, &[], 1, &[], 1, 0, &mut [], 1).unwrap_err();
        assert_eq!((e.status, e.argument), (Status::NotImplemented, "c"), "{e}");
        assert_eq!(c0.to_vec(&q).unwrap(), vec![0f32; 9]);
        // An empty batch is a quick return.
        gemm_batched::<f32>(&h, nn, nn, 3, 3, 2, 1.0, &[], 3, &[], 2, 0.0, &mut [], 3).unwrap();
        let mut cs = [&mut c0, &mut c1];
        gemm_batched(&h, nn, nn, 3, 3, 2, 2.0, &[&a, &a], 3, &[&a, &a], 2, 0.0, &mut cs, 3).unwrap();
        assert_eq!(c1.to_vec(&q).unwrap(), vec![4f32; 9]);
    }
}
