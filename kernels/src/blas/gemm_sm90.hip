// rocmath GEMM on Hopper (sm_90a): TMA loads, wgmma from shared memory, warp specialization and a
// persistent grid. Same contract as gemm.hip (D = alpha * op(A) * op(B) + beta * C, column-major,
// strided batches) for the 16-bit families, xf32 and i8, except that A and B arrive as TMA tensor
// maps.
//
// Block: CONSUMERS + 1 warpgroups of 128 threads.
//   * warpgroup 0, the producer, gives most of its registers away (setmaxnreg.dec); one thread
//     issues the TMA copies of each K tile (BK elements, 128 bytes) of op(A) (BM x BK) and op(B) (BK x BN) into
//     one of STAGES shared-memory stages, and the copy engine completes the stage's "full"
//     mbarrier with the byte count.
//   * warpgroups 1..CONSUMERS (2; 1 for 64-row tiles) each own 64 rows of the BM x BN tile: per K
//     tile they wait on "full", issue 4 wgmma m64nBNk16 (k8 for tf32, k32 for s8; f32 accumulators
//     in registers, s32 for s8, BN / 2 per thread), keep one group in flight, and release the
//     previous stage's "empty" mbarrier.
//     Ping-pong (BM = 64 with two consumers): the consumers take the block's tiles in turn, each
//     a whole 64-row tile, and step over the other's stages; so one stores its tile while the
//     other multiplies the next (small batched matrices, where the epilogue is most of a tile).
//     Their mainloops take turns (named barriers 3 and 4), so that a consumer waits on a stage
//     only after the stage's previous fill has completed.
//     The epilogue (alpha, beta * C, conversion) goes through shared memory and TMA stores
//     (rm_sm90_store_tma) while the producer already loads the next tile's stages; D that TMA
//     cannot describe is written from registers instead.
//   * the grid is persistent (at most BLOCKS per SM, 1 to 4); block b takes tiles b, b + gridDim.x, ...
//     in GROUP_M-row groups per batch entry so that concurrently running tiles share L2 lines.
//   * MULTICAST: blocks run in clusters of two (ranks 0 and 1) on a pair of tiles, rows m0 and
//     m0 + BM of one column of tiles (the walk's units are pairs), which read the same B tile.
//     Each producer loads its own A and half of B (rank r: the r-th half of the BN / 64 boxes,
//     or of the rows) into the same stage of both blocks with one multicast copy, so L2 sends
//     B once per pair; a stage's full barrier expects the whole stage either way. A stage is
//     written by both producers, so its empty barrier counts both blocks' consumers: one lane
//     of each consumer warp arrives on its own block's barrier, another on the other's. Cluster
//     barriers after the barriers' initialization and before exit keep either block from
//     copying into, or arriving on, a block that is not there.
//   * split-K (SPLIT; the slice count `splits` is a kernel argument): each tile is `splits` work
//     units, one per slice of its K tiles; a unit stores its f32 sums unscaled to a workspace,
//     and the second kernel of the module (RM_GEMM_SPLITK_REDUCE) adds the slices in order and
//     applies alpha and beta.
//
// Shared memory: 128-byte swizzled tiles in the layouts TMA writes and wgmma reads (the canonical
// swizzled layouts of the PTX ISA, "Shared Memory Matrix Layout"). A K tile is one 128-byte row
// of k: BK = 64 16-bit, 32 tf32 or 128 s8 elements; one wgmma takes Mma::K of them (16, 8 resp.
// 32), 32 bytes.
//   * K-major operand (op(A) with TA = T, op(B) with TB = N): one box {BK (k), rows}: row r at
//     r * 128 bytes; descriptor SBO = 1024 (8-row groups), a k step adds 32 bytes.
//   * MN-major operand (op(A) with TA = N, op(B) with TB = T; 16-bit only, the tf32 and s8 forms
//     have no transpose): rows / 64 boxes {64 (m or n), 64 (k)} of 8 KiB each: k row at k * 128
//     bytes; SBO = 1024 (8 k rows), LBO = 8192 (the next 64 m/n), a k16 step adds 2048 bytes;
//     wgmma reads it transposed (imm-trans = 1). The host transposes s8 operands stored MN-major,
//     and tf32 ones unless the config transposes in shared memory, into a k-major copy first
//     (blas/src/gpu.rs).
//   * In-smem transposes (XPOSE, tf32): an MN-major operand goes by TMA, as stored, into a second
//     ring of STAGES buffers ("staging", same size and index as the stages; barriers sfull and
//     sempty): boxes {32 (m or n), 32 (k)} of 4 KiB, k row at k * 128 bytes, 128-byte swizzled.
//     Warps 1-3 of the producer warpgroup (stage s to warp s % 3) rewrite each staged box
//     k-major into the stage (rm_sm90_transpose), fence the writes for the async proxy, release
//     the staging buffer and arrive on the stage's "full" barrier, which then completes when the
//     warp's 32 lanes have and the copy engine has delivered the stage's k-major operand, if
//     any. Lane reads of one k row and 16-byte stores of one k quad per row are both free of
//     bank conflicts under the swizzles. cuBLAS's tf32 kernels transpose in shared memory too
//     (one pass over A and B less than the host's copy).
// TMA zero-fills what lies outside [0, m) x [0, k) (resp. [0, k) x [0, n)), so edges need no
// code in the mainloop; TMA stores clip at D's edges (in 16-byte units along m, so the host
// stores through TMA only where m fills whole units) and the register epilogue tests bounds.
//
// Requirements the host checks before choosing this kernel: sm_90, A/B base addresses 16-byte
// aligned, lda/ldb and batch strides multiples of 16 bytes, batch strides nonzero
// when batch > 1. Otherwise the mma.sync kernels of gemm.hip run.

#ifndef ROCMATH_GEMM_SM90_HIP
#define ROCMATH_GEMM_SM90_HIP
#if !RM_NVIDIA || (RM_SM != 0 && RM_SM < 900)
#error "gemm_sm90: wgmma/TMA kernels need NVIDIA sm_90a"
#endif

// CUtensorMap: 128 opaque bytes, 64-byte aligned, built on the host by cuTensorMapEncodeTiled.
struct __attribute__((aligned(64))) rm_tensor_map { unsigned long long opaque[16]; };

// The tensor maps are kernel parameters; TMA takes their address in parameter space. nvrtc keeps
// a __grid_constant__ parameter there and gives its address; clang (the static check) has no
// grid_constant, so there the address is taken by the parameter's PTX name, which both compilers
// spell <kernel>_param_<index>.
#if defined(__CUDACC_RTC__)
#define RM_TMAP_PARAM(var) const __grid_constant__ rm_tensor_map var
#define RM_TMAP_ADDR(NAME, INDEX, var) ((rm_u64)(const void*)&(var))
#else
#define RM_TMAP_PARAM(var) const rm_tensor_map var
#define RM_TMAP_ADDR(NAME, INDEX, var) rm_param_addr_##INDEX##_##NAME()
#define RM_TMAP_ADDR_FN(NAME, INDEX)                                                                  \
    RM_INLINE rm_u64 rm_param_addr_##INDEX##_##NAME() {                                               \
        rm_u64 a;                                                                                     \
        asm("mov.u64 %0, " #NAME "_param_" #INDEX ";\n\tcvta.param.u64 %0, %0;" : "=l"(a));          \
        return a;                                                                                     \
    }
