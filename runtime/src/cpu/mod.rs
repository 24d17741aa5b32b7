//! The CPU device: host memory and the rayon thread pool. It is always present, and its
//! implementations are the reference that GPU results are checked against.

/// The CPU device. There is one; it holds no state of its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuDevice;

impl CpuDevice {
    pub fn get() -> CpuDevice {
        CpuDevice
    }

    pub fn properties(&self) -> crate::DeviceProperties {
        crate::DeviceProperties {
            backend: crate::Backend::Cpu,
            name: cpu_model_name().unwrap_or_else(|| "host CPU".into()),
            arch: format!("cpu-{}", std::env::consts::ARCH),
            compute_units: rayon::current_num_threads(),
            total_memory: total_memory_bytes().unwrap_or(0),
            shared_memory_per_block: 0,
            shared_memory_per_cu: 0,
            wave_size: 1,
            max_threads_per_block: 1,
            l2_cache_bytes: 0,
            clock_khz: 0,
        }
    }
}

fn cpu_model_name() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

fn total_memory_bytes() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
