//! rocmath-blas (being written)
