//! Plans: a plan description (scale, data layout), plan creation with rocFFT's validation, the
//! resolved input/output layouts every device path reads, and execution.
use crate::types::{ArrayType, FftError, Placement, Precision, Result, Status, TransformType};
use crate::{cpu, gpu};
use num_complex::Complex;
use rocmath_runtime::{Device, DeviceBuffer, Queue};
use std::ffi::c_void;

/// Where the elements of one side (input or output) of a transform live, in units of that
/// array's elements: complex elements for interleaved arrays, scalars for real and planar ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub array_type: ArrayType,
    /// Offset of the first element; planar arrays have one per buffer (real, imaginary).
    pub offsets: [usize; 2],
    /// Stride of each dimension, fastest (`lengths[0]`) first.
    pub strides: Vec<usize>,
    /// Distance between consecutive transforms of the batch.
    pub distance: usize,
}

/// `rocfft_plan_description`: a scale factor and an optional advanced data layout.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanDescription {
    scale: f64,
    layout: Option<DataLayout>,
}

/// What `rocfft_plan_description_set_data_layout` recorded; resolved against the transform at
/// plan creation (empty strides and zero distances mean "the default").
#[derive(Clone, Debug, PartialEq, Eq)]
struct DataLayout {
    in_array_type: ArrayType,
    out_array_type: ArrayType,
    in_offsets: [usize; 2],
    out_offsets: [usize; 2],
    in_strides: Vec<usize>,
    in_distance: usize,
    out_strides: Vec<usize>,
    out_distance: usize,
}

impl Default for PlanDescription {
    fn default() -> Self {
        PlanDescription { scale: 1.0, layout: None }
    }
}

impl PlanDescription {
    pub fn new() -> PlanDescription {
        PlanDescription::default()
    }

    /// Every element of the result is multiplied by `scale`; it must be finite.
    pub fn set_scale_factor(&mut self, scale: f64) -> Result<()> {
        if !scale.is_finite() {
            return Err(FftError::new(Status::InvalidArgValue, "scale_factor", format!("{scale} is not finite")));
        }
        self.scale = scale;
        Ok(())
    }

    pub fn scale_factor(&self) -> f64 {
        self.scale
    }

    /// Array types, offsets (one per buffer: two for planar arrays; missing ones are 0), strides
    /// (empty: the packed default) and distances (0: deduced from the last dimension) of the
    /// input and output. Checked against the transform when a plan is created.
    #[allow(clippy::too_many_arguments)]
    pub fn set_data_layout(
        &mut self,
        in_array_type: ArrayType,
        out_array_type: ArrayType,
        in_offsets: &[usize],
        out_offsets: &[usize],
        in_strides: &[usize],
        in_distance: usize,
        out_strides: &[usize],
        out_distance: usize,
    ) -> Result<()> {
        for (name, strides) in [("in_strides", in_strides), ("out_strides", out_strides)] {
            if strides.len() > 3 {
                return Err(FftError::new(Status::InvalidDimensions, name, format!("{} strides; at most 3 dimensions", strides.len())));
            }
        }
        let offsets = |o: &[usize]| [o.first().copied().unwrap_or(0), o.get(1).copied().unwrap_or(0)];
        self.layout = Some(DataLayout {
            in_array_type,
            out_array_type,
            in_offsets: offsets(in_offsets),
            out_offsets: offsets(out_offsets),
            in_strides: in_strides.to_vec(),
            in_distance,
            out_strides: out_strides.to_vec(),
            out_distance,
        });
        Ok(())
    }
}

/// A validated transform, bound to the device it runs on (kernels compiled, twiddles uploaded).
pub struct Plan {
    pub(crate) transform: TransformType,
    pub(crate) precision: Precision,
    pub(crate) placement: Placement,
    /// Logical lengths, fastest first (the real length for real transforms).
    pub(crate) lengths: Vec<usize>,
    pub(crate) batch: usize,
    pub(crate) scale: f64,
    pub(crate) input: Layout,
    pub(crate) output: Layout,
    pub(crate) device: Device,
    pub(crate) gpu: Option<gpu::GpuPlan>,
}

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Number of elements of `lengths`, or an error naming `arg` on overflow.
fn product(lengths: &[usize], arg: &'static str) -> Result<usize> {
    lengths
        .iter()
        .try_fold(1usize, |acc, &l| acc.checked_mul(l))
        .ok_or_else(|| FftError::new(Status::InvalidDimensions, arg, "the element count overflows usize"))
}

