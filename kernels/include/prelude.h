// rocmath portable prelude (HIP dialect).
//
// Compiles, with NO system or SDK header, under:
//   * nvrtc (CUDA 12/13)        : __CUDACC_RTC__ and __CUDA_ARCH__ defined, __global__ etc. are
//                                 predefined macros, nothing is #included.
//   * clang -x cuda -nocudainc  : __CUDA__ / __NVPTX__ / __CUDA_ARCH__ defined, no CUDA headers.
//   * clang -x hip -nogpuinc    : __HIP__ / __AMDGCN__ defined, no HIP headers.
//   * hiprtc                    : __HIPCC_RTC__ defined, HIP's built-in headers already define
//                                 __global__, __device__, __shared__, __launch_bounds__ ...
//
// Everything device-specific goes through the rm_* names defined here. On NVIDIA the special
// registers, barriers, shuffles and f16 conversions are inline PTX, so the code that clang checks
// (sm_80/sm_90 PTX) is the same code nvrtc compiles. On AMD the amdgcn builtins are used.
//
// This file must stay include-free: nvrtc and hiprtc get no include path.
#ifndef ROCMATH_PRELUDE_H
#define ROCMATH_PRELUDE_H

// ------------------------------------------------------------------------------------------------
// Target detection
// ------------------------------------------------------------------------------------------------
#if defined(__AMDGCN__) || defined(__HIP_DEVICE_COMPILE__) || defined(__HIPCC_RTC__)
#define RM_AMD 1
#define RM_NVIDIA 0
#elif defined(__NVPTX__) || defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
#define RM_AMD 0
#define RM_NVIDIA 1
#else
#error "rocmath prelude: unknown device target (expected amdgcn or nvptx device compilation)"
#endif

// NVIDIA SM version as an integer (800 for sm_80), 0 when unknown.
#if RM_NVIDIA && defined(__CUDA_ARCH__)
#define RM_SM __CUDA_ARCH__
#else
#define RM_SM 0
#endif

// ------------------------------------------------------------------------------------------------
// Execution-space keywords. Guarded: hiprtc and nvrtc define them already (as macros).
// ------------------------------------------------------------------------------------------------
#ifndef __global__
#define __global__ __attribute__((global))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#ifndef __constant__
#define __constant__ __attribute__((constant))
#endif

#define RM_INLINE __device__ inline __attribute__((always_inline))

// A fact the compiler may use (clang's and nvrtc's __builtin_assume); the caller guarantees it.
// Thread indices come from inline assembly on NVIDIA, so without it their range is unknown.
#define RM_ASSUME(cond) __builtin_assume(cond)

// Launch bounds: max threads per block, min blocks (waves per EU on AMD) for occupancy.
#if RM_AMD
#define RM_LAUNCH_BOUNDS(threads, min_waves_per_eu) \
    __attribute__((amdgpu_flat_work_group_size(1, threads), amdgpu_waves_per_eu(min_waves_per_eu)))
#elif defined(__CUDACC_RTC__) && defined(__launch_bounds__)
#define RM_LAUNCH_BOUNDS(threads, min_waves_per_eu) __launch_bounds__(threads)
#else
#define RM_LAUNCH_BOUNDS(threads, min_waves_per_eu) __attribute__((launch_bounds(threads)))
#endif

// NVIDIA: at most `threads` per block and at least `min_blocks` resident per SM (which caps the
// registers per thread); AMD: RM_LAUNCH_BOUNDS with one wave per EU.
#if RM_AMD
#define RM_LAUNCH_BOUNDS_BLOCKS(threads, min_blocks) RM_LAUNCH_BOUNDS(threads, 1)
#elif defined(__CUDACC_RTC__) && defined(__launch_bounds__)
#define RM_LAUNCH_BOUNDS_BLOCKS(threads, min_blocks) __launch_bounds__(threads, min_blocks)
#else
#define RM_LAUNCH_BOUNDS_BLOCKS(threads, min_blocks) __attribute__((launch_bounds(threads, min_blocks)))
#endif

