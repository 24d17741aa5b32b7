// NVIDIA mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 (sm_80+, warp32):
//   C[16x8] s32 += A[16x32] s8 (row) * B[32x8] s8 (col), wrapping modulo 2^32.
// Lane layout (PTX ISA, "Matrix Fragments for mma.m16n8k32" with .s8; l = lane, g = l >> 2,
// t = l & 3); four s8 per 32-bit register, element i in byte i & 3 of register i >> 2:
//   A: 16 values; element i: row = g + 8*((i >> 2) & 1),  col(k) = 4*t + (i & 3) + 16*(i >> 3)
//   B: 8 values;  element i: row(k) = 4*t + (i & 3) + 16*(i >> 2),  col(n) = g
//   C: 4 s32;     element i: row = g + 8*(i >> 1), col = 2*t + (i & 1)
// LDS: A as [m][k], B as [n][k] (k contiguous: each register is one aligned 32-bit LDS read).
#ifndef ROCMATH_ATOM_MMA_M16N8K32_S8_H
#define ROCMATH_ATOM_MMA_M16N8K32_S8_H
#if RM_NVIDIA
struct rm_atom_mma_m16n8k32_s8 {
    typedef rm_i8 in_t;
    typedef int acc_t;
    enum { M = 16, N = 8, K = 32, WAVE = 32, A_ELEMS = 16, B_ELEMS = 8, C_ELEMS = 4, A_K_CONTIG = 1, B_K_CONTIG = 1,
           A_VEC = 4, B_VEC = 4 };
    struct AFrag { rm_u8 b[16]; };
    struct BFrag { rm_u8 b[8]; };
    struct CFrag { int v[4]; };
    static RM_INLINE int a_m(int l, int i) { return (l >> 2) + 8 * ((i >> 2) & 1); }
    static RM_INLINE int a_k(int l, int i) { return 4 * (l & 3) + (i & 3) + 16 * (i >> 3); }
    static RM_INLINE int b_k(int l, int i) { return 4 * (l & 3) + (i & 3) + 16 * (i >> 2); }
    static RM_INLINE int b_n(int l, int) { return l >> 2; }
    static RM_INLINE int c_m(int l, int i) { return (l >> 2) + 8 * (i >> 1); }
    static RM_INLINE int c_n(int l, int i) { return 2 * (l & 3) + (i & 1); }
    static RM_INLINE void a_set(AFrag& f, int i, rm_i8 v) { f.b[i] = (rm_u8)v; }
    static RM_INLINE void b_set(BFrag& f, int i, rm_i8 v) { f.b[i] = (rm_u8)v; }
    static RM_INLINE void c_zero(CFrag& c) { c.v[0] = c.v[1] = c.v[2] = c.v[3] = 0; }
    static RM_INLINE int c_get(const CFrag& c, int i) { return c.v[i]; }
    static RM_INLINE rm_u32 pack(const rm_u8* p) {
        return (rm_u32)p[0] | ((rm_u32)p[1] << 8) | ((rm_u32)p[2] << 16) | ((rm_u32)p[3] << 24);
    }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) {
        asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
            : "+r"(c.v[0]), "+r"(c.v[1]), "+r"(c.v[2]), "+r"(c.v[3])
            : "r"(pack(a.b)), "r"(pack(a.b + 4)), "r"(pack(a.b + 8)), "r"(pack(a.b + 12)), "r"(pack(b.b)),
              "r"(pack(b.b + 4)));
    }
};
template <> struct rm_c_store<rm_atom_mma_m16n8k32_s8> : rm_c_store_m16n8 {};
#endif
#endif
