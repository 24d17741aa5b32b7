/*
 * C ABI test of librocfft (rocmath-capi-fft), written the way a ROCm user writes rocFFT code.
 *
 * Run on the CPU device (ROCMATH_DEVICE=cpu), where host pointers are device pointers. Checks:
 *   - transforms against a naive DFT evaluated here in long double (the double-precision
 *     tolerance, 1e-15 * ln N, is close to a double-precision naive DFT's own error): complex
 *     1D, 2D and 3D, forward and inverse, in place and out of place, single and double; real
 *     forward / inverse round trips with scale 1/N (1D out of place, 2D in place with the padded
 *     default layout); planar complex and hermitian arrays; descriptions with strides,
 *     distances, offsets, a transposed planar output, a zero input stride and overlapping input
 *     windows;
 *   - rocFFT's accuracy criterion per transform (shared/accuracy_test.h, its norms from
 *     shared/fft_params.h):
 *       Linf(out - ref) <= eps * Linf(ref) * ln N  and  L2(out - ref) / L2(in) < sqrt(log2 N) * eps
 *     with eps = 3.75e-5 (single) and 1e-15 (double) (clients/tests/gtest_main.cpp's defaults),
 *     N the transform's element count, Linf the largest real or imaginary part, L2 over both;
 *   - outputs are poisoned (NaN) before each run: every output element must be written, and every
 *     buffer element outside the layouts must still be NaN afterwards;
 *   - work buffer query and set, stream set, rocfft_plan_get_print, the version string;
 *   - every bad argument's exact status, and that the failed call wrote nothing (the plan
 *     out-parameter keeps its sentinel, poisoned outputs stay poisoned);
 *   - the unsupported features' statuses (fields, MPI, callbacks, kernel cache).
 * Prints one line per check and a final "N passed, M failed"; exits non-zero on any failure.
 */
#include <rocfft/rocfft.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_passed  = 0;
static int g_failed  = 0;
static int g_skipped = 0;

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

static void skip(const char* what)
{
    printf("SKIP %s\n", what);
    g_skipped++;
}

static const char* status_name(rocfft_status s)
{
    static const char* names[] = {"rocfft_status_success",
                                  "rocfft_status_failure",
                                  "rocfft_status_invalid_arg_value",
                                  "rocfft_status_invalid_dimensions",
                                  "rocfft_status_invalid_array_type",
                                  "rocfft_status_invalid_strides",
                                  "rocfft_status_invalid_distance",
                                  "rocfft_status_invalid_offset",
                                  "rocfft_status_invalid_work_buffer"};
    if((int)s >= 0 && (int)s < (int)(sizeof names / sizeof names[0]))
        return names[s];
    return "<undefined rocfft_status>";
}

static void check_status(rocfft_status got, rocfft_status want, const char* what)
{
    check(got == want, "%s -> %s (expected %s)", what, status_name(got), status_name(want));
}

/* ---------------------------------------------------------------------------------------- */
/* Layouts, as the header documents them                                                    */
/* ---------------------------------------------------------------------------------------- */

#define PI_L 3.141592653589793238462643383279502884L

typedef struct
{
    double re, im;
} cplx;

/* One side of a transform: array type, offsets (per buffer), strides, distance; lengths in
 * elements of this side (the hermitian half on the fastest dimension where it applies). */
typedef struct
{
    rocfft_array_type type;
    size_t            dims;
    size_t            len[3];
    size_t            off[2];
    size_t            stride[3];
    size_t            dist;
} layout_t;

/* A transform to run. Strides with stride_count 0 and distances of 0 are the defaults. */
typedef struct
{
    const char*             name;
    rocfft_result_placement place;
    rocfft_transform_type   type;
    rocfft_precision        prec;
    size_t                  dims;
    size_t                  len[3];
    size_t                  batch;
    double                  scale; /* 0: none set */
    int                     custom; /* 1: call rocfft_plan_description_set_data_layout */
    rocfft_array_type       itype, otype;
    size_t                  ioff[2], ooff[2];
    size_t                  istride_count, istride[3], idist;
    size_t                  ostride_count, ostride[3], odist;
} fft_case;

static int is_planar(rocfft_array_type t)
{
    return t == rocfft_array_type_complex_planar || t == rocfft_array_type_hermitian_planar;
}

static int is_interleaved(rocfft_array_type t)
{
    return t == rocfft_array_type_complex_interleaved
           || t == rocfft_array_type_hermitian_interleaved;
}

static size_t prod(const size_t* v, size_t n)
{
    size_t p = 1, i;
    for(i = 0; i < n; i++)
        p *= v[i];
    return p;
}

/* Resolves one side of a case: the documented defaults for whatever the case leaves unset. */
static layout_t resolve(const fft_case* c, int output)
{
    layout_t L;
    size_t   d;
    int      real_side = (c->type == rocfft_transform_type_real_forward && !output)
                    || (c->type == rocfft_transform_type_real_inverse && output);
    int herm_side = (c->type == rocfft_transform_type_real_forward && output)
                    || (c->type == rocfft_transform_type_real_inverse && !output);
    rocfft_array_type t = c->custom ? (output ? c->otype : c->itype) : rocfft_array_type_unset;
    const size_t*     s = output ? c->ostride : c->istride;
    size_t            ns = c->custom ? (output ? c->ostride_count : c->istride_count) : 0;
    size_t            dist = c->custom ? (output ? c->odist : c->idist) : 0;
    int               padded;
    size_t            row;

    if(t == rocfft_array_type_unset)
        t = real_side   ? rocfft_array_type_real
            : herm_side ? rocfft_array_type_hermitian_interleaved
                        : rocfft_array_type_complex_interleaved;
    memset(&L, 0, sizeof L);
    L.type = t;
    L.dims = c->dims;
    for(d = 0; d < c->dims; d++)
        L.len[d] = c->len[d];
    if(herm_side)
        L.len[0] = c->len[0] / 2 + 1;
    if(c->custom)
    {
        L.off[0] = output ? c->ooff[0] : c->ioff[0];
        L.off[1] = is_planar(t) ? (output ? c->ooff[1] : c->ioff[1]) : 0;
    }
    padded = real_side && c->place == rocfft_placement_inplace;
    row    = 2 * (L.len[0] / 2 + 1);
    if(ns)
        for(d = 0; d < c->dims; d++)
            L.stride[d] = s[d];
    else
    {
        L.stride[0] = 1;
        for(d = 1; d < c->dims; d++)
            L.stride[d] = (padded && d == 1) ? row * L.stride[0] : L.stride[d - 1] * L.len[d - 1];
    }
    if(dist)
        L.dist = dist;
    else if(padded && c->dims == 1)
        L.dist = row * L.stride[0];
    else
        L.dist = L.stride[c->dims - 1] * L.len[c->dims - 1];
    return L;
}

/* Index (without offset) of element i (linear, fastest dimension first) of transform b. */
static size_t element_index(const layout_t* L, size_t i, size_t b)
{
    size_t idx = b * L->dist, d;
    for(d = 0; d < L->dims; d++)
    {
        idx += (i % L->len[d]) * L->stride[d];
        i /= L->len[d];
    }
    return idx;
}

/* Scalars buffer `plane` must hold for the layout over `batch` transforms (0 if no such plane). */
static size_t scalars_needed(const layout_t* L, size_t batch, int plane)
{
    size_t last, d;
    if(plane == 1 && !is_planar(L->type))
        return 0;
    last = L->off[plane] + (batch - 1) * L->dist;
    for(d = 0; d < L->dims; d++)
        last += (L->len[d] - 1) * L->stride[d];
    return (last + 1) * (is_interleaved(L->type) ? 2 : 1);
}

/* Scalar access in a float or double buffer. */
static double get_s(const void* buf, int dbl, size_t i)
{
    return dbl ? ((const double*)buf)[i] : (double)((const float*)buf)[i];
}

