//! What `rocmath-aot` compiles ahead of time for FFT: the kernels of a list of common plans, as
//! a device of a named arch would run them (see `rocmath_runtime::aot`). rocFFT does the same
//! with the kernels of its common lengths when it is built.
//!
//! The list: 1D transforms of every power of two to 2^24 and of the powers of 3, 5, 7 and 10 to
//! about 10^5, 2D squares and 3D cubes of powers of two (16 to 4096, 16 to 512), and the bench
//! suite's other lengths (1000, 4099); each in single and double precision, complex both ways
//! and real both ways, in and out of place, with the default (interleaved, packed) layouts, in
//! one batch and in many. Half precision: the 1D powers of two to 2^16. A plan outside the list
//! still works: its kernels are compiled on first use and kept in the disk cache.
use crate::gpu::GpuPlan;
use crate::{Placement, Plan, Precision, Result, TransformType};
use rocmath_runtime::{Backend, Device, DeviceProperties, KernelSource};
use std::collections::HashSet;

/// A plan of the ahead-of-time list: transform, precision, placement, lengths (fastest first),
/// number of transforms.
pub type AotPlan = (TransformType, Precision, Placement, Vec<usize>, usize);

/// The ahead-of-time list (see the module doc).
pub fn common_plans() -> Vec<AotPlan> {
    let mut shapes: Vec<Vec<usize>> = Vec::new();
    for base in [2usize, 3, 5, 7, 10] {
        let limit = if base == 2 { 1 << 24 } else { 100_000 };
        let mut n = base;
        while n <= limit {
            shapes.push(vec![n]);
            n *= base;
        }
    }
    shapes.extend([vec![1000], vec![4099]]);
    shapes.extend((4..=12).map(|e| vec![1 << e; 2]));
    shapes.extend((4..=9).map(|e| vec![1 << e; 3]));
    let mut plans = Vec::new();
    let transforms = [TransformType::ComplexForward, TransformType::ComplexInverse, TransformType::RealForward, TransformType::RealInverse];
    for precision in [Precision::Single, Precision::Double, Precision::Half] {
        for lengths in &shapes {
            let total: usize = lengths.iter().product();
            if precision == Precision::Half && (lengths.len() > 1 || total > 1 << 16 || !total.is_power_of_two()) {
                continue;
            }
            // One transform, and as many as make 2^26 points (the plans differ where a kernel
            // takes several transforms per block).
            let many = ((1usize << 26) / total).max(1);
            for transform in transforms {
                for placement in [Placement::NotInPlace, Placement::InPlace] {
                    for batch in [1, many] {
                        plans.push((transform, precision, placement, lengths.clone(), batch));
                    }
                }
            }
        }
    }
    plans
}

/// The properties that FFT planning reads (backend, arch, shared memory per block) of every
/// device of `arch`; the other figures are the common part's (an H100's for sm_90). None for an
/// arch whose figures are not known here.
pub fn target_properties(arch: &str) -> Option<DeviceProperties> {
    // The opt-in shared memory per block of each CUDA arch (CUDA programming guide, compute
    // capabilities table).
    let shared = match arch {
        "sm_80" => 166_912,
        "sm_86" | "sm_89" | "sm_120" => 101_376,
        "sm_90" | "sm_100" => rocmath_kernels::gen::fft::SHARED_SM90,
        _ => return None,
    };
    Some(DeviceProperties {
        backend: Backend::Cuda,
        name: format!("any {arch} device"),
        arch: arch.to_string(),
        compute_units: 132,
        total_memory: 80 << 30,
        shared_memory_per_block: shared,
        shared_memory_per_cu: shared + 1024,
        wave_size: 32,
        max_threads_per_block: 1024,
        l2_cache_bytes: 50 << 20,
        clock_khz: 1_980_000,
    })
}

/// The kernel modules of every plan in `plans` on a device of properties `props`, each once, in
/// the order first met.
pub fn kernel_sources(plans: &[AotPlan], props: &DeviceProperties) -> Result<Vec<KernelSource>> {
    let cpu = Device::cpu();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (transform, precision, placement, lengths, batch) in plans {
        let plan = Plan::new(&cpu, *placement, *transform, *precision, lengths, *batch, None)?;
        for (name, source) in GpuPlan::kernel_sources(&plan, props)? {
            if seen.insert(name.clone()) {
                out.push(KernelSource { name, source, options: Vec::new(), arch_override: None });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_covers_the_bench_suite_and_plans_without_a_device() {
        let plans = common_plans();
        for (lengths, batch) in [(vec![1 << 20], 64), (vec![4099], (1 << 26) / 4099), (vec![256; 3], 1), (vec![512; 3], 1)] {
            assert!(plans.iter().any(|p| p.3 == lengths && p.4 == batch), "{lengths:?} x {batch}");
        }
        let props = target_properties("sm_90").unwrap();
        let few: Vec<AotPlan> = plans.into_iter().filter(|p| p.3 == [4096] || p.3 == [1 << 15]).collect();
        let sources = kernel_sources(&few, &props).unwrap();
        let names: HashSet<&str> = sources.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names.len(), sources.len(), "each module once");
        assert!(sources.iter().all(|s| !s.source.is_empty()));
        // 2^15 single runs as a cluster kernel on sm_90, and not where there are no clusters.
        assert!(names.iter().any(|n| n.contains("_cl8_")), "{names:?}");
        let no_clusters = kernel_sources(&few, &target_properties("sm_80").unwrap()).unwrap();
        assert!(no_clusters.iter().all(|s| !s.name.contains("_cl")));
        assert!(target_properties("gfx942").is_none());
    }
}
