//! rocmath-sparse: sparse BLAS (rocSPARSE-shaped). Not implemented yet: this crate is an empty
//! placeholder in the workspace layout, and exports nothing.
