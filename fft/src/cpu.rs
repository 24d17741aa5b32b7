//! The CPU path: every plan runs here, and it is the reference for the GPU.
//!
//! A transform is a sequence of passes, one per dimension. A pass runs 1D transforms along its
//! dimension over every "line" (every index of the other dimensions and of the batch): it
//! gathers a panel of lines from its source through raw pointers into per-thread scratch (in the
//! compute precision), transforms them with a 1D FFT (`Cache::fft`: our AVX-512 or AVX2 line
//! kernels for single-precision lengths they take, `lines.rs`; RustFFT otherwise), and scatters
//! them to its destination (strided lines of lengths of 2, 3 and 5 instead run as column FFTs, 16
//! neighbours at a time: `columns.rs`, `run_columns`; f32 lines of 2^a 5^b on the line kernels'
//! instruction set, `lines::LineColumns`). So any layout (offsets, strides, distances,
//! interleaved, planar, real, hermitian) runs the same way, each line reads all of its input
//! before writing, and no `&mut` slice ever covers user memory that something else may touch.
//!
//! - Complex: passes along dims 0, 1, 2; input -> output, then output -> output.
//! - Real forward: the real transform along dim 0 (input -> output), then complex passes along
//!   the other dims on the output.
//! - Real inverse: complex passes along dims 1.. (input -> host work array), then the real
//!   inverse along dim 0 (work -> output). The input is never written.
//! - Half precision computes in f32; with more than one pass the intermediate lives in an f32
//!   work array, so the result is rounded to f16 once, at the end.
//!
//! Even real lengths use the half-length complex transform (pairs of reals as one complex
//! number, an N/2-point FFT, then the split twiddle step); odd ones a full complex FFT.
//!
//! Fast path: a complex pass whose lines are contiguous, packed and of the compute type (a
//! batched 1D c2c on interleaved f32/f64 data, or dim 0 of a packed multi-dimensional one) hands
//! the memory to the 1D FFT directly. Strided lines go in panels of neighbours (one cache line
//! serves several lines), with the panel's rows padded off 4 KiB multiples. Lines, chunks of
//! lines, or groups of whole small transforms run in parallel when the plan holds more than
//! 2^15 elements: the calling thread and helpers from the rayon pool take tasks from a shared
//! counter (`for_each_task`); a single long 1D transform is one RustFFT call on one thread.
//! Large 3D transforms run their first two passes plane by plane, then the third.
//! Scratch (panels, RustFFT's scratch, the work array) comes from a per-thread pool, so repeated
//! executions reuse mapped memory.
//!
//! Parallel work and the fast path need lines that share no memory. The plan guarantees that
//! for its outputs; when the caller's buffers break it (out-of-place input and output that
//! overlap, planar buffers that overlap, in-place input elements that share memory), the
//! transform runs serially through the gather/scatter path: a defined, if meaningless, result.
use crate::columns::{ColumnFft, Rows, AVX2_CHUNK, LANES};
use crate::plan::{Layout, Plan};
use crate::types::{ArrayType, FftError, Placement, Precision, Result, Status, TransformType};
use num_complex::Complex;
use num_traits::{Float, Zero};
use rustfft::{Fft, FftDirection, FftNum, FftPlanner};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, OnceLock};

/// Plans with more elements than this (all transforms together) run in parallel.
const PARALLEL_ELEMENTS: usize = 1 << 15;
/// Planes a task of a large 3D transform's first two passes takes: small tasks even out the
/// helper threads' late starts.
const PLANE_GROUP: usize = 2;
/// Transforms up to this size are grouped whole (all passes of a group in cache, one group per
/// task) when the batch is large enough to keep every thread busy.
const GROUP_ELEMENTS: usize = 1 << 15;
/// The f32/f64 work array of the passes that need one holds at most this many elements (or one
/// transform); larger batches run in chunks.
const WORK_ELEMENTS: usize = 1 << 22;
/// A parallel task's share of a pass, in elements.
const TASK_ELEMENTS: usize = 1 << 13;
/// A parallel task's share of contiguous lines straight to the FFT, in elements: the line
/// kernels (`lines.rs`) prefetch the next line of their task, so tasks of several lines (8 of
/// 4096) run faster than [`TASK_ELEMENTS`]' (2 of 4096): 4096 x 256 0.80-0.82 -> 0.75-0.77 ms,
/// 2048 x 512 0.76-0.78 -> 0.69-0.73 ms on 2 threads; 1024 and 256 level.
const DIRECT_TASK_ELEMENTS: usize = 1 << 15;
/// The most lines in a panel.
const MAX_PANEL: usize = 128;

/// Runs `plan` on host memory.
///
/// # Safety
/// As [`Plan::execute_raw`]: the pointers are host memory covering the plan's layouts.
pub(crate) unsafe fn execute(plan: &Plan, input: &[*mut c_void], output: &[*mut c_void]) -> Result<()> {
    match plan.precision {
        Precision::Single => run::<f32, f32>(plan, input, output),
        Precision::Double => run::<f64, f64>(plan, input, output),
        Precision::Half => run::<half::f16, f32>(plan, input, output),
    }
}

/// A compute type: f32 or f64, with its process-wide cache of RustFFT plans and real-transform
/// twiddles.
pub(crate) trait Real: FftNum + Float + Scalar<Self> {
    fn cache() -> &'static Cache<Self>;
    /// Runs `f` on this thread's scratch pool (`None` while the thread is being torn down).
    fn with_pool<R>(f: impl FnOnce(&mut Pooled<Self>) -> R) -> Option<R>;
}

/// Plans per (length, inverse), `None` where a kind of plan does not take the length.
type PerLength<T> = Mutex<HashMap<(usize, bool), Option<T>>>;

pub(crate) struct Cache<F: FftNum> {
    planner: Mutex<FftPlanner<F>>,
    /// Column FFTs per (length, inverse), `None` for lengths they do not take.
    columns: PerLength<Arc<ColumnFft<F>>>,
    /// exp(-2 pi i j / n) for j < n/2, per even real length n.
    twiddles: Mutex<HashMap<usize, Arc<[Complex<F>]>>>,
    /// AVX-512 line kernels per (length, inverse), `None` where they do not run (f64, no
    /// AVX-512, lengths they do not take).
    lines: PerLength<Arc<dyn Fft<F>>>,
}

impl<F: Real> Cache<F> {
    fn new() -> Cache<F> {
        Cache {
            planner: Mutex::new(FftPlanner::new()),
            columns: Mutex::new(HashMap::new()),
            twiddles: Mutex::new(HashMap::new()),
            lines: Mutex::new(HashMap::new()),
        }
    }

    /// The 1D FFT of `len`: our AVX-512 line kernels where they run (`lines.rs`), else RustFFT's.
    fn fft(&self, len: usize, inverse: bool) -> Arc<dyn Fft<F>> {
        let line = self.lines.lock().unwrap_or_else(|e| e.into_inner()).entry((len, inverse)).or_insert_with(|| crate::lines::planned::<F>(len, inverse)).clone();
        if let Some(line) = line {
            return line;
        }
        let direction = if inverse { FftDirection::Inverse } else { FftDirection::Forward };
        self.planner.lock().unwrap_or_else(|e| e.into_inner()).plan_fft(len, direction)
    }

    /// (`ROCMATH_FFT_COLUMNS=0` turns the column FFTs off: strided lines then go through the
    /// transposes and RustFFT, for comparison.)
    fn columns(&self, len: usize, inverse: bool) -> Option<Arc<ColumnFft<F>>> {
        static OFF: OnceLock<bool> = OnceLock::new();
        if *OFF.get_or_init(|| std::env::var("ROCMATH_FFT_COLUMNS").is_ok_and(|v| v == "0")) {
            return None;
        }
        let mut map = self.columns.lock().unwrap_or_else(|e| e.into_inner());
        map.entry((len, inverse)).or_insert_with(|| ColumnFft::new(len, inverse).map(Arc::new)).clone()
    }

    fn real_twiddles(&self, n: usize) -> Arc<[Complex<F>]> {
        let mut map = self.twiddles.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(n)
            .or_insert_with(|| {
                (0..n / 2)
                    .map(|j| {
                        // Computed in f64 from an exact fraction, rounded once.
                        let (s, c) = (-2.0 * std::f64::consts::PI * j as f64 / n as f64).sin_cos();
                        Complex::new(F::from_f64(c).unwrap(), F::from_f64(s).unwrap())
                    })
                    .collect()
            })
            .clone()
    }
}

macro_rules! real_impl {
    ($t:ty) => {
        impl Real for $t {
            fn cache() -> &'static Cache<$t> {
                static CACHE: OnceLock<Cache<$t>> = OnceLock::new();
                CACHE.get_or_init(Cache::new)
            }
            fn with_pool<R>(f: impl FnOnce(&mut Pooled<$t>) -> R) -> Option<R> {
                thread_local!(static POOL: std::cell::RefCell<Pooled<$t>> = std::cell::RefCell::new(Pooled::default()));
                POOL.try_with(|p| p.try_borrow_mut().ok().map(|mut p| f(&mut p))).ok().flatten()
            }
        }
    };
}
real_impl!(f32);
real_impl!(f64);

/// A storage scalar computed in `F`: f32 and f64 in themselves, f16 in f32.
pub(crate) trait Scalar<F>: Copy + Send + Sync + 'static {
    /// The storage type is `F` itself, so its memory can go to RustFFT as it is.
    const NATIVE: bool;
    fn load(self) -> F;
    fn store(v: F) -> Self;
}
impl Scalar<f32> for f32 {
    const NATIVE: bool = true;
    #[inline(always)]
    fn load(self) -> f32 {
        self
    }
    #[inline(always)]
    fn store(v: f32) -> f32 {
        v
    }
}
impl Scalar<f64> for f64 {
    const NATIVE: bool = true;
    #[inline(always)]
    fn load(self) -> f64 {
        self
    }
    #[inline(always)]
    fn store(v: f64) -> f64 {
        v
    }
}
impl Scalar<f32> for half::f16 {
    const NATIVE: bool = false;
    #[inline(always)]
    fn load(self) -> f32 {
        self.to_f32()
    }
    #[inline(always)]
    fn store(v: f32) -> half::f16 {
        half::f16::from_f32(v)
    }
}

