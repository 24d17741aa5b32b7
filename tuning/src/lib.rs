//! rocmath-tuning: tuning-table format, loader, selection and the tuner. Not implemented yet (the
//! GEMM engine issue builds it); until then every op uses its fallback kernel. Exports nothing.