// A kernel launched in clusters of `n` blocks (sm_90). clang 19 has no cluster attribute (the
// static check's nvrtc shim drops it and compiles the body); nvrtc builds what runs.
#if defined(__CUDACC_RTC__)
#define RM_CLUSTER_DIMS(n) __cluster_dims__(n, 1, 1)
#else
#define RM_CLUSTER_DIMS(n)
#endif

// ------------------------------------------------------------------------------------------------
// Fixed-width integers (from builtin types only; int is 32-bit, long long 64-bit on every target)
// ------------------------------------------------------------------------------------------------
typedef signed char rm_i8;
typedef unsigned char rm_u8;
typedef short rm_i16;
typedef unsigned short rm_u16;
typedef int rm_i32;
typedef unsigned int rm_u32;
typedef long long rm_i64;
typedef unsigned long long rm_u64;

// ------------------------------------------------------------------------------------------------
// Wave size
// ------------------------------------------------------------------------------------------------
#if RM_NVIDIA
#define RM_WAVE_SIZE 32
#elif defined(__AMDGCN_WAVEFRONT_SIZE__)
#define RM_WAVE_SIZE __AMDGCN_WAVEFRONT_SIZE__
#elif defined(__AMDGCN_WAVEFRONT_SIZE)
#define RM_WAVE_SIZE __AMDGCN_WAVEFRONT_SIZE
#elif defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__)
#define RM_WAVE_SIZE 32
#else
#define RM_WAVE_SIZE 64
#endif

// ------------------------------------------------------------------------------------------------
// Work-item / work-group indices, barrier, lane id, shuffle
// ------------------------------------------------------------------------------------------------
#if RM_NVIDIA
#define RM_PTX_SREG(fn, reg)                               \
    RM_INLINE int fn() {                                   \
        unsigned int r;                                    \
        asm("mov.u32 %0, %%" reg ";" : "=r"(r));           \
        return (int)r;                                     \
    }
RM_PTX_SREG(rm_tid_x, "tid.x")
RM_PTX_SREG(rm_tid_y, "tid.y")
RM_PTX_SREG(rm_tid_z, "tid.z")
RM_PTX_SREG(rm_bid_x, "ctaid.x")
RM_PTX_SREG(rm_bid_y, "ctaid.y")
RM_PTX_SREG(rm_bid_z, "ctaid.z")
RM_PTX_SREG(rm_bdim_x, "ntid.x")
RM_PTX_SREG(rm_bdim_y, "ntid.y")
RM_PTX_SREG(rm_bdim_z, "ntid.z")
RM_PTX_SREG(rm_gdim_x, "nctaid.x")
RM_PTX_SREG(rm_gdim_y, "nctaid.y")
RM_PTX_SREG(rm_gdim_z, "nctaid.z")
RM_PTX_SREG(rm_lane_id, "laneid")
// Multiprocessor ids: one past the largest (at least the number of SMs; NVIDIA only).
RM_PTX_SREG(rm_sm_count, "nsmid")
#undef RM_PTX_SREG

// Block-wide barrier; bar.sync orders shared-memory accesses of the block.
RM_INLINE void rm_barrier() { asm volatile("bar.sync 0;" ::: "memory"); }
// Warp-wide barrier (every lane of the warp takes part); it orders the warp's shared-memory
// accesses like bar.sync does the block's.
RM_INLINE void rm_warp_barrier() { asm volatile("bar.warp.sync -1;" ::: "memory"); }

