//! librocblas: rocmath's BLAS behind the C ABI of ROCm's rocBLAS.
//!
//! The C declarations are in `capi/include/rocblas/rocblas.h`; every function here has exactly
//! the signature declared there. Rules every entry point follows:
//!
//! - Enumerations arrive as raw `i32` (never as Rust enums: a C caller can pass any int, and a
//!   Rust enum holding an undeclared value is undefined behaviour). Values outside the enum give
//!   `rocblas_status_invalid_value`.
//! - The body runs under [`std::panic::catch_unwind`]: a panic becomes
//!   `rocblas_status_internal_error` instead of unwinding into C.
//! - The handle is checked first (`invalid_handle`), then output pointers (`invalid_pointer`),
//!   before anything is read or written. The GEMM argument checks (sizes, leading dimensions,
//!   pointers, quick returns) are rocBLAS's, in rocBLAS's order, and live in
//!   [`rocmath_blas::gemm_raw`] / [`rocmath_blas::gemm_ex_raw`].
//!
//! A `rocblas_handle` is a leaked `Box` of [`_rocblas_handle`], which holds the
//! [`rocmath_blas::Handle`] (queue, pointer mode) and, for the CPU device, the stream value
//! last set (the CPU runs work when it is called, so a stream is only remembered).
#![allow(non_camel_case_types, non_upper_case_globals)]
#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use half::f16;
use num_complex::{Complex32, Complex64};
use rocmath_blas::{BlasError, Handle, MathMode, PointerMode, Status};
use rocmath_runtime::{Device, GpuQueue, Queue};

// ---------------------------------------------------------------------------------------------
// C types
// ---------------------------------------------------------------------------------------------

/// `rocblas_int` (LP64 interface).
pub type rocblas_int = i32;
/// `rocblas_stride`.
pub type rocblas_stride = i64;
/// `rocblas_status`, as a raw int (see [`Status`] for the values).
pub type rocblas_status = i32;
/// `rocblas_operation` as received from C (111..=113 are valid).
pub type rocblas_operation = i32;
/// `rocblas_datatype` as received from C.
pub type rocblas_datatype = i32;
/// `rocblas_pointer_mode` as received from C (0 host, 1 device).
pub type rocblas_pointer_mode = i32;
/// `rocblas_math_mode` as received from C (0 default, 1 xf32_xdl_math_op).
pub type rocblas_math_mode = i32;
/// `rocblas_gemm_algo` as received from C (0 standard, 1 solution_index).
pub type rocblas_gemm_algo = i32;
/// `hipStream_t`: an opaque pointer (`struct ihipStream_t*`); 0 is the default stream.
pub type hipStream_t = *mut c_void;

/// `rocblas_half`: IEEE binary16 as raw bits.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct rocblas_half {
    pub data: u16,
}

/// `rocblas_bfloat16`: bfloat16 as raw bits.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct rocblas_bfloat16 {
    pub data: u16,
}

/// `rocblas_float_complex` (C layout: real part `x`, imaginary part `y`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rocblas_float_complex {
    pub x: f32,
    pub y: f32,
}

/// `rocblas_double_complex` (C layout: real part `x`, imaginary part `y`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rocblas_double_complex {
    pub x: f64,
    pub y: f64,
}

// The C types are passed to the library as its own element types: same size and alignment.
const _: () = {
    use std::mem::{align_of, size_of};
    assert!(size_of::<rocblas_half>() == size_of::<f16>() && align_of::<rocblas_half>() == align_of::<f16>());
    assert!(size_of::<rocblas_bfloat16>() == size_of::<half::bf16>());
    assert!(size_of::<rocblas_float_complex>() == size_of::<Complex32>());
    assert!(align_of::<rocblas_float_complex>() == align_of::<Complex32>());
    assert!(size_of::<rocblas_double_complex>() == size_of::<Complex64>());
    assert!(align_of::<rocblas_double_complex>() == align_of::<Complex64>());
};

/// The library context behind a `rocblas_handle`.
pub struct _rocblas_handle {
    blas: Handle,
    /// The stream last set with `rocblas_set_stream` on the CPU device (GPU handles keep it in
    /// their queue).
    cpu_stream: usize,
}

impl _rocblas_handle {
    /// The BLAS handle (for Rust code that shares a handle with C callers).
    pub fn blas(&self) -> &Handle {
        &self.blas
    }
}

/// `rocblas_handle`.
pub type rocblas_handle = *mut _rocblas_handle;

const SUCCESS: rocblas_status = Status::Success as rocblas_status;
const INVALID_HANDLE: rocblas_status = Status::InvalidHandle as rocblas_status;
const INVALID_POINTER: rocblas_status = Status::InvalidPointer as rocblas_status;
const INVALID_VALUE: rocblas_status = Status::InvalidValue as rocblas_status;
const INTERNAL_ERROR: rocblas_status = Status::InternalError as rocblas_status;

/// Runs `body`, turning a panic into `rocblas_status_internal_error`.
fn guard(body: impl FnOnce() -> rocblas_status) -> rocblas_status {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(INTERNAL_ERROR)
}

fn to_status(r: Result<(), BlasError>) -> rocblas_status {
    match r {
        Ok(()) => SUCCESS,
        Err(e) => e.status as rocblas_status,
    }
}

// ---------------------------------------------------------------------------------------------
// Auxiliary functions
// ---------------------------------------------------------------------------------------------

