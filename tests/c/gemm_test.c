/*
 * C ABI test of librocblas (rocmath-capi), written the way a ROCm user writes rocBLAS code.
 *
 * Run on the CPU device (ROCMATH_DEVICE=cpu), where host pointers are device pointers. Checks:
 *   - handle create/destroy, pointer mode and stream round-trips;
 *   - sgemm, dgemm, cgemm, zgemm, hgemm and gemm_ex (HSS, BSS, HHS, BBS with f32 compute) on
 *     non-square matrices, every transpose combination, leading dimensions larger than the
 *     rows, against a double-precision triple loop, with a tolerance derived from k * eps;
 *   - beta = 0 over a NaN-filled C produces no NaN;
 *   - exact statuses for bad arguments, with C unchanged after every failed call;
 *   - quick returns leave C unchanged; rocblas_status_to_string;
 *   - the batched forms ({s,d,c,z,h}gemm_batched / _strided_batched, gemm_batched_ex,
 *     gemm_strided_batched_ex): every entry equal to the (reference-checked) single call on the
 *     same data, gaps between strided entries untouched, and their bad-argument statuses;
 *   - i8 gemm_ex (i8 in, i32 out and compute) against an exact wrapping reference;
 *   - rocblas_set/get_math_mode.
 * Prints one line per check and a final "N passed, M failed"; exits non-zero on any failure.
 */
#include <rocblas/rocblas.h>

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_passed = 0;
static int g_failed = 0;

static void check(int ok, const char* fmt, ...)
{
    va_list ap;
    printf("%s ", ok ? "PASS" : "FAIL");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    if(ok)
        g_passed++;
    else
        g_failed++;
}

static void check_status(rocblas_status got, rocblas_status want, const char* what)
{
    check(got == want,
          "%s -> %s (expected %s)",
          what,
          rocblas_status_to_string(got),
          rocblas_status_to_string(want));
}

/* ---------------------------------------------------------------------------------------- */
/* 16-bit conversions (round to nearest even), written here so the test depends on nothing.  */
/* ---------------------------------------------------------------------------------------- */

