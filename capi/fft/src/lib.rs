//! librocfft: rocmath's FFT behind the C ABI of ROCm's rocFFT.
//!
//! The C declarations are in `capi/include/rocfft/rocfft.h`; every function here has exactly the
//! signature declared there, and every function that header declares is here, so a program
//! written for rocFFT links unchanged. Rules every entry point follows:
//!
//! - Enumerations arrive as raw `i32` (a C caller can pass any int; a Rust enum holding an
//!   undeclared value is undefined behaviour).
//! - The body runs under [`std::panic::catch_unwind`]: a panic becomes `rocfft_status_failure`
//!   (what rocFFT returns for an exception) instead of unwinding into C.
//! - Null pointers are checked before anything is read or written. rocFFT dereferences most of
//!   them unchecked; where it has a rule we follow it (a null plan is `failure`, a null info in
//!   the setters and a null out-pointer of a query are `invalid_arg_value`), and every other null
//!   handle or pointer is `invalid_arg_value` too.
//! - A call that fails writes nothing: no out-parameter (rocFFT itself allocates `*plan` before
//!   validating and leaves it set on failure; it does not document that, and we do not do it), no
//!   handle state, no data.
//!
//! Plans are created on the default device, [`Device::from_env`] (`ROCMATH_DEVICE`, else the
//! best device present), as `rocblas_create_handle` does. `rocfft_execute` runs on the stream of
//! the execution info (0, the default stream, when none is set) with the info's work buffer when
//! one is set; on the CPU device the transform runs before the call returns and the stream is only
//! remembered.
//!
//! What rocmath does not support gets an honest status, never a silent no-op: distributed
//! transforms (fields and bricks can be built, but a plan with a field is `failure`; MPI
//! communicators are `failure`), load/store callbacks (`failure` when set), and the
//! compiled-kernel cache serialization (`failure`: rocmath's kernel cache is its own on-disk
//! cache, `ROCMATH_CACHE_DIR`).
#![allow(non_camel_case_types)]
#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::{c_char, c_int, c_void};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};

use rocmath_fft::{ArrayType, FftError, Placement, Plan, PlanDescription, Precision, Status, TransformType};
use rocmath_runtime::{Device, GpuQueue, Queue};

// ---------------------------------------------------------------------------------------------
// C types
// ---------------------------------------------------------------------------------------------

/// `rocfft_status`, as a raw int (see [`Status`] for the values).
pub type rocfft_status = c_int;
/// `rocfft_transform_type` as received from C (0..=3 are valid).
pub type rocfft_transform_type = c_int;
/// `rocfft_precision` as received from C (0..=2 are valid).
pub type rocfft_precision = c_int;
/// `rocfft_result_placement` as received from C (0 in place, 1 not in place).
pub type rocfft_result_placement = c_int;
/// `rocfft_array_type` as received from C (0..=5 are valid; 5 is "unset").
pub type rocfft_array_type = c_int;
/// `rocfft_comm_type` as received from C (0 none, 1 MPI).
pub type rocfft_comm_type = c_int;

const SUCCESS: rocfft_status = Status::Success as rocfft_status;
const FAILURE: rocfft_status = Status::Failure as rocfft_status;
const INVALID_ARG_VALUE: rocfft_status = Status::InvalidArgValue as rocfft_status;
const INVALID_DIMENSIONS: rocfft_status = Status::InvalidDimensions as rocfft_status;
const INVALID_STRIDES: rocfft_status = Status::InvalidStrides as rocfft_status;
const INVALID_WORK_BUFFER: rocfft_status = Status::InvalidWorkBuffer as rocfft_status;

const COMM_NONE: rocfft_comm_type = 0;

/// The object behind a `rocfft_plan`: a validated plan bound to its device.
pub struct rocfft_plan_t {
    plan: Plan,
}

impl rocfft_plan_t {
    /// The Rust plan (for Rust code that shares plans with C callers).
    pub fn plan(&self) -> &Plan {
        &self.plan
    }
}

/// What `rocfft_plan_description_set_data_layout` recorded, as received: the array types stay
/// raw ints until a plan is created, where rocFFT checks them.
#[derive(Clone, Debug, Default)]
struct RawLayout {
    in_array_type: rocfft_array_type,
    out_array_type: rocfft_array_type,
    in_offsets: [usize; 2],
    out_offsets: [usize; 2],
    in_strides: Vec<usize>,
    in_distance: usize,
    out_strides: Vec<usize>,
    out_distance: usize,
}

/// The object behind a `rocfft_plan_description`.
#[derive(Default)]
pub struct rocfft_plan_description_t {
    /// The scale factor (checked when set).
    desc: PlanDescription,
    layout: Option<RawLayout>,
    in_fields: Vec<rocfft_field_t>,
    out_fields: Vec<rocfft_field_t>,
}

/// The object behind a `rocfft_execution_info`.
#[derive(Default)]
pub struct rocfft_execution_info_t {
    work: Option<(usize, usize)>,
    stream: usize,
}

/// The object behind a `rocfft_field`: bricks in the order they were added.
#[derive(Clone, Default)]
pub struct rocfft_field_t {
    bricks: Vec<rocfft_brick_t>,
}

