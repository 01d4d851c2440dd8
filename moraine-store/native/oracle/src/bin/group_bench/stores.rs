//! The object stores `moraine-group-bench` measures on, and the wrapper
//! that counts their write-ahead-log PUTs.

use std::fmt;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use bytes::Bytes;
use futures::stream::BoxStream;
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, RenameOptions, Result as OsResult,
};

/// The PUT latency of the `memory-put25ms` store.
const REMOTE_PUT_LATENCY: Duration = Duration::from_millis(25);

/// The object stores, named as `GroupCommitBench` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StoreKind {
    Memory,
    Local,
    LocalNoFsync,
    MemoryPut25ms,
}

impl StoreKind {
    pub(crate) fn parse(name: &str) -> Result<Self, String> {
        match name {
            "memory" => Ok(Self::Memory),
            "local" => Ok(Self::Local),
            "local-nofsync" => Ok(Self::LocalNoFsync),
            "memory-put25ms" => Ok(Self::MemoryPut25ms),
            _ => Err(format!("unknown object store {name:?}")),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Memory => "memory",
            Self::Local => "local",
            Self::LocalNoFsync => "local-nofsync",
            Self::MemoryPut25ms => "memory-put25ms",
        }
    }
}

/// A fresh, empty store for one point, and the directory to remove after it.
pub(crate) struct BenchStore {
    pub(crate) store: Arc<Counted>,
    directory: Option<PathBuf>,
}

impl BenchStore {
    pub(crate) fn open(kind: StoreKind) -> Result<Self, String> {
        let (inner, directory, put_latency): (Arc<dyn ObjectStore>, _, _) = match kind {
            StoreKind::Memory => (Arc::new(InMemory::new()), None, Duration::ZERO),
            StoreKind::MemoryPut25ms => (Arc::new(InMemory::new()), None, REMOTE_PUT_LATENCY),
            StoreKind::Local | StoreKind::LocalNoFsync => {
                let dir = fresh_directory()?;
                let local = LocalFileSystem::new_with_prefix(&dir)
                    .map_err(|e| format!("cannot open {} as an object store: {e}", dir.display()))?
                    .with_fsync(kind == StoreKind::Local);
                (Arc::new(local), Some(dir), Duration::ZERO)
            }
        };
        Ok(Self {
            store: Arc::new(Counted {
                inner,
                put_latency,
                wal_puts: AtomicU64::new(0),
            }),
            directory,
        })
    }
}

impl Drop for BenchStore {
    fn drop(&mut self) {
        if let Some(dir) = &self.directory {
            if let Err(e) = std::fs::remove_dir_all(dir) {
                eprintln!("moraine-group-bench: cannot remove {}: {e}", dir.display());
            }
        }
    }
}

/// A new empty directory under the system temp directory.
fn fresh_directory() -> Result<PathBuf, String> {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    for attempt in 0..100u32 {
        let dir = std::env::temp_dir().join(format!(
            "moraine-group-bench-{}-{nanos:x}-{attempt}",
            std::process::id()
        ));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
        }
    }
    Err("cannot find a free directory name under the temp directory".to_owned())
}

/// The store a catalog is opened on: counts the write-ahead-log PUTs that
/// succeed and, for a store that stands for a remote one, sleeps before
/// every PUT. Everything else goes straight to the inner store.
#[derive(Debug)]
pub(crate) struct Counted {
    inner: Arc<dyn ObjectStore>,
    put_latency: Duration,
    wal_puts: AtomicU64,
}

impl Counted {
    pub(crate) fn wal_puts(&self) -> u64 {
        self.wal_puts.load(Ordering::Acquire)
    }
}

/// Whether `path` lies in a write-ahead-log directory: `/{path}` contains
/// `/wal/`, so the log at the store's root (`wal/…`) counts too.
fn is_wal(path: &str) -> bool {
    path.starts_with("wal/") || path.contains("/wal/")
}

impl fmt::Display for Counted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Counted({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for Counted {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> OsResult<PutResult> {
        if !self.put_latency.is_zero() {
            tokio::time::sleep(self.put_latency).await;
        }
        let result = self.inner.put_opts(location, payload, opts).await?;
        if is_wal(location.as_ref()) {
            self.wal_puts.fetch_add(1, Ordering::AcqRel);
        }
        Ok(result)
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> OsResult<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
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
        self.inner.copy_opts(from, to, options).await
    }

    async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> OsResult<()> {
        self.inner.rename_opts(from, to, options).await
    }
}