#endif

#ifdef __launch_bounds__
#define RM_SM90_BOUNDS(threads, blocks) __launch_bounds__(threads, blocks)
#else
#define RM_SM90_BOUNDS(threads, blocks) __attribute__((launch_bounds(threads, blocks)))
#endif

// ---- mbarriers, TMA, wgmma (shared addresses are 32-bit) ----------------------------------------
RM_INLINE void rm_mbar_init(rm_u32 bar, rm_u32 count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
RM_INLINE void rm_mbar_arrive_expect_tx(rm_u32 bar, rm_u32 bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
RM_INLINE void rm_mbar_arrive(rm_u32 bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
// Waits until the phase of parity `parity` has completed (a fresh barrier is in phase 0, so
// waiting on parity 1 returns at once: the producer's first pass over the empty barriers).
RM_INLINE void rm_mbar_wait(rm_u32 bar, rm_u32 parity) {
    rm_u32 done = 0;
    while (!done) {
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    }
}
// L2 eviction hints on the TMA copies (RM_SM90_L2_HINTS, bits). 2 (default on): D is stored
// evict-first. 4 (default on): an operand that several tiles read, of at most RM_L2_LAST_BYTES
// over all batch entries, in a problem whose A, B and D together exceed RM_L2_STREAM_BYTES (more
// than L2 holds), is loaded evict-last, so that the stream of the rest does not push it out
// between the tiles that read it (hss 8192 x 8192 x 128: its 4 MiB of A and B against 256 MiB of
// D, 12 % faster; the bound, because lines marked evict-last outlive the kernel and hold L2 from
// later kernels). 1 (off): an operand that one tile reads is loaded evict-first (measured 2-7 %
// slower at small batches). Other loads carry no hint: an evict-normal policy measured slower
// than none. The generator sets another value for A/B timing (ROCMATH_GEMM_L2_HINTS, gen/gemm.rs).
#ifndef RM_SM90_L2_HINTS
#define RM_SM90_L2_HINTS 6
#endif
enum { RM_L2_NONE = 0, RM_L2_FIRST = 1, RM_L2_LAST = 2 };
#define RM_L2_LAST_BYTES (4ll << 20)
#define RM_L2_STREAM_BYTES (64ll << 20)
RM_INLINE rm_u64 rm_l2_policy(int kind) {
    rm_u64 p;
    if (kind == RM_L2_FIRST) {
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
    } else {
        asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
    }
    return p;
}
// The hint of an operand's loads (RM_L2_*): `tiles`, how many tiles read each of its elements;
// `bytes`, its size over all batch entries; `problem`, the bytes of A, B and D.
RM_INLINE int rm_sm90_load_hint(int tiles, long long bytes, long long problem) {
    if ((RM_SM90_L2_HINTS & 1) && tiles == 1) return RM_L2_FIRST;
    if ((RM_SM90_L2_HINTS & 4) && tiles > 1 && bytes <= RM_L2_LAST_BYTES && problem > RM_L2_STREAM_BYTES) return RM_L2_LAST;
    return RM_L2_NONE;
}
// (`hint`: RM_L2_*, with `policy` its rm_l2_policy)
RM_INLINE void rm_tma_load_3d(rm_u32 dst, rm_u64 map, rm_u32 bar, int c0, int c1, int c2, int hint, rm_u64 policy) {
    if ((RM_SM90_L2_HINTS & 5) && hint != RM_L2_NONE) {
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%3, %4, %5}], [%2], %6;" ::"r"(dst),
            "l"(map), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "l"(policy)
            : "memory");
    } else {
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(dst),
            "l"(map), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
            : "memory");
    }
}
// The same copy delivered to the same shared offsets, and completing the barrier at the same
// offset, in every block of the cluster that `mask` names (bit r: cluster rank r; MULTICAST).
RM_INLINE void rm_tma_load_3d_multicast(rm_u32 dst, rm_u64 map, rm_u32 bar, int c0, int c1, int c2, rm_u16 mask, int hint, rm_u64 policy) {
    if ((RM_SM90_L2_HINTS & 5) && hint != RM_L2_NONE) {
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [%0], [%1, {%3, %4, %5}], [%2], %6, %7;" ::"r"(dst),
            "l"(map), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "h"(mask), "l"(policy)
            : "memory");
    } else {
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%3, %4, %5}], [%2], %6;" ::"r"(dst),
            "l"(map), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "h"(mask)
            : "memory");
    }
}
// Arrives on the barrier at shared offset `bar` of cluster block `rank`, with the default
// (CTA-scope) release: the stage's reads are wgmma's, complete at the warp's wgmma wait before
// it. (A release at cluster scope is a memory barrier each time: on an H200 it made the
// consumers stall on it and the kernels 30-50 % slower than without multicast.)
RM_INLINE void rm_mbar_arrive_cluster(rm_u32 bar, rm_u32 rank) {
    asm volatile("{ .reg .b32 r; mapa.shared::cluster.u32 r, %0, %1; mbarrier.arrive.shared::cluster.b64 _, [r]; }" ::"r"(bar), "r"(rank) : "memory");
}
// Every thread of every block of the cluster (not warp-aligned: the roles diverge before it).
RM_INLINE void rm_cluster_sync() { asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory"); }
RM_INLINE void rm_tma_prefetch_map(rm_u64 map) { asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory"); }
// TMA store of the box at `src` (shared) to coordinates {c0, c1, c2} of `map`; the copy engine
// clips what lies outside the tensor. Stores are tracked in bulk groups of the issuing thread.
RM_INLINE void rm_tma_store_3d(rm_u64 map, rm_u32 src, int c0, int c1, int c2) {
#if RM_SM90_L2_HINTS & 2
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group.L2::cache_hint [%0, {%2, %3, %4}], [%1], %5;" ::"l"(map), "r"(src),
                 "r"(c0), "r"(c1), "r"(c2), "l"(rm_l2_policy(RM_L2_FIRST))
                 : "memory");
#else
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(map), "r"(src),
                 "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
#endif
}
RM_INLINE void rm_bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
// Waits until at most N of this thread's bulk groups still read their shared-memory source.
template <int N> RM_INLINE void rm_bulk_wait_read() { asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory"); }
// Waits until this thread's bulk stores are complete (before the block's shared memory goes away).
RM_INLINE void rm_bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
// Makes this thread's shared-memory writes visible to the copy engine (the async proxy).
RM_INLINE void rm_fence_async_shared() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
// Barrier `id` (1..15) over `threads` threads (a warpgroup), leaving the other warps running.
RM_INLINE void rm_named_barrier(int id, int threads) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory"); }
// Arrives at a named barrier without waiting (the other side of a bar.sync of `threads`).
RM_INLINE void rm_named_arrive(int id, int threads) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory"); }
// Four 8x8 b16 matrices from the mma fragment layout (lane l: row l/4, columns 2(l%4) and +1 of
// each) to shared memory transposed: lanes 8j..8j+7 give the addresses of matrix j's columns,
// 16 bytes each.
RM_INLINE void rm_stmatrix_x4_trans(rm_u32 addr, rm_u32 r0, rm_u32 r1, rm_u32 r2, rm_u32 r3) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r0), "r"(r1),
                 "r"(r2), "r"(r3)
                 : "memory");
}
RM_INLINE void rm_st_shared_u32(rm_u32 addr, rm_u32 v) { asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory"); }
// Shared-memory matrix descriptor, 128-byte swizzle (mode 1 in bits 62-63).
RM_INLINE rm_u64 rm_wgmma_desc(rm_u32 addr, rm_u32 lbo, rm_u32 sbo) {
    return (rm_u64)((addr & 0x3FFFF) >> 4) | ((rm_u64)((lbo >> 4) & 0x3FFF) << 16) |
           ((rm_u64)((sbo >> 4) & 0x3FFF) << 32) | (1ull << 62);
}
RM_INLINE void rm_wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
RM_INLINE void rm_wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> RM_INLINE void rm_wgmma_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory"); }
// Keeps the compiler from moving accumulator accesses across an asynchronous wgmma.
template <int N> RM_INLINE void rm_fence_regs(float (&d)[N]) {
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
template <int N> RM_INLINE void rm_fence_regs(int (&d)[N]) {
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+r"(d[i])::"memory");
}
template <int R> RM_INLINE void rm_setmaxnreg_inc() { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(R)); }
template <int R> RM_INLINE void rm_setmaxnreg_dec() { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(R)); }

