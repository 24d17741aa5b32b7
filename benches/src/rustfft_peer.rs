//! RustFFT as a CPU peer (and the f64 reference's fallback): batched 1D, 2D and 3D c2c, r2c
//! and c2r over scalar buffers in rocFFT's default layouts (packed; an in-place real array's
//! rows padded to 2 (l0 / 2 + 1) scalars), unnormalised like rocFFT, on a given number of
//! threads. Multi-dimensional transforms run one dimension at a time: rows along the fastest
//! dimension, then blocks of columns gathered, transformed and scattered back along the others.
//! Real rows of even length use the half-length complex FFT with the usual split; odd ones a
//! full-length complex FFT.
use crate::fft::{FftArgs, ScalarFft};
use num_complex::Complex;
use rocmath_fft::TransformType;
use rustfft::{Fft, FftDirection, FftNum, FftPlanner};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Columns gathered per task on the slower dimensions.
const COLUMN_BLOCK: usize = 16;

/// The fastest dimension's transform.
enum Rows<T: FftNum> {
    Complex(Arc<dyn Fft<T>>),
    /// Even real length: the half-length complex FFT and the split twiddles w^k = e^{-2 pi i k / l0}.
    RealEven { half: Arc<dyn Fft<T>>, twiddles: Vec<Complex<T>> },
    /// Odd real length: a full-length complex FFT.
    RealOdd(Arc<dyn Fft<T>>),
}

pub struct RustFft<T: FftNum> {
    transform: TransformType,
    lengths: Vec<usize>,
    batch: usize,
    inplace: bool,
    threads: usize,
    rows: Rows<T>,
    /// The complex transforms of dimensions 1.. (None for dimension 0).
    slower: Vec<Arc<dyn Fft<T>>>,
}

/// Work on a group of rows: the input's rows, and the output's (None in place).
type RowWork<'a, T> = dyn Fn(&mut [T], Option<&mut [T]>) + Sync + 'a;

/// A pointer shared by the workers of one dimension; each task touches its own elements.
#[derive(Clone, Copy)]
struct Shared<T>(*mut Complex<T>);
unsafe impl<T> Send for Shared<T> {}
unsafe impl<T> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// The pointer (a method, so that closures capture the `Send` wrapper, not its field).
    fn ptr(self) -> *mut Complex<T> {
        self.0
    }
}

fn cast<T: FftNum>(v: f64) -> T {
    T::from_f64(v).expect("f64 converts to the FFT type")
}

impl<T: FftNum + bytemuck::Pod> RustFft<T> {
    pub fn new(case: &FftArgs, threads: usize) -> RustFft<T> {
        let mut planner = FftPlanner::<T>::new();
        let dir = if case.transform.sign() < 0 { FftDirection::Forward } else { FftDirection::Inverse };
        let l0 = case.lengths[0];
        let rows = if !case.transform.is_real() {
            Rows::Complex(planner.plan_fft(l0, dir))
        } else if l0.is_multiple_of(2) {
            let sign = if dir == FftDirection::Forward { -1.0 } else { 1.0 };
            let twiddles = (0..=l0 / 2)
                .map(|k| {
                    let a = sign * 2.0 * std::f64::consts::PI * k as f64 / l0 as f64;
                    Complex::new(cast(a.cos()), cast(a.sin()))
                })
                .collect();
            Rows::RealEven { half: planner.plan_fft(l0 / 2, dir), twiddles }
        } else {
            Rows::RealOdd(planner.plan_fft(l0, dir))
        };
        let slower = case.lengths[1..].iter().map(|&l| planner.plan_fft(l, dir)).collect();
        RustFft { transform: case.transform, lengths: case.lengths.clone(), batch: case.batch, inplace: case.inplace, threads: threads.max(1), rows, slower }
    }

    /// Rows (fastest-dimension lines) in the whole batch.
    fn row_count(&self) -> usize {
        self.lengths[1..].iter().product::<usize>() * self.batch
    }

    /// Complex elements per dimension of the complex/Hermitian side.
    fn complex_lengths(&self) -> Vec<usize> {
        let mut l = self.lengths.clone();
        if self.transform.is_real() {
            l[0] = l[0] / 2 + 1;
        }
        l
    }

