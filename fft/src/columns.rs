//! Column FFTs for the CPU path's strided passes.
//!
//! A strided pass (the second and third dimensions of a packed multi-dimensional transform) has
//! neighbouring lines next to each other in memory: element j of lines l .. l + LANES is one
//! contiguous run. Gathering each line into contiguous memory for RustFFT takes a block
//! transpose in and one out, which cost as much as the FFTs themselves (64^3 c2c, Sapphire Rapids:
//! 40 % of the time). Here the run is copied as it is into row j of a planar block (real and
//! imaginary parts in separate arrays), and a Stockham FFT runs down the columns: every butterfly
//! is the same arithmetic on LANES lanes, which the compiler turns into vector instructions
//! (AVX-512 or AVX2 where the CPU has them, chosen at run time). FFTW's vector-rank codelets do
//! the same.
//!
//! Lengths whose factors are all 2, 3 and 5, up to [`MAX_LEN`]; radix 8 first where the CPU
//! has AVX-512 ([`radix_8_pays`]), then 4 (an 8 and a 2 left over become two 4s).
use num_complex::Complex;
use num_traits::{Float, FromPrimitive};
use std::sync::OnceLock;

/// Whether the column passes take radix 8 before 4. A radix-R butterfly holds R rows of LANES
/// complex lanes, 2 R LANES / (lanes per vector register) registers: radix 8 in f32 is 16 of
/// AVX-512's 32 registers, but 32 of AVX2's 16 (and 64 in f64), which spill. Measured on an AVX2
/// EPYC (benches/results/2026-11-21-cpu-fft.md, thirty-sixth session), radix 4 throughout ran
/// 64^3 c2c 8 % faster in f32 and 25 % in f64 on one thread, r2c 128^3 the same. AVX-512 keeps
/// radix 8, as measured on Sapphire Rapids when the column FFTs were built.
/// `ROCMATH_CPU_FFT_RADIX8` (`0` or `1`) overrides it, for A/B.
fn radix_8_pays() -> bool {
    static PAYS: OnceLock<bool> = OnceLock::new();
    *PAYS.get_or_init(|| match std::env::var("ROCMATH_CPU_FFT_RADIX8").as_deref() {
        Ok("0") => false,
        Ok("1") => true,
        _ => has_avx512(),
    })
}

/// Whether the CPU path's FFT kernels (these and `lines.rs`) use AVX-512: the CPU has it and
/// `ROCMATH_CPU_FFT_ISA=avx2` does not cap them at AVX2 (to measure the AVX2 builds, as an
/// AVX2-only CPU runs them, on an AVX-512 machine).
pub(crate) fn has_avx512() -> bool {
    static AVX512: OnceLock<bool> = OnceLock::new();
    *AVX512.get_or_init(|| {
        let capped = std::env::var("ROCMATH_CPU_FFT_ISA").is_ok_and(|v| v == "avx2");
        #[cfg(target_arch = "x86_64")]
        {
            !capped && std::arch::is_x86_feature_detected!("avx512f")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = capped;
            false
        }
    })
}

/// Lines per block: each row of a block holds one element of this many lines.
pub(crate) const LANES: usize = 16;
/// Lanes a butterfly works on at a time on AVX2 (one f32 register a row's real or imaginary
/// part; two in f64): the block's 16 lanes in two halves, so that a radix-4 butterfly's rows fit
/// the 16 registers, and [`Rows`] loads and stores a half-row with whole-register shuffles (the
/// lines' side does: `cpu::NativeRows`). AVX-512 takes all 16 lanes at once; other CPUs 4.
pub(crate) const AVX2_CHUNK: usize = 8;
/// The longest column transform: a block and its scratch (4 x n x LANES scalars) stay in L2.
pub(crate) const MAX_LEN: usize = 1024;

