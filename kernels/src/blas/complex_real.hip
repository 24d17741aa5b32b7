// rocmath BLAS: the copies that let a complex f32 GEMM run as one real f32 GEMM (the "1m" method
// of BLIS: Van Zee and Smith, "Implementing high-performance complex matrix multiplication via
// the 1m method", 2017).
//
// Stored interleaved, an m x n complex matrix is a 2m x n real one. With op(A) expanded so that
// every complex a becomes the real 2 x 2 block [a.re -a.im; a.im a.re], D = op(A) op(B) is the
// real product D(2m x n) = A'(2m x 2k) B(2k x n), the same 8mnk real FLOPs, on the real kernels.
// As a complex m x 2k matrix, A' holds alpha * op(A) in its even columns and i * alpha * op(A) in
// its odd ones, which is what rm_blas_c32_pack writes (`expand`). An op(B) other than N is copied
// k x n first (`expand` off), since a transposed complex matrix has no real view.
//
// rm_blas_c32_pack, per entry e of the grid's z: out(r, c) = scale * op(in)(r, c) for r < rows,
// c < cols (scale applied only when expanding), where op(in)(r, c) is
//   op 0 (N): in[e * stride_in + r + c * ld_in]
//   op 1 (T): in[e * stride_in + c + r * ld_in]
//   op 2 (C): conj of the T element,
// written to out[e * stride_out + r + c * ld_out], or with `expand` to out[... + r + 2c * ld_out]
// and i times it to out[... + r + (2c + 1) * ld_out]. Grid: (ceil(rows / 32), ceil(cols / 32),
// entries); block 256 (32 x 8). A 32 x 32 tile goes through shared memory so that the reads run
// along the stored leading dimension and the writes along r, both coalesced.
//
// rm_blas_c32_scale: D = beta * C, m x n per entry, for a beta off the real axis (the real
// product then adds into D with beta 1); beta == 0 writes zeros without reading C. A grid-stride
// loop over m x n x entries elements.

#ifndef ROCMATH_BLAS_COMPLEX_REAL_HIP
#define ROCMATH_BLAS_COMPLEX_REAL_HIP

extern "C" __global__ RM_LAUNCH_BOUNDS(256, 2) void rm_blas_c32_pack(
    int rows, int cols, int op, int expand, rm_c32 scale, const rm_c32* in, long long ld_in, long long stride_in,
    rm_c32* out, long long ld_out, long long stride_out) {
    __shared__ rm_c32 tile[32][33];
    const long long e = rm_bid_z();
    const int r0 = rm_bid_x() * 32, c0 = rm_bid_y() * 32;
    in += e * stride_in;
    out += e * stride_out;
    const int tx = rm_tid_x() % 32, ty = rm_tid_x() / 32;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int j = ty + 8 * i;
        if (op == 0) { // stored rows x cols: lanes along r
            const int r = r0 + tx, c = c0 + j;
            if (r < rows && c < cols) tile[j][tx] = in[r + (long long)c * ld_in];
        } else { // stored cols x rows: lanes along c
            const int c = c0 + tx, r = r0 + j;
            if (r < rows && c < cols) {
                const rm_c32 v = in[c + (long long)r * ld_in];
                tile[tx][j] = op == 2 ? rm_conj(v) : v;
            }
        }
    }
    rm_barrier();
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int j = ty + 8 * i;
        const int r = r0 + tx, c = c0 + j;
        if (r < rows && c < cols) {
            if (expand) {
                const rm_c32 v = scale * tile[j][tx];
                out[r + (long long)(2 * c) * ld_out] = v;
                out[r + (long long)(2 * c + 1) * ld_out] = rm_make_c32(-v.y, v.x);
            } else {
                out[r + (long long)c * ld_out] = tile[j][tx];
            }
        }
    }
}

extern "C" __global__ RM_LAUNCH_BOUNDS(256, 2) void rm_blas_c32_scale(
    int m, int n, int entries, rm_c32 beta, const rm_c32* C, long long ldc, long long stride_c, rm_c32* D,
    long long ldd, long long stride_d) {
    const long long per_entry = (long long)m * n, total = per_entry * entries;
    const bool zero = rm_is_zero(beta);
    for (long long t = (long long)rm_bid_x() * 256 + rm_tid_x(); t < total; t += (long long)rm_gdim_x() * 256) {
        const long long e = t / per_entry, rest = t - e * per_entry;
        const long long j = rest / m, i = rest - j * m;
        D[e * stride_d + i + j * ldd] = zero ? rm_make_c32(0.0f, 0.0f) : beta * C[e * stride_c + i + j * ldc];
    }
}

#endif // ROCMATH_BLAS_COMPLEX_REAL_HIP
