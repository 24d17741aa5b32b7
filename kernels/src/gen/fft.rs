//! FFT generator: a typed model of a Stockham kernel (length, radix passes, threads per
//! transform, transforms per block, precision) -> a self-contained translation unit holding the
//! butterflies it needs, its pass list and the forward and inverse `extern "C"` kernels; plus the
//! element-wise module of each precision (real-even pre/post-processing, Bluestein chirps).
//!
//! Stockham kernel contract (`<module>_fwd` / `<module>_inv`):
//!
//! ```text
//! (const TI* in_re, const TI* in_im, long long in_stride, int in_il, int herm_in, int n_in, const C* pre,
//!  TO* out_re, TO* out_im, long long out_stride, int out_il, int n_out, const C* post,
//!  long long len0, long long len1, long long in0, long long in1, long long in2,
//!  long long out0, long long out1, long long out2, long long transforms,
//!  const C* tw, const C* big_lo, const C* big_hi, const C* big_step, int big_shift, R scale)
//! ```
//!
//! `tw` is the kernel's twiddle table, laid out by [`stage_twiddles`].
//!
//! TI/TO are the storage types (float, double, half), R the compute type (float for half), C the
//! complex of R. `*_il`: re/im adjacent and aligned (interleaved), read and written as pairs. See `src/fft/fft.hip` for the addressing and each argument.

use super::env_number;

/// The FFT kernel body (`src/fft/fft.hip`).
pub const FFT_HIP: &str = include_str!("../fft/fft.hip");

/// Bumped whenever the generated code changes meaning (not names).
pub const GENERATOR: &str = "rocmath-fft/2";

/// Radices the butterflies cover; other prime factors (23 and up) go through Bluestein. 19, like
/// the primes below it, is a direct butterfly (pairs of conjugate terms); 23 was one too, but as
/// the first pass of f64 column kernels it spilled 4-6 SGPRs on gfx90a and gfx942 (its 22
/// 64-bit constants). 32 (two radix-16
/// halves in registers) serves only the longest power-of-two rows ([`row_radix`]); the odd
/// composites 9 to 27 (butterflies built from their prime factors) pack the odd primes of a length
/// into fewer passes where that pays ([`odd_radix`]).
pub const RADICES: [usize; 18] = [2, 3, 4, 5, 7, 8, 9, 10, 11, 13, 15, 16, 17, 19, 21, 25, 27, 32];

/// The largest radices a factorization may use: `two` for its powers of two (a power of two, 2
/// to 32) and `odd` for products of its odd primes (1: each odd prime its own pass). A prime
/// factor is always a pass of its own where no product holds it. `tens`: this many factors 2
/// and 5 pair first into radix-10 passes ([`ten_passes`]). `pair_two`: where nonzero (one of
/// [`PAIRABLE_ODD`]), a radix-2 pass joins an odd pass of that radix into one of twice it
/// ([`pair_two`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RadixCaps {
    pub two: usize,
    pub odd: usize,
    pub tens: usize,
    pub pair_two: usize,
}

/// Odd passes a radix-2 pass may join ([`RadixCaps::pair_two`]): their doubles 6 to 30 are
/// butterflies of their own (an odd butterfly over two halves, built like the odd composites).
/// Not 5: a 10 is [`ten_passes`]'s, and the caps must tell the two apart.
pub const PAIRABLE_ODD: [usize; 6] = [3, 7, 9, 11, 13, 15];

/// The precision a transform stored in `p` computes in.
pub fn compute_precision(p: FftPrecision) -> FftPrecision {
    if p == FftPrecision::F64 {
        FftPrecision::F64
    } else {
        FftPrecision::F32
    }
}

/// Precision of a transform's storage (half computes in f32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FftPrecision {
    F32,
    F64,
    F16,
}

impl FftPrecision {
    pub const ALL: [FftPrecision; 3] = [FftPrecision::F32, FftPrecision::F64, FftPrecision::F16];
    pub fn tag(self) -> &'static str {
        match self {
            FftPrecision::F32 => "s",
            FftPrecision::F64 => "d",
            FftPrecision::F16 => "h",
        }
    }
    fn storage(self) -> &'static str {
        match self {
            FftPrecision::F32 => "float",
            FftPrecision::F64 => "double",
            FftPrecision::F16 => "rm_half",
        }
    }
    fn compute(self) -> &'static str {
        match self {
            FftPrecision::F64 => "double",
            _ => "float",
        }
    }
    fn complex(self) -> &'static str {
        match self {
            FftPrecision::F64 => "rm_c64",
            _ => "rm_c32",
        }
    }
    /// Bytes of one complex value as stored in user buffers.
    pub fn storage_complex_bytes(self) -> usize {
        match self {
            FftPrecision::F64 => 16,
            FftPrecision::F32 => 8,
            FftPrecision::F16 => 4,
        }
    }
    /// Bytes of one complex value in the compute type (shared memory, tables, work buffers).
    pub fn compute_complex_bytes(self) -> usize {
        match self {
            FftPrecision::F64 => 16,
            _ => 8,
        }
    }
    /// Longest power-of-two single-pass transform on a device with `shared_limit` bytes of
    /// shared memory (LDS) per block: the padded row fits, with at most 1024 threads (length /
    /// 16) per transform. 16384 (f32) / 8192 (f64) on sm_90; 4096 / 2048 in the 64 KiB of CDNA.
    pub fn max_single_pass(self, shared_limit: usize) -> usize {
        let mut n = 1;
        while n * 2 <= 16 * 1024 && row_elements(2 * n) * compute_precision(self).compute_complex_bytes() <= shared_limit {
            n *= 2;
        }
        n
    }

    /// Longest power-of-two column pass (the four-step's first step) that still gets a block of
    /// [`column_bytes`] adjacent transforms within `shared_limit`: 2048 on sm_90, 512 on CDNA (at
    /// the default 64 bytes).
    pub fn max_column_pass(self, shared_limit: usize) -> usize {
        let bytes = compute_precision(self).compute_complex_bytes();
        let tpb = column_bytes() / bytes;
        let mut n = 1;
        while (2 * n / 16).max(1) * tpb <= 1024 && tpb * row_elements(2 * n) * bytes <= shared_limit {
            n *= 2;
        }
        n
    }

    /// Longest column pass a four-step split of `n` points may use: [`Self::max_column_pass`],
    /// or [`Self::long_column_pass`] where the shorter bound would leave the row pass more than
    /// twice as long as the column pass. On the H100, 2^24 as 4096 x 4096 in 32-byte columns
    /// takes 1.35 ms, as 2048 x 8192 in 64-byte ones 2.0 ms (benches/results/
    /// 2026-11-21-h100-fft.md, eighth session).
    pub fn column_pass_limit(self, n: usize, shared_limit: usize) -> usize {
        let limit = self.max_column_pass(shared_limit);
        if n <= 2 * limit * limit {
            return limit;
        }
        self.long_column_pass(shared_limit).unwrap_or(limit)
    }

    /// Twice [`Self::max_column_pass`], if that column kernel's block still spans 32 bytes of
    /// adjacent transforms (it takes fewer than [`column_bytes`] where threads or shared memory
    /// run out).
    pub fn long_column_pass(self, shared_limit: usize) -> Option<usize> {
        let p = compute_precision(self);
        let n = 2 * p.max_column_pass(shared_limit);
        StockhamKernel::new(p, p, n, true, false, shared_limit).ok().filter(|k| k.tpb * p.compute_complex_bytes() >= 32).map(|_| n)
    }
}

/// Radix passes for `n`, largest powers of two first, then each odd prime in a pass of its
/// own, largest first; `None` if `n` has a prime factor beyond 19. `n = 1` has no pass.
pub fn factorize(n: usize) -> Option<Vec<usize>> {
    factorize_with(n, RadixCaps { two: 16, odd: 1, tens: 0, pair_two: 0 })
}

/// [`factorize`] within `caps`: `caps.tens` radix-10 passes first (where `n` has the factors),
/// then the powers of two in passes of at most `caps.two`, then the odd
/// primes packed, largest first, each into the first pass it fits within `caps.odd` (3^8 under
/// 27: 27 27 9; 5^3 3 under 27: 25 15), those passes largest first; then, with
/// `caps.pair_two`, a radix-2 pass and an odd pass of that radix become one pass of twice it, in
/// the radix-2 pass's place (2 21 21 7 with 7: 14 21 21).
pub fn factorize_with(n: usize, caps: RadixCaps) -> Option<Vec<usize>> {
    if n == 0 {
        return None;
    }
    let step = caps.two.clamp(2, 32).trailing_zeros();
    let mut rest = n;
    let mut passes = Vec::new();
    while passes.len() < caps.tens && rest.is_multiple_of(10) {
        passes.push(10);
        rest /= 10;
    }
    let mut twos = 0;
    while rest.is_multiple_of(2) {
        rest /= 2;
        twos += 1;
    }
    while twos >= step {
        passes.push(1 << step);
        twos -= step;
    }
    if twos > 0 {
        passes.push(1 << twos);
    }
    let mut odd: Vec<usize> = Vec::new();
    for p in [19, 17, 13, 11, 7, 5, 3] {
        while rest.is_multiple_of(p) {
            match odd.iter_mut().find(|r| **r * p <= caps.odd) {
                Some(r) => *r *= p,
                None => odd.push(p),
            }
            rest /= p;
        }
    }
    odd.sort_unstable_by(|a, b| b.cmp(a));
    passes.extend(odd);
    if caps.pair_two > 0 {
        if let (Some(two), Some(odd)) = (passes.iter().position(|&r| r == 2), passes.iter().position(|&r| r == caps.pair_two)) {
            passes[two] = 2 * caps.pair_two;
            passes.remove(odd);
        }
    }
    (rest == 1).then_some(passes)
}

/// The caps that rebuild `passes` with [`factorize_with`] (their largest power of two, largest
/// odd composite and radix-10 passes): what a plan keys a kernel's twiddle table by.
pub fn pass_caps(passes: &[usize]) -> RadixCaps {
    // A paired pass (2 p, not 10) counts as its odd half p.
    let paired = passes.iter().copied().find(|&r| r % 2 == 0 && r != 10 && !r.is_power_of_two()).map_or(0, |r| r / 2);
    let largest = |keep: &dyn Fn(usize) -> bool| passes.iter().copied().chain([paired]).filter(|&r| keep(r)).max().unwrap_or(1);
    RadixCaps {
        two: largest(&|r| r.is_power_of_two()),
        odd: largest(&|r| r % 2 == 1 && smallest_odd_factor(r) != Some(r)),
        tens: passes.iter().filter(|&&r| r == 10).count(),
        pair_two: paired,
    }
}

/// The twiddle table of a Stockham kernel with radix passes `passes`: for each pass after the
/// first (radix R after NS points), exp(-2 pi i k r / (NS R)) for r = 1..R (outer) and k < NS
/// (inner), as (k r, NS R): the numerator and denominator of a fraction of a turn. The kernel
/// reads block p at [`stage_offsets`]`[p]`.
pub fn stage_twiddles(passes: &[usize]) -> Vec<(usize, usize)> {
    let mut t = Vec::new();
    let mut ns = 1;
    for (p, &radix) in passes.iter().enumerate() {
        if p > 0 {
            for r in 1..radix {
                t.extend((0..ns).map(|k| (k * r, ns * radix)));
            }
        }
        ns *= radix;
    }
    t
}

/// The real forward post-processing twiddles of a `2n`-point real transform:
/// exp(-2 pi i k / 2n) for k < n, as (k, 2n).
pub fn real_post_twiddles(n: usize) -> Vec<(usize, usize)> {
    (0..n).map(|k| (k, 2 * n)).collect()
}

/// The cross-block twiddles of a cluster kernel (a transform of `cluster * m` points in blocks
/// of `m`): exp(-2 pi i c k / (cluster m)) for c = 1..cluster (outer) and k < m, as (c k,
/// cluster m). They follow the pass blocks in the kernel's table.
pub fn cluster_twiddles(m: usize, cluster: usize) -> Vec<(usize, usize)> {
    (1..cluster).flat_map(|c| (0..m).map(move |k| (c * k, cluster * m))).collect()
}

/// Largest cluster a kernel may ask for (the portable limit on sm_90).
pub const MAX_CLUSTER: usize = 8;

/// Where plans use cluster kernels (on devices that have clusters): `ROCMATH_FFT_CLUSTER=0`
/// nowhere, `2` wherever a length splits ([`cluster_split`] without its comparison with the
/// ordinary kernel), else `Auto`. The other settings are A/B switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterSetting {
    Off,
    Auto,
    Everywhere,
}

/// The process's [`ClusterSetting`] (read once).
pub fn cluster_setting() -> ClusterSetting {
    static SETTING: std::sync::OnceLock<ClusterSetting> = std::sync::OnceLock::new();
    *SETTING.get_or_init(|| match std::env::var("ROCMATH_FFT_CLUSTER").as_deref() {
        Ok("0") => ClusterSetting::Off,
        Ok("2") => ClusterSetting::Everywhere,
        _ => ClusterSetting::Auto,
    })
}

/// Shared memory of one block of a cluster kernel's transform, in bytes of the compute type:
/// 32 KiB (4096 f32 / 2048 f64 points, the longest single passes that run at copy speed on the
/// H100). `ROCMATH_FFT_CLUSTER_BYTES` (a power of two, 4096..=131072) overrides it for tuning.
fn cluster_block_bytes() -> usize {
    static BYTES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| env_number("ROCMATH_FFT_CLUSTER_BYTES", |b| b.is_power_of_two() && (4096..=131072).contains(&b)).unwrap_or(32 * 1024))
}

/// The cluster kernel for an `n`-point transform, if `n` is longer than one cluster block
/// ([`cluster_block_bytes`]), an ordinary kernel would take 1024 threads per transform or none
/// fits, and `n` splits into the fewest blocks (at most [`MAX_CLUSTER`], a radix) of a length
/// whose kernel takes at most 512 threads (blocks of twice the bytes where no such split
/// exists). (NVIDIA sm_90 and later; the plan checks the
/// device.) On the H100 (benches/results/2026-11-21-h100-fft.md, tenth session): 4 x 4096
/// beat the 1024-thread 16384-point kernel by 5 % (radix-32 rows now hold 16384 in 512 threads,
/// 7 % faster still: fifteenth session); 8 x 4096 the four-step 32768 by 30 %, 7 x
/// 2401 the four-step 16807 by 13 %, 8 x 2048 f64 the four-step 16384 by 33 %. They lose where
/// an ordinary kernel of up to 588 threads fits (2 x 4096 ties 8192; 4 x 2048 f64 is 8 % slower
/// than 8192 f64; 2 x 2058 9 % slower than 4116) and with 729-thread blocks (3 x 2187 is 10 %
/// slower than the four-step 6561).
pub fn cluster_split(input: FftPrecision, output: FftPrecision, n: usize, shared_limit: usize) -> Option<StockhamKernel> {
    let block = cluster_block_bytes() / compute_precision(input).compute_complex_bytes();
    let ordinary = || StockhamKernel::new(input, output, n, false, false, shared_limit).is_ok_and(|k| k.tpt < 1024);
    if n <= block || (cluster_setting() == ClusterSetting::Auto && ordinary()) {
        return None;
    }
    let split = |block: usize| {
        RADICES.iter().copied().filter(|&c| c <= MAX_CLUSTER && n.is_multiple_of(c) && n / c <= block).find_map(|c| {
            let mut k = StockhamKernel::build(input, output, n / c, false, false, shared_limit, false).ok()?;
            k.tpb = 1;
            k.with_cluster(c).ok().filter(|k| k.tpt <= 512)
        })
    };
    // Blocks of twice the size where the usual ones are too few: one pass instead of a
    // four-step's two (2^16 as 8 x 8192: 0.735 against 0.786 ms on the H100).
    split(block).or_else(|| split(2 * block))
}

/// Where each pass's block starts in [`stage_twiddles`] (0 for the first pass, which has none).
pub fn stage_offsets(passes: &[usize]) -> Vec<usize> {
    let mut at = 0;
    let mut ns = 1;
    passes
        .iter()
        .enumerate()
        .map(|(p, &radix)| {
            let off = at;
            if p > 0 {
                at += (radix - 1) * ns;
            }
            ns *= radix;
            off
        })
        .collect()
}

/// Shared memory a block may use for rows when there is a choice (leaves room for two blocks
/// per SM on sm_90 and for the 64 KiB LDS of CDNA).
const ROW_BUDGET: usize = 48 * 1024;
/// Threads per block a row kernel aims for (transforms per block = this / threads per
/// transform, at least one). `ROCMATH_FFT_TARGET_THREADS` (32..=1024) overrides it for A/B.
fn target_threads() -> usize {
    static TARGET: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *TARGET.get_or_init(|| env_number("ROCMATH_FFT_TARGET_THREADS", |t| (32..=1024).contains(&t)).unwrap_or(256))
}
/// Bytes of adjacent transforms a column pass reads and writes per element: 64 by default (8
/// complex f32, 4 complex f64; two of a line's four sectors, and L2 merges the neighbouring
/// block's half). `ROCMATH_FFT_COLUMN_BYTES` (a power of two, 16..=256) overrides it for tuning:
/// wider blocks coalesce better, narrower ones need less shared memory per block and so keep
/// more blocks per multiprocessor. Measured on the H100 (benches/results/2026-11-21-h100-fft.md):
/// 64 beats 128 at 2^20-2^24 by 5-25 % and loses 1-3 % at 2^15, 2^16, 512^3 and double 2^20.
pub fn column_bytes() -> usize {
    static BYTES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| env_number("ROCMATH_FFT_COLUMN_BYTES", |b| b.is_power_of_two() && (16..=256).contains(&b)).unwrap_or(DEFAULT_COLUMN_BYTES))
}
const DEFAULT_COLUMN_BYTES: usize = 64;

/// The largest power-of-two radix of column kernels computing in `precision`: 8 for f64 (twice
/// the threads per transform, half the registers each: 16 f64 values alone fill 64 registers),
/// 16 otherwise. On the H100, double 2^20 x 64 took 1.74 ms with radix 8 against 1.86; single
/// lost 3-28 % at 2^17 and 2^19-2^22 (benches/results/2026-11-21-h100-fft.md, eleventh
/// session); radix 32 lost 12-25 % at 2^21-2^24 (fifteenth session). `ROCMATH_FFT_COLUMN_RADIX`
/// (8, 16 or 32) sets it for every precision, for A/B.
fn column_radix(precision: FftPrecision) -> usize {
    static RADIX: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    let forced = *RADIX.get_or_init(|| env_number("ROCMATH_FFT_COLUMN_RADIX", |r| [8, 16, 32].contains(&r)));
    forced.unwrap_or(if precision == FftPrecision::F64 { 8 } else { 16 })
}

