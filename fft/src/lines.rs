//! AVX-512 line kernels: single-precision complex FFTs of contiguous lines (a batched 1D c2c on
//! interleaved f32 data, dim 0 of a packed multi-dimensional one, the half-length transform of
//! an even real one), in place of RustFFT's AVX2 kernels where the CPU has AVX-512. They are a
//! [`rustfft::Fft`], so the CPU path's plan cache hands them out like RustFFT's own plans.
//!
//! A Stockham FFT on interleaved complex numbers, eight to a register (a `__m512`). A stage of
//! radix R runs butterflies j = 0 .. n/R: it reads x[j + r n/R] (r < R), multiplies by the
//! twiddles of k = j mod Ns (Ns: the product of the radices before it), takes the R-point DFT
//! and writes y[(j - k) R + k + r Ns]. Eight consecutive j are one vector: the reads are always
//! contiguous, and so are the writes once Ns is a multiple of 8. The first stage (Ns = 1) has
//! R = 8 or 16 and writes each lane's R outputs as one run, through 8 x 8 transposes of complex
//! numbers in registers. The butterflies are fully unrolled (the `dft!` macro, instantiated per
//! radix in each stage function, const generics), so the DFT's constants and its lanes stay in
//! registers; 64 and 128 run whole in registers. While a line runs, its blocks prefetch the next
//! line's input and output, spread out (a burst of prefetches at the start of a line was slower).
//!
//! Long lines (n = 16 n2 from [`FOUR_STEP_MIN`], n2 a length the above takes) run as a four-step
//! instead, so that every sub-FFT stays in L1: a 16-point step over the whole line with its
//! twiddles into 16 rows (padded apart), the rows on the Stockham kernels, a transpose out.
//!
//! Lengths: 8 x (a product of 2, 4, 5, 8, 16), from 64 to [`MAX_LEN`].
//! Why: RustFFT's AVX2 kernels (four complex numbers a register) and FFTW's (AVX2 in the
//! distributions' builds) were the CPU path's line kernels; the generic column passes
//! (`columns.rs`) could not beat them on whole lines (benches/results/2026-11-21-cpu-fft.md,
//! sixtieth session). Twice the width, unrolled butterflies and the prefetches do (sixty-first).
use num_complex::Complex;
use rustfft::{Direction, Fft, FftDirection, FftNum, Length};
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;
use std::sync::Arc;

/// The longest line the kernels take (a line and the four-step's scratch, 1 MiB, fit L2).
pub(crate) const MAX_LEN: usize = 1 << 16;

/// A plan for lines of one length and direction. `None` from [`LineFft::new`] where the CPU
/// lacks AVX-512 or the length does not factor as above.
pub(crate) struct LineFft {
    n: usize,
    inverse: bool,
    first: usize,
    stages: Vec<Stage>,
    /// Cache lines of the next line to prefetch per butterfly block ([`Prefetch`]).
    prefetch_per_block: usize,
    /// Long lines (n = 16 n2, n2 >= 512): a 16-point DIF step over the line, then 16 rows of n2
    /// on the Stockham kernels, then a transpose (`line` uses this instead of `stages`).
    four_step: Option<FourStep>,
}

struct FourStep {
    /// The rows' plan (n2 points, same direction).
    rows: Box<LineFft>,
    /// w^(j0 k1) for each block of eight j (j0 = 8 b) and k1 = 1 .. 16, w = exp(-+2 pi i / n):
    /// (re, im) pairs, 30 floats a block.
    block: Vec<f32>,
    /// w^(l k1) for the lanes l < 8 and k1 = 1 .. 16: the real parts twice each, then the
    /// imaginary parts, 32 floats a k1.
    lane: Vec<f32>,
}

struct Stage {
    radix: usize,
    /// The product of the radices before this stage (a multiple of 8).
    ns: usize,
    /// For each block of eight k (k = 0 .. ns) and each r = 1 .. R: w^(r k), w = exp(-+2 pi i /
    /// (ns R)), as two registers: the real parts twice each [re0 re0 re1 re1 ...], then the
    /// imaginary parts. 32 floats a (block, r).
    twiddles: Vec<f32>,
}

/// The radices for n, first stage first; `None` if n is not 8 (or 16) times a product of the
/// stage radices.
fn radices(n: usize) -> Option<Vec<usize>> {
    if !(64..=MAX_LEN).contains(&n) || !n.is_multiple_of(8) {
        return None;
    }
    if let Ok(spec) = std::env::var("ROCMATH_CPU_FFT_LINE_RADICES") {
        // For experiments: "16,16,4" (checked against n below).
        let r: Vec<usize> = spec.split(',').filter_map(|s| s.trim().parse().ok()).collect();
        if r.iter().product::<usize>() == n && matches!(r.first(), Some(8 | 16)) && r[1..].iter().all(|x| [2, 4, 5, 8, 16].contains(x)) {
            return Some(r);
        }
    }
    let mut rest = n;
    let mut fives = 0;
    while rest.is_multiple_of(5) {
        rest /= 5;
        fives += 1;
    }
    if !rest.is_power_of_two() || rest < 8 {
        return None;
    }
    // The power of two: 16 first (8 for 8 itself), then 16s, with the bits left over as one
    // 2, 4 or 8: an 8 right after the first stage, a 2 or 4 last (measured at 512 - 4096 on
    // an AVX-512 Xeon: 16 8 16 beat 16 16 8 at 2048, 16 16 2 beat 8 8 8 at 512).
    let bits = rest.trailing_zeros() as usize;
    // (64: 8 x 8, which runs in registers.)
    let mut out: Vec<usize> = vec![if bits >= 4 && bits != 6 { 16 } else { 8 }];
    let after = bits - out[0].trailing_zeros() as usize;
    let (sixteens, left) = (after / 4, after % 4);
    if left == 3 {
        out.push(8);
    }
    out.extend(std::iter::repeat_n(16, sixteens));
    if left == 1 || left == 2 {
        out.push(1 << left);
    }
    out.extend(std::iter::repeat_n(5, fives));
    (out.len() >= 2).then_some(out)
}

