//! `DeviceBuffer<T>`: a typed allocation on one device (host memory on the CPU device).
use crate::gpu::GpuDevice;
use crate::{Device, Error, Queue, Result};
use bytemuck::Pod;
use std::marker::PhantomData;

/// A typed array in one device's memory. On the CPU device it is a host `Vec<T>`, so host
/// pointers are device pointers there (as the C ABI expects).
pub struct DeviceBuffer<T: Pod> {
    storage: Storage<T>,
    len: usize,
}

enum Storage<T> {
    Host(Vec<T>),
    Gpu { device: GpuDevice, ptr: u64, _t: PhantomData<T> },
}

impl<T: Pod> std::fmt::Debug for DeviceBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let place = match &self.storage {
            Storage::Host(_) => "cpu".to_string(),
            Storage::Gpu { device, ptr, .. } => format!("{device:?} @ {ptr:#x}"),
        };
        write!(f, "DeviceBuffer<{}>[{}] on {place}", std::any::type_name::<T>(), self.len)
    }
}

fn bytes_of<T>(len: usize) -> Result<usize> {
    len.checked_mul(std::mem::size_of::<T>())
        .ok_or_else(|| Error::InvalidArgument { name: "len", reason: format!("{len} elements overflow usize bytes") })
}

fn check_len(name: &'static str, got: usize, want: usize) -> Result<()> {
    if got != want {
        return Err(Error::InvalidArgument { name, reason: format!("length {got}, buffer holds {want}") });
    }
    Ok(())
}

impl<T: Pod> DeviceBuffer<T> {
    /// A zero-filled buffer of `len` elements on `queue`'s device (waits for the fill).
    pub fn zeroed(queue: &Queue, len: usize) -> Result<Self> {
        let buf = Self::uninit_bytes(queue, len)?;
        if let (Some(q), Storage::Gpu { device, ptr, .. }) = (queue.gpu(), &buf.storage) {
            device.driver().memset_d8(device.ordinal(), *ptr, 0, bytes_of::<T>(len)?, q.raw())?;
            q.synchronize()?;
        }
        Ok(buf)
    }

    /// A buffer whose contents are whatever the allocation held (zeros on the CPU, where Rust
    /// needs initialised memory). Every byte is still a valid `T`, since `T: Pod`.
    fn uninit_bytes(queue: &Queue, len: usize) -> Result<Self> {
        let bytes = bytes_of::<T>(len)?;
        let storage = match queue.gpu() {
            None => Storage::Host(vec![T::zeroed(); len]),
            Some(q) => {
                let device = q.device().clone();
                let ptr = device.malloc(bytes)?;
                Storage::Gpu { device, ptr, _t: PhantomData }
            }
        };
        Ok(DeviceBuffer { storage, len })
    }

    /// A copy of `data` on `queue`'s device (waits for the copy).
    pub fn from_slice(queue: &Queue, data: &[T]) -> Result<Self> {
        let mut buf = Self::uninit_bytes(queue, data.len())?;
        buf.copy_from_host(queue, data)?;
        Ok(buf)
    }

    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn device(&self) -> Device {
        match &self.storage {
            Storage::Host(_) => Device::cpu(),
            Storage::Gpu { device, .. } => match device.backend() {
                crate::Backend::Hip => Device::Hip(device.clone()),
                _ => Device::Cuda(device.clone()),
            },
        }
    }

    /// The address kernels and the C ABI use: a device address on a GPU, a host address on the
    /// CPU device.
    pub fn as_ptr(&self) -> *const T {
        match &self.storage {
            Storage::Host(v) => v.as_ptr(),
            Storage::Gpu { ptr, .. } => *ptr as usize as *const T,
        }
    }

    pub fn as_mut_ptr(&mut self) -> *mut T {
        match &mut self.storage {
            Storage::Host(v) => v.as_mut_ptr(),
            Storage::Gpu { ptr, .. } => *ptr as usize as *mut T,
        }
    }

    /// The contents as a host slice, on the CPU device only.
    pub fn as_host_slice(&self) -> Option<&[T]> {
        match &self.storage {
            Storage::Host(v) => Some(v),
            Storage::Gpu { .. } => None,
        }
    }

