//! What the writing subcommands share: one commit per named step, plain
//! column definitions, and the errors of a lookup that finds nothing.

use moraine::{Catalog, ColumnDef, SnapshotId, Transaction};

/// One commit, with the step named in its error.
pub async fn commit(
    catalog: &Catalog,
    step: &str,
    f: impl Fn(&mut Transaction) -> moraine::Result<()>,
) -> Result<SnapshotId, String> {
    catalog
        .commit(f)
        .await
        .map_err(|e| format!("step {step:?} failed: {e}"))
}

/// A nullable column without a default or children.
pub fn column(name: &str, column_type: &str) -> ColumnDef {
    ColumnDef {
        name: name.to_owned(),
        column_type: column_type.to_owned(),
        nulls_allowed: true,
        default_value: None,
        children: Vec::new(),
    }
}

/// The error of a lookup that found nothing.
pub fn not_found(what: &str) -> moraine::Error {
    moraine::Error::NotFound(what.to_owned())
}
