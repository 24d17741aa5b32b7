#!/usr/bin/env python3
"""nvrtc compile times of FFT modules in one process (sources: kernels-check --out DIR, copied
into .carry/src/): each module twice one after another, then pairs on two threads at once
(ctypes drops the GIL during the call), to see whether nvrtc compiles threads in parallel.
SALT=text appends a comment to every source, so that no cache (nvrtc keeps its own since CUDA
12.9) has seen it: the first compile of each is then a true cold one."""
import ctypes, glob, os, sys, threading, time

lib = sorted(glob.glob("/usr/local/cuda/lib64/libnvrtc.so*"), key=len)[0]
nv = ctypes.CDLL(lib)
opts = [b"--gpu-architecture=sm_90", b"--std=c++17"]

def compile_ms(name, src):
    prog = ctypes.c_void_p()
    assert nv.nvrtcCreateProgram(ctypes.byref(prog), src, (name + ".cu").encode(), 0, None, None) == 0
    arr = (ctypes.c_char_p * len(opts))(*opts)
    t = time.perf_counter()
    rc = nv.nvrtcCompileProgram(prog, len(opts), arr)
    ms = (time.perf_counter() - t) * 1e3
    nv.nvrtcDestroyProgram(ctypes.byref(prog))
    assert rc == 0, f"{name}: nvrtc {rc}"
    return ms

salt = ("\n// salt " + os.environ["SALT"] + "\n").encode() if os.environ.get("SALT") else b""
srcs = {os.path.basename(f)[:-4]: open(f, "rb").read() + salt for f in sorted(glob.glob(".carry/src/*.hip"))}
print(f"{lib}: {len(srcs)} modules")
trivial = b'extern "C" __global__ void k() {}' + salt
print(f"first compile in the process: {compile_ms('warm', trivial):.1f} ms")
for name, src in srcs.items():
    print(f"{name}: {compile_ms(name, src):.1f} ms, again {compile_ms(name, src):.1f} ms ({len(src)} bytes of source)")
names = list(srcs)
for a, b in [(names[i], names[(i + 1) % len(names)]) for i in range(len(names))]:
    if salt:   # pairs of sources no cache has seen either
        srcs[a] += b"// pair\n"
        srcs[b] += b"// pair\n"
    res = {}
    def run(n):
        res[n] = compile_ms(n, srcs[n])
    t = time.perf_counter()
    th = [threading.Thread(target=run, args=(n,)) for n in (a, b)]
    [x.start() for x in th]; [x.join() for x in th]
    wall = (time.perf_counter() - t) * 1e3
    print(f"together: {a} {res[a]:.1f} ms + {b} {res[b]:.1f} ms in {wall:.1f} ms wall")
