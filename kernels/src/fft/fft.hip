// FFT kernels: the Stockham single-pass kernel (a whole transform, or TPB of them, in shared
// memory/LDS) and the element-wise kernels around it (real-even pre/post-processing, Bluestein
// chirps). Written once for AMD and NVIDIA; the generator (kernels/src/gen/fft.rs) emits the
// butterflies (rm_dft<R>), the pass list of one length (a struct with a static run()), and the
// extern "C" instantiations.
//
// Addressing (every kernel): one side of a transform is two scalar pointers `re`, `im` and
// strides in scalars. Interleaved complex is re = base, im = base + 1 with doubled strides;
// planar is two buffers; a real array has im == null (imaginary parts read as 0, not stored).
// Transforms are numbered over up to three outer dimensions (dimension 0 fastest), each with a
// length and a stride on each side.
//
// Twiddle tables hold forward roots exp(-2 pi i ...) in the compute type; inverse kernels
// (DIR = +1) conjugate them. A Stockham kernel's table has one block per pass after the first
// (see rm_fft_pass; the layout is `stage_twiddles` in kernels/src/gen/fft.rs).

template <class R> struct rm_fft_complex;
template <> struct rm_fft_complex<float> { typedef rm_c32 type; };
template <> struct rm_fft_complex<double> { typedef rm_c64 type; };

// Multiply by the twiddle w^DIR (w from a forward table).
template <int DIR, class C> RM_INLINE C rm_fft_twiddle(C v, C w) {
    if (DIR > 0) w = rm_conj(w);
    return v * w;
}

// DIR * i * v
template <int DIR, class C> RM_INLINE C rm_fft_mul_i(C v) {
    C r;
    if (DIR > 0) { r.x = -v.y; r.y = v.x; } else { r.x = v.y; r.y = -v.x; }
    return r;
}

template <class T, class C> RM_INLINE C rm_fft_load(const T* re, const T* im, rm_i64 i) {
    typedef typename rm_traits<T>::real R;
    C v;
    v.x = rm_convert<R>(re[i]);
    v.y = im ? rm_convert<R>(im[i]) : (R)0;
    return v;
}

template <class T, class C> RM_INLINE void rm_fft_store(T* re, T* im, rm_i64 i, C v) {
    re[i] = rm_convert<T>(v.x);
    if (im) im[i] = rm_convert<T>(v.y);
}

// Entry i of a table (twiddles, chirps, filters): the tables are ours and pair-aligned, so one
// vector load. (C promises only scalar alignment, and the compiler splits a plain C load in two.)
template <class C> RM_INLINE C rm_fft_entry(const C* t, rm_i64 i) {
    typedef typename rm_traits<C>::real R;
    const rm_vec<R, 2> p = ((const rm_vec<R, 2>*)t)[i];
    C v;
    v.x = p.v[0];
    v.y = p.v[1];
    return v;
}

// An interleaved (re, im) pair of storage type T as a complex of the compute type, and back.
template <class C, class T> RM_INLINE C rm_fft_from_pair(rm_vec<T, 2> p) {
    typedef typename rm_traits<C>::real R;
    C v;
    v.x = rm_convert<R>(p.v[0]);
    v.y = rm_convert<R>(p.v[1]);
    return v;
}

template <class T, class C> RM_INLINE rm_vec<T, 2> rm_fft_to_pair(C v) {
    rm_vec<T, 2> p;
    p.v[0] = rm_convert<T>(v.x);
    p.v[1] = rm_convert<T>(v.y);
    return p;
}

// X[k] of an even real forward transform of length 2H from its length-H complex transform Z of
// z[j] = x[2j] + i x[2j+1]: zk = Z[k mod H], zr = Z[(H - k) mod H], w = exp(-2 pi i k / 2H).
template <class C> RM_INLINE C rm_fft_real_split(C zk, C zr, C w) {
    typedef typename rm_traits<C>::real R;
    const C b = rm_conj(zr);
    const C even = (R)0.5 * (zk + b);
    const C odd = rm_fft_mul_i<-1>((R)0.5 * (zk - b));   // (zk - b) / (2i)
    return even + w * odd;
}

// The real ends' twiddle of the pair's other point: exp(-2 pi i (H - k) / 2H) = -conj(w) for
// w = exp(-2 pi i k / 2H), so one table entry serves both points of a pair (k = 0: -1, for H).
template <class C> RM_INLINE C rm_fft_real_partner(C w) {
    w.x = -w.x;
    return w;
}

// Outer-dimension offsets of transform `tr`: (in scalars on each side, index along dim 0).
struct rm_fft_outer {
    rm_i64 len0, len1;                 // dim 2's length is implied by the transform count
    rm_i64 in0, in1, in2, out0, out1, out2;
};

// q = a / b, r = a % b for 0 <= a, 0 < b: in 32 bits when both fit (the common case; a 64-bit
// division is several times the instructions), else in 64.
RM_INLINE void rm_fft_divmod(rm_i64 a, rm_i64 b, rm_i64& q, rm_i64& r) {
    if ((((unsigned long long)a | (unsigned long long)b) >> 32) == 0) {
        const unsigned qa = (unsigned)a / (unsigned)b;
        q = qa;
        r = (unsigned)a - qa * (unsigned)b;
    } else {
        q = a / b;
        r = a - q * b;
    }
}

RM_INLINE void rm_fft_offsets(const rm_fft_outer& o, rm_i64 tr, rm_i64& in_off, rm_i64& out_off, rm_i64& i0) {
    rm_i64 rest, i1, i2;
    rm_fft_divmod(tr, o.len0, rest, i0);
    rm_fft_divmod(rest, o.len1, i2, i1);
    in_off = i0 * o.in0 + i1 * o.in1 + i2 * o.in2;
    out_off = i0 * o.out0 + i1 * o.out1 + i2 * o.out2;
}

// Two-level table of the four-step twiddle exp(-2 pi i m / big_n): lo[m & mask] * hi[m >> shift].
template <int DIR, class C> RM_INLINE C rm_fft_big_twiddle(const C* lo, const C* hi, int shift, rm_i64 m) {
    C w = rm_fft_entry(lo, m & ((1ll << shift) - 1)) * rm_fft_entry(hi, m >> shift);
    if (DIR > 0) w = rm_conj(w);
    return w;
}

// Shared-memory rows: one padding element after every RM_FFT_PAD (16, or 32 where the first
// pass has radix 32): the first pass writes at stride radix, which would otherwise hit one
// bank. Rows are ROW elements apart, a stride the generator picks so that the threads of one
// shared-memory access hit distinct banks (`row_stride` in kernels/src/gen/fft.rs).
// RM_FFT_PAD_SHIFT 0: no padding (rows whose radix-10 passes store at strides the padding does
// not spread: `pad_shift` in kernels/src/gen/fft.rs). RM_FFT_PAD is then a period no row
// reaches, so the formulas below that step over padding elements hold as they are, and
// RM_FFT_SPLITS(M) (pad(x + c) = pad(x) + c + c / RM_FFT_PAD for x a multiple of M) holds for
// every M.
#ifndef RM_FFT_PAD_SHIFT
#define RM_FFT_PAD_SHIFT 4
#endif
#if RM_FFT_PAD_SHIFT == 0
#define RM_FFT_PAD (1 << 24)
#define RM_FFT_SPLITS(M) true
RM_INLINE int rm_fft_pad(int i) { return i; }
#else
#define RM_FFT_PAD (1 << RM_FFT_PAD_SHIFT)
#define RM_FFT_SPLITS(M) ((M) % RM_FFT_PAD == 0)
RM_INLINE int rm_fft_pad(int i) { return i + (i >> RM_FFT_PAD_SHIFT); }
#endif