/// Where a block's rows come from and go to. Implementations mark both methods
/// `#[inline(always)]`, so that they are compiled with the passes (closures would not be).
pub(crate) trait Rows<F> {
    /// Fills lanes `l0 .. l0 + C` of row j: element j of those lines (`l0` a multiple of C).
    fn load<const C: usize>(&mut self, j: usize, l0: usize, re: &mut [F; C], im: &mut [F; C]);
    /// Takes lanes `l0 .. l0 + C` of row j of the result.
    fn store<const C: usize>(&mut self, j: usize, l0: usize, re: &[F; C], im: &[F; C]);
}

/// One Stockham pass: radix `radix` over `ns`-point transforms already done.
struct Pass<F> {
    radix: usize,
    ns: usize,
    /// w^(r k) for k < ns and r = 1 .. radix - 1 at `k * (radix - 1) + r - 1`, with
    /// w = exp(-+2 pi i / (ns radix)) (minus forward, plus inverse).
    tw: Vec<Complex<F>>,
}

/// A plan: the passes of one length and direction.
pub(crate) struct ColumnFft<F> {
    n: usize,
    /// 1 forward, -1 inverse: the sign of the sines in the butterflies.
    dir: F,
    passes: Vec<Pass<F>>,
    /// For f32 where the line kernels run and n is 2^a 5^b: the same transform on interleaved
    /// lines, one register an element (`lines::LineColumns`), which the CPU path takes instead
    /// of the passes for blocks of its own type.
    interleaved: Option<crate::lines::LineColumns>,
}