/// One side of a pass (the plan's input or output, or the work array), addressed in scalars.
#[derive(Clone, Copy, Debug)]
struct Side<E> {
    /// The first element's real part.
    re: *mut E,
    /// Its imaginary part (`re + 1` interleaved; the second buffer planar; unused for real).
    im: *mut E,
    /// Scalars between neighbours along each dimension (fastest first); `strides[rank]` is the
    /// distance between transforms.
    strides: [usize; 4],
    interleaved: bool,
}

// SAFETY: a Side is an address; the passes only touch disjoint lines from different threads
// (see `run`: anything that could make lines share memory runs serially).
unsafe impl<E: Send> Send for Side<E> {}
unsafe impl<E: Sync> Sync for Side<E> {}

impl<E> Side<E> {
    /// The side of `layout` over the buffers `ptrs` (scalar pointers), for `rank` dimensions.
    ///
    /// # Safety
    /// The buffers hold the layout's offsets.
    unsafe fn of_layout(layout: &Layout, ptrs: &[*mut c_void], rank: usize) -> Side<E> {
        let mut strides = [0; 4];
        let per = layout.array_type.scalars_per_element();
        for (s, &l) in strides.iter_mut().zip(&layout.strides) {
            *s = l * per;
        }
        strides[rank] = layout.distance * per;
        let base = ptrs[0] as *mut E;
        let (re, im, interleaved) = {
            match layout.array_type {
                ArrayType::ComplexInterleaved | ArrayType::HermitianInterleaved => {
                    let re = base.add(2 * layout.offsets[0]);
                    (re, re.wrapping_add(1), true)
                }
                ArrayType::ComplexPlanar | ArrayType::HermitianPlanar => {
                    (base.add(layout.offsets[0]), (ptrs[1] as *mut E).add(layout.offsets[1]), false)
                }
                _ => {
                    let re = base.add(layout.offsets[0]);
                    (re, re, false)
                }
            }
        };
        Side { re, im, strides, interleaved }
    }

    /// A packed interleaved array of complex-side `lengths`, per transform, at `ptr`.
    fn packed(ptr: *mut Complex<E>, lengths: &[usize]) -> Side<E> {
        let mut strides = [0; 4];
        let mut acc = 2;
        for (s, &l) in strides.iter_mut().zip(lengths) {
            *s = acc;
            acc *= l;
        }
        strides[lengths.len()] = acc;
        let re = ptr as *mut E;
        Side { re, im: re.wrapping_add(1), strides, interleaved: true }
    }

    /// The same side starting `batch` transforms later.
    ///
    /// # Safety
    /// `batch` must be inside the plan's batch.
    unsafe fn shifted(self, batch: usize, rank: usize) -> Side<E> {
        let by = batch * self.strides[rank];
        Side { re: self.re.add(by), im: self.im.wrapping_add(by), ..self }
    }

    #[inline(always)]
    unsafe fn get<F>(&self, at: usize) -> Complex<F>
    where
        E: Scalar<F>,
    {
        Complex::new(self.re.add(at).read().load(), self.im.add(at).read().load())
    }
    /// `get` for an interleaved side: the element as one access.
    #[inline(always)]
    unsafe fn get_interleaved<F>(&self, at: usize) -> Complex<F>
    where
        E: Scalar<F>,
    {
        let v = self.re.add(at).cast::<Complex<E>>().read();
        Complex::new(v.re.load(), v.im.load())
    }
    /// `put` for an interleaved side.
    #[inline(always)]
    unsafe fn put_interleaved<F>(&self, at: usize, v: Complex<F>)
    where
        E: Scalar<F>,
    {
        self.re.add(at).cast::<Complex<E>>().write(Complex::new(E::store(v.re), E::store(v.im)));
    }
    /// Two consecutive reals at `at` as one complex number (real sides, unit step).
    #[inline(always)]
    unsafe fn get_pair<F>(&self, at: usize) -> Complex<F>
    where
        E: Scalar<F>,
    {
        let v = self.re.add(at).cast::<Complex<E>>().read();
        Complex::new(v.re.load(), v.im.load())
    }
    #[inline(always)]
    unsafe fn get_re<F>(&self, at: usize) -> F
    where
        E: Scalar<F>,
    {
        self.re.add(at).read().load()
    }
    #[inline(always)]
    unsafe fn put<F>(&self, at: usize, v: Complex<F>)
    where
        E: Scalar<F>,
    {
        self.re.add(at).write(E::store(v.re));
        self.im.add(at).write(E::store(v.im));
    }
    #[inline(always)]
    unsafe fn put_re<F>(&self, at: usize, v: F)
    where
        E: Scalar<F>,
    {
        self.re.add(at).write(E::store(v));
    }
}

/// A real transform of length `n`: for even `n` an n/2-point complex FFT and the twiddles
/// exp(-2 pi i j / n), j < n/2; for odd `n` an n-point complex FFT.
struct RealFft<F: FftNum> {
    n: usize,
    fft: Arc<dyn Fft<F>>,
    twiddles: Arc<[Complex<F>]>,
}

impl<F: Real> RealFft<F> {
    fn new(n: usize, inverse: bool) -> RealFft<F> {
        let cache = F::cache();
        if n & 1 == 0 {
            RealFft { n, fft: cache.fft(n / 2, inverse), twiddles: cache.real_twiddles(n) }
        } else {
            RealFft { n, fft: cache.fft(n, inverse), twiddles: Arc::from(Vec::new()) }
        }
    }
}

enum Op<F: FftNum> {
    C2c(Arc<dyn Fft<F>>),
    R2c(RealFft<F>),
    C2r(RealFft<F>),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Loc {
    Input,
    Output,
    Work,
}

struct Pass<F: FftNum> {
    op: Op<F>,
    /// The dimension the lines run along.
    dim: usize,
    src: Loc,
    dst: Loc,
    /// The plan's scale factor, applied by the last pass (`None` when it is 1).
    scale: Option<F>,
    /// A complex pass's column FFT, for strided lines (`None` for lengths it does not take).
    columns: Option<Arc<ColumnFft<F>>>,
}

/// Where a pass's lines are: their lengths and steps on each side, and the other dimensions
/// (batch included), fastest first, as (length, source stride, destination stride) in scalars.
struct Lines {
    n_in: usize,
    n_out: usize,
    step_in: usize,
    step_out: usize,
    outer: [(usize, usize, usize); 3],
    count: usize,
}

impl Lines {
    fn new(dim: usize, clen: &[usize], batch: usize, src: &[usize; 4], dst: &[usize; 4], n: (usize, usize)) -> Lines {
        let rank = clen.len();
        let mut outer = [(1, 0, 0); 3];
        let mut i = 0;
        for e in (0..rank).filter(|&e| e != dim) {
            outer[i] = (clen[e], src[e], dst[e]);
            i += 1;
        }
        outer[i] = (batch, src[rank], dst[rank]);
        let count = outer.iter().map(|o| o.0).product();
        Lines { n_in: n.0, n_out: n.1, step_in: src[dim], step_out: dst[dim], outer, count }
    }

    /// Scalar offsets of line `l`'s first element on the source and destination.
    #[cfg(test)]
    fn offsets(&self, mut l: usize) -> (usize, usize) {
        let (mut a, mut b) = (0, 0);
        for &(len, s, d) in &self.outer {
            let i = l % len;
            l /= len;
            a += i * s;
            b += i * d;
        }
        (a, b)
    }

    /// `offsets` of lines `l0 .. l0 + sb.len()` into `sb` and `db` (one division per
    /// dimension for the first line, then counting).
    #[inline]
    fn offsets_from(&self, l0: usize, sb: &mut [usize], db: &mut [usize]) {
        let mut idx = [0usize; 3];
        let mut l = l0;
        for (i, &(len, _, _)) in idx.iter_mut().zip(&self.outer) {
            *i = l % len;
            l /= len;
        }
        for (a, b) in sb.iter_mut().zip(db.iter_mut()) {
            (*a, *b) = (0, 0);
            for (&i, &(_, s, d)) in idx.iter().zip(&self.outer) {
                *a += i * s;
                *b += i * d;
            }
            for (i, &(len, _, _)) in idx.iter_mut().zip(&self.outer) {
                *i += 1;
                if *i < len {
                    break;
                }
                *i = 0;
            }
        }
    }

    /// How many lines in a row start one complex element after the previous one on both sides
    /// (1 if the fastest other dimension is not packed so).
    fn neighbour_run(&self) -> usize {
        let mut run = 1;
        for &(len, s, d) in &self.outer {
            if len == 1 {
                continue;
            }
            if s != 2 * run || d != 2 * run {
                break;
            }
            run *= len;
        }
        run
    }

