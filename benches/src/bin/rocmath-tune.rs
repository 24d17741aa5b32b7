//! rocmath-tune: measures the GEMM generator's candidate configs on a GPU and writes the winners
//! into the tuning table for the device's arch, element types and layout.
//!
//!   rocmath-tune gemm --precision hss --transA N --transB T --sizes 4096x4096x4096,64x64x64x4096 \
//!                [--device cuda[:N]|hip[:N]] [--out tuning/tables] [--iters 10] [--warmup 3] \
//!                [--max-candidates N] [--variants V,...] [--dry-run [--arch sm_90]]
//!
//! Every candidate is checked against the independent f64 reference (on a spread sample of
//! columns, C poisoned with NaN first) before it is timed; a candidate that fails to compile,
//! launch or compute correctly is reported and never written. Timing is by device events:
//! warm-up runs, then the median of timed samples of back-to-back runs (each lasting 0.5 ms;
//! `time_calls`). The CPU device has no kernel configs (the
//! config pin is a GPU notion), so tuning on it is refused with exit status 1.
use half::{bf16, f16};
use num_complex::{Complex32, Complex64};
use rocmath_bench::gemm::{sample_columns, typed_roundoff, DeviceData, HostData, I8Data, Problem, EX_ROUNDOFF};
use rocmath_bench::tune::{
    fitting_candidates, incumbent, layout_tag, parse_args, passes_filter, pick_candidates, splitting_candidates, table_arch, today_utc, tune_size, tune_size_with,
    write_table, Size, SizeOutcome, TableHeader, Timing, TuneArgs, TUNE_CHECK_MACS, USAGE,
};
use rocmath_blas::{gemm_solution, gemm_strided_batched, gemm_strided_batched_ex, Element, ExOutput, GemmConfig, GemmFamily, GemmKernel, HalfLike, Handle, MathMode, Operation};
use rocmath_kernels::gen::gemm::GENERATOR;
use rocmath_runtime::{Device, DeviceBuffer};
use rocmath_tests::{xf32_compute_roundoff, Num};
use std::path::PathBuf;
use std::process::ExitCode;