// Shuffle: value of `v` in lane `src` (all 32 lanes must participate).
RM_INLINE float rm_shfl(float v, int src) {
    float r;
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(r) : "f"(v), "r"(src));
    return r;
}
RM_INLINE int rm_shfl(int v, int src) {
    int r;
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(src));
    return r;
}
RM_INLINE unsigned int rm_float_as_uint(float f) {
    unsigned int r;
    asm("mov.b32 %0, %1;" : "=r"(r) : "f"(f));
    return r;
}
RM_INLINE float rm_uint_as_float(unsigned int u) {
    float r;
    asm("mov.b32 %0, %1;" : "=f"(r) : "r"(u));
    return r;
}
#else // RM_AMD
RM_INLINE int rm_tid_x() { return (int)__builtin_amdgcn_workitem_id_x(); }
RM_INLINE int rm_tid_y() { return (int)__builtin_amdgcn_workitem_id_y(); }
RM_INLINE int rm_tid_z() { return (int)__builtin_amdgcn_workitem_id_z(); }
RM_INLINE int rm_bid_x() { return (int)__builtin_amdgcn_workgroup_id_x(); }
RM_INLINE int rm_bid_y() { return (int)__builtin_amdgcn_workgroup_id_y(); }
RM_INLINE int rm_bid_z() { return (int)__builtin_amdgcn_workgroup_id_z(); }
RM_INLINE int rm_bdim_x() { return (int)__builtin_amdgcn_workgroup_size_x(); }
RM_INLINE int rm_bdim_y() { return (int)__builtin_amdgcn_workgroup_size_y(); }
RM_INLINE int rm_bdim_z() { return (int)__builtin_amdgcn_workgroup_size_z(); }
RM_INLINE int rm_gdim_x() { return (int)(__builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x()); }
RM_INLINE int rm_gdim_y() { return (int)(__builtin_amdgcn_grid_size_y() / __builtin_amdgcn_workgroup_size_y()); }
RM_INLINE int rm_gdim_z() { return (int)(__builtin_amdgcn_grid_size_z() / __builtin_amdgcn_workgroup_size_z()); }
RM_INLINE int rm_lane_id() {
#if RM_WAVE_SIZE == 64
    return (int)__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
#else
    return (int)__builtin_amdgcn_mbcnt_lo(~0u, 0u);
#endif
}
// Work-group barrier with the LDS fences (what HIP's __syncthreads does).
RM_INLINE void rm_barrier() {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
// Wavefront-wide barrier: a wavefront runs in lockstep, so this only orders its LDS accesses
// (the fences at wavefront scope) and keeps the compiler from moving them across.
RM_INLINE void rm_warp_barrier() {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
RM_INLINE int rm_shfl(int v, int src) {
    return __builtin_amdgcn_ds_bpermute((src & (RM_WAVE_SIZE - 1)) << 2, v);
}
RM_INLINE unsigned int rm_float_as_uint(float f) { return __builtin_bit_cast(unsigned int, f); }
RM_INLINE float rm_uint_as_float(unsigned int u) { return __builtin_bit_cast(float, u); }
RM_INLINE float rm_shfl(float v, int src) {
    return rm_uint_as_float((unsigned int)rm_shfl((int)rm_float_as_uint(v), src));
}
#endif

// ------------------------------------------------------------------------------------------------
// 16-bit floating point storage types and exact conversions (round to nearest even)
// ------------------------------------------------------------------------------------------------
struct rm_half { rm_u16 x; };   // IEEE binary16 bits
struct rm_bf16 { rm_u16 x; };   // bfloat16 bits

RM_INLINE rm_half rm_half_from_bits(rm_u16 b) { rm_half h; h.x = b; return h; }
RM_INLINE rm_bf16 rm_bf16_from_bits(rm_u16 b) { rm_bf16 h; h.x = b; return h; }

#if RM_NVIDIA
RM_INLINE float rm_half_to_float(rm_half h) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.x));
    return f;
}
RM_INLINE rm_half rm_float_to_half(float f) {
    rm_u16 b;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(b) : "f"(f));
    return rm_half_from_bits(b);
}
#else
RM_INLINE float rm_half_to_float(rm_half h) { return (float)__builtin_bit_cast(_Float16, h.x); }
RM_INLINE rm_half rm_float_to_half(float f) {
    return rm_half_from_bits(__builtin_bit_cast(rm_u16, (_Float16)f));
}
#endif

