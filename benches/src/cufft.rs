//! cuFFT, loaded at run time, as the peer that `rocmath-bench fft` times on the same device
//! buffers: cufftPlanMany + cufftExec{C2C,Z2Z,R2C,C2R,D2Z,Z2D} for single and double, the Xt
//! API (cufftXtMakePlanMany / cufftXtExec) for half. Like cuBLAS it runs on the CUDA primary
//! context the runtime uses, on the queue's stream (cufftSetStream). cuFFT's dimensions are
//! slowest first, the reverse of rocFFT's ([`rocmath_bench::fft::PeerLayout`]).
use crate::cublas::pip_nvidia_dirs;
use rocmath_bench::fft::{FftArgs, PeerLayout};
use rocmath_fft::{Precision, TransformType};
use rocmath_runtime::loader::{open_library, toolkit_dirs};
use rocmath_runtime::{dyn_api, Error, Result};
use std::ffi::{c_int, c_longlong, c_void};
use std::sync::OnceLock;

dyn_api! {
    pub struct CufftApi("cufft") {
        plan_many = "cufftPlanMany": fn(*mut c_int, c_int, *mut c_int, *mut c_int, c_int, c_int, *mut c_int, c_int, c_int, c_int, c_int) -> c_int;
        set_stream = "cufftSetStream": fn(c_int, usize) -> c_int;
        destroy = "cufftDestroy": fn(c_int) -> c_int;
        get_version = "cufftGetVersion": fn(*mut c_int) -> c_int;
        exec_c2c = "cufftExecC2C": fn(c_int, *mut c_void, *mut c_void, c_int) -> c_int;
        exec_z2z = "cufftExecZ2Z": fn(c_int, *mut c_void, *mut c_void, c_int) -> c_int;
        exec_r2c = "cufftExecR2C": fn(c_int, *mut c_void, *mut c_void) -> c_int;
        exec_c2r = "cufftExecC2R": fn(c_int, *mut c_void, *mut c_void) -> c_int;
        exec_d2z = "cufftExecD2Z": fn(c_int, *mut c_void, *mut c_void) -> c_int;
        exec_z2d = "cufftExecZ2D": fn(c_int, *mut c_void, *mut c_void) -> c_int;
    }
}

dyn_api! {
    pub struct CufftXtApi("cufft") {
        create = "cufftCreate": fn(*mut c_int) -> c_int;
        make_plan_many = "cufftXtMakePlanMany": fn(
            c_int, c_int, *mut c_longlong, *mut c_longlong, c_longlong, c_longlong, c_int,
            *mut c_longlong, c_longlong, c_longlong, c_int, c_longlong, *mut usize, c_int) -> c_int;
        exec = "cufftXtExec": fn(c_int, *mut c_void, *mut c_void, c_int) -> c_int;
    }
}

/// cufftType values (cufft.h).
pub mod kind {
    pub const R2C: i32 = 0x2a;
    pub const C2R: i32 = 0x2c;
    pub const C2C: i32 = 0x29;
    pub const D2Z: i32 = 0x6a;
    pub const Z2D: i32 = 0x6c;
    pub const Z2Z: i32 = 0x69;
}

const CUFFT_FORWARD: c_int = -1;
const CUFFT_INVERSE: c_int = 1;
/// cudaDataType_t for the Xt (half) path.
const CUDA_R_16F: c_int = 2;
const CUDA_C_16F: c_int = 6;

/// How a plan is executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exec {
    C2c(i32),
    Z2z(i32),
    R2c,
    C2r,
    D2z,
    Z2d,
    /// cufftXtExec with a direction (half precision).
    Xt(i32),
}

/// The cufftType and execution of a transform; `None` for half (the Xt API describes it by
/// data types, [`xt_types`]).
pub fn plan_type(precision: Precision, transform: TransformType) -> (Option<i32>, Exec) {
    let dir = if transform.sign() < 0 { CUFFT_FORWARD } else { CUFFT_INVERSE };
    use TransformType::*;
    match (precision, transform) {
        (Precision::Single, ComplexForward | ComplexInverse) => (Some(kind::C2C), Exec::C2c(dir)),
        (Precision::Double, ComplexForward | ComplexInverse) => (Some(kind::Z2Z), Exec::Z2z(dir)),
        (Precision::Single, RealForward) => (Some(kind::R2C), Exec::R2c),
        (Precision::Single, RealInverse) => (Some(kind::C2R), Exec::C2r),
        (Precision::Double, RealForward) => (Some(kind::D2Z), Exec::D2z),
        (Precision::Double, RealInverse) => (Some(kind::Z2D), Exec::Z2d),
        (Precision::Half, _) => (None, Exec::Xt(dir)),
    }
}