impl LineFft {
    pub(crate) fn new(n: usize, inverse: bool) -> Option<LineFft> {
        if !has_avx512() || n > MAX_LEN {
            return None;
        }
        if n >= FOUR_STEP_MIN && n.is_multiple_of(16) {
            if let Some(fs) = FourStep::new(n, inverse) {
                return Some(LineFft { n, inverse, first: 16, stages: Vec::new(), prefetch_per_block: 0, four_step: Some(fs) });
            }
        }
        let radices = radices(n)?;
        let mut stages = Vec::new();
        let mut ns = radices[0];
        for &radix in &radices[1..] {
            let mut twiddles = Vec::with_capacity(ns / 8 * (radix - 1) * 32);
            for kb in 0..ns / 8 {
                for r in 1..radix {
                    push_doubled(&mut twiddles, |l| root(r * (kb * 8 + l), ns * radix, inverse));
                }
            }
            stages.push(Stage { radix, ns, twiddles });
            ns *= radix;
        }
        debug_assert_eq!(ns, n);
        // Blocks of eight butterflies a line: n / (8 R) a stage.
        let blocks: usize = radices.iter().map(|r| (n / r).div_ceil(8)).sum();
        let prefetch_per_block = (n / 8).div_ceil(blocks);
        Some(LineFft { n, inverse, first: radices[0], stages, prefetch_per_block, four_step: None })
    }

    /// Scratch a call needs, in complex numbers: two lines, or for the four-step a line and a
    /// row's scratch.
    fn scratch_len(&self) -> usize {
        match &self.four_step {
            Some(fs) => 16 * FourStep::row_stride(self.n) + fs.rows.scratch_len(),
            None => 2 * self.n,
        }
    }

    /// Lines in a buffer of `len` complex numbers.
    fn lines(&self, len: usize) -> usize {
        assert!(len.is_multiple_of(self.n), "FFT buffer of {len} is not whole lines of {}", self.n);
        len / self.n
    }

