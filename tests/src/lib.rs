//! Shared helpers for rocmath integration tests.