/// Packed strides for `lengths` (fastest first).
fn packed_strides(lengths: &[usize]) -> Vec<usize> {
    let mut s = Vec::with_capacity(lengths.len());
    let mut acc = 1usize;
    for &l in lengths {
        s.push(acc);
        acc = acc.saturating_mul(l);
    }
    s
}

impl Layout {
    /// The last index (plus one) this layout touches in buffer `plane`, in elements, for
    /// `lengths` (of this side's elements) and `batch` transforms.
    pub fn extent(&self, lengths: &[usize], batch: usize, plane: usize) -> Option<usize> {
        let mut last = self.offsets[plane];
        for (l, s) in lengths.iter().zip(&self.strides) {
            last = last.checked_add((l - 1).checked_mul(*s)?)?;
        }
        last.checked_add((batch - 1).checked_mul(self.distance)?)?.checked_add(1)
    }
}

impl Plan {
    /// `rocfft_plan_create`: validates the transform and its layout (rocFFT's statuses), then
    /// prepares it for `device` (on a GPU: kernels compiled or loaded from the cache, twiddle
    /// tables uploaded).
    pub fn new(
        device: &Device,
        placement: Placement,
        transform: TransformType,
        precision: Precision,
        lengths: &[usize],
        number_of_transforms: usize,
        description: Option<&PlanDescription>,
    ) -> Result<Plan> {
        let default_description = PlanDescription::default();
        let description = description.unwrap_or(&default_description);
        let dims = lengths.len();
        if !(1..=3).contains(&dims) {
            return Err(FftError::new(Status::InvalidDimensions, "dimensions", format!("{dims} dimensions; rocFFT takes 1 to 3")));
        }
        if let Some(i) = lengths.iter().position(|&l| l == 0) {
            return Err(FftError::new(Status::InvalidDimensions, "lengths", format!("lengths[{i}] is 0")));
        }
        if number_of_transforms == 0 {
            return Err(FftError::new(Status::InvalidArgValue, "number_of_transforms", "0 transforms"));
        }
        product(lengths, "lengths")?;

        let (input, output) = resolve_layouts(transform, placement, lengths, description.layout.as_ref())?;
        let plan_sides = Plan {
            transform,
            precision,
            placement,
            lengths: lengths.to_vec(),
            batch: number_of_transforms,
            scale: description.scale,
            input,
            output,
            device: device.clone(),
            gpu: None,
        };
        let mut plan = plan_sides;
        plan.check_extents()?;
        plan.check_output_overlap()?;
        if placement == Placement::InPlace {
            plan.check_in_place()?;
        }
        if let Some(gpu_device) = device.gpu() {
            plan.gpu = Some(gpu::GpuPlan::new(&plan, gpu_device)?);
        }
        Ok(plan)
    }

    pub fn transform_type(&self) -> TransformType {
        self.transform
    }
    pub fn precision(&self) -> Precision {
        self.precision
    }
    pub fn placement(&self) -> Placement {
        self.placement
    }
    /// Logical lengths, fastest first.
    pub fn lengths(&self) -> &[usize] {
        &self.lengths
    }
    pub fn number_of_transforms(&self) -> usize {
        self.batch
    }
    pub fn scale_factor(&self) -> f64 {
        self.scale
    }
    pub fn input_layout(&self) -> &Layout {
        &self.input
    }
    /// The output's layout; for in-place plans it addresses the input buffers.
    pub fn output_layout(&self) -> &Layout {
        &self.output
    }
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Elements per dimension of the input array: the hermitian half (`lengths[0] / 2 + 1`) on
    /// the fastest dimension of a real inverse transform's input.
    pub fn input_lengths(&self) -> Vec<usize> {
        side_lengths(&self.lengths, self.transform == TransformType::RealInverse)
    }
    /// Elements per dimension of the output array (hermitian half for real forward).
    pub fn output_lengths(&self) -> Vec<usize> {
        side_lengths(&self.lengths, self.transform == TransformType::RealForward)
    }

