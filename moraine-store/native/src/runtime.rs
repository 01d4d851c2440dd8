//! The one tokio runtime of the process.
//!
//! SlateDB spawns its background work (WAL flusher, memtable flusher,
//! compactor, garbage collector, manifest poller) on the runtime that is
//! current when a database is built, so every database and reader must be
//! built inside this runtime and it must outlive them: it is created once and
//! never shut down.
//!
//! **Foreground calls run on the runtime's workers, not on the Java thread.**
//! A SlateDB future can be deep (opening a database nests many async calls,
//! and polling a future uses stack in proportion to its nesting), while a
//! Java thread may have been started with a small stack. [`block_on`]
//! therefore spawns the future onto the runtime, whose workers have tokio's
//! 2 MiB stacks, and the Java thread only waits for its join handle: the
//! Java thread's stack holds the JNI frame, the wait, and nothing that grows
//! with SlateDB's call depth. The workers run only Rust code and never call
//! into Java, so a Java thread waiting here cannot deadlock the runtime, and
//! a slow call blocks only the Java thread that made it.

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
        let (len, worker) = block_on(async { (words[0].len(), std::thread::current().id()) });
        assert_eq!(len, 8);
        assert_ne!(worker, caller);
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
        // (and abort the test run); polled on a worker, it fits.
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
