//! AMD: the HIP runtime (libamdhip64) and hiprtc, both loaded at run time.
//!
//! The structure mirrors `cuda/mod.rs`: a `dyn_api!` table of entry points, one driver per
//! process (`driver()`, loaded once), a per-thread cache of the current device, error names from
//! `hipGetErrorName`, and run-time compilation through hiprtc (loaded lazily on first compile).
//!
//! HIP has no explicit contexts in the API we use: `hipSetDevice` selects the calling thread's
//! device, and memory, streams and modules belong to that device. Buffers are ordinary HIP device
//! allocations, so they can be handed to rocBLAS & co. without copies.
//!
//! Status: this file is compiled and its no-ROCm paths are tested here, but it has NOT been run
//! against a real AMD GPU (there is no ROCm install or AMD device on the development machine).
//! Every constant below was taken from ROCm's own headers; see the comments at each one.
use crate::gpu::{Driver, RawEvent, RawFunction, RawModule, RawStream};
use crate::loader::{open_library, toolkit_dirs};
use crate::rtc::{self, RtcCalls};
use crate::{dyn_api, Backend, DeviceProperties, Error, Result};
use std::cell::Cell;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// `hipError_t`: a 32-bit enum (`hipSuccess` = 0).
type HipError = c_int;
/// `hiprtcResult`: a 32-bit enum (`HIPRTC_SUCCESS` = 0).
type HiprtcResult = c_int;
type HiprtcProgram = *mut c_void;

dyn_api! {
    pub struct HipApi("hip") {
        init = "hipInit": fn(c_uint) -> HipError;
        get_device_count = "hipGetDeviceCount": fn(*mut c_int) -> HipError;
        set_device = "hipSetDevice": fn(c_int) -> HipError;
        device_get_name = "hipDeviceGetName": fn(*mut c_char, c_int, c_int) -> HipError;
        device_total_mem = "hipDeviceTotalMem": fn(*mut usize, c_int) -> HipError;
        device_get_attribute = "hipDeviceGetAttribute": fn(*mut c_int, c_int, c_int) -> HipError;
        malloc = "hipMalloc": fn(*mut *mut c_void, usize) -> HipError;
        free = "hipFree": fn(*mut c_void) -> HipError;
        // hipDeviceptr_t is `void*`; we pass device addresses as u64 (same width on LP64).
        memcpy_htod_async = "hipMemcpyHtoDAsync": fn(u64, *const c_void, usize, usize) -> HipError;
        memcpy_dtoh_async = "hipMemcpyDtoHAsync": fn(*mut c_void, u64, usize, usize) -> HipError;
        memcpy_dtod_async = "hipMemcpyDtoDAsync": fn(u64, u64, usize, usize) -> HipError;
        memset_d8_async = "hipMemsetD8Async": fn(u64, u8, usize, usize) -> HipError;
        stream_create_with_flags = "hipStreamCreateWithFlags": fn(*mut usize, c_uint) -> HipError;
        stream_destroy = "hipStreamDestroy": fn(usize) -> HipError;
        stream_synchronize = "hipStreamSynchronize": fn(usize) -> HipError;
        event_create = "hipEventCreate": fn(*mut usize) -> HipError;
        event_destroy = "hipEventDestroy": fn(usize) -> HipError;
        event_record = "hipEventRecord": fn(usize, usize) -> HipError;
        event_synchronize = "hipEventSynchronize": fn(usize) -> HipError;
        event_elapsed_time = "hipEventElapsedTime": fn(*mut f32, usize, usize) -> HipError;
        module_load_data = "hipModuleLoadData": fn(*mut usize, *const c_void) -> HipError;
        module_unload = "hipModuleUnload": fn(usize) -> HipError;
        module_get_function = "hipModuleGetFunction": fn(*mut usize, usize, *const c_char) -> HipError;
        occupancy_max_active_blocks = "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor": fn(*mut c_int, usize, c_int, usize) -> HipError;
        module_launch_kernel = "hipModuleLaunchKernel": fn(usize, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, usize, *mut *mut c_void, *mut *mut c_void) -> HipError;
        // Unlike cuGetErrorName, this returns the string directly ("hipErrorUnknown" for codes it
        // does not know).
        get_error_name = "hipGetErrorName": fn(HipError) -> *const c_char;
        runtime_get_version = "hipRuntimeGetVersion": fn(*mut c_int) -> HipError;
        driver_get_version = "hipDriverGetVersion": fn(*mut c_int) -> HipError;
    }
}

dyn_api! {
    pub struct HiprtcApi("hiprtc") {
        version = "hiprtcVersion": fn(*mut c_int, *mut c_int) -> HiprtcResult;
        create_program = "hiprtcCreateProgram": fn(*mut HiprtcProgram, *const c_char, *const c_char, c_int, *const *const c_char, *const *const c_char) -> HiprtcResult;
        compile_program = "hiprtcCompileProgram": fn(HiprtcProgram, c_int, *const *const c_char) -> HiprtcResult;
        get_program_log_size = "hiprtcGetProgramLogSize": fn(HiprtcProgram, *mut usize) -> HiprtcResult;
        get_program_log = "hiprtcGetProgramLog": fn(HiprtcProgram, *mut c_char) -> HiprtcResult;
        get_code_size = "hiprtcGetCodeSize": fn(HiprtcProgram, *mut usize) -> HiprtcResult;
        get_code = "hiprtcGetCode": fn(HiprtcProgram, *mut c_char) -> HiprtcResult;
        destroy_program = "hiprtcDestroyProgram": fn(*mut HiprtcProgram) -> HiprtcResult;
        get_error_string = "hiprtcGetErrorString": fn(HiprtcResult) -> *const c_char;
    }
}

