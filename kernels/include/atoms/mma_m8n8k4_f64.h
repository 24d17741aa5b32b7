// NVIDIA mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 (sm_80+, warp32, DMMA):
//   C[8x8] f64 += A[8x4] f64 (row) * B[4x8] f64 (col).
// Lane layout (PTX ISA, "Matrix Fragments for mma.m8n8k4 with .f64"; l = lane, g = l >> 2, t = l & 3):
//   A: 1 double:  row = g, col(k) = t
//   B: 1 double:  row(k) = t, col(n) = g
//   C: 2 doubles: element i: row = g, col = 2*t + i
// LDS: A as [m][k], B as [n][k] (k contiguous; pad the row to 4 mod 16 doubles for no conflicts).
#ifndef ROCMATH_ATOM_MMA_M8N8K4_F64_H
#define ROCMATH_ATOM_MMA_M8N8K4_F64_H
#if RM_NVIDIA
struct rm_atom_mma_m8n8k4_f64 {
    typedef double in_t;
    typedef double acc_t;
    enum { M = 8, N = 8, K = 4, WAVE = 32, A_ELEMS = 1, B_ELEMS = 1, C_ELEMS = 2, A_K_CONTIG = 1, B_K_CONTIG = 1,
           A_VEC = 1, B_VEC = 1 };
    struct AFrag { double v; };
    struct BFrag { double v; };
    struct CFrag { double v[2]; };
    static RM_INLINE int a_m(int l, int) { return l >> 2; }
    static RM_INLINE int a_k(int l, int) { return l & 3; }
    static RM_INLINE int b_k(int l, int) { return l & 3; }
    static RM_INLINE int b_n(int l, int) { return l >> 2; }
    static RM_INLINE int c_m(int l, int) { return l >> 2; }
    static RM_INLINE int c_n(int l, int i) { return 2 * (l & 3) + i; }
    static RM_INLINE void a_set(AFrag& f, int, double v) { f.v = v; }
    static RM_INLINE void b_set(BFrag& f, int, double v) { f.v = v; }
    static RM_INLINE void c_zero(CFrag& c) { c.v[0] = c.v[1] = 0.0; }
    static RM_INLINE double c_get(const CFrag& c, int i) { return c.v[i]; }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) {
        asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
            : "+d"(c.v[0]), "+d"(c.v[1])
            : "d"(a.v), "d"(b.v));
    }
};
#endif
#endif
