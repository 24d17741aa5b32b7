//! A Rust-native API over [`ndarray`]: transforms of the last 1 to 3 axes of an array (batched
//! over the leading ones) on any [`Queue`], returning owned arrays in standard (row-major)
//! layout.
//!
//! Axis order follows ndarray's row-major convention, as in numpy: the last axis is the fastest,
//! so it is rocFFT's `lengths[0]`, and the real transforms halve it (`n / 2 + 1` complex
//! outputs). [`ifft`] and [`irfft`] are normalised (they divide by the number of points), so
//! `ifft(fft(x)) == x`; the plan API itself is rocFFT's unnormalised inverse.
//!
//! Each call copies the view to a device buffer, builds a [`Plan`] and runs it. A view whose
//! elements fill one block of memory (standard, column-major or permuted axes, non-negative
//! strides) is uploaded as that block and the plan reads it through the view's own strides;
//! other views (slices with steps, negative strides, broadcasts) are first copied in logical
//! order. For repeated transforms of one shape, build a [`Plan`] once instead.
//!
//! ```
//! use ndarray::Array2;
//! use num_complex::Complex32;
//! use rocmath_fft::nd;
//! use rocmath_runtime::Device;
//!
//! let queue = Device::cpu().new_queue()?;
//! // 4 signals of 8 points each: transform the last axis.
//! let x = Array2::from_shape_fn((4, 8), |(i, j)| Complex32::new((i + j) as f32, 0.0));
//! let spectrum = nd::fft(&queue, x.view(), 1)?;
//! let back = nd::ifft(&queue, spectrum.view(), 1)?;
//! assert!((&back - &x).iter().all(|d| d.norm() < 1e-5));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
use crate::plan::{Data, FftReal, Plan, PlanDescription};
use crate::types::{ArrayType, FftError, Placement, Result, Status, TransformType};
use ndarray::{Array, ArrayView, Dimension};
use num_complex::Complex;
use rocmath_runtime::{DeviceBuffer, Queue};
use std::borrow::Cow;

