// rocmath matrix atoms: the common interface (CuTe-style "MMA atom").
//
// An atom is one hardware multiply-accumulate instruction executed by a group of WAVE lanes
// (a wave64 on CDNA, a warp32 on NVIDIA, a single thread for the scalar FMA atom). It computes
//     C[M x N] += A[M x K] * B[K x N]
// where the three matrices are spread over the lanes as register "fragments". Every atom is a
// struct with the same members; the GEMM tiling code (src/blas/gemm.hip) uses only these:
//
//   typedef in_t;                 element type of the A/B fragments (= element type staged in LDS)
//   typedef acc_t;                accumulator element type
//   enum { M, N, K,               instruction shape
//          WAVE,                  lanes that execute one instruction together
//          A_ELEMS, B_ELEMS,      elements of A / B held by each lane
//          C_ELEMS,               accumulator elements held by each lane
//          A_K_CONTIG,            preferred LDS layout of the A tile: 1 = k contiguous ([m][k]),
//                                 0 = m contiguous ([k][m]); likewise B_K_CONTIG for B ([n][k] / [k][n])
//          B_K_CONTIG,
//          A_VEC, B_VEC };        fragment elements i .. i+VEC-1 (i a multiple of VEC) are consecutive
//                                 along the contiguous LDS dimension, so they are read as one
//                                 aligned vector (VEC * sizeof(in_t) bytes)
//   struct AFrag, BFrag, CFrag;   per-lane register fragments (native vector types where possible)
//   static int a_m(lane, i), a_k(lane, i)   coordinates in the M x K tile of element i of lane's AFrag
//   static int b_k(lane, i), b_n(lane, i)   coordinates in the K x N tile of element i of lane's BFrag
//   static int c_m(lane, i), c_n(lane, i)   coordinates in the M x N tile of accumulator element i
//   static void a_set(AFrag&, i, in_t), b_set(BFrag&, i, in_t)
//   static void c_zero(CFrag&);  static acc_t c_get(const CFrag&, i)
//   static void mma(CFrag& c, const AFrag& a, const BFrag& b)     c += a * b
//
// `lane` is the lane index within the atom's group (0 .. WAVE-1); `i` is always a compile-time
// constant after unrolling. Layouts are taken from the vendors' ISA documents (PTX ISA
// "Matrix fragments for mma.m16n8k16 / mma.m8n8k4", AMD CDNA2/CDNA3 ISA and the AMD matrix
// instruction calculator) and restated in each header.
#ifndef ROCMATH_ATOM_INTERFACE_H
#define ROCMATH_ATOM_INTERFACE_H
#if RM_AMD
typedef _Float16 rm_v4h __attribute__((ext_vector_type(4)));
typedef short rm_v4s __attribute__((ext_vector_type(4)));
typedef float rm_v4f __attribute__((ext_vector_type(4)));
typedef float rm_v16f __attribute__((ext_vector_type(16)));
typedef double rm_v4d __attribute__((ext_vector_type(4)));
#endif
#endif
