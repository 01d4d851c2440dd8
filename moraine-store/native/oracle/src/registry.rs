//! `inline-registry <dir>`: the inlined-data tables the crate lists for the
//! lake in `dir`, as the `(table_id, schema_version)` pairs behind its
//! `ducklake_inlined_data_tables` (a schema record with no drop marker), in
//! table then version order, as JSON.

use std::path::Path;

use serde_json::json;

use crate::lake;

pub async fn list(dir: &Path) -> Result<String, String> {
    let catalog = lake::open_reader(dir).await?;
    let listed = moraine::ffi_support::inline::inline_registered_tables(&catalog).await;
    let closed = catalog.close().await;
    let mut pairs = listed.map_err(|e| format!("the crate cannot list the registry: {e}"))?;
    closed.map_err(|e| format!("cannot close the lake: {e}"))?;
    pairs.sort_unstable();
    let document: Vec<_> = pairs.iter().map(|(t, v)| json!([t, v])).collect();
    serde_json::to_string(&document).map_err(|e| format!("cannot serialise the registry: {e}"))
}
