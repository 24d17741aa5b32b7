//! The memory ceiling of a small-batch GEMM's traffic (issue 3, batched small): read two
//! operands and write one result per batch entry, with no arithmetic, in the shapes a batched
//! GEMM moves them, against a device-to-device copy of the same bytes. Not part of the suite.
//!
//! `cargo run --release -p rocmath-bench --example bw_probe -- [ENTRY_BYTES_AB ENTRY_BYTES_D ENTRIES]`
//! (default 32768 32768 2048: h 128^3 x 2048).
use rocmath_bench::gemm::time_calls;
use rocmath_runtime::gpu::{KernelArgs, KernelSource, LaunchConfig};
use rocmath_runtime::{Device, DeviceBuffer};

const SOURCE: &str = r#"
typedef unsigned long long u64;
struct __align__(16) v4 { unsigned x, y, z, w; };
__device__ __forceinline__ v4 mix(v4 a, v4 b) { v4 r; r.x = a.x ^ b.x; r.y = a.y ^ b.y; r.z = a.z ^ b.z; r.w = a.w ^ b.w; return r; }
__device__ __forceinline__ unsigned smem_addr(const void* p) { unsigned long long a; asm("cvta.to.shared.u64 %0, %1;" : "=l"(a) : "l"(p)); return (unsigned)a; }
__device__ __forceinline__ void pf_l2(const void* p) { asm volatile("prefetch.global.L2 [%0];" :: "l"(p)); }
__device__ __forceinline__ void pf_bulk(const void* p, unsigned bytes) { asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" :: "l"(p), "r"(bytes) : "memory"); }
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
    unsigned done = 0;
    while (!done) asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(bar), "r"(parity) : "memory");
}

// One entry's D (ab16, d16: 16-byte units an operand and a result of one entry) from its A and B
// by the whole block: per pass 8 units a thread, all loads first, then the stores.
__device__ __forceinline__ void move_entry(const v4* ae, const v4* be, v4* de, int ab16, int d16) {
    for (int base = 0; base < d16; base += blockDim.x * 8) {
        v4 r[8];
#pragma unroll
        for (int j = 0; j < 8; j++) {
            int i = base + j * blockDim.x + threadIdx.x;
            if (i < d16) r[j] = mix(ae[i % ab16], be[i % ab16]);
        }
#pragma unroll
        for (int j = 0; j < 8; j++) {
            int i = base + j * blockDim.x + threadIdx.x;
            if (i < d16) de[i] = r[j];
        }
    }
}

// Grid-stride over every 16-byte unit of A, B and D (run where an entry's D is as large as its A).
extern "C" __global__ void flat(const v4* a, const v4* b, v4* d, long long n16) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n16; i += (long long)gridDim.x * blockDim.x)
        d[i] = mix(a[i], b[i]);
}

// One block an entry (move_entry); next: blocks ahead whose operands to prefetch to L2 (0: none),
// by lines or (bulk) by two bulk prefetches.
extern "C" __global__ void entry(const v4* a, const v4* b, v4* d, int ab16, int d16, int next, int entries, int bulk) {
    long long e = blockIdx.x;
    const v4* ae = a + e * ab16; const v4* be = b + e * ab16; v4* de = d + e * d16;
    if (next > 0 && e + next < entries) {
        if (bulk) {
            if (threadIdx.x == 0) { pf_bulk(a + (e + next) * ab16, ab16 * 16); pf_bulk(b + (e + next) * ab16, ab16 * 16); }
        } else {
            for (int i = threadIdx.x * 8; i < ab16; i += blockDim.x * 8) { pf_l2(a + (e + next) * ab16 + i); pf_l2(b + (e + next) * ab16 + i); }
        }
    }
    move_entry(ae, be, de, ab16, d16);
}