    /// Transforms `count` lines of `n` complex numbers: line l reads `input[2 n l ..]` and writes
    /// `output[2 n l ..]` (interleaved re, im). In place when the two are the same.
    ///
    /// # Safety
    /// Both cover `2 n count` floats; they are the same or do not overlap.
    unsafe fn process(&self, input: *const f32, output: *mut f32, count: usize, scratch: &mut [Complex<f32>]) {
        assert!(scratch.len() >= self.scratch_len(), "FFT scratch too small");
        #[cfg(target_arch = "x86_64")]
        if let Some(fs) = &self.four_step {
            let (z, rest) = scratch.split_at_mut(16 * FourStep::row_stride(self.n));
            for l in 0..count {
                // SAFETY: as below; z holds the 16 padded rows, rest the rows' scratch.
                unsafe { fs.line(self.n, self.inverse, input.add(2 * self.n * l), output.add(2 * self.n * l), z.as_mut_ptr() as *mut f32, rest) };
            }
            return;
        }
        // SAFETY: Complex<f32> is two f32s (repr(C)).
        let scratch = unsafe { std::slice::from_raw_parts_mut(scratch.as_mut_ptr() as *mut f32, 2 * scratch.len()) };
        #[cfg(target_arch = "x86_64")]
        for l in 0..count {
            let (x, y) = (input.wrapping_add(2 * self.n * l), output.wrapping_add(2 * self.n * l));
            let lines_left = if l + 1 < count { self.n / 8 } else { 0 };
            let pf = Prefetch { next_in: x.wrapping_add(2 * self.n) as *const i8, next_out: y.wrapping_add(2 * self.n) as *const i8, left: lines_left, per_block: self.prefetch_per_block };
            // SAFETY: AVX-512 was checked in `new`; the caller's contract covers the pointers.
            unsafe { self.line(x, y, scratch, pf) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (input, output, count, scratch);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn line(&self, x: *const f32, y: *mut f32, scratch: &mut [f32], mut pf: Prefetch) {
        let n = self.n;
        if n == 8 * self.first {
            // 64 and 128: both stages in registers.
            let tw = self.stages[0].twiddles.as_ptr();
            // SAFETY: n complex numbers each side; the table is stage 2's (ns = first, R = 8).
            unsafe {
                match (self.first, self.inverse) {
                    (8, false) => in_registers::<8, false>(x, y, tw),
                    (8, true) => in_registers::<8, true>(x, y, tw),
                    (16, false) => in_registers::<16, false>(x, y, tw),
                    (16, true) => in_registers::<16, true>(x, y, tw),
                    _ => unreachable!("first radix is 8 or 16"),
                }
            }
            while pf.left > 0 {
                pf.step();
            }
            return;
        }
        let (s1, s2) = scratch.split_at_mut(2 * n);
        let (s1, s2) = (s1.as_mut_ptr(), s2.as_mut_ptr());
        let in_place = std::ptr::eq(x, y);
        // Destinations, last first: the output, then the scratch lines in turn (or the output
        // out of place), so that no stage reads what it writes and the input is read only by
        // the first stage.
        let count = self.stages.len() + 1;
        // (At most 17 stages: n <= 2^16, with fives fewer.)
        let mut dst = [std::ptr::null_mut::<f32>(); 24];
        dst[count - 1] = y;
        for i in (0..count - 1).rev() {
            let after = dst[i + 1];
            dst[i] = if after == s1 {
                if in_place { s2 } else { y }
            } else {
                s1
            };
        }
        // SAFETY (all stages): every buffer holds 2 n floats; the stages' index arithmetic keeps
        // within n complex numbers (see the functions).
        unsafe {
            match (self.first, self.inverse) {
                (8, false) => first_stage::<8, false>(x, dst[0], n, &mut pf),
                (8, true) => first_stage::<8, true>(x, dst[0], n, &mut pf),
                (16, false) => first_stage::<16, false>(x, dst[0], n, &mut pf),
                (16, true) => first_stage::<16, true>(x, dst[0], n, &mut pf),
                _ => unreachable!("first radix is 8 or 16"),
            }
            for (i, st) in self.stages.iter().enumerate() {
                let (src, d) = (dst[i] as *const f32, dst[i + 1]);
                let tw = st.twiddles.as_ptr();
                match (st.radix, self.inverse) {
                    (2, false) => stage::<2, false>(src, d, n, st.ns, tw, &mut pf),
                    (2, true) => stage::<2, true>(src, d, n, st.ns, tw, &mut pf),
                    (4, false) => stage::<4, false>(src, d, n, st.ns, tw, &mut pf),
                    (4, true) => stage::<4, true>(src, d, n, st.ns, tw, &mut pf),
                    (5, false) => stage::<5, false>(src, d, n, st.ns, tw, &mut pf),
                    (5, true) => stage::<5, true>(src, d, n, st.ns, tw, &mut pf),
                    (8, false) => stage::<8, false>(src, d, n, st.ns, tw, &mut pf),
                    (8, true) => stage::<8, true>(src, d, n, st.ns, tw, &mut pf),
                    (16, false) => stage::<16, false>(src, d, n, st.ns, tw, &mut pf),
                    (16, true) => stage::<16, true>(src, d, n, st.ns, tw, &mut pf),
                    _ => unreachable!("stage radices are 2, 4, 5, 8, 16"),
                }
            }
        }
    }
}

/// The line kernel for `len` as a RustFFT [`Fft`], for the CPU path's plan cache: `Some` for
/// single precision where the CPU has AVX-512 and the length factors. (Against RustFFT in the
/// bench on 2 threads: 1.1-1.5x faster at 256-4096 and 1000; the four-step level at 8192 and
/// 16384, 5-15 % faster at 32768 and 65536; benches/results/2026-11-21-cpu-fft.md.)
pub(crate) fn planned<F: FftNum>(len: usize, inverse: bool) -> Option<Arc<dyn Fft<F>>> {
    if std::any::TypeId::of::<F>() != std::any::TypeId::of::<f32>() {
        return None;
    }
    let fft: Arc<dyn Fft<f32>> = Arc::new(LineFft::new(len, inverse)?);
    // F is f32: the downcast only names the same type.
    let any: Box<dyn std::any::Any> = Box::new(fft);
    any.downcast::<Arc<dyn Fft<F>>>().ok().map(|b| *b)
}

impl Length for LineFft {
    fn len(&self) -> usize {
        self.n
    }
}

impl Direction for LineFft {
    fn fft_direction(&self) -> FftDirection {
        if self.inverse { FftDirection::Inverse } else { FftDirection::Forward }
    }
}

/// RustFFT's contract: buffers hold whole lines, scratch at least the length asked for; a
/// breach is a bug in the caller and panics, as RustFFT's own plans do.
impl Fft<f32> for LineFft {
    fn process_with_scratch(&self, buffer: &mut [Complex<f32>], scratch: &mut [Complex<f32>]) {
        let p = buffer.as_mut_ptr() as *mut f32;
        // SAFETY: the same buffer both sides (in place), whole lines (checked in `lines`).
        unsafe { self.process(p, p, self.lines(buffer.len()), scratch) }
    }
    fn process_outofplace_with_scratch(&self, input: &mut [Complex<f32>], output: &mut [Complex<f32>], scratch: &mut [Complex<f32>]) {
        self.process_immutable_with_scratch(input, output, scratch)
    }
    fn process_immutable_with_scratch(&self, input: &[Complex<f32>], output: &mut [Complex<f32>], scratch: &mut [Complex<f32>]) {
        assert_eq!(input.len(), output.len(), "FFT input and output lengths differ");
        // SAFETY: two distinct slices (the borrow rules) of whole lines.
        unsafe { self.process(input.as_ptr() as *const f32, output.as_mut_ptr() as *mut f32, self.lines(input.len()), scratch) }
    }
    fn get_inplace_scratch_len(&self) -> usize {
        self.scratch_len()
    }
    fn get_outofplace_scratch_len(&self) -> usize {
        self.scratch_len()
    }
    fn get_immutable_scratch_len(&self) -> usize {
        self.scratch_len()
    }
}

/// Whether the kernels run: AVX-512 present and not turned off (`ROCMATH_CPU_FFT_LINES=0`,
/// RustFFT then runs the lines, for A/B).
fn has_avx512() -> bool {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let off = *OFF.get_or_init(|| std::env::var("ROCMATH_CPU_FFT_LINES").is_ok_and(|v| v == "0"));
    !off && crate::columns::has_avx512()
}

/// (cos, sin) of the e-th power of the n-th root of unity of the direction (exp(-2 pi i / n)
/// forward), computed in f64 from the exact fraction (e mod n) / n and rounded once.
fn root(e: usize, n: usize, inverse: bool) -> (f32, f32) {
    let sign = if inverse { 1.0 } else { -1.0 };
    let (s, c) = (sign * 2.0 * std::f64::consts::PI * (e % n) as f64 / n as f64).sin_cos();
    (c as f32, s as f32)
}

/// Appends the twiddles w(l) of the eight lanes as two registers in the form `cmul` takes: the
/// real parts twice each, then the imaginary parts twice each.
fn push_doubled(out: &mut Vec<f32>, w: impl Fn(usize) -> (f32, f32)) {
    let w: [(f32, f32); 8] = std::array::from_fn(w);
    out.extend(w.iter().flat_map(|&(c, _)| [c, c]));
    out.extend(w.iter().flat_map(|&(_, s)| [s, s]));
}

#[cfg(target_arch = "x86_64")]
type V = __m512;

/// (re, im) -> (im, re) in every complex lane.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn swap(a: V) -> V {
    _mm512_permute_ps::<0xB1>(a)
}

/// a * w, w given as its real parts twice each and its imaginary parts twice each.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn cmul(a: V, wr: V, wi: V) -> V {
    _mm512_fmaddsub_ps(a, wr, _mm512_mul_ps(swap(a), wi))
}

/// a * (c + i s) for a constant.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn cmul_const(a: V, c: f32, s: f32) -> V {
    cmul(a, _mm512_set1_ps(c), _mm512_set1_ps(s))
}