// Element rm_fft_pad(x + c) from px = rm_fft_pad(x), where x is a multiple of M and c >= 0 is a
// constant once the caller's loops unroll: px + c + c / RM_FFT_PAD where x + c crosses the same
// number of padding boundaries as c does (x a multiple of the period, or x within a period
// leaving room for c's remainder), so the shared address is the thread's base plus an
// immediate; else the shift and add per access (the compiler does not fold
// (x + c) >> 4 itself, and in a 2048-point column pass these took a fifth of the instructions).
// RM_FFT_PAD_FOLD: 1 folds the passes' loads, 2 their stores (`pad_fold` in
// kernels/src/gen/fft.rs: both in column kernels, stores elsewhere).
#ifndef RM_FFT_PAD_FOLD
#define RM_FFT_PAD_FOLD 3
#endif
// Returns the element's address in `row`: where it folds, the thread's pointer row + px (the
// same in every call) plus the constant, which the compiler did not split off an int index.
template <int M, int WHICH, class C> RM_INLINE C* rm_fft_padded(C* row, int x, int px, int c) {
    const bool folds = (RM_FFT_PAD_FOLD & WHICH) && (RM_FFT_SPLITS(M) || (RM_FFT_PAD % M == 0 && c % RM_FFT_PAD < M));
    return folds ? (row + px) + (c + c / RM_FFT_PAD) : row + rm_fft_pad(x + c);
}

// Where one thread's transform lives in global memory, and how its elements are stored.
//   n_in    : elements read; elements n_in.. of the transform read as 0 (Bluestein's zero
//             padding). N for a plain transform.
//   herm_in : the input holds elements 0..n_in/2 only; the rest are conjugate mirrors (real
//             inverse of odd length through a complex transform).
//   pre     : when non-null, input element e is multiplied by pre[e] (Bluestein's chirp).
//   n_out   : elements stored per transform (N, or N/2+1 for a real forward of odd length).
//   post    : when non-null, output element e is multiplied by post[e] (Bluestein's filter
//             spectrum or chirp), before the scale.
//   il      : re/im are adjacent and 2-scalar aligned (interleaved): one vector access each.
//   big_lo/big_hi/big_step : when non-null, output element e of transform i0 (the column index,
//             i0 < big_cols) is multiplied by exp(DIR 2 pi i (i0 * e) / big_n), the four-step
//             twiddle; the last pass applies it (rm_fft_big_twiddle_apply).
template <class TI, class TO, class C> struct rm_fft_io {
    typedef typename rm_traits<C>::real R;
    const TI* in_re; const TI* in_im; rm_i64 in_stride; int in_il; int herm_in; int n_in; const C* pre;
    TO* out_re; TO* out_im; rm_i64 out_stride; int out_il; int n_out; const C* post;
    const C* big_lo; const C* big_hi; const C* big_step; int big_shift; rm_i64 big_cols;
    R scale;
    rm_i64 in_base, out_base, index0;
    bool valid;

    // This thread's transform: offsets in scalars on each side, and its index along dim 0.
    RM_INLINE void place(rm_i64 in_off, rm_i64 out_off, rm_i64 i0) {
        in_base = in_off;
        out_base = out_off;
        index0 = i0;
    }

    // Element e of the transform whose input starts at scalar `base`.
    RM_INLINE C load_from(rm_i64 base, int e) const {
        C v;
        if (e >= n_in) {
            v.x = (R)0;
            v.y = (R)0;
            return v;
        }
        const bool mirror = herm_in && e > n_in / 2;
        const rm_i64 i = base + (rm_i64)(mirror ? n_in - e : e) * in_stride;
        if (in_il) {
            v = rm_fft_from_pair<C>(*(const rm_vec<TI, 2>*)(in_re + i));
        } else {
            v = rm_fft_load<TI, C>(in_re, in_im, i);
        }
        if (mirror) v = rm_conj(v);
        if (pre) v = v * rm_fft_entry(pre, e);
        return v;
    }

    RM_INLINE C load(int e) const { return load_from(in_base, e); }

    // Read elements c, c + cl, c + 2 cl, ... as elements 0, 1, 2, ... (a cluster kernel's
    // decimated input; the plan only asks this of whole, unmultiplied inputs).
    RM_INLINE void decimate(int c, int cl) {
        in_base += c * in_stride;
        in_stride *= cl;
    }

    RM_INLINE void store(int e, C v) const { store_to(out_base, e, v); }

    // Element e of the transform whose output starts at scalar `base`.
    RM_INLINE void store_to(rm_i64 base, int e, C v) const {
        if (e >= n_out) return;
        if (post) v = v * rm_fft_entry(post, e);
        v = v * scale;
        const rm_i64 i = base + (rm_i64)e * out_stride;
        if (out_il) {
            *(rm_vec<TO, 2>*)(out_re + i) = rm_fft_to_pair<TO>(v);
        } else {
            rm_fft_store<TO, C>(out_re, out_im, i, v);
        }
    }
};

// A pair load from global memory. Plain column kernels are built with RM_FFT_L2_PREFETCH (128
// bytes; `l2_prefetch` in kernels/src/gen/fft.rs): on NVIDIA sm_80+ L2 then fetches that many
// bytes around each 32-byte sector they read. A block reads 32-64 bytes of each strided row, and
// the neighbouring blocks the next ones.
template <class T> RM_INLINE rm_vec<T, 2> rm_fft_load_pair(const rm_vec<T, 2>* p) { return *p; }
#if RM_NVIDIA && (RM_SM == 0 || RM_SM >= 800) && defined(RM_FFT_L2_PREFETCH)
#define RM_FFT_STR2(x) #x
#define RM_FFT_STR(x) RM_FFT_STR2(x)
template <> RM_INLINE rm_vec<float, 2> rm_fft_load_pair(const rm_vec<float, 2>* p) {
    rm_vec<float, 2> r;
    asm volatile("ld.global.L2::" RM_FFT_STR(RM_FFT_L2_PREFETCH) "B.v2.f32 {%0, %1}, [%2];" : "=f"(r.v[0]), "=f"(r.v[1]) : "l"(p));
    return r;
}
template <> RM_INLINE rm_vec<double, 2> rm_fft_load_pair(const rm_vec<double, 2>* p) {
    rm_vec<double, 2> r;
    asm volatile("ld.global.L2::" RM_FFT_STR(RM_FFT_L2_PREFETCH) "B.v2.f64 {%0, %1}, [%2];" : "=d"(r.v[0]), "=d"(r.v[1]) : "l"(p));
    return r;
}
#endif