// A persistent grid: block g takes entries g, g + gridDim.x, ...; before moving entry e it asks
// L2 for the operands of entry e + gridDim.x (two bulk prefetches).
extern "C" __global__ void persistent(const v4* a, const v4* b, v4* d, int ab16, int d16, int entries) {
    for (long long e = blockIdx.x; e < entries; e += gridDim.x) {
        const v4* ae = a + e * ab16; const v4* be = b + e * ab16; v4* de = d + e * d16;
        if (e + gridDim.x < entries) {
            const v4* an = a + (e + gridDim.x) * ab16; const v4* bn = b + (e + gridDim.x) * ab16;
            if (threadIdx.x == 0) { pf_bulk(an, ab16 * 16); pf_bulk(bn, ab16 * 16); }
        }
        move_entry(ae, be, de, ab16, d16);
    }
}
// The copy engine's path: one block an SM, thread 0 alone. Whole entries (A and B, contiguous)
// by 1D bulk copies into one of `nbuf` shared buffers, completing an mbarrier; D is stored from
// the buffer (A's part, then B's if D is larger) by a bulk store once it has landed; the buffer is
// refilled with the entry nbuf steps later once the store has read it.
extern "C" __global__ void bulk(const char* a, const char* b, char* d, int ab_bytes, int d_bytes, int entries, int nbuf) {
    extern __shared__ __align__(128) char smem[];
    __shared__ __align__(8) u64 bars[8];
    if (threadIdx.x != 0) return;
    unsigned base = smem_addr(smem);
    unsigned bar0 = smem_addr(bars);
    for (int i = 0; i < nbuf; i++) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar0 + 8 * i) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    auto issue = [&](long long e, int i) {
        unsigned dst = base + i * 2 * ab_bytes, bar = bar0 + 8 * i;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(2 * ab_bytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" :: "r"(dst), "l"(a + e * ab_bytes), "r"(ab_bytes), "r"(bar) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" :: "r"(dst + ab_bytes), "l"(b + e * ab_bytes), "r"(ab_bytes), "r"(bar) : "memory");
    };
    int j = 0;
    for (int i = 0; i < nbuf; i++) if (blockIdx.x + (long long)i * gridDim.x < entries) issue(blockIdx.x + (long long)i * gridDim.x, i);
    for (long long e = blockIdx.x; e < entries; e += gridDim.x, j++) {
        int i = j % nbuf;
        mbar_wait(bar0 + 8 * i, (j / nbuf) & 1);
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(d + e * d_bytes), "r"(base + i * 2 * ab_bytes), "r"(d_bytes) : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        long long next = e + (long long)nbuf * gridDim.x;
        if (next < entries) {
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
            issue(next, i);
        }
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
// One block an entry through shared memory, as a GEMM block would hold it: A and B (2 ab_bytes)
// into dynamic shared memory (mode 0: ld.global.v4 to registers, then st.shared; 1: cp.async
// 16-byte copies; 2: two 1D bulk copies by thread 0 and an mbarrier), a barrier, then D from
// shared memory by coalesced 16-byte stores. The host sizes the dynamic shared memory so that 2 or 3
// blocks fit an SM.
extern "C" __global__ void staged(const v4* a, const v4* b, v4* d, int ab16, int d16, int mode) {
    extern __shared__ __align__(128) v4 sm[];
    __shared__ __align__(8) u64 bar;
    long long e = blockIdx.x;
    const v4* ae = a + e * ab16; const v4* be = b + e * ab16; v4* de = d + e * d16;
    if (mode == 0) {
        for (int base = 0; base < ab16; base += blockDim.x * 8) {
            v4 ra[8], rb[8];
#pragma unroll
            for (int j = 0; j < 8; j++) { int i = base + j * blockDim.x + threadIdx.x; if (i < ab16) { ra[j] = ae[i]; rb[j] = be[i]; } }
#pragma unroll
            for (int j = 0; j < 8; j++) { int i = base + j * blockDim.x + threadIdx.x; if (i < ab16) { sm[i] = ra[j]; sm[ab16 + i] = rb[j]; } }
        }
        __syncthreads();
    } else if (mode == 1) {
        for (int i = threadIdx.x; i < ab16; i += blockDim.x) {
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smem_addr(sm + i)), "l"(ae + i) : "memory");
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(smem_addr(sm + ab16 + i)), "l"(be + i) : "memory");
        }
        asm volatile("cp.async.wait_all;" ::: "memory");
        __syncthreads();
    } else {
        unsigned b0 = smem_addr(&bar);
        if (threadIdx.x == 0) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b0) : "memory");
            asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b0), "r"(32 * ab16) : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" :: "r"(smem_addr(sm)), "l"(ae), "r"(16 * ab16), "r"(b0) : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" :: "r"(smem_addr(sm + ab16)), "l"(be), "r"(16 * ab16), "r"(b0) : "memory");
        }
        __syncthreads();
        mbar_wait(b0, 0);
    }
    for (int i = threadIdx.x; i < d16; i += blockDim.x) de[i] = mix(sm[i % ab16], sm[ab16 + i % ab16]);
}
"#;