/// The object behind a `rocfft_brick`: a box of the field's index space (batch dimension
/// included) and its strides, on one device.
#[derive(Clone)]
pub struct rocfft_brick_t {
    lower: Vec<usize>,
    upper: Vec<usize>,
    stride: Vec<usize>,
    device: c_int,
}

impl rocfft_field_t {
    /// The bricks, in the order they were added.
    pub fn bricks(&self) -> &[rocfft_brick_t] {
        &self.bricks
    }
}

impl rocfft_brick_t {
    /// Lower corner (inclusive), fastest dimension first, batch last.
    pub fn lower(&self) -> &[usize] {
        &self.lower
    }
    /// Upper corner (exclusive).
    pub fn upper(&self) -> &[usize] {
        &self.upper
    }
    /// Strides of the brick's data in memory.
    pub fn stride(&self) -> &[usize] {
        &self.stride
    }
    /// The device the brick's data lives on.
    pub fn device(&self) -> c_int {
        self.device
    }
}

/// `rocfft_plan`.
pub type rocfft_plan = *mut rocfft_plan_t;
/// `rocfft_plan_description`.
pub type rocfft_plan_description = *mut rocfft_plan_description_t;
/// `rocfft_execution_info`.
pub type rocfft_execution_info = *mut rocfft_execution_info_t;
/// `rocfft_field`.
pub type rocfft_field = *mut rocfft_field_t;
/// `rocfft_brick`.
pub type rocfft_brick = *mut rocfft_brick_t;

/// Runs `body`, turning a panic into `rocfft_status_failure`.
fn guard(body: impl FnOnce() -> rocfft_status) -> rocfft_status {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(FAILURE)
}

fn to_status(r: Result<(), FftError>) -> rocfft_status {
    match r {
        Ok(()) => SUCCESS,
        Err(e) => e.status as rocfft_status,
    }
}

/// Moves `value` to the heap and writes the handle to `*out` (checked non-null by the caller).
///
/// # Safety
/// `out` must be valid for writing one pointer.
unsafe fn hand_out<T>(out: *mut *mut T, value: T) {
    // SAFETY: the caller guarantees `out` is writable.
    unsafe { out.write(Box::into_raw(Box::new(value))) };
}

/// Frees a handle made by [`hand_out`]; null is a no-op (as `delete nullptr` in rocFFT).
///
/// # Safety
/// `ptr` must be null or a live handle from [`hand_out`] of the same type.
unsafe fn free<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: the caller guarantees this is a live Box-made handle, freed once.
        drop(unsafe { Box::from_raw(ptr) });
    }
}

// ---------------------------------------------------------------------------------------------
// Library setup and version
// ---------------------------------------------------------------------------------------------

/// `rocfft_setup`. Nothing needs setting up (devices open when a plan is created); always
/// succeeds, any number of times.
#[no_mangle]
pub extern "C" fn rocfft_setup() -> rocfft_status {
    SUCCESS
}

/// `rocfft_cleanup`. Nothing to release (plans own their resources); always succeeds.
#[no_mangle]
pub extern "C" fn rocfft_cleanup() -> rocfft_status {
    SUCCESS
}

/// The text `rocfft_get_version_string` writes, NUL-terminated.
const VERSION: &str = concat!("rocmath-fft ", env!("CARGO_PKG_VERSION"), "\0");

/// `rocfft_get_version_string`: writes `"rocmath-fft <version>"` and its NUL. As rocFFT: a null
/// `buf` is `failure`; a `len` shorter than the text plus its NUL is `invalid_arg_value` and
/// nothing is written (the header's "at least 30" is the size that always suffices).
///
/// # Safety
/// `buf` must be null or valid for writing `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn rocfft_get_version_string(buf: *mut c_char, len: usize) -> rocfft_status {
    guard(|| {
        if buf.is_null() {
            return FAILURE;
        }
        if len < VERSION.len() {
            return INVALID_ARG_VALUE;
        }
        // SAFETY: `buf` holds at least `len >= VERSION.len()` writable bytes.
        unsafe { std::ptr::copy_nonoverlapping(VERSION.as_ptr(), buf.cast::<u8>(), VERSION.len()) };
        SUCCESS
    })
}

// ---------------------------------------------------------------------------------------------
// Plan descriptions
// ---------------------------------------------------------------------------------------------

/// `rocfft_plan_description_create`: a description with scale 1 and default layouts. A null
/// `description` is `invalid_arg_value`.
///
/// # Safety
/// `description` must be null or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn rocfft_plan_description_create(description: *mut rocfft_plan_description) -> rocfft_status {
    guard(|| {
        if description.is_null() {
            return INVALID_ARG_VALUE;
        }
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { hand_out(description, rocfft_plan_description_t::default()) };
        SUCCESS
    })
}

/// `rocfft_plan_description_destroy`; null is a no-op that succeeds (as rocFFT).
///
/// # Safety
/// `description` must be null or a live description, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn rocfft_plan_description_destroy(description: rocfft_plan_description) -> rocfft_status {
    // SAFETY: as documented.
    guard(|| unsafe {
        free(description);
        SUCCESS
    })
}

/// `rocfft_plan_description_set_scale_factor`: a non-finite factor is `invalid_arg_value` and
/// leaves the factor as it was (as rocFFT); a null description is `invalid_arg_value`.
///
/// # Safety
/// `description` must be null or a live description.
#[no_mangle]
pub unsafe extern "C" fn rocfft_plan_description_set_scale_factor(description: rocfft_plan_description, scale_factor: f64) -> rocfft_status {
    guard(|| {
        // SAFETY: null or a live description.
        let Some(d) = (unsafe { description.as_mut() }) else { return INVALID_ARG_VALUE };
        to_status(d.desc.set_scale_factor(scale_factor))
    })
}

