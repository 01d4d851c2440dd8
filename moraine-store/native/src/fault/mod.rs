//! A fault-injecting object store for tests.
//!
//! [`FaultyStore`] wraps any object store and consults a shared
//! [`FaultInjector`] on every PUT, GET, LIST and DELETE: it can let N of
//! them through and fail the next M (optionally only those whose path
//! contains a fragment such as `/wal/` or `/manifest/`), fail a PUT after
//! applying it (a lost response), delay PUTs and GETs, hold PUTs until
//! released, and it counts the operations that completed and the failures it
//! injected. SlateDB wraps whatever store it is given in its own retry
//! layer, so a store below it sees every retry: to make an operation fail
//! for SlateDB, fail more attempts than its configured retries.
//!
//! Counting costs one atomic increment per operation and answering a count
//! reads at most four atomics: each operation is classified once, by its
//! path, into one of a few object classes (WAL, manifest, compacted SST,
//! anything else), and counts are kept per (operation, outcome, class).
//! Counts can therefore be asked only for those classes, not for arbitrary
//! fragments; rules still match any fragment.
//!
//! Copying, renaming and multipart uploads pass through untouched and
//! uncounted.

use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use async_trait::async_trait;
use futures::stream::{self, BoxStream, StreamExt};
use slatedb::bytes::Bytes;
use slatedb::object_store::path::Path;
use slatedb::object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    ObjectStoreExt, PutMultipartOptions, PutOptions, PutPayload, PutResult, RenameOptions,
    Result as OsResult,
};
use tokio::sync::watch;

use crate::boundary::{Failure, Outcome};

mod jni;
#[cfg(test)]
mod tests;

/// The operations the injector fails and counts. The discriminants are the
/// codes Java passes (`FaultInjector.Operation` ordinals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Put = 0,
    Get = 1,
    List = 2,
    Delete = 3,
}

const OPS: usize = 4;

impl Op {
    fn from_code(code: i32) -> Outcome<Op> {
        match code {
            0 => Ok(Op::Put),
            1 => Ok(Op::Get),
            2 => Ok(Op::List),
            3 => Ok(Op::Delete),
            other => Err(Failure::Invalid(format!("unknown operation {other}"))),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Op::Put => "PUT",
            Op::Get => "GET",
            Op::List => "LIST",
            Op::Delete => "DELETE",
        }
    }
}

/// The fragments that name the object classes counted apart, in class
/// order; class [`OTHER`] is every path that contains none of them.
const CLASS_FRAGMENTS: [&str; 3] = ["/wal/", "/manifest/", "/compacted/"];
const OTHER: usize = CLASS_FRAGMENTS.len();
const CLASSES: usize = CLASS_FRAGMENTS.len() + 1;

/// The class of `path`: the first class fragment it contains, else
/// [`OTHER`]. SlateDB's WAL, manifest and compacted directories are siblings,
/// so a path contains at most one of them.
fn class_of(path: &str) -> usize {
    CLASS_FRAGMENTS
        .iter()
        .position(|f| contains_fragment(path, f))
        .unwrap_or(OTHER)
}

/// The classes a count for `fragment` adds up: all of them for none, the
/// one it names otherwise. Any other fragment is refused: counts are kept
/// per class, not per path.
fn classes_for(fragment: &Option<String>) -> Outcome<Range<usize>> {
    match fragment.as_deref() {
        None => Ok(0..CLASSES),
        Some(f) => match CLASS_FRAGMENTS.iter().position(|c| *c == f) {
            Some(class) => Ok(class..class + 1),
            None => Err(Failure::Invalid(format!(
                "counts are kept for {CLASS_FRAGMENTS:?} or for all objects, not for {f:?}"
            ))),
        },
    }
}

/// Operations counted per (operation, class), for one outcome. Relaxed
/// atomics: each counter is independent, and a reader only needs every
/// increment that happened before it asked (the Java call that asks comes
/// after the store call that counted, through the JNI boundary).
struct Tally([[AtomicU64; CLASSES]; OPS]);

impl Tally {
    fn new() -> Self {
        Tally(std::array::from_fn(|_| {
            std::array::from_fn(|_| AtomicU64::new(0))
        }))
    }

    fn add(&self, op: Op, class: usize) {
        self.0[op as usize][class].fetch_add(1, Ordering::Relaxed);
    }

    fn sum(&self, op: Op, classes: Range<usize>) -> u64 {
        self.0[op as usize][classes]
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }

    fn clear(&self) {
        self.0
            .iter()
            .flatten()
            .for_each(|c| c.store(0, Ordering::Relaxed));
    }
}

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
        .is_none_or(|f| contains_fragment(path, f))
}

/// Whether `/{path}` contains `fragment`, without building that string: a
/// match either starts at the added `/` or lies wholly inside `path`.
fn contains_fragment(path: &str, fragment: &str) -> bool {
    path.contains(fragment)
        || fragment
            .strip_prefix('/')
            .is_some_and(|rest| path.starts_with(rest))
}

/// The path a LIST is matched and classified by: its prefix as a directory
/// (`db/manifest` lists `db/manifest/...`, so it is a manifest LIST).
fn list_path(prefix: Option<&Path>) -> String {
    prefix.map_or_else(String::new, |p| format!("{}/", p.as_ref()))
}

#[derive(Default)]
struct FaultState {
    /// One rule per operation, indexed by [`Op`].
    rules: [FailRule; OPS],
    put_latency: Duration,
    get_latency: Duration,
    /// Only PUTs whose path contains this fragment are held (all if None).
    hold_fragment: Option<String>,
}

