// rocmath GEMM: D = alpha * op(A) * op(B) + beta * C, column-major, strided batched.
//
// The blocking is written once here (BLIS rule) and parameterised by
//   * an atom (include/atoms/*.h): the instruction, its shape and lane layouts, and
//   * a config (rm_gemm_config): macro tile MT_M x MT_N x MT_K, waves WM x WN per block, LDS pads.
// Per-arch code is only atom + config; the Rust side (src/blas/mod.rs) emits the extern "C"
// kernels with RM_GEMM_KERNEL.
//
// Block structure (THREADS = WM * WN * Atom::WAVE threads, one block per MT_M x MT_N tile of D,
// blockIdx.z = batch):
//   1. every thread loads its share of the op(A) (MT_M x MT_K) and op(B) (MT_K x MT_N) tiles from
//      global memory into registers, coalesced along the dimension that is contiguous in memory
//      (that depends on the transpose), converting to the atom's input type and conjugating for C;
//      out-of-range elements (rows >= m, cols >= n, depth >= k) are zero.
//   2. the registers are stored into LDS in the atom's preferred layout (k- or m/n-contiguous,
//      padded rows); barrier; the next tile is loaded into registers (prefetch) while
//   3. each wave computes its WT_M x WT_N sub-tile as REP_M x REP_N atoms per Atom::K step,
//      reading fragments from LDS through the atom's layout functions; barrier.
//   4. epilogue: each lane scales its accumulators by alpha, adds beta * C (C is not read when
//      beta == 0) and writes the in-range elements of D. Nothing outside [0,m) x [0,n) is written.
// alpha == 0 or k == 0: A and B are not read and D = beta * C.
// D may alias C (same pointer, same ld): every element of C is read by the thread that writes
// the same element of D, before writing it.

#ifndef ROCMATH_GEMM_HIP
#define ROCMATH_GEMM_HIP

// Element types of a GEMM family: A/B storage, C/D storage, compute (accumulate, by-value
// alpha/beta), and the type a device-mode alpha/beta pointer points to.
template <class Tab_, class Tc_, class Tcompute_, class Tscalar_> struct rm_gemm_types {
    typedef Tab_ ab;
    typedef Tc_ c;
    typedef Tcompute_ compute;
    typedef Tscalar_ scalar;
};
typedef rm_gemm_types<float, float, float, float> rm_gemm_ty_s;
typedef rm_gemm_types<double, double, double, double> rm_gemm_ty_d;
typedef rm_gemm_types<rm_c32, rm_c32, rm_c32, rm_c32> rm_gemm_ty_c;
typedef rm_gemm_types<rm_c64, rm_c64, rm_c64, rm_c64> rm_gemm_ty_z;
typedef rm_gemm_types<rm_half, rm_half, float, rm_half> rm_gemm_ty_h;
typedef rm_gemm_types<rm_half, float, float, float> rm_gemm_ty_hss;
typedef rm_gemm_types<rm_bf16, float, float, float> rm_gemm_ty_bss;
typedef rm_gemm_types<rm_half, rm_half, float, float> rm_gemm_ty_hhs;
typedef rm_gemm_types<rm_bf16, rm_bf16, float, float> rm_gemm_ty_bbs;

// Transposes (template parameters): 0 = N, 1 = T, 2 = C (conjugate transpose).
#define RM_OP_N 0
#define RM_OP_T 1
#define RM_OP_C 2

template <class Atom_, int MT_M_, int MT_N_, int MT_K_, int WM_, int WN_, int PAD_A_, int PAD_B_,
          int MIN_WAVES_>
