//! The library half of rocmath-bench: the GEMM problem, inputs, reference check and event timing
//! that rocmath-bench and rocmath-tune share ([`gemm`]), and the tuner's logic ([`tune`]).
pub mod gemm;
pub mod tune;