static uint16_t f32_to_f16(float f)
{
    uint32_t x, sign, absx, mant, h, rem;
    int      exp;
    memcpy(&x, &f, sizeof x);
    sign = (x >> 16) & 0x8000u;
    absx = x & 0x7fffffffu;
    if(absx >= 0x7f800000u) /* inf or NaN */
        return (uint16_t)(sign | (absx > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if(absx >= 0x477ff000u) /* rounds to infinity (65520 and up) */
        return (uint16_t)(sign | 0x7c00u);
    if(absx < 0x38800000u) /* below 2^-14: a subnormal half (unit 2^-24) or zero */
    {
        float a;
        memcpy(&a, &absx, sizeof a);
        return (uint16_t)(sign | (uint32_t)nearbyintf(a * 16777216.0f));
    }
    mant = absx & 0x7fffffu;
    exp  = (int)(absx >> 23) - 127 + 15;
    h    = ((uint32_t)exp << 10) | (mant >> 13);
    rem  = mant & 0x1fffu;
    if(rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++; /* a carry into the exponent is the right answer */
    return (uint16_t)(sign | h);
}

static float f16_to_f32(uint16_t h)
{
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    float    r;
    if(e == 0)
        r = ldexpf((float)m, -24);
    else if(e == 31)
        r = m ? NAN : INFINITY;
    else
        r = ldexpf((float)(m | 0x400u), (int)e - 25);
    return (h & 0x8000u) ? -r : r;
}

static uint16_t f32_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u); /* quiet NaN */
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

static float bf16_to_f32(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float    f;
    memcpy(&f, &x, sizeof f);
    return f;
}

/* ---------------------------------------------------------------------------------------- */
/* Element types, seen by the reference as complex doubles                                   */
/* ---------------------------------------------------------------------------------------- */

typedef enum
{
    E_F32,
    E_F64,
    E_C32,
    E_C64,
    E_F16,
    E_BF16
} elem_t;

static size_t elem_size(elem_t e)
{
    switch(e)
    {
    case E_F32: return sizeof(float);
    case E_F64: return sizeof(double);
    case E_C32: return sizeof(rocblas_float_complex);
    case E_C64: return sizeof(rocblas_double_complex);
    case E_F16: return sizeof(rocblas_half);
    case E_BF16: return sizeof(rocblas_bfloat16);
    }
    return 0;
}

static int elem_is_complex(elem_t e)
{
    return e == E_C32 || e == E_C64;
}

/* Machine epsilon of the storage type (2 * unit roundoff). */
static double elem_eps(elem_t e)
{
    switch(e)
    {
    case E_F32:
    case E_C32: return FLT_EPSILON;
    case E_F64:
    case E_C64: return DBL_EPSILON;
    case E_F16: return 1.0 / 1024.0;
    case E_BF16: return 1.0 / 128.0;
    }
    return 0;
}

static rocblas_datatype elem_datatype(elem_t e)
{
    switch(e)
    {
    case E_F32: return rocblas_datatype_f32_r;
    case E_F64: return rocblas_datatype_f64_r;
    case E_C32: return rocblas_datatype_f32_c;
    case E_C64: return rocblas_datatype_f64_c;
    case E_F16: return rocblas_datatype_f16_r;
    case E_BF16: return rocblas_datatype_bf16_r;
    }
    return rocblas_datatype_invalid;
}

static void put(elem_t e, void* buf, size_t i, double re, double im)
{
    switch(e)
    {
    case E_F32: ((float*)buf)[i] = (float)re; break;
    case E_F64: ((double*)buf)[i] = re; break;
    case E_C32:
        ((rocblas_float_complex*)buf)[i].x = (float)re;
        ((rocblas_float_complex*)buf)[i].y = (float)im;
        break;
    case E_C64:
        ((rocblas_double_complex*)buf)[i].x = re;
        ((rocblas_double_complex*)buf)[i].y = im;
        break;
    case E_F16: ((rocblas_half*)buf)[i].data = f32_to_f16((float)re); break;
    case E_BF16: ((rocblas_bfloat16*)buf)[i].data = f32_to_bf16((float)re); break;
    }
}

static void get(elem_t e, const void* buf, size_t i, double* re, double* im)
{
    *im = 0.0;
    switch(e)
    {
    case E_F32: *re = ((const float*)buf)[i]; break;
    case E_F64: *re = ((const double*)buf)[i]; break;
    case E_C32:
        *re = ((const rocblas_float_complex*)buf)[i].x;
        *im = ((const rocblas_float_complex*)buf)[i].y;
        break;
    case E_C64:
        *re = ((const rocblas_double_complex*)buf)[i].x;
        *im = ((const rocblas_double_complex*)buf)[i].y;
        break;
    case E_F16: *re = f16_to_f32(((const rocblas_half*)buf)[i].data); break;
    case E_BF16: *re = bf16_to_f32(((const rocblas_bfloat16*)buf)[i].data); break;
    }
}

/* Deterministic uniform values in [-1, 1]. */
static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static double rnd(void)
{
    g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static void* alloc_random(elem_t e, size_t count)
{
    size_t i;
    void*  p = malloc(count * elem_size(e) + 1);
    if(!p)
    {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for(i = 0; i < count; i++)
        put(e, p, i, rnd(), elem_is_complex(e) ? rnd() : 0.0);
    return p;
}

static void* dup_bytes(const void* src, size_t bytes)
{
    void* p = malloc(bytes + 1);
    if(!p)
    {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memcpy(p, src, bytes);
    return p;
}

/* ---------------------------------------------------------------------------------------- */
/* The GEMM families under test                                                               */
/* ---------------------------------------------------------------------------------------- */

typedef enum
{
    API_S,
    API_D,
    API_C,
    API_Z,
    API_H,
    API_EX
} api_t;

typedef struct
{
    const char* name;
    api_t       api;
    elem_t      ab; /* type of A and B */
    elem_t      cd; /* type of C and D */
    double      eps_acc; /* precision the products are accumulated in (worst case allowed) */
} family_t;

static const family_t FAMILIES[] = {
    {"sgemm", API_S, E_F32, E_F32, FLT_EPSILON},
    {"dgemm", API_D, E_F64, E_F64, DBL_EPSILON},
    {"cgemm", API_C, E_C32, E_C32, FLT_EPSILON},
    {"zgemm", API_Z, E_C64, E_C64, DBL_EPSILON},
    /* rocBLAS may accumulate hgemm in half precision: allow it. */
    {"hgemm", API_H, E_F16, E_F16, 1.0 / 1024.0},
    {"gemm_ex HSS", API_EX, E_F16, E_F32, FLT_EPSILON},
    {"gemm_ex BSS", API_EX, E_BF16, E_F32, FLT_EPSILON},
    {"gemm_ex HHS", API_EX, E_F16, E_F16, FLT_EPSILON},
    {"gemm_ex BBS", API_EX, E_BF16, E_BF16, FLT_EPSILON},
};
#define N_FAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])

/* Calls the family's entry point. alpha/beta are given as complex doubles and converted to the
 * API's scalar type (all values used are exact in every type). d == NULL means D = C. */
static rocblas_status call_gemm(rocblas_handle    h,
                                const family_t*   f,
                                rocblas_operation ta,
                                rocblas_operation tb,
                                rocblas_int       m,
                                rocblas_int       n,
                                rocblas_int       k,
                                double            alpha_re,
                                double            alpha_im,
                                const void*       A,
                                rocblas_int       lda,
                                const void*       B,
                                rocblas_int       ldb,
                                double            beta_re,
                                double            beta_im,
                                void*             C,
                                rocblas_int       ldc,
                                void*             D,
                                rocblas_int       ldd)
{
    switch(f->api)
    {
    case API_S:
    {
        float a = (float)alpha_re, b = (float)beta_re;
        return rocblas_sgemm(h, ta, tb, m, n, k, &a, A, lda, B, ldb, &b, C, ldc);
    }
    case API_D: return rocblas_dgemm(h, ta, tb, m, n, k, &alpha_re, A, lda, B, ldb, &beta_re, C, ldc);
    case API_C:
    {
        rocblas_float_complex a, b;
        a.x = (float)alpha_re;
        a.y = (float)alpha_im;
        b.x = (float)beta_re;
        b.y = (float)beta_im;
        return rocblas_cgemm(h, ta, tb, m, n, k, &a, A, lda, B, ldb, &b, C, ldc);
    }
    case API_Z:
    {
        rocblas_double_complex a, b;
        a.x = alpha_re;
        a.y = alpha_im;
        b.x = beta_re;
        b.y = beta_im;
        return rocblas_zgemm(h, ta, tb, m, n, k, &a, A, lda, B, ldb, &b, C, ldc);
    }
    case API_H:
    {
        rocblas_half a, b;
        a.data = f32_to_f16((float)alpha_re);
        b.data = f32_to_f16((float)beta_re);
        return rocblas_hgemm(h, ta, tb, m, n, k, &a, A, lda, B, ldb, &b, C, ldc);
    }
    case API_EX:
    {
        float a = (float)alpha_re, b = (float)beta_re;
        return rocblas_gemm_ex(h, ta, tb, m, n, k, &a,
                               A, elem_datatype(f->ab), lda,
                               B, elem_datatype(f->ab), ldb,
                               &b,
                               C, elem_datatype(f->cd), ldc,
                               D ? D : C, elem_datatype(f->cd), D ? ldd : ldc,
                               rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0);
    }
    }
    return rocblas_status_internal_error;
}

static char op_letter(rocblas_operation op)
{
    return op == rocblas_operation_none ? 'N' : op == rocblas_operation_transpose ? 'T' : 'C';
}

/* Element (i, j) of op(X), X stored column-major with leading dimension ld. */
static void op_elem(elem_t e, const void* X, rocblas_int ld, rocblas_operation op, rocblas_int i,
                    rocblas_int j, double* re, double* im)
{
    if(op == rocblas_operation_none)
        get(e, X, (size_t)i + (size_t)j * (size_t)ld, re, im);
    else
    {
        get(e, X, (size_t)j + (size_t)i * (size_t)ld, re, im);
        if(op == rocblas_operation_conjugate_transpose)
            *im = -*im;
    }
}

/* One GEMM against the reference. nan_c: C is filled with NaN and beta = 0. separate_d: gemm_ex
 * only, D is a different (NaN-poisoned) matrix and C must come back unchanged. */
static void run_case(rocblas_handle    h,
                     const family_t*   f,
                     rocblas_operation ta,
                     rocblas_operation tb,
                     rocblas_int       m,
                     rocblas_int       n,
                     rocblas_int       k,
                     int               nan_c,
                     int               separate_d)
{
    rocblas_int rows_a = ta == rocblas_operation_none ? m : k;
    rocblas_int cols_a = ta == rocblas_operation_none ? k : m;
    rocblas_int rows_b = tb == rocblas_operation_none ? k : n;
    rocblas_int cols_b = tb == rocblas_operation_none ? n : k;
    rocblas_int lda = rows_a + 2, ldb = rows_b + 3, ldc = m + 4;
    size_t      size_a = (size_t)lda * (size_t)(cols_a > 0 ? cols_a : 1);
    size_t      size_b = (size_t)ldb * (size_t)(cols_b > 0 ? cols_b : 1);
    size_t      size_c = (size_t)ldc * (size_t)n;
    size_t      cbytes = size_c * elem_size(f->cd), idx;
    int         cplx = elem_is_complex(f->ab);
    double      alpha_re = 0.75, alpha_im = cplx ? -0.25 : 0.0;
    double      beta_re = nan_c ? 0.0 : -0.5, beta_im = (cplx && !nan_c) ? 0.125 : 0.0;
    double      eps_out = elem_eps(f->cd), worst = 0.0;
    void *      A, *B, *C, *C0, *D = NULL, *out;
    int         bad_values = 0, nan_seen = 0, outside_ok = 1;
    rocblas_int i, j, p;
    rocblas_status st;

    A = alloc_random(f->ab, size_a);
    B = alloc_random(f->ab, size_b);
    C = alloc_random(f->cd, size_c);
    if(nan_c)
        for(idx = 0; idx < size_c; idx++)
            put(f->cd, C, idx, NAN, NAN);
    C0 = dup_bytes(C, cbytes);
    if(separate_d)
    {
        D = alloc_random(f->cd, size_c);
        for(idx = 0; idx < size_c; idx++)
            put(f->cd, D, idx, NAN, NAN);
    }
    out = separate_d ? D : C;

    st = call_gemm(h, f, ta, tb, m, n, k, alpha_re, alpha_im, A, lda, B, ldb, beta_re, beta_im,
                   C, ldc, D, ldc);

    if(st == rocblas_status_success)
    {
        for(j = 0; j < n; j++)
            for(i = 0; i < m; i++)
            {
                double sr = 0, si = 0, mag = 0, cr, ci, rr, ri, gr, gi, err, tol;
                for(p = 0; p < k; p++)
                {
                    double ar, ai, br, bi;
                    op_elem(f->ab, A, lda, ta, i, p, &ar, &ai);
                    op_elem(f->ab, B, ldb, tb, p, j, &br, &bi);
                    sr += ar * br - ai * bi;
                    si += ar * bi + ai * br;
                    mag += sqrt(ar * ar + ai * ai) * sqrt(br * br + bi * bi);
                }
                get(f->cd, C0, (size_t)i + (size_t)j * (size_t)ldc, &cr, &ci);
                rr = alpha_re * sr - alpha_im * si;
                ri = alpha_re * si + alpha_im * sr;
                if(beta_re != 0.0 || beta_im != 0.0) /* beta = 0: C is not read (may be NaN) */
                {
                    rr += beta_re * cr - beta_im * ci;
                    ri += beta_re * ci + beta_im * cr;
                }
                get(f->cd, out, (size_t)i + (size_t)j * (size_t)ldc, &gr, &gi);
                if(isnan(gr) || isnan(gi))
                    nan_seen = 1;
                err = sqrt((gr - rr) * (gr - rr) + (gi - ri) * (gi - ri));
                /* |dC| <= c * (k + 2) * eps_acc * (|alpha| sum|a||b| + |beta||C|), plus the
                 * final rounding to the output type; c = 4 covers complex arithmetic. */
                tol = 4.0 * (k + 2) * f->eps_acc
                          * (sqrt(alpha_re * alpha_re + alpha_im * alpha_im) * mag
                             + ((beta_re != 0.0 || beta_im != 0.0)
                                    ? sqrt(beta_re * beta_re + beta_im * beta_im)
                                          * sqrt(cr * cr + ci * ci)
                                    : 0.0))
                      + eps_out * sqrt(rr * rr + ri * ri) + 1e-300;
                if(!(err <= tol))
                    bad_values++;
                if(err / tol > worst || err != err)
                    worst = err / tol;
            }
        /* Rows m..ldc-1 of the output are padding: they must not be written. */
        for(j = 0; j < n; j++)
            for(i = m; i < ldc; i++)
            {
                size_t es = elem_size(f->cd), off = ((size_t)i + (size_t)j * (size_t)ldc) * es;
                if(separate_d)
                {
                    double r1, i1;
                    get(f->cd, D, off / es, &r1, &i1);
                    if(!isnan(r1))
                        outside_ok = 0;
                }
                else if(memcmp((char*)C + off, (char*)C0 + off, es) != 0)
                    outside_ok = 0;
            }
        if(separate_d && memcmp(C, C0, cbytes) != 0)
            outside_ok = 0;
    }

    check(st == rocblas_status_success && bad_values == 0 && !nan_seen && outside_ok,
          "%-12s %c%c m=%d n=%d k=%d lda=%d ldb=%d ldc=%d%s%s: %s, %d bad, max err/tol %.3g%s%s",
          f->name, op_letter(ta), op_letter(tb), m, n, k, lda, ldb, ldc,
          nan_c ? " beta=0 over NaN C" : "", separate_d ? " D!=C" : "",
          rocblas_status_to_string(st), bad_values, worst, nan_seen ? ", NaN in output" : "",
          outside_ok ? "" : ", wrote outside op range");

    free(A);
    free(B);
    free(C);
    free(C0);
    free(D);
}

/* ---------------------------------------------------------------------------------------- */
/* Bad arguments: exact status, and C not touched                                             */
/* ---------------------------------------------------------------------------------------- */

#define BM 4
#define BN 3
#define BK 5

static float g_a[BM * BK * 4], g_b[BK * BN * 4], g_c0[BM * BN * 4];
/* C, aligned for any element type (the null-handle and null-beta calls pass it as double). */
static union
{
    float  f[BM * BN * 4];
    double d[BM * BN * 2];
} g_cu;
#define g_c g_cu.f
/* Correctly aligned operands for the double and complex entry points. */
static double g_wa[16], g_wb[16];

static void reset_c(void)
{
    size_t i;
    for(i = 0; i < sizeof g_c / sizeof g_c[0]; i++)
        g_c[i] = (float)i * 0.5f - 3.0f;
    memcpy(g_c0, g_c, sizeof g_c);
}

static void expect_unchanged(rocblas_status got, rocblas_status want, const char* what)
{
    int same = memcmp(g_c, g_c0, sizeof g_c) == 0;
    check(got == want && same,
          "%s -> %s (expected %s)%s",
          what,
          rocblas_status_to_string(got),
          rocblas_status_to_string(want),
          same ? ", C unchanged" : ", C MODIFIED");
    reset_c();
}

static void bad_argument_tests(rocblas_handle h)
{
    const float one = 1.0f, two = 2.0f, zero = 0.0f;
    const rocblas_operation N = rocblas_operation_none, T = rocblas_operation_transpose;
    double                  d1 = 1.0;
    rocblas_float_complex   c1 = {1.0f, 0.0f};
    rocblas_double_complex  z1 = {1.0, 0.0};
    rocblas_half            h1 = {0x3c00};
    rocblas_status          st;
    size_t                  i;

    for(i = 0; i < sizeof g_a / sizeof g_a[0]; i++)
        g_a[i] = (float)(i % 7) * 0.25f;
    for(i = 0; i < sizeof g_b / sizeof g_b[0]; i++)
        g_b[i] = (float)(i % 5) * 0.5f;
    reset_c();

    /* Null handle on every function. */
    expect_unchanged(rocblas_sgemm(NULL, N, N, BM, BN, BK, &one, g_a, BM, g_b, BK, &two, g_c, BM),
                     rocblas_status_invalid_handle, "sgemm null handle");
    expect_unchanged(rocblas_dgemm(NULL, N, N, 2, 2, 2, &d1, g_wa, 2, g_wb, 2, &d1, g_cu.d, 2),
                     rocblas_status_invalid_handle, "dgemm null handle");
    expect_unchanged(rocblas_cgemm(NULL, N, N, 2, 2, 2, &c1, (const rocblas_float_complex*)g_wa, 2,
                                   (const rocblas_float_complex*)g_wb, 2, &c1,
                                   (rocblas_float_complex*)g_cu.d, 2),
                     rocblas_status_invalid_handle, "cgemm null handle");
    expect_unchanged(rocblas_zgemm(NULL, N, N, 1, 1, 1, &z1, (const rocblas_double_complex*)g_wa, 1,
                                   (const rocblas_double_complex*)g_wb, 1, &z1,
                                   (rocblas_double_complex*)g_cu.d, 1),
                     rocblas_status_invalid_handle, "zgemm null handle");
    expect_unchanged(rocblas_hgemm(NULL, N, N, 2, 2, 2, &h1, (const rocblas_half*)g_a, 2,
                                   (const rocblas_half*)g_b, 2, &h1, (rocblas_half*)g_c, 2),
                     rocblas_status_invalid_handle, "hgemm null handle");
    expect_unchanged(rocblas_gemm_ex(NULL, N, N, BM, BN, BK, &one, g_a, rocblas_datatype_f32_r, BM,
                                     g_b, rocblas_datatype_f32_r, BK, &two, g_c,
                                     rocblas_datatype_f32_r, BM, g_c, rocblas_datatype_f32_r, BM,
                                     rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0),
                     rocblas_status_invalid_handle, "gemm_ex null handle");
    {
        rocblas_pointer_mode pm = rocblas_pointer_mode_host;
        hipStream_t          s  = NULL;
        check_status(rocblas_set_pointer_mode(NULL, pm), rocblas_status_invalid_handle,
                     "set_pointer_mode null handle");
        check_status(rocblas_get_pointer_mode(NULL, &pm), rocblas_status_invalid_handle,
                     "get_pointer_mode null handle");
        check_status(rocblas_set_stream(NULL, s), rocblas_status_invalid_handle,
                     "set_stream null handle");
        check_status(rocblas_get_stream(NULL, &s), rocblas_status_invalid_handle,
                     "get_stream null handle");
        check_status(rocblas_destroy_handle(NULL), rocblas_status_invalid_handle,
                     "destroy_handle null handle");
        check_status(rocblas_create_handle(NULL), rocblas_status_invalid_handle,
                     "create_handle null output");
    }

    /* Sizes. */
    expect_unchanged(rocblas_sgemm(h, N, N, -1, BN, BK, &one, g_a, BM, g_b, BK, &two, g_c, BM),
                     rocblas_status_invalid_size, "sgemm m<0");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, -1, BK, &one, g_a, BM, g_b, BK, &two, g_c, BM),
                     rocblas_status_invalid_size, "sgemm n<0");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, BN, -1, &one, g_a, BM, g_b, BK, &two, g_c, BM),
                     rocblas_status_invalid_size, "sgemm k<0");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, BN, BK, &one, g_a, BM - 1, g_b, BK, &two, g_c, BM),
                     rocblas_status_invalid_size, "sgemm lda<m (N)");
    expect_unchanged(rocblas_sgemm(h, T, N, BM, BN, BK, &one, g_a, BK - 1, g_b, BK, &two, g_c, BM),
                     rocblas_status_invalid_size, "sgemm lda<k (T)");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, BN, BK, &one, g_a, BM, g_b, BK - 1, &two, g_c, BM),
                     rocblas_status_invalid_size, "sgemm ldb<k (N)");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, BN, BK, &one, g_a, BM, g_b, BK, &two, g_c, BM - 1),
                     rocblas_status_invalid_size, "sgemm ldc<m");

    /* Enum values. */
    expect_unchanged(rocblas_sgemm(h, (rocblas_operation)999, N, BM, BN, BK, &one, g_a, BM, g_b,
                                   BK, &two, g_c, BM),
                     rocblas_status_invalid_value, "sgemm transA=999");
    expect_unchanged(rocblas_sgemm(h, N, (rocblas_operation)999, BM, BN, BK, &one, g_a, BM, g_b,
                                   BK, &two, g_c, BM),
                     rocblas_status_invalid_value, "sgemm transB=999");

    /* Pointers. */
    expect_unchanged(rocblas_sgemm(h, N, N, BM, BN, BK, &one, NULL, BM, g_b, BK, &two, g_c, BM),
                     rocblas_status_invalid_pointer, "sgemm A=NULL, k>0");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, BN, BK, &one, g_a, BM, NULL, BK, &two, g_c, BM),
                     rocblas_status_invalid_pointer, "sgemm B=NULL, k>0");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, BN, BK, NULL, g_a, BM, g_b, BK, &two, g_c, BM),
                     rocblas_status_invalid_pointer, "sgemm alpha=NULL");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, BN, BK, &one, g_a, BM, g_b, BK, NULL, g_c, BM),
                     rocblas_status_invalid_pointer, "sgemm beta=NULL");
    expect_unchanged(rocblas_dgemm(h, N, N, 2, 2, 2, &d1, g_wa, 2, g_wb, 2, NULL, g_cu.d, 2),
                     rocblas_status_invalid_pointer, "dgemm beta=NULL");
    st = rocblas_sgemm(h, N, N, BM, BN, BK, &one, g_a, BM, g_b, BK, &two, NULL, BM);
    check_status(st, rocblas_status_invalid_pointer, "sgemm C=NULL");

    /* gemm_ex datatypes and algo. */
    expect_unchanged(rocblas_gemm_ex(h, N, N, BM, BN, BK, &one, g_a, rocblas_datatype_f32_r, BM,
                                     g_b, rocblas_datatype_f32_r, BK, &two, g_c,
                                     rocblas_datatype_f64_r, BM, g_c, rocblas_datatype_f64_r, BM,
                                     rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0),
                     rocblas_status_not_implemented, "gemm_ex f32 in, f64 out, f32 compute");
    expect_unchanged(rocblas_gemm_ex(h, N, N, BM, BN, BK, &one, g_a, rocblas_datatype_f16_r, BM,
                                     g_b, rocblas_datatype_bf16_r, BK, &two, g_c,
                                     rocblas_datatype_f32_r, BM, g_c, rocblas_datatype_f32_r, BM,
                                     rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0),
                     rocblas_status_not_implemented, "gemm_ex a=f16, b=bf16");
    expect_unchanged(rocblas_gemm_ex(h, N, N, BM, BN, BK, &one, g_a, (rocblas_datatype)999, BM,
                                     g_b, rocblas_datatype_f32_r, BK, &two, g_c,
                                     rocblas_datatype_f32_r, BM, g_c, rocblas_datatype_f32_r, BM,
                                     rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0),
                     rocblas_status_invalid_value, "gemm_ex a_type=999");
    expect_unchanged(rocblas_gemm_ex(h, N, N, BM, BN, BK, &one, g_a, rocblas_datatype_f32_r, BM,
                                     g_b, rocblas_datatype_f32_r, BK, &two, g_c,
                                     rocblas_datatype_f32_r, BM, g_c, rocblas_datatype_f32_r, BM,
                                     rocblas_datatype_f32_r, (rocblas_gemm_algo)7, 0, 0),
                     rocblas_status_invalid_value, "gemm_ex algo=7");
    expect_unchanged(rocblas_gemm_ex(h, (rocblas_operation)999, N, BM, BN, BK, &one, g_a,
                                     rocblas_datatype_f32_r, BM, g_b, rocblas_datatype_f32_r, BK,
                                     &two, g_c, rocblas_datatype_f32_r, BM, g_c,
                                     rocblas_datatype_f32_r, BM, rocblas_datatype_f32_r,
                                     rocblas_gemm_algo_standard, 0, 0),
                     rocblas_status_invalid_value, "gemm_ex transA=999");
    expect_unchanged(rocblas_gemm_ex(h, N, N, BM, BN, BK, &one, g_a, rocblas_datatype_f32_r, BM - 1,
                                     g_b, rocblas_datatype_f32_r, BK, &two, g_c,
                                     rocblas_datatype_f32_r, BM, g_c, rocblas_datatype_f32_r, BM,
                                     rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, 0),
                     rocblas_status_invalid_size, "gemm_ex lda<m");

    /* Quick returns: success, nothing touched (pointers may even be null). */
    expect_unchanged(rocblas_sgemm(h, N, N, 0, BN, BK, &one, g_a, BM, g_b, BK, &two, g_c, BM),
                     rocblas_status_success, "sgemm m=0 quick return");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, 0, BK, &one, g_a, BM, g_b, BK, &two, g_c, BM),
                     rocblas_status_success, "sgemm n=0 quick return");
    expect_unchanged(rocblas_sgemm(h, N, N, 0, BN, BK, NULL, NULL, BM, NULL, BK, NULL, NULL, BM),
                     rocblas_status_success, "sgemm m=0 with null pointers");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, BN, BK, &zero, NULL, BM, NULL, BK, &one, g_c, BM),
                     rocblas_status_success, "sgemm alpha=0 beta=1 quick return");
    expect_unchanged(rocblas_sgemm(h, N, N, BM, BN, 0, &one, g_a, BM, g_b, BK, &one, g_c, BM),
                     rocblas_status_success, "sgemm k=0 beta=1 quick return");

    /* alpha = 0 with null A/B is valid (A, B not read): C = beta * C. */
    st = rocblas_sgemm(h, N, N, BM, BN, BK, &zero, NULL, BM, NULL, BK, &two, g_c, BM);
    {
        int ok = st == rocblas_status_success, r, c;
        for(c = 0; c < BN; c++)
            for(r = 0; r < BM; r++)
                ok = ok && g_c[r + c * BM] == 2.0f * g_c0[r + c * BM];
        check(ok, "sgemm alpha=0, A=B=NULL -> %s, C = beta*C", rocblas_status_to_string(st));
    }
    reset_c();
}