/// The largest power-of-two radix of the other (row-ordered) kernels of `n` points: 32 for
/// powers of two from 8192 up (three passes, 256 threads per 8192 points), else 16. On the H100
/// (benches/results/2026-11-21-h100-fft.md, fifteenth session), single c2c 8192 took 0.374 ms
/// against radix 16's 0.447 (0.99 of cuFFT, was 0.83), 16384 0.423 against 0.455, 65536 (8 x
/// 8192 clusters) 0.644 against 0.734, double 8192 0.427 against 0.443; 1024-4096 ran up to 1 %
/// slower with radix 32, and 12288 (32 32 4 3 against 16 16 16 3) 2 %.
/// `ROCMATH_FFT_ROW_RADIX` (8, 16 or 32) sets it for every length, for A/B.
fn row_radix(n: usize) -> usize {
    static RADIX: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    let forced = *RADIX.get_or_init(|| env_number("ROCMATH_FFT_ROW_RADIX", |r| [8, 16, 32].contains(&r)));
    forced.unwrap_or(if n.is_power_of_two() && n >= 8192 { 32 } else { 16 })
}

/// The largest odd composite radix ([`factorize_with`]'s `caps.odd`) for `n` points whose powers
/// of two go in passes of at most `two`. Radix-3 passes do little arithmetic for a round trip
/// through shared memory, so pairs of 3s become 9s where a transform keeps 27 threads (or as many
/// as without them); then, while a transform would take more than 512 threads, the next larger
/// cap of 15, 21, 25 and 27. Measured on the H100 (single c2c, about 2^26 elements a call;
/// benches/results/2026-11-21-h100-fft.md, thirty-fourth session), against each odd prime its own
/// pass: 243 0.81 -> 0.97 of cuFFT (9 9 3), 729 0.76 -> 0.99, 2187 0.63 -> 0.96, 6561 0.38 ->
/// 0.93 (27 27 9), 3125 0.79 -> 0.99 (25 25 5), 15625 0.36 -> 0.92, 4374 0.47 -> 0.81, 10000
/// 0.75 -> 0.85; fewer threads than that lost (27 as 9 3 in 3 threads 0.94 -> 0.50, 1000 as 8 25 5
/// 0.95 -> 0.76), and so did 5000 (8 25 25 in 200 threads: 0.85 -> 0.72). Column passes, whose
/// blocks hold many transforms, take the largest cap whose passes split evenly over the threads
/// (else the rule above): with 27 on every column pass the four-step 3^10 to 3^13 and 5^7 to
/// 5^10 ran at 0.99-1.14 of cuFFT (from 0.42-0.96), but 10^6 (columns of 1000 as 8 25 5 in 40
/// threads, the radix-8 pass uneven) fell from 1.32 to 0.93.
/// `ROCMATH_FFT_ODD_RADIX` (1, 9, 15, 21, 25 or 27) sets the cap for every length, for A/B; 1
/// gives each odd prime its own pass, as before the composites.
fn odd_radix(n: usize, two: usize, column: bool) -> usize {
    // The odd composite caps, smallest first (the butterflies built from their primes).
    const CAPS: [usize; 5] = [9, 15, 21, 25, 27];
    static FORCED: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    if let Some(cap) = *FORCED.get_or_init(|| env_number("ROCMATH_FFT_ODD_RADIX", |r| r == 1 || CAPS.contains(&r))) {
        return cap;
    }
    let passes = |odd| factorize_with(n, RadixCaps { two, odd, tens: 0, pair_two: 0 });
    // Threads per transform (as `StockhamKernel::new` sets them) of these passes.
    let threads_of = |p: &[usize]| p.iter().max().map_or(1, |&r| n / r);
    let threads = |odd| passes(odd).map_or(1, |p| threads_of(&p));
    if column {
        // The largest cap whose passes all split evenly over the threads.
        let even = |odd| passes(odd).is_some_and(|p| p.iter().all(|&r| (n / r).is_multiple_of(threads_of(&p))));
        if let Some(cap) = CAPS.into_iter().rev().find(|&c| even(c)) {
            return cap;
        }
    }
    let mut cap = if threads(9) >= threads(1).min(27) { 9 } else { 1 };
    for larger in CAPS.into_iter().skip(1) {
        if threads(cap) <= 512 {
            break;
        }
        if threads(larger) < threads(cap) {
            cap = larger;
        }
    }
    // Then, in row kernels (the measured case), the smallest larger cap that takes two passes
    // or more out while a transform keeps 128 threads ([`cuts_passes`]).
    if cuts_passes() && !column {
        let count = |odd| passes(odd).map_or(usize::MAX, |p| p.len());
        if let Some(larger) = CAPS.into_iter().filter(|&c| c > cap).find(|&c| count(c).saturating_add(2) <= count(cap) && threads(c) >= 128) {
            cap = larger;
        }
    }
    cap
}

/// Whether [`odd_radix`] takes a larger odd cap for a row kernel where it saves two passes or
/// more (each a round trip of the row through shared memory and a barrier) and leaves at least
/// 128 threads a transform: 3375 as 15 15 15 on 225 threads instead of 9 5 5 5 3 on 375, 6000
/// as 16 25 15 on 240 instead of 16 5 5 5 3 on 375 (on an H200, 10-33 % faster in every
/// precision: benches/results/2026-11-21-h100-fft.md, forty-ninth session). One pass fewer did
/// not pay (5000 as 8 25 25 on 200 threads: 0.85 -> 0.72 of cuFFT, thirty-fourth session).
/// `ROCMATH_FFT_CUT_PASSES=0` turns it off (A/B).
fn cuts_passes() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| env_number("ROCMATH_FFT_CUT_PASSES", |v| v <= 1).unwrap_or(1) == 1)
}

/// `ROCMATH_FFT_PAIR_TWO`: 0 no pairing, 1 the smallest pairable odd pass, 2 (the default) the
/// one with the fewest lane slots ([`pair_two`]; A/B).
fn pair_two_override() -> Option<usize> {
    static FORCED: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *FORCED.get_or_init(|| env_number("ROCMATH_FFT_PAIR_TWO", |v| v <= 2))
}

/// The odd pass ([`PAIRABLE_ODD`]) that a radix-2 pass of a single or half row kernel joins
/// ([`RadixCaps::pair_two`]), 0 for none. A radix-2 pass does two points of arithmetic for a
/// round trip of the whole row through shared memory, with many butterflies a thread (8190 as
/// 2 21 15 13 on 390 threads: 10.5 each); as its first pass it also took an exchange layout that
/// tripled the row (forty-third session). Joined, the row makes one round trip fewer.
/// Rule 2 (the default) joins the pass that leaves the fewest lane slots over all passes
/// (threads times the sum of each pass's butterflies a thread times its radix: 5670 as 30 9 7 3
/// on 189 threads); rule 1 the smallest such pass, which keeps the threads per transform where
/// it can (5670 as 6 15 9 7 on 378, like 2 15 9 7 3). On an H200, single c2c (benches/results/
/// 2026-11-21-h100-fft.md, forty-fourth session; ours / cuFFT, no pairing -> rule 2, rule 1):
/// 5670 0.71 -> 1.26 (0.93), 8190 0.54 -> 0.73 (0.89), 3750 0.56 -> 0.90, 4914 0.70 -> 0.91
/// (0.69), 9450 0.73 -> 0.97, 7150 0.69 -> 0.93, 4374 0.60 -> 0.86 (0.61); of 32 lengths with
/// a radix-2 pass, 27 ran 10-44 % faster under rule 2 and two 1-6 %; 8190, 2106 (0.93 under
/// rule 1) and 126 (1.06 -> 0.95) prefer rule 1; 242 (22 11 on 11 threads: 0.95 -> 0.64) and
/// 7098 (0.76 -> 0.69) lose under both. `ROCMATH_FFT_PAIR_TWO` (0, 1, 2) sets the rule for A/B.
fn pair_two(n: usize, caps: RadixCaps) -> usize {
    let rule = pair_two_override().unwrap_or(2);
    let Some(passes) = factorize_with(n, caps) else { return 0 };
    if rule == 0 || !passes.contains(&2) {
        return 0;
    }
    let candidates = PAIRABLE_ODD.iter().copied().filter(|p| passes.contains(p));
    let slots = |p: usize| {
        let q = factorize_with(n, RadixCaps { pair_two: p, ..caps }).unwrap_or_default();
        let tpt = n / q.iter().copied().max().unwrap_or(1);
        tpt * q.iter().map(|&r| (n / r).div_ceil(tpt) * r).sum::<usize>()
    };
    let chosen = if rule == 1 { candidates.min() } else { candidates.min_by_key(|&p| (slots(p), p)) };
    chosen.unwrap_or(0)
}

/// Radix-10 passes of a row kernel of `n` points (not a column or cluster kernel): where `n` is
/// 2^a 5^b, each factor 2 pairs with a 5 (1000 = 10 10 10 on 100 threads, not 8 5 5 5 on 125;
/// 2000 = 10 10 10 2), in rows without padding ([`StockhamKernel::pad_shift`]), while a
/// transform keeps to 512 threads. On an H200 (benches/results/2026-11-21-h100-fft.md,
/// fortieth session; ours / cuFFT, single c2c unless named): 100 0.81 -> 0.85, 500 0.71 ->
/// 0.85, 1000 0.81 -> 0.85, 2000 0.80 -> 0.84, 4000 0.72 -> 0.88, 5000 0.69 -> 0.82; double
/// 500 and 1000 0.71 -> 0.95-0.97, double 2000 0.84 -> 0.93; real 1000 to 4000 15-25 % faster.
/// 10000 (10^4 on 1000 threads) measured 0.83 either way. With the rows padded as before, 1000
/// gained nothing and 100, 2000 and 10000 lost. Lengths with other factors too keep their
/// passes: not measured. `ROCMATH_FFT_TENS=0` never pairs, `=1` pairs wherever both factors
/// are (any length; still rows only, within 512 threads), for A/B.
fn ten_passes(n: usize, column: bool) -> usize {
    static FORCED: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    let forced = *FORCED.get_or_init(|| env_number("ROCMATH_FFT_TENS", |v| v <= 1));
    if n == 0 || column || forced == Some(0) {
        return 0;
    }
    let twos = n.trailing_zeros() as usize;
    let (mut rest, mut fives) = (n >> twos, 0);
    while rest.is_multiple_of(5) {
        rest /= 5;
        fives += 1;
    }
    if forced.is_none() && rest != 1 {
        return 0;
    }
    twos.min(fives)
}

/// `ROCMATH_FFT_STAGE_ASYNC=0`: staged kernels load through registers, as before cp.async (A/B).
fn stage_async() -> bool {
    static ASYNC: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ASYNC.get_or_init(|| std::env::var("ROCMATH_FFT_STAGE_ASYNC").map_or(true, |v| v != "0"))
}

/// `ROCMATH_FFT_WARP_SYNC=0`: block barriers everywhere ([`StockhamKernel::warp_sync`]; A/B).
fn warp_sync_allowed() -> bool {
    static ALLOWED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ALLOWED.get_or_init(|| std::env::var("ROCMATH_FFT_WARP_SYNC").map_or(true, |v| v != "0"))
}

/// `ROCMATH_FFT_ASSUME_LANE` ([`StockhamKernel::assume_lane`] for every kernel: 0 or 1; A/B).
fn assume_lane_override() -> Option<bool> {
    static ASSUME: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    ASSUME.get_or_init(|| env_number("ROCMATH_FFT_ASSUME_LANE", |v| v <= 1)).map(|v| v == 1)
}

/// Which of a kernel's [`StockhamKernel::variants`] a plan runs instead of it, from the blocks
/// per SM of the kernel and of each variant: the variant with the most blocks among those with
/// at least 1.5 times the kernel's (the first on a tie); none if no variant has that many.
pub fn pick_variant(kernel_blocks: u32, variant_blocks: &[u32]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, &b) in variant_blocks.iter().enumerate() {
        if 2 * b >= 3 * kernel_blocks && best.is_none_or(|j| b > variant_blocks[j]) {
            best = Some(i);
        }
    }
    best
}

/// `ROCMATH_FFT_TW_AHEAD` ([`StockhamKernel::tw_ahead_passes`] for every kernel: 0 none, 1
/// every pass after the first; A/B).
fn tw_ahead_override() -> Option<usize> {
    static MODE: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *MODE.get_or_init(|| env_number("ROCMATH_FFT_TW_AHEAD", |v| v <= 1))
}

/// `ROCMATH_FFT_PAD_FOLD` ([`StockhamKernel::pad_fold`] for every kernel; A/B).
fn pad_fold_override() -> Option<usize> {
    static FOLD: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *FOLD.get_or_init(|| env_number("ROCMATH_FFT_PAD_FOLD", |v| v <= 3))
}

/// `ROCMATH_FFT_MIN_BLOCKS`: ask every Stockham kernel for room for this many blocks per
/// multiprocessor ([`StockhamKernel::min_blocks`]; an A/B switch for tuning).
fn min_blocks_override() -> Option<usize> {
    static BLOCKS: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *BLOCKS.get_or_init(|| env_number("ROCMATH_FFT_MIN_BLOCKS", |b| (1..=32).contains(&b)))
}

/// Elements of one transform's shared-memory row: one padding element after every 16 and one at
/// the end (`rm_fft_pad` in fft.hip); [`StockhamKernel::row_stride`] may add a few. (Kernels
/// whose first pass has radix 32 pad every 32 ([`StockhamKernel::pad_shift`]), fewer.)
pub fn row_elements(n: usize) -> usize {
    padded_row(n, 4)
}

/// `n` elements with one padding element after every `1 << shift` (none for shift 0) and one
/// at the end.
fn padded_row(n: usize, shift: u32) -> usize {
    padded_index(n, shift) + 1
}

/// Where element `e` of a kernel's row lives: one padding element after every `1 << shift`
/// (none for shift 0; `rm_fft_pad` in fft.hip).
fn padded_index(e: usize, shift: u32) -> usize {
    if shift == 0 {
        e
    } else {
        e + (e >> shift)
    }
}

/// Elements of a row in an exchange layout of `pad` elements after every `group`
/// ([`ExchangeLayout`]): the last element's place, plus one at the end as in [`padded_row`].
fn exchange_row(n: usize, pad: usize, group: usize) -> usize {
    n + pad * ((n - 1) / group) + 1
}

/// [`StockhamKernel::pad_shift`] of a kernel with radix passes `passes`.
fn pad_shift(passes: &[usize]) -> u32 {
    if passes.contains(&10) {
        0
    } else if passes.first() == Some(&32) {
        5
    } else {
        4
    }
}

/// The layout of the row between two passes of a row kernel (`IN_W`, `OUT_W` and `PAIRS` of
/// `rm_fft_pass` in fft.hip), chosen per exchange by [`exchange_layouts`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExchangeLayout {
    /// Padding elements after every group the storing pass writes (its NS * radix elements);
    /// 0: the kernel's own rows ([`StockhamKernel::pad_shift`]).
    pub pad: usize,
    /// The first pass stores its consecutive outputs two at a time (16 bytes, complex f32).
    pub pairs: bool,
}

/// `ROCMATH_FFT_EXCHANGE_LAYOUTS`: 0 never, 1 in every row kernel ([`StockhamKernel::exchange_layouts`]; A/B).
fn exchange_layouts_override() -> Option<bool> {
    static MODE: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    MODE.get_or_init(|| env_number("ROCMATH_FFT_EXCHANGE_LAYOUTS", |v| v <= 1)).map(|v| v == 1)
}

/// Shared-memory wavefronts of exchange `p` of a row kernel (pass p's stores into the row, then
/// pass p + 1's loads), as sm_90 serves them: a warp's access in phases of 128 bytes (16 lanes
/// of 8 bytes, 8 of 16), each phase taking as many wavefronts as the most distinct 4-byte words
/// one of the 32 banks holds. Element e of transform t lives at t * row + at(e). The same model
/// as benches/device/fft-shared-banks.py, which matched ncu within 5 % (c2c 1000 as 8 5 5 5).
fn exchange_wavefronts(n: usize, passes: &[usize], tpt: usize, tpb: usize, p: usize, complex_bytes: usize, at: &dyn Fn(usize) -> usize, row: usize, pairs: bool) -> usize {
    let threads = tpt * tpb;
    let ns: usize = passes[..p].iter().product();
    let words = complex_bytes / 4;
    let mut total = 0;
    for (store, q) in [(true, p), (false, p + 1)] {
        let radix = passes[q];
        let width = if store && pairs { 2 } else { 1 };
        let lanes_per_phase = 32 / (words * width);
        for it in 0..(n / radix).div_ceil(tpt) {
            for r in (0..radix).step_by(width) {
                for warp in 0..threads.div_ceil(32) {
                    for phase in 0..32 / lanes_per_phase {
                        let mut held = Vec::with_capacity(32);
                        for tid in warp * 32 + phase * lanes_per_phase..warp * 32 + (phase + 1) * lanes_per_phase {
                            let (t, lt) = (tid / tpt, tid % tpt);
                            let j = lt + it * tpt;
                            if tid >= threads || j >= n / radix {
                                continue;
                            }
                            let e = if store { (j / ns) * ns * radix + j % ns + r * ns } else { j + r * (n / radix) };
                            let word = (t * row + at(e)) * words;
                            held.extend(word..word + words * width);
                        }
                        held.sort_unstable();
                        held.dedup();
                        let mut per_bank = [0usize; 32];
                        for w in held {
                            per_bank[w % 32] += 1;
                        }
                        total += per_bank.iter().max().copied().unwrap_or(0);
                    }
                }
            }
        }
    }
    total
}

/// Per exchange of a row kernel (between passes p and p + 1), the layout with the fewest
/// modelled wavefronts ([`exchange_wavefronts`]): the kernel's rows, or W padding elements after
/// every group of the storing pass for W below one 128-byte phase, each with the first pass's
/// stores paired where they can be. A layout other than the rows' is taken only where it models
/// fewer wavefronts. Memoized: the search runs once per kernel shape.
fn exchange_layouts(n: usize, passes: &[usize], tpt: usize, tpb: usize, complex_bytes: usize, shift: u32) -> Vec<ExchangeLayout> {
    type Key = (usize, Vec<usize>, usize, usize, usize, u32);
    static MEMO: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<Key, Vec<ExchangeLayout>>>> = std::sync::OnceLock::new();
    let key = (n, passes.to_vec(), tpt, tpb, complex_bytes, shift);
    let memo = MEMO.get_or_init(Default::default);
    if let Some(found) = memo.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return found.clone();
    }
    let phase = 128 / complex_bytes;
    let rows = padded_row(n, shift);
    let mut chosen = Vec::new();
    let mut group = 1;
    for p in 0..passes.len().saturating_sub(1) {
        group *= passes[p];
        let mut best = (usize::MAX, ExchangeLayout::default());
        for pad in 0..phase {
            let at = move |e: usize| if pad == 0 { padded_index(e, shift) } else { e + pad * (e / group) };
            let row = rows.max(exchange_row(n, pad, group)).next_multiple_of(2);
            // Pairs need 16-byte alignment: an even group stride, unpadded rows where pad is 0,
            // and an even row stride (tpt even, or a whole phase per row: `row_stride`).
            let pairs_fit = p == 0 && complex_bytes == 8 && passes[0] % 2 == 0 && (group + pad) % 2 == 0 && (pad > 0 || shift == 0) && (tpt % 2 == 0 || tpt >= phase);
            for pairs in [false, true] {
                if pairs && !pairs_fit {
                    continue;
                }
                let cost = exchange_wavefronts(n, passes, tpt, tpb, p, complex_bytes, &at, row, pairs);
                if cost < best.0 {
                    best = (cost, ExchangeLayout { pad, pairs });
                }
            }
        }
        chosen.push(best.1);
    }
    memo.lock().unwrap_or_else(|e| e.into_inner()).insert(key, chosen.clone());
    chosen
}