/// (a - i b, a + i b) in the forward direction, (a + i b, a - i b) inverse: the pair every odd
/// DFT output comes in.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn pm_i<const INV: bool>(a: V, b: V, one: V) -> (V, V) {
    // a - i b = (a.re + b.im, a.im - b.re): fmsubadd adds in even lanes, subtracts in odd ones;
    // a + i b: fmaddsub. Written out because LLVM turns the intrinsics (with a 1.0 it can see or
    // not) into an fma, an fms and two blends.
    let (mut minus, mut plus) = (swap(b), swap(b));
    // SAFETY: register-only arithmetic; AVX-512F is enabled for this function.
    unsafe {
        std::arch::asm!("vfmsubadd231ps {d}, {a}, {o}", d = inout(zmm_reg) minus, a = in(zmm_reg) a, o = in(zmm_reg) one, options(pure, nomem, nostack));
        std::arch::asm!("vfmaddsub231ps {d}, {a}, {o}", d = inout(zmm_reg) plus, a = in(zmm_reg) a, o = in(zmm_reg) one, options(pure, nomem, nostack));
    }
    if INV { (plus, minus) } else { (minus, plus) }
}

/// a * (-i) forward, a * i inverse.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn rot<const INV: bool>(a: V) -> V {
    // -i a = (a.im, -a.re): the swapped value with its imaginary (high) half negated; i a =
    // (-a.im, a.re): its real (low) half.
    let sign = _mm512_set1_epi64(if INV { 0x8000_0000 } else { i64::MIN });
    _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(swap(a)), sign))
}

#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn dft2(v: &mut [V]) {
    let (a, b) = (v[0], v[1]);
    v[0] = _mm512_add_ps(a, b);
    v[1] = _mm512_sub_ps(a, b);
}

/// 4-point DFT of v[0], v[s], v[2 s], v[3 s], in place (natural order).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn dft4<const INV: bool>(v: &mut [V], s: usize, one: V) {
    let t0 = _mm512_add_ps(v[0], v[2 * s]);
    let t1 = _mm512_sub_ps(v[0], v[2 * s]);
    let t2 = _mm512_add_ps(v[s], v[3 * s]);
    let t3 = _mm512_sub_ps(v[s], v[3 * s]);
    v[0] = _mm512_add_ps(t0, t2);
    v[2 * s] = _mm512_sub_ps(t0, t2);
    let (y1, y3) = pm_i::<INV>(t1, t3, one);
    v[s] = y1;
    v[3 * s] = y3;
}

const SQRT_HALF: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// cos(2 pi e / 16), e = 0 .. 16.
const COS16: [f32; 16] = [
    1.0, 0.923_879_5, SQRT_HALF, 0.382_683_43, 0.0, -0.382_683_43, -SQRT_HALF, -0.923_879_5,
    -1.0, -0.923_879_5, -SQRT_HALF, -0.382_683_43, 0.0, 0.382_683_43, SQRT_HALF, 0.923_879_5,
];

/// a times w^e, w the N-th root of unity of the direction (exp(-2 pi i / N) forward), N = 8 or
/// 16: the quarter and half turns exactly, the rest as a complex product.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn twiddle_const<const INV: bool>(a: V, e: usize, big_n: usize) -> V {
    let e16 = (e * 16 / big_n) % 16;
    match e16 {
        0 => a,
        4 => rot::<INV>(a),
        12 => {
            if INV { rot::<false>(a) } else { rot::<true>(a) }
        }
        8 => _mm512_sub_ps(_mm512_setzero_ps(), a),
        _ => {
            let sin = COS16[(e16 + 12) % 16];
            cmul_const(a, COS16[e16], if INV { sin } else { -sin })
        }
    }
}



/// 5-point DFT in place.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn dft5<const INV: bool>(v: &mut [V], one: V) {
    let c1 = _mm512_set1_ps(0.309_017_f32); // cos(2 pi / 5)
    let c2 = _mm512_set1_ps(-0.809_017_f32); // cos(4 pi / 5)
    let s1 = _mm512_set1_ps(0.951_056_5_f32); // sin(2 pi / 5)
    let s2 = _mm512_set1_ps(0.587_785_24_f32); // sin(4 pi / 5)
    let t1 = _mm512_add_ps(v[1], v[4]);
    let t2 = _mm512_add_ps(v[2], v[3]);
    let t3 = _mm512_sub_ps(v[1], v[4]);
    let t4 = _mm512_sub_ps(v[2], v[3]);
    let a0 = v[0];
    v[0] = _mm512_add_ps(a0, _mm512_add_ps(t1, t2));
    let b1 = _mm512_fmadd_ps(c2, t2, _mm512_fmadd_ps(c1, t1, a0));
    let b2 = _mm512_fmadd_ps(c1, t2, _mm512_fmadd_ps(c2, t1, a0));
    let d1 = _mm512_fmadd_ps(s2, t4, _mm512_mul_ps(s1, t3));
    let d2 = _mm512_fnmadd_ps(s1, t4, _mm512_mul_ps(s2, t3));
    // Forward: X1 = b1 - i d1, X4 = b1 + i d1, X2 = b2 - i d2, X3 = b2 + i d2.
    let (x1, x4) = pm_i::<INV>(b1, d1, one);
    let (x2, x3) = pm_i::<INV>(b2, d2, one);
    v[1] = x1;
    v[2] = x2;
    v[3] = x3;
    v[4] = x4;
}


