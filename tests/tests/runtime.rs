//! Runtime: device discovery and specs, missing libraries as clean errors, buffers and events on
//! every device, and the kernel cache (corrupt entries rebuilt, concurrent fills safe).
use rocmath_runtime::cache::{CacheKey, CacheOutcome, KernelCache};
use rocmath_runtime::{Device, DeviceBuffer, Error};
use rocmath_tests::test_devices;

#[test]
fn missing_library_is_an_error_naming_what_was_tried() {
    let dirs = [std::path::PathBuf::from("/nonexistent/rocmath")];
    let err = rocmath_runtime::loader::open_library("test", &["librocmath-no-such.so.9"], &dirs).unwrap_err();
    match err {
        Error::BackendUnavailable { backend, tried } => {
            assert_eq!(backend, "test");
            assert!(tried.iter().any(|t| t.contains("librocmath-no-such.so.9")), "{tried:?}");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn absent_gpu_backends_fail_cleanly() {
    for (spec, backend, lib) in [("cuda", "cuda", "libcuda"), ("hip", "hip", "libamdhip64")] {
        match Device::parse(spec) {
            Ok(d) => assert!(d.is_gpu()),
            Err(Error::BackendUnavailable { backend: b, tried }) => {
                assert_eq!(b, backend);
                assert!(tried.iter().any(|t| t.contains(lib)), "{tried:?}");
            }
            // A driver that loads but has no device.
            Err(Error::NoSuchDevice { .. }) | Err(Error::Driver { .. }) => {}
            Err(e) => panic!("{spec}: unexpected {e:?}"),
        }
    }
}

#[test]
fn device_specs_parse() {
    assert_eq!(Device::parse("cpu").unwrap().spec(), "cpu");
    assert_eq!(Device::parse(" CPU ").unwrap().spec(), "cpu");
    for bad in ["gpu", "cuda:x", "cpu:1", "", "hip:-1"] {
        assert!(matches!(Device::parse(bad), Err(Error::InvalidDeviceSpec(_))), "{bad}");
    }
    assert!(Device::all()[0].spec() == "cpu");
}

#[test]
fn buffers_round_trip_and_events_time_on_every_device() {
    for device in test_devices() {
        let q = device.new_queue().unwrap();
        let data: Vec<u32> = (0..100_003).map(|i| i * 7 + 1).collect();
        let start = q.record_event().unwrap();
        let buf = DeviceBuffer::from_slice(&q, &data).unwrap();
        let mut copy = DeviceBuffer::<u32>::zeroed(&q, data.len()).unwrap();
        assert!(copy.to_vec(&q).unwrap().iter().all(|&v| v == 0));
        copy.copy_from_buffer(&q, &buf).unwrap();
        let mut back = vec![0u32; data.len()];
        unsafe { copy.copy_to_host_async(&q, &mut back).unwrap() };
        let end = q.record_event().unwrap();
        q.synchronize().unwrap();
        assert_eq!(back, data, "{}", device.spec());
        let ms = start.elapsed_ms(&end).unwrap();
        assert!(ms >= 0.0 && ms.is_finite(), "{ms}");
        // Wrong lengths are refused, not truncated.
        assert!(buf.copy_to_host(&q, &mut [0u32; 3]).is_err());
        let p = device.properties();
        assert!(!p.arch.is_empty() && p.compute_units > 0 && p.wave_size > 0, "{p:?}");
        if device.is_gpu() {
            assert!(p.shared_memory_per_block >= 48 * 1024 && p.total_memory > 0, "{p:?}");
        }
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("rocmath-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn corrupt_or_truncated_cache_entries_are_rebuilt() {
    let cache = KernelCache::at(temp_dir("corrupt")).unwrap();
    let key = CacheKey::new("gemm_test", "sm_90", "nvrtc 13.0", &["-O3".into()], "source text");
    let image = b"compiled image bytes".to_vec();
    let build = || Ok(image.clone());
    assert_eq!(cache.get_or_build(&key, build).unwrap(), (image.clone(), CacheOutcome::Built));
    assert_eq!(cache.get_or_build(&key, || panic!("must hit")).unwrap(), (image.clone(), CacheOutcome::Hit));
    let path = cache.path_of(&key);
    let whole = std::fs::read(&path).unwrap();
    // Flip one payload byte, then truncate: each is detected and rebuilt.
    let mut flipped = whole.clone();
    *flipped.last_mut().unwrap() ^= 0x40;
    for bad in [flipped, whole[..whole.len() - 3].to_vec(), Vec::new(), b"garbage".to_vec()] {
        std::fs::write(&path, &bad).unwrap();
        assert_eq!(cache.get_or_build(&key, build).unwrap(), (image.clone(), CacheOutcome::Rebuilt));
        assert_eq!(std::fs::read(&path).unwrap(), whole);
    }
}

#[test]
fn keys_change_with_every_input() {
    let base = CacheKey::new("k", "sm_90", "nvrtc 13.0", &[], "src");
    for other in [
        CacheKey::new("k2", "sm_90", "nvrtc 13.0", &[], "src"),
        CacheKey::new("k", "sm_90a", "nvrtc 13.0", &[], "src"),
        CacheKey::new("k", "sm_90", "nvrtc 13.1", &[], "src"),
        CacheKey::new("k", "sm_90", "nvrtc 13.0", &["-O2".into()], "src"),
        CacheKey::new("k", "sm_90", "nvrtc 13.0", &[], "src "),
    ] {
        assert_ne!(base, other);
    }
}

#[test]
fn concurrent_fills_never_corrupt_the_cache() {
    let dir = temp_dir("concurrent");
    let key = CacheKey::new("race", "gfx942", "hiprtc 6.4", &[], "x");
    let image: Vec<u8> = (0..200_000u32).map(|i| (i * 31 % 251) as u8).collect();
    // Several threads (each a separate KernelCache, as separate processes would be) fill and
    // read the same entry at once; every read sees either nothing or the whole entry.
    std::thread::scope(|s| {
        for _ in 0..8 {
            let (dir, key, image) = (dir.clone(), key.clone(), image.clone());
            s.spawn(move || {
                let cache = KernelCache::at(&dir).unwrap();
                for _ in 0..20 {
                    let (got, outcome) = cache.get_or_build(&key, || Ok(image.clone())).unwrap();
                    assert_eq!(got, image);
                    assert_ne!(outcome, CacheOutcome::Rebuilt, "a reader saw a partial entry");
                }
            });
        }
    });
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).collect();
    assert_eq!(leftovers.len(), 1, "temporary files left behind: {leftovers:?}");
}

/// Run-time compilation through the disk cache on every GPU: the device's own arch, and on
/// sm_90 also `sm_90a` (the arch wgmma needs). The kernel is written against the portable
/// prelude, so the same source serves CUDA and HIP.
#[test]
fn kernels_compile_cache_and_run_on_every_gpu() {
    use rocmath_runtime::{KernelArgs, KernelSource, LaunchConfig};
    let body = r#"
extern "C" __global__ void rm_test_axpy(int n, float a, const float* x, float* y) {
    int i = rm_bid_x() * rm_bdim_x() + rm_tid_x();
    if (i < n) y[i] = a * x[i] + y[i];
}
"#;
    for device in rocmath_tests::test_gpus() {
        let gpu = device.gpu().unwrap().clone();
        let arch = gpu.properties().arch.clone();
        let mut archs = vec![None];
        if arch == "sm_90" {
            archs.push(Some("sm_90a".to_string()));
        }
        for arch_override in archs {
            let source = KernelSource {
                name: format!("rm_test_axpy_{}", arch_override.as_deref().unwrap_or("native")),
                source: format!("{}\n{body}", rocmath_kernels::prelude()),
                options: vec![],
                arch_override: arch_override.clone(),
            };
            let module = gpu.module(&source).unwrap_or_else(|e| panic!("{arch_override:?}: {e}"));
            let queue = device.new_queue().unwrap();
            let n = 1000usize;
            let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let dx = DeviceBuffer::from_slice(&queue, &x).unwrap();
            let mut dy = DeviceBuffer::from_slice(&queue, &vec![1f32; n]).unwrap();
            let mut args = KernelArgs::new();
            args.push(n as i32).push(2f32).push(dx.as_ptr() as u64).push(dy.as_mut_ptr() as u64);
            let cfg = LaunchConfig { grid: [(n as u32).div_ceil(128), 1, 1], block: [128, 1, 1], shared_bytes: 0 };
            // SAFETY: the arguments match rm_test_axpy's parameters; both buffers hold n floats.
            unsafe { module.function("rm_test_axpy").unwrap().launch(queue.gpu().unwrap(), cfg, &mut args).unwrap() };
            let y = dy.to_vec(&queue).unwrap();
            assert!(y.iter().enumerate().all(|(i, &v)| v == 2.0 * i as f32 + 1.0), "{arch_override:?}");
            assert!(module.function("no_such_kernel").is_err());
        }
        // A source that does not compile is an error carrying the compiler's log.
        let bad = KernelSource { name: "rm_test_bad".into(), source: "this is not C++".into(), options: vec![], arch_override: None };
        match gpu.module(&bad) {
            Err(Error::Compile { log, .. }) => assert!(!log.is_empty()),
            other => panic!("expected a compile error, got {other:?}"),
        }
    }
}
