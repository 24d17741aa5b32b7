// Complex f64 (zgemm) on AMD v_mfma_f64_16x16x4f64 (CDNA2+: gfx90a, gfx942; wave64):
//   C[8x16] c64 += A[8x2] c64 * B[2x16] c64 in complex elements, as one real 16 x 16 x 4 MFMA.
// A complex product c += a b is the real 2 x 2 block product
//   [c.re]   [a.re  -a.im] [b.re]
//   [c.im] + [a.im   a.re] [b.im]
// so the real operands are, with rows and k interleaved by component (the f64 MFMA's C rows
// 4q + i then hold both parts of complex rows 2q and 2q + 1 in one lane):
//   real row r = complex row r >> 1, component r & 1;  real k q = complex k q >> 1, component q & 1;
//   real C column = complex column.
// Lane layout of the real instruction (mfma_f64_16x16x4f64.h; l = lane 0..63): A[l % 16][l / 16],
// B[l / 16][l % 16], C[4 (l / 16) + i][l % 16]. So lane l reads one complex element of each
// operand and takes one part of it:
//   A: a = A[(l % 16) >> 1][l >> 5], c = l & 1, d = (l >> 4) & 1: a.re when c == d, else -a.im
//      (c = 0) or a.im (c = 1);
//   B: b = B[l >> 5][l % 16], part d = (l >> 4) & 1;
//   C: complex rows 2 (l / 16) + e, e = 0, 1, column l % 16: {v[2e], v[2e + 1]}.
// Conjugated operands (op = C) negate the imaginary part as it is read.
#ifndef ROCMATH_ATOM_MFMA_F64_16X16X4_Z_H
#define ROCMATH_ATOM_MFMA_F64_16X16X4_Z_H
#if RM_AMD
struct rm_atom_mfma_f64_16x16x4_z {
    typedef rm_atom_mfma_f64_16x16x4f64 Real;  // its fragments, accumulators and instruction
    typedef rm_c64 in_t;
    typedef rm_c64 acc_t;
    enum { M = 8, N = 16, K = 2, WAVE = 64, A_ELEMS = 1, B_ELEMS = 1, C_ELEMS = 2, A_K_CONTIG = 0, B_K_CONTIG = 0,
           A_VEC = 1, B_VEC = 1 };
    typedef Real::AFrag AFrag;
    typedef Real::BFrag BFrag;
    typedef Real::CFrag CFrag;
    // Complex coordinates of a lane's fragment elements.
    static RM_INLINE int a_m(int l, int) { return (l & 15) >> 1; }
    static RM_INLINE int a_k(int l, int) { return l >> 5; }
    static RM_INLINE int b_k(int l, int) { return l >> 5; }
    static RM_INLINE int b_n(int l, int) { return l & 15; }
    static RM_INLINE int c_m(int l, int i) { return 2 * (l >> 4) + i; }
    static RM_INLINE int c_n(int l, int) { return l & 15; }
    static RM_INLINE void c_zero(CFrag& c) { Real::c_zero(c); }
    static RM_INLINE rm_c64 c_get(const CFrag& c, int i) { return rm_make_c64(c.v[2 * i], c.v[2 * i + 1]); }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) { Real::mma(c, a, b); }
};

// Fragment loader: one complex element per operand and lane, the part the lane's real position
// takes, conjugated where the operand is (Off::CONJ).
template <> struct rm_frag_loader<rm_atom_mfma_f64_16x16x4_z> {
    typedef rm_atom_mfma_f64_16x16x4_z Atom;
    template <class Off>
    static RM_INLINE void a(Atom::AFrag& f, const rm_c64* s, Off off, int m0, int k0, int lane) {
        const rm_c64 x = s[off(m0 + Atom::a_m(lane, 0), k0 + Atom::a_k(lane, 0))];
        const double im = Off::CONJ ? -x.y : x.y;
        const bool c = lane & 1, d = (lane >> 4) & 1;
        f.v = c == d ? x.x : (c ? im : -im);
    }
    template <class Off>
    static RM_INLINE void b(Atom::BFrag& f, const rm_c64* s, Off off, int k0, int n0, int lane) {
        const rm_c64 x = s[off(k0 + Atom::b_k(lane, 0), n0 + Atom::b_n(lane, 0))];
        f.v = (lane >> 4) & 1 ? (Off::CONJ ? -x.y : x.y) : x.x;
    }
};
#endif
#endif
