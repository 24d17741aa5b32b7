/*
 * rocblas.h -- the C interface of rocmath's BLAS (librocblas.so built from the rocmath-capi crate).
 *
 * Source-compatible with the subset of ROCm's rocblas.h that rocmath implements: every type,
 * enumerator value and function signature below is the one ROCm's headers declare
 * (rocblas-types.h, rocblas-auxiliary.h, rocblas-functions.h, rocblas-complex-types.h,
 * rocblas_bfloat16.h), so a program written against ROCm's header compiles and links against
 * this one unchanged, as long as it only calls the functions declared here.
 *
 * Plain C99 (also valid C++); it needs no HIP header. hipStream_t is forward-declared the way
 * ROCm's header does it, so it is the same type as HIP's own when both headers are included.
 *
 * Device pointers: on a GPU device A, B, C (and alpha/beta in device pointer mode) are device
 * addresses. On the CPU device (ROCMATH_DEVICE=cpu, or when no GPU is present) every pointer is
 * an ordinary host pointer.
 */
#ifndef ROCBLAS_H
#define ROCBLAS_H

#include <stddef.h>
#include <stdint.h>

/* Symbol visibility of the exported functions (ROCm's generated rocblas-export.h equivalent). */
#ifndef ROCBLAS_EXPORT
#if defined(_WIN32) || defined(__CYGWIN__)
#define ROCBLAS_EXPORT __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define ROCBLAS_EXPORT __attribute__((visibility("default")))
#else
#define ROCBLAS_EXPORT
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Opaque handles and basic scalar types                                                       */
/* ------------------------------------------------------------------------------------------ */

/* The library context. Create it with rocblas_create_handle(), pass it to every call, and
 * release it with rocblas_destroy_handle(). */
typedef struct _rocblas_handle* rocblas_handle;

/* HIP's stream and event types, declared without including HIP. */
typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t*  hipEvent_t;

/* Sizes and leading dimensions (LP64 interface). */
typedef int32_t rocblas_int;

/* Distance between consecutive matrices of a strided batch. */
typedef int64_t rocblas_stride;

typedef float  rocblas_float;
typedef double rocblas_double;

/* IEEE binary16, stored as its 16 raw bits (or the compiler's _Float16 when the user asks for
 * it with ROCM_USE_FLOAT16, as with ROCm's header). */
#ifdef ROCM_USE_FLOAT16
typedef _Float16 rocblas_half;
#else
typedef struct rocblas_half
{
    uint16_t data;
} rocblas_half;
#endif

/* bfloat16: the upper 16 bits of an IEEE binary32, stored as raw bits. */
typedef struct
{
    uint16_t data;
} rocblas_bfloat16;

/* Complex numbers: real part x, imaginary part y (C layout of std::complex / hipComplex). */
typedef struct
{
    float x, y;
} rocblas_float_complex;

typedef struct
{
    double x, y;
} rocblas_double_complex;

/* ------------------------------------------------------------------------------------------ */
/* Enumerations (numbering as in ROCm; 111.. follows CBLAS)                                    */
/* ------------------------------------------------------------------------------------------ */

/* op(X): X, X^T or X^H. */
typedef enum rocblas_operation_
{
    rocblas_operation_none                = 111,
    rocblas_operation_transpose           = 112,
    rocblas_operation_conjugate_transpose = 113
} rocblas_operation;

/* Which triangle of a symmetric/Hermitian/triangular matrix is referenced. */
typedef enum rocblas_fill_
{
    rocblas_fill_upper = 121,
    rocblas_fill_lower = 122,
    rocblas_fill_full  = 123
} rocblas_fill;

/* Whether a triangular matrix has an implicit unit diagonal. */
typedef enum rocblas_diagonal_
{
    rocblas_diagonal_non_unit = 131,
    rocblas_diagonal_unit     = 132
} rocblas_diagonal;

/* Side of the special matrix in a product. */
typedef enum rocblas_side_
{
    rocblas_side_left  = 141,
    rocblas_side_right = 142,
    rocblas_side_both  = 143
} rocblas_side;

