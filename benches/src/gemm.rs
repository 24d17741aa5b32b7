//! What rocmath-bench and rocmath-tune share for GEMM: the problem (shape, leading dimensions,
//! strides), seeded host inputs and their device copies, the check against the independent f64
//! reference on a sample of columns, and event timing (warm-up, samples of back-to-back calls,
//! median).

use num_complex::Complex64;
use rocmath_blas::{Batch, Element, Handle, Operation};
use rocmath_runtime::{DeviceBuffer, Queue};
use rocmath_tests::{gemm_i8_reference_column, GemmCase, Num, Rng};

/// The reference's budget of multiply-adds per checked matrix in rocmath-bench.
pub const BENCH_CHECK_MACS: usize = 1 << 28;

/// Unit roundoff of the compute type of the typed family of `T` (f32 for `h`, whose kernels
/// accumulate in f32).
pub fn typed_roundoff<T: Element + Num>() -> f64 {
    if T::PRECISION == "h" { f32::EPSILON as f64 / 2.0 } else { T::UNIT_ROUNDOFF }
}

/// Unit roundoff of the mixed-precision (`gemm_ex`) families: f32 compute.
pub const EX_ROUNDOFF: f64 = f32::EPSILON as f64 / 2.0;

/// One GEMM call's shape: D = alpha op(A) op(B) + beta C over `batch` matrices at fixed strides
/// (each matrix packed after the previous one).
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub trans_a: Operation,
    pub trans_b: Operation,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub lda: usize,
    pub ldb: usize,
    pub ldc: usize,
    pub batch: usize,
    pub alpha: f64,
    pub beta: f64,
}

pub use rocmath_tests::stored_shape as stored;

impl Problem {
    /// A problem with the given leading dimensions, tight (the stored rows, at least 1) where
    /// `None`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(trans_a: Operation, trans_b: Operation, [m, n, k]: [usize; 3], [lda, ldb, ldc]: [Option<usize>; 3], batch: usize, alpha: f64, beta: f64) -> Problem {
        let (ra, _) = stored(trans_a, m, k);
        let (rb, _) = stored(trans_b, k, n);
        Problem {
            trans_a,
            trans_b,
            m,
            n,
            k,
            lda: lda.unwrap_or(ra.max(1)),
            ldb: ldb.unwrap_or(rb.max(1)),
            ldc: ldc.unwrap_or(m.max(1)),
            batch,
            alpha,
            beta,
        }
    }

    /// Elements of one matrix of A, B and C (the batch strides).
    pub fn strides(&self) -> (usize, usize, usize) {
        let (_, ca) = stored(self.trans_a, self.m, self.k);
        let (_, cb) = stored(self.trans_b, self.k, self.n);
        (self.lda * ca.max(1), self.ldb * cb.max(1), self.ldc * self.n.max(1))
    }

    pub fn batch_strides(&self) -> Batch {
        let (sa, sb, sc) = self.strides();
        Batch { count: self.batch, stride_a: sa, stride_b: sb, stride_c: sc }
    }

    /// Floating-point operations of the call (a complex multiply-add counts 8).
    pub fn flops(&self, complex: bool) -> f64 {
        let per_mac = if complex { 8.0 } else { 2.0 };
        per_mac * (self.m * self.n * self.k * self.batch) as f64
    }

    /// Whether the call computes anything (else there is nothing to check).
    pub fn is_empty(&self) -> bool {
        self.m == 0 || self.n == 0 || self.batch == 0
    }

    /// `N T` -> `NT`, as the bench prints layouts.
    pub fn layout(&self) -> String {
        format!("{}{}", self.trans_a.letter(), self.trans_b.letter())
    }
}

/// The host inputs: uniform in [-1, 1), seeded from the shape (the same inputs every run).
pub struct HostData<In, Out> {
    pub a: Vec<In>,
    pub b: Vec<In>,
    /// C before the call.
    pub c: Vec<Out>,
}

impl<In: Num, Out: Num> HostData<In, Out> {
    pub fn generate(p: &Problem) -> Self {
        let (sa, sb, sc) = p.strides();
        let mut rng = Rng::new(0x5EED ^ (p.m * 31 + p.n * 17 + p.k) as u64);
        let a = rng.vec(sa * p.batch);
        let b = rng.vec(sb * p.batch);
        let c = rng.vec(sc * p.batch);
        HostData { a, b, c }
    }

    /// Replaces C with NaN, so that an element a kernel never writes (or a kernel that reads C
    /// when beta = 0) fails the check. Only meaningful with beta = 0.
    pub fn poison_c(&mut self) {
        self.c.fill(Out::nan());
    }
}

