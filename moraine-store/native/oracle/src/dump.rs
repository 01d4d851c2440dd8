//! The `moraine-dump-v1` document of docs/dump-format.md, read through the
//! crate's read API: `snapshot_at` views for everything versioned, and the
//! crate's own table dumps (`ffi_support`, the surface its DuckDB extension
//! reads) for the three things a view does not return: the snapshot
//! records, the file column statistics and the list of options.
//!
//! `serde_json::Map` keeps keys sorted (no `preserve_order`), which is the
//! key order the format specifies; arrays are sorted here explicitly.

use std::collections::BTreeMap;
use std::path::Path;

use moraine::ffi_support::{self, ColumnTagRow, FileColumnStatsRecord, SnapshotRecord};
use moraine::{
    CatalogSnapshot, ColumnInfo, DataFileInfo, DeleteFileInfo, MacroInfo, MappingInfo,
    ReadOnlyCatalog, SchemaInfo, SnapshotId, TableInfo, TagEntry, ViewInfo,
};
use serde_json::{json, Value};

use crate::inline::RowRenderer;
use crate::lake;

pub const FORMAT: &str = "moraine-dump-v1";

/// The dump of the lake in `dir`: every snapshot, or only `at`.
pub async fn dump(dir: &Path, at: Option<u64>) -> Result<String, String> {
    let catalog = lake::open_reader(dir).await?;
    let document = document(&catalog, at).await;
    // Close before reporting, so the reader's manifest work is finished
    // either way.
    let closed = catalog
        .close()
        .await
        .map_err(|e| format!("cannot close the lake: {e}"));
    let document = document?;
    closed?;
    serde_json::to_string(&document).map_err(|e| format!("cannot serialise the dump: {e}"))
}

async fn document(catalog: &ReadOnlyCatalog, at: Option<u64>) -> Result<Value, String> {
    let head_view = catalog.snapshot().await.map_err(read_failure("the head"))?;
    let head = head_view.current_snapshot().id.get();

    let records: BTreeMap<u64, SnapshotRecord> = ffi_support::dump_snapshots(catalog)
        .await
        .map_err(read_failure("the snapshot records"))?
        .into_iter()
        .map(|record| (record.snapshot_id, record))
        .collect();
    let mut file_stats: BTreeMap<u64, Vec<FileColumnStatsRecord>> = BTreeMap::new();
    for stats in ffi_support::dump_file_column_stats(catalog)
        .await
        .map_err(read_failure("the file column statistics"))?
    {
        file_stats
            .entry(stats.data_file_id)
            .or_default()
            .push(stats);
    }

    // Column tags live on the column records; the crate's view does not
    // return them, so they come from the column table dump: each column's
    // latest record, whose entries carry their own begin and end.
    let mut column_tags: BTreeMap<(u64, u64), Vec<ColumnTagRow>> = BTreeMap::new();
    for row in ffi_support::dump_column_tags(catalog)
        .await
        .map_err(read_failure("the column tags"))?
    {
        column_tags
            .entry((row.table_id, row.column_id))
            .or_default()
            .push(row);
    }

    let ids: Vec<u64> = match at {
        Some(id) if id > head => {
            return Err(format!("snapshot {id} does not exist: the head is {head}"));
        }
        Some(id) if !records.contains_key(&id) => {
            return Err(format!("snapshot {id} has expired"));
        }
        Some(id) => vec![id],
        // Expired ids have no record and are left out.
        None => records.keys().copied().filter(|id| *id <= head).collect(),
    };

    let mut renderer = RowRenderer::default();
    let mut snapshots = Vec::with_capacity(ids.len());
    for id in ids {
        let view = catalog
            .snapshot_at(SnapshotId::new(id))
            .await
            .map_err(read_failure(&format!("snapshot {id}")))?;
        let reading = Reading {
            catalog,
            view: &view,
            at: id,
            file_stats: &file_stats,
            column_tags: &column_tags,
        };
        snapshots.push(reading.snapshot(&records[&id], &mut renderer).await?);
    }

    Ok(json!({
        "format": FORMAT,
        "head": head,
        "options": options(catalog).await?,
        "scheduled_deletions": scheduled_deletions(&head_view),
        "snapshots": snapshots,
    }))
}

