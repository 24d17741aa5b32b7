// AMD v_mfma_f32_32x32x2f32 (CDNA1+, wave64, single block): C[32x32] f32 += A[32x2] f32 * B[2x32] f32.
// Builtin: __builtin_amdgcn_mfma_f32_32x32x2f32(float a, float b, float16 c, 0, 0, 0)
// Lane layout (l = lane 0..63):
//   A: lane l holds A[l % 32][l / 32]            (one VGPR)
//   B: lane l holds B[l / 32][l % 32]
//   C: lane l holds C[8*(i/4) + 4*(l/32) + i%4][l % 32], i = 0..15  (same as the 32x32x8 forms)
// LDS: A as [k][m], B as [k][n] (m/n contiguous: 32 lanes read 32 consecutive words).
#ifndef ROCMATH_ATOM_MFMA_F32_32X32X2F32_H
#define ROCMATH_ATOM_MFMA_F32_32X32X2F32_H
#if RM_AMD
struct rm_atom_mfma_f32_32x32x2f32 {
    typedef float in_t;
    typedef float acc_t;
    enum { M = 32, N = 32, K = 2, WAVE = 64, A_ELEMS = 1, B_ELEMS = 1, C_ELEMS = 16, A_K_CONTIG = 0, B_K_CONTIG = 0,
           A_VEC = 1, B_VEC = 1 };
    struct AFrag { float v; };
    struct BFrag { float v; };
    struct CFrag { rm_v16f v; };
    static RM_INLINE int a_m(int l, int) { return l & 31; }
    static RM_INLINE int a_k(int l, int) { return l >> 5; }
    static RM_INLINE int b_k(int l, int) { return l >> 5; }
    static RM_INLINE int b_n(int l, int) { return l & 31; }
    static RM_INLINE int c_m(int l, int i) { return 8 * (i >> 2) + 4 * (l >> 5) + (i & 3); }
    static RM_INLINE int c_n(int l, int) { return l & 31; }
    static RM_INLINE void a_set(AFrag& f, int, float v) { f.v = v; }
    static RM_INLINE void b_set(BFrag& f, int, float v) { f.v = v; }
    static RM_INLINE void c_zero(CFrag& c) { c.v = (rm_v16f)(0.0f); }
    static RM_INLINE float c_get(const CFrag& c, int i) { return c.v[i]; }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) {
        c.v = __builtin_amdgcn_mfma_f32_32x32x2f32(a.v, b.v, c.v, 0, 0, 0);
    }
};
// C elements 4j .. 4j + 3: four consecutive rows of one column.
template <> struct rm_c_store<rm_atom_mfma_f32_32x32x2f32> : rm_c_store_runs<rm_atom_mfma_f32_32x32x2f32, 4> {};
#endif
#endif