/// Most strides read from a `set_data_layout` array: a transform has at most 3 dimensions, so a
/// longer array fails plan creation whatever its values (as rocFFT, `invalid_strides`).
const MAX_STRIDES_READ: usize = 4;

/// `rocfft_plan_description_set_data_layout`. As rocFFT, each call replaces the whole layout and
/// nothing but the description pointer is checked here: array types, stride counts and values
/// are checked when a plan is created. Null offsets are zeros; a null strides array (or a size of
/// 0) is the default layout; a zero distance is the default distance. `offsets[1]` is read only
/// for planar array types. A null description is `invalid_arg_value`.
///
/// # Safety
/// `description` must be null or a live description; non-null offsets hold 1 value (2 for a
/// planar array type), non-null strides `*_strides_size` values.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rocfft_plan_description_set_data_layout(
    description: rocfft_plan_description,
    in_array_type: rocfft_array_type,
    out_array_type: rocfft_array_type,
    in_offsets: *const usize,
    out_offsets: *const usize,
    in_strides_size: usize,
    in_strides: *const usize,
    in_distance: usize,
    out_strides_size: usize,
    out_strides: *const usize,
    out_distance: usize,
) -> rocfft_status {
    guard(|| {
        // SAFETY: null or a live description.
        let Some(d) = (unsafe { description.as_mut() }) else { return INVALID_ARG_VALUE };
        let planar = |t: rocfft_array_type| ArrayType::from_raw(t).is_some_and(ArrayType::is_planar);
        // SAFETY (both closures): the caller guarantees the arrays' sizes, as documented.
        let offsets = |p: *const usize, t: rocfft_array_type| -> [usize; 2] {
            if p.is_null() {
                return [0, 0];
            }
            unsafe { [p.read(), if planar(t) { p.add(1).read() } else { 0 }] }
        };
        let strides = |p: *const usize, n: usize| -> Vec<usize> {
            if p.is_null() {
                return Vec::new();
            }
            unsafe { std::slice::from_raw_parts(p, n.min(MAX_STRIDES_READ)) }.to_vec()
        };
        d.layout = Some(RawLayout {
            in_array_type,
            out_array_type,
            in_offsets: offsets(in_offsets, in_array_type),
            out_offsets: offsets(out_offsets, out_array_type),
            in_strides: strides(in_strides, in_strides_size),
            in_distance,
            out_strides: strides(out_strides, out_strides_size),
            out_distance,
        });
        SUCCESS
    })
}

/// `rocfft_plan_description_set_comm`. rocmath has no distributed transforms (this is rocFFT
/// built without MPI): `rocfft_comm_none` succeeds; any other type is `failure`, after rocFFT's
/// check that a communicator type other than none comes with a non-null handle
/// (`invalid_arg_value`). A null description is `invalid_arg_value`.
///
/// # Safety
/// `description` must be null or a live description.
#[no_mangle]
pub unsafe extern "C" fn rocfft_plan_description_set_comm(
    description: rocfft_plan_description,
    comm_type: rocfft_comm_type,
    comm_handle: *mut c_void,
) -> rocfft_status {
    guard(|| {
        if description.is_null() {
            return INVALID_ARG_VALUE;
        }
        if comm_type != COMM_NONE && comm_handle.is_null() {
            return INVALID_ARG_VALUE;
        }
        if comm_type == COMM_NONE {
            SUCCESS
        } else {
            FAILURE
        }
    })
}

/// `rocfft_plan_description_add_infield`: records a copy of `field` (it may be destroyed
/// afterwards). Null arguments are `invalid_arg_value` (as rocFFT). A plan created from a
/// description with a field is `failure`: rocmath has no distributed transforms.
///
/// # Safety
/// Each argument must be null or a live object of its type.
#[no_mangle]
pub unsafe extern "C" fn rocfft_plan_description_add_infield(description: rocfft_plan_description, field: rocfft_field) -> rocfft_status {
    // SAFETY: as documented.
    guard(|| unsafe { add_field(description, field, true) })
}

/// `rocfft_plan_description_add_outfield`: as [`rocfft_plan_description_add_infield`], for the
/// output.
///
/// # Safety
/// Each argument must be null or a live object of its type.
#[no_mangle]
pub unsafe extern "C" fn rocfft_plan_description_add_outfield(description: rocfft_plan_description, field: rocfft_field) -> rocfft_status {
    // SAFETY: as documented.
    guard(|| unsafe { add_field(description, field, false) })
}

/// # Safety
/// Each argument must be null or a live object of its type.
unsafe fn add_field(description: rocfft_plan_description, field: rocfft_field, input: bool) -> rocfft_status {
    // SAFETY: null or live objects.
    let (Some(d), Some(f)) = (unsafe { description.as_mut() }, unsafe { field.as_ref() }) else {
        return INVALID_ARG_VALUE;
    };
    if input { &mut d.in_fields } else { &mut d.out_fields }.push(f.clone());
    SUCCESS
}