    /// Scalars (of the plan's precision) each input buffer must hold.
    pub fn input_scalars(&self) -> [usize; 2] {
        scalars_needed(&self.input, &self.input_lengths(), self.batch)
    }
    /// Scalars each output buffer must hold (for in-place plans: the input buffers).
    pub fn output_scalars(&self) -> [usize; 2] {
        scalars_needed(&self.output, &self.output_lengths(), self.batch)
    }

    /// `rocfft_plan_get_work_buffer_size`: bytes of device scratch an execution needs. When
    /// the caller gives none, the plan uses its own.
    pub fn work_buffer_size(&self) -> usize {
        self.gpu.as_ref().map_or(0, |g| g.work_bytes())
    }

    /// `rocfft_plan_get_print`: the plan in words (what is done, in which passes).
    pub fn describe(&self) -> String {
        let mut s = format!(
            "rocmath-fft plan: {:?}, {} precision, {:?}, lengths {:?}, batch {}, scale {}\n  input:  {:?}\n  output: {:?}\n  device: {}\n",
            self.transform,
            self.precision.name(),
            self.placement,
            self.lengths,
            self.batch,
            self.scale,
            self.input,
            self.output,
            self.device
        );
        match &self.gpu {
            Some(g) => s.push_str(&g.describe()),
            None => s.push_str("  passes: CPU (one pass per dimension)\n"),
        }
        s
    }

    fn check_extents(&self) -> Result<()> {
        for (arg, layout, lengths) in
            [("in_strides", &self.input, self.input_lengths()), ("out_strides", &self.output, self.output_lengths())]
        {
            for plane in 0..layout.array_type.buffer_count() {
                let extent = layout
                    .extent(&lengths, self.batch, plane)
                    .and_then(|e| e.checked_mul(layout.array_type.scalars_per_element()))
                    .and_then(|e| e.checked_mul(self.precision.real_bytes()));
                if extent.is_none_or(|e| e > isize::MAX as usize) {
                    return Err(FftError::new(Status::InvalidArgValue, arg, "the layout addresses more than isize::MAX bytes"));
                }
            }
        }
        Ok(())
    }

    /// Distinct output elements must not share memory (the result would depend on timing).
    /// Sorting the dimensions (batch included) by stride, each stride must step over everything
    /// the faster dimensions cover.
    fn check_output_overlap(&self) -> Result<()> {
        let lengths = self.output_lengths();
        let mut dims: Vec<(usize, usize, bool)> =
            lengths.iter().zip(&self.output.strides).map(|(&l, &s)| (s, l, false)).collect();
        dims.push((self.output.distance, self.batch, true));
        dims.retain(|&(_, l, _)| l > 1);
        dims.sort();
        let mut covered = 1usize;
        for (stride, len, is_batch) in dims {
            if stride < covered {
                let (status, arg) = if is_batch {
                    (Status::InvalidDistance, "out_distance")
                } else {
                    (Status::InvalidStrides, "out_strides")
                };
                return Err(FftError::new(status, arg, "distinct output elements would overlap"));
            }
            covered = stride.saturating_mul(len - 1).saturating_add(covered);
        }
        Ok(())
    }

    /// In place, each transform's output must land where its own input was: then a transform
    /// that reads all of its input before writing cannot race another one.
    fn check_in_place(&self) -> Result<()> {
        let (i, o) = (&self.input, &self.output);
        let same_kind = i.array_type.is_planar() == o.array_type.is_planar();
        if !same_kind {
            return Err(FftError::new(Status::InvalidArrayType, "out_array_type", "in place, input and output must both be planar or both interleaved"));
        }
        if !self.transform.is_real() {
            if i != o {
                return Err(FftError::new(Status::InvalidStrides, "out_strides", "an in-place complex transform needs the same layout in and out"));
            }
            return Ok(());
        }
        // Real in place: the real side counts scalars, the hermitian side complex elements.
        let (real, herm) = if self.transform == TransformType::RealForward { (i, o) } else { (o, i) };
        let one_row = self.lengths.len() == 1 && self.batch == 1;
        let fits = real.strides[0] == 1
            && herm.strides[0] == 1
            && real.offsets[0] == 2 * herm.offsets[0]
            && (one_row
                || real.distance == 2 * herm.distance
                    && real.strides[1..].iter().zip(&herm.strides[1..]).all(|(r, h)| *r == 2 * h)
                    && real.strides.get(1).is_none_or(|&s| s >= 2 * (self.lengths[0] / 2 + 1)));
        if !fits {
            return Err(FftError::new(
                Status::InvalidStrides,
                "in_strides",
                "an in-place real transform needs unit fastest strides and the real side at twice the hermitian side's strides, distance and offset",
            ));
        }
        Ok(())
    }

