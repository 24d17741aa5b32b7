//! What `rocmath-bench fft` needs apart from the devices: the case (arguments and their
//! parsing), its byte and FLOP counts, seeded inputs (Hermitian-symmetric for c2r), walking a
//! plan's layout, the comparison with rocFFT's accuracy criterion, the layout as cuFFT and FFTW
//! take it (dimensions slowest first), and the standard suite's cases.
use num_complex::Complex64;
use rocmath_fft::{FftReal, Layout, Precision, TransformType};
use rocmath_tests::Rng;

/// One `rocmath-bench fft` case.
#[derive(Clone, Debug, PartialEq)]
pub struct FftArgs {
    pub precision: Precision,
    pub transform: TransformType,
    /// Logical lengths, fastest first (rocFFT's order); the real length for r2c/c2r.
    pub lengths: Vec<usize>,
    pub batch: usize,
    pub inplace: bool,
    pub iters: usize,
    pub warmup: usize,
    pub peer: bool,
}

impl Default for FftArgs {
    fn default() -> Self {
        FftArgs {
            precision: Precision::Single,
            transform: TransformType::ComplexForward,
            lengths: vec![1024],
            batch: 1,
            inplace: false,
            iters: 20,
            warmup: 3,
            peer: true,
        }
    }
}

/// `1024`, `256x256x256` or `64,32` (fastest first), 1 to 3 nonzero lengths.
pub fn parse_lengths(s: &str) -> Result<Vec<usize>, String> {
    let lengths = s
        .split(['x', 'X', ','])
        .map(|p| p.trim().parse::<usize>().map_err(|_| format!("--length: {p:?} in {s:?} is not a length")))
        .collect::<Result<Vec<_>, _>>()?;
    if !(1..=3).contains(&lengths.len()) {
        return Err(format!("--length: {} dimensions in {s:?}; 1 to 3", lengths.len()));
    }
    if lengths.contains(&0) {
        return Err(format!("--length: a length of 0 in {s:?}"));
    }
    Ok(lengths)
}

pub fn parse_precision(s: &str) -> Result<Precision, String> {
    match s.to_ascii_lowercase().as_str() {
        "single" | "s" | "f32" | "float" => Ok(Precision::Single),
        "double" | "d" | "f64" => Ok(Precision::Double),
        "half" | "h" | "f16" => Ok(Precision::Half),
        other => Err(format!("--precision: unknown {other} (single, double or half)")),
    }
}