    /// Runs `work(rows of in, rows of out)` on up to `threads` threads over contiguous groups
    /// of rows; `in_row`/`out_row` are the row strides in scalars.
    fn row_groups(&self, input: &mut [T], in_row: usize, output: Option<(&mut [T], usize)>, work: &RowWork<T>) {
        let rows = self.row_count();
        let per = rows.div_ceil(self.threads).max(1);
        std::thread::scope(|s| match output {
            None => {
                for chunk in input[..rows * in_row].chunks_mut(per * in_row) {
                    s.spawn(move || work(chunk, None));
                }
            }
            Some((out, out_row)) => {
                for (i, o) in input[..rows * in_row].chunks_mut(per * in_row).zip(out[..rows * out_row].chunks_mut(per * out_row)) {
                    s.spawn(move || work(i, Some(o)));
                }
            }
        });
    }

    /// One real row (`x`, l0 scalars) to its Hermitian half (`y`, l0 / 2 + 1 elements).
    fn r2c_row(&self, x: &[T], y: &mut [Complex<T>], buf: &mut [Complex<T>], scratch: &mut [Complex<T>]) {
        let l0 = self.lengths[0];
        match &self.rows {
            Rows::RealEven { half, twiddles } => {
                let m = l0 / 2;
                for (n, z) in buf[..m].iter_mut().enumerate() {
                    *z = Complex::new(x[2 * n], x[2 * n + 1]);
                }
                half.process_with_scratch(&mut buf[..m], scratch);
                let h: T = cast(0.5);
                for k in 0..=m {
                    let a = buf[k % m];
                    let b = buf[(m - k) % m].conj();
                    let even = (a + b) * h;
                    // (a - b) / (2i) = -i (a - b) / 2
                    let d = (a - b) * h;
                    let odd = Complex::new(d.im, -d.re);
                    y[k] = even + twiddles[k] * odd;
                }
            }
            Rows::RealOdd(full) => {
                for (z, &v) in buf[..l0].iter_mut().zip(x) {
                    *z = Complex::new(v, T::zero());
                }
                full.process_with_scratch(&mut buf[..l0], scratch);
                y.copy_from_slice(&buf[..l0 / 2 + 1]);
            }
            Rows::Complex(_) => unreachable!("r2c rows on a complex plan"),
        }
    }

    /// One Hermitian half (`y`) to its real row (`x`, l0 scalars).
    fn c2r_row(&self, y: &[Complex<T>], x: &mut [T], buf: &mut [Complex<T>], scratch: &mut [Complex<T>]) {
        let l0 = self.lengths[0];
        match &self.rows {
            Rows::RealEven { half, twiddles } => {
                let m = l0 / 2;
                for k in 0..m {
                    let a = y[k];
                    let b = y[m - k].conj();
                    let even = a + b;
                    let odd = (a - b) * twiddles[k];
                    // even + i odd
                    buf[k] = Complex::new(even.re - odd.im, even.im + odd.re);
                }
                half.process_with_scratch(&mut buf[..m], scratch);
                for (n, z) in buf[..m].iter().enumerate() {
                    x[2 * n] = z.re;
                    x[2 * n + 1] = z.im;
                }
            }
            Rows::RealOdd(full) => {
                for k in 0..l0 {
                    buf[k] = if k < l0 / 2 + 1 { y[k] } else { y[l0 - k].conj() };
                }
                full.process_with_scratch(&mut buf[..l0], scratch);
                for (v, z) in x.iter_mut().zip(&buf[..l0]) {
                    *v = z.re;
                }
            }
            Rows::Complex(_) => unreachable!("c2r rows on a complex plan"),
        }
    }

    fn row_buffers(&self) -> (Vec<Complex<T>>, Vec<Complex<T>>) {
        let z = Complex::new(T::zero(), T::zero());
        let (len, fft) = match &self.rows {
            Rows::Complex(f) | Rows::RealOdd(f) => (f.len(), f),
            Rows::RealEven { half, .. } => (half.len(), half),
        };
        (vec![z; len], vec![z; fft.get_inplace_scratch_len().max(fft.get_outofplace_scratch_len())])
    }

