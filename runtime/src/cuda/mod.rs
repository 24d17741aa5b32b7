//! NVIDIA: the CUDA driver API (libcuda.so.1) and nvrtc, both loaded at run time.
//!
//! Memory, streams and modules use the device's primary context, which is also the context the
//! CUDA runtime (and so cuBLAS) uses: buffers are shared with vendor libraries without copies.
use crate::gpu::{Driver, RawEvent, RawFunction, RawModule, RawStream, TensorMap, TensorMapDesc};
use crate::loader::{open_library, toolkit_dirs};
use crate::rtc::{self, RtcCalls};
use crate::{dyn_api, Backend, DeviceProperties, Error, Result};
use std::cell::Cell;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::{Arc, Mutex, OnceLock};

type CuResult = c_int;
type CuDevice = c_int;
type CuContext = *mut c_void;
type NvrtcProgram = *mut c_void;

dyn_api! {
    pub struct CudaApi("cuda") {
        init = "cuInit": fn(c_uint) -> CuResult;
        device_get_count = "cuDeviceGetCount": fn(*mut c_int) -> CuResult;
        device_get = "cuDeviceGet": fn(*mut CuDevice, c_int) -> CuResult;
        device_get_name = "cuDeviceGetName": fn(*mut c_char, c_int, CuDevice) -> CuResult;
        device_total_mem = "cuDeviceTotalMem_v2": fn(*mut usize, CuDevice) -> CuResult;
        device_get_attribute = "cuDeviceGetAttribute": fn(*mut c_int, c_int, CuDevice) -> CuResult;
        primary_ctx_retain = "cuDevicePrimaryCtxRetain": fn(*mut CuContext, CuDevice) -> CuResult;
        ctx_set_current = "cuCtxSetCurrent": fn(CuContext) -> CuResult;
        mem_alloc = "cuMemAlloc_v2": fn(*mut u64, usize) -> CuResult;
        mem_free = "cuMemFree_v2": fn(u64) -> CuResult;
        memcpy_htod_async = "cuMemcpyHtoDAsync_v2": fn(u64, *const c_void, usize, usize) -> CuResult;
        memcpy_dtoh_async = "cuMemcpyDtoHAsync_v2": fn(*mut c_void, u64, usize, usize) -> CuResult;
        memcpy_dtod_async = "cuMemcpyDtoDAsync_v2": fn(u64, u64, usize, usize) -> CuResult;
        memset_d8_async = "cuMemsetD8Async": fn(u64, u8, usize, usize) -> CuResult;
        stream_create = "cuStreamCreate": fn(*mut usize, c_uint) -> CuResult;
        stream_destroy = "cuStreamDestroy_v2": fn(usize) -> CuResult;
        stream_synchronize = "cuStreamSynchronize": fn(usize) -> CuResult;
        event_create = "cuEventCreate": fn(*mut usize, c_uint) -> CuResult;
        event_destroy = "cuEventDestroy_v2": fn(usize) -> CuResult;
        event_record = "cuEventRecord": fn(usize, usize) -> CuResult;
        event_synchronize = "cuEventSynchronize": fn(usize) -> CuResult;
        module_load_data = "cuModuleLoadData": fn(*mut usize, *const c_void) -> CuResult;
        module_unload = "cuModuleUnload": fn(usize) -> CuResult;
        module_get_function = "cuModuleGetFunction": fn(*mut usize, usize, *const c_char) -> CuResult;
        func_set_attribute = "cuFuncSetAttribute": fn(usize, c_int, c_int) -> CuResult;
        occupancy_max_active_blocks = "cuOccupancyMaxActiveBlocksPerMultiprocessor": fn(*mut c_int, usize, c_int, usize) -> CuResult;
        launch_kernel = "cuLaunchKernel": fn(usize, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, usize, *mut *mut c_void, *mut *mut c_void) -> CuResult;
        get_error_name = "cuGetErrorName": fn(CuResult, *mut *const c_char) -> CuResult;
        driver_get_version = "cuDriverGetVersion": fn(*mut c_int) -> CuResult;
    }
}