impl FftArgs {
    /// Parses the `fft` subcommand's options; `--device` goes to `device`.
    pub fn parse(args: &[String], device: &mut Option<String>) -> Result<FftArgs, String> {
        let mut f = FftArgs::default();
        let mut kind = "c2c".to_string();
        let mut inverse = false;
        let mut length = None;
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
            let num = |v: String| v.parse::<usize>().map_err(|_| format!("{flag}: {v} is not a count"));
            match flag.as_str() {
                "--precision" | "-r" => f.precision = parse_precision(&value()?)?,
                "--type" | "-t" => kind = value()?.to_ascii_lowercase(),
                "--inverse" => inverse = true,
                "--length" | "--lengths" | "-l" => length = Some(parse_lengths(&value()?)?),
                "--batch" | "-b" => f.batch = num(value()?)?,
                "--inplace" => f.inplace = true,
                "--iters" | "-i" => f.iters = num(value()?)?.max(1),
                "--warmup" | "-j" => f.warmup = num(value()?)?,
                "--device" => *device = Some(value()?),
                "--no-peer" => f.peer = false,
                other => return Err(format!("unknown option {other}")),
            }
        }
        f.transform = match (kind.as_str(), inverse) {
            ("c2c", false) => TransformType::ComplexForward,
            ("c2c", true) => TransformType::ComplexInverse,
            ("r2c", false) => TransformType::RealForward,
            ("r2c", true) => return Err("--type r2c is forward; the inverse is --type c2r".into()),
            // c2r is the inverse of r2c; --inverse is accepted and changes nothing.
            ("c2r", _) => TransformType::RealInverse,
            (other, _) => return Err(format!("--type: unknown {other} (c2c, r2c or c2r)")),
        };
        f.lengths = length.ok_or("--length is required (N, NxN2 or NxN2xN3, fastest first)")?;
        if f.batch == 0 {
            return Err("--batch: 0 transforms".into());
        }
        Ok(f)
    }

    /// `c2c`, `r2c` or `c2r` (`c2c-inv` for the complex inverse).
    pub fn type_name(&self) -> &'static str {
        match self.transform {
            TransformType::ComplexForward => "c2c",
            TransformType::ComplexInverse => "c2c-inv",
            TransformType::RealForward => "r2c",
            TransformType::RealInverse => "c2r",
        }
    }

    /// `c2c s 256x256 b16 ip`, as the bench prints cases.
    pub fn label(&self) -> String {
        let p = match self.precision {
            Precision::Single => "s",
            Precision::Double => "d",
            Precision::Half => "h",
        };
        let dims: Vec<String> = self.lengths.iter().map(usize::to_string).collect();
        format!("{} {p} {} b{}{}", self.type_name(), dims.join("x"), self.batch, if self.inplace { " ip" } else { "" })
    }

    /// Elements of one transform (the product of the logical lengths).
    pub fn n(&self) -> usize {
        self.lengths.iter().product()
    }

    /// Elements per dimension of the input (the Hermitian half on the fastest dimension for c2r).
    pub fn input_lengths(&self) -> Vec<usize> {
        side_lengths(&self.lengths, self.transform == TransformType::RealInverse)
    }

    /// Elements per dimension of the output (the Hermitian half for r2c).
    pub fn output_lengths(&self) -> Vec<usize> {
        side_lengths(&self.lengths, self.transform == TransformType::RealForward)
    }

    /// Whether the input (output) elements are complex.
    pub fn complex_input(&self) -> bool {
        self.transform != TransformType::RealForward
    }
    pub fn complex_output(&self) -> bool {
        self.transform != TransformType::RealInverse
    }

    /// Bytes read and written by one call if every element moved once (the pass-free ideal):
    /// the logical input and output of every transform of the batch.
    pub fn counts(&self) -> Counts {
        let rb = self.precision.real_bytes() as f64;
        let side = |lengths: Vec<usize>, complex: bool| {
            lengths.iter().product::<usize>() as f64 * if complex { 2.0 } else { 1.0 } * rb * self.batch as f64
        };
        let n = self.n() as f64;
        // 5 N log2 N per complex transform, half that for a real one.
        let per = if self.transform.is_real() { 2.5 } else { 5.0 };
        let flops = if n > 1.0 { per * n * n.log2() * self.batch as f64 } else { 0.0 };
        Counts {
            in_bytes: side(self.input_lengths(), self.complex_input()),
            out_bytes: side(self.output_lengths(), self.complex_output()),
            flops,
        }
    }

    /// Batch entries the check compares: the first and the last.
    pub fn checked_entries(&self) -> Vec<usize> {
        let mut e = vec![0, self.batch - 1];
        e.dedup();
        e
    }

    /// Whether the f64 reference of the checked entries is too big to compute here.
    pub fn reference_too_big(&self) -> bool {
        self.checked_entries().len().saturating_mul(self.n()) > REFERENCE_MAX_ELEMENTS
    }
}

/// The most elements (checked entries x transform length) the f64 reference is asked to
/// transform; beyond this the bench checks against the peer instead.
pub const REFERENCE_MAX_ELEMENTS: usize = 1 << 27;

fn side_lengths(lengths: &[usize], half: bool) -> Vec<usize> {
    let mut l = lengths.to_vec();
    if half {
        l[0] = l[0] / 2 + 1;
    }
    l
}

/// What one call moves and computes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Counts {
    pub in_bytes: f64,
    pub out_bytes: f64,
    /// 5 N log2 N per complex transform, 2.5 N log2 N per real one (the customary nominal count).
    pub flops: f64,
}

impl Counts {
    pub fn bytes(&self) -> f64 {
        self.in_bytes + self.out_bytes
    }
    pub fn gbps(&self, ms: f64) -> f64 {
        self.bytes() / ms / 1e6
    }
    pub fn gflops(&self, ms: f64) -> f64 {
        self.flops / ms / 1e6
    }
}

/// A real scalar of a plan: conversions to and from f64, and RustFFT's peer where RustFFT has
/// the type.
pub trait Real: FftReal + Copy + Default + std::fmt::Debug {
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
    /// RustFFT for `case` on `threads` threads, or `None` where RustFFT lacks the type (f16).
    fn rustfft(case: &FftArgs, threads: usize) -> Option<Box<dyn ScalarFft<Self>>>;
}

/// A transform over scalar buffers in the default layouts ([`crate::rustfft_peer`]).
pub trait ScalarFft<T>: Send + Sync {
    /// `output` is `None` in place. The input may be overwritten.
    fn run(&self, input: &mut [T], output: Option<&mut [T]>);
}

