//! The GPU path (CUDA and HIP alike). A plan becomes a list of launches, decided and compiled at
//! plan creation:
//!
//! * a complex transform along one dimension is one Stockham pass when its length is a product
//!   of the radices 2..19 and fits one block (`max_single_pass`), or, on sm_90 and for rows,
//!   when it fits a cluster of up to 8 blocks that finish it through distributed shared memory
//!   (`cluster_split`: where the one-block kernel would take 1024 threads or none fits); a
//!   longer such length is split
//!   four-step, N = N1 * N2: N1-point column transforms with the twiddle exp(-2 pi i n2 k1 / N)
//!   into the work buffer, then N2-point transforms written transposed (further split if N2 is
//!   still too long); any other length goes through Bluestein over a 7-smooth length: one
//!   fused kernel where a block holds it (the chirp multiplied in on the forward transform's
//!   loads, the filter's spectrum in shared memory, the inverse transform, the chirp again on
//!   its stores), else five launches (element-wise chirp and filter kernels around two
//!   transforms);
//! * a real transform of even length N is a complex transform of N/2 points over the real data
//!   read as complex pairs with the post-processing (forward), or the pre-processing and the
//!   inverse complex transform written out as pairs (inverse). Where N/2 fits one pass, that is
//!   one kernel each way (`StockhamKernel::with_real_post`, `with_real_pre`); otherwise the
//!   processing is an element-wise kernel of its own; odd lengths run a
//!   complex transform of N points that reads real input (imaginary 0) or writes the first
//!   N/2+1 points (forward), or reads the hermitian half mirrored and stores real parts (inverse);
//! * 2D/3D transforms are one such pass per dimension: forward real along dimension 0 first,
//!   then complex passes in place in the output; inverse real runs the complex passes into the
//!   work buffer first (the input is left as it was), then the real pass.
//!
//! Twiddles come from tables uploaded at plan creation: one block per Stockham pass, laid out so
//! that neighbouring threads read neighbouring entries, and the four-step twiddle as a
//! per-butterfly base times a per-column step. A plan's modules compile in parallel.
//!
//! Addresses are (buffer, offset in scalars) pairs resolved at execution, so one plan runs on
//! any buffers. The work buffer holds complex values of the compute type (f32 for half plans),
//! as a stack: a stage's scratch is released for the next stage.
use crate::plan::{Layout, Plan};
use crate::types::{ArrayType, FftError, Placement, Precision, Result, Status, TransformType};
use num_complex::Complex64;
use rocmath_kernels::gen::fft::{cluster_setting, cluster_twiddles, pick_variant, ClusterSetting, RadixCaps, real_post_twiddles, stage_twiddles, FftPrecision, FftUtilKernels, StockhamKernel, UTIL_THREADS};
use rocmath_runtime::{DeviceBuffer, DeviceProperties, GpuDevice, GpuQueue, KernelArgs, KernelSource, LaunchConfig, Module};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, OnceLock};

/// The modules `wanted` (name, source) on `device`: those this process has loaded
/// (`GpuDevice::named_module`: a warm plan creation is a table lookup), the rest compiled (or
/// read from the disk cache) in parallel, one thread each, since a plan's cold creation is the
/// sum of its modules' compiles otherwise.
fn modules(device: &GpuDevice, wanted: &[(String, String)]) -> Result<HashMap<String, Arc<Module>>> {
    let mut found = HashMap::new();
    let mut missing = Vec::new();
    for (name, source) in wanted {
        match device.loaded_module(name) {
            Some(m) => {
                found.insert(name.clone(), m);
            }
            None => missing.push(KernelSource { name: name.clone(), source: source.clone(), options: Vec::new(), arch_override: None }),
        }
    }
    let built: Vec<rocmath_runtime::Result<Arc<Module>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = missing.iter().map(|src| scope.spawn(move || device.named_module(&src.name, || src.clone()))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(rocmath_runtime::Error::Cache("a module compile thread panicked".into())))).collect()
    });
    for (src, m) in missing.iter().zip(built) {
        found.insert(src.name.clone(), m?);
    }
    Ok(found)
}

/// `kernel`'s module on `device`, compiled now if this process has not loaded it (the general
/// twin of a plain kernel, needed only when an execution's buffers are not pair-aligned).
fn general_module(device: &GpuDevice, kernel: &StockhamKernel) -> Result<Arc<Module>> {
    let name = kernel.module_name();
    Ok(device.named_module(&name, || KernelSource { name: name.clone(), source: kernel.source(), options: Vec::new(), arch_override: None })?)
}

/// Runs a Stockham launch's variant (`Op::Stockham::others`) that `pick_variant` chooses from
/// the blocks per SM the occupancy calculator gives each, instead of its kernel; records those
/// blocks, also for a kernel without variants that asks L2 for the next block's input (its
/// `next_blocks`).
fn pick_by_blocks(l: &mut Launch, modules: &HashMap<String, Arc<Module>>) -> Result<()> {
    let Op::Stockham { kernel, others, blocks, .. } = &mut l.op else { return Ok(()) };
    if others.is_empty() && kernel.next_prefetch().is_none() {
        return Ok(());
    }
    let blocks_of = |k: &StockhamKernel| -> Result<u32> {
        let name = k.module_name();
        let module = modules.get(&name).ok_or_else(|| internal(format!("module {name} not built")))?;
        Ok(module.function(&name)?.max_active_blocks(k.threads(), k.shared_bytes())?)
    };
    let ours = blocks_of(kernel)?;
    let theirs = others.iter().map(blocks_of).collect::<Result<Vec<u32>>>()?;
    *blocks = std::iter::once(ours).chain(theirs.iter().copied()).collect();
    if let Some(i) = pick_variant(ours, &theirs) {
        std::mem::swap(kernel, &mut others[i]);
        blocks.swap(0, i + 1);
        l.module = kernel.module_name();
        l.function = kernel.module_name();
    }
    Ok(())
}

/// What a Stockham launch passes as `next_blocks`: for kernels that ask L2 for the input of the
/// block that follows on the multiprocessor (`StockhamKernel::next_prefetch`), the blocks of
/// the kernel a multiprocessor holds, the driver's occupancy figure that `pick_by_blocks`
/// recorded at plan creation (`blocks[0]`), since ptxas's registers decide it, not the
/// generator's estimate (9000 and 7560 single: 80 and 64 registers, two blocks where the
/// estimate says one; 6561 and 3375 three and four where it says two); else 0.
/// `pair_aligned`: these buffers run the plain kernel, not its general twin, which asks for
/// nothing. `ROCMATH_FFT_NEXT_BLOCKS=model` passes 0, so that the kernel takes the estimate
/// (A/B).
fn next_blocks(kernel: &StockhamKernel, blocks: &[u32], pair_aligned: bool) -> i32 {
    static MODEL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let model = *MODEL.get_or_init(|| std::env::var("ROCMATH_FFT_NEXT_BLOCKS").is_ok_and(|v| v == "model"));
    match blocks.first() {
        Some(&b) if !model && pair_aligned && kernel.next_prefetch().is_some() => b.min(i32::MAX as u32) as i32,
        _ => 0,
    }
}

/// Uploaded tables, per device, table and compute precision: read-only, shared by every plan
/// that uses them (the large four-step and Bluestein tables cost milliseconds to compute).
static TABLES: OnceLock<Mutex<HashMap<TableKey, Arc<DeviceBuffer<u8>>>>> = OnceLock::new();
/// (backend, device ordinal, table, compute precision)
type TableKey = (String, usize, Table, FftPrecision);

/// The device copies of `wanted`, computed and uploaded on first use.
fn tables(device: &GpuDevice, queue: &rocmath_runtime::Queue, wanted: &[Table], compute: FftPrecision) -> Result<HashMap<Table, Arc<DeviceBuffer<u8>>>> {
    let cache = TABLES.get_or_init(Default::default);
    let mut out = HashMap::new();
    for &t in wanted {
        let key = (device.backend().name().to_string(), device.ordinal(), t, compute);
        let cached = cache.lock().map_err(|_| poisoned())?.get(&key).cloned();
        let buffer = match cached {
            Some(b) => b,
            None => {
                let b = Arc::new(DeviceBuffer::from_slice(queue, &table_bytes(&table_values(t), compute))?);
                cache.lock().map_err(|_| poisoned())?.insert(key, b.clone());
                b
            }
        };
        out.insert(t, buffer);
    }
    Ok(out)
}

fn poisoned() -> FftError {
    FftError::new(Status::Failure, "plan", "a thread panicked while holding the FFT module table")
}

/// Which buffer an address is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Buf {
    In(usize),
    Out(usize),
    /// The work buffer (compute-type scalars).
    Work,
}

/// A scalar address: buffer and offset in scalars of that buffer's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Loc {
    buf: Buf,
    off: i64,
}

impl Loc {
    fn add(self, d: i64) -> Loc {
        Loc { buf: self.buf, off: self.off + d }
    }
}

/// One side of a pass: where the real and imaginary parts start (no imaginary part: real data),
/// in scalars. Strides are per dimension, fastest first, plus the batch distance, in scalars.
#[derive(Clone, Debug)]
struct View {
    re: Loc,
    im: Option<Loc>,
    strides: Vec<i64>,
    dist: i64,
}