/* Element types of the _ex functions. */
typedef enum rocblas_datatype_
{
    rocblas_datatype_f16_r   = 150,
    rocblas_datatype_f32_r   = 151,
    rocblas_datatype_f64_r   = 152,
    rocblas_datatype_f16_c   = 153,
    rocblas_datatype_f32_c   = 154,
    rocblas_datatype_f64_c   = 155,
    rocblas_datatype_i8_r    = 160,
    rocblas_datatype_u8_r    = 161,
    rocblas_datatype_i32_r   = 162,
    rocblas_datatype_u32_r   = 163,
    rocblas_datatype_i8_c    = 164,
    rocblas_datatype_u8_c    = 165,
    rocblas_datatype_i32_c   = 166,
    rocblas_datatype_u32_c   = 167,
    rocblas_datatype_bf16_r  = 168,
    rocblas_datatype_bf16_c  = 169,
    rocblas_datatype_invalid = 255
} rocblas_datatype;

/* What every function returns. */
typedef enum rocblas_status_
{
    rocblas_status_success             = 0,  /* done */
    rocblas_status_invalid_handle      = 1,  /* null or uninitialised handle */
    rocblas_status_not_implemented     = 2,  /* no implementation (e.g. a datatype combination) */
    rocblas_status_invalid_pointer     = 3,  /* a required pointer is null */
    rocblas_status_invalid_size        = 4,  /* a size or leading dimension is out of range */
    rocblas_status_memory_error        = 5,  /* allocation or copy failed */
    rocblas_status_internal_error      = 6,  /* any other library failure */
    rocblas_status_perf_degraded       = 7,  /* ran, but with less device memory than wanted */
    rocblas_status_size_query_mismatch = 8,  /* unmatched start/stop of a size query */
    rocblas_status_size_increased      = 9,  /* queried device memory size grew */
    rocblas_status_size_unchanged      = 10, /* queried device memory size did not change */
    rocblas_status_invalid_value       = 11, /* an enum or other argument value is not valid */
    rocblas_status_continue            = 12, /* nothing prevents the call from proceeding */
    rocblas_status_check_numerics_fail = 13, /* NaN/Inf/denormal found by numerics checking */
    rocblas_status_excluded_from_build = 14, /* function left out of this build */
    rocblas_status_arch_mismatch       = 15  /* the device lacks a feature the call needs */
} rocblas_status;

/* Where alpha/beta (and scalar results) live. */
typedef enum rocblas_pointer_mode_
{
    rocblas_pointer_mode_host   = 0,
    rocblas_pointer_mode_device = 1
} rocblas_pointer_mode;

/* Whether algorithms may use atomics (non-deterministic summation order). */
typedef enum rocblas_atomics_mode_
{
    rocblas_atomics_not_allowed = 0,
    rocblas_atomics_allowed     = 1
} rocblas_atomics_mode;

/* Metric used to pick a GEMM solution. */
typedef enum rocblas_performance_metric_
{
    rocblas_default_performance_metric           = 0,
    rocblas_device_efficiency_performance_metric = 1,
    rocblas_cu_efficiency_performance_metric     = 2
} rocblas_performance_metric;

/* Logging layers (bit mask). */
typedef enum rocblas_layer_mode_
{
    rocblas_layer_mode_none              = 0x0,
    rocblas_layer_mode_log_trace         = 0x1,
    rocblas_layer_mode_log_bench         = 0x2,
    rocblas_layer_mode_log_profile       = 0x4,
    rocblas_layer_mode_log_internal      = 0x8,
    rocblas_layer_mode_log_kernel_select = 0x10
} rocblas_layer_mode;

/* GEMM algorithm selection for the _ex functions. */
typedef enum rocblas_gemm_algo_
{
    rocblas_gemm_algo_standard       = 0x0,
    rocblas_gemm_algo_solution_index = 0x1
} rocblas_gemm_algo;

/* Operation of geam_ex. */
typedef enum rocblas_geam_ex_operation_
{
    rocblas_geam_ex_operation_min_plus = 0x0,
    rocblas_geam_ex_operation_plus_min = 0x1
} rocblas_geam_ex_operation;