    /// Whether all lines lie back to back, packed with unit steps, for `n`-element complex
    /// lines (`side` 0 = source, 1 = destination).
    fn contiguous(&self, side: usize) -> bool {
        let (n, step) = if side == 0 { (self.n_in, self.step_in) } else { (self.n_out, self.step_out) };
        if step != 2 && n > 1 {
            return false;
        }
        let mut expect = 2 * n;
        for &(len, s, d) in &self.outer {
            let stride = if side == 0 { s } else { d };
            if len > 1 && stride != expect {
                return false;
            }
            expect *= len;
        }
        true
    }
}

/// Per-thread scratch: the work array, the panel of lines and RustFFT's scratch. It comes from
/// the thread's pool and goes back there when dropped, so repeated executions (and the rayon
/// workers' tasks) reuse memory that is already mapped instead of faulting in fresh pages. A
/// thread keeps the largest buffers it has used.
struct Scratch<F: Real> {
    work: Vec<Complex<F>>,
    lines: Vec<Complex<F>>,
    fft: Vec<Complex<F>>,
    /// One hermitian line of a real transform.
    aux: Vec<Complex<F>>,
}

/// What a thread's pool holds.
#[derive(Default)]
pub(crate) struct Pooled<F> {
    work: Vec<Complex<F>>,
    lines: Vec<Complex<F>>,
    fft: Vec<Complex<F>>,
    aux: Vec<Complex<F>>,
}

impl<F: Real> Scratch<F> {
    fn take() -> Scratch<F> {
        let take = std::mem::take::<Vec<Complex<F>>>;
        F::with_pool(|p| Scratch { work: take(&mut p.work), lines: take(&mut p.lines), fft: take(&mut p.fft), aux: take(&mut p.aux) })
            .unwrap_or(Scratch { work: Vec::new(), lines: Vec::new(), fft: Vec::new(), aux: Vec::new() })
    }
}

impl<F: Real> Drop for Scratch<F> {
    fn drop(&mut self) {
        F::with_pool(|p| {
            for (mine, pooled) in [(&mut self.work, &mut p.work), (&mut self.lines, &mut p.lines), (&mut self.fft, &mut p.fft), (&mut self.aux, &mut p.aux)] {
                if mine.capacity() > pooled.capacity() {
                    *pooled = std::mem::take(mine);
                }
            }
        });
    }
}

fn grow<F: FftNum>(v: &mut Vec<Complex<F>>, len: usize) -> &mut [Complex<F>] {
    if v.len() < len {
        v.resize(len, Complex::zero());
    }
    &mut v[..len]
}

/// Everything a group of transforms needs: the sides, the passes, the lengths.
struct Job<S, F: FftNum> {
    input: Side<S>,
    output: Side<S>,
    passes: Vec<Pass<F>>,
    /// Logical (real) lengths and complex-side lengths (the hermitian half on dim 0 of a real
    /// transform).
    lengths: Vec<usize>,
    clen: Vec<usize>,
    /// Whether nothing can make two lines share memory (see `run`): parallel work and direct
    /// RustFFT calls on user memory are allowed.
    disjoint: bool,
}

unsafe fn run<S: Scalar<F>, F: Real>(plan: &Plan, input: &[*mut c_void], output: &[*mut c_void]) -> Result<()> {
    for (arg, ptrs, count) in [
        ("in_buffer", input, plan.input.array_type.buffer_count()),
        ("out_buffer", output, plan.output.array_type.buffer_count()),
    ] {
        if ptrs[..count].iter().any(|p| !(*p as *const S).is_aligned()) {
            return Err(FftError::new(Status::InvalidArgValue, arg, format!("not aligned to its {}-byte scalars", std::mem::align_of::<S>())));
        }
    }
    let rank = plan.lengths.len();
    let lengths = plan.lengths.clone();
    let mut clen = lengths.clone();
    if plan.transform.is_real() {
        clen[0] = lengths[0] / 2 + 1;
    }
    let half = !S::NATIVE;
    let needs_work = rank > 1 && (half || plan.transform == TransformType::RealInverse);

    // The passes, in order, and where each reads and writes.
    let cache = F::cache();
    let mut ops: Vec<(Op<F>, usize)> = Vec::new();
    match plan.transform {
        TransformType::ComplexForward | TransformType::ComplexInverse => {
            let inverse = plan.transform == TransformType::ComplexInverse;
            for (d, &n) in lengths.iter().enumerate() {
                ops.push((Op::C2c(cache.fft(n, inverse)), d));
            }
        }
        TransformType::RealForward => {
            ops.push((Op::R2c(RealFft::new(lengths[0], false)), 0));
            for (d, &n) in lengths.iter().enumerate().skip(1) {
                ops.push((Op::C2c(cache.fft(n, false)), d));
            }
        }
        TransformType::RealInverse => {
            for (d, &n) in lengths.iter().enumerate().skip(1) {
                ops.push((Op::C2c(cache.fft(n, true)), d));
            }
            ops.push((Op::C2r(RealFft::new(lengths[0], true)), 0));
        }
    }
    let mid = if needs_work { Loc::Work } else { Loc::Output };
    let last = ops.len() - 1;
    let scale = (plan.scale != 1.0).then(|| F::from_f64(plan.scale).unwrap());
    let passes = ops
        .into_iter()
        .enumerate()
        .map(|(i, (op, dim))| Pass {
            columns: match &op {
                Op::C2c(f) => cache.columns(f.len(), f.fft_direction() == FftDirection::Inverse),
                _ => None,
            },
            op,
            dim,
            src: if i == 0 { Loc::Input } else { mid },
            dst: if i == last { Loc::Output } else { mid },
            scale: if i == last { scale } else { None },
        })
        .collect();

    let job = Job {
        input: Side::<S>::of_layout(&plan.input, input, rank),
        output: Side::<S>::of_layout(&plan.output, output, rank),
        passes,
        lengths,
        clen,
        disjoint: lines_disjoint::<S>(plan, input, output),
    };

    let batch = plan.batch;
    let per_transform: usize = job.lengths.iter().product();
    let work_per_transform: usize = job.clen.iter().product();
    let parallel = job.disjoint && rayon::current_num_threads() > 1 && per_transform.saturating_mul(batch) > PARALLEL_ELEMENTS;

    if parallel && rank > 1 && per_transform <= GROUP_ELEMENTS && batch > 1 {
        // Many small multi-dimensional transforms: each task runs all passes of a group of
        // whole transforms in its own cache.
        run_groups(&job, batch);
    } else if parallel && rank == 3 && !needs_work && job.lengths[0] * job.lengths[1] <= GROUP_ELEMENTS && job.lengths[2] > 1 {
        // Large 3D transforms: the passes along dims 0 and 1 run plane by plane (each task a
        // group of planes, both passes while they are in cache), then the pass along dim 2,
        // so that the data crosses memory twice instead of three times.
        let Job { input, output, mut passes, lengths, clen, disjoint } = job;
        let last = passes.pop().expect("a 3D plan has three passes");
        let plane = |side: Side<S>| Side { strides: [side.strides[0], side.strides[1], side.strides[2], 0], ..side };
        // Transform b's planes as a batch of 2D transforms.
        let planes_of = |b: usize, passes| Job { input: plane(input.shifted(b, rank)), output: plane(output.shifted(b, rank)), passes, lengths: lengths[..2].to_vec(), clen: clen[..2].to_vec(), disjoint };
        for b in 0..batch - 1 {
            let planes = planes_of(b, passes);
            run_groups(&planes, lengths[2]);
            passes = planes.passes;
        }
        // The last transform's planes open the third pass's parallel region (its tasks wait for
        // them): one wake-up of the helper threads instead of two. On 2 threads, 64^3 c2c lost
        // about 50 us a region to the late helper.
        let planes = planes_of(batch - 1, passes);
        let group = PLANE_GROUP.min(lengths[2]);
        // SAFETY: the planes are disjoint (`disjoint`); g < lengths[2].div_ceil(group).
        let plane_tasks = |scratch: &mut Scratch<F>, g: usize| unsafe { run_group_task(&planes, lengths[2], group, scratch, g) };
        let rest = Job { input, output, passes: vec![last], lengths: lengths.clone(), clen, disjoint };
        let mut scratch = Scratch::take();
        let mut work = std::mem::take(&mut scratch.work);
        run_group(&rest, 0, batch, &mut work, &mut scratch, parallel, Some((lengths[2].div_ceil(group), &plane_tasks)));
        scratch.work = work;
    } else {
        let chunk = if needs_work { (WORK_ELEMENTS / work_per_transform).clamp(1, batch) } else { batch };
        let mut scratch = Scratch::take();
        let mut work = std::mem::take(&mut scratch.work);
        for b0 in (0..batch).step_by(chunk) {
            run_group(&job, b0, chunk.min(batch - b0), &mut work, &mut scratch, parallel, None);
        }
        scratch.work = work;
    }
    Ok(())
}

/// All passes of `batch` whole transforms, a group of them per parallel task (as many as fit
/// `GROUP_ELEMENTS`, and at least 4 groups a thread).
///
/// # Safety
/// As [`run_group`]; the job's transforms are disjoint.
unsafe fn run_groups<S: Scalar<F>, F: Real>(job: &Job<S, F>, batch: usize) {
    let per_transform: usize = job.lengths.iter().product();
    let group = (GROUP_ELEMENTS / per_transform).clamp(1, batch.div_ceil(4 * rayon::current_num_threads()));
    // SAFETY: the groups' transforms are disjoint (`job.disjoint`); g < batch.div_ceil(group).
    for_each_task(batch.div_ceil(group), &mut Scratch::take(), |scratch, g| unsafe { run_group_task(job, batch, group, scratch, g) });
}

/// One task of a grouped run: every pass of transforms `g * group ..` (at most `group` of the
/// `batch`), on this thread, with the scratch's work array.
///
/// # Safety
/// As [`run_group`]; `g * group < batch`, and no other task touches these transforms.
unsafe fn run_group_task<S: Scalar<F>, F: Real>(job: &Job<S, F>, batch: usize, group: usize, scratch: &mut Scratch<F>, g: usize) {
    let b0 = g * group;
    let mut work = std::mem::take(&mut scratch.work);
    run_group(job, b0, group.min(batch - b0), &mut work, scratch, false, None);
    scratch.work = work;
}

/// Byte ranges of each buffer a layout touches.
fn byte_ranges(layout: &Layout, lengths: &[usize], batch: usize, ptrs: &[*mut c_void], scalar: usize) -> Vec<(usize, usize)> {
    let per = layout.array_type.scalars_per_element() * scalar;
    (0..layout.array_type.buffer_count())
        .map(|plane| {
            let base = ptrs[plane] as usize;
            let end = layout.extent(lengths, batch, plane).unwrap_or(usize::MAX / per);
            (base.saturating_add(layout.offsets[plane] * per), base.saturating_add(end.saturating_mul(per)))
        })
        .collect()
}

/// Whether two elements of a side share a scalar (sorting dimensions and batch by stride, each
/// stride must step over everything the faster ones cover).
fn self_overlapping(layout: &Layout, lengths: &[usize], batch: usize) -> bool {
    let per = layout.array_type.scalars_per_element();
    let mut dims: Vec<(usize, usize)> =
        lengths.iter().zip(&layout.strides).map(|(&l, &s)| (s * per, l)).chain([(layout.distance * per, batch)]).filter(|&(_, l)| l > 1).collect();
    dims.sort();
    let mut covered = per;
    for (stride, len) in dims {
        if stride < covered {
            return true;
        }
        covered = covered.saturating_add(stride.saturating_mul(len - 1));
    }
    false
}

/// Whether distinct lines (and distinct transforms) of the plan can never share memory, so
/// they may run in parallel and the fast path may borrow user memory as slices. The plan
/// guarantees disjoint output elements and, in place, that each transform's output lies where
/// its own input was; what is left is the caller's buffers: out of place, the input and output
/// must not overlap; planar buffers must not overlap each other; in place, the input elements
/// must be distinct too. Anything else runs serially (a well-defined, if meaningless, result).
fn lines_disjoint<S>(plan: &Plan, input: &[*mut c_void], output: &[*mut c_void]) -> bool {
    let scalar = std::mem::size_of::<S>();
    let ins = byte_ranges(&plan.input, &plan.input_lengths(), plan.batch, input, scalar);
    let outs = byte_ranges(&plan.output, &plan.output_lengths(), plan.batch, output, scalar);
    let meet = |a: (usize, usize), b: (usize, usize)| a.0 < b.1 && b.0 < a.1;
    if outs.len() == 2 && meet(outs[0], outs[1]) {
        return false;
    }
    if plan.placement == Placement::InPlace {
        if ins.len() == 2 && meet(ins[0], ins[1]) {
            return false;
        }
        return !self_overlapping(&plan.input, &plan.input_lengths(), plan.batch);
    }
    !ins.iter().any(|&i| outs.iter().any(|&o| meet(i, o)))
}

/// Runs every pass over transforms `b0 .. b0 + nb`, with `work` as the work array (grown as
/// needed) and `scratch` for serial passes.
///
/// # Safety
/// The job's sides address live memory for the plan's batch; `b0 + nb <= batch`.
unsafe fn run_group<S: Scalar<F>, F: Real>(
    job: &Job<S, F>,
    b0: usize,
    nb: usize,
    work: &mut Vec<Complex<F>>,
    scratch: &mut Scratch<F>,
    parallel: bool,
    mut before: Option<Tasks<'_, F>>,
) {
    let rank = job.lengths.len();
    let input = job.input.shifted(b0, rank);
    let output = job.output.shifted(b0, rank);
    let uses_work = job.passes.iter().any(|p| p.dst == Loc::Work);
    let work_side = if uses_work {
        let len = job.clen.iter().product::<usize>() * nb;
        Side::<F>::packed(grow(work, len).as_mut_ptr(), &job.clen)
    } else {
        Side::<F>::packed(std::ptr::NonNull::dangling().as_ptr(), &job.clen)
    };
    let direct = job.disjoint;
    for pass in &job.passes {
        let strides = |loc: Loc| match loc {
            Loc::Input => input.strides,
            Loc::Output => output.strides,
            Loc::Work => work_side.strides,
        };
        let n = match &pass.op {
            Op::C2c(f) => (f.len(), f.len()),
            Op::R2c(r) => (r.n, r.n / 2 + 1),
            Op::C2r(r) => (r.n / 2 + 1, r.n),
        };
        let lines = Lines::new(pass.dim, &job.clen, nb, &strides(pass.src), &strides(pass.dst), n);
        let in_place = pass.src == pass.dst || (pass.src == Loc::Input && pass.dst == Loc::Output && input.re == output.re && input.strides == output.strides);
        match (pass.src, pass.dst) {
            (Loc::Work, Loc::Work) => run_pass(pass, &lines, work_side, work_side, in_place, direct, parallel, scratch, before.take()),
            (Loc::Work, _) => run_pass(pass, &lines, work_side, output, false, direct, parallel, scratch, before.take()),
            (_, Loc::Work) => run_pass(pass, &lines, input, work_side, false, direct, parallel, scratch, before.take()),
            (Loc::Input, _) => run_pass(pass, &lines, input, output, in_place, direct, parallel, scratch, before.take()),
            (_, _) => run_pass(pass, &lines, output, output, true, direct, parallel, scratch, before.take()),
        }
    }
}

/// One pass over `lines`, from `src` to `dst` (`in_place`: the same memory and layout).
#[allow(clippy::too_many_arguments)]
unsafe fn run_pass<A: Scalar<F>, B: Scalar<F>, F: Real>(
    pass: &Pass<F>,
    lines: &Lines,
    src: Side<A>,
    dst: Side<B>,
    in_place: bool,
    direct: bool,
    parallel: bool,
    scratch: &mut Scratch<F>,
    before: Option<Tasks<'_, F>>,
) {
    let run_before_here = |scratch: &mut Scratch<F>| {
        if let Some((tasks, body)) = before {
            (0..tasks).for_each(|t| body(scratch, t));
        }
    };
    if lines.count == 0 {
        run_before_here(scratch);
        return;
    }
    if let Op::C2c(fft) = &pass.op {
        if direct && A::NATIVE && B::NATIVE && src.interleaved && dst.interleaved && lines.contiguous(0) && lines.contiguous(1) {
            run_before_here(scratch);
            run_direct(fft, lines, src.re.cast::<F>(), dst.re.cast::<F>(), in_place, pass.scale, parallel, scratch);
            return;
        }
    }
    let n = lines.n_in.max(lines.n_out);
    // Lines per panel: strided lines go in panels of neighbours (whole cache lines of them, and
    // as many as fit half a megabyte, so that each page visited gives up a good run of bytes);
    // contiguous ones just amortise the calls.
    let strided = lines.step_in > 2 || lines.step_out > 2;
    let bytes = n * std::mem::size_of::<Complex<F>>();
    let mut panel = if strided { ((1 << 19) / bytes).clamp(8, 64) } else { (4096 / n).clamp(1, 64) };
    if pass.columns.is_some() && src.interleaved && dst.interleaved {
        // Column FFTs take whole blocks of neighbours, so a panel holds whole runs of them where
        // a run fits (65 lines along dim 1 of a 128^3 r2c: panels of 64 left a quarter of the
        // lines in partial blocks).
        let run = lines.neighbour_run();
        if run > panel && run <= MAX_PANEL {
            panel = run;
        }
    }
    let panel = panel.min(lines.count);
    let panels = lines.count.div_ceil(panel);
    let body = |s: &mut Scratch<F>, p: usize| {
        let l0 = p * panel;
        let k = panel.min(lines.count - l0);
        // SAFETY: lines l0..l0+k are inside the sides; no other task touches them.
        unsafe { run_panel(pass, lines, &src, &dst, l0, k, direct, s) };
    };
    if parallel && panels > 1 {
        let min = (TASK_ELEMENTS / (panel * n)).max(1);
        for_each_task_after(before, panels.div_ceil(min), scratch, |s, t| {
            for p in t * min..((t + 1) * min).min(panels) {
                body(s, p);
            }
        });
    } else {
        run_before_here(scratch);
        for p in 0..panels {
            body(scratch, p);
        }
    }
}

/// Runs `body(scratch, t)` for every task `t < tasks` on the calling thread and
/// `current_num_threads() - 1` helpers from the rayon pool, each taking the next task from a
/// shared counter. The caller working too means that the region starts at once on a running
/// thread and never waits on a pool worker that the scheduler woke onto a busy core: a late
/// helper just takes fewer tasks.
fn for_each_task<F: Real>(tasks: usize, scratch: &mut Scratch<F>, body: impl Fn(&mut Scratch<F>, usize) + Sync) {
    for_each_task_after(None, tasks, scratch, body)
}

/// Tasks that a parallel region runs first: their count and their body.
type Tasks<'a, F> = (usize, &'a (dyn Fn(&mut Scratch<F>, usize) + Sync));