    /// The complex transform of dimension `d` >= 1, in place on `data` (complex elements of
    /// `lengths`, packed, `batch` entries).
    fn slower_dimension(&self, data: &mut [Complex<T>], lengths: &[usize], d: usize) {
        let fft = &self.slower[d - 1];
        let inner: usize = lengths[..d].iter().product();
        let len = lengths[d];
        let outer = lengths[d + 1..].iter().product::<usize>() * self.batch;
        let blocks = inner.div_ceil(COLUMN_BLOCK);
        let tasks = outer * blocks;
        let next = AtomicUsize::new(0);
        let base = Shared(data.as_mut_ptr());
        assert!(data.len() >= outer * len * inner);
        let next = &next;
        std::thread::scope(|s| {
            for _ in 0..self.threads.min(tasks) {
                s.spawn(move || {
                    let z = Complex::new(T::zero(), T::zero());
                    let mut buf = vec![z; COLUMN_BLOCK * len];
                    let mut scratch = vec![z; fft.get_inplace_scratch_len()];
                    loop {
                        let t = next.fetch_add(1, Ordering::Relaxed);
                        if t >= tasks {
                            break;
                        }
                        let (o, b) = (t / blocks, t % blocks);
                        let c0 = b * COLUMN_BLOCK;
                        let w = COLUMN_BLOCK.min(inner - c0);
                        let slab = o * len * inner + c0;
                        // SAFETY: task (o, b) alone touches columns c0..c0 + w of slab o, all
                        // inside `data` (asserted above); `data` is borrowed for the scope.
                        unsafe {
                            for j in 0..len {
                                let src = base.ptr().add(slab + j * inner);
                                for c in 0..w {
                                    buf[c * len + j] = *src.add(c);
                                }
                            }
                            fft.process_with_scratch(&mut buf[..w * len], &mut scratch);
                            for j in 0..len {
                                let dst = base.ptr().add(slab + j * inner);
                                for c in 0..w {
                                    *dst.add(c) = buf[c * len + j];
                                }
                            }
                        }
                    }
                });
            }
        });
    }

    fn slower_dimensions(&self, data: &mut [T], order: impl Iterator<Item = usize>) {
        let lengths = self.complex_lengths();
        let data: &mut [Complex<T>] = bytemuck::cast_slice_mut(data);
        for d in order {
            self.slower_dimension(data, &lengths, d);
        }
    }
}

