// NVIDIA mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 (sm_80+, warp32):
//   C[16x8] f32 += A[16x8] tf32 (row) * B[8x8] tf32 (col); A and B are staged as f32 and rounded
//   to TF32 (cvt.rna, round to nearest, ties away) as they enter the instruction.
// Lane layout: rm_mma_m16n8_scalar_layout (atom_interface.h); A 4 values, B 2, C 4 f32.
// LDS: A as [m][k], B as [n][k] (k contiguous); elements are read one at a time.
#ifndef ROCMATH_ATOM_MMA_M16N8K8_TF32_H
#define ROCMATH_ATOM_MMA_M16N8K8_TF32_H
#if RM_NVIDIA
struct rm_atom_mma_m16n8k8_tf32 : rm_mma_m16n8_scalar_layout {
    typedef float in_t;
    typedef float acc_t;
    enum { M = 16, N = 8, K = 8, WAVE = 32, A_ELEMS = 4, B_ELEMS = 2, C_ELEMS = 4, A_K_CONTIG = 1, B_K_CONTIG = 1,
           A_VEC = 1, B_VEC = 1 };
    struct AFrag { float v[4]; };
    struct BFrag { float v[2]; };
    struct CFrag { float v[4]; };
    static RM_INLINE void a_set(AFrag& f, int i, float v) { f.v[i] = v; }
    static RM_INLINE void b_set(BFrag& f, int i, float v) { f.v[i] = v; }
    static RM_INLINE void c_zero(CFrag& c) { c.v[0] = c.v[1] = c.v[2] = c.v[3] = 0.0f; }
    static RM_INLINE float c_get(const CFrag& c, int i) { return c.v[i]; }
    static RM_INLINE rm_u32 tf32(float x) {
        rm_u32 r;
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
        return r;
    }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) {
        asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+f"(c.v[0]), "+f"(c.v[1]), "+f"(c.v[2]), "+f"(c.v[3])
            : "r"(tf32(a.v[0])), "r"(tf32(a.v[1])), "r"(tf32(a.v[2])), "r"(tf32(a.v[3])), "r"(tf32(b.v[0])),
              "r"(tf32(b.v[1])));
    }
};
template <> struct rm_c_store<rm_atom_mma_m16n8k8_tf32> : rm_c_store_m16n8 {};
#endif
#endif