/// [`for_each_task`], with the tasks of `before` (if any) first in the same region: a thread
/// that takes a task of `body` first waits (spinning) until every task of `before` has finished.
/// So two dependent steps share one wake-up of the helpers, and a helper that arrives late still
/// finds work in either. The tasks of `before` must not block on the rayon pool: a thread that
/// stole this region's helper job while waiting there could spin on a task below it on its own
/// stack. (Plane tasks run their passes serially.)
fn for_each_task_after<F: Real>(before: Option<Tasks<'_, F>>, tasks: usize, scratch: &mut Scratch<F>, body: impl Fn(&mut Scratch<F>, usize) + Sync) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (first, first_body) = before.unwrap_or((0, &|_, _| {}));
    let (next, finished) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let work = |s: &mut Scratch<F>| loop {
        let t = next.fetch_add(1, Ordering::Relaxed);
        if t < first {
            // Counted when it ends (see `Finish`).
            let _finish = Finish(&finished);
            first_body(s, t);
            continue;
        }
        if t >= first + tasks {
            break;
        }
        // Every task of `before` is taken; wait for the ones still running elsewhere.
        spin_until(|| finished.load(Ordering::Acquire) >= first);
        body(s, t - first);
    };
    let helpers = rayon::current_num_threads().saturating_sub(1).min((first + tasks).saturating_sub(1));
    // Helpers that have started and ended their share. When the caller runs out of tasks first,
    // it spins until every helper that started has ended, and only then lets the scope wait
    // (which then finds the jobs done, or waits for a helper that never started, which ends
    // at once). The scope's own wait puts the thread to sleep, and being woken took 50-55 us in
    // a quarter of the calls on the 2-vCPU dev VM (4096 x 256, two threads: 0.9 ms a call).
    let (started, ended) = (AtomicUsize::new(0), AtomicUsize::new(0));
    rayon::in_place_scope(|sc| {
        for _ in 0..helpers {
            sc.spawn(|_| {
                started.fetch_add(1, Ordering::AcqRel);
                let _end = Finish(&ended);
                work(&mut Scratch::take());
            });
        }
        work(scratch);
        spin_until(|| ended.load(Ordering::Acquire) >= started.load(Ordering::Acquire));
    });
}

/// Waits for `done` without sleeping: spins, then yields the core after 4096 tries (to a thread
/// it may be waiting for).
fn spin_until(done: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !done() {
        spins += 1;
        if spins < 1 << 12 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

/// Adds one to its counter when dropped, even by a panic (which then surfaces when the region
/// joins, instead of leaving the other threads waiting); Release: the work before it is visible
/// to whoever sees the count.
struct Finish<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Release);
    }
}

/// Chunk boundaries over `count` lines (chunk c is `starts[c] .. starts[c + 1]`): chunks of
/// `per_chunk` lines, then, on several threads, once fewer than 4 `threads` such chunks are
/// left, each a quarter of the remainder over `threads` (at least one line), so that the threads
/// finish within about a line of each other rather than a whole chunk. (With the caller's spin
/// at the end of the region, 2 threads, in turns with the old build: 4096 x 256 1.10-1.19 of
/// FFTW against 0.98-1.04, 1024 x 1024 1.17-1.25 against 1.10-1.28; the spin alone gave 1.10-1.16
/// and 1.16-1.19; capped at AVX2 the taper's share is larger: 4096 1.01-1.05, spin alone
/// 0.97-1.00, old 0.96-1.00.)
fn tapered_chunks(count: usize, per_chunk: usize, threads: usize) -> Vec<usize> {
    let mut starts = vec![0];
    let mut at = 0;
    while at < count {
        let left = count - at;
        let size = if threads > 1 { per_chunk.min((left / (4 * threads)).max(1)) } else { per_chunk.min(left) };
        at += size;
        starts.push(at);
    }
    starts
}

