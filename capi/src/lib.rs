//! librocblas.so (being written)
