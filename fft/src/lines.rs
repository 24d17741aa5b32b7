//! Line kernels: single-precision complex FFTs of contiguous lines (a batched 1D c2c on
//! interleaved f32 data, dim 0 of a packed multi-dimensional one, the half-length transform of
//! an even real one), in place of RustFFT's kernels where the CPU has AVX-512 or AVX2 with FMA.
//! They are a [`rustfft::Fft`], so the CPU path's plan cache hands them out like RustFFT's own
//! plans.
//!
//! A Stockham FFT on interleaved complex numbers, L to a register (L = 8 in a `__m512`, 4 in a
//! `__m256`). A stage of radix R runs butterflies j = 0 .. n/R: it reads x[j + r n/R] (r < R),
//! multiplies by the twiddles of k = j mod Ns (Ns: the product of the radices before it), takes
//! the R-point DFT and writes y[(j - k) R + k + r Ns]. L consecutive j are one vector: the reads
//! are always contiguous, and so are the writes once Ns is a multiple of L. The first stage
//! (Ns = 1) has R = 8 or 16 and writes each lane's R outputs as one run, through L x L transposes
//! of complex numbers in registers. The butterflies are fully unrolled (generic functions always
//! inlined into each stage's kernel, const generics), so the DFT's constants and its lanes stay in
//! registers; on AVX-512, 64 and 128 run whole in registers. While a line runs, its blocks
//! prefetch the next line's input and output, spread out (a burst of prefetches at the start of a
//! line was slower).
//!
//! The kernels are written once over `simd::Isa` (a register of complex numbers and the
//! operations on it) and compiled for each instruction set in functions of its own
//! (`#[target_feature]`), chosen at run time. AVX2 has 16 registers, not 32, so its stages are
//! mostly radix 8, with a 16 first (and one last) where that saves a pass (see `radices`).
//!
//! Long lines (n = F n2 from [`FOUR_STEP_MIN`], F = 16 on AVX-512 and 8 on AVX2, n2 a length the
//! above takes) run as a four-step instead, so that every sub-FFT stays in L1: an F-point step
//! over the whole line with its twiddles into F rows (padded apart), the rows on the Stockham
//! kernels, a transpose out.
//!
//! Also here, on the same instruction sets: the even-real steps of single-precision real
//! transforms ([`real_split`]) and column FFTs of interleaved f32 lines ([`LineColumns`]),
//! for the CPU path's passes.
//!
//! Lengths: 8 x (a product of 2, 4, 5, 8, 16), from 64 to [`MAX_LEN`] (on AVX2 to
//! [`AVX2_MAX_LEN`]: RustFFT's AVX2 kernels run longer lines faster).
//! Why: RustFFT's AVX2 kernels (four complex numbers a register) and FFTW's (AVX2 in the
//! distributions' builds) were the CPU path's line kernels; the generic column passes
//! (`columns.rs`) could not beat them on whole lines (benches/results/2026-11-21-cpu-fft.md,
//! sixtieth session). Twice the width, unrolled butterflies and the prefetches do (sixty-first);
//! the AVX2 build of the same kernels is measured in the sixty-second.
use num_complex::Complex;
use rustfft::{Direction, Fft, FftDirection, FftNum, Length};
use std::sync::Arc;

/// The longest line the kernels take (a line and the four-step's scratch, 1 MiB, fit L2).
pub(crate) const MAX_LEN: usize = 1 << 16;

/// The longest line the CPU path takes the AVX2 kernels for; RustFFT's AVX2 kernels run longer
/// ones. Measured on the AVX-512 Xeon capped at AVX2 (`ROCMATH_CPU_FFT_ISA=avx2`, 2 threads,
/// three suite rounds, sixty-second session): ours / RustFFT 1.01-1.39 at 256-4096 and 1.57-1.69
/// at 1000, but 0.93-0.99 at 8192, 0.89-0.93 at 16384, 0.98-1.02 at 32768 and 0.94-0.97 at 65536
/// (the four-step with radix 8). The longer AVX2 plans stay reachable through `with_width`, for
/// the tests and later work.
const AVX2_MAX_LEN: usize = 4096;

/// Whether RustFFT's AVX2 kernels run the power-of-two lines shorter than 1024 in place of ours.
/// On AMD's cores they do, faster: measured on a Zen 4 EPYC capped at AVX2 (sixty-seventh
/// session, `benches/results/2026-11-21-cpu-fft.md`), one thread, us a line, ours against
/// RustFFT: 128 0.078-0.084 / 0.060-0.068, 256 0.161-0.181 / 0.122-0.140, 512 0.32-0.38 /
/// 0.28-0.32; in the bench (2 threads, 256 x 4096) 0.45-0.47 ms against 0.38-0.39. Ours hold
/// one register an element of a butterfly, and a 16-point one spills; RustFFT's keep a
/// butterfly's points in a register. Lengths with factors of 5 (200, 400, 1000) and 1024 up
/// stay ours there; Intel cores (the Xeon the kernels were measured on) keep ours throughout.
fn avx2_short_lines_to_rustfft(n: usize) -> bool {
    n < 1024 && n.is_power_of_two() && cpu_is_amd()
}