/// RustFFT straight on contiguous, packed lines of the compute type.
#[allow(clippy::too_many_arguments)]
unsafe fn run_direct<F: Real>(
    fft: &Arc<dyn Fft<F>>,
    lines: &Lines,
    src: *mut F,
    dst: *mut F,
    in_place: bool,
    scale: Option<F>,
    parallel: bool,
    scratch: &mut Scratch<F>,
) {
    let n = lines.n_in;
    let (src, dst) = (src as usize, dst as usize);
    let threads = if parallel { rayon::current_num_threads() } else { 1 };
    let per_chunk = (DIRECT_TASK_ELEMENTS / n).max(1).min(lines.count.div_ceil(4 * threads)).max(1);
    let starts = tapered_chunks(lines.count, per_chunk, threads);
    let chunks = starts.len() - 1;
    let body = |s: &mut Scratch<F>, c: usize| {
        let l0 = starts[c];
        let len = (starts[c + 1] - l0) * n;
        // SAFETY: the lines are contiguous in both sides (checked), the memory is the caller's
        // and nothing else touches it during the call (`direct`: input and output do not
        // overlap out of place); each chunk is a separate range.
        unsafe {
            let out = std::slice::from_raw_parts_mut((dst as *mut Complex<F>).add(l0 * n), len);
            if in_place {
                fft.process_with_scratch(out, grow(&mut s.fft, fft.get_inplace_scratch_len()));
            } else {
                let inp = std::slice::from_raw_parts((src as *const Complex<F>).add(l0 * n), len);
                fft.process_immutable_with_scratch(inp, out, grow(&mut s.fft, fft.get_immutable_scratch_len()));
            }
            if let Some(sc) = scale {
                for v in out.iter_mut() {
                    *v = v.scale(sc);
                }
            }
        }
    };
    if chunks > 1 && parallel {
        for_each_task(chunks, scratch, body);
    } else {
        for c in 0..chunks {
            body(scratch, c);
        }
    }
}

/// Gathers `bases.len()` complex lines of `n` elements (step `step`) into `buf`, one every
/// `row` elements. Lines of unit step are copied one after another; strided ones element by
/// element across the panel, so that neighbouring lines share the cache lines read.
#[inline(always)]
unsafe fn gather<A: Scalar<F>, F: Real>(src: &Side<A>, bases: &[usize], step: usize, n: usize, row: usize, buf: &mut [Complex<F>]) {
    // Interleaved elements move as one (a single 8- or 16-byte access), planar ones as two.
    if src.interleaved {
        gather_with(bases, step, n, row, buf, |at| src.get_interleaved(at));
    } else {
        gather_with(bases, step, n, row, buf, |at| src.get(at));
    }
}

#[inline(always)]
fn gather_with<F: Real>(bases: &[usize], step: usize, n: usize, row: usize, buf: &mut [Complex<F>], get: impl Fn(usize) -> Complex<F>) {
    if step <= 2 || bases.len() == 1 {
        for (k, &b) in bases.iter().enumerate() {
            for (j, v) in buf[k * row..k * row + n].iter_mut().enumerate() {
                *v = get(b + j * step);
            }
        }
    } else {
        for j in 0..n {
            for (k, &b) in bases.iter().enumerate() {
                buf[k * row + j] = get(b + j * step);
            }
        }
    }
}

/// Scatters complex lines from `buf` (times `scale`), the reverse of `gather`.
#[inline(always)]
unsafe fn scatter<B: Scalar<F>, F: Real>(dst: &Side<B>, bases: &[usize], step: usize, n: usize, row: usize, buf: &[Complex<F>], scale: Option<F>) {
    match (dst.interleaved, scale) {
        (true, None) => scatter_with(bases, step, n, row, buf, |at, v| dst.put_interleaved(at, v)),
        (true, Some(sc)) => scatter_with(bases, step, n, row, buf, |at, v| dst.put_interleaved(at, v.scale(sc))),
        (false, None) => scatter_with(bases, step, n, row, buf, |at, v| dst.put(at, v)),
        (false, Some(sc)) => scatter_with(bases, step, n, row, buf, |at, v| dst.put(at, v.scale(sc))),
    }
}

#[inline(always)]
fn scatter_with<F: Real>(bases: &[usize], step: usize, n: usize, row: usize, buf: &[Complex<F>], put: impl Fn(usize, Complex<F>)) {
    if step <= 2 || bases.len() == 1 {
        for (k, &b) in bases.iter().enumerate() {
            for (j, v) in buf[k * row..k * row + n].iter().enumerate() {
                put(b + j * step, *v);
            }
        }
    } else {
        for j in 0..n {
            for (k, &b) in bases.iter().enumerate() {
                put(b + j * step, buf[k * row + j]);
            }
        }
    }
}

/// `dst[c * dst_row + r] = src[r * src_row + c]` for `r < rows`, `c < cols` (complex elements;
/// the two sides must not overlap). In 4 x 4 tiles (f32) or 2 x 2 tiles (f64) through AVX
/// registers where the CPU has AVX, element by element otherwise.
///
/// # Safety
/// Both sides address live memory of the compute type covering the rectangle.
#[inline]
unsafe fn transpose<F: Real>(src: *const Complex<F>, src_row: usize, rows: usize, cols: usize, dst: *mut Complex<F>, dst_row: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx") {
            match std::mem::size_of::<Complex<F>>() {
                8 => return transpose_avx_8(src.cast(), src_row, rows, cols, dst.cast(), dst_row),
                16 => return transpose_avx_16(src.cast(), src_row, rows, cols, dst.cast(), dst_row),
                _ => {}
            }
        }
    }
    transpose_scalar(src, src_row, 0, rows, 0, cols, dst, dst_row);
}

/// The rectangle `r0..r1` x `c0..c1` of [`transpose`], element by element.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn transpose_scalar<T: Copy>(src: *const T, src_row: usize, r0: usize, r1: usize, c0: usize, c1: usize, dst: *mut T, dst_row: usize) {
    for r in r0..r1 {
        for c in c0..c1 {
            dst.add(c * dst_row + r).write(src.add(r * src_row + c).read());
        }
    }
}

/// Runs `$tile(r, c)` over the tiles of `rows` x `cols` (`$t` a side): row after row of
/// the side with the longer rows (`dst_row > src_row`: the destination's), so that each of its
/// cache lines is finished while still in L1 (rows 4 KiB multiples apart share a cache set).
macro_rules! for_tiles {
    ($rows:expr, $cols:expr, $t:expr, $dst_major:expr, |$r:ident, $c:ident| $body:block) => {
        if $dst_major {
            for $c in (0..$cols).step_by($t) {
                for $r in (0..$rows).step_by($t) $body
            }
        } else {
            for $r in (0..$rows).step_by($t) {
                for $c in (0..$cols).step_by($t) $body
            }
        }
    };
}

/// [`transpose`] of 8-byte elements (complex f32) as f64 lanes, 4 x 4 tiles.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn transpose_avx_8(src: *const f64, src_row: usize, rows: usize, cols: usize, dst: *mut f64, dst_row: usize) {
    use std::arch::x86_64::*;
    let (r4, c4) = (rows & !3, cols & !3);
    for_tiles!(r4, c4, 4, dst_row > src_row, |r, c| {
        let s = src.add(r * src_row + c);
        let a0 = _mm256_loadu_pd(s);
        let a1 = _mm256_loadu_pd(s.add(src_row));
        let a2 = _mm256_loadu_pd(s.add(2 * src_row));
        let a3 = _mm256_loadu_pd(s.add(3 * src_row));
        let t0 = _mm256_unpacklo_pd(a0, a1);
        let t1 = _mm256_unpackhi_pd(a0, a1);
        let t2 = _mm256_unpacklo_pd(a2, a3);
        let t3 = _mm256_unpackhi_pd(a2, a3);
        let d = dst.add(c * dst_row + r);
        _mm256_storeu_pd(d, _mm256_permute2f128_pd(t0, t2, 0x20));
        _mm256_storeu_pd(d.add(dst_row), _mm256_permute2f128_pd(t1, t3, 0x20));
        _mm256_storeu_pd(d.add(2 * dst_row), _mm256_permute2f128_pd(t0, t2, 0x31));
        _mm256_storeu_pd(d.add(3 * dst_row), _mm256_permute2f128_pd(t1, t3, 0x31));
    });
    transpose_scalar(src, src_row, 0, r4, c4, cols, dst, dst_row);
    transpose_scalar(src, src_row, r4, rows, 0, cols, dst, dst_row);
}

/// [`transpose`] of 16-byte elements (complex f64), 2 x 2 tiles of 128-bit lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn transpose_avx_16(src: *const Complex<f64>, src_row: usize, rows: usize, cols: usize, dst: *mut Complex<f64>, dst_row: usize) {
    use std::arch::x86_64::*;
    let (r2, c2) = (rows & !1, cols & !1);
    for_tiles!(r2, c2, 2, dst_row > src_row, |r, c| {
        let s = src.add(r * src_row + c).cast::<f64>();
        let a0 = _mm256_loadu_pd(s);
        let a1 = _mm256_loadu_pd(s.add(2 * src_row));
        let d = dst.add(c * dst_row + r).cast::<f64>();
        _mm256_storeu_pd(d, _mm256_permute2f128_pd(a0, a1, 0x20));
        _mm256_storeu_pd(d.add(2 * dst_row), _mm256_permute2f128_pd(a0, a1, 0x31));
    });
    transpose_scalar(src, src_row, 0, r2, c2, cols, dst, dst_row);
    transpose_scalar(src, src_row, r2, rows, 0, cols, dst, dst_row);
}

/// The maximal runs `i0..i1` of `bases` (interleaved lines) one complex element apart.
fn runs(bases: &[usize]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i0 = 0;
    std::iter::from_fn(move || {
        if i0 >= bases.len() {
            return None;
        }
        let mut i1 = i0 + 1;
        while i1 < bases.len() && bases[i1] == bases[i1 - 1] + 2 {
            i1 += 1;
        }
        let run = (i0, i1);
        i0 = i1;
        Some(run)
    })
}

/// Whether the lines at `bases` follow each other `stride` scalars apart.
fn back_to_back(bases: &[usize], stride: usize) -> bool {
    bases.windows(2).all(|w| w[1] == w[0] + stride)
}

/// Writes the complex rows of `buf` (`m` each) as pairs of consecutive reals to the lines at
/// `bases` of a real side with unit step.
#[inline(always)]
unsafe fn put_pairs<B: Scalar<F>, F: Real>(dst: &Side<B>, bases: &[usize], m: usize, buf: &[Complex<F>], f: impl Fn(Complex<F>) -> Complex<F>) {
    for (z, &b) in buf.chunks_exact(m).zip(bases) {
        let out = dst.re.add(b).cast::<Complex<B>>();
        for (i, v) in z.iter().enumerate() {
            let v = f(*v);
            out.add(i).write(Complex::new(B::store(v.re), B::store(v.im)));
        }
    }
}

