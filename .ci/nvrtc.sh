#!/usr/bin/env bash
# Prints a CUDA_HOME under which nvrtc 13.0 (NVIDIA's wheel from PyPI: the compiler library
# only, no GPU driver) is found, installing it there first if needed. rocmath-aot compiles the
# ahead-of-time kernel cache with it on machines without a CUDA toolkit (this one, CI).
set -euo pipefail
root="${ROCMATH_NVRTC_DIR:-$HOME/.cache/rocmath-nvrtc}"
if [ ! -e "$root/nvidia/cu13/lib/libnvrtc.so.13" ]; then
    python3 -m pip install -q --disable-pip-version-check --target "$root" --no-deps "nvidia-cuda-nvrtc==13.0.*" >&2
fi
echo "$root/nvidia/cu13"