struct rm_gemm_config {
    typedef Atom_ Atom;
    enum {
        MT_M = MT_M_, MT_N = MT_N_, MT_K = MT_K_,   // macro tile
        WM = WM_, WN = WN_,                         // waves (FMA atom: threads) per block in M, N
        PAD_A = PAD_A_, PAD_B = PAD_B_,             // LDS row padding, in elements
        MIN_WAVES = MIN_WAVES_,                     // AMD: waves per SIMD the compiler must allow
        THREADS = WM * WN * Atom::WAVE,
        WT_M = MT_M / WM, WT_N = MT_N / WN,         // wave tile
        REP_M = WT_M / Atom::M, REP_N = WT_N / Atom::N,
        LDS_A = Atom::A_K_CONTIG ? MT_M * (MT_K + PAD_A) : MT_K * (MT_M + PAD_A),
        LDS_B = Atom::B_K_CONTIG ? MT_N * (MT_K + PAD_B) : MT_K * (MT_N + PAD_B),
        A_PER_THREAD = (MT_M * MT_K) / THREADS,
        B_PER_THREAD = (MT_K * MT_N) / THREADS
    };
    static_assert(MT_M % WM == 0 && MT_N % WN == 0, "macro tile must split evenly over the waves");
    static_assert(WT_M % Atom::M == 0 && WT_N % Atom::N == 0, "wave tile must be a multiple of the atom");
    static_assert(MT_K % Atom::K == 0, "MT_K must be a multiple of the atom's K");
    static_assert((MT_M * MT_K) % THREADS == 0 && (MT_K * MT_N) % THREADS == 0,
                  "A and B tiles must split evenly over the threads");
    static_assert((Atom::A_K_CONTIG ? MT_K + PAD_A : MT_M + PAD_A) % Atom::A_VEC == 0 &&
                  (Atom::B_K_CONTIG ? MT_K + PAD_B : MT_N + PAD_B) % Atom::B_VEC == 0,
                  "LDS rows must keep the atom's vector reads aligned");
    // LDS index of op(A)(m, k) and op(B)(k, n) within the tile.
    static RM_INLINE int lds_a(int m, int k) {
        return Atom::A_K_CONTIG ? m * (MT_K + PAD_A) + k : k * (MT_M + PAD_A) + m;
    }
    static RM_INLINE int lds_b(int k, int n) {
        return Atom::B_K_CONTIG ? n * (MT_K + PAD_B) + k : k * (MT_N + PAD_B) + n;
    }
};

// Global-load vector width: the largest power of two <= GV that divides the per-thread count
// and the contiguous extent of the tile.
template <int GV, int PER, int CONT> struct rm_gemm_gv {
    enum { value = (PER % GV == 0 && CONT % GV == 0) ? GV : rm_gemm_gv<GV / 2, PER, CONT>::value };
};
template <int PER, int CONT> struct rm_gemm_gv<1, PER, CONT> { enum { value = 1 }; };

// One operand tile (op(A): rows = M, or op(B)^T: rows = N; depth = K) staged global -> registers
// -> LDS. The tile is read in chunks of GV elements along the dimension that is contiguous in
// memory (rows when the operand is not transposed for A / transposed for B, depth otherwise), as
// one 16-byte (or narrower) load when `vec_ok` (base and ld aligned) and the chunk is in range,
// else element by element with bounds checks (out-of-range elements are zero).
//   ROWS_CONTIG: 1 when rows are contiguous in memory (element (r, d) at P[r + d*ld]),
//                0 when depth is (element (r, d) at P[d + r*ld]).
template <class Cfg, int ROWS, int PER, int ROWS_CONTIG, bool CONJ, class Tab, class Tin>
struct rm_gemm_stage {
    enum {
        CONT = ROWS_CONTIG ? ROWS : Cfg::MT_K,
        GV = rm_gemm_gv<(16 / (int)sizeof(Tab) > 0 ? 16 / (int)sizeof(Tab) : 1), PER, CONT>::value,
        CHUNKS = PER / GV,
        CPL = CONT / GV  // chunks per line of the contiguous dimension
    };
    // Coordinates (row, depth) of element j of chunk c of this thread.
    static RM_INLINE void coord(int c, int tid, int& r, int& d) {
        const int cidx = tid + c * Cfg::THREADS;
        const int cont = (cidx % CPL) * GV;
        const int other = cidx / CPL;
        r = ROWS_CONTIG ? cont : other;
        d = ROWS_CONTIG ? other : cont;
    }
    static RM_INLINE void load(Tin (&v)[PER], const Tab* P, long long ld, int rows, int depth, int r0,
                               int d0, int tid, bool vec_ok) {
#pragma unroll
        for (int c = 0; c < CHUNKS; ++c) {
            int r, d;
            coord(c, tid, r, d);
            const int gr = r0 + r, gd = d0 + d;
            const Tab* p = ROWS_CONTIG ? P + (gr + (long long)gd * ld) : P + (gd + (long long)gr * ld);
            const bool full = ROWS_CONTIG ? (gr + GV <= rows && gd < depth) : (gd + GV <= depth && gr < rows);
            if (GV > 1 && vec_ok && full) {
                const rm_vec<Tab, GV> x = rm_load_vec<Tab, GV>(p);
#pragma unroll
                for (int j = 0; j < GV; ++j) v[c * GV + j] = rm_convert<Tin>(rm_conj_if(CONJ, x.v[j]));
            } else {
#pragma unroll
                for (int j = 0; j < GV; ++j) {
                    const bool in = ROWS_CONTIG ? (gr + j < rows && gd < depth) : (gd + j < depth && gr < rows);
                    v[c * GV + j] = in ? rm_convert<Tin>(rm_conj_if(CONJ, p[j])) : rm_zero<Tin>();
                }
            }
        }
    }
    // Store into LDS through idx(row, depth).
    template <class Idx>
    static RM_INLINE void store(Tin* s, const Tin (&v)[PER], int tid, Idx idx) {
#pragma unroll
        for (int c = 0; c < CHUNKS; ++c) {
            int r, d;
            coord(c, tid, r, d);
#pragma unroll
            for (int j = 0; j < GV; ++j) s[idx(ROWS_CONTIG ? r + j : r, ROWS_CONTIG ? d : d + j)] = v[c * GV + j];
        }
    }
};

