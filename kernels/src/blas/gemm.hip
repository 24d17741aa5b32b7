// rocmath GEMM: D = alpha * op(A) * op(B) + beta * C, column-major, strided or pointer-array batched.
//
// The blocking is written once here (BLIS rule) and parameterised by
//   * an atom (include/atoms/*.h): the instruction, its shape and lane layouts, and
//   * a config (rm_gemm_config): macro tile MT_M x MT_N x MT_K, waves WM x WN per block, LDS pads
//     or swizzle, pipeline stages, tile order.
// Per-arch code is only atom + config; the generator (src/gen/gemm.rs) emits the extern "C"
// kernels with RM_GEMM_KERNEL / RM_GEMM_KERNEL_PA.
//
// Block structure (THREADS = WM * WN * Atom::WAVE threads, one block per MT_M x MT_N tile of D,
// blockIdx.z = batch; persistent configs instead loop a smaller grid over tiles and entries, see
// rm_gemm_persistent_body). Steps 1-3 are the register-staged mainloop (STAGES == 1); the direct
// mainloop (STAGES >= 2, described where it is defined) replaces them with multi-stage raw copies:
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
typedef rm_gemm_types<rm_i8, int, int, int> rm_gemm_ty_i8;
typedef rm_gemm_types<float, float, float, float> rm_gemm_ty_xf32;

// Transposes (template parameters): 0 = N, 1 = T, 2 = C (conjugate transpose).
#define RM_OP_N 0
#define RM_OP_T 1
#define RM_OP_C 2

template <class Atom_, int MT_M_, int MT_N_, int MT_K_, int WM_, int WN_, int PAD_A_, int PAD_B_,
          int MIN_WAVES_, int STAGES_, int SWIZZLE_, int GROUP_M_, int PREFETCH_ = 0>