// ---------------------------------------------------------------------------------------------
// Fields and bricks (recorded; plans with fields are not supported)
// ---------------------------------------------------------------------------------------------

/// `rocfft_field_create`: an empty field. A null `field` is `invalid_arg_value`.
///
/// # Safety
/// `field` must be null or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn rocfft_field_create(field: *mut rocfft_field) -> rocfft_status {
    guard(|| {
        if field.is_null() {
            return INVALID_ARG_VALUE;
        }
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { hand_out(field, rocfft_field_t::default()) };
        SUCCESS
    })
}

/// `rocfft_field_destroy`; null is a no-op that succeeds.
///
/// # Safety
/// `field` must be null or a live field, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn rocfft_field_destroy(field: rocfft_field) -> rocfft_status {
    // SAFETY: as documented.
    guard(|| unsafe {
        free(field);
        SUCCESS
    })
}

/// `rocfft_brick_create`, with rocFFT's checks in its order: a null `brick` is
/// `invalid_arg_value`; `dim_with_batch` outside 2..=4 (1 to 3 lengths plus the batch) is
/// `invalid_dimensions`; a null array is `invalid_arg_value`; a lower bound above its upper
/// bound is `failure` (rocFFT throws there).
///
/// # Safety
/// `brick` must be null or valid for writing one pointer; non-null arrays hold `dim_with_batch`
/// values.
#[no_mangle]
pub unsafe extern "C" fn rocfft_brick_create(
    brick: *mut rocfft_brick,
    field_lower: *const usize,
    field_upper: *const usize,
    brick_stride: *const usize,
    dim_with_batch: usize,
    device_id: c_int,
) -> rocfft_status {
    guard(|| {
        if brick.is_null() {
            return INVALID_ARG_VALUE;
        }
        if !(2..=4).contains(&dim_with_batch) {
            return INVALID_DIMENSIONS;
        }
        if field_lower.is_null() || field_upper.is_null() || brick_stride.is_null() {
            return INVALID_ARG_VALUE;
        }
        // SAFETY: non-null, `dim_with_batch` values each (the caller's guarantee).
        let read = |p: *const usize| unsafe { std::slice::from_raw_parts(p, dim_with_batch) }.to_vec();
        let (lower, upper, stride) = (read(field_lower), read(field_upper), read(brick_stride));
        if lower.iter().zip(&upper).any(|(l, u)| l > u) {
            return FAILURE;
        }
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { hand_out(brick, rocfft_brick_t { lower, upper, stride, device: device_id }) };
        SUCCESS
    })
}

/// `rocfft_brick_destroy`; null is a no-op that succeeds.
///
/// # Safety
/// `brick` must be null or a live brick, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn rocfft_brick_destroy(brick: rocfft_brick) -> rocfft_status {
    // SAFETY: as documented.
    guard(|| unsafe {
        free(brick);
        SUCCESS
    })
}

/// `rocfft_field_add_brick`: appends a copy of `brick`. Null arguments are `invalid_arg_value`;
/// a brick with another dimension count than the field's bricks is `failure` (as rocFFT).
///
/// # Safety
/// Each argument must be null or a live object of its type.
#[no_mangle]
pub unsafe extern "C" fn rocfft_field_add_brick(field: rocfft_field, brick: rocfft_brick) -> rocfft_status {
    guard(|| {
        // SAFETY: null or live objects.
        let (Some(f), Some(b)) = (unsafe { field.as_mut() }, unsafe { brick.as_ref() }) else {
            return INVALID_ARG_VALUE;
        };
        if f.bricks.first().is_some_and(|first| first.lower.len() != b.lower.len()) {
            return FAILURE;
        }
        f.bricks.push(b.clone());
        SUCCESS
    })
}

// ---------------------------------------------------------------------------------------------
// Plans
// ---------------------------------------------------------------------------------------------

/// An array type outside the enum fails rocFFT's domain check for its side (it is neither
/// complex, real nor hermitian); this valid type fails that same check at the same point.
fn unfit_array_type(raw: rocfft_array_type, domain_is_real: bool) -> ArrayType {
    ArrayType::from_raw(raw).unwrap_or(if domain_is_real { ArrayType::ComplexInterleaved } else { ArrayType::Real })
}

