//! The one tokio runtime of the process.
//!
//! SlateDB spawns its background work (WAL flusher, memtable flusher,
//! compactor, garbage collector, manifest poller) on the runtime that is
//! current when a database is built, so every database and reader must be
//! built inside this runtime and it must outlive them: it is created once and
//! never shut down.
//!
//! **A foreground call runs on the Java thread only when that thread has the
//! stack for it.** A SlateDB future can be deep (opening a database nests
//! many async calls, and polling a future uses stack in proportion to its
//! nesting), while a Java thread may have been started with a small stack.
//! Handing every call to a worker is safe but costs two thread hand-offs
//! per call (a small get went from about 2.4 us to 18 us on the build
//! machines, BENCHMARK.md). So [`block_on`] first asks how much stack the
//! calling thread has left ([`remaining_stack`]): with at least
//! [`INLINE_STACK_FLOOR`] it polls the future right there; with less, or
//! when the platform cannot tell, it spawns the future onto the runtime,
//! whose workers have tokio's 2 MiB stacks, and the Java thread only waits
//! for its join handle. The workers run only Rust code and never call into
//! Java, so a Java thread waiting here cannot deadlock the runtime, and a
//! slow call blocks only the Java thread that made it.

use std::future::Future;
use std::panic::resume_unwind;
use std::pin::Pin;
use std::sync::OnceLock;

use tokio::runtime::{Builder, Runtime};

static RUNTIME: OnceLock<Runtime> = OnceLock::new();

fn runtime() -> &'static Runtime {
    RUNTIME.get_or_init(|| {
        Builder::new_multi_thread()
            .enable_all()
            .thread_name("moraine-slatedb")
            .build()
            // Only fails if the OS refuses threads; the panic is caught at
            // the JNI boundary and the next call tries again.
            .expect("cannot start the tokio runtime")
    })
}

/// Runs `future` to completion on the runtime and returns its output to the
/// calling (Java) thread, which waits meanwhile. A panic inside the future
/// resumes on the calling thread, where the JNI boundary catches it.
///
/// The future may borrow from the caller (a `&Db` behind a handle, a key):
/// it is spawned as if it were `'static`, which is sound because this
/// function does not return, normally or by unwinding, until the task has
/// finished and dropped the future (see the comments below).
pub(crate) fn block_on<'a, F>(future: F) -> F::Output
where
    F: Future + Send + 'a,
    F::Output: Send + 'static,
{
    if remaining_stack().is_some_and(|left| left >= INLINE_STACK_FLOOR) {
        // Enough stack for any SlateDB call: poll it here, no hand-off.
        return runtime().block_on(future);
    }
    on_a_worker(future)
}

/// How much stack a thread must have left for a store call to be polled on
/// it. SlateDB 0.16's deepest calls (opening a database) were seen to fit
/// in well under 144 KiB; the floor leaves room for HotSpot's guard zones
/// at the end of a Java thread's stack and for deeper futures in later
/// SlateDB versions. A default Java thread (1 MiB) polls inline.
pub(crate) const INLINE_STACK_FLOOR: usize = 512 * 1024;

thread_local! {
    /// The lowest address of this thread's stack, looked up once per thread
    /// (0: not known).
    static STACK_LOW: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// The bytes of stack the calling thread has left below the current frame,
/// or None where the platform does not tell (then calls go to a worker).
pub(crate) fn remaining_stack() -> Option<usize> {
    let low = STACK_LOW.with(|cell| {
        if cell.get().is_none() {
            cell.set(Some(stack_low().unwrap_or(0)));
        }
        cell.get().unwrap_or(0)
    });
    if low == 0 {
        return None;
    }
    let here = &low as *const usize as usize;
    here.checked_sub(low)
}

#[cfg(target_os = "linux")]
fn stack_low() -> Option<usize> {
    // SAFETY: the attribute object is initialised by pthread_getattr_np
    // before it is read and destroyed once; the out-parameters are locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let read = libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        (read == 0 && !addr.is_null()).then_some(addr as usize)
    }
}

#[cfg(not(target_os = "linux"))]
fn stack_low() -> Option<usize> {
    None
}

