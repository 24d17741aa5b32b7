//! The tuner's core on the CPU device: candidates are closures (the config pin means nothing on
//! the CPU), so the test controls which ones are right, wrong, silent or failing, and checks that
//! only the right ones are timed and written, and how tables are merged.
use rocmath_bench::gemm::{typed_roundoff, DeviceData, HostData, Problem};
use rocmath_bench::tune::{tune_size, write_table, Size, SizeOutcome, TableHeader, Timing, Verdict};
use rocmath_blas::{gemm_strided_batched, Handle, Operation};
use rocmath_runtime::Device;
use rocmath_tuning::{GemmEntry, GemmTable, Tables};
use std::path::PathBuf;

const GENERATOR: &str = "rocmath-gemm/test";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rocmath-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn header() -> TableHeader {
    TableHeader {
        arch: "sm_90".into(),
        types: "s".into(),
        layout: "nt".into(),
        generator: GENERATOR.into(),
        fallback: "fallback_cfg".into(),
        device: "test device".into(),
        date: "2026-01-02".into(),
    }
}

/// Tunes `size` (f32, NT, alpha 1, beta 0, C poisoned) with five candidates: right (twice, the
/// second slower), wrong in one element, silent (writes nothing) and failing to launch.
fn tune(size: Size) -> SizeOutcome {
    let handle = Handle::on(&Device::cpu()).unwrap();
    let q = handle.queue().clone();
    let p = Problem::new(Operation::None, Operation::Transpose, [size.m, size.n, size.k], [None; 3], size.batch, 1.0, 0.0);
    let mut host = HostData::<f32, f32>::generate(&p);
    host.poison_c();
    let mut data = DeviceData::upload(&q, &host).unwrap();
    let names: Vec<String> = ["right", "wrong", "silent", "fails", "right_slow"].map(String::from).to_vec();
    let mut calls = [0usize; 5];
    let outcome = tune_size(&q, &p, &host, &mut data, typed_roundoff::<f32>(), &names, Timing { warmup: 1, iters: 3 }, |i, d| {
        calls[i] += 1;
        let gemm = |d: &mut DeviceData<f32, f32>| {
            gemm_strided_batched(&handle, p.trans_a, p.trans_b, p.m, p.n, p.k, 1.0f32, &d.a, p.lda, &d.b, p.ldb, 0.0, &mut d.c, p.ldc, p.batch_strides()).map_err(|e| e.to_string())
        };
        match i {
            0 => gemm(d),
            1 => {
                gemm(d)?;
                let mut c = d.c.to_vec(&q).unwrap();
                let last = (p.batch - 1) * p.strides().2 + p.ldc * (p.n - 1) + p.m - 1;
                c[last] += 0.25;
                d.c.copy_from_host(&q, &c).map_err(|e| e.to_string())
            }
            2 => Ok(()),
            3 => Err("module failed to compile".into()),
            _ => {
                std::thread::sleep(std::time::Duration::from_millis(20));
                gemm(d)
            }
        }
    });
    // Validation once, then only for the right ones: 1 warm-up call, 1 call that sizes the
    // samples, and 3 samples of back-to-back calls (one each for the slow one, whose call
    // outlasts a sample; several for the fast one).
    assert_eq!(calls[1..], [1, 1, 1, 6], "calls per candidate");
    assert!(calls[0] > 6 && (calls[0] - 3) % 3 == 0, "the fast candidate's samples: {} calls", calls[0]);
    outcome
}

