//! The read-write database handle.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use jni::objects::{JByteArray, JClass, JString};
use jni::sys::{jboolean, jbyteArray, jlong, jlongArray, JNI_FALSE, JNI_TRUE};
use jni::JNIEnv;
use slatedb::admin::Admin;
use slatedb::config::{
    CheckpointOptions, CheckpointScope, CompactorOptions, FlushOptions, FlushType,
    GarbageCollectorDirectoryOptions, GarbageCollectorOptions, Settings,
};
use slatedb::object_store::ObjectStore;
use slatedb::{CloseReason, Db, DbStatus, IsolationLevel};
use tokio::sync::watch;

use crate::boundary::{guard, jni_failure, mark_submitted, Failure, Outcome, Unknown};
use crate::bounded::{bounded, bounded_read};
use crate::codec::{decode_ops, to_write_batch};
use crate::extractor::TagExtractor;
use crate::handle::{borrow, borrow_to_close, free, into_handle};
use crate::runtime::{block_on, spawn};
use crate::stores::StoreRef;
use crate::views::{bytes_of, get_into_java, open_scan, scan_range, SnapshotHandle, TxnHandle};

/// The writer behind a handle, with a watch on its status.
pub(crate) struct Writer {
    pub(crate) db: Db,
    pub(crate) liveness: Liveness,
    /// Where the database lives, for the administrative calls `Db` does
    /// not offer (deleting a checkpoint goes through SlateDB's `Admin`,
    /// which rewrites the manifest in that store).
    path: String,
    main_store: Arc<dyn ObjectStore>,
    /// How far `dbClose` has got; only ever moves forward. See
    /// [`await_durable`]. Shared with the close task, which may outlive
    /// the handle (see `dbClose`).
    closing: Arc<watch::Sender<Closing>>,
}

/// The progress of `dbClose`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Closing {
    /// `dbClose` has not been called.
    Open,
    /// `dbClose` is about to call, or is in, `Db::close`.
    Started,
    /// `Db::close` has returned (or panicked).
    Finished,
}

/// Close tasks (of `dbClose`, and of opens that passed their bound) that
/// have not finished; see `dbCloseTasksRunning`.
static CLOSE_TASKS: AtomicUsize = AtomicUsize::new(0);

/// Counts one close task in [`CLOSE_TASKS`] for as long as it lives.
pub(crate) struct CloseTask;

impl CloseTask {
    pub(crate) fn start() -> Self {
        CLOSE_TASKS.fetch_add(1, Ordering::AcqRel);
        CloseTask
    }
}

