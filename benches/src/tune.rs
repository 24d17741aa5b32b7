//! rocmath-tune's logic, device-free where it can be: the command line, the sizes, the table
//! keys, the tuning core (validate every candidate against the reference, then time it) and the
//! table merge. The binary (`src/bin/rocmath-tune.rs`) binds it to a device and the BLAS API.

use crate::gemm::{check, sample_columns, time_calls, DeviceData, HostData, Problem};
use rocmath_blas::{GemmConfig, GemmFamily, GemmVariant, Operation};
use rocmath_runtime::Queue;
use rocmath_tests::Num;
use rocmath_tuning::{arch_keys, GemmEntry, GemmTable};
use std::fmt;
use std::path::{Path, PathBuf};

pub const USAGE: &str = "usage: rocmath-tune gemm --precision P --transA N|T|C --transB N|T|C --sizes MxNxK[xBATCH],...
                   [--device cuda[:N]|hip[:N]] [--out DIR] [--iters N] [--warmup N]
                   [--max-candidates N] [--variants V,...] [--filter TEXT] [--dry-run [--arch A]]
  --precision      s d c z h hss bss hhs bbs xf32 i8 (xf32: f32 with TF32 products; i8: exact check)
  --sizes          comma-separated; BATCH (default 1) makes a strided-batched problem
  --device         the GPU to tune on (default: ROCMATH_DEVICE, else the best present); the CPU
                   device has no kernel configs, so tuning on it is an error
  --out            table directory (default tuning/tables); the table for the device's arch,
                   types and layout is merged into (tuned sizes replaced), else created
  --iters/--warmup event-timed samples (median; each of back-to-back runs lasting 0.5 ms) and
                   untimed runs per candidate (default 10 / 3)
  --max-candidates at most N candidates per size: the arch fallback, then N-1 spread evenly over
                   the generator's list
  --variants       only candidates of these variants (fma, mma, mfma, wgmma), plus the fallback
  --filter         only candidates whose name contains TEXT (e.g. `p_`: the persistent ones;
                   `mt16x,mt32x`: either), plus the fallback
  (A size the table already has an entry for also times that entry's config, so a re-tune
  with fewer candidates never replaces a faster pick with a slower one.)
  --dry-run        print the candidates and exit; --arch lists them for an arch without a device";

/// Default table directory (relative to the repository root).
pub const DEFAULT_OUT: &str = "tuning/tables";

/// Multiply-adds per checked matrix for the tuner's reference check: every candidate of every
/// size is checked, so smaller than the bench's budget (the columns are spread instead).
pub const TUNE_CHECK_MACS: usize = 1 << 24;

/// One problem size of the tuning run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub batch: usize,
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}x{}", self.m, self.n, self.k)?;
        if self.batch != 1 {
            write!(f, "x{}", self.batch)?;
        }
        Ok(())
    }
}

/// `MxNxK[xBATCH],...`: each size at least 1, none twice.
pub fn parse_sizes(text: &str) -> Result<Vec<Size>, String> {
    let mut sizes: Vec<Size> = Vec::new();
    for item in text.split(',').map(str::trim) {
        if item.is_empty() {
            return Err(format!("--sizes: empty size in `{text}`"));
        }
        let dims: Vec<usize> = item
            .split(['x', 'X'])
            .map(|d| d.trim().parse::<usize>().ok().filter(|&v| v >= 1))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("--sizes: `{item}` is not MxNxK[xBATCH] with sizes >= 1"))?;
        let size = match dims[..] {
            [m, n, k] => Size { m, n, k, batch: 1 },
            [m, n, k, batch] => Size { m, n, k, batch },
            _ => return Err(format!("--sizes: `{item}` is not MxNxK[xBATCH]")),
        };
        if size.m > i32::MAX as usize || size.n > i32::MAX as usize || size.k > i32::MAX as usize {
            return Err(format!("--sizes: `{item}` does not fit rocblas_int"));
        }
        if sizes.contains(&size) {
            return Err(format!("--sizes: {size} given twice"));
        }
        sizes.push(size);
    }
    Ok(sizes)
}