/// Transforms per block of a column pass: [`column_bytes`] of them where threads and shared
/// memory allow (a row, plus its offsets), but no more than make 512
/// threads (two blocks per SM) while the block still spans [`MIN_COLUMN_BYTES`]. On the H100,
/// 2048-point column passes in 32-byte blocks of 512 threads beat 64-byte blocks of 1024 by 5 %
/// at 2^21 and 2^22 (benches/results/2026-11-21-h100-fft.md, eleventh session).
fn column_tpb(tpt: usize, complex_bytes: usize, row_bytes: usize, shared_limit: usize) -> usize {
    let two_blocks = (512 / tpt).max(MIN_COLUMN_BYTES / complex_bytes);
    (column_bytes() / complex_bytes).min(two_blocks).min(1024 / tpt).min(shared_limit / (row_bytes + 24)).max(1)
}
const MIN_COLUMN_BYTES: usize = 32;

/// Bytes of one transform the threads of a row kernel must span per access for it to load and
/// store straight from global memory; below, it stages both sides ([`StockhamKernel::with_staged_rows`]).
/// `ROCMATH_FFT_STAGED_ROWS` (bytes, 0 for never) overrides it, for A/B.
fn staged_rows_bytes() -> usize {
    static BYTES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| env_number("ROCMATH_FFT_STAGED_ROWS", |b| b <= 4096).unwrap_or(128))
}

/// Shared memory per block on sm_90 (after opting in) and on CDNA (gfx90a, gfx942).
pub const SHARED_SM90: usize = 227 * 1024;
pub const SHARED_CDNA: usize = 64 * 1024;

/// One Stockham kernel: a transform of `n` points on `tpt` threads, `tpb` transforms per block,
/// reading `input` and writing `output` storage (they differ only in half-precision plans,
/// whose intermediate passes keep f32 in the work buffer).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StockhamKernel {
    pub input: FftPrecision,
    pub output: FftPrecision,
    pub n: usize,
    pub passes: Vec<usize>,
    pub tpt: usize,
    pub tpb: usize,
    /// The block's transforms are adjacent in memory: threads walk transforms first.
    pub column: bool,
    /// The input is read through shared memory in row order first (rows in, columns out).
    pub staged: bool,
    /// The output leaves through shared memory too: the last pass writes the rows, and the
    /// block stores them in element order (`with_staged_rows`, for short transforms).
    pub staged_out: bool,
    /// The direction the module holds: -1 forward, +1 inverse (one per module: each compile
    /// costs run-time compiler seconds, and a plan rarely needs both).
    pub dir: i32,
    /// Real forward post-processing fused after the transform (`rm_fft_real_post`): the kernel
    /// is the `n`-point half of a `2n`-point real forward transform, its last pass writes the
    /// shared row, and `n + 1` hermitian points are stored. Forward only; the twiddles
    /// exp(-2 pi i k / 2n) follow the pass blocks in the table ([`real_post_twiddles`]).
    pub real_post: bool,
    /// Real inverse pre-processing fused before the transform: the kernel is the `n`-point half
    /// of a `2n`-point real inverse transform. It reads the `n + 1` hermitian points by pairs
    /// k, n - k and writes the half-length complex input to the shared row for the first pass
    /// (`rm_fft_real_pre_load`), or, where its load is staged, turns the staged row into it
    /// (`rm_fft_real_pre_rows`). The same twiddles as `real_post` follow the pass blocks.
    /// Inverse only.
    pub real_pre: bool,
    /// The lean load/store (`rm_fft_io_plain`): both sides interleaved and pair-aligned, whole
    /// transforms in and out, no multipliers, element offsets within 32 bits. The caller checks
    /// that a launch meets all of it.
    pub plain: bool,
    /// Blocks per transform (sm_90 clusters): the transform has `cluster * n` points; each block
    /// takes the `n`-point transform of every `cluster`-th input and the blocks finish with one
    /// radix-`cluster` pass through distributed shared memory (`rm_fft_stockham_cluster`). 1:
    /// an ordinary kernel.
    pub cluster: usize,
    /// A whole Bluestein convolution in one launch (`with_bluestein`): the `n`-point forward
    /// transform of the chirped input (`pre`), the product with the filter spectrum (`post`),
    /// and the inverse transform, whose stores the chirp multiplies again. The module holds both
    /// directions; the plan's direction is in the tables.
    pub bluestein: bool,
    /// No pass reads its twiddles ahead of the barrier ([`Self::variants`]).
    pub tw_ahead_off: bool,
    /// No exchange layouts: every exchange goes through the kernel's rows ([`Self::variants`]).
    pub layouts_off: bool,
}

impl StockhamKernel {
    /// The kernel for `n` points; `column` asks for enough transforms per block to coalesce
    /// passes whose transforms are adjacent in memory. Rejects, with a reason, lengths that are
    /// not products of the radices or longer than one pass can hold.
    pub fn new(
        input: FftPrecision,
        output: FftPrecision,
        n: usize,
        column: bool,
        staged: bool,
        shared_limit: usize,
    ) -> Result<StockhamKernel, String> {
        Self::build(input, output, n, column, staged, shared_limit, true)
    }

    /// [`Self::new`]; `tens`: whether radix-10 passes may serve ([`ten_passes`]; not in the
    /// blocks of cluster kernels, where they were not measured).
    fn build(
        input: FftPrecision,
        output: FftPrecision,
        n: usize,
        column: bool,
        staged: bool,
        shared_limit: usize,
        tens: bool,
    ) -> Result<StockhamKernel, String> {
        if (input == FftPrecision::F64) != (output == FftPrecision::F64) {
            return Err(format!("{input:?} in and {output:?} out: only half and single mix"));
        }
        let precision = compute_precision(input);
        let two = if column { column_radix(precision) } else { row_radix(n) };
        let mut caps = RadixCaps { two, odd: odd_radix(n, two, column), tens: if tens { ten_passes(n, column) } else { 0 }, pair_two: 0 };
        // Radix-10 passes only where a transform keeps to 512 threads (10000 = 10^4 would take
        // 1000, and measured no faster than 16 25 25 on 400).
        if caps.tens > 0 && factorize_with(n, caps).is_some_and(|p| n / p.iter().max().unwrap_or(&1) > 512) {
            caps.tens = 0;
        }
        if !column && precision == FftPrecision::F32 {
            caps.pair_two = pair_two(n, caps);
        }
        let passes = factorize_with(n, caps).ok_or_else(|| format!("{n} has a prime factor beyond 19 (Bluestein handles it)"))?;
        let radix_max = passes.iter().copied().max().unwrap_or(1);
        let tpt = n / radix_max;
        let row_bytes = padded_row(n, pad_shift(&passes)) * precision.compute_complex_bytes();
        if row_bytes > shared_limit || tpt > 1024 {
            return Err(format!("{n} points do not fit one block ({row_bytes} bytes of {shared_limit}, {tpt} threads)"));
        }
        let by_threads = (target_threads() / tpt).max(1);
        let by_shared = (ROW_BUDGET.min(shared_limit) / row_bytes).max(1);
        let mut tpb = by_threads.min(by_shared);
        if column {
            tpb = tpb.max(column_tpb(tpt, precision.compute_complex_bytes(), row_bytes, shared_limit));
        }
        let mut k = StockhamKernel { input, output, n, passes, tpt, tpb, column, staged, dir: -1, real_post: false, real_pre: false, plain: false, cluster: 1, bluestein: false, staged_out: false, tw_ahead_off: false, layouts_off: false };
        // The bank-spreading row stride may exceed the padded row the count above assumed.
        let budget = if column { shared_limit } else { ROW_BUDGET.min(shared_limit) };
        while k.tpb > 1 && k.shared_bytes() as usize + k.static_shared_bytes() > budget {
            k.tpb -= 1;
        }
        k.validate(shared_limit)?;
        Ok(k)
    }

    /// Limits every kernel must meet (threads, shared memory).
    pub fn validate(&self, shared_limit: usize) -> Result<(), String> {
        if self.passes.iter().product::<usize>() != self.n {
            return Err(format!("passes {:?} do not multiply to {}", self.passes, self.n));
        }
        if let Some(r) = self.passes.iter().find(|&&r| !RADICES.contains(&r) && !(r % 2 == 0 && PAIRABLE_ODD.contains(&(r / 2)))) {
            return Err(format!("no butterfly for radix {r}"));
        }
        if self.threads() > 1024 {
            return Err(format!("{} threads per block > 1024", self.threads()));
        }
        let total = self.shared_bytes() as usize + self.static_shared_bytes();
        if total > shared_limit {
            return Err(format!("{total} bytes of shared memory > {shared_limit}"));
        }
        Ok(())
    }

    pub fn threads(&self) -> u32 {
        (self.tpt * self.tpb) as u32
    }

    /// Dynamic shared memory of one block (`tpb` rows of [`Self::row_stride`] elements).
    pub fn shared_bytes(&self) -> u32 {
        (self.tpb * self.row_stride() * self.compute().compute_complex_bytes()) as u32
    }

    /// Elements from one transform's shared-memory row to the next: at least
    /// [`row_elements`], and such that the threads of one shared-memory transaction (128 bytes:
    /// 16 complex f32 or 8 complex f64) hit distinct banks. Such a transaction covers `per_row`
    /// consecutive elements of each of several rows (column order: 16 / tpb of each of tpb
    /// rows; row order: tpt of each of 16 / tpt rows), so the stride must be `per_row` modulo
    /// the transaction's element count. (The rows' own padding keeps the radix-strided stores
    /// of the first pass on distinct banks too.) Exchanges with layouts of their own
    /// ([`Self::exchange_layouts`]) may need a longer row, and paired stores an even one.
    pub fn row_stride(&self) -> usize {
        let layouts = self.exchange_layouts();
        let mut base = padded_row(self.n, self.pad_shift());
        let mut group = 1;
        for (layout, radix) in layouts.iter().zip(&self.passes) {
            group *= radix;
            base = base.max(exchange_row(self.n, layout.pad, group));
        }
        if layouts.iter().any(|l| l.pairs) {
            // (16-byte stores: every row starts on an even element.)
            base = base.next_multiple_of(2);
        }
        let phase = 128 / self.compute().compute_complex_bytes();
        let per_row = if self.column { phase / self.tpb.clamp(1, phase) } else { self.tpt.min(phase) };
        if per_row >= phase {
            return base;
        }
        base + (per_row + phase - base % phase) % phase
    }

    /// log2 of the elements between two padding elements of a shared-memory row
    /// (`RM_FFT_PAD_SHIFT` in fft.hip): 4, or 5 where the first pass has radix 32. The first
    /// pass writes at a stride of its radix: 34 complex f32 (32 + 2 pads) is two 8-byte accesses
    /// per bank pair in a 16-lane phase, 33 one. 0 (no padding) where a pass has radix 10: its
    /// stores at strides of 10 and 100 meet in the banks with or without a pad every 16, and
    /// padding puts the rows' runs of consecutive elements across a pad too. For 1000 = 10 10 10
    /// (single, 2 transforms a block), benches/device/fft-shared-banks.py counts 415 wavefronts
    /// a transform unpadded against 648 padded (8 5 5 5 padded: 659).
    pub fn pad_shift(&self) -> u32 {
        pad_shift(&self.passes)
    }

    /// The layout of each exchange through the row between two passes ([`ExchangeLayout`];
    /// empty where every exchange keeps the kernel's rows): [`exchange_layouts`]'s choice in
    /// single and half precision row kernels of lengths with a factor other than 2 (radix-10
    /// and odd-radix passes), outside clusters, real inverse kernels, and real forward kernels
    /// without radix 10 (neither measured nor GPU-tested with layouts). (Powers of two keep
    /// their padded rows: at 256, 1024, 2048 and 4096 the model finds nothing better, and the
    /// short rows it would change were not measured.) For 1000 = 10 10 10 in single precision
    /// the model counts 415 wavefronts a transform in the kernel's rows and 265 with the first
    /// pass's stores paired and 6 padding elements after every 100 between the second and
    /// third passes; ncu counted 28.5 M and 19.3 M (cuFFT 23.9 M), and conflicts fell from
    /// 10.3 M to 1.3 M.
    ///
    /// On an H200 (benches/results/2026-11-21-h100-fft.md, forty-first session; two rounds),
    /// single c2c:
    /// - radix 10: 500, 2000 and 5000 5-11 % faster, 100 and half 1000 2-5 %; 1000 and 4000
    ///   within 1 % (1000 is not bound by its shared memory). r2c 1000 4 % faster.
    /// - odd radices: 7000 32 %, 6000 and 375 15-18 %, 625, 2187, 2401, 3125 and 6561 10-13 %,
    ///   5400 9 %, 1200 and 3000 5-6 %, 243 and 1331 2-3 % faster; 729 and 3600 within 1 %.
    /// But real inverse 1000-4000 ran 5-13 % slower and double c2c 500-2000 1-5 % slower: there
    /// they stay off.
    /// `ROCMATH_FFT_EXCHANGE_LAYOUTS` (0 never, 1 every row kernel) overrides it, for A/B.
    pub fn exchange_layouts(&self) -> Vec<ExchangeLayout> {
        let wanted = exchange_layouts_override()
            .unwrap_or(!self.n.is_power_of_two() && self.compute() != FftPrecision::F64 && !self.real_pre && (!self.real_post || self.pad_shift() == 0));
        if !wanted || self.layouts_off || self.column || self.cluster > 1 || self.passes.len() < 2 {
            return Vec::new();
        }
        let layouts = exchange_layouts(self.n, &self.passes, self.tpt, self.tpb, self.compute().compute_complex_bytes(), self.pad_shift());
        if layouts.iter().all(|l| *l == ExchangeLayout::default()) {
            return Vec::new();
        }
        layouts
    }

    /// Static shared memory of one block: its transforms' offsets, three 8-byte values each
    /// (`placed` in fft.hip, rounded up to 16 bytes); cluster kernels have none.
    pub fn static_shared_bytes(&self) -> usize {
        if self.cluster == 1 {
            8 * (3 * self.tpb).next_multiple_of(2)
        } else {
            0
        }
    }

    /// The precision butterflies and twiddles are computed in (f32 for half).
    pub fn compute(&self) -> FftPrecision {
        compute_precision(self.input)
    }

    /// The same kernel in direction `dir` (< 0 forward, > 0 inverse).
    pub fn with_dir(mut self, dir: i32) -> StockhamKernel {
        self.dir = if dir < 0 || self.bluestein { -1 } else { 1 };
        self
    }

    /// The same kernel with the real forward post-processing fused (forward only; a kernel of
    /// no pass has no shared row to post-process, so `n` must be at least 2).
    pub fn with_real_post(mut self) -> Result<StockhamKernel, String> {
        if self.passes.is_empty() || self.dir > 0 || self.bluestein || self.staged_out || self.real_pre || self.cluster > 1 {
            return Err(format!("real post-processing needs a forward kernel of at least 2 points, not {}", self.module_name()));
        }
        self.real_post = true;
        Ok(self)
    }

    /// The same kernel with the real inverse pre-processing fused (see
    /// [`StockhamKernel::real_pre`]; inverse, at least 2 points, either thread order, staged or
    /// not). Kernels computing in f64 stage the load: on an H200 (benches/results/
    /// 2026-11-21-h100-fft.md, thirty-seventh session) double c2r 1024 took 0.219 ms with the
    /// pairs read straight into the row against 0.170 staged (8192: 0.216 and 0.211), while
    /// single 1024-32768 and half 4096 ran 6-44 % faster read straight.
    pub fn with_real_pre(mut self) -> Result<StockhamKernel, String> {
        if self.passes.is_empty() || self.dir < 0 || self.bluestein || self.staged_out || self.real_post || self.cluster > 1 {
            return Err(format!("real pre-processing needs an inverse kernel of at least 2 points, not {}", self.module_name()));
        }
        self.real_pre = true;
        self.staged |= self.compute() == FftPrecision::F64;
        Ok(self)
    }

    /// The same kernel as a fused Bluestein convolution of `n` points (see
    /// [`StockhamKernel::bluestein`]): one block holds the padded transform from the load to
    /// the store, so the convolution costs one read of the input and one write of the output.
    pub fn with_bluestein(mut self) -> Result<StockhamKernel, String> {
        if self.passes.is_empty() || self.real_post || self.real_pre || self.cluster > 1 || self.staged_out {
            return Err(format!("{} cannot hold a Bluestein convolution: it needs at least one pass, no real pre- or post-processing and no cluster", self.module_name()));
        }
        self.bluestein = true;
        self.dir = -1;
        Ok(self)
    }

    /// The same kernel as one block of a `cluster`-block transform of `cluster * n` points
    /// (see [`StockhamKernel::cluster`]; NVIDIA sm_90 and later).
    pub fn with_cluster(mut self, cluster: usize) -> Result<StockhamKernel, String> {
        if !(2..=MAX_CLUSTER).contains(&cluster) || !RADICES.contains(&cluster) {
            return Err(format!("a cluster of {cluster} blocks (2..={MAX_CLUSTER}, a radix)"));
        }
        if self.tpb != 1 || self.column || self.staged || self.staged_out || self.real_post || self.real_pre || self.bluestein || self.passes.is_empty() || !self.n.is_multiple_of(cluster) {
            return Err(format!("{} cannot be one block of a cluster: it needs one transform per block in row order, of a length the cluster divides", self.module_name()));
        }
        self.cluster = cluster;
        Ok(self)
    }