/* ---------------------------------------------------------------------------------------- */
/* Batched forms: entry i must equal the single call on entry i's data (checked above against  */
/* the reference); the strided gap between entries must be untouched.                          */
/* ---------------------------------------------------------------------------------------- */

#define NB 3

static rocblas_status call_batched(rocblas_handle h, const family_t* f, int strided, rocblas_operation ta,
                                   rocblas_operation tb, rocblas_int m, rocblas_int n, rocblas_int k,
                                   const void* alpha, const void* A, const void* const* Ap, rocblas_int lda,
                                   rocblas_stride sa, const void* B, const void* const* Bp, rocblas_int ldb,
                                   rocblas_stride sb, const void* beta, void* C, void* const* Cp,
                                   rocblas_int ldc, rocblas_stride sc, rocblas_int count)
{
    rocblas_datatype ab = elem_datatype(f->ab), cd = elem_datatype(f->cd);
    switch(f->api)
    {
#define TYPED(api, T, pre)                                                                          \
    case api:                                                                                       \
        return strided ? rocblas_##pre##gemm_strided_batched(h, ta, tb, m, n, k, (const T*)alpha,   \
                                                             (const T*)A, lda, sa, (const T*)B,      \
                                                             ldb, sb, (const T*)beta, (T*)C, ldc,   \
                                                             sc, count)                             \
                       : rocblas_##pre##gemm_batched(h, ta, tb, m, n, k, (const T*)alpha,            \
                                                     (const T* const*)Ap, lda,                       \
                                                     (const T* const*)Bp, ldb, (const T*)beta,       \
                                                     (T* const*)Cp, ldc, count);
        TYPED(API_S, float, s)
        TYPED(API_D, double, d)
        TYPED(API_C, rocblas_float_complex, c)
        TYPED(API_Z, rocblas_double_complex, z)
        TYPED(API_H, rocblas_half, h)