/// The i8 family's inputs (gemm_ex with i8 A and B, i32 C and D), every entry of a strided
/// batch: full-range i8 operands and i32 C, checked exactly (wrapping modulo 2^32) against
/// [`gemm_i8_reference_column`].
pub struct I8Data {
    pub a: Vec<i8>,
    pub b: Vec<i8>,
    pub c: Vec<i32>,
}

impl I8Data {
    pub fn generate(p: &Problem) -> Self {
        let (sa, sb, sc) = p.strides();
        let mut rng = Rng::new(0x1818 ^ (p.m * 31 + p.n * 17 + p.k) as u64);
        let a = (0..sa * p.batch).map(|_| rng.next_u64() as i8).collect();
        let b = (0..sb * p.batch).map(|_| rng.next_u64() as i8).collect();
        let c = (0..sc * p.batch).map(|_| rng.next_u64() as i32).collect();
        I8Data { a, b, c }
    }

    /// Checks D (`got`, every entry) on columns `cols` of the first and last entries, exactly.
    pub fn check(&self, p: &Problem, (alpha, beta): (i32, i32), got: &[i32], cols: &[usize], who: &str) -> Result<String, String> {
        let (sa, sb, sc) = p.strides();
        let mut entries = vec![0, p.batch.saturating_sub(1)];
        entries.dedup();
        for &e in &entries {
            for &j in cols {
                let (ae, be, ce) = (&self.a[e * sa..(e + 1) * sa], &self.b[e * sb..(e + 1) * sb], &self.c[e * sc..(e + 1) * sc]);
                let want = gemm_i8_reference_column((p.trans_a, p.trans_b), (p.m, p.k), alpha, ae, p.lda, be, p.ldb, beta, ce, p.ldc, j);
                let at = e * sc + j * p.ldc;
                if let Some(i) = (0..p.m).find(|&i| got[at + i] != want[i]) {
                    return Err(format!("{who} result wrong: entry {e} D({i}, {j}) = {} (exact {})", got[at + i], want[i]));
                }
            }
        }
        Ok(format!("exact ({} cols x {} batch entries)", cols.len(), entries.len()))
    }
}

/// The inputs on the device (C is updated in place by the calls).
pub struct DeviceData<In: bytemuck::Pod, Out: bytemuck::Pod> {
    pub a: DeviceBuffer<In>,
    pub b: DeviceBuffer<In>,
    pub c: DeviceBuffer<Out>,
}

impl<In: Num, Out: Num> DeviceData<In, Out> {
    pub fn upload(q: &Queue, host: &HostData<In, Out>) -> Result<Self, String> {
        let err = |e: rocmath_runtime::Error| e.to_string();
        Ok(DeviceData {
            a: DeviceBuffer::from_slice(q, &host.a).map_err(err)?,
            b: DeviceBuffer::from_slice(q, &host.b).map_err(err)?,
            c: DeviceBuffer::from_slice(q, &host.c).map_err(err)?,
        })
    }

    /// Restores C to the host's C.
    pub fn reset_c(&mut self, q: &Queue, host: &HostData<In, Out>) -> Result<(), String> {
        self.c.copy_from_host(q, &host.c).map_err(|e| e.to_string())
    }
}

/// Columns for the reference to check, so that checking costs about `macs` multiply-adds per
/// matrix (at least one column, at most all). `spread = false`: evenly spaced from column 0
/// (rocmath-bench). `spread = true`: the first and last columns plus seeded random ones, so
/// that the sample covers every position within a tile (evenly spaced columns of a power-of-two
/// n all sit at the same offset in their tile).
pub fn sample_columns(p: &Problem, macs: usize, spread: bool) -> Vec<usize> {
    let n = p.n.max(1);
    let budget = (macs / (p.m * p.k).max(1)).clamp(1, n);
    if !spread || budget >= n {
        return (0..budget).map(|i| i * n / budget).collect();
    }
    let mut cols = vec![0, n - 1];
    let mut rng = Rng::new(0xC015 ^ n as u64);
    // Random distinct columns (a sorted, deduplicated draw tops up until there are enough).
    while cols.len() < budget {
        cols.extend((cols.len()..budget).map(|_| rng.below(n)));
        cols.sort_unstable();
        cols.dedup();
    }
    cols
}

