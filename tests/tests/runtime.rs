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
