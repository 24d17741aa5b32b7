//! The GPU side of the runtime, written once over the [`Driver`] trait that CUDA and HIP
//! implement: devices, queues (streams), events, compiled modules and kernel launches.
pub mod driver;

pub use driver::{Driver, RawEvent, RawFunction, RawModule, RawStream, TensorMap, TensorMapDesc};

use crate::cache::{CacheKey, KernelCache};
use crate::{Backend, DeviceProperties, Error, Result};
use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::sync::{Arc, Mutex, OnceLock};

/// Modules this process has loaded, by (backend, ordinal, module name), for every handle on the
/// device: libraries whose module names say everything their sources depend on (GEMM configs,
/// FFT kernels) find them here without regenerating and hashing the source.
static NAMED_MODULES: OnceLock<Mutex<HashMap<NamedKey, Arc<Module>>>> = OnceLock::new();
/// (backend, device ordinal, module name)
type NamedKey = (Backend, usize, String);

/// One GPU. Cloning is cheap; clones share compiled modules and the deferred-error slot.
#[derive(Clone)]
pub struct GpuDevice {
    inner: Arc<DeviceInner>,
}

struct DeviceInner {
    driver: Arc<dyn Driver>,
    ordinal: usize,
    props: DeviceProperties,
    modules: Mutex<HashMap<CacheKey, Arc<Module>>>,
    /// First error raised in a `Drop` (which must not panic); reported at the next synchronize.
    deferred: Mutex<Option<Error>>,
}

impl std::fmt::Debug for GpuDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GpuDevice({} {} {})", self.backend().name(), self.inner.ordinal, self.inner.props.arch)
    }
}

impl GpuDevice {
    pub fn open(driver: Arc<dyn Driver>, ordinal: usize) -> Result<GpuDevice> {
        let count = driver.device_count()?;
        if ordinal >= count {
            return Err(Error::NoSuchDevice { backend: driver.backend().name(), ordinal, count });
        }
        let props = driver.properties(ordinal)?;
        Ok(GpuDevice {
            inner: Arc::new(DeviceInner {
                driver,
                ordinal,
                props,
                modules: Mutex::new(HashMap::new()),
                deferred: Mutex::new(None),
            }),
        })
    }