dyn_api! {
    pub struct NvrtcApi("nvrtc") {
        version = "nvrtcVersion": fn(*mut c_int, *mut c_int) -> c_int;
        create_program = "nvrtcCreateProgram": fn(*mut NvrtcProgram, *const c_char, *const c_char, c_int, *const *const c_char, *const *const c_char) -> c_int;
        compile_program = "nvrtcCompileProgram": fn(NvrtcProgram, c_int, *const *const c_char) -> c_int;
        get_program_log_size = "nvrtcGetProgramLogSize": fn(NvrtcProgram, *mut usize) -> c_int;
        get_program_log = "nvrtcGetProgramLog": fn(NvrtcProgram, *mut c_char) -> c_int;
        get_cubin_size = "nvrtcGetCUBINSize": fn(NvrtcProgram, *mut usize) -> c_int;
        get_cubin = "nvrtcGetCUBIN": fn(NvrtcProgram, *mut c_char) -> c_int;
        destroy_program = "nvrtcDestroyProgram": fn(*mut NvrtcProgram) -> c_int;
        get_error_string = "nvrtcGetErrorString": fn(c_int) -> *const c_char;
    }
}

// CUdevice_attribute values (cuda.h).
const ATTR_MAX_THREADS_PER_BLOCK: c_int = 1;
const ATTR_WARP_SIZE: c_int = 10;
const ATTR_CLOCK_RATE: c_int = 13;
const ATTR_MULTIPROCESSOR_COUNT: c_int = 16;
const ATTR_L2_CACHE_SIZE: c_int = 38;
const ATTR_COMPUTE_CAPABILITY_MAJOR: c_int = 75;
const ATTR_COMPUTE_CAPABILITY_MINOR: c_int = 76;
const ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: c_int = 81;
const ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: c_int = 97;
/// cuTensorMapEncodeTiled(map, dataType, rank, globalAddress, globalDim, globalStrides, boxDim,
/// elementStrides, interleave, swizzle, l2Promotion, oobFill).
type EncodeTiled = unsafe extern "C" fn(
    *mut TensorMap, c_int, c_uint, *mut c_void, *const u64, *const u64, *const c_uint, *const c_uint, c_int, c_int, c_int, c_int,
) -> CuResult;
// CUtensorMap* enums (cuda.h).
const TENSOR_MAP_DATA_TYPE_UINT8: c_int = 0;
const TENSOR_MAP_DATA_TYPE_UINT16: c_int = 1;
const TENSOR_MAP_DATA_TYPE_UINT32: c_int = 2;
const TENSOR_MAP_INTERLEAVE_NONE: c_int = 0;
const TENSOR_MAP_SWIZZLE_128B: c_int = 3;
const TENSOR_MAP_L2_PROMOTION_L2_256B: c_int = 3;
const TENSOR_MAP_FLOAT_OOB_FILL_NONE: c_int = 0;
// CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
const FUNC_ATTR_MAX_DYNAMIC_SHARED: c_int = 8;
// cuStreamCreate flags: CU_STREAM_NON_BLOCKING, so our streams never serialise with stream 0.
const STREAM_NON_BLOCKING: c_uint = 1;

/// The loaded CUDA driver, shared by every CUDA device.
pub struct CudaDriver {
    api: CudaApi,
    /// Event timing: `cuEventElapsedTime_v2` (CUDA 12.8+) else the original.
    event_elapsed: unsafe extern "C" fn(*mut f32, usize, usize) -> CuResult,
    /// `cuTensorMapEncodeTiled` (CUDA 12+ drivers; absent before).
    encode_tiled: Option<EncodeTiled>,
    contexts: Mutex<Vec<Option<usize>>>,
}

thread_local! {
    /// The context last made current on this thread, to skip redundant cuCtxSetCurrent calls.
    static CURRENT: Cell<usize> = const { Cell::new(0) };
}