impl<F: Float + FromPrimitive + 'static> ColumnFft<F> {
    /// The plan for length `n`, or `None` if `n` is not a product of 2, 3 and 5 in 2 ..= MAX_LEN.
    pub(crate) fn new(n: usize, inverse: bool) -> Option<ColumnFft<F>> {
        Self::with_radix_8(n, inverse, radix_8_pays())
    }

    /// [`Self::new`] with radix 8 taken first (`radix_8`) or not at all.
    fn with_radix_8(n: usize, inverse: bool, radix_8: bool) -> Option<ColumnFft<F>> {
        if !(2..=MAX_LEN).contains(&n) {
            return None;
        }
        let mut radices = Vec::new();
        let mut m = n;
        let order: &[usize] = if radix_8 { &[8, 4, 2, 3, 5] } else { &[4, 2, 3, 5] };
        for &r in order {
            while m % r == 0 {
                radices.push(r);
                m /= r;
            }
        }
        if m != 1 {
            return None;
        }
        // An 8 and a 2 as two 4s, in their places: as many passes, none of radix 2, and the last
        // pass (of 128: 8 8 2 -> 4 8 4) takes the block's stores (`transform_with`). Measured on
        // an AVX-512 Xeon, in turns: c2c 128^3 7.85-8.08 -> 7.26-7.71 ms on one thread; r2c 128^3
        // level on one, 7 % faster on two (benches/results/2026-11-21-cpu-fft.md, fifty-ninth
        // session).
        if let (Some(i8), Some(i2)) = (radices.iter().position(|&r| r == 8), radices.iter().position(|&r| r == 2)) {
            radices[i8] = 4;
            radices[i2] = 4;
        }
        let sign = if inverse { 1.0 } else { -1.0 };
        let mut ns = 1;
        let passes = radices
            .into_iter()
            .map(|radix| {
                let span = ns * radix;
                let tw = (0..ns)
                    .flat_map(|k| (1..radix).map(move |r| (k, r)))
                    .map(|(k, r)| {
                        // In f64 from the exact fraction (r k mod span) / span, rounded once.
                        let (s, c) = (sign * 2.0 * std::f64::consts::PI * ((r * k) % span) as f64 / span as f64).sin_cos();
                        Complex::new(F::from_f64(c).unwrap(), F::from_f64(s).unwrap())
                    })
                    .collect();
                let pass = Pass { radix, ns, tw };
                ns = span;
                pass
            })
            .collect();
        let interleaved = if std::any::TypeId::of::<F>() == std::any::TypeId::of::<f32>() { crate::lines::LineColumns::new(n, inverse) } else { None };
        Some(ColumnFft { n, dir: F::from_f64(if inverse { -1.0 } else { 1.0 }).unwrap(), passes, interleaved })
    }

    pub(crate) fn len(&self) -> usize {
        self.n
    }

    /// The interleaved form of this transform, where there is one (f32 only).
    pub(crate) fn interleaved(&self) -> Option<&crate::lines::LineColumns> {
        self.interleaved.as_ref()
    }

    /// Transforms one block of up to `LANES` lines: `io.load(j, ..)` fills row j (element j of
    /// every line, real and imaginary parts; a chunk of lanes a call), the columns are
    /// transformed, and `io.store(j, ..)` takes row j of the result. `scratch` holds at least `4 * n * LANES` scalars. The loads, the
    /// passes and the stores are compiled together for the CPU's vector extensions (AVX-512 or
    /// AVX2, chosen at run time), so that the copies in and out vectorise too.
    pub(crate) fn transform<IO: Rows<F>>(&self, scratch: &mut [F], io: &mut IO) {
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx512() {
                // SAFETY: the CPU has the features.
                return unsafe { self.transform_avx512(scratch, io) };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has the features.
                return unsafe { self.transform_avx2(scratch, io) };
            }
        }
        self.transform_with::<IO, 4>(scratch, io)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn transform_avx512<IO: Rows<F>>(&self, scratch: &mut [F], io: &mut IO) {
        self.transform_with::<IO, LANES>(scratch, io)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn transform_avx2<IO: Rows<F>>(&self, scratch: &mut [F], io: &mut IO) {
        self.transform_with::<IO, AVX2_CHUNK>(scratch, io)
    }

    /// The passes, with the block's loads fused into the first (each row of the block feeds
    /// exactly one of its butterflies) and, with two passes or more, its stores into the last
    /// (each result row comes out of exactly one): so the rows go from the lines into registers
    /// and back without a copy through the planar scratch at each end (callgrind, AVX2 build,
    /// instructions in the column transforms of 64^3 c2c: -16 %). A single pass stores to
    /// scratch first: in place, its stores would overwrite rows that later butterflies load. So
    /// does a last pass of radix 2: fused, r2c 128^3 (8 x 8 x 2) took 4 % more instructions than
    /// with no fusion, for a reason not found.
    #[inline(always)]
    fn transform_with<IO: Rows<F>, const C: usize>(&self, scratch: &mut [F], io: &mut IO) {
        let block = self.n * LANES;
        let (ar, rest) = scratch[..4 * block].split_at_mut(block);
        let (ai, rest) = rest.split_at_mut(block);
        let (br, bi) = rest.split_at_mut(block);
        let last = self.passes.len() - 1;
        let fuse_stores = last > 0 && self.passes[last].radix >= 4;
        for (idx, p) in self.passes.iter().enumerate() {
            // Pass idx writes buffer a when idx is even, b when odd, and reads the other.
            let (xr, xi, yr, yi) = if idx % 2 == 0 { (&*br, &*bi, &mut *ar, &mut *ai) } else { (&*ar, &*ai, &mut *br, &mut *bi) };
            // (the first pass, over 1-point transforms, has only unit twiddles)
            if idx == 0 {
                pass_of_radix::<F, C, false, _, _>(p, self.n, self.dir, &mut Loads(&mut *io), &mut Planar { re: yr, im: yi });
            } else if idx == last && fuse_stores {
                pass_of_radix::<F, C, true, _, _>(p, self.n, self.dir, &mut PlanarIn { re: xr, im: xi }, &mut Stores(&mut *io));
            } else {
                pass_of_radix::<F, C, true, _, _>(p, self.n, self.dir, &mut PlanarIn { re: xr, im: xi }, &mut Planar { re: yr, im: yi });
            }
        }
        if !fuse_stores {
            let (yr, yi): (&[F], &[F]) = if last % 2 == 0 { (ar, ai) } else { (br, bi) };
            for j in 0..self.n {
                for l0 in (0..LANES).step_by(C) {
                    io.store::<C>(j, l0, chunk(yr, j, l0), chunk(yi, j, l0));
                }
            }
        }
    }
}

