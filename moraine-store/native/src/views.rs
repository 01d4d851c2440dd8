//! Reads shared by every view (writer, snapshot, transaction, reader), and
//! the snapshot, transaction and iterator handles.

use std::sync::{Arc, Mutex, MutexGuard};

use jni::objects::{JByteArray, JClass};
use jni::sys::{jboolean, jbyteArray, jlong, JNI_TRUE};
use jni::JNIEnv;
use slatedb::bytes::Bytes;
use slatedb::config::ScanOptions;
use slatedb::{DbIterator, DbReadOps, DbSnapshot, DbTransaction, IterationOrder};

use crate::boundary::{guard, jni_failure, Failure, Outcome};
use crate::handle::{borrow, free, into_handle};
use crate::runtime::block_on;
use crate::validate::{check_key, check_value, ScanRange};
use crate::writer::Liveness;

// ---------------------------------------------------------------------------
// Conversions between Java arrays and Rust bytes.

/// Copies a non-null Java byte array.
pub(crate) fn bytes_of(env: &mut JNIEnv, array: &JByteArray) -> Outcome<Vec<u8>> {
    if array.is_null() {
        return Err(Failure::Invalid("byte array must not be null".to_owned()));
    }
    env.convert_byte_array(array).map_err(jni_failure)
}

/// Copies a Java byte array that may be null (an unbounded range side).
pub(crate) fn optional_bytes(env: &mut JNIEnv, array: &JByteArray) -> Outcome<Option<Bytes>> {
    if array.is_null() {
        Ok(None)
    } else {
        bytes_of(env, array).map(|b| Some(Bytes::from(b)))
    }
}

/// A new Java byte array holding `bytes` (as a raw local reference).
pub(crate) fn java_bytes(env: &mut JNIEnv, bytes: &[u8]) -> Outcome<jbyteArray> {
    Ok(env
        .byte_array_from_slice(bytes)
        .map_err(jni_failure)?
        .into_raw())
}

pub(crate) fn scan_range(
    env: &mut JNIEnv,
    start: &JByteArray,
    end: &JByteArray,
) -> Outcome<ScanRange> {
    Ok(ScanRange {
        start: optional_bytes(env, start)?,
        end: optional_bytes(env, end)?,
    })
}

// ---------------------------------------------------------------------------
// Generic reads over anything SlateDB can read from.

/// Point read. The value SlateDB returns may share a whole block, so it is
/// copied out into the Java array right away.
pub(crate) fn get_into_java<R: DbReadOps + Sync>(
    env: &mut JNIEnv,
    view: &R,
    key: &JByteArray,
) -> Outcome<jbyteArray> {
    let key = bytes_of(env, key)?;
    check_key(&key)?;
    let value = block_on(view.get(&key))?;
    match value {
        Some(value) => java_bytes(env, &value),
        None => Ok(std::ptr::null_mut()),
    }
}

/// Opens a scan and returns its iterator handle.
pub(crate) fn open_scan<R: DbReadOps + Sync>(
    view: &R,
    range: ScanRange,
    descending: jboolean,
) -> Outcome<jlong> {
    if range.is_empty() {
        return Ok(into_handle(ScanHandle::empty()));
    }
    let options = ScanOptions {
        order: if descending == JNI_TRUE {
            IterationOrder::Descending
        } else {
            IterationOrder::Ascending
        },
        // Catalog scans revisit the same regions; keep their blocks cached.
        cache_blocks: true,
        ..ScanOptions::default()
    };
    let iter = block_on(view.scan_with_options(range.bounds(), &options))?;
    Ok(into_handle(ScanHandle::live(iter)))
}

// ---------------------------------------------------------------------------
// Iterators.

/// A scan in progress. `None` once exhausted, or from the start for an
/// empty range. The mutex serialises `next` against itself; Java already
/// promises one thread at a time, and frees the handle only when no call is
/// in flight.
pub(crate) struct ScanHandle {
    iter: Mutex<Option<DbIterator>>,
}

impl ScanHandle {
    fn empty() -> Self {
        Self {
            iter: Mutex::new(None),
        }
    }

    fn live(iter: DbIterator) -> Self {
        Self {
            iter: Mutex::new(Some(iter)),
        }
    }

    fn lock(&self) -> Outcome<MutexGuard<'_, Option<DbIterator>>> {
        // A panic inside `next` may leave the iterator mid-step: refuse to
        // use it again rather than guess.
        self.iter
            .lock()
            .map_err(|_| Failure::Closed("iterator failed earlier and is unusable".to_owned()))
    }
}