/* Flags of the _ex GEMM functions (bit mask; 0x1 is retired). */
typedef enum rocblas_gemm_flags_
{
    rocblas_gemm_flags_none                 = 0x0,
    rocblas_gemm_flags_use_cu_efficiency    = 0x2,
    rocblas_gemm_flags_fp16_alt_impl        = 0x4,
    rocblas_gemm_flags_check_solution_index = 0x8,
    rocblas_gemm_flags_fp16_alt_impl_rnz    = 0x10,
    rocblas_gemm_flags_stochastic_rounding  = 0x20
} rocblas_gemm_flags;

/* A scalar of any supported type. */
typedef union rocblas_union_u
{
    rocblas_half           h;
    float                  s;
    double                 d;
    int32_t                i;
    rocblas_float_complex  c;
    rocblas_double_complex z;
} rocblas_union_t;

/* Numerics checking of inputs and outputs (bit mask). */
typedef enum rocblas_check_numerics_mode_
{
    rocblas_check_numerics_mode_no_check     = 0x0,
    rocblas_check_numerics_mode_info         = 0x1,
    rocblas_check_numerics_mode_warn         = 0x2,
    rocblas_check_numerics_mode_fail         = 0x4,
    rocblas_check_numerics_mode_only_nan_inf = 0x8
} rocblas_check_numerics_mode;

/* Math mode (xf32 acceleration of single precision). */
typedef enum rocblas_math_mode_
{
    rocblas_default_math     = 0x0,
    rocblas_xf32_xdl_math_op = 0x1
} rocblas_math_mode;

/* ------------------------------------------------------------------------------------------ */
/* Auxiliary functions                                                                          */
/* ------------------------------------------------------------------------------------------ */

/* Creates a handle on the device ROCMATH_DEVICE names (cpu, cuda[:N], hip[:N]), else on the best
 * device present, using that device's default stream (stream 0).
 * Null `handle`: rocblas_status_invalid_handle. Device cannot be opened:
 * rocblas_status_internal_error, and *handle is set to NULL. */
ROCBLAS_EXPORT rocblas_status rocblas_create_handle(rocblas_handle* handle);

/* Releases a handle created by rocblas_create_handle(). */
ROCBLAS_EXPORT rocblas_status rocblas_destroy_handle(rocblas_handle handle);

/* Sets the stream subsequent calls are queued on (must stay valid while the handle uses it).
 * On the CPU device the value is only stored: work runs when it is called. */
ROCBLAS_EXPORT rocblas_status rocblas_set_stream(rocblas_handle handle, hipStream_t stream);

/* Returns the stream set on the handle (0, the default stream, after creation). */
ROCBLAS_EXPORT rocblas_status rocblas_get_stream(rocblas_handle handle, hipStream_t* stream);

/* Sets where alpha/beta are read from. A value outside the enum: rocblas_status_invalid_value.
 * On the CPU device host and device memory are the same, so both modes behave alike. */
ROCBLAS_EXPORT rocblas_status rocblas_set_pointer_mode(rocblas_handle       handle,
                                                       rocblas_pointer_mode pointer_mode);

/* Returns the handle's pointer mode (rocblas_pointer_mode_host after creation). */
ROCBLAS_EXPORT rocblas_status rocblas_get_pointer_mode(rocblas_handle        handle,
                                                       rocblas_pointer_mode* pointer_mode);

/* Sets the math mode: rocblas_xf32_xdl_math_op lets single-precision GEMMs on a GPU round their
 * products to xf32 (TF32); the CPU device computes in full f32 in either mode. A value outside
 * the enum: rocblas_status_invalid_value, mode unchanged. */
ROCBLAS_EXPORT rocblas_status rocblas_set_math_mode(rocblas_handle handle, rocblas_math_mode math_mode);

/* Returns the handle's math mode (rocblas_default_math after creation); NULL output:
 * rocblas_status_invalid_pointer. */
ROCBLAS_EXPORT rocblas_status rocblas_get_math_mode(rocblas_handle handle, rocblas_math_mode* math_mode);

