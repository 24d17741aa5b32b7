// NVIDIA mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 (sm_80+, warp32):
//   C[16x8] f32 += A[16x16] bf16 (row) * B[16x8] bf16 (col).
// Lane layout (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating point type";
// l = lane 0..31, g = l >> 2 (groupID), t = l & 3 (threadID_in_group)):
//   A: 8 bf16 in 4 .b32 registers; element i (register i/2, low half for even i):
//        row = g + 8*((i >> 1) & 1),  col(k) = 2*t + (i & 1) + 8*(i >> 2)
//   B: 4 bf16 in 2 .b32 registers; element i:
//        row(k) = 2*t + (i & 1) + 8*(i >> 1),  col(n) = g
//   C: 4 f32; element i:  row = g + 8*(i >> 1),  col = 2*t + (i & 1)
// LDS: A as [m][k], B as [n][k] (k contiguous: each register is one aligned 32-bit LDS read).
#ifndef ROCMATH_ATOM_MMA_M16N8K16_BF16_H
#define ROCMATH_ATOM_MMA_M16N8K16_BF16_H
#if RM_NVIDIA
struct rm_atom_mma_m16n8k16_bf16 {
    typedef rm_bf16 in_t;
    typedef float acc_t;
    enum { M = 16, N = 8, K = 16, WAVE = 32, A_ELEMS = 8, B_ELEMS = 4, C_ELEMS = 4, A_K_CONTIG = 1, B_K_CONTIG = 1,
           A_VEC = 2, B_VEC = 2 };
    struct AFrag { rm_u16 h[8]; };
    struct BFrag { rm_u16 h[4]; };
    struct CFrag { float v[4]; };
    static RM_INLINE int a_m(int l, int i) { return (l >> 2) + 8 * ((i >> 1) & 1); }
    static RM_INLINE int a_k(int l, int i) { return 2 * (l & 3) + (i & 1) + 8 * (i >> 2); }
    static RM_INLINE int b_k(int l, int i) { return 2 * (l & 3) + (i & 1) + 8 * (i >> 1); }
    static RM_INLINE int b_n(int l, int) { return l >> 2; }
    static RM_INLINE int c_m(int l, int i) { return (l >> 2) + 8 * (i >> 1); }
    static RM_INLINE int c_n(int l, int i) { return 2 * (l & 3) + (i & 1); }
    static RM_INLINE void a_set(AFrag& f, int i, rm_bf16 v) { f.h[i] = v.x; }
    static RM_INLINE void b_set(BFrag& f, int i, rm_bf16 v) { f.h[i] = v.x; }
    static RM_INLINE void c_zero(CFrag& c) { c.v[0] = c.v[1] = c.v[2] = c.v[3] = 0.0f; }
    static RM_INLINE float c_get(const CFrag& c, int i) { return c.v[i]; }
    static RM_INLINE rm_u32 pack(rm_u16 lo, rm_u16 hi) { return (rm_u32)lo | ((rm_u32)hi << 16); }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) {
        asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+f"(c.v[0]), "+f"(c.v[1]), "+f"(c.v[2]), "+f"(c.v[3])
            : "r"(pack(a.h[0], a.h[1])), "r"(pack(a.h[2], a.h[3])), "r"(pack(a.h[4], a.h[5])),
              "r"(pack(a.h[6], a.h[7])), "r"(pack(b.h[0], b.h[1])), "r"(pack(b.h[2], b.h[3])));
    }
};
template <> struct rm_c_store<rm_atom_mma_m16n8k16_bf16> : rm_c_store_m16n8 {};
template <> struct rm_frag_loader<rm_atom_mma_m16n8k16_bf16> : rm_ldmatrix_loader<rm_atom_mma_m16n8k16_bf16> {};
#endif
#endif