// hipDeviceAttribute_t values, from ROCm's include/hip/hip_runtime_api.h (ROCm 6 numbering):
// repo ROCm/HIP, branch amd-staging at c5e11fca (HIP 6.3.0), checked equal in tags rocm-6.0.0,
// rocm-6.0.2 and branches rocm-6.0.x/6.1.x/6.2.x, and in the ROCm 7 header
// (ROCm/rocm-systems projects/hip/include/hip/hip_runtime_api.h, which only appends new
// attributes after these and adds an alias `hipDeviceAttributePciDomainID = ...Id` that takes no
// number of its own). The values were obtained by compiling the header's enum with gcc, not by
// hand counting; ROCm 5.0-5.7 (branches rocm-5.x.x) give the same numbers for all of them.
/// hipDeviceAttributeClockRate (kHz).
const ATTR_CLOCK_RATE: c_int = 5;
/// hipDeviceAttributeL2CacheSize (bytes).
const ATTR_L2_CACHE_SIZE: c_int = 19;
/// hipDeviceAttributeMaxThreadsPerBlock.
const ATTR_MAX_THREADS_PER_BLOCK: c_int = 56;
/// hipDeviceAttributeMultiprocessorCount (CUs; half the CUs when an RDNA GPU runs in WGP mode).
const ATTR_MULTIPROCESSOR_COUNT: c_int = 63;
/// hipDeviceAttributeSharedMemPerBlockOptin. On AMD it equals
/// hipDeviceAttributeMaxSharedMemoryPerBlock (74): both report the LDS size per CU (clr
/// hipamd/src/hip_device.cpp: sharedMemPerBlock and sharedMemPerBlockOptin are both
/// `localMemSizePerCU_`).
const ATTR_SHARED_MEM_PER_BLOCK_OPTIN: c_int = 75;
/// hipDeviceAttributeWarpSize (64 on CDNA, 32 on RDNA).
const ATTR_WARP_SIZE: c_int = 87;
/// hipDeviceAttributeMaxSharedMemoryPerMultiprocessor (AMD-specific block, 10000 + 2): the LDS
/// of one CU. NOT hipDeviceAttributeSharedMemPerMultiprocessor (76), which HIP reports as LDS per
/// CU times the number of CUs (clr hip_device.cpp: `localMemSizePerCU_ * numRTCUs_`).
const ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: c_int = 10002;

// hipStreamCreateWithFlags flag hipStreamNonBlocking (hip_runtime_api.h `#define hipStreamNonBlocking
// 0x01`): our streams never serialise with the null stream.
const STREAM_NON_BLOCKING: c_uint = 1;

// ---------------------------------------------------------------------------------------------
// hipDeviceProp_t and gcnArchName.
//
// No device attribute gives the gfx target (hipDeviceAttributeGcnArchName was retired: it is
// `hipDeviceAttributeUnused5` in ROCm 6), so we call hipGetDeviceProperties into a zeroed buffer
// and read the `char gcnArchName[256]` field at its offset in the struct of that symbol's ABI.
//
// libamdhip64 exports (clr hipamd/src/hip_hcc.map.in and hip_device.cpp, ROCm 6.x):
//   - `hipGetDevicePropertiesR0600` (version node hip_6.0): fills `hipDeviceProp_tR0600`, the
//     struct that `hipDeviceProp_t` names in ROCm 6 and 7 headers
//     (`#define hipGetDeviceProperties hipGetDevicePropertiesR0600`).
//   - `hipGetDeviceProperties` (version node hip_4.2): in ROCm 6 an alias of
//     `hipGetDevicePropertiesR0000`, filling `hipDeviceProp_tR0000` (hip_deprecated.h); in ROCm
//     5.x the only entry point, filling the 5.x `hipDeviceProp_t`, which is field-for-field the
//     same struct as R0000 (diffed against branch rocm-5.7.x; gcnArchName is at 396 in every
//     branch rocm-5.0.x..rocm-5.7.x).
// We take R0600 when present, else the plain symbol with the R0000 layout; with neither, the
// backend is unavailable (we do not guess a layout).
//
// Offsets are for 64-bit Linux (LP64: size_t and pointers 8 bytes, int 4). They were computed by
// compiling the headers' structs with gcc (offsetof) and are checked again in the tests below
// against `#[repr(C)]` mirrors of each struct's prefix. Derivation, R0600:
//   name[256] 0, hipUUID uuid (char[16]) 256, luid[8] 272, unsigned luidDeviceNodeMask 280,
//   (pad to 8) size_t totalGlobalMem 288, sharedMemPerBlock 296, int regsPerBlock 304,
//   int warpSize 308, ... (the CUDA-mirroring fields) ..., int reserved[63] at 780,
//   int hipReserved[32] at 780 + 63*4 = 1032, char gcnArchName[256] at 1032 + 32*4 = 1160.
// R0000:
//   name[256] 0, size_t totalGlobalMem 256, sharedMemPerBlock 264, int regsPerBlock 272,
//   int warpSize 276, maxThreadsPerBlock 280, maxThreadsDim[3] 284, maxGridSize[3] 296,
//   clockRate 308, memoryClockRate 312, memoryBusWidth 316, size_t totalConstMem 320,
//   int major 328, minor 332, multiProcessorCount 336, l2CacheSize 340,
//   maxThreadsPerMultiProcessor 344, computeMode 348, clockInstructionRate 352,
//   hipDeviceArch_t arch (a 4-byte bitfield struct) 356, concurrentKernels 360, pciDomainID 364,
//   pciBusID 368, pciDeviceID 372, size_t maxSharedMemoryPerMultiProcessor 376,
//   int isMultiGpuBoard 384, canMapHostMemory 388, gcnArch 392, char gcnArchName[256] 396.
// As a guard against a layout we do not know, the `warpSize` field read from the same buffer
// must equal hipDeviceAttributeWarpSize, and gcnArchName must be a NUL-terminated `gfx...` name.