/// Strided interleaved complex lines through the column FFT: each run of lines whose first
/// elements are one element apart on both sides goes in blocks of `LANES` lines. Row j of a
/// block is element j of its lines, read as one contiguous run (split into real and imaginary
/// rows); the transform runs down the columns; the rows go back the same way, times `scale`.
/// (Any storage type: half precision takes the same f32 arithmetic as single.) The lines of
/// runs shorter than a block go to `rest_sb`, `rest_db` (as many as `sb` holds); returns
/// their count.
///
/// # Safety
/// The lines at scalar offsets `sb` (step `si`) of `src` and `db` (step `so`) of `dst` are live
/// interleaved memory; a line's source and destination are the same memory or disjoint from
/// every other line's.
#[allow(clippy::too_many_arguments)]
unsafe fn run_columns<A: Scalar<F>, B: Scalar<F>, F: Real>(
    cols: &ColumnFft<F>,
    src: &Side<A>,
    dst: &Side<B>,
    sb: &[usize],
    db: &[usize],
    si: usize,
    so: usize,
    scale: Option<F>,
    s: &mut Scratch<F>,
    rest_sb: &mut [usize],
    rest_db: &mut [usize],
) -> usize {
    let buf = grow(&mut s.lines, 2 * cols.len() * LANES);
    // (the block and the Stockham scratch: four planar n x LANES arrays)
    let scratch = std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<F>(), 4 * cols.len() * LANES);
    let sc = scale.unwrap_or(F::one());
    let (mut i0, mut rest) = (0, 0);
    while i0 < sb.len() {
        // The run of lines from i0, one element apart on both sides, at most LANES of them.
        let mut w = 1;
        while i0 + w < sb.len() && w < LANES && sb[i0 + w] == sb[i0] + 2 * w && db[i0 + w] == db[i0] + 2 * w {
            w += 1;
        }
        let (s0, d0) = (sb[i0], db[i0]);
        if w < LANES {
            rest_sb[rest..rest + w].copy_from_slice(&sb[i0..i0 + w]);
            rest_db[rest..rest + w].copy_from_slice(&db[i0..i0 + w]);
            rest += w;
        } else if let (true, Some(lc)) = (A::NATIVE && B::NATIVE, cols.interleaved()) {
            // f32 (the only type with an interleaved form): the lines as they are, one register
            // an element. F is f32, so the scratch, the scale and the lines are f32 as they
            // stand; the lines are live (this function's contract).
            let f32s = std::slice::from_raw_parts_mut(scratch.as_mut_ptr().cast::<f32>(), scratch.len());
            let sc32 = *(&sc as *const F).cast::<f32>();
            lc.transform(src.re.add(s0).cast::<f32>(), si / 2, dst.re.add(d0).cast::<f32>(), so / 2, LANES, sc32, f32s);
        } else if A::NATIVE && B::NATIVE {
            // The compute type: plain loads and stores of LANES elements a row.
            let mut io = NativeRows { src: src.re.add(s0).cast::<Complex<F>>(), si: si / 2, dst: dst.re.add(d0).cast::<Complex<F>>(), so: so / 2, sc };
            cols.transform(scratch, &mut io);
        } else {
            let mut io = SideRows { src, s0, si, dst, d0, so, sc };
            cols.transform(scratch, &mut io);
        }
        i0 += w;
    }
    rest
}

/// Rows of `LANES` interleaved lines of the compute type: element j of line l at
/// `src + j * si + l` (elements), results to `dst + j * so + l`, times `sc`.
struct NativeRows<F> {
    src: *const Complex<F>,
    si: usize,
    dst: *mut Complex<F>,
    so: usize,
    sc: F,
}

impl<F: Real> Rows<F> for NativeRows<F> {
    #[inline(always)]
    fn load<const C: usize>(&mut self, j: usize, l0: usize, re: &mut [F; C], im: &mut [F; C]) {
        // SAFETY: `run_columns`'s lines are live memory (its contract).
        let row = unsafe { std::slice::from_raw_parts(self.src.add(j * self.si + l0), C) };
        // The next block's part of this row: rows far apart defeat the hardware prefetcher.
        // (A hint: no fault if it is past the lines.)
        #[cfg(target_arch = "x86_64")]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let next = self.src.wrapping_add(j * self.si + LANES + l0).cast::<i8>();
            for line in (0..C * std::mem::size_of::<Complex<F>>()).step_by(64) {
                _mm_prefetch::<_MM_HINT_T0>(next.wrapping_add(line));
            }
        }
        #[cfg(target_arch = "x86_64")]
        if C == AVX2_CHUNK {
            // SAFETY: a chunk of AVX2_CHUNK lanes comes only from `ColumnFft::transform_avx2`
            // (the CPU has AVX2); the row holds that many complex values of F.
            unsafe { avx2_rows::deinterleave::<F>(row.as_ptr().cast(), re.as_mut_ptr(), im.as_mut_ptr()) };
            return;
        }
        for l in 0..C {
            (re[l], im[l]) = (row[l].re, row[l].im);
        }
    }
    #[inline(always)]
    fn store<const C: usize>(&mut self, j: usize, l0: usize, re: &[F; C], im: &[F; C]) {
        // SAFETY: as in `load`; a line's destination is its own.
        let row = unsafe { std::slice::from_raw_parts_mut(self.dst.add(j * self.so + l0), C) };
        #[cfg(target_arch = "x86_64")]
        if C == AVX2_CHUNK {
            // SAFETY: as in `load`.
            unsafe { avx2_rows::interleave::<F>(re.as_ptr(), im.as_ptr(), self.sc, row.as_mut_ptr().cast()) };
            return;
        }
        for l in 0..C {
            row[l] = Complex::new(re[l] * self.sc, im[l] * self.sc);
        }
    }
}

/// `NativeRows`' rows of `AVX2_CHUNK` lanes on AVX2: whole-register loads and in-lane shuffles
/// each way. (The compiler built each real and imaginary vector element by element: on an AVX2
/// EPYC, 64^3 c2c ran 20 % faster on one thread with these.) The loads leave the lanes in the
/// order 0 1 4 5 2 3 6 7 (f32) or 0 2 1 3 4 6 5 7 (f64) and the stores take them back from that
/// order; lanes are independent columns, so the passes between do not care.
#[cfg(target_arch = "x86_64")]
mod avx2_rows {
    use super::Real;
    use std::any::TypeId;
    use std::arch::x86_64::*;

    /// `AVX2_CHUNK` (8) interleaved complex values at `src` to 8 reals at `re` and 8 imaginary
    /// parts at `im`.
    ///
    /// # Safety
    /// AVX2; F is f32 or f64; `src` readable for 16 values of F, `re` and `im` writable for 8.
    #[inline(always)]
    pub(super) unsafe fn deinterleave<F: Real>(src: *const F, re: *mut F, im: *mut F) {
        if TypeId::of::<F>() == TypeId::of::<f32>() {
            let (src, re, im) = (src.cast::<f32>(), re.cast::<f32>(), im.cast::<f32>());
            let (a, b) = (_mm256_loadu_ps(src), _mm256_loadu_ps(src.add(8)));
            _mm256_storeu_ps(re, _mm256_shuffle_ps::<0x88>(a, b));
            _mm256_storeu_ps(im, _mm256_shuffle_ps::<0xdd>(a, b));
        } else {
            let (src, re, im) = (src.cast::<f64>(), re.cast::<f64>(), im.cast::<f64>());
            for h in [0, 4] {
                let (a, b) = (_mm256_loadu_pd(src.add(2 * h)), _mm256_loadu_pd(src.add(2 * h + 4)));
                _mm256_storeu_pd(re.add(h), _mm256_unpacklo_pd(a, b));
                _mm256_storeu_pd(im.add(h), _mm256_unpackhi_pd(a, b));
            }
        }
    }

    /// The inverse of [`deinterleave`], times `sc` unless it is 1.
    ///
    /// # Safety
    /// As [`deinterleave`], with `re` and `im` readable and `dst` writable.
    #[inline(always)]
    pub(super) unsafe fn interleave<F: Real>(re: *const F, im: *const F, sc: F, dst: *mut F) {
        let scaled = sc != F::one();
        if TypeId::of::<F>() == TypeId::of::<f32>() {
            let (re, im, dst) = (re.cast::<f32>(), im.cast::<f32>(), dst.cast::<f32>());
            let (mut r, mut i) = (_mm256_loadu_ps(re), _mm256_loadu_ps(im));
            if scaled {
                let s = _mm256_set1_ps(sc.to_f32().unwrap_or(1.0));
                (r, i) = (_mm256_mul_ps(r, s), _mm256_mul_ps(i, s));
            }
            _mm256_storeu_ps(dst, _mm256_unpacklo_ps(r, i));
            _mm256_storeu_ps(dst.add(8), _mm256_unpackhi_ps(r, i));
        } else {
            let (re, im, dst) = (re.cast::<f64>(), im.cast::<f64>(), dst.cast::<f64>());
            for h in [0, 4] {
                let (mut r, mut i) = (_mm256_loadu_pd(re.add(h)), _mm256_loadu_pd(im.add(h)));
                if scaled {
                    let s = _mm256_set1_pd(sc.to_f64().unwrap_or(1.0));
                    (r, i) = (_mm256_mul_pd(r, s), _mm256_mul_pd(i, s));
                }
                _mm256_storeu_pd(dst.add(2 * h), _mm256_unpacklo_pd(r, i));
                _mm256_storeu_pd(dst.add(2 * h + 4), _mm256_unpackhi_pd(r, i));
            }
        }
    }
}

/// Rows of `LANES` interleaved lines of any storage type (scalar offsets, as `run_columns`).
struct SideRows<'a, A, B, F> {
    src: &'a Side<A>,
    s0: usize,
    si: usize,
    dst: &'a Side<B>,
    d0: usize,
    so: usize,
    sc: F,
}

