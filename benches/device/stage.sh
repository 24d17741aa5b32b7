#!/usr/bin/env bash
# Builds the release test binaries, rocmath-bench and rocmath-tune here and copies them (stripped) into
# .carry/, which the device tool carries to the GPU machine (no Rust toolchain needed there), with
# the ahead-of-time kernel cache for sm_90 beside rocmath-bench (built here with nvrtc from PyPI;
# FFT modules only, GEMM ones too with GEMM_AOT=1).
# Unit-test binaries of crates with no GPU code are left out: the carry is limited to 64 MiB.
# TESTS="fft gemm ...": only those test binaries (fft-test, gemm-test, ...); with GEMM_AOT=1 all
# of them and the working tree come to more than 64 MiB.
set -euo pipefail
cd "$(dirname "$0")/../.."
rm -rf .carry && mkdir -p .carry/tests
cargo build --release -p rocmath-bench
cp target/release/rocmath-bench target/release/rocmath-tune .carry/
cuda_home="$(bash .ci/nvrtc.sh)"
# GEMM_AOT=1: FFT and GEMM modules, 91 MiB for sm_90 (about 9 min here), over the carry's 64 MiB,
# so gzipped (21 MiB); session.sh, run-gemm-goals.sh and run-tune.sh unpack it on the device.
gemm_aot=$([ "${GEMM_AOT:-0}" = 1 ] && echo --gemm || true)
CUDA_HOME="$cuda_home" LD_LIBRARY_PATH="$cuda_home/lib" target/release/rocmath-aot --arch sm_90 $gemm_aot --out .carry/rocmath-kernels.aot
[ -z "$gemm_aot" ] || gzip -f .carry/rocmath-kernels.aot
cargo test --workspace --release --no-run --message-format=json 2>/dev/null \
  | TESTS="${TESTS:-}" python3 -c '
import json, sys, shutil, os
wanted = {t + "-test" for t in os.environ["TESTS"].split()}
for line in sys.stdin:
    try: m = json.loads(line)
    except ValueError: continue
    exe = m.get("executable")
    if m.get("reason") == "compiler-artifact" and exe and m.get("profile", {}).get("test"):
        name = m["target"]["name"] + "-" + m["target"]["kind"][0]
        if wanted and name not in wanted:
            continue
        if name.endswith("-bin") or name in ("rocmath-lib", "rocmath_bench-lib", "rocmath_kernels-lib", "rocmath_solver-lib", "rocmath_sparse-lib", "rocmath_tests-lib", "rocmath_tuning-lib"):
            continue
        shutil.copy(exe, os.path.join(".carry/tests", name))
'
strip .carry/rocmath-bench .carry/rocmath-tune .carry/tests/* 2>/dev/null || true
du -sh .carry; ls .carry/tests