template <class A, class B> struct rm_same_type { enum { value = 0 }; };
template <class A> struct rm_same_type<A, A> { enum { value = 1 }; };

// Config: Mma is the generated wgmma m64nBNkK wrapper (include order: before the kernels).
template <class Mma_, int BM_, int BN_, int STAGES_, int GROUP_M_, int CONSUMERS_, int C_BYTES_, int SPLIT_, int XPOSE_, int BLOCKS_, int MULTICAST_ = 0>
struct rm_sm90_config {
    typedef Mma_ Mma;
    enum {
        BM = BM_, BN = BN_, BK = 128 / Mma::ELEM_BYTES, STAGES = STAGES_, GROUP_M = GROUP_M_, CONSUMERS = CONSUMERS_,
        THREADS = 128 * (CONSUMERS + 1),
        A_BYTES = BM * 128, B_BYTES = BN * 128, STAGE_BYTES = A_BYTES + B_BYTES,
        // Split-K (1) or not (0): the slices' f32 sums go to a workspace.
        SPLIT = SPLIT_,
        // Epilogue staging: per consumer buffers of 64 rows x EPI_COLS columns of D (f32 with
        // split-K), in boxes of 128 bytes of rows x EPI_COLS, 128-byte swizzled like the operand
        // tiles; how many (EPI_BUFS) below.
        C_BYTES = C_BYTES_, STAGED_BYTES = SPLIT ? 4 : C_BYTES, EPI_COLS = 32, BOX_BYTES = 128 * EPI_COLS,
        EPI_BUF_BYTES = 64 * EPI_COLS * STAGED_BYTES,
        // Two consumers on one 64-row tile each, in turn (see the top of the file).
        PINGPONG = BM == 64 && CONSUMERS == 2,
        // MN-major operands transposed in shared memory (1) or read transposed by wgmma / copied
        // k-major by the host (0); the staging ring and its barriers exist only with 1.
        // Transposer warps (the producer's warps 1-3): warp w takes the stages s with s % 3 = w.
        XPOSE = XPOSE_, RINGS = 1 + XPOSE, XWARPS = 3,
        // Blocks per SM the registers must allow (the persistent grid has this many per SM): 2-4
        // for one-consumer tiles small enough that they fit, so that several pipelines stream at once.
        BLOCKS = BLOCKS_,
        // Clusters of two blocks on adjacent tiles of a column of tiles (m0 and m0 + BM, one n0),
        // which share their B tile: each loads half of it for both by TMA multicast, so that L2
        // sends each B tile once (MULTICAST, see the top of the file). CLUSTER: blocks a cluster.
        MULTICAST = MULTICAST_, CLUSTER = MULTICAST ? 2 : 1,
        // Two staging buffers a consumer (one filled while the copy engine stores the other),
        // unless two would leave room for fewer than BLOCKS > 1 blocks an SM (the 16-bit 64 x 64
        // tile of four stages at three blocks): then one, each chunk read out by its store before
        // the next is written. (gen/gemm.rs `lds_bytes` mirrors this; 228 KiB an SM, 1 KiB reserved a block.)
        BARRIER_BYTES = RINGS * 2 * STAGES * 8,
        EPI_BUFS = BLOCKS > 1 && 228 * 1024 / (1024 + RINGS * STAGES * STAGE_BYTES + CONSUMERS * 2 * EPI_BUF_BYTES + BARRIER_BYTES + 1024) < BLOCKS ? 1 : 2,
        EPI_BYTES = CONSUMERS * EPI_BUFS * EPI_BUF_BYTES,
        // 1024 bytes of slack to align the tiles for the 128-byte swizzle, then the barriers.
        SHARED_BYTES = 1024 + RINGS * STAGES * STAGE_BYTES + EPI_BYTES + BARRIER_BYTES,
        // Registers per thread after setmaxnreg (two consumers): the producer keeps few (16 more
        // when it transposes: its per-lane address bases), the consumers take the rest
        // (multiples of 8). They can only trade what the block was launched with: 168 a thread
        // (65536 / 384, rounded down to 8; 80 with two blocks per SM), so 232 (96) for each
        // consumer; a setmaxnreg.inc asking for more than that pool holds waits forever. (ptxas
        // compiles the whole kernel within the launch's figure, 80, when two blocks share an SM:
        // a 64 x 128 consumer tile then does not compile.) One consumer (64-row tiles, for small
        // m) keeps the registers its 256 threads start with (up to 255; 128, 80 or 64 with two,
        // three or four blocks per SM): no setmaxnreg.
        LAUNCH_REGS = (65536 / (THREADS * BLOCKS)) / 8 * 8,
        PRODUCER_REGS = XPOSE ? 56 : 40,
        CONSUMER_REGS = ((CONSUMERS + 1) * LAUNCH_REGS - PRODUCER_REGS) / CONSUMERS / 8 * 8
    };
    // (Three consumers would leave too few registers for 128 accumulators.)
    static_assert(CONSUMERS == 1 || CONSUMERS == 2, "one or two consumer warpgroups");
    static_assert(BM == 64 * CONSUMERS || PINGPONG, "each consumer warpgroup owns 64 rows (or whole 64-row tiles in turn)");
    static_assert(!PINGPONG || !SPLIT, "ping-pong consumers take whole tiles");
    static_assert(BN % 64 == 0 && BN <= 256 && BM <= 256, "tiles are whole 64-wide boxes, at most 256");
    static_assert(Mma::N == BN, "the wgmma instruction spans the tile's N");
    static_assert(BK / Mma::K == 4 && Mma::K * Mma::ELEM_BYTES == 32, "four k steps of 32 bytes per 128-byte K tile");
    static_assert(CONSUMERS == 1 || PRODUCER_REGS + CONSUMERS * CONSUMER_REGS <= (CONSUMERS + 1) * LAUNCH_REGS, "the block's registers");
    static_assert(C_BYTES == 2 || C_BYTES == 4, "D elements of 2 or 4 bytes");
    static_assert(SPLIT == 0 || SPLIT == 1, "split-K or not");
    static_assert(XPOSE == 0 || Mma::ELEM_BYTES == 4, "in-smem transposes: 32-bit (tf32) elements");
    static_assert(BLOCKS == 1 || (BLOCKS <= 4 && CONSUMERS == 1) || BLOCKS == 2, "two to four blocks per SM of one consumer, two of two");
    static_assert(!MULTICAST || (!PINGPONG && !XPOSE && BLOCKS == 1 && BN % 128 == 0), "multicast B: whole tiles, no staging ring, one block an SM, B halves of whole 64-wide boxes");
};