#[test]
fn validates_before_timing_and_writes_only_valid_winners() {
    let sizes = [Size { m: 9, n: 7, k: 5, batch: 3 }, Size { m: 4, n: 4, k: 4, batch: 1 }];
    let outcomes: Vec<SizeOutcome> = sizes.iter().map(|&s| tune(s)).collect();
    for o in &outcomes {
        let verdict = |name: &str| &o.tried.iter().find(|t| t.solution == name).unwrap().verdict;
        assert!(matches!(verdict("right"), Verdict::Timed { gflops, .. } if *gflops > 0.0), "{:?}", o.tried);
        assert!(matches!(verdict("right_slow"), Verdict::Timed { .. }));
        for bad in ["wrong", "silent"] {
            assert!(matches!(verdict(bad), Verdict::Rejected(why) if why.contains("result wrong")), "{bad}: {:?}", verdict(bad));
        }
        assert!(matches!(verdict("fails"), Verdict::Rejected(why) if why.contains("module failed to compile")));
        assert_eq!(o.valid(), 2);
        assert_eq!(o.winner().map(|w| w.0), Some("right"));
    }

    let dir = temp_dir("write");
    let (path, notes) = write_table(&dir, &header(), &outcomes).unwrap();
    assert_eq!(path, dir.join("sm_90/gemm_s_nt.json"));
    assert!(notes.is_empty(), "{notes:?}");
    let tables = Tables::load_dir(&dir);
    assert!(tables.errors().is_empty(), "{:?}", tables.errors());
    let t = tables.get("sm_90", "gemm", "s", "nt").expect("table written");
    assert_eq!((t.generator.as_str(), t.device.as_str(), t.date.as_str(), t.tuned, t.fallback.as_str()), (GENERATOR, "test device", "2026-01-02", true, "fallback_cfg"));
    let mut got: Vec<_> = t.entries().iter().map(|e| ([e.m, e.n, e.k, e.batch], e.solution.as_str(), e.candidates)).collect();
    got.sort();
    assert_eq!(got, vec![([4, 4, 4, 1], "right", Some(2)), ([9, 7, 5, 3], "right", Some(2))]);
    assert!(t.entries().iter().all(|e| e.gflops.is_some_and(|g| g > 0.0)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table of the current generator with a hand fallback and entries at 64^3 ("kept") and 4^3
/// ("replaced"): hand-chosen, or tuned on `tuned_on`.
fn existing_table(tuned_on: Option<&str>) -> GemmTable {
    let mut t = GemmTable::new("sm_90", "s", "nt", GENERATOR, "hand_fallback");
    if let Some(device) = tuned_on {
        (t.tuned, t.device) = (true, device.into());
    }
    t.upsert_entry(GemmEntry::new(64, 64, 64, 1, "kept"));
    t.upsert_entry(GemmEntry::new(4, 4, 4, 1, "replaced"));
    t
}

#[test]
fn merges_into_the_existing_table_and_replaces_a_stale_one() {
    let outcomes = vec![tune(Size { m: 4, n: 4, k: 4, batch: 1 })];
    let dir = temp_dir("merge");

    // Same generator: other sizes and the fallback stay, the tuned size is replaced.
    existing_table(None).write_to(&dir).unwrap();
    let (path, notes) = write_table(&dir, &header(), &outcomes).unwrap();
    assert!(notes.iter().any(|n| n.contains("merging")), "{notes:?}");
    let t = GemmTable::from_json(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!((t.fallback.as_str(), t.tuned, t.device.as_str()), ("hand_fallback", true, "test device"));
    let mut got: Vec<_> = t.entries().iter().map(|e| (e.m, e.solution.as_str())).collect();
    got.sort();
    assert_eq!(got, vec![(4, "right"), (64, "kept")]);

    // Tuned on another device: the table keeps that device and the new entry names its own; once
    // every size is re-tuned on the new device, the table names that one.
    existing_table(Some("other device")).write_to(&dir).unwrap();
    let (path, notes) = write_table(&dir, &header(), &outcomes).unwrap();
    assert!(notes.iter().any(|n| n.contains("measured on other device")), "{notes:?}");
    let t = GemmTable::from_json(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(t.device, "other device");
    let mut got: Vec<_> = t.entries().iter().map(|e| (e.m, e.solution.as_str(), e.device.as_deref())).collect();
    got.sort();
    assert_eq!(got, vec![(4, "right", Some("test device")), (64, "kept", None)]);
    let sizes_64 = vec![tune(Size { m: 64, n: 64, k: 64, batch: 1 })];
    let (path, _) = write_table(&dir, &header(), &sizes_64).unwrap();
    let t = GemmTable::from_json(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(t.device, "test device");
    assert!(t.entries().iter().all(|e| e.device.is_none()), "{:?}", t.entries());
    // The same device again: the entries that name another keep it.
    let mut mixed = t.clone();
    mixed.upsert_entry(GemmEntry { device: Some("third device".into()), ..GemmEntry::new(8, 8, 8, 1, "from_third") });
    mixed.write_to(&dir).unwrap();
    let (path, _) = write_table(&dir, &header(), &outcomes).unwrap();
    let t = GemmTable::from_json(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(t.device, "test device");
    let mut got: Vec<_> = t.entries().iter().map(|e| (e.m, e.device.as_deref())).collect();
    got.sort();
    assert_eq!(got, vec![(4, None), (8, Some("third device")), (64, None)]);

    // Another generator: the table is stale and replaced whole.
    let mut stale = GemmTable::new("sm_90", "s", "nt", "rocmath-gemm/0", "old_fallback");
    stale.upsert_entry(GemmEntry::new(64, 64, 64, 1, "old"));
    stale.write_to(&dir).unwrap();
    let (path, notes) = write_table(&dir, &header(), &outcomes).unwrap();
    assert!(notes.iter().any(|n| n.contains("stale")), "{notes:?}");
    let t = GemmTable::from_json(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!((t.fallback.as_str(), t.generator.as_str()), ("fallback_cfg", GENERATOR));
    assert_eq!(t.entries().iter().map(|e| e.solution.as_str()).collect::<Vec<_>>(), vec!["right"]);

    // A file that does not load is never overwritten.
    std::fs::write(&path, "{ not json").unwrap();
    let e = write_table(&dir, &header(), &outcomes).unwrap_err();
    assert!(e.contains("cannot merge"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ not json");

    // Nothing valid: nothing written.
    let none = vec![SizeOutcome { size: Size { m: 1, n: 1, k: 1, batch: 1 }, tried: vec![] }];
    let empty = temp_dir("none");
    assert!(write_table(&empty, &header(), &none).unwrap_err().contains("no size had a valid candidate"));
    assert!(!empty.join("sm_90").exists());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&empty);
}
