// rocmath BLAS: batched transposing copies of 32-bit and 8-bit elements. In front of the tf32 and
// s8 wgmma GEMM kernels (gemm_sm90.hip), whose instructions read only k-contiguous operands: an
// operand stored m- or n-contiguous is copied k-contiguous into the handle's scratch first. The
// blocked kernels that repack use the 32-bit one too.
//
// One launch makes up to two copies (a call's A and B), so that both run in one wave and the
// call pays one launch for them. For copy i:
// in:  rows_i x cols_i, column-major: element (r, c) of entry e at in_i[e * stride_in_i + r + c * ld_in_i]
// out: cols_i x rows_i, column-major: the same element at out_i[e * stride_out_i + c + r * ld_out_i]
// 32-bit elements: grid (ceil(max rows / 32), ceil(max cols / 32), entries0 + entries1): grid z
// runs over the first copy's entries, then the second's (rows1 = 0: no second copy); blocks past
// their copy's extent exit at once. Block: 32 x 8 threads (256, x only). A 32 x 32 tile goes
// through shared memory so that both the reads (along r) and the writes (along c) are coalesced;
// the row padding of 1 keeps the column reads of the tile off a single bank.

#ifndef ROCMATH_BLAS_TRANSPOSE_HIP
#define ROCMATH_BLAS_TRANSPOSE_HIP

extern "C" __global__ RM_LAUNCH_BOUNDS(256, 2) void rm_blas_transpose_b32(
    int entries0, int rows0, int cols0, const rm_u32* in0, long long ld_in0, long long stride_in0, rm_u32* out0,
    long long ld_out0, long long stride_out0, int rows1, int cols1, const rm_u32* in1, long long ld_in1,
    long long stride_in1, rm_u32* out1, long long ld_out1, long long stride_out1) {
    __shared__ rm_u32 tile[32][33];
    long long e = rm_bid_z();
    const bool second = e >= entries0;
    const int rows = second ? rows1 : rows0, cols = second ? cols1 : cols0;
    const long long ld_in = second ? ld_in1 : ld_in0, ld_out = second ? ld_out1 : ld_out0;
    const int r0 = rm_bid_x() * 32, c0 = rm_bid_y() * 32;
    if (r0 >= rows || c0 >= cols) return; // the whole block: before any barrier
    if (second) e -= entries0;
    const rm_u32* in = (second ? in1 : in0) + e * (second ? stride_in1 : stride_in0);
    rm_u32* out = (second ? out1 : out0) + e * (second ? stride_out1 : stride_out0);
    const int tx = rm_tid_x() % 32, ty = rm_tid_x() / 32;
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

// 8-bit elements: 64 x 64 a block (grid ceil(max rows / 64), ceil(max cols / 64), entries0 +
// entries1), 256 threads. Byte loads and stores keep too few bytes in flight (0.9 TB/s on the
// H100), so each thread moves 32-bit words: a column's 64 bytes are read as 16 words (where `in`
// and ld_in are multiples of 4; else byte by byte) into row j of the tile, and a row of out
// gathers 4 of the tile's columns into each word it stores (out and ld_out are multiples of 4
// for the wgmma copies; else byte by byte). Rows of 68 bytes keep the gathers at most two-way
// bank conflicted.
extern "C" __global__ RM_LAUNCH_BOUNDS(256, 2) void rm_blas_transpose_b8(
    int entries0, int rows0, int cols0, const unsigned char* in0, long long ld_in0, long long stride_in0, unsigned char* out0,
    long long ld_out0, long long stride_out0, int rows1, int cols1, const unsigned char* in1, long long ld_in1,
    long long stride_in1, unsigned char* out1, long long ld_out1, long long stride_out1) {
    enum { TB = 64, ROW = TB + 4 };
    __shared__ __attribute__((aligned(16))) unsigned char tile[TB * ROW];
    long long e = rm_bid_z();
    const bool second = e >= entries0;
    const int rows = second ? rows1 : rows0, cols = second ? cols1 : cols0;
    const long long ld_in = second ? ld_in1 : ld_in0, ld_out = second ? ld_out1 : ld_out0;
    const int r0 = rm_bid_x() * TB, c0 = rm_bid_y() * TB;
    if (r0 >= rows || c0 >= cols) return; // the whole block: before any barrier
    if (second) e -= entries0;
    const unsigned char* in = (second ? in1 : in0) + e * (second ? stride_in1 : stride_in0);
    unsigned char* out = (second ? out1 : out0) + e * (second ? stride_out1 : stride_out0);
    const int t = rm_tid_x(), w = t % 16;  // word w of a 64-byte line; line t / 16 (+ 16 i)
    const bool words_in = ((unsigned long long)in % 4) == 0 && ld_in % 4 == 0;
    const bool words_out = ((unsigned long long)out % 4) == 0 && ld_out % 4 == 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int j = t / 16 + 16 * i;  // tile column: column c0 + j of in
        const int c = c0 + j, r = r0 + 4 * w;
        if (c >= cols) continue;
        const unsigned char* src = in + r + (long long)c * ld_in;
        if (words_in && r + 3 < rows) {
            *(rm_u32*)&tile[j * ROW + 4 * w] = *(const rm_u32*)src;
        } else {
#pragma unroll
            for (int b = 0; b < 4; ++b)
                if (r + b < rows) tile[j * ROW + 4 * w + b] = src[b];
        }
    }
    rm_barrier();
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int rr = t / 16 + 16 * i;  // row r0 + rr of in: a line of out along c
        const int r = r0 + rr, c = c0 + 4 * w;
        if (r >= rows || c >= cols) continue;
        unsigned char* dst = out + c + (long long)r * ld_out;
        if (words_out && c + 3 < cols) {
            rm_u32 v = 0;
#pragma unroll
            for (int b = 0; b < 4; ++b) v |= (rm_u32)tile[(4 * w + b) * ROW + rr] << (8 * b);
            *(rm_u32*)dst = v;
        } else {
#pragma unroll
            for (int b = 0; b < 4; ++b)
                if (c + b < cols) dst[b] = tile[(4 * w + b) * ROW + rr];
        }
    }
}

#endif // ROCMATH_BLAS_TRANSPOSE_HIP
