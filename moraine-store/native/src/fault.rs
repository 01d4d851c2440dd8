//! A fault-injecting object store for tests.
//!
//! [`FaultyStore`] wraps any object store and consults a shared
//! [`FaultInjector`] on every PUT and GET: it can let N of them through and
//! fail the next M (optionally only those whose path contains a fragment such
//! as `/wal/` or `/manifest/`), fail a PUT after applying it (a lost
//! response), delay them, hold PUTs until released, and it counts the
//! ones that succeeded, by path. SlateDB wraps whatever store it is given in
//! its own retry layer, so a store below it sees every retry: to make an
//! operation fail for SlateDB, fail more attempts than its configured
//! retries.
//!
//! Listing, deleting, copying, renaming and multipart uploads pass through
//! untouched and uncounted.

use std::fmt;
use std::ops::Range;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use async_trait::async_trait;
use futures::stream::BoxStream;
use jni::objects::{JClass, JString};
use jni::sys::jlong;
use jni::JNIEnv;
use slatedb::bytes::Bytes;
use slatedb::object_store::path::Path;
use slatedb::object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, RenameOptions, Result as OsResult,
};
use tokio::sync::watch;

use crate::boundary::{guard, jni_failure, Failure, Outcome};
use crate::handle::{borrow, free, into_handle};

/// Failures still to inject for one kind of operation: let `skip` matching
/// operations through, then fail the next `remaining` matching ones.
#[derive(Default)]
struct FailRule {
    skip: u64,
    remaining: u64,
    fragment: Option<String>,
    /// The first failure is injected only after the inner store applied the
    /// operation: the caller is told it failed although it took effect (a
    /// lost response). The failures after it happen before the store, so the
    /// caller's retries of that PUT fail too. Used for PUTs, to produce
    /// writes whose outcome the writer cannot know.
    after_applying: bool,
}

impl FailRule {
    /// Consumes one operation on `path` and says whether it must fail.
    fn take(&mut self, path: &str) -> bool {
        if self.remaining == 0 || !matches(&self.fragment, path) {
            return false;
        }
        if self.skip > 0 {
            self.skip -= 1;
            return false;
        }
        self.remaining -= 1;
        true
    }

    /// Whether the failure just taken must be applied before it is reported:
    /// only the first of a rule's failures is, so that the writer's retries
    /// of a lost response fail too.
    fn applies_taken(&mut self) -> bool {
        std::mem::take(&mut self.after_applying)
    }
}

/// Whether `path` contains `fragment`. The path is matched as if it began
/// with `/`, so `/wal/` selects WAL objects whether or not the store path is
/// empty.
fn matches(fragment: &Option<String>, path: &str) -> bool {
    fragment
        .as_deref()
        .is_none_or(|f| format!("/{path}").contains(f))
}

#[derive(Default)]
struct FaultState {
    fail_puts: FailRule,
    fail_gets: FailRule,
    put_latency: Duration,
    get_latency: Duration,
    /// Only PUTs whose path contains this fragment are held (all if None).
    hold_fragment: Option<String>,
    /// Paths of the PUTs and GETs the inner store completed successfully.
    puts: Vec<String>,
    gets: Vec<String>,
    injected_put_failures: u64,
    injected_get_failures: u64,
}

/// The switchboard shared by Java (through its handle) and every
/// [`FaultyStore`] built with it.
pub(crate) struct FaultInjector {
    /// Guards counters and rules. Held only for short, non-async sections,
    /// never across an `.await`.
    state: Mutex<FaultState>,
    /// `true` while PUTs are held. Held PUTs wait on a receiver until it
    /// turns `false`.
    hold: watch::Sender<bool>,
}

impl FaultInjector {
    fn new() -> Self {
        let (hold, _) = watch::channel(false);
        Self {
            state: Mutex::new(FaultState::default()),
            hold,
        }
    }

    fn state(&self) -> MutexGuard<'_, FaultState> {
        // Every critical section is a few field updates with no panicking
        // call in between, so a poisoned lock still holds consistent data.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn release(&self) {
        self.hold.send_replace(false);
    }

    /// What a PUT to `path` must do before reaching the inner store. Returns
    /// `Ok(true)` when the PUT must be applied and then reported as failed.
    async fn before_put(&self, path: &str) -> OsResult<bool> {
        let (fail, after_applying, latency, held) = {
            let mut state = self.state();
            let fail = state.fail_puts.take(path);
            let after_applying = fail && state.fail_puts.applies_taken();
            if fail {
                state.injected_put_failures += 1;
            }
            let held = *self.hold.borrow() && matches(&state.hold_fragment, path);
            (fail, after_applying, state.put_latency, held)
        };
        if held {
            let mut rx = self.hold.subscribe();
            // An error means the sender is gone, which cannot happen while
            // `self` lives; either way the PUT is released.
            let _ = rx.wait_for(|held| !*held).await;
        }
        if !latency.is_zero() {
            tokio::time::sleep(latency).await;
        }
        if fail && !after_applying {
            return Err(injected("PUT", path));
        }
        Ok(fail)
    }

    async fn before_get(&self, path: &str) -> OsResult<()> {
        let (fail, latency) = {
            let mut state = self.state();
            let fail = state.fail_gets.take(path);
            if fail {
                state.injected_get_failures += 1;
            }
            (fail, state.get_latency)
        };
        if !latency.is_zero() {
            tokio::time::sleep(latency).await;
        }
        if fail {
            return Err(injected("GET", path));
        }
        Ok(())
    }

    fn record_put(&self, path: &str) {
        self.state().puts.push(path.to_owned());
    }

    fn record_get(&self, path: &str) {
        self.state().gets.push(path.to_owned());
    }
}