/// Offset of `gcnArchName` in `hipDeviceProp_tR0600` (ROCm 6.0 through 7.x).
const GCN_ARCH_NAME_OFFSET_R0600: usize = 1160;
/// Offset of `warpSize` in `hipDeviceProp_tR0600`.
const WARP_SIZE_OFFSET_R0600: usize = 308;
/// Offset of `gcnArchName` in `hipDeviceProp_tR0000` (= ROCm 5.x `hipDeviceProp_t`).
const GCN_ARCH_NAME_OFFSET_R0000: usize = 396;
/// Offset of `warpSize` in `hipDeviceProp_tR0000`.
const WARP_SIZE_OFFSET_R0000: usize = 276;
/// Size of the buffer handed to hipGetDeviceProperties: sizeof(hipDeviceProp_tR0600) is 1472
/// and sizeof(hipDeviceProp_tR0000) is 792; 4096 leaves ample room for a runtime that writes
/// more than its header says.
const DEVICE_PROP_BUFFER_BYTES: usize = 4096;
const GCN_ARCH_NAME_LEN: usize = 256;
const _: () = assert!(
    1472 <= DEVICE_PROP_BUFFER_BYTES
        && GCN_ARCH_NAME_OFFSET_R0600 + GCN_ARCH_NAME_LEN <= DEVICE_PROP_BUFFER_BYTES
        && GCN_ARCH_NAME_OFFSET_R0000 + GCN_ARCH_NAME_LEN <= DEVICE_PROP_BUFFER_BYTES
);

type GetDevicePropertiesFn = unsafe extern "C" fn(*mut c_void, c_int) -> HipError;

/// Which hipGetDeviceProperties entry point was found, and so which struct layout it fills.
#[derive(Clone, Copy)]
enum PropsAbi {
    R0600(GetDevicePropertiesFn),
    R0000(GetDevicePropertiesFn),
}

impl PropsAbi {
    fn symbol(self) -> &'static str {
        match self {
            PropsAbi::R0600(_) => "hipGetDevicePropertiesR0600",
            PropsAbi::R0000(_) => "hipGetDeviceProperties",
        }
    }

    /// (gcnArchName offset, warpSize offset) for this ABI.
    fn offsets(self) -> (usize, usize) {
        match self {
            PropsAbi::R0600(_) => (GCN_ARCH_NAME_OFFSET_R0600, WARP_SIZE_OFFSET_R0600),
            PropsAbi::R0000(_) => (GCN_ARCH_NAME_OFFSET_R0000, WARP_SIZE_OFFSET_R0000),
        }
    }

    fn function(self) -> GetDevicePropertiesFn {
        match self {
            PropsAbi::R0600(f) | PropsAbi::R0000(f) => f,
        }
    }
}

/// The gfx target without target-feature suffixes: `gfx942:sramecc+:xnack-` -> `gfx942`,
/// `gfx90a:xnack+` -> `gfx90a`, `gfx1100` -> `gfx1100`. A full target triple
/// (`amdgcn-amd-amdhsa--gfx942:xnack-`) is reduced to its processor too.
pub fn strip_target_features(target: &str) -> &str {
    let processor = target.trim().split(':').next().unwrap_or("");
    match processor.rfind("--") {
        Some(i) => &processor[i + 2..],
        None => processor,
    }
}