impl View {
    /// A user layout in buffers `buf(0)`, `buf(1)`.
    fn of_layout(layout: &Layout, buf: fn(usize) -> Buf) -> View {
        let s = |v: &[usize]| v.iter().map(|&x| x as i64).collect::<Vec<_>>();
        match layout.array_type {
            ArrayType::ComplexInterleaved | ArrayType::HermitianInterleaved => {
                let re = Loc { buf: buf(0), off: 2 * layout.offsets[0] as i64 };
                View {
                    re,
                    im: Some(re.add(1)),
                    strides: layout.strides.iter().map(|&x| 2 * x as i64).collect(),
                    dist: 2 * layout.distance as i64,
                }
            }
            ArrayType::ComplexPlanar | ArrayType::HermitianPlanar => View {
                re: Loc { buf: buf(0), off: layout.offsets[0] as i64 },
                im: Some(Loc { buf: buf(1), off: layout.offsets[1] as i64 }),
                strides: s(&layout.strides),
                dist: layout.distance as i64,
            },
            ArrayType::Real | ArrayType::Unset => View {
                re: Loc { buf: buf(0), off: layout.offsets[0] as i64 },
                im: None,
                strides: s(&layout.strides),
                dist: layout.distance as i64,
            },
        }
    }

    /// Packed complex rows in the work buffer at complex offset `at`, `lengths` fastest first.
    fn work(at: usize, lengths: &[usize]) -> View {
        let re = Loc { buf: Buf::Work, off: 2 * at as i64 };
        let mut strides = Vec::new();
        let mut acc = 2i64;
        for &l in lengths {
            strides.push(acc);
            acc *= l as i64;
        }
        View { re, im: Some(re.add(1)), strides, dist: acc }
    }

    fn is_user(&self) -> bool {
        self.re.buf != Buf::Work
    }

    /// A real array read or written as complex pairs along dimension 0: element j is
    /// (x[2j], x[2j+1]), so its element stride is twice the real one.
    fn pairs(&self) -> View {
        View { re: self.re, im: Some(self.re.add(self.strides[0])), strides: self.strides.clone(), dist: self.dist }
    }
}

/// An outer dimension of a launch: length, stride on the source side, stride on the destination
/// side (scalars).
type Outer = (usize, i64, i64);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Table {
    /// exp(-2 pi i m / n), m < n.
    Roots(usize),
    /// The per-pass twiddles of the Stockham kernel of n points whose passes the caps rebuild
    /// (`stage_twiddles` of `factorize_with`).
    Stages(usize, RadixCaps),
    /// The same followed by the fused real post-processing twiddles (`real_post_twiddles`).
    StagesRealPost(usize, RadixCaps),
    /// The per-pass twiddles of n points followed by the first rows (n entries each) of the
    /// cross-block twiddles of a cluster of that many blocks (`cluster_twiddles`): (n, the
    /// passes' caps, cluster, rows; `StockhamKernel::cluster_twiddle_rows`).
    StagesCluster(usize, RadixCaps, usize, usize),
    /// Four-step twiddle of n = lo * hi entries: (n, shift) low part exp(-2 pi i j / n), j < 2^shift.
    BigLo(usize, u32),
    /// High part: exp(-2 pi i j 2^shift / n).
    BigHi(usize, u32),
    /// Four-step twiddle steps of (n, columns, threads per column transform, radix of the column
    /// kernel's last pass): with NS = n / columns / radix, entry (it * radix + r) * columns + c is
    /// exp(-2 pi i c (it tpt + r NS) / n), for r < radix and it < ceil(NS / tpt)
    /// (`rm_fft_big_twiddle_apply` in fft.hip).
    BigStep(usize, usize, usize, usize),
    /// Bluestein chirp exp(dir pi i j^2 / n), j < n.
    Chirp(usize, i32),
    /// Bluestein filter spectrum (length m) for the chirp of n points, divided by m.
    Filter(usize, usize, i32),
}

/// What one launch does.
#[derive(Debug)]
enum Op {
    Stockham {
        kernel: StockhamKernel,
        dir: i32,
        ends: Ends,
        elem_strides: (i64, i64),
        big: Option<FourStep>,
        /// `kernel`'s leaner variants (`StockhamKernel::variants`), compiled beside it;
        /// [`GpuPlan::new`] runs the one `pick_variant` chooses, or `kernel`, and leaves the
        /// others here.
        others: Vec<StockhamKernel>,
        /// Blocks per SM of `kernel`, then of each of `others`, once [`GpuPlan::new`] has
        /// compared them (`kernel`'s alone where it has no variants but prefetches the next
        /// block's input; empty otherwise).
        blocks: Vec<u32>,
    },
    R2cPost { h: usize },
    C2rPre { h: usize },
    ChirpIn { n: usize, m: usize, dir: i32, herm_in: bool },
    Pointwise { n: usize, m: usize, dir: i32 },
    ChirpOut { n: usize, m: usize, n_out: usize, dir: i32 },
}

/// What a Stockham kernel does at its two ends besides moving a transform (see `rm_fft_io`).
#[derive(Clone, Copy, Debug)]
struct Ends {
    /// Elements read; the rest of the transform reads as zero.
    n_in: usize,
    /// The input holds the hermitian half of n_in elements (mirrored for the rest).
    herm_in: bool,
    /// Input element e is multiplied by this table's entry e.
    pre: Option<Table>,
    /// Elements stored.
    n_out: usize,
    /// Output element e is multiplied by this table's entry e (before the scale); in a fused
    /// Bluestein kernel (`bluestein`), the spectrum is multiplied by it between the two
    /// transforms, and `pre` multiplies the output too.
    post: Option<Table>,
    /// The transform is the half-length complex one of an even real forward transform, and the
    /// kernel post-processes it: n_out = n + 1 hermitian points are stored.
    real_post: bool,
    /// The transform is the half-length complex one of an even real inverse transform, and the
    /// kernel pre-processes its n_in = n + 1 hermitian input points before the passes.
    real_pre: bool,
    /// The kernel is a whole Bluestein convolution (`StockhamKernel::bluestein`).
    bluestein: bool,
}

impl Ends {
    /// A transform of n points, read and stored whole.
    fn plain(n: usize) -> Ends {
        Ends { n_in: n, herm_in: false, pre: None, n_out: n, post: None, real_post: false, real_pre: false, bluestein: false }
    }

    /// Whether an n-point kernel with these ends suits the plain load/store: whole transforms
    /// in and out, no multipliers.
    fn is_plain(&self, n: usize) -> bool {
        let stored = n + self.real_post as usize;
        self.n_in == n + self.real_pre as usize && !self.herm_in && self.pre.is_none() && self.n_out == stored && self.post.is_none()
    }
}

/// Whether even real inverse transforms whose half length fits one pass fuse the
/// pre-processing into that pass (one launch instead of two): yes, unless
/// `ROCMATH_FFT_REAL_PRE=0` (for A/B). `2` fuses batch-interleaved launches too (see the
/// RealInverse branch of `build`).
fn real_pre_fused() -> bool {
    real_pre_setting() != 0
}

fn real_pre_setting() -> u8 {
    static SETTING: OnceLock<u8> = OnceLock::new();
    *SETTING.get_or_init(|| match std::env::var("ROCMATH_FFT_REAL_PRE").as_deref() {
        Ok("0") => 0,
        Ok("2") => 2,
        _ => 1,
    })
}

/// Whether plans may use the plain load/store kernels: yes, unless `ROCMATH_FFT_PLAIN=0` (for
/// measuring what they gain, and for ruling them out when chasing a wrong result).
fn plain_kernels() -> bool {
    static PLAIN: OnceLock<bool> = OnceLock::new();
    *PLAIN.get_or_init(|| std::env::var("ROCMATH_FFT_PLAIN").map_or(true, |v| v != "0"))
}

/// Whether one side (0 in, 1 out) of a launch with element stride `es` holds its transforms in
/// columns: the first outer stride is below the element stride, so neighbouring transforms are
/// closer together than neighbouring elements.
fn in_columns(outer: &[Outer], es: i64, side: usize) -> bool {
    outer.first().is_some_and(|o| (if side == 0 { o.1 } else { o.2 }).abs() < es.abs())
}

/// Whether one side of an `n`-point launch suits the plain load/store (`rm_fft_io_plain`):
/// interleaved with even offset and strides (pair-aligned in any allocation; the execution
/// checks the pointers too), and element offsets within a transform that fit 32 bits.
fn plain_side(v: &View, es: i64, n: usize, outer: &[Outer], side: usize) -> bool {
    let even = |x: i64| x.rem_euclid(2) == 0;
    v.im == Some(v.re.add(1))
        && even(v.re.off)
        && even(es)
        && outer.iter().all(|o| even(if side == 0 { o.1 } else { o.2 }))
        && (n as i64).checked_mul(es.abs()).is_some_and(|x| x < i32::MAX as i64)
}

