// Complex f64 (zgemm) on the DMMA instructions (sm_90 only, warp32):
//   C[8x8] c64 += A[8x8] c64 * B[8x8] c64 in complex elements, as one real
//   mma.sync.aligned.m16n8k16.row.col.f64 on a 16 x 16 real A, 16 x 8 real B and 16 x 8 real C;
//   and C[8x8] += A[8x4] * B[4x8] as one m16n8k8 (half the fragment registers).
// A complex product c += a b is the real 2 x 2 block product
//   [c.re]   [a.re  -a.im] [b.re]
//   [c.im] + [a.im   a.re] [b.im]
// so an 8 x 8 x 8 complex block is a 16 x 8 x 16 real one with
//   real row r      = complex row (r & 7), component r >> 3 (rows 0-7 the real parts, 8-15 the imaginary),
//   real k column q = complex k (q & 7),   component q >> 3 (B's real rows likewise; k8: q & 3, q >> 2),
//   real C column   = complex column.
// That costs no extra products (8 real flops per complex multiply-add, the zgemm count), and with
// the DMMA lane layout (rm_mma_m16n8_scalar_layout; l = lane, g = l >> 2, t = l & 3) each lane's
// fragments come from whole complex elements, with no per-lane selects:
//   A: lane reads a0 = A[g][t] and a1 = A[g][t + 4];
//      v = {a0.re, a0.im, a1.re, a1.im, -a0.im, a0.re, -a1.im, a1.re}
//   B: lane reads b0 = B[t][g] and b1 = B[t + 4][g];  v = {b0.re, b1.re, b0.im, b1.im}
//   C: v = {C[g][2t].re, C[g][2t + 1].re, C[g][2t].im, C[g][2t + 1].im}
// and for m16n8k8, a0 = A[g][t]: v = {a0.re, a0.im, -a0.im, a0.re}; b0 = B[t][g]: v = {b0.re, b0.im}.
// Conjugated operands (op = C) negate the imaginary part as it is read (the direct path's LDS
// tiles hold the operands as stored). LDS: one 16-byte read per complex element.
#ifndef ROCMATH_ATOM_MMA_Z_H
#define ROCMATH_ATOM_MMA_Z_H
#if RM_NVIDIA
// What the two complex DMMA atoms share: complex coordinates of element i of a lane's fragments,
// and the real atom `Real` they run on (its fragments, accumulators and instruction).
template <class Real> struct rm_atom_mma_z_layout {
    typedef rm_c64 in_t;
    typedef rm_c64 acc_t;
    typedef typename Real::AFrag AFrag;
    typedef typename Real::BFrag BFrag;
    typedef typename Real::CFrag CFrag;
    static RM_INLINE int a_m(int l, int) { return l >> 2; }
    static RM_INLINE int a_k(int l, int i) { return (l & 3) + 4 * i; }
    static RM_INLINE int b_k(int l, int i) { return (l & 3) + 4 * i; }
    static RM_INLINE int b_n(int l, int) { return l >> 2; }
    static RM_INLINE int c_m(int l, int) { return l >> 2; }
    static RM_INLINE int c_n(int l, int i) { return 2 * (l & 3) + i; }
    static RM_INLINE void c_zero(CFrag& c) { Real::c_zero(c); }
    static RM_INLINE rm_c64 c_get(const CFrag& c, int i) { return rm_make_c64(c.v[i], c.v[2 + i]); }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) { Real::mma(c, a, b); }
};

struct rm_atom_mma_m16n8k16_z : rm_atom_mma_z_layout<rm_atom_mma_m16n8k16_f64> {
    enum { M = 8, N = 8, K = 8, WAVE = 32, A_ELEMS = 2, B_ELEMS = 2, C_ELEMS = 2, A_K_CONTIG = 1, B_K_CONTIG = 1,
           A_VEC = 1, B_VEC = 1 };
    static RM_INLINE void a_set(AFrag& f, int i, rm_c64 v) {
        f.v[2 * i] = v.x;
        f.v[2 * i + 1] = v.y;
        f.v[4 + 2 * i] = -v.y;
        f.v[5 + 2 * i] = v.x;
    }
    static RM_INLINE void b_set(BFrag& f, int i, rm_c64 v) {
        f.v[i] = v.x;
        f.v[2 + i] = v.y;
    }
};

struct rm_atom_mma_m16n8k8_z : rm_atom_mma_z_layout<rm_atom_mma_m16n8k8_f64> {
    enum { M = 8, N = 8, K = 4, WAVE = 32, A_ELEMS = 1, B_ELEMS = 1, C_ELEMS = 2, A_K_CONTIG = 1, B_K_CONTIG = 1,
           A_VEC = 1, B_VEC = 1 };
    static RM_INLINE void a_set(AFrag& f, int, rm_c64 v) {
        f.v[0] = v.x;
        f.v[1] = v.y;
        f.v[2] = -v.y;
        f.v[3] = v.x;
    }
    static RM_INLINE void b_set(BFrag& f, int, rm_c64 v) {
        f.v[0] = v.x;
        f.v[1] = v.y;
    }
};

// Fragment loader of both: each complex element one 16-byte LDS read (rm_c64 itself is only
// 8-byte aligned), conjugated where the operand is (Off::CONJ).
template <class Atom> struct rm_z_frag_loader {
    struct __attribute__((aligned(16))) Pair { double x, y; };
    template <bool CONJ> static RM_INLINE rm_c64 read(const rm_c64* p) {
        const Pair v = *(const Pair*)p;
        return rm_make_c64(v.x, CONJ ? -v.y : v.y);
    }
    template <class Off>
    static RM_INLINE void a(typename Atom::AFrag& f, const rm_c64* s, Off off, int m0, int k0, int lane) {
        const int at = off(m0 + Atom::a_m(lane, 0), k0 + Atom::a_k(lane, 0));
#pragma unroll
        for (int i = 0; i < Atom::A_ELEMS; ++i) {
            const int o = Off::LINEAR ? at + off(0, 4 * i) : off(m0 + Atom::a_m(lane, i), k0 + Atom::a_k(lane, i));
            Atom::a_set(f, i, read<Off::CONJ>(s + o));
        }
    }
    template <class Off>
    static RM_INLINE void b(typename Atom::BFrag& f, const rm_c64* s, Off off, int k0, int n0, int lane) {
        const int at = off(k0 + Atom::b_k(lane, 0), n0 + Atom::b_n(lane, 0));
#pragma unroll
        for (int i = 0; i < Atom::B_ELEMS; ++i) {
            const int o = Off::LINEAR ? at + off(4 * i, 0) : off(k0 + Atom::b_k(lane, i), n0 + Atom::b_n(lane, i));
            Atom::b_set(f, i, read<Off::CONJ>(s + o));
        }
    }
};
template <> struct rm_frag_loader<rm_atom_mma_m16n8k16_z> : rm_z_frag_loader<rm_atom_mma_m16n8k16_z> {};
template <> struct rm_frag_loader<rm_atom_mma_m16n8k8_z> : rm_z_frag_loader<rm_atom_mma_m16n8k8_z> {};
#endif
#endif
