// Scalar FMA "atom": one thread computes C[1x1] += A[1x1] * B[1x1] in type T (any arch).
// in_t = acc_t = T (the compute type: float, double, rm_c32, rm_c64; 16-bit inputs are widened
// to float when staged into LDS). WAVE = 1, so the tiling's "wave tile" is one thread's register
// tile (e.g. 4x4 outer product per k step). LDS tiles are m-/n-contiguous so that one thread's
// consecutive rows/columns are consecutive words (vector LDS reads).
#ifndef ROCMATH_ATOM_FMA_H
#define ROCMATH_ATOM_FMA_H
template <class T> struct rm_atom_fma {
    typedef T in_t;
    typedef T acc_t;
    enum { M = 1, N = 1, K = 1, WAVE = 1, A_ELEMS = 1, B_ELEMS = 1, C_ELEMS = 1, A_K_CONTIG = 0, B_K_CONTIG = 0,
           A_VEC = 1, B_VEC = 1 };
    struct AFrag { T v; };
    struct BFrag { T v; };
    struct CFrag { T v; };
    static RM_INLINE int a_m(int, int) { return 0; }
    static RM_INLINE int a_k(int, int) { return 0; }
    static RM_INLINE int b_k(int, int) { return 0; }
    static RM_INLINE int b_n(int, int) { return 0; }
    static RM_INLINE int c_m(int, int) { return 0; }
    static RM_INLINE int c_n(int, int) { return 0; }
    static RM_INLINE void a_set(AFrag& f, int, T v) { f.v = v; }
    static RM_INLINE void b_set(BFrag& f, int, T v) { f.v = v; }
    static RM_INLINE void c_zero(CFrag& c) { c.v = rm_zero<T>(); }
    static RM_INLINE T c_get(const CFrag& c, int) { return c.v; }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) { c.v = rm_madd(a.v, b.v, c.v); }
};
#endif
