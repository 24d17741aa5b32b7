//! rocmath-kernels (being written)