/// Checks `got` (C after the call, same layout as `host.c`) against the reference on `cols` of
/// the first and last matrices of the batch; the columns are split over the host's threads.
/// `who` names the result in the error.
pub fn check<In: Num, Out: Num>(p: &Problem, host: &HostData<In, Out>, got: &[Out], cols: &[usize], compute_roundoff: f64, who: &str) -> Result<String, String> {
    let (sa, sb, sc) = p.strides();
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get()).min(cols.len()).max(1);
    let mut entries = vec![0, p.batch.saturating_sub(1)];
    entries.dedup();
    for &entry in &entries {
        let case = GemmCase {
            trans_a: p.trans_a,
            trans_b: p.trans_b,
            m: p.m,
            n: p.n,
            k: p.k,
            alpha: Complex64::new(p.alpha, 0.0),
            beta: Complex64::new(p.beta, 0.0),
            a: &host.a[entry * sa..(entry + 1) * sa],
            lda: p.lda,
            b: &host.b[entry * sb..(entry + 1) * sb],
            ldb: p.ldb,
            c: &host.c[entry * sc..(entry + 1) * sc],
            ldc: p.ldc,
            compute_roundoff,
        };
        let d = &got[entry * sc..(entry + 1) * sc];
        let chunk = cols.len().div_ceil(threads).max(1);
        // The first failing chunk in column order: the same report as a sequential check.
        let verdicts: Vec<_> = std::thread::scope(|s| {
            let case = &case;
            let workers: Vec<_> = cols.chunks(chunk).map(|part| s.spawn(move || case.check_columns(d, part))).collect();
            workers.into_iter().map(|w| w.join().expect("reference check panicked")).collect()
        });
        if let Some(Err(m)) = verdicts.into_iter().find(Result::is_err) {
            return Err(format!("{who} result wrong: {m:?}"));
        }
    }
    Ok(format!("ok ({} cols x {} batch entries)", cols.len(), if p.batch > 1 { 2 } else { 1 }))
}

/// A timed sample of back-to-back calls lasts at least this long (when the caller does not fix
/// its count), so that a small call's figure is its throughput, not the latency of a launch onto
/// an idle device plus the event's resolution.
pub const SAMPLE_MS: f64 = 0.5;

/// Most calls in one timed sample.
const MAX_GROUP: usize = 4096;

/// Per-call time of a function, from event-timed samples of back-to-back calls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallTime {
    /// Device time per call, ms (the median sample over its call count).
    pub ms: f64,
    /// Host time to issue one call, µs (the median sample's). Where it exceeds the device time,
    /// the host sets the rate: the device waits between calls.
    pub host_us: f64,
    /// Calls per sample.
    pub group: usize,
}

/// Times `f`: `warmup` untimed calls, then `samples` samples of `group` back-to-back calls
/// between two events (`None`: as many as last [`SAMPLE_MS`], from one timed call), each divided
/// by its count; the median. `Some(1)` times single calls, each from an idle device.
pub fn time_calls(queue: &Queue, warmup: usize, samples: usize, group: Option<usize>, mut f: impl FnMut() -> Result<(), String>) -> Result<CallTime, String> {
    let err = |e: rocmath_runtime::Error| e.to_string();
    for _ in 0..warmup {
        f()?;
    }
    queue.synchronize().map_err(err)?;
    let group = match group {
        Some(g) => g.max(1),
        None => {
            let start = queue.record_event().map_err(err)?;
            f()?;
            let end = queue.record_event().map_err(err)?;
            let once = start.elapsed_ms(&end).map_err(err)?;
            ((SAMPLE_MS / once.max(1e-6)).ceil() as usize).clamp(1, MAX_GROUP)
        }
    };
    let mut device = Vec::with_capacity(samples);
    let mut host = Vec::with_capacity(samples);
    for _ in 0..samples.max(1) {
        let start = queue.record_event().map_err(err)?;
        let issued = std::time::Instant::now();
        for _ in 0..group {
            f()?;
        }
        host.push(issued.elapsed().as_secs_f64() * 1e6 / group as f64);
        let end = queue.record_event().map_err(err)?;
        device.push(start.elapsed_ms(&end).map_err(err)? / group as f64);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    Ok(CallTime { ms: median(device), host_us: median(host), group })
}

/// A rocmath GEMM call on device buffers (the typed or the `_ex` API, with its scalars bound).
pub type OurGemm<'a, In, Out> = dyn Fn(&Handle, &DeviceBuffer<In>, usize, &DeviceBuffer<In>, usize, &mut DeviceBuffer<Out>, usize, Batch) -> rocmath_blas::Result<()> + 'a;