/// A bare gfx processor name: `gfx` followed by ASCII letters/digits.
fn is_gfx_name(arch: &str) -> bool {
    arch.len() > 3 && arch.starts_with("gfx") && arch.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The 8-byte-aligned zeroed buffer hipGetDeviceProperties writes into.
#[repr(C, align(8))]
struct PropBuffer([u8; DEVICE_PROP_BUFFER_BYTES]);

/// Reads gcnArchName and warpSize out of a filled properties buffer laid out as `abi` says.
/// Returns the arch with its feature suffixes stripped.
fn arch_from_props(buf: &[u8], abi: PropsAbi, expected_warp: usize) -> Result<String> {
    let (name_at, warp_at) = abi.offsets();
    let layout_error = |what: String| Error::BackendUnavailable {
        backend: "hip",
        tried: vec![format!(
            "{}: {what}; this libamdhip64's hipDeviceProp_t layout is not the one this build knows \
             (gcnArchName at {name_at}, warpSize at {warp_at})",
            abi.symbol()
        )],
    };
    let field = buf
        .get(name_at..name_at + GCN_ARCH_NAME_LEN)
        .ok_or_else(|| layout_error("properties buffer too small".into()))?;
    let warp = buf
        .get(warp_at..warp_at + 4)
        .map(|b| i32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| layout_error("properties buffer too small".into()))?;
    if warp < 0 || warp as usize != expected_warp {
        return Err(layout_error(format!(
            "warpSize field reads {warp} but hipDeviceAttributeWarpSize is {expected_warp}"
        )));
    }
    let full = CStr::from_bytes_until_nul(field)
        .map_err(|_| layout_error("gcnArchName is not NUL-terminated".into()))?
        .to_string_lossy();
    let arch = strip_target_features(&full);
    if !is_gfx_name(arch) {
        return Err(layout_error(format!("gcnArchName reads {full:?}, not a gfx target")));
    }
    Ok(arch.to_string())
}

// ---------------------------------------------------------------------------------------------

/// The loaded HIP runtime, shared by every HIP device.
pub struct HipDriver {
    api: HipApi,
    props: PropsAbi,
    hiprtc: OnceLock<Result<HiprtcApi>>,
    count: usize,
    /// Per device: the most dynamic LDS one block may use (read on first need).
    lds_limit: Mutex<Vec<Option<usize>>>,
}

thread_local! {
    /// The device last made current on this thread (`usize::MAX`: none yet), to skip redundant
    /// hipSetDevice calls.
    static CURRENT: Cell<usize> = const { Cell::new(usize::MAX) };
}

static DRIVER: OnceLock<Result<Arc<HipDriver>>> = OnceLock::new();

/// The HIP runtime, loaded once per process. Fails cleanly (never panics) when libamdhip64 or a
/// symbol is absent, or when hipInit / hipGetDeviceCount fail (HIP reports "no device" as the
/// error hipErrorNoDevice rather than a count of 0).
pub fn driver() -> Result<Arc<dyn Driver>> {
    DRIVER.get_or_init(load).clone().map(|d| d as Arc<dyn Driver>)
}

/// `$ROCM_PATH/{lib64,lib}`, `$HIP_PATH/{lib64,lib}`, `/opt/rocm/lib`; then the system loader.
fn rocm_dirs() -> Vec<PathBuf> {
    toolkit_dirs(&["ROCM_PATH", "HIP_PATH"], &["/opt/rocm/lib"])
}

/// Opens the first of `sonames` that loads; on failure the error also names the directories
/// searched (`open_library` lists only the files it actually tried to open).
fn open_rocm_library(backend: &'static str, sonames: &[&str]) -> Result<libloading::Library> {
    let dirs = rocm_dirs();
    open_library(backend, sonames, &dirs).map_err(|e| match e {
        Error::BackendUnavailable { backend, mut tried } => {
            let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            tried.push(format!(
                "searched for {} in [{}], then the system loader path",
                sonames.join(", "),
                dirs.join(", ")
            ));
            Error::BackendUnavailable { backend, tried }
        }
        other => other,
    })
}

fn load() -> Result<Arc<HipDriver>> {
    let lib = open_rocm_library(
        "hip",
        &["libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"],
    )?;
    // SAFETY: both symbols have the signature `hipError_t (void* prop, int device)` (the prop
    // pointer's type differs by ABI, which `PropsAbi` records).
    let props = unsafe {
        match lib.get::<GetDevicePropertiesFn>(b"hipGetDevicePropertiesR0600\0") {
            Ok(f) => PropsAbi::R0600(*f),
            Err(e600) => match lib.get::<GetDevicePropertiesFn>(b"hipGetDeviceProperties\0") {
                Ok(f) => PropsAbi::R0000(*f),
                Err(e) => {
                    return Err(Error::BackendUnavailable {
                        backend: "hip",
                        tried: vec![
                            format!("libamdhip64: symbol hipGetDevicePropertiesR0600: {e600}"),
                            format!("libamdhip64: symbol hipGetDeviceProperties: {e}"),
                        ],
                    })
                }
            },
        }
    };
    let api = HipApi::load(lib, "libamdhip64")?;
    let mut d = HipDriver { api, props, hiprtc: OnceLock::new(), count: 0, lds_limit: Mutex::new(Vec::new()) };
    d.check("hipInit", unsafe { (d.api.init)(0) })?;
    let mut count = 0;
    d.check("hipGetDeviceCount", unsafe { (d.api.get_device_count)(&mut count) })?;
    d.count = count.max(0) as usize;
    d.lds_limit = Mutex::new(vec![None; d.count]);
    Ok(Arc::new(d))
}

fn load_hiprtc() -> Result<HiprtcApi> {
    let lib = open_rocm_library(
        "hiprtc",
        &["libhiprtc.so.7", "libhiprtc.so.6", "libhiprtc.so.5", "libhiprtc.so"],
    )?;
    HiprtcApi::load(lib, "libhiprtc")
}

impl HipDriver {
    fn check(&self, call: &'static str, code: HipError) -> Result<()> {
        if code == 0 {
            return Ok(());
        }
        // SAFETY: hipGetErrorName returns a pointer to a static string (or null).
        let name = unsafe {
            let p = (self.api.get_error_name)(code);
            if p.is_null() {
                "hipErrorUnknown".into()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        };
        Err(Error::Driver { backend: "hip", call, code, name })
    }

    fn ordinal_check(&self, ordinal: usize) -> Result<c_int> {
        if ordinal < self.count {
            Ok(ordinal as c_int)
        } else {
            Err(Error::NoSuchDevice { backend: "hip", ordinal, count: self.count })
        }
    }

    /// Makes device `ordinal` current on this thread.
    fn bind(&self, ordinal: usize) -> Result<()> {
        let dev = self.ordinal_check(ordinal)?;
        if CURRENT.with(|c| c.get()) != ordinal {
            self.check("hipSetDevice", unsafe { (self.api.set_device)(dev) })?;
            CURRENT.with(|c| c.set(ordinal));
        }
        Ok(())
    }

    fn attribute(&self, dev: c_int, attr: c_int) -> Result<usize> {
        let mut v = 0;
        self.check("hipDeviceGetAttribute", unsafe { (self.api.device_get_attribute)(&mut v, attr, dev) })?;
        Ok(v.max(0) as usize)
    }

    /// The device's gfx target (`gfx942`), feature suffixes stripped.
    fn arch(&self, dev: c_int, warp_size: usize) -> Result<String> {
        let mut buf = Box::new(PropBuffer([0u8; DEVICE_PROP_BUFFER_BYTES]));
        let call = self.props.symbol();
        // SAFETY: the buffer is zeroed, 8-byte aligned and larger than either struct.
        // Compiled, not run: no AMD GPU was available to check this call against.
        self.check(call, unsafe { (self.props.function())(buf.0.as_mut_ptr() as *mut c_void, dev) })?;
        arch_from_props(&buf.0, self.props, warp_size)
    }

    fn lds_limit(&self, ordinal: usize) -> Result<usize> {
        let dev = self.ordinal_check(ordinal)?;
        let mut limits = self.lds_limit.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(Some(l)) = limits.get(ordinal) {
            return Ok(*l);
        }
        let l = self.attribute(dev, ATTR_SHARED_MEM_PER_BLOCK_OPTIN)?;
        if let Some(slot) = limits.get_mut(ordinal) {
            *slot = Some(l);
        }
        Ok(l)
    }

    fn hiprtc(&self) -> Result<&HiprtcApi> {
        self.hiprtc.get_or_init(load_hiprtc).as_ref().map_err(Clone::clone)
    }

    fn hiprtc_check(&self, api: &HiprtcApi, call: &'static str, code: HiprtcResult) -> Result<()> {
        if code == 0 {
            return Ok(());
        }
        // SAFETY: hiprtcGetErrorString returns a static string (or null).
        let name = unsafe {
            let p = (api.get_error_string)(code);
            if p.is_null() {
                "HIPRTC_ERROR_UNKNOWN".into()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        };
        Err(Error::Driver { backend: "hiprtc", call, code, name })
    }
}

impl Driver for HipDriver {
    fn backend(&self) -> Backend {
        Backend::Hip
    }

    fn device_count(&self) -> Result<usize> {
        Ok(self.count)
    }

    fn properties(&self, ordinal: usize) -> Result<DeviceProperties> {
        let dev = self.ordinal_check(ordinal)?;
        let mut name = [0 as c_char; 256];
        self.check("hipDeviceGetName", unsafe { (self.api.device_get_name)(name.as_mut_ptr(), 256, dev) })?;
        // Guard against a runtime that fills all 256 bytes without a NUL.
        name[255] = 0;
        let mut mem = 0usize;
        self.check("hipDeviceTotalMem", unsafe { (self.api.device_total_mem)(&mut mem, dev) })?;
        let wave_size = self.attribute(dev, ATTR_WARP_SIZE)?;
        Ok(DeviceProperties {
            backend: Backend::Hip,
            // SAFETY: `name` is NUL-terminated (forced above).
            name: unsafe { CStr::from_ptr(name.as_ptr()) }.to_string_lossy().into_owned(),
            arch: self.arch(dev, wave_size)?,
            compute_units: self.attribute(dev, ATTR_MULTIPROCESSOR_COUNT)?,
            total_memory: mem,
            shared_memory_per_block: self.attribute(dev, ATTR_SHARED_MEM_PER_BLOCK_OPTIN)?,
            shared_memory_per_cu: self.attribute(dev, ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?,
            wave_size,
            max_threads_per_block: self.attribute(dev, ATTR_MAX_THREADS_PER_BLOCK)?,
            l2_cache_bytes: self.attribute(dev, ATTR_L2_CACHE_SIZE)?,
            clock_khz: self.attribute(dev, ATTR_CLOCK_RATE)?,
        })
    }

    fn malloc(&self, ordinal: usize, bytes: usize) -> Result<u64> {
        self.bind(ordinal)?;
        let mut p: *mut c_void = std::ptr::null_mut();
        self.check("hipMalloc", unsafe { (self.api.malloc)(&mut p, bytes) })?;
        Ok(p as u64)
    }

    fn free(&self, ordinal: usize, ptr: u64) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipFree", unsafe { (self.api.free)(ptr as *mut c_void) })
    }

    unsafe fn copy_h2d(&self, ordinal: usize, dst: u64, src: *const u8, bytes: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipMemcpyHtoDAsync", (self.api.memcpy_htod_async)(dst, src as *const c_void, bytes, stream))
    }

    unsafe fn copy_d2h(&self, ordinal: usize, dst: *mut u8, src: u64, bytes: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipMemcpyDtoHAsync", (self.api.memcpy_dtoh_async)(dst as *mut c_void, src, bytes, stream))
    }

    fn copy_d2d(&self, ordinal: usize, dst: u64, src: u64, bytes: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipMemcpyDtoDAsync", unsafe { (self.api.memcpy_dtod_async)(dst, src, bytes, stream) })
    }

    fn memset_d8(&self, ordinal: usize, dst: u64, value: u8, bytes: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipMemsetD8Async", unsafe { (self.api.memset_d8_async)(dst, value, bytes, stream) })
    }

    fn stream_create(&self, ordinal: usize) -> Result<RawStream> {
        self.bind(ordinal)?;
        let mut s = 0usize;
        self.check("hipStreamCreateWithFlags", unsafe {
            (self.api.stream_create_with_flags)(&mut s, STREAM_NON_BLOCKING)
        })?;
        Ok(s)
    }

    fn stream_destroy(&self, ordinal: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipStreamDestroy", unsafe { (self.api.stream_destroy)(stream) })
    }

    fn stream_synchronize(&self, ordinal: usize, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipStreamSynchronize", unsafe { (self.api.stream_synchronize)(stream) })
    }

    fn event_create(&self, ordinal: usize) -> Result<RawEvent> {
        self.bind(ordinal)?;
        let mut e = 0usize;
        self.check("hipEventCreate", unsafe { (self.api.event_create)(&mut e) })?;
        Ok(e)
    }

    fn event_destroy(&self, ordinal: usize, event: RawEvent) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipEventDestroy", unsafe { (self.api.event_destroy)(event) })
    }

    fn event_record(&self, ordinal: usize, event: RawEvent, stream: RawStream) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipEventRecord", unsafe { (self.api.event_record)(event, stream) })
    }

    fn event_synchronize(&self, ordinal: usize, event: RawEvent) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipEventSynchronize", unsafe { (self.api.event_synchronize)(event) })
    }

    fn event_elapsed_ms(&self, ordinal: usize, start: RawEvent, end: RawEvent) -> Result<f32> {
        self.bind(ordinal)?;
        let mut ms = 0f32;
        self.check("hipEventElapsedTime", unsafe { (self.api.event_elapsed_time)(&mut ms, start, end) })?;
        Ok(ms)
    }

    fn module_load(&self, ordinal: usize, image: &[u8]) -> Result<RawModule> {
        self.bind(ordinal)?;
        let mut m = 0usize;
        self.check("hipModuleLoadData", unsafe { (self.api.module_load_data)(&mut m, image.as_ptr() as *const c_void) })?;
        Ok(m)
    }

    fn module_unload(&self, ordinal: usize, module: RawModule) -> Result<()> {
        self.bind(ordinal)?;
        self.check("hipModuleUnload", unsafe { (self.api.module_unload)(module) })
    }

    fn module_function(&self, ordinal: usize, module: RawModule, name: &CStr) -> Result<RawFunction> {
        self.bind(ordinal)?;
        let mut f = 0usize;
        self.check("hipModuleGetFunction", unsafe { (self.api.module_get_function)(&mut f, module, name.as_ptr()) })?;
        Ok(f)
    }

    /// A no-op that only checks the limit. On AMD GPUs there is no opt-in for dynamic LDS: a
    /// dispatch packet carries the kernel's total group-segment (LDS) size, and any size up to the
    /// hardware's LDS per workgroup (64 KiB on gfx9/CDNA1-3 and RDNA, 160 KiB on gfx950) is
    /// accepted at launch. CUDA's 48 KiB default cap, which cuFuncSetAttribute lifts, has no AMD
    /// counterpart. (HIP's hipFuncSetAttribute(hipFuncAttributeMaxDynamicSharedMemorySize) only
    /// validates the value, and it takes a host-side kernel stub, not a hipFunction_t from
    /// hipModuleGetFunction, so it does not apply to our modules anyway.) The launch itself fails
    /// with an error if static + dynamic LDS exceed what the kernel can get.
    fn set_max_dynamic_shared(&self, ordinal: usize, _function: RawFunction, bytes: u32) -> Result<()> {
        let limit = self.lds_limit(ordinal)?;
        if bytes as usize > limit {
            return Err(Error::InvalidArgument {
                name: "shared_bytes",
                reason: format!("{bytes} bytes of dynamic LDS exceed hip device {ordinal}'s limit of {limit} bytes per block"),
            });
        }
        Ok(())
    }

    fn max_active_blocks(&self, ordinal: usize, function: RawFunction, block_threads: u32, shared_bytes: u32) -> Result<u32> {
        self.bind(ordinal)?;
        let mut blocks: c_int = 0;
        self.check("hipModuleOccupancyMaxActiveBlocksPerMultiprocessor", unsafe {
            (self.api.occupancy_max_active_blocks)(&mut blocks, function, block_threads as c_int, shared_bytes as usize)
        })?;
        Ok(blocks.max(0) as u32)
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
            "hipModuleLaunchKernel",
            (self.api.module_launch_kernel)(
                function, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes, stream, args,
                std::ptr::null_mut(),
            ),
        )
    }

    /// Compiles with hiprtc to an AMDGPU code object for `arch` (`gfx942`; a bare processor name
    /// gives code that loads whatever the device's xnack/sramecc modes are). Compiled, not run:
    /// hiprtc was not available on the development machine.
    fn compile(&self, module: &str, source: &str, arch: &str, options: &[String]) -> Result<Vec<u8>> {
        let api = self.hiprtc()?;
        let calls = RtcCalls {
            create: api.create_program,
            compile: api.compile_program,
            log_size: api.get_program_log_size,
            log: api.get_program_log,
            code_size: api.get_code_size,
            code: api.get_code,
            destroy: api.destroy_program,
            names: ["hiprtcCreateProgram", "hiprtcGetCodeSize", "hiprtcGetCode"],
            check: &|call, code| self.hiprtc_check(api, call, code),
        };
        let arch_flag = format!("--offload-arch={arch}");
        rtc::compile(&calls, module, &format!("{module}.hip"), source, arch, &[&arch_flag, "-O3", "-std=c++17"], options)
    }

    /// `hiprtc M.m runtime R driver D`: hiprtcVersion gives only major.minor, so the runtime
    /// version (which encodes major, minor and patch/build, e.g. 60342134) keys the cache too.
    fn compiler_version(&self) -> Result<String> {
        let api = self.hiprtc()?;
        let (mut major, mut minor, mut runtime, mut drv) = (0, 0, 0, 0);
        self.hiprtc_check(api, "hiprtcVersion", unsafe { (api.version)(&mut major, &mut minor) })?;
        self.check("hipRuntimeGetVersion", unsafe { (self.api.runtime_get_version)(&mut runtime) })?;
        self.check("hipDriverGetVersion", unsafe { (self.api.driver_get_version)(&mut drv) })?;
        Ok(format!("hiprtc {major}.{minor} runtime {runtime} driver {drv}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// `hipUUID` (hip_runtime_api.h): `struct { char bytes[16]; }`.
    #[repr(C)]
    struct HipUuid {
        _bytes: [c_char; 16],
    }

    /// `hipDeviceArch_t`: 21 one-bit `unsigned` bitfields, 4 bytes in all.
    #[repr(C)]
    struct HipDeviceArch {
        _bits: c_uint,
    }

    /// The prefix of `hipDeviceProp_tR0600` up to and including `gcnArchName`, field for field
    /// from ROCm/HIP include/hip/hip_runtime_api.h (HIP 6.3.0; identical in ROCm 7's
    /// ROCm/rocm-systems projects/hip/include/hip/hip_runtime_api.h).
    #[repr(C)]
    #[allow(non_snake_case, dead_code)]
    struct DevicePropR0600Prefix {
        name: [c_char; 256],
        uuid: HipUuid,
        luid: [c_char; 8],
        luidDeviceNodeMask: c_uint,
        totalGlobalMem: usize,
        sharedMemPerBlock: usize,
        regsPerBlock: c_int,
        warpSize: c_int,
        memPitch: usize,
        maxThreadsPerBlock: c_int,
        maxThreadsDim: [c_int; 3],
        maxGridSize: [c_int; 3],
        clockRate: c_int,
        totalConstMem: usize,
        major: c_int,
        minor: c_int,
        textureAlignment: usize,
        texturePitchAlignment: usize,
        deviceOverlap: c_int,
        multiProcessorCount: c_int,
        kernelExecTimeoutEnabled: c_int,
        integrated: c_int,
        canMapHostMemory: c_int,
        computeMode: c_int,
        maxTexture1D: c_int,
        maxTexture1DMipmap: c_int,
        maxTexture1DLinear: c_int,
        maxTexture2D: [c_int; 2],
        maxTexture2DMipmap: [c_int; 2],
        maxTexture2DLinear: [c_int; 3],
        maxTexture2DGather: [c_int; 2],
        maxTexture3D: [c_int; 3],
        maxTexture3DAlt: [c_int; 3],
        maxTextureCubemap: c_int,
        maxTexture1DLayered: [c_int; 2],
        maxTexture2DLayered: [c_int; 3],
        maxTextureCubemapLayered: [c_int; 2],
        maxSurface1D: c_int,
        maxSurface2D: [c_int; 2],
        maxSurface3D: [c_int; 3],
        maxSurface1DLayered: [c_int; 2],
        maxSurface2DLayered: [c_int; 3],
        maxSurfaceCubemap: c_int,
        maxSurfaceCubemapLayered: [c_int; 2],
        surfaceAlignment: usize,
        concurrentKernels: c_int,
        ECCEnabled: c_int,
        pciBusID: c_int,
        pciDeviceID: c_int,
        pciDomainID: c_int,
        tccDriver: c_int,
        asyncEngineCount: c_int,
        unifiedAddressing: c_int,
        memoryClockRate: c_int,
        memoryBusWidth: c_int,
        l2CacheSize: c_int,
        persistingL2CacheMaxSize: c_int,
        maxThreadsPerMultiProcessor: c_int,
        streamPrioritiesSupported: c_int,
        globalL1CacheSupported: c_int,
        localL1CacheSupported: c_int,
        sharedMemPerMultiprocessor: usize,
        regsPerMultiprocessor: c_int,
        managedMemory: c_int,
        isMultiGpuBoard: c_int,
        multiGpuBoardGroupID: c_int,
        hostNativeAtomicSupported: c_int,
        singleToDoublePrecisionPerfRatio: c_int,
        pageableMemoryAccess: c_int,
        concurrentManagedAccess: c_int,
        computePreemptionSupported: c_int,
        canUseHostPointerForRegisteredMem: c_int,
        cooperativeLaunch: c_int,
        cooperativeMultiDeviceLaunch: c_int,
        sharedMemPerBlockOptin: usize,
        pageableMemoryAccessUsesHostPageTables: c_int,
        directManagedMemAccessFromHost: c_int,
        maxBlocksPerMultiProcessor: c_int,
        accessPolicyMaxWindowSize: c_int,
        reservedSharedMemPerBlock: usize,
        hostRegisterSupported: c_int,
        sparseHipArraySupported: c_int,
        hostRegisterReadOnlySupported: c_int,
        timelineSemaphoreInteropSupported: c_int,
        memoryPoolsSupported: c_int,
        gpuDirectRDMASupported: c_int,
        gpuDirectRDMAFlushWritesOptions: c_uint,
        gpuDirectRDMAWritesOrdering: c_int,
        memoryPoolSupportedHandleTypes: c_uint,
        deferredMappingHipArraySupported: c_int,
        ipcEventSupported: c_int,
        clusterLaunch: c_int,
        unifiedFunctionPointers: c_int,
        reserved: [c_int; 63],
        hipReserved: [c_int; 32],
        gcnArchName: [c_char; 256],
        maxSharedMemoryPerMultiProcessor: usize,
    }

    /// The prefix of `hipDeviceProp_tR0000` (ROCm/HIP include/hip/hip_deprecated.h; the same
    /// fields as ROCm 5.x's `hipDeviceProp_t`) up to and including `gcnArchName`.
    #[repr(C)]
    #[allow(non_snake_case, dead_code)]
    struct DevicePropR0000Prefix {
        name: [c_char; 256],
        totalGlobalMem: usize,
        sharedMemPerBlock: usize,
        regsPerBlock: c_int,
        warpSize: c_int,
        maxThreadsPerBlock: c_int,
        maxThreadsDim: [c_int; 3],
        maxGridSize: [c_int; 3],
        clockRate: c_int,
        memoryClockRate: c_int,
        memoryBusWidth: c_int,
        totalConstMem: usize,
        major: c_int,
        minor: c_int,
        multiProcessorCount: c_int,
        l2CacheSize: c_int,
        maxThreadsPerMultiProcessor: c_int,
        computeMode: c_int,
        clockInstructionRate: c_int,
        arch: HipDeviceArch,
        concurrentKernels: c_int,
        pciDomainID: c_int,
        pciBusID: c_int,
        pciDeviceID: c_int,
        maxSharedMemoryPerMultiProcessor: usize,
        isMultiGpuBoard: c_int,
        canMapHostMemory: c_int,
        gcnArch: c_int,
        gcnArchName: [c_char; 256],
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn hip_device_prop_offsets_match_header() {
        assert_eq!(offset_of!(DevicePropR0600Prefix, gcnArchName), GCN_ARCH_NAME_OFFSET_R0600);
        assert_eq!(offset_of!(DevicePropR0600Prefix, warpSize), WARP_SIZE_OFFSET_R0600);
        // Landmarks from the derivation in the module comment (and gcc's offsetof).
        assert_eq!(offset_of!(DevicePropR0600Prefix, totalGlobalMem), 288);
        assert_eq!(offset_of!(DevicePropR0600Prefix, multiProcessorCount), 388);
        assert_eq!(offset_of!(DevicePropR0600Prefix, l2CacheSize), 616);
        assert_eq!(offset_of!(DevicePropR0600Prefix, sharedMemPerBlockOptin), 696);
        assert_eq!(offset_of!(DevicePropR0600Prefix, reserved), 780);
        assert_eq!(offset_of!(DevicePropR0600Prefix, hipReserved), 1032);
        assert_eq!(offset_of!(DevicePropR0600Prefix, maxSharedMemoryPerMultiProcessor), 1416);

        assert_eq!(size_of::<HipDeviceArch>(), 4);
        assert_eq!(offset_of!(DevicePropR0000Prefix, gcnArchName), GCN_ARCH_NAME_OFFSET_R0000);
        assert_eq!(offset_of!(DevicePropR0000Prefix, warpSize), WARP_SIZE_OFFSET_R0000);
        assert_eq!(offset_of!(DevicePropR0000Prefix, maxSharedMemoryPerMultiProcessor), 376);

        // The buffer holds either full struct (1472 and 792 bytes per gcc) with room to spare.
        assert!(size_of::<DevicePropR0600Prefix>() <= 1472);
    }

    #[test]
    fn hip_strips_target_features() {
        assert_eq!(strip_target_features("gfx942:sramecc+:xnack-"), "gfx942");
        assert_eq!(strip_target_features("gfx90a:xnack+"), "gfx90a");
        assert_eq!(strip_target_features("gfx1100"), "gfx1100");
        assert_eq!(strip_target_features(" gfx950 "), "gfx950");
        assert_eq!(strip_target_features("amdgcn-amd-amdhsa--gfx942:xnack-"), "gfx942");
        assert_eq!(strip_target_features(""), "");
        assert!(is_gfx_name("gfx942") && is_gfx_name("gfx90a") && is_gfx_name("gfx1201"));
        assert!(!is_gfx_name("") && !is_gfx_name("gfx") && !is_gfx_name("sm_90") && !is_gfx_name("gfx9 42"));
    }

    unsafe extern "C" fn dummy_props(_: *mut c_void, _: c_int) -> HipError {
        0
    }

    fn filled(abi: PropsAbi, arch: &str, warp: i32) -> Vec<u8> {
        let (name_at, warp_at) = abi.offsets();
        let mut buf = vec![0u8; DEVICE_PROP_BUFFER_BYTES];
        buf[name_at..name_at + arch.len()].copy_from_slice(arch.as_bytes());
        buf[warp_at..warp_at + 4].copy_from_slice(&warp.to_ne_bytes());
        buf
    }

    #[test]
    fn hip_reads_arch_from_props_buffer() {
        let f: GetDevicePropertiesFn = dummy_props;
        for abi in [PropsAbi::R0600(f), PropsAbi::R0000(f)] {
            let buf = filled(abi, "gfx942:sramecc+:xnack-", 64);
            assert_eq!(arch_from_props(&buf, abi, 64).unwrap(), "gfx942");
            let buf = filled(abi, "gfx1100", 32);
            assert_eq!(arch_from_props(&buf, abi, 32).unwrap(), "gfx1100");
            // A warpSize that disagrees with the attribute means the layout is not the one we
            // know: refuse rather than guess.
            let buf = filled(abi, "gfx942", 64);
            assert!(matches!(arch_from_props(&buf, abi, 32), Err(Error::BackendUnavailable { backend: "hip", .. })));
            // Garbage where gcnArchName should be.
            let buf = filled(abi, "\u{1}\u{2}", 64);
            assert!(matches!(arch_from_props(&buf, abi, 64), Err(Error::BackendUnavailable { backend: "hip", .. })));
        }
    }

    #[test]
    fn hip_attribute_numbers_are_rocm6() {
        // hipDeviceAttribute_t values (ROCm 6 numbering; see the comment at the constants).
        assert_eq!(
            [
                ATTR_CLOCK_RATE,
                ATTR_L2_CACHE_SIZE,
                ATTR_MAX_THREADS_PER_BLOCK,
                ATTR_MULTIPROCESSOR_COUNT,
                ATTR_SHARED_MEM_PER_BLOCK_OPTIN,
                ATTR_WARP_SIZE,
                ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR
            ],
            [5, 19, 56, 63, 75, 87, 10002]
        );
    }

    /// On a machine without ROCm the backend must be unavailable, naming what was tried; never
    /// a panic. (Skipped where a HIP runtime does load.)
    #[test]
    fn hip_driver_unavailable_without_rocm() {
        match driver() {
            Err(Error::BackendUnavailable { backend, tried }) => {
                eprintln!("{}", Error::BackendUnavailable { backend, tried: tried.clone() });
                assert_eq!(backend, "hip");
                assert!(!tried.is_empty());
                assert!(tried.iter().any(|t| t.contains("libamdhip64")), "tried: {tried:?}");
            }
            Ok(d) => {
                eprintln!("a HIP runtime is present ({} devices); skipping the no-ROCm check", d.device_count().unwrap_or(0));
            }
            // The library loaded (from any directory, the loader path included) and answered
            // with an error of its own, e.g. hipErrorNoDevice on a machine without AMD GPUs.
            Err(e @ Error::Driver { backend: "hip", .. }) => eprintln!("HIP runtime present but unusable here: {e}"),
            Err(e) => panic!("expected BackendUnavailable, got {e:?}"),
        }
    }

    /// A library without the HIP entry points is refused with the missing symbol's name.
    #[test]
    fn hip_missing_symbol_is_unavailable() {
        // SAFETY: libc is already loaded into every test process.
        let Ok(libc) = (unsafe { libloading::Library::new("libc.so.6") }) else { return };
        match HipApi::load(libc, "libc.so.6") {
            Err(Error::BackendUnavailable { backend, tried }) => {
                assert_eq!(backend, "hip");
                assert!(tried.iter().any(|t| t.contains("hipInit")), "tried: {tried:?}");
            }
            Err(e) => panic!("expected BackendUnavailable, got {e:?}"),
            Ok(_) => panic!("libc cannot provide the HIP API"),
        }
    }
}
