//! The one tokio runtime of the process.
//!
//! SlateDB spawns its background work (WAL flusher, memtable flusher,
//! compactor, garbage collector, manifest poller) on the runtime that is
//! current when a database is built, so every database and reader must be
//! built inside this runtime and it must outlive them: it is created once and
//! never shut down.
//!
//! Foreground calls enter it with [`block_on`] from the calling Java thread.
//! That thread is never one of the runtime's workers (they run only Rust
//! code and never call into Java), so `block_on` cannot be nested inside the
//! runtime, and a slow call blocks only the Java thread that made it.

use std::future::Future;
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

/// Runs `future` to completion on the calling (Java) thread, with the
/// shared runtime's reactor, timers and spawner available to it.
pub(crate) fn block_on<F: Future>(future: F) -> F::Output {
    runtime().block_on(future)
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
