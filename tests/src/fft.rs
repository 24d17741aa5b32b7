//! FFT checking code: a naive O(N^2) DFT in f64 (multi-dimensional by applying it along each
//! axis), rocFFT's accuracy criteria, seeded random inputs (hermitian-symmetric ones for real
//! inverse transforms), and a case runner that lays a transform's data out in any plan layout,
//! poisons the output, runs it on a device and checks the result, the untouched guard bytes and
//! the input.
use crate::{Num, Rng};
use num_complex::{Complex, Complex64};
use rocmath_fft::{ArrayType, Data, FftReal, Layout, Placement, Plan, PlanDescription, Precision, TransformType};
use rocmath_runtime::{Device, DeviceBuffer, Queue};
use std::borrow::Cow;
use std::ffi::c_void;

/// rocFFT's test tolerances (`type_epsilon`).
pub const EPS_HALF: f64 = 9.77e-4;
pub const EPS_SINGLE: f64 = 3.75e-5;
pub const EPS_DOUBLE: f64 = 1e-15;

pub fn type_epsilon(precision: Precision) -> f64 {
    match precision {
        Precision::Half => EPS_HALF,
        Precision::Single => EPS_SINGLE,
        Precision::Double => EPS_DOUBLE,
    }
}

/// The ln N of the Linf bound, floored at 1. At N = 1 the transform is the identity (times the
/// scale) and ln N = 0 would demand bit-exact results; at N = 2, ln 2 = 0.69. What is left there
/// is the rounding of the result to the output type (at most half an ulp, u <= eps / 2 relative
/// for every type: eps is 2^-10 for half, ~600 ulps for single, ~9 ulps for double) plus one or
/// two roundings in the compute type (the sum, the scale multiply), all well under eps * ||x||,
/// so a floor of 1 admits exactly those and nothing larger.
pub fn linf_factor(n: usize) -> f64 {
    (n as f64).ln().max(1.0)
}

/// The sqrt(log2 N) of the relative L2 bound, floored at 1 for the same reason (log2 1 = 0).
pub fn l2_factor(n: usize) -> f64 {
    (n as f64).log2().max(1.0).sqrt()
}

/// How far a result is from the reference, against rocFFT's cutoffs.
#[derive(Clone, Debug)]
pub struct Accuracy {
    /// max |got - want|, and its cutoff eps * ||want||_inf * ln N.
    pub linf: f64,
    pub linf_cutoff: f64,
    /// ||got - want||_2 / ||want||_2, and its cutoff sqrt(log2 N) * eps.
    pub l2: f64,
    pub l2_cutoff: f64,
    /// The element with the largest error.
    pub worst: usize,
}

impl Accuracy {
    pub fn passes(&self) -> bool {
        self.linf <= self.linf_cutoff && (self.l2 < self.l2_cutoff || self.l2 == 0.0)
    }
}

/// rocFFT's criteria over all elements (every batch, like rocFFT's norms): Linf error <= eps *
/// ||want||_inf * ln N and relative L2 error < sqrt(log2 N) * eps, N the transform's element
/// count (the real length for real transforms). NaN anywhere fails.
pub fn accuracy(got: &[Complex64], want: &[Complex64], n: usize, eps: f64) -> Accuracy {
    assert_eq!(got.len(), want.len());
    accuracy_by(got.len(), n, eps, |i| (got[i], want[i]))
}

/// [`accuracy`] over `count` elements given as (got, want) by `pair`.
pub fn accuracy_by(count: usize, n: usize, eps: f64, mut pair: impl FnMut(usize) -> (Complex64, Complex64)) -> Accuracy {
    let mut acc = AccuracySum::default();
    for i in 0..count {
        let (g, w) = pair(i);
        acc.push(g, w);
    }
    acc.finish(n, eps)
}

/// The sums behind [`Accuracy`], fed one (got, want) pair at a time.
#[derive(Clone, Debug, Default)]
pub struct AccuracySum {
    count: usize,
    linf: f64,
    worst: usize,
    worst_pair: (Complex64, Complex64),
    want_inf: f64,
    err2: f64,
    want2: f64,
}