/* The enumerator's name ("rocblas_status_invalid_size", ...), or
 * "<undefined rocblas_status value>" for a value outside the enum. Static storage. */
ROCBLAS_EXPORT const char* rocblas_status_to_string(rocblas_status status);

/* ------------------------------------------------------------------------------------------ */
/* Level 3: GEMM                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* C = alpha * op(A) * op(B) + beta * C, column-major; op(A) is m x k, op(B) is k x n, C is
 * m x n. Statuses and their order follow rocBLAS: bad transA/transB -> invalid_value; negative
 * sizes or lda/ldb/ldc smaller than the rows stored -> invalid_size; m == 0 or n == 0 ->
 * success without touching anything; a null pointer that the computation needs ->
 * invalid_pointer. Nothing is written when a call fails. */
ROCBLAS_EXPORT rocblas_status rocblas_sgemm(rocblas_handle    handle,
                                            rocblas_operation transA,
                                            rocblas_operation transB,
                                            rocblas_int       m,
                                            rocblas_int       n,
                                            rocblas_int       k,
                                            const float*      alpha,
                                            const float*      A,
                                            rocblas_int       lda,
                                            const float*      B,
                                            rocblas_int       ldb,
                                            const float*      beta,
                                            float*            C,
                                            rocblas_int       ldc);

ROCBLAS_EXPORT rocblas_status rocblas_dgemm(rocblas_handle    handle,
                                            rocblas_operation transA,
                                            rocblas_operation transB,
                                            rocblas_int       m,
                                            rocblas_int       n,
                                            rocblas_int       k,
                                            const double*     alpha,
                                            const double*     A,
                                            rocblas_int       lda,
                                            const double*     B,
                                            rocblas_int       ldb,
                                            const double*     beta,
                                            double*           C,
                                            rocblas_int       ldc);

/* Half precision; accumulates in single precision. */
ROCBLAS_EXPORT rocblas_status rocblas_hgemm(rocblas_handle      handle,
                                            rocblas_operation   transA,
                                            rocblas_operation   transB,
                                            rocblas_int         m,
                                            rocblas_int         n,
                                            rocblas_int         k,
                                            const rocblas_half* alpha,
                                            const rocblas_half* A,
                                            rocblas_int         lda,
                                            const rocblas_half* B,
                                            rocblas_int         ldb,
                                            const rocblas_half* beta,
                                            rocblas_half*       C,
                                            rocblas_int         ldc);

ROCBLAS_EXPORT rocblas_status rocblas_cgemm(rocblas_handle               handle,
                                            rocblas_operation            transA,
                                            rocblas_operation            transB,
                                            rocblas_int                  m,
                                            rocblas_int                  n,
                                            rocblas_int                  k,
                                            const rocblas_float_complex* alpha,
                                            const rocblas_float_complex* A,
                                            rocblas_int                  lda,
                                            const rocblas_float_complex* B,
                                            rocblas_int                  ldb,
                                            const rocblas_float_complex* beta,
                                            rocblas_float_complex*       C,
                                            rocblas_int                  ldc);

ROCBLAS_EXPORT rocblas_status rocblas_zgemm(rocblas_handle                handle,
                                            rocblas_operation             transA,
                                            rocblas_operation             transB,
                                            rocblas_int                   m,
                                            rocblas_int                   n,
                                            rocblas_int                   k,
                                            const rocblas_double_complex* alpha,
                                            const rocblas_double_complex* A,
                                            rocblas_int                   lda,
                                            const rocblas_double_complex* B,
                                            rocblas_int                   ldb,
                                            const rocblas_double_complex* beta,
                                            rocblas_double_complex*       C,
                                            rocblas_int                   ldc);