// The common case compiled on its own (the generator's `plain` kernels): both sides
// interleaved and pair-aligned, every element read and stored, no multipliers, and element
// offsets that fit 32 bits (the plan checks all of it). No per-element branches; one vector
// access per element from a per-thread base pointer.
template <class TI, class TO, class C> struct rm_fft_io_plain {
    typedef typename rm_traits<C>::real R;
    typedef rm_vec<TI, 2> VI;
    typedef rm_vec<TO, 2> VO;
    const TI* in_re; int in_stride;    // strides in complex elements
    TO* out_re; int out_stride;
    const C* big_lo; const C* big_hi; const C* big_step; int big_shift; rm_i64 big_cols;
    R scale;
    const VI* in; VO* out; rm_i64 index0;
    bool valid;

    RM_INLINE void place(rm_i64 in_off, rm_i64 out_off, rm_i64 i0) {
        in = (const VI*)(in_re + in_off);
        out = (VO*)(out_re + out_off);
        index0 = i0;
    }

    // Element e of the transform whose input starts at scalar `base`.
    RM_INLINE const VI* address_from(rm_i64 base, int e) const { return (const VI*)(in_re + base) + e * in_stride; }

    RM_INLINE C load_from(rm_i64 base, int e) const { return rm_fft_from_pair<C>(*address_from(base, e)); }

    RM_INLINE C load(int e) const { return rm_fft_from_pair<C>(rm_fft_load_pair<TI>(in + e * in_stride)); }

    RM_INLINE void decimate(int c, int cl) {
        in += c * in_stride;
        in_stride *= cl;
    }

    RM_INLINE void store(int e, C v) const { out[e * out_stride] = rm_fft_to_pair<TO>(v * scale); }

    RM_INLINE void store_to(rm_i64 base, int e, C v) const { ((VO*)(out_re + base))[e * out_stride] = rm_fft_to_pair<TO>(v * scale); }

    // RM_FFT_NEXT_PREFETCH (below): where the input of the block one wave later starts, in
    // scalars, in the one thread that asks L2 for it; -1 in the others.
    rm_i64 next_base;

    // Asks L2 for the n elements of the next_base transform, where they are contiguous (sm_90):
    // one bulk prefetch of the 16-byte units inside them (the instruction's alignment; the few
    // bytes outside come with the loads), marked evict-last so that the block's stores do not
    // push them out first. The pass list calls it before the pass the generator picked
    // (`next_prefetch_pass` in kernels/src/gen/fft.rs).
    RM_INLINE void prefetch_next(int n) const {
#if RM_NVIDIA && RM_SM >= 900
        if (next_base < 0 || in_stride != 1) return;
        const rm_u64 begin = ((rm_u64)(in_re + next_base) + 15) & ~(rm_u64)15;
        const rm_u64 end = (rm_u64)(in_re + next_base + (rm_i64)2 * n) & ~(rm_u64)15;
        rm_u64 policy;
        asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
        if (end > begin) asm volatile("cp.async.bulk.prefetch.L2.global.L2::cache_hint [%0], %1, %2;" ::"l"(begin), "r"((rm_u32)(end - begin)), "l"(policy) : "memory");
#else
        (void)n;
#endif
    }
};

// The four-step twiddle of butterfly j = lt + it TPT of the last pass (radix RADIX of an N-point
// transform, NS = N / RADIX), whose element r is output e = lt + (it TPT + r NS):
//   exp(DIR 2 pi i i0 e / big_n) = base * step[(it RADIX + r) big_cols + i0], where
//   base = exp(DIR 2 pi i i0 lt / big_n) is the thread's own: two scattered table reads, once,
//          in the last pass (rm_fft_pass; read before the first pass it held two registers
//          through all of them, and the 2048-point kernels ran 1-2 % slower), and
//   step entry (it RADIX + r) cols + c = exp(-2 pi i c (it TPT + r NS) / big_n) (conjugated for
//          the inverse) is read coalesced over the block's adjacent columns.
// Gathering a base per butterfly made the 2^20 column pass wait on scattered loads: 40 M load
// sectors where the data is 17 M.
//
// RM_FFT_BIG_RECURRENCE (single precision; `big_recurrence` in kernels/src/gen/fft.rs): where
// NS is a multiple of TPT, the twiddle of element r of iteration it is base g^it s^r with
// g = exp(DIR 2 pi i i0 TPT / big_n) and s = exp(DIR 2 pi i i0 NS / big_n), two more two-level
// lookups per thread: a product per element instead of a table read per element. The chains
// are at most RADIX + ITERS products long: a few ulp of f32 each.
#ifndef RM_FFT_BIG_RECURRENCE
#define RM_FFT_BIG_RECURRENCE 0
#endif
template <int DIR, int RADIX, int RECUR, class IO, class C> RM_INLINE void rm_fft_big_twiddle_apply(const IO& io, C base, C g, C s, int it, C* v) {
    if (!io.big_lo) return;
    if (RECUR) {
        C t = base;
#pragma unroll
        for (int k = 0; k < it; ++k) t = t * g;
#pragma unroll
        for (int r = 0; r < RADIX; ++r) {
            v[r] = v[r] * t;
            if (r + 1 < RADIX) t = t * s;
        }
        return;
    }
#pragma unroll
    for (int r = 0; r < RADIX; ++r) v[r] = rm_fft_twiddle<DIR>(v[r] * base, rm_fft_entry(io.big_step, (it * RADIX + r) * io.big_cols + io.index0));
}

// The wait between a transform's writes to its shared row and its reads of them. SYNC 0: the
// block's barrier. SYNC 1: the generator found each transform's threads inside one warp (row
// order, the threads per transform dividing the warp, whole warps in the block), so that warp's
// barrier is enough, and warps do not wait for each other (`StockhamKernel::warp_sync`).
template <int SYNC> RM_INLINE void rm_fft_row_sync() {
    if (SYNC) rm_warp_barrier();
    else rm_barrier();
}

// Butterfly j = lt + it TPT of a pass with NS = product of the earlier radices: j / NS and
// j % NS split into a part from lt alone (once per thread) and a compile-time part from it,
// where the shapes allow (0 <= lt < TPT in every caller). NS % TPT == 0 (the later passes of a
// long row): j / NS = it TPT / NS and j % NS = lt + it TPT % NS, so the twiddle and shared
// addresses are the thread's base plus immediates. TPT % NS == 0 (the early passes):
// j / NS = lt / NS + it TPT / NS and j % NS = lt % NS. Otherwise unsigned division per
// butterfly (by a constant: a multiply-high). Signed j / NS and j % NS took five integer
// instructions per butterfly for the sign (sm_90 SASS of the 512-point kernel).
template <int NS, int TPT> struct rm_fft_butterfly {
    enum { HI = NS % TPT == 0, LO = !HI && TPT % NS == 0 };
    int lt, lt_div, lt_mod;
    RM_INLINE explicit rm_fft_butterfly(int t) : lt(t), lt_div(LO ? (int)((unsigned)t / NS) : 0), lt_mod(LO ? (int)((unsigned)t % NS) : t) {}
    RM_INLINE int div(int it) const {
        if (HI) return it * TPT / NS;
        if (LO) return lt_div + it * (TPT / NS);
        return (int)((unsigned)(lt + it * TPT) / NS);
    }
    // j % NS = mod_base() + mod_offset(it): the per-thread part, and the rest (a constant
    // where the shapes split).
    RM_INLINE int mod_base() const { return HI || LO ? lt_mod : 0; }
    RM_INLINE int mod_offset(int it) const {
        if (HI) return it * TPT % NS;
        if (LO) return 0;
        return (int)((unsigned)(lt + it * TPT) % NS);
    }
    RM_INLINE int mod(int it) const { return mod_base() + mod_offset(it); }
};

// RM_FFT_TW_PRODUCTS (`tw_products` in kernels/src/gen/fft.rs): the passes read the twiddles
// w^r of r a power of two and make the rest by products, rather than read each.
#ifndef RM_FFT_TW_PRODUCTS
#define RM_FFT_TW_PRODUCTS 0
#endif