/// The switchboard shared by Java (through its handle) and every
/// [`FaultyStore`] built with it.
pub(crate) struct FaultInjector {
    /// Guards the rules, latencies and hold filter. Held only for short,
    /// non-async sections, never across an `.await`.
    state: Mutex<FaultState>,
    /// Operations the inner store completed successfully. Not under `state`:
    /// counting takes no lock.
    completed: Tally,
    /// Failures injected, counted when the rule fires (before or, for a
    /// lost response, after the inner store ran).
    injected: Tally,
    /// `true` while PUTs are held. Held PUTs wait on a receiver until it
    /// turns `false`.
    hold: watch::Sender<bool>,
}

impl FaultInjector {
    fn new() -> Self {
        let (hold, _) = watch::channel(false);
        Self {
            state: Mutex::new(FaultState::default()),
            completed: Tally::new(),
            injected: Tally::new(),
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

    /// Clears rules, latencies, the hold filter and every count, and
    /// releases held PUTs. An operation in flight meanwhile may still be
    /// counted after the reset.
    fn reset(&self) {
        *self.state() = FaultState::default();
        self.completed.clear();
        self.injected.clear();
        self.release();
    }

    /// Consumes `op`'s rule for `path`; counts and reports an injected
    /// failure. For operations without latency or hold (LIST, DELETE).
    fn check(&self, op: Op, path: &str) -> OsResult<()> {
        let fail = self.state().rules[op as usize].take(path);
        if fail {
            self.injected.add(op, class_of(path));
            return Err(injected(op.name(), path));
        }
        Ok(())
    }

    /// What a PUT to `path` must do before reaching the inner store. Returns
    /// `Ok(true)` when the PUT must be applied and then reported as failed.
    async fn before_put(&self, path: &str) -> OsResult<bool> {
        let (fail, after_applying, latency, held) = {
            let mut state = self.state();
            let rule = &mut state.rules[Op::Put as usize];
            let fail = rule.take(path);
            let after_applying = fail && rule.applies_taken();
            let held = *self.hold.borrow() && matches(&state.hold_fragment, path);
            (fail, after_applying, state.put_latency, held)
        };
        if fail {
            self.injected.add(Op::Put, class_of(path));
        }
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
            (state.rules[Op::Get as usize].take(path), state.get_latency)
        };
        if fail {
            self.injected.add(Op::Get, class_of(path));
        }
        if !latency.is_zero() {
            tokio::time::sleep(latency).await;
        }
        if fail {
            return Err(injected("GET", path));
        }
        Ok(())
    }

    fn record(&self, op: Op, path: &str) {
        self.completed.add(op, class_of(path));
    }

    /// How many `op`s completed (`injected` false) or were failed on purpose
    /// (`injected` true), for the class `fragment` names or for all.
    fn count(&self, op: Op, injected: bool, fragment: &Option<String>) -> Outcome<u64> {
        let classes = classes_for(fragment)?;
        let tally = if injected {
            &self.injected
        } else {
            &self.completed
        };
        Ok(tally.sum(op, classes))
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

    /// A listing of `prefix` through the rules: one injected error, or the
    /// inner store's listing (counted once, when it is handed out).
    fn checked_list(
        &self,
        prefix: Option<&Path>,
        list: impl FnOnce() -> BoxStream<'static, OsResult<ObjectMeta>>,
    ) -> BoxStream<'static, OsResult<ObjectMeta>> {
        let path = list_path(prefix);
        match self.injector.check(Op::List, &path) {
            Err(e) => stream::once(async move { Err(e) }).boxed(),
            Ok(()) => {
                self.injector.record(Op::List, &path);
                list()
            }
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
            self.injector.record(Op::Put, path);
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
            self.injector.record(Op::Get, path);
        }
        result
    }

    async fn get_ranges(&self, location: &Path, ranges: &[Range<u64>]) -> OsResult<Vec<Bytes>> {
        let path = location.as_ref();
        self.injector.before_get(path).await?;
        let result = self.inner.get_ranges(location, ranges).await;
        if result.is_ok() {
            self.injector.record(Op::Get, path);
        }
        result
    }

    /// Deletes one object at a time through the inner store, so that a
    /// failure injected for one path cannot take its neighbours down with it
    /// (a bulk delete below would fail a whole chunk on one error).
    fn delete_stream(
        &self,
        locations: BoxStream<'static, OsResult<Path>>,
    ) -> BoxStream<'static, OsResult<Path>> {
        let inner = self.inner.clone();
        let injector = self.injector.clone();
        locations
            .then(move |location| {
                let inner = inner.clone();
                let injector = injector.clone();
                async move {
                    let location = location?;
                    injector.check(Op::Delete, location.as_ref())?;
                    inner.delete(&location).await?;
                    injector.record(Op::Delete, location.as_ref());
                    Ok(location)
                }
            })
            .boxed()
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, OsResult<ObjectMeta>> {
        self.checked_list(prefix, || self.inner.list(prefix))
    }

    fn list_with_offset(
        &self,
        prefix: Option<&Path>,
        offset: &Path,
    ) -> BoxStream<'static, OsResult<ObjectMeta>> {
        self.checked_list(prefix, || self.inner.list_with_offset(prefix, offset))
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> OsResult<ListResult> {
        let path = list_path(prefix);
        self.injector.check(Op::List, &path)?;
        let result = self.inner.list_with_delimiter(prefix).await;
        if result.is_ok() {
            self.injector.record(Op::List, &path);
        }
        result
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> OsResult<()> {
        self.inner.copy_opts(from, to, options).await
    }

    async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> OsResult<()> {
        self.inner.rename_opts(from, to, options).await
    }
}