/// [`block_on`] on a runtime worker: the Java thread's stack holds the JNI
/// frame and the wait, nothing that grows with SlateDB's call depth.
fn on_a_worker<'a, F>(future: F) -> F::Output
where
    F: Future + Send + 'a,
    F::Output: Send + 'static,
{
    let boxed: Pin<Box<dyn Future<Output = F::Output> + Send + 'a>> = Box::pin(future);
    // SAFETY: only the lifetime changes. The borrows inside `future` must
    // stay valid until the task is done with them. Tokio completes a join
    // handle only after the task's future has been dropped (after it
    // returned Ready or panicked), and this runtime is never shut down and
    // no one else holds the handle to abort it, so waiting for the handle
    // is waiting for that drop. The wait itself cannot unwind: if anything
    // below did, `MustFinish` aborts the process rather than let a running
    // task outlive what it borrows.
    let boxed: Pin<Box<dyn Future<Output = F::Output> + Send + 'static>> =
        unsafe { std::mem::transmute(boxed) };
    let task = runtime().spawn(boxed);
    let must_finish = MustFinish;
    let joined = runtime().block_on(task);
    std::mem::forget(must_finish);
    match joined {
        Ok(output) => output,
        Err(error) if error.is_panic() => resume_unwind(error.into_panic()),
        // Cancelled: impossible (see above); the task and its borrows are
        // gone either way, so reporting it as a panic is safe.
        Err(error) => panic!("store task ended without a result: {error}"),
    }
}

/// Aborts the process if dropped, i.e. if waiting for a spawned task
/// unwound before the task finished.
struct MustFinish;

impl Drop for MustFinish {
    fn drop(&mut self) {
        std::process::abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_borrowing_future_runs_on_a_worker_and_returns_its_output() {
        let caller = std::thread::current().id();
        let words = vec!["borrowed".to_owned()];
        let (len, worker) = on_a_worker(async { (words[0].len(), std::thread::current().id()) });
        assert_eq!(len, 8);
        assert_ne!(worker, caller);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_thread_with_a_large_stack_polls_inline_and_a_small_one_hands_off() {
        let run = |stack: usize| {
            std::thread::Builder::new()
                .stack_size(stack)
                .spawn(|| {
                    let caller = std::thread::current().id();
                    let left = remaining_stack().expect("Linux tells the stack bounds");
                    let ran_on = block_on(async { std::thread::current().id() });
                    (left, ran_on == caller)
                })
                .unwrap()
                .join()
                .unwrap()
        };
        let (left, inline) = run(4 * 1024 * 1024);
        assert!(
            left > INLINE_STACK_FLOOR && left <= 4 * 1024 * 1024,
            "left {left}"
        );
        assert!(inline, "a 4 MiB stack polls on the calling thread");
        let (left, inline) = run(256 * 1024);
        assert!(left < INLINE_STACK_FLOOR, "left {left}");
        assert!(!inline, "a 256 KiB stack hands the call to a worker");
    }

    #[test]
    fn a_panic_in_the_future_resumes_on_the_caller() {
        let caught = std::panic::catch_unwind(|| block_on(async { panic!("inside the task") }));
        let payload = caught.expect_err("the panic must reach the caller");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"inside the task"));
    }

    /// A future whose poll needs 256 KiB of stack.
    struct StackHungry;

    impl Future for StackHungry {
        type Output = u8;

        #[inline(never)]
        fn poll(self: Pin<&mut Self>, _cx: &mut std::task::Context<'_>) -> std::task::Poll<u8> {
            let buffer = std::hint::black_box([7u8; 256 * 1024]);
            std::task::Poll::Ready(buffer[std::hint::black_box(1000)])
        }
    }

    #[test]
    fn a_small_caller_stack_is_enough_for_a_stack_hungry_future() {
        // Polled on this 64 KiB thread, the future would overflow its stack
        // (and abort the test run); block_on sees the small stack and polls
        // it on a worker, where it fits.
        let result = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(|| block_on(StackHungry))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(result, 7);
    }
}

/// Starts `future` as a task of the shared runtime. Used for work that must
/// run to its end even if the Java thread that asked stops waiting for it.
pub(crate) fn spawn<F>(future: F) -> tokio::task::JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    runtime().spawn(future)
}
