//! Native objects behind `jlong` handles.
//!
//! A handle is the address of a `Box<T>` leaked with `Box::into_raw`. The
//! Java object that receives it owns it: it passes it back on every call
//! and frees it exactly once, after the last in-flight call has returned
//! (the Java side counts calls in flight; see `NativeHandle`). Each export
//! knows which `T` its handle points to; the Java class `Native` pairs them.

use jni::sys::jlong;

use crate::boundary::{Failure, Outcome};

/// Moves `value` to the heap and returns its handle.
pub(crate) fn into_handle<T>(value: T) -> jlong {
    Box::into_raw(Box::new(value)) as jlong
}

/// Borrows the object behind `handle`.
///
/// # Safety
/// `handle` must be 0 or a live handle made by [`into_handle::<T>`] that is
/// not freed while the borrow lasts (the Java guard ensures both).
pub(crate) unsafe fn borrow<'a, T>(handle: jlong) -> Outcome<&'a T> {
    if handle == 0 {
        return Err(Failure::Closed("handle is closed".to_owned()));
    }
    // SAFETY: per the contract above, the pointer is a live Box<T>.
    Ok(unsafe { &*(handle as *const T) })
}

/// Frees the object behind `handle`; 0 is ignored.
///
/// # Safety
/// `handle` must be 0 or a live handle made by [`into_handle::<T>`], and no
/// other call may use it now or later.
pub(crate) unsafe fn free<T>(handle: jlong) {
    if handle != 0 {
        // SAFETY: per the contract above, we own the Box and nobody else
        // uses it.
        drop(unsafe { Box::from_raw(handle as *mut T) });
    }
}