    /// Executes on `queue` (which must be on the plan's device), reading `input` and writing
    /// `output` (ignored in place). Pointers are each buffer's base: offsets come from the
    /// layout. `work` is scratch of at least [`Plan::work_buffer_size`] bytes, or `None` for the
    /// plan's own.
    ///
    /// # Safety
    /// Every pointer must be a live allocation of the plan's device holding at least
    /// [`Plan::input_scalars`] / [`Plan::output_scalars`] scalars of the plan's precision, and
    /// nothing else may use the buffers until the queue has finished the work.
    pub unsafe fn execute_raw(
        &self,
        queue: &Queue,
        input: &[*mut c_void],
        output: &[*mut c_void],
        work: Option<(*mut c_void, usize)>,
    ) -> Result<()> {
        if !queue.device().same_as(&self.device) {
            return Err(FftError::new(Status::InvalidArgValue, "queue", format!("the plan is for {}, the queue on {}", self.device, queue.device())));
        }
        let need_in = self.input.array_type.buffer_count();
        if input.len() < need_in || input[..need_in].iter().any(|p| p.is_null()) {
            return Err(FftError::new(Status::InvalidArgValue, "in_buffer", format!("{need_in} non-null input buffer(s) needed")));
        }
        let output: Vec<*mut c_void> = if self.placement == Placement::InPlace {
            input[..need_in].to_vec()
        } else {
            let need_out = self.output.array_type.buffer_count();
            if output.len() < need_out || output[..need_out].iter().any(|p| p.is_null()) {
                return Err(FftError::new(Status::InvalidArgValue, "out_buffer", format!("{need_out} non-null output buffer(s) needed")));
            }
            output[..need_out].to_vec()
        };
        if let Some((ptr, bytes)) = work {
            if ptr.is_null() || bytes < self.work_buffer_size() {
                return Err(FftError::new(
                    Status::InvalidWorkBuffer,
                    "work_buffer",
                    format!("{bytes} bytes given, the plan needs {}", self.work_buffer_size()),
                ));
            }
        }
        match (&self.gpu, queue.gpu()) {
            (Some(g), Some(q)) => g.execute(self, q, &input[..need_in], &output, work),
            (None, None) => cpu::execute(self, &input[..need_in], &output),
            _ => Err(FftError::new(Status::Failure, "queue", "the queue's device does not match the plan's")),
        }
    }

    /// Executes with typed buffers on `queue`: the buffers' element type must be the plan's
    /// precision, their kinds the plan's array types, and their lengths cover the layouts.
    /// `output` is `None` in place. The input may be overwritten (as in rocFFT), even out of place.
    pub fn execute<T: FftReal>(&self, queue: &Queue, mut input: Data<'_, T>, output: Option<Data<'_, T>>) -> Result<()> {
        if T::PRECISION != self.precision {
            return Err(FftError::new(Status::InvalidArgValue, "input", format!("{} buffers for a {} plan", T::PRECISION.name(), self.precision.name())));
        }
        let in_ptrs = input.pointers(queue, "input", self.input.array_type, self.input_scalars())?;
        let out_ptrs = match (self.placement, output) {
            (Placement::InPlace, None) => {
                if input_capacity_short(&input, self.output_scalars()) {
                    return Err(FftError::new(Status::InvalidArgValue, "input", "too short for the in-place output"));
                }
                Vec::new()
            }
            (Placement::InPlace, Some(_)) => {
                return Err(FftError::new(Status::InvalidArgValue, "output", "an in-place plan takes no output buffer"))
            }
            (Placement::NotInPlace, None) => {
                return Err(FftError::new(Status::InvalidArgValue, "output", "an out-of-place plan needs an output buffer"))
            }
            (Placement::NotInPlace, Some(mut o)) => o.pointers(queue, "output", self.output.array_type, self.output_scalars())?,
        };
        // SAFETY: the buffers are live allocations of the queue's device (checked), long enough
        // for the layouts (checked), and borrowed mutably until the queue has finished.
        unsafe {
            self.execute_raw(queue, &in_ptrs, &out_ptrs, None)?;
        }
        queue.synchronize()?;
        Ok(())
    }
}