// bf16 -> f32 is exact: the bf16 bits are the top half of the f32.
RM_INLINE float rm_bf16_to_float(rm_bf16 h) { return rm_uint_as_float(((rm_u32)h.x) << 16); }
// f32 -> bf16, round to nearest even; NaN stays NaN (quieted, sign and top payload kept).
RM_INLINE rm_bf16 rm_float_to_bf16(float f) {
    rm_u32 u = rm_float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return rm_bf16_from_bits((rm_u16)((u >> 16) | 0x0040u));
    u += 0x7fffu + ((u >> 16) & 1u);
    return rm_bf16_from_bits((rm_u16)(u >> 16));
}

// ------------------------------------------------------------------------------------------------
// Complex types
// ------------------------------------------------------------------------------------------------
// Fused multiply-add: nvrtc provides fmaf/fma without any include; clang has the builtins.
#if defined(__CUDACC_RTC__)
#define RM_FMAF fmaf
#define RM_FMA fma
#else
#define RM_FMAF __builtin_fmaf
#define RM_FMA __builtin_fma
#endif

struct rm_c32 { float x, y; };
struct rm_c64 { double x, y; };

RM_INLINE rm_c32 rm_make_c32(float x, float y) { rm_c32 r; r.x = x; r.y = y; return r; }
RM_INLINE rm_c64 rm_make_c64(double x, double y) { rm_c64 r; r.x = x; r.y = y; return r; }

#define RM_COMPLEX_OPS(C, R, MAKE, FMA)                                                               \
    RM_INLINE C operator+(C a, C b) { return MAKE(a.x + b.x, a.y + b.y); }                       \
    RM_INLINE C operator-(C a, C b) { return MAKE(a.x - b.x, a.y - b.y); }                       \
    RM_INLINE C& operator+=(C& a, C b) { a.x += b.x; a.y += b.y; return a; }                    \
    RM_INLINE C operator-(C a) { return MAKE(-a.x, -a.y); }                                      \
    RM_INLINE C operator*(C a, C b) { return MAKE(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); } \
    RM_INLINE C operator*(R s, C b) { return MAKE(s * b.x, s * b.y); }                           \
    RM_INLINE C operator*(C a, R s) { return MAKE(a.x * s, a.y * s); }                           \
    RM_INLINE C rm_conj(C a) { return MAKE(a.x, -a.y); }                                         \
    RM_INLINE bool rm_is_zero(C a) { return a.x == (R)0 && a.y == (R)0; }                        \
    RM_INLINE C rm_fma(C a, C b, C c) { /* c + a*b, as four real fmas */                         \
        C r;                                                                                     \
        r.x = FMA(-a.y, b.y, FMA(a.x, b.x, c.x));                                                \
        r.y = FMA(a.y, b.x, FMA(a.x, b.y, c.y));                                                 \
        return r;                                                                                \
    }
RM_COMPLEX_OPS(rm_c32, float, rm_make_c32, RM_FMAF)
RM_COMPLEX_OPS(rm_c64, double, rm_make_c64, RM_FMA)
#undef RM_COMPLEX_OPS
// A small integer (0, 1) as any arithmetic type; complex types take it on the real axis.
template <class T> struct rm_from_int_impl { static RM_INLINE T run(int v) { return (T)v; } };
template <> struct rm_from_int_impl<rm_c32> { static RM_INLINE rm_c32 run(int v) { return rm_make_c32((float)v, 0.0f); } };
template <> struct rm_from_int_impl<rm_c64> { static RM_INLINE rm_c64 run(int v) { return rm_make_c64((double)v, 0.0); } };
template <class T> RM_INLINE T rm_from_int(int v) { return rm_from_int_impl<T>::run(v); }
RM_INLINE float rm_conj(float a) { return a; }
RM_INLINE double rm_conj(double a) { return a; }
RM_INLINE rm_half rm_conj(rm_half a) { return a; }
RM_INLINE rm_bf16 rm_conj(rm_bf16 a) { return a; }
RM_INLINE rm_i8 rm_conj(rm_i8 a) { return a; }
RM_INLINE int rm_conj(int a) { return a; }
RM_INLINE bool rm_is_zero(float a) { return a == 0.0f; }
RM_INLINE bool rm_is_zero(double a) { return a == 0.0; }
RM_INLINE bool rm_is_zero(int a) { return a == 0; }

