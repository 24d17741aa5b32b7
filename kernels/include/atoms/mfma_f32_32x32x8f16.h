// AMD v_mfma_f32_32x32x8f16 (CDNA1+, wave64): C[32x32] f32 += A[32x8] f16 * B[8x32] f16.
// Builtin: __builtin_amdgcn_mfma_f32_32x32x8f16(half4 a, half4 b, float16 c, cbsz=0, abid=0, blgp=0)
// Lane layout (l = lane 0..63, single block, no broadcast):
//   A: lane l holds A[l % 32][4*(l/32) + i],  i = 0..3 (one half4: two VGPRs)
//   B: lane l holds B[4*(l/32) + i][l % 32],  i = 0..3
//   C: lane l holds C[8*(i/4) + 4*(l/32) + i%4][l % 32], i = 0..15 (16 VGPR/AGPR)
// LDS: A as [m][k] and B as [n][k] (k contiguous: each lane reads 4 consecutive halves, ds_read_b64).
#ifndef ROCMATH_ATOM_MFMA_F32_32X32X8F16_H
#define ROCMATH_ATOM_MFMA_F32_32X32X8F16_H
#if RM_AMD
struct rm_atom_mfma_f32_32x32x8f16 {
    typedef rm_half in_t;
    typedef float acc_t;
    enum { M = 32, N = 32, K = 8, WAVE = 64, A_ELEMS = 4, B_ELEMS = 4, C_ELEMS = 16, A_K_CONTIG = 1, B_K_CONTIG = 1,
           A_VEC = 4, B_VEC = 4 };
    struct AFrag { rm_v4h v; };
    struct BFrag { rm_v4h v; };
    struct CFrag { rm_v16f v; };
    static RM_INLINE int a_m(int l, int) { return l & 31; }
    static RM_INLINE int a_k(int l, int i) { return 4 * (l >> 5) + i; }
    static RM_INLINE int b_k(int l, int i) { return 4 * (l >> 5) + i; }
    static RM_INLINE int b_n(int l, int) { return l & 31; }
    static RM_INLINE int c_m(int l, int i) { return 8 * (i >> 2) + 4 * (l >> 5) + (i & 3); }
    static RM_INLINE int c_n(int l, int) { return l & 31; }
    static RM_INLINE void a_set(AFrag& f, int i, rm_half v) { f.v[i] = __builtin_bit_cast(_Float16, v.x); }
    static RM_INLINE void b_set(BFrag& f, int i, rm_half v) { f.v[i] = __builtin_bit_cast(_Float16, v.x); }
    static RM_INLINE void c_zero(CFrag& c) { c.v = (rm_v16f)(0.0f); }
    static RM_INLINE float c_get(const CFrag& c, int i) { return c.v[i]; }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) {
        c.v = __builtin_amdgcn_mfma_f32_32x32x8f16(a.v, b.v, c.v, 0, 0, 0);
    }
};
// C elements 4j .. 4j + 3: four consecutive rows of one column.
template <> struct rm_c_store<rm_atom_mfma_f32_32x32x8f16> : rm_c_store_runs<rm_atom_mfma_f32_32x32x8f16, 4> {};
#endif
#endif