fn main() -> Result<(), String> {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("numbers")).collect();
    let (ab_bytes, d_bytes, entries) = match args[..] {
        [ab, d, e] => (ab, d, e),
        [] => (32768, 32768, 2048),
        _ => return Err("arguments: ENTRY_BYTES_AB ENTRY_BYTES_D ENTRIES".into()),
    };
    let err = |e: rocmath_runtime::Error| e.to_string();
    let dev = Device::cuda(0).map_err(err)?;
    let q = dev.new_queue().map_err(err)?;
    let gpu = dev.gpu().ok_or("no GPU")?;
    let sms = gpu.properties().compute_units as u32;
    let module = gpu.module(&KernelSource { name: "bw_probe".into(), source: SOURCE.into(), options: vec![], arch_override: None }).map_err(err)?;
    let (ab16, d16) = (ab_bytes / 16, d_bytes / 16);
    // Random bytes (not zeros: see the device method page), a different stream for each operand
    // so that D (their xor) is random too.
    let random = |seed: u64| -> Vec<u8> {
        (0..ab_bytes * entries)
            .scan(seed, |s, _| {
                *s ^= *s << 13;
                *s ^= *s >> 7;
                *s ^= *s << 17;
                Some((*s >> 24) as u8)
            })
            .collect()
    };
    let noise = random(0x9e37_79b9_7f4a_7c15);
    let a = DeviceBuffer::<u8>::from_slice(&q, &noise).map_err(err)?;
    let b = DeviceBuffer::<u8>::from_slice(&q, &random(0x2545_f491_4f6c_dd1d)).map_err(err)?;
    let mut d = DeviceBuffer::<u8>::zeroed(&q, d_bytes * entries).map_err(err)?;
    let total = (2 * ab_bytes + d_bytes) * entries;
    println!("device {} ({} SMs); per entry {} + {} B read, {} B written; {} entries; {:.1} MB moved a call", gpu.properties().name, sms, ab_bytes, ab_bytes, d_bytes, entries, total as f64 / 1e6);
    let report = |label: &str, ms: f64| println!("{label:<44} {:.4} ms  {:.1} GB/s", ms, total as f64 / ms / 1e6);

    // Copy of the same bytes (half read, half written).
    let half = total / 2;
    let src = DeviceBuffer::<u8>::from_slice(&q, &noise.iter().copied().cycle().take(half).collect::<Vec<u8>>()).map_err(err)?;
    let mut dst = DeviceBuffer::<u8>::zeroed(&q, half).map_err(err)?;
    let t = time_calls(&q, 5, 21, None, || dst.copy_from_buffer(&q, &src).map_err(|e| e.to_string()))?;
    report("device copy (same bytes)", t.ms);

    let (pa, pb, pd) = (a.as_ptr() as u64, b.as_ptr() as u64, d.as_mut_ptr() as u64);
    // Times kernel `name` (arguments a, b, d, then `push`'s) over `grid` blocks of `block` threads.
    let launch = |name: &str, grid: u32, block: u32, shared_bytes: u32, push: &dyn Fn(&mut KernelArgs)| -> Result<f64, String> {
        let f = module.function(name).map_err(err)?;
        let t = time_calls(&q, 5, 21, None, || {
            let mut ka = KernelArgs::new();
            ka.push(pa).push(pb).push(pd);
            push(&mut ka);
            // SAFETY: the arguments match the kernel; every access is inside the buffers.
            unsafe { f.launch(q.gpu().unwrap(), LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], shared_bytes }, &mut ka).map_err(|e| e.to_string()) }
        })?;
        Ok(t.ms)
    };
    if ab_bytes == d_bytes {
        let n16 = (ab16 * entries) as i64;
        for per_sm in [4u32, 8, 16] {
            report(&format!("flat, grid-stride, {per_sm} x 256 a SM"), launch("flat", sms * per_sm, 256, 0, &|k| {
                k.push(n16);
            })?);
        }
    }
    for (threads, next, bulk) in [(256u32, 0i32, 0i32), (512, 0, 0), (256, 1, 0), (256, 1, 1), (512, 1, 1)] {
        // `next` in units of the resident blocks (at most 2048 threads an SM).
        let resident = sms * (2048 / threads);
        let nb = if next > 0 { resident as i32 } else { 0 };
        let label = format!("entry a block, {threads} threads, prefetch {}", if next == 0 { "none" } else if bulk == 1 { "bulk next" } else { "lines next" });
        report(&label, launch("entry", entries as u32, threads, 0, &|k| {
            k.push(ab16 as i32).push(d16 as i32).push(nb).push(entries as i32).push(bulk);
        })?);
    }
    if d_bytes <= 2 * ab_bytes {
        for nbuf in [2u32, 3, 4, 6] {
            let shared = nbuf * 2 * ab_bytes as u32;
            if shared > 200 * 1024 {
                continue;
            }
            report(&format!("bulk copies, one block an SM, {nbuf} buffers"), launch("bulk", sms, 32, shared, &|k| {
                k.push(ab_bytes as i32).push(d_bytes as i32).push(entries as i32).push(nbuf as i32);
            })?);
        }
    }
    if 2 * ab_bytes <= 200 * 1024 {
        for mode in 0..3i32 {
            for (threads, per_sm) in [(256u32, 3u32), (256, 2), (512, 3)] {
                // Shared memory so that at most per_sm blocks fit an SM (228 KiB; 1 KiB reserved a block, and the barrier).
                let shared = ((2 * ab_bytes) as u32).max(228 * 1024 / per_sm - 2048);
                if shared as usize > 227 * 1024 || (shared + 2048) * per_sm > 228 * 1024 {
                    continue;
                }
                let how = ["ld.global to st.shared", "cp.async", "1D bulk copies"][mode as usize];
                report(&format!("staged ({how}), {threads} threads, {per_sm} a SM"), launch("staged", entries as u32, threads, shared, &|k| {
                    k.push(ab16 as i32).push(d16 as i32).push(mode);
                })?);
            }
        }
    }
    for per_sm in [2u32, 4, 8] {
        report(&format!("persistent, {per_sm} x 256 a SM, bulk prefetch"), launch("persistent", sms * per_sm, 256, 0, &|k| {
            k.push(ab16 as i32).push(d16 as i32).push(entries as i32);
        })?);
    }
    Ok(())
}
