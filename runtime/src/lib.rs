//! rocmath-runtime: the queue/memory runtime shared by every rocmath library.
//!
//! One API, three kinds of device: [`Device::Cpu`] (host memory, rayon pool; always present),
//! [`Device::Cuda`] (libcuda + libnvrtc loaded at run time) and [`Device::Hip`] (libamdhip64 +
//! libhiprtc loaded at run time). Building needs no GPU SDK; a missing library is an
//! [`Error::BackendUnavailable`] that names what was tried.
//!
//! Device selection: [`Device::from_env`] honours `ROCMATH_DEVICE=cpu|cuda[:N]|hip[:N]`, else
//! takes the best device present (CUDA, then HIP, then the CPU).
pub mod aot;
pub mod buffer;
pub mod cache;
pub mod cpu;
pub mod cuda;
mod error;
pub mod gpu;
pub mod hip;
pub mod loader;
mod rtc;

pub use buffer::DeviceBuffer;
pub use error::{Error, Result};
pub use gpu::{GpuDevice, GpuQueue, KernelArgs, KernelSource, LaunchConfig, Module, TensorMap, TensorMapDesc};

use std::time::Instant;

/// The kinds of device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    Cpu,
    Cuda,
    Hip,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Cuda => "cuda",
            Backend::Hip => "hip",
        }
    }
}

/// What a device is and what it can hold. GPU figures are read from the driver.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceProperties {
    pub backend: Backend,
    pub name: String,
    /// `cpu`, `sm_90`, `gfx942`, ...
    pub arch: String,
    /// Streaming multiprocessors (NVIDIA), compute units (AMD) or CPU threads.
    pub compute_units: usize,
    pub total_memory: usize,
    /// The most shared memory (LDS) one block may use, after opting in.
    pub shared_memory_per_block: usize,
    pub shared_memory_per_cu: usize,
    /// Threads per wave (64 on CDNA, 32 on RDNA and NVIDIA, 1 on the CPU).
    pub wave_size: usize,
    pub max_threads_per_block: usize,
    pub l2_cache_bytes: usize,
    pub clock_khz: usize,
}

impl DeviceProperties {
    /// Whether kernels may run in thread block clusters with distributed shared memory (CUDA
    /// devices of compute capability 9.0 and later).
    pub fn has_clusters(&self) -> bool {
        self.backend == Backend::Cuda && self.arch.strip_prefix("sm_").and_then(|a| a.trim_end_matches('a').parse::<u32>().ok()).is_some_and(|a| a >= 90)
    }
}

/// A device. Cloning is cheap (shared state).
#[derive(Clone, Debug)]
pub enum Device {
    Cpu(cpu::CpuDevice),
    Cuda(GpuDevice),
    Hip(GpuDevice),
}

impl Device {
    /// The CPU device (always present).
    pub fn cpu() -> Device {
        Device::Cpu(cpu::CpuDevice::get())
    }

    /// CUDA device `ordinal`.
    pub fn cuda(ordinal: usize) -> Result<Device> {
        Ok(Device::Cuda(GpuDevice::open(cuda::driver()?, ordinal)?))
    }

    /// HIP device `ordinal`.
    pub fn hip(ordinal: usize) -> Result<Device> {
        Ok(Device::Hip(GpuDevice::open(hip::driver()?, ordinal)?))
    }

    /// Parses `cpu`, `cuda`, `cuda:N`, `hip` or `hip:N` and opens that device.
    pub fn parse(spec: &str) -> Result<Device> {
        let spec = spec.trim();
        let (kind, ordinal) = match spec.split_once(':') {
            Some((k, n)) => {
                (k, n.parse::<usize>().map_err(|_| Error::InvalidDeviceSpec(spec.to_string()))?)
            }
            None => (spec, 0),
        };
        match kind.to_ascii_lowercase().as_str() {
            "cpu" if ordinal == 0 => Ok(Device::cpu()),
            "cuda" => Device::cuda(ordinal),
            "hip" => Device::hip(ordinal),
            _ => Err(Error::InvalidDeviceSpec(spec.to_string())),
        }
    }

    /// `ROCMATH_DEVICE` if set (an error if it names a device that cannot be opened), else the
    /// best device present: CUDA 0, then HIP 0, then the CPU.
    pub fn from_env() -> Result<Device> {
        match std::env::var("ROCMATH_DEVICE") {
            Ok(spec) if !spec.trim().is_empty() => Device::parse(&spec),
            _ => Ok(Device::best()),
        }
    }

    /// The best device present, ignoring `ROCMATH_DEVICE`.
    pub fn best() -> Device {
        Device::cuda(0).or_else(|_| Device::hip(0)).unwrap_or_else(|_| Device::cpu())
    }

