//! Bad arguments to rocmath-fft's Rust API get rocFFT's exact status (in rocFFT's order), name
//! the argument at fault, and write nothing. Plan creation is checked on every device present
//! (the checks come before any device work); execution on the CPU device.
use num_complex::Complex32;
use rocmath_fft::{ArrayType, Data, FftError, Placement, Plan, PlanDescription, Precision, Status, TransformType};
use rocmath_runtime::{Device, DeviceBuffer, Queue};
use rocmath_tests::test_devices;
use std::ffi::c_void;

use ArrayType::{ComplexInterleaved as CIL, ComplexPlanar as CPL, HermitianInterleaved as HIL, HermitianPlanar as HPL, Real, Unset};
use Placement::{InPlace as IP, NotInPlace as OP};
use TransformType::{ComplexForward as CF, RealForward as RF, RealInverse as RI};

/// A description with a data layout (empty strides and zero distances are the defaults).
#[allow(clippy::too_many_arguments)]
fn layout(it: ArrayType, ot: ArrayType, ioff: &[usize], ooff: &[usize], is: &[usize], idist: usize, os: &[usize], odist: usize) -> PlanDescription {
    let mut d = PlanDescription::new();
    d.set_data_layout(it, ot, ioff, ooff, is, idist, os, odist).expect("set_data_layout checks nothing");
    d
}

fn plan(device: &Device, place: Placement, t: TransformType, lengths: &[usize], batch: usize, d: Option<&PlanDescription>) -> Result<Plan, FftError> {
    Plan::new(device, place, t, Precision::Single, lengths, batch, d)
}

/// Asserts the status and argument of a failed plan creation on every device.
#[track_caller]
fn expect(place: Placement, t: TransformType, lengths: &[usize], batch: usize, d: Option<&PlanDescription>, status: Status, arg: &str) {
    for device in test_devices() {
        match plan(&device, place, t, lengths, batch, d) {
            Ok(_) => panic!("{device}: {t:?} {lengths:?} x{batch} accepted; expected {} ({arg})", status.name()),
            Err(e) => assert_eq!((e.status, e.arg), (status, arg), "{device}: {e}"),
        }
    }
}

/// Asserts that the CPU device accepts a plan (GPU plans also need the GPU path).
#[track_caller]
fn accepted(place: Placement, t: TransformType, lengths: &[usize], batch: usize, d: Option<&PlanDescription>) -> Plan {
    plan(&Device::cpu(), place, t, lengths, batch, d).unwrap_or_else(|e| panic!("{t:?} {lengths:?} x{batch} rejected: {e}"))
}

#[test]
fn dimensions() {
    expect(OP, CF, &[], 1, None, Status::InvalidDimensions, "dimensions");
    expect(OP, CF, &[2, 2, 2, 2], 1, None, Status::InvalidDimensions, "dimensions");
    // First of all: before stride counts and array types.
    let d = layout(Real, Real, &[], &[], &[1, 2, 3, 4, 5], 0, &[], 0);
    expect(OP, CF, &[2, 2, 2, 2], 1, Some(&d), Status::InvalidDimensions, "dimensions");
}

#[test]
fn stride_counts() {
    expect(OP, CF, &[8], 1, Some(&layout(Unset, Unset, &[], &[], &[1, 8], 0, &[], 0)), Status::InvalidStrides, "in_strides");
    expect(OP, CF, &[8, 4], 1, Some(&layout(Unset, Unset, &[], &[], &[], 0, &[1], 0)), Status::InvalidStrides, "out_strides");
    expect(OP, CF, &[8], 1, Some(&layout(Unset, Unset, &[], &[], &[1, 2, 3, 4, 5], 0, &[], 0)), Status::InvalidStrides, "in_strides");
    // Input before output; stride counts before array types (rocFFT's order).
    expect(OP, CF, &[8], 1, Some(&layout(Unset, Unset, &[], &[], &[1, 8], 0, &[1, 8], 0)), Status::InvalidStrides, "in_strides");
    expect(OP, CF, &[8], 1, Some(&layout(Real, Real, &[], &[], &[], 0, &[1, 8], 0)), Status::InvalidStrides, "out_strides");
}