// One Stockham pass of radix RADIX on a row of N elements, NS = product of the earlier radices,
// ITERS = butterflies per thread (ceil(N / RADIX / TPT)). SRC / DST: 0 = the shared-memory
// row, 1 = global memory through `io`. The first pass reads global memory directly and the last
// writes it (both coalesced: element j + r N/R of butterfly j), so a length of one radix never
// touches shared memory. A pass that reads and writes the row waits between the two
// (rm_fft_row_sync<SYNC>).
//
// Twiddles: the pass's own block of the table at TWOFF, tw[TWOFF + (r - 1) NS + k] =
// exp(-2 pi i k r / (NS RADIX)) for k = j mod NS: consecutive butterflies read consecutive
// entries (one coalesced read per element rather than a gather at stride r N / (NS RADIX)).
//
// Shared addresses: each access's padded index is rm_fft_padded's of a per-thread base x and a
// constant c once the loops unroll. Where TPT is a multiple of the padding period, x is lt and c
// carries it TPT, so the fold (RM_FFT_PAD_FOLD) leaves no per-butterfly integer work; else x is
// the butterfly's own index.
//
// IN_W / OUT_W: the exchange through the row before / after this pass has a layout of its own
// (`exchange_layouts` in kernels/src/gen/fft.rs) where nonzero: W padding elements after every
// NS elements (loads) or NS RADIX (stores), the group stride of the pass that stores it. A
// butterfly's stores then stay in one group, and a load's element j + r N/RADIX sits at
// pad(j) + r (N/RADIX)(NS + W)/NS (NS divides N/RADIX), both from the thread's base plus
// immediates. 0: the kernel's rows (rm_fft_pad). PAIRS: the first pass (NS = 1) stores its
// RADIX consecutive outputs two at a time, 16 bytes (complex f32; RADIX even; rows of an even
// stride, unpadded or the exchange's own layout with NS RADIX + OUT_W even).
//
// TW_AHEAD (`tw_ahead_passes` in kernels/src/gen/fft.rs), bit 1: the pass reads its twiddles into
// registers first and only then waits for the row the previous pass wrote, so the table's
// latency runs under the barrier's wait rather than after it; that previous pass then has bit 2,
// which leaves its closing wait to this one (the same SYNC on both sides).
template <int N, int RADIX, int NS, int TWOFF, int TPT, int ITERS, int DIR, class C, class DFT, int SRC, int DST, int SYNC, int IN_W, int OUT_W,
          int PAIRS, int TW_AHEAD = 0, class IO>
RM_INLINE void rm_fft_pass(C* row, int lt, const C* tw, const IO& io) {
    static_assert(IN_W == 0 || (NS > 1 && SRC == 0 && (N / RADIX) % NS == 0), "an exchange layout is between two passes");
    static_assert(OUT_W == 0 || (DST == 0 && NS * RADIX < N), "an exchange layout is between two passes");
    static_assert(PAIRS == 0 || (NS == 1 && RADIX % 2 == 0 && sizeof(C) == 8 && DST == 0 && NS * RADIX < N), "paired stores: first pass, complex f32");
    typedef rm_fft_butterfly<NS, TPT> BF;
    const BF bf(lt);
    enum { LT_BASE = RM_FFT_SPLITS(TPT), LAST = NS * RADIX == N };
    const int plt = rm_fft_pad(lt);
    const C* tw_t = tw + TWOFF + bf.mod_base();
    enum { AHEAD = (TW_AHEAD & 1) != 0, LEAVE_WAIT = (TW_AHEAD & 2) != 0 };
    static_assert(!AHEAD || (NS > 1 && SRC == 0), "twiddles ahead of the wait: a pass that reads the row, after the first");
    static_assert(!LEAVE_WAIT || DST == 0, "only a pass that writes the row leaves its wait to the next");
    // (Entries the products below do not make: every r, or with RM_FFT_TW_PRODUCTS the powers of two.)
    C ahead[AHEAD ? ITERS : 1][AHEAD ? RADIX : 1];
    if (AHEAD) {
#pragma unroll
        for (int it = 0; it < ITERS; ++it) {
            if (lt + it * TPT < N / RADIX) {
                const int k = bf.mod_offset(it);
#pragma unroll
                for (int r = 1; r < RADIX; ++r) {
                    if (!RM_FFT_TW_PRODUCTS || (r & (r - 1)) == 0) ahead[AHEAD ? it : 0][AHEAD ? r : 0] = rm_fft_entry(tw_t, (r - 1) * NS + k);
                }
            }
        }
        rm_fft_row_sync<SYNC>();
    }
    C v[ITERS][RADIX];
#pragma unroll
    for (int it = 0; it < ITERS; ++it) {
        const int j = lt + it * TPT;
        if (j < N / RADIX && (SRC == 0 || io.valid)) {
            if (SRC) {
#pragma unroll
                for (int r = 0; r < RADIX; ++r) v[it][r] = io.load(j + r * (N / RADIX));
            } else if (IN_W) {
                const int pj = j + IN_W * bf.div(it);
#pragma unroll
                for (int r = 0; r < RADIX; ++r) v[it][r] = row[pj + r * (N / RADIX / NS) * (NS + IN_W)];
            } else {
                const int x = LT_BASE ? lt : j, px = LT_BASE ? plt : rm_fft_pad(j), c = LT_BASE ? it * TPT : 0;
#pragma unroll
                for (int r = 0; r < RADIX; ++r) v[it][r] = *rm_fft_padded<1, 1>(row, x, px, c + r * (N / RADIX));
            }
            if (NS > 1) {
                // (From the thread's own pointer into the table, for the same reason as
                // rm_fft_padded.)
                const int k = bf.mod_offset(it);
                if (RM_FFT_TW_PRODUCTS) {
                    // Entries r = 1, 2, 4, ... from the table, the others as products w_r =
                    // w_h w_(r - h), h the highest power of two in r (at most log2 RADIX - 1
                    // products deep): 4 reads of the radix-16 pass's 15.
                    C w[RADIX];
#pragma unroll
                    for (int r = 1; r < RADIX; ++r) {
                        int h = r;
                        while (h & (h - 1)) h &= h - 1;
                        w[r] = h != r ? w[h] * w[r - h] : AHEAD ? ahead[AHEAD ? it : 0][AHEAD ? r : 0] : rm_fft_entry(tw_t, (r - 1) * NS + k);
                        v[it][r] = rm_fft_twiddle<DIR>(v[it][r], w[r]);
                    }
                } else {
#pragma unroll
                    for (int r = 1; r < RADIX; ++r) v[it][r] = rm_fft_twiddle<DIR>(v[it][r], AHEAD ? ahead[AHEAD ? it : 0][AHEAD ? r : 0] : rm_fft_entry(tw_t, (r - 1) * NS + k));
                }
            }
            DFT::template run<DIR, C>(v[it]);
        }
    }
    if (SRC == 0 && DST == 0) rm_fft_row_sync<SYNC>();
    enum { RECUR = RM_FFT_BIG_RECURRENCE && NS % TPT == 0 };
    C big_base, big_g, big_s;
    if (DST && io.big_lo) {
        big_base = rm_fft_big_twiddle<DIR>(io.big_lo, io.big_hi, io.big_shift, io.index0 * lt);
        if (RECUR) {
            big_g = rm_fft_big_twiddle<DIR>(io.big_lo, io.big_hi, io.big_shift, io.index0 * TPT);
            big_s = rm_fft_big_twiddle<DIR>(io.big_lo, io.big_hi, io.big_shift, io.index0 * NS);
        }
    }
    // Butterfly j's outputs go to d + r NS, d = (j / NS) NS RADIX + j % NS (j itself in the
    // last pass, where j < NS). The store into the row takes the padded index from base x
    // (a multiple of M) plus constant c + r NS:
    //   the last pass, or NS % TPT == 0, with TPT a multiple of the period: x = lt;
    //   TPT % NS == 0 with TPT RADIX a multiple of the period: x = d of it = 0 (lt RADIX for
    //   the first pass, NS = 1), c = it TPT RADIX;
    //   else x = d.
    enum { STORE_LT = LT_BASE && (LAST || BF::HI), STORE_D0 = !STORE_LT && BF::LO && RM_FFT_SPLITS(TPT * RADIX) };
    const int d0 = bf.div(0) * NS * RADIX + bf.mod(0);
    const int pd0 = rm_fft_pad(d0);
#pragma unroll
    for (int it = 0; it < ITERS; ++it) {
        const int j = lt + it * TPT;
        if (j < N / RADIX) {
            if (DST) {
                // The last pass: NS = N / RADIX, so d = j.
                if (io.valid) {
                    rm_fft_big_twiddle_apply<DIR, RADIX, RECUR>(io, big_base, big_g, big_s, it, v[it]);
#pragma unroll
                    for (int r = 0; r < RADIX; ++r) io.store(j + r * NS, v[it][r]);
                }
            } else if (OUT_W || PAIRS) {
                C* at = row + bf.div(it) * (NS * RADIX + OUT_W) + bf.mod(it);
                if (PAIRS) {
#pragma unroll
                    for (int r = 0; r < RADIX; r += 2) {
                        rm_vec<C, 2> pair;
                        pair.v[0] = v[it][r];
                        pair.v[1] = v[it][r + 1];
                        *(rm_vec<C, 2>*)(at + r) = pair;
                    }
                } else {
#pragma unroll
                    for (int r = 0; r < RADIX; ++r) at[r * NS] = v[it][r];
                }
            } else {
                const int d = LAST ? j : bf.div(it) * NS * RADIX + bf.mod(it);
                const int x = STORE_LT ? lt : STORE_D0 ? d0 : d;
                const int px = STORE_LT ? plt : STORE_D0 ? pd0 : rm_fft_pad(d);
                const int c = STORE_LT ? d - lt : STORE_D0 ? it * TPT * RADIX : 0;
                // (x is a multiple of RADIX in the first pass, NS = 1, unless it is lt.)
                enum { M = NS == 1 && !STORE_LT ? RADIX : 1 };
#pragma unroll
                for (int r = 0; r < RADIX; ++r) *rm_fft_padded<M, 2>(row, x, px, c + r * NS) = v[it][r];
            }
        }
    }
    if (DST == 0 && !LEAVE_WAIT) rm_fft_row_sync<SYNC>();
}

