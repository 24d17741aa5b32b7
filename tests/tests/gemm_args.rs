//! Bad arguments get rocBLAS's exact status, in rocBLAS's order, and write nothing; empty sizes
//! return early. Checked through the raw (C ABI) entry points on every device present.
use half::f16;
use rocmath_blas::{gemm_ex_raw, gemm_raw, Datatype, Handle, Operation, PointerMode, Status};
use rocmath_runtime::DeviceBuffer;
use rocmath_tests::test_devices;

const N: i32 = Operation::None as i32;
const T: i32 = Operation::Transpose as i32;

struct Bufs {
    handle: Handle,
    a: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    c: DeviceBuffer<f32>,
    before: Vec<f32>,
}

impl Bufs {
    fn new(handle: Handle) -> Bufs {
        let q = handle.queue().clone();
        let before: Vec<f32> = (0..64).map(|i| i as f32 * 0.5 - 3.0).collect();
        Bufs {
            a: DeviceBuffer::from_slice(&q, &[1.0; 64]).unwrap(),
            b: DeviceBuffer::from_slice(&q, &[2.0; 64]).unwrap(),
            c: DeviceBuffer::from_slice(&q, &before).unwrap(),
            before,
            handle,
        }
    }

    fn unchanged(&self) -> bool {
        self.c.to_vec(self.handle.queue()).unwrap() == self.before
    }
}

/// Scalars live where the pointer mode says; on GPUs in device mode they are device buffers.
struct Scalars {
    alpha: DeviceBuffer<f32>,
    beta: DeviceBuffer<f32>,
}

#[allow(clippy::too_many_arguments)]
fn sgemm(s: &mut Bufs, ta: i32, tb: i32, m: i32, n: i32, k: i32, alpha: Option<f32>, a: bool, lda: i32, b: bool, ldb: i32, beta: Option<f32>, c: bool, ldc: i32) -> Result<(), Status> {
    let (alpha_h, beta_h) = (alpha.unwrap_or(0.0), beta.unwrap_or(0.0));
    let dev_scalars = (s.handle.pointer_mode() == PointerMode::Device).then(|| Scalars {
        alpha: DeviceBuffer::from_slice(s.handle.queue(), &[alpha_h]).unwrap(),
        beta: DeviceBuffer::from_slice(s.handle.queue(), &[beta_h]).unwrap(),
    });
    let (pa, pb) = match &dev_scalars {
        Some(d) => (d.alpha.as_ptr(), d.beta.as_ptr()),
        None => (&alpha_h as *const f32, &beta_h as *const f32),
    };
    let pa = if alpha.is_some() { pa } else { std::ptr::null() };
    let pb = if beta.is_some() { pb } else { std::ptr::null() };
    let a = if a { s.a.as_ptr() } else { std::ptr::null() };
    let b = if b { s.b.as_ptr() } else { std::ptr::null() };
    let c = if c { s.c.as_mut_ptr() } else { std::ptr::null_mut() };
    let r = unsafe { gemm_raw::<f32>(&s.handle, ta, tb, m, n, k, pa, a, lda, b, ldb, pb, c, ldc) };
    s.handle.queue().synchronize().unwrap();
    r.map_err(|e| e.status)
}

fn for_each_handle(mut f: impl FnMut(Bufs)) {
    for device in test_devices() {
        for mode in [PointerMode::Host, PointerMode::Device] {
            let mut h = Handle::on(&device).unwrap();
            h.set_pointer_mode(mode);
            f(Bufs::new(h));
        }
    }
}