/// `rocmath-tune gemm` options.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneArgs {
    pub family: GemmFamily,
    pub trans_a: Operation,
    pub trans_b: Operation,
    pub sizes: Vec<Size>,
    pub device: Option<String>,
    /// Dry run only: list the candidates for this arch instead of the device's.
    pub arch: Option<String>,
    pub out: PathBuf,
    pub iters: usize,
    pub warmup: usize,
    pub max_candidates: Option<usize>,
    /// Only the generator's candidates of these variants (plus the arch fallback).
    pub variants: Option<Vec<GemmVariant>>,
    /// Only the generator's candidates whose tag contains this (plus the arch fallback).
    pub filter: Option<String>,
    pub dry_run: bool,
}

/// Parses the options after `gemm`. `--precision` is required, and `--sizes` unless dry-running.
pub fn parse_args(args: &[String]) -> Result<TuneArgs, String> {
    let mut family = None;
    let (mut trans_a, mut trans_b) = (Operation::None, Operation::None);
    let mut sizes = None;
    let (mut device, mut arch, mut out) = (None, None, PathBuf::from(DEFAULT_OUT));
    let (mut iters, mut warmup, mut max_candidates, mut dry_run) = (10, 3, None, false);
    let (mut variants, mut filter) = (None, None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        let num = |v: String| v.parse::<usize>().map_err(|_| format!("{flag}: {v} is not a count"));
        match flag.as_str() {
            "--precision" | "-r" => {
                let p = value()?.to_ascii_lowercase();
                family = Some(GemmFamily::from_tag(&p).ok_or_else(|| format!("--precision: unknown {p}"))?);
            }
            "--transA" | "--transposeA" => trans_a = Operation::from_letter(&value()?).ok_or("--transA takes N, T or C")?,
            "--transB" | "--transposeB" => trans_b = Operation::from_letter(&value()?).ok_or("--transB takes N, T or C")?,
            "--sizes" => sizes = Some(parse_sizes(&value()?)?),
            "--device" => device = Some(value()?),
            "--arch" => arch = Some(value()?),
            "--out" => out = PathBuf::from(value()?),
            "--iters" | "-i" => iters = num(value()?)?.max(1),
            "--warmup" | "-j" => warmup = num(value()?)?,
            "--max-candidates" => match num(value()?)? {
                0 => return Err("--max-candidates must be at least 1".into()),
                n => max_candidates = Some(n),
            },
            "--variants" => {
                let list = value()?;
                let parsed = list
                    .split(',')
                    .map(|v| GemmVariant::ALL.into_iter().find(|x| x.tag() == v.trim()).ok_or_else(|| format!("--variants: unknown {v}")))
                    .collect::<Result<Vec<_>, _>>()?;
                variants = Some(parsed);
            }
            "--filter" => filter = Some(value()?),
            "--dry-run" => dry_run = true,
            other => return Err(format!("unknown option {other}")),
        }
    }
    let family = family.ok_or("--precision is required")?;
    if arch.is_some() && !dry_run {
        return Err("--arch only lists candidates (with --dry-run): tuning measures the device's own arch".into());
    }
    if arch.is_some() && device.is_some() {
        return Err("--arch and --device exclude each other".into());
    }
    let sizes = match sizes {
        Some(s) => s,
        None if dry_run => Vec::new(),
        None => return Err("--sizes is required".into()),
    };
    Ok(TuneArgs { family, trans_a, trans_b, sizes, device, arch, out, iters, warmup, max_candidates, variants, filter, dry_run })
}

/// The arch a table is stored under for a device arch: feature suffixes dropped
/// (`gfx90a:sramecc+:xnack-` -> `gfx90a`), NVIDIA arch-specific names reduced to their base
/// (`sm_90a` -> `sm_90`: a table for sm_90 serves sm_90a).
pub fn table_arch(arch: &str) -> String {
    arch_keys(arch).last().copied().unwrap_or(arch).to_string()
}

/// The table layout tag (`nt`, ...): real families have no conjugate kernels, so C is T.
pub fn layout_tag(family: GemmFamily, trans_a: Operation, trans_b: Operation) -> String {
    let tag = |op: Operation| match (op, family.is_complex()) {
        (Operation::None, _) => 'n',
        (Operation::Transpose, _) | (Operation::ConjugateTranspose, false) => 't',
        (Operation::ConjugateTranspose, true) => 'c',
    };
    format!("{}{}", tag(trans_a), tag(trans_b))
}