impl Real for f32 {
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn rustfft(case: &FftArgs, threads: usize) -> Option<Box<dyn ScalarFft<Self>>> {
        Some(Box::new(crate::rustfft_peer::RustFft::<f32>::new(case, threads)))
    }
}
impl Real for f64 {
    fn from_f64(v: f64) -> Self {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn rustfft(case: &FftArgs, threads: usize) -> Option<Box<dyn ScalarFft<Self>>> {
        Some(Box::new(crate::rustfft_peer::RustFft::<f64>::new(case, threads)))
    }
}
impl Real for half::f16 {
    fn from_f64(v: f64) -> Self {
        half::f16::from_f64(v)
    }
    fn to_f64(self) -> f64 {
        half::f16::to_f64(self)
    }
    fn rustfft(_: &FftArgs, _: usize) -> Option<Box<dyn ScalarFft<Self>>> {
        None
    }
}

/// Calls `f` with the element offset (in the layout's elements) of every element of batch
/// entry `entry`, fastest dimension innermost, for `lengths` (that side's elements).
pub fn for_each_offset(layout: &Layout, lengths: &[usize], entry: usize, mut f: impl FnMut(usize)) {
    let mut l = [1usize; 3];
    let mut s = [0usize; 3];
    for (d, (&len, &stride)) in lengths.iter().zip(&layout.strides).enumerate() {
        l[d] = len;
        s[d] = stride;
    }
    let base = layout.offsets[0] + entry * layout.distance;
    for i2 in 0..l[2] {
        for i1 in 0..l[1] {
            let row = base + i2 * s[2] + i1 * s[1];
            for i0 in 0..l[0] {
                f(row + i0 * s[0]);
            }
        }
    }
}

/// One side of a transform as stored: scalars, layout, element lengths, complex or real.
#[derive(Clone, Copy)]
pub struct View<'a, T> {
    pub data: &'a [T],
    pub layout: &'a Layout,
    pub lengths: &'a [usize],
    pub complex: bool,
}

impl<T: Real> View<'_, T> {
    /// The logical elements of `entry`, in order (fastest dimension innermost).
    pub fn entry(&self, entry: usize) -> Vec<Complex64> {
        let mut out = Vec::with_capacity(self.lengths.iter().product());
        let d = self.data;
        if self.complex {
            for_each_offset(self.layout, self.lengths, entry, |o| out.push(Complex64::new(d[2 * o].to_f64(), d[2 * o + 1].to_f64())));
        } else {
            for_each_offset(self.layout, self.lengths, entry, |o| out.push(Complex64::new(d[o].to_f64(), 0.0)));
        }
        out
    }
}

/// Writes `values` (one entry's logical elements, fastest innermost) into `data` at `entry` of
/// `layout`; real sides take the real parts.
pub fn scatter<T: Real>(data: &mut [T], layout: &Layout, lengths: &[usize], complex: bool, entry: usize, values: &[Complex64]) {
    let mut v = values.iter();
    for_each_offset(layout, lengths, entry, |o| {
        let x = v.next().expect("one value per element");
        if complex {
            data[2 * o] = T::from_f64(x.re);
            data[2 * o + 1] = T::from_f64(x.im);
        } else {
            data[o] = T::from_f64(x.re);
        }
    });
}

/// Makes one entry of a c2r input (the Hermitian half, `herm` = `[l0 / 2 + 1, l1, l2]`
/// elements, fastest first, packed) the half-spectrum of a real signal of fastest length
/// `real_l0`: on the planes k0 = 0 and k0 = l0 / 2 (l0 even), X[k0, k1, k2] = conj(X[k0, -k1,
/// -k2]), so self-conjugate elements are real. Otherwise the c2r result depends on how an
/// implementation reads the redundant parts, and two correct ones disagree.
pub fn make_hermitian(values: &mut [Complex64], herm: &[usize], real_l0: usize) {
    let h0 = herm[0];
    let l1 = herm.get(1).copied().unwrap_or(1);
    let l2 = herm.get(2).copied().unwrap_or(1);
    let mut planes = vec![0];
    if real_l0.is_multiple_of(2) && real_l0 / 2 < h0 && real_l0 / 2 != 0 {
        planes.push(real_l0 / 2);
    }
    let at = |k0: usize, k1: usize, k2: usize| k0 + h0 * (k1 + l1 * k2);
    for &k0 in &planes {
        for k2 in 0..l2 {
            for k1 in 0..l1 {
                let (m1, m2) = ((l1 - k1) % l1, (l2 - k2) % l2);
                let (me, partner) = (at(k0, k1, k2), at(k0, m1, m2));
                if me == partner {
                    values[me].im = 0.0;
                } else if me > partner {
                    values[me] = values[partner].conj();
                }
            }
        }
    }
}