/// The four-step twiddle a column pass applies to its output: the transform has `n` points,
/// `cols` columns, and the column kernel's last radix is `radix`.
#[derive(Clone, Copy, Debug)]
struct FourStep {
    n: usize,
    shift: u32,
    cols: usize,
}

impl FourStep {
    /// The tables of the column pass run by `kernel`: the two-level table, and the step table
    /// unless the kernel builds the twiddle by products (`StockhamKernel::big_recurrence`).
    fn tables(&self, kernel: &StockhamKernel) -> (Table, Table, Option<Table>) {
        let radix = kernel.passes.last().copied().unwrap_or(1);
        let step = (!kernel.big_recurrence()).then_some(Table::BigStep(self.n, self.cols, kernel.tpt, radix));
        (Table::BigLo(self.n, self.shift), Table::BigHi(self.n, self.shift), step)
    }
}

#[derive(Debug)]
struct Launch {
    op: Op,
    src: (Loc, Option<Loc>),
    dst: (Loc, Option<Loc>),
    /// Up to three are passed to the kernel; more are looped over on the host (slowest last).
    outer: Vec<Outer>,
    scale: f64,
    /// The module's name (see `GpuPlan::modules`).
    module: String,
    function: String,
}

/// Complex values of the compute type, stacked (a stage releases what it took).
#[derive(Default)]
struct WorkStack {
    top: usize,
    peak: usize,
}

impl WorkStack {
    /// Takes `count` complex values (rounded up to 32 for alignment); returns the offset.
    fn take(&mut self, count: usize) -> usize {
        let at = self.top;
        self.top += count.div_ceil(32) * 32;
        self.peak = self.peak.max(self.top);
        at
    }
}

/// A plan's GPU side.
pub(crate) struct GpuPlan {
    launches: Vec<Launch>,
    /// The launches' modules, by name.
    modules: HashMap<String, Arc<Module>>,
    tables: HashMap<Table, Arc<DeviceBuffer<u8>>>,
    /// Bytes of work buffer the launches need.
    work_bytes: usize,
    /// The plan's own work buffer, used when an execution brings none (see [`Plan::execute_raw`]:
    /// one plan on several streams at once needs a work buffer per stream). Allocated by the
    /// first such execution, as rocFFT does: zeroing up to gigabytes at plan creation cost 1 ms
    /// of every warm plan of 4099 and double 2^20 on the H100.
    own_work: Mutex<Option<DeviceBuffer<u8>>>,
    storage: FftPrecision,
    compute: FftPrecision,
}

fn fft_precision(p: Precision) -> FftPrecision {
    match p {
        Precision::Single => FftPrecision::F32,
        Precision::Double => FftPrecision::F64,
        Precision::Half => FftPrecision::F16,
    }
}

/// Builds the launch list and names the modules it needs, from the device's properties alone
/// (so that `rocmath-aot` can plan for a device it does not have).
struct Builder<'a> {
    props: &'a DeviceProperties,
    /// The live device, whose loaded modules need no source; none when planning ahead of time.
    device: Option<&'a GpuDevice>,
    /// Shared memory (LDS) one block may use.
    shared: usize,
    storage: FftPrecision,
    compute: FftPrecision,
    work: WorkStack,
    launches: Vec<Launch>,
    tables: Vec<Table>,
    /// Modules the launches use: (name, source), compiled together at the end.
    sources: Vec<(String, String)>,
}