/// The R-point DFT of `v` (R registers) in place, in natural order. A macro so that it is always
/// inlined (`#[inline(always)]` cannot go with `#[target_feature]`, and LLVM outlined the
/// 16-point one, passing the registers through memory). `$inv`: the const INV in scope.
macro_rules! dft {
    ($r:expr, $inv:ident, $v:expr, $one:expr) => {{
        let v: &mut [V] = &mut $v[..];
        let one: V = $one;
        match $r {
            2 => dft2(v),
            4 => dft4::<$inv>(v, 1, one),
            5 => dft5::<$inv>(v, one),
            8 => {
                // Radix 2 (decimation in frequency), then two 4-point DFTs.
                let mut u = [_mm512_setzero_ps(); 8];
                for k in 0..4 {
                    u[k] = _mm512_add_ps(v[k], v[k + 4]);
                    u[k + 4] = twiddle_const::<$inv>(_mm512_sub_ps(v[k], v[k + 4]), k, 8);
                }
                dft4::<$inv>(&mut u[0..], 1, one);
                dft4::<$inv>(&mut u[4..], 1, one);
                // u[0..4] are outputs 0, 2, 4, 6; u[4..8] outputs 1, 3, 5, 7.
                for p in 0..4 {
                    v[2 * p] = u[p];
                    v[2 * p + 1] = u[p + 4];
                }
            }
            16 => {
                // 4 x 4. Inputs k + 4 m: a 4-point DFT over m for each k (stride 4), twiddle
                // w16^(k q), then a 4-point DFT over k for each q: output q + 4 p.
                for k in 0..4 {
                    dft4::<$inv>(&mut v[k..], 4, one);
                }
                for k in 1..4 {
                    for q in 1..4 {
                        v[k + 4 * q] = twiddle_const::<$inv>(v[k + 4 * q], k * q, 16);
                    }
                }
                let mut u = [_mm512_setzero_ps(); 16];
                for q in 0..4 {
                    for k in 0..4 {
                        u[4 * q + k] = v[k + 4 * q];
                    }
                    dft4::<$inv>(&mut u[4 * q..], 1, one);
                }
                for q in 0..4 {
                    for p in 0..4 {
                        v[q + 4 * p] = u[4 * q + p];
                    }
                }
            }
            _ => unreachable!("radix {}", $r),
        }
    }};
}

/// 8 x 8 transpose of complex numbers (64-bit lanes): out[l] lane r = v[r] lane l.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose8(v: &[V]) -> [V; 8] {
    let r: [__m512d; 8] = std::array::from_fn(|i| _mm512_castps_pd(v[i]));
    let t: [__m512d; 8] = std::array::from_fn(|i| {
        let (a, b) = (r[i & !1], r[i | 1]);
        if i % 2 == 0 { _mm512_unpacklo_pd(a, b) } else { _mm512_unpackhi_pd(a, b) }
    });
    // t[2p] = rows 2p, 2p+1 at columns 0 2 4 6; t[2p+1] the odd columns.
    let u: [__m512d; 8] = [
        _mm512_shuffle_f64x2::<0x88>(t[0], t[2]),
        _mm512_shuffle_f64x2::<0xDD>(t[0], t[2]),
        _mm512_shuffle_f64x2::<0x88>(t[1], t[3]),
        _mm512_shuffle_f64x2::<0xDD>(t[1], t[3]),
        _mm512_shuffle_f64x2::<0x88>(t[4], t[6]),
        _mm512_shuffle_f64x2::<0xDD>(t[4], t[6]),
        _mm512_shuffle_f64x2::<0x88>(t[5], t[7]),
        _mm512_shuffle_f64x2::<0xDD>(t[5], t[7]),
    ];
    // u[0]: rows 0-3, columns 0 and 4; u[1]: columns 2, 6; u[2]: 1, 5; u[3]: 3, 7 (rows 4-7 in
    // u[4..8]).
    let out = [
        _mm512_shuffle_f64x2::<0x88>(u[0], u[4]),
        _mm512_shuffle_f64x2::<0x88>(u[2], u[6]),
        _mm512_shuffle_f64x2::<0x88>(u[1], u[5]),
        _mm512_shuffle_f64x2::<0x88>(u[3], u[7]),
        _mm512_shuffle_f64x2::<0xDD>(u[0], u[4]),
        _mm512_shuffle_f64x2::<0xDD>(u[2], u[6]),
        _mm512_shuffle_f64x2::<0xDD>(u[1], u[5]),
        _mm512_shuffle_f64x2::<0xDD>(u[3], u[7]),
    ];
    out.map(|o| _mm512_castpd_ps(o))
}