// Row elements lt + c and N - lt - c, for c = it TPT: where TPT is a multiple of the padding
// period, pointers of the thread's own plus immediates (pad(y + c) = pad(y) + c + c / RM_FFT_PAD
// for c a multiple of it, either sign); else the padded index per access.
template <int N, int TPT, class C> struct rm_fft_pair_rows {
    enum { SPLIT = RM_FFT_SPLITS(TPT) };
    C* row; int lt; C* up; C* down;
    RM_INLINE rm_fft_pair_rows(C* r, int t) : row(r), lt(t), up(r + rm_fft_pad(t)), down(r + rm_fft_pad(N - t)) {}
    RM_INLINE C* lo(int c) const { return SPLIT ? up + (c + c / RM_FFT_PAD) : row + rm_fft_pad(lt + c); }
    RM_INLINE C* hi(int c) const { return SPLIT ? down - (c + c / RM_FFT_PAD) : row + rm_fft_pad(N - lt - c); }
};

// Real forward of even length 2N, fused after the N-point transform Z of z[j] = x[2j] +
// i x[2j+1] (the pass list's last pass left Z in the shared row): X[k] for k = 0..N (N + 1
// elements), stored through `io`, or (TO_ROW, a staged store follows) left in the row at
// rm_fft_pad(k). rtw[k] = exp(-2 pi i k / 2N), k < N. The same arithmetic as the element-wise
// rm_fft_r2c_post, without the round trip of Z through global memory. A thread takes the pair
// k, N - k (k <= N / 2; k = 0 also gives X[N]): two shared reads for two outputs, stores that run
// forward and backward, each coalesced, and in the row no place another thread reads. With
// TO_ROW every thread reaches the barrier.
// Output e of rm_fft_real_post: into the row at `at` (TO_ROW) or stored through io.
template <int TO_ROW, class C, class IO> RM_INLINE void rm_fft_real_put(C* at, const IO& io, int e, C v) {
    if (TO_ROW) *at = v;
    else io.store(e, v);
}
template <int N, int TPT, int TO_ROW, class C, class IO> RM_INLINE void rm_fft_real_post(C* row, int lt, const C* rtw, const IO& io) {
    if (!TO_ROW && !io.valid) return;
    const rm_fft_pair_rows<N, TPT, C> rows(row, lt);
    const C* rtw_t = rtw + lt;
#pragma unroll
    for (int it = 0; it < (N / 2 + TPT) / TPT; ++it) {
        const int k = lt + it * TPT;
        if (k <= N / 2) {
            // (For k = 0 the pair's other element is zk itself; element N of the row, read and
            // dropped, lies inside it.)
            const C zk = *rows.lo(it * TPT), zn = *rows.hi(it * TPT), zr = k == 0 ? zk : zn;
            const C w = rm_fft_entry(rtw_t, it * TPT);
            const C xk = rm_fft_real_split(zk, zr, w);
            if (!TO_ROW) io.store(k, xk);
            // The pair's other output, X[N - k] (X[N] for k = 0, where zr is zk); none where N - k
            // is k itself.
            if (2 * k != N) rm_fft_real_put<TO_ROW>(rows.hi(it * TPT), io, N - k, rm_fft_real_split(zr, zk, rm_fft_real_partner(w)));
            if (TO_ROW) *rows.lo(it * TPT) = xk;
        }
    }
    if (TO_ROW) rm_barrier();
}

// Z[k] = (X[k] + conj X[N-k]) + i (X[k] - conj X[N-k]) exp(+2 pi i k / 2N) of a real inverse
// of even length 2N (rm_fft_c2r_pre's arithmetic): a = X[k], b = conj X[N-k], w = rtw[k] as above.
template <class C> RM_INLINE C rm_fft_real_merge(C a, C b, C w) {
    return (a + b) + rm_fft_mul_i<1>(rm_fft_twiddle<1>(a - b, w));
}

// Real inverse of even length 2N, fused before the N-point inverse transform (`real_pre`): the
// Z whose inverse transform is z[j] = x[2j] + i x[2j+1], from the hermitian X[0..N], into the
// shared row for the first pass. A thread takes the pair k, N - k (k <= N / 2). The loads run
// forward and backward over the input, each coalesced. Every thread reaches the barrier.
template <int N, int TPT, int SYNC, class C, class IO> RM_INLINE void rm_fft_real_pre_load(C* row, int lt, const C* rtw, const IO& io) {
    // (The other form tried, every pair loaded first and then merged, was 3-7 % slower on an
    // H200 at real lengths 512, 2048-8192 and half 4096, and 2-6 % faster at 1024, 16384 and
    // 32768: benches/results/2026-11-21-h100-fft.md, thirty-eighth session.)
    const rm_fft_pair_rows<N, TPT, C> rows(row, lt);
    const C* rtw_t = rtw + lt;
#pragma unroll
    for (int it = 0; it < (N / 2 + TPT) / TPT; ++it) {
        const int k = lt + it * TPT;
        if (k <= N / 2) {
            C a, b;
            a.x = a.y = b.x = b.y = 0;
            if (io.valid) {
                a = io.load(k);
                b = io.load(N - k);
            }
            const C w = rm_fft_entry(rtw_t, it * TPT);
            if (k != 0 && 2 * k != N) *rows.hi(it * TPT) = rm_fft_real_merge(b, rm_conj(a), rm_fft_real_partner(w));
            *rows.lo(it * TPT) = rm_fft_real_merge(a, rm_conj(b), w);
        }
    }
    rm_fft_row_sync<SYNC>();
}