/// The input of every batch entry, seeded from the case: uniform in [-1, 1) (both parts of
/// complex elements), Hermitian-symmetric for c2r, written into `layout` in a buffer of
/// `scalars` scalars (padding left at zero).
pub fn generate_input<T: Real>(case: &FftArgs, layout: &Layout, scalars: usize) -> Vec<T> {
    let lengths = case.input_lengths();
    let complex = case.complex_input();
    let mut data = vec![T::default(); scalars];
    let mut rng = Rng::new(0xFF7 ^ (case.n() as u64).wrapping_mul(31) ^ case.batch as u64);
    let per_entry: usize = lengths.iter().product();
    let mut values = vec![Complex64::new(0.0, 0.0); per_entry];
    for entry in 0..case.batch {
        for v in values.iter_mut() {
            let re = rng.unit();
            let im = if complex { rng.unit() } else { 0.0 };
            *v = Complex64::new(re, im);
        }
        if case.transform == TransformType::RealInverse {
            make_hermitian(&mut values, &lengths, case.lengths[0]);
        }
        scatter(&mut data, layout, &lengths, complex, entry, &values);
    }
    data
}

/// Distances between a result and a reference (rocFFT's norms: each real and imaginary part
/// counts as one component).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Norms {
    pub diff_linf: f64,
    pub diff_l2: f64,
    pub ref_linf: f64,
    pub ref_l2: f64,
}

/// Compares `got`'s entries `got_entries` with `want`'s `want_entries` (pairwise). A NaN or
/// infinity in `got` where `want` is finite makes the distance infinite.
pub fn compare<A: Real, B: Real>(got: &View<A>, got_entries: &[usize], want: &View<B>, want_entries: &[usize]) -> Norms {
    let mut n = Norms::default();
    let (mut d2, mut r2) = (0.0f64, 0.0f64);
    for (&ge, &we) in got_entries.iter().zip(want_entries) {
        let (g, w) = (got.entry(ge), want.entry(we));
        for (g, w) in g.iter().zip(&w) {
            for (gv, wv) in [(g.re, w.re), (g.im, w.im)] {
                let d = (gv - wv).abs();
                let d = if d.is_nan() { f64::INFINITY } else { d };
                n.diff_linf = n.diff_linf.max(d);
                n.ref_linf = n.ref_linf.max(wv.abs());
                d2 += d * d;
                r2 += wv * wv;
            }
        }
    }
    n.diff_l2 = d2.sqrt();
    n.ref_l2 = r2.sqrt();
    n
}

/// rocFFT's accuracy criterion for a transform of `n` elements in precision `p`:
/// Linf(diff) <= eps * Linf(reference) * ln N and L2(diff) / L2(reference) < sqrt(log2 N) * eps.
/// (ln N and log2 N are floored at 1, as in the tests: [`rocmath_tests::fft::linf_factor`].)
pub fn verdict(norms: &Norms, p: Precision, n: usize) -> Result<String, String> {
    use rocmath_tests::fft::{l2_factor, linf_factor, type_epsilon};
    let eps = type_epsilon(p);
    let linf_cut = eps * norms.ref_linf * linf_factor(n);
    let rel_l2 = if norms.ref_l2 > 0.0 { norms.diff_l2 / norms.ref_l2 } else if norms.diff_l2 == 0.0 { 0.0 } else { f64::INFINITY };
    let l2_cut = l2_factor(n) * eps;
    let text = format!("Linf {:.3e} (cutoff {linf_cut:.3e}), rel L2 {rel_l2:.3e} (cutoff {l2_cut:.3e})", norms.diff_linf);
    if norms.diff_linf <= linf_cut && rel_l2 < l2_cut {
        Ok(text)
    } else {
        Err(text)
    }
}

/// A side's layout as cuFFT's and FFTW's advanced interfaces take it: the embedded sizes
/// slowest first (the first is not read), the stride of the fastest dimension and the distance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerSide {
    pub embed: Vec<i64>,
    pub stride: i64,
    pub dist: i64,
    /// Offset of the first element, in the side's scalars (the caller adds it to the pointer).
    pub offset_scalars: usize,
}

/// A plan's transform as cuFFT and FFTW describe it: lengths slowest first (rocFFT's reversed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerLayout {
    pub n: Vec<i64>,
    pub input: PeerSide,
    pub output: PeerSide,
}