// ------------------------------------------------------------------------------------------------
// Generic helpers for templated kernels: zero, conversion, multiply-add, type traits
// ------------------------------------------------------------------------------------------------
template <class T> struct rm_traits;
template <> struct rm_traits<float>   { typedef float  real; enum { is_complex = 0, bytes = 4 }; };
template <> struct rm_traits<double>  { typedef double real; enum { is_complex = 0, bytes = 8 }; };
template <> struct rm_traits<rm_half> { typedef float  real; enum { is_complex = 0, bytes = 2 }; };
template <> struct rm_traits<rm_bf16> { typedef float  real; enum { is_complex = 0, bytes = 2 }; };
template <> struct rm_traits<rm_c32>  { typedef float  real; enum { is_complex = 1, bytes = 8 }; };
template <> struct rm_traits<rm_c64>  { typedef double real; enum { is_complex = 1, bytes = 16 }; };

template <class T> RM_INLINE T rm_zero();
template <> RM_INLINE float rm_zero<float>() { return 0.0f; }
template <> RM_INLINE double rm_zero<double>() { return 0.0; }
template <> RM_INLINE rm_half rm_zero<rm_half>() { return rm_half_from_bits(0); }
template <> RM_INLINE rm_bf16 rm_zero<rm_bf16>() { return rm_bf16_from_bits(0); }
template <> RM_INLINE rm_c32 rm_zero<rm_c32>() { return rm_make_c32(0.0f, 0.0f); }
template <> RM_INLINE rm_c64 rm_zero<rm_c64>() { return rm_make_c64(0.0, 0.0); }
template <> RM_INLINE int rm_zero<int>() { return 0; }
template <> RM_INLINE rm_i8 rm_zero<rm_i8>() { return 0; }

// rm_convert<To>(from): value conversion between element types (RNE for narrowing floats).
template <class To, class From> struct rm_convert_impl;
template <class T> struct rm_convert_impl<T, T> { static RM_INLINE T run(T v) { return v; } };
template <> struct rm_convert_impl<float, rm_half> { static RM_INLINE float run(rm_half v) { return rm_half_to_float(v); } };
template <> struct rm_convert_impl<float, rm_bf16> { static RM_INLINE float run(rm_bf16 v) { return rm_bf16_to_float(v); } };
template <> struct rm_convert_impl<rm_half, float> { static RM_INLINE rm_half run(float v) { return rm_float_to_half(v); } };
template <> struct rm_convert_impl<rm_bf16, float> { static RM_INLINE rm_bf16 run(float v) { return rm_float_to_bf16(v); } };
template <> struct rm_convert_impl<double, float> { static RM_INLINE double run(float v) { return (double)v; } };
template <> struct rm_convert_impl<float, double> { static RM_INLINE float run(double v) { return (float)v; } };
template <> struct rm_convert_impl<int, rm_i8> { static RM_INLINE int run(rm_i8 v) { return (int)v; } };
template <class To, class From> RM_INLINE To rm_convert(From v) { return rm_convert_impl<To, From>::run(v); }

// rm_madd(a, b, c) = a*b + c in the type of c (fused where the hardware has it).
RM_INLINE float rm_madd(float a, float b, float c) { return RM_FMAF(a, b, c); }
RM_INLINE double rm_madd(double a, double b, double c) { return RM_FMA(a, b, c); }
RM_INLINE rm_c32 rm_madd(rm_c32 a, rm_c32 b, rm_c32 c) { return rm_fma(a, b, c); }
RM_INLINE rm_c64 rm_madd(rm_c64 a, rm_c64 b, rm_c64 c) { return rm_fma(a, b, c); }