template <class Cfg> struct rm_gemm_idx_a {
    RM_INLINE int operator()(int m, int k) const { return Cfg::lds_a(m, k); }
};
template <class Cfg> struct rm_gemm_idx_b {
    RM_INLINE int operator()(int n, int k) const { return Cfg::lds_b(k, n); }
};

// Make a by-value scalar an opaque SSA value (stops the NVPTX back end from turning
// "pointer ? *pointer : by-value" into a select of addresses, which needs a local copy).
RM_INLINE float rm_opaque(float v) {
#if RM_NVIDIA
    asm("" : "+f"(v));
#endif
    return v;
}
RM_INLINE double rm_opaque(double v) {
#if RM_NVIDIA
    asm("" : "+d"(v));
#endif
    return v;
}
RM_INLINE rm_c32 rm_opaque(rm_c32 v) { return rm_make_c32(rm_opaque(v.x), rm_opaque(v.y)); }
RM_INLINE rm_c64 rm_opaque(rm_c64 v) { return rm_make_c64(rm_opaque(v.x), rm_opaque(v.y)); }

template <class Cfg, class Ty, int TA, int TB>
RM_INLINE void rm_gemm_body(int m, int n, int k, typename Ty::compute alpha, typename Ty::compute beta,
                            const typename Ty::scalar* alpha_ptr, const typename Ty::scalar* beta_ptr,
                            const typename Ty::ab* A, long long lda, long long stride_a,
                            const typename Ty::ab* B, long long ldb, long long stride_b,
                            const typename Ty::c* C, long long ldc, long long stride_c,
                            typename Ty::c* D, long long ldd, long long stride_d) {
    typedef typename Cfg::Atom Atom;
    typedef typename Atom::in_t Tin;
    typedef typename Ty::compute Tcomp;
    typedef typename Ty::c Tc;
    typedef typename Ty::ab Tab;

    __shared__ __attribute__((aligned(16))) Tin sA[Cfg::LDS_A];
    __shared__ __attribute__((aligned(16))) Tin sB[Cfg::LDS_B];

    alpha = rm_opaque(alpha);
    beta = rm_opaque(beta);
    if (alpha_ptr) alpha = rm_convert<Tcomp>(*alpha_ptr);
    if (beta_ptr) beta = rm_convert<Tcomp>(*beta_ptr);

    const int tid = rm_tid_x();
    const long long batch = rm_bid_z();
    const int m0 = rm_bid_x() * Cfg::MT_M;
    const int n0 = rm_bid_y() * Cfg::MT_N;
    A += batch * stride_a;
    B += batch * stride_b;
    C += batch * stride_c;
    D += batch * stride_d;

    const int wave = Atom::WAVE > 1 ? rm_uniform(tid / Atom::WAVE) : tid;
    const int lane = tid % Atom::WAVE;
    const int wm0 = (wave % Cfg::WM) * Cfg::WT_M;
    const int wn0 = (wave / Cfg::WM) * Cfg::WT_N;

    typename Atom::CFrag acc[Cfg::REP_M][Cfg::REP_N];
#pragma unroll
    for (int rm = 0; rm < Cfg::REP_M; ++rm)
#pragma unroll
        for (int rn = 0; rn < Cfg::REP_N; ++rn) Atom::c_zero(acc[rm][rn]);

    const bool do_mul = k > 0 && !rm_is_zero(alpha);
    if (do_mul) {
        // op(A) is M x K: rows (m) contiguous in memory when TA == N.
        typedef rm_gemm_stage<Cfg, Cfg::MT_M, Cfg::A_PER_THREAD, TA == RM_OP_N, TA == RM_OP_C, Tab, Tin> SA;
        // op(B)^T is N x K: rows (n) contiguous in memory when TB != N.
        typedef rm_gemm_stage<Cfg, Cfg::MT_N, Cfg::B_PER_THREAD, TB != RM_OP_N, TB == RM_OP_C, Tab, Tin> SB;
        const bool vec_a = ((rm_u64)(const void*)A % (SA::GV * sizeof(Tab))) == 0 && lda % SA::GV == 0;
        const bool vec_b = ((rm_u64)(const void*)B % (SB::GV * sizeof(Tab))) == 0 && ldb % SB::GV == 0;
        Tin ra[Cfg::A_PER_THREAD];
        Tin rb[Cfg::B_PER_THREAD];
        SA::load(ra, A, lda, m, k, m0, 0, tid, vec_a);
        SB::load(rb, B, ldb, n, k, n0, 0, tid, vec_b);
        for (int k0 = 0; k0 < k; k0 += Cfg::MT_K) {
            SA::store(sA, ra, tid, rm_gemm_idx_a<Cfg>());
            SB::store(sB, rb, tid, rm_gemm_idx_b<Cfg>());
            rm_barrier();
            if (k0 + Cfg::MT_K < k) {  // prefetch the next tiles while computing this one
                SA::load(ra, A, lda, m, k, m0, k0 + Cfg::MT_K, tid, vec_a);
                SB::load(rb, B, ldb, n, k, n0, k0 + Cfg::MT_K, tid, vec_b);
            }
#pragma unroll
            for (int kk = 0; kk < Cfg::MT_K; kk += Atom::K) {
                typename Atom::AFrag fa[Cfg::REP_M];
                typename Atom::BFrag fb[Cfg::REP_N];
#pragma unroll
                for (int rm = 0; rm < Cfg::REP_M; ++rm)
#pragma unroll
                    for (int i = 0; i < Atom::A_ELEMS; i += Atom::A_VEC) {
                        const int at = Cfg::lds_a(wm0 + rm * Atom::M + Atom::a_m(lane, i), kk + Atom::a_k(lane, i));
                        const rm_vec<Tin, Atom::A_VEC> x = *(const rm_vec<Tin, Atom::A_VEC>*)(sA + at);
#pragma unroll
                        for (int j = 0; j < Atom::A_VEC; ++j) Atom::a_set(fa[rm], i + j, x.v[j]);
                    }
#pragma unroll
                for (int rn = 0; rn < Cfg::REP_N; ++rn)
#pragma unroll
                    for (int i = 0; i < Atom::B_ELEMS; i += Atom::B_VEC) {
                        const int at = Cfg::lds_b(kk + Atom::b_k(lane, i), wn0 + rn * Atom::N + Atom::b_n(lane, i));
                        const rm_vec<Tin, Atom::B_VEC> x = *(const rm_vec<Tin, Atom::B_VEC>*)(sB + at);
#pragma unroll
                        for (int j = 0; j < Atom::B_VEC; ++j) Atom::b_set(fb[rn], i + j, x.v[j]);
                    }
#pragma unroll
                for (int rm = 0; rm < Cfg::REP_M; ++rm)
#pragma unroll
                    for (int rn = 0; rn < Cfg::REP_N; ++rn) Atom::mma(acc[rm][rn], fa[rm], fb[rn]);
            }
            rm_barrier();
        }
    }

    // Epilogue: D = alpha * acc + beta * C for the in-range elements this lane holds.
    const bool read_c = !rm_is_zero(beta);
#pragma unroll
    for (int rm = 0; rm < Cfg::REP_M; ++rm)
#pragma unroll
        for (int rn = 0; rn < Cfg::REP_N; ++rn)
#pragma unroll
            for (int i = 0; i < Atom::C_ELEMS; ++i) {
                const int gi = m0 + wm0 + rm * Atom::M + Atom::c_m(lane, i);
                const int gj = n0 + wn0 + rn * Atom::N + Atom::c_n(lane, i);
                if (gi < m && gj < n) {
                    Tcomp v = do_mul ? rm_mul(alpha, (Tcomp)Atom::c_get(acc[rm][rn], i)) : rm_zero<Tcomp>();
                    if (read_c) v = rm_madd(beta, rm_convert<Tcomp>(C[gi + (long long)gj * ldc]), v);
                    D[gi + (long long)gj * ldd] = rm_convert<Tc>(v);
                }
            }
}

// The exported kernel: name, config typedef, types typedef, transposes (RM_OP_*).
#define RM_GEMM_KERNEL(NAME, CFG, TY, TA, TB)                                                          \
    extern "C" __global__ void RM_LAUNCH_BOUNDS(CFG::THREADS, CFG::MIN_WAVES) NAME(                    \
        int m, int n, int k, TY::compute alpha, TY::compute beta, const TY::scalar* alpha_ptr,         \
        const TY::scalar* beta_ptr, const TY::ab* A, long long lda, long long stride_a,                \
        const TY::ab* B, long long ldb, long long stride_b, const TY::c* C, long long ldc,             \
        long long stride_c, TY::c* D, long long ldd, long long stride_d) {                             \
        rm_gemm_body<CFG, TY, TA, TB>(m, n, k, alpha, beta, alpha_ptr, beta_ptr, A, lda, stride_a, B, \
                                      ldb, stride_b, C, ldc, stride_c, D, ldd, stride_d);             \
    }

#endif // ROCMATH_GEMM_HIP