impl Builder<'_> {
    fn precision_of(&self, v: &View) -> FftPrecision {
        if v.is_user() {
            self.storage
        } else {
            self.compute
        }
    }

    /// Packed rows of `row_len` complex values in the work buffer, one per index of `outer`.
    fn work_rows(&mut self, row_len: usize, outer: &[Outer]) -> View {
        let rows: usize = outer.iter().map(|o| o.0).product();
        View::work(self.work.take(row_len * rows), &[row_len])
    }

    fn table(&mut self, t: Table) {
        if !self.tables.contains(&t) {
            self.tables.push(t);
        }
    }

    /// An element-wise kernel whose user-facing side is stored in `side` (the plan's precision
    /// for user buffers, the compute type for the work buffer).
    fn util(&mut self, op: &str, side: FftPrecision) -> (String, String) {
        let u = FftUtilKernels { precision: side };
        (self.module(u.module_name(), || u.source()), u.kernel_name(op))
    }

    /// Asks for module `name` (compiled with the others once the launch list is complete);
    /// returns its name.
    fn module(&mut self, name: String, source: impl FnOnce() -> String) -> String {
        if !self.sources.iter().any(|(n, _)| *n == name) {
            // A module this process has loaded needs no source (warm plans stay a lookup).
            let loaded = self.device.is_some_and(|d| d.loaded_module(&name).is_some());
            self.sources.push((name.clone(), if loaded { String::new() } else { source() }));
        }
        name
    }

    /// Complex transforms of length `n` along one dimension, for every index of `outer`:
    /// element `e` at `src + e * es_src`, result at `dst + e * es_dst`. `n_out` < n stores a
    /// prefix (real forward of odd length); `herm_in` reads the hermitian half (real inverse of
    /// odd length). `dst.im == None` stores real parts.
    #[allow(clippy::too_many_arguments)]
    fn c2c(
        &mut self,
        n: usize,
        dir: i32,
        src: (&View, i64),
        dst: (&View, i64),
        outer: Vec<Outer>,
        n_out: usize,
        herm_in: bool,
    ) -> Result<()> {
        let ends = Ends { n_in: n, herm_in, pre: None, n_out, post: None, real_post: false, real_pre: false, bluestein: false };
        if self.fits_one_pass(n, src.0, dst.0) || self.cluster_of(n, src, dst, &outer, &ends).is_some() {
            return self.single(n, dir, src, dst, outer, ends, None);
        }
        let smooth = rocmath_kernels::gen::fft::factorize(n).is_some();
        if smooth && n_out == n && !herm_in {
            return self.four_step(n, dir, src, dst, outer);
        }
        self.bluestein(n, dir, src, dst, outer, n_out, herm_in)
    }

    /// Whether an `n`-point transform from `src` to `dst` is one Stockham kernel.
    fn fits_one_pass(&self, n: usize, src: &View, dst: &View) -> bool {
        StockhamKernel::new(self.precision_of(src), self.precision_of(dst), n, false, false, self.shared).is_ok()
    }

    /// The cluster kernel for `n` points (`cluster_split`), where the device has clusters and
    /// the launch suits one: rows on both sides, whole transforms in and out, no multipliers,
    /// no real pre- or post-processing (and not with `ROCMATH_FFT_CLUSTER=0`: `cluster_setting`).
    fn cluster_of(&self, n: usize, src: (&View, i64), dst: (&View, i64), outer: &[Outer], ends: &Ends) -> Option<StockhamKernel> {
        if !self.props.has_clusters() || cluster_setting() == ClusterSetting::Off || !ends.is_plain(n) || ends.real_post || ends.real_pre || in_columns(outer, src.1, 0) || in_columns(outer, dst.1, 1) {
            return None;
        }
        let (ip, op) = (self.precision_of(src.0), self.precision_of(dst.0));
        rocmath_kernels::gen::fft::cluster_split(ip, op, n, self.shared)
    }

    /// One Stockham launch of `n` points (`fits_one_pass`, or a cluster kernel: `cluster_of`).
    /// Threads follow the store side's order; rows read into a column-ordered block go through
    /// shared memory first. (Columns read into rows are read uncoalesced.)
    #[allow(clippy::too_many_arguments)]
    fn single(
        &mut self,
        n: usize,
        dir: i32,
        src: (&View, i64),
        dst: (&View, i64),
        outer: Vec<Outer>,
        ends: Ends,
        big: Option<FourStep>,
    ) -> Result<()> {
        let (sv, es_src) = src;
        let (dv, es_dst) = dst;
        let (ip, op) = (self.precision_of(sv), self.precision_of(dv));
        let in_col = in_columns(&outer, es_src, 0);
        let out_col = in_columns(&outer, es_dst, 1);
        let plain = plain_kernels() && ends.is_plain(n) && plain_side(sv, es_src, ends.n_in.max(n), &outer, 0) && plain_side(dv, es_dst, ends.n_out, &outer, 1);
        let cluster = if big.is_none() { self.cluster_of(n, src, dst, &outer, &ends) } else { None };
        let mut kernel = match cluster {
            Some(k) => k,
            None => StockhamKernel::new(ip, op, n, out_col, out_col && !in_col, self.shared).map_err(internal)?,
        }
        .with_dir(dir)
        .with_plain(plain);
        if ends.real_post {
            kernel = kernel.with_real_post().map_err(internal)?;
        }
        if ends.real_pre {
            kernel = kernel.with_real_pre().map_err(internal)?;
        }
        if ends.bluestein {
            kernel = kernel.with_bluestein().map_err(internal)?;
        }
        // Short transforms in rows on both sides go through shared memory both ways, so that a
        // warp's accesses run along consecutive elements (the four-step twiddle and Bluestein's
        // chirp stay in the passes).
        if big.is_none() && !ends.bluestein && !in_col && !out_col && kernel.wants_staged_rows() {
            kernel = kernel.with_staged_rows().map_err(internal)?;
        }
        self.table(stages_table(&kernel));
        for t in [ends.pre, ends.post].into_iter().flatten() {
            self.table(t);
        }
        if let Some(b) = &big {
            let (lo, hi, step) = b.tables(&kernel);
            for t in [Some(lo), Some(hi), step].into_iter().flatten() {
                self.table(t);
            }
        }
        let module = self.module(kernel.module_name(), || kernel.source());
        let function = kernel.module_name();
        let others = kernel.variants();
        for v in &others {
            self.module(v.module_name(), || v.source());
        }
        self.launches.push(Launch {
            op: Op::Stockham { kernel, dir, ends, elem_strides: (es_src, es_dst), big, others, blocks: Vec::new() },
            src: (sv.re, sv.im),
            dst: (dv.re, dv.im),
            outer,
            scale: 1.0,
            module,
            function,
        });
        Ok(())
    }

    /// n = n1 * n2: column transforms of n1 points (stride n2) with the twiddle into work, then
    /// n2-point transforms written transposed.
    fn four_step(&mut self, n: usize, dir: i32, src: (&View, i64), dst: (&View, i64), outer: Vec<Outer>) -> Result<()> {
        let (sv, es_src) = src;
        let (dv, es_dst) = dst;
        let n1 = split(n, self.compute, self.shared).ok_or_else(|| internal(format!("no four-step split of {n}")))?;
        let n2 = n / n1;
        let mark = self.work.top;
        // tmp row r holds element k1 of column j at complex k1 * n2 + j.
        let tmp = self.work_rows(n, &outer);
        // Step 1: element n1 at src + n1 * (n2 * es), columns j at src + j * es. The columns are
        // adjacent (outer stride es below the element stride), so the kernel runs column order.
        let mut o1 = vec![(n2, es_src, 2)];
        o1.extend(into_rows(&outer, 2 * n as i64));
        let big = FourStep { n, shift: big_shift(n), cols: n2 };
        self.single(n1, dir, (sv, es_src * n2 as i64), (&tmp, 2 * n2 as i64), o1, Ends::plain(n1), Some(big))?;
        // Step 2: row k1 of tmp (n2 points, contiguous) -> dst element k1 + n1 * k2.
        let mut o2 = vec![(n1, 2 * n2 as i64, es_dst)];
        o2.extend(from_rows(&outer, 2 * n as i64));
        self.c2c(n2, dir, (&tmp, 2), (dv, es_dst * n1 as i64), o2, n2, false)?;
        self.work.top = mark;
        Ok(())
    }

    /// Bluestein: X[k] = c[k] sum_j x[j] c[j] conj(c[k - j]) with the chirp c[j] = exp(dir pi i
    /// j^2 / n), the convolution as an m-point transform pair, m >= 2n - 1 and 7-smooth
    /// (`bluestein_length`). Where such an m fits one block, the first that does is one kernel
    /// (`StockhamKernel::with_bluestein`): the chirp on the forward transform's loads, the filter
    /// product in shared memory, the chirp again on the inverse's stores. Otherwise the smallest
    /// m in five launches: chirp in, transform, filter product, transform, chirp out.
    #[allow(clippy::too_many_arguments)]
    fn bluestein(
        &mut self,
        n: usize,
        dir: i32,
        src: (&View, i64),
        dst: (&View, i64),
        outer: Vec<Outer>,
        n_out: usize,
        herm_in: bool,
    ) -> Result<()> {
        let (sv, es_src) = src;
        let (dv, es_dst) = dst;
        let (smallest, largest_prime) = bluestein_length(n);
        // (No block holds more points than its shared memory holds values.)
        let limit = self.shared / self.compute.compute_complex_bytes();
        let fused = std::iter::successors(Some(smallest), |&m| Some(smallest_smooth_at_least(m + 1, largest_prime)))
            .take_while(|&m| m <= limit)
            .find(|&m| self.fits_one_pass(m, sv, dv))
            .filter(|_| bluestein_fused());
        let m = fused.unwrap_or(smallest);
        let (chirp, filter) = (Table::Chirp(n, dir), Table::Filter(n, m, dir));
        if fused.is_some() {
            let ends = Ends { n_in: n, herm_in, pre: Some(chirp), n_out, post: Some(filter), real_post: false, real_pre: false, bluestein: true };
            return self.single(m, -1, src, dst, outer, ends, None);
        }
        let rows: usize = outer.iter().map(|o| o.0).product();
        let row_len = 2 * m as i64;
        let mark = self.work.top;
        let a = self.work_rows(m, &outer);
        self.table(chirp);
        self.table(filter);
        // a[e] = x[e] chirp[e], zero-padded to m. The source's element stride rides on a unit
        // outer dimension in front.
        let (module1, f1) = self.util("chirp_in", self.precision_of(sv));
        let mut o1 = vec![(1, es_src, 0)];
        o1.extend(into_rows(&outer, row_len));
        self.launches.push(Launch {
            op: Op::ChirpIn { n, m, dir, herm_in },
            src: (sv.re, sv.im),
            dst: (a.re, a.im),
            outer: o1,
            scale: 1.0,
            module: module1,
            function: f1,
        });
        let rows_outer = from_rows(&into_rows(&outer, row_len), row_len);
        self.c2c(m, -1, (&a, 2), (&a, 2), rows_outer.clone(), m, false)?;
        let (module2, f2) = self.util("pointwise", self.compute);
        self.launches.push(Launch {
            op: Op::Pointwise { n, m, dir },
            src: (a.re, a.im),
            dst: (a.re, a.im),
            outer: vec![(rows, 0, 0)],
            scale: 1.0,
            module: module2,
            function: f2,
        });
        self.c2c(m, 1, (&a, 2), (&a, 2), rows_outer, m, false)?;
        let (module3, f3) = self.util("chirp_out", self.precision_of(dv));
        let mut o3 = vec![(1, 0, es_dst)];
        o3.extend(from_rows(&outer, row_len));
        self.launches.push(Launch {
            op: Op::ChirpOut { n, m, n_out, dir },
            src: (a.re, a.im),
            dst: (dv.re, dv.im),
            outer: o3,
            scale: 1.0,
            module: module3,
            function: f3,
        });
        self.work.top = mark;
        Ok(())
    }
}

fn internal(e: impl Into<String>) -> FftError {
    FftError::new(Status::Failure, "plan", e)
}

/// Strides of packed rows of `row_len` scalars over the outer dimensions.
fn packed_rows(outer: &[Outer], row_len: i64) -> Vec<i64> {
    let mut acc = row_len;
    outer
        .iter()
        .map(|o| {
            let s = acc;
            acc *= o.0 as i64;
            s
        })
        .collect()
}

/// `outer` writing packed rows of `row_len` scalars (the work buffer) instead of its destination.
fn into_rows(outer: &[Outer], row_len: i64) -> Vec<Outer> {
    outer.iter().zip(packed_rows(outer, row_len)).map(|(o, r)| (o.0, o.1, r)).collect()
}

/// `outer` reading packed rows of `row_len` scalars (the work buffer) instead of its source.
fn from_rows(outer: &[Outer], row_len: i64) -> Vec<Outer> {
    outer.iter().zip(packed_rows(outer, row_len)).map(|(o, r)| (o.0, r, o.2)).collect()
}

/// The shortest convolution of an `n`-point Bluestein transform, the smallest m >= 2n - 1 whose
/// prime factors are at most 7, and that bound. On the H100 (benches/results/2026-11-21-h100-fft.md,
/// thirty-fifth session) 7-smooth lengths ran faster than 5- and 3-smooth ones and the power of
/// two at 97, 2062 and 4099 (single 1.77 of cuFFT against 1.46-1.66, double 1.96 against
/// 0.62-1.49), and within 5 % at 19, 1031 and 8191. `ROCMATH_FFT_BLUESTEIN_SMOOTH` (2 for the
/// power of two, 3, 5, 7) sets the bound, for A/B.
fn bluestein_length(n: usize) -> (usize, usize) {
    static SMOOTH: OnceLock<usize> = OnceLock::new();
    let largest = *SMOOTH.get_or_init(|| {
        std::env::var("ROCMATH_FFT_BLUESTEIN_SMOOTH").ok().and_then(|v| v.parse().ok()).filter(|p| [2, 3, 5, 7].contains(p)).unwrap_or(7)
    });
    (smallest_smooth_at_least(2 * n - 1, largest), largest)
}

/// Whether a Bluestein transform whose length fits one block is one fused kernel: yes, unless
/// `ROCMATH_FFT_BLUESTEIN_FUSED=0` (five launches, as for longer ones; for A/B).
fn bluestein_fused() -> bool {
    static FUSED: OnceLock<bool> = OnceLock::new();
    *FUSED.get_or_init(|| std::env::var("ROCMATH_FFT_BLUESTEIN_FUSED").map_or(true, |v| v != "0"))
}

