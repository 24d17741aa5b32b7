// Temporary device smoke test (not committed): GPU plans vs an f64 rustfft reference.
use num_complex::Complex64;
use rocmath_fft::*;
use rocmath_runtime::{Device, DeviceBuffer};

fn dft_axis(data: &mut [Complex64], lengths: &[usize], batch: usize, axis: usize, inverse: bool) {
    let n = lengths[axis];
    let stride: usize = lengths[..axis].iter().product();
    let total: usize = lengths.iter().product::<usize>() * batch;
    let mut planner = rustfft::FftPlanner::<f64>::new();
    let f = if inverse { planner.plan_fft_inverse(n) } else { planner.plan_fft_forward(n) };
    let mut row = vec![Complex64::new(0.0, 0.0); n];
    for start in 0..total {
        if (start / stride) % n != 0 { continue; }
        for i in 0..n { row[i] = data[start + i * stride]; }
        f.process(&mut row);
        for i in 0..n { data[start + i * stride] = row[i]; }
    }
}

fn reference(x: &[Complex64], lengths: &[usize], batch: usize, inverse: bool) -> Vec<Complex64> {
    let mut d = x.to_vec();
    for a in 0..lengths.len() { dft_axis(&mut d, lengths, batch, a, inverse); }
    d
}

fn rand(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n).map(|_| { s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0 }).collect()
}

fn rel_err(got: &[Complex64], want: &[Complex64]) -> f64 {
    let num: f64 = got.iter().zip(want).map(|(a, b)| (a - b).norm_sqr()).sum();
    let den: f64 = want.iter().map(|b| b.norm_sqr()).sum();
    (num / den.max(1e-300)).sqrt()
}

