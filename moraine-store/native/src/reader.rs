//! Read-only handles: latest-following or checkpoint-pinned. Neither mode
//! writes to the store (SlateDB's default "managed checkpoint" mode, which
//! writes a checkpoint at open, is deliberately not offered).

use std::sync::Arc;
use std::time::Duration;

use jni::objects::{JByteArray, JClass, JString};
use jni::sys::{jboolean, jbyteArray, jlong, JNI_TRUE};
use jni::JNIEnv;
use slatedb::config::DbReaderOptions;
use slatedb::{CloseReason, DbReader, DbReaderMode};
use uuid::Uuid;

use crate::boundary::{guard, Failure, Outcome};
use crate::bounded::bounded_read;
use crate::extractor::TagExtractor;
use crate::handle::{borrow, borrow_to_close, free, into_handle};
use crate::runtime::spawn;
use crate::views::{get_into_java, open_scan, scan_range};
use crate::writer::{java_path, optional_millis, optional_store, store, CloseTask};

/// A reader, with the bound of its reads, of its close, and of every scan
/// opened on it (the operation timeout passed at open). The `Arc` lets a
/// close that passes its bound finish in the background (see `readerClose`).
pub(crate) struct ReaderHandle {
    pub(crate) reader: Arc<DbReader>,
    pub(crate) limit: Option<Duration>,
}

pub(crate) fn reader<'a>(handle: jlong) -> Outcome<&'a ReaderHandle> {
    // SAFETY: a live reader handle, guarded by Java for the call.
    unsafe { borrow::<ReaderHandle>(handle) }
}

/// Opens a reader. `pinned` selects a checkpoint (`uuid_msb`, `uuid_lsb`);
/// otherwise it follows the latest durable state, polling every
/// `poll_millis`. The open, and later every read, scan run and the close,
/// are bounded by `operation_timeout_millis` (negative: unbounded).
///
/// The build runs as a runtime task. One that passes its bound (or whose
/// caller is interrupted) is not cut half-way, which could leave its poller
/// running with no handle to stop it: a second task waits for it and closes
/// the reader it produced (counted by `dbCloseTasksRunning`).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_moraine_store_Native_readerOpen<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    store_handle: jlong,
    path: JString<'l>,
    wal_store_handle: jlong,
    pinned: jboolean,
    uuid_msb: jlong,
    uuid_lsb: jlong,
    poll_millis: jlong,
    max_retries: jlong,
    tag_extractor: jboolean,
    operation_timeout_millis: jlong,
) -> jlong {
    guard(&mut env, 0, |env| {
        let path = java_path(env, &path)?;
        let main = store(store_handle)?;
        let wal = optional_store(wal_store_handle)?;
        let poll = optional_millis(poll_millis)
            .ok_or_else(|| Failure::Invalid("reader poll interval is required".to_owned()))?;
        let options = DbReaderOptions {
            manifest_poll_interval: poll,
            object_store_max_retries: u32::try_from(max_retries).ok(),
            ..DbReaderOptions::default()
        };
        let mode = if pinned == JNI_TRUE {
            DbReaderMode::Checkpoint(Uuid::from_u64_pair(uuid_msb as u64, uuid_lsb as u64))
        } else {
            DbReaderMode::FollowLatest
        };
        // A reader decodes a filter block only with a policy of the same
        // name (format.rs).
        let mut builder = DbReader::builder(path, main.store.clone())
            .with_reader_mode(mode)
            .with_options(options)
            .with_filter_policies(crate::format::filter_policies());
        if let Some(wal) = wal {
            builder = builder.with_wal_object_store(wal.store.clone());
        }
        if tag_extractor == JNI_TRUE {
            builder = builder.with_segment_extractor(Arc::new(TagExtractor));
        }
        let limit = optional_millis(operation_timeout_millis);
        let mut build = spawn(builder.build());
        match bounded_read(env, limit, "opening the reader", &mut build) {
            Ok(Ok(built)) => Ok(into_handle(ReaderHandle {
                reader: Arc::new(built?),
                limit,
            })),
            Ok(Err(_panicked)) => Err(Failure::Unavailable(
                "opening the reader panicked".to_owned(),
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
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_readerGet<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    key: JByteArray<'l>,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let reader = reader(handle)?;
        get_into_java(env, reader.reader.as_ref(), &key, reader.limit)
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_readerScan<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    start: JByteArray<'l>,
    end: JByteArray<'l>,
    descending: jboolean,
) -> jlong {
    guard(&mut env, 0, |env| {
        let reader = reader(handle)?;
        let range = scan_range(env, &start, &end)?;
        open_scan(env, reader.reader.as_ref(), range, descending, reader.limit)
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_readerClose<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |env| {
        // A reader a panic closed is still shut down, so that its poller
        // stops.
        // SAFETY: a live reader handle, guarded by Java for the call.
        let handle = unsafe { borrow_to_close::<ReaderHandle>(handle)? };
        // The close runs as a task holding its own `Arc` of the reader, so
        // one that passes its bound finishes in the background after the
        // handle is freed, rather than being cut half-way.
        let reader = Arc::clone(&handle.reader);
        let counted = CloseTask::start();
        let mut closing = spawn(async move {
            let _counted = counted;
            reader.close().await
        });
        match bounded_read(env, handle.limit, "closing the reader", &mut closing)? {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) if matches!(e.kind(), slatedb::ErrorKind::Closed(CloseReason::Clean)) => {
                Ok(())
            }
            Ok(Err(e)) => Err(e.into()),
            Err(_panicked) => Err(Failure::Unavailable(
                "closing the reader panicked".to_owned(),
            )),
        }
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_readerFree<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_env| {
        // SAFETY: Java frees each reader handle once, after its last use.
        unsafe { free::<ReaderHandle>(handle) };
        Ok(())
    })
}