/// The smallest m >= `at_least` whose prime factors are all at most `largest` (2, 3, 5 or 7).
fn smallest_smooth_at_least(at_least: usize, largest: usize) -> usize {
    let mut best = at_least.next_power_of_two();
    let primes: Vec<usize> = [3, 5, 7].into_iter().filter(|&p| p <= largest).collect();
    // Every product of the odd primes below `best`, each completed by the least power of two.
    let mut odd = vec![1usize];
    for p in primes {
        let mut more = Vec::new();
        for &o in &odd {
            let mut v = o * p;
            while v < best {
                more.push(v);
                v *= p;
            }
        }
        odd.extend(more);
    }
    for o in odd {
        let mut v = o;
        while v < at_least {
            v *= 2;
        }
        best = best.min(v);
    }
    best
}

/// The column length n1 of a four-step split of `n`: the largest smooth divisor of `n` no longer
/// than sqrt(n) and short enough for a block of columns that fills whole cache lines
/// (`column_pass_limit`). The cofactor may need a further split.
fn split(n: usize, compute: FftPrecision, shared: usize) -> Option<usize> {
    let limit = compute.column_pass_limit(n, shared);
    let root = (n as f64).sqrt() as usize;
    (2..=root.min(limit)).rev().find(|&d| n.is_multiple_of(d) && rocmath_kernels::gen::fft::factorize(d).is_some())
}

/// The twiddle table `kernel` reads.
fn stages_table(kernel: &StockhamKernel) -> Table {
    let caps = rocmath_kernels::gen::fft::pass_caps(&kernel.passes);
    if kernel.cluster > 1 {
        Table::StagesCluster(kernel.n, caps, kernel.cluster, kernel.cluster_twiddle_rows())
    } else if kernel.real_post || kernel.real_pre {
        Table::StagesRealPost(kernel.n, caps)
    } else {
        Table::Stages(kernel.n, caps)
    }
}

/// Bits of the low table of a four-step twiddle for `n` points.
fn big_shift(n: usize) -> u32 {
    (usize::BITS - (n - 1).leading_zeros()).div_ceil(2).max(1)
}

/// The values of a table, in f64.
fn table_values(t: Table) -> Vec<Complex64> {
    use std::f64::consts::PI;
    let root = |num: u128, den: u128| {
        // exp(-2 pi i num / den) with the angle reduced exactly first.
        let r = (num % den) as f64 / den as f64;
        Complex64::from_polar(1.0, -2.0 * PI * r)
    };
    match t {
        Table::Roots(n) => (0..n).map(|m| root(m as u128, n as u128)).collect(),
        Table::Stages(n, caps) | Table::StagesRealPost(n, caps) | Table::StagesCluster(n, caps, _, _) => {
            let passes = rocmath_kernels::gen::fft::factorize_with(n, caps).unwrap_or_default();
            let mut fractions = stage_twiddles(&passes);
            match t {
                Table::StagesRealPost(..) => fractions.extend(real_post_twiddles(n)),
                Table::StagesCluster(_, _, cluster, rows) => fractions.extend(cluster_twiddles(n, cluster).into_iter().take(rows * n)),
                _ => {}
            }
            let mut t: Vec<Complex64> = fractions.into_iter().map(|(num, den)| root(num as u128, den as u128)).collect();
            // One or no pass reads no twiddle; keep the table non-empty all the same.
            if t.is_empty() {
                t.push(Complex64::new(1.0, 0.0));
            }
            t
        }
        Table::BigStep(n, cols, tpt, radix) => {
            let ns = n / cols / radix;
            let iters = ns.div_ceil(tpt);
            (0..iters * radix).flat_map(|q| (0..cols).map(move |c| root(c as u128 * ((q / radix) * tpt + (q % radix) * ns) as u128, n as u128))).collect()
        }
        Table::BigLo(n, shift) => (0..1usize << shift).map(|j| root(j as u128, n as u128)).collect(),
        Table::BigHi(n, shift) => (0..n.div_ceil(1 << shift)).map(|j| root((j as u128) << shift, n as u128)).collect(),
        Table::Chirp(n, dir) => (0..n).map(|j| chirp(j, n, dir)).collect(),
        Table::Filter(n, m, dir) => {
            let mut b = vec![Complex64::new(0.0, 0.0); m];
            for j in 0..n {
                let c = chirp(j, n, dir).conj();
                b[j] = c;
                if j > 0 {
                    b[m - j] = c;
                }
            }
            let mut planner = rustfft::FftPlanner::<f64>::new();
            planner.plan_fft_forward(m).process(&mut b);
            b.iter().map(|v| v / m as f64).collect()
        }
    }
}

/// exp(dir pi i j^2 / n), with j^2 reduced mod 2n in integers.
fn chirp(j: usize, n: usize, dir: i32) -> Complex64 {
    let q = (j as u128 * j as u128) % (2 * n as u128);
    Complex64::from_polar(1.0, dir as f64 * std::f64::consts::PI * q as f64 / n as f64)
}

fn table_bytes(values: &[Complex64], compute: FftPrecision) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * compute.compute_complex_bytes());
    for v in values {
        if compute == FftPrecision::F64 {
            out.extend_from_slice(&v.re.to_ne_bytes());
            out.extend_from_slice(&v.im.to_ne_bytes());
        } else {
            out.extend_from_slice(&(v.re as f32).to_ne_bytes());
            out.extend_from_slice(&(v.im as f32).to_ne_bytes());
        }
    }
    out
}

/// The other dimensions of `d` (fastest first) and the batch, as outer dimensions.
fn others(lengths: &[usize], d: usize, src: &View, dst: &View, batch: usize) -> Vec<Outer> {
    let mut o: Vec<Outer> = (0..lengths.len()).filter(|&i| i != d).map(|i| (lengths[i], src.strides[i], dst.strides[i])).collect();
    o.push((batch, src.dist, dst.dist));
    o
}

impl GpuPlan {
    pub(crate) fn new(plan: &Plan, device: &GpuDevice) -> Result<GpuPlan> {
        let b = GpuPlan::build(plan, device.properties(), Some(device))?;
        let queue = plan.device.new_queue()?;
        let tables = tables(device, &queue, &b.tables, b.compute)?;
        let work_bytes = b.work.peak * b.compute.compute_complex_bytes();
        let modules = modules(device, &b.sources)?;
        let mut launches = b.launches;
        for l in &mut launches {
            pick_by_blocks(l, &modules)?;
        }
        Ok(GpuPlan { launches, modules, tables, work_bytes, own_work: Mutex::new(None), storage: b.storage, compute: b.compute })
    }

    /// The modules (name, source) `plan` runs on a device of properties `props`, from
    /// [`Self::build`] with no device: what `rocmath-aot` compiles ahead of time.
    pub(crate) fn kernel_sources(plan: &Plan, props: &DeviceProperties) -> Result<Vec<(String, String)>> {
        Ok(GpuPlan::build(plan, props, None)?.sources)
    }

