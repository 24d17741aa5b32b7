//! One compile through a run-time compiler library. nvrtc and hiprtc have the same calls with the
//! same shapes (an opaque program handle, an int status); only the names, the flags and the
//! output differ, so each driver fills in [`RtcCalls`] and the program's life is written once.
use crate::{Error, Result};
use std::ffi::{c_char, c_int, c_void, CString};

type Program = *mut c_void;

/// A run-time compiler's entry points, each with the name its errors are reported under.
pub(crate) struct RtcCalls<'a> {
    pub create: unsafe extern "C" fn(*mut Program, *const c_char, *const c_char, c_int, *const *const c_char, *const *const c_char) -> c_int,
    pub compile: unsafe extern "C" fn(Program, c_int, *const *const c_char) -> c_int,
    pub log_size: unsafe extern "C" fn(Program, *mut usize) -> c_int,
    pub log: unsafe extern "C" fn(Program, *mut c_char) -> c_int,
    /// The compiled image (cubin, code object): its size, then its bytes.
    pub code_size: unsafe extern "C" fn(Program, *mut usize) -> c_int,
    pub code: unsafe extern "C" fn(Program, *mut c_char) -> c_int,
    pub destroy: unsafe extern "C" fn(*mut Program) -> c_int,
    /// Names of `create`, `code_size` and `code` in errors.
    pub names: [&'static str; 3],
    /// The library's status check: a non-zero status of the named call as an error.
    pub check: &'a dyn Fn(&'static str, c_int) -> Result<()>,
}

/// The image of `source` compiled as file `file` with `flags` (the compiler's own: arch,
/// language) then the caller's `options`. A failed compile is `Error::Compile` with the log.
pub(crate) fn compile(calls: &RtcCalls, module: &str, file: &str, source: &str, arch: &str, flags: &[&str], options: &[String]) -> Result<Vec<u8>> {
    let bad = |what: &str| Error::InvalidArgument { name: "source", reason: format!("{what} contains NUL") };
    let src = CString::new(source).map_err(|_| bad("source"))?;
    let name = CString::new(file).map_err(|_| bad("module name"))?;
    let opts = flags.iter().copied().chain(options.iter().map(String::as_str)).map(|o| CString::new(o).map_err(|_| bad("option"))).collect::<Result<Vec<CString>>>()?;
    let opt_ptrs: Vec<*const c_char> = opts.iter().map(|o| o.as_ptr()).collect();
    let [create_name, size_name, code_name] = calls.names;
    let mut prog: Program = std::ptr::null_mut();
    // SAFETY: all strings are NUL-terminated and outlive the program; the program is destroyed
    // on every path below.
    unsafe {
        (calls.check)(create_name, (calls.create)(&mut prog, src.as_ptr(), name.as_ptr(), 0, std::ptr::null(), std::ptr::null()))?;
        let compiled = (calls.compile)(prog, opt_ptrs.len() as c_int, opt_ptrs.as_ptr());
        let result = if compiled != 0 {
            let mut size = 0usize;
            (calls.log_size)(prog, &mut size);
            let mut log = vec![0u8; size.max(1)];
            (calls.log)(prog, log.as_mut_ptr() as *mut c_char);
            let log = String::from_utf8_lossy(&log).trim_end_matches('\0').to_string();
            Err(Error::Compile { module: module.to_string(), arch: arch.to_string(), log })
        } else {
            let mut size = 0usize;
            (calls.check)(size_name, (calls.code_size)(prog, &mut size)).and_then(|_| {
                let mut image = vec![0u8; size];
                (calls.check)(code_name, (calls.code)(prog, image.as_mut_ptr() as *mut c_char)).map(|_| image)
            })
        };
        (calls.destroy)(&mut prog);
        result
    }
}