impl Drop for CloseTask {
    fn drop(&mut self) {
        CLOSE_TASKS.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Moves `closing` to `Finished` when dropped: after `Db::close` returned,
/// and also if it panicked (the boundary catches the panic; without this a
/// waiter could block forever).
struct FinishClosing(Arc<watch::Sender<Closing>>);

impl Drop for FinishClosing {
    fn drop(&mut self) {
        // `send_replace` stores the value even when no receiver exists; a
        // waiter that subscribes later sees it at once.
        self.0.send_replace(Closing::Finished);
    }
}

/// Tells whether a database has closed, cheaply (a read of a watch channel,
/// no clone of the status).
///
/// SlateDB closes a database after a fatal error (a WAL write that failed
/// beyond its retries, a fence) and then answers every call with that
/// original error, whose kind may be `Unavailable`. The SPI wants a handle
/// that died to say so: the call that hit the failure reports it as it is,
/// every later call reports `KvClosedException` (or `KvFencedException`).
/// So each call first checks the close reason here.
///
/// SlateDB reports a fence to the call that discovers it a moment before it
/// records the close, so a call made right after could still be accepted.
/// `fenced` closes that window: once any call on the handle (or on one of
/// its transactions) has seen `Fenced`, every later call is refused here.
///
/// It also carries the database's operation timeout, the bound of every
/// blocking write-path call on the writer and its transactions.
#[derive(Clone)]
pub(crate) struct Liveness {
    status: watch::Receiver<DbStatus>,
    fenced: Arc<AtomicBool>,
    /// The bound of blocking calls (None: unbounded, which Java passes
    /// only for a timeout too long to count in milliseconds).
    pub(crate) operation_timeout: Option<Duration>,
}

impl Liveness {
    pub(crate) fn of(db: &Db, operation_timeout: Option<Duration>) -> Self {
        Self {
            status: db.subscribe(),
            fenced: Arc::new(AtomicBool::new(false)),
            operation_timeout,
        }
    }

    /// Passes `result` through, remembering a fence it reports.
    pub(crate) fn remember<T>(&self, result: Outcome<T>) -> Outcome<T> {
        if let Err(failure) = &result {
            if failure.is_fence() {
                self.fenced.store(true, Ordering::Release);
            }
        }
        result
    }

    fn durable_seq(&self) -> u64 {
        self.status.borrow().durable_seq
    }

    pub(crate) fn check(&self) -> Outcome<()> {
        if self.fenced.load(Ordering::Acquire) {
            return Err(fenced_failure());
        }
        let reason = self.status.borrow().close_reason;
        match reason {
            None => Ok(()),
            Some(CloseReason::Fenced) => Err(fenced_failure()),
            Some(CloseReason::Clean) => Err(Failure::Closed("the store is closed".to_owned())),
            Some(_) => Err(Failure::Closed(
                "the store closed itself after a fatal error".to_owned(),
            )),
        }
    }
}

fn fenced_failure() -> Failure {
    Failure::Fenced("a newer writer opened this store; this handle may no longer write".to_owned())
}

/// Runs a call that hands an effect to SlateDB (writes, flushes,
/// checkpoints) on an open writer, and remembers a fence it reports.
///
/// The liveness check comes first: a handle already known closed or fenced
/// refuses the call before anything is handed over (`KvClosedException`,
/// `KvFencedException`: nothing written). Every failure of `call` itself
/// comes after submission and is reported as an unknown outcome
/// ([`Failure::after_submission`]).
pub(crate) fn writing<T>(handle: jlong, call: impl FnOnce(&Writer) -> Outcome<T>) -> Outcome<T> {
    let writer = writer(handle)?;
    writer.liveness.check()?;
    mark_submitted();
    writer
        .liveness
        .remember(call(writer))
        .map_err(Failure::after_submission)
}

/// The writer behind `handle`, without checking that it is open.
fn writer<'a>(handle: jlong) -> Outcome<&'a Writer> {
    // SAFETY: a live writer handle, guarded by Java for the call.
    unsafe { borrow::<Writer>(handle) }
}

/// The database behind `handle`, refusing one that has closed, with the
/// bound of its reads (the operation timeout).
pub(crate) fn reading<'a>(handle: jlong) -> Outcome<(&'a Db, Option<Duration>)> {
    let writer = writer(handle)?;
    writer.liveness.check()?;
    Ok((&writer.db, writer.liveness.operation_timeout))
}

/// A Java duration in milliseconds where a negative value means "none".
pub(crate) fn optional_millis(millis: jlong) -> Option<Duration> {
    u64::try_from(millis).ok().map(Duration::from_millis)
}

pub(crate) fn store<'a>(handle: jlong) -> Outcome<&'a StoreRef> {
    // SAFETY: Java keeps the store handle alive until the open returns.
    unsafe { borrow::<StoreRef>(handle) }
}

pub(crate) fn optional_store<'a>(handle: jlong) -> Outcome<Option<&'a StoreRef>> {
    if handle == 0 {
        Ok(None)
    } else {
        store(handle).map(Some)
    }
}

pub(crate) fn java_path(env: &mut JNIEnv, path: &JString) -> Outcome<String> {
    if path.is_null() {
        return Err(Failure::Invalid("store path must not be null".to_owned()));
    }
    Ok(env.get_string(path).map_err(jni_failure)?.into())
}

/// Opens (creating if needed) the store as the writer, fencing any other.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_moraine_store_Native_dbOpen<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    store_handle: jlong,
    path: JString<'l>,
    wal_store_handle: jlong,
    flush_interval_millis: jlong,
    manifest_poll_millis: jlong,
    max_retries: jlong,
    compactor: jboolean,
    garbage_collector: jboolean,
    tag_extractor: jboolean,
    operation_timeout_millis: jlong,
    compactor_poll_millis: jlong,
    l0_sst_bytes: jlong,
) -> jlong {
    guard(&mut env, 0, |env| {
        let path = java_path(env, &path)?;
        let main = store(store_handle)?;
        let wal = optional_store(wal_store_handle)?;
        let max_retries = u32::try_from(max_retries).ok();
        let manifest_poll = optional_millis(manifest_poll_millis)
            .ok_or_else(|| Failure::Invalid("manifest poll interval is required".to_owned()))?;

        let garbage_collector_options = (garbage_collector == JNI_TRUE).then(|| {
            // Boundary files are advanced with If-Match PUTs; a store that
            // cannot do them (the local file system answers NotImplemented)
            // would make every GC run fail, so they are off there. Without
            // them a GC pass racing a manifest update from another client
            // could delete a file that client still needs: acceptable for a
            // local directory, which has one writer and is used for tests.
            let conditional = main.conditional_update && wal.is_none_or(|w| w.conditional_update);
            // The manifest directory is collected twice a second, and a manifest is old enough to
            // go after 10 seconds (SlateDB's defaults: every 10 minutes, after 5). A writer
            // catalog publishes a short-lived checkpoint per log flush, so manifests come at the
            // flush rate: each run also drops the expired checkpoints in one manifest update
            // (SlateDB does that before every collection), which keeps the manifest's checkpoint
            // list, and so the cost of every publication, small; and the directory stays short
            // for the listings that find the latest manifest. A manifest a checkpoint still
            // names is kept whatever its age.
            GarbageCollectorOptions {
                boundary_files_enabled: conditional,
                object_store_max_retries: max_retries,
                manifest_options: Some(GarbageCollectorDirectoryOptions {
                    interval: Some(Duration::from_millis(500)),
                    min_age: Duration::from_secs(10),
                    dry_run: false,
                }),
                ..GarbageCollectorOptions::default()
            }
        });
        let defaults = Settings::default();
        let l0_sst_size_bytes = usize::try_from(l0_sst_bytes)
            .ok()
            .filter(|bytes| *bytes > 0)
            .unwrap_or(defaults.l0_sst_size_bytes);
        let settings = crate::format::with_sst_format(Settings {
            l0_sst_size_bytes,
            flush_interval: optional_millis(flush_interval_millis),
            manifest_poll_interval: manifest_poll,
            object_store_max_retries: max_retries,
            compactor_options: (compactor == JNI_TRUE).then(|| CompactorOptions {
                poll_interval: optional_millis(compactor_poll_millis)
                    .unwrap_or(CompactorOptions::default().poll_interval),
                ..CompactorOptions::default()
            }),
            garbage_collector_options,
            ..defaults
        });

        // The SST format is fixed (format.rs); the in-process compactor
        // writes with it too.
        let mut builder = Db::builder(path.clone(), main.store.clone())
            .with_settings(settings)
            .with_sst_block_size(crate::format::SST_BLOCK_SIZE)
            .with_filter_policies(crate::format::filter_policies());
        if let Some(wal) = wal {
            builder = builder.with_wal_object_store(wal.store.clone());
        }
        if tag_extractor == JNI_TRUE {
            builder = builder.with_segment_extractor(Arc::new(TagExtractor));
        }
        let operation_timeout = optional_millis(operation_timeout_millis);
        let db = open_bounded(env, operation_timeout, builder)?;
        let liveness = Liveness::of(&db, operation_timeout);
        let (closing, _) = watch::channel(Closing::Open);
        Ok(into_handle(Writer {
            db,
            liveness,
            path,
            main_store: main.store.clone(),
            closing: Arc::new(closing),
        }))
    })
}