    /// The launch list of `plan` and the modules it needs, on a device of properties `props`.
    fn build<'a>(plan: &Plan, props: &'a DeviceProperties, device: Option<&'a GpuDevice>) -> Result<Builder<'a>> {
        let storage = fft_precision(plan.precision);
        let compute = rocmath_kernels::gen::fft::compute_precision(storage);
        let shared = props.shared_memory_per_block;
        let mut b = Builder { props, device, shared, storage, compute, work: WorkStack::default(), launches: Vec::new(), tables: Vec::new(), sources: Vec::new() };
        let input = View::of_layout(&plan.input, Buf::In);
        let output = match plan.placement {
            Placement::InPlace => View::of_layout(&plan.output, Buf::In),
            Placement::NotInPlace => View::of_layout(&plan.output, Buf::Out),
        };
        let lengths = plan.lengths.clone();
        let rank = lengths.len();
        let batch = plan.batch;
        match plan.transform {
            TransformType::ComplexForward | TransformType::ComplexInverse => {
                let dir = plan.transform.sign();
                for d in 0..rank {
                    let src = if d == 0 { &input } else { &output };
                    b.c2c(lengths[d], dir, (src, src.strides[d]), (&output, output.strides[d]), others(&lengths, d, src, &output, batch), lengths[d], false)?;
                }
            }
            TransformType::RealForward => {
                let n = lengths[0];
                let half = n / 2 + 1;
                let mut herm = lengths.clone();
                herm[0] = half;
                let h = n / 2;
                if n.is_multiple_of(2) && h > 1 && b.fits_one_pass(h, &input, &output) {
                    // The half-length transform of the pairs with the post-processing fused.
                    let outer = others(&lengths, 0, &input, &output, batch);
                    let ends = Ends { n_in: h, herm_in: false, pre: None, n_out: h + 1, post: None, real_post: true, real_pre: false, bluestein: false };
                    b.single(h, -1, (&input.pairs(), 2 * input.strides[0]), (&output, output.strides[0]), outer, ends, None)?;
                } else if n.is_multiple_of(2) && n > 1 {
                    let outer = others(&lengths, 0, &input, &output, batch);
                    let mark = b.work.top;
                    let z = b.work_rows(h, &outer);
                    // z[j] = x[2j] + i x[2j+1]: the real data read as pairs.
                    b.c2c(h, -1, (&input.pairs(), 2 * input.strides[0]), (&z, 2), into_rows(&outer, 2 * h as i64), h, false)?;
                    b.table(Table::Roots(n));
                    let (module, function) = b.util("r2c_post", b.precision_of(&output));
                    let mut o2 = vec![(1, 0, output.strides[0])];
                    o2.extend(from_rows(&outer, 2 * h as i64));
                    b.launches.push(Launch { op: Op::R2cPost { h }, src: (z.re, z.im), dst: (output.re, output.im), outer: o2, scale: 1.0, module, function });
                    b.work.top = mark;
                } else {
                    let outer = others(&lengths, 0, &input, &output, batch);
                    b.c2c(n, -1, (&input, input.strides[0]), (&output, output.strides[0]), outer, half, false)?;
                }
                for d in 1..rank {
                    b.c2c(herm[d], -1, (&output, output.strides[d]), (&output, output.strides[d]), others(&herm, d, &output, &output, batch), herm[d], false)?;
                }
            }
            TransformType::RealInverse => {
                let n = lengths[0];
                let half = n / 2 + 1;
                let mut herm = lengths.clone();
                herm[0] = half;
                // Complex passes over dimensions 1.. into a packed copy in the work buffer.
                let mut src = input.clone();
                let mark = b.work.top;
                if rank > 1 {
                    let count: usize = herm.iter().product::<usize>() * batch;
                    let at = b.work.take(count);
                    let copy = View::work(at, &herm);
                    for d in (1..rank).rev() {
                        let from = if d == rank - 1 { &input } else { &copy };
                        b.c2c(herm[d], 1, (from, from.strides[d]), (&copy, copy.strides[d]), others(&herm, d, from, &copy, batch), herm[d], false)?;
                    }
                    src = copy;
                }
                // (Blocks that read and write columns, batch-interleaved on both sides, keep the
                // two launches unless ROCMATH_FFT_REAL_PRE=2: that fused form passed the GPU test
                // in the thirty-eighth session but has not been timed.)
                let outer = others(&lengths, 0, &src, &output, batch);
                let columns = in_columns(&outer, src.strides[0], 0) && in_columns(&outer, 2 * output.strides[0], 1) && real_pre_setting() != 2;
                if n.is_multiple_of(2) && n > 2 && !columns && real_pre_fused() && b.fits_one_pass(n / 2, &src, &output) {
                    // The half-length transform with the pre-processing fused, written as pairs.
                    let h = n / 2;
                    let ends = Ends { n_in: h + 1, herm_in: false, pre: None, n_out: h, post: None, real_post: false, real_pre: true, bluestein: false };
                    b.single(h, 1, (&src, src.strides[0]), (&output.pairs(), 2 * output.strides[0]), outer, ends, None)?;
                } else if n.is_multiple_of(2) && n > 1 {
                    let h = n / 2;
                    let z = b.work_rows(h, &outer);
                    b.table(Table::Roots(n));
                    let (module, function) = b.util("c2r_pre", b.precision_of(&src));
                    let mut o1 = vec![(1, src.strides[0], 0)];
                    o1.extend(into_rows(&outer, 2 * h as i64));
                    b.launches.push(Launch { op: Op::C2rPre { h }, src: (src.re, src.im), dst: (z.re, z.im), outer: o1, scale: 1.0, module, function });
                    // x[2j], x[2j+1] = z[j]: the result written as pairs.
                    b.c2c(h, 1, (&z, 2), (&output.pairs(), 2 * output.strides[0]), from_rows(&outer, 2 * h as i64), h, false)?;
                } else {
                    b.c2c(n, 1, (&src, src.strides[0]), (&output, output.strides[0]), outer, n, true)?;
                }
                b.work.top = mark;
            }
        }
        if let Some(last) = b.launches.last_mut() {
            last.scale = plan.scale;
        }
        Ok(b)
    }

    pub(crate) fn work_bytes(&self) -> usize {
        self.work_bytes
    }

    pub(crate) fn describe(&self) -> String {
        let mut s = format!("  work buffer: {} bytes\n", self.work_bytes);
        for (i, l) in self.launches.iter().enumerate() {
            let what = match &l.op {
                Op::Stockham { dir, big: Some(_), .. } => format!("four-step column pass ({})", if *dir < 0 { "forward" } else { "inverse" }),
                Op::Stockham { kernel, ends, .. } if kernel.bluestein => format!("Bluestein convolution, {} points in {}", ends.n_in, kernel.n),
                Op::Stockham { kernel, .. } if kernel.real_post => format!("Stockham pass (forward) with the real post-processing, {} points out", kernel.n + 1),
                Op::Stockham { kernel, .. } if kernel.real_pre => format!("real inverse pre-processing of {} points, then a Stockham pass (inverse)", kernel.n + 1),
                Op::Stockham { dir, .. } => format!("Stockham pass ({})", if *dir < 0 { "forward" } else { "inverse" }),
                Op::R2cPost { h } => format!("real forward post-processing, {h} complex points"),
                Op::C2rPre { h } => format!("real inverse pre-processing, {h} complex points"),
                Op::ChirpIn { n, m, .. } => format!("Bluestein chirp in, {n} -> {m} points"),
                Op::Pointwise { m, .. } => format!("Bluestein filter product, {m} points"),
                Op::ChirpOut { n_out, .. } => format!("Bluestein chirp out, {n_out} points"),
            };
            // "(2 blocks per SM; 1 for NAME, ...)": the kernel run, then the ones it was compared with.
            let compared = match &l.op {
                Op::Stockham { others, blocks, .. } if blocks.len() == others.len() + 1 && !others.is_empty() => {
                    let rest: Vec<String> = others.iter().zip(&blocks[1..]).map(|(k, b)| format!("{b} for {}", k.module_name())).collect();
                    format!(" ({} blocks per SM; {})", blocks[0], rest.join(", "))
                }
                _ => String::new(),
            };
            s.push_str(&format!("  pass {i}: {what}: {}{compared} outer {:?} scale {}\n", l.function, l.outer, l.scale));
        }
        s
    }

    /// # Safety
    /// As [`Plan::execute_raw`].
    pub(crate) unsafe fn execute(
        &self,
        _plan: &Plan,
        user_queue: &rocmath_runtime::Queue,
        queue: &GpuQueue,
        input: &[*mut c_void],
        output: &[*mut c_void],
        work: Option<(*mut c_void, usize)>,
    ) -> Result<()> {
        // Held until the launches are queued: one execution at a time uses the plan's own buffer.
        let _own_work;
        let work_ptr = match work {
            Some((p, _)) => p as u64,
            None if self.work_bytes == 0 => 0,
            None => {
                let mut own = self.own_work.lock().map_err(|_| poisoned())?;
                if own.is_none() {
                    *own = Some(DeviceBuffer::<u8>::zeroed(user_queue, self.work_bytes)?);
                }
                let p = own.as_ref().map_or(0, |b| b.as_ptr() as u64);
                _own_work = own;
                p
            }
        };
        let addr = |loc: Loc| -> u64 {
            let (base, bytes) = match loc.buf {
                Buf::In(i) => (input[i] as u64, self.storage_bytes()),
                Buf::Out(i) => (output[i] as u64, self.storage_bytes()),
                Buf::Work => (work_ptr, self.compute_real_bytes()),
            };
            base.wrapping_add((loc.off * bytes as i64) as u64)
        };
        let table = |t: Table| -> u64 { self.tables.get(&t).map_or(0, |b| b.as_ptr() as u64) };
        for l in &self.launches {
            // Outer dimensions beyond three are looped over here.
            let (kernel_outer, host_outer) = l.outer.split_at(l.outer.len().min(3));
            let host_count: usize = host_outer.iter().map(|o| o.0).product();
            for h in 0..host_count {
                let (mut dsrc, mut ddst, mut rest) = (0i64, 0i64, h);
                for o in host_outer {
                    let i = (rest % o.0) as i64;
                    rest /= o.0;
                    dsrc += i * o.1;
                    ddst += i * o.2;
                }
                let src_re = addr(l.src.0.add(dsrc));
                let src_im = l.src.1.map_or(0, |x| addr(x.add(dsrc)));
                let dst_re = addr(l.dst.0.add(ddst));
                let dst_im = l.dst.1.map_or(0, |x| addr(x.add(ddst)));
                self.launch(l, kernel_outer, queue, [src_re, src_im, dst_re, dst_im], &table)?;
            }
        }
        Ok(())
    }

    /// Whether one side of a launch is interleaved complex that moves as pairs: im right after
    /// re, pair-aligned, even element and outer strides (`side` 0: source, 1: destination).
    fn pairs(&self, re: u64, im: u64, buf: Buf, es: i64, outer: &[Outer], side: usize) -> bool {
        let bytes = self.side_bytes(buf) as u64;
        im == re + bytes && re.is_multiple_of(2 * bytes) && es.rem_euclid(2) == 0 && outer.iter().all(|o| if side == 0 { o.1 % 2 == 0 } else { o.2 % 2 == 0 })
    }

    /// Bytes of one scalar in buffer `buf`.
    fn side_bytes(&self, buf: Buf) -> usize {
        match buf {
            Buf::Work => self.compute_real_bytes(),
            _ => self.storage_bytes(),
        }
    }

