use std::sync::atomic::{AtomicU64, AtomicBool, Ordering::*};
use std::sync::Arc;
use std::time::{Duration, Instant};
fn busy(d: Duration) { let t = Instant::now(); while t.elapsed() < d { std::hint::spin_loop(); } }
fn pct(mut v: Vec<f64>) -> String { v.sort_by(|a,b| a.total_cmp(b)); format!("p10 {:.1} p50 {:.1} p90 {:.1} us", v[v.len()/10], v[v.len()/2], v[v.len()*9/10]) }
fn main() {
    let idle = Duration::from_micros(std::env::args().nth(1).map_or(1000, |s| s.parse().unwrap()));
    let base = Instant::now();
    // rayon
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let mut lat = Vec::new();
    for _ in 0..300 {
        busy(idle);
        let started = AtomicU64::new(0);
        let t0 = base.elapsed().as_nanos() as u64;
        pool.in_place_scope(|s| {
            s.spawn(|_| { started.store(base.elapsed().as_nanos() as u64, SeqCst); });
            busy(Duration::from_micros(200));
        });
        lat.push((started.load(SeqCst) - t0) as f64 / 1e3);
    }
    println!("rayon spawn -> run: {}", pct(lat));
    // park/unpark
    let flag = Arc::new(AtomicBool::new(false));
    let started = Arc::new(AtomicU64::new(0));
    let (f2, s2) = (flag.clone(), started.clone());
    let h = std::thread::spawn(move || loop {
        while !f2.swap(false, SeqCst) { std::thread::park(); }
        s2.store(base.elapsed().as_nanos() as u64, SeqCst);
    });
    let mut lat = Vec::new();
    for _ in 0..300 {
        busy(idle);
        let t0 = base.elapsed().as_nanos() as u64;
        started.store(0, SeqCst);
        flag.store(true, SeqCst);
        h.thread().unpark();
        busy(Duration::from_micros(200));
        let s = started.load(SeqCst);
        if s > 0 { lat.push((s - t0) as f64 / 1e3); }
    }
    println!("park/unpark -> run: {} ({} of 300)", pct(lat.clone()), lat.len());
}
