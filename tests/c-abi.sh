#!/usr/bin/env bash
# C ABI tests, run as a ROCm user would build against the headers:
#   - librocblas.so (rocmath-capi): tests/c/gemm_test.c against capi/include/rocblas/rocblas.h;
#   - librocfft.so (rocmath-capi-fft): tests/c/fft_test.c against capi/include/rocfft/rocfft.h.
# For each: the library exports exactly the functions its header declares, the header compiles as
# C++ and its extern "C" guards link, and the C test passes on the CPU device.
# Exits non-zero if anything fails. Run from anywhere; it works from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
CC="${CC:-gcc}"
CXX="${CXX:-g++}"
# Where cargo puts the libraries (CARGO_TARGET_DIR if set, as cargo itself does).
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
LIB="$TARGET/release"
mkdir -p "$TARGET"

# ---------------------------------------------------------------------------------------------
# rocBLAS
# ---------------------------------------------------------------------------------------------
# Both libraries, in a build of the workspace as `cargo test --workspace --release` resolves it
# (`--tests`: the dev-dependencies' features too), so that after the tests it only links them; a
# build of one package resolves other features and rebuilds their dependencies (a minute on 2 cores).
echo "== cargo build --release --workspace --lib --tests"
cargo build --release --workspace --lib --tests

echo "== every function rocblas.h declares is exported, and nothing else named rocblas_*"
grep '^ROCBLAS_EXPORT' capi/include/rocblas/rocblas.h | grep -oE 'rocblas_[a-z0-9_]+\(' | tr -d '(' | sort > "$TARGET/c-abi-declared.txt"
nm -D --defined-only "$LIB/librocblas.so" | awk '{print $3}' | grep '^rocblas_' | sort > "$TARGET/c-abi-exported.txt"
diff "$TARGET/c-abi-declared.txt" "$TARGET/c-abi-exported.txt"
echo "$(wc -l < "$TARGET/c-abi-declared.txt") functions"

echo "== rocblas.h compiles as C++ (g++ -fsyntax-only), and its extern \"C\" guards link"
cat > "$TARGET/c-abi-header.cpp" <<'CPP'
#include <rocblas/rocblas.h>
#include <cstring>
int main()
{
    // Links only if the declarations have C linkage (unmangled names).
    return std::strcmp(rocblas_status_to_string(rocblas_status_success), "rocblas_status_success") != 0;
}
CPP
"$CXX" -std=c++11 -Wall -Wextra -Werror -pedantic -I capi/include -fsyntax-only "$TARGET/c-abi-header.cpp"
"$CXX" -std=c++11 -Wall -Wextra -Werror -pedantic -I capi/include "$TARGET/c-abi-header.cpp" \
    -L "$LIB" -lrocblas -Wl,-rpath,"$LIB" -o "$TARGET/c-abi-header-cxx"
"$TARGET/c-abi-header-cxx"

echo "== compile tests/c/gemm_test.c"
"$CC" -std=c99 -Wall -Wextra -Werror -pedantic -I capi/include tests/c/gemm_test.c \
    -L "$LIB" -lrocblas -Wl,-rpath,"$LIB" -lm -o "$TARGET/c-abi-gemm-test"

echo "== run (ROCMATH_DEVICE=cpu)"
ROCMATH_DEVICE=cpu "$TARGET/c-abi-gemm-test"

# ---------------------------------------------------------------------------------------------
# rocFFT
# ---------------------------------------------------------------------------------------------
echo "== every function rocfft.h declares is exported, and nothing else named rocfft_*"
# The preprocessed header (comments and disabled blocks gone) names each function once, followed
# by its parameter list; type names are never followed by '('.
"$CC" -E -P -x c -I capi/include capi/include/rocfft/rocfft.h | tr '\n' ' ' \
    | grep -oE '\brocfft_[a-z0-9_]+ *\(' | tr -d '( ' | sort -u > "$TARGET/c-abi-fft-declared.txt"
nm -D --defined-only "$LIB/librocfft.so" | awk '{print $3}' | grep '^rocfft_' | sort > "$TARGET/c-abi-fft-exported.txt"
diff "$TARGET/c-abi-fft-declared.txt" "$TARGET/c-abi-fft-exported.txt"
echo "$(wc -l < "$TARGET/c-abi-fft-declared.txt") functions"

echo "== rocfft.h compiles as C99 and C++11, and its extern \"C\" guards link"
printf '#include <rocfft/rocfft.h>\nint main(void) { return rocfft_setup() != rocfft_status_success; }\n' > "$TARGET/c-abi-fft-header.c"
"$CC" -std=c99 -Wall -Wextra -Werror -pedantic -I capi/include -fsyntax-only "$TARGET/c-abi-fft-header.c"
cat > "$TARGET/c-abi-fft-header.cpp" <<'CPP'
#include <rocfft/rocfft.h>
#include <cstring>
int main()
{
    // Links only if the declarations have C linkage (unmangled names).
    char buf[32];
    if(rocfft_get_version_string(buf, sizeof buf) != rocfft_status_success)
        return 1;
    return std::strncmp(buf, "rocmath-fft ", 12) != 0;
}
CPP
"$CXX" -std=c++11 -Wall -Wextra -Werror -pedantic -I capi/include -fsyntax-only "$TARGET/c-abi-fft-header.cpp"
"$CXX" -std=c++11 -Wall -Wextra -Werror -pedantic -I capi/include "$TARGET/c-abi-fft-header.cpp" \
    -L "$LIB" -lrocfft -Wl,-rpath,"$LIB" -o "$TARGET/c-abi-fft-header-cxx"
"$TARGET/c-abi-fft-header-cxx"

echo "== compile tests/c/fft_test.c"
"$CC" -std=c99 -Wall -Wextra -Werror -pedantic -I capi/include tests/c/fft_test.c \
    -L "$LIB" -lrocfft -Wl,-rpath,"$LIB" -lm -o "$TARGET/c-abi-fft-test"

echo "== run (ROCMATH_DEVICE=cpu)"
ROCMATH_DEVICE=cpu "$TARGET/c-abi-fft-test"