static DRIVER: OnceLock<Result<Arc<CudaDriver>>> = OnceLock::new();

/// The CUDA driver, loaded once per process. Fails cleanly when libcuda is absent or no device
/// answers cuInit.
pub fn driver() -> Result<Arc<dyn Driver>> {
    DRIVER.get_or_init(load).clone().map(|d| d as Arc<dyn Driver>)
}

fn load() -> Result<Arc<CudaDriver>> {
    let lib = open_library("cuda", &["libcuda.so.1", "libcuda.so"], &[])?;
    // SAFETY: both symbols have the signature of cuda.h's cuEventElapsedTime(_v2).
    let event_elapsed = unsafe {
        let v2 = lib.get::<unsafe extern "C" fn(*mut f32, usize, usize) -> CuResult>(b"cuEventElapsedTime_v2\0");
        match v2 {
            Ok(f) => *f,
            Err(_) => *lib.get(b"cuEventElapsedTime\0").map_err(|e| Error::BackendUnavailable {
                backend: "cuda",
                tried: vec![format!("libcuda: symbol cuEventElapsedTime: {e}")],
            })?,
        }
    };
    // SAFETY: the signature of cuda.h's cuTensorMapEncodeTiled.
    let encode_tiled = unsafe { lib.get::<EncodeTiled>(b"cuTensorMapEncodeTiled\0").ok().map(|f| *f) };
    let api = CudaApi::load(lib, "libcuda.so.1")?;
    let d = CudaDriver { api, event_elapsed, encode_tiled, contexts: Mutex::new(Vec::new()) };
    d.check("cuInit", unsafe { (d.api.init)(0) })?;
    let mut count = 0;
    d.check("cuDeviceGetCount", unsafe { (d.api.device_get_count)(&mut count) })?;
    *d.contexts.lock().unwrap_or_else(|e| e.into_inner()) = vec![None; count.max(0) as usize];
    Ok(Arc::new(d))
}

/// nvrtc on its own: compiles CUDA C++ to a cubin for a named arch. It needs no GPU and no
/// libcuda, so `rocmath-aot` can build the ahead-of-time kernel cache on any machine.
pub struct Nvrtc {
    api: NvrtcApi,
}

static NVRTC: OnceLock<Result<Nvrtc>> = OnceLock::new();

