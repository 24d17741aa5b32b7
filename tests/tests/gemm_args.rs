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