// The same where a staged load left X[0..N] in the row (N + 1 elements; short transforms, and
// column-ordered blocks that read rows): Z replaces X[0..N-1] in place.
template <int N, int TPT, int SYNC, class C> RM_INLINE void rm_fft_real_pre_rows(C* row, int lt, const C* rtw) {
    const rm_fft_pair_rows<N, TPT, C> rows(row, lt);
    const C* rtw_t = rtw + lt;
#pragma unroll
    for (int it = 0; it < (N / 2 + TPT) / TPT; ++it) {
        const int k = lt + it * TPT;
        if (k <= N / 2) {
            const C a = *rows.lo(it * TPT), b = *rows.hi(it * TPT), w = rm_fft_entry(rtw_t, it * TPT);
            if (k != 0 && 2 * k != N) *rows.hi(it * TPT) = rm_fft_real_merge(b, rm_conj(a), rm_fft_real_partner(w));
            *rows.lo(it * TPT) = rm_fft_real_merge(a, rm_conj(b), w);
        }
    }
    rm_fft_row_sync<SYNC>();
}

// Fused Bluestein (`bluestein` in kernels/src/gen/fft.rs): the forward transform of the chirped
// input left its spectrum in the shared row; multiply it by the filter's spectrum (io.post)
// before the inverse transform's passes read it. Every thread reaches the barrier.
template <int N, int TPT, int SYNC, class C, class IO> RM_INLINE void rm_fft_bluestein_filter(C* row, int lt, const IO& io) {
    const rm_fft_pair_rows<N, TPT, C> rows(row, lt);
    const C* post_t = io.post + lt;
#pragma unroll
    for (int it = 0; it < (N + TPT - 1) / TPT; ++it) {
        const int e = lt + it * TPT;
        if (e < N) *rows.lo(it * TPT) = *rows.lo(it * TPT) * rm_fft_entry(post_t, it * TPT);
    }
    rm_fft_row_sync<SYNC>();
}

// A staged kernel's loads straight into shared memory (cp.async), for plain inputs stored in the
// compute type: every load of the block in flight at once, none of them held in registers.
// (Registers were the limit: staging through them took 114-126 per thread at 512 threads, one
// block per SM.) Other inputs (half storage, the general load) go through registers.
#ifndef RM_FFT_STAGE_REGISTERS
#define RM_FFT_STAGE_REGISTERS 0   // 1: through registers anyway (ROCMATH_FFT_STAGE_ASYNC=0, A/B)
#endif
template <class IO, class C> struct rm_fft_async_stage {
    enum { value = 0 };
    static RM_INLINE void copy(C*, const IO&, rm_i64, int) {}
};
template <class TO> struct rm_fft_async_stage<rm_fft_io_plain<float, TO, rm_c32>, rm_c32> {
    enum { value = RM_HAS_CP_ASYNC && !RM_FFT_STAGE_REGISTERS };
    static RM_INLINE void copy(rm_c32* dst, const rm_fft_io_plain<float, TO, rm_c32>& io, rm_i64 base, int e) {
        rm_cp_async8(dst, io.address_from(base, e));
    }
};
template <class TO> struct rm_fft_async_stage<rm_fft_io_plain<double, TO, rm_c64>, rm_c64> {
    enum { value = RM_HAS_CP_ASYNC && !RM_FFT_STAGE_REGISTERS };
    static RM_INLINE void copy(rm_c64* dst, const rm_fft_io_plain<double, TO, rm_c64>& io, rm_i64 base, int e) {
        rm_cp_async16(dst, io.address_from(base, e), 16);
    }
};

// RM_FFT_ASSUME_LANE (`assume_lane` in kernels/src/gen/fft.rs): the kernel tells the compiler
// that the thread index lies within the block (the launch guarantees it), so that lt < TPT
// folds the passes' per-iteration range tests.
#ifndef RM_FFT_ASSUME_LANE
#define RM_FFT_ASSUME_LANE 0
#endif

// N points per TPT threads, TPB transforms per block, each in a shared-memory row of ROW
// elements. COLUMN: the block's transforms are
// adjacent in memory (outer stride below the element stride), so consecutive threads take
// consecutive transforms; otherwise consecutive threads take consecutive elements of one.
// STAGED: the input is read through shared memory in the other order first (the four-step's
// second step reads rows and writes columns). STAGE_OUT: the passes leave the rows in shared
// memory and the block stores them in element order (short row transforms, whose few threads
// per transform would otherwise stride by the length). LOAD_N and STORE_N: the elements of a
// transform that the staged load reads and the staged store writes (N, or N + 1 for the
// hermitian side of a fused real transform). PASSES::run does the passes.
template <class TI, class TO, int N, int ROW, int TPT, int TPB, int DIR, int COLUMN, int STAGED, int STAGE_OUT, int LOAD_N, int STORE_N, class PASSES, class IO>
RM_INLINE void rm_fft_stockham(IO io, rm_fft_outer outer, rm_i64 transforms,
                               const typename rm_fft_complex<typename rm_traits<TI>::real>::type* tw, int next_blocks) {
    (void)next_blocks;
    typedef typename rm_traits<TI>::real R;
    typedef typename rm_fft_complex<R>::type C;
    extern __shared__ __attribute__((aligned(16))) unsigned char rm_dyn_shared[];
    C* sm = (C*)rm_dyn_shared;
    const int tid = rm_tid_x();
    if (RM_FFT_ASSUME_LANE) RM_ASSUME(tid >= 0 && tid < TPT * TPB);
    const int t = COLUMN ? tid % TPB : tid / TPT;
    const int lt = COLUMN ? tid / TPB : tid % TPT;
    const rm_i64 first = (rm_i64)rm_bid_x() * TPB;
    io.valid = first + t < transforms;
    io.big_cols = outer.len0;
    // Each transform's offsets (in, out, index along dim 0), found once per block by its first
    // TPB threads (two integer divisions each) and shared, rather than by every thread before
    // its first load. Whole 16-byte units (the LDS allocation granule on AMD).
    __shared__ rm_i64 placed[(3 * TPB + 1) / 2 * 2];
#ifdef RM_FFT_NEXT_PREFETCH
    // The input of the block that will run `next_blocks` blocks per multiprocessor later (the
    // blocks of this kernel a multiprocessor holds, the driver's occupancy figure at launch; 0:
    // RM_FFT_NEXT_PREFETCH, the generator's estimate): this SM's next block, when blocks start
    // in order. Asked of L2 before a later pass (io.prefetch_next), so that global memory keeps
    // reading while this block computes: one-transform blocks of long rows, one or two a
    // multiprocessor, otherwise load their input only when they start (`next_prefetch` in
    // kernels/src/gen/fft.rs). Found by a lane of the second warp, beside the first warp's
    // offsets.
    static_assert(TPB == 1, "next-block prefetch: one transform a block");
    io.next_base = -1;
#if RM_NVIDIA
    if (tid == (TPT > 32 ? 32 : 0)) {
        const rm_i64 next = first + (rm_i64)rm_sm_count() * (next_blocks > 0 ? next_blocks : RM_FFT_NEXT_PREFETCH);
        rm_i64 a = 0, b = 0, c = 0;
        if (next < transforms) {
            rm_fft_offsets(outer, next, a, b, c);
            io.next_base = a;
        }
    }
#endif
#endif
    if (tid < TPB) {
        rm_i64 a = 0, b = 0, c = 0;
        if (first + tid < transforms) rm_fft_offsets(outer, first + tid, a, b, c);
        placed[3 * tid] = a;
        placed[3 * tid + 1] = b;
        placed[3 * tid + 2] = c;
    }
    rm_barrier();
    io.place(placed[3 * t], placed[3 * t + 1], placed[3 * t + 2]);
    C* row = sm + t * ROW;
    if (STAGED) {
        // Rows in, in element order, whatever the thread mapping.
        const int per_thread = (TPB * LOAD_N + TPT * TPB - 1) / (TPT * TPB);
        // Straight into the rows where rm_fft_async_stage takes the input.
        if (rm_fft_async_stage<IO, C>::value) {
            const int T = TPT * TPB;
            if (LOAD_N == N && N % T == 0 && RM_FFT_SPLITS(T)) {
                // Element tid + c T of every row: the row and the padded column offsets are
                // compile-time constants plus this thread's own (a third of the integer work of
                // the general form below, which divides i by N for each element).
                const int padded = rm_fft_pad(tid);
#pragma unroll
                for (int st = 0; st < TPB; ++st) {
                    if (first + st < transforms) {
                        const rm_i64 base = placed[3 * st];
#pragma unroll
                        for (int c = 0; c < N / T; ++c) rm_fft_async_stage<IO, C>::copy(&sm[st * ROW + padded + c * (T + T / RM_FFT_PAD)], io, base, tid + c * T);
                    }
                }
            } else {
#pragma unroll
                for (int k = 0; k < per_thread; ++k) {
                    const int i = tid + k * T, st = i / LOAD_N, e = i % LOAD_N;
                    if (i < TPB * LOAD_N && first + st < transforms) rm_fft_async_stage<IO, C>::copy(&sm[st * ROW + rm_fft_pad(e)], io, placed[3 * st], e);
                }
            }
            rm_cp_async_commit();
            rm_cp_async_wait<0>();
        }
        // Otherwise through registers: a thread's loads go in chunks, each chunk's loads before
        // its shared stores, so that they are in flight together. Blocks of up to 512 threads
        // take all of them at once (on the H100: 2^15-2^20 and double 2^20 7-18 % faster than
        // one at a time); blocks of 1024 threads, whose registers are capped at 64, load one at
        // a time (all at once was 15-20 % slower there: benches/results/2026-11-21-h100-fft.md).
        const int chunk = TPT * TPB <= 512 ? per_thread : 1;
        for (int c0 = 0; !rm_fft_async_stage<IO, C>::value && c0 < per_thread; c0 += chunk) {
            C staged[chunk];
#pragma unroll
            for (int k = 0; k < chunk; ++k) {
                const int i = tid + (c0 + k) * TPT * TPB, st = i / LOAD_N, e = i % LOAD_N;
                if (i < TPB * LOAD_N && first + st < transforms) staged[k] = io.load_from(placed[3 * st], e);
            }
#pragma unroll
            for (int k = 0; k < chunk; ++k) {
                const int i = tid + (c0 + k) * TPT * TPB, st = i / LOAD_N, e = i % LOAD_N;
                if (i < TPB * LOAD_N && first + st < transforms) sm[st * ROW + rm_fft_pad(e)] = staged[k];
            }
        }
        rm_barrier();
    }
    PASSES::template run<DIR, C, STAGED ? 0 : 1>(row, lt, tw, io);
    if (STAGE_OUT) {
        // Rows out, in element order (the last pass's barrier made the rows whole).
        const int T = TPT * TPB;
#pragma unroll 4
        for (int k = 0; k < (TPB * STORE_N + T - 1) / T; ++k) {
            const int i = tid + k * T, st = i / STORE_N, e = i % STORE_N;
            if (i < TPB * STORE_N && first + st < transforms) io.store_to(placed[3 * st + 1], e, sm[st * ROW + rm_fft_pad(e)]);
        }
    }
}

