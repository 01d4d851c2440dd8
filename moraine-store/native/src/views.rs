//! Reads shared by every view (writer, snapshot, transaction, reader), and
//! the snapshot, transaction and iterator handles.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use jni::objects::{JByteArray, JClass};
use jni::sys::{jboolean, jbyteArray, jlong, JNI_TRUE};
use jni::JNIEnv;
use slatedb::bytes::Bytes;
use slatedb::config::{DurabilityLevel, ScanOptions};
use slatedb::{DbIterator, DbReadOps, DbSnapshot, DbTransaction, IterationOrder};

use crate::boundary::{guard, jni_failure, mark_submitted, Failure, Outcome};
use crate::bounded::{bounded, bounded_read};
use crate::codec::{EntryWriter, Pushed};
use crate::handle::{borrow, free, into_handle};
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
    check_java_array_len(bytes.len())?;
    Ok(env
        .byte_array_from_slice(bytes)
        .map_err(jni_failure)?
        .into_raw())
}

/// Refuses a length no Java array can hold, before one is allocated: JNI
/// takes the length as a signed 32-bit `jsize`, so a value of 2 GiB or more
/// would otherwise wrap to a negative size (`NegativeArraySizeException`) or
/// silently to a shorter one. SlateDB values may be up to 4 GiB; one written
/// by another client and too large for Java is stored data this binding
/// cannot deliver, hence `Data`.
pub(crate) fn check_java_array_len(len: usize) -> Outcome<()> {
    if len > crate::codec::MAX_JAVA_ARRAY {
        return Err(Failure::Data(format!(
            "a stored value of {len} bytes is larger than a Java array can hold ({} bytes)",
            crate::codec::MAX_JAVA_ARRAY
        )));
    }
    Ok(())
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

/// Point read within `limit` (see `bounded::bounded_read`). The value
/// SlateDB returns may share a whole block, so it is copied out into the
/// Java array right away.
pub(crate) fn get_into_java<R: DbReadOps + Sync>(
    env: &mut JNIEnv,
    view: &R,
    key: &JByteArray,
    limit: Option<Duration>,
) -> Outcome<jbyteArray> {
    let key = bytes_of(env, key)?;
    check_key(&key)?;
    let value = bounded_read(env, limit, "the read", view.get(&key))??;
    match value {
        Some(value) => java_bytes(env, &value),
        None => Ok(std::ptr::null_mut()),
    }
}

/// Opens a scan within `limit` and returns its iterator handle, which keeps
/// `limit` as the bound of each of its runs.
///
/// A descending scan does not use SlateDB's descending iteration: in slatedb
/// 0.16.0 it returns wrong results once the range spans several SSTs holding
/// overlapping versions (deleted keys and older versions reappear, live keys
/// go missing; found by the property test, pinned by the contract test
/// `descendingScansAreRightAcrossSeveralSsts`). It scans the range ascending,
/// which is correct, into memory when it opens, and hands the entries out in
/// reverse. Its cost is therefore the whole
/// range held in native memory for as long as the iterator lives.
pub(crate) fn open_scan<R: DbReadOps + Sync>(
    env: &mut JNIEnv,
    view: &R,
    range: ScanRange,
    descending: jboolean,
    limit: Option<Duration>,
) -> Outcome<jlong> {
    open_scan_at(env, view, range, descending, DurabilityLevel::Memory, limit)
}

/// Opens a scan that sees only data at `durability` (see `crossings`).
pub(crate) fn open_scan_at<R: DbReadOps + Sync>(
    env: &mut JNIEnv,
    view: &R,
    range: ScanRange,
    descending: jboolean,
    durability: DurabilityLevel,
    limit: Option<Duration>,
) -> Outcome<jlong> {
    if range.is_empty() {
        return Ok(into_handle(ScanHandle::empty(limit)));
    }
    let options = ScanOptions {
        order: IterationOrder::Ascending,
        // Catalog scans revisit the same regions; keep their blocks cached.
        cache_blocks: true,
        durability_filter: durability,
        ..ScanOptions::default()
    };
    // One bound for the whole open, including a descending scan's reading
    // of its range.
    let opening = async {
        let mut iter = view.scan_with_options(range.bounds(), &options).await?;
        if descending != JNI_TRUE {
            return Ok(Source::Ascending(iter));
        }
        let mut entries = Vec::new();
        while let Some(entry) = iter.next_entry().await? {
            entries.push(entry);
        }
        entries.reverse();
        Ok::<_, Failure>(Source::Reversed(entries.into_iter()))
    };
    let source = bounded_read(env, limit, "opening the scan", opening)??;
    Ok(into_handle(ScanHandle::live(source, limit)))
}

// ---------------------------------------------------------------------------
// Iterators.

/// What a scan reads from: SlateDB's ascending iterator, or a descending
/// scan's entries already read (see [`open_scan`]).
pub(crate) enum Source {
    Ascending(DbIterator),
    Reversed(std::vec::IntoIter<(Bytes, Bytes)>),
}

impl EntrySource for Source {
    async fn next_entry(&mut self) -> Outcome<Option<(Bytes, Bytes)>> {
        match self {
            Source::Ascending(iter) => iter.next_entry().await,
            Source::Reversed(entries) => Ok(entries.next()),
        }
    }
}

/// A scan in progress. The mutex serialises `next` against itself; Java
/// already promises one thread at a time, and frees the handle only when no
/// call is in flight.
pub(crate) struct ScanHandle {
    scan: Mutex<ScanState<Source>>,
    /// The bound of each run, taken from the view the scan was opened on.
    limit: Option<Duration>,
}

impl ScanHandle {
    fn empty(limit: Option<Duration>) -> Self {
        Self {
            scan: Mutex::new(ScanState::new(None)),
            limit,
        }
    }

    fn live(source: Source, limit: Option<Duration>) -> Self {
        Self {
            scan: Mutex::new(ScanState::new(Some(source))),
            limit,
        }
    }

    fn lock(&self) -> Outcome<MutexGuard<'_, ScanState<Source>>> {
        // A panic inside `next` may leave the iterator mid-step: refuse to
        // use it again rather than guess.
        self.scan
            .lock()
            .map_err(|_| Failure::Closed("iterator failed earlier and is unusable".to_owned()))
    }
}