impl AccuracySum {
    pub fn push(&mut self, got: Complex64, want: Complex64) {
        let e = (got - want).norm();
        // A NaN is the worst error.
        if e.is_nan() || e > self.linf {
            self.linf = if e.is_nan() { f64::INFINITY } else { e };
            self.worst = self.count;
            self.worst_pair = (got, want);
        }
        self.want_inf = self.want_inf.max(want.norm());
        self.err2 += if e.is_nan() { f64::INFINITY } else { e * e };
        self.want2 += want.norm_sqr();
        self.count += 1;
    }
    /// The (got, want) pair with the largest error.
    pub fn worst_pair(&self) -> (Complex64, Complex64) {
        self.worst_pair
    }
    pub fn finish(&self, n: usize, eps: f64) -> Accuracy {
        let l2 = if self.want2 > 0.0 {
            (self.err2 / self.want2).sqrt()
        } else if self.err2 > 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
        Accuracy { linf: self.linf, linf_cutoff: eps * self.want_inf * linf_factor(n), l2, l2_cutoff: l2_factor(n) * eps, worst: self.worst }
    }
}

/// exp(sign * 2 pi i k / n), from the exact fraction k / n (k < n).
fn root(k: usize, n: usize, sign: f64) -> Complex64 {
    let (s, c) = (2.0 * std::f64::consts::PI * k as f64 / n as f64).sin_cos();
    Complex64::new(c, sign * s)
}

/// The naive DFT of every line along `axis` of packed arrays of `lengths` (fastest first, one
/// array after another): X[k] = sum_j x[j] exp(sign 2 pi i j k / n), unnormalised.
pub fn dft_axis(data: &mut [Complex64], lengths: &[usize], axis: usize, sign: i32) {
    let n = lengths[axis];
    let inner: usize = lengths[..axis].iter().product();
    let roots: Vec<Complex64> = (0..n).map(|k| root(k, n, sign as f64)).collect();
    let mut line = vec![Complex64::new(0.0, 0.0); n];
    for block in data.chunks_exact_mut(inner * n) {
        for i in 0..inner {
            for (j, v) in line.iter_mut().enumerate() {
                *v = block[i + j * inner];
            }
            for k in 0..n {
                let (mut sum, mut jk) = (Complex64::new(0.0, 0.0), 0);
                for x in &line {
                    sum += x * roots[jk];
                    jk += k;
                    if jk >= n {
                        jk -= n;
                    }
                }
                block[i + k * inner] = sum;
            }
        }
    }
}

/// The naive multi-dimensional DFT of `batch` packed arrays of `lengths`.
pub fn dft(data: &[Complex64], lengths: &[usize], sign: i32) -> Vec<Complex64> {
    let mut out = data.to_vec();
    for axis in 0..lengths.len() {
        dft_axis(&mut out, lengths, axis, sign);
    }
    out
}

/// Index of the element at `idx` (fastest first) in a packed array of `lengths`.
fn packed_index(idx: &[usize], lengths: &[usize]) -> usize {
    idx.iter().zip(lengths).rev().fold(0, |acc, (&i, &l)| acc * l + i)
}

/// Calls `f` with every multi-index of `lengths` (fastest first), in packed order.
fn for_each_index(lengths: &[usize], mut f: impl FnMut(&[usize])) {
    let mut idx = vec![0; lengths.len()];
    let total: usize = lengths.iter().product();
    for _ in 0..total {
        f(&idx);
        for (i, &l) in idx.iter_mut().zip(lengths) {
            *i += 1;
            if *i < l {
                break;
            }
            *i = 0;
        }
    }
}

/// The naive reference of a transform on logical, packed data (one transform after another):
/// complex in, complex out; real forward: the real parts in, the hermitian half out; real
/// inverse: the hermitian half in (extended by X[-k] = conj X[k]), the real parts out. Unscaled.
pub fn naive(transform: TransformType, lengths: &[usize], input: &[Complex64]) -> Vec<Complex64> {
    let total: usize = lengths.iter().product();
    let mut half_lengths = lengths.to_vec();
    half_lengths[0] = lengths[0] / 2 + 1;
    let half: usize = half_lengths.iter().product();
    match transform {
        TransformType::ComplexForward => dft(input, lengths, -1),
        TransformType::ComplexInverse => dft(input, lengths, 1),
        TransformType::RealForward => {
            let real: Vec<Complex64> = input.iter().map(|v| Complex64::new(v.re, 0.0)).collect();
            let full = dft(&real, lengths, -1);
            let mut out = Vec::with_capacity(half * input.len() / total);
            for t in full.chunks_exact(total) {
                for_each_index(&half_lengths, |idx| out.push(t[packed_index(idx, lengths)]));
            }
            out
        }
        TransformType::RealInverse => {
            let mut full = Vec::with_capacity(total * input.len() / half);
            for h in input.chunks_exact(half) {
                for_each_index(lengths, |idx| {
                    if idx[0] < half_lengths[0] {
                        full.push(h[packed_index(idx, &half_lengths)]);
                    } else {
                        let mirror: Vec<usize> = idx.iter().zip(lengths).map(|(&i, &l)| (l - i) % l).collect();
                        full.push(h[packed_index(&mirror, &half_lengths)].conj());
                    }
                });
            }
            dft(&full, lengths, 1).into_iter().map(|v| Complex64::new(v.re, 0.0)).collect()
        }
    }
}