static void set_s(void* buf, int dbl, size_t i, double v)
{
    if(dbl)
        ((double*)buf)[i] = v;
    else
        ((float*)buf)[i] = (float)v;
}

/* The two scalar positions (buffer, index) of an element; im is -1 for real arrays. */
static void positions(const layout_t* L, size_t idx, int* buf_re, size_t* re, int* buf_im, long* im)
{
    if(is_interleaved(L->type))
    {
        *buf_re = *buf_im = 0;
        *re             = 2 * (L->off[0] + idx);
        *im             = (long)(*re + 1);
    }
    else if(is_planar(L->type))
    {
        *buf_re = 0;
        *buf_im = 1;
        *re     = L->off[0] + idx;
        *im     = (long)(L->off[1] + idx);
    }
    else
    {
        *buf_re = *buf_im = 0;
        *re             = L->off[0] + idx;
        *im             = -1;
    }
}

static cplx load(void* const bufs[2], int dbl, const layout_t* L, size_t idx)
{
    cplx   v;
    int    br, bi;
    size_t re;
    long   im;
    positions(L, idx, &br, &re, &bi, &im);
    v.re = get_s(bufs[br], dbl, re);
    v.im = im < 0 ? 0.0 : get_s(bufs[bi], dbl, (size_t)im);
    return v;
}

static void store(void* const bufs[2], int dbl, const layout_t* L, size_t idx, cplx v)
{
    int    br, bi;
    size_t re;
    long   im;
    positions(L, idx, &br, &re, &bi, &im);
    set_s(bufs[br], dbl, re, v.re);
    if(im >= 0)
        set_s(bufs[bi], dbl, (size_t)im, v.im);
}

/* Marks the scalars a layout addresses in per-plane masks. */
static void mark(unsigned char* masks[2], const layout_t* L, size_t batch)
{
    size_t n = prod(L->len, L->dims), b, i;
    for(b = 0; b < batch; b++)
        for(i = 0; i < n; i++)
        {
            int    br, bi;
            size_t re;
            long   im;
            positions(L, element_index(L, i, b), &br, &re, &bi, &im);
            masks[br][re] = 1;
            if(im >= 0)
                masks[bi][(size_t)im] = 1;
        }
}

/* ---------------------------------------------------------------------------------------- */
/* Reference: a naive multi-dimensional DFT in long double                                  */
/* ---------------------------------------------------------------------------------------- */

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;

