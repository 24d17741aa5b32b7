//! The library half of rocmath-bench: the GEMM problem, inputs, reference check and event timing
//! that rocmath-bench and rocmath-tune share ([`gemm`]), and the tuner's logic ([`tune`]); for
//! `rocmath-bench fft`, the case and its checking ([`fft`]) and the CPU peers RustFFT
//! ([`rustfft_peer`]) and FFTW ([`fftw`]).
pub mod fft;
pub mod fftw;
pub mod gemm;
pub mod rustfft_peer;
pub mod tune;
