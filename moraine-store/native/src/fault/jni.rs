//! The injector's JNI exports. The handle is a `Box<Arc<FaultInjector>>`:
//! stores built with it hold their own `Arc`, so freeing the handle never
//! invalidates them.

use std::sync::Arc;
use std::time::Duration;

use jni::objects::{JClass, JString};
use jni::sys::{jboolean, jint, jlong};
use jni::JNIEnv;

use super::{FailRule, FaultInjector, Op};
use crate::boundary::{guard, jni_failure, Failure, Outcome};
use crate::handle::{borrow, free, into_handle};

fn injector<'a>(handle: jlong) -> Outcome<&'a Arc<FaultInjector>> {
    // SAFETY: Java passes a live injector handle and keeps it alive for the
    // call (FaultInjector guards its handle like every other).
    unsafe { borrow::<Arc<FaultInjector>>(handle) }
}

fn fragment(env: &mut JNIEnv, value: &JString) -> Outcome<Option<String>> {
    if value.is_null() {
        return Ok(None);
    }
    let text: String = env.get_string(value).map_err(jni_failure)?.into();
    Ok(Some(text))
}

fn count(value: jlong) -> Outcome<u64> {
    u64::try_from(value).map_err(|_| Failure::Invalid("count must not be negative".to_owned()))
}

/// A rule from the arguments Java passes for it, checked.
fn fail_rule(
    env: &mut JNIEnv,
    skip: jlong,
    times: jlong,
    path_fragment: &JString,
    after_applying: bool,
) -> Outcome<FailRule> {
    Ok(FailRule {
        skip: count(skip)?,
        remaining: count(times)?,
        fragment: fragment(env, path_fragment)?,
        after_applying,
    })
}

fn millis(value: jlong) -> Outcome<Duration> {
    Ok(Duration::from_millis(count(value)?))
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultNew<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jlong {
    guard(&mut env, 0, |_env| {
        Ok(into_handle(Arc::new(FaultInjector::new())))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultFree<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_env| {
        // Release held PUTs first: once Java lets go of the injector nobody
        // could release them any more.
        injector(handle)?.release();
        // SAFETY: Java frees the handle once, after its last use.
        unsafe { free::<Arc<FaultInjector>>(handle) };
        Ok(())
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultFailPuts<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    skip: jlong,
    times: jlong,
    path_fragment: JString<'l>,
    after_applying: jboolean,
) {
    guard(&mut env, (), |env| {
        let rule = fail_rule(env, skip, times, &path_fragment, after_applying != 0)?;
        injector(handle)?.state().rules[Op::Put as usize] = rule;
        Ok(())
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultFailGets<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    skip: jlong,
    times: jlong,
    path_fragment: JString<'l>,
) {
    guard(&mut env, (), |env| {
        let rule = fail_rule(env, skip, times, &path_fragment, false)?;
        injector(handle)?.state().rules[Op::Get as usize] = rule;
        Ok(())
    })
}

// Failing LISTs and DELETEs.

/// Replaces the rule of `operation` (an [`Op`] code: LIST or DELETE; PUTs
/// and GETs have their own exports above).
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultFailOthers<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    operation: jint,
    skip: jlong,
    times: jlong,
    path_fragment: JString<'l>,
) {
    guard(&mut env, (), |env| {
        let op = Op::from_code(operation)?;
        if !matches!(op, Op::List | Op::Delete) {
            return Err(Failure::Invalid(format!(
                "{} rules are set with their own call",
                op.name()
            )));
        }
        let rule = fail_rule(env, skip, times, &path_fragment, false)?;
        injector(handle)?.state().rules[op as usize] = rule;
        Ok(())
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultLatency<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    put_millis: jlong,
    get_millis: jlong,
) {
    guard(&mut env, (), |_env| {
        let (put, get) = (millis(put_millis)?, millis(get_millis)?);
        let injector = injector(handle)?;
        let mut state = injector.state();
        state.put_latency = put;
        state.get_latency = get;
        Ok(())
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultHoldPuts<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    path_fragment: JString<'l>,
) {
    guard(&mut env, (), |env| {
        let fragment = fragment(env, &path_fragment)?;
        let injector = injector(handle)?;
        // Set the filter before raising the gate so no PUT sees the gate
        // with a stale filter.
        injector.state().hold_fragment = fragment;
        injector.hold.send_replace(true);
        Ok(())
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultReleasePuts<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_env| {
        injector(handle)?.release();
        Ok(())
    })
}

/// A count: `operation` is an [`Op`] code; `injected` false counts the
/// operations the inner store completed, true the failures injected. The
/// fragment is null (all objects) or one of [`CLASS_FRAGMENTS`].
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultCount<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    operation: jint,
    injected: jboolean,
    path_fragment: JString<'l>,
) -> jlong {
    guard(&mut env, 0, |env| {
        let op = Op::from_code(operation)?;
        let fragment = fragment(env, &path_fragment)?;
        let count = injector(handle)?.count(op, injected != 0, &fragment)?;
        Ok(jlong::try_from(count).unwrap_or(jlong::MAX))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultReset<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_env| {
        injector(handle)?.reset();
        Ok(())
    })
}