static double rnd(void)
{
    g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* out[k] = scale * sum_j in[j] exp(sign 2 pi i sum_d k_d j_d / len_d), for the packed arrays of
 * one transform; only outputs whose fastest index is below kmax0 are computed. */
static void dft(const cplx* in, cplx* out, const size_t* len, size_t dims, int sign, size_t kmax0, double scale)
{
    size_t n = prod(len, dims), k, j, d;
    for(k = 0; k < n; k++)
    {
        long double re = 0, im = 0;
        size_t      kk[3] = {0, 0, 0}, t = k;
        for(d = 0; d < dims; d++)
        {
            kk[d] = t % len[d];
            t /= len[d];
        }
        if(kk[0] >= kmax0)
            continue;
        for(j = 0; j < n; j++)
        {
            long double phase = 0, a, c, s;
            size_t      u     = j;
            for(d = 0; d < dims; d++)
            {
                phase += (long double)((kk[d] * (u % len[d])) % len[d]) / (long double)len[d];
                u /= len[d];
            }
            a = (long double)sign * 2.0L * PI_L * phase;
            c = cosl(a);
            s = sinl(a);
            re += (long double)in[j].re * c - (long double)in[j].im * s;
            im += (long double)in[j].re * s + (long double)in[j].im * c;
        }
        out[k].re = (double)(re * scale);
        out[k].im = (double)(im * scale);
    }
}

/* The reference for one transform of a case: `in` packed over the input side's lengths,
 * `out` packed over the output side's. */
static void reference(const fft_case* c, const cplx* in, cplx* out, double scale)
{
    size_t n = prod(c->len, c->dims), i, d;
    cplx*  full;
    cplx*  tmp;
    switch(c->type)
    {
    case rocfft_transform_type_complex_forward:
    case rocfft_transform_type_complex_inverse:
        dft(in, out, c->len, c->dims, c->type == rocfft_transform_type_complex_forward ? -1 : 1, c->len[0], scale);
        return;
    case rocfft_transform_type_real_forward:
    {
        size_t h = c->len[0] / 2 + 1;
        tmp      = (cplx*)calloc(n, sizeof *tmp);
        dft(in, tmp, c->len, c->dims, -1, h, scale);
        for(i = 0; i < n; i++)
            if(i % c->len[0] < h)
                out[(i / c->len[0]) * h + i % c->len[0]] = tmp[i];
        free(tmp);
        return;
    }
    case rocfft_transform_type_real_inverse:
    {
        /* Rebuild the full spectrum from the hermitian half: X[k] = conj(X[-k mod len]). */
        size_t h = c->len[0] / 2 + 1;
        full     = (cplx*)calloc(n, sizeof *full);
        tmp      = (cplx*)calloc(n, sizeof *tmp);
        for(i = 0; i < n; i++)
        {
            size_t k[3] = {0, 0, 0}, t = i, src = 0, mul = 1;
            int    mirror;
            for(d = 0; d < c->dims; d++)
            {
                k[d] = t % c->len[d];
                t /= c->len[d];
            }
            mirror = k[0] >= h;
            for(d = 0; d < c->dims; d++)
            {
                size_t kd = mirror ? (c->len[d] - k[d]) % c->len[d] : k[d];
                src += kd * mul;
                mul *= d == 0 ? h : c->len[d];
            }
            full[i] = in[src];
            if(mirror)
                full[i].im = -full[i].im;
        }
        dft(full, tmp, c->len, c->dims, 1, c->len[0], scale);
        for(i = 0; i < n; i++)
        {
            out[i].re = tmp[i].re;
            out[i].im = 0;
        }
        free(full);
        free(tmp);
        return;
    }
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Running a case                                                                           */
/* ---------------------------------------------------------------------------------------- */

typedef struct
{
    layout_t in, out;
    int      dbl;
    size_t   nscal[2][2]; /* [side][plane] scalars allocated */
    void*    bufs[2][2]; /* [side][plane]; in place the output side aliases the input side */
    size_t   n_in, n_out; /* elements per transform */
} run_t;

static double nan_value(void)
{
    return strtod("nan", NULL);
}

/* Allocates NaN-filled buffers for a case (in place: one set covering both layouts). */
static void alloc_run(const fft_case* c, run_t* r)
{
    int    side, p;
    size_t sz = c->prec == rocfft_precision_double ? sizeof(double) : sizeof(float);
    memset(r, 0, sizeof *r);
    r->in    = resolve(c, 0);
    r->out   = resolve(c, 1);
    r->dbl   = c->prec == rocfft_precision_double;
    r->n_in  = prod(r->in.len, r->in.dims);
    r->n_out = prod(r->out.len, r->out.dims);
    for(p = 0; p < 2; p++)
    {
        r->nscal[0][p] = scalars_needed(&r->in, c->batch, p);
        r->nscal[1][p] = scalars_needed(&r->out, c->batch, p);
        if(c->place == rocfft_placement_inplace)
        {
            if(r->nscal[1][p] > r->nscal[0][p])
                r->nscal[0][p] = r->nscal[1][p];
            r->nscal[1][p] = r->nscal[0][p];
        }
    }
    for(side = 0; side < 2; side++)
        for(p = 0; p < 2; p++)
        {
            size_t i;
            if(!r->nscal[side][p])
                continue;
            if(side == 1 && c->place == rocfft_placement_inplace)
            {
                r->bufs[1][p] = r->bufs[0][p];
                continue;
            }
            r->bufs[side][p] = malloc(r->nscal[side][p] * sz);
            for(i = 0; i < r->nscal[side][p]; i++)
                set_s(r->bufs[side][p], r->dbl, i, nan_value());
        }
}

static void free_run(run_t* r)
{
    int p;
    for(p = 0; p < 2; p++)
    {
        if(r->bufs[1][p] != r->bufs[0][p])
            free(r->bufs[1][p]);
        free(r->bufs[0][p]);
    }
}

/* Creates a description for the case (NULL when it needs none). */
static rocfft_plan_description make_description(const fft_case* c)
{
    rocfft_plan_description desc = NULL;
    if(!c->custom && c->scale == 0)
        return NULL;
    check_status(rocfft_plan_description_create(&desc), rocfft_status_success, "rocfft_plan_description_create");
    if(c->scale != 0)
        check_status(rocfft_plan_description_set_scale_factor(desc, c->scale),
                     rocfft_status_success,
                     "rocfft_plan_description_set_scale_factor");
    if(c->custom)
        check_status(rocfft_plan_description_set_data_layout(desc,
                                                             c->itype,
                                                             c->otype,
                                                             c->ioff,
                                                             c->ooff,
                                                             c->istride_count,
                                                             c->istride_count ? c->istride : NULL,
                                                             c->idist,
                                                             c->ostride_count,
                                                             c->ostride_count ? c->ostride : NULL,
                                                             c->odist),
                     rocfft_status_success,
                     "rocfft_plan_description_set_data_layout");
    return desc;
}

/* rocFFT's cutoffs (see the header comment). */
static double type_epsilon(rocfft_precision p)
{
    return p == rocfft_precision_double ? 1e-15 : 3.75e-5;
}

/* Compares the output of a run against the reference of its (logical) input `x`, and checks that
 * nothing outside the layouts was written. Returns 1 if every check passed. */
static int verify(const fft_case* c, run_t* r, const cplx* x, const char* what, double* ref_linf)
{
    size_t N = prod(c->len, c->dims), b, i;
    cplx*  ref = (cplx*)calloc(r->n_out, sizeof *ref);
    double linf_diff = 0, linf_ref = 0, l2_diff = 0, l2_in = 0, cut_linf, cut_l2;
    int    ok_all = 1, p;
    unsigned char* masks[2];

    for(b = 0; b < c->batch; b++)
    {
        reference(c, x + b * r->n_in, ref, c->scale != 0 ? c->scale : 1.0);
        for(i = 0; i < r->n_out; i++)
        {
            /* As rocFFT: Linf over real and imaginary parts separately. */
            cplx   y  = load(r->bufs[1], r->dbl, &r->out, element_index(&r->out, i, b));
            double dr = fabs(y.re - ref[i].re), di = fabs(y.im - ref[i].im);
            double e  = dr > di ? dr : di;
            double m  = fabs(ref[i].re) > fabs(ref[i].im) ? fabs(ref[i].re) : fabs(ref[i].im);
            if(!(e <= linf_diff) || isnan(dr) || isnan(di)) /* NaN propagates */
                linf_diff = isnan(dr) ? dr : isnan(di) ? di : e;
            if(m > linf_ref)
                linf_ref = m;
            l2_diff += dr * dr + di * di;
        }
        for(i = 0; i < r->n_in; i++)
            l2_in += x[b * r->n_in + i].re * x[b * r->n_in + i].re + x[b * r->n_in + i].im * x[b * r->n_in + i].im;
    }
    l2_diff  = sqrt(l2_diff);
    l2_in    = sqrt(l2_in);
    if(ref_linf)
        *ref_linf = linf_ref;
    cut_linf = type_epsilon(c->prec) * linf_ref * log((double)N);
    cut_l2   = sqrt(log((double)N) / log(2.0)) * type_epsilon(c->prec);
    check(linf_diff <= cut_linf,
          "%s %s: Linf error %.3g <= eps*Linf(ref)*ln N = %.3g",
          c->name,
          what,
          linf_diff,
          cut_linf);
    ok_all &= linf_diff <= cut_linf;
    check(l2_diff / l2_in < cut_l2,
          "%s %s: L2 error / L2(in) %.3g < sqrt(log2 N)*eps = %.3g",
          c->name,
          what,
          l2_diff / l2_in,
          cut_l2);
    ok_all &= l2_diff / l2_in < cut_l2;

    /* Everything outside the layouts (in place: outside both) is still NaN. */
    {
        size_t untouched = 0, stray = 0;
        for(p = 0; p < 2; p++)
            masks[p] = (unsigned char*)calloc(r->nscal[1][p] + 1, 1);
        mark(masks, &r->out, c->batch);
        if(c->place == rocfft_placement_inplace)
            mark(masks, &r->in, c->batch);
        for(p = 0; p < 2; p++)
            for(i = 0; i < r->nscal[1][p]; i++)
                if(!masks[p][i])
                {
                    untouched++;
                    if(!isnan(get_s(r->bufs[1][p], r->dbl, i)))
                        stray++;
                }
        check(stray == 0, "%s %s: %zu buffer elements outside the layouts stay NaN (%zu written)", c->name, what, untouched, stray);
        ok_all &= stray == 0;
        for(p = 0; p < 2; p++)
            free(masks[p]);
    }
    free(ref);
    return ok_all;
}

/* Fills the input of a run and returns its logical values (batch-major, packed). Complex and real
 * inputs get random values per buffer position (so zero strides and overlapping windows read
 * consistent data); hermitian inputs get the exact spectrum of a random real signal. */
static cplx* fill_input(const fft_case* c, run_t* r)
{
    cplx*  x = (cplx*)calloc(r->n_in * c->batch, sizeof *x);
    size_t b, i;
    if(c->type == rocfft_transform_type_real_inverse)
    {
        fft_case fwd = *c;
        size_t   n   = prod(c->len, c->dims);
        cplx*    sig = (cplx*)calloc(n, sizeof *sig);
        fwd.type     = rocfft_transform_type_real_forward;
        for(b = 0; b < c->batch; b++)
        {
            for(i = 0; i < n; i++)
            {
                sig[i].re = rnd();
                sig[i].im = 0;
            }
            reference(&fwd, sig, x + b * r->n_in, 1.0);
            for(i = 0; i < r->n_in; i++)
                store(r->bufs[0], r->dbl, &r->in, element_index(&r->in, i, b), x[b * r->n_in + i]);
        }
        free(sig);
    }
    else
    {
        for(b = 0; b < c->batch; b++)
            for(i = 0; i < r->n_in; i++)
            {
                cplx v;
                v.re = rnd();
                v.im = rnd();
                store(r->bufs[0], r->dbl, &r->in, element_index(&r->in, i, b), v);
            }
    }
    /* Read back what the buffers hold (rounded to the precision, shared positions resolved). */
    for(b = 0; b < c->batch; b++)
        for(i = 0; i < r->n_in; i++)
            x[b * r->n_in + i] = load(r->bufs[0], r->dbl, &r->in, element_index(&r->in, i, b));
    return x;
}

/* Creates the plan of a case, or reports why not. */
static rocfft_plan make_plan(const fft_case* c)
{
    rocfft_plan             plan = NULL;
    rocfft_plan_description desc = make_description(c);
    rocfft_status           s
        = rocfft_plan_create(&plan, c->place, c->type, c->prec, c->dims, c->len, c->batch, desc);
    check(s == rocfft_status_success, "%s: rocfft_plan_create -> %s", c->name, status_name(s));
    rocfft_plan_description_destroy(desc);
    return s == rocfft_status_success ? plan : NULL;
}

static int execute_run(rocfft_plan plan, const fft_case* c, run_t* r, rocfft_execution_info info, const char* what)
{
    rocfft_status s = rocfft_execute(plan, r->bufs[0], c->place == rocfft_placement_inplace ? NULL : r->bufs[1], info);
    check(s == rocfft_status_success, "%s %s: rocfft_execute -> %s", c->name, what, status_name(s));
    return s == rocfft_status_success;
}

/* Runs one case: plan, poisoned buffers, execute, compare. */
static void run_case(const fft_case* c, rocfft_execution_info info)
{
    run_t       r;
    cplx*       x;
    rocfft_plan plan = make_plan(c);
    if(!plan)
        return;
    alloc_run(c, &r);
    x = fill_input(c, &r);
    if(execute_run(plan, c, &r, info, "execute"))
        verify(c, &r, x, "result", NULL);
    free(x);
    free_run(&r);
    rocfft_plan_destroy(plan);
}

/* A real forward transform, then the inverse of its output with scale 1/N: each transform is
 * checked against the reference of its actual input (the inverse's is the forward's output), and
 * the round trip against the original signal. */
static void round_trip(const fft_case* fwd)
{
    fft_case    inv = *fwd;
    run_t       rf, ri;
    cplx *      x, *y;
    size_t      b, i, N = prod(fwd->len, fwd->dims);
    rocfft_plan pf, pi;
    double      linf_x = 0, linf_X = 0, linf_err = 0, cutoff;

    inv.type  = rocfft_transform_type_real_inverse;
    inv.scale = 1.0 / (double)N;
    inv.name  = fwd->name;
    if(fwd->custom)
    {
        inv.itype         = fwd->otype;
        inv.otype         = fwd->itype;
        inv.ioff[0]       = fwd->ooff[0];
        inv.ioff[1]       = fwd->ooff[1];
        inv.ooff[0]       = fwd->ioff[0];
        inv.ooff[1]       = fwd->ioff[1];
        inv.istride_count = fwd->ostride_count;
        inv.ostride_count = fwd->istride_count;
        memcpy(inv.istride, fwd->ostride, sizeof inv.istride);
        memcpy(inv.ostride, fwd->istride, sizeof inv.ostride);
        inv.idist = fwd->odist;
        inv.odist = fwd->idist;
    }
    pf = make_plan(fwd);
    pi = make_plan(&inv);
    if(!pf || !pi)
    {
        rocfft_plan_destroy(pf);
        rocfft_plan_destroy(pi);
        return;
    }
    alloc_run(fwd, &rf);
    x = fill_input(fwd, &rf);
    if(!execute_run(pf, fwd, &rf, NULL, "forward") || !verify(fwd, &rf, x, "forward", &linf_X))
    {
        free(x);
        free_run(&rf);
        rocfft_plan_destroy(pf);
        rocfft_plan_destroy(pi);
        return;
    }
    /* The inverse reads the forward's output where it is (in place: the same buffer). */
    alloc_run(&inv, &ri);
    y = (cplx*)calloc(ri.n_in * inv.batch, sizeof *y);
    for(b = 0; b < inv.batch; b++)
        for(i = 0; i < ri.n_in; i++)
        {
            y[b * ri.n_in + i] = load(rf.bufs[1], rf.dbl, &rf.out, element_index(&rf.out, i, b));
            store(ri.bufs[0], ri.dbl, &ri.in, element_index(&ri.in, i, b), y[b * ri.n_in + i]);
        }
    if(execute_run(pi, &inv, &ri, NULL, "inverse") && verify(&inv, &ri, y, "inverse (scale 1/N)", NULL))
    {
        /* Round trip. The forward's error e (Linf <= eps ln N Linf(X), X its exact output) reaches
         * the inverse's output divided by N over N terms, so by at most Linf(e); the inverse adds
         * at most eps ln N Linf(x + inv(e)/N). In all, within eps ln N (Linf(X) + Linf(x)) of x
         * (to first order). */
        for(b = 0; b < fwd->batch; b++)
            for(i = 0; i < N; i++)
            {
                double xv = x[b * N + i].re;
                double e = fabs(load(ri.bufs[1], ri.dbl, &ri.out, element_index(&ri.out, i, b)).re - xv);
                if(fabs(xv) > linf_x)
                    linf_x = fabs(xv);
                if(!(e <= linf_err))
                    linf_err = e;
            }
        cutoff = type_epsilon(fwd->prec) * log((double)N) * (linf_X + linf_x);
        check(linf_err <= cutoff, "%s round trip: Linf |x - inv(fwd(x))/N| %.3g <= %.3g", fwd->name, linf_err, cutoff);
    }
    free(y);
    free(x);
    free_run(&ri);
    free_run(&rf);
    rocfft_plan_destroy(pf);
    rocfft_plan_destroy(pi);
}

/* ---------------------------------------------------------------------------------------- */
/* Valid transforms                                                                          */
/* ---------------------------------------------------------------------------------------- */

static fft_case simple(const char* name, rocfft_result_placement place, rocfft_transform_type type, rocfft_precision prec, size_t dims, size_t l0, size_t l1, size_t l2, size_t batch)
{
    fft_case c;
    memset(&c, 0, sizeof c);
    c.name   = name;
    c.place  = place;
    c.type   = type;
    c.prec   = prec;
    c.dims   = dims;
    c.len[0] = l0;
    c.len[1] = l1;
    c.len[2] = l2;
    c.batch  = batch;
    c.itype = c.otype = rocfft_array_type_unset;
    return c;
}

static void test_transforms(void)
{
    const rocfft_result_placement IP = rocfft_placement_inplace, OP = rocfft_placement_notinplace;
    const rocfft_transform_type   CF = rocfft_transform_type_complex_forward,
                                CI = rocfft_transform_type_complex_inverse,
                                RF = rocfft_transform_type_real_forward,
                                RI = rocfft_transform_type_real_inverse;
    const rocfft_precision S = rocfft_precision_single, D = rocfft_precision_double;
    fft_case               c;

    c = simple("c2c fwd 1D single N=16 batch 3 out-of-place", OP, CF, S, 1, 16, 1, 1, 3);
    run_case(&c, NULL);
    c = simple("c2c fwd 1D double N=7 (prime) batch 2 out-of-place", OP, CF, D, 1, 7, 1, 1, 2);
    run_case(&c, NULL);
    c       = simple("c2c inv 1D double N=12 batch 2 in-place scale 0.5", IP, CI, D, 1, 12, 1, 1, 2);
    c.scale = 0.5;
    run_case(&c, NULL);
    c = simple("c2c fwd 2D single 8x6 batch 2 out-of-place", OP, CF, S, 2, 8, 6, 1, 2);
    run_case(&c, NULL);
    c = simple("c2c inv 2D double 5x4 in-place", IP, CI, D, 2, 5, 4, 1, 1);
    run_case(&c, NULL);
    c = simple("c2c fwd 3D double 4x3x5 in-place", IP, CF, D, 3, 4, 3, 5, 1);
    run_case(&c, NULL);
    c = simple("c2c fwd 2D single 6x1 (unit dimension)", OP, CF, S, 2, 6, 1, 1, 2);
    run_case(&c, NULL);

    /* Real transforms: forward, then inverse with scale 1/N on the forward's output. */
    c = simple("real 1D double N=10 batch 2 out-of-place", OP, RF, D, 1, 10, 1, 1, 2);
    round_trip(&c);
    c = simple("real 1D single N=9 (odd) in-place", IP, RF, S, 1, 9, 1, 1, 3);
    round_trip(&c);
    c = simple("real 2D single 6x4 batch 2 in-place (padded rows)", IP, RF, S, 2, 6, 4, 1, 2);
    round_trip(&c);
    c = simple("real 3D double 5x2x3 out-of-place", OP, RF, D, 3, 5, 2, 3, 1);
    round_trip(&c);
    c = simple("c2r 2D double 7x3 batch 2 out-of-place", OP, RI, D, 2, 7, 3, 1, 2);
    run_case(&c, NULL);

    /* Planar arrays. */
    c       = simple("c2c fwd 1D single N=9 planar -> planar", OP, CF, S, 1, 9, 1, 1, 2);
    c.custom = 1;
    c.itype = c.otype = rocfft_array_type_complex_planar;
    run_case(&c, NULL);
    c        = simple("c2c inv 2D double 4x3 planar in-place", IP, CI, D, 2, 4, 3, 1, 2);
    c.custom = 1;
    c.itype = c.otype = rocfft_array_type_complex_planar;
    run_case(&c, NULL);
    c        = simple("c2c fwd 1D double N=8 interleaved -> planar", OP, CF, D, 1, 8, 1, 1, 1);
    c.custom = 1;
    c.itype  = rocfft_array_type_complex_interleaved;
    c.otype  = rocfft_array_type_complex_planar;
    run_case(&c, NULL);
    c        = simple("real 1D double N=8 hermitian planar", OP, RF, D, 1, 8, 1, 1, 2);
    c.custom = 1;
    c.itype  = rocfft_array_type_real;
    c.otype  = rocfft_array_type_hermitian_planar;
    round_trip(&c);

    /* Descriptions with strides, distances and offsets. */
    c                = simple("c2c fwd 2D double 5x4 strided+offset in, transposed planar out", OP, CF, D, 2, 5, 4, 1, 2);
    c.custom         = 1;
    c.itype          = rocfft_array_type_complex_interleaved;
    c.otype          = rocfft_array_type_complex_planar;
    c.ioff[0]        = 3;
    c.istride_count  = 2;
    c.istride[0]     = 2;
    c.istride[1]     = 12;
    c.idist          = 52;
    c.ooff[0]        = 1;
    c.ooff[1]        = 2;
    c.ostride_count  = 2;
    c.ostride[0]     = 4;
    c.ostride[1]     = 1;
    c.odist          = 23;
    run_case(&c, NULL);
    c               = simple("real 1D single N=11 batch 3 strided, offsets", OP, RF, S, 1, 11, 1, 1, 3);
    c.custom        = 1;
    c.itype         = rocfft_array_type_real;
    c.otype         = rocfft_array_type_hermitian_interleaved;
    c.ioff[0]       = 2;
    c.istride_count = 1;
    c.istride[0]    = 1;
    c.idist         = 13;
    c.ooff[0]       = 1;
    c.ostride_count = 1;
    c.ostride[0]    = 2;
    c.odist         = 15;
    round_trip(&c);
    c               = simple("c2c fwd 1D double N=8 batch 2 in-place, equal strided layouts", IP, CF, D, 1, 8, 1, 1, 2);
    c.custom        = 1;
    c.itype = c.otype = rocfft_array_type_complex_interleaved;
    c.ioff[0] = c.ooff[0] = 1;
    c.istride_count = c.ostride_count = 1;
    c.istride[0] = c.ostride[0] = 2;
    c.idist = c.odist = 20;
    run_case(&c, NULL);
    c               = simple("c2c fwd 2D single 4x3 zero input stride (rows repeated)", OP, CF, S, 2, 4, 3, 1, 1);
    c.custom        = 1;
    c.itype = c.otype = rocfft_array_type_unset;
    c.istride_count = 2;
    c.istride[0]    = 1;
    c.istride[1]    = 0;
    run_case(&c, NULL);
    c          = simple("c2c fwd 1D double N=8 batch 4 overlapping input windows (distance 3)", OP, CF, D, 1, 8, 1, 1, 4);
    c.custom   = 1;
    c.itype = c.otype = rocfft_array_type_unset;
    c.idist    = 3;
    run_case(&c, NULL);
}

/* ---------------------------------------------------------------------------------------- */
/* Work buffer, stream, print, version                                                       */
/* ---------------------------------------------------------------------------------------- */

static void test_execution_info(void)
{
    fft_case              c = simple("c2c fwd 1D single N=16 with execution info", rocfft_placement_notinplace, rocfft_transform_type_complex_forward, rocfft_precision_single, 1, 16, 1, 1, 2);
    rocfft_plan           plan = make_plan(&c);
    rocfft_execution_info info = NULL;
    size_t                work = 12345;
    void*                 wbuf;
    run_t                 r;
    cplx*                 x;
    if(!plan)
        return;
    check_status(rocfft_plan_get_work_buffer_size(plan, &work), rocfft_status_success, "rocfft_plan_get_work_buffer_size");
    check(work == 0, "the CPU device needs no work buffer (size %zu)", work);
    check_status(rocfft_execution_info_create(&info), rocfft_status_success, "rocfft_execution_info_create");
    wbuf = malloc(work + 64);
    check_status(rocfft_execution_info_set_work_buffer(info, wbuf, work + 64), rocfft_status_success, "rocfft_execution_info_set_work_buffer");
    check_status(rocfft_execution_info_set_work_buffer(info, NULL, 16), rocfft_status_invalid_work_buffer, "set_work_buffer(NULL, 16)");
    check_status(rocfft_execution_info_set_stream(info, NULL), rocfft_status_success, "rocfft_execution_info_set_stream(default stream)");
    check_status(rocfft_execution_info_set_load_callback(info, NULL, NULL, 0), rocfft_status_success, "set_load_callback(NULL): clearing");
    check_status(rocfft_execution_info_set_store_callback(info, NULL, NULL, 0), rocfft_status_success, "set_store_callback(NULL): clearing");
    alloc_run(&c, &r);
    x = fill_input(&c, &r);
    if(execute_run(plan, &c, &r, info, "with work buffer and stream"))
        verify(&c, &r, x, "with work buffer and stream", NULL);
    free(x);
    free_run(&r);

    /* A work buffer smaller than the plan needs. */
    if(work == 0)
        skip("work buffer smaller than needed -> invalid_work_buffer: the plan needs none on this device");
    else
    {
        float  in[32], out[32];
        void * ib[1] = {in}, *ob[1] = {out};
        size_t i;
        for(i = 0; i < 32; i++)
        {
            in[i]  = 1.0f;
            out[i] = nan_value();
        }
        check_status(rocfft_execution_info_set_work_buffer(info, wbuf, work - 1), rocfft_status_success, "set_work_buffer(size - 1)");
        check_status(rocfft_execute(plan, ib, ob, info), rocfft_status_invalid_work_buffer, "rocfft_execute with a short work buffer");
        for(i = 0; i < 32 && isnan(out[i]); i++)
            ;
        check(i == 32, "short work buffer: output untouched");
    }
    check_status(rocfft_execution_info_set_work_buffer(info, NULL, 0), rocfft_status_success, "set_work_buffer(NULL, 0): clearing");
    fflush(stdout);
    check_status(rocfft_plan_get_print(plan), rocfft_status_success, "rocfft_plan_get_print");
    check_status(rocfft_execution_info_destroy(info), rocfft_status_success, "rocfft_execution_info_destroy");
    check_status(rocfft_plan_destroy(plan), rocfft_status_success, "rocfft_plan_destroy");
    free(wbuf);
}

static void test_version(void)
{
    char   buf[64];
    size_t i, n;
    memset(buf, 'x', sizeof buf);
    check_status(rocfft_get_version_string(NULL, 64), rocfft_status_failure, "rocfft_get_version_string(NULL)");
    check_status(rocfft_get_version_string(buf, 5), rocfft_status_invalid_arg_value, "rocfft_get_version_string(len 5)");
    for(i = 0; i < sizeof buf && buf[i] == 'x'; i++)
        ;
    check(i == sizeof buf, "short version buffer untouched");
    check_status(rocfft_get_version_string(buf, 30), rocfft_status_success, "rocfft_get_version_string(len 30)");
    n = strlen(buf);
    check(strncmp(buf, "rocmath-fft ", 12) == 0 && n > 12 && n < 30, "version string \"%s\"", buf);
    check_status(rocfft_get_version_string(buf, n), rocfft_status_invalid_arg_value, "len = strlen (no room for NUL)");
    check_status(rocfft_get_version_string(buf, n + 1), rocfft_status_success, "len = strlen + 1");
}

/* ---------------------------------------------------------------------------------------- */
/* Bad arguments                                                                             */
/* ---------------------------------------------------------------------------------------- */

#define SENTINEL ((rocfft_plan)(uintptr_t)0x5eed)

/* rocfft_plan_create with a description made by set_data_layout (NULL strides when count is 0);
 * checks the status and that *plan kept its sentinel. */
static void bad_plan(const char*             what,
                     rocfft_status           want,
                     rocfft_result_placement place,
                     rocfft_transform_type   type,
                     size_t                  dims,
                     const size_t*           len,
                     size_t                  batch,
                     rocfft_plan_description desc)
{
    rocfft_plan plan = SENTINEL;
    check_status(rocfft_plan_create(&plan, place, type, rocfft_precision_single, dims, len, batch, desc), want, what);
    if(want == rocfft_status_success)
    {
        check(plan != SENTINEL, "%s: plan written", what);
        if(plan != SENTINEL)
            rocfft_plan_destroy(plan);
    }
    else
        check(plan == SENTINEL, "%s: plan out-parameter untouched", what);
}

static rocfft_plan_description layout_desc(rocfft_array_type it,
                                           rocfft_array_type ot,
                                           const size_t*     ioff,
                                           const size_t*     ooff,
                                           size_t            nis,
                                           const size_t*     is,
                                           size_t            idist,
                                           size_t            nos,
                                           const size_t*     os,
                                           size_t            odist)
{
    rocfft_plan_description d = NULL;
    rocfft_plan_description_create(&d);
    check_status(rocfft_plan_description_set_data_layout(d, it, ot, ioff, ooff, nis, is, idist, nos, os, odist),
                 rocfft_status_success,
                 "set_data_layout records anything");
    return d;
}

static void test_bad_plan_create(void)
{
    const rocfft_result_placement IP = rocfft_placement_inplace, OP = rocfft_placement_notinplace;
    const rocfft_transform_type   CF = rocfft_transform_type_complex_forward,
                                RF = rocfft_transform_type_real_forward,
                                RI = rocfft_transform_type_real_inverse;
    const rocfft_array_type CIL = rocfft_array_type_complex_interleaved,
                            CPL = rocfft_array_type_complex_planar, REAL = rocfft_array_type_real,
                            HIL = rocfft_array_type_hermitian_interleaved,
                            HPL = rocfft_array_type_hermitian_planar, UNSET = rocfft_array_type_unset;
    size_t                  len1[1] = {8}, len2[2] = {8, 4}, len3[3] = {4, 4, 4}, zero[2] = {8, 0};
    size_t                  s1[1] = {1}, s2[2] = {1, 8}, s2b[2] = {2, 16}, s0[2] = {0, 8}, s5[5] = {1, 2, 3, 4, 5};
    size_t                  off1[2] = {1, 0};
    rocfft_plan             plan    = SENTINEL;
    rocfft_plan_description d;
    rocfft_field            field = NULL;
    rocfft_brick            brick = NULL;
    size_t                  lo[3] = {0, 0, 0}, hi[3] = {8, 4, 1}, st[3] = {1, 8, 32};

    check_status(rocfft_plan_create(NULL, OP, CF, rocfft_precision_single, 1, len1, 1, NULL), rocfft_status_invalid_arg_value, "plan_create(plan NULL)");
    bad_plan("plan_create(lengths NULL)", rocfft_status_invalid_arg_value, OP, CF, 1, NULL, 1, NULL);
    bad_plan("dimensions 0", rocfft_status_invalid_dimensions, OP, CF, 0, len1, 1, NULL);
    bad_plan("dimensions 4", rocfft_status_invalid_dimensions, OP, CF, 4, len3, 1, NULL);
    bad_plan("a zero length", rocfft_status_failure, OP, CF, 2, zero, 1, NULL);
    bad_plan("zero transforms", rocfft_status_failure, OP, CF, 1, len1, 0, NULL);
    bad_plan("zero length in place", rocfft_status_failure, IP, CF, 2, zero, 1, NULL);
    bad_plan("placement 2 (outside the enum)", rocfft_status_invalid_arg_value, (rocfft_result_placement)2, CF, 1, len1, 1, NULL);
    bad_plan("transform type 4 (outside the enum)", rocfft_status_failure, OP, (rocfft_transform_type)4, 1, len1, 1, NULL);
    check_status(rocfft_plan_create(&plan, OP, CF, (rocfft_precision)3, 1, len1, 1, NULL), rocfft_status_invalid_arg_value, "precision 3 (outside the enum)");
    check(plan == SENTINEL, "precision 3: plan out-parameter untouched");

    /* Array types. */
    bad_plan("c2c with real input", rocfft_status_invalid_array_type, OP, CF, 1, len1, 1, d = layout_desc(REAL, CIL, NULL, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("c2c with hermitian output", rocfft_status_invalid_array_type, OP, CF, 1, len1, 1, d = layout_desc(CIL, HIL, NULL, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("r2c with complex input", rocfft_status_invalid_array_type, OP, RF, 1, len1, 1, d = layout_desc(CIL, HIL, NULL, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("r2c with complex output", rocfft_status_invalid_array_type, OP, RF, 1, len1, 1, d = layout_desc(REAL, CIL, NULL, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("c2r with real input", rocfft_status_invalid_array_type, OP, RI, 1, len1, 1, d = layout_desc(REAL, REAL, NULL, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("c2c in place, planar in, interleaved out", rocfft_status_invalid_array_type, IP, CF, 1, len1, 1, d = layout_desc(CPL, CIL, NULL, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("r2c in place, hermitian planar out", rocfft_status_invalid_array_type, IP, RF, 1, len1, 1, d = layout_desc(REAL, HPL, NULL, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("c2r in place, hermitian planar in", rocfft_status_invalid_array_type, IP, RI, 1, len1, 1, d = layout_desc(HPL, REAL, NULL, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("array type 9 (outside the enum)", rocfft_status_invalid_array_type, OP, CF, 1, len1, 1, d = layout_desc((rocfft_array_type)9, CIL, NULL, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("array type -1 on a real output", rocfft_status_invalid_array_type, OP, RI, 1, len1, 1, d = layout_desc(HIL, (rocfft_array_type)-1, NULL, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);

    /* Strides counts (checked before array types, as rocFFT). */
    bad_plan("2 input strides for 1D", rocfft_status_invalid_strides, OP, CF, 1, len1, 1, d = layout_desc(UNSET, UNSET, NULL, NULL, 2, s2, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("1 output stride for 2D", rocfft_status_invalid_strides, OP, CF, 2, len2, 1, d = layout_desc(UNSET, UNSET, NULL, NULL, 0, NULL, 0, 1, s1, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("5 input strides", rocfft_status_invalid_strides, OP, CF, 1, len1, 1, d = layout_desc(UNSET, UNSET, NULL, NULL, 5, s5, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("stride count before array type", rocfft_status_invalid_strides, OP, CF, 1, len1, 1, d = layout_desc(REAL, CIL, NULL, NULL, 2, s2, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("stride count before a bad transform type", rocfft_status_invalid_strides, OP, (rocfft_transform_type)7, 1, len1, 1, d = layout_desc(UNSET, UNSET, NULL, NULL, 2, s2, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);

    /* In place: the output layout must be the input's (complex) or its counterpart (real). */
    bad_plan("c2c in place, strided input, default output", rocfft_status_failure, IP, CF, 2, len2, 1, d = layout_desc(UNSET, UNSET, NULL, NULL, 2, s2b, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("c2c in place, distances differ", rocfft_status_failure, IP, CF, 1, len1, 2, d = layout_desc(UNSET, UNSET, NULL, NULL, 0, NULL, 10, 0, NULL, 9));
    rocfft_plan_description_destroy(d);
    bad_plan("c2c in place, offsets differ", rocfft_status_failure, IP, CF, 1, len1, 1, d = layout_desc(UNSET, UNSET, off1, NULL, 0, NULL, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("r2c in place, input fastest stride 2", rocfft_status_failure, IP, RF, 1, len1, 1, d = layout_desc(UNSET, UNSET, NULL, NULL, 1, s2b, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("r2c in place, unpadded real rows", rocfft_status_failure, IP, RF, 2, len2, 1, d = layout_desc(UNSET, UNSET, NULL, NULL, 2, s2, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("c2c in place, equal explicit layouts", rocfft_status_success, IP, CF, 2, len2, 1, d = layout_desc(UNSET, UNSET, NULL, NULL, 2, s2b, 0, 2, s2b, 0));
    rocfft_plan_description_destroy(d);

    /* Ours: distinct outputs may not share memory (rocFFT does not check). */
    bad_plan("zero output stride", rocfft_status_invalid_strides, OP, CF, 2, len2, 1, d = layout_desc(UNSET, UNSET, NULL, NULL, 0, NULL, 0, 2, s0, 0));
    rocfft_plan_description_destroy(d);
    bad_plan("output distance inside a transform", rocfft_status_invalid_distance, OP, CF, 1, len1, 2, d = layout_desc(UNSET, UNSET, NULL, NULL, 0, NULL, 0, 0, NULL, 4));
    rocfft_plan_description_destroy(d);
    bad_plan("zero input stride out of place is accepted", rocfft_status_success, OP, CF, 2, len2, 1, d = layout_desc(UNSET, UNSET, NULL, NULL, 2, s0, 0, 0, NULL, 0));
    rocfft_plan_description_destroy(d);

    /* Fields: recorded, but distributed plans are not supported. */
    check_status(rocfft_field_create(&field), rocfft_status_success, "rocfft_field_create");
    check_status(rocfft_brick_create(&brick, lo, hi, st, 3, 0), rocfft_status_success, "rocfft_brick_create");
    check_status(rocfft_field_add_brick(field, brick), rocfft_status_success, "rocfft_field_add_brick");
    d = NULL;
    rocfft_plan_description_create(&d);
    check_status(rocfft_plan_description_add_infield(d, field), rocfft_status_success, "rocfft_plan_description_add_infield");
    check_status(rocfft_plan_description_add_outfield(d, field), rocfft_status_success, "rocfft_plan_description_add_outfield");
    bad_plan("a description with fields", rocfft_status_failure, OP, CF, 2, len2, 1, d);
    rocfft_plan_description_destroy(d);
    check_status(rocfft_brick_destroy(brick), rocfft_status_success, "rocfft_brick_destroy");
    check_status(rocfft_field_destroy(field), rocfft_status_success, "rocfft_field_destroy");
}

static void test_bad_objects(void)
{
    rocfft_plan_description desc = NULL;
    rocfft_execution_info   info = NULL;
    rocfft_field            field = NULL;
    rocfft_brick            brick = (rocfft_brick)(uintptr_t)0xb1c, b2 = NULL;
    size_t                  lo[2] = {0, 0}, hi[2] = {8, 1}, lo_bad[2] = {9, 0}, st[2] = {1, 8};
    size_t                  lo3[3] = {0, 0, 0}, hi3[3] = {8, 4, 1}, st3[3] = {1, 8, 32};
    int                     mpi_comm_standin = 0;
    void*                   cb[1] = {(void*)&mpi_comm_standin};
    void*                   buf   = (void*)(uintptr_t)0xcafe;
    size_t                  len   = 777;

    check_status(rocfft_plan_description_create(NULL), rocfft_status_invalid_arg_value, "plan_description_create(NULL)");
    check_status(rocfft_plan_description_destroy(NULL), rocfft_status_success, "plan_description_destroy(NULL)");
    check_status(rocfft_plan_description_set_scale_factor(NULL, 1.0), rocfft_status_invalid_arg_value, "set_scale_factor(NULL)");
    check_status(rocfft_plan_description_set_data_layout(NULL, rocfft_array_type_unset, rocfft_array_type_unset, NULL, NULL, 0, NULL, 0, 0, NULL, 0),
                 rocfft_status_invalid_arg_value,
                 "set_data_layout(NULL)");
    check_status(rocfft_plan_description_create(&desc), rocfft_status_success, "rocfft_plan_description_create");
    check_status(rocfft_plan_description_set_scale_factor(desc, nan_value()), rocfft_status_invalid_arg_value, "set_scale_factor(NaN)");
    check_status(rocfft_plan_description_set_scale_factor(desc, HUGE_VAL), rocfft_status_invalid_arg_value, "set_scale_factor(inf)");
    check_status(rocfft_plan_description_set_scale_factor(desc, -HUGE_VAL), rocfft_status_invalid_arg_value, "set_scale_factor(-inf)");
    check_status(rocfft_plan_description_set_comm(NULL, rocfft_comm_none, NULL), rocfft_status_invalid_arg_value, "set_comm(NULL description)");
    check_status(rocfft_plan_description_set_comm(desc, rocfft_comm_mpi, NULL), rocfft_status_invalid_arg_value, "set_comm(mpi, NULL handle)");
    check_status(rocfft_plan_description_set_comm(desc, rocfft_comm_mpi, &mpi_comm_standin), rocfft_status_failure, "set_comm(mpi): not supported");
    check_status(rocfft_plan_description_set_comm(desc, (rocfft_comm_type)7, &mpi_comm_standin), rocfft_status_failure, "set_comm(type 7)");
    check_status(rocfft_plan_description_set_comm(desc, rocfft_comm_none, NULL), rocfft_status_success, "set_comm(none)");
    check_status(rocfft_plan_description_add_infield(desc, NULL), rocfft_status_invalid_arg_value, "add_infield(field NULL)");
    check_status(rocfft_plan_description_add_outfield(NULL, NULL), rocfft_status_invalid_arg_value, "add_outfield(NULL)");

    /* The scale factor is unchanged by a rejected value: a plan with scale 2 then NaN scales by 2. */
    {
        fft_case c = simple("scale 2 kept after set_scale_factor(NaN)", rocfft_placement_notinplace, rocfft_transform_type_complex_forward, rocfft_precision_double, 1, 6, 1, 1, 1);
        rocfft_plan p = NULL;
        run_t       r;
        cplx*       x;
        rocfft_plan_description d2 = NULL;
        rocfft_plan_description_create(&d2);
        rocfft_plan_description_set_scale_factor(d2, 2.0);
        rocfft_plan_description_set_scale_factor(d2, nan_value());
        c.scale = 2.0; /* what the reference must apply */
        check_status(rocfft_plan_create(&p, c.place, c.type, c.prec, 1, c.len, 1, d2), rocfft_status_success, c.name);
        rocfft_plan_description_destroy(d2);
        if(p)
        {
            alloc_run(&c, &r);
            x = fill_input(&c, &r);
            if(execute_run(p, &c, &r, NULL, "execute"))
                verify(&c, &r, x, "result", NULL);
            free(x);
            free_run(&r);
            rocfft_plan_destroy(p);
        }
    }
    rocfft_plan_description_destroy(desc);

    check_status(rocfft_execution_info_create(NULL), rocfft_status_invalid_arg_value, "execution_info_create(NULL)");
    check_status(rocfft_execution_info_destroy(NULL), rocfft_status_success, "execution_info_destroy(NULL)");
    check_status(rocfft_execution_info_set_work_buffer(NULL, buf, 16), rocfft_status_invalid_arg_value, "set_work_buffer(info NULL)");
    check_status(rocfft_execution_info_set_stream(NULL, NULL), rocfft_status_invalid_arg_value, "set_stream(info NULL)");
    check_status(rocfft_execution_info_set_load_callback(NULL, NULL, NULL, 0), rocfft_status_invalid_arg_value, "set_load_callback(info NULL)");
    check_status(rocfft_execution_info_set_store_callback(NULL, NULL, NULL, 0), rocfft_status_invalid_arg_value, "set_store_callback(info NULL)");
    check_status(rocfft_execution_info_create(&info), rocfft_status_success, "rocfft_execution_info_create");
    check_status(rocfft_execution_info_set_load_callback(info, cb, NULL, 64), rocfft_status_invalid_arg_value, "set_load_callback(shared memory 64)");
    check_status(rocfft_execution_info_set_store_callback(info, NULL, NULL, 8), rocfft_status_invalid_arg_value, "set_store_callback(shared memory 8)");
    check_status(rocfft_execution_info_set_load_callback(info, cb, NULL, 0), rocfft_status_failure, "set_load_callback: not supported");
    check_status(rocfft_execution_info_set_store_callback(info, cb, cb, 0), rocfft_status_failure, "set_store_callback: not supported");
    check_status(rocfft_execution_info_destroy(info), rocfft_status_success, "rocfft_execution_info_destroy");

    check_status(rocfft_field_create(NULL), rocfft_status_invalid_arg_value, "field_create(NULL)");
    check_status(rocfft_field_destroy(NULL), rocfft_status_success, "field_destroy(NULL)");
    check_status(rocfft_brick_destroy(NULL), rocfft_status_success, "brick_destroy(NULL)");
    check_status(rocfft_brick_create(NULL, lo, hi, st, 2, 0), rocfft_status_invalid_arg_value, "brick_create(brick NULL)");
    check_status(rocfft_brick_create(&brick, lo, hi, st, 1, 0), rocfft_status_invalid_dimensions, "brick_create(dim 1)");
    check_status(rocfft_brick_create(&brick, lo, hi, st, 5, 0), rocfft_status_invalid_dimensions, "brick_create(dim 5)");
    check_status(rocfft_brick_create(&brick, NULL, hi, st, 2, 0), rocfft_status_invalid_arg_value, "brick_create(lower NULL)");
    check_status(rocfft_brick_create(&brick, lo_bad, hi, st, 2, 0), rocfft_status_failure, "brick_create(lower > upper)");
    check(brick == (rocfft_brick)(uintptr_t)0xb1c, "failed brick_create: out-parameter untouched");
    check_status(rocfft_brick_create(&b2, lo, hi, st, 2, 0), rocfft_status_success, "brick_create(2D)");
    check_status(rocfft_field_create(&field), rocfft_status_success, "rocfft_field_create");
    check_status(rocfft_field_add_brick(NULL, b2), rocfft_status_invalid_arg_value, "field_add_brick(field NULL)");
    check_status(rocfft_field_add_brick(field, NULL), rocfft_status_invalid_arg_value, "field_add_brick(brick NULL)");
    check_status(rocfft_field_add_brick(field, b2), rocfft_status_success, "field_add_brick");
    rocfft_brick_destroy(b2);
    b2 = NULL;
    check_status(rocfft_brick_create(&b2, lo3, hi3, st3, 3, 0), rocfft_status_success, "brick_create(3D)");
    check_status(rocfft_field_add_brick(field, b2), rocfft_status_failure, "field_add_brick(other dimension count)");
    rocfft_brick_destroy(b2);
    rocfft_field_destroy(field);

    check_status(rocfft_cache_serialize(NULL, &len), rocfft_status_invalid_arg_value, "cache_serialize(buffer NULL)");
    check_status(rocfft_cache_serialize(&buf, NULL), rocfft_status_invalid_arg_value, "cache_serialize(len NULL)");
    check_status(rocfft_cache_serialize(&buf, &len), rocfft_status_failure, "cache_serialize: not supported");
    check(buf == (void*)(uintptr_t)0xcafe && len == 777, "cache_serialize: nothing written");
    check_status(rocfft_cache_buffer_free(NULL), rocfft_status_success, "cache_buffer_free(NULL)");
    check_status(rocfft_cache_buffer_free(buf), rocfft_status_invalid_arg_value, "cache_buffer_free(not ours)");
    check_status(rocfft_cache_deserialize(NULL, 12), rocfft_status_invalid_arg_value, "cache_deserialize(NULL)");
    check_status(rocfft_cache_deserialize(&len, 0), rocfft_status_invalid_arg_value, "cache_deserialize(length 0)");
    check_status(rocfft_cache_deserialize(&len, sizeof len), rocfft_status_failure, "cache_deserialize: not supported");
}

static void test_bad_execute(void)
{
    size_t      n = 8, size = 4242;
    rocfft_plan plan = NULL;
    float       in[16], out[16];
    void *      ib[1] = {in}, *ob[1] = {out}, *nullp[1] = {NULL};
    size_t      i;
    int         untouched;
    for(i = 0; i < 16; i++)
    {
        in[i]  = (float)i;
        out[i] = nan_value();
    }
    check_status(rocfft_plan_create(&plan, rocfft_placement_notinplace, rocfft_transform_type_complex_forward, rocfft_precision_single, 1, &n, 1, NULL),
                 rocfft_status_success,
                 "plan for bad executions");
    if(!plan)
        return;
    check_status(rocfft_execute(NULL, ib, ob, NULL), rocfft_status_failure, "execute(plan NULL)");
    check_status(rocfft_execute(plan, NULL, ob, NULL), rocfft_status_invalid_arg_value, "execute(in_buffer NULL)");
    check_status(rocfft_execute(plan, ib, NULL, NULL), rocfft_status_invalid_arg_value, "execute(out_buffer NULL) out of place");
    check_status(rocfft_execute(plan, nullp, ob, NULL), rocfft_status_invalid_arg_value, "execute(in_buffer[0] NULL)");
    check_status(rocfft_execute(plan, ib, nullp, NULL), rocfft_status_invalid_arg_value, "execute(out_buffer[0] NULL)");
    for(untouched = 1, i = 0; i < 16; i++)
        untouched &= isnan(out[i]) && in[i] == (float)i;
    check(untouched, "failed executions wrote nothing");
    check_status(rocfft_plan_get_work_buffer_size(NULL, &size), rocfft_status_failure, "get_work_buffer_size(plan NULL)");
    check(size == 4242, "get_work_buffer_size(plan NULL): size untouched");
    check_status(rocfft_plan_get_work_buffer_size(plan, NULL), rocfft_status_invalid_arg_value, "get_work_buffer_size(size NULL)");
    check_status(rocfft_plan_get_print(NULL), rocfft_status_failure, "plan_get_print(NULL)");
    check_status(rocfft_plan_destroy(plan), rocfft_status_success, "rocfft_plan_destroy");
    check_status(rocfft_plan_destroy(NULL), rocfft_status_success, "plan_destroy(NULL)");
}

int main(void)
{
    check_status(rocfft_setup(), rocfft_status_success, "rocfft_setup");
    test_version();
    test_bad_plan_create();
    test_bad_objects();
    test_bad_execute();
    test_execution_info();
    test_transforms();
    check_status(rocfft_cleanup(), rocfft_status_success, "rocfft_cleanup");
    printf("%d passed, %d failed, %d skipped\n", g_passed, g_failed, g_skipped);
    return g_failed ? 1 : 0;
}