fn read_failure(what: &str) -> impl Fn(moraine::Error) -> String + '_ {
    move |e| format!("cannot read {what}: {e}")
}

/// One snapshot's view and what the dump adds to it.
struct Reading<'a> {
    catalog: &'a ReadOnlyCatalog,
    view: &'a CatalogSnapshot,
    at: u64,
    file_stats: &'a BTreeMap<u64, Vec<FileColumnStatsRecord>>,
    column_tags: &'a BTreeMap<(u64, u64), Vec<ColumnTagRow>>,
}

impl Reading<'_> {
    async fn snapshot(
        &self,
        record: &SnapshotRecord,
        renderer: &mut RowRenderer,
    ) -> Result<Value, String> {
        let schemas = self.view.schemas();
        let mut tables = Vec::new();
        let mut views = Vec::new();
        let mut macros = Vec::new();
        for schema in &schemas {
            tables.extend(self.view.tables_in(schema.id));
            views.extend(self.view.views_in(schema.id));
            macros.extend(self.view.macros_in(schema.id));
        }
        tables.sort_by_key(|t| t.id);
        views.sort_by_key(|v| v.id);
        macros.sort_by_key(|m| m.id);

        let mut table_values = Vec::with_capacity(tables.len());
        for table in &tables {
            table_values.push(self.table(table, renderer).await?);
        }
        Ok(json!({
            "macros": macros.iter().map(macro_value).collect::<Vec<_>>(),
            "record": snapshot_record(record),
            "schemas": schemas.iter().map(|s| self.schema(s)).collect::<Vec<_>>(),
            "tables": table_values,
            "views": views.iter().map(|v| self.view_value(v)).collect::<Vec<_>>(),
        }))
    }

    fn schema(&self, schema: &SchemaInfo) -> Value {
        json!({
            "id": schema.id.get(),
            "name": schema.name,
            "tags": self.tags(schema.id.get()),
        })
    }

    fn view_value(&self, view: &ViewInfo) -> Value {
        json!({
            "dialect": view.dialect,
            "id": view.id.get(),
            "name": view.name,
            "schema_id": view.schema_id.get(),
            "sql": view.sql,
            "tags": self.tags(view.id.get()),
        })
    }

    async fn table(&self, table: &TableInfo, renderer: &mut RowRenderer) -> Result<Value, String> {
        let mut columns = self.view.columns_of(table.id);
        columns.sort_by_key(|c| c.id);
        let column_stats: Vec<Value> = columns
            .iter()
            .filter_map(|c| {
                self.view.column_stats(table.id, c.id).map(|s| {
                    json!({
                        "column_id": c.id.get(),
                        "contains_nan": s.contains_nan,
                        "contains_null": s.contains_null,
                        "extra_stats": s.extra_stats,
                        "max_value": s.max_value,
                        "min_value": s.min_value,
                    })
                })
            })
            .collect();
        let mut mappings = self.view.mappings_of(table.id);
        mappings.sort_by_key(|m| m.id);

        let rows = self
            .catalog
            .recent_rows_at(table.id, SnapshotId::new(self.at))
            .await
            .map_err(read_failure(&format!(
                "the inlined rows of table {} at snapshot {}",
                table.id, self.at
            )))?;
        let mut inlined_rows = Vec::with_capacity(rows.len());
        for row in &rows {
            inlined_rows.push(json!({
                "begin_snapshot": row.begin_snapshot.get(),
                "row_id": row.row_id,
                "schema_version": row.schema_version,
                "values": renderer.values(table.id.get(), row)?,
            }));
        }
        inlined_rows.sort_by_key(|r| r["row_id"].as_u64());

        Ok(json!({
            "column_stats": column_stats,
            "columns": columns.iter().map(|c| {
                let mut value = column_value(c);
                value["tags"] = Value::Array(self.column_tags(table.id.get(), c.id.get()));
                value
            }).collect::<Vec<_>>(),
            "data_files": self.view.data_files_of(table.id).iter().map(|f| self.data_file(f)).collect::<Vec<_>>(),
            "delete_files": self.view.delete_files_of(table.id).iter().map(delete_file_value).collect::<Vec<_>>(),
            "id": table.id.get(),
            "inlined_rows": inlined_rows,
            "mappings": mappings.iter().map(mapping_value).collect::<Vec<_>>(),
            "name": table.name,
            "partitioning": self.view.partitioning_of(table.id).map(|p| json!({
                "columns": p.columns.iter().map(|c| json!({
                    "column_id": c.column.get(),
                    "transform": c.transform,
                })).collect::<Vec<_>>(),
                "id": p.id.get(),
            })),
            "schema_id": table.schema_id.get(),
            "sorting": self.view.sorting_of(table.id).map(|s| json!({
                "id": s.id.get(),
                "keys": s.keys.iter().map(|k| json!({
                    "dialect": k.dialect,
                    "expression": k.expression,
                    "null_order": k.null_order,
                    "sort_direction": k.sort_direction,
                })).collect::<Vec<_>>(),
            })),
            "stats": self.view.table_stats(table.id).map(|s| json!({
                "file_size_bytes": s.file_size_bytes,
                "next_row_id": s.next_row_id,
                "record_count": s.record_count,
            })),
            "tags": self.tags(table.id.get()),
        }))
    }

    fn data_file(&self, file: &DataFileInfo) -> Value {
        let mut stats: Vec<&FileColumnStatsRecord> = self
            .file_stats
            .get(&file.id.get())
            .map(|all| all.iter().collect())
            .unwrap_or_default();
        stats.sort_by_key(|s| s.column_id);
        json!({
            "column_stats": stats.iter().map(|s| json!({
                "column_id": s.column_id,
                "column_size_bytes": s.column_size_bytes,
                "contains_nan": s.contains_nan,
                "extra_stats": s.extra_stats,
                "max_value": s.max_value,
                "min_value": s.min_value,
                "null_count": s.null_count,
                "value_count": s.value_count,
            })).collect::<Vec<_>>(),
            "encryption_key": file.encryption_key,
            "file_format": file.file_format,
            "file_size_bytes": file.file_size_bytes,
            "footer_size": file.footer_size,
            "id": file.id.get(),
            "partial_max": file.partial_max.map(SnapshotId::get),
            "partition_id": file.partition_id.map(|p| p.get()),
            "partition_values": file.partition_values,
            "path": file.path,
            "path_is_relative": file.path_is_relative,
            "record_count": file.record_count,
            "row_id_start": file.row_id_start,
        })
    }

    /// The tag entries of column `column` of `table` live at this snapshot,
    /// in the order of `tags`.
    fn column_tags(&self, table: u64, column: u64) -> Vec<Value> {
        let mut live: Vec<&ColumnTagRow> = self
            .column_tags
            .get(&(table, column))
            .map(|rows| {
                rows.iter()
                    .filter(|t| {
                        t.begin_snapshot <= self.at && t.end_snapshot.is_none_or(|e| e > self.at)
                    })
                    .collect()
            })
            .unwrap_or_default();
        live.sort_by(|a, b| (&a.key, a.begin_snapshot).cmp(&(&b.key, b.begin_snapshot)));
        live.iter()
            .map(|t| {
                json!({
                    "begin_snapshot": t.begin_snapshot,
                    "key": t.key,
                    "value": t.value,
                })
            })
            .collect()
    }

    /// The tag entries of `object_id` live at this snapshot, by key (UTF-8
    /// bytes: Rust's `str` order) then begin snapshot.
    fn tags(&self, object_id: u64) -> Vec<Value> {
        let mut live: Vec<TagEntry> = self
            .view
            .tags_of(object_id)
            .into_iter()
            .filter(|t| t.begin_snapshot <= self.at && t.end_snapshot.is_none_or(|e| e > self.at))
            .collect();
        live.sort_by(|a, b| (&a.key, a.begin_snapshot).cmp(&(&b.key, b.begin_snapshot)));
        live.iter()
            .map(|t| {
                json!({
                    "begin_snapshot": t.begin_snapshot,
                    "key": t.key,
                    "value": t.value,
                })
            })
            .collect()
    }
}

