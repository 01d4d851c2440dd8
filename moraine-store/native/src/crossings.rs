//! Calls that carry many keys or batches in one JNI crossing, and reads
//! that see only durable data.
//!
//! - `*GetAll`: a multi-get on each kind of view. Keys arrive in one array
//!   (the codec's key layout), values leave in one array (its value layout).
//!   The gets run concurrently on the calling thread (one `block_on` over
//!   all of them), so a multi-get that misses the cache waits for its
//!   object-store reads together rather than one after another.
//! - `*ScanRemote`: a scan with SlateDB's `DurabilityLevel::Remote` filter.
//!   The plain scans read at `Memory`, SlateDB's default.
//! - `txnPutAll`: buffers a whole encoded batch in a transaction.
//! - `dbWriteAll`: applies several encoded batches in order, each its own
//!   atomic SlateDB write.
//!
//! The durability filter, as SlateDB 0.16 applies it (`Reader::
//! prepare_max_seq`): `Remote` caps the visible sequence number at the last
//! one persisted to the object store, read when the get or scan starts. A
//! snapshot takes the smaller of that and its own; a transaction's own
//! buffered writes are never filtered; a `DbReader` holds only durable data,
//! so both levels see the same there.

use futures::future::try_join_all;
use jni::objects::{JByteArray, JClass, JLongArray};
use jni::sys::{jboolean, jbyteArray, jlong, JNI_TRUE};
use jni::JNIEnv;
use slatedb::bytes::Bytes;
use slatedb::config::{DurabilityLevel, ReadOptions};
use slatedb::DbReadOps;
use std::time::Duration;

use crate::boundary::{guard, jni_failure, Failure, Outcome};
use crate::bounded::{bounded, bounded_read};
use crate::codec::{
    apply_in_order, decode_batches, decode_keys, decode_ops, encode_values, to_write_batch,
    MAX_JAVA_ARRAY,
};
use crate::handle::borrow;
use crate::reader::reader;
use crate::views::{bytes_of, java_bytes, open_scan_at, scan_range, txn, SnapshotHandle};
use crate::writer::{reading, writing};

fn level(remote: jboolean) -> DurabilityLevel {
    if remote == JNI_TRUE {
        DurabilityLevel::Remote
    } else {
        DurabilityLevel::Memory
    }
}

/// Reads every key of an encoded key list at `remote`'s level and returns
/// the encoded values as a Java array.
fn get_all_into_java<R: DbReadOps + Sync>(
    env: &mut JNIEnv,
    view: &R,
    encoded_keys: Vec<u8>,
    remote: jboolean,
    limit: Option<Duration>,
) -> Outcome<jbyteArray> {
    let keys = decode_keys(&encoded_keys)?;
    let options = ReadOptions::new().with_durability_filter(level(remote));
    let reads = try_join_all(keys.iter().map(|key| view.get_with_options(key, &options)));
    let values: Vec<Option<Bytes>> = bounded_read(env, limit, "the multi-get", reads)??;
    let encoded = encode_values(&values, MAX_JAVA_ARRAY)?;
    java_bytes(env, &encoded)
}

// ---------------------------------------------------------------------------
// Multi-get.

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbGetAll<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    keys: JByteArray<'l>,
    remote: jboolean,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let keys = bytes_of(env, &keys)?;
        let (db, limit) = reading(handle)?;
        get_all_into_java(env, db, keys, remote, limit)
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_snapGetAll<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    keys: JByteArray<'l>,
    remote: jboolean,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let keys = bytes_of(env, &keys)?;
        // SAFETY: a live snapshot handle, guarded by Java for the call.
        let snapshot = unsafe { borrow::<SnapshotHandle>(handle)? };
        get_all_into_java(
            env,
            snapshot.snapshot.as_ref(),
            keys,
            remote,
            snapshot.limit,
        )
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_txnGetAll<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    keys: JByteArray<'l>,
    remote: jboolean,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let keys = bytes_of(env, &keys)?;
        let txn = txn(handle)?;
        txn.with(|t| get_all_into_java(env, t, keys, remote, txn.limit()))
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_readerGetAll<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    keys: JByteArray<'l>,
    remote: jboolean,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let keys = bytes_of(env, &keys)?;
        let reader = reader(handle)?;
        get_all_into_java(env, reader.reader.as_ref(), keys, remote, reader.limit)
    })
}

