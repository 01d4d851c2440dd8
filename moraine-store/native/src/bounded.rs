//! Bounded, interruptible waits of the calling Java thread.
//!
//! A blocking export does not hand its whole future to one `block_on`:
//! it polls it in short slices ([`SLICE`]). Between slices it checks the
//! deadline and asks the JVM whether the calling thread was interrupted
//! (`Thread.isInterrupted`, which leaves the flag set for Java to see). So a
//! held or hung object store keeps a Java thread at most a slice past its
//! bound, and an interrupt ends the call within about a slice.
//!
//! A future stopped this way is dropped: SlateDB's foreground futures
//! (write, flush, commit, checkpoint) only wait on channels and object
//! store requests, and dropping them stops the waiting, not work SlateDB's
//! background tasks already accepted. Whatever the call had handed over may
//! still happen, so a stop of a write-path call ([`bounded`]) is reported as
//! an unknown outcome. A read hands nothing over, so a stopped read
//! ([`bounded_read`]) is reported as unavailable; a block fetch it started
//! may still finish in the background (SlateDB runs those as tasks).

use std::future::Future;
use std::task::Poll;
use std::time::{Duration, Instant};

use jni::JNIEnv;

use crate::boundary::{Failure, Unknown};
use crate::runtime::block_on;

/// How long one slice polls before the deadline and the interrupt flag are
/// looked at again.
pub(crate) const SLICE: Duration = Duration::from_millis(20);

/// Runs `future` on the calling Java thread for at most `limit` (None: no
/// limit), stopping early if the thread is interrupted. `what` names the
/// operation in the failure's message.
///
/// The future lives on the heap, not on the Java thread's stack, and each
/// slice is polled on a runtime worker ([`block_on`]), so neither its size
/// nor its call depth uses the Java thread's stack.
pub(crate) fn bounded<F>(
    env: &mut JNIEnv,
    limit: Option<Duration>,
    what: &str,
    future: F,
) -> Result<F::Output, Failure>
where
    F: Future + Send,
    F::Output: Send + 'static,
{
    let deadline = limit.map(|limit| Instant::now() + limit);
    let mut future = Box::pin(future);
    loop {
        let slice = match deadline {
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(Failure::Unknown(
                        Unknown::Timeout,
                        format!(
                            "{what} did not finish within its bound of {} ms",
                            limit.unwrap_or_default().as_millis()
                        ),
                    ));
                }
                left.min(SLICE)
            }
            None => SLICE,
        };
        // The same pinned future is polled again by the next slice; a
        // timeout here only stops polling it for now. A future that is
        // ready at its first poll (a read served from memory, the usual
        // case) returns before any timer exists. The timer is made inside
        // the async block, so inside the runtime that drives it.
        let polled = block_on(async {
            if let Poll::Ready(output) = futures::poll!(future.as_mut()) {
                return Ok(output);
            }
            tokio::time::timeout(slice, future.as_mut()).await
        });
        if let Ok(output) = polled {
            return Ok(output);
        }
        if interrupted(env) {
            return Err(Failure::Unknown(
                Unknown::Interrupted,
                format!("{what} was interrupted"),
            ));
        }
    }
}

/// Runs a read (or the open or close of a read-only handle) with the same
/// slices as [`bounded`]. A read writes nothing, so a stop is not an unknown
/// outcome: a call that passes its bound, or whose thread is interrupted,
/// fails as `Unavailable` (`KvUnavailableException`), its text saying which,
/// and the interrupt flag stays set. A read that finishes within the first
/// slice, the usual case, costs one poll and no JVM call.
pub(crate) fn bounded_read<F>(
    env: &mut JNIEnv,
    limit: Option<Duration>,
    what: &str,
    future: F,
) -> Result<F::Output, Failure>
where
    F: Future + Send,
    F::Output: Send + 'static,
{
    bounded(env, limit, what, future).map_err(|stopped| match stopped {
        Failure::Unknown(_, message) => {
            Failure::Unavailable(format!("{message}; a read writes nothing"))
        }
        other => other,
    })
}

/// Whether the calling Java thread's interrupt flag is set; false if the
/// JVM cannot tell us (then the deadline still bounds the call).
fn interrupted(env: &mut JNIEnv) -> bool {
    let asked = env.with_local_frame(4, |env| -> jni::errors::Result<bool> {
        let thread = env
            .call_static_method(
                "java/lang/Thread",
                "currentThread",
                "()Ljava/lang/Thread;",
                &[],
            )?
            .l()?;
        env.call_method(&thread, "isInterrupted", "()Z", &[])?.z()
    });
    match asked {
        Ok(flag) => flag,
        Err(_) => {
            // Leave no exception pending from a failed query: the call
            // goes on and reports its own outcome.
            let _ = env.exception_clear();
            false
        }
    }
}