/// `rocfft_plan_create`. Checks, in order (rocFFT's order where rocFFT has the check):
///
/// 1. `plan` or `lengths` null: `invalid_arg_value` (rocFFT dereferences both).
/// 2. `dimensions` 0 or above 3: `invalid_dimensions`.
/// 3. `placement` or `precision` outside its enum: `invalid_arg_value` (undefined in rocFFT).
/// 4. A description with a field, or a transform type outside its enum: `failure` (rocFFT
///    fails there too: no distributed transforms here; its builder throws on an unknown type),
///    after the stride-count check of 5, which rocFFT makes first.
/// 5. The checks of [`Plan::new`] (stride counts `invalid_strides`; array types, an array type
///    outside its enum included, `invalid_array_type`; zero lengths or transforms, and in-place
///    layout mismatches, `failure`; overlapping outputs `invalid_strides` / `invalid_distance`).
/// 6. The default device cannot be opened: `failure`.
///
/// On success `*plan` is the new plan; on failure it is not written.
///
/// # Safety
/// `plan` must be null or valid for writing one pointer; `lengths` null or `dimensions` values;
/// `description` null or a live description.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rocfft_plan_create(
    plan: *mut rocfft_plan,
    placement: rocfft_result_placement,
    transform_type: rocfft_transform_type,
    precision: rocfft_precision,
    dimensions: usize,
    lengths: *const usize,
    number_of_transforms: usize,
    description: rocfft_plan_description,
) -> rocfft_status {
    guard(|| {
        if plan.is_null() || lengths.is_null() {
            return INVALID_ARG_VALUE;
        }
        if !(1..=3).contains(&dimensions) {
            return INVALID_DIMENSIONS;
        }
        let (Some(placement), Some(precision)) = (Placement::from_raw(placement), Precision::from_raw(precision)) else {
            return INVALID_ARG_VALUE;
        };
        // SAFETY: non-null, `dimensions` values (the caller's guarantee).
        let lengths = unsafe { std::slice::from_raw_parts(lengths, dimensions) };
        // SAFETY: null or a live description.
        let d = unsafe { description.as_ref() };
        let layout = d.and_then(|d| d.layout.as_ref());
        let transform = TransformType::from_raw(transform_type);
        if transform.is_none() || d.is_some_and(|d| !d.in_fields.is_empty() || !d.out_fields.is_empty()) {
            let counts = layout.map_or([0, 0], |l| [l.in_strides.len(), l.out_strides.len()]);
            if counts.iter().any(|&n| n != 0 && n != dimensions) {
                return INVALID_STRIDES;
            }
            return FAILURE;
        }
        let Some(transform) = transform else { return FAILURE };
        let mut desc = d.map(|d| d.desc.clone()).unwrap_or_default();
        if let Some(l) = layout {
            let (in_real, out_real) = match transform {
                TransformType::RealForward => (true, false),
                TransformType::RealInverse => (false, true),
                _ => (false, false),
            };
            let r = desc.set_data_layout(
                unfit_array_type(l.in_array_type, in_real),
                unfit_array_type(l.out_array_type, out_real),
                &l.in_offsets,
                &l.out_offsets,
                &l.in_strides,
                l.in_distance,
                &l.out_strides,
                l.out_distance,
            );
            if let Err(e) = r {
                return e.status as rocfft_status;
            }
        }
        let device = match Device::from_env() {
            Ok(device) => device,
            Err(e) => {
                eprintln!("rocfft_plan_create: {e}");
                return FAILURE;
            }
        };
        match Plan::new(&device, placement, transform, precision, lengths, number_of_transforms, Some(&desc)) {
            Ok(p) => {
                // SAFETY: checked non-null; the caller guarantees it is writable.
                unsafe { hand_out(plan, rocfft_plan_t { plan: p }) };
                SUCCESS
            }
            Err(e) => e.status as rocfft_status,
        }
    })
}

/// `rocfft_plan_destroy`; null is a no-op that succeeds (as rocFFT).
///
/// # Safety
/// `plan` must be null or a live plan, not used afterwards (nor by work still queued on a GPU).
#[no_mangle]
pub unsafe extern "C" fn rocfft_plan_destroy(plan: rocfft_plan) -> rocfft_status {
    // SAFETY: as documented.
    guard(|| unsafe {
        free(plan);
        SUCCESS
    })
}

/// `rocfft_plan_get_work_buffer_size`: the bytes of scratch an execution needs (0 on the CPU).
/// As rocFFT: a null plan is `failure`, a null `size_in_bytes` `invalid_arg_value`.
///
/// # Safety
/// `plan` must be null or a live plan; `size_in_bytes` null or valid for writing.
#[no_mangle]
pub unsafe extern "C" fn rocfft_plan_get_work_buffer_size(plan: rocfft_plan, size_in_bytes: *mut usize) -> rocfft_status {
    guard(|| {
        // SAFETY: null or a live plan.
        let Some(p) = (unsafe { plan.as_ref() }) else { return FAILURE };
        if size_in_bytes.is_null() {
            return INVALID_ARG_VALUE;
        }
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { size_in_bytes.write(p.plan.work_buffer_size()) };
        SUCCESS
    })
}