fn snapshot_record(record: &SnapshotRecord) -> Value {
    json!({
        "author": record.author,
        "changes_made": record.changes_made,
        "commit_extra_info": record.commit_extra_info,
        "commit_message": record.commit_message,
        "deleted_data_file_ids": record.deleted_data_file_ids,
        "next_catalog_id": record.next_catalog_id,
        "next_file_id": record.next_file_id,
        "schema_changed_table_ids": record.schema_changed_table_ids,
        "schema_version": record.schema_version,
        "snapshot_id": record.snapshot_id,
        "snapshot_time_micros": record.snapshot_time_micros,
    })
}

fn column_value(column: &ColumnInfo) -> Value {
    json!({
        "column_type": column.column_type,
        "default_value": column.default_value,
        "id": column.id.get(),
        "name": column.name,
        "nulls_allowed": column.nulls_allowed,
        "parent_id": column.parent_column.map(|p| p.get()),
        "position": column.position,
    })
}

fn delete_file_value(file: &DeleteFileInfo) -> Value {
    json!({
        "data_file_id": file.data_file_id.get(),
        "delete_count": file.delete_count,
        "encryption_key": file.encryption_key,
        "file_size_bytes": file.file_size_bytes,
        "footer_size": file.footer_size,
        "format": file.format,
        "id": file.id.get(),
        "path": file.path,
        "path_is_relative": file.path_is_relative,
    })
}

