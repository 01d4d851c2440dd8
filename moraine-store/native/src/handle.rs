//! Native objects behind `jlong` handles.
//!
//! A handle is the address of a heap [`Slot`] leaked with `Box::into_raw`:
//! the object itself plus a flag that says whether a call on it panicked.
//! The Java object that receives it owns it: it passes it back on every call
//! and frees it exactly once, after the last in-flight call has returned
//! (the Java side counts calls in flight; see `NativeHandle`). Each export
//! knows which `T` its handle points to; the Java class `Native` pairs them.
//!
//! **Panics close the handle.** A panic part-way through a call may leave the
//! object behind the handle half-updated, so its state is unknown. Every
//! [`borrow`] records the slot's flag in a per-thread list for the duration
//! of the export; when the boundary catches a panic it sets the flag of every
//! handle that call borrowed ([`poison_borrowed`]). Every later [`borrow`] of
//! that handle fails with [`Failure::Closed`], from any thread. Only closing
//! ([`borrow_to_close`]) and freeing still reach a poisoned object: shutting
//! down what can be shut down beats leaking its background tasks.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use jni::sys::jlong;

use crate::boundary::{Failure, Outcome};

/// What a handle points to.
struct Slot<T> {
    /// Set once a call that borrowed this handle panicked; never cleared.
    poisoned: AtomicBool,
    value: T,
}

thread_local! {
    /// The handles borrowed by the export running on this thread, each with
    /// its poison flag. Each flag points into a slot that the Java guard
    /// keeps alive until the export returns, which is after the boundary has
    /// used or cleared this list.
    static BORROWED: RefCell<Vec<(jlong, *const AtomicBool)>> = const { RefCell::new(Vec::new()) };
}

/// Moves `value` to the heap and returns its handle.
pub(crate) fn into_handle<T>(value: T) -> jlong {
    Box::into_raw(Box::new(Slot {
        poisoned: AtomicBool::new(false),
        value,
    })) as jlong
}

/// Borrows the object behind `handle` for the current export, refusing one
/// whose state a panic left unknown.
///
/// # Safety
/// `handle` must be 0 or a live handle made by [`into_handle::<T>`] that is
/// not freed while the borrow lasts (the Java guard ensures both).
pub(crate) unsafe fn borrow<'a, T>(handle: jlong) -> Outcome<&'a T> {
    // SAFETY: forwarded from the caller.
    let slot = unsafe { slot::<T>(handle)? };
    if slot.poisoned.load(Ordering::Acquire) {
        return Err(Failure::Closed(POISONED.to_owned()));
    }
    BORROWED.with(|borrowed| borrowed.borrow_mut().push((handle, &slot.poisoned)));
    test_hook::maybe_panic(handle);
    Ok(&slot.value)
}

/// Like [`borrow`], but also hands out a poisoned object: for the export
/// that shuts a handle down before it is freed.
///
/// # Safety
/// As for [`borrow`].
pub(crate) unsafe fn borrow_to_close<'a, T>(handle: jlong) -> Outcome<&'a T> {
    // SAFETY: forwarded from the caller.
    let slot = unsafe { slot::<T>(handle)? };
    BORROWED.with(|borrowed| borrowed.borrow_mut().push((handle, &slot.poisoned)));
    Ok(&slot.value)
}

/// Why a poisoned handle refuses calls.
const POISONED: &str =
    "the handle is closed: an earlier call on it panicked, so its state is unknown";

/// # Safety
/// As for [`borrow`].
unsafe fn slot<'a, T>(handle: jlong) -> Outcome<&'a Slot<T>> {
    if handle == 0 {
        return Err(Failure::Closed("handle is closed".to_owned()));
    }
    // SAFETY: per the contract of `borrow`, the pointer is a live Box<Slot<T>>.
    Ok(unsafe { &*(handle as *const Slot<T>) })
}

/// Forgets the handles borrowed so far on this thread. The boundary calls it
/// when an export starts and when it ends without a panic.
pub(crate) fn forget_borrowed() {
    BORROWED.with(|borrowed| borrowed.borrow_mut().clear());
}

/// Poisons every handle the current export borrowed. Called by the boundary
/// once it caught a panic, before the export returns to Java (so every slot
/// in the list is still alive).
pub(crate) fn poison_borrowed() {
    let flags = BORROWED.with(|borrowed| std::mem::take(&mut *borrowed.borrow_mut()));
    for (_, flag) in flags {
        // SAFETY: the slot is alive until the export returns (see BORROWED).
        unsafe { &*flag }.store(true, Ordering::Release);
    }
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
        drop(unsafe { Box::from_raw(handle as *mut Slot<T>) });
    }
}

/// Test-only ways to make a real call panic inside the boundary: at the
/// borrow of a handle (before anything is submitted), or right after the
/// call marks its effect submitted. Java arms them only when the system
/// property `moraine.store.testHooks` is true (see `TestHooks`); unarmed,
/// each costs one relaxed load per borrow or per submission.
pub(crate) mod test_hook {
    use super::*;

    /// The handle whose next borrow panics, or 0.
    static ARMED: AtomicI64 = AtomicI64::new(0);

    pub(crate) fn arm(handle: jlong) {
        ARMED.store(handle, Ordering::Release);
    }

    /// The handle whose next submitting call panics after submission, or 0.
    static ARMED_SUBMITTED: AtomicI64 = AtomicI64::new(0);

    pub(crate) fn arm_after_submission(handle: jlong) {
        ARMED_SUBMITTED.store(handle, Ordering::Release);
    }

    /// Called by `boundary::mark_submitted`: panics if the current export
    /// borrowed the armed handle, disarming it (the compare-exchange lets
    /// exactly one call take the panic).
    pub(crate) fn maybe_panic_after_submission() {
        let armed = ARMED_SUBMITTED.load(Ordering::Relaxed);
        if armed == 0 {
            return;
        }
        let borrowed_it =
            BORROWED.with(|borrowed| borrowed.borrow().iter().any(|(handle, _)| *handle == armed));
        if borrowed_it
            && ARMED_SUBMITTED
                .compare_exchange(armed, 0, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        {
            panic!("injected by the test hook after submission");
        }
    }

    pub(super) fn maybe_panic(handle: jlong) {
        if ARMED.load(Ordering::Relaxed) == handle
            && ARMED
                .compare_exchange(handle, 0, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        {
            panic!("injected by the test hook");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_poisons_the_borrowed_handles_only() {
        let first = into_handle(1u32);
        let second = into_handle(2u32);
        let other = into_handle(3u32);
        forget_borrowed();
        unsafe {
            assert_eq!(*borrow::<u32>(first).unwrap(), 1);
            assert_eq!(*borrow::<u32>(second).unwrap(), 2);
        }
        poison_borrowed();
        unsafe {
            assert!(matches!(borrow::<u32>(first), Err(Failure::Closed(_))));
            assert!(matches!(borrow::<u32>(second), Err(Failure::Closed(_))));
            assert_eq!(*borrow::<u32>(other).unwrap(), 3);
            assert_eq!(*borrow_to_close::<u32>(first).unwrap(), 1);
        }
        forget_borrowed();
        unsafe {
            free::<u32>(first);
            free::<u32>(second);
            free::<u32>(other);
        }
    }
}