#[test]
fn array_types() {
    let bad = |it, ot| Some(layout(it, ot, &[], &[], &[], 0, &[], 0));
    let cases: [(Placement, TransformType, ArrayType, ArrayType, &str); 13] = [
        (OP, CF, Real, CIL, "in_array_type"),
        (OP, CF, HIL, CIL, "in_array_type"),
        (OP, CF, CIL, HPL, "out_array_type"),
        (OP, RF, CIL, HIL, "in_array_type"),
        (OP, RF, Real, CIL, "out_array_type"),
        (OP, RF, Real, Real, "out_array_type"),
        (OP, RI, Real, Real, "in_array_type"),
        (OP, RI, HIL, HIL, "out_array_type"),
        (OP, RI, CPL, Real, "in_array_type"),
        (IP, CF, CPL, CIL, "out_array_type"),
        (IP, CF, CIL, CPL, "out_array_type"),
        (IP, RF, Real, HPL, "out_array_type"),
        (IP, RI, HPL, Real, "in_array_type"),
    ];
    for (place, t, it, ot, arg) in cases {
        let d = bad(it, ot);
        expect(place, t, &[8], 1, d.as_ref(), Status::InvalidArrayType, arg);
    }
    // Before the empty-transform checks.
    expect(OP, CF, &[0], 0, bad(Real, CIL).as_ref(), Status::InvalidArrayType, "in_array_type");
    // Unset takes the interleaved default; planar is fine out of place.
    accepted(OP, RF, &[8], 1, Some(&layout(Unset, HPL, &[], &[], &[], 0, &[], 0)));
    accepted(OP, RI, &[8], 1, Some(&layout(HPL, Unset, &[], &[], &[], 0, &[], 0)));
    accepted(IP, CF, &[8], 1, Some(&layout(CPL, CPL, &[], &[], &[], 0, &[], 0)));
}

#[test]
fn empty_transforms_are_failures() {
    expect(OP, CF, &[8, 0], 1, None, Status::Failure, "lengths");
    expect(IP, RF, &[0], 1, None, Status::Failure, "lengths");
    expect(OP, CF, &[8], 0, None, Status::Failure, "number_of_transforms");
    expect(OP, CF, &[0], 0, None, Status::Failure, "lengths");
}

#[test]
fn in_place_layouts() {
    let d = |is: &[usize], idist, os: &[usize], odist| layout(Unset, Unset, &[], &[], is, idist, os, odist);
    // Complex: the output layout is the input's (each side's defaults are resolved on their own).
    expect(IP, CF, &[8, 4], 1, Some(&d(&[2, 16], 0, &[], 0)), Status::Failure, "out_strides");
    expect(IP, CF, &[8], 2, Some(&d(&[], 10, &[], 9)), Status::Failure, "out_distance");
    expect(IP, CF, &[8], 1, Some(&d(&[], 10, &[], 0)), Status::Failure, "out_distance");
    let off = layout(Unset, Unset, &[1], &[], &[], 0, &[], 0);
    expect(IP, CF, &[8], 1, Some(&off), Status::Failure, "out_offsets");
    let planar_off = layout(CPL, CPL, &[0, 3], &[0, 4], &[], 0, &[], 0);
    expect(IP, CF, &[8], 1, Some(&planar_off), Status::Failure, "out_offsets");
    accepted(IP, CF, &[8, 4], 1, Some(&d(&[2, 16], 0, &[2, 16], 0)));
    // Length-1 dimensions are left out of the comparison (rocFFT drops them first); the
    // distance is still compared, even for one transform.
    accepted(IP, CF, &[8, 1], 1, Some(&d(&[1, 5], 8, &[1, 7], 8)));
    expect(IP, CF, &[8, 1], 1, Some(&d(&[1, 5], 0, &[1, 7], 0)), Status::Failure, "out_distance");

    // Real: unit fastest input stride; real input rows even and padded; output at half/double.
    expect(IP, RF, &[8], 1, Some(&d(&[2], 0, &[], 0)), Status::Failure, "in_strides");
    expect(IP, RF, &[8, 4], 1, Some(&d(&[1, 8], 0, &[], 0)), Status::Failure, "in_strides");
    expect(IP, RF, &[8, 4], 1, Some(&d(&[1, 11], 0, &[], 0)), Status::Failure, "in_strides");
    expect(IP, RF, &[8], 2, Some(&d(&[], 11, &[], 0)), Status::Failure, "in_distance");
    expect(IP, RF, &[8, 4], 1, Some(&d(&[1, 12], 0, &[], 0)), Status::Failure, "out_strides");
    accepted(IP, RF, &[8, 4], 1, Some(&d(&[1, 12], 0, &[1, 6], 0)));
    expect(IP, RI, &[8], 2, Some(&d(&[], 5, &[], 9)), Status::Failure, "out_distance");
    let real_off = layout(Unset, Unset, &[2], &[2], &[], 0, &[], 0);
    expect(IP, RF, &[8], 1, Some(&real_off), Status::Failure, "out_offsets");
    accepted(IP, RF, &[8], 1, Some(&layout(Unset, Unset, &[4], &[2], &[], 0, &[], 0)));
    // Defaults: the real side padded to 2 * (n/2 + 1) scalars per row.
    let p = accepted(IP, RF, &[8, 4], 3, None);
    assert_eq!((p.input_layout().strides.as_slice(), p.input_layout().distance), (&[1, 10][..], 40));
    assert_eq!((p.output_layout().strides.as_slice(), p.output_layout().distance), (&[1, 5][..], 20));
    let p = accepted(IP, RI, &[7], 2, None);
    assert_eq!((p.input_layout().distance, p.output_layout().distance), (4, 8));
    // 1D real in place with strides but no distance: the padded distance (rocFFT's default).
    let p = accepted(IP, RF, &[8], 2, Some(&d(&[1], 0, &[1], 0)));
    assert_eq!((p.input_layout().distance, p.output_layout().distance), (10, 5));
}