#[test]
fn bad_arguments_get_rocblas_statuses_and_write_nothing() {
    let one = Some(1.0);
    for_each_handle(|mut s| {
        let cases: Vec<(&str, Status, Box<dyn Fn(&mut Bufs) -> Result<(), Status>>)> = vec![
            ("bad trans_a", Status::InvalidValue, Box::new(move |s| sgemm(s, 999, N, 4, 4, 4, one, true, 4, true, 4, one, true, 4))),
            ("bad trans_b", Status::InvalidValue, Box::new(move |s| sgemm(s, N, 0, 4, 4, 4, one, true, 4, true, 4, one, true, 4))),
            ("m < 0", Status::InvalidSize, Box::new(move |s| sgemm(s, N, N, -1, 4, 4, one, true, 4, true, 4, one, true, 4))),
            ("n < 0", Status::InvalidSize, Box::new(move |s| sgemm(s, N, N, 4, -1, 4, one, true, 4, true, 4, one, true, 4))),
            ("k < 0", Status::InvalidSize, Box::new(move |s| sgemm(s, N, N, 4, 4, -2, one, true, 4, true, 4, one, true, 4))),
            ("lda < m (N)", Status::InvalidSize, Box::new(move |s| sgemm(s, N, N, 4, 4, 4, one, true, 3, true, 4, one, true, 4))),
            ("lda < k (T)", Status::InvalidSize, Box::new(move |s| sgemm(s, T, N, 2, 4, 4, one, true, 3, true, 4, one, true, 4))),
            ("ldb < k", Status::InvalidSize, Box::new(move |s| sgemm(s, N, N, 4, 4, 4, one, true, 4, true, 3, one, true, 4))),
            ("ldb < n (T)", Status::InvalidSize, Box::new(move |s| sgemm(s, N, T, 4, 5, 2, one, true, 4, true, 4, one, true, 4))),
            ("ldc < m", Status::InvalidSize, Box::new(move |s| sgemm(s, N, N, 4, 4, 4, one, true, 4, true, 4, one, true, 3))),
            ("null beta", Status::InvalidPointer, Box::new(move |s| sgemm(s, N, N, 4, 4, 4, one, true, 4, true, 4, None, true, 4))),
            ("null alpha", Status::InvalidPointer, Box::new(move |s| sgemm(s, N, N, 4, 4, 4, None, true, 4, true, 4, Some(0.5), true, 4))),
            ("null a", Status::InvalidPointer, Box::new(move |s| sgemm(s, N, N, 4, 4, 4, one, false, 4, true, 4, Some(0.5), true, 4))),
            ("null b", Status::InvalidPointer, Box::new(move |s| sgemm(s, N, N, 4, 4, 4, one, true, 4, false, 4, Some(0.5), true, 4))),
            ("null c", Status::InvalidPointer, Box::new(move |s| sgemm(s, N, N, 4, 4, 4, one, true, 4, true, 4, Some(0.5), false, 4))),
        ];
        for (what, want, call) in cases {
            assert_eq!(call(&mut s), Err(want), "{what} on {:?}", s.handle);
            assert!(s.unchanged(), "{what} wrote C on {:?}", s.handle);
        }
        // Quick returns: success, nothing written.
        for (what, r) in [
            ("m = 0", sgemm(&mut s, N, N, 0, 4, 4, one, false, 4, false, 4, one, false, 4)),
            ("n = 0", sgemm(&mut s, N, N, 4, 0, 4, one, false, 4, false, 4, one, false, 4)),
        ] {
            assert_eq!(r, Ok(()), "{what}");
            assert!(s.unchanged(), "{what} wrote C");
        }
        if s.handle.pointer_mode() == PointerMode::Host {
            // beta = 1 with k = 0 or alpha = 0: nothing to do, and A/B/alpha may be null.
            assert_eq!(sgemm(&mut s, N, N, 4, 4, 0, None, false, 4, false, 4, one, true, 4), Ok(()));
            assert_eq!(sgemm(&mut s, N, N, 4, 4, 4, Some(0.0), false, 4, false, 4, one, true, 4), Ok(()));
            assert!(s.unchanged());
        }
    });
}

#[test]
fn null_pointer_order_matches_rocblas() {
    // Sizes are checked before pointers: a bad ld with null pointers is invalid_size.
    for_each_handle(|mut s| {
        assert_eq!(sgemm(&mut s, N, N, 4, 4, 4, None, false, 1, false, 4, None, false, 4), Err(Status::InvalidSize));
        assert_eq!(sgemm(&mut s, 5, N, 4, 4, 4, None, false, 1, false, 4, None, false, 4), Err(Status::InvalidValue));
    });
}

#[test]
fn gemm_ex_rejects_bad_types() {
    for device in test_devices() {
        let h = Handle::on(&device).unwrap();
        let q = h.queue().clone();
        let a = DeviceBuffer::from_slice(&q, &[f16::ONE; 16]).unwrap();
        let mut c = DeviceBuffer::from_slice(&q, &[3f32; 16]).unwrap();
        let (alpha, beta) = (1f32, 0f32);
        let call = |c: &mut DeviceBuffer<f32>, a_type: i32, c_type: i32, compute: i32, algo: i32| unsafe {
            let cp = c.as_mut_ptr() as *mut u8;
            gemm_ex_raw(
                &h, N, N, 4, 4, 4, &alpha as *const f32 as *const u8, a.as_ptr() as *const u8, a_type, 4,
                a.as_ptr() as *const u8, a_type, 4, &beta as *const f32 as *const u8, cp, c_type, 4, cp, c_type, 4, compute, algo,
            )
            .map_err(|e| e.status)
        };
        let (f16r, f32r, f64r) = (Datatype::F16R as i32, Datatype::F32R as i32, Datatype::F64R as i32);
        assert_eq!(call(&mut c, f16r, f32r, f64r, 0), Err(Status::NotImplemented), "f16 in, f64 compute");
        assert_eq!(call(&mut c, Datatype::I8R as i32, f32r, f32r, 0), Err(Status::NotImplemented), "i8 in, f32 out");
        assert_eq!(call(&mut c, 12345, f32r, f32r, 0), Err(Status::InvalidValue), "unknown datatype");
        assert_eq!(call(&mut c, f16r, f32r, f32r, 7), Err(Status::InvalidValue), "unknown algo");
        assert_eq!(c.to_vec(&q).unwrap(), vec![3f32; 16], "C written by a refused call");
        assert_eq!(call(&mut c, f16r, f32r, f32r, 0), Ok(()));
        q.synchronize().unwrap();
        assert_eq!(c.to_vec(&q).unwrap(), vec![4f32; 16], "HSS 4x4x4 of ones");
    }
}