/// The first stage (Ns = 1): butterflies j read x[j + r n/R] and write y[j R + r], eight j at a
/// time; the last block of j may be partial (n/R not a multiple of 8), then masked.
///
/// # Safety
/// x and y cover n complex numbers (2 n floats).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn first_stage<const R: usize, const INV: bool>(x: *const f32, y: *mut f32, n: usize, pf: &mut Prefetch) {
    let one = opaque_one();
    let m = n / R;
    let mut jb = 0;
    while jb < m {
        let valid = (m - jb).min(8);
        let mut v: [V; R] = if valid == 8 {
            // SAFETY: element jb + r m + 7 < (r + 1) m <= n.
            std::array::from_fn(|r| unsafe { _mm512_loadu_ps(x.add(2 * (jb + r * m))) })
        } else {
            let mask: __mmask16 = (1u16 << (2 * valid)) - 1;
            // SAFETY: as above for the lanes l < valid; the masked ones are not read.
            std::array::from_fn(|r| unsafe { _mm512_maskz_loadu_ps(mask, x.add(2 * (jb + r * m))) })
        };
        dft!(R, INV, v, one);
        for h in 0..R / 8 {
            let t = transpose8(&v[8 * h..8 * h + 8]);
            for (l, &tl) in t.iter().enumerate().take(valid) {
                // SAFETY: (jb + l) R + 8 h + 8 <= m R = n.
                unsafe { _mm512_storeu_ps(y.add(2 * ((jb + l) * R + 8 * h)), tl) };
            }
        }
        pf.step();
        jb += 8;
    }
}

/// A line of n = 8 R (64 or 128) whole in registers: the first stage (R, one block of eight j),
/// whose transposed outputs are the second stage's (radix 8, Ns = R) inputs as they stand.
/// Reads all of x before writing y, so it may run in place.
///
/// # Safety
/// x and y cover 8 R complex numbers; tw is the second stage's table.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn in_registers<const R: usize, const INV: bool>(x: *const f32, y: *mut f32, tw: *const f32) {
    let one = opaque_one();
    // SAFETY (loads, stores, table): in bounds by the contract above.
    let mut v: [V; R] = std::array::from_fn(|r| unsafe { _mm512_loadu_ps(x.add(16 * r)) });
    dft!(R, INV, v, one);
    for h in 0..R / 8 {
        // t[r] holds x2[8 h + R r + l] (lane l): the second stage's block of k = 8 h.
        let mut t = transpose8(&v[8 * h..8 * h + 8]);
        for (r, tr) in t.iter_mut().enumerate().skip(1) {
            let w = unsafe { tw.add((h * 7 + r - 1) * 32) };
            *tr = unsafe { cmul(*tr, _mm512_loadu_ps(w), _mm512_loadu_ps(w.add(16))) };
        }
        dft!(8, INV, t, one);
        for (r, &tr) in t.iter().enumerate() {
            unsafe { _mm512_storeu_ps(y.add(2 * (8 * h + r * R)), tr) };
        }
    }
}

/// Prefetches of the next line's input (to L1) and output (for writing), a few cache lines after
/// each butterfly block of this line, so that the next line starts on data in cache.
struct Prefetch {
    next_in: *const i8,
    next_out: *const i8,
    /// Cache lines of each still to fetch.
    left: usize,
    per_block: usize,
}

impl Prefetch {
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn step(&mut self) {
        for _ in 0..self.per_block.min(self.left) {
            // (Prefetches are hints: they do not fault, whatever the address.)
            _mm_prefetch::<_MM_HINT_T0>(self.next_in);
            _mm_prefetch::<_MM_HINT_ET0>(self.next_out);
            self.next_in = self.next_in.wrapping_add(64);
            self.next_out = self.next_out.wrapping_add(64);
            self.left -= 1;
        }
    }
}

/// 1.0 in every lane, hidden from the optimiser (see `pm_i`).
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn opaque_one() -> V {
    _mm512_set1_ps(std::hint::black_box(1.0))
}

/// A later stage (Ns a multiple of 8): butterflies j = jb .. jb + 8 share j / Ns, so their
/// reads and writes are whole registers.
///
/// # Safety
/// x and y cover n complex numbers; tw is the stage's table (ns / 8 * (R - 1) * 32 floats).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn stage<const R: usize, const INV: bool>(x: *const f32, y: *mut f32, n: usize, ns: usize, tw: *const f32, pf: &mut Prefetch) {
    let one = opaque_one();
    let m = n / R;
    // j = q ns + k: blocks q of the sub-transforms done so far, k within them (ns <= m, both
    // multiples of 8).
    for q in 0..m / ns {
        for k0 in (0..ns).step_by(8) {
            let jb = q * ns + k0;
            // SAFETY: jb + 8 <= m, so every read is below n; q ns R + k0 + r ns + 8 <= n; the
            // twiddle block k0 / 8 is in the table.
            unsafe {
                let src = x.add(2 * jb);
                let mut v: [V; R] = std::array::from_fn(|r| _mm512_loadu_ps(src.add(2 * r * m)));
                let t = tw.add(k0 / 8 * (R - 1) * 32);
                for (r, vr) in v.iter_mut().enumerate().skip(1) {
                    let w = t.add((r - 1) * 32);
                    *vr = cmul(*vr, _mm512_loadu_ps(w), _mm512_loadu_ps(w.add(16)));
                }
                dft!(R, INV, v, one);
                let dst = y.add(2 * (q * ns * R + k0));
                for (r, &vr) in v.iter().enumerate() {
                    _mm512_storeu_ps(dst.add(2 * r * ns), vr);
                }
            }
            pf.step();
        }
    }
}

/// The shortest line that takes the four-step: from 8192 (16 x 512) a line and its two scratch
/// lines no longer fit L1, and each Stockham stage is a pass through L2. Measured in the bench
/// (2 threads, ms): 8192 Stockham 1.04, four-step 0.98-1.00; 65536 1.31-1.35 and 1.17-1.20.
/// (The micro-benchmark has the Stockham faster at 16384; the bench has it 7-12 % slower.)
const FOUR_STEP_MIN: usize = 8192;

