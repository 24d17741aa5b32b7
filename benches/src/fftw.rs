//! FFTW, loaded at run time (libfftw3f.so.3 single, libfftw3.so.3 double), as a CPU peer:
//! fftw_plan_many_dft / _r2c / _c2r with FFTW_MEASURE over the bench's own buffers, threaded
//! through libfftw3f_threads / libfftw3_threads when present (the same thread count as ours).
//! FFTW takes dimensions slowest first, as cuFFT does ([`crate::fft::PeerLayout`]). Nothing
//! here is needed to build or test rocmath: a missing library is an error the bench prints.
use crate::fft::{FftArgs, PeerLayout};
use libloading::Library;
use rocmath_fft::{Precision, TransformType};
use rocmath_runtime::loader::open_library;
use std::ffi::{c_int, c_uint, c_void};
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

const FFTW_FORWARD: c_int = -1;
const FFTW_BACKWARD: c_int = 1;
const FFTW_MEASURE: c_uint = 0;

type PlanDft = unsafe extern "C" fn(c_int, *const c_int, c_int, *mut c_void, *const c_int, c_int, c_int, *mut c_void, *const c_int, c_int, c_int, c_int, c_uint) -> *mut c_void;
type PlanReal = unsafe extern "C" fn(c_int, *const c_int, c_int, *mut c_void, *const c_int, c_int, c_int, *mut c_void, *const c_int, c_int, c_int, c_uint) -> *mut c_void;

/// One precision's FFTW entry points; the libraries stay loaded for the process.
pub struct Fftw {
    _lib: Library,
    _threads_lib: Option<Library>,
    /// `libfftw3f` or `libfftw3`, as the bench prints it.
    pub name: &'static str,
    plan_many_dft: PlanDft,
    plan_many_dft_r2c: PlanReal,
    plan_many_dft_c2r: PlanReal,
    execute: unsafe extern "C" fn(*mut c_void),
    destroy_plan: unsafe extern "C" fn(*mut c_void),
    plan_with_nthreads: Option<unsafe extern "C" fn(c_int)>,
}

/// FFTW's planner is not thread-safe (only execution is): planning and destroying take this.
static PLANNER: Mutex<()> = Mutex::new(());

fn dirs() -> Vec<PathBuf> {
    let mut d = rocmath_runtime::loader::toolkit_dirs(&["FFTW_HOME", "FFTW_DIR"], &["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/local/lib"]);
    if let Some(conda) = std::env::var_os("CONDA_PREFIX") {
        d.push(PathBuf::from(conda).join("lib"));
    }
    d
}

unsafe fn sym<T: Copy>(lib: &Library, name: &str) -> Result<T, String> {
    let z = format!("{name}\0");
    lib.get::<T>(z.as_bytes()).map(|s| *s).map_err(|e| format!("{name}: {e}"))
}

impl Fftw {
    fn load_uncached(precision: Precision) -> Result<Fftw, String> {
        let (prefix, name, sonames, threads) = match precision {
            Precision::Single => ("fftwf_", "libfftw3f", ["libfftw3f.so.3", "libfftw3f.so"], ["libfftw3f_threads.so.3", "libfftw3f_threads.so"]),
            Precision::Double => ("fftw_", "libfftw3", ["libfftw3.so.3", "libfftw3.so"], ["libfftw3_threads.so.3", "libfftw3_threads.so"]),
            Precision::Half => return Err("FFTW has no half precision".into()),
        };
        let dirs = dirs();
        let lib = open_library("fftw", &sonames, &dirs).map_err(|e| format!("the peer is missing: {name} not found (Debian: apt-get install libfftw3-dev; {e})"))?;
        // SAFETY: the symbols are declared with fftw3.h's signatures (pointers as c_void).
        unsafe {
            let s = |n: &str| format!("{prefix}{n}");
            // Threads: in the main library on some builds, in *_threads on Debian's.
            let mut threads_lib = None;
            let mut init: Option<unsafe extern "C" fn() -> c_int> = sym(&lib, &s("init_threads")).ok();
            let mut nthreads: Option<unsafe extern "C" fn(c_int)> = sym(&lib, &s("plan_with_nthreads")).ok();
            if init.is_none() {
                if let Ok(t) = open_library("fftw", &threads, &dirs) {
                    init = sym(&t, &s("init_threads")).ok();
                    nthreads = sym(&t, &s("plan_with_nthreads")).ok();
                    threads_lib = Some(t);
                }
            }
            let plan_with_nthreads = match (init, nthreads) {
                (Some(init), Some(n)) if init() != 0 => Some(n),
                _ => None,
            };
            Ok(Fftw {
                plan_many_dft: sym(&lib, &s("plan_many_dft"))?,
                plan_many_dft_r2c: sym(&lib, &s("plan_many_dft_r2c"))?,
                plan_many_dft_c2r: sym(&lib, &s("plan_many_dft_c2r"))?,
                execute: sym(&lib, &s("execute"))?,
                destroy_plan: sym(&lib, &s("destroy_plan"))?,
                plan_with_nthreads,
                name,
                _lib: lib,
                _threads_lib: threads_lib,
            })
        }
    }