#undef TYPED
    case API_EX:
        return strided ? rocblas_gemm_strided_batched_ex(h, ta, tb, m, n, k, alpha, A, ab, lda, sa, B,
                                                         ab, ldb, sb, beta, C, cd, ldc, sc, C, cd, ldc,
                                                         sc, count, rocblas_datatype_f32_r,
                                                         rocblas_gemm_algo_standard, 0, 0)
                       : rocblas_gemm_batched_ex(h, ta, tb, m, n, k, alpha, (const void*)Ap, ab, lda,
                                                 (const void*)Bp, ab, ldb, beta, (const void*)Cp, cd,
                                                 ldc, (void*)Cp, cd, ldc, count,
                                                 rocblas_datatype_f32_r,
                                                 rocblas_gemm_algo_standard, 0, 0);
    }
    return rocblas_status_internal_error;
}

/* alpha/beta in the family's API scalar type (0.75 - 0.25i and -0.5 + 0.125i where complex). */
static void scalars(const family_t* f, void* alpha, void* beta)
{
    elem_t s = f->api == API_EX ? E_F32 : f->ab;
    put(s, alpha, 0, 0.75, -0.25);
    put(s, beta, 0, -0.5, 0.125);
}

static void batched_case(rocblas_handle h, const family_t* f, int strided, rocblas_operation ta,
                         rocblas_operation tb, rocblas_int m, rocblas_int n, rocblas_int k)
{
    rocblas_int rows_a = ta == rocblas_operation_none ? m : k, cols_a = ta == rocblas_operation_none ? k : m;
    rocblas_int rows_b = tb == rocblas_operation_none ? k : n, cols_b = tb == rocblas_operation_none ? n : k;
    rocblas_int lda = rows_a + 1, ldb = rows_b + 2, ldc = m + 3;
    size_t      na = (size_t)lda * (size_t)cols_a, nb = (size_t)ldb * (size_t)cols_b, nc = (size_t)ldc * (size_t)n;
    size_t      gap = 5, sa = na + gap, sb = nb + gap, sc = nc + gap, es_ab = elem_size(f->ab), es_cd = elem_size(f->cd);
    void *      A = alloc_random(f->ab, sa * NB), *B = alloc_random(f->ab, sb * NB), *C = alloc_random(f->cd, sc * NB);
    void*       C0 = dup_bytes(C, sc * NB * es_cd);
    void*       W = dup_bytes(C, sc * NB * es_cd);
    const void* Ap[NB];
    const void* Bp[NB];
    void*       Cp[NB];
    double      alpha[2], beta[2]; /* room and alignment for any scalar type */
    int           ok, i;
    rocblas_status st;

    scalars(f, alpha, beta);
    for(i = 0; i < NB; i++)
    {
        Ap[i] = (char*)A + (size_t)i * sa * es_ab;
        Bp[i] = (char*)B + (size_t)i * sb * es_ab;
        Cp[i] = (char*)C + (size_t)i * sc * es_cd;
    }
    st = call_batched(h, f, strided, ta, tb, m, n, k, alpha, A, Ap, lda, (rocblas_stride)sa, B, Bp,
                      ldb, (rocblas_stride)sb, beta, C, Cp, ldc, (rocblas_stride)sc, NB);
    ok = st == rocblas_status_success;
    /* The single call on each entry, in a copy: the results must be identical, gaps untouched. */
    for(i = 0; i < NB && ok; i++)
    {
        double ar, ai, br, bi;
        void*  Wi = (char*)W + (size_t)i * sc * es_cd;
        get(f->api == API_EX ? E_F32 : f->ab, alpha, 0, &ar, &ai);
        get(f->api == API_EX ? E_F32 : f->ab, beta, 0, &br, &bi);
        ok = call_gemm(h, f, ta, tb, m, n, k, ar, ai, Ap[i], lda, Bp[i], ldb, br, bi, Wi, ldc, NULL, 0)
             == rocblas_status_success;
    }
    ok = ok && memcmp(C, W, sc * NB * es_cd) == 0;
    for(i = 0; i + 1 < NB && ok; i++)
        ok = memcmp((char*)C + ((size_t)i * sc + nc) * es_cd, (char*)C0 + ((size_t)i * sc + nc) * es_cd, gap * es_cd) == 0;
    check(ok, "%-12s %s %c%c m=%d n=%d k=%d batch=%d: %s", f->name, strided ? "strided_batched" : "batched",
          op_letter(ta), op_letter(tb), m, n, k, NB, rocblas_status_to_string(st));
    free(A);
    free(B);
    free(C);
    free(C0);
    free(W);
}

