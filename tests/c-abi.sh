#!/usr/bin/env bash
# C ABI test: builds librocblas.so (rocmath-capi), compiles tests/c/gemm_test.c against
# capi/include/rocblas/rocblas.h as a ROCm user would, and runs it on the CPU device.
# Exits non-zero if anything fails. Run from anywhere; it works from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
CC="${CC:-gcc}"
CXX="${CXX:-g++}"

echo "== cargo build --release -p rocmath-capi"
cargo build --release -p rocmath-capi

echo "== every function the header declares is exported, and nothing else named rocblas_*"
grep '^ROCBLAS_EXPORT' capi/include/rocblas/rocblas.h | grep -oE 'rocblas_[a-z0-9_]+\(' | tr -d '(' | sort > target/c-abi-declared.txt
nm -D --defined-only target/release/librocblas.so | awk '{print $3}' | grep '^rocblas_' | sort > target/c-abi-exported.txt
diff target/c-abi-declared.txt target/c-abi-exported.txt
echo "$(wc -l < target/c-abi-declared.txt) functions"

echo "== header compiles as C++ (g++ -fsyntax-only), and its extern \"C\" guards link"
cat > target/c-abi-header.cpp <<'CPP'
#include <rocblas/rocblas.h>
#include <cstring>
int main()
{
    // Links only if the declarations have C linkage (unmangled names).
    return std::strcmp(rocblas_status_to_string(rocblas_status_success), "rocblas_status_success") != 0;
}
CPP
"$CXX" -std=c++11 -Wall -Wextra -Werror -pedantic -I capi/include -fsyntax-only target/c-abi-header.cpp
"$CXX" -std=c++11 -Wall -Wextra -Werror -pedantic -I capi/include target/c-abi-header.cpp \
    -L target/release -lrocblas -Wl,-rpath,"$ROOT/target/release" -o target/c-abi-header-cxx
./target/c-abi-header-cxx

echo "== compile tests/c/gemm_test.c"
"$CC" -std=c99 -Wall -Wextra -Werror -pedantic -I capi/include tests/c/gemm_test.c \
    -L target/release -lrocblas -Wl,-rpath,"$ROOT/target/release" -lm -o target/c-abi-gemm-test

echo "== run (ROCMATH_DEVICE=cpu)"
ROCMATH_DEVICE=cpu ./target/c-abi-gemm-test