/// Where a pass takes its rows from: a planar buffer, or the block's lines.
/// (Lanes `l0 .. l0 + C` of row `i`.)
trait RowSource<F> {
    fn get<const C: usize>(&mut self, i: usize, l0: usize) -> ([F; C], [F; C]);
}
/// Where a pass puts its rows: a planar buffer, or the block's lines.
trait RowSink<F> {
    fn put<const C: usize>(&mut self, i: usize, l0: usize, re: &[F; C], im: &[F; C]);
}

struct PlanarIn<'a, F> {
    re: &'a [F],
    im: &'a [F],
}
impl<F: Copy> RowSource<F> for PlanarIn<'_, F> {
    #[inline(always)]
    fn get<const C: usize>(&mut self, i: usize, l0: usize) -> ([F; C], [F; C]) {
        (*chunk(self.re, i, l0), *chunk(self.im, i, l0))
    }
}
struct Planar<'a, F> {
    re: &'a mut [F],
    im: &'a mut [F],
}
impl<F: Copy> RowSink<F> for Planar<'_, F> {
    #[inline(always)]
    fn put<const C: usize>(&mut self, i: usize, l0: usize, re: &[F; C], im: &[F; C]) {
        self.re[i * LANES + l0..i * LANES + l0 + C].copy_from_slice(re);
        self.im[i * LANES + l0..i * LANES + l0 + C].copy_from_slice(im);
    }
}
struct Loads<'a, IO>(&'a mut IO);
impl<F: Float, IO: Rows<F>> RowSource<F> for Loads<'_, IO> {
    #[inline(always)]
    fn get<const C: usize>(&mut self, i: usize, l0: usize) -> ([F; C], [F; C]) {
        let (mut re, mut im) = ([F::zero(); C], [F::zero(); C]);
        self.0.load::<C>(i, l0, &mut re, &mut im);
        (re, im)
    }
}
struct Stores<'a, IO>(&'a mut IO);
impl<F: Float, IO: Rows<F>> RowSink<F> for Stores<'_, IO> {
    #[inline(always)]
    fn put<const C: usize>(&mut self, i: usize, l0: usize, re: &[F; C], im: &[F; C]) {
        self.0.store::<C>(i, l0, re, im);
    }
}

/// Lanes `l0 .. l0 + C` of row `i` of a block, as a fixed-size array (one bounds check per
/// chunk, none per lane).
#[inline(always)]
fn chunk<F, const C: usize>(buf: &[F], i: usize, l0: usize) -> &[F; C] {
    buf[i * LANES + l0..i * LANES + l0 + C].try_into().unwrap()
}

/// [`pass`] at the pass's radix.
#[inline(always)]
fn pass_of_radix<F: Float + FromPrimitive, const C: usize, const TWIDDLE: bool, S: RowSource<F>, D: RowSink<F>>(p: &Pass<F>, n: usize, dir: F, x: &mut S, y: &mut D) {
    match p.radix {
        8 => pass::<F, C, 8, TWIDDLE, S, D>(p, n, dir, x, y),
        4 => pass::<F, C, 4, TWIDDLE, S, D>(p, n, dir, x, y),
        2 => pass::<F, C, 2, TWIDDLE, S, D>(p, n, dir, x, y),
        3 => pass::<F, C, 3, TWIDDLE, S, D>(p, n, dir, x, y),
        _ => pass::<F, C, 5, TWIDDLE, S, D>(p, n, dir, x, y),
    }
}