/// Reverses rocFFT's fastest-first lengths into cuFFT's and FFTW's slowest-first order.
pub fn slowest_first(lengths: &[usize]) -> Vec<i64> {
    lengths.iter().rev().map(|&l| l as i64).collect()
}

/// One side's embedding: each stride must be a multiple of the next faster one, and step over
/// that dimension's elements (what `inembed`/`onembed` can express).
pub fn peer_side(layout: &Layout, lengths: &[usize], complex: bool) -> Result<PeerSide, String> {
    let s = &layout.strides;
    if s.len() != lengths.len() || s.contains(&0) {
        return Err(format!("strides {s:?} for lengths {lengths:?}"));
    }
    let mut embed = Vec::with_capacity(s.len());
    for d in 0..s.len() {
        if d + 1 == s.len() {
            embed.push(lengths[d] as i64);
        } else {
            let (faster, slower) = (s[d], s[d + 1]);
            if slower % faster != 0 || slower / faster < lengths[d] {
                return Err(format!("strides {s:?} are not an embedding of lengths {lengths:?}"));
            }
            embed.push((slower / faster) as i64);
        }
    }
    embed.reverse();
    let per = if complex { 2 } else { 1 };
    Ok(PeerSide { embed, stride: s[0] as i64, dist: layout.distance as i64, offset_scalars: layout.offsets[0] * per })
}

pub fn peer_layout(case: &FftArgs, input: &Layout, output: &Layout) -> Result<PeerLayout, String> {
    Ok(PeerLayout {
        n: slowest_first(&case.lengths),
        input: peer_side(input, &case.input_lengths(), case.complex_input())?,
        output: peer_side(output, &case.output_lengths(), case.complex_output())?,
    })
}

