//! Object stores: how Java's `ObjectStoreSpec` becomes an
//! `Arc<dyn ObjectStore>`.
//!
//! Java builds the spec bottom-up into a short-lived handle
//! ([`StoreRef`]), hands it to an open call (which clones the `Arc`), then
//! frees the handle. The database keeps its own clone for as long as it
//! lives. S3-compatible stores are built in [`crate::s3`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jni::objects::{JClass, JString};
use jni::sys::{jboolean, jlong, JNI_FALSE, JNI_TRUE};
use jni::JNIEnv;
use slatedb::object_store::memory::InMemory;
use slatedb::object_store::ObjectStore;

use crate::boundary::{guard, jni_failure, Failure, Outcome};
use crate::fault::{FaultInjector, FaultyStore};
use crate::handle::{borrow, free, into_handle};
use crate::local::local_store;

/// An object store ready to be given to SlateDB.
pub(crate) struct StoreRef {
    pub(crate) store: Arc<dyn ObjectStore>,
    /// Whether the store honours `PutMode::Update` (If-Match). SlateDB's
    /// garbage collector advances its boundary files with it; a store
    /// without it (the local file system) gets boundary files turned off.
    pub(crate) conditional_update: bool,
    /// Whether the store keeps object attributes (content type and the
    /// like). The local file system refuses a PUT that carries any, and
    /// SlateDB then repeats the PUT without them; the fault-injecting
    /// wrapper drops them up front instead, so that each logical PUT reaches
    /// its rules once.
    pub(crate) keeps_attributes: bool,
}

/// Named in-memory stores of this process. A store lives here, shared by
/// every open of its name, until it is dropped by name; databases that still
/// hold it keep their own `Arc`.
fn memory_registry() -> &'static Mutex<HashMap<String, Arc<InMemory>>> {
    static REGISTRY: OnceLock<Mutex<HashMap<String, Arc<InMemory>>>> = OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(HashMap::new()))
}

fn lock_registry() -> std::sync::MutexGuard<'static, HashMap<String, Arc<InMemory>>> {
    // A panic while holding the lock cannot leave the map half-updated
    // (insert and remove are single calls), so a poisoned lock is safe to use.
    memory_registry()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub(crate) fn java_string(env: &mut JNIEnv, value: &JString) -> Outcome<String> {
    if value.is_null() {
        return Err(Failure::Invalid(
            "string argument must not be null".to_owned(),
        ));
    }
    Ok(env.get_string(value).map_err(jni_failure)?.into())
}

pub(crate) fn optional_string(env: &mut JNIEnv, value: &JString) -> Outcome<Option<String>> {
    if value.is_null() {
        Ok(None)
    } else {
        java_string(env, value).map(Some)
    }
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_storeMemory<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    name: JString<'l>,
) -> jlong {
    guard(&mut env, 0, |env| {
        let name = java_string(env, &name)?;
        let store = lock_registry()
            .entry(name)
            .or_insert_with(|| Arc::new(InMemory::new()))
            .clone();
        Ok(into_handle(StoreRef {
            store,
            conditional_update: true,
            keeps_attributes: true,
        }))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_storeMemoryDrop<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    name: JString<'l>,
) -> jboolean {
    guard(&mut env, JNI_FALSE, |env| {
        let name = java_string(env, &name)?;
        let removed = lock_registry().remove(&name).is_some();
        Ok(if removed { JNI_TRUE } else { JNI_FALSE })
    })
}

/// A local directory, created if missing. With `fsync` (the default on the
/// Java side) a write returns only once the object and its directory entry
/// are on stable storage (see `local`).
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_storeLocal<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    directory: JString<'l>,
    fsync: jboolean,
) -> jlong {
    guard(&mut env, 0, |env| {
        let directory = java_string(env, &directory)?;
        std::fs::create_dir_all(&directory).map_err(|e| {
            Failure::Unavailable(format!("cannot create directory {directory}: {e}"))
        })?;
        let store = local_store(&directory, fsync == JNI_TRUE)
            .map_err(|e| Failure::Invalid(format!("bad local directory {directory}: {e}")))?;
        Ok(into_handle(StoreRef {
            store,
            conditional_update: false,
            keeps_attributes: false,
        }))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_storeFaulty<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    inner: jlong,
    injector: jlong,
) -> jlong {
    guard(&mut env, 0, |_env| {
        // SAFETY: both handles are live for this call (Java guards them).
        let inner = unsafe { borrow::<StoreRef>(inner)? };
        let injector = unsafe { borrow::<Arc<FaultInjector>>(injector)? };
        Ok(into_handle(StoreRef {
            store: Arc::new(FaultyStore::new(
                inner.store.clone(),
                injector.clone(),
                inner.keeps_attributes,
            )),
            conditional_update: inner.conditional_update,
            keeps_attributes: true,
        }))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_storeFree<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_env| {
        // SAFETY: Java frees each store handle once, after its last use.
        unsafe { free::<StoreRef>(handle) };
        Ok(())
    })
}