impl Nvrtc {
    /// The process's nvrtc, loaded on first use (`CUDA_HOME`/`CUDA_PATH`, then the CUDA
    /// toolkit's usual directories, then the system loader's path).
    pub fn get() -> Result<&'static Nvrtc> {
        NVRTC
            .get_or_init(|| {
                let names = ["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so"];
                let dirs = toolkit_dirs(&["CUDA_HOME", "CUDA_PATH"], &["/usr/local/cuda/lib64", "/usr/local/cuda/lib"]);
                let lib = open_library("nvrtc", &names, &dirs)?;
                Ok(Nvrtc { api: NvrtcApi::load(lib, "libnvrtc")? })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// `(major, minor)`.
    pub fn version(&self) -> Result<(i32, i32)> {
        let (mut major, mut minor) = (0, 0);
        self.check("nvrtcVersion", unsafe { (self.api.version)(&mut major, &mut minor) })?;
        Ok((major, minor))
    }

    fn check(&self, call: &'static str, code: c_int) -> Result<()> {
        if code == 0 {
            return Ok(());
        }
        // SAFETY: nvrtcGetErrorString returns a static string.
        let name = unsafe { CStr::from_ptr((self.api.get_error_string)(code)).to_string_lossy().into_owned() };
        Err(Error::Driver { backend: "nvrtc", call, code, name })
    }

    /// The cubin of `source` for `arch` (a real arch such as `sm_90`, so the image is machine
    /// code and loading it runs no PTX compiler).
    pub fn compile(&self, module: &str, source: &str, arch: &str, options: &[String]) -> Result<Vec<u8>> {
        let api = &self.api;
        let calls = RtcCalls {
            create: api.create_program,
            compile: api.compile_program,
            log_size: api.get_program_log_size,
            log: api.get_program_log,
            code_size: api.get_cubin_size,
            code: api.get_cubin,
            destroy: api.destroy_program,
            names: ["nvrtcCreateProgram", "nvrtcGetCUBINSize", "nvrtcGetCUBIN"],
            check: &|call, code| self.check(call, code),
        };
        let arch_flag = format!("--gpu-architecture={arch}");
        rtc::compile(&calls, module, &format!("{module}.cu"), source, arch, &[&arch_flag, "--std=c++17"], options)
    }
}

impl CudaDriver {
    fn check(&self, call: &'static str, code: CuResult) -> Result<()> {
        if code == 0 {
            return Ok(());
        }
        let mut name: *const c_char = std::ptr::null();
        // SAFETY: cuGetErrorName writes a static string pointer or leaves it null.
        let name = unsafe {
            if (self.api.get_error_name)(code, &mut name) == 0 && !name.is_null() {
                CStr::from_ptr(name).to_string_lossy().into_owned()
            } else {
                "CUDA_ERROR_UNKNOWN".into()
            }
        };
        Err(Error::Driver { backend: "cuda", call, code, name })
    }

    fn device(&self, ordinal: usize) -> Result<CuDevice> {
        let mut dev = 0;
        self.check("cuDeviceGet", unsafe { (self.api.device_get)(&mut dev, ordinal as c_int) })?;
        Ok(dev)
    }

    /// Makes device `ordinal`'s primary context current on this thread.
    fn bind(&self, ordinal: usize) -> Result<()> {
        let ctx = {
            let mut ctxs = self.contexts.lock().unwrap_or_else(|e| e.into_inner());
            let count = ctxs.len();
            let slot = ctxs
                .get_mut(ordinal)
                .ok_or(Error::NoSuchDevice { backend: "cuda", ordinal, count })?;
            match slot {
                Some(c) => *c,
                None => {
                    let dev = self.device(ordinal)?;
                    let mut ctx: CuContext = std::ptr::null_mut();
                    self.check("cuDevicePrimaryCtxRetain", unsafe { (self.api.primary_ctx_retain)(&mut ctx, dev) })?;
                    *slot = Some(ctx as usize);
                    ctx as usize
                }
            }
        };
        if CURRENT.with(|c| c.get()) != ctx {
            self.check("cuCtxSetCurrent", unsafe { (self.api.ctx_set_current)(ctx as CuContext) })?;
            CURRENT.with(|c| c.set(ctx));
        }
        Ok(())
    }

    fn attribute(&self, dev: CuDevice, attr: c_int) -> Result<usize> {
        let mut v = 0;
        self.check("cuDeviceGetAttribute", unsafe { (self.api.device_get_attribute)(&mut v, attr, dev) })?;
        Ok(v.max(0) as usize)
    }
}

impl Driver for CudaDriver {
    fn backend(&self) -> Backend {
        Backend::Cuda
    }

    fn device_count(&self) -> Result<usize> {
        Ok(self.contexts.lock().unwrap_or_else(|e| e.into_inner()).len())
    }

    fn properties(&self, ordinal: usize) -> Result<DeviceProperties> {
        let dev = self.device(ordinal)?;
        let mut name = [0 as c_char; 256];
        self.check("cuDeviceGetName", unsafe { (self.api.device_get_name)(name.as_mut_ptr(), 256, dev) })?;
        let mut mem = 0usize;
        self.check("cuDeviceTotalMem_v2", unsafe { (self.api.device_total_mem)(&mut mem, dev) })?;
        let major = self.attribute(dev, ATTR_COMPUTE_CAPABILITY_MAJOR)?;
        let minor = self.attribute(dev, ATTR_COMPUTE_CAPABILITY_MINOR)?;
        Ok(DeviceProperties {
            backend: Backend::Cuda,
            // SAFETY: cuDeviceGetName writes a NUL-terminated string into the 256 bytes.
            name: unsafe { CStr::from_ptr(name.as_ptr()) }.to_string_lossy().into_owned(),
            arch: format!("sm_{major}{minor}"),
            compute_units: self.attribute(dev, ATTR_MULTIPROCESSOR_COUNT)?,
            total_memory: mem,
            shared_memory_per_block: self.attribute(dev, ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
            shared_memory_per_cu: self.attribute(dev, ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?,
            wave_size: self.attribute(dev, ATTR_WARP_SIZE)?,
            max_threads_per_block: self.attribute(dev, ATTR_MAX_THREADS_PER_BLOCK)?,
            l2_cache_bytes: self.attribute(dev, ATTR_L2_CACHE_SIZE)?,
            clock_khz: self.attribute(dev, ATTR_CLOCK_RATE)?,
        })
    }

    fn malloc(&self, ordinal: usize, bytes: usize) -> Result<u64> {
        self.bind(ordinal)?;
        let mut p = 0u64;
        self.check("cuMemAlloc_v2", unsafe { (self.api.mem_alloc)(&mut p, bytes) })?;
        Ok(p)
    }

    fn free(&self, ordinal: usize, ptr: u64) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuMemFree_v2", unsafe { (self.api.mem_free)(ptr) })
    }

    unsafe fn copy_h2d(&self, ordinal: usize, dst: u64, src: *const u8, bytes: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuMemcpyHtoDAsync_v2", (self.api.memcpy_htod_async)(dst, src as *const c_void, bytes, stream))
    }

    unsafe fn copy_d2h(&self, ordinal: usize, dst: *mut u8, src: u64, bytes: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuMemcpyDtoHAsync_v2", (self.api.memcpy_dtoh_async)(dst as *mut c_void, src, bytes, stream))
    }

    fn copy_d2d(&self, ordinal: usize, dst: u64, src: u64, bytes: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuMemcpyDtoDAsync_v2", unsafe { (self.api.memcpy_dtod_async)(dst, src, bytes, stream) })
    }

    fn memset_d8(&self, ordinal: usize, dst: u64, value: u8, bytes: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuMemsetD8Async", unsafe { (self.api.memset_d8_async)(dst, value, bytes, stream) })
    }

    fn stream_create(&self, ordinal: usize) -> Result<RawStream> {
        self.bind(ordinal)?;
        let mut s = 0usize;
        self.check("cuStreamCreate", unsafe { (self.api.stream_create)(&mut s, STREAM_NON_BLOCKING) })?;
        Ok(s)
    }

    fn stream_destroy(&self, ordinal: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuStreamDestroy_v2", unsafe { (self.api.stream_destroy)(stream) })
    }

    fn stream_synchronize(&self, ordinal: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuStreamSynchronize", unsafe { (self.api.stream_synchronize)(stream) })
    }

    fn event_create(&self, ordinal: usize) -> Result<RawEvent> {
        self.bind(ordinal)?;
        let mut e = 0usize;
        self.check("cuEventCreate", unsafe { (self.api.event_create)(&mut e, 0) })?;
        Ok(e)
    }

    fn event_destroy(&self, ordinal: usize, event: RawEvent) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuEventDestroy_v2", unsafe { (self.api.event_destroy)(event) })
    }

    fn event_record(&self, ordinal: usize, event: RawEvent, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuEventRecord", unsafe { (self.api.event_record)(event, stream) })
    }

    fn event_synchronize(&self, ordinal: usize, event: RawEvent) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuEventSynchronize", unsafe { (self.api.event_synchronize)(event) })
    }

    fn event_elapsed_ms(&self, ordinal: usize, start: RawEvent, end: RawEvent) -> Result<f32> {
        self.bind(ordinal)?;
        let mut ms = 0f32;
        self.check("cuEventElapsedTime", unsafe { (self.event_elapsed)(&mut ms, start, end) })?;
        Ok(ms)
    }

    fn module_load(&self, ordinal: usize, image: &[u8]) -> Result<RawModule> {
        self.bind(ordinal)?;
        let mut m = 0usize;
        self.check("cuModuleLoadData", unsafe { (self.api.module_load_data)(&mut m, image.as_ptr() as *const c_void) })?;
        Ok(m)
    }

    fn module_unload(&self, ordinal: usize, module: RawModule) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuModuleUnload", unsafe { (self.api.module_unload)(module) })
    }