/// `rocblas_create_handle`: a handle on `ROCMATH_DEVICE`'s device (else the best one present),
/// on that device's default stream. A null `handle` gives `invalid_handle` (as rocBLAS); a
/// device that cannot be opened gives `internal_error` with `*handle` set to null.
///
/// # Safety
/// `handle` must be null or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn rocblas_create_handle(handle: *mut rocblas_handle) -> rocblas_status {
    guard(|| {
        if handle.is_null() {
            return INVALID_HANDLE;
        }
        let device = match Device::from_env() {
            Ok(device) => device,
            Err(e) => {
                eprintln!("rocblas_create_handle: {e}");
                // SAFETY: checked non-null; the caller guarantees it is writable.
                unsafe { handle.write(std::ptr::null_mut()) };
                return INTERNAL_ERROR;
            }
        };
        let h = Box::new(_rocblas_handle { blas: Handle::on_default_stream(&device), cpu_stream: 0 });
        // SAFETY: as above.
        unsafe { handle.write(Box::into_raw(h)) };
        SUCCESS
    })
}

/// `rocblas_destroy_handle`: waits for the handle's stream, then frees the handle. The handle
/// is freed even if waiting reports an error (the status is then that error's).
///
/// # Safety
/// `handle` must be null or a handle from [`rocblas_create_handle`] not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn rocblas_destroy_handle(handle: rocblas_handle) -> rocblas_status {
    guard(|| {
        if handle.is_null() {
            return INVALID_HANDLE;
        }
        // SAFETY: a live handle made by Box::into_raw in rocblas_create_handle.
        let h = unsafe { Box::from_raw(handle) };
        let synced = h.blas.queue().synchronize().map_err(BlasError::from);
        drop(h);
        to_status(synced)
    })
}

/// `rocblas_set_stream`. On a GPU the handle's queue becomes `stream` (0 is the default
/// stream), which the caller keeps alive while the handle uses it. On the CPU device the value
/// is stored and returned by [`rocblas_get_stream`]; CPU work runs when it is called.
///
/// # Safety
/// `handle` must be null or a live handle; on a GPU, `stream` must be a valid stream of the
/// handle's device (or 0).
#[no_mangle]
pub unsafe extern "C" fn rocblas_set_stream(handle: rocblas_handle, stream: hipStream_t) -> rocblas_status {
    guard(|| {
        // SAFETY: null or a live handle, used by one thread at a time (rocBLAS's rule).
        let Some(h) = (unsafe { handle.as_mut() }) else { return INVALID_HANDLE };
        let raw = stream as usize;
        let queue = match h.blas.device() {
            Device::Cpu(_) => {
                h.cpu_stream = raw;
                return SUCCESS;
            }
            // SAFETY: the caller guarantees `stream` is a stream of this device.
            Device::Cuda(g) => Queue::Cuda(unsafe { GpuQueue::from_raw(g, raw) }),
            Device::Hip(g) => Queue::Hip(unsafe { GpuQueue::from_raw(g, raw) }),
        };
        to_status(h.blas.set_queue(queue))
    })
}

/// `rocblas_get_stream`: the stream set on the handle (0 after creation).
///
/// # Safety
/// `handle` must be null or a live handle; `stream` null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn rocblas_get_stream(handle: rocblas_handle, stream: *mut hipStream_t) -> rocblas_status {
    guard(|| {
        // SAFETY: null or a live handle.
        let Some(h) = (unsafe { handle.as_ref() }) else { return INVALID_HANDLE };
        if stream.is_null() {
            return INVALID_POINTER;
        }
        let raw = match h.blas.queue() {
            Queue::Cpu => h.cpu_stream,
            Queue::Cuda(q) | Queue::Hip(q) => q.raw(),
        };
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { stream.write(raw as hipStream_t) };
        SUCCESS
    })
}

/// `rocblas_set_pointer_mode`; a value other than host (0) or device (1) gives `invalid_value`
/// and leaves the mode unchanged.
///
/// # Safety
/// `handle` must be null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn rocblas_set_pointer_mode(handle: rocblas_handle, pointer_mode: rocblas_pointer_mode) -> rocblas_status {
    guard(|| {
        // SAFETY: null or a live handle, used by one thread at a time.
        let Some(h) = (unsafe { handle.as_mut() }) else { return INVALID_HANDLE };
        let Some(mode) = PointerMode::from_raw(pointer_mode) else { return INVALID_VALUE };
        h.blas.set_pointer_mode(mode);
        SUCCESS
    })
}

/// `rocblas_get_pointer_mode`.
///
/// # Safety
/// `handle` must be null or a live handle; `pointer_mode` null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn rocblas_get_pointer_mode(handle: rocblas_handle, pointer_mode: *mut rocblas_pointer_mode) -> rocblas_status {
    guard(|| {
        // SAFETY: null or a live handle.
        let Some(h) = (unsafe { handle.as_ref() }) else { return INVALID_HANDLE };
        if pointer_mode.is_null() {
            return INVALID_POINTER;
        }
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { pointer_mode.write(h.blas.pointer_mode() as rocblas_pointer_mode) };
        SUCCESS
    })
}

/// `rocblas_set_math_mode`; a value other than default (0) or xf32_xdl_math_op (1) gives
/// `invalid_value` and leaves the mode unchanged. In xf32 mode f32 GEMMs on a GPU round their
/// products to xf32 (TF32); the CPU device computes in full f32 in either mode.
///
/// # Safety
/// `handle` must be null or a live handle.
#[no_mangle]
pub unsafe extern "C" fn rocblas_set_math_mode(handle: rocblas_handle, math_mode: rocblas_math_mode) -> rocblas_status {
    guard(|| {
        // SAFETY: null or a live handle, used by one thread at a time.
        let Some(h) = (unsafe { handle.as_mut() }) else { return INVALID_HANDLE };
        let Some(mode) = MathMode::from_raw(math_mode) else { return INVALID_VALUE };
        h.blas.set_math_mode(mode);
        SUCCESS
    })
}

