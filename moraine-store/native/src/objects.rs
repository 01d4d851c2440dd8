//! The lake's data files as objects: listing everything under a prefix and
//! deleting one object, for the file cleanup and the orphan search that Java
//! runs (docs/rfcs/0005-maintenance.md §4). SlateDB never sees these calls;
//! they go to the object store the handle names, with a deadline.

use futures::TryStreamExt;
use jni::objects::{JClass, JString};
use jni::sys::{jbyteArray, jlong};
use jni::JNIEnv;
use slatedb::object_store::path::Path;
use slatedb::object_store::{Error as StoreError, ObjectStore, ObjectStoreExt};

use crate::boundary::{guard, Failure};
use crate::bounded::{bounded, bounded_read};
use crate::stores::java_string;
use crate::views::java_bytes;
use crate::writer::{optional_millis, store};

/// Every object under `prefix` (all of them when it is empty), encoded for
/// Java as a sequence of entries, each: the path's UTF-8 length (4 bytes,
/// big-endian), the path, the size (8 bytes) and the last-modified time in
/// milliseconds since the epoch (8 bytes).
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_storeList<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    store_handle: jlong,
    prefix: JString<'l>,
    timeout_millis: jlong,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let prefix = java_string(env, &prefix)?;
        let objects = store(store_handle)?.store.clone();
        let limit = optional_millis(timeout_millis);
        let listed = bounded_read(env, limit, "listing the lake's objects", async move {
            let at = (!prefix.is_empty()).then(|| Path::from(prefix.as_str()));
            objects.list(at.as_ref()).try_collect::<Vec<_>>().await
        })?
        .map_err(|e| Failure::Unavailable(format!("cannot list the objects: {e}")))?;
        let mut out = Vec::new();
        for meta in listed {
            let path = meta.location.as_ref().as_bytes();
            out.extend_from_slice(&(path.len() as u32).to_be_bytes());
            out.extend_from_slice(path);
            out.extend_from_slice(&(meta.size as i64).to_be_bytes());
            out.extend_from_slice(&meta.last_modified.timestamp_millis().to_be_bytes());
        }
        java_bytes(env, &out)
    })
}

/// Deletes the object at `path`; an object that is not there counts as
/// deleted, so a cleanup that repeats a delete succeeds.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_storeDelete<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    store_handle: jlong,
    path: JString<'l>,
    timeout_millis: jlong,
) {
    guard(&mut env, (), |env| {
        let path = Path::from(java_string(env, &path)?.as_str());
        let objects = store(store_handle)?.store.clone();
        let limit = optional_millis(timeout_millis);
        let deleted = bounded(env, limit, "deleting an object", async move {
            objects.delete(&path).await
        })?;
        match deleted {
            Ok(()) | Err(StoreError::NotFound { .. }) => Ok(()),
            Err(e) => Err(Failure::Unavailable(format!(
                "cannot delete the object: {e}"
            ))),
        }
    })
}