    /// FFTW for `precision`, loaded once per process.
    pub fn load(precision: Precision) -> Result<&'static Fftw, String> {
        static SINGLE: OnceLock<Result<Fftw, String>> = OnceLock::new();
        static DOUBLE: OnceLock<Result<Fftw, String>> = OnceLock::new();
        let cell = match precision {
            Precision::Single => &SINGLE,
            Precision::Double => &DOUBLE,
            Precision::Half => return Err("FFTW has no half precision".into()),
        };
        cell.get_or_init(|| Fftw::load_uncached(precision)).as_ref().map_err(Clone::clone)
    }

    /// Whether plans can use several threads (the threads library was found).
    pub fn threaded(&self) -> bool {
        self.plan_with_nthreads.is_some()
    }

    /// Plans `case` over `input` and `output` (the same pointer in place) with FFTW_MEASURE,
    /// which overwrites both buffers while it measures: fill the input afterwards.
    ///
    /// # Safety
    /// The pointers must be host buffers of the plan's precision covering `layout` (offsets
    /// included), alive and unaliased by other work for as long as the plan is executed.
    pub unsafe fn plan(&'static self, case: &FftArgs, layout: &PeerLayout, input: *mut c_void, output: *mut c_void, threads: usize) -> Result<FftwPlan, String> {
        let int = |v: i64| c_int::try_from(v).map_err(|_| format!("{v} does not fit FFTW's int"));
        let ints = |v: &[i64]| v.iter().map(|&x| int(x)).collect::<Result<Vec<_>, _>>();
        let n = ints(&layout.n)?;
        let (ie, oe) = (ints(&layout.input.embed)?, ints(&layout.output.embed)?);
        let (is, id, os, od) = (int(layout.input.stride)?, int(layout.input.dist)?, int(layout.output.stride)?, int(layout.output.dist)?);
        let batch = int(case.batch as i64)?;
        let rb = case.precision.real_bytes();
        let input = (input as *mut u8).add(layout.input.offset_scalars * rb) as *mut c_void;
        let output = (output as *mut u8).add(layout.output.offset_scalars * rb) as *mut c_void;
        let rank = n.len() as c_int;
        let _guard = PLANNER.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(f) = self.plan_with_nthreads {
            f(threads.max(1) as c_int);
        }
        let plan = match case.transform {
            TransformType::ComplexForward | TransformType::ComplexInverse => {
                let sign = if case.transform == TransformType::ComplexForward { FFTW_FORWARD } else { FFTW_BACKWARD };
                (self.plan_many_dft)(rank, n.as_ptr(), batch, input, ie.as_ptr(), is, id, output, oe.as_ptr(), os, od, sign, FFTW_MEASURE)
            }
            TransformType::RealForward => (self.plan_many_dft_r2c)(rank, n.as_ptr(), batch, input, ie.as_ptr(), is, id, output, oe.as_ptr(), os, od, FFTW_MEASURE),
            TransformType::RealInverse => (self.plan_many_dft_c2r)(rank, n.as_ptr(), batch, input, ie.as_ptr(), is, id, output, oe.as_ptr(), os, od, FFTW_MEASURE),
        };
        if plan.is_null() {
            return Err(format!("{} could not plan {}", self.name, case.label()));
        }
        Ok(FftwPlan { api: self, plan })
    }
}

