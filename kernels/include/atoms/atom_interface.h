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

#if RM_NVIDIA
// Lane layout of the mma.sync m16n8kK forms that hold one element per register: tf32 (K = 8) and
// f64 (K = 16) (PTX ISA, "Matrix Fragments for mma.m16n8k8" with .tf32 and "for mma.m16n8k16"
// with .f64: the same pattern, K doubled). l = lane, g = l >> 2, t = l & 3:
//   A element i: row = g + 8*(i & 1),  col(k) = t + 4*(i >> 1)
//   B element i: row(k) = t + 4*i,  col(n) = g
//   C element i: row = g + 8*(i >> 1), col = 2*t + (i & 1)
struct rm_mma_m16n8_scalar_layout {
    static RM_INLINE int a_m(int l, int i) { return (l >> 2) + 8 * (i & 1); }
    static RM_INLINE int a_k(int l, int i) { return (l & 3) + 4 * (i >> 1); }
    static RM_INLINE int b_k(int l, int i) { return (l & 3) + 4 * i; }
    static RM_INLINE int b_n(int l, int) { return l >> 2; }
    static RM_INLINE int c_m(int l, int i) { return (l >> 2) + 8 * (i >> 1); }
    static RM_INLINE int c_n(int l, int i) { return 2 * (l & 3) + (i & 1); }
};

// Epilogue regrouping of the mma.sync m16n8 accumulator layout (C element i of lane l = 4g + t at
// row g + 8(i >> 1), column 2t + (i & 1), so a store instruction writes one 32-byte piece of
// each of four columns). The four lanes 4(4q + j) + t, j = 0..3, transpose their four elements
// (two xor-shuffle rounds over lane bits 3 and 2); lane j then holds rows 4q + 8(j >> 1) .. + 3 of
// column 2t + (j & 1), one 16-byte f32 vector, and one store instruction writes 64 contiguous
// bytes of each of the tile's eight columns. The 16-bit, tf32 and i8 atoms use it (H100, session
// 18: the 16-bit small batches 8-13 % faster). The f64 atoms do not: their four shuffles of
// 64-bit values cost more than the 16-byte stores saved (d small batches 3-7 % slower).
struct rm_c_store_m16n8 {
    enum { RUN = 4 };
    template <class T> static RM_INLINE void regroup(T (&v)[4], int lane) {
#pragma unroll
        for (int b = 1; b >= 0; --b) {
            const int mask = 1 << b;
            const bool upper = (lane >> (2 + b)) & 1;
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                if (i & mask) continue;
                // The lower lane keeps v[i] and takes the partner's v[i] into v[i ^ mask]; the upper
                // keeps v[i ^ mask] and takes the partner's v[i ^ mask] into v[i]. (The values are
                // made opaque so that the selects stay selects of registers, not of addresses.)
                const T lo = rm_opaque(v[i]), hi = rm_opaque(v[i ^ mask]);
                const T got = rm_shfl(upper ? lo : hi, lane ^ (mask << 2));
                v[i] = upper ? got : lo;
                v[i ^ mask] = upper ? hi : got;
            }
        }
    }
    static RM_INLINE int m(int l, int i) { return 4 * (l >> 4) + 8 * ((l >> 3) & 1) + i; }
    static RM_INLINE int n(int l, int) { return 2 * (l & 3) + ((l >> 2) & 1); }
};
#endif

// Fragment loaders of the direct (multi-stage) GEMM path, where LDS tiles keep their memory
// layout. `off(m, k)` / `off(k, n)` give an element's LDS offset, `Off::K_CONTIG` says whether
// k is the contiguous dimension and `Off::CONJ` whether the operand is conjugated (op = C: the
// tiles hold complex operands as stored). The default reads element by element through the lane layout;
// an atom with a faster way (ldmatrix) specialises rm_frag_loader in its header.
// On a linear layout (`Off::LINEAR`: padded rows, no swizzle) the reads go through one per-lane
// base and per-element offsets that are compile-time constants, so each read is one LDS with an
// immediate. (Offsets computed per element, plus a run-time stage offset, were kept as one
// register each and added per read: nvcc 13.0's SASS of the f64 tiles.)
template <class Atom> struct rm_frag_loader_generic {
    typedef typename Atom::in_t Tin;
    template <class Off>
    static RM_INLINE void a(typename Atom::AFrag& f, const Tin* s, Off off, int m0, int k0, int lane) {
        if (Off::LINEAR) {
            const Tin* p = s + off(m0 + Atom::a_m(lane, 0), k0 + Atom::a_k(lane, 0));
#pragma unroll
            for (int i = 0; i < Atom::A_ELEMS; ++i)
                Atom::a_set(f, i, rm_conj_if(Off::CONJ, p[off(Atom::a_m(lane, i) - Atom::a_m(lane, 0), Atom::a_k(lane, i) - Atom::a_k(lane, 0))]));
            return;
        }
#pragma unroll
        for (int i = 0; i < Atom::A_ELEMS; ++i) Atom::a_set(f, i, rm_conj_if(Off::CONJ, s[off(m0 + Atom::a_m(lane, i), k0 + Atom::a_k(lane, i))]));
    }
    template <class Off>
    static RM_INLINE void b(typename Atom::BFrag& f, const Tin* s, Off off, int k0, int n0, int lane) {
        if (Off::LINEAR) {
            const Tin* p = s + off(k0 + Atom::b_k(lane, 0), n0 + Atom::b_n(lane, 0));
#pragma unroll
            for (int i = 0; i < Atom::B_ELEMS; ++i)
                Atom::b_set(f, i, rm_conj_if(Off::CONJ, p[off(Atom::b_k(lane, i) - Atom::b_k(lane, 0), Atom::b_n(lane, i) - Atom::b_n(lane, 0))]));
            return;
        }
#pragma unroll
        for (int i = 0; i < Atom::B_ELEMS; ++i) Atom::b_set(f, i, rm_conj_if(Off::CONJ, s[off(k0 + Atom::b_k(lane, i), n0 + Atom::b_n(lane, i))]));
    }
};
template <class Atom> struct rm_frag_loader : rm_frag_loader_generic<Atom> {};