/// Input, output and execution cudaDataType_t of a half-precision transform.
pub fn xt_types(transform: TransformType) -> [c_int; 3] {
    match transform {
        TransformType::ComplexForward | TransformType::ComplexInverse => [CUDA_C_16F, CUDA_C_16F, CUDA_C_16F],
        TransformType::RealForward => [CUDA_R_16F, CUDA_C_16F, CUDA_C_16F],
        TransformType::RealInverse => [CUDA_C_16F, CUDA_R_16F, CUDA_C_16F],
    }
}

/// cufftResult's names (cufft.h).
pub fn result_name(code: c_int) -> String {
    const NAMES: [&str; 17] = [
        "CUFFT_SUCCESS",
        "CUFFT_INVALID_PLAN",
        "CUFFT_ALLOC_FAILED",
        "CUFFT_INVALID_TYPE",
        "CUFFT_INVALID_VALUE",
        "CUFFT_INTERNAL_ERROR",
        "CUFFT_EXEC_FAILED",
        "CUFFT_SETUP_FAILED",
        "CUFFT_INVALID_SIZE",
        "CUFFT_UNALIGNED_DATA",
        "CUFFT_INCOMPLETE_PARAMETER_LIST",
        "CUFFT_INVALID_DEVICE",
        "CUFFT_PARSE_ERROR",
        "CUFFT_NO_WORKSPACE",
        "CUFFT_NOT_IMPLEMENTED",
        "CUFFT_LICENSE_ERROR",
        "CUFFT_NOT_SUPPORTED",
    ];
    usize::try_from(code).ok().and_then(|i| NAMES.get(i)).map_or_else(|| format!("cufftResult {code}"), |n| n.to_string())
}

fn check(call: &'static str, code: c_int) -> Result<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(Error::Driver { backend: "cufft", call, code, name: result_name(code) })
    }
}

pub struct Cufft {
    api: CufftApi,
    xt: Option<CufftXtApi>,
    pub version: i32,
}

impl Cufft {
    fn open() -> Result<libloading::Library> {
        let mut dirs = toolkit_dirs(&["CUDA_HOME", "CUDA_PATH"], &["/usr/local/cuda/lib64"]);
        dirs.extend(pip_nvidia_dirs("cufft"));
        let explicit = std::env::var("ROCMATH_CUFFT").ok();
        let mut names = vec!["libcufft.so.12", "libcufft.so.13", "libcufft.so.11", "libcufft.so.10", "libcufft.so"];
        if let Some(e) = explicit.as_deref() {
            names.insert(0, e);
        }
        open_library("cufft", &names, &dirs)
    }

    fn load_uncached() -> Result<Cufft> {
        let api = CufftApi::load(Cufft::open()?, "libcufft")?;
        // The Xt entry points (half precision) are optional: a second handle on the same file.
        let xt = Cufft::open().and_then(|lib| CufftXtApi::load(lib, "libcufft")).ok();
        let mut version = 0;
        check("cufftGetVersion", unsafe { (api.get_version)(&mut version) })?;
        Ok(Cufft { api, xt, version })
    }

    /// Loads libcufft once per process (CUDA_HOME/CUDA_PATH, /usr/local/cuda, pip's
    /// nvidia-cufft, the system path; `ROCMATH_CUFFT` names a file explicitly).
    pub fn load() -> std::result::Result<&'static Cufft, String> {
        static LIB: OnceLock<std::result::Result<Cufft, String>> = OnceLock::new();
        LIB.get_or_init(|| Cufft::load_uncached().map_err(|e| e.to_string())).as_ref().map_err(Clone::clone)
    }

    /// Plans `case` with `layout` (cuFFT's advanced layout) on `stream`.
    pub fn plan(&'static self, case: &FftArgs, layout: &PeerLayout, stream: usize) -> Result<CufftPlan> {
        let (ty, exec) = plan_type(case.precision, case.transform);
        let mut handle: c_int = 0;
        match ty {
            Some(ty) => {
                let int = |v: i64| {
                    c_int::try_from(v).map_err(|_| Error::InvalidArgument { name: "length", reason: format!("{v} does not fit cufftPlanMany's int") })
                };
                let ints = |v: &[i64]| v.iter().map(|&x| int(x)).collect::<Result<Vec<_>>>();
                let (mut n, mut ie, mut oe) = (ints(&layout.n)?, ints(&layout.input.embed)?, ints(&layout.output.embed)?);
                let (i, o) = (&layout.input, &layout.output);
                // SAFETY: the arrays hold `rank` entries each; the handle is written by cuFFT.
                check("cufftPlanMany", unsafe {
                    (self.api.plan_many)(&mut handle, n.len() as c_int, n.as_mut_ptr(), ie.as_mut_ptr(), int(i.stride)?, int(i.dist)?, oe.as_mut_ptr(), int(o.stride)?, int(o.dist)?, ty, int(case.batch as i64)?)
                })?;
            }
            None => {
                let xt = self.xt.as_ref().ok_or_else(|| Error::BackendUnavailable { backend: "cufft", tried: vec!["cufftXtMakePlanMany (half precision) not in libcufft".into()] })?;
                let [tin, tout, texec] = xt_types(case.transform);
                let (mut n, mut ie, mut oe) = (layout.n.clone(), layout.input.embed.clone(), layout.output.embed.clone());
                let (i, o) = (&layout.input, &layout.output);
                let mut work = 0usize;
                check("cufftCreate", unsafe { (xt.create)(&mut handle) })?;
                // SAFETY: as above, 64-bit sizes.
                let made = check("cufftXtMakePlanMany", unsafe {
                    (xt.make_plan_many)(handle, n.len() as c_int, n.as_mut_ptr(), ie.as_mut_ptr(), i.stride, i.dist, tin, oe.as_mut_ptr(), o.stride, o.dist, tout, case.batch as c_longlong, &mut work, texec)
                });
                if let Err(e) = made {
                    unsafe { (self.api.destroy)(handle) };
                    return Err(e);
                }
            }
        }
        let plan = CufftPlan { lib: self, handle, exec, offsets: [layout.input.offset_scalars, layout.output.offset_scalars], real_bytes: case.precision.real_bytes() };
        check("cufftSetStream", unsafe { (self.api.set_stream)(handle, stream) })?;
        Ok(plan)
    }
}

