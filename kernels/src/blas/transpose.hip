// rocmath BLAS: batched transposing copies of 32-bit and 8-bit elements. In front of the tf32 and
// s8 wgmma GEMM kernels (gemm_sm90.hip), whose instructions read only k-contiguous operands: an
// operand stored m- or n-contiguous is copied k-contiguous into the handle's scratch first. The
// blocked kernels that repack use the 32-bit one too.
//
// One launch makes up to two copies (a call's A and B), so that both run in one wave and the
// call pays one launch for them. For copy i:
// in:  rows_i x cols_i, column-major: element (r, c) of entry e at in_i[e * stride_in_i + r + c * ld_in_i]
// out: cols_i x rows_i, column-major: the same element at out_i[e * stride_out_i + c + r * ld_out_i]
// Grid: (ceil(max rows / 32), ceil(max cols / 32), entries0 + entries1): grid z runs over the
// first copy's entries, then the second's (rows1 = 0: no second copy); blocks past their copy's
// extent exit at once. Block: 32 x 8 threads (256, x only). A 32 x 32 tile goes through shared
// memory so that both the reads (along r) and the writes (along c) are coalesced; the row
// padding of 1 keeps the column reads of the tile off a single bank. Bytes are held as 32-bit
// words in shared memory, so that both element sizes share that conflict-free layout.

#ifndef ROCMATH_BLAS_TRANSPOSE_HIP
#define ROCMATH_BLAS_TRANSPOSE_HIP

template <class T>
RM_INLINE void rm_blas_transpose_body(int entries0, int rows0, int cols0, const T* in0, long long ld_in0, long long stride_in0, T* out0,
                                      long long ld_out0, long long stride_out0, int rows1, int cols1, const T* in1, long long ld_in1,
                                      long long stride_in1, T* out1, long long ld_out1, long long stride_out1) {
    __shared__ rm_u32 tile[32][33];
    long long e = rm_bid_z();
    const bool second = e >= entries0;
    const int rows = second ? rows1 : rows0, cols = second ? cols1 : cols0;
    const long long ld_in = second ? ld_in1 : ld_in0, ld_out = second ? ld_out1 : ld_out0;
    const int r0 = rm_bid_x() * 32, c0 = rm_bid_y() * 32;
    if (r0 >= rows || c0 >= cols) return; // the whole block: before any barrier
    if (second) e -= entries0;
    const T* in = (second ? in1 : in0) + e * (second ? stride_in1 : stride_in0);
    T* out = (second ? out1 : out0) + e * (second ? stride_out1 : stride_out0);
    const int tx = rm_tid_x() % 32, ty = rm_tid_x() / 32;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int j = ty + 8 * i;
        const int r = r0 + tx, c = c0 + j;
        if (r < rows && c < cols) tile[j][tx] = (rm_u32)in[r + (long long)c * ld_in];
    }
    rm_barrier();
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int j = ty + 8 * i;
        const int c = c0 + tx, r = r0 + j;
        if (r < rows && c < cols) out[c + (long long)r * ld_out] = (T)tile[tx][j];
    }
}

#define RM_BLAS_TRANSPOSE_KERNEL(NAME, T)                                                                                  \
    extern "C" __global__ RM_LAUNCH_BOUNDS(256, 2) void NAME(                                                              \
        int entries0, int rows0, int cols0, const T* in0, long long ld_in0, long long stride_in0, T* out0, long long ld_out0, \
        long long stride_out0, int rows1, int cols1, const T* in1, long long ld_in1, long long stride_in1, T* out1,          \
        long long ld_out1, long long stride_out1) {                                                                         \
        rm_blas_transpose_body<T>(entries0, rows0, cols0, in0, ld_in0, stride_in0, out0, ld_out0, stride_out0, rows1, cols1, \
                                  in1, ld_in1, stride_in1, out1, ld_out1, stride_out1);                                     \
    }
RM_BLAS_TRANSPOSE_KERNEL(rm_blas_transpose_b32, rm_u32)
RM_BLAS_TRANSPOSE_KERNEL(rm_blas_transpose_b8, unsigned char)

#endif // ROCMATH_BLAS_TRANSPOSE_HIP
