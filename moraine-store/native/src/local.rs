//! The local-directory object store, durable against power loss by default.
//!
//! object_store's `LocalFileSystem` writes each object to a staging file and
//! publishes it with a rename (overwrite) or a hard link (create-if-absent).
//! By default it never calls fsync: a write it reports done survives a
//! process crash (the page cache keeps it) but not a power cut. Its
//! `with_fsync(true)` mode (object_store 0.14) syncs the staging file before
//! publishing it, then the directory that received the new entry, and any
//! directory it had to create on the way; for copies, renames and multipart
//! completions likewise. Syncing the contents *before* the rename matters: a
//! sync after it could leave a published but empty object after a power cut,
//! which SlateDB would read as a corrupt WAL or SST.
//!
//! We turn that mode on unless the user opted out, and wrap the store in
//! [`SyncedLocal`], which counts the writes acknowledged with fsync on, so
//! tests can see the durable path taken (and the opt-out skip it).

use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use futures::stream::BoxStream;
use jni::objects::JClass;
use jni::sys::jlong;
use jni::JNIEnv;
use slatedb::bytes::Bytes;
use slatedb::object_store::local::LocalFileSystem;
use slatedb::object_store::path::Path;
use slatedb::object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, RenameOptions, Result as OsResult,
    UploadPart,
};

use crate::boundary::guard;

/// Writes acknowledged by a local store with fsync on, in this process.
static SYNCED_WRITES: AtomicU64 = AtomicU64::new(0);

fn count_synced() {
    SYNCED_WRITES.fetch_add(1, Ordering::Relaxed);
}

/// Opens the local store rooted at `directory` (which must exist), fsyncing
/// each write unless `fsync` is false.
pub(crate) fn local_store(directory: &str, fsync: bool) -> OsResult<Arc<dyn ObjectStore>> {
    let store = LocalFileSystem::new_with_prefix(directory)?.with_fsync(fsync);
    Ok(if fsync {
        Arc::new(SyncedLocal {
            inner: Arc::new(store),
        })
    } else {
        Arc::new(store)
    })
}

/// A fsyncing `LocalFileSystem`, counting its acknowledged writes.
#[derive(Debug)]
struct SyncedLocal {
    inner: Arc<LocalFileSystem>,
}

impl fmt::Display for SyncedLocal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SyncedLocal({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for SyncedLocal {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> OsResult<PutResult> {
        let result = self.inner.put_opts(location, payload, opts).await?;
        count_synced();
        Ok(result)
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> OsResult<Box<dyn MultipartUpload>> {
        let upload = self.inner.put_multipart_opts(location, opts).await?;
        Ok(Box::new(SyncedUpload { inner: upload }))
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> OsResult<GetResult> {
        self.inner.get_opts(location, options).await
    }

    async fn get_ranges(&self, location: &Path, ranges: &[Range<u64>]) -> OsResult<Vec<Bytes>> {
        self.inner.get_ranges(location, ranges).await
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
        self.inner.copy_opts(from, to, options).await?;
        count_synced();
        Ok(())
    }

    async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> OsResult<()> {
        self.inner.rename_opts(from, to, options).await?;
        count_synced();
        Ok(())
    }
}

/// A multipart upload of a fsyncing store; counts its completion.
#[derive(Debug)]
struct SyncedUpload {
    inner: Box<dyn MultipartUpload>,
}

#[async_trait]
impl MultipartUpload for SyncedUpload {
    fn put_part(&mut self, data: PutPayload) -> UploadPart {
        self.inner.put_part(data)
    }

    async fn complete(&mut self) -> OsResult<PutResult> {
        let result = self.inner.complete().await?;
        count_synced();
        Ok(result)
    }

    async fn abort(&mut self) -> OsResult<()> {
        self.inner.abort().await
    }
}

// ---------------------------------------------------------------------------
// Local store durability (test hook).

/// How many writes local stores with fsync on have acknowledged in this
/// process.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_storeLocalSyncedWrites<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jlong {
    guard(&mut env, -1, |_env| {
        Ok(SYNCED_WRITES.load(Ordering::Relaxed) as jlong)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use slatedb::object_store::ObjectStoreExt;

    fn run<T>(future: impl std::future::Future<Output = T>) -> T {
        futures::executor::block_on(future)
    }

    #[test]
    fn a_synced_store_counts_each_acknowledged_put_and_the_opt_out_does_not() {
        let directory =
            std::env::temp_dir().join(format!("moraine-local-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&directory).unwrap();
        let root = directory.to_str().unwrap();
        let synced = local_store(root, true).unwrap();
        let plain = local_store(root, false).unwrap();
        let before = SYNCED_WRITES.load(Ordering::Relaxed);
        // A nested path: the store creates the directories on the way.
        run(synced.put(&Path::from("a/b/one"), PutPayload::from_static(b"1"))).unwrap();
        assert_eq!(SYNCED_WRITES.load(Ordering::Relaxed), before + 1);
        run(plain.put(&Path::from("a/c/two"), PutPayload::from_static(b"2"))).unwrap();
        assert_eq!(SYNCED_WRITES.load(Ordering::Relaxed), before + 1);
        assert_eq!(run(plain.get(&Path::from("a/b/one"))).unwrap().meta.size, 1);
        std::fs::remove_dir_all(&directory).unwrap();
    }
}
