//! `index-write <dir> <data-dir> <schema> <table> <verb> <arg>...`: one
//! commit by the crate into an indexed table laid out as `(id int64, name
//! varchar, ok boolean)`, supplying for every live index of the table the
//! entries its verbs demand, as a writer that knows its rows does. The Java
//! tests interleave these commits with their own on one lake.
//!
//! - `insert <schema-version> <id>:<name>...` inlines the rows (`-` for a
//!   NULL name; `ok` is true for an even id) as one chunk under that schema
//!   version, with an entry per row and index; prints the first row id.
//! - `register <path> <bytes> <id>:<name>...` registers the data file at
//!   `path` (relative to the table, `bytes` long: the crate reads a file's
//!   footer at the end its size gives), whose rows the caller wrote with
//!   those values, with an entry per row and index; prints the file id.
//! - `delete <row-id>` tombstones an inlined row, removing the entries the
//!   crate derives for it from its chunk.
//! - `delete-file <data-file-path> <delete-path> <bytes> <position>...` registers a
//!   delete file of those positions of a data file with a dense row-id
//!   range, removing the entries the crate derives for those rows from the
//!   data file (read under `data-dir`).
//! - `drop-index <name>` drops an index of the table.
//!
//! The removals' values come from the crate's own derivation over the head
//! (`inline_backfill_entries`, `scoped_backfill_entries`), so what is
//! removed is what the crate believes the row was indexed under.

use std::cell::Cell;
use std::collections::HashMap;
use std::path::Path;

use moraine::{
    ColumnId, DataFile, DeleteFile, FileIndexEntry, FileIndexRemoval, IndexId, IndexInfo,
    IndexKeyValue, IntWidth, ReadOnlyCatalog, TableId,
};

use crate::index_matrix::resolve;
use crate::inline::{events_chunk, Event};
use crate::lake;
use crate::steps::commit;

/// One row as the command line gives it.
struct Row {
    id: i64,
    name: Option<String>,
}

impl Row {
    /// `<id>:<name>`, the name `-` for NULL.
    fn parse(text: &str) -> Result<Self, String> {
        let (id, name) = text
            .split_once(':')
            .ok_or_else(|| format!("a row is <id>:<name>, got {text:?}"))?;
        let id = id
            .parse()
            .map_err(|_| format!("a row's id is an int64, got {id:?}"))?;
        let name = (name != "-").then(|| name.to_owned());
        Ok(Row { id, name })
    }

    /// The value of the column named `column`, as an index key holds it.
    fn value(&self, column: &str) -> Result<Option<IndexKeyValue>, String> {
        match column {
            "id" => Ok(Some(IndexKeyValue::Int {
                value: i128::from(self.id),
                width: IntWidth::I64,
            })),
            "name" => Ok(self.name.clone().map(IndexKeyValue::Str)),
            "ok" => Ok(Some(IndexKeyValue::Bool(self.id % 2 == 0))),
            other => Err(format!("index-write knows no column {other:?}")),
        }
    }
}

/// What the head says of the table: its id, its live indexes and the name of
/// every top-level column.
struct Table {
    id: TableId,
    indexes: Vec<IndexInfo>,
    names: HashMap<ColumnId, String>,
}

/// Runs one step; returns what it prints.
pub async fn step(
    dir: &Path,
    data: &Path,
    schema: &str,
    table: &str,
    verb: &str,
    args: &[String],
) -> Result<String, String> {
    let reader = lake::open_reader(dir).await?;
    let prepared = prepare(&reader, data, schema, table, verb, args).await;
    let closed = reader.close().await;
    let prepared = prepared?;
    closed.map_err(|e| format!("cannot close the lake: {e}"))?;
    let catalog = lake::open_writer(dir).await?;
    let outcome = apply(&catalog, prepared).await;
    let closed = catalog.close().await;
    let printed = outcome?;
    closed.map_err(|e| format!("cannot close the lake: {e}"))?;
    Ok(printed)
}