/// At most `max` of `all` (the generator's list): `fallback` first (added if `all` lacks it), then
/// `max - 1` of the others spread evenly over the list (first and last included). All of them
/// when `max` is `None` or at least the list's length (the fallback still first).
pub fn pick_candidates(all: &[GemmConfig], fallback: GemmConfig, max: Option<usize>) -> Vec<GemmConfig> {
    let others: Vec<GemmConfig> = all.iter().copied().filter(|c| *c != fallback).collect();
    let keep = max.unwrap_or(usize::MAX).saturating_sub(1).min(others.len());
    let mut out = vec![fallback];
    if keep == others.len() {
        out.extend(others);
    } else if keep == 1 {
        out.push(others[0]);
    } else if keep > 1 {
        // Distinct indices: the step (len - 1) / (keep - 1) is at least 1 when keep < len.
        out.extend((0..keep).map(|i| others[i * (others.len() - 1) / (keep - 1)]));
    }
    out
}

/// Whether a candidate's name passes `--filter`: it contains one of the comma-separated parts.
pub fn passes_filter(tag: &str, filter: &str) -> bool {
    filter.split(',').any(|part| tag.contains(part))
}

/// The candidates worth timing at `size`. For a batched size, a config whose macro tile pads one
/// matrix to more than 1.5 times the area that the tightest candidate pads it to is dropped: the
/// grid already has a block per problem, so the padding is pure waste and such a config cannot
/// win (e.g. 128x128 tiles on 32x32 matrices). A single problem keeps every candidate (large
/// tiles win there through reuse, and skinny shapes are decided by measurement).
pub fn fitting_candidates(all: &[GemmConfig], size: &Size) -> Vec<GemmConfig> {
    if size.batch <= 1 {
        return all.to_vec();
    }
    let padded = |c: &GemmConfig| size.m.div_ceil(c.mt[0] as usize) * c.mt[0] as usize * size.n.div_ceil(c.mt[1] as usize) * c.mt[1] as usize;
    let Some(tightest) = all.iter().map(padded).min() else { return Vec::new() };
    all.iter().copied().filter(|c| 2 * padded(c) <= 3 * tightest).collect()
}

/// `candidates` with every split-K config that would run unsplit at `size` (its count capped by
/// the size's K tiles or workspace, `gemm_split_slices`) replaced by its unsplit twin, duplicates
/// dropped: a table entry then never names a split count its own size does not run (the blas
/// test `table_entries_keep_their_split_counts`), and the same kernel is not timed twice.
pub fn splitting_candidates(family: GemmFamily, candidates: &[GemmConfig], size: &Size) -> Vec<GemmConfig> {
    let mut out: Vec<GemmConfig> = Vec::new();
    for c in candidates {
        let twin = GemmConfig { split_k: 1, ..*c };
        let runs_unsplit = c.split_k > 1 && rocmath_blas::gemm_split_slices(family, c, [size.m, size.n, size.k]) == 1;
        let c = if runs_unsplit && twin.validate(family).is_ok() { twin } else { *c };
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Today's date in UTC, `yyyy-mm-dd`, from the system clock.
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// (year, month, day) of a day count since 1970-01-01 (proleptic Gregorian; H. Hinnant's
/// `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Warm-up and timed runs per candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    pub warmup: usize,
    pub iters: usize,
}

/// What became of one candidate at one size.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Correct, and timed: median milliseconds and the throughput.
    Timed { ms: f64, gflops: f64 },
    /// Failed to compile or launch, or gave a wrong result: never written to a table.
    Rejected(String),
}

/// One candidate's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Tried {
    pub solution: String,
    pub verdict: Verdict,
}

/// Every candidate's verdict at one size.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeOutcome {
    pub size: Size,
    pub tried: Vec<Tried>,
}

impl SizeOutcome {
    /// The candidates that were timed.
    pub fn valid(&self) -> usize {
        self.tried.iter().filter(|t| matches!(t.verdict, Verdict::Timed { .. })).count()
    }

    /// The fastest timed candidate and its GFLOP/s (the first of equals).
    pub fn winner(&self) -> Option<(&str, f64)> {
        let mut best: Option<(&str, f64)> = None;
        for t in &self.tried {
            if let Verdict::Timed { gflops, .. } = t.verdict {
                match best {
                    Some((_, g)) if gflops <= g => {}
                    _ => best = Some((&t.solution, gflops)),
                }
            }
        }
        best
    }

