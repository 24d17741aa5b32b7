//! The ahead-of-time kernel cache on a GPU, in a process of its own (the cache file is found
//! once per process): kernels compiled without a device, from the device's properties alone,
//! must be the ones the device's plans ask for (every module of a listed plan comes from the
//! file, none is compiled), and must compute correct results. A plan whose kernels the file
//! lacks is compiled as before.
use rocmath_fft::aot::{kernel_sources, target_properties, AotPlan};
use rocmath_fft::{Precision, TransformType};
use rocmath_runtime::cuda::Nvrtc;
use rocmath_runtime::{aot, gpu::compiled_modules, Backend};
use rocmath_tests::fft::{check_case, Case, Reference};
use rocmath_tests::test_gpus;

use Precision::*;
use TransformType::*;

#[test]
fn listed_plans_load_their_kernels_from_the_aot_cache() {
    let gpus = test_gpus();
    let Some(first) = gpus.first() else { return };
    let props = first.gpu().expect("a GPU").properties().clone();
    if props.backend != Backend::Cuda {
        // HIP: the ahead-of-time cache is built with nvrtc only; nothing to check there yet.
        return;
    }
    if let Some(target) = target_properties(&props.arch) {
        // rocmath-aot plans from this table: it must agree with the device where it matters.
        assert_eq!(target.shared_memory_per_block, props.shared_memory_per_block, "rocmath-aot's figure for {}", props.arch);
    }
    // One of each way a plan runs: one pass, several transforms a block, a cluster kernel on
    // sm_90, four-step, Bluestein, real forward and inverse, 3D, half.
    let listed = [
        Case::new(ComplexForward, Single, &[4096]).batch(64),
        Case::new(ComplexForward, Single, &[256]).batch(333),
        Case::new(ComplexInverse, Single, &[1 << 15]).batch(3),
        Case::new(ComplexForward, Double, &[1 << 20]).batch(2),
        Case::new(ComplexForward, Single, &[4099]).batch(2),
        Case::new(RealForward, Single, &[1000]).batch(5),
        Case::new(RealInverse, Double, &[2048]).batch(3).in_place(),
        Case::new(ComplexForward, Single, &[32, 64, 16]),
        Case::new(ComplexInverse, Half, &[512]).batch(7),
    ];
    let plans: Vec<AotPlan> = listed.iter().map(|c| (c.transform, c.precision, c.placement, c.lengths.clone(), c.batch)).collect();
    let sources = kernel_sources(&plans, &props).expect("plans");
    let nvrtc = Nvrtc::get().expect("nvrtc: the CUDA device compiles with it");
    let entries: Vec<_> = sources
        .iter()
        .map(|s| (aot::key(&s.name, &props.arch, &s.options, &s.source), nvrtc.compile(&s.name, &s.source, &props.arch, &s.options).expect("compiles")))
        .collect();
    let dir = std::env::temp_dir().join(format!("rocmath-aot-gpu-test-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("disk")).unwrap();
    let file = dir.join(aot::FILE_NAME);
    aot::write(&file, &entries).unwrap();
    // Before any module is loaded in this process: the file is found once, and the disk cache
    // is empty, so a module that is not in the file is compiled.
    std::env::set_var("ROCMATH_AOT_CACHE", &file);
    std::env::set_var("ROCMATH_CACHE_DIR", dir.join("disk"));
    assert_eq!(aot::system().map(|c| c.len()), Some(entries.len()));

    for case in &listed {
        let (loaded, compiled) = (aot::loaded_modules(), compiled_modules());
        check_case(first, case, Reference::Auto).unwrap_or_else(|e| panic!("{case:?}: {e}"));
        assert_eq!(compiled_modules(), compiled, "{case:?}: a module was compiled, not found in the AOT cache");
        assert!(aot::loaded_modules() >= loaded, "{case:?}");
    }
    assert_eq!(aot::loaded_modules(), sources.len(), "each listed module loaded once, from the file");

    // Not in the file: compiled, and still right.
    let unlisted = Case::new(ComplexForward, Single, &[6000]).batch(2);
    let compiled = compiled_modules();
    check_case(first, &unlisted, Reference::Auto).unwrap_or_else(|e| panic!("{unlisted:?}: {e}"));
    assert!(compiled_modules() > compiled, "6000 points: its kernels are not in the file");
    let _ = std::fs::remove_dir_all(&dir);
}