impl<T: FftNum + bytemuck::Pod> ScalarFft<T> for RustFft<T> {
    fn run(&self, input: &mut [T], output: Option<&mut [T]>) {
        let l0 = self.lengths[0];
        let h0 = l0 / 2 + 1;
        let rank = self.lengths.len();
        let ip = self.inplace || output.is_none();
        match self.transform {
            TransformType::ComplexForward | TransformType::ComplexInverse => {
                let Rows::Complex(fft) = &self.rows else { unreachable!() };
                let z = Complex::new(T::zero(), T::zero());
                let scratch_len = fft.get_inplace_scratch_len().max(fft.get_outofplace_scratch_len());
                let work = |i: &mut [T], o: Option<&mut [T]>| {
                    let mut scratch = vec![z; scratch_len];
                    let i: &mut [Complex<T>] = bytemuck::cast_slice_mut(i);
                    match o {
                        None => fft.process_with_scratch(i, &mut scratch),
                        Some(o) => fft.process_outofplace_with_scratch(i, bytemuck::cast_slice_mut(o), &mut scratch),
                    }
                };
                if ip {
                    self.row_groups(input, 2 * l0, None, &work);
                    self.slower_dimensions(input, 1..rank);
                } else {
                    let out = output.expect("out of place");
                    self.row_groups(input, 2 * l0, Some((&mut *out, 2 * l0)), &work);
                    self.slower_dimensions(out, 1..rank);
                }
            }
            TransformType::RealForward => {
                let in_row = if ip { 2 * h0 } else { l0 };
                let work = |i: &mut [T], o: Option<&mut [T]>| {
                    let (mut buf, mut scratch) = self.row_buffers();
                    match o {
                        None => {
                            let mut row = vec![T::zero(); l0];
                            for r in i.chunks_mut(2 * h0) {
                                row.copy_from_slice(&r[..l0]);
                                self.r2c_row(&row, bytemuck::cast_slice_mut(r), &mut buf, &mut scratch);
                            }
                        }
                        Some(o) => {
                            for (x, y) in i.chunks(l0).zip(o.chunks_mut(2 * h0)) {
                                self.r2c_row(x, bytemuck::cast_slice_mut(y), &mut buf, &mut scratch);
                            }
                        }
                    }
                };
                if ip {
                    self.row_groups(input, in_row, None, &work);
                    self.slower_dimensions(input, 1..rank);
                } else {
                    let out = output.expect("out of place");
                    self.row_groups(input, in_row, Some((&mut *out, 2 * h0)), &work);
                    self.slower_dimensions(out, 1..rank);
                }
            }
            TransformType::RealInverse => {
                // The slower dimensions first, in place on the Hermitian input (which c2r may
                // overwrite, as in rocFFT and FFTW), then the rows.
                self.slower_dimensions(input, (1..rank).rev());
                let work = |i: &mut [T], o: Option<&mut [T]>| {
                    let (mut buf, mut scratch) = self.row_buffers();
                    match o {
                        None => {
                            let mut row = vec![Complex::new(T::zero(), T::zero()); h0];
                            for r in i.chunks_mut(2 * h0) {
                                row.copy_from_slice(bytemuck::cast_slice(r));
                                self.c2r_row(&row, &mut r[..l0], &mut buf, &mut scratch);
                            }
                        }
                        Some(o) => {
                            for (y, x) in i.chunks(2 * h0).zip(o.chunks_mut(l0)) {
                                self.c2r_row(bytemuck::cast_slice(y), x, &mut buf, &mut scratch);
                            }
                        }
                    }
                };
                if ip {
                    self.row_groups(input, 2 * h0, None, &work);
                } else {
                    let out = output.expect("out of place");
                    self.row_groups(input, 2 * h0, Some((out, l0)), &work);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fft::{compare, generate_input, verdict, View};
    use num_complex::Complex64;
    use rocmath_fft::{Placement, Plan, Precision};
    use rocmath_runtime::Device;

    /// The DFT by its definition, in f64: one entry, packed, complex in and out (full spectra).
    fn naive(x: &[Complex64], lengths: &[usize], sign: f64) -> Vec<Complex64> {
        let l = [lengths[0], *lengths.get(1).unwrap_or(&1), *lengths.get(2).unwrap_or(&1)];
        let mut out = vec![Complex64::new(0.0, 0.0); x.len()];
        for k2 in 0..l[2] {
            for k1 in 0..l[1] {
                for k0 in 0..l[0] {
                    let mut acc = Complex64::new(0.0, 0.0);
                    for n2 in 0..l[2] {
                        for n1 in 0..l[1] {
                            for n0 in 0..l[0] {
                                let ph = (k0 * n0) as f64 / l[0] as f64 + (k1 * n1) as f64 / l[1] as f64 + (k2 * n2) as f64 / l[2] as f64;
                                acc += x[n0 + l[0] * (n1 + l[1] * n2)] * Complex64::from_polar(1.0, sign * 2.0 * std::f64::consts::PI * ph);
                            }
                        }
                    }
                    out[k0 + l[0] * (k1 + l[1] * k2)] = acc;
                }
            }
        }
        out
    }

    /// Checks RustFft on `case` against the naive DFT, entry by entry, with rocFFT's criterion.
    fn check(case: &FftArgs, threads: usize) {
        let placement = if case.inplace { Placement::InPlace } else { Placement::NotInPlace };
        let plan = Plan::new(&Device::cpu(), placement, case.transform, Precision::Double, &case.lengths, case.batch, None).unwrap();
        let (il, ol) = (plan.input_layout().clone(), plan.output_layout().clone());
        let [ins, _] = plan.input_scalars();
        let [outs, _] = plan.output_scalars();
        let scalars = if case.inplace { ins.max(outs) } else { ins };
        let input: Vec<f64> = generate_input(case, &il, scalars);
        let mut a = input.clone();
        let mut b = vec![f64::NAN; outs];
        let peer = RustFft::<f64>::new(case, threads);
        if case.inplace {
            peer.run(&mut a, None);
        } else {
            peer.run(&mut a, Some(&mut b));
        }
        let got = if case.inplace { &a } else { &b };
        let (ilen, olen) = (case.input_lengths(), case.output_lengths());
        let in_view = View { data: &input, layout: &il, lengths: &ilen, complex: case.complex_input() };
        let sign = case.transform.sign() as f64;
        for e in 0..case.batch {
            // The full input spectrum/signal for the naive DFT.
            let x = in_view.entry(e);
            let full: Vec<Complex64> = if case.transform == TransformType::RealInverse {
                let (l0, h0) = (case.lengths[0], ilen[0]);
                let rest: usize = case.lengths[1..].iter().product();
                let l1 = *case.lengths.get(1).unwrap_or(&1);
                let l2 = *case.lengths.get(2).unwrap_or(&1);
                let mut f = vec![Complex64::new(0.0, 0.0); l0 * rest];
                for k2 in 0..l2 {
                    for k1 in 0..l1 {
                        for k0 in 0..l0 {
                            f[k0 + l0 * (k1 + l1 * k2)] = if k0 < h0 {
                                x[k0 + h0 * (k1 + l1 * k2)]
                            } else {
                                x[(l0 - k0) + h0 * ((l1 - k1) % l1 + l1 * ((l2 - k2) % l2))].conj()
                            };
                        }
                    }
                }
                f
            } else {
                x
            };
            let y = naive(&full, &case.lengths, sign);
            // The reference's logical output, as a packed one-entry view.
            let want: Vec<Complex64> = if case.transform == TransformType::RealForward {
                let (l0, h0) = (case.lengths[0], olen[0]);
                (0..olen.iter().product::<usize>()).map(|i| y[(i % h0) + l0 * (i / h0)]).collect()
            } else {
                y
            };
            let wf: Vec<f64> = want.iter().flat_map(|c| [c.re, c.im]).collect();
            let packed = rocmath_fft::Layout { array_type: rocmath_fft::ArrayType::ComplexInterleaved, offsets: [0, 0], strides: packed(&olen), distance: 0 };
            let want_view = View { data: &wf, layout: &packed, lengths: &olen, complex: true };
            let got_view = View { data: got, layout: &ol, lengths: &olen, complex: case.complex_output() };
            let n = compare(&got_view, &[e], &want_view, &[0]);
            // Single's criterion: a wrong algorithm is off by O(1), and the naive DFT carries its own
            // O(N eps) error.
            verdict(&n, Precision::Single, case.n()).unwrap_or_else(|m| panic!("{} entry {e}: {m}", case.label()));
            assert!(n.ref_linf > 0.0, "{}: the reference is not trivial", case.label());
        }
    }

    fn packed(l: &[usize]) -> Vec<usize> {
        let mut acc = 1;
        l.iter()
            .map(|&x| {
                let s = acc;
                acc *= x;
                s
            })
            .collect()
    }

    #[test]
    fn matches_the_dft_by_definition() {
        let t = [TransformType::ComplexForward, TransformType::ComplexInverse, TransformType::RealForward, TransformType::RealInverse];
        for transform in t {
            for lengths in [vec![1], vec![2], vec![16], vec![15], vec![17], vec![8, 3], vec![7, 4], vec![6, 5, 3], vec![5, 2, 4]] {
                for (batch, inplace, threads) in [(1, false, 1), (3, false, 3), (3, true, 2)] {
                    let case = FftArgs { transform, lengths: lengths.clone(), batch, inplace, ..FftArgs::default() };
                    check(&case, threads);
                }
            }
        }
    }

    #[test]
    fn large_column_blocks() {
        // More columns than a block and more tasks than threads on every slower dimension.
        check(&FftArgs { lengths: vec![40, 6, 3], batch: 2, ..FftArgs::default() }, 3);
        check(&FftArgs { transform: TransformType::RealForward, lengths: vec![36, 5, 2], batch: 1, inplace: true, ..FftArgs::default() }, 2);
        check(&FftArgs { transform: TransformType::RealInverse, lengths: vec![34, 3, 5], batch: 2, ..FftArgs::default() }, 4);
    }
}