/// `rocblas_get_math_mode` (`rocblas_default_math` after creation).
///
/// # Safety
/// `handle` must be null or a live handle; `math_mode` null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn rocblas_get_math_mode(handle: rocblas_handle, math_mode: *mut rocblas_math_mode) -> rocblas_status {
    guard(|| {
        // SAFETY: null or a live handle.
        let Some(h) = (unsafe { handle.as_ref() }) else { return INVALID_HANDLE };
        if math_mode.is_null() {
            return INVALID_POINTER;
        }
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { math_mode.write(h.blas.math_mode() as rocblas_math_mode) };
        SUCCESS
    })
}

/// The enumerators' names, NUL-terminated, indexed by value (checked against
/// [`Status::name`] in the tests).
static STATUS_NAMES: [&CStr; 16] = [
    c"rocblas_status_success",
    c"rocblas_status_invalid_handle",
    c"rocblas_status_not_implemented",
    c"rocblas_status_invalid_pointer",
    c"rocblas_status_invalid_size",
    c"rocblas_status_memory_error",
    c"rocblas_status_internal_error",
    c"rocblas_status_perf_degraded",
    c"rocblas_status_size_query_mismatch",
    c"rocblas_status_size_increased",
    c"rocblas_status_size_unchanged",
    c"rocblas_status_invalid_value",
    c"rocblas_status_continue",
    c"rocblas_status_check_numerics_fail",
    c"rocblas_status_excluded_from_build",
    c"rocblas_status_arch_mismatch",
];

/// What rocBLAS returns for a value outside the enum.
static UNDEFINED_STATUS: &CStr = c"<undefined rocblas_status value>";

/// `rocblas_status_to_string`: the enumerator's name, or `"<undefined rocblas_status value>"`.
/// The string has static storage.
#[no_mangle]
pub extern "C" fn rocblas_status_to_string(status: rocblas_status) -> *const c_char {
    usize::try_from(status)
        .ok()
        .and_then(|i| STATUS_NAMES.get(i))
        .copied()
        .unwrap_or(UNDEFINED_STATUS)
        .as_ptr()
}

// ---------------------------------------------------------------------------------------------
// GEMM
// ---------------------------------------------------------------------------------------------

macro_rules! typed_gemm {
    ($(#[$doc:meta])* $name:ident, $c:ty, $rust:ty) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `handle` must be null or a live handle. Every non-null pointer must be valid on the
        /// handle's device (host memory on the CPU device) for the extent the sizes and leading
        /// dimensions describe; alpha and beta follow the handle's pointer mode.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name(
            handle: rocblas_handle,
            trans_a: rocblas_operation,
            trans_b: rocblas_operation,
            m: rocblas_int,
            n: rocblas_int,
            k: rocblas_int,
            alpha: *const $c,
            a: *const $c,
            lda: rocblas_int,
            b: *const $c,
            ldb: rocblas_int,
            beta: *const $c,
            c: *mut $c,
            ldc: rocblas_int,
        ) -> rocblas_status {
            guard(|| {
                // SAFETY: null or a live handle.
                let Some(h) = (unsafe { handle.as_ref() }) else { return INVALID_HANDLE };
                // SAFETY: `$c` and `$rust` have the same layout (checked above); the caller
                // guarantees the pointers; gemm_raw checks them in rocBLAS's order.
                to_status(unsafe {
                    rocmath_blas::gemm_raw::<$rust>(
                        &h.blas,
                        trans_a,
                        trans_b,
                        m,
                        n,
                        k,
                        alpha.cast(),
                        a.cast(),
                        lda,
                        b.cast(),
                        ldb,
                        beta.cast(),
                        c.cast(),
                        ldc,
                    )
                })
            })
        }
    };
}

typed_gemm!(
    /// `rocblas_sgemm`: C = alpha * op(A) * op(B) + beta * C in single precision.
    rocblas_sgemm, f32, f32
);
typed_gemm!(
    /// `rocblas_dgemm`: double precision.
    rocblas_dgemm, f64, f64
);
typed_gemm!(
    /// `rocblas_cgemm`: single-precision complex (op may conjugate-transpose).
    rocblas_cgemm, rocblas_float_complex, Complex32
);
typed_gemm!(
    /// `rocblas_zgemm`: double-precision complex.
    rocblas_zgemm, rocblas_double_complex, Complex64
);
typed_gemm!(
    /// `rocblas_hgemm`: half precision in and out (accumulated in f32).
    rocblas_hgemm, rocblas_half, f16
);

/// `rocblas_gemm_ex`: D = alpha * op(A) * op(B) + beta * C with run-time datatypes (see the
/// header for the supported combinations; others give `not_implemented`, values outside
/// `rocblas_datatype` or an `algo` outside `rocblas_gemm_algo` give `invalid_value`).
///
/// `solution_index` and `flags` are accepted and ignored: rocmath selects its own kernels, and
/// none of the flags changes the result rocmath computes. `algo` is passed on for validation.
///
/// # Safety
/// As for [`rocblas_sgemm`], with each pointer of the datatype its `*_type` names (alpha and
/// beta of `compute_type`).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rocblas_gemm_ex(
    handle: rocblas_handle,
    trans_a: rocblas_operation,
    trans_b: rocblas_operation,
    m: rocblas_int,
    n: rocblas_int,
    k: rocblas_int,
    alpha: *const c_void,
    a: *const c_void,
    a_type: rocblas_datatype,
    lda: rocblas_int,
    b: *const c_void,
    b_type: rocblas_datatype,
    ldb: rocblas_int,
    beta: *const c_void,
    c: *const c_void,
    c_type: rocblas_datatype,
    ldc: rocblas_int,
    d: *mut c_void,
    d_type: rocblas_datatype,
    ldd: rocblas_int,
    compute_type: rocblas_datatype,
    algo: rocblas_gemm_algo,
    solution_index: i32,
    flags: u32,
) -> rocblas_status {
    let _ignored = (solution_index, flags);
    guard(|| {
        // SAFETY: null or a live handle.
        let Some(h) = (unsafe { handle.as_ref() }) else { return INVALID_HANDLE };
        // SAFETY: the caller guarantees the pointers; gemm_ex_raw checks them in rocBLAS's order.
        to_status(unsafe {
            rocmath_blas::gemm_ex_raw(
                &h.blas,
                trans_a,
                trans_b,
                m,
                n,
                k,
                alpha.cast(),
                a.cast(),
                a_type,
                lda,
                b.cast(),
                b_type,
                ldb,
                beta.cast(),
                c.cast(),
                c_type,
                ldc,
                d.cast(),
                d_type,
                ldd,
                compute_type,
                algo,
            )
        })
    })
}