    pub fn backend(&self) -> Backend {
        self.inner.driver.backend()
    }
    pub fn ordinal(&self) -> usize {
        self.inner.ordinal
    }
    pub fn properties(&self) -> &DeviceProperties {
        &self.inner.props
    }
    pub fn driver(&self) -> &dyn Driver {
        &*self.inner.driver
    }
    pub fn same_as(&self, other: &GpuDevice) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
            || (self.backend() == other.backend() && self.ordinal() == other.ordinal())
    }

    /// Records an error that happened where it could not be returned (in `Drop`).
    pub(crate) fn defer_error(&self, e: Error) {
        if let Ok(mut slot) = self.inner.deferred.lock() {
            slot.get_or_insert(e);
        }
    }

    fn take_deferred(&self) -> Result<()> {
        match self.inner.deferred.lock().ok().and_then(|mut s| s.take()) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    pub fn malloc(&self, bytes: usize) -> Result<u64> {
        self.driver().malloc(self.ordinal(), bytes.max(1))
    }

    pub(crate) fn free_deferred(&self, ptr: u64) {
        if let Err(e) = self.driver().free(self.ordinal(), ptr) {
            self.defer_error(e);
        }
    }

    /// Compiles (or loads from the memory or disk cache) a module for this device's arch, or for
    /// `source.arch_override` when it names one (e.g. `sm_90a`).
    ///
    /// Where it comes from, first found: this device's loaded modules, the ahead-of-time cache
    /// ([`crate::aot`]: no compiler started), the disk cache, the compiler.
    pub fn module(&self, source: &KernelSource) -> Result<Arc<Module>> {
        let arch = source.arch_override.clone().unwrap_or_else(|| self.inner.props.arch.clone());
        let aot_key = crate::aot::key(&source.name, &arch, &source.options, &source.source);
        if let Some(m) = self.inner.modules.lock().map_err(poisoned)?.get(&aot_key) {
            return Ok(m.clone());
        }
        if let Some(image) = crate::aot::system().and_then(|c| c.get(&aot_key)) {
            // An image this driver refuses (built for another driver generation) is compiled
            // below instead.
            if let Ok(raw) = self.driver().module_load(self.ordinal(), &image) {
                crate::aot::count_load();
                return self.remember(aot_key, source, raw);
            }
        }
        let compiler = self.driver().compiler_version()?;
        let key = CacheKey::new(&source.name, &arch, &compiler, &source.options, &source.source);
        if let Some(m) = self.inner.modules.lock().map_err(poisoned)?.get(&key) {
            return Ok(m.clone());
        }
        let cache = KernelCache::from_env();
        let build = || {
            COMPILED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let start = std::time::Instant::now();
            let image = self.driver().compile(&source.name, &source.source, &arch, &source.options);
            // ROCMATH_LOG_COMPILE=1: one line per compile (cache misses only), to find slow modules.
            if std::env::var_os("ROCMATH_LOG_COMPILE").is_some() {
                eprintln!("[rocmath] compiled {} for {arch} in {:.1} ms", source.name, start.elapsed().as_secs_f64() * 1e3);
            }
            image
        };
        let image = match &cache {
            Ok(cache) => cache.get_or_build(&key, build)?.0,
            // An unusable cache directory costs compile time, never correctness.
            Err(_) => build()?,
        };
        let raw = self.driver().module_load(self.ordinal(), &image)?;
        self.remember(key, source, raw)
    }

    fn remember(&self, key: CacheKey, source: &KernelSource, raw: RawModule) -> Result<Arc<Module>> {
        let module = Arc::new(Module {
            device: self.clone(),
            raw,
            name: source.name.clone(),
            functions: Mutex::new(HashMap::new()),
            launch_state: Mutex::new(HashMap::new()),
        });
        self.inner.modules.lock().map_err(poisoned)?.insert(key, module.clone());
        Ok(module)
    }
}

impl GpuDevice {
    /// Module `name` if this process has loaded it on this device through [`Self::named_module`].
    pub fn loaded_module(&self, name: &str) -> Option<Arc<Module>> {
        let table = NAMED_MODULES.get()?.lock().ok()?;
        table.get(&(self.backend(), self.ordinal(), name.to_string())).cloned()
    }

    /// Module `name`: the one this process loaded under that name, else [`Self::module`] of
    /// `source()`, remembered under `name`. The name must identify the source.
    pub fn named_module(&self, name: &str, source: impl FnOnce() -> KernelSource) -> Result<Arc<Module>> {
        if let Some(m) = self.loaded_module(name) {
            return Ok(m);
        }
        let m = self.module(&source())?;
        NAMED_MODULES.get_or_init(Default::default).lock().map_err(poisoned)?.insert((self.backend(), self.ordinal(), name.to_string()), m.clone());
        Ok(m)
    }
}

static COMPILED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Modules this process compiled (found in neither the ahead-of-time nor the disk cache).
pub fn compiled_modules() -> usize {
    COMPILED.load(std::sync::atomic::Ordering::Relaxed)
}

fn poisoned<T>(_: std::sync::PoisonError<T>) -> Error {
    Error::Cache("a thread panicked while holding the module table".into())
}

/// Kernel source to compile at run time. `name` identifies the module in logs and the cache.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelSource {
    pub name: String,
    pub source: String,
    /// Extra compiler options (beyond the arch, which the runtime adds).
    pub options: Vec<String>,
    /// Compile for this arch instead of the device's own (e.g. `sm_90a` on an `sm_90` device).
    pub arch_override: Option<String>,
}

/// A compiled, loaded module on one device.
pub struct Module {
    device: GpuDevice,
    raw: RawModule,
    name: String,
    functions: Mutex<HashMap<String, RawFunction>>,
    /// Per function: the dynamic shared memory its limit was raised to, and the driver's
    /// occupancy answers by (block threads, shared bytes). Both are driver calls that every
    /// launch of a small GEMM would otherwise repeat on the host.
    launch_state: Mutex<HashMap<RawFunction, LaunchState>>,
}