static void batched_bad_arguments(rocblas_handle h)
{
    const rocblas_operation N = rocblas_operation_none;
    const float             one = 1.0f, two = 2.0f;
    const float*            Ap[2] = {g_a, g_a + BM * BK};
    float*                  Cp[2] = {g_c, g_c + BM * BN};
    reset_c();
    expect_unchanged(rocblas_sgemm_batched(NULL, N, N, BM, BN, BK, &one, Ap, BM, Ap, BK, &two, Cp, BM, 2),
                     rocblas_status_invalid_handle, "sgemm_batched null handle");
    expect_unchanged(rocblas_sgemm_batched(h, N, N, BM, BN, BK, &one, Ap, BM, Ap, BK, &two, Cp, BM, -1),
                     rocblas_status_invalid_size, "sgemm_batched batch_count<0");
    expect_unchanged(rocblas_sgemm_batched(h, N, N, BM, BN, BK, &one, NULL, BM, NULL, BK, NULL, NULL, BM, 0),
                     rocblas_status_success, "sgemm_batched batch_count=0, null arrays");
    expect_unchanged(rocblas_sgemm_batched(h, N, N, BM, BN, BK, &one, NULL, BM, Ap, BK, &two, Cp, BM, 2),
                     rocblas_status_invalid_pointer, "sgemm_batched A=NULL");
    expect_unchanged(rocblas_sgemm_batched(h, N, N, BM, BN, BK, &one, Ap, BM, Ap, BK, &two, NULL, BM, 2),
                     rocblas_status_invalid_pointer, "sgemm_batched C=NULL");
    expect_unchanged(rocblas_sgemm_batched(h, N, N, BM, BN, BK, &one, Ap, BM - 1, Ap, BK, &two, Cp, BM, 2),
                     rocblas_status_invalid_size, "sgemm_batched lda<m");
    expect_unchanged(rocblas_sgemm_strided_batched(h, N, N, BM, BN, BK, &one, g_a, BM, BM * BK, g_b, BK, BK * BN,
                                                   &two, g_c, BM, BM * BN, -1),
                     rocblas_status_invalid_size, "sgemm_strided_batched batch_count<0");
    expect_unchanged(rocblas_dgemm_strided_batched(NULL, N, N, 1, 1, 1, NULL, NULL, 1, 0, NULL, 1, 0, NULL, NULL, 1, 0, 1),
                     rocblas_status_invalid_handle, "dgemm_strided_batched null handle");
    expect_unchanged(rocblas_gemm_batched_ex(h, N, N, BM, BN, BK, &one, Ap, rocblas_datatype_f32_r, BM, Ap,
                                             rocblas_datatype_f32_r, BK, &two, Cp, rocblas_datatype_f64_r, BM,
                                             Cp, rocblas_datatype_f64_r, BM, 2, rocblas_datatype_f32_r,
                                             rocblas_gemm_algo_standard, 0, 0),
                     rocblas_status_not_implemented, "gemm_batched_ex f32 in, f64 out");
    expect_unchanged(rocblas_gemm_batched_ex(h, N, N, BM, BN, BK, &one, Ap, rocblas_datatype_f32_r, BM, Ap,
                                             rocblas_datatype_f32_r, BK, &two, Cp, rocblas_datatype_f64_r, BM,
                                             Cp, rocblas_datatype_f64_r, BM, -1, rocblas_datatype_f32_r,
                                             rocblas_gemm_algo_standard, 0, 0),
                     rocblas_status_invalid_size, "gemm_batched_ex unsupported types, batch_count<0 (sizes first)");
    expect_unchanged(rocblas_gemm_strided_batched_ex(h, N, N, BM, BN, BK, &one, g_a, rocblas_datatype_f32_r, BM, 0,
                                                     g_b, rocblas_datatype_f32_r, BK, 0, &two, g_c,
                                                     rocblas_datatype_f32_r, BM, 0, NULL, rocblas_datatype_f32_r,
                                                     BM, 0, 2, rocblas_datatype_f32_r,
                                                     rocblas_gemm_algo_standard, 0, 0),
                     rocblas_status_invalid_pointer, "gemm_strided_batched_ex D=NULL");
}