/// Forward complex FFT of the last `axes` (1 to 3) axes of `input`, batched over the others.
pub fn fft<T: FftReal, D: Dimension>(queue: &Queue, input: ArrayView<'_, Complex<T>, D>, axes: usize) -> Result<Array<Complex<T>, D>>
where
    Complex<T>: Elem<T>,
{
    let shape = Shape::of(&input, axes, None)?;
    run(queue, &input, &shape, TransformType::ComplexForward, input.raw_dim())
}

/// Inverse complex FFT of the last `axes` axes, divided by their number of points.
pub fn ifft<T: FftReal, D: Dimension>(queue: &Queue, input: ArrayView<'_, Complex<T>, D>, axes: usize) -> Result<Array<Complex<T>, D>>
where
    Complex<T>: Elem<T>,
{
    let shape = Shape::of(&input, axes, None)?;
    run(queue, &input, &shape, TransformType::ComplexInverse, input.raw_dim())
}

/// Forward real FFT of the last `axes` axes: the last axis (n points) becomes its n / 2 + 1
/// non-negative frequencies.
pub fn rfft<T: FftReal + Elem<T>, D: Dimension>(queue: &Queue, input: ArrayView<'_, T, D>, axes: usize) -> Result<Array<Complex<T>, D>>
where
    Complex<T>: Elem<T>,
{
    let shape = Shape::of(&input, axes, None)?;
    let mut out_dim = input.raw_dim();
    out_dim[input.ndim() - 1] = shape.lengths[0] / 2 + 1;
    run(queue, &input, &shape, TransformType::RealForward, out_dim)
}

/// Inverse real FFT of the last `axes` axes, divided by their number of points: the last axis
/// holds the n / 2 + 1 non-negative frequencies of a real signal of `n` points (`n` says whether
/// it was even or odd); the result's last axis has `n` points. The imaginary parts of the
/// frequencies that must be real (zero, and n / 2 for even n) are ignored.
pub fn irfft<T: FftReal + Elem<T>, D: Dimension>(queue: &Queue, input: ArrayView<'_, Complex<T>, D>, n: usize, axes: usize) -> Result<Array<T, D>>
where
    Complex<T>: Elem<T>,
{
    let shape = Shape::of(&input, axes, Some(n))?;
    let mut out_dim = input.raw_dim();
    out_dim[input.ndim() - 1] = n;
    run(queue, &input, &shape, TransformType::RealInverse, out_dim)
}

/// An element type of the arrays these functions take and return: `T` (real) or `Complex<T>`
/// for `T` = f32, f64, f16.
pub trait Elem<T: FftReal>: bytemuck::Pod {
    #[doc(hidden)]
    const ARRAY_TYPE: ArrayType;
    #[doc(hidden)]
    fn data(buffer: &mut DeviceBuffer<Self>) -> Data<'_, T>;
}

macro_rules! elems {
    ($($t:ty),*) => {$(
        impl Elem<$t> for $t {
            const ARRAY_TYPE: ArrayType = ArrayType::Real;
            fn data(buffer: &mut DeviceBuffer<$t>) -> Data<'_, $t> {
                Data::Real(buffer)
            }
        }
        impl Elem<$t> for Complex<$t> {
            const ARRAY_TYPE: ArrayType = ArrayType::ComplexInterleaved;
            fn data(buffer: &mut DeviceBuffer<Complex<$t>>) -> Data<'_, $t> {
                Data::Interleaved(buffer)
            }
        }
    )*};
}
elems!(f32, f64, half::f16);

/// Uploads `input`, plans and runs `transform`, and returns the result of shape `out_dim`.
fn run<T: FftReal, I: Elem<T>, O: Elem<T>, D: Dimension>(queue: &Queue, input: &ArrayView<'_, I, D>, shape: &Shape, transform: TransformType, out_dim: D) -> Result<Array<O, D>> {
    let size = out_dim.size();
    if size == 0 {
        return Ok(Array::from_shape_vec(out_dim, Vec::new()).expect("an empty array"));
    }
    let hermitian = |t: ArrayType| if t == ArrayType::ComplexInterleaved && transform.is_real() { ArrayType::HermitianInterleaved } else { t };
    let (data, layout) = upload(input, shape);
    let plan = shape.plan(queue, transform, hermitian(I::ARRAY_TYPE), hermitian(O::ARRAY_TYPE), &layout, T::PRECISION)?;
    let mut inp = DeviceBuffer::from_slice(queue, &data)?;
    let mut out = DeviceBuffer::<O>::zeroed(queue, size)?;
    plan.execute::<T>(queue, I::data(&mut inp), Some(O::data(&mut out)))?;
    let v = out.to_vec(queue)?;
    Array::from_shape_vec(out_dim, v).map_err(|e| FftError::new(Status::Failure, "output", e.to_string()))
}

/// A transform's lengths (fastest first) and batch, read off an array's shape.
struct Shape {
    /// Logical lengths, fastest (the last axis) first; the real length for real transforms.
    lengths: Vec<usize>,
    batch: usize,
    /// Number of leading (batch) axes.
    leading: usize,
}

/// Strides (elements, fastest transform axis first) and batch distance of the uploaded data.
struct UploadLayout {
    strides: Vec<usize>,
    distance: usize,
}

impl Shape {
    /// `real_n`: the real length of an inverse real transform, whose last axis holds
    /// `real_n / 2 + 1` elements.
    fn of<E, D: Dimension>(view: &ArrayView<'_, E, D>, axes: usize, real_n: Option<usize>) -> Result<Shape> {
        let nd = view.ndim();
        if !(1..=3).contains(&axes) || axes > nd {
            return Err(FftError::new(Status::InvalidDimensions, "axes", format!("{axes} axes of a {nd}-dimensional array; 1 to 3 and at most its dimensions")));
        }
        let shape = view.shape();
        if let Some(a) = shape[nd - axes..].iter().position(|&l| l == 0) {
            return Err(FftError::new(Status::InvalidDimensions, "input", format!("transform axis {} has no elements", nd - axes + a)));
        }
        let mut lengths: Vec<usize> = shape[nd - axes..].iter().rev().copied().collect();
        if let Some(n) = real_n {
            if n / 2 + 1 != lengths[0] || n == 0 {
                return Err(FftError::new(Status::InvalidDimensions, "n", format!("the last axis holds {} frequencies, not the {} of n = {n}", lengths[0], n / 2 + 1)));
            }
            lengths[0] = n;
        }
        Ok(Shape { lengths, batch: shape[..nd - axes].iter().product(), leading: nd - axes })
    }

    fn plan(&self, queue: &Queue, transform: TransformType, in_type: ArrayType, out_type: ArrayType, layout: &UploadLayout, precision: crate::types::Precision) -> Result<Plan> {
        let mut desc = PlanDescription::new();
        if matches!(transform, TransformType::ComplexInverse | TransformType::RealInverse) {
            desc.set_scale_factor(1.0 / self.lengths.iter().product::<usize>() as f64)?;
        }
        desc.set_data_layout(in_type, out_type, &[0], &[0], &layout.strides, layout.distance, &[], 0)?;
        Plan::new(&queue.device(), Placement::NotInPlace, transform, precision, &self.lengths, self.batch, Some(&desc))
    }
}

/// The view's elements as one slice and how the plan reads them: the view's own memory block
/// and strides when its elements fill it exactly with non-negative strides and its leading axes
/// merge into one batch stride; otherwise a copy in logical (row-major) order.
fn upload<'a, E: Clone, D: Dimension>(view: &'a ArrayView<'_, E, D>, shape: &Shape) -> (Cow<'a, [E]>, UploadLayout) {
    let nd = view.ndim();
    if let Some(slice) = view.as_slice_memory_order() {
        let strides = view.strides();
        if strides.iter().all(|&s| s >= 0) {
            let st = |a: usize| strides[a] as usize;
            // Leading axes of more than one element must nest: each one's stride spans the next.
            let lead: Vec<usize> = (0..shape.leading).filter(|&a| view.shape()[a] > 1).collect();
            let nests = lead.windows(2).all(|w| st(w[0]) == st(w[1]) * view.shape()[w[1]]);
            if nests {
                let distance = lead.last().map_or(0, |&a| st(a));
                // Axes of one element may carry any stride (even 0): make it 1.
                let strides: Vec<usize> = (nd - shape.lengths.len()..nd).rev().map(|a| if view.shape()[a] == 1 { 1 } else { st(a) }).collect();
                if strides_nonzero(&strides) {
                    return (Cow::Borrowed(slice), UploadLayout { strides, distance });
                }
            }
        }
    }
    let data: Vec<E> = view.iter().cloned().collect();
    let mut strides = Vec::new();
    let mut acc = 1;
    for a in (nd - shape.lengths.len()..nd).rev() {
        strides.push(acc);
        acc *= view.shape()[a];
    }
    (Cow::Owned(data), UploadLayout { strides, distance: acc })
}

fn strides_nonzero(strides: &[usize]) -> bool {
    strides.iter().all(|&s| s > 0)
}
