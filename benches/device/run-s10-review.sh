# Tenth session, second review (H100, ROCMATH_REQUIRE_GPU=1): the GEMM and FFT GPU tests that load modules, after the module tables moved into the runtime. Output: s10-review2-tests.txt
export ROCMATH_CACHE_DIR=/tmp/rmc ROCMATH_REQUIRE_GPU=1
for t in cluster_kernels interleaved_pointers_one_scalar_into_a_pair layouts_in_double_and_half large_batches_and_transforms; do
  timeout 300 .carry/tests/fft-test --exact $t 2>&1 | grep -E "^test |test result|panicked"
done
timeout 200 .carry/tests/gemm-test 2>&1 | grep -E "^test |test result|panicked"
timeout 120 .carry/tests/gemm_i8_xf32-test 2>&1 | grep -E "^test |test result|panicked"
timeout 100 .carry/rocmath-bench fft --precision single --type c2c --length 4099 --batch 64 --device cuda 2>&1 | grep -E "plan:|check"