/// Makes hermitian-half arrays (dim 0 holds n0/2 + 1 of the real length n0) exactly hermitian:
/// on the planes k0 = 0 and k0 = n0/2 (even n0), X[k0, k1, k2] = conj X[k0, -k1, -k2] (real
/// where the point is its own mirror). Any such array is the transform of a real array, so
/// every correct real inverse agrees on it.
pub fn make_hermitian(data: &mut [Complex64], lengths: &[usize]) {
    let mut half_lengths = lengths.to_vec();
    half_lengths[0] = lengths[0] / 2 + 1;
    let half: usize = half_lengths.iter().product();
    let planes: Vec<usize> = if lengths[0] & 1 == 0 { vec![0, lengths[0] / 2] } else { vec![0] };
    for t in data.chunks_exact_mut(half) {
        for_each_index(&half_lengths, |idx| {
            if !planes.contains(&idx[0]) {
                return;
            }
            let mut mirror: Vec<usize> = idx.iter().zip(lengths).map(|(&i, &l)| (l - i) % l).collect();
            mirror[0] = idx[0];
            let (p, q) = (packed_index(idx, &half_lengths), packed_index(&mirror, &half_lengths));
            if p < q {
                let a = (t[p] + t[q].conj()) * 0.5;
                t[p] = a;
                t[q] = a.conj();
            } else if p == q {
                t[p].im = 0.0;
            }
        });
    }
}

/// A random logical input for `batch` transforms: complex values in [-1, 1)^2, real values in
/// [-1, 1) (imaginary parts 0), or exactly hermitian half arrays.
pub fn random_input(rng: &mut Rng, transform: TransformType, lengths: &[usize], batch: usize) -> Vec<Complex64> {
    let mut elems: usize = lengths[1..].iter().product();
    elems *= if transform == TransformType::RealInverse { lengths[0] / 2 + 1 } else { lengths[0] };
    let complex = transform != TransformType::RealForward;
    let mut v: Vec<Complex64> =
        (0..elems * batch).map(|_| Complex64::new(rng.unit(), if complex { rng.unit() } else { 0.0 })).collect();
    if transform == TransformType::RealInverse {
        make_hermitian(&mut v, lengths);
    }
    v
}

/// The devices FFT tests run on: the CPU and every GPU present. Without a GPU the GPU cases are
/// skipped (said once on stderr); with `ROCMATH_REQUIRE_GPU=1` having none is a failure
/// (`test_devices`' rule).
pub fn fft_devices() -> Vec<Device> {
    let all = crate::test_devices();
    if !all.iter().any(Device::is_gpu) {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| eprintln!("no GPU present: FFT cases run on the CPU only (set ROCMATH_REQUIRE_GPU=1 to make this a failure)"));
    }
    all
}

/// A plan's data layout, as `PlanDescription::set_data_layout` takes it (empty strides and zero
/// distances are the defaults).
#[derive(Clone, Debug, Default)]
pub struct LayoutSpec {
    pub in_type: Option<ArrayType>,
    pub out_type: Option<ArrayType>,
    pub in_offsets: Vec<usize>,
    pub out_offsets: Vec<usize>,
    pub in_strides: Vec<usize>,
    pub in_distance: usize,
    pub out_strides: Vec<usize>,
    pub out_distance: usize,
}

/// One transform to check.
#[derive(Clone, Debug)]
pub struct Case {
    pub transform: TransformType,
    pub precision: Precision,
    pub placement: Placement,
    pub lengths: Vec<usize>,
    pub batch: usize,
    pub scale: f64,
    /// `None`: no data layout set.
    pub layout: Option<LayoutSpec>,
    pub seed: u64,
}