/* D = alpha * op(A) * op(B) + beta * C with the element types named at run time. alpha and beta
 * have compute_type's type. Supported (a_type = b_type, c_type = d_type, compute_type):
 *   f16_r,  f32_r,  f32_r   (HSS)        bf16_r, f32_r,  f32_r   (BSS)
 *   f16_r,  f16_r,  f32_r   (HHS)        bf16_r, bf16_r, f32_r   (BBS)
 *   f16_r,  f16_r,  f16_r   f32_r, f32_r, f32_r   f64_r, f64_r, f64_r
 *   f32_c,  f32_c,  f32_c   f64_c, f64_c, f64_c
 *   i8_r,   i32_r,  i32_r   (integer products and sums wrap modulo 2^32)
 * Any other combination of valid datatypes: rocblas_status_not_implemented, reported after the
 * size, quick-return and pointer checks (at once for a compute type other than f16_r, f32_r,
 * f64_r, i32_r, f32_c, f64_c); a value that is not a rocblas_datatype, or an algo other than
 * standard/solution_index: invalid_value.
 * solution_index and flags are accepted and ignored (rocmath selects its own kernels). C and D
 * may be the same matrix only with ldc == ldd. */
ROCBLAS_EXPORT rocblas_status rocblas_gemm_ex(rocblas_handle    handle,
                                              rocblas_operation transA,
                                              rocblas_operation transB,
                                              rocblas_int       m,
                                              rocblas_int       n,
                                              rocblas_int       k,
                                              const void*       alpha,
                                              const void*       a,
                                              rocblas_datatype  a_type,
                                              rocblas_int       lda,
                                              const void*       b,
                                              rocblas_datatype  b_type,
                                              rocblas_int       ldb,
                                              const void*       beta,
                                              const void*       c,
                                              rocblas_datatype  c_type,
                                              rocblas_int       ldc,
                                              void*             d,
                                              rocblas_datatype  d_type,
                                              rocblas_int       ldd,
                                              rocblas_datatype  compute_type,
                                              rocblas_gemm_algo algo,
                                              int32_t           solution_index,
                                              uint32_t          flags);

/* Batched GEMM over arrays of matrix pointers: C_i = alpha * op(A_i) * op(B_i) + beta * C_i for
 * i < batch_count. A, B and C are arrays of batch_count pointers (device arrays of device
 * pointers on a GPU; host arrays on the CPU device). batch_count < 0: invalid_size; 0: success,
 * nothing read. A null array is invalid_pointer where a null matrix would be. */
ROCBLAS_EXPORT rocblas_status rocblas_sgemm_batched(rocblas_handle     handle,
                                                    rocblas_operation  transA,
                                                    rocblas_operation  transB,
                                                    rocblas_int        m,
                                                    rocblas_int        n,
                                                    rocblas_int        k,
                                                    const float*       alpha,
                                                    const float* const A[],
                                                    rocblas_int        lda,
                                                    const float* const B[],
                                                    rocblas_int        ldb,
                                                    const float*       beta,
                                                    float* const       C[],
                                                    rocblas_int        ldc,
                                                    rocblas_int        batch_count);

ROCBLAS_EXPORT rocblas_status rocblas_dgemm_batched(rocblas_handle      handle,
                                                    rocblas_operation   transA,
                                                    rocblas_operation   transB,
                                                    rocblas_int         m,
                                                    rocblas_int         n,
                                                    rocblas_int         k,
                                                    const double*       alpha,
                                                    const double* const A[],
                                                    rocblas_int         lda,
                                                    const double* const B[],
                                                    rocblas_int         ldb,
                                                    const double*       beta,
                                                    double* const       C[],
                                                    rocblas_int         ldc,
                                                    rocblas_int         batch_count);

ROCBLAS_EXPORT rocblas_status rocblas_hgemm_batched(rocblas_handle            handle,
                                                    rocblas_operation         transA,
                                                    rocblas_operation         transB,
                                                    rocblas_int               m,
                                                    rocblas_int               n,
                                                    rocblas_int               k,
                                                    const rocblas_half*       alpha,
                                                    const rocblas_half* const A[],
                                                    rocblas_int               lda,
                                                    const rocblas_half* const B[],
                                                    rocblas_int               ldb,
                                                    const rocblas_half*       beta,
                                                    rocblas_half* const       C[],
                                                    rocblas_int               ldc,
                                                    rocblas_int               batch_count);