// Integers wrap modulo 2^32 (as the integer matrix instructions do), computed unsigned: no UB.
RM_INLINE int rm_madd(int a, int b, int c) { return (int)((rm_u32)a * (rm_u32)b + (rm_u32)c); }

// rm_mul(a, b) = a*b.
RM_INLINE int rm_mul(int a, int b) { return (int)((rm_u32)a * (rm_u32)b); }
RM_INLINE float rm_mul(float a, float b) { return a * b; }
RM_INLINE double rm_mul(double a, double b) { return a * b; }
RM_INLINE rm_c32 rm_mul(rm_c32 a, rm_c32 b) { return a * b; }
RM_INLINE rm_c64 rm_mul(rm_c64 a, rm_c64 b) { return a * b; }

// Conjugate when `c` is true (a run-time-constant flag folded by the compiler).
template <class T> RM_INLINE T rm_conj_if(bool c, T v) { return c ? rm_conj(v) : v; }

// Mark a value as uniform across the wave (lets AMD keep it in an SGPR); identity on NVIDIA.
#if RM_AMD
RM_INLINE int rm_uniform(int v) { return __builtin_amdgcn_readfirstlane(v); }
#else
RM_INLINE int rm_uniform(int v) { return v; }
#endif

// Aligned small vector of V elements, for vector loads from LDS / global memory.
template <class T, int V> struct alignas(sizeof(T) * V) rm_vec { T v[V]; };

// Load V consecutive T from an address aligned to sizeof(T) * V. 16-bit types are loaded as
// 32-bit words and unpacked with shifts, so that the back ends emit one wide load (NVPTX would
// otherwise split a 16-byte vector of u16 into v4.u16 pieces).
template <class T, int V> struct rm_vload {
    static RM_INLINE rm_vec<T, V> run(const T* p) { return *(const rm_vec<T, V>*)p; }
};
template <class T, int V> struct rm_vload16 {
    enum { W = V / 2 > 0 ? V / 2 : 1 };
    static RM_INLINE rm_vec<T, V> run(const T* p) {
        const rm_vec<rm_u32, W> w = *(const rm_vec<rm_u32, W>*)p;
        rm_vec<T, V> r;
#pragma unroll
        for (int j = 0; j < V; ++j) r.v[j].x = (rm_u16)(w.v[j >> 1] >> (16 * (j & 1)));
        return r;
    }
};
template <int V> struct rm_vload<rm_half, V> : rm_vload16<rm_half, V> {};
template <int V> struct rm_vload<rm_bf16, V> : rm_vload16<rm_bf16, V> {};
template <class T, int V> RM_INLINE rm_vec<T, V> rm_load_vec(const T* p) { return rm_vload<T, V>::run(p); }

// Compile-time helpers
template <class A, class B> struct rm_same { enum { value = 0 }; };
template <class A> struct rm_same<A, A> { enum { value = 1 }; };
template <bool B, class T, class F> struct rm_if { typedef T type; };
template <class T, class F> struct rm_if<false, T, F> { typedef F type; };
#define RM_CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