// One warp's in-smem transpose (XPOSE, see the top of the file) of a staged MN-major operand of
// ROWS rows (m or n) x BK = 32 k into the k-major stage. The source is ROWS / 32 boxes of 32 k
// rows x 128 bytes: element (k, r) at byte 4 (r % 4) of 16-byte unit (r % 32) / 4 ^ k % 8. The
// destination row r is 128 bytes, k quad q at unit q ^ r % 8. Lane l takes rows l + 32 x and
// for each of them the 8 k quads: a load reads one 128-byte k row across the warp, an 8-lane
// phase of the 16-byte stores 8 different units. The source offsets depend on the lane and k % 8
// only (8 bases, then immediates), and two quads' loads are in flight before their stores.
template <int ROWS> RM_INLINE void rm_sm90_transpose(rm_u32 src, rm_u32 dst, int lane) {
    static_assert(ROWS % 32 == 0, "whole boxes of 32 rows");
    const rm_u32 l = (rm_u32)lane, unit = l / 4;
    rm_u32 base[8];
#pragma unroll
    for (rm_u32 c = 0; c < 8; ++c) base[c] = src + (l % 4) * 4 + ((unit ^ c) << 4);
#pragma unroll
    for (int x = 0; x < ROWS / 32; ++x) {
        const rm_u32 row = dst + (32 * x + l) * 128;
#pragma unroll
        for (int q = 0; q < 8; q += 2) {
            rm_u32 v[2][4];
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const int k = 4 * (q + h) + j;
                    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v[h][j]) : "r"(base[k % 8] + (rm_u32)(x * 4096 + k * 128)) : "memory");
                }
#pragma unroll
            for (int h = 0; h < 2; ++h)
                asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(row + ((((rm_u32)(q + h)) ^ (l % 8)) << 4)), "r"(v[h][0]),
                             "r"(v[h][1]), "r"(v[h][2]), "r"(v[h][3])
                             : "memory");
        }
    }
}

// n / d for 0 <= n < 2^31 by a multiply and a shift, d (1 <= d < 2^31) fixed when it is made
// (round-up multiplier, Granlund and Montgomery 1994): q = (hi32(n * mul) + n) >> shift. A
// division by a value the compiler does not know is a chain of about 20 dependent instructions.
struct rm_fastdiv {
    rm_u32 mul, shift;
    RM_INLINE explicit rm_fastdiv(int d) {
        if (d < 1) d = 1;  // (an empty walk's)
        shift = 0;
        while ((1ll << shift) < d) ++shift;
        mul = (rm_u32)((((1ull << 32) * ((1ull << shift) - (unsigned long long)d)) / (unsigned long long)d) + 1);
    }
    RM_INLINE int div(int n) const { return (int)(((rm_u32)(((unsigned long long)(rm_u32)n * mul) >> 32) + (rm_u32)n) >> shift); }
};

// A work unit of the persistent walk: its tile (m0, n0, batch entry b), K slice sp and K tiles
// [kt0, kt1) of the `ktiles`.
struct rm_sm90_work { int m0, n0, b, sp, kt0, kt1; };

// The persistent walk's units -> rm_sm90_work. Units are tiles (split-K: units splits t .. splits
// t + splits - 1 are the slices of tile t), tiles go through the batch entries in turn, each in
// GROUP_M-row groups (rm_grouped_tile_in_group, gemm.hip). With MULTICAST a tile is a pair
// (m rows 2 tm and 2 tm + 1 of a column; `tiles_m` counts pairs) and `rank` picks one. The
// divisions by the walk's constants are rm_fastdiv's: the consumers decode a unit between one
// unit's epilogue and the next one's multiply, with both consumers' tensor cores idle; ordinary
// divisions there were 11 % of the consumers' stall samples at h 8192 x 8192 x 128
// (2026-11-21-h100-gemm.md, fifty-fifth session).
template <class Cfg> struct rm_sm90_walk {
    int splits, tiles_m, ktiles, rank, per_batch, per_group;
    rm_fastdiv by_splits, by_batch, by_group;
    RM_INLINE rm_sm90_walk(int splits_, int tiles_m_, int tiles_n_, int ktiles_, int rank_)
        : splits(splits_), tiles_m(tiles_m_), ktiles(ktiles_), rank(rank_), per_batch(tiles_m_ * tiles_n_),
          per_group(Cfg::GROUP_M * tiles_n_), by_splits(splits_), by_batch(tiles_m_ * tiles_n_), by_group(Cfg::GROUP_M * tiles_n_) {}
    RM_INLINE rm_sm90_work unit(int u) const {
        rm_sm90_work w;
        const int t = Cfg::SPLIT ? by_splits.div(u) : u;
        w.sp = u - t * splits;
        w.b = by_batch.div(t);
        const int pid = t - w.b * per_batch;
        const int g = by_group.div(pid);
        int tm, tn;
        rm_grouped_tile_in_group<Cfg::GROUP_M>(g, pid - g * per_group, tiles_m, tm, tn);
        w.m0 = (tm * Cfg::CLUSTER + rank) * Cfg::BM;
        w.n0 = tn * Cfg::BN;
        if (Cfg::SPLIT) {
            rm_split_k_tiles(w.sp, splits, ktiles, w.kt0, w.kt1);
        } else {
            w.kt0 = 0;
            w.kt1 = ktiles;
        }
        return w;
    }
};