    fn module_function(&self, ordinal: usize, module: RawModule, name: &CStr) -> Result<RawFunction> {
        self.bind(ordinal)?;
        let mut f = 0usize;
        self.check("cuModuleGetFunction", unsafe { (self.api.module_get_function)(&mut f, module, name.as_ptr()) })?;
        Ok(f)
    }

    fn set_max_dynamic_shared(&self, ordinal: usize, function: RawFunction, bytes: u32) -> Result<()> {
        self.bind(ordinal)?;
        self.check("cuFuncSetAttribute", unsafe {
            (self.api.func_set_attribute)(function, FUNC_ATTR_MAX_DYNAMIC_SHARED, bytes as c_int)
        })
    }

    fn max_active_blocks(&self, ordinal: usize, function: RawFunction, block_threads: u32, shared_bytes: u32) -> Result<u32> {
        self.bind(ordinal)?;
        let mut blocks: c_int = 0;
        self.check("cuOccupancyMaxActiveBlocksPerMultiprocessor", unsafe {
            (self.api.occupancy_max_active_blocks)(&mut blocks, function, block_threads as c_int, shared_bytes as usize)
        })?;
        Ok(blocks.max(0) as u32)
    }

    fn tensor_map(&self, desc: &TensorMapDesc) -> Result<TensorMap> {
        let f = self.encode_tiled.ok_or_else(|| Error::InvalidArgument {
            name: "tensor_map",
            reason: "this CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or newer needed)".into(),
        })?;
        let data_type = match desc.element_bytes {
            1 => TENSOR_MAP_DATA_TYPE_UINT8,
            2 => TENSOR_MAP_DATA_TYPE_UINT16,
            4 => TENSOR_MAP_DATA_TYPE_UINT32,
            e => return Err(Error::InvalidArgument { name: "tensor_map", reason: format!("{e}-byte elements (1, 2 or 4 supported)") }),
        };
        let mut map = TensorMap([0; 16]);
        let element_strides = [1 as c_uint; 3];
        // SAFETY: every array has the rank's length (3, and 2 strides); the driver only encodes
        // (it validates alignment and bounds and reads no device memory).
        let code = unsafe {
            f(
                &mut map,
                data_type,
                3,
                desc.address as *mut c_void,
                desc.dims.as_ptr(),
                desc.strides.as_ptr(),
                desc.box_dims.as_ptr(),
                element_strides.as_ptr(),
                TENSOR_MAP_INTERLEAVE_NONE,
                TENSOR_MAP_SWIZZLE_128B,
                TENSOR_MAP_L2_PROMOTION_L2_256B,
                TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            )
        };
        self.check("cuTensorMapEncodeTiled", code)?;
        Ok(map)
    }

    unsafe fn launch(
        &self,
        ordinal: usize,
        function: RawFunction,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        stream: RawStream,
        args: *mut *mut c_void,
    ) -> Result<()> {
        self.bind(ordinal)?;
        self.check(
            "cuLaunchKernel",
            (self.api.launch_kernel)(
                function, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes, stream, args,
                std::ptr::null_mut(),
            ),
        )
    }

    fn compile(&self, module: &str, source: &str, arch: &str, options: &[String]) -> Result<Vec<u8>> {
        Nvrtc::get()?.compile(module, source, arch, options)
    }

    fn compiler_version(&self) -> Result<String> {
        let (major, minor) = Nvrtc::get()?.version()?;
        let mut drv = 0;
        self.check("cuDriverGetVersion", unsafe { (self.api.driver_get_version)(&mut drv) })?;
        Ok(format!("nvrtc {major}.{minor} driver {drv}"))
    }
}