macro_rules! typed_gemm_batched {
    ($(#[$doc:meta])* $name:ident, $c:ty, $rust:ty) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `handle` must be null or a live handle. `a`, `b`, `c` must be null or arrays of
        /// `batch_count` pointers (device arrays of device pointers on a GPU, host arrays on the
        /// CPU device), each valid as for the non-batched function.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name(
            handle: rocblas_handle,
            trans_a: rocblas_operation,
            trans_b: rocblas_operation,
            m: rocblas_int,
            n: rocblas_int,
            k: rocblas_int,
            alpha: *const $c,
            a: *const *const $c,
            lda: rocblas_int,
            b: *const *const $c,
            ldb: rocblas_int,
            beta: *const $c,
            c: *const *mut $c,
            ldc: rocblas_int,
            batch_count: rocblas_int,
        ) -> rocblas_status {
            guard(|| {
                // SAFETY: null or a live handle.
                let Some(h) = (unsafe { handle.as_ref() }) else { return INVALID_HANDLE };
                // SAFETY: `$c` and `$rust` have the same layout; the caller guarantees the
                // arrays; gemm_batched_raw checks them in rocBLAS's order.
                to_status(unsafe {
                    rocmath_blas::gemm_batched_raw::<$rust>(
                        &h.blas, trans_a, trans_b, m, n, k, alpha.cast(), a.cast(), lda, b.cast(), ldb, beta.cast(), c.cast(), ldc, batch_count,
                    )
                })
            })
        }
    };
}

typed_gemm_batched!(
    /// `rocblas_sgemm_batched`: sgemm on each entry of arrays of matrix pointers.
    rocblas_sgemm_batched, f32, f32
);
typed_gemm_batched!(
    /// `rocblas_dgemm_batched`.
    rocblas_dgemm_batched, f64, f64
);
typed_gemm_batched!(
    /// `rocblas_cgemm_batched`.
    rocblas_cgemm_batched, rocblas_float_complex, Complex32
);
typed_gemm_batched!(
    /// `rocblas_zgemm_batched`.
    rocblas_zgemm_batched, rocblas_double_complex, Complex64
);
typed_gemm_batched!(
    /// `rocblas_hgemm_batched`.
    rocblas_hgemm_batched, rocblas_half, f16
);

macro_rules! typed_gemm_strided_batched {
    ($(#[$doc:meta])* $name:ident, $c:ty, $rust:ty) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `handle` must be null or a live handle. Every non-null pointer must be valid for
        /// `batch_count` matrices at the given strides (in elements), as for the non-batched
        /// function.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name(
            handle: rocblas_handle,
            trans_a: rocblas_operation,
            trans_b: rocblas_operation,
            m: rocblas_int,
            n: rocblas_int,
            k: rocblas_int,
            alpha: *const $c,
            a: *const $c,
            lda: rocblas_int,
            stride_a: rocblas_stride,
            b: *const $c,
            ldb: rocblas_int,
            stride_b: rocblas_stride,
            beta: *const $c,
            c: *mut $c,
            ldc: rocblas_int,
            stride_c: rocblas_stride,
            batch_count: rocblas_int,
        ) -> rocblas_status {
            guard(|| {
                // SAFETY: null or a live handle.
                let Some(h) = (unsafe { handle.as_ref() }) else { return INVALID_HANDLE };
                // SAFETY: as for the typed gemm; gemm_strided_batched_raw checks the arguments.
                to_status(unsafe {
                    rocmath_blas::gemm_strided_batched_raw::<$rust>(
                        &h.blas, trans_a, trans_b, m, n, k, alpha.cast(), a.cast(), lda, stride_a, b.cast(), ldb, stride_b, beta.cast(),
                        c.cast(), ldc, stride_c, batch_count,
                    )
                })
            })
        }
    };
}

typed_gemm_strided_batched!(
    /// `rocblas_sgemm_strided_batched`: sgemm on `batch_count` matrices at fixed strides.
    rocblas_sgemm_strided_batched, f32, f32
);
typed_gemm_strided_batched!(
    /// `rocblas_dgemm_strided_batched`.
    rocblas_dgemm_strided_batched, f64, f64
);
typed_gemm_strided_batched!(
    /// `rocblas_cgemm_strided_batched`.
    rocblas_cgemm_strided_batched, rocblas_float_complex, Complex32
);
typed_gemm_strided_batched!(
    /// `rocblas_zgemm_strided_batched`.
    rocblas_zgemm_strided_batched, rocblas_double_complex, Complex64
);
typed_gemm_strided_batched!(
    /// `rocblas_hgemm_strided_batched`.
    rocblas_hgemm_strided_batched, rocblas_half, f16
);