    /// The table entry for this size: the winner, its throughput, how many candidates were timed.
    pub fn entry(&self) -> Option<GemmEntry> {
        let (solution, gflops) = self.winner()?;
        let s = self.size;
        let mut e = GemmEntry::new(s.m as u64, s.n as u64, s.k as u64, s.batch as u64, solution);
        e.gflops = Some(round_significant(gflops, 4));
        e.candidates = Some(self.valid() as u32);
        Some(e)
    }
}

/// `x` to `digits` significant figures: a table's throughput stays readable at every scale, and a
/// tiny size's small but real rate (0.02 GF/s) is not written as 0.
fn round_significant(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(digits - 1 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

/// Tunes one size. For each candidate `i` of `solutions`, in order: C is reset to `host.c`, the
/// candidate runs once (`run(i, data)`: one call of the op on the device buffers) and its result
/// is checked against the reference on a spread sample of columns; only then is it timed
/// ([`tune_size_with`]).
#[allow(clippy::too_many_arguments)]
pub fn tune_size<In: Num, Out: Num>(
    q: &Queue,
    p: &Problem,
    host: &HostData<In, Out>,
    data: &mut DeviceData<In, Out>,
    compute_roundoff: f64,
    solutions: &[String],
    timing: Timing,
    mut run: impl FnMut(usize, &mut DeviceData<In, Out>) -> Result<(), String>,
) -> SizeOutcome {
    let cols = sample_columns(p, TUNE_CHECK_MACS, true);
    tune_size_with(q, p, p.flops(In::IS_COMPLEX || Out::IS_COMPLEX), solutions, timing, |i, checked| {
        if !checked {
            return run(i, data);
        }
        data.reset_c(q, host)?;
        run(i, data).map_err(|e| format!("run failed: {e}"))?;
        q.synchronize().map_err(|e| format!("run failed: {e}"))?;
        let got = data.c.to_vec(q).map_err(|e| e.to_string())?;
        check(p, host, &got, &cols, compute_roundoff, "candidate").map(drop)
    })
}

/// Tunes one size of `flops` operations a call. For each candidate `i` of `solutions`, in order:
/// `call(i, true)` runs it once on fresh inputs and checks its result (Err: the reason it is
/// rejected); only then is it timed by `call(i, false)`, one plain call of the op
/// (`timing.warmup` untimed runs, the median of `timing.iters` event-timed samples of
/// back-to-back runs, `time_calls`). A candidate whose run fails or whose result is wrong is
/// reported and skipped. Prints `[i/N] size solution GF/s` per candidate and the winner.
pub fn tune_size_with(
    q: &Queue,
    p: &Problem,
    flops: f64,
    solutions: &[String],
    timing: Timing,
    mut call: impl FnMut(usize, bool) -> Result<(), String>,
) -> SizeOutcome {
    let size = Size { m: p.m, n: p.n, k: p.k, batch: p.batch };
    let mut tried = Vec::with_capacity(solutions.len());
    for (i, solution) in solutions.iter().enumerate() {
        let verdict = match call(i, true).and_then(|_| time_calls(q, timing.warmup, timing.iters, None, || call(i, false)).map(|t| t.ms).map_err(|e| format!("timed run failed: {e}"))) {
            Ok(ms) => Verdict::Timed { ms, gflops: flops / ms / 1e6 },
            Err(why) => Verdict::Rejected(why),
        };
        match &verdict {
            Verdict::Timed { ms, gflops } => println!("[{}/{}] {size} {solution} {gflops:.1} GF/s ({ms:.4} ms)", i + 1, solutions.len()),
            Verdict::Rejected(why) => println!("[{}/{}] {size} {solution} REJECTED: {why}", i + 1, solutions.len()),
        }
        tried.push(Tried { solution: solution.clone(), verdict });
    }
    let outcome = SizeOutcome { size, tried };
    match outcome.winner() {
        Some((solution, gflops)) => println!("winner {size}: {solution} {gflops:.1} GF/s ({} of {} candidates valid)", outcome.valid(), solutions.len()),
        None => println!("winner {size}: none (no candidate of {} was valid)", solutions.len()),
    }
    outcome
}

/// The header of the table the tuner writes.
#[derive(Clone, Debug, PartialEq)]
pub struct TableHeader {
    pub arch: String,
    pub types: String,
    pub layout: String,
    pub generator: String,
    /// Used when the table is created (an existing table of the same generator keeps its own).
    pub fallback: String,
    pub device: String,
    pub date: String,
}

impl TableHeader {
    /// The header's table with no entries; its `relative_path` is where the table lives under `out`.
    fn empty_table(&self) -> GemmTable {
        GemmTable::new(&self.arch, &self.types, &self.layout, &self.generator, &self.fallback)
    }
}

/// The config the table in `out` (this header's arch, types and layout, current generator)
/// holds for exactly `size`, if any: the incumbent a re-tune has to beat.
pub fn incumbent(out: &Path, header: &TableHeader, size: &Size) -> Option<GemmConfig> {
    let path = out.join(header.empty_table().relative_path());
    let table = GemmTable::from_json(&path, &std::fs::read_to_string(&path).ok()?).ok()?;
    if table.generator != header.generator {
        return None;
    }
    let key = [size.m, size.n, size.k, size.batch].map(|v| v as u64);
    let e = table.entries().iter().find(|e| [e.m, e.n, e.k, e.batch] == key)?;
    GemmConfig::parse(&e.solution).ok()
}

/// Writes the winners of `outcomes` into `<out>/<arch>/gemm_<types>_<layout>.json`: merged into
/// the existing table when it comes from the same generator (entries of other sizes kept, the
/// tuned sizes replaced), else into a new table with `header.fallback` (a table from another
/// generator is stale and replaced whole). Sizes without a valid candidate are left out. The
/// header's date and generator are set and `tuned` becomes true. The header's device becomes the
/// table's, unless the existing table was tuned on another device and keeps entries from it:
/// then the table keeps its device and each new entry names the header's (`device`). An existing
/// file that does not load is an error (never overwritten). Returns the path and notes for the user.
pub fn write_table(out: &Path, header: &TableHeader, outcomes: &[SizeOutcome]) -> Result<(PathBuf, Vec<String>), String> {
    let fresh = header.empty_table();
    let path = out.join(fresh.relative_path());
    let mut notes = Vec::new();
    let mut table = match std::fs::read_to_string(&path) {
        Ok(text) => {
            let old = GemmTable::from_json(&path, &text).map_err(|e| format!("cannot merge into the existing table: {e} (fix or remove it)"))?;
            if old.generator != header.generator {
                notes.push(format!("replacing a stale table ({} entries from generator {})", old.entries().len(), old.generator));
                fresh
            } else {
                notes.push(format!("merging into the existing table ({} entries)", old.entries().len()));
                if old.tuned && old.device != header.device {
                    notes.push(format!("its entries were measured on {}; the new entries name {}", old.device, header.device));
                }
                old
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => fresh,
        Err(e) => return Err(format!("{}: cannot read: {e}", path.display())),
    };
    let mut elsewhere = table.tuned && table.device != header.device;
    let mut added = 0;
    for o in outcomes {
        match o.entry() {
            Some(e) => {
                table.upsert_entry(GemmEntry { device: elsewhere.then(|| header.device.clone()), ..e });
                added += 1;
            }
            None => notes.push(format!("{}: no valid candidate, no entry", o.size)),
        }
    }
    if added == 0 {
        return Err(format!("no size had a valid candidate: {} not written", path.display()));
    }
    // Where every entry is now from the header's device (each size re-tuned there), that is the
    // table's device again.
    if elsewhere && table.entries().iter().all(|e| e.device.as_deref() == Some(header.device.as_str())) {
        for e in table.entries().to_vec() {
            table.upsert_entry(GemmEntry { device: None, ..e });
        }
        elsewhere = false;
    }
    if !elsewhere {
        table.device = header.device.clone();
    }
    table.generator = header.generator.clone();
    table.date = header.date.clone();
    table.tuned = true;
    let written = table.write_to(out).map_err(|e| e.to_string())?;
    Ok((written, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn throughput_keeps_four_significant_figures() {
        assert_eq!(round_significant(52928.44, 4), 52930.0);
        assert_eq!(round_significant(0.018_46, 4), 0.01846);
        assert_eq!(round_significant(0.6, 4), 0.6);
        assert_eq!(round_significant(0.0, 4), 0.0);
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_sizes("1024x1024x1024").unwrap(), vec![Size { m: 1024, n: 1024, k: 1024, batch: 1 }]);
        assert_eq!(
            parse_sizes("16x8192x8192, 32x32x32x10000,1X2X3").unwrap(),
            vec![Size { m: 16, n: 8192, k: 8192, batch: 1 }, Size { m: 32, n: 32, k: 32, batch: 10000 }, Size { m: 1, n: 2, k: 3, batch: 1 }]
        );
        for bad in ["", "1024", "1x2", "1x2x3x4x5", "0x1x1", "1x1x1x0", "ax1x1", "1x1x1,", "-1x2x3", "1x1x3000000000"] {
            assert!(parse_sizes(bad).is_err(), "{bad:?} should be rejected");
        }
        assert!(parse_sizes("2x2x2,2x2x2x1").unwrap_err().contains("twice"));
        assert_eq!(Size { m: 1, n: 2, k: 3, batch: 1 }.to_string(), "1x2x3");
        assert_eq!(Size { m: 1, n: 2, k: 3, batch: 4 }.to_string(), "1x2x3x4");
    }

    #[test]
    fn args_parse() {
        let a = parse_args(&args("--precision HSS --transA N --transB T --sizes 64x64x64,8x8x8x3")).unwrap();
        assert_eq!(a.family, GemmFamily::Hss);
        assert_eq!((a.trans_a, a.trans_b), (Operation::None, Operation::Transpose));
        assert_eq!(a.sizes.len(), 2);
        assert_eq!((a.out.as_path(), a.iters, a.warmup, a.max_candidates, a.dry_run), (Path::new(DEFAULT_OUT), 10, 3, None, false));
        assert_eq!((a.device, a.arch), (None, None));

        let a = parse_args(&args("--precision d --sizes 8x8x8 --device cuda:1 --out /tmp/t --iters 0 --warmup 0 --max-candidates 4")).unwrap();
        assert_eq!((a.device.as_deref(), a.out, a.iters, a.warmup, a.max_candidates), (Some("cuda:1"), PathBuf::from("/tmp/t"), 1, 0, Some(4)));

        let a = parse_args(&args("--precision h --sizes 8x8x8 --variants wgmma,mma")).unwrap();
        assert_eq!(a.variants, Some(vec![GemmVariant::Wgmma, GemmVariant::Mma]));
        assert!(parse_args(&args("--precision h --sizes 8x8x8 --variants tpu")).unwrap_err().contains("unknown tpu"));

        let a = parse_args(&args("--precision xf32 --dry-run --arch sm_90a")).unwrap();
        assert_eq!((a.family, a.dry_run, a.arch.as_deref(), a.sizes.len()), (GemmFamily::Xf32, true, Some("sm_90a"), 0));

        for (bad, why) in [
            ("--sizes 8x8x8", "--precision is required"),
            ("--precision s", "--sizes is required"),
            ("--precision q --sizes 8x8x8", "unknown q"),
            ("--precision s --sizes 8x8x8 --transA X", "--transA takes"),
            ("--precision s --sizes", "--sizes needs a value"),
            ("--precision s --sizes 8x8x8 --iters many", "not a count"),
            ("--precision s --sizes 8x8x8 --max-candidates 0", "at least 1"),
            ("--precision s --sizes 8x8x8 --arch sm_90", "--dry-run"),
            ("--precision s --dry-run --arch sm_90 --device cuda", "exclude"),
            ("--precision s --sizes 8x8x8 --bogus", "unknown option --bogus"),
        ] {
            let e = parse_args(&args(bad)).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn table_keys() {
        assert_eq!(table_arch("sm_90"), "sm_90");
        assert_eq!(table_arch("sm_90a"), "sm_90");
        assert_eq!(table_arch("sm_100f"), "sm_100");
        assert_eq!(table_arch("gfx90a:sramecc+:xnack-"), "gfx90a");
        assert_eq!(table_arch("gfx942"), "gfx942");
        use Operation::*;
        assert_eq!(layout_tag(GemmFamily::Hss, None, Transpose), "nt");
        assert_eq!(layout_tag(GemmFamily::S, ConjugateTranspose, None), "tn");
        assert_eq!(layout_tag(GemmFamily::Z, ConjugateTranspose, Transpose), "ct");
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        let t = today_utc();
        assert!(t.len() == 10 && t.as_bytes()[4] == b'-' && t.as_bytes()[7] == b'-' && t.as_str() > "2024", "{t}");
    }

    #[test]
    fn candidate_picking() {
        let all = GemmConfig::candidates(GemmFamily::Hss, "sm_90");
        assert!(all.len() > 6, "{}", all.len());
        let fallback = rocmath_blas::GemmKernel::select(GemmFamily::Hss, "sm_90").config;
        let every = pick_candidates(&all, fallback, None);
        assert_eq!(every.len(), all.len() + usize::from(!all.contains(&fallback)));
        assert_eq!(every[0], fallback);
        for max in 1..=all.len() + 2 {
            let some = pick_candidates(&all, fallback, Some(max));
            assert_eq!(some[0], fallback);
            assert_eq!(some.len(), max.min(every.len()), "max {max}");
            let distinct: std::collections::HashSet<_> = some.iter().collect();
            assert_eq!(distinct.len(), some.len(), "max {max}: duplicates");
        }
        let others: Vec<_> = all.iter().filter(|c| **c != fallback).collect();
        let three = pick_candidates(&all, fallback, Some(3));
        assert_eq!((&three[1], &three[2]), (others[0], *others.last().unwrap()));
    }

    #[test]
    fn split_configs_that_would_not_split_become_their_twins() {
        let all = GemmConfig::candidates(GemmFamily::D, "sm_90");
        let k4 = GemmConfig::parse("mt64x64x16_w2x2_s3_p4x4_g8_o3_k4_mma16x8x16f64").unwrap();
        let twin = GemmConfig { split_k: 1, ..k4 };
        assert!(all.contains(&k4) && all.contains(&twin));
        // 8192 x 8192 x 128: the workspace cap leaves one slice.
        let flat = Size { m: 8192, n: 8192, k: 128, batch: 1 };
        let got = splitting_candidates(GemmFamily::D, &all, &flat);
        assert!(!got.contains(&k4) && got.contains(&twin));
        assert!(got.iter().all(|c| rocmath_blas::gemm_split_slices(GemmFamily::D, c, [8192, 8192, 128]) == c.split_k as usize));
        let distinct: std::collections::HashSet<_> = got.iter().collect();
        assert_eq!(distinct.len(), got.len());
        // 256 x 256 x 65536 splits: the split configs stay.
        let deep = Size { m: 256, n: 256, k: 65536, batch: 1 };
        assert!(splitting_candidates(GemmFamily::D, &all, &deep).contains(&k4));
    }

    #[test]
    fn filter_parts() {
        let tag = "mt16x128x16_t4x32_s3_p4x4_g8_o2_k4_fma";
        assert!(passes_filter(tag, "mt16x"));
        assert!(passes_filter(tag, "mt32x,_k4_"));
        assert!(!passes_filter(tag, "mt32x,p_"));
    }

    #[test]
    fn batched_sizes_drop_oversized_tiles() {
        let all = GemmConfig::candidates(GemmFamily::Hss, "sm_90");
        let size = |m, batch| Size { m, n: m, k: m, batch };
        assert_eq!(fitting_candidates(&all, &size(32, 1)), all, "single problems keep every candidate");
        let small = fitting_candidates(&all, &size(32, 10000));
        assert!(!small.is_empty() && small.len() < all.len());
        assert!(small.iter().all(|c| c.mt[0] * c.mt[1] == 32 * 32), "{:?}", small.iter().map(|c| c.tag()).collect::<Vec<_>>());
        let mid = fitting_candidates(&all, &size(128, 2048));
        assert!(mid.iter().any(|c| c.is_wgmma() && c.mt[1] == 128) && mid.iter().all(|c| 2 * c.mt[0] * c.mt[1] <= 3 * 128 * 128));
        let f32_small = fitting_candidates(&GemmConfig::candidates(GemmFamily::S, "sm_90"), &size(32, 10000));
        assert!(f32_small.iter().any(|c| c.mt[..2] == [32, 32]), "the FMA candidates include a 32x32 tile");
        assert!(fitting_candidates(&[], &size(32, 2)).is_empty());
    }
}