#[test]
fn safe_api_names_the_argument() {
    for device in test_devices() {
        let h = Handle::on(&device).unwrap();
        let q = h.queue().clone();
        let a = DeviceBuffer::from_slice(&q, &[1f64; 6]).unwrap();
        let mut c = DeviceBuffer::from_slice(&q, &[0f64; 9]).unwrap();
        let call = |lda, ldb, ldc, c: &mut DeviceBuffer<f64>| {
            rocmath_blas::gemm(&h, Operation::None, Operation::None, 3, 3, 2, 1.0, &a, lda, &a, ldb, 0.0, c, ldc).unwrap_err()
        };
        for (lda, ldb, ldc, status, argument) in [
            (3, 1, 3, Status::InvalidSize, "ldb"),
            (2, 2, 3, Status::InvalidSize, "lda"),
            (3, 2, 2, Status::InvalidSize, "ldc"),
            (4, 2, 3, Status::InvalidSize, "a"), // 6 elements cannot hold 3x2 with lda 4
            (3, 4, 3, Status::InvalidSize, "b"),
            (3, 2, 4, Status::InvalidSize, "c"),
        ] {
            let e = call(lda, ldb, ldc, &mut c);
            assert_eq!((e.status, e.argument), (status, argument), "{e}");
        }
        assert_eq!(c.to_vec(&q).unwrap(), vec![0f64; 9]);
    }
}

/// rocBLAS checks sizes, quick returns and pointers before it refuses an unsupported datatype
/// combination; a compute type it has no scalar type for is refused at once.
#[test]
fn gemm_ex_unsupported_types_after_argument_checks() {
    for device in test_devices() {
        let h = Handle::on(&device).unwrap();
        let q = h.queue().clone();
        let a = DeviceBuffer::from_slice(&q, &[1f32; 16]).unwrap();
        let mut c = DeviceBuffer::from_slice(&q, &[3f64; 16]).unwrap();
        let (one, zero) = (1f32, 0f32);
        let (f32r, f64r, bf16r) = (Datatype::F32R as i32, Datatype::F64R as i32, Datatype::Bf16R as i32);
        // f32 inputs, f64 output, f32 compute: valid enums, no implementation.
        let call = |m: i32, k: i32, lda: i32, a_ok: bool, beta: &f32, c_ok: bool, compute: i32, c: &mut DeviceBuffer<f64>| unsafe {
            let ap = if a_ok { a.as_ptr() as *const u8 } else { std::ptr::null() };
            let cp = if c_ok { c.as_mut_ptr() as *mut u8 } else { std::ptr::null_mut() };
            gemm_ex_raw(&h, N, N, m, 4, k, &one as *const f32 as *const u8, ap, f32r, lda, ap, f32r, 4, beta as *const f32 as *const u8, cp, f64r, 4, cp, f64r, 4, compute, 0)
                .map_err(|e| e.status)
        };
        assert_eq!(call(-1, 4, 4, true, &zero, true, f32r, &mut c), Err(Status::InvalidSize), "m < 0");
        assert_eq!(call(4, 4, 3, true, &zero, true, f32r, &mut c), Err(Status::InvalidSize), "lda < m");
        assert_eq!(call(0, 4, 4, true, &zero, true, f32r, &mut c), Ok(()), "m = 0 quick return");
        assert_eq!(call(4, 4, 4, false, &zero, true, f32r, &mut c), Err(Status::InvalidPointer), "null a");
        assert_eq!(call(4, 4, 4, true, &zero, false, f32r, &mut c), Err(Status::InvalidPointer), "null c/d");
        assert_eq!(call(4, 4, 4, true, &zero, true, f32r, &mut c), Err(Status::NotImplemented), "valid arguments");
        assert_eq!(call(4, 0, 4, true, &one, true, f32r, &mut c), Err(Status::NotImplemented), "k = 0, beta = 1 is no quick return for gemm_ex");
        // bf16 compute: rocBLAS has no scalar type for it and refuses before the size checks.
        assert_eq!(call(-1, 4, 4, true, &zero, true, bf16r, &mut c), Err(Status::NotImplemented), "bf16 compute");
        q.synchronize().unwrap();
        assert_eq!(c.to_vec(&q).unwrap(), vec![3f64; 16], "C written by a refused call");
    }
}