#[derive(Default)]
struct LaunchState {
    shared_allowed: u32,
    max_active_blocks: HashMap<(u32, u32), u32>,
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Module({})", self.name)
    }
}

impl Module {
    /// Looks up a kernel by its (unmangled, `extern "C"`) name.
    pub fn function(&self, name: &str) -> Result<Kernel<'_>> {
        let mut table = self.functions.lock().map_err(poisoned)?;
        let raw = match table.get(name) {
            Some(f) => *f,
            None => {
                let cname = CString::new(name).map_err(|_| Error::InvalidArgument {
                    name: "name",
                    reason: "kernel name contains a NUL byte".into(),
                })?;
                let f = self.device.driver().module_function(self.device.ordinal(), self.raw, &cname)?;
                table.insert(name.to_string(), f);
                f
            }
        };
        Ok(Kernel { module: self, raw })
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        if let Err(e) = self.device.driver().module_unload(self.device.ordinal(), self.raw) {
            self.device.defer_error(e);
        }
    }
}

/// A kernel inside a loaded module.
#[derive(Clone, Copy)]
pub struct Kernel<'m> {
    module: &'m Module,
    raw: RawFunction,
}

/// Grid and block shape of a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
}

impl Kernel<'_> {
    /// Blocks of this shape that one SM (CU) holds at once (the driver's occupancy calculator;
    /// raises the kernel's dynamic shared-memory limit first where `shared_bytes` needs it).
    pub fn max_active_blocks(&self, block_threads: u32, shared_bytes: u32) -> Result<u32> {
        let dev = &self.module.device;
        self.allow_shared(shared_bytes)?;
        let key = (block_threads, shared_bytes);
        let known = self.module.launch_state.lock().map_err(poisoned)?.get(&self.raw).and_then(|s| s.max_active_blocks.get(&key).copied());
        if let Some(blocks) = known {
            return Ok(blocks);
        }
        let blocks = dev.driver().max_active_blocks(dev.ordinal(), self.raw, block_threads, shared_bytes)?;
        self.module.launch_state.lock().map_err(poisoned)?.entry(self.raw).or_default().max_active_blocks.insert(key, blocks);
        Ok(blocks)
    }

    /// Raises the kernel's dynamic shared-memory limit to `bytes` where that exceeds the limit set
    /// before. CUDA's default limit is 48 KiB less the kernel's static shared memory, which the
    /// runtime does not know, so any dynamic shared memory sets it once (an FFT column kernel of
    /// 48944 dynamic and 912 static bytes failed to launch while only more than 48 KiB of
    /// dynamic raised it).
    fn allow_shared(&self, bytes: u32) -> Result<()> {
        let dev = &self.module.device;
        if bytes == 0 {
            return Ok(());
        }
        let mut states = self.module.launch_state.lock().map_err(poisoned)?;
        let state = states.entry(self.raw).or_default();
        if bytes > state.shared_allowed {
            dev.driver().set_max_dynamic_shared(dev.ordinal(), self.raw, bytes)?;
            state.shared_allowed = bytes;
        }
        Ok(())
    }

    /// Launches on `queue`.
    ///
    /// # Safety
    /// `args` must match the kernel's parameter list exactly (count, order, types), and every
    /// device pointer in it must be valid for everything the kernel reads and writes.
    pub unsafe fn launch(&self, queue: &GpuQueue, cfg: LaunchConfig, args: &mut KernelArgs) -> Result<()> {
        let dev = &self.module.device;
        if !dev.same_as(queue.device()) {
            return Err(Error::InvalidArgument { name: "queue", reason: "queue is on another device".into() });
        }
        self.allow_shared(cfg.shared_bytes)?;
        let mut ptrs = args.pointers();
        dev.driver().launch(
            dev.ordinal(),
            self.raw,
            cfg.grid,
            cfg.block,
            cfg.shared_bytes,
            queue.raw(),
            ptrs.as_mut_ptr(),
        )
    }
}