/// `rocblas_gemm_batched_ex`: [`rocblas_gemm_ex`] on each entry of arrays of matrix pointers
/// (`a`, `b`, `c`, `d` point to arrays of `batch_count` pointers). `solution_index` and `flags`
/// are accepted and ignored, as in [`rocblas_gemm_ex`].
///
/// # Safety
/// As for [`rocblas_gemm_ex`], for every pointer of every non-null array.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rocblas_gemm_batched_ex(
    handle: rocblas_handle,
    trans_a: rocblas_operation,
    trans_b: rocblas_operation,
    m: rocblas_int,
    n: rocblas_int,
    k: rocblas_int,
    alpha: *const c_void,
    a: *const c_void,
    a_type: rocblas_datatype,
    lda: rocblas_int,
    b: *const c_void,
    b_type: rocblas_datatype,
    ldb: rocblas_int,
    beta: *const c_void,
    c: *const c_void,
    c_type: rocblas_datatype,
    ldc: rocblas_int,
    d: *mut c_void,
    d_type: rocblas_datatype,
    ldd: rocblas_int,
    batch_count: rocblas_int,
    compute_type: rocblas_datatype,
    algo: rocblas_gemm_algo,
    solution_index: i32,
    flags: u32,
) -> rocblas_status {
    let _ignored = (solution_index, flags);
    guard(|| {
        // SAFETY: null or a live handle.
        let Some(h) = (unsafe { handle.as_ref() }) else { return INVALID_HANDLE };
        // SAFETY: the caller guarantees the arrays; gemm_batched_ex_raw checks the arguments.
        to_status(unsafe {
            rocmath_blas::gemm_batched_ex_raw(
                &h.blas, trans_a, trans_b, m, n, k, alpha.cast(), a.cast(), a_type, lda, b.cast(), b_type, ldb, beta.cast(), c.cast(), c_type,
                ldc, d.cast(), d_type, ldd, batch_count, compute_type, algo,
            )
        })
    })
}