    /// Blocks per multiprocessor the kernel asks room for (NVIDIA launch bounds, which cap its
    /// registers at 64K / (threads x blocks); AMD ignores it). One-transform blocks of 512
    /// threads, real kernels (pre- or post-processing fused) of 256 threads and cluster blocks
    /// ask for as many as registers of twice the butterfly data a thread holds (at least 64)
    /// allow: on the H100 8192 f32 then runs 4 % faster (2 blocks), 16384 and 32768 as clusters
    /// of 4096-point blocks 7 and 9 % (4 blocks); on an H200 (thirty-eighth session) real
    /// inverses of 512, 4096, 8192 and half 4096 points 3-8 % faster, 2048 level, the forwards
    /// level or up to 2 % faster (4 blocks: 64 registers; 3 for 1024, below). Other kernels
    /// leave the compiler free (1): an explicit bound of one block slowed four-step passes by up
    /// to 1.7x (benches/results/2026-11-21-h100-fft.md, tenth session).
    /// `ROCMATH_FFT_MIN_BLOCKS` overrides it (1 to 32; at most 2048 threads per multiprocessor).
    pub fn min_blocks(&self) -> usize {
        let threads = self.threads() as usize;
        if let Some(b) = min_blocks_override() {
            return b.min(2048 / threads).max(1);
        }
        let one_transform_512 = self.tpb == 1 && threads == 512;
        let real_256 = (self.real_pre || self.real_post) && threads == 256;
        // Blocks of 200 threads (7 warps) with radix-10 passes, single or half: at the 44
        // registers the compiler takes for 1000 points, an SM's four schedulers hold 10 warps
        // each, so 5 blocks (35 warps); at 40 they hold 12, 6 blocks. On an H200 (forty-second
        // session, with the twiddles read ahead) c2c 1000 ran 7 % faster and 2000 (40 registers
        // either way) 3 %; 1000's 16 spilled bytes lie in the four-step twiddle path, which its
        // one-kernel plans skip. It hurt where measured beside: 100 (250 threads) 17 % slower,
        // double 1000 3x (spills). Radix 10 the largest (so 1000 and 2000 only): 1600 = 10 10 16
        // on 200 threads spills 588 bytes at 40 registers (ptxas, not timed).
        let tens_200 = threads == 200 && self.tpt >= 100 && self.passes.iter().max() == Some(&10) && self.compute() != FftPrecision::F64;
        if tens_200 && self.cluster == 1 && !self.column && !self.staged && !self.real_pre && !self.real_post {
            return 6;
        }
        if self.column || self.staged || (self.cluster == 1 && !one_transform_512 && !real_256) || (self.cluster > 1 && self.tpb != 1) {
            return 1;
        }
        let blocks = (65536 / (threads * self.data_registers())).max(1);
        // A real inverse on 32 threads a transform (a half of 512: 16 16 2) spills 60 bytes
        // under 4 blocks' 64 registers; with room for 3 (80 registers, no spill) 1024 real ran
        // 9 % faster on an H200, while 2048-8192 and the forwards lost 1-6 % with 3 (thirty-eighth
        // session).
        if self.real_pre && self.tpt == 32 {
            blocks.min(3)
        } else {
            blocks
        }
    }

    /// Registers a thread of this kernel is expected to need: twice the butterfly data it
    /// holds, at least 64 (what [`Self::min_blocks`] leaves room for).
    fn data_registers(&self) -> usize {
        let words = if self.compute() == FftPrecision::F64 { 2 } else { 1 };
        let per_thread = self.passes.iter().map(|&r| (self.n / r).div_ceil(self.tpt) * r).max().unwrap_or(1);
        (2 * per_thread * 2 * words).max(64)
    }

    /// Blocks of this kernel an sm_90 multiprocessor is expected to hold: the fewest that its
    /// shared memory (with the 1 KiB per block the driver keeps), 2048 threads and 64K
    /// registers ([`Self::data_registers`]) allow.
    fn resident_blocks_sm90(&self) -> usize {
        let threads = self.threads() as usize;
        super::sm90_blocks_by_shared(self.shared_bytes() as usize).min(2048 / threads).min(65536 / (threads * self.data_registers())).max(1)
    }

    /// Where a block asks L2 for the input of the block that will follow it on its
    /// multiprocessor (`RM_FFT_NEXT_PREFETCH` in fft.hip; sm_90 and later): the blocks ahead per
    /// multiprocessor as [`Self::resident_blocks_sm90`] estimates them (launches pass the
    /// driver's figure instead: `next_blocks` in fft/src/gpu.rs), for plain complex row kernels
    /// of one transform a block that an SM holds at most two of (16384 single: one block of 512
    /// threads; 8192: two of 256). Such a multiprocessor otherwise stops reading global memory
    /// while its blocks compute. Asked for before pass [`Self::next_prefetch_pass`]. On an H200
    /// (benches/results/2026-11-21-h100-fft.md, forty-eighth session; two rounds, against none):
    /// c2c 16384 0.340 -> 0.306 ms (75 -> 84 % of copy), 8192 0.283 -> 0.267 ms (91 -> 96 %),
    /// double 8192 11 % faster, half 16384 7 %. Real kernels keep none: the fused forward of
    /// 32768 ran 44 % slower with it, the inverse within 2 %. Asked for at the block's start,
    /// every case but half ran 12-55 % slower than with none (L2 held the next wave's input
    /// too long); so too in blocks an SM holds more of, 2048 and double 4096 level and 4096
    /// 37 % slower (one round).
    /// Evict-first global stores beside it (st.global.cs) moved these cases by -1 to +1 %;
    /// the prefetch in two or three parts over the last passes was 2-19 % slower than in one;
    /// marking the prefetched lines evict-last made 16384, 8192 and double 8192 0.3-1.3 %
    /// faster in each of two rounds, and stays.
    /// `ROCMATH_FFT_NEXT_PREFETCH=0` never, 2 in every plain one-transform row kernel (A/B).
    pub fn next_prefetch(&self) -> Option<usize> {
        static MODE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let mode = *MODE.get_or_init(|| env_number("ROCMATH_FFT_NEXT_PREFETCH", |v| v <= 2).unwrap_or(1));
        let blocks = self.resident_blocks_sm90();
        let fits = self.plain && !self.column && !self.staged && self.cluster == 1 && self.tpb == 1 && !self.passes.is_empty();
        let real = self.real_post || self.real_pre;
        Some(blocks).filter(|&b| fits && (mode == 2 || (mode == 1 && b <= 2 && !real)))
    }

    /// The pass before which [`Self::next_prefetch`] asks L2 for the next block's input: the
    /// last, or the one before it for half storage (on an H200, c2c 16384: before the last
    /// pass single 0.306 ms, before the middle one 0.315; half 0.248 and 0.239).
    /// `ROCMATH_FFT_NEXT_PREFETCH_AT` (a pass index, the last where beyond) for A/B.
    fn next_prefetch_pass(&self) -> usize {
        static AT: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
        let last = self.passes.len().saturating_sub(1);
        AT.get_or_init(|| env_number("ROCMATH_FFT_NEXT_PREFETCH_AT", |_| true)).map_or(self.default_next_prefetch_pass(), |at| at.min(last))
    }

    fn default_next_prefetch_pass(&self) -> usize {
        let last = self.passes.len().saturating_sub(1);
        if self.input == FftPrecision::F16 {
            last.saturating_sub(1)
        } else {
            last
        }
    }

    /// The same row kernel with both sides staged through shared memory in element order
    /// (`staged` and `staged_out`): the block's loads and stores then run over consecutive
    /// elements of its transforms, whatever the threads per transform. For short transforms in
    /// row order, where one to a few threads take a transform and a warp's accesses otherwise
    /// stride by the transform's length. With the real post-processing, it is done in the rows
    /// and the `n + 1` points leave from there (`rm_fft_real_post` with `TO_ROW`).
    pub fn with_staged_rows(mut self) -> Result<StockhamKernel, String> {
        if self.column || self.passes.is_empty() || self.bluestein || self.cluster > 1 || (self.staged && !self.real_pre) {
            return Err(format!("{} cannot stage its rows: that takes a row kernel of at least one pass, not Bluestein, cluster or staged already", self.module_name()));
        }
        self.staged = true;
        self.staged_out = true;
        Ok(self)
    }

    /// Whether a row kernel should stage both sides ([`Self::with_staged_rows`]): where the
    /// threads of one transform span fewer than [`staged_rows_bytes`] of it per access.
    pub fn wants_staged_rows(&self) -> bool {
        !self.column && !self.passes.is_empty() && self.cluster == 1 && self.tpt * self.input.storage_complex_bytes() < staged_rows_bytes()
    }

    /// The same kernel with the plain (`true`) or the general load/store.
    pub fn with_plain(mut self, plain: bool) -> StockhamKernel {
        self.plain = plain;
        self
    }

    /// `fft_ss_n1000_r10x10x10_t100_b2_p_fwd` (input and output storage, length, radices, threads
    /// per transform, transforms per block, thread order, plain load/store, direction); also the
    /// kernel's name.
    pub fn module_name(&self) -> String {
        let radices: Vec<String> = self.passes.iter().map(|r| r.to_string()).collect();
        let radices = if radices.is_empty() { "1".to_string() } else { radices.join("x") };
        let mode = match (self.column, self.staged, self.staged_out) {
            (_, _, true) => "_stio",
            (false, false, _) => "",
            (true, false, _) => "_col",
            (false, true, _) => "_st",
            (true, true, _) => "_col_st",
        };
        let dir = match (self.bluestein, self.dir < 0) {
            (true, _) => "blu",
            (false, true) => "fwd",
            (false, false) => "inv",
        };
        let real = match (self.real_post, self.real_pre) {
            (true, _) => "_rpost",
            (_, true) => "_rpre",
            _ => "",
        };
        let plain = if self.plain { "_p" } else { "" };
        let occupancy = if self.min_blocks() > 1 { format!("_m{}", self.min_blocks()) } else { String::new() };
        let cluster = match (self.cluster, self.cluster_relaxed_exit(), self.cluster_products()) {
            (1, ..) => String::new(),
            // (suffixes mark the A/B switches' other settings)
            (c, relaxed, products) => format!("_cl{c}{}{}", if relaxed { "" } else { "_cx0" }, if products { "" } else { "_ct" }),
        };
        let staging = if self.stages_through_registers() { "_sr" } else { "" };
        let block_sync = if self.warp_sync_fits() && !self.warp_sync() { "_bs" } else { "" };
        let prefetch = self.l2_prefetch().map_or(String::new(), |bytes| format!("_l2p{bytes}"));
        let next = match self.next_prefetch() {
            None => String::new(),
            Some(blocks) if self.next_prefetch_pass() == self.default_next_prefetch_pass() => format!("_l2n{blocks}"),
            Some(blocks) => format!("_l2n{blocks}a{}", self.next_prefetch_pass()),
        };
        let recurrence = if self.big_recurrence() { "_tr" } else { "" };
        let fold = if self.pad_fold() == self.default_pad_fold() { String::new() } else { format!("_pf{}", self.pad_fold()) };
        let products = if self.tw_products() { "_twp" } else { "" };
        let ahead = match (self.tw_ahead_passes(), self.default_tw_ahead_passes()) {
            (set, default) if set == default => "",
            (set, _) if set.contains(&true) => "_ta",
            _ => "_nta",
        };
        // Per exchange: p (paired stores) or w, then the padding.
        let layouts: String = self.exchange_layouts().iter().map(|l| format!("{}{}", if l.pairs { "p" } else { "w" }, l.pad)).collect();
        let layouts = match (layouts.is_empty(), self.layouts_off && !StockhamKernel { layouts_off: false, ..self.clone() }.exchange_layouts().is_empty()) {
            (_, true) => "_nx".to_string(),
            (true, false) => layouts,
            (false, false) => format!("_x{layouts}"),
        };
        let assume = match (self.assume_lane(), self.default_assume_lane()) {
            (true, false) => "_al",
            (false, true) => "_nal",
            _ => "",
        };
        format!("fft_{}{}_n{}_r{}_t{}_b{}{mode}{real}{plain}{staging}{block_sync}{prefetch}{next}{recurrence}{products}{ahead}{layouts}{fold}{assume}{occupancy}{cluster}_{dir}", self.input.tag(), self.output.tag(), self.n, radices, self.tpt, self.tpb)
    }

    /// The L2 prefetch size of the strided loads of a plain column or cluster kernel
    /// (`rm_fft_load_pair` in fft.hip; NVIDIA sm_80+, ignored elsewhere): 128 bytes. On the H100
    /// (benches/results/2026-11-21-h100-fft.md, fifteenth session) single 2^21-2^24 ran 1-2.5 %
    /// faster with 128 or 256 than with none, 2^20, double 2^20 and 256^3 within 1 %; 64 changed
    /// nothing. Cluster kernels (thirty-third session): double 2^14 and 2^15 2-3 % faster,
    /// single 2^15 and 2^16 within 1 %.
    /// `ROCMATH_FFT_L2_PREFETCH` (0 for none, 64, 128 or 256) sets it, for A/B.
    fn l2_prefetch(&self) -> Option<usize> {
        static BYTES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let bytes = *BYTES.get_or_init(|| env_number("ROCMATH_FFT_L2_PREFETCH", |b| [0, 64, 128, 256].contains(&b)).unwrap_or(128));
        // (Staged kernels read their input by rows, not through `load`.)
        Some(bytes).filter(|&b| b > 0 && self.plain && !self.staged && (self.column || self.cluster > 1))
    }

    /// Whether the kernel tells the compiler its thread index's range (`RM_FFT_ASSUME_LANE` in
    /// fft.hip): each thread's index within its transform, lt, is then known to lie in
    /// [0, tpt), so branches such as `j < N / RADIX` and the real pair's `k == 0` fold away for
    /// every iteration but the one that can take them. On an H200
    /// (benches/results/2026-11-21-h100-fft.md, thirty-ninth session) single real 128 and 256
    /// ran 6-12 % faster both ways, c2r 1024 and c2c 4096 2 %; but c2c 1000 (125 threads a
    /// transform) 6 % slower and double real 1024 2-4 % slower. So: single and half precision,
    /// threads per transform a power of two, no clusters (not measured).
    fn assume_lane(&self) -> bool {
        assume_lane_override().unwrap_or(self.default_assume_lane())
    }

    /// Whether the passes read only the twiddles w^r of r a power of two and make the rest by
    /// products (`RM_FFT_TW_PRODUCTS` in fft.hip). `ROCMATH_FFT_TW_PRODUCTS=0/1/2`: no kernel,
    /// single and half kernels, or every kernel (A/B); else [`Self::default_tw_products`].
    fn tw_products(&self) -> bool {
        static MODE: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
        match *MODE.get_or_init(|| env_number("ROCMATH_FFT_TW_PRODUCTS", |v| v <= 2)) {
            Some(mode) => mode == 2 || (mode == 1 && self.compute() != FftPrecision::F64),
            None => self.default_tw_products(),
        }
    }

    /// Products in single and half row kernels whose block holds one transform, but real
    /// inverse ones and clusters. Such kernels keep few warps on an SM (8192: two blocks of
    /// 256 threads, 16384: one of 512), so the twiddle reads' latency is not hidden; where a
    /// block holds several short transforms it is, and the products only add instructions.
    /// Measured on an H200 (forty-fifth session; products in every single and half kernel
    /// against none, ours / cuFFT, two rounds):
    /// - one transform a block: c2c 8192 0.913 -> 0.951, 16384 1.048 -> 1.083, 9000 0.53 ->
    ///   0.65, 7560 0.68 -> 0.80; one round: r2c 16384 0.965 -> 1.009, 4099's Bluestein
    ///   kernel 1.567 -> 1.631; 4860, 7938, 5000, 6000 and 3375 within 2 %; but the real inverse
    ///   c2r 16384 0.924 -> 0.897 and c2r 2048 3 % slower;
    /// - several a block: c2c 1000 2 % and half 1000 3 % slower, 2250 1 %, 512-2048 and
    ///   r2c/c2r 1024 within 2 %;
    /// - this rule against none, one round: 15625 0.985 -> 1.052, 6561 and 3125 2-3 %
    ///   faster, r2c 10000 2 % slower, 2187, 2401, 4096, 10000 and r2c 8192 within 1 %.
    /// (Fortieth session, the kernels of then: c2c 8192 and 4096 no faster, c2r 16384 6 %
    /// slower.)
    fn default_tw_products(&self) -> bool {
        self.compute() != FftPrecision::F64 && self.cluster == 1 && !self.column && !self.real_pre && self.tpb == 1
    }

    /// Which passes read their twiddles before the barrier that waits for the previous pass's
    /// row (`TW_AHEAD` of `rm_fft_pass` in fft.hip). ncu on an H200 (forty-second session)
    /// found our c2c 1000 kernel stalled at barriers 3.1 cycles an instruction against cuFFT's
    /// 2.0, its twiddle reads issued right after each barrier. `ROCMATH_FFT_TW_AHEAD=0/1`: no
    /// pass, or every pass after the first of every kernel (A/B); else none in a twin
    /// ([`Self::variants`]) and [`Self::default_tw_ahead`] for each pass after the first
    /// in the rest.
    fn tw_ahead_passes(&self) -> Vec<bool> {
        match tw_ahead_override() {
            Some(m) => (0..self.passes.len()).map(|i| i > 0 && m == 1).collect(),
            None if self.tw_ahead_off => vec![false; self.passes.len()],
            None => self.default_tw_ahead_passes(),
        }
    }

    /// Leaner variants of this kernel that a plan compiles beside it, in order: with no pass
    /// reading its twiddles ahead (`_nta`), with no exchange layouts (`_nx`), with neither;
    /// each only where it differs from the kernel (and none for a feature under its
    /// `ROCMATH_FFT_TW_AHEAD` / `ROCMATH_FFT_EXCHANGE_LAYOUTS` setting). Both features cost
    /// occupancy: twiddles held through the barrier cost registers, and an exchange layout of 4
    /// pads after every pair of a radix-2 first pass triples the row in shared memory. The plan
    /// runs a variant only where the occupancy calculator gives it at least 1.5 times the
    /// kernel's blocks per SM ([`pick_variant`]). On an H200 (benches/results/2026-11-21-h100-fft.md,
    /// forty-third session):
    /// - passes ahead, at the 26 single c2c lengths of 64-10000 where ptxas found them costing a
    ///   block per SM: 7203, 7560, 7680, 8748, 9000 and 9720 (two blocks to one) ran 20-30 %
    ///   slower than with none, 4212, 5120, 5625, 6468 (three to two) 5-15 %; 96 and 972 (4 to
    ///   3, 6 to 5) 5-7 %, but 936 and 2688 (5 to 4, 6 to 5) 8-20 % faster.
    /// - exchange layouts: 4914, 6174 and 5670 (one block per SM with them, two or three
    ///   without) ran 20-75 % faster without; 2106 and 1470 (4 against 5, 6 against 7) 5-10 %
    ///   slower, and seven others, where the blocks were the same, 6-37 % slower.
    ///
    /// Under this rule (forty-fourth session, same device): 27 single c2c lengths of 990-7098
    /// whose layouts cost blocks ran 3-43 % faster (4914 0.40 -> 0.70 of cuFFT, 3510 0.61 ->
    /// 0.93), 3630 and 3750 5-6 % slower; 936 and 2688 keep their passes ahead and gain 7-16 %,
    /// 96 and 972 lose 7 % for the same reason.
    pub fn variants(&self) -> Vec<StockhamKernel> {
        let no_ahead = StockhamKernel { tw_ahead_off: true, ..self.clone() };
        let no_layouts = StockhamKernel { layouts_off: true, ..self.clone() };
        let ahead = tw_ahead_override().is_none() && no_ahead.tw_ahead_passes() != self.tw_ahead_passes();
        let layouts = exchange_layouts_override().is_none() && !self.exchange_layouts().is_empty();
        let mut v = Vec::new();
        if ahead {
            v.push(no_ahead);
        }
        if layouts {
            v.push(no_layouts);
        }
        if ahead && layouts {
            v.push(StockhamKernel { tw_ahead_off: true, layouts_off: true, ..self.clone() });
        }
        v
    }

