//! `rocmath-bench fft`: plans the case on the device (plan creation timed cold and warm),
//! checks the result against the f64 CPU plan with rocFFT's criterion, times it with device
//! events (after warm-up, the median of samples of back-to-back executions, `time_calls`; wall
//! clock on the CPU), measures a device-to-device copy of the
//! same bytes on GPUs, and times the peer on the same inputs and buffers in the same run:
//! cuFFT on NVIDIA, RustFFT and FFTW on the CPU.
use crate::cufft::Cufft;
use half::f16;
use rocmath_bench::fft::{compare, generate_input, peer_layout, scatter, verdict, Counts, FftArgs, Real, ScalarFft, View, REFERENCE_MAX_ELEMENTS};
use rocmath_bench::fftw::Fftw;
use rocmath_bench::gemm::time_calls;
use rocmath_bench::rustfft_peer::RustFft;
use rocmath_fft::{Layout, Placement, Plan, Precision};
use rocmath_runtime::{Device, DeviceBuffer, Queue};
use std::ffi::c_void;
use std::time::Instant;

/// A peer's result for the summary.
pub struct PeerOutcome {
    pub name: &'static str,
    pub ms: Result<f64, String>,
}

/// One case's results for the summary.
pub struct FftOutcome {
    pub label: String,
    pub counts: Counts,
    pub ours_ms: Option<f64>,
    /// Plan creation, cold (the first of its kind in the process, after the compiler started)
    /// and warm (a second identical one), ms.
    pub plan_ms: Option<(f64, f64)>,
    /// Device-to-device copy bandwidth (bytes read + written) measured in the same run.
    pub copy_gbps: Option<f64>,
    pub peers: Vec<PeerOutcome>,
    /// Our error, our failed check, or the f64 CPU plan's failure.
    pub failed: bool,
}

/// The peers timed on `device`, in the order they run.
pub fn peer_names(device: &Device) -> &'static [&'static str] {
    match device {
        Device::Cuda(_) => &["cuFFT"],
        Device::Cpu(_) => &["RustFFT", "FFTW"],
        Device::Hip(_) => &[],
    }
}

pub fn run_fft(device: &Device, case: &FftArgs) -> FftOutcome {
    let mut o = FftOutcome { label: case.label(), counts: case.counts(), ours_ms: None, plan_ms: None, copy_gbps: None, peers: Vec::new(), failed: false };
    let r = match case.precision {
        Precision::Single => run::<f32>(device, case, &mut o),
        Precision::Double => run::<f64>(device, case, &mut o),
        Precision::Half => run::<f16>(device, case, &mut o),
    };
    if let Err(e) = r {
        println!("  FAILED: {e}");
        o.failed = true;
    }
    o
}