impl<A: Scalar<F>, B: Scalar<F>, F: Real> Rows<F> for SideRows<'_, A, B, F> {
    #[inline(always)]
    fn load<const C: usize>(&mut self, j: usize, l0: usize, re: &mut [F; C], im: &mut [F; C]) {
        for l in 0..C {
            // SAFETY: `run_columns`'s lines are live memory (its contract).
            let v: Complex<F> = unsafe { self.src.get_interleaved(self.s0 + j * self.si + 2 * (l0 + l)) };
            (re[l], im[l]) = (v.re, v.im);
        }
    }
    #[inline(always)]
    fn store<const C: usize>(&mut self, j: usize, l0: usize, re: &[F; C], im: &[F; C]) {
        for l in 0..C {
            // SAFETY: as in `load`; a line's destination is its own.
            unsafe { self.dst.put_interleaved(self.d0 + j * self.so + 2 * (l0 + l), Complex::new(re[l] * self.sc, im[l] * self.sc)) };
        }
    }
}

/// Lines `l0 .. l0 + k` of a pass: gather, transform, scatter.
///
/// With `direct` (the lines share no memory with anything else running), lines of the compute
/// type in the right shape are read or written in place as slices instead of through scratch.
#[allow(clippy::too_many_arguments)]
unsafe fn run_panel<A: Scalar<F>, B: Scalar<F>, F: Real>(pass: &Pass<F>, lines: &Lines, src: &Side<A>, dst: &Side<B>, l0: usize, k: usize, direct: bool, s: &mut Scratch<F>) {
    let mut sb = [0usize; MAX_PANEL];
    let mut db = [0usize; MAX_PANEL];
    lines.offsets_from(l0, &mut sb[..k], &mut db[..k]);
    let (sb, db) = (&sb[..k], &db[..k]);
    let (si, so) = (lines.step_in, lines.step_out);
    let sc = pass.scale.unwrap_or(F::one());
    let half = F::from_f64(0.5).unwrap();
    match &pass.op {
        Op::C2c(fft) => {
            let n = lines.n_in;
            // Strided lines whose neighbours are next to each other: whole blocks of LANES of
            // them down the columns; the lines left over (runs shorter than a block) below.
            let (mut rest_sb, mut rest_db) = ([0usize; MAX_PANEL], [0usize; MAX_PANEL]);
            let (sb, db) = match (&pass.columns, src.interleaved && si > 2 && dst.interleaved && so > 2) {
                (Some(cols), true) => {
                    let rest = run_columns(cols, src, dst, sb, db, si, so, pass.scale, s, &mut rest_sb, &mut rest_db);
                    (&rest_sb[..rest], &rest_db[..rest])
                }
                _ => (sb, db),
            };
            let k = sb.len();
            if k == 0 {
                // (every line went down the columns)
            } else if (si > 2 || so > 2) && k > 1 && n >= 32 {
                // Strided lines, gathered across the panel: rows of the panel a little more
                // than n apart, so that the k rows written for one j do not all fall in the
                // same cache set (n a multiple of 4 KiB would put them there).
                let row = n + 8;
                let buf = grow(&mut s.lines, k * row);
                // Interleaved lines of the compute type: each run of neighbours one element
                // apart is a block transpose of the source into the panel (and the
                // destination's one of the panel).
                let tile_in = A::NATIVE && src.interleaved && si > 2 && si % 2 == 0;
                let tile_out = B::NATIVE && dst.interleaved && so > 2 && so % 2 == 0;
                if tile_in {
                    for (i0, i1) in runs(sb) {
                        transpose(src.re.add(sb[i0]).cast::<Complex<F>>(), si / 2, n, i1 - i0, buf.as_mut_ptr().add(i0 * row), row);
                    }
                } else {
                    gather(src, sb, si, n, row, buf);
                }
                let scratch = grow(&mut s.fft, fft.get_inplace_scratch_len());
                for line in buf.chunks_exact_mut(row) {
                    fft.process_with_scratch(&mut line[..n], scratch);
                    if let (true, Some(sc)) = (tile_out, pass.scale) {
                        for v in &mut line[..n] {
                            *v = v.scale(sc);
                        }
                    }
                }
                if tile_out {
                    for (i0, i1) in runs(db) {
                        transpose(buf.as_ptr().add(i0 * row), row, i1 - i0, n, dst.re.add(db[i0]).cast::<Complex<F>>(), so / 2);
                    }
                } else {
                    scatter(dst, db, so, n, row, buf, pass.scale);
                }
            } else {
                let buf = grow(&mut s.lines, k * n);
                gather(src, sb, si, n, n, buf);
                fft.process_with_scratch(buf, grow(&mut s.fft, fft.get_inplace_scratch_len()));
                scatter(dst, db, so, n, n, buf, pass.scale);
            }
        }
        Op::R2c(r) if r.n & 1 == 0 => {
            // z[m] = x[2m] + i x[2m+1]; Z = FFT_M(z); for 0 < j < M, with A = Z[j] + conj Z[M-j]
            // and B = Z[j] - conj Z[M-j]: X[j] = A/2 + w^j (-i B/2) (the even and odd halves'
            // transforms recombined); X[0] and X[M] from Z[0] alone.
            let m = r.n / 2;
            let buf = grow(&mut s.lines, k * m);
            if direct && A::NATIVE && si == 1 && back_to_back(sb, r.n) {
                // The panel's reals, read where they are as m complex numbers a line.
                let x = std::slice::from_raw_parts(src.re.add(sb[0]).cast::<Complex<F>>(), k * m);
                r.fft.process_immutable_with_scratch(x, buf, grow(&mut s.fft, r.fft.get_immutable_scratch_len()));
            } else {
                for (row, &b) in buf.chunks_exact_mut(m).zip(sb) {
                    for (i, v) in row.iter_mut().enumerate() {
                        *v = if si == 1 { src.get_pair(b + 2 * i) } else { Complex::new(src.get_re(b + 2 * i * si), src.get_re(b + (2 * i + 1) * si)) };
                    }
                }
                r.fft.process_with_scratch(buf, grow(&mut s.fft, r.fft.get_inplace_scratch_len()));
            }
            let in_place_out = direct && B::NATIVE && dst.interleaved && so == 2;
            let hs = half * sc;
            for (z, &b) in buf.chunks_exact(m).zip(db) {
                let out: &mut [Complex<F>] = if in_place_out { std::slice::from_raw_parts_mut(dst.re.add(b).cast::<Complex<F>>(), m + 1) } else { grow(&mut s.aux, m + 1) };
                out[0] = Complex::new((z[0].re + z[0].im) * sc, F::zero());
                out[m] = Complex::new((z[0].re - z[0].im) * sc, F::zero());
                if !crate::lines::real_split(z, &r.twiddles, hs, out, false) {
                    // Written as independent lanes over j (Z[M-j] read backwards) so that it
                    // vectorises (for the baseline instruction set).
                    for (((x, a), c), w) in out[1..m].iter_mut().zip(&z[1..]).zip(z[1..].iter().rev()).zip(&r.twiddles[1..]) {
                        let (sum_re, sum_im) = (a.re + c.re, a.im - c.im);
                        let (dif_re, dif_im) = (a.re - c.re, a.im + c.im);
                        *x = Complex::new(hs * (sum_re + w.im * dif_re + w.re * dif_im), hs * (sum_im + w.im * dif_im - w.re * dif_re));
                    }
                }
                if !in_place_out {
                    scatter(dst, &[b], so, m + 1, m + 1, out, None);
                }
            }
        }
        Op::R2c(r) => {
            let n = r.n;
            let buf = grow(&mut s.lines, k * n);
            for (row, &b) in buf.chunks_exact_mut(n).zip(sb) {
                for (i, v) in row.iter_mut().enumerate() {
                    *v = Complex::new(src.get_re(b + i * si), F::zero());
                }
            }
            r.fft.process_with_scratch(buf, grow(&mut s.fft, r.fft.get_inplace_scratch_len()));
            for (row, &b) in buf.chunks_exact(n).zip(db) {
                for (j, v) in row[..n / 2 + 1].iter().enumerate() {
                    dst.put(b + j * so, v.scale(sc));
                }
            }
        }
        Op::C2r(r) if r.n & 1 == 0 => {
            // The inverse of the step above, without the halving (rocFFT's inverse is
            // unnormalised): for 0 < j < M, with A = X[j] + conj X[M-j] and
            // B = X[j] - conj X[M-j], Z'[j] = A + i conj(w^j) B; Z'[0] from the real parts of
            // X[0] and X[M] (their imaginary parts are ignored). x = IFFT_M(Z') unpacked.
            let m = r.n / 2;
            let buf = grow(&mut s.lines, k * m);
            let in_place_in = direct && A::NATIVE && src.interleaved && si == 2;
            for (z, &b) in buf.chunks_exact_mut(m).zip(sb) {
                let x: &[Complex<F>] = if in_place_in {
                    std::slice::from_raw_parts(src.re.add(b).cast::<Complex<F>>(), m + 1)
                } else {
                    let x = grow(&mut s.aux, m + 1);
                    gather(src, &[b], si, m + 1, m + 1, x);
                    x
                };
                z[0] = Complex::new(x[0].re + x[m].re, x[0].re - x[m].re);
                if !crate::lines::real_split(&x[..m], &r.twiddles, F::one(), z, true) {
                    for (((z, a), c), w) in z[1..].iter_mut().zip(&x[1..m]).zip(x[1..m].iter().rev()).zip(&r.twiddles[1..]) {
                        let (sum_re, sum_im) = (a.re + c.re, a.im - c.im);
                        let (dif_re, dif_im) = (a.re - c.re, a.im + c.im);
                        *z = Complex::new(sum_re + w.im * dif_re - w.re * dif_im, sum_im + w.im * dif_im + w.re * dif_re);
                    }
                }
            }
            if direct && B::NATIVE && so == 1 && back_to_back(db, r.n) {
                // Straight into the panel's real lines, m complex numbers a line.
                let y = std::slice::from_raw_parts_mut(dst.re.add(db[0]).cast::<Complex<F>>(), k * m);
                r.fft.process_outofplace_with_scratch(buf, y, grow(&mut s.fft, r.fft.get_outofplace_scratch_len()));
                if let Some(sc) = pass.scale {
                    for v in y.iter_mut() {
                        *v = v.scale(sc);
                    }
                }
                return;
            }
            r.fft.process_with_scratch(buf, grow(&mut s.fft, r.fft.get_inplace_scratch_len()));
            match (so, pass.scale) {
                (1, None) => put_pairs(dst, db, m, buf, |v| v),
                (1, Some(sc)) => put_pairs(dst, db, m, buf, |v| v.scale(sc)),
                _ => {
                    for (z, &b) in buf.chunks_exact(m).zip(db) {
                        for (i, v) in z.iter().enumerate() {
                            dst.put_re(b + 2 * i * so, v.re * sc);
                            dst.put_re(b + (2 * i + 1) * so, v.im * sc);
                        }
                    }
                }
            }
        }
        Op::C2r(r) => {
            // Odd length: the full hermitian spectrum (X[n-j] = conj X[j], X[0] real), then a
            // complex inverse; the real parts are the result.
            let n = r.n;
            let buf = grow(&mut s.lines, k * n);
            for (row, &b) in buf.chunks_exact_mut(n).zip(sb) {
                row[0] = Complex::new(src.get_re(b), F::zero());
                for j in 1..=n / 2 {
                    let v: Complex<F> = src.get(b + j * si);
                    row[j] = v;
                    row[n - j] = v.conj();
                }
            }
            r.fft.process_with_scratch(buf, grow(&mut s.fft, r.fft.get_inplace_scratch_len()));
            for (row, &b) in buf.chunks_exact(n).zip(db) {
                for (i, v) in row.iter().enumerate() {
                    dst.put_re(b + i * so, v.re * sc);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::PlanDescription;
    use crate::types::Placement;
    use rocmath_runtime::{Device, Queue};

    #[test]
    fn tapered_chunks_cover_the_lines() {
        for (count, per_chunk, threads) in [(256, 8, 2), (1, 8, 2), (7, 8, 2), (1000, 3, 4), (4096, 128, 2), (256, 8, 1), (33, 1, 2)] {
            let starts = tapered_chunks(count, per_chunk, threads);
            assert_eq!((starts[0], *starts.last().unwrap()), (0, count), "{count} {per_chunk} {threads}");
            let sizes: Vec<usize> = starts.windows(2).map(|w| w[1] - w[0]).collect();
            assert!(sizes.iter().all(|&s| (1..=per_chunk).contains(&s)), "{sizes:?}");
            // Never larger again once smaller; on several threads the last ones single lines.
            assert!(sizes.windows(2).all(|w| w[1] <= w[0]), "{sizes:?}");
            if threads > 1 {
                assert_eq!(*sizes.last().unwrap(), 1, "{sizes:?}");
            } else {
                assert_eq!(sizes.len(), count.div_ceil(per_chunk), "{sizes:?}");
            }
        }
    }

    /// The tiled transposes against the element-by-element one: every tile edge, both walking
    /// orders, both element sizes.
    #[test]
    fn transpose_matches_the_scalar_copy() {
        fn check<F: Real>() {
            for rows in [1, 2, 3, 4, 5, 7, 8, 9, 13, 64] {
                for cols in [1, 2, 3, 4, 6, 8, 11, 33] {
                    for (src_row, dst_row) in [(cols, rows), (cols + 5, rows + 3), (cols + 300, rows + 1), (cols + 1, rows + 200)] {
                        let src: Vec<Complex<F>> = (0..rows * src_row).map(|i| Complex::new(F::from_usize(i).unwrap(), -F::from_usize(i).unwrap())).collect();
                        let mut got = vec![Complex::new(F::nan(), F::nan()); cols * dst_row];
                        let mut want = got.clone();
                        unsafe {
                            transpose(src.as_ptr(), src_row, rows, cols, got.as_mut_ptr(), dst_row);
                            transpose_scalar(src.as_ptr(), src_row, 0, rows, 0, cols, want.as_mut_ptr(), dst_row);
                        }
                        let same = got.iter().zip(&want).all(|(a, b)| (a.re == b.re || (a.re.is_nan() && b.re.is_nan())) && (a.im == b.im || (a.im.is_nan() && b.im.is_nan())));
                        assert!(same, "{rows} x {cols}, rows {src_row} -> {dst_row}");
                    }
                }
            }
        }
        check::<f32>();
        check::<f64>();
    }

    #[test]
    fn line_offsets_count_like_the_divisions() {
        let lines = Lines::new(1, &[5, 7, 3], 4, &[2, 10, 70, 300], &[2, 14, 98, 400], (7, 7));
        let (mut sb, mut db) = ([0; 64], [0; 64]);
        for l0 in [0, 1, 4, 5, 13, 20] {
            lines.offsets_from(l0, &mut sb[..40], &mut db[..40]);
            for i in 0..40 {
                assert_eq!((sb[i], db[i]), lines.offsets(l0 + i), "line {}", l0 + i);
            }
        }
    }

    /// The DFT along `dim` of packed complex data of `lengths` (fastest first), `batch` entries,
    /// by its definition.
    fn naive_dim(x: &[Complex<f64>], lengths: &[usize], batch: usize, dim: usize, sign: f64) -> Vec<Complex<f64>> {
        let inner: usize = lengths[..dim].iter().product();
        let n = lengths[dim];
        let outer = lengths[dim + 1..].iter().product::<usize>() * batch;
        let w: Vec<Complex<f64>> = (0..n).map(|j| Complex::from_polar(1.0, sign * 2.0 * std::f64::consts::PI * j as f64 / n as f64)).collect();
        let mut y = vec![Complex::new(0.0, 0.0); x.len()];
        for o in 0..outer {
            for i in 0..inner {
                for k in 0..n {
                    let mut acc = Complex::new(0.0, 0.0);
                    for j in 0..n {
                        acc += x[(o * n + j) * inner + i] * w[(j * k) % n];
                    }
                    y[(o * n + k) * inner + i] = acc;
                }
            }
        }
        y
    }

    /// Every task of `before` has finished (and its writes are seen) when any task of the region
    /// starts, on a pool of 4 threads, with tasks that take a varying time; every task runs once.
    #[test]
    fn tasks_after_wait_for_the_ones_before() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        pool.install(|| {
            for (first, tasks) in [(0, 5), (1, 1), (7, 3), (40, 40), (3, 0)] {
                let done: Vec<AtomicUsize> = (0..first).map(|_| AtomicUsize::new(0)).collect();
                let ran: Vec<AtomicUsize> = (0..tasks).map(|_| AtomicUsize::new(0)).collect();
                let before = |_: &mut Scratch<f32>, t: usize| {
                    std::thread::sleep(std::time::Duration::from_micros(50 * (t % 4) as u64));
                    done[t].fetch_add(1, Ordering::Relaxed);
                };
                for_each_task_after(Some((first, &before)), tasks, &mut Scratch::take(), |_, t| {
                    assert!(done.iter().all(|d| d.load(Ordering::Relaxed) == 1), "task {t} of {tasks} started before the {first} before it finished");
                    ran[t].fetch_add(1, Ordering::Relaxed);
                });
                assert!(done.iter().chain(&ran).all(|d| d.load(Ordering::Relaxed) == 1), "first {first} tasks {tasks}: a task did not run exactly once");
            }
        });
    }

    /// Multi-dimensional c2c and r2c plans whose slower dimensions go through the panel
    /// transposes (lines of 32 and more, odd and even counts), in f32 and f64, in and out of
    /// place, against the DFT by its definition.
    #[test]
    fn strided_passes_match_the_dft() {
        fn run<T: Real + bytemuck::Pod>(precision: Precision, tol: f64) {
            for (transform, lengths, batch) in [
                (TransformType::ComplexForward, vec![6, 33, 34], 2),
                (TransformType::ComplexInverse, vec![5, 40], 3),
                (TransformType::RealForward, vec![10, 36, 33], 1),
                (TransformType::ComplexForward, vec![64, 64, 64], 1),
                // (column FFTs: runs of 20 lines, a block of 16 and 4 left over; 240 along dim 2)
                (TransformType::ComplexInverse, vec![20, 12, 10], 2),
                // Large enough for the plane-by-plane passes, with a batch.
                (TransformType::ComplexForward, vec![40, 34, 33], 2),
                (TransformType::RealForward, vec![10, 36, 100], 2),
            ] {
                for (placement, scale) in [(Placement::NotInPlace, 1.0), (Placement::InPlace, 1.0), (Placement::NotInPlace, 0.375)] {
                    if placement == Placement::InPlace && transform.is_real() {
                        continue;
                    }
                    let mut description = PlanDescription::new();
                    description.set_scale_factor(scale).unwrap();
                    let plan = Plan::new(&Device::cpu(), placement, transform, precision, &lengths, batch, Some(&description)).unwrap();
                    let total: usize = lengths.iter().product::<usize>() * batch;
                    let real = transform.is_real();
                    let x: Vec<Complex<f64>> = (0..total).map(|i| Complex::new(((i * 7919) % 1013) as f64 / 1013.0 - 0.5, if real { 0.0 } else { ((i * 104729) % 997) as f64 / 997.0 - 0.5 })).collect();
                    let mut input: Vec<T> = if real { x.iter().map(|v| T::from_f64(v.re).unwrap()).collect() } else { x.iter().flat_map(|v| [T::from_f64(v.re).unwrap(), T::from_f64(v.im).unwrap()]).collect() };
                    let out_scalars = plan.output_scalars()[0];
                    let mut output: Vec<T> = vec![T::nan(); out_scalars];
                    let ip = input.as_mut_ptr() as *mut c_void;
                    let op = if placement == Placement::InPlace { ip } else { output.as_mut_ptr() as *mut c_void };
                    unsafe { plan.execute_raw(&Queue::Cpu, &[ip], &[op], None) }.unwrap();
                    let got: &[T] = if placement == Placement::InPlace { &input } else { &output };
                    let sign = if transform == TransformType::ComplexInverse { 1.0 } else { -1.0 };
                    let mut want = x.clone();
                    for d in 0..lengths.len() {
                        want = naive_dim(&want, &lengths, batch, d, sign);
                    }
                    want.iter_mut().for_each(|w| *w *= scale);
                    let h0 = if real { lengths[0] / 2 + 1 } else { lengths[0] };
                    let largest = want.iter().map(|v| v.norm()).fold(0.0, f64::max);
                    for (i, w) in want.iter().enumerate() {
                        let (k0, rest) = (i % lengths[0], i / lengths[0]);
                        if k0 >= h0 {
                            continue;
                        }
                        let at = 2 * (rest * h0 + k0);
                        let g = Complex::new(got[at].to_f64().unwrap(), got[at + 1].to_f64().unwrap());
                        assert!((g - w).norm() <= tol * largest, "{transform:?} {lengths:?} {placement:?} scale {scale} at {i}: {g} vs {w}");
                    }
                }
            }
        }
        run::<f32>(Precision::Single, 1e-5);
        run::<f64>(Precision::Double, 1e-12);
    }
}