/* i8 gemm_ex against an exact reference (int64 products, reduced modulo 2^32 at the end). */
static void i8_case(rocblas_handle h, rocblas_operation ta, rocblas_operation tb, rocblas_int m, rocblas_int n,
                    rocblas_int k, int32_t alpha, int32_t beta)
{
    rocblas_int rows_a = ta == rocblas_operation_none ? m : k, cols_a = ta == rocblas_operation_none ? k : m;
    rocblas_int rows_b = tb == rocblas_operation_none ? k : n, cols_b = tb == rocblas_operation_none ? n : k;
    rocblas_int lda = rows_a + 1, ldb = rows_b, ldc = m + 2, i, j, p;
    int8_t*     A = malloc((size_t)lda * (size_t)cols_a);
    int8_t*     B = malloc((size_t)ldb * (size_t)cols_b);
    int32_t*    C = malloc(sizeof(int32_t) * (size_t)ldc * (size_t)n);
    int32_t*    D = malloc(sizeof(int32_t) * (size_t)ldc * (size_t)n);
    int         bad = 0;
    rocblas_status st;
    for(i = 0; i < lda * cols_a; i++)
        A[i] = (int8_t)(g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull, g_rng >> 56);
    for(i = 0; i < ldb * cols_b; i++)
        B[i] = (int8_t)(g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull, g_rng >> 56);
    for(i = 0; i < ldc * n; i++)
        C[i] = (int32_t)(uint32_t)(g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull, g_rng >> 32);
    memcpy(D, C, sizeof(int32_t) * (size_t)ldc * (size_t)n);
    st = rocblas_gemm_ex(h, ta, tb, m, n, k, &alpha, A, rocblas_datatype_i8_r, lda, B, rocblas_datatype_i8_r, ldb,
                         &beta, C, rocblas_datatype_i32_r, ldc, D, rocblas_datatype_i32_r, ldc,
                         rocblas_datatype_i32_r, rocblas_gemm_algo_standard, 0, 0);
    for(j = 0; j < n && st == rocblas_status_success; j++)
        for(i = 0; i < ldc; i++)
        {
            uint64_t sum = 0, want;
            for(p = 0; p < k && i < m; p++)
            {
                int64_t x = ta == rocblas_operation_none ? A[i + p * lda] : A[p + i * lda];
                int64_t y = tb == rocblas_operation_none ? B[p + j * ldb] : B[j + p * ldb];
                sum += (uint64_t)(x * y);
            }
            want = i < m ? (uint64_t)(int64_t)alpha * sum + (beta ? (uint64_t)(int64_t)beta * (uint64_t)(int64_t)C[i + j * ldc] : 0)
                         : (uint64_t)(int64_t)C[i + j * ldc];
            if(D[i + j * ldc] != (int32_t)(uint32_t)want)
                bad++;
        }
    check(st == rocblas_status_success && bad == 0, "gemm_ex i8->i32 %c%c m=%d n=%d k=%d alpha=%d beta=%d: %s, %d bad",
          op_letter(ta), op_letter(tb), m, n, k, alpha, beta, rocblas_status_to_string(st), bad);
    free(A);
    free(B);
    free(C);
    free(D);
}