impl Case {
    pub fn new(transform: TransformType, precision: Precision, lengths: &[usize]) -> Case {
        Case { transform, precision, placement: Placement::NotInPlace, lengths: lengths.to_vec(), batch: 1, scale: 1.0, layout: None, seed: 1 }
    }
    pub fn batch(mut self, batch: usize) -> Case {
        self.batch = batch;
        self
    }
    pub fn in_place(mut self) -> Case {
        self.placement = Placement::InPlace;
        self
    }
    pub fn scale(mut self, scale: f64) -> Case {
        self.scale = scale;
        self
    }
    pub fn layout(mut self, layout: LayoutSpec) -> Case {
        self.layout = Some(layout);
        self
    }
    pub fn seed(mut self, seed: u64) -> Case {
        self.seed = seed;
        self
    }

    pub fn plan(&self, device: &Device) -> rocmath_fft::Result<Plan> {
        let mut desc = PlanDescription::new();
        desc.set_scale_factor(self.scale)?;
        if let Some(l) = &self.layout {
            desc.set_data_layout(
                l.in_type.unwrap_or(ArrayType::Unset),
                l.out_type.unwrap_or(ArrayType::Unset),
                &l.in_offsets,
                &l.out_offsets,
                &l.in_strides,
                l.in_distance,
                &l.out_strides,
                l.out_distance,
            )?;
        }
        Plan::new(device, self.placement, self.transform, self.precision, &self.lengths, self.batch, Some(&desc))
    }
}

/// How the expected result is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The naive DFT in f64.
    Naive,
    /// rocmath-fft's own CPU path in f64 (packed layouts), itself checked against `Naive`.
    CpuDouble,
    /// Naive where it is cheap (N * sum of lengths * batch <= 2^22), else `CpuDouble`.
    Auto,
}

/// Where one logical element lives: (buffer, scalar index) of its real part, and of its
/// imaginary part unless the array is real.
#[derive(Clone, Copy, Debug)]
struct Slot {
    re: (usize, usize),
    im: Option<(usize, usize)>,
}

/// Every element of `layout` for `batch` arrays of `lengths`, in logical packed order.
fn for_each_slot(layout: &Layout, lengths: &[usize], batch: usize, mut f: impl FnMut(usize, Slot)) {
    let len = |d: usize| lengths.get(d).copied().unwrap_or(1);
    let stride = |d: usize| layout.strides.get(d).copied().unwrap_or(0);
    let (interleaved, planar) = match layout.array_type {
        ArrayType::ComplexInterleaved | ArrayType::HermitianInterleaved => (true, false),
        ArrayType::ComplexPlanar | ArrayType::HermitianPlanar => (false, true),
        _ => (false, false),
    };
    let [o0, o1] = layout.offsets;
    let mut e = 0;
    for b in 0..batch {
        for i2 in 0..len(2) {
            for i1 in 0..len(1) {
                let base = b * layout.distance + i1 * stride(1) + i2 * stride(2);
                for i0 in 0..len(0) {
                    let off = base + i0 * stride(0);
                    let slot = if interleaved {
                        Slot { re: (0, 2 * (o0 + off)), im: Some((0, 2 * (o0 + off) + 1)) }
                    } else if planar {
                        Slot { re: (0, o0 + off), im: Some((1, o1 + off)) }
                    } else {
                        Slot { re: (0, o0 + off), im: None }
                    };
                    f(e, slot);
                    e += 1;
                }
            }
        }
    }
}

/// A side's buffers on a device.
enum Buffers<T: FftReal> {
    Interleaved(DeviceBuffer<Complex<T>>),
    Planar(DeviceBuffer<T>, DeviceBuffer<T>),
    Real(DeviceBuffer<T>),
}

