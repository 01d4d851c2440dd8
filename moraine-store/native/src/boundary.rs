//! The JNI boundary: failure classification, the one throw helper, and the
//! panic guard every export runs through.

use std::any::Any;
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use jni::objects::{GlobalRef, JClass, JObject, JThrowable, JValue};
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
    /// A call failed after it handed its effect to SlateDB, and what
    /// happened to that effect is unknown.
    Unknown(Unknown, String),
}

/// Why an outcome is unknown; each variant is one constant of the Java
/// enum `KvOutcomeUnknownException.Reason`, of the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unknown {
    Fenced,
    Closed,
    StoreFailure,
    Timeout,
    Interrupted,
}

impl Unknown {
    fn java_name(self) -> &'static str {
        match self {
            Unknown::Fenced => "FENCED",
            Unknown::Closed => "CLOSED",
            Unknown::StoreFailure => "STORE_FAILURE",
            Unknown::Timeout => "TIMEOUT",
            Unknown::Interrupted => "INTERRUPTED",
        }
    }
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
            Failure::Unknown(..) => 6,
        }
    }

    /// The same failure seen by a call that had already handed its effect
    /// to SlateDB: a fence, a close or a store failure no longer proves
    /// that nothing was written, so they become [`Failure::Unknown`]. A
    /// conflict (SlateDB checks it before applying anything), a refused
    /// argument and corrupt data keep their meaning.
    pub(crate) fn after_submission(self) -> Failure {
        match self {
            Failure::Fenced(m) => Failure::Unknown(Unknown::Fenced, m),
            Failure::Closed(m) => Failure::Unknown(Unknown::Closed, m),
            Failure::Unavailable(m) => Failure::Unknown(Unknown::StoreFailure, m),
            other => other,
        }
    }

    /// True for a fence, whether or not the outcome is known.
    pub(crate) fn is_fence(&self) -> bool {
        matches!(
            self,
            Failure::Fenced(_) | Failure::Unknown(Unknown::Fenced, _)
        )
    }

    fn message(&self) -> &str {
        match self {
            Failure::Conflict(m)
            | Failure::Fenced(m)
            | Failure::Closed(m)
            | Failure::Unavailable(m)
            | Failure::Invalid(m)
            | Failure::Data(m)
            | Failure::Unknown(_, m) => m,
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

const CLASS_NAMES: [&str; 8] = [
    "dev/moraine/core/kv/KvTransactionConflictException",
    "dev/moraine/core/kv/KvFencedException",
    "dev/moraine/core/kv/KvClosedException",
    "dev/moraine/core/kv/KvUnavailableException",
    "dev/moraine/core/kv/KvInvalidArgumentException",
    "dev/moraine/core/kv/KvDataException",
    OUTCOME_UNKNOWN,
    OUTCOME_UNKNOWN_REASON,
];

const OUTCOME_UNKNOWN: &str = "dev/moraine/core/kv/KvOutcomeUnknownException";
const OUTCOME_UNKNOWN_REASON: &str = "dev/moraine/core/kv/KvOutcomeUnknownException$Reason";
/// Index of the reason enum in [`CLASS_NAMES`].
const REASON_CLASS: usize = 7;

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
    let thrown = match failure {
        Failure::Unknown(reason, _) => throw_unknown(env, *reason, &message),
        _ => match CLASSES.get() {
            Some(classes) => {
                let class: &JClass = classes[failure.class_index()].as_obj().into();
                env.throw_new(class, &*message)
            }
            None => env.throw_new(CLASS_NAMES[failure.class_index()], &*message),
        },
    };
    if thrown.is_err() && !env.exception_check().unwrap_or(true) {
        let _ = env.throw_new("java/lang/IllegalStateException", &*message);
    }
}

/// Throws `KvOutcomeUnknownException(reason, message)`; its constructor
/// takes the enum constant, so it is built here rather than by `throw_new`.
fn throw_unknown(env: &mut JNIEnv, reason: Unknown, message: &str) -> jni::errors::Result<()> {
    let (class, reason_class): (JClass, JClass) = match CLASSES.get() {
        Some(classes) => (
            env.new_local_ref(classes[6].as_obj())?.into(),
            env.new_local_ref(classes[REASON_CLASS].as_obj())?.into(),
        ),
        None => (
            env.find_class(OUTCOME_UNKNOWN)?,
            env.find_class(OUTCOME_UNKNOWN_REASON)?,
        ),
    };
    let constant = env
        .get_static_field(
            &reason_class,
            reason.java_name(),
            format!("L{OUTCOME_UNKNOWN_REASON};"),
        )?
        .l()?;
    let text = env.new_string(message)?;
    let exception: JObject = env.new_object(
        &class,
        format!("(L{OUTCOME_UNKNOWN_REASON};Ljava/lang/String;)V"),
        &[JValue::Object(&constant), JValue::Object(&text)],
    )?;
    env.throw(JThrowable::from(exception))
}

thread_local! {
    /// Whether the export running on this thread has handed its effect to
    /// SlateDB. Set by [`mark_submitted`], cleared when [`guard`] starts a
    /// call; read only by [`guard`] when the call panicked. A thread runs
    /// one export at a time, so the flag belongs to exactly one call.
    static SUBMITTED: Cell<bool> = const { Cell::new(false) };
}

/// Records that the current export is about to hand its effect (a write, a
/// commit, a flush, a checkpoint) to SlateDB. A panic from here on is an
/// unknown outcome rather than a refusal.
pub(crate) fn mark_submitted() {
    SUBMITTED.with(|flag| flag.set(true));
    handle::test_hook::maybe_panic_after_submission();
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
    SUBMITTED.with(|flag| flag.set(false));
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
            let failure = panic_failure(payload.as_ref());
            let failure = if SUBMITTED.with(Cell::get) {
                failure.after_submission()
            } else {
                failure
            };
            throw(env, &failure);
            fallback
        }
    }
}

/// The one mapping of a caught panic to a failure: `KvUnavailableException`
/// for a call that had not handed anything to SlateDB yet (nothing was
/// written), and, through [`Failure::after_submission`] in [`guard`],
/// `KvOutcomeUnknownException` (`STORE_FAILURE`) for one that had.
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