impl FourStep {
    fn new(n: usize, inverse: bool) -> Option<FourStep> {
        let n2 = n / 16;
        let rows = Box::new(LineFft::new(n2, inverse)?);
        let mut block = Vec::with_capacity(n2 / 8 * 30);
        for b in 0..n2 / 8 {
            for k1 in 1..16 {
                let (c, s) = root(8 * b * k1, n, inverse);
                block.extend([c, s]);
            }
        }
        let mut lane = Vec::with_capacity(15 * 32);
        for k1 in 1..16 {
            push_doubled(&mut lane, |l| root(l * k1, n, inverse));
        }
        Some(FourStep { rows, block, lane })
    }

    /// Complex numbers from one row of z to the next: n2 and a cache line, so that the 16
    /// rows a block stores to (and the transpose loads from) are not 4 KiB multiples apart.
    fn row_stride(n: usize) -> usize {
        n / 16 + 8
    }

    /// One line: x -> z (the 16-point step and its twiddles), z's 16 rows in place, z -> y (the
    /// transpose). x is read only in the first step, so y may be x.
    ///
    /// # Safety
    /// x and y cover n complex numbers, z 16 row strides (and is neither), `rows` the rows'
    /// scratch.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn line(&self, n: usize, inverse: bool, x: *const f32, y: *mut f32, z: *mut f32, rows: &mut [Complex<f32>]) {
        let (n2, rs) = (n / 16, Self::row_stride(n));
        // SAFETY: the bounds in the contract; see each function.
        unsafe {
            if inverse {
                four_step_columns::<true>(x, z, n2, rs, self.block.as_ptr(), self.lane.as_ptr());
            } else {
                four_step_columns::<false>(x, z, n2, rs, self.block.as_ptr(), self.lane.as_ptr());
            }
            for k1 in 0..16 {
                let row = z.add(2 * k1 * rs);
                self.rows.process(row, row, 1, rows);
            }
            four_step_transpose(z, y, n2, rs);
        }
    }
}

/// The four-step's first step: for each j < n2, the 16-point DFT over x[j + n2 r], output k1
/// times w^(j k1), into z[k1 rs + j] (row k1, rows rs apart). The twiddle of lane l in block j0 is
/// w^(j0 k1) w^(l k1): a table of n2 / 8 x 15 complex numbers, not n2 x 15.
///
/// # Safety
/// x covers 16 n2 complex numbers (n2 a multiple of 8), z 16 rs (rs >= n2); the tables are
/// `FourStep`'s.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn four_step_columns<const INV: bool>(x: *const f32, z: *mut f32, n2: usize, rs: usize, block: *const f32, lane: *const f32) {
    let one = opaque_one();
    for jb in (0..n2).step_by(8) {
        // SAFETY: jb + 8 <= n2, so every access is below 16 n2; block jb / 8 is in the table.
        unsafe {
            let src = x.add(2 * jb);
            let mut v: [V; 16] = std::array::from_fn(|r| _mm512_loadu_ps(src.add(2 * r * n2)));
            dft!(16, INV, v, one);
            let b = block.add(jb / 8 * 30);
            for (k1, vk) in v.iter_mut().enumerate().skip(1) {
                let (br, bi) = (_mm512_set1_ps(*b.add(2 * (k1 - 1))), _mm512_set1_ps(*b.add(2 * (k1 - 1) + 1)));
                let l = lane.add((k1 - 1) * 32);
                let (lr, li) = (_mm512_loadu_ps(l), _mm512_loadu_ps(l.add(16)));
                // w = lane * block, in the doubled form cmul takes.
                let wr = _mm512_fmsub_ps(lr, br, _mm512_mul_ps(li, bi));
                let wi = _mm512_fmadd_ps(lr, bi, _mm512_mul_ps(li, br));
                *vk = cmul(*vk, wr, wi);
            }
            let dst = z.add(2 * jb);
            for (k1, &vk) in v.iter().enumerate() {
                _mm512_storeu_ps(dst.add(2 * k1 * rs), vk);
            }
        }
    }
}