/// An FFTW plan bound to the buffers it was made for.
pub struct FftwPlan {
    api: &'static Fftw,
    plan: *mut c_void,
}

impl FftwPlan {
    /// Runs the plan on its buffers (FFTW's c2r overwrites its input).
    pub fn execute(&self) {
        // SAFETY: the plan is live; `plan`'s contract keeps its buffers valid.
        unsafe { (self.api.execute)(self.plan) }
    }
}

impl Drop for FftwPlan {
    fn drop(&mut self) {
        let _guard = PLANNER.lock().unwrap_or_else(|p| p.into_inner());
        // SAFETY: the plan came from this library's planner and is destroyed once.
        unsafe { (self.api.destroy_plan)(self.plan) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fft::{compare, generate_input, peer_layout, verdict, ScalarFft, View};
    use crate::rustfft_peer::RustFft;
    use rocmath_fft::{Placement, Plan};
    use rocmath_runtime::Device;

    /// FFTW against RustFFT on the same input, where FFTW is installed (it is not needed by CI).
    #[test]
    fn agrees_with_rustfft_where_installed() {
        let fftw = match Fftw::load(Precision::Double) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("skipped: {e}");
                return;
            }
        };
        let t = [TransformType::ComplexForward, TransformType::ComplexInverse, TransformType::RealForward, TransformType::RealInverse];
        for transform in t {
            for lengths in [vec![64], vec![15], vec![12, 5], vec![9, 4, 6]] {
                for (batch, inplace) in [(3, false), (2, true)] {
                    let case = FftArgs { precision: Precision::Double, transform, lengths: lengths.clone(), batch, inplace, ..FftArgs::default() };
                    let placement = if inplace { Placement::InPlace } else { Placement::NotInPlace };
                    let plan = Plan::new(&Device::cpu(), placement, transform, Precision::Double, &lengths, batch, None).unwrap();
                    let (il, ol) = (plan.input_layout().clone(), plan.output_layout().clone());
                    let (ins, outs) = (plan.input_scalars()[0], plan.output_scalars()[0]);
                    let in_len = if inplace { ins.max(outs) } else { ins };
                    let input: Vec<f64> = generate_input(&case, &il, in_len);
                    let layout = peer_layout(&case, &il, &ol).unwrap();
                    let (mut a, mut b) = (vec![0.0f64; in_len], vec![0.0f64; outs]);
                    let out_ptr = if inplace { a.as_mut_ptr() } else { b.as_mut_ptr() };
                    let p = unsafe { fftw.plan(&case, &layout, a.as_mut_ptr() as *mut c_void, out_ptr as *mut c_void, 2) }.unwrap();
                    a.copy_from_slice(&input);
                    p.execute();
                    drop(p);
                    let got = if inplace { a } else { b };
                    let (mut c, mut d) = (input.clone(), vec![0.0f64; outs]);
                    let r = RustFft::<f64>::new(&case, 1);
                    if inplace {
                        r.run(&mut c, None);
                    } else {
                        r.run(&mut c, Some(&mut d));
                    }
                    let want = if inplace { c } else { d };
                    let olen = case.output_lengths();
                    let v = |data| View { data, layout: &ol, lengths: &olen, complex: case.complex_output() };
                    let entries: Vec<usize> = (0..batch).collect();
                    let n = compare(&v(&got), &entries, &v(&want), &entries);
                    verdict(&n, Precision::Double, case.n()).unwrap_or_else(|m| panic!("{}: {m}", case.label()));
                }
            }
        }
        println!("FFTW ({}, threaded: {}) agrees with RustFFT", fftw.name, fftw.threaded());
    }
}