/// `rocblas_gemm_strided_batched_ex`: [`rocblas_gemm_ex`] on `batch_count` matrices at fixed
/// strides. `solution_index` and `flags` are accepted and ignored.
///
/// # Safety
/// As for [`rocblas_gemm_ex`], for every matrix of the batch.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rocblas_gemm_strided_batched_ex(
    handle: rocblas_handle,
    trans_a: rocblas_operation,
    trans_b: rocblas_operation,
    m: rocblas_int,
    n: rocblas_int,
    k: rocblas_int,
    alpha: *const c_void,
    a: *const c_void,
    a_type: rocblas_datatype,
    lda: rocblas_int,
    stride_a: rocblas_stride,
    b: *const c_void,
    b_type: rocblas_datatype,
    ldb: rocblas_int,
    stride_b: rocblas_stride,
    beta: *const c_void,
    c: *const c_void,
    c_type: rocblas_datatype,
    ldc: rocblas_int,
    stride_c: rocblas_stride,
    d: *mut c_void,
    d_type: rocblas_datatype,
    ldd: rocblas_int,
    stride_d: rocblas_stride,
    batch_count: rocblas_int,
    compute_type: rocblas_datatype,
    algo: rocblas_gemm_algo,
    solution_index: i32,
    flags: u32,
) -> rocblas_status {
    let _ignored = (solution_index, flags);
    guard(|| {
        // SAFETY: null or a live handle.
        let Some(h) = (unsafe { handle.as_ref() }) else { return INVALID_HANDLE };
        // SAFETY: the caller guarantees the pointers; the raw function checks the arguments.
        to_status(unsafe {
            rocmath_blas::gemm_strided_batched_ex_raw(
                &h.blas, trans_a, trans_b, m, n, k, alpha.cast(), a.cast(), a_type, lda, stride_a, b.cast(), b_type, ldb, stride_b,
                beta.cast(), c.cast(), c_type, ldc, stride_c, d.cast(), d_type, ldd, stride_d, batch_count, compute_type, algo,
            )
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use std::ptr::{null, null_mut};
    use std::sync::Once;

    const N: i32 = 111;
    const T: i32 = 112;
    const F32R: i32 = 151;
    const F64R: i32 = 152;
    const F16R: i32 = 150;

    /// Every handle in these tests is on the CPU device.
    fn cpu_handle() -> rocblas_handle {
        static ENV: Once = Once::new();
        ENV.call_once(|| std::env::set_var("ROCMATH_DEVICE", "cpu"));
        let mut h: rocblas_handle = null_mut();
        assert_eq!(unsafe { rocblas_create_handle(&mut h) }, SUCCESS);
        assert!(!h.is_null());
        assert!(!unsafe { &*h }.blas.device().is_gpu());
        h
    }

    fn name(s: rocblas_status) -> String {
        unsafe { CStr::from_ptr(rocblas_status_to_string(s)) }.to_str().unwrap().to_owned()
    }

    #[test]
    fn status_to_string_names_every_status() {
        for v in 0..16 {
            let status = Status::from_raw(v).unwrap();
            assert_eq!(name(v), status.name(), "value {v}");
        }
        assert_eq!(name(4), "rocblas_status_invalid_size");
        for v in [-1, 16, 255, i32::MIN, i32::MAX] {
            assert_eq!(name(v), "<undefined rocblas_status value>");
        }
    }

    #[test]
    fn null_handle_everywhere() {
        let (one, mut c) = (1.0f32, [0.0f32; 4]);
        let mut out_mode = 7;
        let mut out_stream: hipStream_t = 1usize as hipStream_t;
        unsafe {
            assert_eq!(rocblas_create_handle(null_mut()), INVALID_HANDLE);
            assert_eq!(rocblas_destroy_handle(null_mut()), INVALID_HANDLE);
            assert_eq!(rocblas_set_stream(null_mut(), null_mut()), INVALID_HANDLE);
            assert_eq!(rocblas_get_stream(null_mut(), &mut out_stream), INVALID_HANDLE);
            assert_eq!(rocblas_get_stream(null_mut(), null_mut()), INVALID_HANDLE);
            assert_eq!(rocblas_set_pointer_mode(null_mut(), 0), INVALID_HANDLE);
            assert_eq!(rocblas_get_pointer_mode(null_mut(), &mut out_mode), INVALID_HANDLE);
            assert_eq!(rocblas_get_pointer_mode(null_mut(), null_mut()), INVALID_HANDLE);
            // Bad everything else too: the handle is checked first.
            assert_eq!(rocblas_sgemm(null_mut(), 999, 999, -1, -1, -1, null(), null(), 0, null(), 0, null(), null_mut(), 0), INVALID_HANDLE);
            assert_eq!(rocblas_sgemm(null_mut(), N, N, 2, 2, 2, &one, c.as_ptr(), 2, c.as_ptr(), 2, &one, c.as_mut_ptr(), 2), INVALID_HANDLE);
            assert_eq!(rocblas_dgemm(null_mut(), N, N, 1, 1, 1, null(), null(), 1, null(), 1, null(), null_mut(), 1), INVALID_HANDLE);
            assert_eq!(rocblas_cgemm(null_mut(), N, N, 1, 1, 1, null(), null(), 1, null(), 1, null(), null_mut(), 1), INVALID_HANDLE);
            assert_eq!(rocblas_zgemm(null_mut(), N, N, 1, 1, 1, null(), null(), 1, null(), 1, null(), null_mut(), 1), INVALID_HANDLE);
            assert_eq!(rocblas_hgemm(null_mut(), N, N, 1, 1, 1, null(), null(), 1, null(), 1, null(), null_mut(), 1), INVALID_HANDLE);
            assert_eq!(
                rocblas_gemm_ex(null_mut(), 999, N, 1, 1, 1, null(), null(), 999, 1, null(), F32R, 1, null(), null(), F32R, 1, null_mut(), F32R, 1, 0, 99, 0, 0),
                INVALID_HANDLE
            );
        }
        unsafe {
            let mut math = 7;
            assert_eq!(rocblas_set_math_mode(null_mut(), 0), INVALID_HANDLE);
            assert_eq!(rocblas_get_math_mode(null_mut(), &mut math), INVALID_HANDLE);
            assert_eq!(math, 7);
            assert_eq!(rocblas_sgemm_batched(null_mut(), 999, N, -1, 1, 1, null(), null(), 0, null(), 0, null(), null(), 0, -1), INVALID_HANDLE);
            assert_eq!(rocblas_dgemm_batched(null_mut(), N, N, 1, 1, 1, null(), null(), 1, null(), 1, null(), null(), 1, 1), INVALID_HANDLE);
            assert_eq!(rocblas_cgemm_batched(null_mut(), N, N, 1, 1, 1, null(), null(), 1, null(), 1, null(), null(), 1, 1), INVALID_HANDLE);
            assert_eq!(rocblas_zgemm_batched(null_mut(), N, N, 1, 1, 1, null(), null(), 1, null(), 1, null(), null(), 1, 1), INVALID_HANDLE);
            assert_eq!(rocblas_hgemm_batched(null_mut(), N, N, 1, 1, 1, null(), null(), 1, null(), 1, null(), null(), 1, 1), INVALID_HANDLE);
            assert_eq!(rocblas_sgemm_strided_batched(null_mut(), N, N, 1, 1, 1, null(), null(), 1, 0, null(), 1, 0, null(), null_mut(), 1, 0, 1), INVALID_HANDLE);
            assert_eq!(rocblas_dgemm_strided_batched(null_mut(), N, N, 1, 1, 1, null(), null(), 1, 0, null(), 1, 0, null(), null_mut(), 1, 0, 1), INVALID_HANDLE);
            assert_eq!(rocblas_cgemm_strided_batched(null_mut(), N, N, 1, 1, 1, null(), null(), 1, 0, null(), 1, 0, null(), null_mut(), 1, 0, 1), INVALID_HANDLE);
            assert_eq!(rocblas_zgemm_strided_batched(null_mut(), N, N, 1, 1, 1, null(), null(), 1, 0, null(), 1, 0, null(), null_mut(), 1, 0, 1), INVALID_HANDLE);
            assert_eq!(rocblas_hgemm_strided_batched(null_mut(), N, N, 1, 1, 1, null(), null(), 1, 0, null(), 1, 0, null(), null_mut(), 1, 0, 1), INVALID_HANDLE);
            assert_eq!(
                rocblas_gemm_batched_ex(null_mut(), N, N, 1, 1, 1, null(), null(), F32R, 1, null(), F32R, 1, null(), null(), F32R, 1, null_mut(), F32R, 1, 1, F32R, 0, 0, 0),
                INVALID_HANDLE
            );
            assert_eq!(
                rocblas_gemm_strided_batched_ex(null_mut(), N, N, 1, 1, 1, null(), null(), F32R, 1, 0, null(), F32R, 1, 0, null(), null(), F32R, 1, 0, null_mut(), F32R, 1, 0, 1, F32R, 0, 0, 0),
                INVALID_HANDLE
            );
        }
        assert_eq!(out_mode, 7);
        assert_eq!(out_stream as usize, 1);
        assert_eq!(c, [0.0; 4]);
    }

    #[test]
    fn create_destroy_round_trip_on_cpu() {
        let h = cpu_handle();
        unsafe {
            let mut mode = -1;
            assert_eq!(rocblas_get_pointer_mode(h, &mut mode), SUCCESS);
            assert_eq!(mode, 0);
            assert_eq!(rocblas_set_pointer_mode(h, 1), SUCCESS);
            assert_eq!(rocblas_get_pointer_mode(h, &mut mode), SUCCESS);
            assert_eq!(mode, 1);
            assert_eq!(rocblas_get_pointer_mode(h, null_mut()), INVALID_POINTER);

            let mut s: hipStream_t = 5usize as hipStream_t;
            assert_eq!(rocblas_get_stream(h, &mut s), SUCCESS);
            assert!(s.is_null());
            assert_eq!(rocblas_set_stream(h, 0x1234usize as hipStream_t), SUCCESS);
            assert_eq!(rocblas_get_stream(h, &mut s), SUCCESS);
            assert_eq!(s as usize, 0x1234);
            assert_eq!(rocblas_get_stream(h, null_mut()), INVALID_POINTER);

            assert_eq!(rocblas_destroy_handle(h), SUCCESS);
        }
    }

    #[test]
    fn out_of_range_enums_are_invalid_value() {
        let h = cpu_handle();
        let (one, a, b) = (1.0f32, [1.0f32; 4], [1.0f32; 4]);
        let mut c = [3.0f32; 4];
        unsafe {
            for bad in [-1, 2, 3, 255, i32::MIN, i32::MAX] {
                assert_eq!(rocblas_set_pointer_mode(h, bad), INVALID_VALUE, "pointer mode {bad}");
            }
            let mut mode = -1;
            assert_eq!(rocblas_get_pointer_mode(h, &mut mode), SUCCESS);
            assert_eq!(mode, 0, "a bad value leaves the mode unchanged");

            for bad in [0, 110, 114, -111, 999, i32::MIN, i32::MAX] {
                assert_eq!(rocblas_sgemm(h, bad, N, 2, 2, 2, &one, a.as_ptr(), 2, b.as_ptr(), 2, &one, c.as_mut_ptr(), 2), INVALID_VALUE);
                assert_eq!(rocblas_sgemm(h, N, bad, 2, 2, 2, &one, a.as_ptr(), 2, b.as_ptr(), 2, &one, c.as_mut_ptr(), 2), INVALID_VALUE);
                let ex = |ta: i32, at: i32, ct: i32, compute: i32, algo: i32, c: &mut [f32; 4]| {
                    rocblas_gemm_ex(h, ta, N, 2, 2, 2, (&one as *const f32).cast(), a.as_ptr().cast(), at, 2, b.as_ptr().cast(), at, 2, (&one as *const f32).cast(), c.as_ptr().cast(), ct, 2, c.as_mut_ptr().cast(), ct, 2, compute, algo, 0, 0)
                };
                assert_eq!(ex(bad, F32R, F32R, F32R, 0, &mut c), INVALID_VALUE);
                assert_eq!(ex(N, bad, F32R, F32R, 0, &mut c), INVALID_VALUE);
                assert_eq!(ex(N, F32R, bad, F32R, 0, &mut c), INVALID_VALUE);
                assert_eq!(ex(N, F32R, F32R, bad, 0, &mut c), INVALID_VALUE);
            }
            let ex_algo = |algo: i32, c: &mut [f32; 4]| {
                rocblas_gemm_ex(h, N, N, 2, 2, 2, (&one as *const f32).cast(), a.as_ptr().cast(), F32R, 2, b.as_ptr().cast(), F32R, 2, (&one as *const f32).cast(), c.as_ptr().cast(), F32R, 2, c.as_mut_ptr().cast(), F32R, 2, F32R, algo, 0, 0)
            };
            for bad in [-1, 2, 7, i32::MAX] {
                assert_eq!(ex_algo(bad, &mut c), INVALID_VALUE);
            }
            // rocblas_datatype_invalid (255) is an enumerator, but not a type one can compute with.
            assert_eq!(
                rocblas_gemm_ex(h, N, N, 2, 2, 2, (&one as *const f32).cast(), a.as_ptr().cast(), 255, 2, b.as_ptr().cast(), 255, 2, (&one as *const f32).cast(), c.as_ptr().cast(), F32R, 2, c.as_mut_ptr().cast(), F32R, 2, F32R, 0, 0, 0),
                INVALID_VALUE
            );
            assert_eq!(c, [3.0; 4], "failed calls leave C unchanged");
            assert_eq!(rocblas_destroy_handle(h), SUCCESS);
        }
    }

    #[test]
    fn gemm_through_the_abi_on_cpu() {
        let h = cpu_handle();
        unsafe {
            // A = [1 3; 2 4] (column-major), B = I*2, C = 1: D = 0.5*A*B + 1*C.
            let a = [1.0f32, 2.0, 3.0, 4.0];
            let b = [2.0f32, 0.0, 0.0, 2.0];
            let mut c = [1.0f32; 4];
            let (alpha, beta) = (0.5f32, 1.0f32);
            assert_eq!(rocblas_sgemm(h, N, N, 2, 2, 2, &alpha, a.as_ptr(), 2, b.as_ptr(), 2, &beta, c.as_mut_ptr(), 2), SUCCESS);
            assert_eq!(c, [2.0, 3.0, 4.0, 5.0]);
            let mut c = [0.0f32; 4];
            let zero = 0.0f32;
            assert_eq!(rocblas_sgemm(h, T, N, 2, 2, 2, &alpha, a.as_ptr(), 2, b.as_ptr(), 2, &zero, c.as_mut_ptr(), 2), SUCCESS);
            assert_eq!(c, [1.0, 3.0, 2.0, 4.0]);

            // zgemm with conjugate transpose: (i)^H * (i) = 1.
            let x = [rocblas_double_complex { x: 0.0, y: 1.0 }];
            let mut z = [rocblas_double_complex { x: f64::NAN, y: f64::NAN }];
            let (one, zero) = (rocblas_double_complex { x: 1.0, y: 0.0 }, rocblas_double_complex::default());
            assert_eq!(rocblas_zgemm(h, 113, N, 1, 1, 1, &one, x.as_ptr(), 1, x.as_ptr(), 1, &zero, z.as_mut_ptr(), 1), SUCCESS);
            assert_eq!(z[0], rocblas_double_complex { x: 1.0, y: 0.0 });

            // hgemm: 1.5 * 2 = 3 in half.
            let (ha, hb) = ([rocblas_half { data: 0x3e00 }], [rocblas_half { data: 0x4000 }]);
            let mut hc = [rocblas_half { data: 0x7e00 }];
            let (h1, h0) = (rocblas_half { data: 0x3c00 }, rocblas_half { data: 0 });
            assert_eq!(rocblas_hgemm(h, N, N, 1, 1, 1, &h1, ha.as_ptr(), 1, hb.as_ptr(), 1, &h0, hc.as_mut_ptr(), 1), SUCCESS);
            assert_eq!(hc[0].data, 0x4200);

            // gemm_ex HSS with D separate from C; solution_index and flags are ignored.
            let (ea, eb) = ([rocblas_half { data: 0x3e00 }], [rocblas_half { data: 0x4000 }]);
            let ec = [10.0f32];
            let mut ed = [f32::NAN];
            let (fa, fb) = (1.0f32, 1.0f32);
            let st = rocblas_gemm_ex(h, N, N, 1, 1, 1, (&fa as *const f32).cast(), ea.as_ptr().cast(), F16R, 1, eb.as_ptr().cast(), F16R, 1, (&fb as *const f32).cast(), ec.as_ptr().cast(), F32R, 1, ed.as_mut_ptr().cast(), F32R, 1, F32R, 1, 42, 0x3e);
            assert_eq!(st, SUCCESS);
            assert_eq!(ed, [13.0]);
            assert_eq!(ec, [10.0]);

            // An unsupported combination of valid datatypes.
            let mut c = [7.0f32; 4];
            let st = rocblas_gemm_ex(h, N, N, 2, 2, 2, (&fa as *const f32).cast(), a.as_ptr().cast(), F32R, 2, b.as_ptr().cast(), F32R, 2, (&fb as *const f32).cast(), c.as_ptr().cast(), F64R, 2, c.as_mut_ptr().cast(), F64R, 2, F32R, 0, 0, 0);
            assert_eq!(st, Status::NotImplemented as i32);
            assert_eq!(c, [7.0; 4]);
            assert_eq!(rocblas_destroy_handle(h), SUCCESS);
        }
    }

    /// The GPU side of the ABI: a user stream set on the handle, sgemm on device pointers.
    /// Skips without a GPU unless ROCMATH_REQUIRE_GPU=1.
    #[test]
    fn gpu_set_stream_and_sgemm() {
        let Some(device) = Device::all().into_iter().find(|d| d.is_gpu()) else {
            assert_ne!(std::env::var("ROCMATH_REQUIRE_GPU").as_deref(), Ok("1"), "no GPU present");
            eprintln!("skipped: no GPU present");
            return;
        };
        let h = Box::into_raw(Box::new(_rocblas_handle { blas: Handle::on_default_stream(&device), cpu_stream: 0 }));
        let queue = device.new_queue().unwrap();
        let raw = queue.gpu().unwrap().raw();
        unsafe {
            let mut s: hipStream_t = 1usize as hipStream_t;
            assert_eq!(rocblas_get_stream(h, &mut s), SUCCESS);
            assert!(s.is_null(), "a new handle is on the default stream");
            assert_eq!(rocblas_set_stream(h, raw as hipStream_t), SUCCESS);
            assert_eq!(rocblas_get_stream(h, &mut s), SUCCESS);
            assert_eq!(s as usize, raw);

            // C (3x2, ldc 4) = A (3x5, lda 3) * B^T (B is 2x5, ldb 2), alpha 1, beta 0.
            let (m, n, k) = (3usize, 2usize, 5usize);
            let a: Vec<f32> = (0..m * k).map(|i| i as f32 * 0.5 - 2.0).collect();
            let b: Vec<f32> = (0..n * k).map(|i| 1.0 - i as f32 * 0.25).collect();
            let ab = rocmath_runtime::DeviceBuffer::from_slice(&queue, &a).unwrap();
            let bb = rocmath_runtime::DeviceBuffer::from_slice(&queue, &b).unwrap();
            let mut cb = rocmath_runtime::DeviceBuffer::from_slice(&queue, &[f32::NAN; 8]).unwrap();
            let (one, zero) = (1.0f32, 0.0f32);
            let st = rocblas_sgemm(h, N, T, 3, 2, 5, &one, ab.as_ptr(), 3, bb.as_ptr(), 2, &zero, cb.as_mut_ptr(), 4);
            assert_eq!(st, SUCCESS, "{}", name(st));
            queue.synchronize().unwrap();
            let c = cb.to_vec(&queue).unwrap();
            for j in 0..n {
                for i in 0..m {
                    let want: f32 = (0..k).map(|p| a[i + p * m] * b[j + p * n]).sum();
                    assert!((c[i + j * 4] - want).abs() <= 1e-5 * (1.0 + want.abs()), "C[{i},{j}] = {} != {want}", c[i + j * 4]);
                }
                assert!(c[3 + j * 4].is_nan(), "padding row written");
            }
            // Back to the default stream before the user's stream goes away.
            assert_eq!(rocblas_set_stream(h, null_mut()), SUCCESS);
            assert_eq!(rocblas_destroy_handle(h), SUCCESS);
        }
    }

    #[test]
    fn panics_become_internal_error() {
        assert_eq!(guard(|| panic!("deliberate")), INTERNAL_ERROR);
        assert_eq!(name(guard(|| panic!("deliberate"))), "rocblas_status_internal_error");
    }
}