/// Batched forms: batch_count < 0 is invalid_size, 0 a quick return (null arrays allowed); a
/// null array is invalid_pointer where a null matrix would be; nothing is written on error.
#[test]
fn batched_bad_arguments() {
    use rocmath_blas::{gemm_batched_ex_raw, gemm_batched_raw, gemm_strided_batched_ex_raw, gemm_strided_batched_raw};
    for device in test_devices() {
        let h = Handle::on(&device).unwrap();
        let q = h.queue().clone();
        let before: Vec<f32> = (0..32).map(|i| i as f32).collect();
        let a = DeviceBuffer::from_slice(&q, &[1f32; 32]).unwrap();
        let mut c = DeviceBuffer::from_slice(&q, &before).unwrap();
        let cp = c.as_mut_ptr();
        // Two entries: matrices 0..16 and 16..32 of each buffer.
        let arr = |base: u64| DeviceBuffer::from_slice(&q, &[base, base + 64]).unwrap();
        let (pa, pc) = (arr(a.as_ptr() as u64), arr(cp as u64));
        let (one, two, zero) = (1f32, 2f32, 0f32);
        let null = std::ptr::null();
        let typed = |ta: i32, alpha: &f32, a_arr: *const *const f32, c_arr: *const *mut f32, batch: i32| unsafe {
            gemm_batched_raw::<f32>(&h, ta, N, 4, 4, 4, alpha, a_arr, 4, a_arr, 4, &two, c_arr, 4, batch).map_err(|e| e.status)
        };
        let (pa_, pc_) = (pa.as_ptr() as *const *const f32, pc.as_ptr() as *const *mut f32);
        assert_eq!(typed(N, &one, pa_, pc_, -1), Err(Status::InvalidSize));
        assert_eq!(typed(999, &one, pa_, pc_, 2), Err(Status::InvalidValue));
        assert_eq!(typed(N, &one, null, std::ptr::null(), 0), Ok(()), "empty batch");
        assert_eq!(typed(N, &one, null, pc_, 2), Err(Status::InvalidPointer), "null A/B arrays");
        assert_eq!(typed(N, &one, pa_, std::ptr::null(), 2), Err(Status::InvalidPointer), "null C array");
        let strided = |batch: i32| unsafe {
            gemm_strided_batched_raw::<f32>(&h, N, N, 4, 4, 4, &one, a.as_ptr(), 4, 16, a.as_ptr(), 4, 16, &two, cp, 4, 16, batch).map_err(|e| e.status)
        };
        assert_eq!(strided(-1), Err(Status::InvalidSize));
        let f32r = Datatype::F32R as i32;
        let ex_b = |batch: i32, compute: i32| unsafe {
            let (ap, cpp) = (pa.as_ptr() as *const *const u8, pc.as_ptr() as *const *const u8);
            gemm_batched_ex_raw(&h, N, N, 4, 4, 4, (&one as *const f32).cast(), ap, f32r, 4, ap, f32r, 4, (&two as *const f32).cast(), cpp, f32r, 4, cpp as *const *mut u8, f32r, 4, batch, compute, 0)
                .map_err(|e| e.status)
        };
        assert_eq!(ex_b(-1, f32r), Err(Status::InvalidSize));
        assert_eq!(ex_b(2, Datatype::F64R as i32), Err(Status::NotImplemented));
        let ex_s = |batch: i32| unsafe {
            gemm_strided_batched_ex_raw(
                &h, N, N, 4, 4, 4, (&one as *const f32).cast(), a.as_ptr().cast(), f32r, 4, 16, a.as_ptr().cast(), f32r, 4, 16, (&two as *const f32).cast(),
                cp.cast(), f32r, 4, 16, cp.cast(), f32r, 4, 8, batch, f32r, 0,
            )
            .map_err(|e| e.status)
        };
        assert_eq!(ex_s(2), Err(Status::InvalidSize), "C is D with stride_c != stride_d");
        q.synchronize().unwrap();
        assert_eq!(c.to_vec(&q).unwrap(), before, "C written by a refused call");
        // alpha = 0: A and B are never read, so their arrays may be null: C = beta * C.
        assert_eq!(typed(N, &zero, null, pc_, 2), Ok(()));
        q.synchronize().unwrap();
        assert_eq!(c.to_vec(&q).unwrap(), before.iter().map(|v| v * 2.0).collect::<Vec<_>>());
    }
}
