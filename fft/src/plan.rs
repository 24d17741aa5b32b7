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
    /// input and output. Each call replaces everything an earlier call set.
    ///
    /// Nothing is checked here: like rocFFT, the stride counts, array types and layouts are
    /// checked against the transform when a plan is created (so this never fails).
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
    /// `rocfft_plan_create`: validates the transform and its layout with rocFFT's statuses, in
    /// rocFFT's order, then prepares it for `device` (on a GPU: kernels compiled or loaded from
    /// the cache, twiddle tables uploaded).
    ///
    /// The checks, each naming the argument at fault:
    ///
    /// 1. `dimensions` not 1..=3: `InvalidDimensions`.
    /// 2. Strides given (non-empty) but not one per dimension, input then output:
    ///    `InvalidStrides` (`in_strides` / `out_strides`).
    /// 3. Array types that do not fit the transform (input, then output), then, in place, a
    ///    complex input and output of different types or a planar hermitian side:
    ///    `InvalidArrayType` (`in_array_type` / `out_array_type`).
    /// 4. A zero length or zero transforms: `Failure` (`lengths` / `number_of_transforms`);
    ///    then (ours) an element count past `usize::MAX`: `InvalidDimensions` (`lengths`).
    /// 5. In place, an output layout that is not the one the input layout implies, or offsets
    ///    that do not match: `Failure` (`in_strides`, `in_distance`, `out_strides`,
    ///    `out_distance`, `out_offsets`).
    /// 6. Ours (rocFFT does not check these): a layout addressing past `isize::MAX` bytes,
    ///    `InvalidArgValue` (`in_strides` / `out_strides`); distinct output elements (in place:
    ///    input elements too) sharing memory, `InvalidStrides` or `InvalidDistance`.
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
        let described = description.layout.as_ref();
        let dims = lengths.len();
        // rocFFT's first check (plan.cpp, rocfft_plan_create_internal): more than 3 dimensions.
        // It does not check 0 (it reads lengths[0] regardless); we give 0 the same status.
        if !(1..=3).contains(&dims) {
            return Err(FftError::new(Status::InvalidDimensions, "dimensions", format!("{dims} dimensions; rocFFT takes 1 to 3")));
        }
        check_stride_counts(dims, described)?;
        let (in_type, out_type) = resolve_array_types(transform, placement, described)?;
        check_not_empty(lengths, number_of_transforms)?;
        product(lengths, "lengths")?;

        let (input, output) = resolve_layouts(transform, placement, lengths, in_type, out_type, described);
        let mut plan = Plan {
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
        if placement == Placement::InPlace {
            plan.check_in_place()?;
        }
        plan.check_extents()?;
        plan.check_no_overlap()?;
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

    /// Distinct output elements must not share memory (the result would depend on timing); in
    /// place the same holds for the input, which the output overwrites. rocFFT checks neither.
    /// Out of place the input may overlap itself (rocFFT allows it: overlapping windows, a
    /// zero stride); see [`Plan::input_overlaps`].
    fn check_no_overlap(&self) -> Result<()> {
        if overlap(&self.output, &self.output_lengths(), self.batch) {
            return Err(overlap_error(&self.output, &self.output_lengths(), self.batch, "out_strides", "out_distance"));
        }
        if self.placement == Placement::InPlace && overlap(&self.input, &self.input_lengths(), self.batch) {
            return Err(overlap_error(&self.input, &self.input_lengths(), self.batch, "in_strides", "in_distance"));
        }
        Ok(())
    }

    /// Whether distinct input elements share memory (possible out of place only). A device path
    /// that uses the input as scratch must not do so when this holds.
    #[allow(dead_code)]
    pub(crate) fn input_overlaps(&self) -> bool {
        overlap(&self.input, &self.input_lengths(), self.batch)
    }

    /// In place, the output layout must be the one rocFFT derives from the input layout
    /// (data_layout.cpp, `get_other_inplace_layout_for`; checked in plan.cpp,
    /// `finalize_and_validate_for`), and the offsets must agree. rocFFT reports a mismatch as a
    /// plain failure (it has no dedicated status for it), and so do we.
    ///
    /// Dimensions of length 1 are left out of the comparison, as rocFFT drops them first (never
    /// the fastest one of a real transform, and always keeping one).
    fn check_in_place(&self) -> Result<()> {
        let fail = |arg: &'static str, why: &str| Err(FftError::new(Status::Failure, arg, why.to_string()));
        let (i, o) = (&self.input, &self.output);
        let real = self.transform.is_real();
        let mut kept: Vec<usize> = (0..self.lengths.len()).collect();
        let mut k = usize::from(real);
        while k < kept.len() && kept.len() > 1 {
            if self.lengths[kept[k]] == 1 {
                kept.remove(k);
            } else {
                k += 1;
            }
        }
        if !real {
            if kept.iter().any(|&d| i.strides[d] != o.strides[d]) {
                return fail("out_strides", "an in-place complex transform needs the output strides equal to the input's");
            }
            if i.distance != o.distance {
                return fail("out_distance", "an in-place complex transform needs the output distance equal to the input's");
            }
            let planes = i.array_type.buffer_count();
            if i.offsets[..planes] != o.offsets[..planes] {
                return fail("out_offsets", "an in-place complex transform needs the output offsets equal to the input's");
            }
            return Ok(());
        }
        // Real: the input's fastest dimension has unit stride; a real input's other strides and
        // distance are even and step over a padded row (2 * (n / 2 + 1) scalars); the output has
        // the input's fastest stride and half (real -> hermitian) or twice (hermitian -> real)
        // its other strides and distance.
        let forward = self.transform == TransformType::RealForward;
        let n0 = self.input_lengths()[0];
        if n0 > 1 && i.strides[0] != 1 {
            return fail("in_strides", "an in-place real transform needs unit stride on the input's fastest dimension");
        }
        if forward {
            let row = 2 * (n0 / 2 + 1);
            let fits = |s: usize| s & 1 == 0 && s >= row;
            if kept[1..].iter().any(|&d| !fits(i.strides[d])) {
                return fail("in_strides", "an in-place real forward transform needs even input strides of at least one padded row");
            }
            if self.batch > 1 && !fits(i.distance) {
                return fail("in_distance", "an in-place real forward transform needs an even input distance of at least one padded row");
            }
        }
        let expect = |s: usize| if forward { s / 2 } else { s.saturating_mul(2) };
        if o.strides[0] != i.strides[0] || kept[1..].iter().any(|&d| o.strides[d] != expect(i.strides[d])) {
            return fail("out_strides", "the in-place output strides are not the ones the input strides imply");
        }
        if o.distance != expect(i.distance) {
            return fail("out_distance", "the in-place output distance is not the one the input distance implies");
        }
        let (r, h) = if forward { (i, o) } else { (o, i) };
        if r.offsets[0] != h.offsets[0].saturating_mul(2) {
            return fail("out_offsets", "in place, the real side's offset must be twice the hermitian side's");
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
            (Some(g), Some(q)) => g.execute(self, queue, q, &input[..need_in], &output, work),
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

/// rocFFT's stride-count check (plan.cpp, `finalize_and_validate_for`): strides, when given,
/// are one per dimension; input first, then output.
fn check_stride_counts(dims: usize, described: Option<&DataLayout>) -> Result<()> {
    let Some(d) = described else { return Ok(()) };
    for (arg, strides) in [("in_strides", &d.in_strides), ("out_strides", &d.out_strides)] {
        if !strides.is_empty() && strides.len() != dims {
            return Err(FftError::new(
                Status::InvalidStrides,
                arg,
                format!("{} strides for a {dims}-dimensional transform", strides.len()),
            ));
        }
    }
    Ok(())
}

/// Which kind of data one side of a transform holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Domain {
    Complex,
    Real,
    Hermitian,
}

/// The array types of both sides: `Unset` (or no layout) takes the interleaved default. rocFFT's
/// checks and order (plan.cpp, `finalize_and_validate_for`): each side must hold its domain
/// (input first), then in place a complex transform keeps one array type and a real one keeps
/// its hermitian side interleaved.
fn resolve_array_types(transform: TransformType, placement: Placement, described: Option<&DataLayout>) -> Result<(ArrayType, ArrayType)> {
    use ArrayType::*;
    let (in_domain, out_domain) = match transform {
        TransformType::ComplexForward | TransformType::ComplexInverse => (Domain::Complex, Domain::Complex),
        TransformType::RealForward => (Domain::Real, Domain::Hermitian),
        TransformType::RealInverse => (Domain::Hermitian, Domain::Real),
    };
    let mut types = [ComplexInterleaved; 2];
    let requested = described.map_or([Unset, Unset], |d| [d.in_array_type, d.out_array_type]);
    for (side, (domain, arg)) in [(in_domain, "in_array_type"), (out_domain, "out_array_type")].into_iter().enumerate() {
        let t = match (requested[side], domain) {
            (Unset, Domain::Complex) => ComplexInterleaved,
            (Unset, Domain::Real) => Real,
            (Unset, Domain::Hermitian) => HermitianInterleaved,
            (t, _) => t,
        };
        let fits = match domain {
            Domain::Complex => matches!(t, ComplexInterleaved | ComplexPlanar),
            Domain::Real => t == Real,
            Domain::Hermitian => matches!(t, HermitianInterleaved | HermitianPlanar),
        };
        if !fits {
            return Err(FftError::new(Status::InvalidArrayType, arg, format!("{t:?} does not fit the {arg} side of a {transform:?} transform")));
        }
        types[side] = t;
    }
    let [in_type, out_type] = types;
    if placement == Placement::InPlace {
        match transform {
            TransformType::ComplexForward | TransformType::ComplexInverse if in_type != out_type => {
                return Err(FftError::new(Status::InvalidArrayType, "out_array_type", format!("in place, {in_type:?} in needs {in_type:?} out, not {out_type:?}")));
            }
            TransformType::RealForward if out_type != HermitianInterleaved => {
                return Err(FftError::new(Status::InvalidArrayType, "out_array_type", "an in-place real forward transform writes hermitian interleaved output"));
            }
            TransformType::RealInverse if in_type != HermitianInterleaved => {
                return Err(FftError::new(Status::InvalidArrayType, "in_array_type", "an in-place real inverse transform reads hermitian interleaved input"));
            }
            _ => {}
        }
    }
    Ok((in_type, out_type))
}

/// Zero lengths or transforms: rocFFT has no dedicated check; its plan builder throws on the
/// empty layout (data_layout.cpp: "queried on an empty layout"), which plan creation returns as
/// `rocfft_status_failure`.
fn check_not_empty(lengths: &[usize], number_of_transforms: usize) -> Result<()> {
    if let Some(i) = lengths.iter().position(|&l| l == 0) {
        return Err(FftError::new(Status::Failure, "lengths", format!("lengths[{i}] is 0")));
    }
    if number_of_transforms == 0 {
        return Err(FftError::new(Status::Failure, "number_of_transforms", "0 transforms"));
    }
    Ok(())
}

/// Whether two distinct elements of `layout` (over `lengths` and `batch`, each buffer alone)
/// share memory. A sufficient test: sorting the dimensions (batch included, length-1 ones left
/// out) by stride, each stride must step over everything the faster dimensions cover. It
/// rejects a few exotic interleaved layouts that do not overlap (e.g. lengths 3 and 2 at strides
/// 2 and 3), which rocFFT would accept.
fn overlap(layout: &Layout, lengths: &[usize], batch: usize) -> bool {
    overlapping_dimension(layout, lengths, batch).is_some()
}

/// The first dimension (`Some(true)` for the batch) whose stride fails the test of [`overlap`].
fn overlapping_dimension(layout: &Layout, lengths: &[usize], batch: usize) -> Option<bool> {
    let mut dims: Vec<(usize, usize, bool)> = lengths.iter().zip(&layout.strides).map(|(&l, &s)| (s, l, false)).collect();
    dims.push((layout.distance, batch, true));
    dims.retain(|&(_, l, _)| l > 1);
    dims.sort();
    let mut covered = 1usize;
    for (stride, len, is_batch) in dims {
        if stride < covered {
            return Some(is_batch);
        }
        covered = stride.saturating_mul(len - 1).saturating_add(covered);
    }
    None
}

fn overlap_error(layout: &Layout, lengths: &[usize], batch: usize, strides_arg: &'static str, distance_arg: &'static str) -> FftError {
    if overlapping_dimension(layout, lengths, batch) == Some(true) {
        FftError::new(Status::InvalidDistance, distance_arg, "distinct transforms of the batch would share memory")
    } else {
        FftError::new(Status::InvalidStrides, strides_arg, "distinct elements would share memory")
    }
}

/// The strides, distances and offsets of both sides, with rocFFT's defaults (data_layout.cpp,
/// `full_range_reset`): missing strides are packed, except that a real array in place has its
/// second dimension (or, 1D, its distance) padded to the hermitian side's footprint,
/// `2 * (n / 2 + 1)` scalars; a zero distance is the last stride times the last length. Each
/// side is resolved on its own, in place too (the in-place check then compares them).
fn resolve_layouts(
    transform: TransformType,
    placement: Placement,
    lengths: &[usize],
    in_type: ArrayType,
    out_type: ArrayType,
    described: Option<&DataLayout>,
) -> (Layout, Layout) {
    let dims = lengths.len();
    let in_elems = side_lengths(lengths, transform == TransformType::RealInverse);
    let out_elems = side_lengths(lengths, transform == TransformType::RealForward);
    let build = |t: ArrayType, elems: &[usize], offsets: [usize; 2], strides: &[usize], distance: usize| -> Layout {
        let padded = t == ArrayType::Real && placement == Placement::InPlace;
        let row = (elems[0] / 2 + 1).saturating_mul(2);
        let strides = if strides.is_empty() {
            let mut s = vec![1usize; dims];
            for d in 1..dims {
                s[d] = if padded && d == 1 { row.saturating_mul(s[0]) } else { s[d - 1].saturating_mul(elems[d - 1]) };
            }
            s
        } else {
            strides.to_vec()
        };
        let distance = match distance {
            0 if padded && dims == 1 => row.saturating_mul(strides[0]),
            0 => strides[dims - 1].saturating_mul(elems[dims - 1]),
            d => d,
        };
        // Only planar arrays have a second buffer, and so a second offset.
        let offsets = if t.is_planar() { offsets } else { [offsets[0], 0] };
        Layout { array_type: t, offsets, strides, distance }
    };
    let (in_off, in_str, in_dist, out_off, out_str, out_dist) = match described {
        Some(d) => (d.in_offsets, d.in_strides.as_slice(), d.in_distance, d.out_offsets, d.out_strides.as_slice(), d.out_distance),
        None => ([0, 0], &[][..], 0, [0, 0], &[][..], 0),
    };
    (build(in_type, &in_elems, in_off, in_str, in_dist), build(out_type, &out_elems, out_off, out_str, out_dist))
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
