"""GPU correctness check of the generated GEMM modules through nvrtc (cupy.RawModule).

Run on a machine with an NVIDIA GPU and cupy:
    cargo run --release -p rocmath-kernels --bin kernels-check -- --arch sm_90 --out kernels/gpu_check/gen
    python3 kernels/gpu_check/gemm_check.py kernels/gpu_check/gen
Compares every fma/mma kernel (all transposes) against a float64 numpy reference on tile-edge
sizes, batch 2, ld > rows, beta = 0 with NaN in C, alpha = 0, device pointer mode, D aliasing C,
and checks that nothing outside [0,m) x [0,n) of D is written.
"""
import glob, os, re, sys, time
import numpy as np
import cupy as cp

FAM = {  # ab, c, compute(by value), scalar ptr type, tol
    's': ('f32', 'f32', np.float32, 'f32', 2e-5),
    'd': ('f64', 'f64', np.float64, 'f64', 1e-13),
    'c': ('c32', 'c32', np.complex64, 'c32', 2e-5),
    'z': ('c64', 'c64', np.complex128, 'c64', 1e-13),
    'h': ('f16', 'f16', np.float32, 'f16', 2e-3),
    'hss': ('f16', 'f32', np.float32, 'f32', 2e-5),
    'bss': ('bf16', 'f32', np.float32, 'f32', 2e-5),
    'hhs': ('f16', 'f16', np.float32, 'f32', 2e-3),
    'bbs': ('bf16', 'bf16', np.float32, 'f32', 1e-2),
}

def bf16_bits(x):  # float32 array -> uint16 bits, RNE
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)

def bf16_val(b):
    return (b.astype(np.uint32) << 16).view(np.float32)

def make(kind, shape, rng):
    """Return (device-storage numpy array, exact float64/complex128 value array)."""
    x = rng.uniform(-1, 1, shape)
    if kind in ('c32', 'c64'):
        x = x + 1j * rng.uniform(-1, 1, shape)
    if kind == 'f32': s = x.astype(np.float32); return s, s.astype(np.float64)
    if kind == 'f64': return x, x
    if kind == 'c32': s = x.astype(np.complex64); return s, s.astype(np.complex128)
    if kind == 'c64': return x.astype(np.complex128), x.astype(np.complex128)
    if kind == 'f16': s = x.astype(np.float16); return s, s.astype(np.float64)
    if kind == 'bf16': s = bf16_bits(x); return s, bf16_val(s).astype(np.float64)
    raise ValueError(kind)

def to_value(kind, arr):
    if kind == 'bf16': return bf16_val(arr).astype(np.float64)
    return arr.astype(np.complex128 if kind in ('c32', 'c64') else np.float64)

def scalar_ptr(kind, v):
    if kind == 'f16': return cp.asarray(np.array([v], np.float16))
    if kind == 'f32': return cp.asarray(np.array([v], np.float32))
    if kind == 'f64': return cp.asarray(np.array([v], np.float64))
    if kind == 'c32': return cp.asarray(np.array([v], np.complex64))
    if kind == 'c64': return cp.asarray(np.array([v], np.complex128))

def op(x, t):
    return x if t == 'n' else (x.T if t == 't' else x.conj().T)