/// Builds the database within `limit`. The build runs as a runtime task:
/// a build that passes its bound (or whose caller is interrupted) may
/// already have fenced the previous writer or be about to start background
/// tasks, so it is neither cut half-way nor left running as a writer nobody
/// holds. A second task waits for it and closes the database it produced.
/// The caller is told the outcome is unknown (whether the store was created
/// and the previous writer fenced).
fn open_bounded(
    env: &mut JNIEnv,
    limit: Option<Duration>,
    builder: slatedb::DbBuilder<String>,
) -> Outcome<Db> {
    let mut build = spawn(builder.build());
    match bounded(env, limit, "opening the store", &mut build) {
        Ok(Ok(built)) => Ok(built?),
        Ok(Err(_panicked)) => Err(Failure::Unavailable(
            "opening the store panicked".to_owned(),
        )),
        Err(stopped) => {
            let counted = CloseTask::start();
            spawn(async move {
                let _counted = counted;
                if let Ok(Ok(orphan)) = build.await {
                    let _ = orphan.close().await;
                }
            });
            Err(stopped)
        }
    }
}

/// Closes the database: flushes what is in memory and stops its background
/// tasks, within the operation timeout. Safe to call while other calls are
/// in flight: they fail with a closed error, except that a waiter in
/// `dbAwaitDurable` whose write this close makes durable returns normally.
/// Does not free the handle.
///
/// `Db::close` runs as a task of the runtime, not on this thread, and this
/// thread waits for it within the bound. A close that passes its bound (or
/// whose caller is interrupted) is therefore not abandoned half-way: it
/// finishes in the background, holding its own clone of the `Db`, while the
/// caller is told the outcome of its unflushed writes is unknown.
///
/// A handle that already knew it was fenced or had failed does not flush
/// (SlateDB skips the final flush then); its close reports nothing, since
/// the calls that met the failure reported it.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbClose<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |env| {
        // A writer a panic closed is still shut down, so that its background
        // tasks stop; its state is unknown, so whatever the close reports is
        // passed on.
        // SAFETY: a live writer handle, guarded by Java for the call.
        let writer = unsafe { borrow_to_close::<Writer>(handle)? };
        let already_dead = writer.liveness.check().is_err();
        // `Started` is published before `Db::close` can record the clean
        // close, so a waiter that sees that close also sees `Started` (the
        // status watch orders the two) and knows the close is this one.
        writer.closing.send_replace(Closing::Started);
        let db = writer.db.clone();
        let liveness = writer.liveness.clone();
        // Publishes `Finished` when the task ends, after `Db::close`
        // returned (or panicked). A fence discovered by the final flush is
        // remembered before that (`_finished` drops last), so a waiter
        // reports it.
        let finished = FinishClosing(writer.closing.clone());
        let counted = CloseTask::start();
        let task = spawn(async move {
            let _counted = counted;
            let _finished = finished;
            match db.close().await {
                Ok(()) => Ok(()),
                // Closing twice is not a failure of this close.
                Err(e) if matches!(e.kind(), slatedb::ErrorKind::Closed(CloseReason::Clean)) => {
                    Ok(())
                }
                Err(e) => liveness.remember(Err(e.into())),
            }
        });
        let closed = match bounded(
            env,
            writer.liveness.operation_timeout,
            "closing the store",
            task,
        ) {
            Ok(Ok(result)) => result,
            Ok(Err(_panicked)) => Err(Failure::Unavailable(
                "closing the store panicked".to_owned(),
            )),
            Err(stopped) => Err(stopped),
        };
        match closed {
            Ok(()) => Ok(()),
            Err(_) if already_dead => Ok(()),
            Err(failure) => Err(failure.after_submission()),
        }
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbFree<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_env| {
        // SAFETY: Java frees each writer handle once, after its last use.
        unsafe { free::<Writer>(handle) };
        Ok(())
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbGet<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    key: JByteArray<'l>,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let (db, limit) = reading(handle)?;
        get_into_java(env, db, &key, limit)
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbScan<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    start: JByteArray<'l>,
    end: JByteArray<'l>,
    descending: jboolean,
) -> jlong {
    guard(&mut env, 0, |env| {
        let (db, limit) = reading(handle)?;
        let range = scan_range(env, &start, &end)?;
        open_scan(env, db, range, descending, limit)
    })
}