// The block's first work unit and the step to its next (a cluster's blocks walk the same units).
template <class Cfg> RM_INLINE int rm_sm90_first_unit() { return rm_bid_x() / Cfg::CLUSTER; }
template <class Cfg> RM_INLINE int rm_sm90_unit_step() { return rm_gdim_x() / Cfg::CLUSTER; }

// The producer's walk over the block's work units (as the TMA thread issues them): f(s, phase,
// m0, n0, b, kt) for every K tile kt of every unit, in order, with the ring stage s it goes to
// and that stage's parity. The transposer warps walk the same order.
template <class Cfg, class F>
RM_INLINE void rm_sm90_producer_walk(int total, const rm_sm90_walk<Cfg>& walk, F&& f) {
    int s = 0;
    rm_u32 phase = 0;
    for (int u = rm_sm90_first_unit<Cfg>(); u < total; u += rm_sm90_unit_step<Cfg>()) {
        const rm_sm90_work w = walk.unit(u);
        for (int kt = w.kt0; kt < w.kt1; ++kt) {
            f(s, phase, w.m0, w.n0, w.b, kt);
            if (++s == Cfg::STAGES) {
                s = 0;
                phase ^= 1;
            }
        }
    }
}

// TMA loads of the ROWS (m or n) x BK K tile at (r0, k0) of entry b of an operand stored MN-major:
// ROWS / BOX_MN boxes {BOX_MN, BK} (one 128-byte row of m/n by the K tile) of BK * 128 bytes each,
// one after another from dst, completing on `bar`.
template <int ROWS, int BOX_MN, int BK>
RM_INLINE void rm_sm90_load_mn(rm_u32 dst, rm_u64 map, rm_u32 bar, int r0, int k0, int b, int hint, rm_u64 policy) {
#pragma unroll
    for (int i = 0; i < ROWS / BOX_MN; ++i) rm_tma_load_3d(dst + i * BK * 128, map, bar, r0 + BOX_MN * i, k0, b, hint, policy);
}

// D's raw bits for the staging buffer.
RM_INLINE rm_u32 rm_c_bits(float x) { return rm_float_as_uint(x); }
RM_INLINE rm_u32 rm_c_bits(rm_half x) { return x.x; }
RM_INLINE rm_u32 rm_c_bits(rm_bf16 x) { return x.x; }
RM_INLINE rm_u32 rm_c_bits(int x) { return (rm_u32)x; }

// Epilogue through the copy engine, for consumer warpgroup c: scale * acc (Tacc: f32, or s32 for
// s8, whose products wrap: rm_mul) of rows r0 .. r0 + 63 of the tile at m0, n0, to entry z of
// the tensor `map` (D, or with split-K the f32 workspace), as Tc. Per chunk of EPI_COLS columns
// the values are converted and written to a staging buffer in the TMA box layout (column-major
// boxes of BOX_ROWS x EPI_COLS, 128-byte swizzled: the 16-byte unit u of box column cc sits at
// unit u ^ (cc % 8)), then the warpgroup's first thread stores each box with one TMA store,
// which clips at the tensor's edges. Two buffers alternate (`epi_n` counts the chunks stored so
// far), so the next chunk is written while the last one is stored, and the stores of a tile's
// last chunks run under the next tile's mainloop (with one buffer, EPI_BUFS, only the last
// chunk's). 16-bit values go to shared memory by stmatrix (transposing 8x8 fragments into
// columns); f32 and s32 by single words, conflict-free under the swizzle.
template <class Cfg, class Tc, class Tacc>
RM_INLINE void rm_sm90_store_tma(const Tacc (&acc)[Cfg::BN / 2], Tacc scale, rm_u32 epi, int& epi_n, rm_u64 map, int c,
                                 int r0, int lt, int m0, int n0, int z) {
    static_assert(sizeof(Tc) <= Cfg::STAGED_BYTES, "staging buffers hold the stored type");
    enum { BLOCKS = Cfg::EPI_COLS / 8, BOX_ROWS = 128 / (int)sizeof(Tc), BOXES = 64 / BOX_ROWS };
    const int w = lt / 32, lane = lt % 32;
    const int row_in = w * 16 + lane / 4;  // consumer row of elements 0, 1 of an n8 block (2, 3: + 8)
    const int col_in = 2 * (lane % 4);     // column of elements 0, 2 (1, 3: + 1)
#pragma unroll
    for (int ch = 0; ch < Cfg::BN / Cfg::EPI_COLS; ++ch, ++epi_n) {
        const rm_u32 buf = epi + (c * Cfg::EPI_BUFS + epi_n % Cfg::EPI_BUFS) * Cfg::EPI_BUF_BYTES;
        if (lt == 0) rm_bulk_wait_read<Cfg::EPI_BUFS - 1>();  // the store that last read this buffer is done reading
        rm_named_barrier(1 + c, 128);
        rm_u32 bits[BLOCKS][4];
#pragma unroll
        for (int jj = 0; jj < BLOCKS; ++jj)
#pragma unroll
            for (int i = 0; i < 4; ++i) bits[jj][i] = rm_c_bits(rm_convert<Tc>(rm_mul(scale, acc[4 * (ch * BLOCKS + jj) + i])));
        if (sizeof(Tc) == 2) {
            // Matrix q of an x4 store: rows 8 (q & 1) of the warp's 16, n8 block jj + (q >> 1);
            // lane 8 q + k addresses that block's column k.
            const int q = lane / 8, k = lane % 8;
#pragma unroll
            for (int jj = 0; jj < BLOCKS; jj += 2) {
                const rm_u32 col = 8 * (jj + (q >> 1)) + k;
                const rm_u32 unit = (rm_u32)(2 * w + (q & 1)) ^ (col % 8);
                rm_stmatrix_x4_trans(buf + col * 128 + unit * 16, bits[jj][0] | (bits[jj][1] << 16), bits[jj][2] | (bits[jj][3] << 16),
                                     bits[jj + 1][0] | (bits[jj + 1][1] << 16), bits[jj + 1][2] | (bits[jj + 1][3] << 16));
            }
        } else {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int r = row_in + 8 * (i >> 1);      // consumer row: box r / 32, row r % 32 in it
                const rm_u32 cc = (rm_u32)(col_in + (i & 1));  // column in the n8 block (= column % 8)
                const rm_u32 at = buf + (r / 32) * Cfg::BOX_BYTES + cc * 128 + ((((rm_u32)(r % 32) / 4) ^ cc) * 16) + (r % 4) * 4;
#pragma unroll
                for (int jj = 0; jj < BLOCKS; ++jj) rm_st_shared_u32(at + jj * 8 * 128, bits[jj][i]);
            }
        }
        rm_fence_async_shared();
        rm_named_barrier(1 + c, 128);
        if (lt == 0) {
#pragma unroll
            for (int q = 0; q < BOXES; ++q)
                rm_tma_store_3d(map, buf + q * Cfg::BOX_BYTES, m0 + r0 + q * BOX_ROWS, n0 + ch * Cfg::EPI_COLS, z);
            rm_bulk_commit();
        }
    }
}

