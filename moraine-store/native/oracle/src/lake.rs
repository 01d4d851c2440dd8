//! Opening a lake directory the way both implementations do: a
//! `LocalFileSystem` rooted at the directory and the SlateDB database at the
//! store root (`CatalogOptions::default()` has an empty `path`). The Java
//! side opens the same database with
//! `StoreConfig.of(ObjectStoreSpec.localDirectory(dir), "")`.

use std::path::Path;
use std::sync::Arc;

use moraine::{Catalog, CatalogOptions, ReadOnlyCatalog};
use object_store::local::LocalFileSystem;

/// The runtime every subcommand runs on: the crate spawns no threads of its
/// own and its examples drive it from one thread.
pub fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// The read-write catalog of `dir`, created (with the directory) if absent.
pub async fn open_writer(dir: &Path) -> Result<Catalog, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Catalog::open(store(dir)?, CatalogOptions::default())
        .await
        .map_err(|e| format!("cannot open {} as a lake: {e}", dir.display()))
}

/// A latest-following reader of the lake in `dir`. It never creates the
/// directory; SlateDB does write a checkpoint into the manifest of an
/// existing lake when it opens (docs/dump-format.md §12).
pub async fn open_reader(dir: &Path) -> Result<ReadOnlyCatalog, String> {
    if !dir.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    if !dir.join("manifest").is_dir() {
        return Err(format!(
            "{} is not a lake: it has no manifest/ directory",
            dir.display()
        ));
    }
    Catalog::open_read_only(store(dir)?, CatalogOptions::default())
        .await
        .map_err(|e| format!("the crate refuses {} as a lake: {e}", dir.display()))
}

fn store(dir: &Path) -> Result<Arc<LocalFileSystem>, String> {
    LocalFileSystem::new_with_prefix(dir)
        .map(Arc::new)
        .map_err(|e| format!("cannot open {} as an object store: {e}", dir.display()))
}
