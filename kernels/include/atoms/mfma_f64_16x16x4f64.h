// AMD v_mfma_f64_16x16x4f64 (CDNA2+: gfx90a, gfx942; wave64): C[16x16] f64 += A[16x4] f64 * B[4x16] f64.
// Builtin: __builtin_amdgcn_mfma_f64_16x16x4f64(double a, double b, double4 c, 0, 0, 0)
// Lane layout (l = lane 0..63):
//   A: lane l holds A[l % 16][l / 16]           (one VGPR pair)
//   B: lane l holds B[l / 16][l % 16]
//   C: lane l holds C[4*(l/16) + i][l % 16], i = 0..3  (4 VGPR pairs; same shape as 16x16x4f32)
// LDS: A as [k][m], B as [k][n] (m/n contiguous).
#ifndef ROCMATH_ATOM_MFMA_F64_16X16X4F64_H
#define ROCMATH_ATOM_MFMA_F64_16X16X4F64_H
#if RM_AMD
struct rm_atom_mfma_f64_16x16x4f64 {
    typedef double in_t;
    typedef double acc_t;
    enum { M = 16, N = 16, K = 4, WAVE = 64, A_ELEMS = 1, B_ELEMS = 1, C_ELEMS = 4, A_K_CONTIG = 0, B_K_CONTIG = 0,
           A_VEC = 1, B_VEC = 1 };
    struct AFrag { double v; };
    struct BFrag { double v; };
    struct CFrag { rm_v4d v; };
    static RM_INLINE int a_m(int l, int) { return l & 15; }
    static RM_INLINE int a_k(int l, int) { return l >> 4; }
    static RM_INLINE int b_k(int l, int) { return l >> 4; }
    static RM_INLINE int b_n(int l, int) { return l & 15; }
    static RM_INLINE int c_m(int l, int i) { return 4 * (l >> 4) + i; }
    static RM_INLINE int c_n(int l, int) { return l & 15; }
    static RM_INLINE void a_set(AFrag& f, int, double v) { f.v = v; }
    static RM_INLINE void b_set(BFrag& f, int, double v) { f.v = v; }
    static RM_INLINE void c_zero(CFrag& c) { c.v = (rm_v4d)(0.0); }
    static RM_INLINE double c_get(const CFrag& c, int i) { return c.v[i]; }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) {
        c.v = __builtin_amdgcn_mfma_f64_16x16x4f64(a.v, b.v, c.v, 0, 0, 0);
    }
};
// C elements 4j .. 4j + 3: four consecutive rows of one column.
template <> struct rm_c_store<rm_atom_mfma_f64_16x16x4f64> : rm_c_store_runs<rm_atom_mfma_f64_16x16x4f64, 4> {};
#endif
#endif