/// One Stockham pass of radix R: for j < n / R, with k = j mod ns, the R rows j + r n / R times
/// w^(r k) go through an R-point DFT into rows (j - k) R + k + r ns. Without TWIDDLE (the first
/// pass, ns = 1, where every w^(r k) is 1) the rows go in as they are. Each butterfly runs on
/// C lanes at a time.
#[inline(always)]
fn pass<F: Float + FromPrimitive, const C: usize, const R: usize, const TWIDDLE: bool, S: RowSource<F>, D: RowSink<F>>(p: &Pass<F>, n: usize, dir: F, x: &mut S, y: &mut D) {
    let q = n / R;
    let ns = p.ns;
    let half = F::from_f64(0.5).unwrap();
    let (c3, s3) = (-half, dir * F::from_f64(0.75f64.sqrt()).unwrap());
    let (c51, c52) = (F::from_f64((0.4 * std::f64::consts::PI).cos()).unwrap(), F::from_f64((0.8 * std::f64::consts::PI).cos()).unwrap());
    let (s51, s52) = (dir * F::from_f64((0.4 * std::f64::consts::PI).sin()).unwrap(), dir * F::from_f64((0.8 * std::f64::consts::PI).sin()).unwrap());
    let h = F::from_f64(std::f64::consts::FRAC_1_SQRT_2).unwrap();
    for j in 0..q {
        let k = j % ns;
        let tw = &p.tw[k * (R - 1)..(k + 1) * (R - 1)];
        for l0 in (0..LANES).step_by(C) {
            let mut ar = [[F::zero(); C]; R];
            let mut ai = [[F::zero(); C]; R];
            (ar[0], ai[0]) = x.get::<C>(j, l0);
            for r in 1..R {
                let (sr, si) = x.get::<C>(j + r * q, l0);
                if !TWIDDLE {
                    (ar[r], ai[r]) = (sr, si);
                    continue;
                }
                let w = tw[r - 1];
                for l in 0..C {
                    ar[r][l] = sr[l] * w.re - si[l] * w.im;
                    ai[r][l] = sr[l] * w.im + si[l] * w.re;
                }
            }
            let mut or = [[F::zero(); C]; R];
            let mut oi = [[F::zero(); C]; R];
            for l in 0..C {
                // y = t - i u and t + i u, for the butterflies below: (t.re + u.im, t.im - u.re) and
                // (t.re - u.im, t.im + u.re).
                match R {
                    2 => {
                        (or[0][l], oi[0][l]) = (ar[0][l] + ar[1][l], ai[0][l] + ai[1][l]);
                        (or[1][l], oi[1][l]) = (ar[0][l] - ar[1][l], ai[0][l] - ai[1][l]);
                    }
                    3 => {
                        let (br, bi) = (ar[1][l] + ar[2][l], ai[1][l] + ai[2][l]);
                        let (ur, ui) = (s3 * (ar[1][l] - ar[2][l]), s3 * (ai[1][l] - ai[2][l]));
                        let (tr, ti) = (ar[0][l] + c3 * br, ai[0][l] + c3 * bi);
                        (or[0][l], oi[0][l]) = (ar[0][l] + br, ai[0][l] + bi);
                        (or[1][l], oi[1][l]) = (tr + ui, ti - ur);
                        (or[2][l], oi[2][l]) = (tr - ui, ti + ur);
                    }
                    8 => {
                        // Pairs (r, r + 4) first: their sums make the even outputs (a 4-point DFT),
                        // their differences times w8^r the odd ones.
                        let mut br = [F::zero(); 4];
                        let mut bi = [F::zero(); 4];
                        let mut cr = [F::zero(); 4];
                        let mut ci = [F::zero(); 4];
                        for r in 0..4 {
                            (br[r], bi[r]) = (ar[r][l] + ar[r + 4][l], ai[r][l] + ai[r + 4][l]);
                            (cr[r], ci[r]) = (ar[r][l] - ar[r + 4][l], ai[r][l] - ai[r + 4][l]);
                        }
                        // w8 = (1 - dir i) / sqrt 2; w8^2 = -dir i; w8^3 = (-1 - dir i) / sqrt 2.
                        (cr[1], ci[1]) = (h * (cr[1] + dir * ci[1]), h * (ci[1] - dir * cr[1]));
                        (cr[2], ci[2]) = (dir * ci[2], -dir * cr[2]);
                        (cr[3], ci[3]) = (h * (dir * ci[3] - cr[3]), -h * (ci[3] + dir * cr[3]));
                        for (x_r, x_i, first) in [(&br, &bi, 0), (&cr, &ci, 1)] {
                            let (z0r, z0i) = (x_r[0] + x_r[2], x_i[0] + x_i[2]);
                            let (z1r, z1i) = (x_r[0] - x_r[2], x_i[0] - x_i[2]);
                            let (z2r, z2i) = (x_r[1] + x_r[3], x_i[1] + x_i[3]);
                            let (ur, ui) = (dir * (x_r[1] - x_r[3]), dir * (x_i[1] - x_i[3]));
                            (or[first][l], oi[first][l]) = (z0r + z2r, z0i + z2i);
                            (or[first + 4][l], oi[first + 4][l]) = (z0r - z2r, z0i - z2i);
                            (or[first + 2][l], oi[first + 2][l]) = (z1r + ui, z1i - ur);
                            (or[first + 6][l], oi[first + 6][l]) = (z1r - ui, z1i + ur);
                        }
                    }
                    4 => {
                        let (t0r, t0i) = (ar[0][l] + ar[2][l], ai[0][l] + ai[2][l]);
                        let (t1r, t1i) = (ar[0][l] - ar[2][l], ai[0][l] - ai[2][l]);
                        let (br, bi) = (ar[1][l] + ar[3][l], ai[1][l] + ai[3][l]);
                        let (ur, ui) = (dir * (ar[1][l] - ar[3][l]), dir * (ai[1][l] - ai[3][l]));
                        (or[0][l], oi[0][l]) = (t0r + br, t0i + bi);
                        (or[2][l], oi[2][l]) = (t0r - br, t0i - bi);
                        (or[1][l], oi[1][l]) = (t1r + ui, t1i - ur);
                        (or[3][l], oi[3][l]) = (t1r - ui, t1i + ur);
                    }
                    _ => {
                        let (b1r, b1i) = (ar[1][l] + ar[4][l], ai[1][l] + ai[4][l]);
                        let (b2r, b2i) = (ar[2][l] + ar[3][l], ai[2][l] + ai[3][l]);
                        let (d1r, d1i) = (ar[1][l] - ar[4][l], ai[1][l] - ai[4][l]);
                        let (d2r, d2i) = (ar[2][l] - ar[3][l], ai[2][l] - ai[3][l]);
                        let (t1r, t1i) = (ar[0][l] + c51 * b1r + c52 * b2r, ai[0][l] + c51 * b1i + c52 * b2i);
                        let (t2r, t2i) = (ar[0][l] + c52 * b1r + c51 * b2r, ai[0][l] + c52 * b1i + c51 * b2i);
                        let (u1r, u1i) = (s51 * d1r + s52 * d2r, s51 * d1i + s52 * d2i);
                        let (u2r, u2i) = (s52 * d1r - s51 * d2r, s52 * d1i - s51 * d2i);
                        (or[0][l], oi[0][l]) = (ar[0][l] + b1r + b2r, ai[0][l] + b1i + b2i);
                        (or[1][l], oi[1][l]) = (t1r + u1i, t1i - u1r);
                        (or[4][l], oi[4][l]) = (t1r - u1i, t1i + u1r);
                        (or[2][l], oi[2][l]) = (t2r + u2i, t2i - u2r);
                        (or[3][l], oi[3][l]) = (t2r - u2i, t2i + u2r);
                    }
                }
            }
            let base = (j - k) * R + k;
            for r in 0..R {
                y.put::<C>(base + r * ns, l0, &or[r], &oi[r]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to 130 and larger ones of 2, 3 and 5 up to 1024 (and unsupported ones
    /// refused), both directions, f32 and f64, with and without radix 8, against the DFT by definition in f64 on every lane.
    #[test]
    fn columns_match_the_dft() {
        fn check<F: Float + FromPrimitive + std::fmt::Debug + 'static>(n: usize, inverse: bool, radix_8: bool, eps: f64) {
            let Some(plan) = ColumnFft::<F>::with_radix_8(n, inverse, radix_8) else {
                let mut m = n;
                for r in [2, 3, 5] {
                    while m % r == 0 {
                        m /= r;
                    }
                }
                assert!(m != 1 || n < 2 || n > MAX_LEN, "length {n} refused");
                return;
            };
            let x: Vec<Complex<f64>> =
                (0..n * LANES).map(|i| Complex::new(((i * 7919 + 13) % 1009) as f64 / 1009.0 - 0.5, ((i * 104729 + 7) % 997) as f64 / 997.0 - 0.5)).collect();
            struct Io<'a, F> {
                x: &'a [Complex<f64>],
                yr: Vec<F>,
                yi: Vec<F>,
            }
            impl<F: Float + FromPrimitive> Rows<F> for Io<'_, F> {
                fn load<const C: usize>(&mut self, j: usize, l0: usize, r: &mut [F; C], i: &mut [F; C]) {
                    for l in 0..C {
                        let v = self.x[j * LANES + l0 + l];
                        (r[l], i[l]) = (F::from_f64(v.re).unwrap(), F::from_f64(v.im).unwrap());
                    }
                }
                fn store<const C: usize>(&mut self, j: usize, l0: usize, r: &[F; C], i: &[F; C]) {
                    self.yr[j * LANES + l0..j * LANES + l0 + C].copy_from_slice(r);
                    self.yi[j * LANES + l0..j * LANES + l0 + C].copy_from_slice(i);
                }
            }
            let mut scratch = vec![F::nan(); 4 * n * LANES];
            let mut io = Io { x: &x, yr: vec![F::nan(); n * LANES], yi: vec![F::nan(); n * LANES] };
            plan.transform(&mut scratch, &mut io);
            let (yr, yi) = (io.yr, io.yi);
            let sign = if inverse { 1.0 } else { -1.0 };
            let (mut err2, mut ref2) = (0.0f64, 0.0f64);
            for l in 0..LANES {
                for k in 0..n {
                    let mut want = Complex::new(0.0, 0.0);
                    for j in 0..n {
                        let a = sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                        want += x[j * LANES + l] * Complex::new(a.cos(), a.sin());
                    }
                    let got = Complex::new(yr[k * LANES + l].to_f64().unwrap(), yi[k * LANES + l].to_f64().unwrap());
                    err2 += (got - want).norm_sqr();
                    ref2 += want.norm_sqr();
                }
            }
            // rocFFT's relative L2 bound, sqrt(log2 n) eps (the f64 reference's own rounding,
            // a sum of n terms, is of the f64 transform's order: twice the bound there).
            let (rel, bound) = ((err2 / ref2).sqrt(), (n as f64).log2().max(1.0).sqrt() * eps);
            assert!(rel <= bound, "n {n} inverse {inverse}: relative L2 error {rel:e} > {bound:e}");
        }
        let lengths: Vec<usize> = (1..=130).chain([160, 243, 256, 375, 500, 625, 720, 729, 1000, 1024, 1025, 2048]).collect();
        for &n in &lengths {
            for inverse in [false, true] {
                for radix_8 in [false, true] {
                    check::<f32>(n, inverse, radix_8, 3.75e-5);
                    check::<f64>(n, inverse, radix_8, 2e-15);
                }
            }
        }
    }
}