#[test]
fn overlapping_outputs_are_ours() {
    let d = |is: &[usize], idist, os: &[usize], odist| layout(Unset, Unset, &[], &[], is, idist, os, odist);
    expect(OP, CF, &[8, 4], 1, Some(&d(&[], 0, &[0, 8], 0)), Status::InvalidStrides, "out_strides");
    expect(OP, CF, &[8, 4], 1, Some(&d(&[], 0, &[1, 4], 0)), Status::InvalidStrides, "out_strides");
    expect(OP, CF, &[8], 2, Some(&d(&[], 0, &[], 4)), Status::InvalidDistance, "out_distance");
    // In place the input is overwritten too: a hermitian input whose rows overlap.
    expect(IP, RI, &[8, 3], 1, Some(&d(&[1, 4], 0, &[1, 8], 0)), Status::InvalidStrides, "in_strides");
    // Out of place the input may overlap itself (rocFFT accepts it): zero strides, windows.
    accepted(OP, CF, &[8, 4], 1, Some(&d(&[1, 0], 0, &[], 0)));
    accepted(OP, CF, &[8], 4, Some(&d(&[], 3, &[], 0)));
    // Length-1 dimensions and single transforms overlap nothing.
    accepted(OP, CF, &[8, 1], 1, Some(&d(&[], 0, &[1, 0], 0)));
    accepted(OP, CF, &[8], 1, Some(&d(&[], 0, &[], 1)));
}

#[test]
fn sizes_past_the_address_space() {
    expect(OP, CF, &[usize::MAX / 2 + 1, 3], 1, None, Status::InvalidDimensions, "lengths");
    let huge = layout(Unset, Unset, &[], &[], &[usize::MAX / 4], 0, &[], 0);
    expect(OP, CF, &[8], 1, Some(&huge), Status::InvalidArgValue, "in_strides");
}

#[test]
fn scale_factor() {
    let mut d = PlanDescription::new();
    d.set_scale_factor(0.25).unwrap();
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let e = d.set_scale_factor(bad).unwrap_err();
        assert_eq!((e.status, e.arg), (Status::InvalidArgValue, "scale_factor"));
        assert_eq!(d.scale_factor(), 0.25, "a rejected factor leaves the old one");
    }
    assert_eq!(accepted(OP, CF, &[8], 1, Some(&d)).scale_factor(), 0.25);
}

const POISON: f32 = f32::NAN;

fn all_nan(v: &[Complex32]) -> bool {
    v.iter().all(|c| c.re.is_nan() && c.im.is_nan())
}