#if RM_NVIDIA
// ---- cluster kernels (sm_90: thread block clusters and distributed shared memory) -----------
//
// A transform of CL * M points on a cluster of CL blocks: block c computes the M-point
// transform Y_c of the decimated input x[CL m + c] in its own shared row, then
// X[k + M q] = sum_c exp(DIR 2 pi i c (k + M q) / (CL M)) Y_c[k] is a radix-CL butterfly over
// the blocks' rows at k (after the twiddle exp(DIR 2 pi i c k / (CL M))), each block taking
// M / CL of the k. One exchange through distributed shared memory instead of a second pass
// over global memory.

// The generic address of `p` (this block's shared memory) in block `rank` of the cluster.
template <class T> RM_INLINE const T* rm_cluster_map(const T* p, unsigned rank) {
    const T* q;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(q) : "l"(p), "r"(rank));
    return q;
}

// Every thread of every block in the cluster arrives; shared-memory writes before it are
// visible to the cluster after it.
RM_INLINE void rm_cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// The last wait before a block of the cluster leaves: after it no block reads another's shared
// memory. With RM_FFT_CLUSTER_RELAXED_EXIT the arrival has no release fence: the remote reads it
// must follow have completed (their values were stored), and the global stores need not be
// ordered before it, so the block does not wait for them (`cluster_relaxed_exit` in
// kernels/src/gen/fft.rs).
#ifndef RM_FFT_CLUSTER_RELAXED_EXIT
#define RM_FFT_CLUSTER_RELAXED_EXIT 0
#endif
RM_INLINE void rm_cluster_exit_sync() {
    if (RM_FFT_CLUSTER_RELAXED_EXIT) {
        asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    } else {
        rm_cluster_sync();
    }
}

// The cross-block radix-CL step. `row` holds this block's Y (natural order, padded); ctw[(c - 1)
// M + k] = exp(-2 pi i c k / (CL M)). RM_FFT_CLUSTER_PRODUCTS (`cluster_products` in
// kernels/src/gen/fft.rs): the twiddle of block c as the c-th power of block 1's (one table read
// a k rather than CL - 1; chains of CL - 1 products).
#ifndef RM_FFT_CLUSTER_PRODUCTS
#define RM_FFT_CLUSTER_PRODUCTS 0
#endif
template <int M, int CL, int TPT, int DIR, class C, class DFT, class IO>
RM_INLINE void rm_fft_cluster_combine(const C* row, int lt, const C* ctw, const IO& io, unsigned rank) {
    rm_cluster_sync();   // every block's Y is complete (and every block has started)
    if (io.valid) {
        const C* rows[CL];
#pragma unroll
        for (int c = 0; c < CL; ++c) rows[c] = rm_cluster_map(row, c);
        const int slice = M / CL;
#pragma unroll
        for (int it = 0; it < (slice + TPT - 1) / TPT; ++it) {
            const int j = lt + it * TPT;
            if (j < slice) {
                const int k = (int)rank * slice + j;
                C v[CL];
#pragma unroll
                for (int c = 0; c < CL; ++c) v[c] = rm_fft_entry(rows[c], rm_fft_pad(k));   // one vector load each
                if (RM_FFT_CLUSTER_PRODUCTS) {
                    const C w = rm_fft_entry(ctw, k);
                    C t = w;
#pragma unroll
                    for (int c = 1; c < CL; ++c) {
                        v[c] = rm_fft_twiddle<DIR>(v[c], t);
                        if (c + 1 < CL) t = t * w;
                    }
                } else {
#pragma unroll
                    for (int c = 1; c < CL; ++c) v[c] = rm_fft_twiddle<DIR>(v[c], rm_fft_entry(ctw, (c - 1) * M + k));
                }
                DFT::template run<DIR, C>(v);
#pragma unroll
                for (int q = 0; q < CL; ++q) io.store(k + q * M, v[q]);
            }
        }
    }
    rm_cluster_exit_sync();   // no block leaves while another still reads its row
}

