// NVIDIA mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 (sm_90 only, warp32, DMMA), as
// rm_atom_mma_m16n8k16_f64, with k permuted so that a lane's fragment elements are consecutive in
// k. The product sums over k, so any permutation of the atom's 16 k applied to A and B alike
// leaves it unchanged. Lane t = l & 3 takes the instruction's k = t + 4j (j = 0..3) from k = 4t + j
// of the tile:
//   A element i: row = g + 8*(i & 1), k = 4t + (i >> 1);  B element i: k = 4t + i, n = g
// (g = l >> 2; C as the scalar layout). Where a tile is k-contiguous, a lane's four k of one row
// (n) are then two 16-byte reads (LDS.128) instead of four 8-byte ones.
// Banks: with rows padded by 2 doubles, both tile layouts read conflict-free. k-contiguous rows of
// MT_K + 2 (2 mod 4) doubles put the two rows of an 8-lane LDS.128 phase on disjoint bank halves;
// m-contiguous rows 4t + j of MT + 2 doubles (2 mod 16 bank pairs) put lanes t = 0, 2 and t = 1, 3
// 8 pairs apart. (Rows padded by 4 put all four t of an m-contiguous read on one bank pair.)
#ifndef ROCMATH_ATOM_MMA_M16N8K16_F64_PAIRED_H
#define ROCMATH_ATOM_MMA_M16N8K16_F64_PAIRED_H
#if RM_NVIDIA
struct rm_atom_mma_m16n8k16_f64_paired : rm_atom_mma_m16n8k16_f64 {
    static RM_INLINE int a_k(int l, int i) { return 4 * (l & 3) + (i >> 1); }
    static RM_INLINE int b_k(int l, int i) { return 4 * (l & 3) + i; }
};

// Direct path: k-contiguous tiles in 16-byte pairs (an even k and the next one share a 16-byte
// chunk under padding and XOR swizzling alike); m- (n-) contiguous tiles element by element.
template <> struct rm_frag_loader<rm_atom_mma_m16n8k16_f64_paired> {
    typedef rm_atom_mma_m16n8k16_f64_paired Atom;
    template <class Off>
    static RM_INLINE void a(Atom::AFrag& f, const double* s, Off off, int m0, int k0, int lane) {
        if (!Off::K_CONTIG) {
            rm_frag_loader_generic<Atom>::a(f, s, off, m0, k0, lane);
            return;
        }
#pragma unroll
        for (int r = 0; r < 2; ++r)
#pragma unroll
            for (int q = 0; q < 2; ++q) {
                // elements i = 4q + r (k = 4t + 2q) and i + 2 (the next k)
                const rm_vec<double, 2> x = *(const rm_vec<double, 2>*)(s + off(m0 + Atom::a_m(lane, r), k0 + Atom::a_k(lane, 4 * q + r)));
                f.v[4 * q + r] = x.v[0];
                f.v[4 * q + r + 2] = x.v[1];
            }
    }
    template <class Off>
    static RM_INLINE void b(Atom::BFrag& f, const double* s, Off off, int k0, int n0, int lane) {
        if (!Off::K_CONTIG) {
            rm_frag_loader_generic<Atom>::b(f, s, off, k0, n0, lane);
            return;
        }
#pragma unroll
        for (int q = 0; q < 2; ++q) {
            const rm_vec<double, 2> x = *(const rm_vec<double, 2>*)(s + off(k0 + Atom::b_k(lane, 2 * q), n0 + Atom::b_n(lane, 0)));
            f.v[2 * q] = x.v[0];
            f.v[2 * q + 1] = x.v[1];
        }
    }
};
#endif
#endif