ROCBLAS_EXPORT rocblas_status rocblas_cgemm_batched(rocblas_handle                     handle,
                                                    rocblas_operation                  transA,
                                                    rocblas_operation                  transB,
                                                    rocblas_int                        m,
                                                    rocblas_int                        n,
                                                    rocblas_int                        k,
                                                    const rocblas_float_complex*       alpha,
                                                    const rocblas_float_complex* const A[],
                                                    rocblas_int                        lda,
                                                    const rocblas_float_complex* const B[],
                                                    rocblas_int                        ldb,
                                                    const rocblas_float_complex*       beta,
                                                    rocblas_float_complex* const       C[],
                                                    rocblas_int                        ldc,
                                                    rocblas_int                        batch_count);

ROCBLAS_EXPORT rocblas_status rocblas_zgemm_batched(rocblas_handle                      handle,
                                                    rocblas_operation                   transA,
                                                    rocblas_operation                   transB,
                                                    rocblas_int                         m,
                                                    rocblas_int                         n,
                                                    rocblas_int                         k,
                                                    const rocblas_double_complex*       alpha,
                                                    const rocblas_double_complex* const A[],
                                                    rocblas_int                         lda,
                                                    const rocblas_double_complex* const B[],
                                                    rocblas_int                         ldb,
                                                    const rocblas_double_complex*       beta,
                                                    rocblas_double_complex* const       C[],
                                                    rocblas_int                         ldc,
                                                    rocblas_int                         batch_count);

/* Strided batched GEMM: matrix i of A, B, C starts stride_a, stride_b, stride_c elements (i
 * times) after the first. Same checks and quick returns as the batched forms. */
ROCBLAS_EXPORT rocblas_status rocblas_sgemm_strided_batched(rocblas_handle    handle,
                                                            rocblas_operation transA,
                                                            rocblas_operation transB,
                                                            rocblas_int       m,
                                                            rocblas_int       n,
                                                            rocblas_int       k,
                                                            const float*      alpha,
                                                            const float*      A,
                                                            rocblas_int       lda,
                                                            rocblas_stride    stride_a,
                                                            const float*      B,
                                                            rocblas_int       ldb,
                                                            rocblas_stride    stride_b,
                                                            const float*      beta,
                                                            float*            C,
                                                            rocblas_int       ldc,
                                                            rocblas_stride    stride_c,
                                                            rocblas_int       batch_count);

ROCBLAS_EXPORT rocblas_status rocblas_dgemm_strided_batched(rocblas_handle    handle,
                                                            rocblas_operation transA,
                                                            rocblas_operation transB,
                                                            rocblas_int       m,
                                                            rocblas_int       n,
                                                            rocblas_int       k,
                                                            const double*     alpha,
                                                            const double*     A,
                                                            rocblas_int       lda,
                                                            rocblas_stride    stride_a,
                                                            const double*     B,
                                                            rocblas_int       ldb,
                                                            rocblas_stride    stride_b,
                                                            const double*     beta,
                                                            double*           C,
                                                            rocblas_int       ldc,
                                                            rocblas_stride    stride_c,
                                                            rocblas_int       batch_count);

ROCBLAS_EXPORT rocblas_status rocblas_hgemm_strided_batched(rocblas_handle      handle,
                                                            rocblas_operation   transA,
                                                            rocblas_operation   transB,
                                                            rocblas_int         m,
                                                            rocblas_int         n,
                                                            rocblas_int         k,
                                                            const rocblas_half* alpha,
                                                            const rocblas_half* A,
                                                            rocblas_int         lda,
                                                            rocblas_stride      stride_a,
                                                            const rocblas_half* B,
                                                            rocblas_int         ldb,
                                                            rocblas_stride      stride_b,
                                                            const rocblas_half* beta,
                                                            rocblas_half*       C,
                                                            rocblas_int         ldc,
                                                            rocblas_stride      stride_c,
                                                            rocblas_int         batch_count);