// One transform of CL * M points per cluster of CL blocks of TPT threads (`rm_fft_stockham`'s
// arguments; its pass list must leave Y in the shared row). TWN: twiddles of the M-point passes
// (the cluster twiddles follow them in `tw`). Each block reads its decimated elements straight
// from global memory at a stride of CL (the cluster's blocks share the sectors in L2); dealing
// contiguous loads out through distributed shared memory instead was 1.5-1.8x slower on the H100.
template <class TI, class TO, int M, int CL, int TPT, int TWN, int DIR, class PASSES, class DFT, class IO>
RM_INLINE void rm_fft_stockham_cluster(IO io, rm_fft_outer outer, rm_i64 transforms,
                                       const typename rm_fft_complex<typename rm_traits<TI>::real>::type* tw) {
    typedef typename rm_traits<TI>::real R;
    typedef typename rm_fft_complex<R>::type C;
    extern __shared__ __attribute__((aligned(16))) unsigned char rm_dyn_shared[];
    C* row = (C*)rm_dyn_shared;
    const int lt = rm_tid_x();
    if (RM_FFT_ASSUME_LANE) RM_ASSUME(lt >= 0 && lt < TPT);
    const unsigned rank = rm_cluster_rank();
    const rm_i64 tr = (rm_i64)(rm_bid_x() / CL);
    io.valid = tr < transforms;
    io.big_cols = outer.len0;
    {
        rm_i64 in_off = 0, out_off = 0, i0 = 0;
        if (io.valid) rm_fft_offsets(outer, tr, in_off, out_off, i0);
        io.place(in_off, out_off, i0);
    }
    io.decimate((int)rank, CL);
    PASSES::template run<DIR, C, 1>(row, lt, tw, io);
    rm_fft_cluster_combine<M, CL, TPT, DIR, C, DFT>(row, lt, tw + TWN, io, rank);
}
#endif

// ---- element-wise kernels -------------------------------------------------------------------

// Real forward, even length N = 2H, after the length-H complex transform Z of
// z[j] = x[2j] + i x[2j+1] (rows of H, contiguous, in `z`): X[k] for k = 0..H.
// rtw[k] = exp(-2 pi i k / N), k < H.
template <class T>
RM_INLINE void rm_fft_r2c_post(const typename rm_fft_complex<typename rm_traits<T>::real>::type* z, rm_i64 h,
                               T* out_re, T* out_im, rm_i64 out_stride, rm_fft_outer outer, rm_i64 transforms,
                               const typename rm_fft_complex<typename rm_traits<T>::real>::type* rtw,
                               typename rm_traits<T>::real scale) {
    typedef typename rm_traits<T>::real R;
    typedef typename rm_fft_complex<R>::type C;
    const rm_i64 idx = (rm_i64)rm_bid_x() * rm_bdim_x() + rm_tid_x();
    rm_i64 k, tr;
    rm_fft_divmod(idx, h + 1, tr, k);
    if (tr >= transforms) return;
    rm_i64 in_off, out_off, i0;
    rm_fft_offsets(outer, tr, in_off, out_off, i0);
    const C* row = z + tr * h;
    rm_fft_store<T, C>(out_re, out_im, out_off + k * out_stride, rm_fft_real_split(row[k == h ? 0 : k], row[k == 0 ? 0 : h - k], k == h ? rm_fft_real_partner(rm_fft_entry(rtw, 0)) : rm_fft_entry(rtw, k)) * scale);
}

// Real inverse, even length N = 2H: the length-H complex input Z (rows of H, contiguous) whose
// unnormalised inverse transform is z[j] = x[2j] + i x[2j+1], from the hermitian X[0..H].
template <class T>
RM_INLINE void rm_fft_c2r_pre(const T* in_re, const T* in_im, rm_i64 in_stride, rm_fft_outer outer, rm_i64 transforms,
                              typename rm_fft_complex<typename rm_traits<T>::real>::type* z, rm_i64 h,
                              const typename rm_fft_complex<typename rm_traits<T>::real>::type* rtw) {
    typedef typename rm_traits<T>::real R;
    typedef typename rm_fft_complex<R>::type C;
    const rm_i64 idx = (rm_i64)rm_bid_x() * rm_bdim_x() + rm_tid_x();
    rm_i64 k, tr;
    rm_fft_divmod(idx, h, tr, k);
    if (tr >= transforms) return;
    rm_i64 in_off, out_off, i0;
    rm_fft_offsets(outer, tr, in_off, out_off, i0);
    const C a = rm_fft_load<T, C>(in_re, in_im, in_off + k * in_stride);
    const C b = rm_conj(rm_fft_load<T, C>(in_re, in_im, in_off + (h - k) * in_stride));
    const C odd = rm_fft_twiddle<1>(a - b, rm_fft_entry(rtw, k));     // (X[k] - conj X[H-k]) e^{+2 pi i k / N}
    z[tr * h + k] = (a + b) + rm_fft_mul_i<1>(odd);
}

// Bluestein, step 1: a[n] = x[n] chirp[n] for n < N, 0 for N <= n < M (rows of M, contiguous).
// chirp[n] = exp(DIR pi i n^2 / N) (already in the plan's direction).
template <class T>
RM_INLINE void rm_fft_chirp_in(const T* in_re, const T* in_im, rm_i64 in_stride, int herm_in, rm_i64 n, rm_fft_outer outer,
                               rm_i64 transforms, typename rm_fft_complex<typename rm_traits<T>::real>::type* a, rm_i64 m,
                               const typename rm_fft_complex<typename rm_traits<T>::real>::type* chirp) {
    typedef typename rm_traits<T>::real R;
    typedef typename rm_fft_complex<R>::type C;
    const rm_i64 idx = (rm_i64)rm_bid_x() * rm_bdim_x() + rm_tid_x();
    rm_i64 e, tr;
    rm_fft_divmod(idx, m, tr, e);
    if (tr >= transforms) return;
    C v;
    v.x = (R)0;
    v.y = (R)0;
    if (e < n) {
        rm_i64 in_off, out_off, i0;
        rm_fft_offsets(outer, tr, in_off, out_off, i0);
        if (herm_in && e > n / 2) v = rm_conj(rm_fft_load<T, C>(in_re, in_im, in_off + (n - e) * in_stride));
        else v = rm_fft_load<T, C>(in_re, in_im, in_off + e * in_stride);
        v = v * rm_fft_entry(chirp, e);
    }
    a[tr * m + e] = v;
}

// Bluestein, step 3: a *= filter (the filter's spectrum already holds the 1/M of the inverse).
template <class C>
RM_INLINE void rm_fft_pointwise(C* a, rm_i64 m, rm_i64 rows, const C* filter) {
    const rm_i64 idx = (rm_i64)rm_bid_x() * rm_bdim_x() + rm_tid_x();
    if (idx >= m * rows) return;
    rm_i64 row, e;
    rm_fft_divmod(idx, m, row, e);
    a[idx] = a[idx] * rm_fft_entry(filter, e);
}

// Bluestein, step 5: X[k] = chirp[k] a[k] for k < n_out.
template <class T>
RM_INLINE void rm_fft_chirp_out(const typename rm_fft_complex<typename rm_traits<T>::real>::type* a, rm_i64 m, rm_i64 n_out,
                                T* out_re, T* out_im, rm_i64 out_stride, rm_fft_outer outer, rm_i64 transforms,
                                const typename rm_fft_complex<typename rm_traits<T>::real>::type* chirp,
                                typename rm_traits<T>::real scale) {
    const rm_i64 idx = (rm_i64)rm_bid_x() * rm_bdim_x() + rm_tid_x();
    rm_i64 k, tr;
    rm_fft_divmod(idx, n_out, tr, k);
    if (tr >= transforms) return;
    rm_i64 in_off, out_off, i0;
    rm_fft_offsets(outer, tr, in_off, out_off, i0);
    rm_fft_store<T>(out_re, out_im, out_off + k * out_stride, a[tr * m + k] * rm_fft_entry(chirp, k) * scale);
}