impl<T: FftReal + Num> Buffers<T> {
    fn upload(queue: &Queue, kind: ArrayType, planes: &[Vec<T>]) -> Result<Buffers<T>, String> {
        let e = |e: rocmath_runtime::Error| e.to_string();
        Ok(match kind {
            ArrayType::ComplexInterleaved | ArrayType::HermitianInterleaved => {
                Buffers::Interleaved(DeviceBuffer::from_slice(queue, bytemuck::cast_slice(&planes[0])).map_err(e)?)
            }
            ArrayType::ComplexPlanar | ArrayType::HermitianPlanar => Buffers::Planar(
                DeviceBuffer::from_slice(queue, &planes[0]).map_err(e)?,
                DeviceBuffer::from_slice(queue, &planes[1]).map_err(e)?,
            ),
            _ => Buffers::Real(DeviceBuffer::from_slice(queue, &planes[0]).map_err(e)?),
        })
    }
    fn data(&mut self) -> Data<'_, T> {
        match self {
            Buffers::Interleaved(b) => Data::Interleaved(b),
            Buffers::Planar(re, im) => Data::Planar(re, im),
            Buffers::Real(b) => Data::Real(b),
        }
    }
    /// The buffers' scalars: borrowed on the CPU device, copied from a GPU.
    fn download(&self, queue: &Queue) -> Result<Vec<Cow<'_, [T]>>, String> {
        fn get<'a, E: bytemuck::Pod>(b: &'a DeviceBuffer<E>, queue: &Queue) -> Result<Cow<'a, [E]>, String> {
            match b.as_host_slice() {
                Some(s) => Ok(Cow::Borrowed(s)),
                None => b.to_vec(queue).map(Cow::Owned).map_err(|e| e.to_string()),
            }
        }
        Ok(match self {
            Buffers::Interleaved(b) => vec![match get(b, queue)? {
                Cow::Borrowed(s) => Cow::Borrowed(bytemuck::cast_slice(s)),
                Cow::Owned(v) => Cow::Owned(bytemuck::cast_slice(&v).to_vec()),
            }],
            Buffers::Planar(re, im) => vec![get(re, queue)?, get(im, queue)?],
            Buffers::Real(b) => vec![get(b, queue)?],
        })
    }
}

/// A value no transform writes by chance, in every buffer position outside the layouts.
fn guard<T: Num>() -> T {
    T::from_c64(Complex64::new(-3.25, 0.0))
}

fn same_bits<T: Num>(a: &T, b: &T) -> bool {
    bytemuck::bytes_of(a) == bytemuck::bytes_of(b)
}

/// What a checked run measured.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub accuracy: Accuracy,
    /// The reference output (scaled), for callers that check more.
    pub expected: Vec<Complex64>,
}

/// Runs `case` on `device` with random data and checks it: every output element within
/// rocFFT's bounds of the reference (outputs are poisoned with NaN first, so an unwritten one
/// fails), every buffer scalar outside the layouts (and, in place, outside input and output)
/// bit-for-bit untouched, and out of place the input unchanged (rocFFT lets only real inverse
/// transforms overwrite their input).
pub fn check_case(device: &Device, case: &Case, reference: Reference) -> Result<Outcome, String> {
    match case.precision {
        Precision::Single => check_typed::<f32>(device, case, reference),
        Precision::Double => check_typed::<f64>(device, case, reference),
        Precision::Half => check_typed::<half::f16>(device, case, reference),
    }
}