def run_case(fn, fam, ta, tb, m, n, k, batch, rng, block, mt, alpha, beta, ptr_mode=False,
             alias=False, nan_c=False):
    ab, ck, comp, sk, tol = FAM[fam]
    am, ak = (m, k) if ta == 'n' else (k, m)
    bk, bn = (k, n) if tb == 'n' else (n, k)
    lda, ldb, ldc, ldd = am + 3, bk + 1, m + 2, m + (0 if alias else 5)
    if alias: ldd = ldc
    sa, sb, sc, sd = lda * ak + 7, ldb * bn + 2, ldc * n + 1, ldd * n + 3
    A, Av = make(ab, (batch * sa,), rng)
    B, Bv = make(ab, (batch * sb,), rng)
    C, Cv = make(ck, (batch * sc,), rng)
    if nan_c:
        C = C.copy(); C[:] = np.nan if ck != 'bf16' else 0x7FC0; Cv = to_value(ck, C)
    sentinel = {'f16': np.float16(-777.0), 'f32': np.float32(-777.0), 'f64': -777.0,
                'c32': np.complex64(-777.0), 'c64': -777.0 + 0j, 'bf16': bf16_bits(np.float32([-777.0]))[0]}[ck]
    Dh = np.full(batch * sd, sentinel, dtype=C.dtype)
    dA, dB, dC = cp.asarray(A), cp.asarray(B), cp.asarray(C)
    dD = dC if alias else cp.asarray(Dh)
    if alias: sd = sc
    a_val, b_val = comp(alpha), comp(beta)
    if fam == 'h':  # by-value half scalars arrive as float (rounded to half on the API side)
        a_val, b_val = np.float32(np.float16(alpha)), np.float32(np.float16(beta))
    null = np.uint64(0)
    if ptr_mode:
        pa, pb = scalar_ptr(sk, alpha), scalar_ptr(sk, beta)
        args_s = (comp(123), comp(456), pa, pb)
    else:
        args_s = (a_val, b_val, null, null)
    gx, gy = -(-m // mt[0]), -(-n // mt[1])
    fn((gx, gy, batch), (block, 1, 1),
       (np.int32(m), np.int32(n), np.int32(k)) + args_s +
       (dA, np.int64(lda), np.int64(sa), dB, np.int64(ldb), np.int64(sb),
        dC, np.int64(ldc), np.int64(sc), dD, np.int64(ldd), np.int64(sd)))
    cp.cuda.Device().synchronize()
    Dout = to_value(ck, cp.asnumpy(dD))
    av = float(np.float16(alpha)) if fam == 'h' or (ptr_mode and sk == 'f16') else alpha
    bv = float(np.float16(beta)) if fam == 'h' or (ptr_mode and sk == 'f16') else beta
    worst = 0.0
    for bt in range(batch):
        Am = Av[bt * sa: bt * sa + lda * ak].reshape(ak, lda).T[:am, :]
        Bm = Bv[bt * sb: bt * sb + ldb * bn].reshape(bn, ldb).T[:bk, :]
        Cm = Cv[bt * sc: bt * sc + ldc * n].reshape(n, ldc).T[:m, :]
        prod = op(Am, ta) @ op(Bm, tb) if (k > 0 and av != 0) else np.zeros((m, n))
        ref = av * prod + (bv * Cm if bv != 0 else 0)
        scale = abs(av) * (np.abs(op(Am, ta)) @ np.abs(op(Bm, tb)) if k > 0 else 0) + (abs(bv) * np.abs(Cm) if bv != 0 else 0) + 1e-30
        Dfull = Dout[bt * sd: bt * sd + ldd * n].reshape(n, ldd).T
        got = Dfull[:m, :]
        # f16 outputs: allow half an ulp of the subnormal spacing (2^-24) absolutely.
        floor = 2.0 ** -25 if ck == 'f16' else 0.0
        err = np.maximum(np.abs(got - ref) - floor, 0) / scale
        if not np.all(np.isfinite(got)):
            return f'non-finite output (batch {bt})'
        e = float(err.max()) if err.size else 0.0
        worst = max(worst, e)
        if e > tol * max(k, 1) ** 0.5 * 4 + tol:
            i, j = np.unravel_index(np.argmax(err), err.shape)
            return f'error {e:.3g} at ({i},{j}) batch {bt}: got {got[i,j]} want {ref[i,j]}'
        if not alias:
            pad = Dfull[m:, :]
            if pad.size and not np.all(cp.asnumpy(dD)[bt * sd: bt * sd + ldd * n].reshape(n, ldd).T[m:, :] == sentinel):
                return f'wrote outside [0,m) rows (batch {bt})'
            if bt == 0 and sd > ldd * n:
                tail = cp.asnumpy(dD)[ldd * n: sd]
                if not np.all(tail == sentinel):
                    return 'wrote past the last column'
    return None

def main(gen):
    rng = np.random.default_rng(7)
    files = sorted(glob.glob(os.path.join(gen, 'gemm_*_fma.hip')) + glob.glob(os.path.join(gen, 'gemm_*_mma.hip')))
    fails, total = 0, 0
    for f in files:
        src = open(f).read()
        names = re.findall(r'^RM_GEMM_KERNEL\((\w+),', src, re.M)
        t0 = time.time()
        mod = cp.RawModule(code=src, options=('-std=c++17',))
        mod.compile()
        ct = time.time() - t0
        for name in names:
            fam = name.split('_')[1]
            ta, tb = name.split('_')[2]
            mt = [int(x) for x in re.search(r'_mt(\d+)x(\d+)x(\d+)_', name).groups()]
            w = [int(x) for x in re.search(r'_[wt](\d+)x(\d+)_', name).groups()]
            block = w[0] * w[1] * (1 if name.endswith('_fma') else 32)
            fn = mod.get_function(name)
            cases = [
                dict(m=1, n=1, k=1, batch=1, alpha=1.0, beta=0.0),
                dict(m=mt[0] + 1, n=mt[1] - 1, k=mt[2] * 2 + 3, batch=2, alpha=0.75, beta=-0.5),
                dict(m=2 * mt[0] + 3, n=37, k=7, batch=1, alpha=-1.25, beta=0.0, nan_c=True),
                dict(m=33, n=2 * mt[1] + 5, k=mt[2] + 1, batch=2, alpha=0.0, beta=2.0),
                dict(m=mt[0], n=mt[1], k=0, batch=1, alpha=1.5, beta=0.5),
                dict(m=45, n=29, k=61, batch=2, alpha=0.5, beta=1.0, ptr_mode=True),
                dict(m=70, n=66, k=35, batch=1, alpha=1.0, beta=1.0, alias=True),
            ]
            if fam in ('c', 'z'):
                for c in cases[1:3] + cases[5:6]:
                    c['alpha'] = complex(c['alpha'], 0.375)
                    c['beta'] = complex(c['beta'], -0.25) if c['beta'] != 0 else 0j
            for c in cases:
                total += 1
                r = run_case(fn, fam, ta, tb, c.pop('m'), c.pop('n'), c.pop('k'), c.pop('batch'), rng, block, mt,
                             c.pop('alpha'), c.pop('beta'), **c)
                if r:
                    fails += 1
                    print(f'FAIL {name}: {r}')
        print(f'{os.path.basename(f)}: {len(names)} kernels, nvrtc {ct:.1f} s', flush=True)
    print(f'{total} cases, {fails} failed')
    return 1 if fails else 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