    fn default_tw_ahead_passes(&self) -> Vec<bool> {
        (0..self.passes.len()).map(|i| i > 0 && self.default_tw_ahead(i)).collect()
    }

    /// Pass `i` reads ahead in single and half kernels but cluster ones, where its butterflies
    /// fill every thread's iterations alike (or take one each at most). Measured on an H200
    /// (forty-second session; ours / cuFFT against every pass reading ahead and none):
    /// - every pass: c2c 500, 1000, 2000, 5000 4-8 % faster, 2187 8 %, 5400 12 %, 10000 5 %,
    ///   2048, 4096, 8192 2 %; but 3000 13 % slower, 3600 10 %, 1200 7 %, 6000 4 %, each with
    ///   passes whose butterflies leave the last iteration partly idle; the cluster kernel of
    ///   32768 10 % and double 2^20 24 % (double 1000 2 % faster).
    /// - this rule: 3000, 3600, 1200 and 6000 within 1 % of none, the others' gains kept, and
    ///   7000 (ahead in two of its three later passes) 23 % faster, where every pass gave 3 %.
    fn default_tw_ahead(&self, i: usize) -> bool {
        let butterflies = self.n / self.passes[i];
        self.compute() != FftPrecision::F64 && self.cluster == 1 && (butterflies <= self.tpt || butterflies.is_multiple_of(self.tpt))
    }

    fn default_assume_lane(&self) -> bool {
        self.compute() != FftPrecision::F64 && self.tpt.is_power_of_two() && self.cluster == 1
    }

    /// Which shared-memory accesses of the passes take their padded index as the thread's base
    /// plus an immediate rather than a shift and add each (`rm_fft_padded` in fft.hip): 1
    /// loads, 2 stores, 3 both, 0 none. On the H100 (benches/results/2026-11-21-h100-fft.md,
    /// sixteenth session) both cut a 2048-point column pass from 191 M to 149 M instructions and
    /// from about 580 to 533 us; in row kernels folded loads saved few instructions and made
    /// 16384 2-4 % slower (the compiler then kept 106 registers where it had used 128), while
    /// folded stores alone made it 1 % faster. So: both in column kernels, stores in the rest.
    /// (Thirty-ninth session, H200: with the passes' row loads based on the thread's own index,
    /// folding them too was mixed in row kernels, c2c 4096 2 % faster, c2r 8192 3 % slower.)
    fn pad_fold(&self) -> usize {
        pad_fold_override().unwrap_or(self.default_pad_fold())
    }

    fn default_pad_fold(&self) -> usize {
        if self.column {
            3
        } else {
            2
        }
    }

    /// Whether each transform's threads lie inside one warp (NVIDIA's 32 lanes, and so also
    /// AMD's 64): row order, the threads per transform dividing 32, and whole warps and
    /// wavefronts in the block. Then the waits between a transform's own accesses of its row
    /// are that warp's barrier rather than the block's (`rm_fft_row_sync` in fft.hip), and a
    /// warp need not wait for the block's slowest. The block's barriers stay around what crosses
    /// rows: the shared offsets, staged loads and stores, cluster exchanges.
    fn warp_sync_fits(&self) -> bool {
        !self.column && self.cluster == 1 && 32 % self.tpt == 0 && (self.tpt * self.tpb) % 64 == 0
    }

    /// [`Self::warp_sync_fits`] unless `ROCMATH_FFT_WARP_SYNC=0` (A/B).
    pub fn warp_sync(&self) -> bool {
        self.warp_sync_fits() && warp_sync_allowed()
    }

    /// Column kernels computing in f32 build the four-step twiddle by products from three
    /// per-thread values rather than reading a table entry per element (`RM_FFT_BIG_RECURRENCE`
    /// in fft.hip). On the H100 (benches/results/2026-11-21-h100-fft.md, sixteenth session) the
    /// 2048-point column pass of 2^22 took 487 us against 528, and 2^21-2^24 ran 5-6 % faster.
    /// f64 keeps the table: its tolerance leaves less room for the chains' rounding.
    /// `ROCMATH_FFT_BIG_RECURRENCE`: 0 the table everywhere, 2 products in f64 too (A/B).
    /// Only where the last pass's stride NS is a multiple of the threads per transform (the
    /// kernel's `RECUR`); a four-step plan uploads the step table only for kernels without it.
    pub fn big_recurrence(&self) -> bool {
        static RECUR: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let mode = *RECUR.get_or_init(|| env_number("ROCMATH_FFT_BIG_RECURRENCE", |v| v <= 2).unwrap_or(1));
        let last_stride_fits = self.passes.last().is_some_and(|&r| (self.n / r).is_multiple_of(self.tpt));
        self.column && last_stride_fits && (mode == 2 || (mode == 1 && self.compute() == FftPrecision::F32))
    }

    /// Cluster kernels arrive at their last cluster barrier without a release fence
    /// (`RM_FFT_CLUSTER_RELAXED_EXIT` in fft.hip), so a block does not wait for its global
    /// stores before it may leave. On the H100 (benches/results/2026-11-21-h100-fft.md,
    /// thirty-third session) single 2^15 and 2^16 and double 2^14 ran 3-4 % faster, 16807 6 %.
    /// `ROCMATH_FFT_CLUSTER_EXIT=0` keeps the fence, for A/B.
    fn cluster_relaxed_exit(&self) -> bool {
        static RELAXED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        self.cluster > 1 && *RELAXED.get_or_init(|| env_number("ROCMATH_FFT_CLUSTER_EXIT", |v| v <= 1) != Some(0))
    }

    /// Cluster kernels build their cross-block twiddles as powers of one table entry per point
    /// (`RM_FFT_CLUSTER_PRODUCTS` in fft.hip) rather than read one entry per block: on the H100
    /// (same session) 1-5 % faster on top of the relaxed exit, in f64 too.
    /// `ROCMATH_FFT_CLUSTER_PRODUCTS=0` reads the table, for A/B.
    fn cluster_products(&self) -> bool {
        static PRODUCTS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        self.cluster > 1 && *PRODUCTS.get_or_init(|| env_number("ROCMATH_FFT_CLUSTER_PRODUCTS", |v| v <= 1) != Some(0))
    }

    /// Rows of the cross-block twiddle table ([`cluster_twiddles`], `n` entries each) a cluster
    /// kernel reads: block 1's alone where it takes the others' as powers, else all `cluster - 1`
    /// (0 for other kernels).
    pub fn cluster_twiddle_rows(&self) -> usize {
        match (self.cluster, self.cluster_products()) {
            (1, _) => 0,
            (_, true) => 1,
            (c, false) => c - 1,
        }
    }

    /// A staged plain kernel that loads through registers rather than with cp.async
    /// (`rm_fft_async_stage` in fft.hip): only with `ROCMATH_FFT_STAGE_ASYNC=0`, for A/B.
    fn stages_through_registers(&self) -> bool {
        self.staged && self.plain && !stage_async()
    }

    pub fn kernel_names(&self) -> Vec<String> {
        vec![self.module_name()]
    }

    /// The pass list's calls in direction `dir` with twiddle table `tw`: the first pass reads
    /// `src` (the template flag: 1 from `io`, 0 from the row), the last stores through `io` when
    /// `store` (else it leaves the row in shared memory, and waits for the whole block where the
    /// block's staged store reads the rows next).
    fn emit_passes(&self, dir: &str, src: &str, store: bool, tw: &str, io: &str, s: &mut String) {
        let mut ns = 1;
        let last = self.passes.len().saturating_sub(1);
        let offsets = stage_offsets(&self.passes);
        let sync = self.warp_sync() as i32;
        let layouts = self.exchange_layouts();
        let layout = |p: usize| layouts.get(p).copied().unwrap_or_default();
        let ahead_passes = self.tw_ahead_passes();
        let prefetch_at = self.next_prefetch().map(|_| self.next_prefetch_pass());
        for (i, &r) in self.passes.iter().enumerate() {
            if prefetch_at == Some(i) {
                s.push_str(&format!("        {io}.prefetch_next({});\n", self.n));
            }
            let in_w = if i > 0 { layout(i - 1).pad } else { 0 };
            let (out_w, pairs) = if i < last { (layout(i).pad, layout(i).pairs as i32) } else { (0, 0) };
            let iters = (self.n / r).div_ceil(self.tpt);
            let src = if i == 0 { src } else { "0" };
            let dst = if i == last && store { "1" } else { "0" };
            let sync = if i == last && self.staged_out && !self.real_post { 0 } else { sync };
            // (Bit 1: this pass reads its twiddles before its wait; bit 2: the next one does,
            // and takes over this pass's closing wait.)
            let ahead = match i32::from(ahead_passes[i]) + 2 * i32::from(i < last && ahead_passes[i + 1]) {
                0 => String::new(),
                bits => format!(", {bits}"),
            };
            s.push_str(&format!(
                "        rm_fft_pass<{}, {r}, {ns}, {}, {}, {iters}, {dir}, C, rm_dft_{r}, {src}, {dst}, {sync}, {in_w}, {out_w}, {pairs}{ahead}>(row, lt, {tw}, {io});\n",
                self.n, offsets[i], self.tpt
            ));
            ns *= r;
        }
    }

    /// The translation unit: prelude, FFT body, butterflies, pass list, the kernel.
    pub fn source(&self) -> String {
        let mut s = String::with_capacity(32 * 1024);
        s.push_str(&format!("// {} ({GENERATOR})\n", self.module_name()));
        s.push_str(crate::prelude());
        if self.stages_through_registers() {
            s.push_str("#define RM_FFT_STAGE_REGISTERS 1\n");
        }
        if let Some(bytes) = self.l2_prefetch() {
            s.push_str(&format!("#define RM_FFT_L2_PREFETCH {bytes}\n"));
        }
        if let Some(blocks) = self.next_prefetch() {
            s.push_str(&format!("#define RM_FFT_NEXT_PREFETCH {blocks}\n"));
        }
        s.push_str(&format!("#define RM_FFT_PAD_FOLD {}\n", self.pad_fold()));
        if self.assume_lane() {
            s.push_str("#define RM_FFT_ASSUME_LANE 1\n");
        }
        if self.big_recurrence() {
            s.push_str("#define RM_FFT_BIG_RECURRENCE 1\n");
        }
        if self.tw_products() {
            s.push_str("#define RM_FFT_TW_PRODUCTS 1\n");
        }
        if self.cluster_relaxed_exit() {
            s.push_str("#define RM_FFT_CLUSTER_RELAXED_EXIT 1\n");
        }
        if self.cluster_products() {
            s.push_str("#define RM_FFT_CLUSTER_PRODUCTS 1\n");
        }
        if self.pad_shift() != 4 {
            s.push_str(&format!("#define RM_FFT_PAD_SHIFT {}\n", self.pad_shift()));
        }
        s.push_str(FFT_HIP);
        let mut radices = self.passes.clone();
        if self.cluster > 1 {
            radices.push(self.cluster);
        }
        radices.sort();
        radices.dedup();
        let mut emitted = Vec::new();
        for r in radices {
            emit_dft(r, &mut emitted, &mut s);
        }
        let passes_struct = format!("rm_fft_passes_{}", self.module_name());
        s.push_str(&format!(
            "\nstruct {passes_struct} {{\n    template <int DIR, class C, int SRC, class IO>\n    static RM_INLINE void run(C* row, int lt, const C* tw, const IO& io) {{\n"
        ));
        if self.passes.is_empty() {
            s.push_str("        (void)lt; (void)tw;\n        if (io.valid) io.store(0, SRC ? io.load(0) : row[0]);\n");
        }
        if self.bluestein {
            // The forward transform into the row, the filter product, the inverse transform out;
            // the chirp (`pre`) multiplies the loads and, as the inverse's `post`, the stores.
            self.emit_passes("-1", "SRC", false, "tw", "io", &mut s);
            s.push_str(&format!("        rm_fft_bluestein_filter<{}, {}, {}>(row, lt, io);\n", self.n, self.tpt, self.warp_sync() as i32));
            // (The inverse reads its twiddles through an opaque pointer: 2160 single took 8
            // bytes of spills and 8640 436 without it, 0 and 372 with it; ptxas report.)
            s.push_str("        IO out = io;\n        out.post = io.pre;\n        const C* tw_inverse = rm_opaque_ptr(tw);\n");
            self.emit_passes("1", "0", true, "tw_inverse", "out", &mut s);
        } else {
            let real_twiddles = stage_twiddles(&self.passes).len();
            let mut first_source = "SRC";
            if self.real_pre {
                let sync = self.warp_sync() as i32;
                // (The first pass then reads the row the pre-processing wrote.)
                s.push_str(&match self.staged {
                    true => format!("        rm_fft_real_pre_rows<{}, {}, {sync}>(row, lt, tw + {real_twiddles});\n", self.n, self.tpt),
                    false => format!("        rm_fft_real_pre_load<{}, {}, {sync}>(row, lt, tw + {real_twiddles}, io);\n", self.n, self.tpt),
                });
                first_source = "0";
            }
            self.emit_passes("DIR", first_source, !self.real_post && self.cluster == 1 && !self.staged_out, "tw", "io", &mut s);
            if self.real_post {
                s.push_str(&format!("        rm_fft_real_post<{}, {}, {}>(row, lt, tw + {real_twiddles}, io);\n", self.n, self.tpt, self.staged_out as i32));
            }
        }
        s.push_str("    }\n};\n");
        let (ti, to) = (self.input.storage(), self.output.storage());
        let (r, c) = (self.compute().compute(), self.compute().complex());
        s.push_str(&format!(
            r#"
extern "C" __global__ {bounds} void {name}(
    const {ti}* in_re, const {ti}* in_im, long long in_stride, int in_il, int herm_in, int n_in, const {c}* pre,
    {to}* out_re, {to}* out_im, long long out_stride, int out_il, int n_out, const {c}* post,
    long long len0, long long len1, long long in0, long long in1, long long in2,
    long long out0, long long out1, long long out2, long long transforms,
    const {c}* tw, const {c}* big_lo, const {c}* big_hi, const {c}* big_step, int big_shift, {r} scale, int next_blocks) {{
    rm_fft_outer outer;
    outer.len0 = len0; outer.len1 = len1;
    outer.in0 = in0; outer.in1 = in1; outer.in2 = in2;
    outer.out0 = out0; outer.out1 = out1; outer.out2 = out2;
{io}
    io.big_lo = big_lo; io.big_hi = big_hi; io.big_step = big_step; io.big_shift = big_shift; io.scale = scale;
    {body}
}}
"#,
            bounds = match (self.cluster, self.min_blocks()) {
                (1, 1) => format!("RM_LAUNCH_BOUNDS({}, 1)", self.threads()),
                (1, b) => format!("RM_LAUNCH_BOUNDS_BLOCKS({}, {b})", self.threads()),
                (cl, b) => format!("RM_CLUSTER_DIMS({cl}) RM_LAUNCH_BOUNDS_BLOCKS({}, {b})", self.threads()),
            },
            body = if self.cluster > 1 {
                format!(
                    "(void)next_blocks;\n    rm_fft_stockham_cluster<{ti}, {to}, {}, {}, {}, {}, {}, {passes_struct}, rm_dft_{}>(io, outer, transforms, tw);",
                    self.n,
                    self.cluster,
                    self.tpt,
                    stage_twiddles(&self.passes).len(),
                    self.dir,
                    self.cluster
                )
            } else {
                format!(
                    "rm_fft_stockham<{ti}, {to}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {passes_struct}>(io, outer, transforms, tw, next_blocks);",
                    self.n,
                    self.row_stride(),
                    self.tpt,
                    self.tpb,
                    self.dir,
                    self.column as i32,
                    self.staged as i32,
                    self.staged_out as i32,
                    self.n + (self.real_pre && self.staged) as usize,
                    self.n + self.real_post as usize
                )
            },
            name = self.module_name(),
            io = if self.plain {
                format!(
                    "    (void)in_im; (void)in_il; (void)herm_in; (void)n_in; (void)pre; (void)out_im; (void)out_il; (void)n_out; (void)post;
    rm_fft_io_plain<{ti}, {to}, {c}> io;
    io.in_re = in_re; io.in_stride = (int)(in_stride / 2); io.out_re = out_re; io.out_stride = (int)(out_stride / 2);"
                )
            } else {
                format!(
                    "    rm_fft_io<{ti}, {to}, {c}> io;
    io.in_re = in_re; io.in_im = in_im; io.in_stride = in_stride; io.in_il = in_il; io.herm_in = herm_in; io.n_in = n_in; io.pre = pre;
    io.out_re = out_re; io.out_im = out_im; io.out_stride = out_stride; io.out_il = out_il; io.n_out = n_out; io.post = post;"
                )
            },
        ));
        s
    }
}