/// A step with everything it needs read from the head.
enum Prepared {
    Insert {
        table: TableId,
        schema_version: u64,
        rows: Vec<Row>,
        entries: Vec<FileIndexEntry>,
    },
    Register {
        table: TableId,
        path: String,
        bytes: u64,
        rows: u64,
        entries: Vec<FileIndexEntry>,
    },
    Delete {
        table: TableId,
        row_id: u64,
        removals: Vec<FileIndexRemoval>,
    },
    DeleteFile {
        table: TableId,
        file: DeleteFile,
        removals: Vec<FileIndexRemoval>,
    },
    DropIndex {
        index: IndexId,
    },
}

async fn prepare(
    reader: &ReadOnlyCatalog,
    data: &Path,
    schema: &str,
    table: &str,
    verb: &str,
    args: &[String],
) -> Result<Prepared, String> {
    let (table_id, _) = resolve(reader, schema, table, &[]).await?;
    let head = reader
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?;
    let mut indexes = head.indexes_of(table_id);
    indexes.sort_by_key(|i| i.id.get());
    let names = head
        .columns_of(table_id)
        .into_iter()
        .filter(|c| c.parent_column.is_none())
        .map(|c| (c.id, c.name))
        .collect();
    let table = Table {
        id: table_id,
        indexes,
        names,
    };
    match (verb, args) {
        ("insert", [version, rows @ ..]) if !rows.is_empty() => {
            let schema_version = version
                .parse()
                .map_err(|_| format!("a schema version is a u64, got {version:?}"))?;
            let rows = rows
                .iter()
                .map(|r| Row::parse(r))
                .collect::<Result<Vec<_>, _>>()?;
            let entries = entries_of(&table, &rows)?;
            Ok(Prepared::Insert {
                table: table.id,
                schema_version,
                rows,
                entries,
            })
        }
        ("register", [path, bytes, rows @ ..]) if !rows.is_empty() => {
            let bytes = size(bytes)?;
            let rows = rows
                .iter()
                .map(|r| Row::parse(r))
                .collect::<Result<Vec<_>, _>>()?;
            let entries = entries_of(&table, &rows)?;
            Ok(Prepared::Register {
                table: table.id,
                path: path.clone(),
                bytes,
                rows: rows.len() as u64,
                entries,
            })
        }
        ("delete", [row_id]) => {
            let row_id = row_id
                .parse()
                .map_err(|_| format!("a row id is a u64, got {row_id:?}"))?;
            let removals = removals_of(reader, None, &table, &[row_id]).await?;
            Ok(Prepared::Delete {
                table: table.id,
                row_id,
                removals,
            })
        }
        ("delete-file", [target, path, bytes, positions @ ..]) if !positions.is_empty() => {
            let bytes = size(bytes)?;
            let file = head
                .data_files_of(table.id)
                .into_iter()
                .find(|f| f.path == *target)
                .ok_or_else(|| format!("no live data file {target}"))?;
            let start = file
                .row_id_start
                .ok_or_else(|| format!("{target} has no dense row-id range"))?;
            let mut row_ids = Vec::new();
            for p in positions {
                let p: u64 = p
                    .parse()
                    .map_err(|_| format!("a position is a u64, got {p:?}"))?;
                row_ids.push(start + p);
            }
            let removals = removals_of(reader, Some(data), &table, &row_ids).await?;
            Ok(Prepared::DeleteFile {
                table: table.id,
                file: DeleteFile {
                    data_file_id: file.id,
                    path: path.clone(),
                    path_is_relative: true,
                    format: "parquet".to_owned(),
                    delete_count: row_ids.len() as u64,
                    file_size_bytes: bytes,
                    footer_size: 0,
                    encryption_key: None,
                },
                removals,
            })
        }
        ("drop-index", [name]) => {
            let index = table
                .indexes
                .iter()
                .find(|i| i.name == *name)
                .ok_or_else(|| format!("no live index {name}"))?;
            Ok(Prepared::DropIndex { index: index.id })
        }
        _ => Err(format!(
            "index-write: unknown step {verb} {}",
            args.join(" ")
        )),
    }
}

/// A file's size in bytes.
fn size(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("a file size is a u64, got {text:?}"))
}