/// Applies an encoded batch (see `codec`); returns its sequence number.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbWrite<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    encoded: JByteArray<'l>,
) -> jlong {
    guard(&mut env, -1, |env| {
        let encoded = bytes_of(env, &encoded)?;
        let batch = to_write_batch(decode_ops(&encoded)?);
        writing(handle, |writer| {
            let limit = writer.liveness.operation_timeout;
            let written = bounded(env, limit, "the write", writer.db.write(batch))??;
            Ok(written.seqnum() as jlong)
        })
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbBegin<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jlong {
    guard(&mut env, 0, |env| {
        let writer = writer(handle)?;
        writer.liveness.check()?;
        let limit = writer.liveness.operation_timeout;
        let begun = writer.db.begin(IsolationLevel::Snapshot);
        let txn = bounded_read(env, limit, "beginning the transaction", begun)??;
        Ok(into_handle(TxnHandle::new(txn, writer.liveness.clone())))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbSnapshot<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jlong {
    guard(&mut env, 0, |env| {
        let (db, limit) = reading(handle)?;
        let snapshot = bounded_read(env, limit, "taking the snapshot", db.snapshot())??;
        Ok(into_handle(SnapshotHandle { snapshot, limit }))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbFlushWal<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |env| {
        writing(handle, |writer| {
            let limit = writer.liveness.operation_timeout;
            Ok(bounded(env, limit, "the WAL flush", writer.db.flush())??)
        })
    })
}

/// Writes the memtable out as a sorted-string table in the main store (and
/// moves the log's replay point past what it held), after making the log
/// durable.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbFlushMemtable<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |env| {
        writing(handle, |writer| {
            let limit = writer.liveness.operation_timeout;
            let flushed = writer.db.flush_with_options(FlushOptions {
                flush_type: FlushType::MemTable,
            });
            Ok(bounded(env, limit, "the memtable flush", flushed)??)
        })
    })
}

/// Waits until `seqnum` is durable, or the database closes, or the timeout
/// (negative: none) passes. Returns false only on timeout.
///
/// A clean close needs care. SlateDB's `Db::close` records the close reason
/// *before* its final flush, and that flush may make the awaited write
/// durable. So a waiter that sees a clean close does not answer at once: it
/// waits until `dbClose` has finished `Db::close` (`Closing::Finished`),
/// then looks at the durable sequence number again. Nothing can become
/// durable after that (the close flushed and stopped every background task),
/// so the answer is final. A fenced close or one after a fatal error never
/// flushes, so it is answered at once as before.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbAwaitDurable<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    seqnum: jlong,
    timeout_millis: jlong,
) -> jboolean {
    guard(&mut env, JNI_FALSE, |_env| {
        // No liveness check: a write that became durable before the store
        // died is still durable, and the wait below reports a close itself.
        let writer = writer(handle)?;
        let target = u64::try_from(seqnum)
            .map_err(|_| Failure::Invalid("sequence number must not be negative".to_owned()))?;
        let done = writer
            .liveness
            .remember(match optional_millis(timeout_millis) {
                None => block_on(await_durable(writer, target)).map(|()| true),
                Some(timeout) => block_on(async {
                    match tokio::time::timeout(timeout, await_durable(writer, target)).await {
                        Ok(result) => result.map(|()| true),
                        Err(_elapsed) => Ok(false),
                    }
                }),
            })?;
        Ok(if done { JNI_TRUE } else { JNI_FALSE })
    })
}

/// The wait of `dbAwaitDurable`, without its timeout.
async fn await_durable(writer: &Writer, target: u64) -> Outcome<()> {
    let mut status = writer.db.subscribe();
    // Wakes on every status change; done once the write is durable or the
    // database has closed, whichever comes first. `wait_for` looks at the
    // current value first, so a change made before the subscription is
    // not missed.
    let seen = status
        .wait_for(|s| s.durable_seq >= target || s.close_reason.is_some())
        .await
        .map(|s| (s.durable_seq, s.close_reason));
    let reason = match seen {
        Ok((durable, _)) if durable >= target => return Ok(()),
        Ok((_, reason)) => reason,
        // The sender lives as long as the `Db`, which outlives this call;
        // treat its loss like a close all the same.
        Err(_) => None,
    };
    if reason == Some(CloseReason::Fenced) {
        return Err(fenced_before_durable());
    }
    if reason == Some(CloseReason::Panic) {
        return Err(Failure::Unknown(
            Unknown::StoreFailure,
            "the store failed and closed itself before the write became durable".to_owned(),
        ));
    }
    // A clean close that `dbClose` started, possibly still flushing. (One
    // it did not start, which SlateDB should never report, is answered at
    // once rather than waited for: nothing would ever finish it.)
    if reason == Some(CloseReason::Clean) && *writer.closing.borrow() >= Closing::Started {
        // Wait for `Db::close` to return. The state only moves forward and
        // `wait_for` checks the current value first, so subscribing after
        // `Finished` was published returns at once. An error would mean
        // the sender is gone, impossible while this call holds the handle;
        // the final check below runs either way.
        let mut closing = writer.closing.subscribe();
        let _ = closing.wait_for(|c| *c == Closing::Finished).await;
        // The close has returned: its final flush, if any, is reflected in
        // the status (SlateDB reports the durable sequence number before
        // its flush returns).
        if writer.liveness.durable_seq() >= target {
            return Ok(());
        }
        if writer.liveness.fenced.load(Ordering::Acquire) {
            return Err(fenced_before_durable());
        }
    }
    Err(Failure::Unknown(
        Unknown::Closed,
        "the store closed before the write became durable".to_owned(),
    ))
}

fn fenced_before_durable() -> Failure {
    Failure::Unknown(
        Unknown::Fenced,
        "the store was fenced before the write became durable".to_owned(),
    )
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbDurableSeq<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jlong {
    guard(&mut env, -1, |_env| {
        // No liveness check: after a fence, a fatal error or a panic the
        // durable sequence number is final, and reconciliation needs it.
        // SAFETY: a live writer handle, guarded by Java for the call.
        let writer = unsafe { borrow_to_close::<Writer>(handle)? };
        Ok(writer.liveness.durable_seq() as jlong)
    })
}

/// Creates a durable-scope checkpoint; returns `[uuid msb, uuid lsb,
/// manifest id]`.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbCheckpoint<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    lifetime_millis: jlong,
) -> jlongArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let options = CheckpointOptions {
            lifetime: optional_millis(lifetime_millis),
            ..CheckpointOptions::default()
        };
        let created = writing(handle, |writer| {
            let limit = writer.liveness.operation_timeout;
            let checkpoint = writer
                .db
                .create_checkpoint(CheckpointScope::Durable, &options);
            Ok(bounded(env, limit, "creating the checkpoint", checkpoint)??)
        })?;
        let (msb, lsb) = created.id.as_u64_pair();
        let parts = [msb as jlong, lsb as jlong, created.manifest_id as jlong];
        let array = env.new_long_array(3).map_err(jni_failure)?;
        env.set_long_array_region(&array, 0, &parts)
            .map_err(jni_failure)?;
        Ok(array.into_raw())
    })
}

/// Deletes a checkpoint from the manifest (one not there is not an error).
/// `Db` has no such call; SlateDB's `Admin` on the same store and path
/// does it with a conditional manifest update, which the writer's own
/// manifest updates retry around, as they do around a reader's.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbDeleteCheckpoint<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    id_msb: jlong,
    id_lsb: jlong,
) {
    guard(&mut env, (), |env| {
        let id = uuid::Uuid::from_u64_pair(id_msb as u64, id_lsb as u64);
        writing(handle, |writer| {
            let limit = writer.liveness.operation_timeout;
            let admin = Admin::builder(writer.path.clone(), writer.main_store.clone()).build();
            let deleted = async move { admin.delete_checkpoint(id).await };
            Ok(bounded(env, limit, "deleting the checkpoint", deleted)??)
        })
    })
}

// Bounded calls: closes still finishing in the background.

/// How many close tasks have not finished: closes that passed their bound
/// (or whose caller was interrupted) and are still flushing, and closers of
/// opens that passed theirs. Lets tests wait until nothing writes any more.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbCloseTasksRunning<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jlong {
    guard(&mut env, 0, |_env| {
        Ok(CLOSE_TASKS.load(Ordering::Acquire) as jlong)
    })
}