/// Kernel parameters by value, each stored in its own 64-byte-aligned slot of 128 bytes (enough
/// for every scalar we pass and for a TMA tensor map).
#[derive(Default)]
pub struct KernelArgs {
    slots: Vec<Slot>,
}

#[repr(C, align(64))]
#[derive(Clone, Copy)]
struct Slot([u8; 128]);

impl Default for Slot {
    fn default() -> Slot {
        Slot([0; 128])
    }
}

impl KernelArgs {
    pub fn new() -> KernelArgs {
        KernelArgs::default()
    }

    /// Appends one parameter. Values over 128 bytes are refused at compile time.
    pub fn push<T: bytemuck::Pod>(&mut self, value: T) -> &mut Self {
        const { assert!(std::mem::size_of::<T>() <= 128 && std::mem::align_of::<T>() <= 64) };
        let mut slot = Slot::default();
        slot.0[..std::mem::size_of::<T>()].copy_from_slice(bytemuck::bytes_of(&value));
        self.slots.push(slot);
        self
    }

    fn pointers(&mut self) -> Vec<*mut c_void> {
        self.slots.iter_mut().map(|s| s.0.as_mut_ptr() as *mut c_void).collect()
    }
}

/// A stream on one GPU.
#[derive(Clone, Debug)]
pub struct GpuQueue {
    inner: Arc<QueueInner>,
}

#[derive(Debug)]
struct QueueInner {
    device: GpuDevice,
    stream: RawStream,
    owned: bool,
}

impl GpuQueue {
    pub fn new(device: GpuDevice) -> Result<GpuQueue> {
        let stream = device.driver().stream_create(device.ordinal())?;
        Ok(GpuQueue { inner: Arc::new(QueueInner { device, stream, owned: true }) })
    }

    /// Wraps a stream the caller created (a `hipStream_t`/`CUstream`, as the C ABI receives it);
    /// the queue never destroys it. 0 is the default stream.
    ///
    /// # Safety
    /// `stream` must be a live stream of `device` for as long as the queue is used.
    pub unsafe fn from_raw(device: GpuDevice, stream: RawStream) -> GpuQueue {
        GpuQueue { inner: Arc::new(QueueInner { device, stream, owned: false }) }
    }

    pub fn device(&self) -> &GpuDevice {
        &self.inner.device
    }
    pub fn raw(&self) -> RawStream {
        self.inner.stream
    }

    pub fn synchronize(&self) -> Result<()> {
        let d = self.device();
        d.driver().stream_synchronize(d.ordinal(), self.raw())?;
        d.take_deferred()
    }

    pub fn record_event(&self) -> Result<GpuEvent> {
        let d = self.device();
        let raw = d.driver().event_create(d.ordinal())?;
        let event = GpuEvent { device: d.clone(), raw };
        d.driver().event_record(d.ordinal(), raw, self.raw())?;
        Ok(event)
    }
}

impl Drop for QueueInner {
    fn drop(&mut self) {
        if self.owned {
            if let Err(e) = self.device.driver().stream_destroy(self.device.ordinal(), self.stream) {
                self.device.defer_error(e);
            }
        }
    }
}

/// A recorded GPU event.
#[derive(Debug)]
pub struct GpuEvent {
    device: GpuDevice,
    raw: RawEvent,
}

impl GpuEvent {
    pub fn synchronize(&self) -> Result<()> {
        self.device.driver().event_synchronize(self.device.ordinal(), self.raw)
    }

    pub fn elapsed_ms(&self, later: &GpuEvent) -> Result<f64> {
        if !self.device.same_as(&later.device) {
            return Err(Error::InvalidArgument { name: "later", reason: "event of another device".into() });
        }
        later.synchronize()?;
        Ok(self.device.driver().event_elapsed_ms(self.device.ordinal(), self.raw, later.raw)? as f64)
    }
}

impl Drop for GpuEvent {
    fn drop(&mut self) {
        if let Err(e) = self.device.driver().event_destroy(self.device.ordinal(), self.raw) {
            self.device.defer_error(e);
        }
    }
}