    /// Every device that can be opened: the CPU first, then each CUDA and HIP device.
    pub fn all() -> Vec<Device> {
        let mut all = vec![Device::cpu()];
        for (driver, wrap) in [
            (cuda::driver(), Device::Cuda as fn(GpuDevice) -> Device),
            (hip::driver(), Device::Hip as fn(GpuDevice) -> Device),
        ] {
            if let Ok(driver) = driver {
                let count = driver.device_count().unwrap_or(0);
                all.extend((0..count).filter_map(|i| GpuDevice::open(driver.clone(), i).ok().map(wrap)));
            }
        }
        all
    }

    pub fn backend(&self) -> Backend {
        match self {
            Device::Cpu(_) => Backend::Cpu,
            Device::Cuda(_) => Backend::Cuda,
            Device::Hip(_) => Backend::Hip,
        }
    }

    pub fn is_gpu(&self) -> bool {
        !matches!(self, Device::Cpu(_))
    }

    /// The GPU under a CUDA or HIP device; `None` for the CPU.
    pub fn gpu(&self) -> Option<&GpuDevice> {
        match self {
            Device::Cpu(_) => None,
            Device::Cuda(g) | Device::Hip(g) => Some(g),
        }
    }

    pub fn properties(&self) -> DeviceProperties {
        match self {
            Device::Cpu(c) => c.properties(),
            Device::Cuda(g) | Device::Hip(g) => g.properties().clone(),
        }
    }

    /// A new queue (a stream on a GPU) on this device.
    pub fn new_queue(&self) -> Result<Queue> {
        Ok(match self {
            Device::Cpu(_) => Queue::Cpu,
            Device::Cuda(g) => Queue::Cuda(GpuQueue::new(g.clone())?),
            Device::Hip(g) => Queue::Hip(GpuQueue::new(g.clone())?),
        })
    }

    /// `cpu`, `cuda:0`, `hip:1`, ...
    pub fn spec(&self) -> String {
        match self {
            Device::Cpu(_) => "cpu".into(),
            Device::Cuda(g) => format!("cuda:{}", g.ordinal()),
            Device::Hip(g) => format!("hip:{}", g.ordinal()),
        }
    }

    pub fn same_as(&self, other: &Device) -> bool {
        match (self, other) {
            (Device::Cpu(_), Device::Cpu(_)) => true,
            (Device::Cuda(a), Device::Cuda(b)) | (Device::Hip(a), Device::Hip(b)) => a.same_as(b),
            _ => false,
        }
    }
}

impl std::fmt::Display for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = self.properties();
        write!(f, "{} ({}, {})", self.spec(), p.name, p.arch)
    }
}

/// An ordered stream of work on one device. CPU work runs when it is issued (on the rayon pool),
/// so a CPU queue is always idle.
#[derive(Clone, Debug)]
pub enum Queue {
    Cpu,
    Cuda(GpuQueue),
    Hip(GpuQueue),
}

impl Queue {
    pub fn device(&self) -> Device {
        match self {
            Queue::Cpu => Device::cpu(),
            Queue::Cuda(q) => Device::Cuda(q.device().clone()),
            Queue::Hip(q) => Device::Hip(q.device().clone()),
        }
    }

    pub fn gpu(&self) -> Option<&GpuQueue> {
        match self {
            Queue::Cpu => None,
            Queue::Cuda(q) | Queue::Hip(q) => Some(q),
        }
    }

    /// Waits for all work issued so far, then reports the first error deferred from a `Drop`
    /// on this device (a failed free, say) since the last synchronize.
    pub fn synchronize(&self) -> Result<()> {
        match self {
            Queue::Cpu => Ok(()),
            Queue::Cuda(q) | Queue::Hip(q) => q.synchronize(),
        }
    }

    /// Records an event now on this queue.
    pub fn record_event(&self) -> Result<Event> {
        Ok(match self {
            Queue::Cpu => Event::Cpu(Instant::now()),
            Queue::Cuda(q) | Queue::Hip(q) => Event::Gpu(q.record_event()?),
        })
    }
}

/// A point in a queue's work, for timing and waiting.
#[derive(Debug)]
pub enum Event {
    Cpu(Instant),
    Gpu(gpu::GpuEvent),
}

impl Event {
    pub fn synchronize(&self) -> Result<()> {
        match self {
            Event::Cpu(_) => Ok(()),
            Event::Gpu(e) => e.synchronize(),
        }
    }

    /// Milliseconds from `self` to `later` (both from the same device; waits for `later`).
    pub fn elapsed_ms(&self, later: &Event) -> Result<f64> {
        match (self, later) {
            (Event::Cpu(a), Event::Cpu(b)) => Ok(b.saturating_duration_since(*a).as_secs_f64() * 1e3),
            (Event::Gpu(a), Event::Gpu(b)) => a.elapsed_ms(b),
            _ => Err(Error::InvalidArgument {
                name: "later",
                reason: "events come from different kinds of device".into(),
            }),
        }
    }
}