/// Where a scan's entries come from: SlateDB's iterator, or a list in tests.
pub(crate) trait EntrySource {
    /// The next entry, or `None` at the end.
    async fn next_entry(&mut self) -> Outcome<Option<(Bytes, Bytes)>>;
}

impl EntrySource for DbIterator {
    async fn next_entry(&mut self) -> Outcome<Option<(Bytes, Bytes)>> {
        Ok(self.next().await?.map(|kv| (kv.key, kv.value)))
    }
}

/// How large one run may grow.
#[derive(Clone, Copy)]
pub(crate) struct RunLimits {
    /// A run ends once it holds this many entries...
    pub(crate) entries: usize,
    /// ...or at least this many bytes (a soft bound: the last entry may
    /// cross it).
    pub(crate) bytes: usize,
    /// No run may exceed this many bytes (what fits in a Java array).
    pub(crate) hard_bytes: usize,
}

/// Up to 256 entries or about 1 MiB per JNI call.
const RUN_LIMITS: RunLimits = RunLimits {
    entries: 256,
    bytes: 1 << 20,
    hard_bytes: crate::codec::MAX_JAVA_ARRAY,
};

/// The state of a scan between runs.
///
/// Every entry taken from the source is either handed out in a run or kept
/// in `carried` for the next one; none is dropped. Once the scan cannot go
/// on without skipping entries (an entry too large for any run, or a
/// failure of the source part-way), it is poisoned: that call and every
/// later one fail with the same error, so a caller can never continue past
/// a gap.
pub(crate) struct ScanState<S> {
    /// `None` once the source is exhausted (or from the start for an empty
    /// range).
    source: Option<S>,
    /// An entry taken from the source that did not fit in the previous run.
    carried: Option<(Bytes, Bytes)>,
    /// Set once the scan failed for good; repeated on every later call.
    poisoned: Option<Failure>,
}

impl<S: EntrySource> ScanState<S> {
    pub(crate) fn new(source: Option<S>) -> Self {
        Self {
            source,
            carried: None,
            poisoned: None,
        }
    }

