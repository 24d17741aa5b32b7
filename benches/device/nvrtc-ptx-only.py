#!/usr/bin/env python3
"""nvrtc compile time of generated modules to a cubin (sm_90a: front end, NVVM and ptxas) against
PTX only (compute_90a: no ptxas), on the dev machine with the PyPI nvrtc (.ci/nvrtc.sh), each
source salted so that nvrtc's own cache has not seen it. For the question whether CI's
ahead-of-time step could check PTX only.

    cuda=$(bash .ci/nvrtc.sh); LD_LIBRARY_PATH=$cuda/lib python3 benches/device/nvrtc-ptx-only.py $cuda MODULE.hip...
(sources from `cargo run --release -p rocmath-kernels --example gemm_source -- FAMILY CONFIG`)"""
import ctypes, os, sys, time
lib = os.path.join(sys.argv[1], "lib", "libnvrtc.so.13")
nv = ctypes.CDLL(lib)
def t(src, arch):
    opts = [f"--gpu-architecture={arch}".encode(), b"--std=c++17"]
    prog = ctypes.c_void_p()
    assert nv.nvrtcCreateProgram(ctypes.byref(prog), src, b"m.cu", 0, None, None) == 0
    arr = (ctypes.c_char_p * len(opts))(*opts)
    s = time.perf_counter(); rc = nv.nvrtcCompileProgram(prog, len(opts), arr); ms = (time.perf_counter() - s) * 1e3
    nv.nvrtcDestroyProgram(ctypes.byref(prog)); return rc, ms
for f in sys.argv[2:]:
    src = open(f, "rb").read()
    src_salt = lambda x: src + f"\n// salt {x} {time.time()}\n".encode()
    print(f.split("/")[-1][:60], "sm_90a cubin", t(src_salt(1), "sm_90a"), "compute_90a ptx", t(src_salt(2), "compute_90a"))