fn main() {
    let dev = Device::best();
    let q = dev.new_queue().unwrap();
    println!("device {dev}");
    let mut fails = 0;
    // c2c single interleaved out of place, forward and inverse
    let cases: Vec<(Vec<usize>, usize)> = vec![
        (vec![1], 3), (vec![2], 5), (vec![7], 9), (vec![16], 33), (vec![17*13], 4), (vec![1000], 17), (vec![4096], 8), (vec![16384], 3),
        (vec![65536], 2), (vec![1 << 20], 1), (vec![4099], 3), (vec![19], 5), (vec![3usize.pow(10)], 1), (vec![1 << 22], 1),
        (vec![8, 4], 3), (vec![64, 64, 64], 1), (vec![30, 7, 5], 2), (vec![256, 256], 2), (vec![100000], 1),
    ];
    for prec in [Precision::Single, Precision::Double] {
        for (lengths, batch) in &cases {
            for tt in [TransformType::ComplexForward, TransformType::ComplexInverse] {
                let total: usize = lengths.iter().product::<usize>() * batch;
                let r = rand(2 * total, total as u64);
                let x: Vec<Complex64> = r.chunks(2).map(|c| Complex64::new(c[0], c[1])).collect();
                let want = reference(&x, lengths, *batch, tt == TransformType::ComplexInverse);
                let t0 = std::time::Instant::now();
                let plan = match Plan::new(&dev, Placement::NotInPlace, tt, prec, lengths, *batch, None) { Ok(p) => p, Err(e) => { println!("FAIL plan {lengths:?} {e}"); fails += 1; continue; } };
                let plan_ms = t0.elapsed().as_secs_f64() * 1e3;
                let got: Vec<Complex64> = match prec {
                    Precision::Single => {
                        let xin: Vec<num_complex::Complex32> = x.iter().map(|v| num_complex::Complex32::new(v.re as f32, v.im as f32)).collect();
                        let mut a = DeviceBuffer::from_slice(&q, &xin).unwrap();
                        let mut b = DeviceBuffer::from_slice(&q, &vec![num_complex::Complex32::new(f32::NAN, f32::NAN); total]).unwrap();
                        if let Err(e) = plan.execute(&q, Data::Interleaved(&mut a), Some(Data::Interleaved(&mut b))) { println!("FAIL exec {e}"); fails += 1; continue; }
                        b.to_vec(&q).unwrap().iter().map(|v| Complex64::new(v.re as f64, v.im as f64)).collect()
                    }
                    _ => {
                        let mut a = DeviceBuffer::from_slice(&q, &x).unwrap();
                        let mut b = DeviceBuffer::from_slice(&q, &vec![Complex64::new(f64::NAN, f64::NAN); total]).unwrap();
                        if let Err(e) = plan.execute(&q, Data::Interleaved(&mut a), Some(Data::Interleaved(&mut b))) { println!("FAIL exec {e}"); fails += 1; continue; }
                        b.to_vec(&q).unwrap()
                    }
                };
                let e = rel_err(&got, &want);
                let tol = if prec == Precision::Single { 3.75e-5 } else { 1e-15 } * (total as f64).log2().max(1.0).sqrt() * 4.0;
                let ok = e <= tol;
                if !ok { fails += 1; }
                println!("{} {:?} c2c {lengths:?} x{batch} {:?}: rel err {e:.2e} (tol {tol:.1e}) plan {plan_ms:.1} ms", if ok { "ok  " } else { "FAIL" }, prec, tt);
                if !ok { print!("{}", plan.describe()); }
            }
        }
    }
    // real forward / inverse, single, various lengths
    let rcases: Vec<(Vec<usize>, usize)> = vec![(vec![1], 2), (vec![2], 3), (vec![8], 3), (vec![7], 4), (vec![1000], 5), (vec![4099], 2), (vec![16], 2), (vec![1 << 16], 1), (vec![64, 32], 2), (vec![33, 16, 8], 1), (vec![128, 128, 128], 1)];
    for (lengths, batch) in &rcases {
        let n0 = lengths[0];
        let h0 = n0 / 2 + 1;
        let total: usize = lengths.iter().product::<usize>() * batch;
        let x = rand(total, 7 + total as u64);
        let xc: Vec<Complex64> = x.iter().map(|&v| Complex64::new(v, 0.0)).collect();
        let full = reference(&xc, lengths, *batch, false);
        let htotal = total / n0 * h0;
        let want: Vec<Complex64> = (0..htotal).map(|i| full[(i / h0) * n0 + i % h0]).collect();
        let plan = Plan::new(&dev, Placement::NotInPlace, TransformType::RealForward, Precision::Single, lengths, *batch, None).unwrap();
        let mut a = DeviceBuffer::from_slice(&q, &x.iter().map(|&v| v as f32).collect::<Vec<_>>()).unwrap();
        let mut b = DeviceBuffer::from_slice(&q, &vec![num_complex::Complex32::new(f32::NAN, f32::NAN); htotal]).unwrap();
        let r = plan.execute(&q, Data::Real(&mut a), Some(Data::Interleaved(&mut b)));
        let got: Vec<Complex64> = b.to_vec(&q).unwrap().iter().map(|v| Complex64::new(v.re as f64, v.im as f64)).collect();
        let e = rel_err(&got, &want);
        let ok = r.is_ok() && e < 1e-5 * 4.0;
        if !ok { fails += 1; print!("{}", plan.describe()); }
        println!("{} r2c {lengths:?} x{batch}: {r:?} rel err {e:.2e}", if ok { "ok  " } else { "FAIL" });
        // inverse: from the hermitian half back to n * x
        let plan = Plan::new(&dev, Placement::NotInPlace, TransformType::RealInverse, Precision::Single, lengths, *batch, None).unwrap();
        let mut hb = DeviceBuffer::from_slice(&q, &want.iter().map(|v| num_complex::Complex32::new(v.re as f32, v.im as f32)).collect::<Vec<_>>()).unwrap();
        let mut xo = DeviceBuffer::from_slice(&q, &vec![f32::NAN; total]).unwrap();
        let r = plan.execute(&q, Data::Interleaved(&mut hb), Some(Data::Real(&mut xo)));
        let n: f64 = lengths.iter().product::<usize>() as f64;
        let got: Vec<Complex64> = xo.to_vec(&q).unwrap().iter().map(|&v| Complex64::new(v as f64 / n, 0.0)).collect();
        let e = rel_err(&got, &xc);
        let ok = r.is_ok() && e < 1e-5 * 4.0;
        if !ok { fails += 1; print!("{}", plan.describe()); }
        println!("{} c2r {lengths:?} x{batch}: {r:?} rel err {e:.2e}", if ok { "ok  " } else { "FAIL" });
    }
    // half c2c and planar in place with scale
    {
        let lengths = [1024usize]; let batch = 4; let total = 4096;
        let r = rand(2 * total, 99);
        let x: Vec<Complex64> = r.chunks(2).map(|c| Complex64::new(c[0], c[1])).collect();
        let want = reference(&x, &lengths, batch, false);
        let plan = Plan::new(&dev, Placement::NotInPlace, TransformType::ComplexForward, Precision::Half, &lengths, batch, None).unwrap();
        let xin: Vec<num_complex::Complex<half::f16>> = x.iter().map(|v| num_complex::Complex::new(half::f16::from_f64(v.re), half::f16::from_f64(v.im))).collect();
        let mut a = DeviceBuffer::from_slice(&q, &xin).unwrap();
        let mut b = DeviceBuffer::from_slice(&q, &xin).unwrap();
        let r = plan.execute(&q, Data::Interleaved(&mut a), Some(Data::Interleaved(&mut b)));
        let got: Vec<Complex64> = b.to_vec(&q).unwrap().iter().map(|v| Complex64::new(v.re.to_f64(), v.im.to_f64())).collect();
        let e = rel_err(&got, &want);
        let ok = r.is_ok() && e < 2e-3;
        if !ok { fails += 1; }
        println!("{} half c2c 1024x4: {r:?} rel err {e:.2e}", if ok { "ok  " } else { "FAIL" });
    }
    {
        let lengths = [30usize, 20]; let batch = 3; let total = 1800;
        let r = rand(2 * total, 5);
        let x: Vec<Complex64> = r.chunks(2).map(|c| Complex64::new(c[0], c[1])).collect();
        let want: Vec<Complex64> = reference(&x, &lengths, batch, false).iter().map(|v| v * 0.5).collect();
        let mut d = PlanDescription::new();
        d.set_scale_factor(0.5).unwrap();
        d.set_data_layout(ArrayType::ComplexPlanar, ArrayType::ComplexPlanar, &[0, 0], &[0, 0], &[], 0, &[], 0).unwrap();
        let plan = Plan::new(&dev, Placement::InPlace, TransformType::ComplexForward, Precision::Single, &lengths, batch, Some(&d)).unwrap();
        let mut re = DeviceBuffer::from_slice(&q, &x.iter().map(|v| v.re as f32).collect::<Vec<_>>()).unwrap();
        let mut im = DeviceBuffer::from_slice(&q, &x.iter().map(|v| v.im as f32).collect::<Vec<_>>()).unwrap();
        let r = plan.execute(&q, Data::Planar(&mut re, &mut im), None);
        let (gr, gi) = (re.to_vec(&q).unwrap(), im.to_vec(&q).unwrap());
        let got: Vec<Complex64> = gr.iter().zip(&gi).map(|(a, b)| Complex64::new(*a as f64, *b as f64)).collect();
        let e = rel_err(&got, &want);
        let ok = r.is_ok() && e < 1e-5;
        if !ok { fails += 1; }
        println!("{} planar in-place 2D scaled: {r:?} rel err {e:.2e}", if ok { "ok  " } else { "FAIL" });
    }
    // timing: batched 1D c2c single, ~2^26 elements
    for logn in [8usize, 10, 12, 14, 16, 20, 24] {
        let n = 1usize << logn; let batch = (1usize << 26) / n;
        let plan = Plan::new(&dev, Placement::NotInPlace, TransformType::ComplexForward, Precision::Single, &[n], batch, None).unwrap();
        let mut a = DeviceBuffer::<num_complex::Complex32>::zeroed(&q, n * batch).unwrap();
        let mut b = DeviceBuffer::<num_complex::Complex32>::zeroed(&q, n * batch).unwrap();
        let (pa, pb) = (a.as_mut_ptr() as *mut std::ffi::c_void, b.as_mut_ptr() as *mut std::ffi::c_void);
        unsafe { plan.execute_raw(&q, &[pa], &[pb], None).unwrap(); }
        q.synchronize().unwrap();
        let e0 = q.record_event().unwrap();
        for _ in 0..10 { unsafe { plan.execute_raw(&q, &[pa], &[pb], None).unwrap(); } }
        let e1 = q.record_event().unwrap();
        e1.synchronize().unwrap();
        let ms = e0.elapsed_ms(&e1).unwrap() / 10.0;
        let gbs = (n * batch * 16) as f64 / ms / 1e6;
        println!("time c2c 2^{logn} x{batch}: {ms:.3} ms, {gbs:.0} GB/s (in+out once)");
    }
    println!("fails: {fails}");
    std::process::exit(if fails > 0 { 1 } else { 0 });
}