template <class Cfg, class Ty, int TA, int TB>
RM_INLINE void rm_gemm_sm90_body(rm_u64 map_a, rm_u64 map_b, rm_u64 map_d, int store_tma, int m, int n, int k, int batch,
                                 int splits, typename Ty::compute alpha,
                                 typename Ty::compute beta, const typename Ty::scalar* alpha_ptr,
                                 const typename Ty::scalar* beta_ptr, const typename Ty::c* C, long long ldc,
                                 long long stride_c, typename Ty::c* D, long long ldd, long long stride_d) {
    typedef typename Ty::compute Tcomp;
    typedef typename Ty::c Tc;
    // The accumulators: f32 (16-bit and tf32 inputs), s32 (s8): the family's compute type.
    typedef typename Cfg::Mma::acc_t Tacc;
    static_assert(rm_same_type<Tacc, Tcomp>::value, "accumulators in the compute type");
    enum {
        A_MN = TA == RM_OP_N, B_MN = TB != RM_OP_N,  // operands stored m- / n-contiguous
        // ... which wgmma reads transposed (16-bit), or which go through the staging ring (XPOSE)
        A_TRANS = A_MN && !Cfg::XPOSE, B_TRANS = B_MN && !Cfg::XPOSE,
        A_STAGED = A_MN && Cfg::XPOSE, B_STAGED = B_MN && Cfg::XPOSE, STAGED = A_STAGED || B_STAGED,
        // bytes of a stage that TMA writes k-major (or MN-major for wgmma to transpose) directly
        DIRECT_BYTES = (A_STAGED ? 0 : Cfg::A_BYTES) + (B_STAGED ? 0 : Cfg::B_BYTES),
        STAGING_BYTES = Cfg::STAGE_BYTES - DIRECT_BYTES,
        // m / n per box of an MN-major operand (one 128-byte row)
        BOX_MN = 128 / Cfg::Mma::ELEM_BYTES
    };
    static_assert(!(A_TRANS || B_TRANS) || Cfg::Mma::ELEM_BYTES == 2, "MN-major operands read by wgmma: 16-bit only");

    extern __shared__ __attribute__((aligned(16))) unsigned char rm_dyn_shared[];
    const rm_u32 tiles = (rm_smem_addr(rm_dyn_shared) + 1023u) & ~1023u;
    const rm_u32 staging = tiles + Cfg::STAGES * Cfg::STAGE_BYTES;      // XPOSE: the staging ring
    const rm_u32 epi = tiles + Cfg::RINGS * Cfg::STAGES * Cfg::STAGE_BYTES;  // epilogue staging (1024-byte aligned)
    const rm_u32 full = epi + Cfg::EPI_BYTES;                      // full[s] at full + 8 s
    const rm_u32 empty = full + Cfg::STAGES * 8;                  // empty[s] at empty + 8 s
    const rm_u32 sfull = empty + Cfg::STAGES * 8;                 // XPOSE: staging s filled by TMA
    const rm_u32 sempty = sfull + Cfg::STAGES * 8;                // XPOSE: staging s read by the transposers

    alpha = rm_opaque(alpha);
    beta = rm_opaque(beta);
    if (alpha_ptr) alpha = rm_convert<Tcomp>(*alpha_ptr);
    if (beta_ptr) beta = rm_convert<Tcomp>(*beta_ptr);
    const bool do_mul = k > 0 && !rm_is_zero(alpha);

    const int tid = rm_tid_x();
    const int wg = rm_uniform(tid / 128);
    if (tid == 0) {
        for (int s = 0; s < Cfg::STAGES; ++s) {
            // full: the TMA thread (with the bytes of its direct copies), and the transposers
            rm_mbar_init(full + 8 * s, STAGED ? 32 + (DIRECT_BYTES > 0) : 1);
            // the consumers that read a stage: every thread; with MULTICAST one lane a warp, of
            // both blocks (the other block's producer writes half of B into this stage)
            rm_mbar_init(empty + 8 * s, Cfg::MULTICAST ? Cfg::CLUSTER * Cfg::CONSUMERS * 4 : 128 * (Cfg::PINGPONG ? 1 : Cfg::CONSUMERS));
            if (STAGED) {
                rm_mbar_init(sfull + 8 * s, 1);
                rm_mbar_init(sempty + 8 * s, 32);
            }
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        if (do_mul) {
            rm_tma_prefetch_map(map_a);
            rm_tma_prefetch_map(map_b);
        }
        if (store_tma) rm_tma_prefetch_map(map_d);
    }
    // (MULTICAST: the other block's barriers are initialized before its copies or arrivals
    // reach them)
    if (Cfg::MULTICAST) {
        rm_cluster_sync();
    } else {
        rm_barrier();
    }
    const rm_u32 rank = Cfg::MULTICAST ? rm_cluster_rank() : 0u;

    // (MULTICAST: tiles_m counts pairs of tiles)
    const int tiles_m = (m + Cfg::CLUSTER * Cfg::BM - 1) / (Cfg::CLUSTER * Cfg::BM), tiles_n = (n + Cfg::BN - 1) / Cfg::BN;
    if (!Cfg::SPLIT) splits = 1;
    const int total = tiles_m * tiles_n * batch * splits;  // work units
    const int ktiles = do_mul ? (k + Cfg::BK - 1) / Cfg::BK : 0;
    const rm_sm90_walk<Cfg> walk(splits, tiles_m, tiles_n, ktiles, (int)rank);

    if (wg == 0) {
        if constexpr (Cfg::CONSUMERS == 2) rm_setmaxnreg_dec<Cfg::PRODUCER_REGS>();
        if (tid == 0 && ktiles > 0) {
            const long long bytes_a = (long long)m * k * batch * Cfg::Mma::ELEM_BYTES, bytes_b = (long long)n * k * batch * Cfg::Mma::ELEM_BYTES;
            const long long problem = bytes_a + bytes_b + (long long)m * n * batch * Cfg::C_BYTES;
            const int hint_a = rm_sm90_load_hint(tiles_n, bytes_a, problem), hint_b = rm_sm90_load_hint(tiles_m * Cfg::CLUSTER, bytes_b, problem);
            const rm_u64 pol_a = rm_l2_policy(hint_a), pol_b = rm_l2_policy(hint_b);
            rm_sm90_producer_walk<Cfg>(total, walk, [&](int s, rm_u32 phase, int m0, int n0, int b, int kt) {
                const int k0 = kt * Cfg::BK;
                // An MN-major operand goes to the stage (16-bit: wgmma reads it transposed) or
                // the staging buffer (XPOSE).
                if (STAGED) {
                    rm_mbar_wait(sempty + 8 * s, phase ^ 1);
                    rm_mbar_arrive_expect_tx(sfull + 8 * s, STAGING_BYTES);
                    const rm_u32 ga = staging + s * Cfg::STAGE_BYTES, gb = ga + Cfg::A_BYTES;
                    if (A_STAGED) rm_sm90_load_mn<Cfg::BM, BOX_MN, Cfg::BK>(ga, map_a, sfull + 8 * s, m0, k0, b, hint_a, pol_a);
                    if (B_STAGED) rm_sm90_load_mn<Cfg::BN, BOX_MN, Cfg::BK>(gb, map_b, sfull + 8 * s, n0, k0, b, hint_b, pol_b);
                }
                if (DIRECT_BYTES > 0) {
                    rm_mbar_wait(empty + 8 * s, phase ^ 1);
                    rm_mbar_arrive_expect_tx(full + 8 * s, DIRECT_BYTES);
                    const rm_u32 sa = tiles + s * Cfg::STAGE_BYTES, sb = sa + Cfg::A_BYTES;
                    if (A_TRANS) {
                        rm_sm90_load_mn<Cfg::BM, BOX_MN, Cfg::BK>(sa, map_a, full + 8 * s, m0, k0, b, hint_a, pol_a);
                    } else if (!A_STAGED) {
                        rm_tma_load_3d(sa, map_a, full + 8 * s, k0, m0, b, hint_a, pol_a);
                    }
                    if (Cfg::MULTICAST) {
                        // This block's half of B (its 64-wide boxes, or rows with the
                        // tensor map's box of BN / 2 rows), for both blocks of the cluster;
                        // the other block sends the other half. The full barrier expects
                        // the whole stage either way.
                        enum { HALF = Cfg::BN / 2 };
                        if (B_TRANS) {
#pragma unroll
                            for (int i = 0; i < HALF / BOX_MN; ++i) {
                                const int box = (int)rank * (HALF / BOX_MN) + i;
                                rm_tma_load_3d_multicast(sb + box * Cfg::BK * 128, map_b, full + 8 * s, n0 + BOX_MN * box, k0, b, 3, hint_b, pol_b);
                            }
                        } else {
                            rm_tma_load_3d_multicast(sb + rank * HALF * 128, map_b, full + 8 * s, k0, n0 + (int)rank * HALF, b, 3, hint_b, pol_b);
                        }
                    } else if (B_TRANS) {
                        rm_sm90_load_mn<Cfg::BN, BOX_MN, Cfg::BK>(sb, map_b, full + 8 * s, n0, k0, b, hint_b, pol_b);
                    } else if (!B_STAGED) {
                        rm_tma_load_3d(sb, map_b, full + 8 * s, k0, n0, b, hint_b, pol_b);
                    }
                }
            });
        } else if (STAGED && tid >= 32 && ktiles > 0) {
            // Warps 1-3: the in-smem transposes, in the TMA thread's order, each warp the stages
            // s with s % 3 = its index (so that it waits on a stage's barriers round after round,
            // which keeps the parity waits sound; several K tiles are transposed at once).
            const int xw = tid / 32 - 1, lane = tid % 32;
            rm_sm90_producer_walk<Cfg>(total, walk, [&](int s, rm_u32 phase, int, int, int, int) {
                if (s % Cfg::XWARPS != xw) return;
                rm_mbar_wait(empty + 8 * s, phase ^ 1);  // the consumers are done with the stage
                rm_mbar_wait(sfull + 8 * s, phase);      // TMA has filled the staging buffer
                const rm_u32 src = staging + s * Cfg::STAGE_BYTES, dst = tiles + s * Cfg::STAGE_BYTES;
                if (A_STAGED) rm_sm90_transpose<Cfg::BM>(src, dst, lane);
                if (B_STAGED) rm_sm90_transpose<Cfg::BN>(src + Cfg::A_BYTES, dst + Cfg::A_BYTES, lane);
                rm_fence_async_shared();  // the stores, visible to wgmma (the async proxy)
                rm_mbar_arrive(sempty + 8 * s);
                rm_mbar_arrive(full + 8 * s);
            });
        }
    } else {
        if constexpr (Cfg::CONSUMERS == 2) rm_setmaxnreg_inc<Cfg::CONSUMER_REGS>();
        const int c = wg - 1;        // consumer: rows 64 c .. 64 c + 63 of the tile (ping-pong: tiles c, c + 2, ...)
        const int r0 = Cfg::PINGPONG ? 0 : 64 * c;  // its first row in the tile
        const int lt = tid % 128;    // thread in the warpgroup
        const int row_in = r0 + (lt / 32) * 16 + (lt % 32) / 4;  // accumulator layout of m64nNk16
        const int col_in = 2 * (lt % 4);
        const bool read_c = !rm_is_zero(beta);
        int epi_n = 0;  // chunks this warpgroup has stored through the staging buffers
        int s = 0;
        rm_u32 phase = 0;
        int turn = 0;  // the block's units so far
        // A stage read by this warpgroup is released to this block's producer and, with
        // MULTICAST, to the other block's (which writes half of B into it): one lane a warp
        // each, after the warp's wgmma wait, where otherwise every thread arrives.
        const auto release = [&](int st) {
            if (!Cfg::MULTICAST) {
                rm_mbar_arrive(empty + 8 * st);
            } else if (lt % 32 == 0) {
                rm_mbar_arrive(empty + 8 * st);
            } else if (lt % 32 == 1) {
                rm_mbar_arrive_cluster(empty + 8 * st, rank ^ 1u);
            }
        };
        // The accumulators live across units: a unit's first wgmma overwrites them (scale-d 0),
        // where zeroing them took 64 instructions a unit. They stay zero where no unit has K
        // tiles (k = 0, alpha = 0); an empty K slice of split-K zeroes them.
        Tacc acc[Cfg::BN / 2];
#pragma unroll
        for (int i = 0; i < Cfg::BN / 2; ++i) acc[i] = 0;
        for (int u = rm_sm90_first_unit<Cfg>(); u < total; u += rm_sm90_unit_step<Cfg>(), ++turn) {
            const rm_sm90_work w = walk.unit(u);
            const int m0 = w.m0, n0 = w.n0, b = w.b, sp = w.sp, kt0 = w.kt0, kt1 = w.kt1;
            if (Cfg::PINGPONG && (turn & 1) != c) {
                // The other consumer's unit: step over its stages in the ring.
                s += kt1 - kt0;
                phase ^= (rm_u32)(s / Cfg::STAGES) & 1u;
                s %= Cfg::STAGES;
                continue;
            }
            // Ping-pong: the mainloops take turns (named barrier 3 + c: consumer c's mainloop is
            // done). Waiting on a stage's parity is only sound once the stage's previous fill has
            // completed, and where the other consumer's unit wraps the ring (more K tiles than
            // stages) that fill is one of its own; so this consumer starts only after the other
            // has consumed all of its unit, and its epilogue still overlaps this mainloop.
            if (Cfg::PINGPONG && turn > 0) rm_named_barrier(3 + (1 - c), 256);
            if (Cfg::SPLIT && kt0 == kt1) {
#pragma unroll
                for (int i = 0; i < Cfg::BN / 2; ++i) acc[i] = 0;
            }
            int prev = -1;
            for (int kt = kt0; kt < kt1; ++kt) {
                rm_mbar_wait(full + 8 * s, phase);
                const rm_u32 sa = tiles + s * Cfg::STAGE_BYTES + r0 * 128, sb = tiles + s * Cfg::STAGE_BYTES + Cfg::A_BYTES;
                rm_fence_regs(acc);
                rm_wgmma_fence();
#pragma unroll
                for (int j = 0; j < Cfg::BK / Cfg::Mma::K; ++j) {
                    const rm_u64 da = A_TRANS ? rm_wgmma_desc(sa + j * Cfg::Mma::K * 128, 8192, 1024) : rm_wgmma_desc(sa + j * 32, 16, 1024);
                    const rm_u64 db = B_TRANS ? rm_wgmma_desc(sb + j * Cfg::Mma::K * 128, 8192, 1024) : rm_wgmma_desc(sb + j * 32, 16, 1024);
                    Cfg::Mma::template mma<A_TRANS, B_TRANS>(acc, da, db, kt > kt0 || j > 0);
                }
                rm_wgmma_commit();
                rm_fence_regs(acc);
                rm_wgmma_wait<1>();  // the previous K tile's group is done: release its stage
                if (prev >= 0) release(prev);
                prev = s;
                if (++s == Cfg::STAGES) {
                    s = 0;
                    phase ^= 1;
                }
            }
            rm_wgmma_wait<0>();
            rm_fence_regs(acc);
            if (prev >= 0) release(prev);
            if (Cfg::PINGPONG && u + rm_sm90_unit_step<Cfg>() < total) rm_named_arrive(3 + c, 256);  // the next unit is the other's

            if constexpr (Cfg::SPLIT) {
                // The slice's sums, unscaled, to entry b * splits + sp of the workspace (map_d).
                rm_sm90_store_tma<Cfg, float>(acc, 1.0f, epi, epi_n, map_d, c, r0, lt, m0, n0, b * splits + sp);
                continue;
            }
            const Tc* Cb = C + (long long)b * stride_c;
            if (store_tma) {
                // D = scale * acc, with beta * C folded into acc first in a pass of its own, so
                // that the common beta = 0 epilogue stays short (its code size and latency
                // bound the skinny shapes). k = 0 or alpha = 0: acc is unread (alpha may be Inf).
                Tacc scale = do_mul ? alpha : (Tacc)0;
                if (read_c) {
#pragma unroll
                    for (int j = 0; j < Cfg::BN / 8; ++j)
#pragma unroll
                        for (int i = 0; i < 4; ++i) {
                            const int gi = m0 + row_in + 8 * (i >> 1), gj = n0 + 8 * j + col_in + (i & 1);
                            Tacc v = rm_mul(scale, acc[4 * j + i]);
                            if (gi < m && gj < n) v = rm_madd(beta, rm_convert<Tcomp>(Cb[gi + (long long)gj * ldc]), v);
                            acc[4 * j + i] = v;
                        }
                    scale = 1;
                }
                rm_sm90_store_tma<Cfg, Tc>(acc, scale, epi, epi_n, map_d, c, r0, lt, m0, n0, b);
                continue;
            }
            // Without a tensor map of D (unaligned D, ldd or stride_d): straight from the
            // registers. Element i of n8 block j sits at row row_in + 8 ((i >> 1) & 1), column
            // 8 j + col_in + (i & 1).
            Tc* Db = D + (long long)b * stride_d;
#pragma unroll
            for (int j = 0; j < Cfg::BN / 8; ++j)
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const int gi = m0 + row_in + 8 * (i >> 1);
                    const int gj = n0 + 8 * j + col_in + (i & 1);
                    if (gi < m && gj < n) {
                        Tcomp v = do_mul ? rm_mul(alpha, acc[4 * j + i]) : rm_zero<Tcomp>();
                        if (read_c) v = rm_madd(beta, rm_convert<Tcomp>(Cb[gi + (long long)gj * ldc]), v);
                        Db[gi + (long long)gj * ldd] = rm_convert<Tc>(v);
                    }
                }
        }
        if ((store_tma || Cfg::SPLIT) && lt == 0) rm_bulk_wait_all();
    }
    // (MULTICAST: neither block leaves while the other may still copy into it or arrive on
    // its barriers)
    if (Cfg::MULTICAST) rm_cluster_sync();
}

