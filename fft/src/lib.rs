//! rocmath-fft: batched 1D/2D/3D FFT plans (rocFFT-shaped). Not implemented yet: this crate is an
//! empty placeholder in the workspace layout, and exports nothing.