fn input_capacity_short<T: FftReal>(input: &Data<'_, T>, need: [usize; 2]) -> bool {
    let have = input.scalar_lens();
    have[0] < need[0] || have[1] < need[1]
}

/// Elements per dimension of one side: the hermitian half on the fastest dimension if `half`.
fn side_lengths(lengths: &[usize], half: bool) -> Vec<usize> {
    let mut l = lengths.to_vec();
    if half {
        l[0] = l[0] / 2 + 1;
    }
    l
}

fn scalars_needed(layout: &Layout, lengths: &[usize], batch: usize) -> [usize; 2] {
    let per = layout.array_type.scalars_per_element();
    let mut need = [0, 0];
    for (plane, n) in need.iter_mut().enumerate().take(layout.array_type.buffer_count()) {
        // Plan creation checked these cannot overflow.
        *n = layout.extent(lengths, batch, plane).unwrap_or(usize::MAX).saturating_mul(per);
    }
    need
}

/// The default and the checked array types, strides, distances and offsets of both sides.
fn resolve_layouts(
    transform: TransformType,
    placement: Placement,
    lengths: &[usize],
    described: Option<&DataLayout>,
) -> Result<(Layout, Layout)> {
    use ArrayType::*;
    let dims = lengths.len();
    let (mut in_type, mut out_type) = match transform {
        TransformType::ComplexForward | TransformType::ComplexInverse => (ComplexInterleaved, ComplexInterleaved),
        TransformType::RealForward => (Real, HermitianInterleaved),
        TransformType::RealInverse => (HermitianInterleaved, Real),
    };
    if let Some(d) = described {
        if d.in_array_type != Unset {
            in_type = d.in_array_type;
        }
        if d.out_array_type != Unset {
            out_type = d.out_array_type;
        }
    }
    let complex = |t: ArrayType| matches!(t, ComplexInterleaved | ComplexPlanar);
    let hermitian = |t: ArrayType| matches!(t, HermitianInterleaved | HermitianPlanar);
    let ok = match transform {
        TransformType::ComplexForward | TransformType::ComplexInverse => complex(in_type) && complex(out_type),
        TransformType::RealForward => in_type == Real && hermitian(out_type),
        TransformType::RealInverse => hermitian(in_type) && out_type == Real,
    };
    if !ok {
        return Err(FftError::new(
            Status::InvalidArrayType,
            "in_array_type",
            format!("{in_type:?} -> {out_type:?} does not fit a {transform:?} transform"),
        ));
    }

    // Packed defaults; a real array in place is padded to the hermitian side's footprint.
    let half = lengths[0] / 2 + 1;
    let mut herm_lengths = lengths.to_vec();
    herm_lengths[0] = half;
    let side = |t: ArrayType| -> Vec<usize> {
        match t {
            Real if placement == Placement::InPlace => {
                let mut padded = lengths.to_vec();
                padded[0] = 2 * half;
                padded
            }
            Real => lengths.to_vec(),
            HermitianInterleaved | HermitianPlanar => herm_lengths.clone(),
            _ => lengths.to_vec(),
        }
    };
    let in_store = side(in_type);
    let out_store = side(out_type);
    // The element counts each side addresses (a padded real row still holds lengths[0] values).
    let in_elems = side_lengths(lengths, transform == TransformType::RealInverse);
    let out_elems = side_lengths(lengths, transform == TransformType::RealForward);

    let build = |t: ArrayType, store: &[usize], elems: &[usize], offsets: [usize; 2], strides: &[usize], distance: usize, which: &'static str| -> Result<Layout> {
        let defaulted = strides.is_empty();
        let strides = if defaulted {
            packed_strides(store)
        } else {
            if strides.len() != dims {
                return Err(FftError::new(
                    Status::InvalidStrides,
                    which,
                    format!("{} strides for a {dims}-dimensional transform", strides.len()),
                ));
            }
            if strides.contains(&0) {
                return Err(FftError::new(Status::InvalidStrides, which, "a stride of 0"));
            }
            strides.to_vec()
        };
        let distance = match distance {
            0 if defaulted => store.iter().product(),
            // rocFFT: deduced from the length and stride of the slowest dimension.
            0 => strides[dims - 1].saturating_mul(elems[dims - 1]),
            d => d,
        };
        Ok(Layout { array_type: t, offsets, strides, distance })
    };
    let (in_off, in_str, in_dist, out_off, out_str, out_dist) = match described {
        Some(d) => (d.in_offsets, d.in_strides.as_slice(), d.in_distance, d.out_offsets, d.out_strides.as_slice(), d.out_distance),
        None => ([0, 0], &[][..], 0, [0, 0], &[][..], 0),
    };
    let input = build(in_type, &in_store, &in_elems, in_off, in_str, in_dist, "in_strides")?;
    let output = if placement == Placement::InPlace && in_type == out_type && out_str.is_empty() && out_dist == 0 && described.is_none_or(|d| d.out_offsets == [0, 0]) {
        // In place with nothing said about the output: it is the input.
        input.clone()
    } else {
        build(out_type, &out_store, &out_elems, out_off, out_str, out_dist, "out_strides")?
    };
    Ok((input, output))
}

