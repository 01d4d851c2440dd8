//! JNI binding of SlateDB for `dev.moraine.store`.
//!
//! Every exported function is a `Java_dev_moraine_store_Native_*` symbol
//! called by the Java class `dev.moraine.store.Native`. The rules every
//! export follows (see docs/rfcs/0001-store-binding.md):
//!
//! - It runs its body through [`boundary::guard`], which catches panics and
//!   turns every failure into one typed Java exception. No panic unwinds
//!   into the JVM.
//! - Async SlateDB calls run with [`runtime::block_on`]: spawned onto the
//!   shared runtime while the calling Java thread waits, so SlateDB's call
//!   depth never lands on a Java thread's stack. Java threads are never tokio
//!   workers and workers never call into Java, so this cannot deadlock.
//! - A panic closes every handle the panicking call borrowed ([`handle`]).
//! - Native objects live behind `jlong` handles made by [`handle`]. Java
//!   owns each handle and frees it exactly once; the Java side guarantees
//!   no call is in flight when it does.
//! - Keys, values and ranges are validated here ([`validate`]) before they
//!   reach SlateDB, whose write batch panics on bad keys.

mod boundary;
mod bounded;
mod codec;
mod crossings;
mod extractor;
mod fault;
mod format;
mod handle;
mod local;
mod log_bridge;
mod objects;
mod probe;
mod reader;
mod runtime;
mod s3;
mod secrets;
mod stores;
mod validate;
mod views;
mod writer;

use std::ffi::c_void;

use jni::sys::{jint, JNI_ERR, JNI_VERSION_1_8};
use jni::JavaVM;

/// Called by the JVM when the library is loaded: caches the exception
/// classes so that throwing never depends on the calling thread's class
/// loader.
///
/// # Safety
/// Called by the JVM with a valid `JavaVM` pointer.
#[no_mangle]
pub unsafe extern "system" fn JNI_OnLoad(
    vm: *mut jni::sys::JavaVM,
    _reserved: *mut c_void,
) -> jint {
    let loaded = std::panic::catch_unwind(|| {
        // SAFETY: the JVM hands us a valid pointer for the life of the process.
        let vm = match unsafe { JavaVM::from_raw(vm) } {
            Ok(vm) => vm,
            Err(_) => return false,
        };
        let mut env = match vm.get_env() {
            Ok(env) => env,
            Err(_) => return false,
        };
        boundary::cache_exception_classes(&mut env)
    });
    match loaded {
        Ok(true) => JNI_VERSION_1_8,
        _ => JNI_ERR,
    }
}

// ---------------------------------------------------------------------------
// Test hooks (panics at the boundary, text leaving native code).

/// Makes the next call that borrows `handle` panic inside the boundary. Java
/// calls it only when the system property `moraine.store.testHooks` is true.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_testPanicOnNextCall<'l>(
    mut env: jni::JNIEnv<'l>,
    _class: jni::objects::JClass<'l>,
    handle: jni::sys::jlong,
) {
    boundary::guard(&mut env, (), |_env| {
        handle::test_hook::arm(handle);
        Ok(())
    });
}

// Test hook: a panic after submission.

/// Makes the next call that borrows `handle` and hands an effect to SlateDB
/// panic right after it marked the effect submitted, so that the panic is an
/// unknown outcome. Java calls it only when the system property
/// `moraine.store.testHooks` is true.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_testPanicAfterSubmission<'l>(
    mut env: jni::JNIEnv<'l>,
    _class: jni::objects::JClass<'l>,
    handle: jni::sys::jlong,
) {
    boundary::guard(&mut env, (), |_env| {
        handle::test_hook::arm_after_submission(handle);
        Ok(())
    });
}

/// Logs `text` at warn level through the log bridge, then fails with `text`
/// as a `KvUnavailableException`: both of the ways text leaves the crate, so
/// a test can check what reaches Java of a text it chose. Java calls it only
/// when the system property `moraine.store.testHooks` is true.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_testLogAndFail<'l>(
    mut env: jni::JNIEnv<'l>,
    _class: jni::objects::JClass<'l>,
    text: jni::objects::JString<'l>,
) {
    boundary::guard(&mut env, (), |env| {
        let text: String = env.get_string(&text).map_err(boundary::jni_failure)?.into();
        log::warn!(target: "moraine_store_native::test_hook", "{text}");
        Err(boundary::Failure::Unavailable(text))
    });
}