/// Emits `struct rm_dft_<r>` (and the smaller butterflies it calls) once each.
fn emit_dft(r: usize, emitted: &mut Vec<usize>, s: &mut String) {
    if emitted.contains(&r) {
        return;
    }
    let odd_factor = smallest_odd_factor(r).filter(|&p| p < r);
    if r.is_power_of_two() && r > 2 {
        emit_dft(r / 2, emitted, s);
    } else if let Some(p) = odd_factor {
        emit_dft(p, emitted, s);
        emit_dft(r / p, emitted, s);
    }
    emitted.push(r);
    let header = format!(
        "\n// radix-{r} butterfly, in registers: v[k] = sum_j v[j] exp(DIR 2 pi i j k / {r})\nstruct rm_dft_{r} {{\n    template <int DIR, class C> static RM_INLINE void run(C* v) {{\n"
    );
    let out = s;
    let s = &mut String::new();
    let lit = |x: f64| format!("(R)({x:.17e})");
    if r == 2 {
        s.push_str("        const C a = v[0], b = v[1];\n        v[0] = a + b;\n        v[1] = a - b;\n");
    } else if r.is_power_of_two() {
        // Radix-2 decimation in time over two half-size butterflies.
        let m = r / 2;
        s.push_str(&format!("        C e[{m}], o[{m}];\n"));
        s.push_str(&format!("#pragma unroll\n        for (int i = 0; i < {m}; ++i) {{ e[i] = v[2 * i]; o[i] = v[2 * i + 1]; }}\n"));
        s.push_str(&format!("        rm_dft_{m}::run<DIR, C>(e);\n        rm_dft_{m}::run<DIR, C>(o);\n"));
        for k in 0..m {
            let t = if k == 0 {
                "o[0]".to_string()
            } else if 4 * k == r {
                format!("rm_fft_mul_i<DIR>(o[{k}])")
            } else {
                let a = 2.0 * std::f64::consts::PI * k as f64 / r as f64;
                s.push_str(&format!("        C w{k}; w{k}.x = {}; w{k}.y = {};\n", lit(a.cos()), lit(-a.sin())));
                format!("rm_fft_twiddle<DIR>(o[{k}], w{k})")
            };
            s.push_str(&format!("        {{ const C t = {t}; v[{k}] = e[{k}] + t; v[{}] = e[{k}] - t; }}\n", k + m));
        }
    } else if let Some(p) = odd_factor {
        // Composite r = p m, p its smallest odd prime (9 to 27, and 10 = 5 2): p butterflies of
        // m points on the inputs j = p i + s (s < p), then each output k < m of butterfly s
        // turned by exp(DIR 2 pi i s k / r), then m butterflies of p points whose output t
        // lands at k + m t.
        let m = r / p;
        s.push_str(&format!("        C u[{p}][{m}];\n"));
        s.push_str(&format!("#pragma unroll\n        for (int s = 0; s < {p}; ++s) {{\n#pragma unroll\n            for (int i = 0; i < {m}; ++i) u[s][i] = v[{p} * i + s];\n            rm_dft_{m}::run<DIR, C>(u[s]);\n        }}\n"));
        for k in 0..m {
            s.push_str("        {\n");
            s.push_str(&format!("            C t[{p}];\n            t[0] = u[0][{k}];\n"));
            for q in 1..p {
                if k == 0 {
                    s.push_str(&format!("            t[{q}] = u[{q}][0];\n"));
                } else {
                    let a = 2.0 * std::f64::consts::PI * ((q * k) % r) as f64 / r as f64;
                    s.push_str(&format!(
                        "            {{ C w; w.x = {}; w.y = {}; t[{q}] = rm_fft_twiddle<DIR>(u[{q}][{k}], w); }}\n",
                        lit(a.cos()),
                        lit(-a.sin())
                    ));
                }
            }
            s.push_str(&format!("            rm_dft_{p}::run<DIR, C>(t);\n"));
            for t in 0..p {
                s.push_str(&format!("            v[{}] = t[{t}];\n", k + m * t));
            }
            s.push_str("        }\n");
        }
    } else {
        // Odd prime: pair x_j with x_{r-j}; cosines act on the sums, sines on the differences.
        let h = (r - 1) / 2;
        s.push_str("        const C x0 = v[0];\n");
        for j in 1..=h {
            s.push_str(&format!("        const C a{j} = v[{j}] + v[{}], b{j} = v[{j}] - v[{}];\n", r - j, r - j));
        }
        let sum: Vec<String> = (1..=h).map(|j| format!("a{j}")).collect();
        s.push_str(&format!("        v[0] = x0 + {};\n", sum.join(" + ")));
        for k in 1..=h {
            let mut re = "x0".to_string();
            let mut im = String::new();
            for j in 1..=h {
                let a = 2.0 * std::f64::consts::PI * (j * k % r) as f64 / r as f64;
                re.push_str(&format!(" + {} * a{j}", lit(a.cos())));
                if !im.is_empty() {
                    im.push_str(" + ");
                }
                im.push_str(&format!("{} * b{j}", lit(a.sin())));
            }
            s.push_str(&format!(
                "        {{ const C t1 = {re};\n          const C t2 = rm_fft_mul_i<DIR>({im});\n          v[{k}] = t1 + t2; v[{}] = t1 - t2; }}\n",
                r - k
            ));
        }
    }
    s.push_str("    }\n};\n");
    out.push_str(&header);
    if s.contains("(R)") {
        out.push_str("        typedef typename rm_traits<C>::real R;\n");
    }
    out.push_str(s);
}

/// The smallest odd prime factor of `r` (none for powers of two).
fn smallest_odd_factor(r: usize) -> Option<usize> {
    (3..=r).step_by(2).find(|&p| r.is_multiple_of(p))
}

/// The element-wise kernels of one precision (module `fft_util_<p>`): `fft_r2c_post_<p>`,
/// `fft_c2r_pre_<p>`, `fft_chirp_in_<p>`, `fft_pointwise_<p>`, `fft_chirp_out_<p>`. One thread
/// per element, 256 threads per block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FftUtilKernels {
    pub precision: FftPrecision,
}

/// Threads per block of the element-wise kernels.
pub const UTIL_THREADS: u32 = 256;

impl FftUtilKernels {
    pub fn module_name(&self) -> String {
        format!("fft_util_{}", self.precision.tag())
    }
    pub fn kernel_name(&self, op: &str) -> String {
        format!("fft_{op}_{}", self.precision.tag())
    }
    pub fn kernel_names(&self) -> Vec<String> {
        ["r2c_post", "c2r_pre", "chirp_in", "pointwise", "chirp_out"].iter().map(|op| self.kernel_name(op)).collect()
    }
    pub fn source(&self) -> String {
        let (t, r, c) = (self.precision.storage(), self.precision.compute(), self.precision.complex());
        let mut s = format!("// {} ({GENERATOR})\n", self.module_name());
        s.push_str(crate::prelude());
        s.push_str(FFT_HIP);
        let outer_params = "long long len0, long long len1, long long in0, long long in1, long long in2, long long out0, long long out1, long long out2, long long transforms";
        let outer = "rm_fft_outer outer; outer.len0 = len0; outer.len1 = len1; outer.in0 = in0; outer.in1 = in1; outer.in2 = in2; outer.out0 = out0; outer.out1 = out1; outer.out2 = out2;";
        let lb = format!("RM_LAUNCH_BOUNDS({UTIL_THREADS}, 1)");
        s.push_str(&format!(
            r#"
extern "C" __global__ {lb} void {r2c}(const {c}* z, long long h, {t}* out_re, {t}* out_im, long long out_stride,
    {outer_params}, const {c}* rtw, {r} scale) {{
    {outer}
    rm_fft_r2c_post<{t}>(z, h, out_re, out_im, out_stride, outer, transforms, rtw, scale);
}}
extern "C" __global__ {lb} void {c2r}(const {t}* in_re, const {t}* in_im, long long in_stride,
    {outer_params}, {c}* z, long long h, const {c}* rtw) {{
    {outer}
    rm_fft_c2r_pre<{t}>(in_re, in_im, in_stride, outer, transforms, z, h, rtw);
}}
extern "C" __global__ {lb} void {chirp_in}(const {t}* in_re, const {t}* in_im, long long in_stride, int herm_in,
    long long n, {outer_params}, {c}* a, long long m, const {c}* chirp) {{
    {outer}
    rm_fft_chirp_in<{t}>(in_re, in_im, in_stride, herm_in, n, outer, transforms, a, m, chirp);
}}
extern "C" __global__ {lb} void {pointwise}({c}* a, long long m, long long rows, const {c}* filter) {{
    rm_fft_pointwise<{c}>(a, m, rows, filter);
}}
extern "C" __global__ {lb} void {chirp_out}(const {c}* a, long long m, long long n_out, {t}* out_re, {t}* out_im,
    long long out_stride, {outer_params}, const {c}* chirp, {r} scale) {{
    {outer}
    rm_fft_chirp_out<{t}>(a, m, n_out, out_re, out_im, out_stride, outer, transforms, chirp, scale);
}}
"#,
            r2c = self.kernel_name("r2c_post"),
            c2r = self.kernel_name("c2r_pre"),
            chirp_in = self.kernel_name("chirp_in"),
            pointwise = self.kernel_name("pointwise"),
            chirp_out = self.kernel_name("chirp_out"),
        ));
        s
    }
}

/// The Stockham kernels the static check compiles for a device with `shared_limit` bytes per
/// block: in every precision pair a plan uses (half plans keep f32 in the work buffer), every
/// radix, both thread orders, the staged input, and the longest single pass, forward; the
/// inverse (the same code with the conjugate twiddles) for the longest pass and every radix;
/// the plain load/store of the longest passes, the radix-32 rows and the mixed-precision kernels.
pub fn check_kernels(shared_limit: usize) -> Vec<StockhamKernel> {
    use FftPrecision::*;
    let mut v = Vec::new();
    let mut add = |i: FftPrecision, o: FftPrecision, n: usize, column: bool, staged: bool, dir: i32| {
        if let Ok(k) = StockhamKernel::new(i, o, n, column, staged, shared_limit) {
            let k = k.with_dir(dir);
            if !v.contains(&k) {
                v.push(k);
            }
        }
    };
    for p in FftPrecision::ALL {
        // 252 = 4 9 7, 1000 = 10 10 10 (rows unpadded), 2431 = 17 13 11, 3125 = 25 25 5, 4096 =
        // 16 16 16, 5400 = 8 15 15 3, 6561 = 27 27 9, 7203 = 21 7 7 7, 8192 = 32 32 8, 1444 = 4
        // 19 19, 2432 = 16 8 19: every radix where it fits (`odd_radix` picks the composites).
        for n in [1, 2, 252, 1000, 1444, 2431, 2432, 3125, 4096, 5400, 6561, 7203, 8192, p.max_single_pass(shared_limit)] {
            add(p, p, n, false, false, -1);
        }
        for n in [252, 1000, 1444, 2431, 3125, 6561, p.max_single_pass(shared_limit)] {
            add(p, p, n, false, false, 1);
        }
        let column = p.max_column_pass(shared_limit);
        add(p, p, 256, true, false, -1);
        // Odd composites in column order: 243 = 27 9, 375 = 25 15; and 323 = 19 17.
        add(p, p, 243, true, false, -1);
        add(p, p, 323, true, false, -1);
        add(p, p, 375, true, false, -1);
        add(compute_precision(p), compute_precision(p), column, true, false, -1);
        add(compute_precision(p), compute_precision(p), column, true, true, -1);
        if let Some(long) = p.long_column_pass(shared_limit) {
            add(compute_precision(p), compute_precision(p), long, true, false, -1);
            add(compute_precision(p), compute_precision(p), long, true, true, -1);
        }
    }
    // The paired radices (`pair_two`; single and half rows): 96 = 16 6, 882 = 14 9 7, 1458 =
    // 18 9 9, 242 = 22 11, 2106 = 26 9 9, 3750 = 30 5 5 5.
    for p in [F32, F16] {
        for n in [96, 882, 1458, 242, 2106, 3750] {
            add(p, p, n, false, false, -1);
        }
    }
    for n in [256, 1000] {
        add(F16, F32, n, n == 256, false, -1);
        add(F32, F16, n, n == 256, n == 256, -1);
    }
    // Real forward post-processing: each precision at the longest single pass, and a short
    // column-ordered one.
    for p in FftPrecision::ALL {
        for (n, column) in [(p.max_single_pass(shared_limit), false), (256, true)] {
            if let Some(k) = StockhamKernel::new(p, p, n, column, false, shared_limit).ok().and_then(|k| k.with_real_post().ok()) {
                v.push(k);
            }
        }
    }
    // Real inverse pre-processing: each precision at the longest single pass and at 2^12, a
    // short one with staged stores, and a column-ordered one.
    for p in FftPrecision::ALL {
        for (n, column) in [(p.max_single_pass(shared_limit), false), (4096, false), (16, false), (256, true)] {
            if let Some(k) = StockhamKernel::new(p, p, n, column, column, shared_limit).ok().and_then(|k| k.with_dir(1).with_real_pre().ok()) {
                let k = if k.wants_staged_rows() { k.with_staged_rows().unwrap_or_else(|e| panic!("{e}")) } else { k };
                // (The longest single pass may be 4096 itself; one unit per module.)
                if !v.contains(&k) {
                    v.push(k);
                }
            }
        }
        // The forward post-processing in staged rows.
        if let Some(k) = StockhamKernel::new(p, p, 16, false, false, shared_limit).ok().and_then(|k| k.with_real_post().ok()?.with_staged_rows().ok()) {
            v.push(k);
        }
    }
    // Fused Bluestein convolutions: 1031 -> 2100 points in row and column order (staged too),
    // and 4099 -> 8232 where a block holds it.
    for p in FftPrecision::ALL {
        for (n, column, staged) in [(2100, false, false), (2100, true, false), (2100, true, true), (8232, false, false)] {
            if let Some(k) = StockhamKernel::new(p, p, n, column, staged, shared_limit).ok().and_then(|k| k.with_bluestein().ok()) {
                v.push(k);
            }
        }
    }
    // Short rows staged through shared memory both ways: one thread per transform (13, 16),
    // two (38), general and plain load/store.
    for p in FftPrecision::ALL {
        for n in [13, 16, 38] {
            if let Some(k) = StockhamKernel::new(p, p, n, false, false, shared_limit).ok().and_then(|k| k.with_staged_rows().ok()) {
                v.push(k.clone().with_plain(true));
                v.push(k);
            }
        }
    }
    // The plain load/store of every thread order and precision pair, at the longest passes.
    let plain: Vec<StockhamKernel> = v
        .iter()
        .filter(|k| {
            let p = compute_precision(k.input);
            let longest = k.n == k.input.max_single_pass(shared_limit) || k.n == p.max_column_pass(shared_limit) || Some(k.n) == p.long_column_pass(shared_limit);
            k.dir < 0 && (longest || k.pad_shift() != 4 || k.input != k.output)
        })
        .map(|k| k.clone().with_plain(true))
        .collect();
    v.extend(plain);
    v
}