    fn storage_bytes(&self) -> usize {
        match self.storage {
            FftPrecision::F16 => 2,
            FftPrecision::F32 => 4,
            FftPrecision::F64 => 8,
        }
    }

    fn compute_real_bytes(&self) -> usize {
        self.compute.compute_complex_bytes() / 2
    }

    fn push_scale(&self, args: &mut KernelArgs, scale: f64) {
        if self.compute == FftPrecision::F64 {
            args.push(scale);
        } else {
            args.push(scale as f32);
        }
    }

    unsafe fn launch(&self, l: &Launch, outer: &[Outer], queue: &GpuQueue, [src_re, src_im, dst_re, dst_im]: [u64; 4], table: &dyn Fn(Table) -> u64) -> Result<()> {
        // Whether each side of a Stockham launch moves as pairs on these buffers.
        let (in_il, out_il) = match &l.op {
            Op::Stockham { elem_strides, .. } => (self.pairs(src_re, src_im, l.src.0.buf, elem_strides.0, outer, 0), self.pairs(dst_re, dst_im, l.dst.0.buf, elem_strides.1, outer, 1)),
            _ => (false, false),
        };
        let general;
        let (module, function) = match &l.op {
            Op::Stockham { kernel, .. } if kernel.plain && !(in_il && out_il) => {
                // The plan chose the plain load/store from its layouts; these buffers are not
                // pair-aligned after all (a pointer into the middle of a pair).
                let kernel = kernel.clone().with_plain(false);
                general = general_module(queue.device(), &kernel)?;
                (&general, kernel.module_name())
            }
            _ => (self.modules.get(&l.module).ok_or_else(|| internal(format!("module {} not built", l.module)))?, l.function.clone()),
        };
        let function = module.function(&function)?;
        let (dims, transforms) = kernel_dims(outer);
        if transforms == 0 {
            return Ok(());
        }
        let util_cfg = |total: usize| -> Result<LaunchConfig> {
            let blocks = total.div_ceil(UTIL_THREADS as usize);
            let grid = u32::try_from(blocks).map_err(|_| internal(format!("{total} elements need too many blocks")))?;
            Ok(LaunchConfig { grid: [grid, 1, 1], block: [UTIL_THREADS, 1, 1], shared_bytes: 0 })
        };
        let mut args = KernelArgs::new();
        let cfg = match &l.op {
            Op::Stockham { kernel, dir: _, ends, elem_strides, big, blocks, .. } => {
                let optional = |t: Option<Table>| t.map_or(0, table);
                args.push(src_re).push(src_im).push(elem_strides.0).push(in_il as i32).push(ends.herm_in as i32);
                args.push(ends.n_in as i32).push(optional(ends.pre));
                args.push(dst_re).push(dst_im).push(elem_strides.1).push(out_il as i32).push(ends.n_out as i32);
                args.push(optional(ends.post));
                push_dims(&mut args, &dims, transforms);
                args.push(table(stages_table(kernel)));
                match big {
                    Some(b) => {
                        let (lo, hi, step) = b.tables(kernel);
                        args.push(table(lo)).push(table(hi)).push(optional(step)).push(b.shift as i32)
                    }
                    None => args.push(0u64).push(0u64).push(0u64).push(0i32),
                };
                self.push_scale(&mut args, l.scale);
                args.push(next_blocks(kernel, blocks, in_il && out_il));
                let blocks = transforms.div_ceil(kernel.tpb).saturating_mul(kernel.cluster);
                let grid = u32::try_from(blocks).ok().filter(|&g| g < i32::MAX as u32).ok_or_else(|| internal("too many transforms for one launch"))?;
                LaunchConfig { grid: [grid, 1, 1], block: [kernel.threads(), 1, 1], shared_bytes: kernel.shared_bytes() }
            }
            Op::R2cPost { h } => {
                // outer[0] is the element-stride carrier (length 1); the rows follow.
                let rows = &outer[1..];
                let (dims_rows, count) = kernel_dims(rows);
                args.push(src_re).push(*h as i64).push(dst_re).push(dst_im).push(outer[0].2);
                push_dims(&mut args, &dims_rows, count);
                args.push(table(Table::Roots(2 * h)));
                self.push_scale(&mut args, l.scale);
                util_cfg((h + 1) * count)?
            }
            Op::C2rPre { h } => {
                let rows = &outer[1..];
                let (dims_rows, count) = kernel_dims(rows);
                args.push(src_re).push(src_im).push(outer[0].1);
                push_dims(&mut args, &dims_rows, count);
                args.push(dst_re).push(*h as i64).push(table(Table::Roots(2 * h)));
                util_cfg(h * count)?
            }
            Op::ChirpIn { n, m, dir, herm_in } => {
                let rows = &outer[1..];
                let (dims_rows, count) = kernel_dims(rows);
                args.push(src_re).push(src_im).push(outer[0].1).push(*herm_in as i32).push(*n as i64);
                push_dims(&mut args, &dims_rows, count);
                args.push(dst_re).push(*m as i64).push(table(Table::Chirp(*n, *dir)));
                util_cfg(m * count)?
            }
            Op::Pointwise { n, m, dir } => {
                let rows = outer[0].0;
                args.push(dst_re).push(*m as i64).push(rows as i64).push(table(Table::Filter(*n, *m, *dir)));
                util_cfg(m * rows)?
            }
            Op::ChirpOut { n, m, n_out, dir } => {
                let rows = &outer[1..];
                let (dims_rows, count) = kernel_dims(rows);
                args.push(src_re).push(*m as i64).push(*n_out as i64).push(dst_re).push(dst_im).push(outer[0].2);
                push_dims(&mut args, &dims_rows, count);
                args.push(table(Table::Chirp(*n, *dir)));
                self.push_scale(&mut args, l.scale);
                util_cfg(n_out * count)?
            }
        };
        function.launch(queue, cfg, &mut args)?;
        Ok(())
    }
}

/// Up to three outer dimensions padded with unit ones, and the transform count. The kernels
/// take the lengths of the first two (the third is implied by the count) and the strides of all
/// three on each side.
fn kernel_dims(outer: &[Outer]) -> ([Outer; 3], usize) {
    let mut dims = [(1usize, 0i64, 0i64); 3];
    for (i, o) in outer.iter().take(3).enumerate() {
        dims[i] = *o;
    }
    (dims, outer.iter().take(3).map(|o| o.0).product())
}