/// One call of the op under test, alpha = 1 and beta = 0, on the problem's device buffers.
type Call<'a, In, Out> = dyn Fn(&Handle, &Problem, &mut DeviceData<In, Out>) -> rocmath_blas::Result<()> + 'a;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return if args.is_empty() { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    let parsed = match args[0].as_str() {
        "gemm" => parse_args(&args[1..]),
        other => Err(format!("unknown command {other}")),
    };
    let t = match parsed {
        Ok(t) => t,
        Err(e) => {
            eprintln!("rocmath-tune: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&t) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rocmath-tune: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(t: &TuneArgs) -> Result<ExitCode, String> {
    let family = t.family;
    let (device, arch) = match &t.arch {
        Some(arch) => (None, arch.clone()),
        None => {
            let device = t.device.as_deref().map(Device::parse).unwrap_or_else(Device::from_env).map_err(|e| format!("cannot open the device: {e}"))?;
            println!("device: {device}");
            if !device.is_gpu() {
                return Err(format!(
                    "{} is the CPU device: it has no kernel configs to tune (the config pin applies to GPU kernels only); \
                     tune with --device cuda[:N] or hip[:N], or list candidates with --dry-run --arch ARCH",
                    device.spec()
                ));
            }
            let arch = device.properties().arch;
            (Some(device), arch)
        }
    };
    let mut all = GemmConfig::candidates(family, &arch);
    if let Some(vs) = &t.variants {
        all.retain(|c| vs.contains(&c.variant()));
    }
    if let Some(text) = &t.filter {
        all.retain(|c| passes_filter(&c.tag(), text));
    }
    // In NT no operand is k-contiguous: a repacking config runs exactly as its twin.
    if (t.trans_a, t.trans_b) == (Operation::None, Operation::Transpose) {
        all.retain(|c| !c.repack);
    }
    let fallback = GemmKernel::select(family, &arch).config;
    let header = TableHeader {
        arch: table_arch(&arch),
        types: family.tag().to_string(),
        layout: layout_tag(family, t.trans_a, t.trans_b),
        generator: GENERATOR.to_string(),
        fallback: fallback.tag(),
        device: device.as_ref().map(|d| d.properties().name).unwrap_or_default(),
        date: today_utc(),
    };
    // The table's current pick of each size is timed too (when it still validates and runs here).
    let incumbents: Vec<(Size, GemmConfig)> = t
        .sizes
        .iter()
        .filter_map(|s| incumbent(&t.out, &header, s).map(|c| (*s, c)))
        .filter(|(_, c)| GemmKernel::new(family, *c).is_ok_and(|k| k.supports_arch(&arch)))
        .collect();
    let cands = Candidates { family: t.family, all: &all, fallback, max: t.max_candidates, incumbents: &incumbents };
    println!(
        "arch {arch}: {} candidates, {} per size (generator {GENERATOR}; arch fallback {}); table {}/gemm_{}_{}.json",
        all.len() + usize::from(!all.contains(&fallback)),
        t.max_candidates.map_or("all that fit".to_string(), |m| format!("at most {m} that fit")),
        header.fallback,
        header.arch,
        header.types,
        header.layout
    );
    let Some(device) = device.filter(|_| !t.dry_run) else {
        for size in &t.sizes {
            let configs = cands.for_size(size);
            println!("size {size}:");
            for (i, c) in configs.iter().enumerate() {
                let why = if *c == fallback {
                    "  (arch fallback)"
                } else if cands.incumbent(size) == Some(*c) {
                    "  (the table's current pick)"
                } else {
                    ""
                };
                println!("  [{}/{}] {}{why}", i + 1, configs.len(), c.tag());
            }
        }
        return Ok(ExitCode::SUCCESS);
    };

    // The table is written after every size (merged, so a run cut short keeps what it measured).
    let save = |done: &[SizeOutcome]| -> Result<PathBuf, String> {
        let (path, notes) = write_table(&t.out, &header, done)?;
        for note in notes.iter().filter(|n| !n.starts_with("merging")) {
            println!("note: {note}");
        }
        Ok(path)
    };
    let outcomes = tune_family(&device, t, &cands, &save)?;
    let path = save(&outcomes)?;
    println!("wrote {}", path.display());
    let missing = outcomes.iter().filter(|o| o.winner().is_none()).count();
    if missing > 0 {
        eprintln!("rocmath-tune: {missing} size(s) had no valid candidate");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The generator's candidates for the device, narrowed per size: those that fit the size
/// ([`fitting_candidates`]), then at most `max` of them ([`pick_candidates`], fallback first),
/// split configs that would not split there replaced by their unsplit twins
/// ([`splitting_candidates`]), and the table's current pick for the size last when it is not
/// among them.
struct Candidates<'a> {
    family: GemmFamily,
    all: &'a [GemmConfig],
    fallback: GemmConfig,
    max: Option<usize>,
    incumbents: &'a [(Size, GemmConfig)],
}

impl Candidates<'_> {
    fn incumbent(&self, size: &Size) -> Option<GemmConfig> {
        self.incumbents.iter().find(|(s, _)| s == size).map(|(_, c)| *c)
    }

    fn for_size(&self, size: &Size) -> Vec<GemmConfig> {
        let picked = pick_candidates(&fitting_candidates(self.all, size), self.fallback, self.max);
        let mut v = splitting_candidates(self.family, &picked, size);
        if let Some(c) = self.incumbent(size).filter(|c| !v.contains(c)) {
            v.push(c);
        }
        v
    }
}

/// Called with the outcomes so far after each size.
type Save<'a> = dyn Fn(&[SizeOutcome]) -> Result<PathBuf, String> + 'a;

fn tune_family(device: &Device, t: &TuneArgs, cands: &Candidates, save: &Save) -> Result<Vec<SizeOutcome>, String> {
    match t.family {
        GemmFamily::S => tune_typed::<f32>(device, t, cands, save),
        GemmFamily::D => tune_typed::<f64>(device, t, cands, save),
        GemmFamily::C => tune_typed::<Complex32>(device, t, cands, save),
        GemmFamily::Z => tune_typed::<Complex64>(device, t, cands, save),
        GemmFamily::H => tune_typed::<f16>(device, t, cands, save),
        GemmFamily::Hss => tune_ex::<f16, f32>(device, t, cands, save),
        GemmFamily::Bss => tune_ex::<bf16, f32>(device, t, cands, save),
        GemmFamily::Hhs => tune_ex::<f16, f16>(device, t, cands, save),
        GemmFamily::Bbs => tune_ex::<bf16, bf16>(device, t, cands, save),
        // f32 storage, TF32 products (the handle's xf32 math mode is set in `tune`). The bound
        // is derived for the shallowest size, which makes it looser (never tighter) for deeper ones.
        GemmFamily::Xf32 => tune_typed_as::<f32>(device, t, cands, save, GemmFamily::Xf32, xf32_compute_roundoff(t.sizes.iter().map(|s| s.k).min().unwrap_or(1))),
        GemmFamily::I8 => tune_i8(device, t, cands, save),
    }
}

fn tune_typed<T: Element + Num>(device: &Device, t: &TuneArgs, cands: &Candidates, save: &Save) -> Result<Vec<SizeOutcome>, String> {
    tune_typed_as::<T>(device, t, cands, save, T::FAMILY, typed_roundoff::<T>())
}

/// The typed gemm of `T` tuned as `family` (xf32: f32 in xf32 math mode), checked with `roundoff`.
fn tune_typed_as<T: Element + Num>(device: &Device, t: &TuneArgs, cands: &Candidates, save: &Save, family: GemmFamily, roundoff: f64) -> Result<Vec<SizeOutcome>, String> {
    tune::<T, T>(device, t, cands, save, family, roundoff, &|h, p, d| {
        gemm_strided_batched(h, p.trans_a, p.trans_b, p.m, p.n, p.k, T::ONE, &d.a, p.lda, &d.b, p.ldb, T::ZERO, &mut d.c, p.ldc, p.batch_strides())
    })
}

fn tune_ex<In: HalfLike + Num, Out: ExOutput + Num>(device: &Device, t: &TuneArgs, cands: &Candidates, save: &Save) -> Result<Vec<SizeOutcome>, String> {
    tune::<In, Out>(device, t, cands, save, t.family, EX_ROUNDOFF, &|h, p, d| {
        gemm_strided_batched_ex(h, p.trans_a, p.trans_b, p.m, p.n, p.k, 1.0, &d.a, p.lda, &d.b, p.ldb, 0.0, &mut d.c, p.ldc, p.batch_strides())
    })
}

fn tune<In: Num, Out: Num>(
    device: &Device,
    t: &TuneArgs,
    cands: &Candidates,
    save: &Save,
    family: GemmFamily,
    roundoff: f64,
    call: &Call<In, Out>,
) -> Result<Vec<SizeOutcome>, String> {
    let mut handle = Handle::on(device).map_err(|e| e.to_string())?;
    if family == GemmFamily::Xf32 {
        handle.set_math_mode(MathMode::Xf32XdlMathOp);
    }
    let q = handle.queue().clone();
    let timing = Timing { warmup: t.warmup, iters: t.iters };
    let mut outcomes = Vec::with_capacity(t.sizes.len());
    for (s, size) in t.sizes.iter().enumerate() {
        println!("== size {}/{}: gemm {} {}{} {size}", s + 1, t.sizes.len(), family.tag(), t.trans_a.letter(), t.trans_b.letter());
        let configs = cands.for_size(size);
        let tags: Vec<String> = configs.iter().map(GemmConfig::tag).collect();
        let p = Problem::new(t.trans_a, t.trans_b, [size.m, size.n, size.k], [None; 3], size.batch, 1.0, 0.0);
        let mut host = HostData::<In, Out>::generate(&p);
        host.poison_c();
        let mut data = DeviceData::upload(&q, &host)?;
        let mut pinned = vec![false; configs.len()];
        let outcome = tune_size(&q, &p, &host, &mut data, roundoff, &tags, timing, |i, d| {
            pin(&mut handle, family, &p, configs[i], &mut pinned[i])?;
            call(&handle, &p, d).map_err(|e| e.to_string())
        });
        outcomes.push(outcome);
        if outcomes.iter().any(|o| o.winner().is_some()) {
            save(&outcomes)?;
        }
    }
    Ok(outcomes)
}

/// Pins `config` on the handle; the first time (`*pinned` false), checks that the library runs
/// exactly that config for the problem.
fn pin(handle: &mut Handle, family: GemmFamily, p: &Problem, config: GemmConfig, pinned: &mut bool) -> Result<(), String> {
    handle.set_gemm_config(Some(config));
    if !*pinned {
        match gemm_solution(handle, family, p.trans_a, p.trans_b, p.m, p.n, p.k, p.batch) {
            Ok(Some(k)) if k.config == config => *pinned = true,
            Ok(Some(k)) => return Err(format!("the library would run {} instead", k.module_name())),
            Ok(None) => return Err("no GPU kernel selected".into()),
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

/// The i8 family (gemm_strided_batched_ex, i8 inputs, i32 C and D): full-range inputs, C
/// poisoned with a value no product of these inputs gives at alpha 1, beta 0 (|D| < 2^14 k), the
/// exact reference on a spread sample of columns. Rates count 2 operations a multiply-add.
fn tune_i8(device: &Device, t: &TuneArgs, cands: &Candidates, save: &Save) -> Result<Vec<SizeOutcome>, String> {
    let mut handle = Handle::on(device).map_err(|e| e.to_string())?;
    let q = handle.queue().clone();
    let timing = Timing { warmup: t.warmup, iters: t.iters };
    let err = |e: rocmath_runtime::Error| e.to_string();
    let mut outcomes = Vec::with_capacity(t.sizes.len());
    for (s, size) in t.sizes.iter().enumerate() {
        println!("== size {}/{}: gemm i8 {}{} {size}", s + 1, t.sizes.len(), t.trans_a.letter(), t.trans_b.letter());
        let configs = cands.for_size(size);
        let tags: Vec<String> = configs.iter().map(GemmConfig::tag).collect();
        let p = Problem::new(t.trans_a, t.trans_b, [size.m, size.n, size.k], [None; 3], size.batch, 1.0, 0.0);
        let mut host = I8Data::generate(&p);
        host.c.fill(I8_POISON);
        let cols = sample_columns(&p, TUNE_CHECK_MACS, true);
        let (a, b) = (DeviceBuffer::from_slice(&q, &host.a).map_err(err)?, DeviceBuffer::from_slice(&q, &host.b).map_err(err)?);
        let mut c = DeviceBuffer::from_slice(&q, &host.c).map_err(err)?;
        let mut pinned = vec![false; configs.len()];
        let outcome = tune_size_with(&q, &p, p.flops(false), &tags, timing, |i, checked| {
            pin(&mut handle, GemmFamily::I8, &p, configs[i], &mut pinned[i])?;
            if checked {
                c.copy_from_host(&q, &host.c).map_err(err)?;
            }
            gemm_strided_batched_ex::<i8, i32>(&handle, p.trans_a, p.trans_b, p.m, p.n, p.k, 1, &a, p.lda, &b, p.ldb, 0, &mut c, p.ldc, p.batch_strides())
                .map_err(|e| format!("run failed: {e}"))?;
            if checked {
                let got = c.to_vec(&q).map_err(err)?;
                host.check(&p, (1, 0), &got, &cols, "candidate")?;
            }
            Ok(())
        });
        outcomes.push(outcome);
        if outcomes.iter().any(|o| o.winner().is_some()) {
            save(&outcomes)?;
        }
    }
    Ok(outcomes)
}

/// C's value before an i8 candidate runs: odd and far outside what the tuned sizes can produce
/// (a D element left unwritten, or beta = 0 read as C, fails the exact check).
const I8_POISON: i32 = 0x5a5a_5a5b;