/// An entry per row (by ordinal) and live index, from the rows' values.
fn entries_of(table: &Table, rows: &[Row]) -> Result<Vec<FileIndexEntry>, String> {
    let mut entries = Vec::new();
    for index in &table.indexes {
        for (ordinal, row) in (0u64..).zip(rows) {
            let mut values = Vec::new();
            for column in &index.columns {
                let name = table
                    .names
                    .get(column)
                    .ok_or_else(|| format!("index {} names no live column", index.name))?;
                values.push(row.value(name)?);
            }
            entries.push(FileIndexEntry {
                index: index.id,
                ordinal,
                values,
            });
        }
    }
    Ok(entries)
}

/// The removal, per live index, of each of `row_ids`, with the values the
/// crate derives for it at the head: from the table's inlined rows, or with
/// `data` from its data files.
async fn removals_of(
    reader: &ReadOnlyCatalog,
    data: Option<&Path>,
    table: &Table,
    row_ids: &[u64],
) -> Result<Vec<FileIndexRemoval>, String> {
    let mut removals = Vec::new();
    for index in &table.indexes {
        let derived = match data {
            None => reader
                .inline_backfill_entries(table.id, &index.columns)
                .await
                .map_err(|e| format!("cannot derive the inline entries: {e}"))?,
            Some(data) => {
                let files = object_store::local::LocalFileSystem::new_with_prefix(data)
                    .map_err(|e| format!("cannot open {}: {e}", data.display()))?;
                let store = moraine::DataStore::new(std::sync::Arc::new(files));
                reader
                    .scoped_backfill_entries(store, "", table.id, &index.columns)
                    .await
                    .map_err(|e| format!("cannot derive the file entries: {e}"))?
            }
        };
        for row_id in row_ids {
            let entry = derived
                .iter()
                .find(|e| e.row_id == *row_id)
                .ok_or_else(|| format!("row {row_id} is not live"))?;
            removals.push(FileIndexRemoval {
                index: index.id,
                row_id: *row_id,
                values: entry.values.clone(),
            });
        }
    }
    Ok(removals)
}

async fn apply(catalog: &moraine::Catalog, step: Prepared) -> Result<String, String> {
    match step {
        Prepared::Insert {
            table,
            schema_version,
            rows,
            entries,
        } => {
            let events: Vec<Event> = rows
                .iter()
                .map(|r| Event {
                    id: r.id,
                    name: r.name.as_deref(),
                    ok: r.id % 2 == 0,
                })
                .collect();
            // The closure may run more than once: it keeps the last run's answer.
            let start = Cell::new(0);
            commit(catalog, "inline rows", |tx| {
                let chunk = events_chunk(schema_version, &events)?;
                start.set(tx.inline_insert(table, &chunk, &entries)?);
                Ok(())
            })
            .await?;
            Ok(start.get().to_string())
        }
        Prepared::Register {
            table,
            path,
            bytes,
            rows,
            entries,
        } => {
            let id = Cell::new(0);
            commit(catalog, "register a data file", |tx| {
                let file = DataFile {
                    path: path.clone(),
                    path_is_relative: true,
                    file_format: "parquet".to_owned(),
                    record_count: rows,
                    file_size_bytes: bytes,
                    footer_size: 0,
                    encryption_key: None,
                    partition_values: Vec::new(),
                    column_stats: Vec::new(),
                };
                id.set(tx.register_data_file(table, file, &entries)?.get());
                Ok(())
            })
            .await?;
            Ok(id.get().to_string())
        }
        Prepared::Delete {
            table,
            row_id,
            removals,
        } => {
            commit(catalog, "delete an inlined row", |tx| {
                tx.inline_delete(table, row_id, &removals)
            })
            .await?;
            Ok(String::new())
        }
        Prepared::DeleteFile {
            table,
            file,
            removals,
        } => {
            commit(catalog, "register a delete file", |tx| {
                tx.register_delete_file(table, file.clone(), &removals)
                    .map(drop)
            })
            .await?;
            Ok(String::new())
        }
        Prepared::DropIndex { index } => {
            commit(catalog, "drop an index", |tx| tx.drop_index(index)).await?;
            Ok(String::new())
        }
    }
}