/// A cuFFT plan (destroyed on drop).
pub struct CufftPlan {
    lib: &'static Cufft,
    handle: c_int,
    exec: Exec,
    offsets: [usize; 2],
    real_bytes: usize,
}

impl CufftPlan {
    /// Queues the transform of `input` into `output` (the same pointer in place) on the plan's
    /// stream.
    ///
    /// # Safety
    /// Device pointers of the plan's device covering the layout it was made with.
    pub unsafe fn execute(&self, input: u64, output: u64) -> Result<()> {
        let a = &self.lib.api;
        let i = (input as usize + self.offsets[0] * self.real_bytes) as *mut c_void;
        let o = (output as usize + self.offsets[1] * self.real_bytes) as *mut c_void;
        let h = self.handle;
        match self.exec {
            Exec::C2c(dir) => check("cufftExecC2C", (a.exec_c2c)(h, i, o, dir)),
            Exec::Z2z(dir) => check("cufftExecZ2Z", (a.exec_z2z)(h, i, o, dir)),
            Exec::R2c => check("cufftExecR2C", (a.exec_r2c)(h, i, o)),
            Exec::C2r => check("cufftExecC2R", (a.exec_c2r)(h, i, o)),
            Exec::D2z => check("cufftExecD2Z", (a.exec_d2z)(h, i, o)),
            Exec::Z2d => check("cufftExecZ2D", (a.exec_z2d)(h, i, o)),
            Exec::Xt(dir) => {
                let xt = self.lib.xt.as_ref().expect("an Xt plan was made with the Xt API");
                check("cufftXtExec", (xt.exec)(h, i, o, dir))
            }
        }
    }
}

impl Drop for CufftPlan {
    fn drop(&mut self) {
        // SAFETY: the handle came from cufftPlanMany/cufftCreate; a failure has nowhere to go.
        unsafe { (self.lib.api.destroy)(self.handle) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_directions() {
        use TransformType::*;
        assert_eq!(plan_type(Precision::Single, ComplexForward), (Some(0x29), Exec::C2c(-1)));
        assert_eq!(plan_type(Precision::Single, ComplexInverse), (Some(0x29), Exec::C2c(1)));
        assert_eq!(plan_type(Precision::Double, ComplexInverse), (Some(0x69), Exec::Z2z(1)));
        assert_eq!(plan_type(Precision::Single, RealForward), (Some(0x2a), Exec::R2c));
        assert_eq!(plan_type(Precision::Single, RealInverse), (Some(0x2c), Exec::C2r));
        assert_eq!(plan_type(Precision::Double, RealForward), (Some(0x6a), Exec::D2z));
        assert_eq!(plan_type(Precision::Double, RealInverse), (Some(0x6c), Exec::Z2d));
        assert_eq!(plan_type(Precision::Half, RealInverse), (None, Exec::Xt(1)));
        assert_eq!(xt_types(RealForward), [CUDA_R_16F, CUDA_C_16F, CUDA_C_16F]);
        assert_eq!(xt_types(RealInverse), [CUDA_C_16F, CUDA_R_16F, CUDA_C_16F]);
        assert_eq!(result_name(8), "CUFFT_INVALID_SIZE");
        assert_eq!(result_name(99), "cufftResult 99");
    }

    #[test]
    fn a_missing_library_is_an_error() {
        // On a machine without CUDA this is an error naming what was tried; with it, a version.
        match Cufft::load() {
            Ok(c) => assert!(c.version > 0),
            Err(e) => assert!(e.contains("cufft"), "{e}"),
        }
    }
}
