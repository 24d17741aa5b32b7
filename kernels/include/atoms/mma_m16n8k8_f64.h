// NVIDIA mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 (sm_90 only, warp32, DMMA):
//   C[16x8] f64 += A[16x8] f64 (row) * B[8x8] f64 (col). Half the k of the m16n8k16 form, so
//   half its fragment registers (A 4 doubles, B 2): what lets 64 x 64 tiles run four blocks per
//   SM. cuBLAS's sm_90 DGEMM uses this shape for large squares (its kernel names, ncu s14).
// Lane layout: rm_mma_m16n8_scalar_layout (atom_interface.h), as the tf32 m16n8k8 atom.
// LDS: A as [m][k], B as [n][k] (k contiguous); elements are read one at a time.
#ifndef ROCMATH_ATOM_MMA_M16N8K8_F64_H
#define ROCMATH_ATOM_MMA_M16N8K8_F64_H
#if RM_NVIDIA
struct rm_atom_mma_m16n8k8_f64 : rm_mma_m16n8_scalar_layout {
    typedef double in_t;
    typedef double acc_t;
    enum { M = 16, N = 8, K = 8, WAVE = 32, A_ELEMS = 4, B_ELEMS = 2, C_ELEMS = 4, A_K_CONTIG = 1, B_K_CONTIG = 1,
           A_VEC = 1, B_VEC = 1 };
    struct AFrag { double v[4]; };
    struct BFrag { double v[2]; };
    struct CFrag { double v[4]; };
    static RM_INLINE void a_set(AFrag& f, int i, double v) { f.v[i] = v; }
    static RM_INLINE void b_set(BFrag& f, int i, double v) { f.v[i] = v; }
    static RM_INLINE void c_zero(CFrag& c) { c.v[0] = c.v[1] = c.v[2] = c.v[3] = 0.0; }
    static RM_INLINE double c_get(const CFrag& c, int i) { return c.v[i]; }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) {
        asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+d"(c.v[0]), "+d"(c.v[1]), "+d"(c.v[2]), "+d"(c.v[3])
            : "d"(a.v[0]), "d"(a.v[1]), "d"(a.v[2]), "d"(a.v[3]), "d"(b.v[0]), "d"(b.v[1]));
    }
};
#endif
#endif
