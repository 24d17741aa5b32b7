//! cuBLAS, loaded at run time, as the peer that rocmath-bench times on the same inputs.
//! It shares the CUDA primary context the runtime uses, so rocmath's device buffers are passed
//! to it directly.
use rocmath_runtime::loader::{open_library, toolkit_dirs};
use rocmath_runtime::{dyn_api, Error, Result};
use std::ffi::{c_int, c_void};

dyn_api! {
    pub struct CublasApi("cublas") {
        create = "cublasCreate_v2": fn(*mut *mut c_void) -> c_int;
        destroy = "cublasDestroy_v2": fn(*mut c_void) -> c_int;
        set_stream = "cublasSetStream_v2": fn(*mut c_void, usize) -> c_int;
        gemm_strided_batched_ex = "cublasGemmStridedBatchedEx": fn(
            *mut c_void, c_int, c_int, c_int, c_int, c_int,
            *const c_void, *const c_void, c_int, c_int, i64,
            *const c_void, c_int, c_int, i64,
            *const c_void, *mut c_void, c_int, c_int, i64,
            c_int, c_int, c_int) -> c_int;
    }
}

/// cudaDataType_t values (library_types.h).
pub mod dtype {
    pub const R_32F: i32 = 0;
    pub const R_64F: i32 = 1;
    pub const R_16F: i32 = 2;
    pub const R_8I: i32 = 3;
    pub const C_32F: i32 = 4;
    pub const C_64F: i32 = 5;
    pub const R_32I: i32 = 10;
    pub const R_16BF: i32 = 14;
}

/// cublasComputeType_t values (cublas_api.h).
pub mod compute {
    pub const C32F: i32 = 68;
    pub const C32F_FAST_TF32: i32 = 77;
    pub const C64F: i32 = 70;
    pub const C32I: i32 = 72;
}

const CUBLAS_GEMM_DEFAULT: c_int = -1;

pub struct Cublas {
    api: CublasApi,
    handle: *mut c_void,
}

impl Cublas {
    /// Loads libcublas (CUDA_HOME/CUDA_PATH, /usr/local/cuda, pip's nvidia-cublas, the system
    /// path; `ROCMATH_CUBLAS` names a file explicitly) and creates a handle bound to `stream`.
    pub fn new(stream: usize) -> Result<Cublas> {
        let mut dirs = toolkit_dirs(&["CUDA_HOME", "CUDA_PATH"], &["/usr/local/cuda/lib64"]);
        dirs.extend(pip_nvidia_dirs("cublas"));
        let explicit = std::env::var("ROCMATH_CUBLAS").ok();
        let mut names = vec!["libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"];
        if let Some(e) = explicit.as_deref() {
            names.insert(0, e);
        }
        let lib = open_library("cublas", &names, &dirs)?;
        let api = CublasApi::load(lib, "libcublas")?;
        let mut handle = std::ptr::null_mut();
        check("cublasCreate_v2", unsafe { (api.create)(&mut handle) })?;
        let me = Cublas { api, handle };
        check("cublasSetStream_v2", unsafe { (me.api.set_stream)(me.handle, stream) })?;
        Ok(me)
    }

    /// cublasGemmStridedBatchedEx; `trans` as cublasOperation_t (0 N, 1 T, 2 C).
    ///
    /// # Safety
    /// Pointers must be device pointers valid for the described matrices; alpha/beta host
    /// pointers of the compute type's scalar.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn gemm(
        &self,
        trans: [i32; 2],
        [m, n, k]: [usize; 3],
        alpha: *const c_void,
        a: (u64, i32, usize, i64),
        b: (u64, i32, usize, i64),
        beta: *const c_void,
        c: (u64, i32, usize, i64),
        batch: usize,
        compute_type: i32,
    ) -> Result<()> {
        check(
            "cublasGemmStridedBatchedEx",
            (self.api.gemm_strided_batched_ex)(
                self.handle, trans[0], trans[1], m as c_int, n as c_int, k as c_int, alpha,
                a.0 as *const c_void, a.1, a.2 as c_int, a.3,
                b.0 as *const c_void, b.1, b.2 as c_int, b.3,
                beta, c.0 as *mut c_void, c.1, c.2 as c_int, c.3,
                batch as c_int, compute_type, CUBLAS_GEMM_DEFAULT,
            ),
        )
    }
}

impl Drop for Cublas {
    fn drop(&mut self) {
        // SAFETY: the handle came from cublasCreate_v2; a failure here has nowhere to go.
        unsafe { (self.api.destroy)(self.handle) };
    }
}

fn check(call: &'static str, code: c_int) -> Result<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(Error::Driver { backend: "cublas", call, code, name: format!("cublasStatus_t {code}") })
    }
}

/// `site-packages/nvidia/<lib>/lib` (and `nvidia/cu13/lib`) under the Python environments
/// commonly present on GPU machines, where pip's CUDA wheels put the vendor libraries.
pub fn pip_nvidia_dirs(lib: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for root in ["/opt/torch/.venv/lib", "/usr/local/lib", "/usr/lib"] {
        let Ok(entries) = std::fs::read_dir(root) else { continue };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.starts_with("python3") {
                for sub in ["site-packages", "dist-packages"] {
                    let base = e.path().join(sub).join("nvidia");
                    out.push(base.join(lib).join("lib"));
                    out.push(base.join("cu13").join("lib"));
                }
            }
        }
    }
    out
}