fn check_typed<T: FftReal + Num>(device: &Device, case: &Case, reference: Reference) -> Result<Outcome, String> {
    let why = |e: rocmath_fft::FftError| e.to_string();
    let queue = device.new_queue().map_err(|e| e.to_string())?;
    let plan = case.plan(device).map_err(why)?;
    let (in_layout, out_layout) = (plan.input_layout().clone(), plan.output_layout().clone());
    let (in_lengths, out_lengths) = (plan.input_lengths(), plan.output_lengths());
    let in_place = case.placement == Placement::InPlace;
    let (need_in, need_out) = (plan.input_scalars(), plan.output_scalars());

    // Logical input, rounded to T: what the transform sees.
    let mut rng = Rng::new(case.seed);
    let mut input = random_input(&mut rng, case.transform, &case.lengths, case.batch);
    // Buffers: a guarded tail of 4 scalars (2 interleaved elements) past what the layouts need.
    let size = |need: [usize; 2], plane: usize| need[plane] + 4;
    let in_planes = in_layout.array_type.buffer_count();
    let mut in_bufs: Vec<Vec<T>> = (0..in_planes)
        .map(|p| vec![guard::<T>(); if in_place { size(need_in, p).max(size(need_out, p)) } else { size(need_in, p) }])
        .collect();
    let mut out_bufs: Vec<Vec<T>> = if in_place {
        Vec::new()
    } else {
        (0..out_layout.array_type.buffer_count()).map(|p| vec![guard::<T>(); size(need_out, p)]).collect()
    };
    // Poison every output position with NaN, then write the input (in place it covers part).
    {
        let target = if in_place { &mut in_bufs } else { &mut out_bufs };
        for_each_slot(&out_layout, &out_lengths, case.batch, |_, s| {
            target[s.re.0][s.re.1] = T::nan();
            if let Some(im) = s.im {
                target[im.0][im.1] = T::nan();
            }
        });
    }
    for_each_slot(&in_layout, &in_lengths, case.batch, |e, s| {
        let v = input[e];
        match s.im {
            Some(im) => {
                // Round each part to T on its own (planar parts are separate scalars).
                let re = T::from_c64(Complex64::new(v.re, 0.0));
                let imv = T::from_c64(Complex64::new(v.im, 0.0));
                in_bufs[s.re.0][s.re.1] = re;
                in_bufs[im.0][im.1] = imv;
                input[e] = Complex64::new(re.to_c64().re, imv.to_c64().re);
            }
            None => {
                let re = T::from_c64(Complex64::new(v.re, 0.0));
                in_bufs[s.re.0][s.re.1] = re;
                input[e] = Complex64::new(re.to_c64().re, 0.0);
            }
        }
    });
    // Inputs whose layout maps two logical elements to one place keep the last one written.
    for_each_slot(&in_layout, &in_lengths, case.batch, |e, s| {
        let re = in_bufs[s.re.0][s.re.1].to_c64().re;
        let im = s.im.map_or(0.0, |im| in_bufs[im.0][im.1].to_c64().re);
        input[e] = Complex64::new(re, im);
    });

    let mut in_dev = Buffers::upload(&queue, in_layout.array_type, &in_bufs)?;
    let mut out_dev = if in_place { None } else { Some(Buffers::upload(&queue, out_layout.array_type, &out_bufs)?) };
    plan.execute::<T>(&queue, in_dev.data(), out_dev.as_mut().map(|b| b.data())).map_err(why)?;
    let in_after = in_dev.download(&queue)?;
    let out_after = match &out_dev {
        Some(b) => b.download(&queue)?,
        None => in_after.clone(),
    };

    // Which scalars the layouts cover; everything else must be as it was.
    let mut covered: Vec<Vec<bool>> = out_after.iter().map(|b| vec![false; b.len()]).collect();
    let mut cover = |_, s: Slot| {
        covered[s.re.0][s.re.1] = true;
        if let Some(im) = s.im {
            covered[im.0][im.1] = true;
        }
    };
    for_each_slot(&out_layout, &out_lengths, case.batch, &mut cover);
    if in_place {
        for_each_slot(&in_layout, &in_lengths, case.batch, &mut cover);
    }
    let before = if in_place { &in_bufs } else { &out_bufs };
    for (p, (after, before)) in out_after.iter().zip(before).enumerate() {
        if let Some(i) = (0..after.len()).find(|&i| !covered[p][i] && !same_bits(&after[i], &before[i])) {
            return Err(format!("buffer {p} scalar {i} outside the layout was written: {:?} (was {:?})", after[i], before[i]));
        }
    }
    drop(covered);
    if !in_place && case.transform != TransformType::RealInverse {
        for (p, (after, before)) in in_after.iter().zip(&in_bufs).enumerate() {
            if let Some(i) = (0..after.len()).find(|&i| !same_bits(&after[i], &before[i])) {
                return Err(format!("input buffer {p} scalar {i} changed out of place: {:?} (was {:?})", after[i], before[i]));
            }
        }
    }

    let mut expected = expected_output(case, &input, reference)?;
    drop(input);
    if case.scale != 1.0 {
        for v in &mut expected {
            *v *= case.scale;
        }
    }
    let mut sum = AccuracySum::default();
    for_each_slot(&out_layout, &out_lengths, case.batch, |e, s| {
        let re = out_after[s.re.0][s.re.1].to_c64().re;
        let got = Complex64::new(re, s.im.map_or(0.0, |im| out_after[im.0][im.1].to_c64().re));
        sum.push(got, expected[e]);
    });
    let n: usize = case.lengths.iter().product();
    let accuracy = sum.finish(n, type_epsilon(case.precision));
    if !accuracy.passes() {
        let (got, want) = sum.worst_pair();
        return Err(format!("{accuracy:?}: element {} got {got} want {want}", accuracy.worst));
    }
    Ok(Outcome { accuracy, expected })
}