    pub fn as_host_slice_mut(&mut self) -> Option<&mut [T]> {
        match &mut self.storage {
            Storage::Host(v) => Some(v),
            Storage::Gpu { .. } => None,
        }
    }

    fn check_queue(&self, queue: &Queue) -> Result<()> {
        if self.device().same_as(&queue.device()) {
            Ok(())
        } else {
            Err(Error::InvalidArgument { name: "queue", reason: "queue and buffer are on different devices".into() })
        }
    }

    /// Copies all of `src` into the buffer and waits.
    pub fn copy_from_host(&mut self, queue: &Queue, src: &[T]) -> Result<()> {
        // SAFETY: `src` outlives the copy because we synchronize before returning.
        unsafe { self.copy_from_host_async(queue, src)? };
        queue.synchronize()
    }

    /// Copies the buffer into all of `dst` and waits.
    pub fn copy_to_host(&self, queue: &Queue, dst: &mut [T]) -> Result<()> {
        // SAFETY: `dst` outlives the copy because we synchronize before returning.
        unsafe { self.copy_to_host_async(queue, dst)? };
        queue.synchronize()
    }

    pub fn to_vec(&self, queue: &Queue) -> Result<Vec<T>> {
        let mut v = vec![T::zeroed(); self.len];
        self.copy_to_host(queue, &mut v)?;
        Ok(v)
    }

    /// Queues a copy of `src` into the buffer.
    ///
    /// # Safety
    /// `src` must stay alive and unmodified until `queue` has been synchronized.
    pub unsafe fn copy_from_host_async(&mut self, queue: &Queue, src: &[T]) -> Result<()> {
        self.check_queue(queue)?;
        check_len("src", src.len(), self.len)?;
        match (&mut self.storage, queue.gpu()) {
            (Storage::Host(v), _) => v.copy_from_slice(src),
            (Storage::Gpu { device, ptr, .. }, Some(q)) => {
                let bytes = bytes_of::<T>(self.len)?;
                device.driver().copy_h2d(device.ordinal(), *ptr, src.as_ptr() as *const u8, bytes, q.raw())?
            }
            (Storage::Gpu { .. }, None) => unreachable!("check_queue matched devices"),
        }
        Ok(())
    }

    /// Queues a copy of the buffer into `dst`.
    ///
    /// # Safety
    /// `dst` must stay alive and must not be read until `queue` has been synchronized.
    pub unsafe fn copy_to_host_async(&self, queue: &Queue, dst: &mut [T]) -> Result<()> {
        self.check_queue(queue)?;
        check_len("dst", dst.len(), self.len)?;
        match (&self.storage, queue.gpu()) {
            (Storage::Host(v), _) => dst.copy_from_slice(v),
            (Storage::Gpu { device, ptr, .. }, Some(q)) => {
                let bytes = bytes_of::<T>(self.len)?;
                device.driver().copy_d2h(device.ordinal(), dst.as_mut_ptr() as *mut u8, *ptr, bytes, q.raw())?
            }
            (Storage::Gpu { .. }, None) => unreachable!("check_queue matched devices"),
        }
        Ok(())
    }

    /// Queues a device-to-device copy of all of `src` into the buffer.
    pub fn copy_from_buffer(&mut self, queue: &Queue, src: &DeviceBuffer<T>) -> Result<()> {
        self.check_queue(queue)?;
        src.check_queue(queue)?;
        check_len("src", src.len, self.len)?;
        match (&mut self.storage, &src.storage, queue.gpu()) {
            (Storage::Host(d), Storage::Host(s), _) => d.copy_from_slice(s),
            (Storage::Gpu { device, ptr: d, .. }, Storage::Gpu { ptr: s, .. }, Some(q)) => {
                device.driver().copy_d2d(device.ordinal(), *d, *s, bytes_of::<T>(self.len)?, q.raw())?
            }
            _ => unreachable!("check_queue matched devices"),
        }
        Ok(())
    }
}

impl<T: Pod> Drop for DeviceBuffer<T> {
    fn drop(&mut self) {
        if let Storage::Gpu { device, ptr, .. } = &self.storage {
            device.free_deferred(*ptr);
        }
    }
}