static void math_mode_tests(rocblas_handle h)
{
    rocblas_math_mode mode = (rocblas_math_mode)7;
    check(rocblas_get_math_mode(h, &mode) == rocblas_status_success && mode == rocblas_default_math,
          "get_math_mode after create -> default");
    check_status(rocblas_set_math_mode(h, rocblas_xf32_xdl_math_op), rocblas_status_success, "set_math_mode(xf32)");
    check(rocblas_get_math_mode(h, &mode) == rocblas_status_success && mode == rocblas_xf32_xdl_math_op,
          "get_math_mode -> xf32");
    check_status(rocblas_set_math_mode(h, (rocblas_math_mode)2), rocblas_status_invalid_value, "set_math_mode(2)");
    check(rocblas_get_math_mode(h, &mode) == rocblas_status_success && mode == rocblas_xf32_xdl_math_op,
          "math mode unchanged by a bad value");
    check_status(rocblas_get_math_mode(h, NULL), rocblas_status_invalid_pointer, "get_math_mode(NULL)");
    check_status(rocblas_set_math_mode(NULL, rocblas_default_math), rocblas_status_invalid_handle,
                 "set_math_mode null handle");
    check_status(rocblas_get_math_mode(NULL, &mode), rocblas_status_invalid_handle, "get_math_mode null handle");
    /* On the CPU device xf32 mode leaves f32 results exact: sgemm runs the checked f32 path. */
    run_case(h, &FAMILIES[0], rocblas_operation_none, rocblas_operation_transpose, 13, 6, 17, 0, 0);
    check_status(rocblas_set_math_mode(h, rocblas_default_math), rocblas_status_success, "set_math_mode(default)");
}

