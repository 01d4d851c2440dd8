//! The JNI boundary: failure classification, the one throw helper, and the
//! panic guard every export runs through.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use jni::objects::{GlobalRef, JClass};
use jni::JNIEnv;
use slatedb::{CloseReason, ErrorKind};

use crate::handle;
use crate::secrets::redact;

/// A failure on its way to Java. Each variant is one exception class of
/// `dev.moraine.core.kv`.
#[derive(Debug, Clone)]
pub(crate) enum Failure {
    /// A transaction lost a write-write race.
    Conflict(String),
    /// A newer writer opened the store.
    Fenced(String),
    /// The handle or its database is closed.
    Closed(String),
    /// The object store failed or could not be reached, or the outcome is
    /// otherwise unknown.
    Unavailable(String),
    /// A refused argument or setting.
    Invalid(String),
    /// Stored data is corrupt or missing.
    Data(String),
}

impl Failure {
    /// Index into the cached class table; the order matches [`CLASS_NAMES`].
    fn class_index(&self) -> usize {
        match self {
            Failure::Conflict(_) => 0,
            Failure::Fenced(_) => 1,
            Failure::Closed(_) => 2,
            Failure::Unavailable(_) => 3,
            Failure::Invalid(_) => 4,
            Failure::Data(_) => 5,
        }
    }

    fn message(&self) -> &str {
        match self {
            Failure::Conflict(m)
            | Failure::Fenced(m)
            | Failure::Closed(m)
            | Failure::Unavailable(m)
            | Failure::Invalid(m)
            | Failure::Data(m) => m,
        }
    }
}

impl From<slatedb::Error> for Failure {
    /// Classifies a SlateDB error once, here, by its kind (never by its
    /// message). `Internal` and kinds added after 0.16 become
    /// [`Failure::Unavailable`]: the operation failed for a reason the caller
    /// cannot fix, and for a write its outcome is unknown, which is exactly
    /// what the Java `KvUnavailableException` promises.
    fn from(error: slatedb::Error) -> Self {
        let message = error.to_string();
        match error.kind() {
            ErrorKind::Transaction => Failure::Conflict(message),
            ErrorKind::Closed(CloseReason::Fenced) => Failure::Fenced(message),
            ErrorKind::Closed(_) => Failure::Closed(message),
            ErrorKind::Unavailable => Failure::Unavailable(message),
            ErrorKind::Invalid => Failure::Invalid(message),
            ErrorKind::Data => Failure::Data(message),
            _ => Failure::Unavailable(format!("internal store error: {message}")),
        }
    }
}

pub(crate) type Outcome<T> = Result<T, Failure>;

const CLASS_NAMES: [&str; 6] = [
    "dev/moraine/core/kv/KvTransactionConflictException",
    "dev/moraine/core/kv/KvFencedException",
    "dev/moraine/core/kv/KvClosedException",
    "dev/moraine/core/kv/KvUnavailableException",
    "dev/moraine/core/kv/KvInvalidArgumentException",
    "dev/moraine/core/kv/KvDataException",
];

/// Global references to the exception classes, resolved once in
/// `JNI_OnLoad` with the class loader that loaded the library.
static CLASSES: OnceLock<Vec<GlobalRef>> = OnceLock::new();

/// Resolves and caches the exception classes. Returns false if one is
/// missing (the JVM then refuses to load the library).
pub(crate) fn cache_exception_classes(env: &mut JNIEnv) -> bool {
    let mut refs = Vec::with_capacity(CLASS_NAMES.len());
    for name in CLASS_NAMES {
        let global = env
            .find_class(name)
            .and_then(|class| env.new_global_ref(class));
        match global {
            Ok(global) => refs.push(global),
            Err(_) => {
                let _ = env.exception_clear();
                return false;
            }
        }
    }
    let _ = CLASSES.set(refs);
    true
}

/// The one throw helper. Masks credentials in the message. Leaves an exception that is already pending (for
/// example an OutOfMemoryError from a failed array allocation) in place.
pub(crate) fn throw(env: &mut JNIEnv, failure: &Failure) {
    if env.exception_check().unwrap_or(true) {
        return;
    }
    // Every exception text passes here: credentials are masked once, for all.
    let message = redact(failure.message());
    let thrown = match CLASSES.get() {
        Some(classes) => {
            let class: &JClass = classes[failure.class_index()].as_obj().into();
            env.throw_new(class, &*message)
        }
        None => env.throw_new(CLASS_NAMES[failure.class_index()], &*message),
    };
    if thrown.is_err() && !env.exception_check().unwrap_or(true) {
        let _ = env.throw_new("java/lang/IllegalStateException", &*message);
    }
}

/// Runs one export's body. A failure is thrown as its Java exception and
/// `fallback` is returned (the JVM ignores the return value while an
/// exception is pending). A panic is caught here: every handle the call
/// borrowed is closed (see `handle`), and the call itself throws what
/// [`panic_failure`] says.
pub(crate) fn guard<'local, R>(
    env: &mut JNIEnv<'local>,
    fallback: R,
    body: impl FnOnce(&mut JNIEnv<'local>) -> Outcome<R>,
) -> R {
    handle::forget_borrowed();
    let result = catch_unwind(AssertUnwindSafe(|| body(env)));
    match result {
        Ok(Ok(value)) => {
            handle::forget_borrowed();
            value
        }
        Ok(Err(failure)) => {
            handle::forget_borrowed();
            throw(env, &failure);
            fallback
        }
        Err(payload) => {
            // Before returning to Java: the Java guard keeps every borrowed
            // handle alive until then.
            handle::poison_borrowed();
            throw(env, &panic_failure(payload.as_ref()));
            fallback
        }
    }
}

/// The one mapping of a caught panic to a failure. The call stopped
/// half-way, so its outcome is unknown: `KvUnavailableException`, whose
/// contract says exactly that for a write.
pub(crate) fn panic_failure(payload: &(dyn Any + Send)) -> Failure {
    Failure::Unavailable(format!(
        "native store call panicked: {}",
        panic_message(payload)
    ))
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "unknown panic".to_owned()
    }
}

/// Maps a JNI-level error (a failed array copy or string read) to a
/// failure. If the JVM already has an exception pending, [`throw`] keeps
/// that one.
pub(crate) fn jni_failure(error: jni::errors::Error) -> Failure {
    Failure::Invalid(format!("JNI call failed: {error}"))
}
