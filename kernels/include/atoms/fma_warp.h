// Warp-tiled FMA "atom": 32 lanes compute C[32 x 16] += A[32 x 1] * B[1 x 16] in f32 or complex
// f32 (T = rm_c32: 4 FMAs per product), each lane a 4 x 4 outer product of 4 A and 4 B elements.
// Lanes form an 8 x 4 grid; a lane's elements come in runs of VEC (one 16-byte LDS read each: 4
// floats, 2 complex), the 8 (4) lanes of a row (column) of the grid taking consecutive runs:
//   A element i: m = VEC*(l & 7) + i % VEC + 8*VEC*(i / VEC),  k = 0
//   B element i: n = VEC*(l >> 3) + i % VEC + 4*VEC*(i / VEC), k = 0
//   C element i: m = A's m of element i & 3,  n = B's n of element i >> 2
// (f32: rows 4*(l & 7) .. +3 and columns 4*(l >> 3) .. +3.)
// Why: the scalar FMA atom gives each thread a contiguous register tile and reads LDS one word at
// a time. Here a wave's REP_M x REP_N atoms sit 32 rows / 16 columns apart (CUTLASS's SIMT warp
// tiling), so every fragment read is an aligned 16-byte LDS read, each of which 8 lanes make of 128
// contiguous bytes of A (the rest are broadcasts: no bank conflicts), and a lane's stored rows
// come in contiguous runs of VEC in D.
// The lanes of one atom must be the first or second half of a hardware wave64 on AMD, or a warp:
// the tiling code only treats the wave index as uniform when WAVE is the hardware wave size.
#ifndef ROCMATH_ATOM_FMA_WARP_H
#define ROCMATH_ATOM_FMA_WARP_H
template <class T> struct rm_atom_fma_warp {
    typedef T in_t;
    typedef T acc_t;
    enum { VEC = 16 / sizeof(T) };
    static_assert(VEC == 2 || VEC == 4, "f32 or complex f32 elements");
    enum { M = 32, N = 16, K = 1, WAVE = 32, A_ELEMS = 4, B_ELEMS = 4, C_ELEMS = 16, A_K_CONTIG = 0, B_K_CONTIG = 0,
           A_VEC = VEC, B_VEC = VEC };
    struct AFrag { T v[4]; };
    struct BFrag { T v[4]; };
    struct CFrag { T v[16]; };
    static RM_INLINE int a_m(int l, int i) { return VEC * (l & 7) + i % VEC + 8 * VEC * (i / VEC); }
    static RM_INLINE int a_k(int, int) { return 0; }
    static RM_INLINE int b_k(int, int) { return 0; }
    static RM_INLINE int b_n(int l, int i) { return VEC * (l >> 3) + i % VEC + 4 * VEC * (i / VEC); }
    static RM_INLINE int c_m(int l, int i) { return a_m(l, i & 3); }
    static RM_INLINE int c_n(int l, int i) { return b_n(l, i >> 2); }
    static RM_INLINE void a_set(AFrag& f, int i, T v) { f.v[i] = v; }
    static RM_INLINE void b_set(BFrag& f, int i, T v) { f.v[i] = v; }
    static RM_INLINE void c_zero(CFrag& c) {
#pragma unroll
        for (int i = 0; i < 16; ++i) c.v[i] = rm_zero<T>();
    }
    static RM_INLINE T c_get(const CFrag& c, int i) { return c.v[i]; }
    static RM_INLINE void mma(CFrag& c, const AFrag& a, const BFrag& b) {
#pragma unroll
        for (int i = 0; i < 16; ++i) c.v[i] = rm_madd(a.v[i & 3], b.v[i >> 2], c.v[i]);
    }
};

// C elements VEC*j .. +VEC-1: consecutive rows of one column.
template <class T> struct rm_c_store<rm_atom_fma_warp<T> > : rm_c_store_runs<rm_atom_fma_warp<T>, rm_atom_fma_warp<T>::VEC> {};

// Direct path: where the LDS tile is m- (n-) contiguous, each run of VEC elements is one whole
// 16-byte chunk under padding and XOR swizzling, so one vector read (conjugated as read for
// op = C); k-contiguous tiles are read element by element.
template <class T> struct rm_frag_loader<rm_atom_fma_warp<T> > {
    typedef rm_atom_fma_warp<T> Atom;
    template <class Off>
    static RM_INLINE void a(typename Atom::AFrag& f, const T* s, Off off, int m0, int k0, int lane) {
        if (Off::K_CONTIG) {
            rm_frag_loader_generic<Atom>::a(f, s, off, m0, k0, lane);
            return;
        }
#pragma unroll
        for (int c = 0; c < 4; c += Atom::VEC) {
            const rm_vec<T, Atom::VEC> x = *(const rm_vec<T, Atom::VEC>*)(s + off(m0 + Atom::a_m(lane, c), k0));
#pragma unroll
            for (int i = 0; i < Atom::VEC; ++i) f.v[c + i] = rm_conj_if(Off::CONJ, x.v[i]);
        }
    }
    template <class Off>
    static RM_INLINE void b(typename Atom::BFrag& f, const T* s, Off off, int k0, int n0, int lane) {
        if (Off::K_CONTIG) {
            rm_frag_loader_generic<Atom>::b(f, s, off, k0, n0, lane);
            return;
        }
#pragma unroll
        for (int c = 0; c < 4; c += Atom::VEC) {
            const rm_vec<T, Atom::VEC> x = *(const rm_vec<T, Atom::VEC>*)(s + off(k0, n0 + Atom::b_n(lane, c)));
#pragma unroll
            for (int i = 0; i < Atom::VEC; ++i) f.v[c + i] = rm_conj_if(Off::CONJ, x.v[i]);
        }
    }
};
#endif
