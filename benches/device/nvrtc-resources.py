#!/usr/bin/env python3
"""Registers and spills of a generated GEMM or FFT module for sm_90, without a GPU: compiles the
module source with nvrtc (the PyPI wheel that .ci/nvrtc.sh installs) and prints ptxas's -v report
per kernel. Runs on the dev machine; cheaper than a device call for "does this change spill?".

    python3 benches/device/nvrtc-resources.py s mt128x128x16_w2x4_s3_p4x4_g8_o2_k4_fmaw32x16 [--arch sm_90a] [--sass FILE]
    python3 benches/device/nvrtc-resources.py fft s32768     # the one-pass kernel of that length (kernels/examples/fft_source.rs)

--sass FILE also writes the module's SASS to FILE, through cuobjdump (NVIDIA's wheels
nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm from PyPI, installed under ~/.cache/rocmath-cuobjdump when first asked for).
"""
import ctypes, os, re, subprocess, sys

def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    family, config = sys.argv[1], sys.argv[2]
    arch = sys.argv[sys.argv.index("--arch") + 1] if "--arch" in sys.argv else "sm_90"
    cuda_home = subprocess.run(["bash", ".ci/nvrtc.sh"], capture_output=True, text=True, check=True).stdout.strip()
    lib_dir = os.path.join(cuda_home, "lib")
    # (libnvrtc loads its builtins library by name: the directory must be on the loader path)
    if lib_dir not in os.environ.get("LD_LIBRARY_PATH", ""):
        os.environ["LD_LIBRARY_PATH"] = lib_dir + ":" + os.environ.get("LD_LIBRARY_PATH", "")
        os.execv(sys.executable, [sys.executable] + sys.argv)
    example = ["fft_source", config] if family == "fft" else ["gemm_source", family, config]
    src = subprocess.run(["cargo", "run", "-q", "--release", "-p", "rocmath-kernels", "--example", example[0], "--"] + example[1:],
                         capture_output=True, check=True).stdout
    nvrtc = ctypes.CDLL(os.path.join(lib_dir, "libnvrtc.so.13"))
    prog = ctypes.c_void_p()
    assert nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src, b"module.cu", 0, None, None) == 0
    opts = [f"--gpu-architecture={arch}".encode(), b"--std=c++17", b"--ptxas-options=-v"]
    rc = nvrtc.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    size = ctypes.c_size_t()
    nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetProgramLog(prog, log)
    name, spill = None, ""
    for line in log.value.decode(errors="replace").splitlines():
        if m := re.search(r"Compiling entry function '(\w+)'", line):
            name = m.group(1)
        elif m := re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line):
            spill = f"spill stores {m.group(1)} B, loads {m.group(2)} B"
        elif m := re.search(r"Used (\d+) registers", line):
            print(f"{name}: {m.group(1)} registers, {spill}")
        elif "error" in line or "fatal" in line or "warning" in line.lower():
            print(line)
    if rc == 0 and "--sass" in sys.argv:
        write_sass(nvrtc, prog, sys.argv[sys.argv.index("--sass") + 1])
    sys.exit(rc)

def write_sass(nvrtc, prog, path):
    size = ctypes.c_size_t()
    assert nvrtc.nvrtcGetCUBINSize(prog, ctypes.byref(size)) == 0
    cubin = ctypes.create_string_buffer(size.value)
    assert nvrtc.nvrtcGetCUBIN(prog, cubin) == 0
    root = os.path.expanduser("~/.cache/rocmath-cuobjdump")
    tool = os.path.join(root, "nvidia/cu13/bin/cuobjdump")
    if not os.path.exists(tool):
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--target", root,
                        "--no-deps", "nvidia-cuda-cuobjdump", "nvidia-cuda-nvdisasm"], check=True)
    with open(path + ".cubin", "wb") as f:
        f.write(cubin.raw)
    with open(path, "w") as f:
        env = dict(os.environ, PATH=os.path.dirname(tool) + ":" + os.environ.get("PATH", ""))
        subprocess.run([tool, "-sass", path + ".cubin"], stdout=f, check=True, env=env)
    os.remove(path + ".cubin")

if __name__ == "__main__":
    main()