struct rm_gemm_config {
    typedef Atom_ Atom;
    enum {
        MT_M = MT_M_, MT_N = MT_N_, MT_K = MT_K_,   // macro tile
        WM = WM_, WN = WN_,                         // waves (FMA atom: threads) per block in M, N
        PAD_A = PAD_A_, PAD_B = PAD_B_,             // LDS row padding, in elements (SWIZZLE == 0)
        MIN_WAVES = MIN_WAVES_,                     // AMD: waves per SIMD; NVIDIA: blocks per SM
        STAGES = STAGES_,                           // 1: register-staged, atom layout; >= 2: direct
                                                    //    copies into STAGES LDS buffers (see below)
        SWIZZLE = SWIZZLE_,                         // direct path: XOR-swizzled 16-byte chunks
        GROUP_M = GROUP_M_,                         // tile order: GROUP_M tile rows per group (L2)
        PREFETCH = PREFETCH_,                       // direct path: fragments one k step ahead (see
                                                    //    rm_gemm_mainloop::run_prefetch)
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
    static_assert(STAGES > 1 || ((Atom::A_K_CONTIG ? MT_K + PAD_A : MT_M + PAD_A) % Atom::A_VEC == 0 &&
                                 (Atom::B_K_CONTIG ? MT_K + PAD_B : MT_N + PAD_B) % Atom::B_VEC == 0),
                  "LDS rows must keep the atom's vector reads aligned");
    // LDS index of op(A)(m, k) and op(B)(k, n) within the tile (register-staged path).
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

// ---- Register-staged mainloop (STAGES == 1) --------------------------------------------------
// Tiles go global -> registers (converted to the atom's input type, conjugated for C) -> LDS in the
// atom's preferred layout; the next tile is prefetched into registers while this one is computed.
// Works for every family (conversion, conjugation) and every atom.
template <class Cfg, class Ty, int TA, int TB, bool DIRECT = (Cfg::STAGES > 1)> struct rm_gemm_mainloop {
    typedef typename Cfg::Atom Atom;
    typedef typename Atom::in_t Tin;
    typedef typename Ty::ab Tab;
    enum { SHARED_BYTES = 0 };
    static RM_INLINE void run(typename Atom::CFrag (&acc)[Cfg::REP_M][Cfg::REP_N], int m, int n, int k,
                              const Tab* A, long long lda, const Tab* B, long long ldb, int m0, int n0, int tid,
                              int wm0, int wn0, int lane) {
        __shared__ __attribute__((aligned(16))) Tin sA[Cfg::LDS_A];
        __shared__ __attribute__((aligned(16))) Tin sB[Cfg::LDS_B];
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
};

// ---- Direct multi-stage mainloop (STAGES >= 2) -------------------------------------------------
// Tiles are staged in LDS in their *memory* layout: the dimension that is contiguous in global
// memory stays contiguous in LDS. A global -> LDS copy is then a raw 16-byte move with no
// conversion (cp.async on NVIDIA sm_80+, so STAGES - 1 tiles are in flight while one is computed;
// a load and a store on AMD), and fragments are read through the atom's loader, which handles
// both layouts (ldmatrix / ldmatrix.trans for the 16-bit mma atoms, element reads otherwise).
// Needs Tab == the atom's input type and no conjugation (the Rust model enforces both).
//
// Every operand tile, op(A) (M x K) and op(B) (K x N), is "ROWS x CONT" in memory terms: element
// (row, cont) is at P[cont + row * ld], cont the contiguous dimension. LDS rows hold CONT elements
// in 16-byte chunks, either padded (PAD elements per row) or XOR-swizzled (chunk c of row r is
// stored at chunk c ^ f(r), so 8 consecutive rows reading the same chunk hit 8 different bank
// groups: conflict-free ldmatrix and cp.async without padding).
template <int ROWS, int CONT, int PAD, int SWIZZLE, int ESIZE> struct rm_tile_layout {
    enum {
        V = 16 / ESIZE,                      // elements per 16-byte chunk
        CPR = CONT / V,                      // chunks per row
        STRIDE = SWIZZLE ? CONT : CONT + PAD,
        SIZE = ROWS * STRIDE,
        SW_MOD = CPR < 8 ? CPR : 8,          // XOR range (chunks)
        SW_DIV = CPR < 8 ? 8 / CPR : 1,      // rows sharing one XOR value (rows shorter than 128 B)
        LINEAR = !SWIZZLE                    // off(r + dr, c + dc) == off(r, c) + off(dr, dc)
    };
    static RM_INLINE int off(int r, int c) {
        if (SWIZZLE) return r * STRIDE + (((c / V) ^ ((r / SW_DIV) % SW_MOD)) * V) + c % V;
        return r * STRIDE + c;
    }
};

// Offsets of op(A)(m, k) (op(B)(k, n)) in an LDS tile of the direct path. K_CONTIG says whether k
// is the contiguous dimension (what an atom loader needs to pick ldmatrix or ldmatrix.trans);
// CONJ whether the operand is conjugated (op = C), for the complex atoms' loaders (the tiles
// hold the operands as stored).
template <class L, bool KC, bool CJ = false> struct rm_off_a {
    enum { K_CONTIG = KC, LINEAR = L::LINEAR, CONJ = CJ };
    RM_INLINE int operator()(int m, int k) const { return KC ? L::off(m, k) : L::off(k, m); }
};
template <class L, bool KC, bool CJ = false> struct rm_off_b {
    enum { K_CONTIG = KC, LINEAR = L::LINEAR, CONJ = CJ };
    RM_INLINE int operator()(int k, int n) const { return KC ? L::off(n, k) : L::off(k, n); }
};

// Copies one ROWS x CONT tile (memory terms) starting at (row0, cont0) into LDS through layout L.
// Whole in-range chunks go as 16-byte async copies when `vec` (base and ld 16-byte aligned); chunks
// wholly out of range are zero-filled by the copy unit; chunks straddling the edge, and all chunks
// when !vec, are copied element by element (zero outside).
template <class L, int ROWS, int CONT, int THREADS, class T>
RM_INLINE void rm_copy_tile(T* s, const T* P, long long ld, int row_ext, int cont_ext, int row0, int cont0, int tid,
                            bool vec) {
    enum { CHUNKS = ROWS * L::CPR };
#pragma unroll
    for (int i = 0; i < (CHUNKS + THREADS - 1) / THREADS; ++i) {
        const int c = tid + i * THREADS;
        if (CHUNKS % THREADS != 0 && c >= CHUNKS) break;
        const int r = c / L::CPR, cc = (c % L::CPR) * L::V;
        const int gr = row0 + r, gc = cont0 + cc;
        T* dst = s + L::off(r, cc);
        const T* src = P + (gc + (long long)gr * ld);
        const bool row_in = gr < row_ext;
        if (vec && row_in && gc + L::V <= cont_ext) {
            rm_cp_async16(dst, src, 16);
        } else if (!row_in || gc >= cont_ext) {
            rm_cp_async16(dst, P, 0);
        } else {
#pragma unroll
            for (int j = 0; j < L::V; ++j) dst[j] = gc + j < cont_ext ? src[j] : rm_zero<T>();
        }
    }
}

// The same copy for a tile that lies wholly inside the matrix, with 16-byte aligned rows: every
// chunk is one unconditional 16-byte async copy. Most tiles of a large GEMM take this path. The
// plan holds what does not change from tile to tile (this thread's first chunk's offset, and the
// distance between its chunks when the threads cover whole rows), so a copy costs a few
// instructions per chunk instead of a 64-bit multiply and the bounds tests of rm_copy_tile.
template <class L, int ROWS, int CONT, int THREADS> struct rm_copy_plan {
    enum {
        CHUNKS = ROWS * L::CPR,
        PER = (CHUNKS + THREADS - 1) / THREADS,
        // chunk i of a thread is ROW_STEP rows below chunk 0, same column
        EVEN = THREADS % L::CPR == 0 && CHUNKS % THREADS == 0,
        ROW_STEP = THREADS / L::CPR
    };
    int r0, c0;          // this thread's chunk 0: row, first element
    long long first;     // its offset from the tile's first element
    long long row_step;  // ROW_STEP rows, in elements
    RM_INLINE rm_copy_plan(long long ld, int tid)
        : r0(tid / L::CPR), c0((tid % L::CPR) * L::V), first(c0 + r0 * ld), row_step((long long)ROW_STEP * ld) {}
    // s: the tile's LDS buffer; P: the tile's first element.
    template <class T> RM_INLINE void copy(rm_lds_ref s, const T* P, long long ld, int tid) const {
        if (EVEN) {
            const T* src = P + first;
#pragma unroll
            for (int i = 0; i < PER; ++i)
                rm_cp_async16(s + L::off(r0 + i * ROW_STEP, c0) * (int)sizeof(T), src + i * row_step, 16);
            return;
        }
#pragma unroll
        for (int i = 0; i < PER; ++i) {
            const int c = tid + i * THREADS;
            if (CHUNKS % THREADS != 0 && c >= CHUNKS) break;
            const int r = c / L::CPR, cc = (c % L::CPR) * L::V;
            rm_cp_async16(s + L::off(r, cc) * (int)sizeof(T), P + (cc + (long long)r * ld), 16);
        }
    }
};

template <class Cfg, class Ty, int TA, int TB> struct rm_gemm_mainloop<Cfg, Ty, TA, TB, true> {
    typedef typename Cfg::Atom Atom;
    typedef typename Atom::in_t Tin;
    typedef typename Ty::ab Tab;
    // op(A): k contiguous unless A is not transposed; op(B): k contiguous when B is not transposed.
    enum { A_KC = TA != RM_OP_N, B_KC = TB == RM_OP_N };
    typedef rm_tile_layout<A_KC ? Cfg::MT_M : Cfg::MT_K, A_KC ? Cfg::MT_K : Cfg::MT_M, Cfg::PAD_A, Cfg::SWIZZLE,
                           sizeof(Tin)> LA;
    typedef rm_tile_layout<B_KC ? Cfg::MT_N : Cfg::MT_K, B_KC ? Cfg::MT_K : Cfg::MT_N, Cfg::PAD_B, Cfg::SWIZZLE,
                           sizeof(Tin)> LB;
    enum {
        A_BYTES = LA::SIZE * (int)sizeof(Tin),  // one stage buffer of each operand
        B_BYTES = LB::SIZE * (int)sizeof(Tin),
        SHARED_BYTES = Cfg::STAGES * (A_BYTES + B_BYTES)
    };
    static_assert(rm_same<Tab, Tin>::value, "the direct path copies raw elements: A/B must be the atom's input type");
    // (Which tiles get the plan copies and the interior loop below: macro tiles of 64 x 128 and
    // up, and f64 tensor-core tiles of 64 x 64 and up. Those DMMA kernels are issue-bound, not
    // register-bound: a 64 x 64 f64 tile copies as many 16-byte chunks per K tile as a 64 x 128
    // 16-bit one, and its bounds tests were half of the instructions of d 1024^3 on the H100
    // (ncu s14). The 32 x 32 f64 small-batch tiles lost 5-10 % with them, s14-d.)
    enum {
        INTERIOR_LOOP = Cfg::MT_M * Cfg::MT_N >= 64 * 128 ||
                        (sizeof(Tin) == 8 && Atom::WAVE > 1 && Cfg::MT_M * Cfg::MT_N >= 64 * 64)
    };
    typedef rm_copy_plan<LA, A_KC ? Cfg::MT_M : Cfg::MT_K, A_KC ? Cfg::MT_K : Cfg::MT_M, Cfg::THREADS> PlanA;
    typedef rm_copy_plan<LB, B_KC ? Cfg::MT_N : Cfg::MT_K, B_KC ? Cfg::MT_K : Cfg::MT_N, Cfg::THREADS> PlanB;
    // Offsets of the K tile at depth k0 of op(A)'s block tile (rows m0 ..) in A and of op(B)'s
    // (columns n0 ..) in B: where a plan's copy starts.
    static RM_INLINE long long a_tile(int m0, long long k0, long long lda) { return A_KC ? k0 + m0 * lda : m0 + k0 * lda; }
    static RM_INLINE long long b_tile(int n0, long long k0, long long ldb) { return B_KC ? k0 + n0 * ldb : n0 + k0 * ldb; }

    // K tile t of A and B into stage buffer s. (A function, not a lambda: the closure would be
    // kept in local memory when the compiler declines to inline it.)
    static RM_INLINE void copy(Tin* sA, Tin* sB, const Tin* A, long long lda, const Tin* B, long long ldb, int m, int n,
                               int k, int m0, int n0, int t, int s, int tid, bool vec_a, bool vec_b) {
        const int k0 = t * Cfg::MT_K;
        const bool k_in = k0 + Cfg::MT_K <= k;
        // (big tiles: whole tiles through a plan made here, as in the interior loop)
        if (INTERIOR_LOOP && vec_a && k_in && m0 + Cfg::MT_M <= m)
            PlanA(lda, tid).copy(rm_lds(sA + s * LA::SIZE), A + a_tile(m0, k0, lda), lda, tid);
        else if (A_KC) rm_copy_tile<LA, Cfg::MT_M, Cfg::MT_K, Cfg::THREADS>(sA + s * LA::SIZE, A, lda, m, k, m0, k0, tid, vec_a);
        else rm_copy_tile<LA, Cfg::MT_K, Cfg::MT_M, Cfg::THREADS>(sA + s * LA::SIZE, A, lda, k, m, k0, m0, tid, vec_a);
        if (INTERIOR_LOOP && vec_b && k_in && n0 + Cfg::MT_N <= n)
            PlanB(ldb, tid).copy(rm_lds(sB + s * LB::SIZE), B + b_tile(n0, k0, ldb), ldb, tid);
        else if (B_KC) rm_copy_tile<LB, Cfg::MT_N, Cfg::MT_K, Cfg::THREADS>(sB + s * LB::SIZE, B, ldb, n, k, n0, k0, tid, vec_b);
        else rm_copy_tile<LB, Cfg::MT_K, Cfg::MT_N, Cfg::THREADS>(sB + s * LB::SIZE, B, ldb, k, n, k0, n0, tid, vec_b);
    }
    static RM_INLINE void run(typename Atom::CFrag (&acc)[Cfg::REP_M][Cfg::REP_N], int m, int n, int k,
                              const Tab* A, long long lda, const Tab* B, long long ldb, int m0, int n0, int tid,
                              int wm0, int wn0, int lane) {
        if constexpr (Cfg::PREFETCH != 0) {
            run_prefetch(acc, m, n, k, A, lda, B, ldb, m0, n0, tid, wm0, wn0, lane);
            return;
        }
        extern __shared__ __attribute__((aligned(16))) unsigned char rm_dyn_shared[];
        Tin* sA = (Tin*)rm_dyn_shared;
        Tin* sB = sA + Cfg::STAGES * LA::SIZE;
        const Tin* Ain = (const Tin*)A;
        const Tin* Bin = (const Tin*)B;
        const bool vec_a = ((rm_u64)(const void*)A % 16) == 0 && lda % LA::V == 0;
        const bool vec_b = ((rm_u64)(const void*)B % 16) == 0 && ldb % LB::V == 0;
        const int ktiles = (k + Cfg::MT_K - 1) / Cfg::MT_K;
#pragma unroll
        for (int s = 0; s < Cfg::STAGES - 1; ++s) {
            if (s < ktiles) copy(sA, sB, Ain, lda, Bin, ldb, m, n, k, m0, n0, s, s, tid, vec_a, vec_b);
            rm_cp_async_commit();
        }
        // Blocks whose tile lies inside C with aligned operands run the first loop while the tile
        // being copied is a whole K tile: plan copies only, no bounds tests, the plans made once.
        // The second loop (the last tiles, and every tile of edge blocks) copies through copy(),
        // which tests each tile. Only macro tiles of 64 x 128 and up (and f64 tensor-core tiles,
        // see INTERIOR_LOOP) have the first loop: the smaller ones are the small-batch kernels,
        // whose resident blocks are limited by registers, and the loop's registers cost them
        // more than the bounds tests (H100: hss 128^3 x 2048 lost 18 %).
        const bool interior = INTERIOR_LOOP && vec_a && vec_b && m0 + Cfg::MT_M <= m && n0 + Cfg::MT_N <= n;
        const int kfull = k / Cfg::MT_K;
        int t = 0;
        if (interior) {
            const PlanA plan_a(lda, tid);
            const PlanB plan_b(ldb, tid);
            const rm_lds_ref lA = rm_lds(sA), lB = rm_lds(sB);
            for (; t + Cfg::STAGES - 1 < kfull; ++t) {
                wait_tile();
                const int tn = t + Cfg::STAGES - 1, sn = tn % Cfg::STAGES;
                const long long k0 = (long long)tn * Cfg::MT_K;
                plan_a.copy(lA + sn * A_BYTES, Ain + a_tile(m0, k0, lda), lda, tid);
                plan_b.copy(lB + sn * B_BYTES, Bin + b_tile(n0, k0, ldb), ldb, tid);
                rm_cp_async_commit();
                compute(acc, sA, sB, t % Cfg::STAGES, wm0, wn0, lane);
            }
        }
        for (; t < ktiles; ++t) {
            wait_tile();
            if (t + Cfg::STAGES - 1 < ktiles)
                copy(sA, sB, Ain, lda, Bin, ldb, m, n, k, m0, n0, t + Cfg::STAGES - 1, (t + Cfg::STAGES - 1) % Cfg::STAGES,
                     tid, vec_a, vec_b);
            rm_cp_async_commit();
            compute(acc, sA, sB, t % Cfg::STAGES, wm0, wn0, lane);
        }
        rm_cp_async_wait<0>();
    }
    // The fragments of one atom k step: every wave tile row's A and column's B.
    struct Frags {
        typename Atom::AFrag a[Cfg::REP_M];
        typename Atom::BFrag b[Cfg::REP_N];
    };
    static RM_INLINE void load(Frags& f, const Tin* sA, const Tin* sB, int s, int kk, int wm0, int wn0, int lane) {
        const rm_off_a<LA, A_KC, TA == RM_OP_C> offa;
        const rm_off_b<LB, B_KC, TB == RM_OP_C> offb;
#pragma unroll
        for (int rm = 0; rm < Cfg::REP_M; ++rm)
            rm_frag_loader<Atom>::a(f.a[rm], sA + s * LA::SIZE, offa, wm0 + rm * Atom::M, kk, lane);
#pragma unroll
        for (int rn = 0; rn < Cfg::REP_N; ++rn)
            rm_frag_loader<Atom>::b(f.b[rn], sB + s * LB::SIZE, offb, kk, wn0 + rn * Atom::N, lane);
    }
    static RM_INLINE void multiply(typename Atom::CFrag (&acc)[Cfg::REP_M][Cfg::REP_N], const Frags& f) {
#pragma unroll
        for (int rm = 0; rm < Cfg::REP_M; ++rm)
#pragma unroll
            for (int rn = 0; rn < Cfg::REP_N; ++rn) Atom::mma(acc[rm][rn], f.a[rm], f.b[rn]);
    }

    // The PREFETCH mainloop. Fragments are read one atom k step ahead of the multiplies, from
    // two register sets used in turn (the step count per K tile is even, so the sets' roles are
    // fixed at compile time). All STAGES buffers are in flight: tile t + STAGES is copied into
    // tile t's buffer once every thread has read it. The last k step of tile t first waits for
    // tile t + 1 and passes the barrier (all threads have then read all of tile t: its last
    // fragments were loaded a step earlier), loads tile t + 1's first fragments, issues the copy,
    // and only then multiplies. So the wait for the LDS reads and the copy's address arithmetic
    // overlap the multiplies in flight, where the plain loop starts each K tile with a barrier,
    // the copy and then reads that the first multiply waits for (ncu, d 1024^3 on the H100: 10 %
    // of the warps' time in that wait, against 2 % for cuBLAS's kernel of the same blocking).
    static RM_INLINE void run_prefetch(typename Atom::CFrag (&acc)[Cfg::REP_M][Cfg::REP_N], int m, int n, int k,
                                       const Tab* A, long long lda, const Tab* B, long long ldb, int m0, int n0,
                                       int tid, int wm0, int wn0, int lane) {
        static_assert((Cfg::MT_K / Atom::K) % 2 == 0, "fragment prefetch needs an even number of atom k steps per K tile");
        extern __shared__ __attribute__((aligned(16))) unsigned char rm_dyn_shared[];
        Tin* sA = (Tin*)rm_dyn_shared;
        Tin* sB = sA + Cfg::STAGES * LA::SIZE;
        const Tin* Ain = (const Tin*)A;
        const Tin* Bin = (const Tin*)B;
        const bool vec_a = ((rm_u64)(const void*)A % 16) == 0 && lda % LA::V == 0;
        const bool vec_b = ((rm_u64)(const void*)B % 16) == 0 && ldb % LB::V == 0;
        const int ktiles = (k + Cfg::MT_K - 1) / Cfg::MT_K;
#pragma unroll
        for (int s = 0; s < Cfg::STAGES; ++s) {
            if (s < ktiles) copy(sA, sB, Ain, lda, Bin, ldb, m, n, k, m0, n0, s, s, tid, vec_a, vec_b);
            rm_cp_async_commit();
        }
        rm_cp_async_wait<Cfg::STAGES - 1>();
        rm_barrier();
        Frags f[2];
        load(f[0], sA, sB, 0, 0, wm0, wn0, lane);
        // A block inside C with aligned operands and K a whole number of tiles (all blocks of the
        // large squares) runs a loop whose copies are all plan copies: the bounds-tested copy's
        // arguments are then dead in it, which leaves room for the second fragment set.
        if (vec_a && vec_b && m0 + Cfg::MT_M <= m && n0 + Cfg::MT_N <= n && k % Cfg::MT_K == 0)
            prefetch_loop<true>(acc, f, m, n, k, Ain, lda, Bin, ldb, m0, n0, tid, wm0, wn0, lane, vec_a, vec_b);
        else
            prefetch_loop<false>(acc, f, m, n, k, Ain, lda, Bin, ldb, m0, n0, tid, wm0, wn0, lane, vec_a, vec_b);
        rm_cp_async_wait<0>();
    }
    // The K loop of run_prefetch after its prologue (tiles 0 .. STAGES - 1 copied, tile 0's first
    // fragments in f[0]). Interior tiles copy through the plans from running offsets advanced by
    // one K tile; ALL_INTERIOR says every tile is one. The stage index counts up and wraps in the
    // inner loop instead of a modulo. (Unrolling that loop, which makes every stage offset a
    // compile-time immediate, was 5-15 % slower on the H100 for the same instruction count per K
    // tile: s24-d.)
    template <bool ALL_INTERIOR>
    static RM_INLINE void prefetch_loop(typename Atom::CFrag (&acc)[Cfg::REP_M][Cfg::REP_N], Frags (&f)[2], int m,
                                        int n, int k, const Tin* Ain, long long lda, const Tin* Bin, long long ldb,
                                        int m0, int n0, int tid, int wm0, int wn0, int lane, bool vec_a, bool vec_b) {
        enum { STEPS = Cfg::MT_K / Atom::K };
        extern __shared__ __attribute__((aligned(16))) unsigned char rm_dyn_shared[];
        Tin* sA = (Tin*)rm_dyn_shared;
        Tin* sB = sA + Cfg::STAGES * LA::SIZE;
        const rm_lds_ref lA = rm_lds(sA), lB = rm_lds(sB);
        const int ktiles = (k + Cfg::MT_K - 1) / Cfg::MT_K, kfull = k / Cfg::MT_K;
        const bool interior = vec_a && vec_b && m0 + Cfg::MT_M <= m && n0 + Cfg::MT_N <= n;
        const PlanA plan_a(lda, tid);
        const PlanB plan_b(ldb, tid);
        long long a_next = a_tile(m0, Cfg::STAGES * Cfg::MT_K, lda), b_next = b_tile(n0, Cfg::STAGES * Cfg::MT_K, ldb);
        const long long a_step = A_KC ? Cfg::MT_K : Cfg::MT_K * lda, b_step = B_KC ? Cfg::MT_K : Cfg::MT_K * ldb;
        for (int t0 = 0; t0 < ktiles; t0 += Cfg::STAGES) {
#pragma unroll 1
            for (int s = 0; s < Cfg::STAGES; ++s) {
                const int t = t0 + s;
                if (t >= ktiles) break;
#pragma unroll
                for (int step = 0; step < STEPS; ++step) {
                    if (step + 1 < STEPS) {
                        load(f[(step + 1) % 2], sA, sB, s, (step + 1) * Atom::K, wm0, wn0, lane);
                    } else {
                        // Groups committed: tiles 0 .. t + STAGES - 1; tile t + 1 has landed once
                        // at most STAGES - 2 are pending.
                        rm_cp_async_wait<Cfg::STAGES - 2>();
                        rm_barrier();
                        if (t + 1 < ktiles) load(f[0], sA, sB, (s + 1) % Cfg::STAGES, 0, wm0, wn0, lane);
                        const int tn = t + Cfg::STAGES;
                        if (tn < ktiles) {
                            if (ALL_INTERIOR || (interior && tn < kfull)) {
                                plan_a.copy(lA + s * A_BYTES, Ain + a_next, lda, tid);
                                plan_b.copy(lB + s * B_BYTES, Bin + b_next, ldb, tid);
                            } else {
                                copy(sA, sB, Ain, lda, Bin, ldb, m, n, k, m0, n0, tn, s, tid, vec_a, vec_b);
                            }
                        }
                        a_next += a_step;
                        b_next += b_step;
                        rm_cp_async_commit();
                    }
                    multiply(acc, f[step % 2]);
                }
            }
        }
    }

    // Tile t has landed once at most STAGES - 2 younger groups are pending; the barrier also tells
    // every thread that all threads finished computing tile t - 1, whose buffer the next copy
    // overwrites.
    static RM_INLINE void wait_tile() {
        rm_cp_async_wait<Cfg::STAGES - 2>();
        rm_barrier();
    }
    // Multiply-accumulate the K tile held in stage buffer `s` into this wave's accumulators.
    static RM_INLINE void compute(typename Atom::CFrag (&acc)[Cfg::REP_M][Cfg::REP_N], const Tin* sA, const Tin* sB,
                                  int s, int wm0, int wn0, int lane) {
#pragma unroll
        for (int kk = 0; kk < Cfg::MT_K; kk += Atom::K) {
            Frags f;
            load(f, sA, sB, s, kk, wm0, wn0, lane);
            multiply(acc, f);
        }
    }
};

// Tile (tm, tn) of the pid-th tile of a tiles_m x tiles_n grid walked in groups of GROUP_M tile
// rows, column by column inside a group, so tiles that run together share A rows and B columns
// in L2. rm_grouped_tile_in_group takes the group g = pid / (GROUP_M tiles_n) and the index q in
// it (the persistent kernels of gemm_sm90.hip divide by their own means); a whole group divides
// by the constant GROUP_M. (Shared by the kernels here and the persistent ones of gemm_sm90.hip.)
template <int GROUP_M> RM_INLINE void rm_grouped_tile_in_group(int g, int q, int tiles_m, int& tm, int& tn) {
    const int first = g * GROUP_M;
    if (tiles_m - first >= GROUP_M) {
        tm = first + (int)((rm_u32)q % GROUP_M);
        tn = (int)((rm_u32)q / GROUP_M);
    } else {
        const int rows = tiles_m - first;
        tm = first + q % rows;
        tn = q / rows;
    }
}
template <int GROUP_M> RM_INLINE void rm_grouped_tile(int pid, int tiles_m, int tiles_n, int& tm, int& tn) {
    const int per_group = GROUP_M * tiles_n;
    const int g = pid / per_group;
    rm_grouped_tile_in_group<GROUP_M>(g, pid - g * per_group, tiles_m, tm, tn);
}

// Tile coordinates of this block (grouped when GROUP_M > 1, see rm_grouped_tile).
template <class Cfg> RM_INLINE void rm_gemm_tile(int& m0, int& n0) {
    const int gx = rm_gdim_x(), gy = rm_gdim_y();
    int tm = rm_bid_x(), tn = rm_bid_y();
    if (Cfg::GROUP_M > 1) rm_grouped_tile<Cfg::GROUP_M>(tm + tn * gx, gx, gy, tm, tn);
    m0 = tm * Cfg::MT_M;
    n0 = tn * Cfg::MT_N;
}

// alpha and beta as a kernel uses them: the by-value arguments, kept opaque (rm_opaque), unless
// device pointers are given.
template <class Ty>
RM_INLINE void rm_gemm_scalars(typename Ty::compute& alpha, typename Ty::compute& beta, const typename Ty::scalar* alpha_ptr,
                               const typename Ty::scalar* beta_ptr) {
    alpha = rm_opaque(alpha);
    beta = rm_opaque(beta);
    if (alpha_ptr) alpha = rm_convert<typename Ty::compute>(*alpha_ptr);
    if (beta_ptr) beta = rm_convert<typename Ty::compute>(*beta_ptr);
}

// Where thread `tid` works: its lane, and its wave tile's origin (wm0, wn0) in the macro tile.
template <class Cfg> struct rm_gemm_wave {
    int lane, wm0, wn0;
    RM_INLINE explicit rm_gemm_wave(int tid) {
        typedef typename Cfg::Atom Atom;
        // (readfirstlane only when the atom spans a whole hardware wave: the warp-tiled FMA atom's
        // 32 lanes are half a wave64 on AMD)
        const int wave = Atom::WAVE >= RM_WAVE_SIZE ? rm_uniform(tid / Atom::WAVE) : tid / Atom::WAVE;
        lane = tid % Atom::WAVE;
        wm0 = (wave % Cfg::WM) * Cfg::WT_M;
        wn0 = (wave / Cfg::WM) * Cfg::WT_N;
    }
};

template <class Cfg> RM_INLINE void rm_gemm_zero(typename Cfg::Atom::CFrag (&acc)[Cfg::REP_M][Cfg::REP_N]) {
#pragma unroll
    for (int rm = 0; rm < Cfg::REP_M; ++rm)
#pragma unroll
        for (int rn = 0; rn < Cfg::REP_N; ++rn) Cfg::Atom::c_zero(acc[rm][rn]);
}

// Store V consecutive T to an address aligned to sizeof(T) * V (16-bit types packed into 32-bit
// words, as rm_load_vec reads them, so that the back ends emit one wide store).
template <class T, int V> RM_INLINE void rm_gemm_store_vec(T* p, const rm_vec<T, V>& x) { *(rm_vec<T, V>*)p = x; }
template <class T, int V> RM_INLINE void rm_gemm_store_vec16(T* p, const rm_vec<T, V>& x) {
    rm_vec<rm_u32, V / 2> w;
#pragma unroll
    for (int j = 0; j < V / 2; ++j) w.v[j] = (rm_u32)x.v[2 * j].x | ((rm_u32)x.v[2 * j + 1].x << 16);
    *(rm_vec<rm_u32, V / 2>*)p = w;
}
template <> RM_INLINE void rm_gemm_store_vec<rm_half, 4>(rm_half* p, const rm_vec<rm_half, 4>& x) { rm_gemm_store_vec16(p, x); }
template <> RM_INLINE void rm_gemm_store_vec<rm_bf16, 4>(rm_bf16* p, const rm_vec<rm_bf16, 4>& x) { rm_gemm_store_vec16(p, x); }

// The epilogue's store width: runs of the atom's regrouped layout, at most 16 bytes.
template <class Cfg, class Ty> struct rm_gemm_epilogue_width {
    typedef rm_c_store<typename Cfg::Atom> St;
    enum { V = St::RUN < 16 / (int)sizeof(typename Ty::c) ? St::RUN : 16 / (int)sizeof(typename Ty::c) > 0 ? 16 / (int)sizeof(typename Ty::c) : 1 };
    static_assert(Cfg::Atom::C_ELEMS % V == 0 && St::RUN % V == 0, "accumulator runs must split into whole vectors");
};

// The epilogue of a wave tile that lies wholly inside D, with D (and C) aligned to the vectors:
// no range test per element, Dw and Cw the wave tile's origin. (Under the tests of the general
// form, ptxas recomputed the batch entry's address and the 64-bit offset of every element inside
// each element's branch: in d 128^3 x 2048, whose tiles are all interior, the f64 64 x 64 tile's
// 32 stores a lane took about 1200 instructions, more than its 8 K tiles of DMMA.)
template <class Cfg, class Ty, bool READ_C>
RM_INLINE void rm_gemm_epilogue_interior(const typename Cfg::Atom::CFrag (&acc)[Cfg::REP_M][Cfg::REP_N], bool do_mul,
                                         typename Ty::compute alpha, typename Ty::compute beta, int lane,
                                         const typename Ty::c* Cw, long long ldc, typename Ty::c* Dw, long long ldd) {
    typedef typename Cfg::Atom Atom;
    typedef typename Atom::acc_t Tacc;
    typedef typename Ty::compute Tcomp;
    typedef typename Ty::c Tc;
    typedef rm_c_store<Atom> St;
    enum { V = rm_gemm_epilogue_width<Cfg, Ty>::V };
#pragma unroll
    for (int rm = 0; rm < Cfg::REP_M; ++rm)
#pragma unroll
        for (int rn = 0; rn < Cfg::REP_N; ++rn) {
            Tacc v[Atom::C_ELEMS];
#pragma unroll
            for (int i = 0; i < Atom::C_ELEMS; ++i) v[i] = Atom::c_get(acc[rm][rn], i);
            St::regroup(v, lane);
#pragma unroll
            for (int i0 = 0; i0 < Atom::C_ELEMS; i0 += V) {
                const int r = rm * Atom::M + St::m(lane, i0);
                const long long c = rn * Atom::N + St::n(lane, i0);
                rm_vec<Tc, V> c_in, out;
                if (READ_C) {
                    if (V > 1) {
                        c_in = rm_load_vec<Tc, V>(Cw + (r + c * ldc));
                    } else {
                        c_in.v[0] = Cw[r + c * ldc];
                    }
                }
#pragma unroll
                for (int j = 0; j < V; ++j) {
                    Tcomp x = do_mul ? rm_mul(alpha, (Tcomp)v[i0 + j]) : rm_zero<Tcomp>();
                    if (READ_C) x = rm_madd(beta, rm_convert<Tcomp>(c_in.v[j]), x);
                    out.v[j] = rm_convert<Tc>(x);
                }
                if (V > 1) {
                    rm_gemm_store_vec<Tc, V>(Dw + (r + c * ldd), out);
                } else {
                    Dw[r + c * ldd] = out.v[0];
                }
            }
        }
}

// Epilogue: D = alpha * acc + beta * C for the in-range elements this lane holds; (w0m, w0n) is
// the wave tile's origin in D. C is not read when beta == 0; acc is not read unless `do_mul`.
// The accumulators go through the atom's rm_c_store policy: where it yields runs of rows (the
// warp-tiled FMA and MFMA atoms as they are, the 16-bit, tf32 and i8 mma.sync atoms after a
// shuffle transpose), a run is read and written as vectors of V elements (at most 16 bytes) when it lies
// inside D and D (and C, when read) and their leading dimensions are aligned to them; else
// element by element. (Scalar stores of the FMA atom's 4-row runs wrote each 32-byte sector of D
// in four pieces: 57 % of the s small-batch kernels' store sectors were excess, and the
// kernels ran at 0.77-0.79 of cuBLAS, ncu on the H100, session 18.)
template <class Cfg, class Ty>
RM_INLINE void rm_gemm_epilogue(const typename Cfg::Atom::CFrag (&acc)[Cfg::REP_M][Cfg::REP_N], bool do_mul,
                                typename Ty::compute alpha, typename Ty::compute beta, int m, int n, int w0m, int w0n,
                                int lane, const typename Ty::c* C, long long ldc, typename Ty::c* D, long long ldd) {
    typedef typename Cfg::Atom Atom;
    typedef typename Atom::acc_t Tacc;
    typedef typename Ty::compute Tcomp;
    typedef typename Ty::c Tc;
    typedef rm_c_store<Atom> St;
    enum { V = rm_gemm_epilogue_width<Cfg, Ty>::V };
    const bool read_c = !rm_is_zero(beta);
    const bool vec = V > 1 && ((rm_u64)(const void*)D % (V * sizeof(Tc))) == 0 && ldd % V == 0 &&
                     (!read_c || (((rm_u64)(const void*)C % (V * sizeof(Tc))) == 0 && ldc % V == 0));
    // (Matrix-core atoms only: the FMA atoms' stores were already 16-byte vectors under one test
    // each, and in the interior form s 1024^3 and s 128^3 x 2048 ran 5-7 % slower, H100, s26-c.)
    if (Atom::K > 1 && w0m + Cfg::WT_M <= m && w0n + Cfg::WT_N <= n && (V == 1 || vec)) {
        typename Ty::c* Dw = D + (w0m + (long long)w0n * ldd);
        if (read_c)
            rm_gemm_epilogue_interior<Cfg, Ty, true>(acc, do_mul, alpha, beta, lane, C + (w0m + (long long)w0n * ldc), ldc, Dw, ldd);
        else
            rm_gemm_epilogue_interior<Cfg, Ty, false>(acc, do_mul, alpha, beta, lane, C, ldc, Dw, ldd);
        return;
    }
#pragma unroll
    for (int rm = 0; rm < Cfg::REP_M; ++rm)
#pragma unroll
        for (int rn = 0; rn < Cfg::REP_N; ++rn) {
            Tacc v[Atom::C_ELEMS];
#pragma unroll
            for (int i = 0; i < Atom::C_ELEMS; ++i) v[i] = Atom::c_get(acc[rm][rn], i);
            St::regroup(v, lane);  // (every lane, before any test of its own elements)
#pragma unroll
            for (int i0 = 0; i0 < Atom::C_ELEMS; i0 += V) {
                // (a run starts at a row that is a multiple of its length, so gi is a multiple of V)
                const int gi = w0m + rm * Atom::M + St::m(lane, i0);
                const int gj = w0n + rn * Atom::N + St::n(lane, i0);
                if (V > 1 && vec && gi + V <= m && gj < n) {
                    rm_vec<Tc, V> c_in, out;
                    if (read_c) c_in = rm_load_vec<Tc, V>(C + (gi + (long long)gj * ldc));
#pragma unroll
                    for (int j = 0; j < V; ++j) {
                        Tcomp x = do_mul ? rm_mul(alpha, (Tcomp)v[i0 + j]) : rm_zero<Tcomp>();
                        if (read_c) x = rm_madd(beta, rm_convert<Tcomp>(c_in.v[j]), x);
                        out.v[j] = rm_convert<Tc>(x);
                    }
                    rm_gemm_store_vec<Tc, V>(D + (gi + (long long)gj * ldd), out);
                    continue;
                }
#pragma unroll
                for (int j = 0; j < V; ++j) {
                    const int i = i0 + j;
                    const int ei = w0m + rm * Atom::M + St::m(lane, i);
                    const int ej = w0n + rn * Atom::N + St::n(lane, i);
                    if (ei < m && ej < n) {
                        Tcomp x = do_mul ? rm_mul(alpha, (Tcomp)v[i]) : rm_zero<Tcomp>();
                        if (read_c) x = rm_madd(beta, rm_convert<Tcomp>(C[ei + (long long)ej * ldc]), x);
                        D[ei + (long long)ej * ldd] = rm_convert<Tc>(x);
                    }
                }
            }
        }
}

template <class Cfg, class Ty, int TA, int TB>
RM_INLINE void rm_gemm_body(int m, int n, int k, typename Ty::compute alpha, typename Ty::compute beta,
                            const typename Ty::scalar* alpha_ptr, const typename Ty::scalar* beta_ptr,
                            const typename Ty::ab* A, long long lda, const typename Ty::ab* B, long long ldb,
                            const typename Ty::c* C, long long ldc, typename Ty::c* D, long long ldd) {
    rm_gemm_scalars<Ty>(alpha, beta, alpha_ptr, beta_ptr);
    const int tid = rm_tid_x();
    int m0, n0;
    rm_gemm_tile<Cfg>(m0, n0);
    const rm_gemm_wave<Cfg> w(tid);

    typename Cfg::Atom::CFrag acc[Cfg::REP_M][Cfg::REP_N];
    rm_gemm_zero<Cfg>(acc);

    const bool do_mul = k > 0 && !rm_is_zero(alpha);
    if (do_mul) rm_gemm_mainloop<Cfg, Ty, TA, TB>::run(acc, m, n, k, A, lda, B, ldb, m0, n0, tid, w.wm0, w.wn0, w.lane);
    rm_gemm_epilogue<Cfg, Ty>(acc, do_mul, alpha, beta, m, n, m0 + w.wm0, n0 + w.wn0, w.lane, C, ldc, D, ldd);
}

// ---- Split-K (configs tagged `_kS`) -------------------------------------------------------------
// A tile too few to fill the GPU (256 x 256 x 65536: 16 tiles of 64 x 64 on 132 SMs) is cut into
// `splits` slices of its K tiles, one block each (grid z = entry * splits + slice). The count is a
// kernel argument: the host takes the config's (tuned) count, or fewer for a call whose
// workspace would be out of proportion to its operands (blas/src/gpu.rs). A slice's block
// multiplies its K tiles as an ordinary block multiplies all of them, and stores the sums unscaled
// to its own matrix of a workspace, in the accumulator type; the module's second kernel
// (RM_GEMM_SPLITK_REDUCE) adds the slices in slice order, so results do not depend on timing, and
// applies alpha and beta. The wgmma kernels (gemm_sm90.hip) split their persistent work the same way.

// Slice sp's K tiles [kt0, kt1) of `ktiles` (slices differ by at most one tile; some are empty
// when ktiles < splits).
RM_INLINE void rm_split_k_tiles(int sp, int splits, int ktiles, int& kt0, int& kt1) {
    kt0 = (int)((long long)sp * ktiles / splits);
    kt1 = (int)((long long)(sp + 1) * ktiles / splits);
}

// One slice of the block's tile into W (leading dimension ldw), as the accumulator type: the
// mainloop on operands advanced to the slice's first K tile with k cut to the slice, then the
// epilogue with alpha 1 and beta 0 (exact). An empty slice, or alpha = 0, stores zeros.
template <class Cfg, class Ty, int TA, int TB>
RM_INLINE void rm_gemm_slice_body(int m, int n, int k, int sp, int splits, typename Ty::compute alpha, const typename Ty::scalar* alpha_ptr,
                                  const typename Ty::ab* A, long long lda, const typename Ty::ab* B, long long ldb,
                                  typename Cfg::Atom::acc_t* W, long long ldw) {
    typedef typename Cfg::Atom::acc_t Tw;
    typedef rm_gemm_types<typename Ty::ab, Tw, Tw, Tw> TyW;
    alpha = rm_opaque(alpha);
    if (alpha_ptr) alpha = rm_convert<typename Ty::compute>(*alpha_ptr);
    int kt0, kt1;
    rm_split_k_tiles(sp, splits, (k + Cfg::MT_K - 1) / Cfg::MT_K, kt0, kt1);
    const long long k0 = (long long)kt0 * Cfg::MT_K;
    const long long k1 = (long long)kt1 * Cfg::MT_K < k ? (long long)kt1 * Cfg::MT_K : k;
    const int kslice = k1 > k0 ? (int)(k1 - k0) : 0;
    // op(A) is k-contiguous when A is transposed; op(B) when B is not.
    A += TA != RM_OP_N ? k0 : k0 * lda;
    B += TB == RM_OP_N ? k0 : k0 * ldb;
    const int tid = rm_tid_x();
    int m0, n0;
    rm_gemm_tile<Cfg>(m0, n0);
    const rm_gemm_wave<Cfg> w(tid);
    typename Cfg::Atom::CFrag acc[Cfg::REP_M][Cfg::REP_N];
    rm_gemm_zero<Cfg>(acc);
    const bool do_mul = kslice > 0 && !rm_is_zero(alpha);
    if (do_mul) rm_gemm_mainloop<Cfg, Ty, TA, TB>::run(acc, m, n, kslice, A, lda, B, ldb, m0, n0, tid, w.wm0, w.wn0, w.lane);
    rm_gemm_epilogue<Cfg, TyW>(acc, do_mul, rm_from_int<Tw>(1), rm_from_int<Tw>(0), m, n, m0 + w.wm0, n0 + w.wn0, w.lane, (const Tw*)0, 0, W, ldw);
}

// The second kernel: D = alpha * (the sum of the `splits` slices, added in slice order) + beta * C,
// every element of every batch entry, m fastest. The workspace holds slice s of entry b
// at ws + (b * splits + s) * ldw * n, leading dimension ldw, in Tw.
template <class Tw, class Ty, int V>
RM_INLINE void rm_gemm_splitk_reduce_run(int m, int n, int batch, int splits, typename Ty::compute alpha, typename Ty::compute beta,
                                          const typename Ty::scalar* alpha_ptr, const typename Ty::scalar* beta_ptr,
                                          const Tw* ws, long long ldw, const typename Ty::c* C, long long ldc,
                                          long long stride_c, typename Ty::c* D, long long ldd, long long stride_d) {
    typedef typename Ty::compute Tcomp;
    typedef typename Ty::c Tc;
    // A thread sums V elements of one column along m (ldw is a multiple of 4 and the workspace
    // 16-byte aligned, so a vector past m reads the column's padding, never past the workspace):
    // one division per vector where there were three 64-bit ones per element, and four slices
    // in flight.
    rm_gemm_scalars<Ty>(alpha, beta, alpha_ptr, beta_ptr);
    const bool read_c = !rm_is_zero(beta);
    // D (and C) take whole vectors where their columns are aligned to them.
    const bool vec = ((rm_u64)(const void*)D % (V * sizeof(Tc))) == 0 && ldd % V == 0 && stride_d % V == 0 &&
                     (!read_c || (((rm_u64)(const void*)C % (V * sizeof(Tc))) == 0 && ldc % V == 0 && stride_c % V == 0));
    const long long per_col = (m + V - 1) / V, total = per_col * n * batch, slice = (long long)n * ldw;
    for (long long e = (long long)rm_bid_x() * rm_bdim_x() + rm_tid_x(); e < total; e += (long long)rm_gdim_x() * rm_bdim_x()) {
        const long long col = e / per_col;
        const int i = (int)(e - col * per_col) * V;
        const long long b = col / n;
        const int j = (int)(col - b * n);
        const Tw* p = ws + (b * splits * n + j) * ldw + i;
        rm_vec<Tw, V> sum = *(const rm_vec<Tw, V>*)p;
#pragma unroll 4
        for (int sp = 1; sp < splits; ++sp) {
            const rm_vec<Tw, V> x = *(const rm_vec<Tw, V>*)(p + sp * slice);
#pragma unroll
            for (int t = 0; t < V; ++t) sum.v[t] += x.v[t];
        }
        const Tc* c = C + b * stride_c + i + (long long)j * ldc;
        Tc* d = D + b * stride_d + i + (long long)j * ldd;
        if (V > 1 && vec && i + V <= m) {  // (V = 1: rm_load_vec of one 16-bit element would read 4 bytes)
            rm_vec<Tc, V> c_in, out;
            if (read_c) c_in = rm_load_vec<Tc, V>(c);
#pragma unroll
            for (int t = 0; t < V; ++t) {
                Tcomp v = alpha * (Tcomp)sum.v[t];  // alpha = 0 (from a device pointer): every slice multiplied nothing
                if (read_c) v = rm_madd(beta, rm_convert<Tcomp>(c_in.v[t]), v);
                out.v[t] = rm_convert<Tc>(v);
            }
            rm_gemm_store_vec<Tc, V>(d, out);
            continue;
        }
#pragma unroll
        for (int t = 0; t < V; ++t) {
            if (i + t < m) {
                Tcomp v = alpha * (Tcomp)sum.v[t];
                if (read_c) v = rm_madd(beta, rm_convert<Tcomp>(c[t]), v);
                d[t] = rm_convert<Tc>(v);
            }
        }
    }
}

// The reduce kernel's body: 16-byte vectors of sums per thread where they give the GPU enough
// threads (`wide`, the host's choice), else single elements. (s 1024^3 in four slices, H100: the
// element-wise kernel took 13.4 us for 20 MB, 1.26 TB/s; 256 x 256 x 65536 in 64 slices has
// 65536 elements, whose vectors would fill only 64 blocks.)
template <class Tw, class Ty>
RM_INLINE void rm_gemm_splitk_reduce_body(int m, int n, int batch, int splits, bool wide, typename Ty::compute alpha,
                                          typename Ty::compute beta, const typename Ty::scalar* alpha_ptr,
                                          const typename Ty::scalar* beta_ptr, const Tw* ws, long long ldw,
                                          const typename Ty::c* C, long long ldc, long long stride_c, typename Ty::c* D,
                                          long long ldd, long long stride_d) {
    if (wide)
        rm_gemm_splitk_reduce_run<Tw, Ty, 16 / (int)sizeof(Tw)>(m, n, batch, splits, alpha, beta, alpha_ptr, beta_ptr, ws, ldw,
                                                                C, ldc, stride_c, D, ldd, stride_d);
    else
        rm_gemm_splitk_reduce_run<Tw, Ty, 1>(m, n, batch, splits, alpha, beta, alpha_ptr, beta_ptr, ws, ldw, C, ldc, stride_c,
                                             D, ldd, stride_d);
}

// ---- Persistent grid (direct path, `persistent` configs) --------------------------------------
// In the blocked grid a small batched problem (10000 matrices of 32^3) launches one block per
// matrix, and each block exposes its load latency once: it loads its tiles, waits, computes one
// or two K tiles and stores. Here the host launches only as many blocks as fit on the device at
// once (the driver's occupancy for this kernel, times the SMs); block i
// takes work items i, i + gridDim.x, ... (item = entry * tiles + tile, tiles walked as in
// rm_grouped_tile), and the K tiles of all its items form one stream through the STAGES-buffer
// pipeline: the copies of the next items' tiles are in flight while this item's last tile is
// multiplied and its D tile stored. The tuner decides per size: on the H100 it wins for f64 32^3
// (1.5x) and ties the blocked grid in the 16-bit families, whose blocks are already limited by
// registers and shared memory to 16-17 per SM (benches/results, ninth session).

// Batch entry b's operands: strided (base + b * stride) or pointer arrays (array[b] + offset).
template <class Ty> struct rm_gemm_strided_batch {
    const typename Ty::ab* A; long long sa;
    const typename Ty::ab* B; long long sb;
    const typename Ty::c* C; long long sc;
    typename Ty::c* D; long long sd;
    RM_INLINE const typename Ty::ab* a(long long b) const { return A + b * sa; }
    RM_INLINE const typename Ty::ab* b(long long b) const { return B + b * sb; }
    RM_INLINE const typename Ty::c* c(long long b) const { return C + b * sc; }
    RM_INLINE typename Ty::c* d(long long b) const { return D + b * sd; }
};
template <class Ty> struct rm_gemm_pointer_batch {
    const typename Ty::ab* const* A; long long oa;
    const typename Ty::ab* const* B; long long ob;
    const typename Ty::c* const* C; long long oc;
    typename Ty::c* const* D; long long od;
    RM_INLINE const typename Ty::ab* a(long long b) const { return A[b] + oa; }
    RM_INLINE const typename Ty::ab* b(long long b) const { return B[b] + ob; }
    RM_INLINE const typename Ty::c* c(long long b) const { return C[b] + oc; }
    RM_INLINE typename Ty::c* d(long long b) const { return D[b] + od; }
};

// Where work item `item` is: its batch entry and its tile's origin in D.
template <class Cfg> struct rm_gemm_item {
    long long entry;
    int m0, n0;
    RM_INLINE rm_gemm_item(long long item, int tiles_m, int tiles_n) {
        const long long tiles = (long long)tiles_m * tiles_n;
        entry = item / tiles;
        int tm, tn;
        rm_grouped_tile<Cfg::GROUP_M>((int)(item - entry * tiles), tiles_m, tiles_n, tm, tn);
        m0 = tm * Cfg::MT_M;
        n0 = tn * Cfg::MT_N;
    }
};

// The persistent grid's copy side: the next K tile to copy (tile t of work item `item`), the stage
// buffer it goes to, and the item's operands. (A struct, not a lambda: a closure over locals can
// end up in local memory when the compiler declines to inline it.)
template <class Cfg, class Ty, int TA, int TB> struct rm_gemm_producer {
    typedef rm_gemm_mainloop<Cfg, Ty, TA, TB, true> Main;
    typedef typename Cfg::Atom::in_t Tin;
    long long item, step, items;
    int ktiles, t, stage;
    const Tin* a;
    const Tin* b;
    int m0, n0;
    bool vec_a, vec_b;
    RM_INLINE rm_gemm_producer(long long first, long long step_, long long items_, int ktiles_)
        : item(first), step(step_), items(items_), ktiles(ktiles_), t(0), stage(0), a(0), b(0), m0(0), n0(0),
          vec_a(false), vec_b(false) {}
    // Copies the current tile (nothing once past the last item), commits a group either way (the
    // consumer counts groups), and moves on.
    template <class Batch>
    RM_INLINE void next(const Batch& P, Tin* sA, Tin* sB, int m, int n, int k, long long lda, long long ldb,
                        int tiles_m, int tiles_n, int tid) {
        if (item < items) {
            if (t == 0) {
                const rm_gemm_item<Cfg> it(item, tiles_m, tiles_n);
                a = (const Tin*)P.a(it.entry);
                b = (const Tin*)P.b(it.entry);
                m0 = it.m0;
                n0 = it.n0;
                vec_a = ((rm_u64)(const void*)a % 16) == 0 && lda % Main::LA::V == 0;
                vec_b = ((rm_u64)(const void*)b % 16) == 0 && ldb % Main::LB::V == 0;
            }
            Main::copy(sA, sB, a, lda, b, ldb, m, n, k, m0, n0, t, stage, tid, vec_a, vec_b);
            if (++t == ktiles) {
                t = 0;
                item += step;
            }
        }
        rm_cp_async_commit();
        stage = stage + 1 == Cfg::STAGES ? 0 : stage + 1;
    }
};

template <class Cfg, class Ty, int TA, int TB, class Batch>
RM_INLINE void rm_gemm_persistent_body(int m, int n, int k, int batch, typename Ty::compute alpha,
                                       typename Ty::compute beta, const typename Ty::scalar* alpha_ptr,
                                       const typename Ty::scalar* beta_ptr, const Batch& P, long long lda,
                                       long long ldb, long long ldc, long long ldd) {
    typedef typename Cfg::Atom::in_t Tin;
    typedef rm_gemm_mainloop<Cfg, Ty, TA, TB, true> Main;
    static_assert(Cfg::STAGES > 1, "the persistent grid streams K tiles through the direct path's stages");

    rm_gemm_scalars<Ty>(alpha, beta, alpha_ptr, beta_ptr);
    const int tid = rm_tid_x();
    const rm_gemm_wave<Cfg> w(tid);
    const int tiles_m = (m + Cfg::MT_M - 1) / Cfg::MT_M, tiles_n = (n + Cfg::MT_N - 1) / Cfg::MT_N;
    const long long items = (long long)tiles_m * tiles_n * batch;
    const long long first = rm_bid_x(), step = rm_gdim_x();
    const bool do_mul = k > 0 && !rm_is_zero(alpha);
    const int ktiles = do_mul ? (k + Cfg::MT_K - 1) / Cfg::MT_K : 0;

    typename Cfg::Atom::CFrag acc[Cfg::REP_M][Cfg::REP_N];
    extern __shared__ __attribute__((aligned(16))) unsigned char rm_dyn_shared[];
    Tin* sA = (Tin*)rm_dyn_shared;
    Tin* sB = sA + Cfg::STAGES * Main::LA::SIZE;

    rm_gemm_producer<Cfg, Ty, TA, TB> producer(first, step, items, ktiles);
    if (ktiles > 0) {
#pragma unroll
        for (int s = 0; s < Cfg::STAGES - 1; ++s) producer.next(P, sA, sB, m, n, k, lda, ldb, tiles_m, tiles_n, tid);
    }
    int cs = 0;  // the consumer's stage buffer
    for (long long item = first; item < items; item += step) {
        rm_gemm_zero<Cfg>(acc);
        for (int t = 0; t < ktiles; ++t) {
            // As in the direct mainloop: this tile has landed, and every thread is done with the
            // buffer the next copy overwrites.
            rm_cp_async_wait<Cfg::STAGES - 2>();
            rm_barrier();
            producer.next(P, sA, sB, m, n, k, lda, ldb, tiles_m, tiles_n, tid);
            Main::compute(acc, sA, sB, cs, w.wm0, w.wn0, w.lane);
            cs = cs + 1 == Cfg::STAGES ? 0 : cs + 1;
        }
        const rm_gemm_item<Cfg> it(item, tiles_m, tiles_n);
        rm_gemm_epilogue<Cfg, Ty>(acc, do_mul, alpha, beta, m, n, it.m0 + w.wm0, it.n0 + w.wn0, w.lane, P.c(it.entry), ldc,
                                  P.d(it.entry), ldd);
    }
    rm_cp_async_wait<0>();
}

// A config's occupancy floor MIN_WAVES: blocks per SM on NVIDIA (which caps the registers a thread
// may use: 65536 / (MIN_WAVES * THREADS)); waves per SIMD for the MFMA atoms (WAVE 64) on AMD. The
// FMA atoms run on both vendors and their `o` is NVIDIA's: on AMD they ask for no floor.
#if RM_AMD
#define RM_GEMM_LAUNCH_BOUNDS(cfg) RM_LAUNCH_BOUNDS(cfg::THREADS, cfg::Atom::WAVE == 64 ? cfg::MIN_WAVES : 1)
#else
#define RM_GEMM_LAUNCH_BOUNDS(cfg) RM_LAUNCH_BOUNDS_BLOCKS(cfg::THREADS, cfg::MIN_WAVES)
#endif

// The exported kernels: name, config typedef, types typedef, transposes (RM_OP_*).
// Strided form: batch i at base + i * stride. Pointer-array form (_PA): batch i at array[i] + stride.
#define RM_GEMM_KERNEL(NAME, CFG, TY, TA, TB)                                                          \
    extern "C" __global__ void RM_GEMM_LAUNCH_BOUNDS(CFG) NAME(                                        \
        int m, int n, int k, TY::compute alpha, TY::compute beta, const TY::scalar* alpha_ptr,         \
        const TY::scalar* beta_ptr, const TY::ab* A, long long lda, long long stride_a,                \
        const TY::ab* B, long long ldb, long long stride_b, const TY::c* C, long long ldc,             \
        long long stride_c, TY::c* D, long long ldd, long long stride_d) {                             \
        const long long b = rm_bid_z();                                                                \
        rm_gemm_body<CFG, TY, TA, TB>(m, n, k, alpha, beta, alpha_ptr, beta_ptr, A + b * stride_a, lda, \
                                      B + b * stride_b, ldb, C + b * stride_c, ldc, D + b * stride_d, ldd); \
    }
#define RM_GEMM_KERNEL_PA(NAME, CFG, TY, TA, TB)                                                       \
    extern "C" __global__ void RM_GEMM_LAUNCH_BOUNDS(CFG) NAME(                                        \
        int m, int n, int k, TY::compute alpha, TY::compute beta, const TY::scalar* alpha_ptr,         \
        const TY::scalar* beta_ptr, const TY::ab* const* A, long long lda, long long offset_a,         \
        const TY::ab* const* B, long long ldb, long long offset_b, const TY::c* const* C,              \
        long long ldc, long long offset_c, TY::c* const* D, long long ldd, long long offset_d) {       \
        const int b = rm_bid_z();                                                                      \
        /* A and B arrays are not read when k == 0 or a host-mode alpha == 0 (they may be null) */    \
        const bool mul = k > 0 && (alpha_ptr || !rm_is_zero(alpha));                                   \
        rm_gemm_body<CFG, TY, TA, TB>(m, n, k, alpha, beta, alpha_ptr, beta_ptr,                       \
                                      mul ? A[b] + offset_a : (const TY::ab*)0, lda,                   \
                                      mul ? B[b] + offset_b : (const TY::ab*)0, ldb,                   \
                                      C[b] + offset_c, ldc, D[b] + offset_d, ldd);                     \
    }
// Split-K form (strided only): the parameters of RM_GEMM_KERNEL plus the workspace and the slice
// count (entry `first + z / splits` of the launch's chunk, slice z % splits, at ws + z * n * ldw;
// the host offsets ws, like A and B, to the chunk's first entry).
#define RM_GEMM_KERNEL_SPLITK(NAME, CFG, TY, TA, TB)                                                   \
    extern "C" __global__ void RM_GEMM_LAUNCH_BOUNDS(CFG) NAME(                                        \
        int m, int n, int k, TY::compute alpha, TY::compute beta, const TY::scalar* alpha_ptr,         \
        const TY::scalar* beta_ptr, const TY::ab* A, long long lda, long long stride_a,                \
        const TY::ab* B, long long ldb, long long stride_b, const TY::c* C, long long ldc,             \
        long long stride_c, TY::c* D, long long ldd, long long stride_d, CFG::Atom::acc_t* ws,         \
        long long ldw, int splits) {                                                                   \
        (void)beta; (void)beta_ptr; (void)C; (void)ldc; (void)stride_c; /* the reduce kernel's */      \
        (void)D; (void)ldd; (void)stride_d;                                                            \
        const long long z = rm_bid_z(), b = z / splits;                                                \
        rm_gemm_slice_body<CFG, TY, TA, TB>(m, n, k, (int)(z - b * splits), splits, alpha, alpha_ptr,  \
                                            A + b * stride_a, lda, B + b * stride_b, ldb,              \
                                            ws + z * n * ldw, ldw);                                    \
    }
// The split-K reduce (both mainloops' split-K configs): workspace of TW, `splits` slices an entry.
#define RM_GEMM_SPLITK_REDUCE(NAME, TW, TY)                                                            \
    extern "C" __global__ void RM_LAUNCH_BOUNDS(256, 1)                                                \
        NAME(int m, int n, int batch, int splits, int wide, TY::compute alpha, TY::compute beta,       \
             const TY::scalar* alpha_ptr, const TY::scalar* beta_ptr, const TW* ws, long long ldw,     \
             const TY::c* C, long long ldc, long long stride_c, TY::c* D, long long ldd,               \
             long long stride_d) {                                                                     \
        rm_gemm_splitk_reduce_body<TW, TY>(m, n, batch, splits, wide != 0, alpha, beta, alpha_ptr, beta_ptr, ws, ldw, C, \
                                           ldc, stride_c, D, ldd, stride_d);                           \
    }
// Persistent forms (`persistent` configs): the parameters of the forms above plus the batch count;
// a grid of [blocks, 1, 1], sized by the host to what fits on the device at once.
#define RM_GEMM_KERNEL_PERSISTENT(NAME, CFG, TY, TA, TB)                                               \
    extern "C" __global__ void RM_GEMM_LAUNCH_BOUNDS(CFG) NAME(                                        \
        int m, int n, int k, TY::compute alpha, TY::compute beta, const TY::scalar* alpha_ptr,         \
        const TY::scalar* beta_ptr, const TY::ab* A, long long lda, long long stride_a,                \
        const TY::ab* B, long long ldb, long long stride_b, const TY::c* C, long long ldc,             \
        long long stride_c, TY::c* D, long long ldd, long long stride_d, int batch) {                  \
        const rm_gemm_strided_batch<TY> P = {A, stride_a, B, stride_b, C, stride_c, D, stride_d};      \
        rm_gemm_persistent_body<CFG, TY, TA, TB>(m, n, k, batch, alpha, beta, alpha_ptr, beta_ptr, P, lda, \
                                                 ldb, ldc, ldd);                                       \
    }
#define RM_GEMM_KERNEL_PA_PERSISTENT(NAME, CFG, TY, TA, TB)                                            \
    extern "C" __global__ void RM_GEMM_LAUNCH_BOUNDS(CFG) NAME(                                        \
        int m, int n, int k, TY::compute alpha, TY::compute beta, const TY::scalar* alpha_ptr,         \
        const TY::scalar* beta_ptr, const TY::ab* const* A, long long lda, long long offset_a,         \
        const TY::ab* const* B, long long ldb, long long offset_b, const TY::c* const* C,              \
        long long ldc, long long offset_c, TY::c* const* D, long long ldd, long long offset_d,         \
        int batch) {                                                                                   \
        /* (A and B arrays are read only when the body multiplies: k > 0 and alpha != 0) */           \
        const rm_gemm_pointer_batch<TY> P = {A, offset_a, B, offset_b, C, offset_c, D, offset_d};      \
        rm_gemm_persistent_body<CFG, TY, TA, TB>(m, n, k, batch, alpha, beta, alpha_ptr, beta_ptr, P, lda, \
                                                 ldb, ldc, ldd);                                       \
    }

#endif // ROCMATH_GEMM_HIP