/// `rocfft_plan_get_print`: prints the plan (transform, lengths, batch, layouts, device, passes)
/// to standard output. A null plan is `failure` (rocFFT's status for a null plan elsewhere).
///
/// # Safety
/// `plan` must be null or a live plan.
#[no_mangle]
pub unsafe extern "C" fn rocfft_plan_get_print(plan: rocfft_plan) -> rocfft_status {
    guard(|| {
        // SAFETY: null or a live plan.
        let Some(p) = (unsafe { plan.as_ref() }) else { return FAILURE };
        let mut out = std::io::stdout().lock();
        match writeln!(out, "{}", p.plan.describe()).and_then(|()| out.flush()) {
            Ok(()) => SUCCESS,
            Err(_) => FAILURE,
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Execution info
// ---------------------------------------------------------------------------------------------

/// `rocfft_execution_info_create`: no work buffer, the default stream. A null `info` is
/// `invalid_arg_value`.
///
/// # Safety
/// `info` must be null or valid for writing one pointer.
#[no_mangle]
pub unsafe extern "C" fn rocfft_execution_info_create(info: *mut rocfft_execution_info) -> rocfft_status {
    guard(|| {
        if info.is_null() {
            return INVALID_ARG_VALUE;
        }
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { hand_out(info, rocfft_execution_info_t::default()) };
        SUCCESS
    })
}

/// `rocfft_execution_info_destroy`; null is a no-op that succeeds.
///
/// # Safety
/// `info` must be null or a live execution info, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn rocfft_execution_info_destroy(info: rocfft_execution_info) -> rocfft_status {
    // SAFETY: as documented.
    guard(|| unsafe {
        free(info);
        SUCCESS
    })
}

/// `rocfft_execution_info_set_work_buffer`, as rocFFT: a null info is `invalid_arg_value`; a
/// null buffer with a non-zero size is `invalid_work_buffer` (the info keeps what it had); a
/// size of 0 clears the work buffer. Whether it is large enough is checked by `rocfft_execute`.
///
/// # Safety
/// `info` must be null or a live execution info; the buffer, device memory of the plan's device
/// of `size_in_bytes` bytes, must stay valid while executions use it.
#[no_mangle]
pub unsafe extern "C" fn rocfft_execution_info_set_work_buffer(info: rocfft_execution_info, work_buffer: *mut c_void, size_in_bytes: usize) -> rocfft_status {
    guard(|| {
        // SAFETY: null or a live info.
        let Some(i) = (unsafe { info.as_mut() }) else { return INVALID_ARG_VALUE };
        if size_in_bytes == 0 {
            i.work = None;
            return SUCCESS;
        }
        if work_buffer.is_null() {
            return INVALID_WORK_BUFFER;
        }
        i.work = Some((work_buffer as usize, size_in_bytes));
        SUCCESS
    })
}

/// `rocfft_execution_info_set_stream`: executions with this info run on `stream` (a
/// `hipStream_t` or `CUstream` of the plan's device; null is the default stream). On the CPU
/// device the value is only remembered. A null info is `invalid_arg_value`.
///
/// # Safety
/// `info` must be null or a live execution info; on a GPU, `stream` must stay a valid stream of
/// the plan's device while executions use it.
#[no_mangle]
pub unsafe extern "C" fn rocfft_execution_info_set_stream(info: rocfft_execution_info, stream: *mut c_void) -> rocfft_status {
    guard(|| {
        // SAFETY: null or a live info.
        let Some(i) = (unsafe { info.as_mut() }) else { return INVALID_ARG_VALUE };
        i.stream = stream as usize;
        SUCCESS
    })
}

/// `rocfft_execution_info_set_load_callback`. Callbacks are not supported: rocFFT's checks come
/// first (null info, or shared memory requested: `invalid_arg_value`); clearing (null
/// `cb_functions`) succeeds; setting one is `failure` and records nothing.
///
/// # Safety
/// `info` must be null or a live execution info.
#[no_mangle]
pub unsafe extern "C" fn rocfft_execution_info_set_load_callback(
    info: rocfft_execution_info,
    cb_functions: *mut *mut c_void,
    _cb_data: *mut *mut c_void,
    shared_mem_bytes: usize,
) -> rocfft_status {
    guard(|| callback(info, cb_functions, shared_mem_bytes))
}

/// `rocfft_execution_info_set_store_callback`: as [`rocfft_execution_info_set_load_callback`].
///
/// # Safety
/// `info` must be null or a live execution info.
#[no_mangle]
pub unsafe extern "C" fn rocfft_execution_info_set_store_callback(
    info: rocfft_execution_info,
    cb_functions: *mut *mut c_void,
    _cb_data: *mut *mut c_void,
    shared_mem_bytes: usize,
) -> rocfft_status {
    guard(|| callback(info, cb_functions, shared_mem_bytes))
}

fn callback(info: rocfft_execution_info, cb_functions: *mut *mut c_void, shared_mem_bytes: usize) -> rocfft_status {
    if info.is_null() || shared_mem_bytes != 0 {
        return INVALID_ARG_VALUE;
    }
    if cb_functions.is_null() {
        SUCCESS
    } else {
        FAILURE
    }
}

// ---------------------------------------------------------------------------------------------
// Execution
// ---------------------------------------------------------------------------------------------

/// `rocfft_execute`. `in_buffer` holds one pointer (two for planar arrays: real parts, imaginary
/// parts); so does `out_buffer`, which is ignored in place. Offsets come from the plan's layout.
///
/// Statuses: a null plan is `failure` (as rocFFT); a null `in_buffer` (or `out_buffer` out of
/// place) or a null pointer in them is `invalid_arg_value`; a work buffer set in `info` smaller
/// than the plan needs is `invalid_work_buffer` (as rocFFT). Without a work buffer the plan uses
/// its own. On a GPU the work is queued on the info's stream and the call returns; on the CPU it
/// is done when the call returns.
///
/// # Safety
/// `plan` must be null or a live plan; `info` null or a live execution info; the buffers must be
/// memory of the plan's device (host memory on the CPU) covering the plan's layouts, untouched
/// by anything else until the stream has finished the work.
#[no_mangle]
pub unsafe extern "C" fn rocfft_execute(
    plan: rocfft_plan,
    in_buffer: *mut *mut c_void,
    out_buffer: *mut *mut c_void,
    info: rocfft_execution_info,
) -> rocfft_status {
    guard(|| {
        // SAFETY: null or a live plan.
        let Some(p) = (unsafe { plan.as_ref() }) else { return FAILURE };
        let p = &p.plan;
        if in_buffer.is_null() {
            return INVALID_ARG_VALUE;
        }
        // SAFETY: the caller passes one pointer per buffer of the array type.
        let inputs = unsafe { std::slice::from_raw_parts(in_buffer, p.input_layout().array_type.buffer_count()) }.to_vec();
        let outputs = if p.placement() == Placement::InPlace {
            Vec::new()
        } else {
            if out_buffer.is_null() {
                return INVALID_ARG_VALUE;
            }
            // SAFETY: as above.
            unsafe { std::slice::from_raw_parts(out_buffer, p.output_layout().array_type.buffer_count()) }.to_vec()
        };
        // SAFETY: null or a live info.
        let info = unsafe { info.as_ref() };
        let stream = info.map_or(0, |i| i.stream);
        let work = info.and_then(|i| i.work).map(|(ptr, bytes)| (ptr as *mut c_void, bytes));
        let queue = match p.device() {
            Device::Cpu(_) => Queue::Cpu,
            // SAFETY: the caller guarantees `stream` is a stream of the plan's device (or 0).
            Device::Cuda(g) => Queue::Cuda(unsafe { GpuQueue::from_raw(g.clone(), stream) }),
            Device::Hip(g) => Queue::Hip(unsafe { GpuQueue::from_raw(g.clone(), stream) }),
        };
        // SAFETY: the caller guarantees the buffers cover the layouts on the plan's device.
        to_status(unsafe { p.execute_raw(&queue, &inputs, &outputs, work) })
    })
}

// ---------------------------------------------------------------------------------------------
// Compiled-kernel cache
// ---------------------------------------------------------------------------------------------

/// `rocfft_cache_serialize`: not supported (rocmath keeps compiled kernels in its own on-disk
/// cache, `ROCMATH_CACHE_DIR`). Null arguments are `invalid_arg_value` (as rocFFT); otherwise
/// `failure`, with nothing written.
///
/// # Safety
/// No pointer is written; any values may be passed.
#[no_mangle]
pub unsafe extern "C" fn rocfft_cache_serialize(buffer: *mut *mut c_void, buffer_len_bytes: *mut usize) -> rocfft_status {
    if buffer.is_null() || buffer_len_bytes.is_null() {
        INVALID_ARG_VALUE
    } else {
        FAILURE
    }
}

/// `rocfft_cache_buffer_free`: null succeeds (as rocFFT); any other pointer cannot have come from
/// [`rocfft_cache_serialize`] (which never hands one out) and is `invalid_arg_value`, untouched.
///
/// # Safety
/// The pointer is not dereferenced.
#[no_mangle]
pub unsafe extern "C" fn rocfft_cache_buffer_free(buffer: *mut c_void) -> rocfft_status {
    if buffer.is_null() {
        SUCCESS
    } else {
        INVALID_ARG_VALUE
    }
}

/// `rocfft_cache_deserialize`: a null buffer or zero length is `invalid_arg_value` (as rocFFT);
/// otherwise `failure` (not supported; nothing is read).
///
/// # Safety
/// The buffer is not read.
#[no_mangle]
pub unsafe extern "C" fn rocfft_cache_deserialize(buffer: *const c_void, buffer_len_bytes: usize) -> rocfft_status {
    if buffer.is_null() || buffer_len_bytes == 0 {
        INVALID_ARG_VALUE
    } else {
        FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ptr::{null, null_mut};

    const STATUS_NAMES: [&str; 9] = [
        "rocfft_status_success",
        "rocfft_status_failure",
        "rocfft_status_invalid_arg_value",
        "rocfft_status_invalid_dimensions",
        "rocfft_status_invalid_array_type",
        "rocfft_status_invalid_strides",
        "rocfft_status_invalid_distance",
        "rocfft_status_invalid_offset",
        "rocfft_status_invalid_work_buffer",
    ];

    #[test]
    fn status_numbering_is_rocffts() {
        let all = [
            Status::Success,
            Status::Failure,
            Status::InvalidArgValue,
            Status::InvalidDimensions,
            Status::InvalidArrayType,
            Status::InvalidStrides,
            Status::InvalidDistance,
            Status::InvalidOffset,
            Status::InvalidWorkBuffer,
        ];
        for (i, s) in all.into_iter().enumerate() {
            assert_eq!(s as usize, i);
            assert_eq!(s.name(), STATUS_NAMES[i]);
        }
    }

    #[test]
    fn version_string_respects_len() {
        let mut buf = [0x55u8; 64];
        unsafe {
            assert_eq!(rocfft_get_version_string(null_mut(), 64), FAILURE);
            assert_eq!(rocfft_get_version_string(buf.as_mut_ptr().cast(), VERSION.len() - 1), INVALID_ARG_VALUE);
            assert!(buf.iter().all(|&b| b == 0x55));
            assert_eq!(rocfft_get_version_string(buf.as_mut_ptr().cast(), VERSION.len()), SUCCESS);
        }
        assert_eq!(&buf[..VERSION.len()], VERSION.as_bytes());
        assert!(VERSION.len() <= 30, "the header promises 30 bytes suffice");
    }

    #[test]
    fn null_handles_everywhere() {
        let n = 8usize;
        unsafe {
            assert_eq!(rocfft_plan_create(null_mut(), 1, 0, 0, 1, &n, 1, null_mut()), INVALID_ARG_VALUE);
            let mut plan: rocfft_plan = null_mut();
            assert_eq!(rocfft_plan_create(&mut plan, 1, 0, 0, 1, null(), 1, null_mut()), INVALID_ARG_VALUE);
            assert!(plan.is_null());
            let mut size = 7usize;
            assert_eq!(rocfft_plan_get_work_buffer_size(null_mut(), &mut size), FAILURE);
            assert_eq!(size, 7);
            assert_eq!(rocfft_plan_get_print(null_mut()), FAILURE);
            assert_eq!(rocfft_execute(null_mut(), null_mut(), null_mut(), null_mut()), FAILURE);
            assert_eq!(rocfft_plan_destroy(null_mut()), SUCCESS);
            assert_eq!(rocfft_plan_description_create(null_mut()), INVALID_ARG_VALUE);
            assert_eq!(rocfft_plan_description_destroy(null_mut()), SUCCESS);
            assert_eq!(rocfft_plan_description_set_scale_factor(null_mut(), 2.0), INVALID_ARG_VALUE);
            assert_eq!(rocfft_plan_description_set_data_layout(null_mut(), 0, 0, null(), null(), 0, null(), 0, 0, null(), 0), INVALID_ARG_VALUE);
            assert_eq!(rocfft_plan_description_set_comm(null_mut(), 0, null_mut()), INVALID_ARG_VALUE);
            assert_eq!(rocfft_plan_description_add_infield(null_mut(), null_mut()), INVALID_ARG_VALUE);
            assert_eq!(rocfft_plan_description_add_outfield(null_mut(), null_mut()), INVALID_ARG_VALUE);
            assert_eq!(rocfft_execution_info_create(null_mut()), INVALID_ARG_VALUE);
            assert_eq!(rocfft_execution_info_destroy(null_mut()), SUCCESS);
            assert_eq!(rocfft_execution_info_set_work_buffer(null_mut(), null_mut(), 0), INVALID_ARG_VALUE);
            assert_eq!(rocfft_execution_info_set_stream(null_mut(), null_mut()), INVALID_ARG_VALUE);
            assert_eq!(rocfft_execution_info_set_load_callback(null_mut(), null_mut(), null_mut(), 0), INVALID_ARG_VALUE);
            assert_eq!(rocfft_execution_info_set_store_callback(null_mut(), null_mut(), null_mut(), 0), INVALID_ARG_VALUE);
            assert_eq!(rocfft_field_create(null_mut()), INVALID_ARG_VALUE);
            assert_eq!(rocfft_field_destroy(null_mut()), SUCCESS);
            assert_eq!(rocfft_field_add_brick(null_mut(), null_mut()), INVALID_ARG_VALUE);
            assert_eq!(rocfft_brick_create(null_mut(), null(), null(), null(), 2, 0), INVALID_ARG_VALUE);
            assert_eq!(rocfft_brick_destroy(null_mut()), SUCCESS);
            assert_eq!(rocfft_cache_serialize(null_mut(), null_mut()), INVALID_ARG_VALUE);
            assert_eq!(rocfft_cache_buffer_free(null_mut()), SUCCESS);
            assert_eq!(rocfft_cache_deserialize(null(), 4), INVALID_ARG_VALUE);
        }
    }

    #[test]
    fn unfit_array_types_fail_their_side() {
        // An array type outside the enum is replaced by one that fails the same domain check.
        assert_eq!(unfit_array_type(9, false), ArrayType::Real);
        assert_eq!(unfit_array_type(-1, true), ArrayType::ComplexInterleaved);
        assert_eq!(unfit_array_type(3, true), ArrayType::HermitianInterleaved);
    }

    #[test]
    fn plan_round_trip_on_cpu_and_failed_create_writes_nothing() {
        // Plans are created on ROCMATH_DEVICE / the best device; this test only runs where that
        // is the CPU, whose plans need nothing but validation.
        if !matches!(Device::from_env(), Ok(Device::Cpu(_))) {
            eprintln!("default device is not the CPU: skipped");
            return;
        }
        let lengths = [8usize, 4];
        unsafe {
            let mut plan: rocfft_plan = null_mut();
            assert_eq!(rocfft_plan_create(&mut plan, 1, 0, 1, 2, lengths.as_ptr(), 3, null_mut()), SUCCESS);
            assert!(!plan.is_null());
            let mut size = usize::MAX;
            assert_eq!(rocfft_plan_get_work_buffer_size(plan, &mut size), SUCCESS);
            assert_eq!(size, 0);
            assert_eq!(rocfft_plan_get_work_buffer_size(plan, null_mut()), INVALID_ARG_VALUE);
            assert_eq!(rocfft_plan_destroy(plan), SUCCESS);

            let sentinel = 0x1000 as rocfft_plan;
            let mut untouched = sentinel;
            assert_eq!(rocfft_plan_create(&mut untouched, 1, 0, 1, 4, lengths.as_ptr(), 1, null_mut()), INVALID_DIMENSIONS);
            assert_eq!(rocfft_plan_create(&mut untouched, 1, 9, 1, 2, lengths.as_ptr(), 1, null_mut()), FAILURE);
            assert_eq!(rocfft_plan_create(&mut untouched, 2, 0, 1, 2, lengths.as_ptr(), 1, null_mut()), INVALID_ARG_VALUE);
            assert_eq!(untouched, sentinel);
        }
    }
}