/// Cluster kernels for the static check (sm_90 only): clusters of 3, 5, 7 and 8 blocks where
/// each precision has them, both directions, general and plain load/store.
pub fn check_cluster_kernels() -> Vec<StockhamKernel> {
    let mut v = Vec::new();
    for p in FftPrecision::ALL {
        for n in [11979, 27000, 16384, 16807, 32768, 65536] {
            for dir in [-1, 1] {
                for plain in [false, true] {
                    if let Some(k) = cluster_split(p, p, n, SHARED_SM90) {
                        v.push(k.with_dir(dir).with_plain(plain));
                    }
                }
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_splits_take_the_fewest_blocks_that_fit() {
        use FftPrecision::*;
        let split = |p, n| cluster_split(p, p, n, SHARED_SM90).map(|k| (k.n, k.cluster, k.tpb, k.n * k.cluster));
        assert_eq!(split(F32, 4096), None, "one block holds it");
        assert_eq!(split(F32, 8192), None, "a 256-thread radix-32 kernel holds it");
        assert_eq!(split(F32, 4116), None, "a 588-thread kernel holds it");
        assert_eq!(split(F32, 16384), None, "a 512-thread radix-32 kernel holds it");
        assert_eq!(split(F32, 20480), Some((2560, 8, 1, 20480)), "the ordinary kernel would take 1280 threads; 5 does not divide 4096");
        assert_eq!(split(F32, 4374), None, "2 27 27 3 in 162 threads");
        assert_eq!(split(F32, 11979), Some((3993, 3, 1, 11979)), "11 11 11 9 would take 1089 threads");
        assert_eq!(split(F32, 6561), None, "27 27 9 in 243 threads");
        assert_eq!(split(F32, 16807), Some((2401, 7, 1, 16807)));
        assert_eq!(split(F32, 32768), Some((4096, 8, 1, 32768)));
        assert_eq!(split(F32, 65536), Some((8192, 8, 1, 65536)), "8 blocks of 4096 are too few: 8192-point blocks");
        assert_eq!(split(F32, 131072), None, "more than 8 blocks of 512 threads");
        assert_eq!(split(F32, 2 * 4099), None, "no butterflies for 4099");
        assert_eq!(split(F64, 4096), None);
        assert_eq!(split(F64, 16384), Some((2048, 8, 1, 16384)));
        assert_eq!(split(F16, 32768), Some((4096, 8, 1, 32768)));
        let k = cluster_split(F32, F32, 11979, SHARED_SM90).unwrap();
        assert!(k.module_name().contains("_cl3_"), "{}", k.module_name());
        let plain = k.clone().with_dir(1).with_plain(true);
        let src = plain.source();
        assert!(src.contains("RM_CLUSTER_DIMS(3)") && src.contains("rm_fft_stockham_cluster<") && src.contains("struct rm_dft_3 "));
        // The measured defaults: no fence at the last cluster barrier, twiddles as powers, the
        // L2 prefetch on the plain decimated loads.
        assert!(src.contains("#define RM_FFT_CLUSTER_RELAXED_EXIT 1") && src.contains("#define RM_FFT_CLUSTER_PRODUCTS 1") && src.contains("#define RM_FFT_L2_PREFETCH 128"));
        assert!(plain.module_name().ends_with("_p_l2p128_m2_cl3_inv"), "{}", plain.module_name());
        assert_eq!(plain.cluster_twiddle_rows(), 1, "block 1's twiddles alone");
        // The last pass leaves the sub-transform in shared memory for the cross-block pass.
        assert!(!src.contains(", 0, 1>(row, lt, tw, io)"), "a pass stores to global memory");
        // Not a cluster block: several transforms per block, column order, fused real post, a
        // cluster the length does not divide, too many blocks.
        assert!(StockhamKernel::new(F32, F32, 256, false, false, SHARED_SM90).unwrap().with_cluster(2).is_err());
        assert!(StockhamKernel::new(F32, F32, 4096, true, false, SHARED_SM90).unwrap().with_cluster(2).is_err());
        assert!(StockhamKernel::new(F32, F32, 4096, false, false, SHARED_SM90).unwrap().with_real_post().unwrap().with_cluster(2).is_err());
        assert!(StockhamKernel::new(F32, F32, 4096, false, false, SHARED_SM90).unwrap().with_cluster(3).is_err());
        assert!(StockhamKernel::new(F32, F32, 4096, false, false, SHARED_SM90).unwrap().with_cluster(16).is_err());
    }

    #[test]
    fn occupancy_asks_for_room_by_butterfly_data() {
        use FftPrecision::*;
        let row = |p, n| StockhamKernel::new(p, p, n, false, false, SHARED_SM90).unwrap();
        assert_eq!(row(F32, 8192).min_blocks(), 1, "256 threads (radix 32)");
        assert_eq!(row(F32, 16384).min_blocks(), 1, "32 complex f32 per thread of 512: 128 registers");
        assert_eq!(row(F64, 4116).min_blocks(), 1, "588 threads, not 512");
        assert_eq!(row(F32, 4096).min_blocks(), 1, "not 512 threads");
        assert_eq!(StockhamKernel::new(F32, F32, 1024, true, false, SHARED_SM90).unwrap().min_blocks(), 1, "column order");
        let cluster = |p, n| cluster_split(p, p, n, SHARED_SM90).unwrap();
        assert_eq!(cluster(F32, 32768).min_blocks(), 4);
        assert_eq!(cluster(F64, 16384).min_blocks(), 4, "128 threads of 128 registers");
        assert_eq!(cluster(F32, 16807).min_blocks(), 2, "343 threads");
        assert!(cluster(F32, 32768).source().contains("RM_CLUSTER_DIMS(8) RM_LAUNCH_BOUNDS_BLOCKS(256, 4)"));
        assert!(row(F32, 4096).source().contains("RM_LAUNCH_BOUNDS(256, 1)"));
    }

    #[test]
    fn long_one_transform_rows_prefetch_the_next_blocks_input() {
        use FftPrecision::*;
        let row = |p, n| StockhamKernel::new(p, p, n, false, false, SHARED_SM90).unwrap().with_plain(true);
        for (k, blocks) in [
            (row(F32, 16384), Some(1)),
            (row(F32, 8192), Some(2)),
            (row(F64, 8192), Some(1)),
            (row(F16, 16384), Some(1)),
            (row(F32, 16384).with_real_post().unwrap(), None),
            (row(F32, 16384).with_dir(1).with_real_pre().unwrap(), None),
            (row(F32, 4096), None),
            (row(F32, 16384).with_plain(false), None),
            (StockhamKernel::new(F32, F32, 2048, true, false, SHARED_SM90).unwrap().with_plain(true), None),
        ] {
            assert_eq!(k.next_prefetch(), blocks, "{}", k.module_name());
            let define = blocks.map(|b| format!("#define RM_FFT_NEXT_PREFETCH {b}\n"));
            assert_eq!(define.as_ref().is_some_and(|d| k.source().contains(d.as_str())), blocks.is_some());
            assert_eq!(k.module_name().contains("_l2n"), blocks.is_some());
            // Before the last pass, or the one before it for half storage.
            let at = k.passes.len() - 1 - (k.input == F16) as usize;
            let (radix, ns) = (k.passes[at], k.passes[..at].iter().product::<usize>());
            assert_eq!(k.source().contains(&format!("        io.prefetch_next({});\n        rm_fft_pass<{}, {radix}, {ns}, ", k.n, k.n)), blocks.is_some(), "{}", k.module_name());
        }
    }

    #[test]
    fn a_larger_odd_cap_where_it_saves_two_passes() {
        let row = |n| StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, n, false, false, SHARED_SM90).unwrap();
        // Two passes fewer, 225 and 240 threads: the larger cap.
        assert_eq!((row(3375).passes, row(3375).tpt), (vec![15, 15, 15], 225));
        assert_eq!((row(6000).passes, row(6000).tpt), (vec![16, 25, 15], 240));
        // One pass fewer (5000 as 8 25 25) is not enough.
        assert_eq!(row(5000).passes, vec![10, 10, 10, 5]);
    }

    #[test]
    fn cluster_twiddles_follow_blocks_then_points() {
        assert_eq!(cluster_twiddles(3, 2), vec![(0, 6), (1, 6), (2, 6)]);
        assert_eq!(cluster_twiddles(2, 3), vec![(0, 6), (1, 6), (0, 6), (2, 6)]);
    }

    #[test]
    fn factorizes_smooth_lengths_only() {
        assert_eq!(factorize(1), Some(vec![]));
        assert_eq!(factorize(4096), Some(vec![16, 16, 16]));
        assert_eq!(factorize(1000), Some(vec![8, 5, 5, 5]));
        assert_eq!(factorize(2 * 17 * 13 * 11 * 7), Some(vec![2, 17, 13, 11, 7]));
        assert_eq!(factorize(4099), None);
        assert_eq!(factorize(19 * 17 * 4), Some(vec![4, 19, 17]));
        assert_eq!(factorize(23), None);
        assert_eq!(factorize(0), None);
    }

    #[test]
    fn twos_pair_with_fives_in_rows_of_only_those_factors() {
        let kernel = |n, column| StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, n, column, false, SHARED_SM90).unwrap();
        for (n, passes) in [(1000, vec![10, 10, 10]), (500, vec![10, 10, 5]), (2000, vec![10, 10, 10, 2]), (100, vec![10, 10])] {
            let k = kernel(n, false);
            assert_eq!((&k.passes, k.pad_shift(), k.row_stride() >= n + 1), (&passes, 0, true), "{n}: radix 10, rows unpadded");
            assert_eq!(factorize_with(n, pass_caps(&k.passes)).as_ref(), Some(&passes), "{n}: the twiddle table's caps rebuild the passes");
        }
        assert_eq!(kernel(10000, false).passes, vec![16, 25, 25], "10^4 would take 1000 threads");
        assert_eq!(kernel(3000, false).passes, vec![8, 5, 5, 5, 3], "a factor 3 too: not measured");
        assert_eq!(kernel(1000, true).passes, vec![8, 5, 5, 5], "column passes");
        assert_eq!(kernel(4096, false).pad_shift(), 4);
        assert!(StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, 0, false, false, SHARED_SM90).is_err(), "no length, no passes");
        assert_eq!(pass_caps(&[8, 5, 5, 5]), RadixCaps { two: 8, odd: 1, tens: 0, pair_two: 0 });
    }

    #[test]
    fn exchange_layouts_cut_the_modelled_bank_conflicts() {
        // The model against ncu's count for c2c 1000 as 8 5 5 5 (padded every 16, 125 threads, 2
        // transforms a block, row 1063): 1376 wavefronts a block measured on an H200; 1318 in
        // benches/device/fft-shared-banks.py, which this must repeat.
        let padded = |e: usize| e + (e >> 4);
        let per_block = |passes: &[usize], tpt, at: &dyn Fn(usize) -> usize, row, pairs: bool| {
            (0..passes.len() - 1).map(|p| exchange_wavefronts(1000, passes, tpt, 2, p, 8, at, row, pairs && p == 0)).sum::<usize>()
        };
        assert_eq!(per_block(&[8, 5, 5, 5], 125, &padded, 1063, false), 1318);
        assert_eq!(per_block(&[10, 10, 10], 100, &|e| e, 1001, false), 830, "fft-shared-banks.py --pad-shift 0: 415 a transform");
        let k = StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, 1000, false, false, SHARED_SM90).unwrap();
        let layouts = k.exchange_layouts();
        assert_eq!(layouts, vec![ExchangeLayout { pad: 0, pairs: true }, ExchangeLayout { pad: 6, pairs: false }]);
        assert!(k.module_name().contains("_xp0w6_"), "{}", k.module_name());
        assert_eq!(k.row_stride(), 1056, "1000 + 6 * 9 + 1, even for the paired stores");
        let at = |p: usize, e: usize| e + layouts[p].pad * (e / [10, 100][p]);
        let chosen: usize = (0..2).map(|p| exchange_wavefronts(1000, &k.passes, 100, 2, p, 8, &|e| at(p, e), k.row_stride(), layouts[p].pairs)).sum();
        assert!(chosen * 10 < 830 * 7, "{chosen} wavefronts a block: over 30 % fewer than 830");
        // Double: the model's choice is a pad after every group in both exchanges (16-byte
        // elements cannot pair), but double kernels measured slower with it and keep their rows;
        // so do real inverse kernels.
        let d = exchange_layouts(1000, &[10, 10, 10], 100, 2, 16, 0);
        assert!(d.iter().all(|l| l.pad > 0 && !l.pairs), "{d:?}");
        assert!(StockhamKernel::new(FftPrecision::F64, FftPrecision::F64, 1000, false, false, SHARED_SM90).unwrap().exchange_layouts().is_empty());
        assert!(k.clone().with_dir(1).with_real_pre().unwrap().exchange_layouts().is_empty());
        assert_eq!(k.clone().with_real_post().unwrap().exchange_layouts(), layouts);
        // Odd radices in padded rows: a pad after every group where the row's padding leaves
        // conflicts.
        let odd = StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, 3000, false, false, SHARED_SM90).unwrap();
        assert!(odd.module_name().contains("_xw0w1w1w1_"), "{}", odd.module_name());
        assert!(odd.clone().with_real_post().unwrap().exchange_layouts().is_empty(), "real forward: radix 10 only");
        // Kept out of: powers of two, column kernels, single passes.
        for (n, column) in [(4096, false), (2048, false), (256, false), (1000, true), (10, false)] {
            let k = StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, n, column, false, SHARED_SM90).unwrap();
            assert!(k.exchange_layouts().is_empty() && !k.module_name().contains("_x"), "{n} {column}: {}", k.module_name());
        }
    }

    #[test]
    fn odd_primes_pack_where_it_pays() {
        let passes = |n| StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, n, false, false, SHARED_SM90).unwrap().passes;
        // Pairs of 3s where 27 threads remain; larger caps while a transform takes over 512.
        assert_eq!(passes(27), vec![3, 3, 3], "9 3 would leave 3 threads");
        assert_eq!(passes(243), vec![9, 9, 3]);
        assert_eq!(passes(2187), vec![9, 9, 9, 3]);
        assert_eq!(passes(6561), vec![27, 27, 9]);
        assert_eq!(passes(4374), vec![18, 9, 9, 3], "the radix-2 pass joins a 9 (pair_two)");
        assert_eq!(passes(3000), vec![8, 5, 5, 5, 3], "375 threads");
        assert_eq!(passes(3125), vec![25, 25, 5]);
        assert_eq!(passes(5400), vec![8, 15, 15, 3]);
        assert_eq!(passes(576), vec![16, 4, 9], "as many threads either way");
        let column = StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, 243, true, false, SHARED_SM90).unwrap();
        assert_eq!(column.passes, vec![27, 9], "column passes hold many transforms a block");
        let column = StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, 1000, true, false, SHARED_SM90).unwrap();
        assert_eq!(column.passes, vec![8, 5, 5, 5], "8 25 5 in 40 threads: 125 radix-8 butterflies");
    }

    #[test]
    fn kernels_fit_their_limits() {
        for p in FftPrecision::ALL {
            for limit in [SHARED_SM90, SHARED_CDNA] {
                for n in (1..=300).chain([1000, 4096, 8192, p.max_single_pass(limit)]) {
                    for column in [false, true] {
                        match StockhamKernel::new(p, p, n, column, false, limit) {
                            Ok(k) => {
                                assert!(k.threads() <= 1024 && k.shared_bytes() as usize <= limit, "{}", k.module_name());
                                if column {
                                    let bytes = compute_precision(p).compute_complex_bytes();
                                    let row_bytes = row_elements(k.n) * bytes;
                                    assert!(k.tpb >= column_tpb(k.tpt, bytes, row_bytes, limit), "{}", k.module_name());
                                }
                            }
                            Err(e) => assert!(factorize(n).is_none() || n > p.max_single_pass(limit), "{n}: {e}"),
                        }
                    }
                }
                assert!(StockhamKernel::new(p, p, p.max_single_pass(limit) * 2, false, false, limit).is_err());
            }
            assert_eq!(p.max_single_pass(SHARED_SM90), if p == FftPrecision::F64 { 8192 } else { 16384 });
            assert_eq!(p.max_single_pass(SHARED_CDNA), if p == FftPrecision::F64 { 2048 } else { 4096 });
        }
    }

    #[test]
    fn column_passes_fill_cache_lines_up_to_their_limit() {
        for p in FftPrecision::ALL {
            for limit in [SHARED_SM90, SHARED_CDNA] {
                let n = p.max_column_pass(limit);
                let bytes = compute_precision(p).compute_complex_bytes();
                let k = StockhamKernel::new(p, p, n, true, false, limit).unwrap();
                assert!(k.tpb * bytes >= column_bytes().min(MIN_COLUMN_BYTES), "{}", k.module_name());
                assert!(k.tpb * bytes >= column_bytes() || k.threads() <= 512, "{}", k.module_name());
                let longer = StockhamKernel::new(p, p, 2 * n, true, false, limit).unwrap();
                assert!(longer.tpb * bytes < column_bytes(), "{}", longer.module_name());
            }
            assert_eq!(p.max_column_pass(SHARED_SM90), 2048);
            assert_eq!(p.max_column_pass(SHARED_CDNA), 512);
        }
    }

    #[test]
    fn capped_factorizations_rebuild_from_their_largest_passes() {
        for n in (1..=5000).chain([1 << 20, 3 << 12, 1000, 4099]) {
            for cap in [2, 4, 8, 16, 32] {
                for odd in [1, 9, 15, 21, 25, 27] {
                    let caps = RadixCaps { two: cap, odd, tens: 0, pair_two: 0 };
                    if let Some(p) = factorize_with(n, caps) {
                        assert!(p.iter().all(|&r| if r.is_power_of_two() { r <= cap } else { r <= odd || [3, 5, 7, 11, 13, 17, 19].contains(&r) }), "{n} {caps:?}: {p:?}");
                        assert!(p.iter().all(|r| RADICES.contains(r)), "{n} {caps:?}: {p:?}");
                        assert_eq!(p.iter().product::<usize>(), n);
                        assert_eq!(factorize_with(n, pass_caps(&p)), Some(p.clone()), "{n} {caps:?}");
                    }
                }
            }
        }
        let caps = |two, odd| RadixCaps { two, odd, tens: 0, pair_two: 0 };
        assert_eq!(factorize_with(1024, caps(8, 1)), Some(vec![8, 8, 8, 2]));
        assert_eq!(factorize_with(6561, caps(16, 27)), Some(vec![27, 27, 9]));
        assert_eq!(factorize_with(3000, caps(16, 27)), Some(vec![8, 25, 15]));
        assert_eq!(factorize_with(252, caps(16, 27)), Some(vec![4, 21, 3]));
        assert_eq!(factorize_with(16807, caps(16, 27)), Some(vec![7, 7, 7, 7, 7]));
        assert_eq!(factorize(1024), Some(vec![16, 16, 4]));
        assert_eq!(factorize_with(8192, caps(32, 27)), Some(vec![32, 32, 8]));
        // A radix-2 pass joins an odd pass (pair_two) in its place, and the caps say which.
        let paired = |n, two, odd, pair_two| factorize_with(n, RadixCaps { two, odd, tens: 0, pair_two });
        assert_eq!(paired(6174, 16, 21, 7), Some(vec![14, 21, 21]));
        assert_eq!(paired(7680, 16, 1, 3), Some(vec![16, 16, 6, 5]));
        assert_eq!(paired(7680, 16, 27, 3), Some(vec![16, 16, 2, 15]), "the 3 sits inside a 15");
        assert_eq!(paired(8190, 16, 21, 15), Some(vec![30, 21, 13]));
        assert_eq!(paired(8190, 16, 21, 9), Some(vec![2, 21, 15, 13]), "no 9 to join");
        assert_eq!(paired(4096, 16, 27, 3), Some(vec![16, 16, 16]));
        for p in [vec![14, 21, 21], vec![16, 16, 6, 5], vec![30, 21, 13], vec![18, 5, 5, 5], vec![26, 9, 9]] {
            assert_eq!(factorize_with(p.iter().product(), pass_caps(&p)), Some(p.clone()), "{p:?}");
        }
        // Every row and column kernel's passes rebuild from their caps (the twiddle table's key).
        for n in 2..=10000 {
            for column in [false, true] {
                if let Ok(k) = StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, n, column, false, SHARED_SM90) {
                    assert_eq!(factorize_with(n, pass_caps(&k.passes)).as_ref(), Some(&k.passes), "{n} column {column}");
                }
            }
        }
    }

    #[test]
    fn a_radix_2_pass_joins_the_odd_pass_that_leaves_fewest_lane_slots() {
        let passes = |n| StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, n, false, false, SHARED_SM90).unwrap().passes;
        assert_eq!(passes(6174), vec![14, 21, 21], "threads per transform kept: 294");
        assert_eq!(passes(5670), vec![30, 9, 7, 3], "on 189 threads; rule 1 gives 6 15 9 7 on 378");
        assert_eq!(passes(8190), vec![30, 21, 13]);
        assert_eq!(passes(3750), vec![30, 5, 5, 5], "the 3 sits inside a 15");
        assert_eq!(passes(646), vec![2, 19, 17], "no odd pass of PAIRABLE_ODD");
        assert_eq!(passes(1000), vec![10, 10, 10], "no radix-2 pass");
        // Double precision and column kernels keep their radix-2 passes.
        assert_eq!(StockhamKernel::new(FftPrecision::F64, FftPrecision::F64, 6174, false, false, SHARED_SM90).unwrap().passes, vec![2, 21, 21, 7]);
        assert!(StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, 126, true, false, SHARED_SM90).unwrap().passes.contains(&2));
        // Each paired radix has a butterfly that passes validation.
        for (p, n) in PAIRABLE_ODD.into_iter().zip([7680, 6174, 1458, 242, 2106, 3750]) {
            let k = StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, n, false, false, SHARED_SM90).unwrap();
            assert!(k.passes.contains(&(2 * p)) && k.source().contains(&format!("struct rm_dft_{} ", 2 * p)), "{n}: {:?}", k.passes);
        }
        // Validation takes the doubles of PAIRABLE_ODD, not odd radices without a butterfly.
        let k = StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, 6, false, false, SHARED_SM90).unwrap();
        let with = |n: usize| StockhamKernel { n, passes: vec![n], ..k.clone() }.validate(SHARED_SM90);
        assert!(with(26).is_ok() && with(30).is_ok());
        assert_eq!((with(23), with(31), with(34)), (Err("no butterfly for radix 23".into()), Err("no butterfly for radix 31".into()), Err("no butterfly for radix 34".into())));
        // The static check compiles each paired radix for NVIDIA and AMD, single and half.
        for limit in [SHARED_SM90, SHARED_CDNA] {
            let checked = check_kernels(limit);
            for p in PAIRABLE_ODD {
                for precision in [FftPrecision::F32, FftPrecision::F16] {
                    assert!(checked.iter().any(|k| k.input == precision && k.passes.contains(&(2 * p))), "radix {} {precision:?} at {limit} bytes", 2 * p);
                }
            }
        }
    }

    #[test]
    fn long_power_of_two_rows_take_radix_32_and_pad_every_32() {
        use FftPrecision::*;
        let row = |p, n| StockhamKernel::new(p, p, n, false, false, SHARED_SM90).unwrap();
        for p in FftPrecision::ALL {
            let k = row(p, 8192);
            assert_eq!((k.passes.clone(), k.tpt, k.pad_shift()), (vec![32, 32, 8], 256, 5), "{p:?}");
            assert!(k.row_stride() >= 8192 + 256 + 1);
            let src = k.source();
            assert!(src.contains("#define RM_FFT_PAD_SHIFT 5") && src.contains("struct rm_dft_32 "));
        }
        assert_eq!(row(F32, 16384).passes, vec![32, 32, 16]);
        // Shorter and non-power-of-two rows keep radix 16 and the 16-element padding.
        for n in [4096, 12288] {
            let k = row(F32, n);
            assert_eq!((pass_caps(&k.passes).two, k.pad_shift()), (16, 4), "{n}");
            assert!(!k.source().contains("#define RM_FFT_PAD_SHIFT 5"));
        }
        // Column passes keep their radix.
        assert_eq!(StockhamKernel::new(F32, F32, 2048, true, false, SHARED_SM90).unwrap().passes, vec![16, 16, 8]);
    }

    #[test]
    fn stage_twiddles_hold_one_block_per_later_pass() {
        // 32 = 16 x 2: the radix-2 pass after 16 points reads exp(-2 pi i k / 32), k < 16.
        assert_eq!(stage_twiddles(&[16, 2]), (0..16).map(|k| (k, 32)).collect::<Vec<_>>());
        assert_eq!(stage_offsets(&[16, 2]), vec![0, 0]);
        // 60 = 5 x 4 x 3: after 5 points radix 4 (r = 1..3, k < 5), after 20 radix 3 (r = 1, 2, k < 20).
        let t = stage_twiddles(&[5, 4, 3]);
        assert_eq!(t.len(), 3 * 5 + 2 * 20);
        assert_eq!(stage_offsets(&[5, 4, 3]), vec![0, 0, 15]);
        assert_eq!(t[5 + 2], (2 * 2, 20)); // r = 2, k = 2 of the radix-4 pass
        assert_eq!(t[15 + 20 + 7], (7 * 2, 60)); // r = 2, k = 7 of the radix-3 pass
        assert!(stage_twiddles(&[16]).is_empty() && stage_twiddles(&[]).is_empty());
    }

    #[test]
    fn row_strides_spread_a_transaction_over_the_banks() {
        // Every (row, element) pair of one 128-byte transaction lands on its own bank group.
        for p in [FftPrecision::F32, FftPrecision::F64] {
            for (n, column) in [(64, false), (256, true), (1024, true), (2048, true), (4096, false), (1000, false)] {
                let k = StockhamKernel::new(p, p, n, column, false, SHARED_SM90).unwrap();
                let phase = 128 / p.compute_complex_bytes();
                let stride = k.row_stride();
                assert!(stride >= padded_row(n, k.pad_shift()));
                let slots: Vec<usize> = (0..phase)
                    .map(|tid| {
                        let (t, lt) = if column { (tid % k.tpb, tid / k.tpb) } else { (tid / k.tpt, tid % k.tpt) };
                        (t * stride + padded_row(lt, k.pad_shift()) - 1) % phase
                    })
                    .collect();
                let mut distinct = slots.clone();
                distinct.sort();
                distinct.dedup();
                assert_eq!(distinct.len(), phase, "{}: stride {stride}, slots {slots:?}", k.module_name());
            }
        }
    }

    #[test]
    fn twiddles_ahead_of_the_barrier_and_room_for_six_blocks_of_200() {
        use FftPrecision::*;
        let row = |p, n| StockhamKernel::new(p, p, n, false, false, SHARED_SM90).unwrap();
        // 1000 = 10 10 10: the first pass leaves its wait to the second (2), the second reads its
        // twiddles before it and leaves its own to the third (3), the third only reads ahead (1).
        let k = row(F32, 1000);
        let src = k.source();
        for bits in ["rm_dft_10, SRC, 0, 0, 0, 0, 1, 2>(", "rm_dft_10, 0, 0, 0, 0, 6, 0, 3>(", "rm_dft_10, 0, 1, 0, 6, 0, 0, 1>("] {
            assert!(src.contains(bits), "{bits}");
        }
        assert_eq!((k.threads(), k.min_blocks()), (200, 6));
        assert!(src.contains("RM_LAUNCH_BOUNDS_BLOCKS(200, 6) void fft_ss_n1000_"));
        assert_eq!((row(F32, 2000).threads(), row(F32, 2000).min_blocks()), (200, 6));
        // Not f64 (double 2^20 lost 24 %; double 1000 spilled at 40 registers), not 100 points
        // on 250 threads, not cluster kernels (32768 lost 10 %), not real kernels (not measured).
        let double = row(F64, 1000);
        assert!(!double.tw_ahead_passes().contains(&true) && double.min_blocks() == 1 && double.source().contains("rm_dft_10, 0, 1, 0, 0, 0, 0>("));
        assert_eq!(row(F32, 100).min_blocks(), 1);
        assert_eq!((row(F32, 1600).threads(), row(F32, 1600).min_blocks()), (200, 1), "radix 16 on 100 threads spills at 40 registers");
        assert!(!cluster_split(F32, F32, 32768, SHARED_SM90).unwrap().tw_ahead_passes().contains(&true));
        // Only passes whose butterflies fill each thread's iterations alike: 3000 = 8 5 5 5 3 on
        // 375 threads has 600 radix-5 and 1000 radix-3 butterflies (none ahead); 7000 = 8 25 7 5
        // on 280 has 280 radix-25 and 1400 radix-5 ones (ahead) but 1000 radix-7 ones.
        assert_eq!(row(F32, 3000).tw_ahead_passes(), [false; 5]);
        assert_eq!(row(F32, 7000).tw_ahead_passes(), [false, true, false, true]);
        let src = row(F32, 7000).source();
        for bits in ["rm_dft_8, SRC, 0, 0, 0, 0, 0, 2>(", "rm_dft_25, 0, 0, 0, 0, 1, 0, 1>(", "rm_dft_7, 0, 0, 0, 1, 1, 0, 2>(", "rm_dft_5, 0, 1, 0, 1, 0, 0, 1>("] {
            assert!(src.contains(bits), "{bits}");
        }
        assert_eq!(row(F32, 1000).with_dir(-1).with_real_post().unwrap().min_blocks(), 1);
        // One pass: nothing to read ahead of.
        let one = row(F32, 16).source();
        assert!(one.contains("rm_dft_16, SRC, 1, 0, 0, 0, 0>(row"), "{one}");
        // The variants a plan compiles beside a kernel: with no pass ahead (every pass waits at
        // its own end again), with no exchange layouts, with neither; each named apart, and only
        // where it differs.
        let k = row(F32, 7680);
        let variants = k.variants();
        assert_eq!(variants.len(), 1, "7680 has no exchange layouts");
        let twin = &variants[0];
        assert_eq!((k.tw_ahead_passes(), twin.tw_ahead_passes()), (vec![false, true, false, false], vec![false; 4]));
        assert_eq!(twin.module_name(), k.module_name().replace("_fwd", "_nta_fwd"));
        assert!(twin.source().contains("rm_dft_16, SRC, 0, 0, 0, 0, 0>(") && !k.source().contains("rm_dft_16, SRC, 0, 0, 0, 0, 0>("));
        assert_eq!(StockhamKernel { tw_ahead_off: false, ..twin.clone() }, k);
        // (646 = 2 19 17: no odd pass the radix-2 pass may join, so its first exchange's 4 pads
        // after every pair triple the row.)
        let k = row(F32, 646);
        let names: Vec<String> = k.variants().iter().map(|v| v.module_name()).collect();
        assert_eq!(k.module_name(), "fft_ss_n646_r2x19x17_t34_b3_xp4w4_fwd");
        assert_eq!(names, ["fft_ss_n646_r2x19x17_t34_b3_nta_xp4w4_fwd", "fft_ss_n646_r2x19x17_t34_b3_nx_fwd", "fft_ss_n646_r2x19x17_t34_b3_nta_nx_fwd"]);
        assert!(k.variants()[1].exchange_layouts().is_empty() && k.variants()[1].shared_bytes() * 2 < k.shared_bytes());
        // Powers of two have no exchange layouts; the leanest variant has no variants of its own.
        assert_eq!(row(F32, 4096).variants().len(), 1);
        assert!(k.variants()[2].variants().is_empty() && row(F32, 4096).variants()[0].variants().is_empty());
        assert!(row(F32, 3000).variants().iter().all(|v| v.layouts_off) && row(F64, 7680).variants().is_empty());
        // The pick: at least 1.5 times the kernel's blocks, the most, the first on a tie.
        assert_eq!(pick_variant(1, &[2]), Some(0));
        assert_eq!(pick_variant(2, &[3, 3, 2]), Some(0));
        assert_eq!(pick_variant(2, &[2, 3, 4]), Some(2));
        assert_eq!(pick_variant(4, &[5, 5, 5]), None);
        assert_eq!(pick_variant(6, &[]), None);
    }

    #[test]
    fn names_carry_parameters() {
        let k = StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, 1000, false, false, SHARED_SM90).unwrap();
        assert_eq!(k.module_name(), "fft_ss_n1000_r10x10x10_t100_b2_xp0w6_m6_fwd");
        let inverse = k.clone().with_dir(1);
        assert!(inverse.source().contains("void fft_ss_n1000_r10x10x10_t100_b2_xp0w6_m6_inv("));
        assert!(!inverse.source().contains("_fwd"));
        let plain = k.with_plain(true);
        assert_eq!(plain.module_name(), "fft_ss_n1000_r10x10x10_t100_b2_p_xp0w6_m6_fwd");
        assert!(plain.source().contains("rm_fft_io_plain<float, float, rm_c32> io;"));
        assert!(!plain.source().contains("#define RM_FFT_L2_PREFETCH"), "row order");
        // Plain column kernels carry the L2 prefetch hint of their strided loads; f32 column
        // kernels build the four-step twiddle by products, f64 ones read the step table.
        let column = StockhamKernel::new(FftPrecision::F32, FftPrecision::F32, 2048, true, false, SHARED_SM90).unwrap();
        assert_eq!(column.clone().with_plain(true).module_name(), "fft_ss_n2048_r16x16x8_t128_b4_col_p_l2p128_tr_fwd");
        assert!(column.clone().with_plain(true).source().contains("#define RM_FFT_L2_PREFETCH 128"));
        assert!(column.source().contains("#define RM_FFT_BIG_RECURRENCE 1"));
        // Column kernels fold both sides' padded shared-memory indices, the rest the stores.
        assert!(column.source().contains("#define RM_FFT_PAD_FOLD 3") && plain.source().contains("#define RM_FFT_PAD_FOLD 2"));
        assert!(!column.source().contains("#define RM_FFT_L2_PREFETCH"), "general load/store");
        let double = StockhamKernel::new(FftPrecision::F64, FftPrecision::F64, 1024, true, false, SHARED_SM90).unwrap();
        assert!(!double.module_name().contains("_tr") && !double.source().contains("#define RM_FFT_BIG_RECURRENCE 1"));
        assert!(StockhamKernel::new(FftPrecision::F16, FftPrecision::F32, 64, true, true, SHARED_CDNA).is_ok());
        assert!(StockhamKernel::new(FftPrecision::F16, FftPrecision::F64, 64, false, false, SHARED_SM90).is_err());
    }

    #[test]
    fn short_rows_stage_both_sides() {
        use FftPrecision::*;
        let row = |p, n| StockhamKernel::new(p, p, n, false, false, SHARED_SM90).unwrap();
        // Under 128 bytes of a transform per access: single to 8 threads (128 points), double to
        // 4 (64), half to 16 (256).
        for (p, staged, unstaged) in [(F32, 128, 256), (F64, 64, 128), (F16, 256, 512)] {
            assert!(row(p, staged).wants_staged_rows(), "{p:?} {staged}");
            assert!(!row(p, unstaged).wants_staged_rows(), "{p:?} {unstaged}");
        }
        let k = row(F32, 16).with_dir(-1).with_staged_rows().unwrap();
        assert_eq!(k.module_name(), "fft_ss_n16_r16_t1_b170_stio_fwd");
        // The last pass leaves the row (DST 0) and the kernel stores it in element order.
        assert!(k.source().contains("rm_dft_16, SRC, 0, 0, 0, 0, 0>(row, lt, tw, io);"));
        assert!(k.source().contains("rm_fft_stockham<float, float, 16, 33, 1, 170, -1, 0, 1, 1, "));
        // Column, cluster and Bluestein kernels keep their own ends; real post-processing
        // comes before the staging.
        assert!(StockhamKernel::new(F32, F32, 16, true, false, SHARED_SM90).unwrap().with_staged_rows().is_err());
        assert!(k.clone().with_real_post().is_err() && k.clone().with_bluestein().is_err() && k.with_cluster(2).is_err());
        // The real post-processing of staged rows runs in the rows; 17 points leave.
        let post = row(F32, 16).with_dir(-1).with_real_post().unwrap().with_staged_rows().unwrap();
        assert_eq!(post.module_name(), "fft_ss_n16_r16_t1_b170_stio_rpost_fwd");
        let src = post.source();
        assert!(src.contains("rm_fft_real_post<16, 1, 1>(row, lt, tw + 0, io);") && !src.contains("rm_fft_real_post<16, 1, 0>"));
        assert!(src.contains("rm_fft_stockham<float, float, 16, 33, 1, 170, -1, 0, 1, 1, 16, 17, "));
    }

    #[test]
    fn twiddle_products_where_a_block_holds_one_transform() {
        use FftPrecision::*;
        let kernel = |p, n, column| StockhamKernel::new(p, p, n, column, false, SHARED_SM90).unwrap();
        for (k, products) in [
            (kernel(F32, 8192, false), true),
            (kernel(F16, 8192, false), true),
            (kernel(F32, 4096, false).with_real_post().unwrap(), true),
            (kernel(F64, 8192, false), false),
            (kernel(F32, 1000, false), false),
            (kernel(F32, 4096, false).with_dir(1).with_real_pre().unwrap(), false),
            (kernel(F32, 2048, true), false),
        ] {
            assert_eq!(k.default_tw_products(), products, "{}", k.module_name());
        }
        // (1000's block holds two transforms; the others one.)
        assert!(kernel(F32, 1000, false).tpb > 1 && kernel(F32, 8192, false).tpb == 1);
    }

    #[test]
    fn real_inverse_pre_processing_fuses_into_the_kernel() {
        use FftPrecision::*;
        let row = |p, n| StockhamKernel::new(p, p, n, false, false, SHARED_SM90).unwrap();
        // 4096 = 16 16 16: the hermitian 4097 points read by pairs into the row, the passes from
        // there; its twiddles follow the two pass blocks (2 x 15 x 16 + 15 x 256).
        let k = row(F32, 4096).with_dir(1).with_real_pre().unwrap();
        assert!(!k.staged && !k.staged_out && k.real_pre);
        assert_eq!(k.module_name(), "fft_ss_n4096_r16x16x16_t256_b1_rpre_m4_inv");
        let src = k.source();
        assert!(src.contains(&format!("rm_fft_real_pre_load<4096, 256, 0>(row, lt, tw + {}, io);", stage_twiddles(&k.passes).len())));
        assert!(src.contains("rm_fft_stockham<float, float, 4096, ") && src.contains(", 0, 0, 4096, 4096, rm_fft_passes_"));
        assert!(src.contains("rm_dft_16, 0, 0, 0, 0, 0, 0, 2>(row, lt, tw, io);"), "the first pass reads the row");
        // Short ones stage both sides: the pre-processing runs on the staged row of 9 points.
        let short = row(F32, 8).with_dir(1).with_real_pre().unwrap();
        assert!(short.wants_staged_rows());
        let short = short.with_staged_rows().unwrap();
        assert!(short.source().contains(", 1, 1, 9, 8, rm_fft_passes_"), "{}", short.module_name());
        assert!(short.source().contains("rm_fft_real_pre_rows<8, 1, "));
        // f64 stages its load (measured faster).
        let double = row(F64, 512).with_dir(1).with_real_pre().unwrap();
        assert!(double.staged && double.source().contains("rm_fft_real_pre_rows<512, "), "{}", double.module_name());
        // Column-ordered blocks (staged already) take it; forward, Bluestein, cluster and real
        // post-processing kernels do not.
        assert!(StockhamKernel::new(F64, F64, 256, true, true, SHARED_SM90).unwrap().with_dir(1).with_real_pre().is_ok());
        assert!(row(F32, 4096).with_dir(-1).with_real_pre().is_err());
        assert!(row(F32, 4096).with_dir(1).with_real_pre().unwrap().with_bluestein().is_err());
        assert!(row(F32, 4096).with_dir(1).with_real_pre().unwrap().with_cluster(2).is_err());
        assert!(row(F32, 4096).with_dir(-1).with_real_post().unwrap().with_dir(1).with_real_pre().is_err());
        assert!(row(F32, 1).with_dir(1).with_real_pre().is_err(), "no pass");
    }

    #[test]
    fn transforms_inside_one_warp_wait_for_their_warp_only() {
        use FftPrecision::*;
        let row = |p, n| StockhamKernel::new(p, p, n, false, false, SHARED_SM90).unwrap();
        // 512 = 16 16 2 on 32 threads, 8 transforms a block: every wait is the warp's.
        let k = row(F32, 512).with_dir(1).with_real_pre().unwrap();
        assert!(k.warp_sync(), "{}", k.module_name());
        let src = k.source();
        assert!(src.contains("rm_fft_real_pre_load<512, 32, 1>(") && src.contains("rm_dft_16, 0, 0, 1, 0, 0, 0, 2>(") && src.contains("rm_dft_16, 0, 0, 1, 0, 0, 0, 3>("));
        assert!(src.contains("rm_dft_2, 0, 1, 1, 0, 0, 0, 1>("));
        // (Real kernels of 256 threads ask room for 4 blocks, 3 for this inverse on 32 threads;
        // the complex one leaves it free.)
        let forward = row(F32, 512).with_dir(-1).with_real_post().unwrap();
        let longer = row(F32, 4096).with_dir(1).with_real_pre().unwrap();
        assert_eq!((k.min_blocks(), forward.min_blocks(), longer.min_blocks(), row(F32, 512).min_blocks()), (3, 4, 4, 1));
        // 4096 on 256 threads spans warps; so does any column-ordered block.
        assert!(!row(F32, 4096).warp_sync() && !StockhamKernel::new(F32, F32, 64, true, false, SHARED_SM90).unwrap().warp_sync());
        // A staged store reads every row of the block after the last pass: that wait stays the
        // block's, the earlier ones are the warp's.
        let short = row(F32, 64).with_staged_rows().unwrap();
        assert!(short.staged_out && short.warp_sync(), "{}", short.module_name());
        let src = short.source();
        assert!(src.contains("rm_dft_16, SRC, 0, 1, 0, 0, 0, 2>(") && src.contains("rm_dft_4, 0, 0, 0, 0, 0, 0, 1>("), "{src}");
        // Every kernel that claims it keeps whole warps of whole transforms.
        for n in [2usize, 8, 16, 64, 128, 256, 512, 1000, 1024, 4096] {
            for p in [F32, F64, F16] {
                let Ok(k) = StockhamKernel::new(p, p, n, false, false, SHARED_SM90) else { continue };
                if k.warp_sync() {
                    assert!(32 % k.tpt == 0 && k.threads() % 64 == 0 && !k.column, "{}", k.module_name());
                }
            }
        }
    }

    #[test]
    fn lane_range_is_assumed_where_it_measured_faster() {
        use FftPrecision::*;
        let row = |p, n| StockhamKernel::new(p, p, n, false, false, SHARED_SM90).unwrap();
        // Single and half with threads per transform a power of two: yes, through the define.
        for k in [row(F32, 512), row(F16, 4096), row(F32, 64).with_staged_rows().unwrap(), row(F32, 128).with_real_post().unwrap()] {
            assert!(k.assume_lane() && k.source().contains("#define RM_FFT_ASSUME_LANE 1"), "{}", k.module_name());
        }
        // 1000 on 125 threads, double, and cluster kernels: no (and the module names say nothing).
        let mut one_block = row(F32, 2048);
        one_block.tpb = 1;
        let cluster = one_block.with_cluster(8).unwrap();
        for k in [row(F32, 1000), row(F64, 512), cluster] {
            assert!(!k.assume_lane() && !k.source().contains("RM_FFT_ASSUME_LANE 1") && !k.module_name().contains("_al"), "{}", k.module_name());
        }
    }
}
