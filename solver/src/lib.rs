//! rocmath-solver: LAPACK-style dense solvers (rocSOLVER-shaped). Not implemented yet: this crate
//! is an empty placeholder in the workspace layout, and exports nothing.
