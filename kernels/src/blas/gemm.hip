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

// Global -> registers: this thread's share of the op(A) tile at (m0, k0).
template <class Cfg, int TA, class Tab, class Tin>
RM_INLINE void rm_gemm_load_a(Tin (&r)[Cfg::A_PER_THREAD], const Tab* A, long long lda, int m, int k,
                              int m0, int k0, int tid) {
#pragma unroll
    for (int e = 0; e < Cfg::A_PER_THREAD; ++e) {
        const int idx = tid + e * Cfg::THREADS;
        // N: A(i, kk) at A[i + kk*lda], contiguous in i.  T/C: op(A)(i, kk) = A(kk, i), contiguous in kk.
        const int i = TA == RM_OP_N ? idx % Cfg::MT_M : idx / Cfg::MT_K;
        const int kk = TA == RM_OP_N ? idx / Cfg::MT_M : idx % Cfg::MT_K;
        const int gi = m0 + i, gk = k0 + kk;
        Tin v = rm_zero<Tin>();
        if (gi < m && gk < k) {
            const Tab x = TA == RM_OP_N ? A[gi + (long long)gk * lda] : A[gk + (long long)gi * lda];
            v = rm_convert<Tin>(rm_conj_if(TA == RM_OP_C, x));
        }
        r[e] = v;
    }
}

template <class Cfg, int TA, class Tin>
RM_INLINE void rm_gemm_store_a(Tin* sA, const Tin (&r)[Cfg::A_PER_THREAD], int tid) {
#pragma unroll
    for (int e = 0; e < Cfg::A_PER_THREAD; ++e) {
        const int idx = tid + e * Cfg::THREADS;
        const int i = TA == RM_OP_N ? idx % Cfg::MT_M : idx / Cfg::MT_K;
        const int kk = TA == RM_OP_N ? idx / Cfg::MT_M : idx % Cfg::MT_K;
        sA[Cfg::lds_a(i, kk)] = r[e];
    }
}

// Global -> registers: this thread's share of the op(B) tile at (k0, n0).
template <class Cfg, int TB, class Tab, class Tin>
RM_INLINE void rm_gemm_load_b(Tin (&r)[Cfg::B_PER_THREAD], const Tab* B, long long ldb, int n, int k,
                              int n0, int k0, int tid) {
#pragma unroll
    for (int e = 0; e < Cfg::B_PER_THREAD; ++e) {
        const int idx = tid + e * Cfg::THREADS;
        // N: B(kk, j) at B[kk + j*ldb], contiguous in kk.  T/C: op(B)(kk, j) = B(j, kk), contiguous in j.
        const int kk = TB == RM_OP_N ? idx % Cfg::MT_K : idx / Cfg::MT_N;
        const int j = TB == RM_OP_N ? idx / Cfg::MT_K : idx % Cfg::MT_N;
        const int gj = n0 + j, gk = k0 + kk;
        Tin v = rm_zero<Tin>();
        if (gj < n && gk < k) {
            const Tab x = TB == RM_OP_N ? B[gk + (long long)gj * ldb] : B[gj + (long long)gk * ldb];
            v = rm_convert<Tin>(rm_conj_if(TB == RM_OP_C, x));
        }
        r[e] = v;
    }
}

template <class Cfg, int TB, class Tin>
RM_INLINE void rm_gemm_store_b(Tin* sB, const Tin (&r)[Cfg::B_PER_THREAD], int tid) {
#pragma unroll
    for (int e = 0; e < Cfg::B_PER_THREAD; ++e) {
        const int idx = tid + e * Cfg::THREADS;
        const int kk = TB == RM_OP_N ? idx % Cfg::MT_K : idx / Cfg::MT_N;
        const int j = TB == RM_OP_N ? idx / Cfg::MT_K : idx % Cfg::MT_N;
        sB[Cfg::lds_b(kk, j)] = r[e];
    }
}

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

    __shared__ __attribute__((aligned(16))) Tin sA[Cfg::LDS_A];
    __shared__ __attribute__((aligned(16))) Tin sB[Cfg::LDS_B];

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
        Tin ra[Cfg::A_PER_THREAD];
        Tin rb[Cfg::B_PER_THREAD];
        rm_gemm_load_a<Cfg, TA>(ra, A, lda, m, k, m0, 0, tid);
        rm_gemm_load_b<Cfg, TB>(rb, B, ldb, n, k, n0, 0, tid);
        for (int k0 = 0; k0 < k; k0 += Cfg::MT_K) {
            rm_gemm_store_a<Cfg, TA>(sA, ra, tid);
            rm_gemm_store_b<Cfg, TB>(sB, rb, tid);
            rm_barrier();
            if (k0 + Cfg::MT_K < k) {  // prefetch the next tiles while computing this one
                rm_gemm_load_a<Cfg, TA>(ra, A, lda, m, k, m0, k0 + Cfg::MT_K, tid);
                rm_gemm_load_b<Cfg, TB>(rb, B, ldb, n, k, n0, k0 + Cfg::MT_K, tid);
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