fn push_dims(args: &mut KernelArgs, dims: &[Outer; 3], count: usize) {
    args.push(dims[0].0 as i64).push(dims[1].0 as i64);
    args.push(dims[0].1).push(dims[1].1).push(dims[2].1);
    args.push(dims[0].2).push(dims[1].2).push(dims[2].2);
    args.push(count as i64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rocmath_kernels::gen::fft::{SHARED_CDNA, SHARED_SM90};

    #[test]
    fn splits_are_smooth_and_bounded() {
        for n in [1 << 15, 1 << 20, 1 << 24, 3usize.pow(15), 5usize.pow(10), 17 * 16384] {
            let n1 = split(n, FftPrecision::F32, SHARED_SM90).unwrap();
            assert_eq!(n % n1, 0);
            assert!(n1 <= 4096 && (n1 <= 2048 || n > 2 * 2048 * 2048));
        }
        // Balanced where the longer column pass still spans 32 bytes of columns.
        assert_eq!(split(1 << 23, FftPrecision::F32, SHARED_SM90), Some(2048));
        assert_eq!(split(1 << 24, FftPrecision::F32, SHARED_SM90), Some(4096));
        // CDNA's 1024-point column blocks span 7 (f32) and 3 (f64) transforms, 56 and 48
        // bytes: 2^20 splits evenly there.
        assert_eq!(split(1 << 19, FftPrecision::F32, SHARED_CDNA), Some(512));
        assert_eq!(split(1 << 20, FftPrecision::F32, SHARED_CDNA), Some(1024));
        assert_eq!(split(1 << 20, FftPrecision::F64, SHARED_SM90), Some(1024));
        assert_eq!(split(1 << 20, FftPrecision::F64, SHARED_CDNA), Some(1024));
    }

    #[test]
    fn bluestein_lengths_are_the_least_smooth_ones() {
        let smooth = |mut m: usize, largest: usize| {
            for p in [2, 3, 5, 7].into_iter().filter(|&p| p <= largest) {
                while m % p == 0 {
                    m /= p;
                }
            }
            m == 1
        };
        for largest in [2, 3, 5, 7] {
            for at_least in 1..3000 {
                let want = (at_least..).find(|&m| smooth(m, largest)).unwrap();
                assert_eq!(smallest_smooth_at_least(at_least, largest), want, "{at_least}, {largest}-smooth");
            }
        }
        assert_eq!(smallest_smooth_at_least(2 * 4099 - 1, 5), 8640);
        assert_eq!(smallest_smooth_at_least(2 * 4099 - 1, 7), 8232);
        assert_eq!(smallest_smooth_at_least(2 * 65537 - 1, 5), 131220);
    }

    #[test]
    fn bluestein_is_one_launch_where_its_length_fits_a_block() {
        use crate::{Placement, Plan, Precision, TransformType};
        let props = crate::aot::target_properties("sm_90").unwrap();
        let cpu = rocmath_runtime::Device::cpu();
        let launches = |n: usize, t: TransformType| {
            let plan = Plan::new(&cpu, Placement::NotInPlace, t, Precision::Single, &[n], 3, None).unwrap();
            GpuPlan::build(&plan, &props, None).unwrap().launches
        };
        // 1031: 2061 -> 2100 points, one kernel holding both transforms.
        let one = launches(1031, TransformType::ComplexForward);
        assert_eq!(one.len(), 1);
        assert!(matches!(&one[0].op, Op::Stockham { kernel, .. } if kernel.bluestein && kernel.n == 2100));
        // 12289: 24696 (1176 threads) does not fit a block; the next 7-smooth length, 25000, does.
        assert!(matches!(&launches(12289, TransformType::ComplexForward)[0].op, Op::Stockham { kernel, .. } if kernel.bluestein && kernel.n == 25000));
        // A real forward of odd prime length stores its hermitian half through the same kernel.
        let real = launches(1031, TransformType::RealForward);
        assert!(matches!(&real[0].op, Op::Stockham { kernel, ends, .. } if kernel.bluestein && ends.n_out == 516));
        // 65537: 131220 points, past one block: chirp in, two four-step transforms, filter,
        // chirp out.
        let long = launches(65537, TransformType::ComplexForward);
        assert_eq!(smallest_smooth_at_least(2 * 65537 - 1, 7), 131220);
        assert!(matches!(long[0].op, Op::ChirpIn { m: 131220, .. }));
        assert!(matches!(long.last().unwrap().op, Op::ChirpOut { m: 131220, .. }));
    }

    #[test]
    fn even_real_transforms_are_one_launch_where_the_half_fits_one_pass() {
        use crate::{Placement, Plan, Precision, TransformType};
        let props = crate::aot::target_properties("sm_90").unwrap();
        let cpu = rocmath_runtime::Device::cpu();
        let launches = |n: usize, t: TransformType, batch: usize| {
            let plan = Plan::new(&cpu, Placement::NotInPlace, t, Precision::Single, &[n], batch, None).unwrap();
            GpuPlan::build(&plan, &props, None).unwrap().launches
        };
        let kernel = |l: &Launch| match &l.op {
            Op::Stockham { kernel, .. } => Some(kernel.clone()),
            _ => None,
        };
        // 8192 real = 4096 complex points: the pre-processing on the loads, no work buffer.
        let inverse = launches(8192, TransformType::RealInverse, 3);
        assert_eq!(inverse.len(), 1);
        let k = kernel(&inverse[0]).unwrap();
        assert!(k.real_pre && !k.staged && !k.staged_out && k.n == 4096 && k.dir == 1, "{}", k.module_name());
        // Short halves stage their stores too, both ways; the forward post-processing runs in
        // the rows.
        let k = kernel(&launches(32, TransformType::RealInverse, 1000)[0]).unwrap();
        assert!(k.real_pre && k.staged_out && k.n == 16, "{}", k.module_name());
        let k = kernel(&launches(32, TransformType::RealForward, 1000)[0]).unwrap();
        assert!(k.real_post && k.staged && k.staged_out && k.n == 16, "{}", k.module_name());
        // Past one pass (2^16 complex points: a cluster or a four-step), the pre-processing is
        // its own launch; 2 points (a half of one) too.
        let long = launches(1 << 17, TransformType::RealInverse, 2);
        assert!(matches!(long[0].op, Op::C2rPre { h: 65536 }) && long.len() > 1);
        assert!(matches!(launches(2, TransformType::RealInverse, 3)[0].op, Op::C2rPre { h: 1 }));
        // Batch-interleaved on both sides (columns in and out): two launches.
        let mut description = crate::PlanDescription::new();
        description.set_data_layout(crate::ArrayType::HermitianInterleaved, crate::ArrayType::Real, &[], &[], &[64], 1, &[64], 1).unwrap();
        let plan = Plan::new(&cpu, Placement::NotInPlace, TransformType::RealInverse, Precision::Single, &[64], 64, Some(&description)).unwrap();
        let interleaved = GpuPlan::build(&plan, &props, None).unwrap().launches;
        assert!(matches!(interleaved[0].op, Op::C2rPre { h: 32 }) && interleaved.len() == 2);
    }

    #[test]
    fn big_twiddle_tables_cover_every_product() {
        for n in [1usize << 15, 3usize.pow(11), 1 << 24] {
            let shift = big_shift(n);
            let hi = n.div_ceil(1 << shift);
            assert!((n - 1) >> shift < hi);
            assert!(1usize << shift >= (n as f64).sqrt() as usize);
        }
    }

    #[test]
    fn four_step_twiddle_is_the_threads_base_times_a_step() {
        // rm_fft_big_twiddle_apply: element r of butterfly j = lt + it tpt of column c gets
        // base(c lt) * step[(it radix + r) cols + c] = exp(-2 pi i c (j + r NS) / n).
        for (n1, cols, tpt, radix) in [(1024usize, 64usize, 64usize, 4usize), (1000, 30, 125, 5), (2048, 16, 128, 8)] {
            let n = n1 * cols;
            let shift = big_shift(n);
            let (lo, hi) = (table_values(Table::BigLo(n, shift)), table_values(Table::BigHi(n, shift)));
            let step = table_values(Table::BigStep(n, cols, tpt, radix));
            let ns = n1 / radix;
            for c in (0..cols).step_by(7) {
                for j in (0..ns).step_by(3) {
                    let (lt, it) = (j % tpt, j / tpt);
                    let m = c * lt;
                    let base = lo[m & ((1 << shift) - 1)] * hi[m >> shift];
                    for r in 0..radix {
                        let want = Complex64::from_polar(1.0, -2.0 * std::f64::consts::PI * ((c * (j + r * ns)) % n) as f64 / n as f64);
                        let got = base * step[(it * radix + r) * cols + c];
                        assert!((got - want).norm() < 1e-12, "n1 {n1} cols {cols} c {c} j {j} r {r}");
                    }
                }
            }
        }
    }

    #[test]
    fn four_step_twiddle_by_products_stays_within_f32_roundoff() {
        // RM_FFT_BIG_RECURRENCE (f32 column kernels): element r of iteration it of thread lt in
        // column c gets base g^it s^r, with base = w(c lt), g = w(c tpt), s = w(c ns) and
        // w(m) = lo[m & mask] hi[m >> shift], in f32 tables and f32 products; ns = n1 / radix is
        // a multiple of tpt. The shapes of 2^20, 2^23 and 2^24.
        use num_complex::Complex32;
        for (n1, cols, tpt, radix) in [(1024usize, 1024usize, 64usize, 4usize), (2048, 4096, 128, 8), (4096, 4096, 256, 16)] {
            let n = n1 * cols;
            let shift = big_shift(n);
            let f32s = |t: Vec<Complex64>| t.into_iter().map(|v| Complex32::new(v.re as f32, v.im as f32)).collect::<Vec<_>>();
            let (lo, hi) = (f32s(table_values(Table::BigLo(n, shift))), f32s(table_values(Table::BigHi(n, shift))));
            let w = |m: usize| lo[m & ((1 << shift) - 1)] * hi[m >> shift];
            let ns = n1 / radix;
            assert_eq!(ns % tpt, 0);
            let mut worst = 0f64;
            for c in (0..cols).step_by(97) {
                for lt in (0..tpt).step_by(5) {
                    let (base, g, s) = (w(c * lt), w(c * tpt), w(c * ns));
                    for it in 0..ns / tpt {
                        let mut t = base;
                        for _ in 0..it {
                            t *= g;
                        }
                        for r in 0..radix {
                            let e = lt + it * tpt + r * ns;
                            let want = Complex64::from_polar(1.0, -2.0 * std::f64::consts::PI * ((c * e) % n) as f64 / n as f64);
                            worst = worst.max((Complex64::new(t.re as f64, t.im as f64) - want).norm());
                            t *= s;
                        }
                    }
                }
            }
            // A few ulp of f32 per product, chains of at most radix + ns / tpt products.
            assert!(worst < 4e-6, "n1 {n1} cols {cols}: worst {worst:.3e}");
        }
    }

    #[test]
    fn bluestein_filter_convolves_to_the_dft() {
        // The chirp identity: X[k] = c[k] sum_j x[j] c[j] conj(c[k - j]).
        let n = 7;
        let x: Vec<Complex64> = (0..n).map(|j| Complex64::new(j as f64, 1.0 - j as f64)).collect();
        for dir in [-1, 1] {
            for k in 0..n {
                let direct: Complex64 = (0..n).map(|j| x[j] * Complex64::from_polar(1.0, dir as f64 * 2.0 * std::f64::consts::PI * (j * k) as f64 / n as f64)).sum();
                let via: Complex64 = chirp(k, n, dir)
                    * (0..n).map(|j| x[j] * chirp(j, n, dir) * chirp((k as i64 - j as i64).unsigned_abs() as usize, n, dir).conj()).sum::<Complex64>();
                assert!((direct - via).norm() < 1e-9, "k {k}: {direct} vs {via}");
            }
        }
    }
}