/// Whether the CPU's vendor is AMD (CPUID leaf 0: "AuthenticAMD").
fn cpu_is_amd() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: CPUID exists on every x86-64 CPU.
        #[allow(unused_unsafe)]
        let r = unsafe { std::arch::x86_64::__cpuid(0) };
        (r.ebx, r.edx, r.ecx) == (u32::from_le_bytes(*b"Auth"), u32::from_le_bytes(*b"enti"), u32::from_le_bytes(*b"cAMD"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The instruction set a plan's kernels run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Width {
    /// AVX-512F: 8 complex numbers a register, 32 registers.
    Avx512,
    /// AVX2 and FMA: 4 complex numbers a register, 16 registers.
    Avx2,
}

impl Width {
    /// Complex numbers a register.
    fn lanes(self) -> usize {
        match self {
            Width::Avx512 => 8,
            Width::Avx2 => 4,
        }
    }

    /// The four-step's first radix (its rows): 16 on AVX-512; 8 on AVX2, whose 16 registers a
    /// 16-point step would spill from.
    fn four_step_radix(self) -> usize {
        match self {
            Width::Avx512 => 16,
            Width::Avx2 => 8,
        }
    }
}

/// The instruction set the kernels run on here, `None` where they do not run: the CPU lacks
/// AVX2 and FMA, or `ROCMATH_CPU_FFT_LINES=0` (RustFFT then runs the lines, for A/B). AVX-512
/// where `columns::has_avx512` says so (which `ROCMATH_CPU_FFT_ISA=avx2` turns off, to measure
/// the AVX2 build on an AVX-512 machine).
fn width() -> Option<Width> {
    static WIDTH: std::sync::OnceLock<Option<Width>> = std::sync::OnceLock::new();
    *WIDTH.get_or_init(|| {
        if std::env::var("ROCMATH_CPU_FFT_LINES").is_ok_and(|v| v == "0") {
            return None;
        }
        if crate::columns::has_avx512() {
            return Some(Width::Avx512);
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            return Some(Width::Avx2);
        }
        None
    })
}

/// A plan for lines of one length and direction. `None` from [`LineFft::new`] where the kernels
/// do not run ([`width`]) or the length does not factor as above.
pub(crate) struct LineFft {
    n: usize,
    inverse: bool,
    width: Width,
    first: usize,
    stages: Vec<Stage>,
    /// Cache lines of the next line to prefetch per butterfly block ([`Prefetch`]).
    prefetch_per_block: usize,
    /// Long lines (n = F n2, F = 16 on AVX-512 and 8 on AVX2): an F-point DIF step over the line,
    /// then F rows of n2 on the line kernels, then a transpose (`line` uses this instead of
    /// `stages`).
    four_step: Option<FourStep>,
}

struct FourStep {
    /// F: the first step's radix and the number of rows (n = F n2).
    radix: usize,
    /// The rows' plan (n2 points, same direction).
    rows: Box<LineFft>,
    /// w^(j0 k1) for each block of L j (j0 = L b) and k1 = 1 .. F, w = exp(-+2 pi i / n):
    /// (re, im) pairs, 2 (F - 1) floats a block.
    block: Vec<f32>,
    /// w^(l k1) for the lanes l < L and k1 = 1 .. F: the real parts twice each, then the
    /// imaginary parts, 4 L floats a k1.
    lane: Vec<f32>,
}

struct Stage {
    radix: usize,
    /// The product of the radices before this stage (a multiple of L).
    ns: usize,
    /// For each block of L k (k = 0 .. ns) and each r = 1 .. R: w^(r k), w = exp(-+2 pi i /
    /// (ns R)), as two registers: the real parts twice each [re0 re0 re1 re1 ...], then the
    /// imaginary parts. 4 L floats a (block, r).
    twiddles: Vec<f32>,
}

/// The radices for n on `width`, first stage first; `None` if n is not 8 (or 16) times a
/// product of the stage radices.
fn radices(n: usize, width: Width) -> Option<Vec<usize>> {
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
    let bits = rest.trailing_zeros() as usize;
    let mut out: Vec<usize> = match width {
        // The power of two: 16 first (8 for 8 itself), then 16s, with the bits left over as one
        // 2, 4 or 8: an 8 right after the first stage, a 2 or 4 last (measured at 512 - 4096 on
        // an AVX-512 Xeon: 16 8 16 beat 16 16 8 at 2048, 16 16 2 beat 8 8 8 at 512).
        Width::Avx512 => {
            // (64: 8 x 8, which runs in registers.)
            let mut out = vec![if bits >= 4 && bits != 6 { 16usize } else { 8 }];
            let after = bits - out[0].trailing_zeros() as usize;
            let (sixteens, left) = (after / 4, after % 4);
            if left == 3 {
                out.push(8);
            }
            out.extend(std::iter::repeat_n(16, sixteens));
            if left == 1 || left == 2 {
                out.push(1 << left);
            }
            out
        }
        // Mostly 8s: a radix-16 stage's 16 registers, its twiddles and constants do not fit
        // AVX2's 16 registers, so it spills. Still, a 16 in place of an 8 and a 2 or 4 saves a
        // pass over the line, and that pays: measured on the AVX-512 Xeon capped at AVX2, 64
        // = 16 4 (which then runs in registers) 0.040 us a line against 0.048 (8 8), 128 = 16 8
        // 0.094 against 0.111 (8 8 2) hot; in the bench (2^20 points, one thread, medians of
        // five), 1024 = 16 8 8 1.10 ms against 1.26 (8 8 8 2), 2048 = 16 8 16 1.43 against 1.63
        // (8 8 8 4; 16 16 8 1.49), 256 = 16 16 1.01 against 1.05 (8 8 4). Where 8s alone cover
        // the length (512, 4096) they stay: 16 8 4 and 16 16 16 were level there.
        Width::Avx2 if (4..=7).contains(&bits) => {
            let mut out = vec![16];
            if bits > 4 {
                out.push(1 << (bits - 4));
            }
            out
        }
        Width::Avx2 => {
            let after = bits - 3;
            match after % 3 {
                0 => vec![8; 1 + after / 3],
                // One bit over: a 16 first, then 8s (1024 = 16 8 8).
                1 => std::iter::once(16).chain(std::iter::repeat_n(8, (bits - 4) / 3)).collect(),
                // Two bits over: a 16 first and one last (256 = 16 16, 2048 = 16 8 16).
                _ => std::iter::once(16).chain(std::iter::repeat_n(8, (bits - 8) / 3)).chain(std::iter::once(16)).collect(),
            }
        }
    };
    out.extend(std::iter::repeat_n(5, fives));
    (out.len() >= 2).then_some(out)
}

impl LineFft {
    pub(crate) fn new(n: usize, inverse: bool) -> Option<LineFft> {
        let width = width()?;
        if width == Width::Avx2 && (n > AVX2_MAX_LEN || avx2_short_lines_to_rustfft(n)) {
            return None;
        }
        Self::with_width(n, inverse, width)
    }

    fn with_width(n: usize, inverse: bool, width: Width) -> Option<LineFft> {
        if n > MAX_LEN {
            return None;
        }
        let f = width.four_step_radix();
        if n >= FOUR_STEP_MIN && n.is_multiple_of(f) {
            if let Some(fs) = FourStep::new(n, inverse, width) {
                return Some(LineFft { n, inverse, width, first: f, stages: Vec::new(), prefetch_per_block: 0, four_step: Some(fs) });
            }
        }
        let radices = radices(n, width)?;
        let lanes = width.lanes();
        let mut stages = Vec::new();
        let mut ns = radices[0];
        for &radix in &radices[1..] {
            let mut twiddles = Vec::with_capacity(ns / lanes * (radix - 1) * 4 * lanes);
            for kb in 0..ns / lanes {
                for r in 1..radix {
                    push_doubled(&mut twiddles, lanes, |l| root(r * (kb * lanes + l), ns * radix, inverse));
                }
            }
            stages.push(Stage { radix, ns, twiddles });
            ns *= radix;
        }
        debug_assert_eq!(ns, n);
        // Blocks of L butterflies a line: n / (L R) a stage.
        let blocks: usize = radices.iter().map(|r| (n / r).div_ceil(lanes)).sum();
        let prefetch_per_block = (n / 8).div_ceil(blocks);
        Some(LineFft { n, inverse, width, first: radices[0], stages, prefetch_per_block, four_step: None })
    }

    /// Scratch a call needs, in complex numbers: two lines, or for the four-step a line and a
    /// row's scratch; from 2048 with the slack that starts them at a cache line ([`ALIGN_SLACK`]).
    fn scratch_len(&self) -> usize {
        self.work_len() + if self.aligns_scratch() { ALIGN_SLACK } else { 0 }
    }

    /// Whether the kernels start the scratch at a cache line ([`ALIGN_SLACK`]).
    fn aligns_scratch(&self) -> bool {
        self.four_step.is_some() || self.n >= VIA_SCRATCH_MIN
    }

    /// What the kernels use of the scratch (from its first 64-byte boundary where
    /// `aligns_scratch`).
    fn work_len(&self) -> usize {
        match &self.four_step {
            Some(fs) => fs.radix * fs.row_stride(self.n) + fs.rows.work_len(),
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
        // Long lines' scratch from a cache-line boundary: a register of AVX-512 (and every other
        // one of AVX2) at 16 bytes past one spans two lines, and a Vec's heap block starts
        // there.
        let skip = if self.aligns_scratch() { to_cache_line(scratch.as_ptr()) } else { 0 };
        let scratch = &mut scratch[skip..];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `width` was checked against the CPU when the plan was made; the caller's
        // contract covers the pointers.
        unsafe {
            match self.width {
                Width::Avx512 => self.process_with::<simd::Avx512>(input, output, count, scratch),
                Width::Avx2 => self.process_with::<simd::Avx2>(input, output, count, scratch),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (input, output, count, scratch);
    }

    /// [`Self::process`] on the kernels for `I`.
    ///
    /// # Safety
    /// As `process`; the CPU has `I`'s instruction set.
    #[cfg(target_arch = "x86_64")]
    unsafe fn process_with<I: simd::Isa>(&self, input: *const f32, output: *mut f32, count: usize, scratch: &mut [Complex<f32>]) {
        if let Some(fs) = &self.four_step {
            let (z, rest) = scratch.split_at_mut(fs.radix * fs.row_stride(self.n));
            for l in 0..count {
                // SAFETY: as below; z holds the F padded rows, rest the rows' scratch.
                unsafe { fs.line::<I>(self.n, self.inverse, input.add(2 * self.n * l), output.add(2 * self.n * l), z.as_mut_ptr() as *mut f32, rest) };
            }
            return;
        }
        // SAFETY: Complex<f32> is two f32s (repr(C)).
        let scratch = unsafe { std::slice::from_raw_parts_mut(scratch.as_mut_ptr() as *mut f32, 2 * scratch.len()) };
        for l in 0..count {
            let (x, y) = (input.wrapping_add(2 * self.n * l), output.wrapping_add(2 * self.n * l));
            let lines_left = if l + 1 < count { self.n / 8 } else { 0 };
            let pf = Prefetch { next_in: x.wrapping_add(2 * self.n) as *const i8, next_out: y.wrapping_add(2 * self.n) as *const i8, left: lines_left, per_block: self.prefetch_per_block };
            // SAFETY: the caller's contract.
            unsafe { self.line::<I>(x, y, scratch, pf) };
        }
    }

    /// One line through the Stockham stages.
    ///
    /// # Safety
    /// x and y cover n complex numbers, the same or not overlapping; scratch holds 4 n floats;
    /// the CPU has `I`'s instruction set.
    #[cfg(target_arch = "x86_64")]
    unsafe fn line<I: simd::Isa>(&self, x: *const f32, y: *mut f32, scratch: &mut [f32], mut pf: Prefetch) {
        let n = self.n;
        if self.stages.len() == 1 && n == I::L * self.first && self.stages[0].radix == I::L {
            // 64 and 128 on AVX-512: both stages in registers.
            let tw = self.stages[0].twiddles.as_ptr();
            // SAFETY: n complex numbers each side; the table is stage 2's (ns = first, R = L).
            unsafe {
                match (self.first, self.inverse) {
                    (8, false) => I::in_registers::<8, false>(x, y, tw),
                    (8, true) => I::in_registers::<8, true>(x, y, tw),
                    (16, false) => I::in_registers::<16, false>(x, y, tw),
                    (16, true) => I::in_registers::<16, true>(x, y, tw),
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
        // In place, and where y is off a cache-line boundary (so its every write costs more),
        // the stages between the first and the last go through the two scratch lines.
        let in_place = std::ptr::eq(x, y) || (n >= VIA_SCRATCH_MIN && !(y as usize).is_multiple_of(64));
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
                (8, false) => I::first_stage::<8, false>(x, dst[0], n, &mut pf),
                (8, true) => I::first_stage::<8, true>(x, dst[0], n, &mut pf),
                (16, false) => I::first_stage::<16, false>(x, dst[0], n, &mut pf),
                (16, true) => I::first_stage::<16, true>(x, dst[0], n, &mut pf),
                _ => unreachable!("first radix is 8 or 16"),
            }
            for (i, st) in self.stages.iter().enumerate() {
                let (src, d) = (dst[i] as *const f32, dst[i + 1]);
                let tw = st.twiddles.as_ptr();
                match (st.radix, self.inverse) {
                    (2, false) => I::stage::<2, false>(src, d, n, st.ns, tw, &mut pf),
                    (2, true) => I::stage::<2, true>(src, d, n, st.ns, tw, &mut pf),
                    (4, false) => I::stage::<4, false>(src, d, n, st.ns, tw, &mut pf),
                    (4, true) => I::stage::<4, true>(src, d, n, st.ns, tw, &mut pf),
                    (5, false) => I::stage::<5, false>(src, d, n, st.ns, tw, &mut pf),
                    (5, true) => I::stage::<5, true>(src, d, n, st.ns, tw, &mut pf),
                    (8, false) => I::stage::<8, false>(src, d, n, st.ns, tw, &mut pf),
                    (8, true) => I::stage::<8, true>(src, d, n, st.ns, tw, &mut pf),
                    (16, false) => I::stage::<16, false>(src, d, n, st.ns, tw, &mut pf),
                    (16, true) => I::stage::<16, true>(src, d, n, st.ns, tw, &mut pf),
                    _ => unreachable!("stage radices are 2, 4, 5, 8, 16"),
                }
            }
        }
    }
}

/// The line kernel for `len` as a RustFFT [`Fft`], for the CPU path's plan cache: `Some` for
/// single precision where the kernels run ([`width`]) and the length factors. (Against RustFFT
/// in the bench on 2 threads, AVX-512: 1.1-1.5x faster at 256-4096 and 1000; the four-step level
/// at 8192 and 16384, 5-15 % faster at 32768 and 65536; benches/results/2026-11-21-cpu-fft.md.)
pub(crate) fn planned<F: FftNum>(len: usize, inverse: bool) -> Option<Arc<dyn Fft<F>>> {
    if std::any::TypeId::of::<F>() != std::any::TypeId::of::<f32>() {
        return None;
    }
    let fft: Arc<dyn Fft<f32>> = Arc::new(LineFft::new(len, inverse)?);
    // F is f32: the downcast only names the same type.
    let any: Box<dyn std::any::Any> = Box::new(fft);
    any.downcast::<Arc<dyn Fft<F>>>().ok().map(|b| *b)
}

/// The even-real split of a real transform of n = 2 m points and its inverse, in single precision
/// on the kernels' instruction set, for 0 < j < m, with A = Z[j] + conj Z[m - j],
/// B = Z[j] - conj Z[m - j] and w = exp(-2 pi i / n) (`w[j]`):
/// - forward (r2c; Z = FFT_m of the reals taken in pairs): out[j] = scale (A + w^j (-i B)),
///   scale being half the plan's;
/// - inverse (c2r; Z the hermitian input): out[j] = scale (A + conj(w^j) (i B)), the
///   half-length input of the inverse FFT.
///
/// `out[0]` (and the forward `out[m]`) are left to the caller. Returns false (nothing written)
/// for types other than f32 or where the kernels do not run; the caller then takes its portable
/// loop. The CPU path compiled
/// that loop for x86-64's baseline SSE2, two complex numbers at a time: 18 % of r2c 128^3's time
/// on one thread, twice its 64-point FFTs (`perf`, sixty-second session).
pub(crate) fn real_split<F: FftNum>(z: &[Complex<F>], w: &[Complex<F>], scale: F, out: &mut [Complex<F>], inverse: bool) -> bool {
    if std::any::TypeId::of::<F>() != std::any::TypeId::of::<f32>() {
        return false;
    }
    let m = z.len();
    assert!(w.len() >= m && out.len() >= m, "real split: {} twiddles, {} outputs for {m}", w.len(), out.len());
    let Some(width) = width() else { return false };
    // F is f32, so the values are f32 ones as they stand.
    let (z, w, o) = (z.as_ptr() as *const f32, w.as_ptr() as *const f32, out.as_mut_ptr() as *mut f32);
    // SAFETY: as above.
    let scale = unsafe { *(&scale as *const F).cast::<f32>() };
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `width` checked the CPU; the lengths were checked above.
    unsafe {
        match width {
            Width::Avx512 if inverse => <simd::Avx512 as simd::Isa>::real_split::<true>(z, w, scale, o, m),
            Width::Avx512 => <simd::Avx512 as simd::Isa>::real_split::<false>(z, w, scale, o, m),
            Width::Avx2 if inverse => <simd::Avx2 as simd::Isa>::real_split::<true>(z, w, scale, o, m),
            Width::Avx2 => <simd::Avx2 as simd::Isa>::real_split::<false>(z, w, scale, o, m),
        }
    }
    #[cfg(target_arch = "x86_64")]
    return true;
    #[cfg(not(target_arch = "x86_64"))]
    {
        // (`width` is None off x86-64.)
        let _ = (z, w, o, scale, width);
        false
    }
}

/// Lanes a column FFT takes at each butterfly position, in register columns of `L` lanes one
/// after the other: 16 lanes (two cache lines of each row) on either instruction set. With one
/// register column at a time (8 lanes on AVX-512, 4 on AVX2), each pass over the rows read half
/// a cache line a row on AVX2 and came back for the other half after the rows had left L1:
/// rows a power of two apart share L1 sets (the third dimension's rows of 64^3 are 32 KiB
/// apart).
pub(crate) const COLUMN_STEP: usize = 16;

/// Column FFTs of interleaved single-precision lines on the kernels' instruction set: a block of
/// neighbouring lines (element j of line l at `2 (j stride + l)` floats), L lines a register,
/// each register column through Stockham stages whose butterflies hold one register an element
/// (the twiddles broadcast), so radix 8 fits AVX2's 16 registers where `columns.rs`' planar rows
/// (two registers an element of 8 lanes) spill. Lengths 2^a 5^b from 2 to `columns::MAX_LEN`;
/// `ROCMATH_CPU_FFT_COLUMNS=planar` turns them off (A/B). Measured in turns against the planar
/// passes (2 threads, benches/results/2026-11-21-cpu-fft.md, sixty-second session): 64^3
/// 0.44-0.46 -> 0.38-0.41 ms, r2c 128^3 2.41-2.80 -> 2.01-2.35 ms on AVX-512; 12-14 % off both
/// capped at AVX2.
pub(crate) struct LineColumns {
    n: usize,
    inverse: bool,
    width: Width,
    /// (radix R, Ns, the (cos, sin) of w^(r k) for k < Ns and r = 1 .. R at 2 (k (R - 1) + r - 1),
    /// w = exp(-+2 pi i / (Ns R))), first stage first.
    stages: Vec<(usize, usize, Vec<f32>)>,
}

impl LineColumns {
    pub(crate) fn new(n: usize, inverse: bool) -> Option<LineColumns> {
        let width = width()?;
        if !(2..=crate::columns::MAX_LEN).contains(&n) || std::env::var("ROCMATH_CPU_FFT_COLUMNS").is_ok_and(|v| v == "planar") {
            return None;
        }
        let mut rest = n;
        let mut radices = Vec::new();
        while rest.is_multiple_of(5) {
            rest /= 5;
            radices.push(5);
        }
        if !rest.is_power_of_two() {
            return None;
        }
        let bits = rest.trailing_zeros() as usize;
        radices.extend(std::iter::repeat_n(8, bits / 3));
        match (bits % 3, bits >= 3) {
            // An 8 and a 2 as two 4s.
            (1, true) => {
                let last = radices.len() - 1;
                radices[last] = 4;
                radices.push(4);
            }
            (1, false) => radices.push(2),
            (2, _) => radices.push(4),
            _ => {}
        }
        let mut ns = 1;
        let stages = radices
            .into_iter()
            .map(|r| {
                let tw = (0..ns).flat_map(|k| (1..r).map(move |q| root(q * k, ns * r, inverse))).flat_map(|(c, s)| [c, s]).collect();
                let st = (r, ns, tw);
                ns *= r;
                st
            })
            .collect();
        Some(LineColumns { n, inverse, width, stages })
    }

    /// Scratch `transform` needs, in floats.
    pub(crate) fn scratch_len(&self) -> usize {
        4 * self.n * COLUMN_STEP
    }

    /// Transforms `lanes` neighbouring lines (a multiple of [`COLUMN_STEP`]): element j of line l at
    /// `src + 2 (j si + l)`, results times `scale` to `dst + 2 (j so + l)`. In place when src is
    /// dst (a line is read whole before any of it is written).
    ///
    /// # Safety
    /// The lines are live memory, source and destination the same or disjoint; `scratch` holds
    /// [`Self::scratch_len`] floats.
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn transform(&self, src: *const f32, si: usize, dst: *mut f32, so: usize, lanes: usize, scale: f32, scratch: &mut [f32]) {
        assert!(scratch.len() >= self.scratch_len() && lanes.is_multiple_of(COLUMN_STEP), "column FFT scratch or block");
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `width` checked the CPU; the caller's contract.
        unsafe {
            match self.width {
                Width::Avx512 => self.transform_with::<simd::Avx512>(src, si, dst, so, lanes, scale, scratch),
                Width::Avx2 => self.transform_with::<simd::Avx2>(src, si, dst, so, lanes, scale, scratch),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (src, si, dst, so, lanes, scale, scratch);
    }

    /// # Safety
    /// As `transform`; the CPU has `I`'s instruction set.
    #[cfg(target_arch = "x86_64")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn transform_with<I: simd::Isa>(&self, src: *const f32, si: usize, dst: *mut f32, so: usize, lanes: usize, scale: f32, scratch: &mut [f32]) {
        let step = COLUMN_STEP;
        let (s1, s2) = scratch.split_at_mut(2 * self.n * step);
        let (s1, s2) = (s1.as_mut_ptr(), s2.as_mut_ptr());
        let last = self.stages.len() - 1;
        for c in (0..lanes).step_by(step) {
            let (x0, y0) = (src.wrapping_add(2 * c), dst.wrapping_add(2 * c));
            for (i, (radix, ns, tw)) in self.stages.iter().enumerate() {
                // From the lines (stride 2 si) or the last scratch (a step's lanes an element) to
                // the next scratch or the lines.
                let (x, xs) = if i == 0 { (x0, 2 * si) } else if i % 2 == 1 { (s1 as *const f32, 2 * step) } else { (s2 as *const f32, 2 * step) };
                let (y, ys) = if i == last { (y0, 2 * so) } else if i % 2 == 0 { (s1, 2 * step) } else { (s2, 2 * step) };
                let sc = if i == last { scale } else { 1.0 };
                let (n, ns, tw) = (self.n, *ns, tw.as_ptr());
                // SAFETY: the stages keep within n elements each side (see the kernel).
                unsafe {
                    match (*radix, self.inverse) {
                        (2, false) => I::column_stage::<2, false>(x, xs, y, ys, n, ns, tw, sc),
                        (2, true) => I::column_stage::<2, true>(x, xs, y, ys, n, ns, tw, sc),
                        (4, false) => I::column_stage::<4, false>(x, xs, y, ys, n, ns, tw, sc),
                        (4, true) => I::column_stage::<4, true>(x, xs, y, ys, n, ns, tw, sc),
                        (5, false) => I::column_stage::<5, false>(x, xs, y, ys, n, ns, tw, sc),
                        (5, true) => I::column_stage::<5, true>(x, xs, y, ys, n, ns, tw, sc),
                        (8, false) => I::column_stage::<8, false>(x, xs, y, ys, n, ns, tw, sc),
                        (8, true) => I::column_stage::<8, true>(x, xs, y, ys, n, ns, tw, sc),
                        _ => unreachable!("column radices are 2, 4, 5, 8"),
                    }
                }
            }
        }
    }
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

/// (cos, sin) of the e-th power of the n-th root of unity of the direction (exp(-2 pi i / n)
/// forward), computed in f64 from the exact fraction (e mod n) / n and rounded once.
fn root(e: usize, n: usize, inverse: bool) -> (f32, f32) {
    let sign = if inverse { 1.0 } else { -1.0 };
    let (s, c) = (sign * 2.0 * std::f64::consts::PI * (e % n) as f64 / n as f64).sin_cos();
    (c as f32, s as f32)
}

/// Appends the twiddles w(l) of a register's `lanes` lanes as two registers in the form `cmul`
/// takes: the real parts twice each, then the imaginary parts twice each.
fn push_doubled(out: &mut Vec<f32>, lanes: usize, w: impl Fn(usize) -> (f32, f32)) {
    let w: Vec<(f32, f32)> = (0..lanes).map(w).collect();
    out.extend(w.iter().flat_map(|&(c, _)| [c, c]));
    out.extend(w.iter().flat_map(|&(_, s)| [s, s]));
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
    #[inline(always)]
    fn step(&mut self) {
        use std::arch::x86_64::{_MM_HINT_ET0, _MM_HINT_T0, _mm_prefetch};
        for _ in 0..self.per_block.min(self.left) {
            // SAFETY: SSE is part of x86-64; prefetches are hints and do not fault, whatever
            // the address.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(self.next_in);
                _mm_prefetch::<_MM_HINT_ET0>(self.next_out);
            }
            self.next_in = self.next_in.wrapping_add(64);
            self.next_out = self.next_out.wrapping_add(64);
            self.left -= 1;
        }
    }
}

/// The scratch beyond what the kernels use, for lines from 2048 (`aligns_scratch`), in complex
/// numbers: enough to start it at a 64-byte boundary. A Vec's heap block (the CPU path's
/// scratch, most callers' buffers) starts 16 bytes past one, where every AVX-512 register spans
/// two cache lines. Measured in the bench, in turns, four rounds each (2 threads, AVX-512, ms;
/// `2026-11-23-cpu-fft/s66-align-ab-2.txt`, with `VIA_SCRATCH_MIN`): the four-step's rows on a
/// boundary, 8192 x 128 0.916-0.994 -> 0.856-0.909, 16384 x 64 0.982-0.996 -> 0.872-0.896,
/// 65536 x 16 1.103-1.143 -> 0.962-1.020; then 4096's scratch lines too (`s66-align-ab-3.txt`),
/// 0.714-0.730 -> 0.672-0.681 (capped at AVX2 level), and 2048's with `VIA_SCRATCH_MIN` there.
/// Shorter lines' scratch on a boundary was slower at 512 and 1024 (0.52-0.54 -> 0.63-0.68 ms at
/// 512; `s66-align-ab.txt`), so they take it as it comes.
const ALIGN_SLACK: usize = 8;

/// Complex numbers from `p` to the next 64-byte boundary (0 on one, and where `p` is not on a
/// complex number's 8 bytes, so that none can be reached).
fn to_cache_line(p: *const Complex<f32>) -> usize {
    let addr = p as usize;
    if addr.is_multiple_of(8) { (64 - addr % 64) % 64 / 8 } else { 0 }
}

/// From this length, an output off a cache-line boundary (a Vec's heap block, 16 bytes past
/// one) makes a line keep its middle stages in the two scratch lines, as in place, so only the
/// last stage writes it; shorter lines still pass through it (the output then stays in L1 for the
/// last stage). Measured in the bench, in turns (`s66-align-ab.txt`, `s66-align-ab-2.txt`, ms):
/// 4096 x 256 0.714-0.754 -> 0.689-0.740 (AVX-512), 0.830-0.844 -> 0.784-0.851 (capped at AVX2);
/// 1024 slower (0.61-0.63 -> 0.75-0.78). 2048 x 512 (with its scratch on a cache line, four
/// rounds, `s66-via-2048-ab.txt`): 0.661-0.693 -> 0.647-0.682, capped 0.734-0.742 -> 0.714-0.733.
const VIA_SCRATCH_MIN: usize = 2048;

/// The shortest line that takes the four-step: from 8192 (16 x 512) a line and its two scratch
/// lines no longer fit L1, and each Stockham stage is a pass through L2. Measured in the bench
/// (2 threads, AVX-512, ms): 8192 Stockham 1.04, four-step 0.98-1.00; 65536 1.31-1.35 and
/// 1.17-1.20. (The micro-benchmark has the Stockham faster at 16384; the bench has it 7-12 %
/// slower.)
const FOUR_STEP_MIN: usize = 8192;

impl FourStep {
    fn new(n: usize, inverse: bool, width: Width) -> Option<FourStep> {
        let radix = width.four_step_radix();
        let n2 = n / radix;
        let lanes = width.lanes();
        let rows = Box::new(LineFft::with_width(n2, inverse, width)?);
        let mut block = Vec::with_capacity(n2 / lanes * 2 * (radix - 1));
        for b in 0..n2 / lanes {
            for k1 in 1..radix {
                let (c, s) = root(lanes * b * k1, n, inverse);
                block.extend([c, s]);
            }
        }
        let mut lane = Vec::with_capacity((radix - 1) * 4 * lanes);
        for k1 in 1..radix {
            push_doubled(&mut lane, lanes, |l| root(l * k1, n, inverse));
        }
        Some(FourStep { radix, rows, block, lane })
    }

    /// Complex numbers from one row of z to the next: n2 and a cache line, so that the F
    /// rows a block stores to (and the transpose loads from) are not 4 KiB multiples apart.
    fn row_stride(&self, n: usize) -> usize {
        n / self.radix + 8
    }

    /// One line: x -> z (the F-point step and its twiddles), z's F rows in place, z -> y (the
    /// transpose). x is read only in the first step, so y may be x.
    ///
    /// # Safety
    /// x and y cover n complex numbers, z F row strides (and is neither), `rows` the rows'
    /// scratch; the CPU has `I`'s instruction set.
    #[cfg(target_arch = "x86_64")]
    unsafe fn line<I: simd::Isa>(&self, n: usize, inverse: bool, x: *const f32, y: *mut f32, z: *mut f32, rows: &mut [Complex<f32>]) {
        let (n2, rs) = (n / self.radix, self.row_stride(n));
        let (b, l) = (self.block.as_ptr(), self.lane.as_ptr());
        // SAFETY: the bounds in the contract; see each function.
        unsafe {
            match (self.radix, inverse) {
                (16, false) => I::four_step_columns::<16, false>(x, z, n2, rs, b, l),
                (16, true) => I::four_step_columns::<16, true>(x, z, n2, rs, b, l),
                (8, false) => I::four_step_columns::<8, false>(x, z, n2, rs, b, l),
                (8, true) => I::four_step_columns::<8, true>(x, z, n2, rs, b, l),
                _ => unreachable!("four-step radix is 8 or 16"),
            }
            for k1 in 0..self.radix {
                let row = z.add(2 * k1 * rs);
                self.rows.process_with::<I>(row, row, 1, rows);
            }
            match self.radix {
                16 => I::four_step_transpose::<16>(z, y, n2, rs),
                8 => I::four_step_transpose::<8>(z, y, n2, rs),
                _ => unreachable!("four-step radix is 8 or 16"),
            }
        }
    }
}

/// The kernels, once over [`simd::Isa`], compiled per instruction set.
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::Prefetch;
    use std::arch::x86_64::*;

    /// A register of L complex numbers (interleaved re, im) and what the kernels do with it, for
    /// one instruction set; and the kernels' entry points compiled for it (`kernel_entries!`).
    /// Each operation is a `#[target_feature]` function that the entry points inline.
    ///
    /// # Safety
    /// Every function requires the CPU to have the instruction set.
    pub(super) trait Isa {
        type V: Copy;
        /// Complex numbers a register.
        const L: usize;
        unsafe fn load(p: *const f32) -> Self::V;
        /// Lanes below `valid` (< L) from p, the rest zero; nothing past them is read.
        unsafe fn load_first(p: *const f32, valid: usize) -> Self::V;
        unsafe fn store(p: *mut f32, v: Self::V);
        unsafe fn splat(x: f32) -> Self::V;
        unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
        unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
        unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
        /// a b + c.
        unsafe fn fmadd(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
        /// a b - c.
        unsafe fn fmsub(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
        /// c - a b.
        unsafe fn fnmadd(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
        /// a b - c in the real (even) lanes, a b + c in the imaginary ones.
        unsafe fn fmaddsub(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
        /// (re, im) -> (im, re) in every complex lane.
        unsafe fn swap(a: Self::V) -> Self::V;
        /// a with the sign of every imaginary part (`IMAG`) or every real part flipped.
        unsafe fn flip<const IMAG: bool>(a: Self::V) -> Self::V;
        /// (a - i b, a + i b) from a and s = swap(b): one fmsubadd and one fmaddsub of a times
        /// `one` (1.0 in every lane, opaque) with s, written in asm (see `body::pm_i`).
        unsafe fn minus_plus_i(a: Self::V, s: Self::V, one: Self::V) -> (Self::V, Self::V);
        /// 1.0 in every lane, hidden from the optimiser (see `minus_plus_i`).
        unsafe fn opaque_one() -> Self::V;
        /// L x L transpose of complex numbers: out[l] lane r = v[r] lane l (v has L registers;
        /// out's first L are written).
        unsafe fn transpose(v: &[Self::V]) -> [Self::V; 8];
        /// The complex lanes in reverse order.
        unsafe fn reverse(a: Self::V) -> Self::V;
        /// Each complex lane's real part twice.
        unsafe fn dup_re(a: Self::V) -> Self::V;
        /// Each complex lane's imaginary part twice.
        unsafe fn dup_im(a: Self::V) -> Self::V;

        unsafe fn first_stage<const R: usize, const INV: bool>(x: *const f32, y: *mut f32, n: usize, pf: &mut Prefetch);
        unsafe fn stage<const R: usize, const INV: bool>(x: *const f32, y: *mut f32, n: usize, ns: usize, tw: *const f32, pf: &mut Prefetch);
        unsafe fn in_registers<const R: usize, const INV: bool>(x: *const f32, y: *mut f32, tw: *const f32);
        unsafe fn four_step_columns<const F: usize, const INV: bool>(x: *const f32, z: *mut f32, n2: usize, rs: usize, block: *const f32, lane: *const f32);
        unsafe fn four_step_transpose<const F: usize>(z: *const f32, y: *mut f32, n2: usize, rs: usize);
        unsafe fn real_split<const INV: bool>(z: *const f32, w: *const f32, scale: f32, out: *mut f32, m: usize);
        #[allow(clippy::too_many_arguments)]
        unsafe fn column_stage<const R: usize, const INV: bool>(x: *const f32, xs: usize, y: *mut f32, ys: usize, n: usize, ns: usize, tw: *const f32, scale: f32);
    }

    /// The entry points of an `Isa` impl: each kernel of `body`, compiled with the instruction
    /// set's features (what `body` calls is inlined into them).
    macro_rules! kernel_entries {
        ($features:literal) => {
            #[target_feature(enable = $features)]
            unsafe fn first_stage<const R: usize, const INV: bool>(x: *const f32, y: *mut f32, n: usize, pf: &mut Prefetch) {
                unsafe { body::first_stage::<Self, R, INV>(x, y, n, pf) }
            }
            #[target_feature(enable = $features)]
            unsafe fn stage<const R: usize, const INV: bool>(x: *const f32, y: *mut f32, n: usize, ns: usize, tw: *const f32, pf: &mut Prefetch) {
                unsafe { body::stage::<Self, R, INV>(x, y, n, ns, tw, pf) }
            }
            #[target_feature(enable = $features)]
            unsafe fn in_registers<const R: usize, const INV: bool>(x: *const f32, y: *mut f32, tw: *const f32) {
                unsafe { body::in_registers::<Self, R, INV>(x, y, tw) }
            }
            #[target_feature(enable = $features)]
            unsafe fn four_step_columns<const F: usize, const INV: bool>(x: *const f32, z: *mut f32, n2: usize, rs: usize, block: *const f32, lane: *const f32) {
                unsafe { body::four_step_columns::<Self, F, INV>(x, z, n2, rs, block, lane) }
            }
            #[target_feature(enable = $features)]
            unsafe fn four_step_transpose<const F: usize>(z: *const f32, y: *mut f32, n2: usize, rs: usize) {
                unsafe { body::four_step_transpose::<Self, F>(z, y, n2, rs) }
            }
            #[target_feature(enable = $features)]
            unsafe fn real_split<const INV: bool>(z: *const f32, w: *const f32, scale: f32, out: *mut f32, m: usize) {
                unsafe { body::real_split::<Self, INV>(z, w, scale, out, m) }
            }
            #[target_feature(enable = $features)]
            unsafe fn column_stage<const R: usize, const INV: bool>(x: *const f32, xs: usize, y: *mut f32, ys: usize, n: usize, ns: usize, tw: *const f32, scale: f32) {
                unsafe { body::column_stage::<Self, R, INV>(x, xs, y, ys, n, ns, tw, scale) }
            }
        };
    }

    pub(super) struct Avx512;

    impl Isa for Avx512 {
        type V = __m512;
        const L: usize = 8;
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn load(p: *const f32) -> __m512 {
            unsafe { _mm512_loadu_ps(p) }
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn load_first(p: *const f32, valid: usize) -> __m512 {
            unsafe { _mm512_maskz_loadu_ps(((1u32 << (2 * valid)) - 1) as __mmask16, p) }
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn store(p: *mut f32, v: __m512) {
            unsafe { _mm512_storeu_ps(p, v) }
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn splat(x: f32) -> __m512 {
            _mm512_set1_ps(x)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn add(a: __m512, b: __m512) -> __m512 {
            _mm512_add_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn sub(a: __m512, b: __m512) -> __m512 {
            _mm512_sub_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn mul(a: __m512, b: __m512) -> __m512 {
            _mm512_mul_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn fmadd(a: __m512, b: __m512, c: __m512) -> __m512 {
            _mm512_fmadd_ps(a, b, c)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn fmsub(a: __m512, b: __m512, c: __m512) -> __m512 {
            _mm512_fmsub_ps(a, b, c)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn fnmadd(a: __m512, b: __m512, c: __m512) -> __m512 {
            _mm512_fnmadd_ps(a, b, c)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn fmaddsub(a: __m512, b: __m512, c: __m512) -> __m512 {
            _mm512_fmaddsub_ps(a, b, c)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn swap(a: __m512) -> __m512 {
            _mm512_permute_ps::<0xB1>(a)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn flip<const IMAG: bool>(a: __m512) -> __m512 {
            let sign = _mm512_set1_epi64(if IMAG { i64::MIN } else { 0x8000_0000 });
            _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), sign))
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn minus_plus_i(a: __m512, s: __m512, one: __m512) -> (__m512, __m512) {
            let (mut minus, mut plus) = (s, s);
            // SAFETY: register-only arithmetic; AVX-512F is enabled for this function.
            unsafe {
                std::arch::asm!("vfmsubadd231ps {d}, {a}, {o}", d = inout(zmm_reg) minus, a = in(zmm_reg) a, o = in(zmm_reg) one, options(pure, nomem, nostack));
                std::arch::asm!("vfmaddsub231ps {d}, {a}, {o}", d = inout(zmm_reg) plus, a = in(zmm_reg) a, o = in(zmm_reg) one, options(pure, nomem, nostack));
            }
            (minus, plus)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn opaque_one() -> __m512 {
            _mm512_set1_ps(std::hint::black_box(1.0))
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn transpose(v: &[__m512]) -> [__m512; 8] {
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
            // u[0]: rows 0-3, columns 0 and 4; u[1]: columns 2, 6; u[2]: 1, 5; u[3]: 3, 7 (rows
            // 4-7 in u[4..8]).
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
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn reverse(a: __m512) -> __m512 {
            _mm512_castpd_ps(_mm512_permutexvar_pd(_mm512_setr_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_castps_pd(a)))
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn dup_re(a: __m512) -> __m512 {
            _mm512_moveldup_ps(a)
        }
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn dup_im(a: __m512) -> __m512 {
            _mm512_movehdup_ps(a)
        }
        kernel_entries!("avx512f");
    }

    pub(super) struct Avx2;

    impl Isa for Avx2 {
        type V = __m256;
        const L: usize = 4;
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn load(p: *const f32) -> __m256 {
            unsafe { _mm256_loadu_ps(p) }
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn load_first(p: *const f32, valid: usize) -> __m256 {
            // Float lanes below 2 valid: all ones where 2 valid > lane index.
            let mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(2 * valid as i32), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            unsafe { _mm256_maskload_ps(p, mask) }
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn store(p: *mut f32, v: __m256) {
            unsafe { _mm256_storeu_ps(p, v) }
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn splat(x: f32) -> __m256 {
            _mm256_set1_ps(x)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn add(a: __m256, b: __m256) -> __m256 {
            _mm256_add_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn sub(a: __m256, b: __m256) -> __m256 {
            _mm256_sub_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn mul(a: __m256, b: __m256) -> __m256 {
            _mm256_mul_ps(a, b)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn fmadd(a: __m256, b: __m256, c: __m256) -> __m256 {
            _mm256_fmadd_ps(a, b, c)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn fmsub(a: __m256, b: __m256, c: __m256) -> __m256 {
            _mm256_fmsub_ps(a, b, c)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn fnmadd(a: __m256, b: __m256, c: __m256) -> __m256 {
            _mm256_fnmadd_ps(a, b, c)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn fmaddsub(a: __m256, b: __m256, c: __m256) -> __m256 {
            _mm256_fmaddsub_ps(a, b, c)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn swap(a: __m256) -> __m256 {
            _mm256_permute_ps::<0xB1>(a)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn flip<const IMAG: bool>(a: __m256) -> __m256 {
            let sign = _mm256_set1_epi64x(if IMAG { i64::MIN } else { 0x8000_0000 });
            _mm256_xor_ps(a, _mm256_castsi256_ps(sign))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn minus_plus_i(a: __m256, s: __m256, one: __m256) -> (__m256, __m256) {
            let (mut minus, mut plus) = (s, s);
            // SAFETY: register-only arithmetic; FMA is enabled for this function.
            unsafe {
                std::arch::asm!("vfmsubadd231ps {d}, {a}, {o}", d = inout(ymm_reg) minus, a = in(ymm_reg) a, o = in(ymm_reg) one, options(pure, nomem, nostack));
                std::arch::asm!("vfmaddsub231ps {d}, {a}, {o}", d = inout(ymm_reg) plus, a = in(ymm_reg) a, o = in(ymm_reg) one, options(pure, nomem, nostack));
            }
            (minus, plus)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn opaque_one() -> __m256 {
            _mm256_set1_ps(std::hint::black_box(1.0))
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn transpose(v: &[__m256]) -> [__m256; 8] {
            let r: [__m256d; 4] = std::array::from_fn(|i| _mm256_castps_pd(v[i]));
            // t0 = rows 0, 1 at columns 0 and 2; t1 at 1 and 3; t2, t3 the same of rows 2, 3.
            let t = [_mm256_unpacklo_pd(r[0], r[1]), _mm256_unpackhi_pd(r[0], r[1]), _mm256_unpacklo_pd(r[2], r[3]), _mm256_unpackhi_pd(r[2], r[3])];
            let out = [
                _mm256_permute2f128_pd::<0x20>(t[0], t[2]),
                _mm256_permute2f128_pd::<0x20>(t[1], t[3]),
                _mm256_permute2f128_pd::<0x31>(t[0], t[2]),
                _mm256_permute2f128_pd::<0x31>(t[1], t[3]),
            ];
            let z = _mm256_setzero_ps();
            [_mm256_castpd_ps(out[0]), _mm256_castpd_ps(out[1]), _mm256_castpd_ps(out[2]), _mm256_castpd_ps(out[3]), z, z, z, z]
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn reverse(a: __m256) -> __m256 {
            // Swap the 128-bit halves, then the two complex numbers within each.
            let h = _mm256_permute2f128_ps::<0x01>(a, a);
            _mm256_shuffle_ps::<0x4E>(h, h)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn dup_re(a: __m256) -> __m256 {
            _mm256_moveldup_ps(a)
        }
        #[inline]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn dup_im(a: __m256) -> __m256 {
            _mm256_movehdup_ps(a)
        }
        kernel_entries!("avx2,fma");
    }

    /// The kernels and their arithmetic, generic over the instruction set and always inlined
    /// into the entry points (LLVM outlined the 16-point DFT when it was merely `#[inline]`,
    /// passing the registers through memory).
    mod body {
        use super::super::Prefetch;
        use super::Isa;

        /// a * w, w given as its real parts twice each and its imaginary parts twice each.
        #[inline(always)]
        unsafe fn cmul<I: Isa>(a: I::V, wr: I::V, wi: I::V) -> I::V {
            unsafe { I::fmaddsub(a, wr, I::mul(I::swap(a), wi)) }
        }

        /// (a - i b, a + i b) in the forward direction, (a + i b, a - i b) inverse: the pair
        /// every odd DFT output comes in.
        #[inline(always)]
        unsafe fn pm_i<I: Isa, const INV: bool>(a: I::V, b: I::V, one: I::V) -> (I::V, I::V) {
            // a - i b = (a.re + b.im, a.im - b.re): fmsubadd; a + i b: fmaddsub. In asm because
            // LLVM turns the intrinsics (with a 1.0 it can see or not) into an fma, an fms and
            // two blends.
            let (minus, plus) = unsafe { I::minus_plus_i(a, I::swap(b), one) };
            if INV { (plus, minus) } else { (minus, plus) }
        }

        /// a * (-i) forward, a * i inverse.
        #[inline(always)]
        unsafe fn rot<I: Isa, const INV: bool>(a: I::V) -> I::V {
            // -i a = (a.im, -a.re): the swapped value with its imaginary part negated; i a =
            // (-a.im, a.re): its real part.
            unsafe { if INV { I::flip::<false>(I::swap(a)) } else { I::flip::<true>(I::swap(a)) } }
        }

        #[inline(always)]
        unsafe fn dft2<I: Isa>(v: &mut [I::V]) {
            let (a, b) = (v[0], v[1]);
            unsafe {
                v[0] = I::add(a, b);
                v[1] = I::sub(a, b);
            }
        }

        /// 4-point DFT of v[0], v[s], v[2 s], v[3 s], in place (natural order).
        #[inline(always)]
        unsafe fn dft4<I: Isa, const INV: bool>(v: &mut [I::V], s: usize, one: I::V) {
            unsafe {
                let t0 = I::add(v[0], v[2 * s]);
                let t1 = I::sub(v[0], v[2 * s]);
                let t2 = I::add(v[s], v[3 * s]);
                let t3 = I::sub(v[s], v[3 * s]);
                v[0] = I::add(t0, t2);
                v[2 * s] = I::sub(t0, t2);
                let (y1, y3) = pm_i::<I, INV>(t1, t3, one);
                v[s] = y1;
                v[3 * s] = y3;
            }
        }

        const SQRT_HALF: f32 = std::f32::consts::FRAC_1_SQRT_2;

        /// cos(2 pi e / 16), e = 0 .. 16.
        const COS16: [f32; 16] = [
            1.0, 0.923_879_5, SQRT_HALF, 0.382_683_43, 0.0, -0.382_683_43, -SQRT_HALF, -0.923_879_5,
            -1.0, -0.923_879_5, -SQRT_HALF, -0.382_683_43, 0.0, 0.382_683_43, SQRT_HALF, 0.923_879_5,
        ];

        /// a times w^e, w the N-th root of unity of the direction (exp(-2 pi i / N) forward),
        /// N = 8 or 16: the quarter and half turns exactly, the rest as a complex product.
        #[inline(always)]
        unsafe fn twiddle_const<I: Isa, const INV: bool>(a: I::V, e: usize, big_n: usize) -> I::V {
            let e16 = (e * 16 / big_n) % 16;
            unsafe {
                match e16 {
                    0 => a,
                    4 => rot::<I, INV>(a),
                    12 => {
                        if INV { rot::<I, false>(a) } else { rot::<I, true>(a) }
                    }
                    8 => I::sub(I::splat(0.0), a),
                    _ => {
                        let sin = COS16[(e16 + 12) % 16];
                        cmul::<I>(a, I::splat(COS16[e16]), I::splat(if INV { sin } else { -sin }))
                    }
                }
            }
        }

        /// 5-point DFT in place.
        #[inline(always)]
        unsafe fn dft5<I: Isa, const INV: bool>(v: &mut [I::V], one: I::V) {
            unsafe {
                let c1 = I::splat(0.309_017_f32); // cos(2 pi / 5)
                let c2 = I::splat(-0.809_017_f32); // cos(4 pi / 5)
                let s1 = I::splat(0.951_056_5_f32); // sin(2 pi / 5)
                let s2 = I::splat(0.587_785_24_f32); // sin(4 pi / 5)
                let t1 = I::add(v[1], v[4]);
                let t2 = I::add(v[2], v[3]);
                let t3 = I::sub(v[1], v[4]);
                let t4 = I::sub(v[2], v[3]);
                let a0 = v[0];
                v[0] = I::add(a0, I::add(t1, t2));
                let b1 = I::fmadd(c2, t2, I::fmadd(c1, t1, a0));
                let b2 = I::fmadd(c1, t2, I::fmadd(c2, t1, a0));
                let d1 = I::fmadd(s2, t4, I::mul(s1, t3));
                let d2 = I::fnmadd(s1, t4, I::mul(s2, t3));
                // Forward: X1 = b1 - i d1, X4 = b1 + i d1, X2 = b2 - i d2, X3 = b2 + i d2.
                let (x1, x4) = pm_i::<I, INV>(b1, d1, one);
                let (x2, x3) = pm_i::<I, INV>(b2, d2, one);
                v[1] = x1;
                v[2] = x2;
                v[3] = x3;
                v[4] = x4;
            }
        }

        /// The R-point DFT of `v` (R registers) in place, in natural order.
        #[inline(always)]
        unsafe fn dft<I: Isa, const INV: bool>(r: usize, v: &mut [I::V], one: I::V) {
            unsafe {
                match r {
                    2 => dft2::<I>(v),
                    4 => dft4::<I, INV>(v, 1, one),
                    5 => dft5::<I, INV>(v, one),
                    8 => {
                        // Radix 2 (decimation in frequency), then two 4-point DFTs.
                        let mut u = [v[0]; 8];
                        for k in 0..4 {
                            u[k] = I::add(v[k], v[k + 4]);
                            u[k + 4] = twiddle_const::<I, INV>(I::sub(v[k], v[k + 4]), k, 8);
                        }
                        dft4::<I, INV>(&mut u[0..], 1, one);
                        dft4::<I, INV>(&mut u[4..], 1, one);
                        // u[0..4] are outputs 0, 2, 4, 6; u[4..8] outputs 1, 3, 5, 7.
                        for p in 0..4 {
                            v[2 * p] = u[p];
                            v[2 * p + 1] = u[p + 4];
                        }
                    }
                    16 => {
                        // 4 x 4. Inputs k + 4 m: a 4-point DFT over m for each k (stride 4),
                        // twiddle w16^(k q), then a 4-point DFT over k for each q: output q + 4 p.
                        for k in 0..4 {
                            dft4::<I, INV>(&mut v[k..], 4, one);
                        }
                        for k in 1..4 {
                            for q in 1..4 {
                                v[k + 4 * q] = twiddle_const::<I, INV>(v[k + 4 * q], k * q, 16);
                            }
                        }
                        let mut u = [v[0]; 16];
                        for q in 0..4 {
                            for k in 0..4 {
                                u[4 * q + k] = v[k + 4 * q];
                            }
                            dft4::<I, INV>(&mut u[4 * q..], 1, one);
                        }
                        for q in 0..4 {
                            for p in 0..4 {
                                v[q + 4 * p] = u[4 * q + p];
                            }
                        }
                    }
                    _ => unreachable!("radix {r}"),
                }
            }
        }

        /// The first stage (Ns = 1, R = 8 or 16): butterfly j reads x[j + r m] (m = n / R) and
        /// writes y[j R + r], so a block of L butterflies writes L runs of R: the R outputs
        /// are transposed L x L in registers and stored as whole registers. A last block of
        /// fewer than L (m not a multiple of L) loads and stores only its lanes.
        ///
        /// # Safety
        /// x and y cover n complex numbers (n = R m).
        #[inline(always)]
        pub(super) unsafe fn first_stage<I: Isa, const R: usize, const INV: bool>(x: *const f32, y: *mut f32, n: usize, pf: &mut Prefetch) {
            let l_ = I::L;
            unsafe {
                let one = I::opaque_one();
                let m = n / R;
                let mut jb = 0;
                while jb < m {
                    let valid = (m - jb).min(l_);
                    // Element jb + r m + L - 1 < (r + 1) m <= n (for the valid lanes).
                    let mut v: [I::V; R] = if valid == l_ {
                        std::array::from_fn(|r| I::load(x.add(2 * (jb + r * m))))
                    } else {
                        std::array::from_fn(|r| I::load_first(x.add(2 * (jb + r * m)), valid))
                    };
                    dft::<I, INV>(R, &mut v, one);
                    for h in 0..R / l_ {
                        let t = I::transpose(&v[l_ * h..l_ * h + l_]);
                        for (l, &tl) in t.iter().enumerate().take(valid) {
                            // (jb + l) R + L h + L <= m R = n.
                            I::store(y.add(2 * ((jb + l) * R + l_ * h)), tl);
                        }
                    }
                    pf.step();
                    jb += l_;
                }
            }
        }

        /// A line of n = L R whole in registers (64 and 128 on AVX-512): the first stage (R, one
        /// block of L j), whose transposed outputs are the second stage's (radix L, Ns = R)
        /// inputs as they stand. Reads all of x before writing y, so it may run in place.
        ///
        /// # Safety
        /// x and y cover L R complex numbers; tw is the second stage's table.
        #[inline(always)]
        pub(super) unsafe fn in_registers<I: Isa, const R: usize, const INV: bool>(x: *const f32, y: *mut f32, tw: *const f32) {
            let l_ = I::L;
            unsafe {
                let one = I::opaque_one();
                let mut v: [I::V; R] = std::array::from_fn(|r| I::load(x.add(2 * l_ * r)));
                dft::<I, INV>(R, &mut v, one);
                for h in 0..R / l_ {
                    // t[r] holds x2[L h + R r + l] (lane l): the second stage's block of k = L h.
                    let mut t = I::transpose(&v[l_ * h..l_ * h + l_]);
                    for (r, tr) in t.iter_mut().enumerate().take(l_).skip(1) {
                        let w = tw.add((h * (l_ - 1) + r - 1) * 4 * l_);
                        *tr = cmul::<I>(*tr, I::load(w), I::load(w.add(2 * l_)));
                    }
                    dft::<I, INV>(l_, &mut t[..l_], one);
                    for (r, &tr) in t.iter().enumerate().take(l_) {
                        I::store(y.add(2 * (l_ * h + r * R)), tr);
                    }
                }
            }
        }

        /// A later stage (Ns a multiple of L): butterflies j = jb .. jb + L share j / Ns, so
        /// their reads and writes are whole registers.
        ///
        /// # Safety
        /// x and y cover n complex numbers; tw is the stage's table (ns / L * (R - 1) * 4 L
        /// floats).
        #[inline(always)]
        pub(super) unsafe fn stage<I: Isa, const R: usize, const INV: bool>(x: *const f32, y: *mut f32, n: usize, ns: usize, tw: *const f32, pf: &mut Prefetch) {
            let l_ = I::L;
            unsafe {
                let one = I::opaque_one();
                let m = n / R;
                // j = q ns + k: blocks q of the sub-transforms done so far, k within them (ns <= m,
                // both multiples of L).
                for q in 0..m / ns {
                    for k0 in (0..ns).step_by(l_) {
                        let jb = q * ns + k0;
                        // jb + L <= m, so every read is below n; q ns R + k0 + r ns + L <= n;
                        // the twiddle block k0 / L is in the table.
                        let src = x.add(2 * jb);
                        let mut v: [I::V; R] = std::array::from_fn(|r| I::load(src.add(2 * r * m)));
                        let t = tw.add(k0 / l_ * (R - 1) * 4 * l_);
                        for (r, vr) in v.iter_mut().enumerate().skip(1) {
                            let w = t.add((r - 1) * 4 * l_);
                            *vr = cmul::<I>(*vr, I::load(w), I::load(w.add(2 * l_)));
                        }
                        dft::<I, INV>(R, &mut v, one);
                        let dst = y.add(2 * (q * ns * R + k0));
                        for (r, &vr) in v.iter().enumerate() {
                            I::store(dst.add(2 * r * ns), vr);
                        }
                        pf.step();
                    }
                }
            }
        }

        /// The four-step's first step: for each j < n2, the F-point DFT over x[j + n2 r], output
        /// k1 times w^(j k1), into z[k1 rs + j] (row k1, rows rs apart). The twiddle of lane l in
        /// block j0 is w^(j0 k1) w^(l k1): a table of n2 / L x (F - 1) complex numbers, not
        /// n2 x (F - 1).
        ///
        /// # Safety
        /// x covers F n2 complex numbers (n2 a multiple of L), z F rs (rs >= n2); the tables
        /// are `FourStep`'s.
        #[inline(always)]
        pub(super) unsafe fn four_step_columns<I: Isa, const F: usize, const INV: bool>(x: *const f32, z: *mut f32, n2: usize, rs: usize, block: *const f32, lane: *const f32) {
            let l_ = I::L;
            unsafe {
                let one = I::opaque_one();
                for jb in (0..n2).step_by(l_) {
                    // jb + L <= n2, so every access is below F n2; block jb / L is in the table.
                    let src = x.add(2 * jb);
                    let mut v: [I::V; F] = std::array::from_fn(|r| I::load(src.add(2 * r * n2)));
                    dft::<I, INV>(F, &mut v, one);
                    let b = block.add(jb / l_ * 2 * (F - 1));
                    for (k1, vk) in v.iter_mut().enumerate().skip(1) {
                        let (br, bi) = (I::splat(*b.add(2 * (k1 - 1))), I::splat(*b.add(2 * (k1 - 1) + 1)));
                        let l = lane.add((k1 - 1) * 4 * l_);
                        let (lr, li) = (I::load(l), I::load(l.add(2 * l_)));
                        // w = lane * block, in the doubled form cmul takes.
                        let wr = I::fmsub(lr, br, I::mul(li, bi));
                        let wi = I::fmadd(lr, bi, I::mul(li, br));
                        *vk = cmul::<I>(*vk, wr, wi);
                    }
                    let dst = z.add(2 * jb);
                    for (k1, &vk) in v.iter().enumerate() {
                        I::store(dst.add(2 * k1 * rs), vk);
                    }
                }
            }
        }

        /// The four-step's last step: row k1 of z (rows rs apart) holds X[k1 + F k2] (k2 < n2);
        /// y[k1 + F k2] takes it, L k2 at a time through two transposes of L x L (F = 2 L).
        ///
        /// # Safety
        /// z covers F rs complex numbers, y F n2, and they do not overlap.
        #[inline(always)]
        pub(super) unsafe fn four_step_transpose<I: Isa, const F: usize>(z: *const f32, y: *mut f32, n2: usize, rs: usize) {
            let l_ = I::L;
            for kb in (0..n2).step_by(l_) {
                // kb + L <= n2: reads below F n2; writes F (kb + l) + F <= F n2.
                unsafe {
                    let v: [I::V; F] = std::array::from_fn(|k1| I::load(z.add(2 * (k1 * rs + kb))));
                    // F = 2 L on both instruction sets: two transposes, whose outputs l are one
                    // run of F each, stored in address order.
                    let (lo, hi) = (I::transpose(&v[..l_]), I::transpose(&v[l_..]));
                    for l in 0..l_ {
                        let out = y.add(2 * F * (kb + l));
                        I::store(out, lo[l]);
                        I::store(out.add(2 * l_), hi[l]);
                    }
                }
            }
        }

        /// `super::super::real_split`'s loop: L outputs j at a time, Z[m - j] read as a
        /// register ending at m - j and reversed; the last few j (fewer than L) in scalar code.
        ///
        /// # Safety
        /// z and w cover m complex numbers, out m.
        #[inline(always)]
        pub(super) unsafe fn real_split<I: Isa, const INV: bool>(z: *const f32, w: *const f32, scale: f32, out: *mut f32, m: usize) {
            let l_ = I::L;
            let mut j = 1;
            unsafe {
                let h = I::splat(scale);
                while j + l_ <= m {
                    // Z[j .. j + L] and Z[m - j - L + 1 ..= m - j] (reversed: lane l is
                    // Z[m - j - l]); both within 1 .. m.
                    let a = I::load(z.add(2 * j));
                    let c = I::flip::<true>(I::reverse(I::load(z.add(2 * (m - j - l_ + 1)))));
                    let (sum, dif) = (I::add(a, c), I::sub(a, c));
                    let wv = I::load(w.add(2 * j));
                    // Forward: sum - i (w B); inverse: sum + i (conj(w) B).
                    let wi = if INV { I::sub(I::splat(0.0), I::dup_im(wv)) } else { I::dup_im(wv) };
                    let t = cmul::<I>(dif, I::dup_re(wv), wi);
                    I::store(out.add(2 * j), I::mul(h, I::add(sum, rot::<I, INV>(t))));
                    j += l_;
                }
                for j in j..m {
                    let (ar, ai) = (*z.add(2 * j), *z.add(2 * j + 1));
                    let (cr, ci) = (*z.add(2 * (m - j)), *z.add(2 * (m - j) + 1));
                    let (wr, wi) = (*w.add(2 * j), *w.add(2 * j + 1));
                    let (sum_re, sum_im) = (ar + cr, ai - ci);
                    let (dif_re, dif_im) = (ar - cr, ai + ci);
                    let (re, im) = if INV {
                        (sum_re + wi * dif_re - wr * dif_im, sum_im + wi * dif_im + wr * dif_re)
                    } else {
                        (sum_re + wi * dif_re + wr * dif_im, sum_im + wi * dif_im - wr * dif_re)
                    };
                    *out.add(2 * j) = scale * re;
                    *out.add(2 * j + 1) = scale * im;
                }
            }
        }

        /// A column FFT stage on one register column (L lines): element e at `x + e xs` (floats),
        /// butterfly j < m = n / R reads elements j + r m, multiplies by w^(r k) (k = j mod Ns;
        /// broadcast, the same for every lane), takes the R-point DFT and writes element
        /// (j - k) R + k + r Ns at `y + e ys`, times `scale` unless it is 1.
        ///
        /// # Safety
        /// x and y cover n elements at their strides; tw is the stage's table.
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        pub(super) unsafe fn column_stage<I: Isa, const R: usize, const INV: bool>(x: *const f32, xs: usize, y: *mut f32, ys: usize, n: usize, ns: usize, tw: *const f32, scale: f32) {
            unsafe {
                let one = I::opaque_one();
                let (scaled, sc) = (scale != 1.0, I::splat(scale));
                let m = n / R;
                for q in 0..m / ns {
                    for k in 0..ns {
                        let j = q * ns + k;
                        // The step's register columns one after the other at the same rows, so
                        // that a row's whole run of lanes is read while it is in L1.
                        for c in 0..crate::lines::COLUMN_STEP / I::L {
                            let (x, y) = (x.add(2 * c * I::L), y.add(2 * c * I::L));
                            let mut v: [I::V; R] = std::array::from_fn(|r| I::load(x.add((j + r * m) * xs)));
                            if k > 0 {
                                let t = tw.add(2 * k * (R - 1));
                                for (r, vr) in v.iter_mut().enumerate().skip(1) {
                                    *vr = cmul::<I>(*vr, I::splat(*t.add(2 * (r - 1))), I::splat(*t.add(2 * (r - 1) + 1)));
                                }
                            }
                            dft::<I, INV>(R, &mut v, one);
                            let out = y.add((q * ns * R + k) * ys);
                            for (r, &vr) in v.iter().enumerate() {
                                I::store(out.add(r * ns * ys), if scaled { I::mul(sc, vr) } else { vr });
                            }
                        }
                    }
                }
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

    /// The instruction sets this CPU can run the kernels on (whatever the switches say).
    fn widths_here() -> Vec<Width> {
        let mut out = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                out.push(Width::Avx512);
            }
            if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
                out.push(Width::Avx2);
            }
        }
        out
    }

    #[test]
    fn radices_cover_their_lengths() {
        let avx512 = [(64, &[8, 8][..]), (128, &[16, 8]), (512, &[16, 16, 2]), (1024, &[16, 16, 4]), (2048, &[16, 8, 16]), (1000, &[8, 5, 5, 5]), (80, &[16, 5])];
        let avx2 = [(64, &[16, 4][..]), (128, &[16, 8]), (256, &[16, 16]), (512, &[8, 8, 8]), (1024, &[16, 8, 8]), (2048, &[16, 8, 16]), (4096, &[8, 8, 8, 8]), (8192, &[16, 8, 8, 8]), (1 << 14, &[16, 8, 8, 16]), (1000, &[8, 5, 5, 5]), (80, &[16, 5])];
        for (width, table) in [(Width::Avx512, &avx512[..]), (Width::Avx2, &avx2[..])] {
            for &(n, want) in table {
                assert_eq!(radices(n, width).as_deref(), Some(want), "{width:?} {n}");
            }
            for n in [64, 128, 256, 512, 1024, 2048, 4096, 8192, 1 << 16, 1000, 200, 320, 640, 8000, 80, 160] {
                let r = radices(n, width).unwrap_or_else(|| panic!("{width:?} {n}"));
                assert_eq!(r.iter().product::<usize>(), n, "{width:?} {n}: {r:?}");
                assert!(matches!(r[0], 8 | 16), "{width:?} {n}: {r:?}");
                // (AVX2: 16s only first and last, so a length takes at most two.)
                assert!(width == Width::Avx512 || r[1..r.len() - 1].iter().all(|&x| x <= 8), "{width:?} {n}: {r:?}");
            }
            for n in [0, 8, 32, 48, 96 * 3, 1001, 4099, 1 << 17] {
                assert!(radices(n, width).is_none(), "{width:?} {n}");
            }
        }
        if width() == Some(Width::Avx2) {
            assert!(LineFft::new(8192, false).is_none() && LineFft::new(4096, false).is_some());
            // (On AMD, RustFFT's AVX2 kernels take the power-of-two lines under 1024.)
            assert_eq!(LineFft::new(256, false).is_none(), cpu_is_amd());
            assert!(LineFft::new(1000, false).is_some() && LineFft::new(1024, false).is_some());
        }
        assert!(!avx2_short_lines_to_rustfft(200) && !avx2_short_lines_to_rustfft(1024));
        for width in widths_here() {
            // Longer lines stay with RustFFT (the four-step would take them, unmeasured).
            assert!(LineFft::with_width(1 << 17, false, width).is_none());
            assert!(LineFft::with_width(1 << 16, false, width).is_some_and(|f| f.four_step.is_some()));
        }
    }

    /// Every length of the form up to 4096 and a few longer, on every instruction set the CPU
    /// has, both directions, in and out of place (NaN in the output and scratch first), two
    /// lines, against an f64 FFT: every bin within eps max|X| ln n (X the reference output),
    /// rocFFT's form of bound, with eps = 1e-7 (about f32's epsilon, not rocFFT's 3.75e-5; the
    /// worst seen is a quarter of it, at 256 and 400; `LINES_ERR=1` prints each length's).
    #[test]
    fn lines_match_the_dft() {
        let widths = widths_here();
        if widths.is_empty() {
            eprintln!("skipped: no AVX2 or AVX-512 on this CPU");
            return;
        }
        for width in widths {
            let lengths: Vec<usize> = (64..=4096).filter(|&n| radices(n, width).is_some()).chain([8000, 8192, 16384, 32768, 65536]).collect();
            assert!(lengths.len() > 15);
            for &n in &lengths {
                for inverse in [false, true] {
                    let fft = LineFft::with_width(n, inverse, width).unwrap();
                    check_against_reference(&fft, &format!("{width:?} {n} {inverse}"));
                }
            }
        }
    }

    fn check_against_reference(fft: &LineFft, what: &str) {
        let (n, inverse) = (fft.n, fft.inverse);
        let count = 2;
        let x: Vec<Complex<f64>> = (0..n * count).map(|i| Complex::new(((i * 7919) % 1009) as f64 / 1009.0 - 0.5, ((i * 104729) % 997) as f64 / 997.0 - 0.5)).collect();
        let xf: Vec<Complex<f32>> = x.iter().map(|c| Complex::new(c.re as f32, c.im as f32)).collect();
        let nan = Complex::new(f32::NAN, f32::NAN);
        let mut out = vec![nan; n * count];
        let mut inplace = xf.clone();
        let mut scratch = vec![nan; fft.get_immutable_scratch_len()];
        fft.process_immutable_with_scratch(&xf, &mut out, &mut scratch);
        fft.process_with_scratch(&mut inplace, &mut scratch);
        assert_eq!(out, inplace, "{what}: in place differs");
        // The output 16 bytes past a cache line (long lines then keep their middle stages in the
        // scratch, `VIA_SCRATCH_MIN`), and the scratch 8 bytes past one (long lines move it to
        // the next line, `ALIGN_SLACK`).
        let mut shifted = vec![nan; n * count + 16];
        let mut scratch = vec![nan; fft.get_immutable_scratch_len() + 8];
        let (o, s) = (to_cache_line(shifted.as_ptr()) + 2, to_cache_line(scratch.as_ptr()) + 1);
        fft.process_immutable_with_scratch(&xf, &mut shifted[o..o + n * count], &mut scratch[s..]);
        assert_eq!(out, shifted[o..o + n * count], "{what}: off a cache line, differs");
        for l in 0..count {
            let want = reference(&x[l * n..(l + 1) * n], inverse);
            let norm = want.iter().map(|c| c.norm()).fold(0.0, f64::max);
            let tol = 1e-7 * norm * (n as f64).ln();
            let worst = (0..n).map(|k| (Complex::new(out[l * n + k].re as f64, out[l * n + k].im as f64) - want[k]).norm()).fold(0.0, f64::max);
            if std::env::var_os("LINES_ERR").is_some() {
                eprintln!("{what}: worst error / bound {:.3}", worst / tol);
            }
            for k in 0..n {
                let got = Complex::new(out[l * n + k].re as f64, out[l * n + k].im as f64);
                assert!((got - want[k]).norm() <= tol, "{what} line {l} bin {k}: {got} vs {}", want[k]);
            }
        }
    }

    /// The even-real split and its inverse on every instruction set here against the formula in
    /// f64, at m = 1 .. 40 (every tail length) and 64; `out[0]` is left as it was.
    #[test]
    fn real_split_matches_the_formula() {
        for width in widths_here() {
            for inverse in [false, true] {
                for m in (1..=40).chain([64]) {
                    let z: Vec<Complex<f32>> = (0..m).map(|i| Complex::new(((i * 37) % 11) as f32 - 5.0, ((i * 53) % 7) as f32 - 3.0)).collect();
                    let w: Vec<Complex<f32>> = (0..m).map(|j| root(j, 2 * m, false)).map(|(c, s)| Complex::new(c, s)).collect();
                    let scale = 0.375f32;
                    let mut out = vec![Complex::new(f32::NAN, f32::NAN); m];
                    let (zp, wp, op) = (z.as_ptr() as *const f32, w.as_ptr() as *const f32, out.as_mut_ptr() as *mut f32);
                    // SAFETY: the CPU has `width` (widths_here); z, w and out hold m.
                    unsafe {
                        match (width, inverse) {
                            (Width::Avx512, false) => <simd::Avx512 as simd::Isa>::real_split::<false>(zp, wp, scale, op, m),
                            (Width::Avx512, true) => <simd::Avx512 as simd::Isa>::real_split::<true>(zp, wp, scale, op, m),
                            (Width::Avx2, false) => <simd::Avx2 as simd::Isa>::real_split::<false>(zp, wp, scale, op, m),
                            (Width::Avx2, true) => <simd::Avx2 as simd::Isa>::real_split::<true>(zp, wp, scale, op, m),
                        }
                    }
                    assert!(out[0].re.is_nan(), "{width:?} {inverse} {m}: wrote out[0]");
                    let c64 = |v: Complex<f32>| Complex::new(v.re as f64, v.im as f64);
                    for j in 1..m {
                        let (a, c, wj) = (c64(z[j]), c64(z[m - j]).conj(), c64(w[j]));
                        let turn = if inverse { wj.conj() * Complex::new(0.0, 1.0) } else { wj * Complex::new(0.0, -1.0) };
                        let want = (a + c + turn * (a - c)) * scale as f64;
                        let got = c64(out[j]);
                        assert!((got - want).norm() <= 1e-5 * (1.0 + want.norm()), "{width:?} {inverse} {m} {j}: {got} vs {want}");
                    }
                }
            }
        }
    }

    /// The interleaved column FFTs on every instruction set here, every length they take
    /// (2^a 5^b, 2 to 1024), both directions, in and out of place, with a scale, against the f64
    /// FFT of each line: 16 lines with an element stride of 20 (complex), NaN in the gaps and the
    /// scratch; the gaps must stay NaN.
    #[test]
    fn columns_match_the_dft() {
        for width in widths_here() {
            for n in (2..=crate::columns::MAX_LEN).filter(|&n| { let mut m = n; while m % 5 == 0 { m /= 5 } m.is_power_of_two() }) {
                for inverse in [false, true] {
                    let Some(mut plan) = LineColumns::new(n, inverse) else { panic!("{n}") };
                    plan.width = width;
                    let (lanes, stride) = (16, 20);
                    let x: Vec<Complex<f64>> = (0..n * lanes).map(|i| Complex::new(((i * 7919) % 1009) as f64 / 1009.0 - 0.5, ((i * 104729) % 997) as f64 / 997.0 - 0.5)).collect();
                    let nan = Complex::new(f32::NAN, f32::NAN);
                    let mut src = vec![nan; n * stride];
                    for j in 0..n {
                        for l in 0..lanes {
                            let v = x[l * n + j];
                            src[j * stride + l] = Complex::new(v.re as f32, v.im as f32);
                        }
                    }
                    let mut scratch = vec![f32::NAN; plan.scratch_len()];
                    let mut out = vec![nan; n * stride];
                    let mut inplace = src.clone();
                    let scale = 0.5f32;
                    // SAFETY: n rows of `stride` complex numbers each side hold the 16 lines.
                    unsafe {
                        plan.transform(src.as_ptr() as *const f32, stride, out.as_mut_ptr() as *mut f32, stride, lanes, scale, &mut scratch);
                        let p = inplace.as_mut_ptr() as *mut f32;
                        plan.transform(p, stride, p, stride, lanes, scale, &mut scratch);
                    }
                    let same = out.iter().zip(&inplace).all(|(a, b)| a == b || (a.re.is_nan() && b.re.is_nan()));
                    assert!(same, "{width:?} {n} {inverse}: in place differs");
                    for l in 0..lanes {
                        let want = reference(&x[l * n..(l + 1) * n], inverse);
                        let norm = want.iter().map(|c| c.norm()).fold(0.0, f64::max) * scale as f64;
                        let tol = 1e-7 * norm * (n as f64).ln().max(1.0);
                        for (k, w) in want.iter().enumerate() {
                            let got = out[k * stride + l];
                            let got = Complex::new(got.re as f64, got.im as f64);
                            assert!((got - w * scale as f64).norm() <= tol, "{width:?} {n} {inverse} line {l} bin {k}: {got} vs {}", w * scale as f64);
                        }
                    }
                    assert!((0..n).all(|j| (lanes..stride).all(|g| out[j * stride + g].re.is_nan())), "{width:?} {n} {inverse}: wrote a gap");
                }
            }
        }
    }

    /// Micro-benchmark: us a line, hot (16 lines) and cold (1024), against RustFFT, with the
    /// input and output on a cache-line boundary (`LINES_SPEED_OFFSET=2`: 16 bytes past one, as
    /// the bench's buffers are). It can disagree with the bench: stage pairs fused into one pass
    /// (on aligned buffers) and a decimation-in-time four-step (cold) were faster here and
    /// slower in the bench (sixty-sixth session, `benches/results/2026-11-21-cpu-fft.md`).
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
                // From a 64-byte boundary, plus `LINES_SPEED_OFFSET` complex numbers (2: 16 bytes
                // past one, where a large Vec's heap block starts).
                let off = std::env::var("LINES_SPEED_OFFSET").ok().and_then(|v| v.parse().ok()).unwrap_or(0usize);
                let from_line = |v: &[Complex<f32>]| to_cache_line(v.as_ptr()) + off;
                let xv: Vec<Complex<f32>> = (0..n * count + 16).map(|i| Complex::new((i % 13) as f32, (i % 7) as f32)).collect();
                let xc = &xv[from_line(&xv)..][..n * count];
                let mut yv = vec![Complex::new(0f32, 0.0); n * count + 16];
                let y0 = from_line(&yv);
                let y = &mut yv[y0..][..n * count];
                let mut scratch = vec![Complex::new(0f32, 0.0); fft.get_immutable_scratch_len()];
                let mut yc = vec![Complex::new(0f32, 0.0); n * count];
                let mut rs = vec![Complex::new(0f32, 0.0); r.get_immutable_scratch_len()];
                let reps = (1 << 24) / (n * count) + 1;
                let mut best = (f64::MAX, f64::MAX);
                for _ in 0..5 {
                    let t = std::time::Instant::now();
                    for _ in 0..reps {
                        fft.process_immutable_with_scratch(xc, y, &mut scratch);
                    }
                    best.0 = best.0.min(t.elapsed().as_secs_f64() / (reps * count) as f64 * 1e6);
                    let t = std::time::Instant::now();
                    for _ in 0..reps {
                        r.process_immutable_with_scratch(xc, &mut yc, &mut rs);
                    }
                    best.1 = best.1.min(t.elapsed().as_secs_f64() / (reps * count) as f64 * 1e6);
                }
                println!("{n:6} x {count:5}: ours {:.3} us, RustFFT {:.3} us, ratio {:.3}", best.0, best.1, best.1 / best.0);
            }
        }
    }
}