// How the GEMM epilogue moves a lane's accumulators to C. After regroup(v, lane) (all lanes of
// the atom together), element i of v is C(m(lane, i), n(lane, i)), and elements i .. i + RUN - 1
// (i a multiple of RUN) lie in consecutive rows of one column starting at a multiple of RUN, so
// the epilogue may store them as one vector. The default keeps the atom's layout with RUN 1;
// rm_c_store_runs states runs the atom's layout already has (an atom header specialises
// rm_c_store with it).
template <class Atom, int RUN_> struct rm_c_store_runs {
    enum { RUN = RUN_ };
    template <class T> static RM_INLINE void regroup(T (&)[Atom::C_ELEMS], int) {}
    static RM_INLINE int m(int l, int i) { return Atom::c_m(l, i); }
    static RM_INLINE int n(int l, int i) { return Atom::c_n(l, i); }
};
template <class Atom> struct rm_c_store : rm_c_store_runs<Atom, 1> {};

#if RM_NVIDIA
// ldmatrix loader for the m16n8k16 16-bit atoms (fragments stored as 16-bit halves h[]):
// A (16 x 16) with one x4 (matrices: m 0-7/8-15 x k 0-7, then k 8-15), B (16 x 8) with one x2
// (k 0-7, k 8-15); .trans when the LDS tile is m- (n-) contiguous. 8-element chunks stay whole
// under padding and swizzling, so each row address is the offset of its first element.
template <class Atom> struct rm_ldmatrix_loader {
    typedef typename Atom::in_t Tin;
    template <class Off>
    static RM_INLINE void a(typename Atom::AFrag& f, const Tin* s, Off off, int m0, int k0, int lane) {
        const int j = lane >> 3, i = lane & 7;
        const int at = Off::K_CONTIG ? off(m0 + i + 8 * (j & 1), k0 + 8 * (j >> 1)) : off(m0 + 8 * (j & 1), k0 + i + 8 * (j >> 1));
        rm_u32 r[4];
        rm_ldmatrix_x4(r, s + at, !Off::K_CONTIG);
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            f.h[2 * q] = (rm_u16)(r[q] & 0xffffu);
            f.h[2 * q + 1] = (rm_u16)(r[q] >> 16);
        }
    }
    template <class Off>
    static RM_INLINE void b(typename Atom::BFrag& f, const Tin* s, Off off, int k0, int n0, int lane) {
        const int j = (lane >> 3) & 1, i = lane & 7;
        const int at = Off::K_CONTIG ? off(k0 + 8 * j, n0 + i) : off(k0 + i + 8 * j, n0);
        rm_u32 r[2];
        rm_ldmatrix_x2(r, s + at, !Off::K_CONTIG);
#pragma unroll
        for (int q = 0; q < 2; ++q) {
            f.h[2 * q] = (rm_u16)(r[q] & 0xffffu);
            f.h[2 * q + 1] = (rm_u16)(r[q] >> 16);
        }
    }
};
#endif
#if RM_AMD
typedef _Float16 rm_v4h __attribute__((ext_vector_type(4)));
typedef short rm_v4s __attribute__((ext_vector_type(4)));
typedef float rm_v4f __attribute__((ext_vector_type(4)));
typedef float rm_v16f __attribute__((ext_vector_type(16)));
typedef double rm_v4d __attribute__((ext_vector_type(4)));
#endif
#endif