/// Up to this many entries or bytes per JNI call.
const CHUNK_MAX_ENTRIES: usize = 256;
const CHUNK_MAX_BYTES: usize = 1 << 20;

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_iterNext<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        // SAFETY: a live iterator handle, guarded by Java for the call.
        let scan = unsafe { borrow::<ScanHandle>(handle)? };
        let mut slot = scan.lock()?;
        let Some(iter) = slot.as_mut() else {
            return Ok(std::ptr::null_mut());
        };
        let mut out = crate::codec::EntryWriter::new();
        let exhausted = block_on(async {
            while out.count() < CHUNK_MAX_ENTRIES && out.len_bytes() < CHUNK_MAX_BYTES {
                match iter.next().await? {
                    Some(kv) => out.push(&kv.key, &kv.value)?,
                    None => return Ok::<bool, Failure>(true),
                }
            }
            Ok(false)
        })?;
        if exhausted {
            *slot = None;
        }
        if out.count() == 0 {
            return Ok(std::ptr::null_mut());
        }
        java_bytes(env, &out.into_bytes())
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_iterFree<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_env| {
        // SAFETY: Java frees each iterator handle once, after its last use.
        unsafe { free::<ScanHandle>(handle) };
        Ok(())
    })
}

// ---------------------------------------------------------------------------
// Snapshots.

pub(crate) type SnapshotHandle = Arc<DbSnapshot>;

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_snapGet<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    key: JByteArray<'l>,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        // SAFETY: a live snapshot handle, guarded by Java for the call.
        let snapshot = unsafe { borrow::<SnapshotHandle>(handle)? };
        get_into_java(env, snapshot.as_ref(), &key)
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_snapScan<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    start: JByteArray<'l>,
    end: JByteArray<'l>,
    descending: jboolean,
) -> jlong {
    guard(&mut env, 0, |env| {
        // SAFETY: a live snapshot handle, guarded by Java for the call.
        let snapshot = unsafe { borrow::<SnapshotHandle>(handle)? };
        let range = scan_range(env, &start, &end)?;
        open_scan(snapshot.as_ref(), range, descending)
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_snapFree<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_env| {
        // SAFETY: Java frees each snapshot handle once, after its last use.
        unsafe { free::<SnapshotHandle>(handle) };
        Ok(())
    })
}

// ---------------------------------------------------------------------------
// Transactions.

/// A transaction until it is committed (commit consumes it) or freed.
pub(crate) struct TxnHandle {
    txn: Mutex<Option<DbTransaction>>,
    /// The database's status, so a transaction of a dead store fails as
    /// closed or fenced like the store itself.
    liveness: Liveness,
}

impl TxnHandle {
    pub(crate) fn new(txn: DbTransaction, liveness: Liveness) -> Self {
        Self {
            txn: Mutex::new(Some(txn)),
            liveness,
        }
    }

    /// Runs `f` on the open transaction.
    fn with<T>(&self, f: impl FnOnce(&DbTransaction) -> Outcome<T>) -> Outcome<T> {
        self.liveness.check()?;
        let slot = self.txn.lock().map_err(|_| {
            Failure::Closed("transaction failed earlier and is unusable".to_owned())
        })?;
        match slot.as_ref() {
            Some(txn) => f(txn),
            None => Err(Failure::Closed(
                "transaction is already committed".to_owned(),
            )),
        }
    }

    fn take(&self) -> Outcome<DbTransaction> {
        self.liveness.check()?;
        let mut slot = self.txn.lock().map_err(|_| {
            Failure::Closed("transaction failed earlier and is unusable".to_owned())
        })?;
        slot.take()
            .ok_or_else(|| Failure::Closed("transaction is already committed".to_owned()))
    }
}

fn txn<'a>(handle: jlong) -> Outcome<&'a TxnHandle> {
    // SAFETY: a live transaction handle, guarded by Java for the call.
    unsafe { borrow::<TxnHandle>(handle) }
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_txnGet<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    key: JByteArray<'l>,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        txn(handle)?.with(|t| get_into_java(env, t, &key))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_txnScan<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    start: JByteArray<'l>,
    end: JByteArray<'l>,
    descending: jboolean,
) -> jlong {
    guard(&mut env, 0, |env| {
        let range = scan_range(env, &start, &end)?;
        txn(handle)?.with(|t| open_scan(t, range, descending))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_txnPut<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    key: JByteArray<'l>,
    value: JByteArray<'l>,
) {
    guard(&mut env, (), |env| {
        let key = bytes_of(env, &key)?;
        let value = bytes_of(env, &value)?;
        check_key(&key)?;
        check_value(&value)?;
        txn(handle)?.with(|t| Ok(t.put(&key, &value)?))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_txnDelete<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    key: JByteArray<'l>,
) {
    guard(&mut env, (), |env| {
        let key = bytes_of(env, &key)?;
        check_key(&key)?;
        txn(handle)?.with(|t| Ok(t.delete(&key)?))
    })
}

/// Commits; returns the write's sequence number, or -1 if the transaction
/// wrote nothing. The transaction is consumed whatever the outcome.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_txnCommit<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jlong {
    guard(&mut env, -1, |_env| {
        let handle = txn(handle)?;
        let transaction = handle.take()?;
        let written = handle
            .liveness
            .remember(block_on(transaction.commit()).map_err(Failure::from))?;
        Ok(written.map_or(-1, |w| w.seqnum() as jlong))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_txnFree<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_env| {
        // Dropping an uncommitted DbTransaction rolls it back.
        // SAFETY: Java frees each transaction handle once, after its last use.
        unsafe { free::<TxnHandle>(handle) };
        Ok(())
    })
}