/// A real scalar type a plan can run in: `f32`, `f64` or `half::f16`.
pub trait FftReal: bytemuck::Pod + Send + Sync + 'static {
    const PRECISION: Precision;
}
impl FftReal for f32 {
    const PRECISION: Precision = Precision::Single;
}
impl FftReal for f64 {
    const PRECISION: Precision = Precision::Double;
}
impl FftReal for half::f16 {
    const PRECISION: Precision = Precision::Half;
}

/// One side's buffers for [`Plan::execute`].
pub enum Data<'a, T: FftReal> {
    /// Complex or hermitian interleaved.
    Interleaved(&'a mut DeviceBuffer<Complex<T>>),
    /// Complex or hermitian planar: real parts, imaginary parts.
    Planar(&'a mut DeviceBuffer<T>, &'a mut DeviceBuffer<T>),
    Real(&'a mut DeviceBuffer<T>),
}

impl<T: FftReal> Data<'_, T> {
    fn scalar_lens(&self) -> [usize; 2] {
        match self {
            Data::Interleaved(b) => [2 * b.len(), 0],
            Data::Planar(re, im) => [re.len(), im.len()],
            Data::Real(b) => [b.len(), 0],
        }
    }

    fn pointers(&mut self, queue: &Queue, arg: &'static str, want: ArrayType, need: [usize; 2]) -> Result<Vec<*mut c_void>> {
        let kind_ok = match self {
            Data::Interleaved(_) => matches!(want, ArrayType::ComplexInterleaved | ArrayType::HermitianInterleaved),
            Data::Planar(..) => want.is_planar(),
            Data::Real(_) => want == ArrayType::Real,
        };
        if !kind_ok {
            return Err(FftError::new(Status::InvalidArrayType, arg, format!("the plan's {arg} is {want:?}")));
        }
        let have = self.scalar_lens();
        if have[0] < need[0] || have[1] < need[1] {
            return Err(FftError::new(Status::InvalidArgValue, arg, format!("holds {have:?} scalars, the layout needs {need:?}")));
        }
        let device = queue.device();
        let on_device = |d: Device| d.same_as(&device);
        Ok(match self {
            Data::Interleaved(b) if on_device(b.device()) => vec![b.as_mut_ptr() as *mut c_void],
            Data::Planar(re, im) if on_device(re.device()) && on_device(im.device()) => {
                vec![re.as_mut_ptr() as *mut c_void, im.as_mut_ptr() as *mut c_void]
            }
            Data::Real(b) if on_device(b.device()) => vec![b.as_mut_ptr() as *mut c_void],
            _ => return Err(FftError::new(Status::InvalidArgValue, arg, "a buffer on another device than the queue's")),
        })
    }
}