fn injected(op: &str, path: &str) -> slatedb::object_store::Error {
    slatedb::object_store::Error::Generic {
        store: "FaultyStore",
        source: format!("injected {op} failure at {path}").into(),
    }
}

/// An object store that consults a [`FaultInjector`] before delegating.
pub(crate) struct FaultyStore {
    inner: Arc<dyn ObjectStore>,
    injector: Arc<FaultInjector>,
    /// False when `inner` refuses PUTs with attributes (the local file
    /// system). The attributes are then dropped here, as SlateDB's own
    /// fallback would after a refusal, so that the refused attempt does not
    /// consume a rule meant for the PUT.
    inner_keeps_attributes: bool,
}

impl FaultyStore {
    pub(crate) fn new(
        inner: Arc<dyn ObjectStore>,
        injector: Arc<FaultInjector>,
        inner_keeps_attributes: bool,
    ) -> Self {
        Self {
            inner,
            injector,
            inner_keeps_attributes,
        }
    }
}

impl fmt::Debug for FaultyStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FaultyStore({:?})", self.inner)
    }
}

impl fmt::Display for FaultyStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FaultyStore({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for FaultyStore {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        mut opts: PutOptions,
    ) -> OsResult<PutResult> {
        if !self.inner_keeps_attributes {
            opts.attributes = Default::default();
        }
        let path = location.as_ref();
        let fail_after_applying = self.injector.before_put(path).await?;
        let result = self.inner.put_opts(location, payload, opts).await;
        if result.is_ok() {
            self.injector.record_put(path);
            if fail_after_applying {
                return Err(injected("PUT (applied)", path));
            }
        }
        result
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> OsResult<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> OsResult<GetResult> {
        let path = location.as_ref();
        self.injector.before_get(path).await?;
        let result = self.inner.get_opts(location, options).await;
        if result.is_ok() {
            self.injector.record_get(path);
        }
        result
    }

    async fn get_ranges(&self, location: &Path, ranges: &[Range<u64>]) -> OsResult<Vec<Bytes>> {
        let path = location.as_ref();
        self.injector.before_get(path).await?;
        let result = self.inner.get_ranges(location, ranges).await;
        if result.is_ok() {
            self.injector.record_get(path);
        }
        result
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, OsResult<Path>>,
    ) -> BoxStream<'static, OsResult<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, OsResult<ObjectMeta>> {
        self.inner.list(prefix)
    }

    fn list_with_offset(
        &self,
        prefix: Option<&Path>,
        offset: &Path,
    ) -> BoxStream<'static, OsResult<ObjectMeta>> {
        self.inner.list_with_offset(prefix, offset)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> OsResult<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> OsResult<()> {
        self.inner.copy_opts(from, to, options).await
    }

    async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> OsResult<()> {
        self.inner.rename_opts(from, to, options).await
    }
}

// ---------------------------------------------------------------------------
// JNI exports. The handle is a `Box<Arc<FaultInjector>>`: stores built with
// it hold their own `Arc`, so freeing the handle never invalidates them.

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

fn matching(paths: &[String], fragment: &Option<String>) -> jlong {
    paths.iter().filter(|p| matches(fragment, p)).count() as jlong
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
    after_applying: jni::sys::jboolean,
) {
    guard(&mut env, (), |env| {
        let rule = fail_rule(env, skip, times, &path_fragment, after_applying != 0)?;
        injector(handle)?.state().fail_puts = rule;
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
        injector(handle)?.state().fail_gets = rule;
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

/// Counts: `which` 0 = successful PUTs, 1 = successful GETs, 2 = injected
/// PUT failures, 3 = injected GET failures. The fragment filters 0 and 1.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultCount<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    which: jni::sys::jint,
    path_fragment: JString<'l>,
) -> jlong {
    guard(&mut env, 0, |env| {
        let fragment = fragment(env, &path_fragment)?;
        let injector = injector(handle)?;
        let state = injector.state();
        match which {
            0 => Ok(matching(&state.puts, &fragment)),
            1 => Ok(matching(&state.gets, &fragment)),
            2 => Ok(state.injected_put_failures as jlong),
            3 => Ok(state.injected_get_failures as jlong),
            other => Err(Failure::Invalid(format!("unknown counter {other}"))),
        }
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_faultReset<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_env| {
        let injector = injector(handle)?;
        *injector.state() = FaultState::default();
        injector.release();
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fail_rule_consumes_only_matching_paths() {
        let mut rule = FailRule {
            remaining: 2,
            fragment: Some("/wal/".to_owned()),
            ..FailRule::default()
        };
        assert!(!rule.take("db/manifest/1.manifest"));
        assert!(matches(&Some("/wal/".to_owned()), "wal/2.sst"));
        assert!(rule.take("db/wal/1.sst"));
        assert!(rule.take("db/wal/2.sst"));
        assert!(!rule.take("db/wal/3.sst"));
    }

    #[test]
    fn fail_rule_lets_skipped_operations_through_first() {
        let mut rule = FailRule {
            skip: 2,
            remaining: 1,
            fragment: Some("/wal/".to_owned()),
            ..FailRule::default()
        };
        assert!(!rule.take("db/manifest/1.manifest"));
        assert!(!rule.take("db/wal/1.sst"));
        assert!(!rule.take("db/wal/2.sst"));
        assert!(rule.take("db/wal/3.sst"));
        assert!(!rule.take("db/wal/4.sst"));
    }
}