// The exported kernel: the tensor maps of A, B and D (parameters 0, 1 and 2), whether D's is
// valid (else D is written from registers), then the usual scalars and C/D.
#if defined(RM_TMAP_ADDR_FN)
#define RM_SM90_ADDR_FNS(NAME) RM_TMAP_ADDR_FN(NAME, 0) RM_TMAP_ADDR_FN(NAME, 1) RM_TMAP_ADDR_FN(NAME, 2)
#else
#define RM_SM90_ADDR_FNS(NAME)
#endif
// (ATTR: RM_CLUSTER_DIMS(2) for MULTICAST configs, through RM_GEMM_SM90_KERNEL_CLUSTER2)
#define RM_GEMM_SM90_KERNEL_WITH(ATTR, NAME, CFG, TY, TA, TB)                                          \
    RM_SM90_ADDR_FNS(NAME)                                                                             \
    extern "C" __global__ void RM_SM90_BOUNDS(CFG::THREADS, CFG::BLOCKS) ATTR NAME(                                 \
        RM_TMAP_PARAM(map_a), RM_TMAP_PARAM(map_b), RM_TMAP_PARAM(map_d), int store_tma, int m, int n, int k, \
        int batch, int splits, TY::compute alpha,                                                      \
        TY::compute beta, const TY::scalar* alpha_ptr, const TY::scalar* beta_ptr, const TY::c* C,     \
        long long ldc, long long stride_c, TY::c* D, long long ldd, long long stride_d) {              \
        (void)map_a; /* read through their addresses only */                                           \
        (void)map_b;                                                                                   \
        (void)map_d;                                                                                   \
        rm_gemm_sm90_body<CFG, TY, TA, TB>(RM_TMAP_ADDR(NAME, 0, map_a), RM_TMAP_ADDR(NAME, 1, map_b), \
                                           RM_TMAP_ADDR(NAME, 2, map_d), store_tma, m, n, k,          \
                                           batch, splits, alpha, beta, alpha_ptr, beta_ptr, C, ldc, stride_c, D, ldd,  \
                                           stride_d);                                                  \
    }

#define RM_GEMM_SM90_KERNEL(NAME, CFG, TY, TA, TB) RM_GEMM_SM90_KERNEL_WITH(, NAME, CFG, TY, TA, TB)
#define RM_GEMM_SM90_KERNEL_CLUSTER2(NAME, CFG, TY, TA, TB) RM_GEMM_SM90_KERNEL_WITH(RM_CLUSTER_DIMS(2), NAME, CFG, TY, TA, TB)

#endif // ROCMATH_GEMM_SM90_HIP