/// The standard suite's FFT cases. GPUs: the issue's set (batched 1D c2c single 2^8 .. 2^24 at
/// 2^26 elements a call, 1000 and 4099, 3D 256^3 c2c, 3D 512^3 r2c, double 2^20 x 64). The
/// CPU: a lighter set (about a minute on 2 cores).
pub fn suite_cases(gpu: bool) -> Vec<FftArgs> {
    let (elements, top, iters, warmup) = if gpu { (1usize << 26, 24, 20, 3) } else { (1usize << 20, 16, 10, 2) };
    let case = |p: Precision, t: TransformType, lengths: Vec<usize>, batch: usize| FftArgs {
        precision: p,
        transform: t,
        lengths,
        batch: batch.max(1),
        iters,
        warmup,
        ..FftArgs::default()
    };
    let (s, c2c, r2c) = (Precision::Single, TransformType::ComplexForward, TransformType::RealForward);
    let mut out: Vec<FftArgs> = (8..=top).map(|e| case(s, c2c, vec![1 << e], elements >> e)).collect();
    out.push(case(s, c2c, vec![1000], elements / 1000));
    out.push(case(s, c2c, vec![4099], elements / 4099));
    if gpu {
        out.push(case(s, c2c, vec![256; 3], 1));
        out.push(case(s, r2c, vec![512; 3], 1));
        out.push(case(Precision::Double, c2c, vec![1 << 20], 64));
    } else {
        out.push(case(s, c2c, vec![64; 3], 1));
        out.push(case(s, r2c, vec![128; 3], 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rocmath_fft::{ArrayType, Placement, Plan};
    use rocmath_runtime::Device;

    fn args(s: &str) -> Result<FftArgs, String> {
        let v: Vec<String> = s.split_whitespace().map(String::from).collect();
        FftArgs::parse(&v, &mut None)
    }

    fn layouts(case: &FftArgs) -> (Layout, Layout) {
        let placement = if case.inplace { Placement::InPlace } else { Placement::NotInPlace };
        let plan = Plan::new(&Device::cpu(), placement, case.transform, case.precision, &case.lengths, case.batch, None).unwrap();
        (plan.input_layout().clone(), plan.output_layout().clone())
    }

    #[test]
    fn parses_the_issue_command_line() {
        let mut device = None;
        let v: Vec<String> = "--precision double --type r2c --length 512x256x128 --batch 3 --inplace --device cuda:1 --iters 7 --warmup 2 --no-peer"
            .split_whitespace()
            .map(String::from)
            .collect();
        let f = FftArgs::parse(&v, &mut device).unwrap();
        assert_eq!(device.as_deref(), Some("cuda:1"));
        assert_eq!(
            f,
            FftArgs {
                precision: Precision::Double,
                transform: TransformType::RealForward,
                lengths: vec![512, 256, 128],
                batch: 3,
                inplace: true,
                iters: 7,
                warmup: 2,
                peer: false,
            }
        );
        assert_eq!(f.label(), "r2c d 512x256x128 b3 ip");
    }

    #[test]
    fn parses_types_and_directions() {
        assert_eq!(args("--length 8").unwrap().transform, TransformType::ComplexForward);
        assert_eq!(args("--length 8 --inverse").unwrap().transform, TransformType::ComplexInverse);
        assert_eq!(args("--type c2r --length 8").unwrap().transform, TransformType::RealInverse);
        assert_eq!(args("--type C2R --inverse --length 8").unwrap().transform, TransformType::RealInverse);
        assert_eq!(args("-t r2c -l 8,4 -r h").unwrap(), FftArgs { precision: Precision::Half, transform: TransformType::RealForward, lengths: vec![8, 4], ..FftArgs::default() });
        assert!(args("--type r2c --inverse --length 8").is_err());
        assert!(args("--type r2r --length 8").is_err());
        assert!(args("--precision quad --length 8").is_err());
        assert!(args("--batch 4").unwrap_err().contains("--length is required"));
        assert!(args("--length 8 --batch 0").is_err());
        assert!(args("--length 8 --batch").unwrap_err().contains("needs a value"));
        assert!(args("--length 8 --bogus").unwrap_err().contains("unknown option"));
        assert_eq!(args("--length 8 --iters 0").unwrap().iters, 1);
    }

    #[test]
    fn parses_lengths() {
        assert_eq!(parse_lengths("1024").unwrap(), vec![1024]);
        assert_eq!(parse_lengths("256x128x64").unwrap(), vec![256, 128, 64]);
        assert_eq!(parse_lengths("3,5").unwrap(), vec![3, 5]);
        assert!(parse_lengths("2x2x2x2").is_err());
        assert!(parse_lengths("0x4").is_err());
        assert!(parse_lengths("4x").is_err());
        assert!(parse_lengths("abc").is_err());
    }

    #[test]
    fn counts_bytes_and_flops() {
        let c = FftArgs { lengths: vec![256], batch: 4, ..FftArgs::default() }.counts();
        assert_eq!((c.in_bytes, c.out_bytes, c.flops), (256.0 * 8.0 * 4.0, 256.0 * 8.0 * 4.0, 5.0 * 256.0 * 8.0 * 4.0));
        // r2c double 512^3: N real in, 257 x 512 x 512 complex out, 2.5 N log2 N.
        let r = FftArgs { precision: Precision::Double, transform: TransformType::RealForward, lengths: vec![512; 3], ..FftArgs::default() };
        let c = r.counts();
        assert_eq!(c.in_bytes, (1u64 << 27) as f64 * 8.0);
        assert_eq!(c.out_bytes, 257.0 * 512.0 * 512.0 * 16.0);
        assert_eq!(c.flops, 2.5 * (1u64 << 27) as f64 * 27.0);
        // c2r half: the mirror of r2c; in place counts the logical elements, not the padding.
        let h = FftArgs { precision: Precision::Half, transform: TransformType::RealInverse, lengths: vec![10, 3], batch: 2, inplace: true, ..FftArgs::default() };
        let c = h.counts();
        assert_eq!((c.in_bytes, c.out_bytes), (6.0 * 3.0 * 4.0 * 2.0, 30.0 * 2.0 * 2.0));
        assert_eq!(c.flops, 2.5 * 30.0 * 30f64.log2() * 2.0);
        // 1000 ms for 1e9 bytes is 1 GB/s.
        let c = Counts { in_bytes: 5e8, out_bytes: 5e8, flops: 2e9 };
        assert_eq!((c.gbps(1000.0), c.gflops(1000.0)), (1.0, 2.0));
    }

    #[test]
    fn reference_limit() {
        let big = |lengths: Vec<usize>, batch| FftArgs { lengths, batch, ..FftArgs::default() }.reference_too_big();
        assert!(!big(vec![512; 3], 1));
        assert!(big(vec![512; 3], 2));
        assert!(!big(vec![1 << 24], 4));
        assert!(big(vec![1024; 3], 1));
        assert_eq!(FftArgs { batch: 1, ..FftArgs::default() }.checked_entries(), vec![0]);
        assert_eq!(FftArgs { batch: 5, ..FftArgs::default() }.checked_entries(), vec![0, 4]);
    }

    #[test]
    fn cufft_dims_are_reversed_and_embedded() {
        // 3D out of place c2c, fastest first [8, 4, 2] -> slowest first [2, 4, 8].
        let case = FftArgs { lengths: vec![8, 4, 2], batch: 3, ..FftArgs::default() };
        let (i, o) = layouts(&case);
        let p = peer_layout(&case, &i, &o).unwrap();
        assert_eq!(p.n, vec![2, 4, 8]);
        assert_eq!(p.input, PeerSide { embed: vec![2, 4, 8], stride: 1, dist: 64, offset_scalars: 0 });
        assert_eq!(p.output, p.input);
        // In-place 3D r2c 512^3: the real rows are padded to 2 * 257 scalars.
        let case = FftArgs { transform: TransformType::RealForward, lengths: vec![512; 3], inplace: true, ..FftArgs::default() };
        let (i, o) = layouts(&case);
        assert_eq!(i.array_type, ArrayType::Real);
        let p = peer_layout(&case, &i, &o).unwrap();
        assert_eq!(p.n, vec![512, 512, 512]);
        assert_eq!(p.input.embed, vec![512, 512, 514]);
        assert_eq!(p.input.dist, 514 * 512 * 512);
        assert_eq!(p.output.embed, vec![512, 512, 257]);
        assert_eq!(p.output.dist, 257 * 512 * 512);
        // Out-of-place 2D c2r [10 fastest, 6]: Hermitian input [6 slowest, 6], real output [6, 10].
        let case = FftArgs { transform: TransformType::RealInverse, lengths: vec![10, 6], batch: 2, ..FftArgs::default() };
        let (i, o) = layouts(&case);
        let p = peer_layout(&case, &i, &o).unwrap();
        assert_eq!(p.n, vec![6, 10]);
        assert_eq!((p.input.embed.clone(), p.input.dist), (vec![6, 6], 36));
        assert_eq!((p.output.embed.clone(), p.output.dist), (vec![6, 10], 60));
        // 1D: one embedded size, the length.
        let case = FftArgs { lengths: vec![1000], batch: 7, ..FftArgs::default() };
        let (i, o) = layouts(&case);
        assert_eq!(peer_layout(&case, &i, &o).unwrap().input, PeerSide { embed: vec![1000], stride: 1, dist: 1000, offset_scalars: 0 });
    }

    #[test]
    fn peer_side_rejects_what_embeds_cannot_say() {
        let l = |strides: Vec<usize>| Layout { array_type: ArrayType::ComplexInterleaved, offsets: [3, 0], strides, distance: 100 };
        assert!(peer_side(&l(vec![1, 6]), &[5, 4], true).is_ok());
        assert_eq!(peer_side(&l(vec![1, 6]), &[5, 4], true).unwrap().offset_scalars, 6);
        assert!(peer_side(&l(vec![2, 7]), &[3, 4], true).is_err(), "7 is not a multiple of 2");
        assert!(peer_side(&l(vec![1, 4]), &[5, 4], true).is_err(), "rows overlap");
        assert!(peer_side(&l(vec![1]), &[5, 4], true).is_err());
    }

    #[test]
    fn walks_a_padded_layout() {
        let layout = Layout { array_type: ArrayType::Real, offsets: [1, 0], strides: vec![1, 6], distance: 20 };
        let mut seen = Vec::new();
        for_each_offset(&layout, &[4, 3], 1, |o| seen.push(o));
        assert_eq!(seen, vec![21, 22, 23, 24, 27, 28, 29, 30, 33, 34, 35, 36]);
    }

    #[test]
    fn generated_input_fills_only_logical_elements() {
        // In-place r2c 2D [6, 2] x 2: real rows padded to 8 scalars; the padding stays 0.
        let case = FftArgs { transform: TransformType::RealForward, lengths: vec![6, 2], batch: 2, inplace: true, ..FftArgs::default() };
        let (i, _) = layouts(&case);
        let data: Vec<f32> = generate_input(&case, &i, 32);
        for row in 0..4 {
            assert!(data[row * 8..row * 8 + 6].iter().all(|&v| v != 0.0 && (-1.0..1.0).contains(&v)));
            assert_eq!(&data[row * 8 + 6..row * 8 + 8], &[0.0, 0.0]);
        }
        // Reproducible, and the view reads back what was written.
        assert_eq!(data, generate_input::<f32>(&case, &i, 32));
        let view = View { data: &data, layout: &i, lengths: &[6, 2], complex: false };
        assert_eq!(view.entry(1)[0], Complex64::new(data[16] as f64, 0.0));
    }

    #[test]
    fn c2r_input_is_hermitian() {
        for lengths in [vec![8], vec![7], vec![6, 3], vec![5, 4], vec![4, 3, 4], vec![6, 5, 2]] {
            let case = FftArgs { transform: TransformType::RealInverse, lengths: lengths.clone(), batch: 2, ..FftArgs::default() };
            let (i, _) = layouts(&case);
            let herm = case.input_lengths();
            let data: Vec<f64> = generate_input(&case, &i, 2 * herm.iter().product::<usize>() * 2);
            let view = View { data: &data, layout: &i, lengths: &herm, complex: true };
            for entry in 0..2 {
                let x = view.entry(entry);
                // The full spectrum's symmetry, wherever both k and -k are stored.
                let (l0, h0) = (lengths[0], herm[0]);
                let (l1, l2) = (herm.get(1).copied().unwrap_or(1), herm.get(2).copied().unwrap_or(1));
                for k2 in 0..l2 {
                    for k1 in 0..l1 {
                        for k0 in 0..h0 {
                            let m0 = (l0 - k0) % l0;
                            if m0 >= h0 {
                                continue;
                            }
                            let (a, b) = (x[k0 + h0 * (k1 + l1 * k2)], x[m0 + h0 * ((l1 - k1) % l1 + l1 * ((l2 - k2) % l2))]);
                            assert_eq!(a, b.conj(), "{lengths:?} entry {entry} at ({k0}, {k1}, {k2})");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn compare_and_verdict() {
        let layout = Layout { array_type: ArrayType::ComplexInterleaved, offsets: [0, 0], strides: vec![1], distance: 2 };
        let want = [1.0f64, -2.0, 0.5, 0.25, 9.0, 9.0, 3.0, 4.0];
        let got = [1.0f32, -2.0, 0.5, 0.25, 7.0, 7.0, 3.0, 4.5];
        let (g, w) = (View { data: &got, layout: &layout, lengths: &[2], complex: true }, View { data: &want, layout: &layout, lengths: &[2], complex: true });
        // Entry 0 of got against entry 0 of want, entry 3 ... here: entries (0, 0) and (1, 1).
        let n = compare(&g, &[0], &w, &[0]);
        assert_eq!(n, Norms { diff_linf: 0.0, diff_l2: 0.0, ref_linf: 2.0, ref_l2: (1.0f64 + 4.0 + 0.25 + 0.0625).sqrt() });
        assert!(verdict(&n, Precision::Single, 2).is_ok());
        let n = compare(&g, &[1], &w, &[1]);
        assert_eq!(n.diff_linf, 2.0);
        assert_eq!(n.ref_linf, 9.0);
        assert!(verdict(&n, Precision::Single, 2).is_err());
        // NaN never passes.
        let nan = [f32::NAN, 0.0, 0.0, 0.0];
        let gn = View { data: &nan, layout: &layout, lengths: &[2], complex: true };
        assert_eq!(compare(&gn, &[0], &w, &[0]).diff_linf, f64::INFINITY);
        // The cutoff scales with eps, ||ref||inf and ln N.
        let n = Norms { diff_linf: 3.75e-5 * 10.0 * (1024f64).ln() * 0.99, diff_l2: 1e-6, ref_linf: 10.0, ref_l2: 1.0 };
        assert!(verdict(&n, Precision::Single, 1024).is_ok());
        assert!(verdict(&Norms { diff_linf: n.diff_linf * 1.02, ..n }, Precision::Single, 1024).is_err());
        assert!(verdict(&Norms { diff_l2: 3.75e-5 * 10f64.sqrt() * 1.01, ..n }, Precision::Single, 1024).is_err());
        assert!(verdict(&n, Precision::Double, 1024).is_err());
    }

    #[test]
    fn suites() {
        let gpu = suite_cases(true);
        assert_eq!(gpu.len(), 17 + 2 + 3);
        assert!(gpu[..17].iter().all(|c| c.n() * c.batch == 1 << 26 && c.transform == TransformType::ComplexForward));
        assert_eq!(gpu.last().unwrap().label(), "c2c d 1048576 b64");
        assert!(gpu.iter().any(|c| c.label() == "r2c s 512x512x512 b1"));
        let cpu = suite_cases(false);
        assert_eq!(cpu.len(), 9 + 2 + 2);
        assert!(cpu.iter().all(|c| c.n() * c.batch <= 1 << 21));
        assert!(cpu.iter().any(|c| c.label() == "c2c s 4099 b255"));
    }
}