    /// The next run of entries in the codec's entry layout, or `None` once
    /// the scan is exhausted.
    pub(crate) async fn next_run(&mut self, limits: RunLimits) -> Outcome<Option<Vec<u8>>> {
        if let Some(failure) = &self.poisoned {
            return Err(failure.clone());
        }
        let mut out = EntryWriter::with_limit(limits.hard_bytes);
        if let Some((key, value)) = self.carried.take() {
            // Into an empty run: `Full` cannot happen, only a refusal of an
            // entry that no run can hold.
            if let Err(failure) = out.push(&key, &value) {
                return Err(self.poison(failure));
            }
        }
        while out.count() < limits.entries && out.len_bytes() < limits.bytes {
            let Some(source) = self.source.as_mut() else {
                break;
            };
            match source.next_entry().await {
                Ok(Some((key, value))) => match out.push(&key, &value) {
                    Ok(Pushed::Added) => {}
                    Ok(Pushed::Full) => {
                        // End this run here; the entry opens the next one.
                        self.carried = Some((key, value));
                        break;
                    }
                    // The entry cannot fit even alone. If the run already
                    // holds entries, hand them out first and fail on the
                    // next call; either way nothing after it is ever read.
                    Err(failure) if out.count() > 0 => {
                        self.poisoned = Some(failure);
                        self.source = None;
                        break;
                    }
                    Err(failure) => return Err(self.poison(failure)),
                },
                Ok(None) => {
                    self.source = None;
                    break;
                }
                // Entries already taken in this run would be lost with the
                // error, so the scan cannot resume after it.
                Err(failure) => return Err(self.poison(failure)),
            }
        }
        if out.count() == 0 {
            return Ok(None);
        }
        Ok(Some(out.into_bytes()))
    }

    pub(crate) fn poison(&mut self, failure: Failure) -> Failure {
        self.source = None;
        self.carried = None;
        self.poisoned = Some(failure.clone());
        failure
    }
}

#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_iterNext<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        // SAFETY: a live iterator handle, guarded by Java for the call.
        let scan = unsafe { borrow::<ScanHandle>(handle)? };
        let mut state = scan.lock()?;
        let run = match bounded_read(env, scan.limit, "the scan", state.next_run(RUN_LIMITS)) {
            Ok(run) => run?,
            // The stopped run may already have taken entries from the source
            // that it never handed out: the scan cannot go on without a gap.
            Err(stopped) => return Err(state.poison(stopped)),
        };
        match run {
            Some(run) => java_bytes(env, &run),
            None => Ok(std::ptr::null_mut()),
        }
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