// ---------------------------------------------------------------------------
// Scans of durable data only.

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbScanRemote<'l>(
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
        open_scan_at(env, db, range, descending, DurabilityLevel::Remote, limit)
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_snapScanRemote<'l>(
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
        open_scan_at(
            env,
            snapshot.snapshot.as_ref(),
            range,
            descending,
            DurabilityLevel::Remote,
            snapshot.limit,
        )
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_txnScanRemote<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    start: JByteArray<'l>,
    end: JByteArray<'l>,
    descending: jboolean,
) -> jlong {
    guard(&mut env, 0, |env| {
        let range = scan_range(env, &start, &end)?;
        let txn = txn(handle)?;
        txn.with(|t| {
            let remote = DurabilityLevel::Remote;
            open_scan_at(env, t, range, descending, remote, txn.limit())
        })
    })
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_readerScanRemote<'l>(
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
        let remote = DurabilityLevel::Remote;
        open_scan_at(
            env,
            reader.reader.as_ref(),
            range,
            descending,
            remote,
            reader.limit,
        )
    })
}

// ---------------------------------------------------------------------------
// Batches.

/// Buffers every operation of an encoded batch in the transaction. The
/// whole batch is decoded and validated first; SlateDB's transaction put
/// and delete cannot fail after that, so the transaction gets all of the
/// batch or, on a refusal, none of it.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_txnPutAll<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    encoded: JByteArray<'l>,
) {
    guard(&mut env, (), |env| {
        let encoded = bytes_of(env, &encoded)?;
        let ops = decode_ops(&encoded)?;
        txn(handle)?.with(|t| {
            for op in ops {
                match op.value {
                    Some(value) => t.put(&op.key, &value)?,
                    None => t.delete(&op.key)?,
                }
            }
            Ok(())
        })
    })
}

/// Applies encoded batches (the codec's batch-list layout) in order, each
/// as its own atomic write, and stores their sequence numbers in `seqnums`
/// (one slot per batch). Stops at the first failure: the slots of the
/// batches applied before it are filled (also when the call then throws),
/// the rest are left as Java set them. Every batch is validated before the
/// first is written.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_dbWriteAll<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    encoded: JByteArray<'l>,
    seqnums: JLongArray<'l>,
) {
    guard(&mut env, (), |env| {
        let encoded = bytes_of(env, &encoded)?;
        let batches = decode_batches(&encoded)?;
        if seqnums.is_null() {
            return Err(Failure::Invalid(
                "sequence number array must not be null".to_owned(),
            ));
        }
        let slots = env.get_array_length(&seqnums).map_err(jni_failure)?;
        if usize::try_from(slots).ok() != Some(batches.len()) {
            return Err(Failure::Invalid(format!(
                "{} batches but {slots} sequence number slots",
                batches.len()
            )));
        }
        // `writing` checks the handle before each batch, so a batch after
        // one that discovered a fence or a close is never submitted.
        let (applied, failure) = apply_in_order(batches, |ops| {
            writing(handle, |writer| {
                let limit = writer.liveness.operation_timeout;
                let batch = to_write_batch(ops);
                let written = bounded(env, limit, "the write", writer.db.write(batch))??;
                Ok(written.seqnum())
            })
        });
        let applied: Vec<jlong> = applied.into_iter().map(|s| s as jlong).collect();
        env.set_long_array_region(&seqnums, 0, &applied)
            .map_err(jni_failure)?;
        match failure {
            Some(failure) => Err(failure),
            None => Ok(()),
        }
    })
}
