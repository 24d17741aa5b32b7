use std::fs;
use std::path::{Path, PathBuf};

use crate::*;

const GEN: &str = "rocmath-gemm/2";

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("rocmath-tuning-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create temp dir");
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn table(entries: &[(u64, u64, u64, u64, &str)]) -> GemmTable {
    let mut t = GemmTable::new("sm_90", "hss", "nt", GEN, "fallback_kernel");
    for &(m, n, k, batch, solution) in entries {
        t.upsert_entry(GemmEntry::new(m, n, k, batch, solution));
    }
    t
}

fn any(_: &str) -> bool {
    true
}

fn sel(solution: &str, how: How) -> Option<Selection> {
    Some(Selection { solution: solution.into(), how })
}

/// A valid file's text with `entries` spliced in.
fn json(entries: &str) -> String {
    format!(
        r#"{{"format": 1, "op": "gemm", "arch": "sm_90", "types": "hss", "layout": "nt",
            "generator": "{GEN}", "device": "untuned: test", "tuned": false, "date": "2026-11-21",
            "fallback": "fb", "entries": [{entries}]}}"#
    )
}

fn parse_err(text: &str) -> TableError {
    GemmTable::from_json("sm_90/gemm_hss_nt.json", text).expect_err("should be rejected")
}

fn write_file(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    fs::create_dir_all(path.parent().expect("has parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

#[test]
fn round_trip_write_load() {
    let dir = TempDir::new("round-trip");
    let mut t =
        table(&[(4096, 4096, 4096, 1, "a"), (128, 256, 64, 8, "b"), (512, 512, 512, 1, "c")]);
    t.device = "NVIDIA H100 80GB HBM3".into();
    t.tuned = true;
    t.date = "2026-11-21".into();
    t.upsert_entry(GemmEntry {
        gflops: Some(612.5),
        candidates: Some(17),
        ..GemmEntry::new(4096, 4096, 4096, 1, "a2")
    });
    t.upsert_entry(GemmEntry { device: Some("NVIDIA H200".into()), ..GemmEntry::new(128, 256, 64, 8, "b2") });

    let path = t.write_to(&dir.0).expect("write");
    assert_eq!(path, dir.0.join("sm_90").join("gemm_hss_nt.json"));
    // Only the table: the temporary file was renamed away.
    let names: Vec<_> = fs::read_dir(dir.0.join("sm_90"))
        .expect("ls")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, ["gemm_hss_nt.json"]);

    let loaded = Tables::load_dir(&dir.0);
    assert!(loaded.errors().is_empty(), "{:?}", loaded.errors());
    let Lookup::Found(back) = loaded.gemm("sm_90", "hss", "nt", GEN) else { panic!("not found") };
    // Entries come back sorted by (batch, m, n, k); everything else is unchanged.
    let sizes: Vec<_> = back.entries().iter().map(|e| (e.batch, e.m)).collect();
    assert_eq!(sizes, [(1, 512), (1, 4096), (8, 128)]);
    assert_eq!(back.entries()[1].solution, "a2");
    assert_eq!(back.entries()[1].gflops, Some(612.5));
    assert_eq!(back.entries()[1].candidates, Some(17));
    assert_eq!(back.entries()[0].gflops, None);
    assert_eq!(back.entries().iter().map(|e| e.device.as_deref()).collect::<Vec<_>>(), [None, None, Some("NVIDIA H200")]);
    let mut want = t.entries().to_vec();
    want.sort_by_key(|e| (e.batch, e.m, e.n, e.k));
    assert_eq!(back.entries(), want);
    assert_eq!(back.to_json_pretty(), t.to_json_pretty());
    assert_eq!(
        (back.device.as_str(), back.tuned, back.date.as_str()),
        ("NVIDIA H100 80GB HBM3", true, "2026-11-21")
    );
    // Untuned entries leave the optional fields out rather than writing null.
    assert!(!fs::read_to_string(&path).expect("read").contains("null"));
}

#[test]
fn upsert_replaces_same_size() {
    let mut t = table(&[(1, 2, 3, 4, "a")]);
    let old = t.upsert_entry(GemmEntry::new(1, 2, 3, 4, "b"));
    assert_eq!(old.map(|e| e.solution), Some("a".to_string()));
    assert_eq!(t.entries().len(), 1);
    assert_eq!(t.entries()[0].solution, "b");
}

#[test]
fn exact_match() {
    let t = table(&[(1024, 1024, 1024, 1, "near"), (1000, 1000, 1000, 1, "exact")]);
    assert_eq!(t.select(1000, 1000, 1000, 1, any), sel("exact", How::Exact));
}

#[test]
fn nearest_is_in_log_space() {
    let t = table(&[(1024, 1024, 1024, 1, "small"), (8192, 8192, 8192, 1, "large")]);
    // Linearly 3000 is nearer 1024 (1976 away vs 5192) but in log space nearer 8192
    // (ln(3000/1024) = 1.07 vs ln(8192/3000) = 1.00).
    assert_eq!(t.select(3000, 3000, 3000, 1, any), sel("large", How::Nearest));
    assert_eq!(t.select(2000, 2000, 2000, 1, any), sel("small", How::Nearest));
    // Every dimension counts, batch included.
    let t = table(&[(64, 64, 64, 1, "single"), (64, 64, 64, 64, "batched")]);
    assert_eq!(t.select(64, 64, 64, 32, any), sel("batched", How::Nearest));
}

#[test]
fn zero_sizes_count_as_one() {
    let t = table(&[(1, 64, 64, 1, "thin"), (64, 64, 64, 1, "square")]);
    assert_eq!(t.select(0, 64, 64, 0, any), sel("thin", How::Nearest));
}

#[test]
fn ties_go_to_the_first_entry() {
    // The same terms in another order: exactly equal distances from (512, 512, 512, 1).
    let t = table(&[(1024, 512, 512, 1, "first"), (512, 1024, 512, 1, "second")]);
    assert_eq!(t.select(512, 512, 512, 1, any), sel("first", How::Nearest));
    let t = table(&[(512, 1024, 512, 1, "first"), (1024, 512, 512, 1, "second")]);
    assert_eq!(t.select(512, 512, 512, 1, any), sel("first", How::Nearest));
}

#[test]
fn fallback_when_there_are_no_entries() {
    let t = table(&[]);
    assert_eq!(t.select(100, 100, 100, 1, any), sel("fallback_kernel", How::Fallback));
    // Nothing usable at all: the caller's default.
    assert_eq!(t.select(100, 100, 100, 1, |_| false), None);
}

#[test]
fn stale_solution_is_skipped_for_the_next_nearest() {
    let t =
        table(&[(1000, 1000, 1000, 1, "old"), (512, 512, 512, 1, "next"), (64, 64, 64, 1, "far")]);
    let usable = |s: &str| s != "old";
    // The exact entry is stale: the next nearest usable one wins.
    assert_eq!(t.select(1000, 1000, 1000, 1, usable), sel("next", How::Nearest));
    assert_eq!(t.select(900, 900, 900, 1, usable), sel("next", How::Nearest));
    // Every entry stale: the fallback.
    assert_eq!(
        t.select(900, 900, 900, 1, |s| s == "fallback_kernel"),
        sel("fallback_kernel", How::Fallback)
    );
}

#[test]
fn stale_generator_and_missing_tables() {
    let mut tables = Tables::new();
    tables.insert(table(&[]));
    assert!(matches!(tables.gemm("sm_90", "hss", "nt", GEN), Lookup::Found(_)));
    assert_eq!(
        tables.gemm("sm_90", "hss", "nt", "rocmath-gemm/3"),
        Lookup::Stale { found_generator: GEN.into() }
    );
    assert_eq!(tables.gemm("sm_90", "hss", "tn", GEN), Lookup::Missing);
    assert_eq!(tables.gemm("gfx942", "hss", "nt", GEN), Lookup::Missing);
    assert_eq!(tables.lookup("sm_90", "trsm", "hss", "nt", GEN), Lookup::Missing);
}

#[test]
fn malformed_json_is_an_error_naming_the_file() {
    let e = parse_err("{ not json");
    assert_eq!(e.file, Path::new("sm_90/gemm_hss_nt.json"));
    assert!(e.reason.contains("invalid table"), "{e}");
    assert!(e.to_string().starts_with("sm_90/gemm_hss_nt.json: "), "{e}");
}

#[test]
fn unknown_fields_are_errors() {
    let e =
        parse_err(&json(r#"{"m": 1, "n": 1, "k": 1, "batch": 1, "solution": "a", "gflop": 3.0}"#));
    assert!(e.reason.contains("unknown field `gflop`"), "{e}");
    let e = parse_err(&json("").replace(r#""format": 1,"#, r#""format": 1, "comment": "x","#));
    assert!(e.reason.contains("unknown field `comment`"), "{e}");
}

#[test]
fn duplicate_entries_are_errors() {
    let e = parse_err(&json(
        r#"{"m": 8, "n": 8, "k": 8, "batch": 1, "solution": "a"},
           {"m": 9, "n": 8, "k": 8, "batch": 1, "solution": "b"},
           {"m": 8, "n": 8, "k": 8, "batch": 1, "solution": "c"}"#,
    ));
    assert_eq!(e.reason, "entries 0 and 2 have the same size (m=8 n=8 k=8 batch=1)");
}

#[test]
fn zero_sizes_are_errors() {
    for bad in [
        r#""m": 0, "n": 1, "k": 1, "batch": 1"#,
        r#""m": 1, "n": 1, "k": 0, "batch": 1"#,
        r#""m": 1, "n": 1, "k": 1, "batch": 0"#,
    ] {
        let e = parse_err(&json(&format!(r#"{{{bad}, "solution": "a"}}"#)));
        assert!(e.reason.starts_with("entry 0: sizes must be >= 1"), "{e}");
    }
    let e = parse_err(&json(r#"{"m": -1, "n": 1, "k": 1, "batch": 1, "solution": "a"}"#));
    assert!(e.reason.contains("invalid table"), "{e}");
}

#[test]
fn header_invariants_are_checked() {
    let e = parse_err(&json("").replace(r#""format": 1"#, r#""format": 2"#));
    assert_eq!(e.reason, "unsupported format 2 (this library reads format 1)");
    let e = parse_err(&json("").replace(r#""fallback": "fb""#, r#""fallback": """#));
    assert_eq!(e.reason, "`fallback` is empty");
    let e = parse_err(&json("").replace(r#""op": "gemm""#, r#""op": """#));
    assert_eq!(e.reason, "`op` is empty");
    let e = parse_err(&json("").replace(r#""arch": "sm_90""#, r#""arch": "../sm_90""#));
    assert!(e.reason.contains("`arch`"), "{e}");
    let e = parse_err(&json("").replace(r#""tuned": false, "#, ""));
    assert!(e.reason.contains("missing field `tuned`"), "{e}");
    // Optional measurement fields may be null as well as absent.
    let ok = json(
        r#"{"m": 1, "n": 1, "k": 1, "batch": 1, "solution": "a", "gflops": null, "candidates": null}"#,
    );
    assert!(GemmTable::from_json("x", &ok).is_ok());
}

#[test]
fn write_checks_invariants() {
    let dir = TempDir::new("write-invalid");
    let mut t = table(&[(0, 1, 1, 1, "a")]);
    let e = t.write_to(&dir.0).expect_err("zero size");
    assert!(e.reason.contains("sizes must be >= 1"), "{e}");
    t = table(&[]);
    t.arch = "a/b".into();
    assert!(t.write_to(&dir.0).is_err());
    assert!(fs::read_dir(&dir.0).expect("ls").next().is_none(), "nothing written");
}

#[test]
fn load_dir_keeps_good_files_and_reports_bad_ones() {
    let dir = TempDir::new("load-dir");
    write_file(
        &dir.0,
        "sm_90/gemm_hss_nt.json",
        &json(r#"{"m": 1, "n": 1, "k": 1, "batch": 1, "solution": "a"}"#),
    );
    write_file(&dir.0, "sm_90/gemm_hss_tn.json", "{ broken");
    write_file(&dir.0, "sm_90/notes.txt", "ignored");
    write_file(&dir.0, "README.md", "ignored");
    // Stored where its contents do not belong.
    write_file(&dir.0, "gfx942/gemm_hss_nt.json", &json(""));

    let tables = Tables::load_dir(&dir.0);
    assert_eq!(tables.len(), 1);
    assert!(matches!(tables.gemm("sm_90", "hss", "nt", GEN), Lookup::Found(_)));
    let errors = tables.errors();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(errors[0].file, dir.0.join("gfx942/gemm_hss_nt.json"));
    assert!(errors[0].reason.contains("belongs at"), "{}", errors[0]);
    assert_eq!(errors[1].file, dir.0.join("sm_90/gemm_hss_tn.json"));
    assert!(errors[1].reason.contains("invalid table"), "{}", errors[1]);
}

#[test]
fn load_dir_of_a_missing_directory_reports_it() {
    let dir = TempDir::new("missing");
    let missing = dir.0.join("nope");
    let tables = Tables::load_dir(&missing);
    assert!(tables.is_empty());
    assert_eq!(tables.errors().len(), 1);
    assert_eq!(tables.errors()[0].file, missing);
}

#[test]
fn arch_normalisation() {
    assert_eq!(arch_keys("sm_90a"), ["sm_90a", "sm_90"]);
    assert_eq!(arch_keys("sm_100a"), ["sm_100a", "sm_100"]);
    assert_eq!(arch_keys("sm_90"), ["sm_90"]);
    assert_eq!(arch_keys("gfx90a:sramecc+:xnack-"), ["gfx90a"]);
    assert_eq!(arch_keys("gfx90a"), ["gfx90a"]);
    assert_eq!(arch_keys("gfx942:xnack+"), ["gfx942"]);

    let mut base = table(&[]);
    base.fallback = "base".into();
    let mut tables = Tables::new();
    tables.insert(base);
    let found = |t: &Tables, arch: &str, gen: &str| match t.gemm(arch, "hss", "nt", gen) {
        Lookup::Found(t) => Some(t.fallback.clone()),
        _ => None,
    };
    assert_eq!(found(&tables, "sm_90a", GEN).as_deref(), Some("base"));

    let mut specific = table(&[]);
    specific.arch = "sm_90a".into();
    specific.fallback = "specific".into();
    tables.insert(specific.clone());
    assert_eq!(found(&tables, "sm_90a", GEN).as_deref(), Some("specific"));
    assert_eq!(found(&tables, "sm_90", GEN).as_deref(), Some("base"));

    // A stale sm_90a table does not hide a current sm_90 one.
    specific.generator = "rocmath-gemm/1".into();
    tables.insert(specific);
    assert_eq!(found(&tables, "sm_90a", GEN).as_deref(), Some("base"));

    let mut amd = table(&[]);
    amd.arch = "gfx90a".into();
    tables.insert(amd);
    assert!(matches!(tables.gemm("gfx90a:sramecc+:xnack-", "hss", "nt", GEN), Lookup::Found(_)));
}

#[test]
fn embedded_tables_are_valid() {
    let tables = Tables::embedded();
    assert!(tables.errors().is_empty(), "committed tables must load: {:?}", tables.errors());
    for t in tables.iter() {
        assert!(!t.generator.is_empty());
    }
}

#[test]
fn from_env_overlays_the_embedded_tables() {
    // The only test that touches this variable.
    let dir = TempDir::new("from-env");
    let mut t = table(&[]);
    t.arch = "gfx942".into();
    t.types = "zz_test".into();
    t.write_to(&dir.0).expect("write");
    std::env::set_var(TUNING_DIR_ENV, &dir.0);
    let tables = Tables::from_env();
    std::env::remove_var(TUNING_DIR_ENV);
    assert!(tables.errors().is_empty(), "{:?}", tables.errors());
    assert_eq!(tables.len(), Tables::embedded().len() + 1);
    assert!(matches!(tables.gemm("gfx942", "zz_test", "nt", GEN), Lookup::Found(_)));
}