/// Compiles a module no cache holds (its source carries the process id and time) once per
/// process on a GPU, printing how long the compiler took to start and compile it.
fn compiler_started(device: &Device) {
    static STARTED: std::sync::Once = std::sync::Once::new();
    let Some(gpu) = device.gpu() else { return };
    STARTED.call_once(|| {
        let nonce = format!("{}_{}", std::process::id(), std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
        let source = rocmath_runtime::KernelSource {
            name: format!("rm_compiler_start_{nonce}"),
            source: format!("extern \"C\" __global__ void rm_compiler_start_{nonce}(float* x) {{ x[0] = 1.0f; }}\n"),
            options: Vec::new(),
            arch_override: None,
        };
        let t = Instant::now();
        match gpu.module(&source) {
            Ok(_) => println!("  compiler start (first compile in the process, not counted below): {:.1} ms", since_ms(t)),
            Err(e) => println!("  compiler start failed: {e}"),
        }
    });
}

fn since_ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// The f64 reference of the checked entries, packed (the reference plan's output layout).
struct Reference {
    data: Vec<f64>,
    layout: Layout,
    source: &'static str,
    /// Why the f64 CPU plan failed, when RustFFT stood in for it.
    plan_error: Option<String>,
}

/// The checked entries' input, transformed in f64 by the CPU plan; if that fails, by RustFFT in
/// f64 (so that the peers can still be checked), with the plan's error kept for the report.
fn reference<T: Real>(case: &FftArgs, host_in: &[T], input: &Layout) -> Result<Reference, String> {
    let entries = case.checked_entries();
    let plan = Plan::new(&Device::cpu(), Placement::NotInPlace, case.transform, Precision::Double, &case.lengths, entries.len(), None)
        .map_err(|e| format!("f64 CPU plan: {e}"))?;
    let (ril, rol) = (plan.input_layout().clone(), plan.output_layout().clone());
    let ilen = case.input_lengths();
    let view = View { data: host_in, layout: input, lengths: &ilen, complex: case.complex_input() };
    let mut rin = vec![0.0f64; plan.input_scalars()[0]];
    for (j, &e) in entries.iter().enumerate() {
        scatter(&mut rin, &ril, &ilen, case.complex_input(), j, &view.entry(e));
    }
    let pristine = rin.clone();
    let mut rout = vec![f64::NAN; plan.output_scalars()[0]];
    // SAFETY: host buffers of f64 holding the plan's input and output scalars.
    let r = unsafe { plan.execute_raw(&Queue::Cpu, &[rin.as_mut_ptr() as *mut c_void], &[rout.as_mut_ptr() as *mut c_void], None) };
    match r {
        Ok(()) => Ok(Reference { data: rout, layout: rol, source: "the f64 CPU plan", plan_error: None }),
        Err(e) => {
            let sub = FftArgs { precision: Precision::Double, batch: entries.len(), inplace: false, ..case.clone() };
            let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
            let mut rin = pristine;
            rout.fill(f64::NAN);
            RustFft::<f64>::new(&sub, threads).run(&mut rin, Some(&mut rout));
            Ok(Reference { data: rout, layout: rol, source: "RustFFT in f64", plan_error: Some(e.to_string()) })
        }
    }
}

/// The buffers of one case on the device, and the host copy of the input.
struct Buffers<T: Real> {
    host_in: Vec<T>,
    input: DeviceBuffer<T>,
    /// `None` in place.
    output: Option<DeviceBuffer<T>>,
}

impl<T: Real> Buffers<T> {
    /// Restores the input and poisons the output (NaN), so that unwritten elements fail.
    fn reset(&mut self, q: &Queue) -> Result<(), String> {
        self.input.copy_from_host(q, &self.host_in).map_err(|e| e.to_string())?;
        if let Some(o) = &mut self.output {
            let poison = vec![T::from_f64(f64::NAN); o.len()];
            o.copy_from_host(q, &poison).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
    /// The result after a run (the input buffer in place).
    fn result(&self, q: &Queue) -> Result<Vec<T>, String> {
        self.output.as_ref().unwrap_or(&self.input).to_vec(q).map_err(|e| e.to_string())
    }
}

fn run<T: Real>(device: &Device, case: &FftArgs, o: &mut FftOutcome) -> Result<(), String> {
    let q = device.new_queue().map_err(|e| e.to_string())?;
    let placement = if case.inplace { Placement::InPlace } else { Placement::NotInPlace };
    let make = || Plan::new(device, placement, case.transform, case.precision, &case.lengths, case.batch, None);

    // Ours: the first creation of this plan in the process, then an identical second one.
    // Without an ahead-of-time kernel cache, the run-time compiler's own start-up (once per
    // process, whatever the plan) is paid first and reported apart, so that "cold" is the plan's
    // compiles with an empty kernel cache. With one, nothing is paid first: a cold plan whose
    // kernels are all in it never starts the compiler.
    let aot = rocmath_runtime::aot::system().is_some();
    if !aot {
        compiler_started(device);
    }
    let (aot_before, compiled_before) = (rocmath_runtime::aot::loaded_modules(), rocmath_runtime::gpu::compiled_modules());
    let t = Instant::now();
    let first = make();
    let cold = since_ms(t);
    let sources = if device.gpu().is_some() {
        let (from_aot, compiled) = (rocmath_runtime::aot::loaded_modules() - aot_before, rocmath_runtime::gpu::compiled_modules() - compiled_before);
        format!(" ({from_aot} modules from the AOT cache{}, {compiled} compiled)", if aot { "" } else { ", none present" })
    } else {
        String::new()
    };
    let mut our_err = None;
    let plan = match first {
        Ok(p) => {
            let t = Instant::now();
            let again = make();
            let warm = since_ms(t);
            match again {
                Ok(_) => {
                    o.plan_ms = Some((cold, warm));
                    println!("  plan: cold {cold:.3} ms{sources}, warm {warm:.3} ms");
                }
                Err(e) => our_err = Some(format!("second plan creation: {e}")),
            }
            Some(p)
        }
        Err(e) => {
            our_err = Some(format!("plan creation: {e}"));
            None
        }
    };
    // Layouts do not depend on the device: without our plan, a CPU plan of the case gives them
    // (so that the peer still runs on the buffers ours would have used).
    let cpu_plan;
    let layouts = match &plan {
        Some(p) => p,
        None => {
            cpu_plan = Plan::new(&Device::cpu(), placement, case.transform, case.precision, &case.lengths, case.batch, None).map_err(|e| format!("plan creation: {e}"))?;
            &cpu_plan
        }
    };
    let (il, ol) = (layouts.input_layout().clone(), layouts.output_layout().clone());
    let (in_scalars, out_scalars) = (layouts.input_scalars()[0], layouts.output_scalars()[0]);
    let in_len = if case.inplace { in_scalars.max(out_scalars) } else { in_scalars };
    let host_in: Vec<T> = generate_input(case, &il, in_len);
    let err = |e: rocmath_runtime::Error| e.to_string();
    let mut input = DeviceBuffer::from_slice(&q, &host_in).map_err(err)?;
    let mut output = if case.inplace { None } else { Some(DeviceBuffer::from_slice(&q, &vec![T::from_f64(f64::NAN); out_scalars]).map_err(err)?) };
    let in_ptr = input.as_mut_ptr() as *mut c_void;
    let out_ptr = output.as_mut().map_or(in_ptr, |b| b.as_mut_ptr() as *mut c_void);
    let mut bufs = Buffers { host_in, input, output };

    // Ours: one checked run. On a GPU it is timed right away with device events; on the CPU
    // every side (ours and the peers) is timed at the end, interleaved (`interleaved_ms`).
    let gpu = device.is_gpu();
    let qr = &q;
    let mut ours_out = None;
    let mut our_exec: Option<Exec> = plan.as_ref().map(|p| -> Exec {
        // SAFETY: the buffers are live on the plan's device and cover its layouts.
        Box::new(move || unsafe { p.execute_raw(qr, &[in_ptr], &[out_ptr], None) }.map_err(|e| e.to_string()))
    });
    if let Some(exec) = our_exec.as_mut() {
        let r = checked_run(&q, &mut bufs, false, exec).and_then(|v| {
            let ms = if gpu { Some(time_calls(&q, case.warmup, case.iters, None, &mut *exec)?.ms) } else { None };
            Ok((v, ms))
        });
        match r {
            Ok((v, ms)) => {
                ours_out = Some(v);
                o.ours_ms = ms;
            }
            Err(e) => {
                our_err = Some(format!("execution: {e}"));
                our_exec = None;
            }
        }
    }

    // The reference, and our check against it.
    let entries = case.checked_entries();
    let olen = case.output_lengths();
    let reference = if case.reference_too_big() {
        println!("  note: the f64 reference of {} x {} elements is over {REFERENCE_MAX_ELEMENTS}: checking against the peer instead", entries.len(), case.n());
        None
    } else {
        Some(reference(case, &bufs.host_in, &il))
    };
    fn side<'a, T>(data: &'a [T], layout: &'a Layout, lengths: &'a [usize], complex: bool) -> View<'a, T> {
        View { data, layout, lengths, complex }
    }
    let complex_out = case.complex_output();
    let ref_entries: Vec<usize> = (0..entries.len()).collect();
    if let Some(r) = &reference {
        match r {
            Ok(r) => {
                if let Some(e) = &r.plan_error {
                    println!("  f64 CPU plan FAILED: {e}; the reference is RustFFT in f64");
                    o.failed = true;
                }
                if let Some(v) = &ours_out {
                    let want = View { data: &r.data, layout: &r.layout, lengths: &olen, complex: case.complex_output() };
                    match verdict(&compare(&side(v, &ol, &olen, complex_out), &entries, &want, &ref_entries), case.precision, case.n()) {
                        Ok(m) => println!("  check: ok against {}, entries {entries:?}: {m}", r.source),
                        Err(m) => {
                            println!("  check FAILED against {}, entries {entries:?}: {m}", r.source);
                            o.failed = true;
                        }
                    }
                }
            }
            Err(e) => {
                println!("  reference FAILED: {e}");
                o.failed = true;
            }
        }
    }

    // The copy ceiling on GPUs: a device-to-device copy of the same bytes (read + written).
    if gpu {
        let half_bytes = ((o.counts.bytes() / 2.0) as usize).max(1);
        let src = DeviceBuffer::<u8>::zeroed(&q, half_bytes).map_err(err)?;
        let mut dst = DeviceBuffer::<u8>::zeroed(&q, half_bytes).map_err(err)?;
        let ms = time_calls(&q, case.warmup, case.iters, None, || dst.copy_from_buffer(&q, &src).map_err(err))?.ms;
        o.copy_gbps = Some(2.0 * half_bytes as f64 / ms / 1e6);
    }

    // The peers, on the same inputs and buffers: planned, and checked from fresh input (timed
    // right away on a GPU).
    let threads = device.properties().compute_units;
    let layout = peer_layout(case, &il, &ol);
    let mut peers: Vec<(&'static str, Result<PeerRun<T>, String>)> = Vec::new();
    for &name in peer_names(device).iter().filter(|_| case.peer) {
        let r: Result<(Exec, String), String> = (|| match name {
            "cuFFT" => {
                let lib = Cufft::load()?;
                let layout = layout.clone()?;
                let stream = q.gpu().ok_or("not a GPU queue")?.raw();
                let t = Instant::now();
                let plan = lib.plan(case, &layout, stream).map_err(|e| e.to_string())?;
                let info = format!("plan {:.1} ms, cuFFT {}", since_ms(t), lib.version);
                // SAFETY: the plan's layout is the buffers' layout, on the queue's device.
                let exec: Exec = Box::new(move || unsafe { plan.execute(in_ptr as u64, out_ptr as u64) }.map_err(|e| e.to_string()));
                Ok((exec, info))
            }
            "FFTW" => {
                let lib = Fftw::load(case.precision)?;
                let layout = layout.clone()?;
                let t = Instant::now();
                // SAFETY: host buffers covering the layout, alive while the plan is used.
                let plan = unsafe { lib.plan(case, &layout, in_ptr, out_ptr, threads)? };
                let used = if lib.threaded() { threads } else { 1 };
                let info = format!("FFTW_MEASURE plan {:.1} ms, {used} thread(s)", since_ms(t));
                let exec: Exec = Box::new(move || {
                    plan.execute();
                    Ok(())
                });
                Ok((exec, info))
            }
            "RustFFT" => {
                let t = Instant::now();
                let peer = T::rustfft(case, threads).ok_or("RustFFT has no half precision")?;
                let info = format!("plan {:.1} ms, {threads} thread(s)", since_ms(t));
                let inplace = case.inplace;
                let exec: Exec = Box::new(move || {
                    // SAFETY: the host buffers behind the pointers hold in_len / out_scalars
                    // scalars, and nothing else touches them during the call.
                    let i = unsafe { std::slice::from_raw_parts_mut(in_ptr as *mut T, in_len) };
                    let o = (!inplace).then(|| unsafe { std::slice::from_raw_parts_mut(out_ptr as *mut T, out_scalars) });
                    peer.run(i, o);
                    Ok(())
                });
                Ok((exec, info))
            }
            other => Err(format!("unknown peer {other}")),
        })();
        let r = r.and_then(|(mut exec, info)| {
            let got = checked_run(&q, &mut bufs, true, &mut exec)?;
            let ms = if gpu {
                bufs.reset(&q)?;
                Some(time_calls(&q, case.warmup, case.iters, None, &mut exec)?.ms)
            } else {
                None
            };
            Ok(PeerRun { exec, info, got, ms })
        });
        peers.push((name, r));
    }

    // The CPU: all sides timed in turns, under the same conditions.
    if !gpu {
        let mut sides: Vec<&mut Exec> = our_exec.iter_mut().collect();
        sides.extend(peers.iter_mut().filter_map(|(_, r)| r.as_mut().ok()).map(|p| &mut p.exec));
        let host_in = &bufs.host_in;
        let input = &mut bufs.input;
        let times = interleaved_ms(&q, case, &mut || input.copy_from_host(&q, host_in).map_err(|e| e.to_string()), &mut sides);
        let mut times = times.into_iter();
        if our_exec.is_some() {
            match times.next() {
                Some(Ok(ms)) => o.ours_ms = Some(ms),
                Some(Err(e)) => our_err = Some(format!("execution: {e}")),
                None => {}
            }
        }
        for (_, r) in peers.iter_mut() {
            if let Ok(p) = r {
                match times.next() {
                    Some(Ok(ms)) => p.ms = Some(ms),
                    Some(Err(e)) => *r = Err(e),
                    None => {}
                }
            }
        }
    }

    let c = o.counts;
    match (o.ours_ms, &our_err) {
        (Some(ms), None) => {
            let copy = o.copy_gbps.map_or(String::new(), |g| format!("  {:.1}% of copy ({g:.1} GB/s)", 100.0 * c.gbps(ms) / g));
            println!("  rocmath  {ms:.4} ms  {:.1} GB/s  {:.1} GFLOP/s{copy}", c.gbps(ms), c.gflops(ms));
        }
        (_, e) => {
            println!("  rocmath FAILED: {}", e.as_deref().unwrap_or("no result"));
            o.failed = true;
            if let Some(g) = o.copy_gbps {
                println!("  copy of the same bytes: {g:.1} GB/s");
            }
        }
    }

    if !case.peer {
        println!("  (peer not timed: --no-peer)");
        return Ok(());
    }
    let mut checked_against_peer = reference.is_some();
    for (name, r) in peers {
        match r.and_then(|p| Ok((p.ms.ok_or("not timed")?, p.got, p.info))) {
            Ok((ms, got, info)) => {
                println!("  {name:<8} {ms:.4} ms  {:.1} GB/s  {:.1} GFLOP/s  speed {}  ({info})", c.gbps(ms), c.gflops(ms), speed(o.ours_ms, ms));
                match &reference {
                    Some(Ok(r)) => {
                        let want = View { data: &r.data, layout: &r.layout, lengths: &olen, complex: case.complex_output() };
                        match verdict(&compare(&side(&got, &ol, &olen, complex_out), &entries, &want, &ref_entries), case.precision, case.n()) {
                            Ok(m) => println!("  {name} check: ok against {}: {m}", r.source),
                            Err(m) => println!("  {name} check FAILED against {}: {m}", r.source),
                        }
                    }
                    Some(Err(_)) => {}
                    None if !checked_against_peer => {
                        if let Some(v) = &ours_out {
                            checked_against_peer = true;
                            match verdict(&compare(&side(v, &ol, &olen, complex_out), &entries, &side(&got, &ol, &olen, complex_out), &entries), case.precision, case.n()) {
                                Ok(m) => println!("  check: ok against {name}, entries {entries:?}: {m}"),
                                Err(m) => {
                                    println!("  check FAILED against {name}, entries {entries:?}: {m}");
                                    o.failed = true;
                                }
                            }
                        }
                    }
                    None => {}
                }
                o.peers.push(PeerOutcome { name, ms: Ok(ms) });
            }
            Err(e) => {
                println!("  {name} unavailable: {e}");
                o.peers.push(PeerOutcome { name, ms: Err(e) });
            }
        }
    }
    if peer_names(device).is_empty() {
        println!("  (no peer library timed on {})", device.spec());
    }
    if !checked_against_peer && ours_out.is_some() {
        println!("  note: not checked (the reference is too big and no peer ran)");
    }
    Ok(())
}

/// One side's run: ours or a peer's, on the case's buffers.
type Exec<'a> = Box<dyn FnMut() -> Result<(), String> + 'a>;

/// A peer, planned and checked, waiting to be timed (or timed, on a GPU).
struct PeerRun<'a, T> {
    exec: Exec<'a>,
    info: String,
    got: Vec<T>,
    ms: Option<f64>,
}

/// `peer ms / our ms` (> 1: rocmath is faster), or `-` without our time.
pub fn speed(ours_ms: Option<f64>, peer_ms: f64) -> String {
    ours_ms.map_or("-".into(), |ours| format!("{:.3}", peer_ms / ours))
}

/// A run from fresh input (`reset`: the output poisoned first as well), its result returned.
fn checked_run<T: Real>(q: &Queue, bufs: &mut Buffers<T>, reset: bool, exec: &mut Exec) -> Result<Vec<T>, String> {
    if reset {
        bufs.reset(q)?;
    }
    exec()?;
    q.synchronize().map_err(|e| e.to_string())?;
    bufs.result(q)
}

/// Rounds of the CPU timing: at least this many, and until every side has run this long.
pub const MIN_ROUNDS: usize = 30;
pub const MIN_SIDE_MS: f64 = 200.0;
/// And at most this many rounds or this long in all (a slow case stops at `MIN_ROUNDS`).
const MAX_ROUNDS: usize = 5000;

/// The CPU's timing: the sides run in turns (one run of each per round, the first side
/// rotating from round to round), each run from the restored input (`restore`, not timed), so
/// that every side meets the same machine: a noise burst on the shared cores lands on all
/// sides alike instead of on one side's block of runs. `case.warmup` rounds first, then at
/// least `max(MIN_ROUNDS, case.iters)` rounds and until every side has run `MIN_SIDE_MS`
/// (at most `MAX_ROUNDS`). Returns each side's median wall time in ms, or its first error (a
/// side that fails leaves the rounds).
fn interleaved_ms(q: &Queue, case: &FftArgs, restore: &mut dyn FnMut() -> Result<(), String>, sides: &mut [&mut Exec]) -> Vec<Result<f64, String>> {
    let n = sides.len();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut errors: Vec<Option<String>> = vec![None; n];
    let mut total = vec![0.0f64; n];
    let min_rounds = MIN_ROUNDS.max(case.iters);
    let mut round = 0;
    loop {
        let timed = round >= case.warmup;
        let done = timed && {
            let r = round - case.warmup;
            let alive = (0..n).filter(|&s| errors[s].is_none());
            r >= MAX_ROUNDS || (r >= min_rounds && alive.clone().all(|s| total[s] >= MIN_SIDE_MS))
        };
        if done || errors.iter().all(Option::is_some) {
            break;
        }
        for k in 0..n {
            let s = (round + k) % n;
            if errors[s].is_some() {
                continue;
            }
            let r = restore().and_then(|()| {
                q.synchronize().map_err(|e| e.to_string())?;
                let t = Instant::now();
                (sides[s])()?;
                q.synchronize().map_err(|e| e.to_string())?;
                Ok(since_ms(t))
            });
            match r {
                Ok(ms) if timed => {
                    times[s].push(ms);
                    total[s] += ms;
                }
                Ok(_) => {}
                Err(e) => errors[s] = Some(e),
            }
        }
        round += 1;
    }
    times
        .into_iter()
        .zip(errors)
        .map(|(mut t, e)| match e {
            Some(e) => Err(e),
            None if t.is_empty() => Err("not timed".into()),
            None => {
                t.sort_by(|a, b| a.total_cmp(b));
                Ok(t[t.len() / 2])
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_is_peer_over_ours() {
        assert_eq!(speed(Some(2.0), 3.0), "1.500");
        assert_eq!(speed(None, 3.0), "-");
    }

    /// The whole flow on the CPU: ours fails until the CPU path lands (and must then be
    /// reported as a failure), the peers still run and are checked against the reference.
    #[test]
    fn cpu_flow_reports_and_continues() {
        let case = FftArgs { transform: rocmath_fft::TransformType::RealForward, lengths: vec![12, 5], batch: 3, iters: 2, warmup: 1, ..FftArgs::default() };
        let o = run_fft(&Device::cpu(), &case);
        assert_eq!(o.peers.len(), 2);
        assert!(o.peers[0].ms.is_ok(), "RustFFT runs on the CPU");
        if o.ours_ms.is_none() {
            assert!(o.failed, "our failure is a failure");
        }
        let half = run_fft(&Device::cpu(), &FftArgs { precision: Precision::Half, ..case });
        assert!(half.peers.iter().all(|p| p.ms.is_err()), "no CPU peer has half precision");
    }
}
