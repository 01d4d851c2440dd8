//! A look at a location before anything is opened there: whether it is
//! empty, holds a SlateDB database, holds something else, or sits in a
//! bucket that does not exist. Java's `Lake` decides from the answer whether
//! it may create a lake, must open one, or refuses; the look itself is one
//! LIST of one level and writes nothing.

use jni::objects::{JClass, JString};
use jni::sys::{jint, jlong};
use jni::JNIEnv;
use slatedb::object_store::path::Path;
use slatedb::object_store::{Error as StoreError, ListResult, ObjectStore};

use crate::boundary::{guard, Failure};
use crate::bounded::bounded_read;
use crate::stores::java_string;
use crate::writer::{optional_millis, store};

/// Nothing is stored under the path.
const EMPTY: jint = 0;
/// The path holds a SlateDB database: a `manifest` folder directly below it.
const DATABASE: jint = 1;
/// The path holds objects, and no database.
const OTHER: jint = 2;
/// The bucket the store names does not exist.
const NO_BUCKET: jint = 3;

/// The folder every SlateDB database keeps its manifests in, below its path.
const MANIFEST_FOLDER: &str = "manifest";

/// What one level of listing says about the location.
fn classify(listing: &ListResult) -> jint {
    let database = listing
        .common_prefixes
        .iter()
        .any(|folder| folder.filename() == Some(MANIFEST_FOLDER));
    if database {
        DATABASE
    } else if listing.common_prefixes.is_empty() && listing.objects.is_empty() {
        EMPTY
    } else {
        OTHER
    }
}

/// Whether a failed listing says the bucket is missing. object_store turns
/// an S3 LIST's 404 into a generic error whose text carries the service's
/// error code, which names the case exactly.
fn bucket_missing(error: &StoreError) -> bool {
    error.to_string().contains("NoSuchBucket")
}

/// Lists one level under `path` in the store and classifies it (the
/// constants above).
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_storeProbe<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    store_handle: jlong,
    path: JString<'l>,
    timeout_millis: jlong,
) -> jint {
    guard(&mut env, -1, |env| {
        let path = java_string(env, &path)?;
        let objects = store(store_handle)?.store.clone();
        let prefix = (!path.is_empty()).then(|| Path::from(path.as_str()));
        let limit = optional_millis(timeout_millis);
        let listed = bounded_read(env, limit, "looking at the location", async move {
            objects.list_with_delimiter(prefix.as_ref()).await
        })?;
        match listed {
            Ok(listing) => Ok(classify(&listing)),
            Err(error) if bucket_missing(&error) => Ok(NO_BUCKET),
            Err(error) => Err(Failure::Unavailable(format!(
                "cannot list the location: {error}"
            ))),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use slatedb::object_store::ObjectMeta;

    fn listing(folders: &[&str], files: &[&str]) -> ListResult {
        ListResult {
            common_prefixes: folders.iter().map(|f| Path::from(*f)).collect(),
            objects: files
                .iter()
                .map(|f| ObjectMeta {
                    location: Path::from(*f),
                    last_modified: Default::default(),
                    size: 1,
                    e_tag: None,
                    version: None,
                })
                .collect(),
            extensions: Default::default(),
        }
    }

    #[test]
    fn a_manifest_folder_is_a_database_whatever_lies_beside_it() {
        assert_eq!(DATABASE, classify(&listing(&["lake/manifest"], &[])));
        assert_eq!(
            DATABASE,
            classify(&listing(
                &["lake/data", "lake/manifest", "lake/wal"],
                &["lake/x"]
            ))
        );
    }

    #[test]
    fn anything_else_is_other_and_nothing_is_empty() {
        assert_eq!(EMPTY, classify(&listing(&[], &[])));
        assert_eq!(OTHER, classify(&listing(&["lake/data"], &[])));
        assert_eq!(OTHER, classify(&listing(&[], &["lake/manifest"])));
        assert_eq!(OTHER, classify(&listing(&["lake/manifests"], &[])));
    }
}