// ------------------------------------------------------------------------------------------------
// Asynchronous global -> LDS copies of 16 (or 8) bytes (cp.async on NVIDIA sm_80+; a load and a
// store elsewhere). `src_bytes` is 16 or 0 (0: nothing is read, the destination is zeroed). rm_cp_async_commit ends a
// group; rm_cp_async_wait<N> waits until at most N groups are pending (then a barrier makes the
// data visible to the block).
// ------------------------------------------------------------------------------------------------
struct rm_u32x4 { rm_u32 x, y, z, w; };
#if RM_NVIDIA && (RM_SM == 0 || RM_SM >= 800)
// This block's rank in its thread block cluster (sm_90; the FFT's cluster kernels, the GEMM's
// multicast pairs).
RM_INLINE unsigned rm_cluster_rank() {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
RM_INLINE rm_u32 rm_smem_addr(const void* p) {
    rm_u32 a;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
    return a;
}
// A byte address in LDS that copies are issued to: the 32-bit shared address, converted once and
// then offset by plain adds, which ptxas folds into the copies' immediates. (Converting each
// destination pointer instead costs a 64-bit add and the conversion per copy.)
struct rm_lds_ref {
    rm_u32 a;
    RM_INLINE rm_lds_ref operator+(int bytes) const { return rm_lds_ref{a + (rm_u32)bytes}; }
};
RM_INLINE rm_lds_ref rm_lds(void* p) { return rm_lds_ref{rm_smem_addr(p)}; }
RM_INLINE void rm_cp_async16(rm_lds_ref dst, const void* src, int src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst.a), "l"(src), "r"(src_bytes) : "memory");
}
RM_INLINE void rm_cp_async16(void* dst, const void* src, int src_bytes) { rm_cp_async16(rm_lds(dst), src, src_bytes); }
// 8 bytes, both ends 8-byte aligned (cp.async.ca: the 16-byte .cg form has no smaller size).
RM_INLINE void rm_cp_async8(void* dst, const void* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(rm_smem_addr(dst)), "l"(src) : "memory");
}
RM_INLINE void rm_cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> RM_INLINE void rm_cp_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }
#define RM_HAS_CP_ASYNC 1
// ldmatrix: lanes 8j..8j+7 give the row addresses (16 bytes each) of 8x8 b16 matrix j; lane l
// receives row l/4, columns 2(l%4), 2(l%4)+1 of each matrix (of its transpose with .trans).
RM_INLINE void rm_ldmatrix_x4(rm_u32 (&r)[4], const void* p, bool trans) {
    if (trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(rm_smem_addr(p)));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(rm_smem_addr(p)));
}
RM_INLINE void rm_ldmatrix_x2(rm_u32 (&r)[2], const void* p, bool trans) {
    if (trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1]) : "r"(rm_smem_addr(p)));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1]) : "r"(rm_smem_addr(p)));
}
#else
RM_INLINE void rm_cp_async16(void* dst, const void* src, int src_bytes) {
    rm_u32x4 v = {0u, 0u, 0u, 0u};
    if (src_bytes >= 16) v = *(const rm_u32x4*)src;
    *(rm_u32x4*)dst = v;
}
struct rm_lds_ref {
    unsigned char* p;
    RM_INLINE rm_lds_ref operator+(int bytes) const { return rm_lds_ref{p + bytes}; }
};
RM_INLINE rm_lds_ref rm_lds(void* p) { return rm_lds_ref{(unsigned char*)p}; }
RM_INLINE void rm_cp_async16(rm_lds_ref dst, const void* src, int src_bytes) { rm_cp_async16((void*)dst.p, src, src_bytes); }
RM_INLINE void rm_cp_async8(void* dst, const void* src) { *(unsigned long long*)dst = *(const unsigned long long*)src; }
RM_INLINE void rm_cp_async_commit() {}
template <int N> RM_INLINE void rm_cp_async_wait() {}
#define RM_HAS_CP_ASYNC 0
#endif

// Make a value an opaque SSA value (stops the NVPTX back end from turning a select of two loads,
// e.g. "pointer ? *pointer : by-value" or "c ? v[0] : v[2]", into a load from a select of
// addresses, which needs a local copy).
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
RM_INLINE int rm_opaque(int v) {
#if RM_NVIDIA
    asm("" : "+r"(v));
#endif
    return v;
}
// A pointer the compiler cannot prove equal to the one passed in: loads through it are not
// merged with earlier loads through the original (volatile, so two calls are not merged either).
template <class T> RM_INLINE const T* rm_opaque_ptr(const T* p) {
#if RM_NVIDIA
    asm volatile("" : "+l"(p));
#endif
    return p;
}
RM_INLINE rm_c32 rm_opaque(rm_c32 v) { return rm_make_c32(rm_opaque(v.x), rm_opaque(v.y)); }
RM_INLINE rm_c64 rm_opaque(rm_c64 v) { return rm_make_c64(rm_opaque(v.x), rm_opaque(v.y)); }

#endif // ROCMATH_PRELUDE_H