/// A snapshot, with the bound of its reads (its writer's operation timeout).
pub(crate) struct SnapshotHandle {
    pub(crate) snapshot: Arc<DbSnapshot>,
    pub(crate) limit: Option<Duration>,
}

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
        get_into_java(env, snapshot.snapshot.as_ref(), &key, snapshot.limit)
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
        open_scan(
            env,
            snapshot.snapshot.as_ref(),
            range,
            descending,
            snapshot.limit,
        )
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

    /// The bound of the transaction's reads and of its commit.
    pub(crate) fn limit(&self) -> Option<Duration> {
        self.liveness.operation_timeout
    }

    /// Runs `f` on the open transaction.
    pub(crate) fn with<T>(&self, f: impl FnOnce(&DbTransaction) -> Outcome<T>) -> Outcome<T> {
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

pub(crate) fn txn<'a>(handle: jlong) -> Outcome<&'a TxnHandle> {
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
        let txn = txn(handle)?;
        txn.with(|t| get_into_java(env, t, &key, txn.limit()))
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
        let txn = txn(handle)?;
        txn.with(|t| open_scan(env, t, range, descending, txn.limit()))
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
    guard(&mut env, -1, |env| {
        let handle = txn(handle)?;
        // Refused here (closed, fenced, already committed) means nothing
        // was handed over; any failure of the commit itself comes after the
        // batch was handed to SlateDB and is an unknown outcome, except a
        // conflict, which SlateDB decides before applying anything.
        let transaction = handle.take()?;
        mark_submitted();
        let limit = handle.liveness.operation_timeout;
        let committed = bounded(env, limit, "the commit", transaction.commit())
            .and_then(|result| result.map_err(Failure::from));
        let written = handle
            .liveness
            .remember(committed)
            .map_err(Failure::after_submission)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_length_past_the_java_array_limit_is_a_data_failure() {
        // Checked on lengths, not on real 2 GiB values: allocating them
        // would take gigabytes of memory per test run.
        let limit = crate::codec::MAX_JAVA_ARRAY;
        assert!(check_java_array_len(0).is_ok());
        assert!(check_java_array_len(limit).is_ok());
        for len in [
            limit + 1,
            1usize << 31,
            (1usize << 31) + 5,
            u32::MAX as usize,
        ] {
            assert!(matches!(check_java_array_len(len), Err(Failure::Data(_))));
        }
    }

    /// A source of numbered entries; `value_len[i]` is entry i's value size.
    /// `fail_at` makes the source fail when entry `fail_at` is asked for.
    struct Listed {
        value_lens: Vec<usize>,
        at: usize,
        fail_at: Option<usize>,
    }

    impl EntrySource for Listed {
        async fn next_entry(&mut self) -> Outcome<Option<(Bytes, Bytes)>> {
            if self.fail_at == Some(self.at) {
                return Err(Failure::Unavailable("source failed".to_owned()));
            }
            let Some(len) = self.value_lens.get(self.at) else {
                return Ok(None);
            };
            let key = Bytes::from(vec![b'a' + self.at as u8]);
            self.at += 1;
            Ok(Some((key, Bytes::from(vec![0u8; *len]))))
        }
    }

    fn scan(value_lens: &[usize], fail_at: Option<usize>) -> ScanState<Listed> {
        ScanState::new(Some(Listed {
            value_lens: value_lens.to_vec(),
            at: 0,
            fail_at,
        }))
    }

    /// The keys of one run.
    fn keys(run: &[u8]) -> Vec<u8> {
        let mut keys = Vec::new();
        let mut at = 0;
        while at < run.len() {
            let key_len = u32::from_be_bytes(run[at..at + 4].try_into().unwrap()) as usize;
            keys.push(run[at + 4]);
            at += 4 + key_len;
            let value_len = u32::from_be_bytes(run[at..at + 4].try_into().unwrap()) as usize;
            at += 4 + value_len;
        }
        keys
    }

    fn run_now<S: EntrySource>(
        state: &mut ScanState<S>,
        limits: RunLimits,
    ) -> Outcome<Option<Vec<u8>>> {
        futures::executor::block_on(state.next_run(limits))
    }

    /// Each entry is 9 bytes plus its value; at most 40 bytes per run.
    const SMALL: RunLimits = RunLimits {
        entries: 100,
        bytes: 1000,
        hard_bytes: 40,
    };

    #[test]
    fn an_entry_that_does_not_fit_opens_the_next_run() {
        // 9+5=14, 14, then 9+20=29 does not fit beside 28 bytes.
        let mut state = scan(&[5, 5, 20, 0], None);
        assert_eq!(keys(&run_now(&mut state, SMALL).unwrap().unwrap()), b"ab");
        assert_eq!(keys(&run_now(&mut state, SMALL).unwrap().unwrap()), b"cd");
        assert!(run_now(&mut state, SMALL).unwrap().is_none());
        assert!(run_now(&mut state, SMALL).unwrap().is_none());
    }

    #[test]
    fn an_entry_too_large_for_any_run_poisons_the_scan() {
        // "c" needs 9+40 = 49 > 40 bytes: "a" and "b" are still handed out,
        // then every call fails; "d" is never reached.
        let mut state = scan(&[5, 5, 40, 0], None);
        assert_eq!(keys(&run_now(&mut state, SMALL).unwrap().unwrap()), b"ab");
        for _ in 0..3 {
            assert!(matches!(run_now(&mut state, SMALL), Err(Failure::Data(_))));
        }
    }

    #[test]
    fn a_first_entry_too_large_fails_at_once_and_stays_failed() {
        let mut state = scan(&[40, 0], None);
        for _ in 0..3 {
            assert!(matches!(run_now(&mut state, SMALL), Err(Failure::Data(_))));
        }
    }

    #[test]
    fn a_source_failure_part_way_poisons_the_scan() {
        let mut state = scan(&[0, 0, 0, 0], Some(2));
        for _ in 0..3 {
            assert!(matches!(
                run_now(&mut state, SMALL),
                Err(Failure::Unavailable(_))
            ));
        }
    }

    #[test]
    fn runs_end_at_the_entry_and_byte_bounds() {
        let mut state = scan(&[0; 5], None);
        let two = RunLimits {
            entries: 2,
            ..SMALL
        };
        assert_eq!(keys(&run_now(&mut state, two).unwrap().unwrap()), b"ab");
        assert_eq!(keys(&run_now(&mut state, two).unwrap().unwrap()), b"cd");
        assert_eq!(keys(&run_now(&mut state, two).unwrap().unwrap()), b"e");
        assert!(run_now(&mut state, two).unwrap().is_none());
        let mut empty: ScanState<Listed> = ScanState::new(None);
        assert!(run_now(&mut empty, SMALL).unwrap().is_none());
    }
}
