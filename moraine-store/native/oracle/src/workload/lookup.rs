//! Finding the workload's objects by name in the premise of a commit: a
//! closure may run more than once, so no step carries ids from another.

use moraine::{CatalogSnapshot, ColumnId, DataFileId, SchemaId, TableId, ViewId};

use crate::steps::not_found;

pub(super) fn schema(view: &CatalogSnapshot, name: &str) -> moraine::Result<SchemaId> {
    view.schema_by_name(name)
        .map(|s| s.id)
        .ok_or_else(|| not_found(&format!("schema {name}")))
}

pub(super) fn table(
    view: &CatalogSnapshot,
    schema_name: &str,
    name: &str,
) -> moraine::Result<TableId> {
    let schema_id = schema(view, schema_name)?;
    view.table_by_name(schema_id, name)
        .map(|t| t.id)
        .ok_or_else(|| not_found(&format!("table {schema_name}.{name}")))
}

pub(super) fn orders(view: &CatalogSnapshot) -> moraine::Result<TableId> {
    table(view, "sales", "orders")
}

/// A top-level column by name.
pub(super) fn column_id(
    view: &CatalogSnapshot,
    table: TableId,
    name: &str,
) -> moraine::Result<ColumnId> {
    view.columns_of(table)
        .into_iter()
        .find(|c| c.parent_column.is_none() && c.name == name)
        .map(|c| c.id)
        .ok_or_else(|| not_found(&format!("column {name} of table {table}")))
}

pub(super) fn view_id(view: &CatalogSnapshot, name: &str) -> moraine::Result<ViewId> {
    let sales = schema(view, "sales")?;
    view.view_by_name(sales, name)
        .map(|v| v.id)
        .ok_or_else(|| not_found(&format!("view {name}")))
}

pub(super) fn data_file_id(
    view: &CatalogSnapshot,
    table: TableId,
    path: &str,
) -> moraine::Result<DataFileId> {
    view.data_files_of(table)
        .into_iter()
        .find(|f| f.path == path)
        .map(|f| f.id)
        .ok_or_else(|| not_found(&format!("data file {path}")))
}