/// The four-step's last step: row k1 of z (rows rs apart) holds X[k1 + 16 k2] (k2 < n2);
/// y[k1 + 16 k2] takes it, eight k2 at a time through two 8 x 8 transposes.
///
/// # Safety
/// z covers 16 rs complex numbers, y 16 n2, and they do not overlap.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn four_step_transpose(z: *const f32, y: *mut f32, n2: usize, rs: usize) {
    for kb in (0..n2).step_by(8) {
        // SAFETY: kb + 8 <= n2: reads below 16 n2; writes 16 (kb + l) + 16 <= 16 n2.
        unsafe {
            let v: [V; 16] = std::array::from_fn(|k1| _mm512_loadu_ps(z.add(2 * (k1 * rs + kb))));
            let (lo, hi) = (transpose8(&v[..8]), transpose8(&v[8..]));
            for l in 0..8 {
                let out = y.add(2 * 16 * (kb + l));
                _mm512_storeu_ps(out, lo[l]);
                _mm512_storeu_ps(out.add(16), hi[l]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex;

    /// The f64 reference: RustFFT in double precision (an independent implementation; the CPU
    /// path's tests check it against a naive DFT).
    fn reference(x: &[Complex<f64>], inverse: bool) -> Vec<Complex<f64>> {
        let dir = if inverse { FftDirection::Inverse } else { FftDirection::Forward };
        let mut y = x.to_vec();
        rustfft::FftPlanner::<f64>::new().plan_fft(x.len(), dir).process(&mut y);
        y
    }

    #[test]
    fn radices_cover_their_lengths() {
        for (n, want) in [(64, &[8, 8][..]), (128, &[16, 8]), (512, &[16, 16, 2]), (1024, &[16, 16, 4]), (2048, &[16, 8, 16]), (1000, &[8, 5, 5, 5]), (80, &[16, 5])] {
            assert_eq!(radices(n).as_deref(), Some(want), "{n}");
        }
        for n in [64, 128, 256, 512, 1024, 2048, 4096, 8192, 1 << 16, 1000, 200, 320, 640, 8000, 80, 160] {
            let r = radices(n).unwrap_or_else(|| panic!("{n}"));
            assert_eq!(r.iter().product::<usize>(), n, "{n}: {r:?}");
            assert!(matches!(r[0], 8 | 16), "{n}: {r:?}");
        }
        for n in [0, 8, 32, 48, 96 * 3, 1001, 4099, 1 << 17] {
            assert!(radices(n).is_none(), "{n}");
        }
        if has_avx512() {
            // Longer lines stay with RustFFT (the four-step would take them, unmeasured).
            assert!(LineFft::new(1 << 17, false).is_none());
            assert!(LineFft::new(1 << 16, false).is_some_and(|f| f.four_step.is_some()));
        }
    }

    /// Every length of the form up to 4096 and a few longer, both directions, in and out of
    /// place (NaN in the output and scratch first), two lines, against an f64 FFT: every bin
    /// within eps max|X| ln n (X the reference output), rocFFT's form of bound, with eps = 1e-7
    /// (about f32's epsilon, not rocFFT's 3.75e-5; the worst seen is a quarter of it, at 256 and
    /// 400; `LINES_ERR=1` prints each length's).
    #[test]
    fn lines_match_the_dft() {
        if !has_avx512() {
            eprintln!("skipped: no AVX-512 on this CPU");
            return;
        }
        let lengths: Vec<usize> = (64..=4096).filter(|&n| radices(n).is_some()).chain([8000, 8192, 16384, 32768, 65536]).collect();
        assert!(lengths.len() > 15);
        for &n in &lengths {
            for inverse in [false, true] {
                let fft = LineFft::new(n, inverse).unwrap();
                let count = 2;
                let x: Vec<Complex<f64>> = (0..n * count).map(|i| Complex::new(((i * 7919) % 1009) as f64 / 1009.0 - 0.5, ((i * 104729) % 997) as f64 / 997.0 - 0.5)).collect();
                let xf: Vec<Complex<f32>> = x.iter().map(|c| Complex::new(c.re as f32, c.im as f32)).collect();
                let nan = Complex::new(f32::NAN, f32::NAN);
                let mut out = vec![nan; n * count];
                let mut inplace = xf.clone();
                let mut scratch = vec![nan; fft.get_immutable_scratch_len()];
                fft.process_immutable_with_scratch(&xf, &mut out, &mut scratch);
                fft.process_with_scratch(&mut inplace, &mut scratch);
                assert_eq!(out, inplace, "{n} {inverse}: in place differs");
                for l in 0..count {
                    let want = reference(&x[l * n..(l + 1) * n], inverse);
                    let norm = want.iter().map(|c| c.norm()).fold(0.0, f64::max);
                    let tol = 1e-7 * norm * (n as f64).ln();
                    let worst = (0..n).map(|k| (Complex::new(out[l * n + k].re as f64, out[l * n + k].im as f64) - want[k]).norm()).fold(0.0, f64::max);
                    if std::env::var_os("LINES_ERR").is_some() {
                        eprintln!("{n} {inverse}: worst error / bound {:.3}", worst / tol);
                    }
                    for k in 0..n {
                        let got = Complex::new(out[l * n + k].re as f64, out[l * n + k].im as f64);
                        assert!((got - want[k]).norm() <= tol, "{n} {inverse} line {l} bin {k}: {got} vs {}", want[k]);
                    }
                }
            }
        }
    }

    /// Micro-benchmark: us a line, hot (16 lines) and cold (1024), against RustFFT.
    /// `cargo test --release -p rocmath-fft lines::tests::speed -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn speed() {
        use rustfft::FftPlanner;
        // `LINES_SPEED="256 1024"` picks lengths.
        let lengths: Vec<usize> = std::env::var("LINES_SPEED").map_or(vec![64, 128, 256, 512, 1000, 1024, 2048, 4096, 8192, 16384, 32768, 65536], |v| v.split_whitespace().filter_map(|s| s.parse().ok()).collect());
        for n in lengths {
            let Some(fft) = LineFft::new(n, false) else { continue };
            let r = FftPlanner::<f32>::new().plan_fft_forward(n);
            for count in [16, 1024] {
                let xc: Vec<Complex<f32>> = (0..n * count).map(|i| Complex::new((i % 13) as f32, (i % 7) as f32)).collect();
                let mut y = vec![Complex::new(0f32, 0.0); n * count];
                let mut scratch = vec![Complex::new(0f32, 0.0); fft.get_immutable_scratch_len()];
                let mut yc = vec![Complex::new(0f32, 0.0); n * count];
                let mut rs = vec![Complex::new(0f32, 0.0); r.get_immutable_scratch_len()];
                let reps = (1 << 24) / (n * count) + 1;
                let mut best = (f64::MAX, f64::MAX);
                for _ in 0..5 {
                    let t = std::time::Instant::now();
                    for _ in 0..reps {
                        fft.process_immutable_with_scratch(&xc, &mut y, &mut scratch);
                    }
                    best.0 = best.0.min(t.elapsed().as_secs_f64() / (reps * count) as f64 * 1e6);
                    let t = std::time::Instant::now();
                    for _ in 0..reps {
                        r.process_immutable_with_scratch(&xc, &mut yc, &mut rs);
                    }
                    best.1 = best.1.min(t.elapsed().as_secs_f64() / (reps * count) as f64 * 1e6);
                }
                println!("{n:6} x {count:5}: ours {:.3} us, RustFFT {:.3} us, ratio {:.3}", best.0, best.1, best.1 / best.0);
            }
        }
    }
}