ROCBLAS_EXPORT rocblas_status rocblas_cgemm_strided_batched(rocblas_handle               handle,
                                                            rocblas_operation            transA,
                                                            rocblas_operation            transB,
                                                            rocblas_int                  m,
                                                            rocblas_int                  n,
                                                            rocblas_int                  k,
                                                            const rocblas_float_complex* alpha,
                                                            const rocblas_float_complex* A,
                                                            rocblas_int                  lda,
                                                            rocblas_stride               stride_a,
                                                            const rocblas_float_complex* B,
                                                            rocblas_int                  ldb,
                                                            rocblas_stride               stride_b,
                                                            const rocblas_float_complex* beta,
                                                            rocblas_float_complex*       C,
                                                            rocblas_int                  ldc,
                                                            rocblas_stride               stride_c,
                                                            rocblas_int                  batch_count);

ROCBLAS_EXPORT rocblas_status rocblas_zgemm_strided_batched(rocblas_handle                handle,
                                                            rocblas_operation             transA,
                                                            rocblas_operation             transB,
                                                            rocblas_int                   m,
                                                            rocblas_int                   n,
                                                            rocblas_int                   k,
                                                            const rocblas_double_complex* alpha,
                                                            const rocblas_double_complex* A,
                                                            rocblas_int                   lda,
                                                            rocblas_stride                stride_a,
                                                            const rocblas_double_complex* B,
                                                            rocblas_int                   ldb,
                                                            rocblas_stride                stride_b,
                                                            const rocblas_double_complex* beta,
                                                            rocblas_double_complex*       C,
                                                            rocblas_int                   ldc,
                                                            rocblas_stride                stride_c,
                                                            rocblas_int                   batch_count);

/* gemm_ex over arrays of matrix pointers (a, b, c, d each point to an array of batch_count
 * pointers of the named datatype); same datatype combinations and statuses as rocblas_gemm_ex. */
ROCBLAS_EXPORT rocblas_status rocblas_gemm_batched_ex(rocblas_handle    handle,
                                                      rocblas_operation transA,
                                                      rocblas_operation transB,
                                                      rocblas_int       m,
                                                      rocblas_int       n,
                                                      rocblas_int       k,
                                                      const void*       alpha,
                                                      const void*       a,
                                                      rocblas_datatype  a_type,
                                                      rocblas_int       lda,
                                                      const void*       b,
                                                      rocblas_datatype  b_type,
                                                      rocblas_int       ldb,
                                                      const void*       beta,
                                                      const void*       c,
                                                      rocblas_datatype  c_type,
                                                      rocblas_int       ldc,
                                                      void*             d,
                                                      rocblas_datatype  d_type,
                                                      rocblas_int       ldd,
                                                      rocblas_int       batch_count,
                                                      rocblas_datatype  compute_type,
                                                      rocblas_gemm_algo algo,
                                                      int32_t           solution_index,
                                                      uint32_t          flags);

/* gemm_ex over a strided batch (strides in elements of each matrix's datatype). */
ROCBLAS_EXPORT rocblas_status rocblas_gemm_strided_batched_ex(rocblas_handle    handle,
                                                              rocblas_operation transA,
                                                              rocblas_operation transB,
                                                              rocblas_int       m,
                                                              rocblas_int       n,
                                                              rocblas_int       k,
                                                              const void*       alpha,
                                                              const void*       a,
                                                              rocblas_datatype  a_type,
                                                              rocblas_int       lda,
                                                              rocblas_stride    stride_a,
                                                              const void*       b,
                                                              rocblas_datatype  b_type,
                                                              rocblas_int       ldb,
                                                              rocblas_stride    stride_b,
                                                              const void*       beta,
                                                              const void*       c,
                                                              rocblas_datatype  c_type,
                                                              rocblas_int       ldc,
                                                              rocblas_stride    stride_c,
                                                              void*             d,
                                                              rocblas_datatype  d_type,
                                                              rocblas_int       ldd,
                                                              rocblas_stride    stride_d,
                                                              rocblas_int       batch_count,
                                                              rocblas_datatype  compute_type,
                                                              rocblas_gemm_algo algo,
                                                              int32_t           solution_index,
                                                              uint32_t          flags);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ROCBLAS_H */