fn mapping_value(mapping: &MappingInfo) -> Value {
    json!({
        "id": mapping.id.get(),
        "map_type": mapping.map_type,
        "name_mappings": mapping.name_mappings.iter().map(|n| json!({
            "column_id": n.column_id,
            "is_partition": n.is_partition,
            "parent_column": n.parent_column,
            "source_name": n.source_name,
            "target_field_id": n.target_field_id,
        })).collect::<Vec<_>>(),
    })
}

fn macro_value(m: &MacroInfo) -> Value {
    json!({
        "id": m.id.get(),
        "implementations": m.implementations.iter().map(|i| json!({
            "dialect": i.dialect,
            "macro_type": i.macro_type,
            "parameters": i.parameters.iter().map(|p| json!({
                "default_value": p.default_value,
                "default_value_type": p.default_value_type,
                "name": p.name,
                "parameter_type": p.parameter_type,
            })).collect::<Vec<_>>(),
            "sql": i.sql,
        })).collect::<Vec<_>>(),
        "name": m.name,
        "schema_id": m.schema_id.get(),
    })
}

/// Every stored option, by (scope kind, scope id, key bytes).
async fn options(catalog: &ReadOnlyCatalog) -> Result<Vec<Value>, String> {
    let mut rows = ffi_support::dump_options(catalog)
        .await
        .map_err(read_failure("the options"))?;
    let kind = |scope: &Option<String>| match scope.as_deref() {
        None => 0,
        Some("schema") => 1,
        _ => 2,
    };
    rows.sort_by(|a, b| {
        (kind(&a.scope), a.scope_id, &a.key).cmp(&(kind(&b.scope), b.scope_id, &b.key))
    });
    Ok(rows
        .iter()
        .map(|o| {
            json!({
                "key": o.key,
                "scope": o.scope,
                "scope_id": o.scope_id,
                "value": o.value,
            })
        })
        .collect())
}

fn scheduled_deletions(head: &CatalogSnapshot) -> Vec<Value> {
    let mut all = head.scheduled_deletions();
    all.sort_by_key(|d| d.data_file_id);
    all.iter()
        .map(|d| {
            json!({
                "data_file_id": d.data_file_id,
                "path": d.path,
                "path_is_relative": d.path_is_relative,
                "schedule_start_micros": d.schedule_start.as_micros(),
            })
        })
        .collect()
}