#[test]
fn execute_raw_bad_pointers_write_nothing() {
    let q = Queue::Cpu;
    let p = accepted(OP, CF, &[8], 2, None);
    let input: Vec<Complex32> = (0..16).map(|i| Complex32::new(i as f32, -(i as f32))).collect();
    let mut inb = DeviceBuffer::from_slice(&q, &input).unwrap();
    let mut outb = DeviceBuffer::from_slice(&q, &[Complex32::new(POISON, POISON); 16]).unwrap();
    let (ip, op) = (inb.as_mut_ptr() as *mut c_void, outb.as_mut_ptr() as *mut c_void);
    let null = std::ptr::null_mut::<c_void>();
    type Case<'a> = (&'a [*mut c_void], &'a [*mut c_void], Option<(*mut c_void, usize)>, Status, &'a str);
    let cases: [Case; 5] = [
        (&[], &[op], None, Status::InvalidArgValue, "in_buffer"),
        (&[null], &[op], None, Status::InvalidArgValue, "in_buffer"),
        (&[ip], &[], None, Status::InvalidArgValue, "out_buffer"),
        (&[ip], &[null], None, Status::InvalidArgValue, "out_buffer"),
        (&[ip], &[op], Some((null, 64)), Status::InvalidWorkBuffer, "work_buffer"),
    ];
    for (i, o, work, status, arg) in cases {
        // SAFETY: every non-null pointer is a live CPU buffer covering the layouts.
        let e = unsafe { p.execute_raw(&q, i, o, work) }.unwrap_err();
        assert_eq!((e.status, e.arg), (status, arg), "{e}");
    }
    assert!(all_nan(&outb.to_vec(&q).unwrap()), "a failed execution wrote the output");
    assert_eq!(inb.to_vec(&q).unwrap(), input, "a failed execution wrote the input");
}

#[test]
fn typed_execute_bad_buffers_write_nothing() {
    let q = Queue::Cpu;
    let p = accepted(OP, CF, &[8], 2, None);
    let input: Vec<Complex32> = (0..16).map(|i| Complex32::new(i as f32, 1.0)).collect();
    let mut inb = DeviceBuffer::from_slice(&q, &input).unwrap();
    let mut outb = DeviceBuffer::from_slice(&q, &[Complex32::new(POISON, POISON); 16]).unwrap();
    let mut short = DeviceBuffer::from_slice(&q, &[Complex32::new(POISON, POISON); 15]).unwrap();
    let mut re = DeviceBuffer::from_slice(&q, &[POISON; 16]).unwrap();
    let mut im = DeviceBuffer::from_slice(&q, &[POISON; 16]).unwrap();
    let mut wrong_precision = DeviceBuffer::from_slice(&q, &[num_complex::Complex64::new(0.0, 0.0); 16]).unwrap();

    let e = p.execute::<f64>(&q, Data::Interleaved(&mut wrong_precision), None).unwrap_err();
    assert_eq!((e.status, e.arg), (Status::InvalidArgValue, "input"));
    let e = p.execute(&q, Data::Interleaved(&mut inb), Some(Data::Planar(&mut re, &mut im))).unwrap_err();
    assert_eq!((e.status, e.arg), (Status::InvalidArrayType, "output"));
    let e = p.execute(&q, Data::Real(&mut re), Some(Data::Interleaved(&mut outb))).unwrap_err();
    assert_eq!((e.status, e.arg), (Status::InvalidArrayType, "input"));
    let e = p.execute(&q, Data::Interleaved(&mut inb), Some(Data::Interleaved(&mut short))).unwrap_err();
    assert_eq!((e.status, e.arg), (Status::InvalidArgValue, "output"));
    let e = p.execute(&q, Data::Interleaved(&mut short), Some(Data::Interleaved(&mut outb))).unwrap_err();
    assert_eq!((e.status, e.arg), (Status::InvalidArgValue, "input"));
    let e = p.execute(&q, Data::Interleaved(&mut inb), None).unwrap_err();
    assert_eq!((e.status, e.arg), (Status::InvalidArgValue, "output"));

    let ip = accepted(IP, CF, &[8], 2, None);
    let e = ip.execute(&q, Data::Interleaved(&mut inb), Some(Data::Interleaved(&mut outb))).unwrap_err();
    assert_eq!((e.status, e.arg), (Status::InvalidArgValue, "output"));
    let e = ip.execute(&q, Data::Interleaved(&mut short), None).unwrap_err();
    assert_eq!((e.status, e.arg), (Status::InvalidArgValue, "input"));

    assert!(all_nan(&outb.to_vec(&q).unwrap()) && all_nan(&short.to_vec(&q).unwrap()));
    assert!(re.to_vec(&q).unwrap().iter().chain(&im.to_vec(&q).unwrap()).all(|x| x.is_nan()));
    assert_eq!(inb.to_vec(&q).unwrap(), input);
}