/// The expected (unscaled) logical output for `input`.
pub fn expected_output(case: &Case, input: &[Complex64], reference: Reference) -> Result<Vec<Complex64>, String> {
    let n: usize = case.lengths.iter().product();
    let cost = n.saturating_mul(case.lengths.iter().sum::<usize>()).saturating_mul(case.batch);
    let naive_ok = match reference {
        Reference::Naive => true,
        Reference::CpuDouble => false,
        Reference::Auto => cost <= 1 << 22,
    };
    if naive_ok {
        return Ok(naive(case.transform, &case.lengths, input));
    }
    cpu_double(case.transform, &case.lengths, case.batch, input)
}

/// rocmath-fft's CPU path in f64 on packed data, out of place, unscaled. (It runs on these
/// host vectors through the raw interface: the CPU device's pointers are host pointers, and
/// its out-of-place path only reads the input.)
pub fn cpu_double(transform: TransformType, lengths: &[usize], batch: usize, input: &[Complex64]) -> Result<Vec<Complex64>, String> {
    let why = |e: rocmath_fft::FftError| e.to_string();
    let device = Device::cpu();
    let queue = device.new_queue().map_err(|e| e.to_string())?;
    let plan = Plan::new(&device, Placement::NotInPlace, transform, Precision::Double, lengths, batch, None).map_err(why)?;
    let in_len = plan.input_lengths().iter().product::<usize>() * batch;
    let out_len = plan.output_lengths().iter().product::<usize>() * batch;
    if input.len() != in_len {
        return Err(format!("{} input elements for {in_len}", input.len()));
    }
    // SAFETY (each call): host vectors of the plan's packed sizes, used by nothing else.
    match transform {
        TransformType::RealForward => {
            let real: Vec<f64> = input.iter().map(|v| v.re).collect();
            let mut out = vec![Complex64::new(0.0, 0.0); out_len];
            unsafe { plan.execute_raw(&queue, &[real.as_ptr() as *mut c_void], &[out.as_mut_ptr() as *mut c_void], None) }.map_err(why)?;
            Ok(out)
        }
        TransformType::RealInverse => {
            let mut out = vec![0.0f64; out_len];
            unsafe { plan.execute_raw(&queue, &[input.as_ptr() as *mut c_void], &[out.as_mut_ptr() as *mut c_void], None) }.map_err(why)?;
            Ok(out.into_iter().map(|v| Complex64::new(v, 0.0)).collect())
        }
        _ => {
            let mut out = vec![Complex64::new(0.0, 0.0); out_len];
            unsafe { plan.execute_raw(&queue, &[input.as_ptr() as *mut c_void], &[out.as_mut_ptr() as *mut c_void], None) }.map_err(why)?;
            Ok(out)
        }
    }
}

/// Spot-checks a long 1D transform's result at a few bins by direct summation in f64 (O(N) per
/// bin, compensated so that the sum's own error stays near one rounding), for sizes the naive
/// DFT cannot do whole: returns the largest |got - want| over the bins, relative to the
/// largest |want|.
pub fn spot_check_bins(input: &[Complex64], output: &[Complex64], sign: i32, bins: &[usize]) -> f64 {
    let n = input.len();
    let (mut err, mut mag) = (0.0f64, 0.0f64);
    for &k in bins {
        // Kahan summation of each part.
        let (mut sum, mut comp) = (Complex64::new(0.0, 0.0), Complex64::new(0.0, 0.0));
        // Twiddles by recurrence, recomputed exactly every 16 steps (relative error <= ~16 u).
        let step = root(k % n, n, sign as f64);
        let mut w = Complex64::new(1.0, 0.0);
        let mut jk = 0usize;
        for (j, x) in input.iter().enumerate() {
            if j % 16 == 0 {
                w = root(jk, n, sign as f64);
            }
            let term = x * w - comp;
            let t = sum + term;
            comp = (t - sum) - term;
            sum = t;
            w *= step;
            jk = (jk + k) % n;
        }
        err = err.max((output[k] - sum).norm());
        mag = mag.max(sum.norm());
    }
    err / mag
}
