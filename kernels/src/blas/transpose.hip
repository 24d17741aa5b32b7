// rocmath BLAS: batched transposing copy of 32-bit elements. In front of the tf32 wgmma GEMM
// kernels (gemm_sm90.hip), whose instruction reads only k-contiguous operands: an operand stored
// m- or n-contiguous is copied k-contiguous into the handle's scratch first.
//
// in:  rows x cols, column-major: element (r, c) of batch entry e at in[e * stride_in + r + c * ld_in]
// out: cols x rows, column-major: the same element at out[e * stride_out + c + r * ld_out]
// Grid: (ceil(rows / 32), ceil(cols / 32), entries); block: 32 x 8 threads (256, x only). A 32 x 32
// tile goes through shared memory so that both the reads (along r) and the writes (along c) are
// coalesced; the row padding of 1 keeps the column reads of the tile off a single bank.

#ifndef ROCMATH_BLAS_TRANSPOSE_HIP
#define ROCMATH_BLAS_TRANSPOSE_HIP

extern "C" __global__ RM_LAUNCH_BOUNDS(256, 2) void rm_blas_transpose_b32(int rows, int cols, const rm_u32* in,
                                                                         long long ld_in, long long stride_in,
                                                                         rm_u32* out, long long ld_out,
                                                                         long long stride_out) {
    __shared__ rm_u32 tile[32][33];
    const int tx = rm_tid_x() % 32, ty = rm_tid_x() / 32;
    const int r0 = rm_bid_x() * 32, c0 = rm_bid_y() * 32;
    const long long e = rm_bid_z();
    in += e * stride_in;
    out += e * stride_out;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int j = ty + 8 * i;
        const int r = r0 + tx, c = c0 + j;
        if (r < rows && c < cols) tile[j][tx] = in[r + (long long)c * ld_in];
    }
    rm_barrier();
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int j = ty + 8 * i;
        const int c = c0 + tx, r = r0 + j;
        if (r < rows && c < cols) out[c + (long long)r * ld_out] = tile[tx][j];
    }
}

#endif // ROCMATH_BLAS_TRANSPOSE_HIP