/* ---------------------------------------------------------------------------------------- */

int main(void)
{
    static const rocblas_operation OPS[3]
        = {rocblas_operation_none, rocblas_operation_transpose, rocblas_operation_conjugate_transpose};
    static const rocblas_int SIZES[][3] = {{5, 7, 9}, {13, 6, 17}, {1, 3, 2}, {4, 3, 0}};
    rocblas_handle       handle = NULL;
    rocblas_pointer_mode pm;
    hipStream_t          stream = (hipStream_t)(uintptr_t)0xdead;
    rocblas_status       st;
    size_t               f, s;
    int                  a, b;

    st = rocblas_create_handle(&handle);
    check(st == rocblas_status_success && handle != NULL, "create_handle -> %s",
          rocblas_status_to_string(st));
    if(st != rocblas_status_success)
    {
        printf("%d passed, %d failed\n", g_passed, g_failed);
        return 1;
    }

    /* Pointer mode round trip. */
    st = rocblas_get_pointer_mode(handle, &pm);
    check(st == rocblas_status_success && pm == rocblas_pointer_mode_host,
          "get_pointer_mode after create -> host");
    st = rocblas_set_pointer_mode(handle, rocblas_pointer_mode_device);
    check_status(st, rocblas_status_success, "set_pointer_mode(device)");
    st = rocblas_get_pointer_mode(handle, &pm);
    check(st == rocblas_status_success && pm == rocblas_pointer_mode_device,
          "get_pointer_mode -> device");
    check_status(rocblas_set_pointer_mode(handle, (rocblas_pointer_mode)7),
                 rocblas_status_invalid_value, "set_pointer_mode(7)");
    st = rocblas_get_pointer_mode(handle, &pm);
    check(st == rocblas_status_success && pm == rocblas_pointer_mode_device,
          "pointer mode unchanged by a bad value");
    check_status(rocblas_set_pointer_mode(handle, rocblas_pointer_mode_host),
                 rocblas_status_success, "set_pointer_mode(host)");
    check_status(rocblas_get_pointer_mode(handle, NULL), rocblas_status_invalid_pointer,
                 "get_pointer_mode(NULL)");

    /* Stream round trip (on the CPU device a stream value is only stored). */
    st = rocblas_get_stream(handle, &stream);
    check(st == rocblas_status_success && stream == NULL, "get_stream after create -> 0");
    st = rocblas_set_stream(handle, (hipStream_t)(uintptr_t)0x1234);
    check_status(st, rocblas_status_success, "set_stream(0x1234)");
    st = rocblas_get_stream(handle, &stream);
    check(st == rocblas_status_success && stream == (hipStream_t)(uintptr_t)0x1234,
          "get_stream -> 0x1234");
    check_status(rocblas_set_stream(handle, NULL), rocblas_status_success, "set_stream(0)");
    st = rocblas_get_stream(handle, &stream);
    check(st == rocblas_status_success && stream == NULL, "get_stream -> 0");
    check_status(rocblas_get_stream(handle, NULL), rocblas_status_invalid_pointer,
                 "get_stream(NULL)");

    /* Numerics: every family, every transpose pair, several shapes. */
    for(f = 0; f < N_FAMILIES; f++)
        for(s = 0; s < sizeof SIZES / sizeof SIZES[0]; s++)
            for(a = 0; a < 3; a++)
                for(b = 0; b < 3; b++)
                    run_case(handle, &FAMILIES[f], OPS[a], OPS[b], SIZES[s][0], SIZES[s][1],
                             SIZES[s][2], 0, 0);

    /* beta = 0 must not read C: NaN in, no NaN out. */
    for(f = 0; f < N_FAMILIES; f++)
    {
        run_case(handle, &FAMILIES[f], OPS[0], OPS[1], 6, 5, 7, 1, 0);
        run_case(handle, &FAMILIES[f], OPS[2], OPS[0], 6, 5, 7, 1, 0);
    }

    /* gemm_ex with D distinct from C: C read-only, D written. */
    for(f = 0; f < N_FAMILIES; f++)
        if(FAMILIES[f].api == API_EX)
            run_case(handle, &FAMILIES[f], OPS[1], OPS[0], 7, 4, 6, 0, 1);

    bad_argument_tests(handle);

    for(f = 0; f < N_FAMILIES; f++)
        for(a = 0; a < 2; a++)
        {
            batched_case(handle, &FAMILIES[f], a, OPS[a], OPS[2 - a], 7, 5, 9);
            batched_case(handle, &FAMILIES[f], a, OPS[1], OPS[1], 4, 3, 0);
        }
    batched_bad_arguments(handle);

    i8_case(handle, OPS[0], OPS[0], 9, 7, 13, 1, 0);
    i8_case(handle, OPS[1], OPS[0], 5, 6, 300, 2147483647, -3);
    i8_case(handle, OPS[0], OPS[1], 17, 3, 40, -123456789, 987654321);
    i8_case(handle, OPS[2], OPS[2], 4, 4, 0, 5, 7);

    math_mode_tests(handle);

    {
        const char* name = rocblas_status_to_string(rocblas_status_invalid_size);
        check(strcmp(name, "rocblas_status_invalid_size") == 0,
              "status_to_string(invalid_size) = \"%s\"", name);
        name = rocblas_status_to_string(rocblas_status_arch_mismatch);
        check(strcmp(name, "rocblas_status_arch_mismatch") == 0,
              "status_to_string(arch_mismatch) = \"%s\"", name);
        name = rocblas_status_to_string((rocblas_status)1000);
        check(strcmp(name, "<undefined rocblas_status value>") == 0,
              "status_to_string(1000) = \"%s\"", name);
    }

    check_status(rocblas_destroy_handle(handle), rocblas_status_success, "destroy_handle");

    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
