//! Lakes with equality indexes, through the crate's own index API.
//!
//! - `write-indexed <dir>` creates a lake whose table `sales.clients
//!   (id int64, name varchar, ok boolean)` carries two ready indexes,
//!   `by_id` (UNIQUE on `id`) and `by_name` (on `name`), over rows in two
//!   data files (a row of the first killed by a delete file) and inlined
//!   rows (one with a NULL name). Every write supplies its index entries, as
//!   the crate's verbs demand on an indexed table. `sales.pending (code varchar)` carries an
//!   index whose staged build has begun (`building`), `sales.former
//!   (k int64)` an index that was created and dropped, and `sales.notes
//!   (k int64, v varchar)` none, but it holds a data file.
//! - `index-view <dir> [<value>...]` prints, as JSON, what the crate says
//!   about every live index of the head: its definition with its build
//!   state, and, when it serves lookups, its entries as the crate's range and
//!   NULL scans return them (row ids in stored order) and the rows an
//!   equality lookup of each `<value>` finds.
//!
//! Row ids, by construction: the first data file holds rows 0 to 2 (ids 1,
//! 2, 3; names Ada, Bob, Ada), the delete file kills row 1, the second data
//! file holds rows 3 and 4 (ids 6, 7; names Eve, Ada), and the inlined rows
//! are 5 and 6 (ids 4, 5; names Cy and NULL).

use std::ops::Bound;
use std::path::Path;

use moraine::{
    Catalog, CatalogSnapshot, DataFile, DeleteFile, FileIndexEntry, FileIndexRemoval, IndexDef,
    IndexId, IndexInfo, IndexKeyValue, IndexMaintenance, IndexState, IntWidth, NullOrder,
    ReadOnlyCatalog, TableId, Transaction,
};
use serde_json::{json, Map, Value};

use crate::inline::{events_chunk, Event};
use crate::lake;
use crate::steps::{column, commit, not_found};

const SCHEMA: &str = "sales";
const INDEXED: &str = "clients";
const BUILDING: &str = "pending";
const PLAIN: &str = "notes";
const FORMER: &str = "former";

/// The rows of the first data file as the indexes see them: `(id, name)`.
const FILE_ROWS: [(i64, Option<&str>); 3] = [(1, Some("Ada")), (2, Some("Bob")), (3, Some("Ada"))];
/// The row of the first data file the delete file kills, by ordinal.
const DELETED_ORDINAL: u64 = 1;
/// The rows of the second data file.
const SECOND_FILE_ROWS: [(i64, Option<&str>); 2] = [(6, Some("Eve")), (7, Some("Ada"))];
/// The inlined rows; `ok` is true for an even id.
const INLINED_ROWS: [(i64, Option<&str>); 2] = [(4, Some("Cy")), (5, None)];

/// Runs the indexed workload into a new lake in `dir`.
pub async fn write(dir: &Path) -> Result<(), String> {
    let catalog = lake::open_writer(dir).await?;
    let outcome = run(&catalog).await;
    after_close(outcome, catalog.close().await)
}

/// `outcome`, or the failure to close the lake it came from: the lake is
/// closed whatever happened, and a failure of the work comes first.
fn after_close<T>(outcome: Result<T, String>, closed: moraine::Result<()>) -> Result<T, String> {
    let value = outcome?;
    closed.map_err(|e| format!("cannot close the lake: {e}"))?;
    Ok(value)
}

async fn run(catalog: &Catalog) -> Result<(), String> {
    let head = catalog
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?;
    if head.current_snapshot().id.get() != 0 {
        return Err("write-indexed needs a new directory".to_owned());
    }
    commit(catalog, "create the schema", |tx| {
        tx.create_schema(SCHEMA).map(drop)
    })
    .await?;
    commit(catalog, "create the tables", create_tables).await?;
    commit(catalog, "create the indexes", |tx| {
        let clients = table_id(tx, INDEXED)?;
        let by_id = index_def(tx, clients, "by_id", "id", true)?;
        let by_name = index_def(tx, clients, "by_name", "name", false)?;
        tx.create_index(clients, &by_id, &[])?;
        tx.create_index(clients, &by_name, &[]).map(drop)
    })
    .await?;
    commit(catalog, "create an index to drop", |tx| {
        let former = table_id(tx, FORMER)?;
        let by_k = index_def(tx, former, "by_k", "k", true)?;
        tx.create_index(former, &by_k, &[]).map(drop)
    })
    .await?;
    commit(catalog, "drop the index", |tx| {
        let former = table_id(tx, FORMER)?;
        tx.drop_index(index_id(tx, former, "by_k")?)
    })
    .await?;
    commit(catalog, "begin a staged index build", |tx| {
        let pending = table_id(tx, BUILDING)?;
        let by_code = index_def(tx, pending, "by_code", "code", false)?;
        tx.create_index_staged(pending, &by_code).map(drop)
    })
    .await?;
    register_clients_file(catalog, "clients-1.parquet", &FILE_ROWS).await?;
    commit(catalog, "register a delete file", delete_file).await?;
    register_clients_file(catalog, "clients-2.parquet", &SECOND_FILE_ROWS).await?;
    commit(catalog, "inline rows with their index entries", |tx| {
        let rows = INLINED_ROWS.map(|(id, name)| Event {
            id,
            name,
            ok: id % 2 == 0,
        });
        let chunk = events_chunk(tx.current_snapshot().schema_version, &rows)?;
        let (clients, entries) = client_entries(tx, &INLINED_ROWS)?;
        tx.inline_insert(clients, &chunk, &entries).map(drop)
    })
    .await?;
    commit(
        catalog,
        "register a data file in the table without indexes",
        |tx| {
            let notes = table_id(tx, PLAIN)?;
            tx.register_data_file(notes, data_file("notes-1.parquet", 2), &[])
                .map(drop)
        },
    )
    .await?;
    Ok(())
}

fn create_tables(tx: &mut Transaction) -> moraine::Result<()> {
    let sales = schema_id(tx)?;
    let clients = [
        column("id", "int64"),
        column("name", "varchar"),
        column("ok", "boolean"),
    ];
    tx.create_table(sales, INDEXED, &clients)?;
    tx.create_table(sales, BUILDING, &[column("code", "varchar")])?;
    tx.create_table(sales, FORMER, &[column("k", "int64")])?;
    let notes = [column("k", "int64"), column("v", "varchar")];
    tx.create_table(sales, PLAIN, &notes).map(drop)
}

/// One commit registering a data file of `rows` in `sales.clients`, with
/// their entries in both of its indexes.
async fn register_clients_file(
    catalog: &Catalog,
    path: &str,
    rows: &[(i64, Option<&'static str>)],
) -> Result<(), String> {
    commit(
        catalog,
        "register a data file with its index entries",
        |tx| {
            let (clients, entries) = client_entries(tx, rows)?;
            let file = data_file(path, rows.len() as u64);
            tx.register_data_file(clients, file, &entries).map(drop)
        },
    )
    .await
    .map(drop)
}

/// The delete file killing the row `DELETED_ORDINAL` of the first data file,
/// naming the values both indexes hold for it.
fn delete_file(tx: &mut Transaction) -> moraine::Result<()> {
    let clients = table_id(tx, INDEXED)?;
    let file = tx
        .data_files_of(clients)
        .into_iter()
        .find(|f| f.path == "clients-1.parquet")
        .ok_or_else(|| not_found("data file clients-1.parquet"))?;
    let row_id = file.row_id_start.unwrap_or(0) + DELETED_ORDINAL;
    let (id, name) = FILE_ROWS[DELETED_ORDINAL as usize];
    let removals = [
        FileIndexRemoval {
            index: index_id(tx, clients, "by_id")?,
            row_id,
            values: vec![Some(int64(id))],
        },
        FileIndexRemoval {
            index: index_id(tx, clients, "by_name")?,
            row_id,
            values: vec![name.map(text)],
        },
    ];
    let deletes = DeleteFile {
        data_file_id: file.id,
        path: "clients-1-delete.parquet".to_owned(),
        path_is_relative: true,
        format: "parquet".to_owned(),
        delete_count: 1,
        file_size_bytes: 640,
        footer_size: 210,
        encryption_key: None,
    };
    tx.register_delete_file(clients, deletes, &removals)
        .map(drop)
}

/// `sales.clients` and the entries of `rows` (by ordinal) in `by_id` and
/// `by_name`.
fn client_entries(
    view: &CatalogSnapshot,
    rows: &[(i64, Option<&str>)],
) -> moraine::Result<(TableId, Vec<FileIndexEntry>)> {
    let clients = table_id(view, INDEXED)?;
    let by_id = index_id(view, clients, "by_id")?;
    let by_name = index_id(view, clients, "by_name")?;
    let mut entries = Vec::new();
    for (ordinal, (id, name)) in (0u64..).zip(rows) {
        entries.push(FileIndexEntry {
            index: by_id,
            ordinal,
            values: vec![Some(int64(*id))],
        });
        entries.push(FileIndexEntry {
            index: by_name,
            ordinal,
            values: vec![name.map(text)],
        });
    }
    Ok((clients, entries))
}

/// A one-column index definition over the top-level column `column`.
fn index_def(
    view: &CatalogSnapshot,
    table: TableId,
    name: &str,
    column: &str,
    unique: bool,
) -> moraine::Result<IndexDef> {
    Ok(IndexDef {
        name: name.to_owned(),
        columns: vec![column_id(view, table, column)?],
        unique,
    })
}

fn data_file(path: &str, record_count: u64) -> DataFile {
    DataFile {
        path: path.to_owned(),
        path_is_relative: true,
        file_format: "parquet".to_owned(),
        record_count,
        file_size_bytes: 1_024,
        footer_size: 300,
        encryption_key: None,
        partition_values: Vec::new(),
        column_stats: Vec::new(),
    }
}

fn int64(value: i64) -> IndexKeyValue {
    IndexKeyValue::Int {
        value: i128::from(value),
        width: IntWidth::I64,
    }
}

fn text(value: &str) -> IndexKeyValue {
    IndexKeyValue::Str(value.to_owned())
}

fn schema_id(view: &CatalogSnapshot) -> moraine::Result<moraine::SchemaId> {
    view.schema_by_name(SCHEMA)
        .map(|s| s.id)
        .ok_or_else(|| not_found(&format!("schema {SCHEMA}")))
}

fn table_id(view: &CatalogSnapshot, name: &str) -> moraine::Result<TableId> {
    let sales = schema_id(view)?;
    view.table_by_name(sales, name)
        .map(|t| t.id)
        .ok_or_else(|| not_found(&format!("table {SCHEMA}.{name}")))
}

fn column_id(
    view: &CatalogSnapshot,
    table: TableId,
    name: &str,
) -> moraine::Result<moraine::ColumnId> {
    view.columns_of(table)
        .into_iter()
        .find(|c| c.parent_column.is_none() && c.name == name)
        .map(|c| c.id)
        .ok_or_else(|| not_found(&format!("column {name} of table {table}")))
}

fn index_id(view: &CatalogSnapshot, table: TableId, name: &str) -> moraine::Result<IndexId> {
    view.index_by_name(table, name)
        .map(|i| i.id)
        .ok_or_else(|| not_found(&format!("index {name} of table {table}")))
}

/// The JSON of `index-view`: every live table with a live index, by id.
pub async fn view(dir: &Path, values: &[String]) -> Result<String, String> {
    let catalog = lake::open_reader(dir).await?;
    let document = view_document(&catalog, values).await;
    let document = after_close(document, catalog.close().await)?;
    serde_json::to_string(&document).map_err(|e| format!("cannot serialise the view: {e}"))
}

async fn view_document(catalog: &ReadOnlyCatalog, values: &[String]) -> Result<Value, String> {
    let head = catalog
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?;
    let mut tables = Vec::new();
    for schema in head.schemas() {
        for table in head.tables_in(schema.id) {
            let mut indexes = head.indexes_of(table.id);
            if indexes.is_empty() {
                continue;
            }
            indexes.sort_by_key(|i| i.id.get());
            let mut shown = Vec::new();
            for index in &indexes {
                shown.push(index_json(catalog, &head, index, values).await?);
            }
            tables.push(json!({
                "table_id": table.id.get(),
                "schema": schema.name,
                "table": table.name,
                "indexes": shown,
            }));
        }
    }
    tables.sort_by_key(|t| t["table_id"].as_u64());
    Ok(json!({
        "head": head.current_snapshot().id.get(),
        "tables": tables,
    }))
}

async fn index_json(
    catalog: &ReadOnlyCatalog,
    head: &CatalogSnapshot,
    index: &IndexInfo,
    values: &[String],
) -> Result<Value, String> {
    let failed = |what: &str| {
        let what = format!("{what} of index {} ({})", index.name, index.id);
        move |e: moraine::Error| format!("the crate cannot read the {what}: {e}")
    };
    let entries = if index.state == IndexState::Ready {
        let ordered = catalog
            .index_range(
                index.table_id,
                index.id,
                Bound::Unbounded,
                Bound::Unbounded,
                false,
            )
            .await
            .map_err(failed("entries"))?;
        let nulls = catalog
            .index_nulls(index.table_id, index.id, vec![None], false)
            .await
            .map_err(failed("NULL entries"))?;
        let mut lookups = Map::new();
        for value in values {
            if let Some(key) = lookup_key(head, index, value) {
                let rows = catalog
                    .index_lookup(index.table_id, index.id, &[key])
                    .await
                    .map_err(failed("lookup"))?;
                lookups.insert(value.clone(), json!(rows));
            }
        }
        json!({"ordered": ordered, "null": nulls, "lookups": lookups})
    } else {
        Value::Null
    };
    Ok(json!({
        "index_id": index.id.get(),
        "name": index.name,
        "columns": index.columns.iter().map(|c| c.get()).collect::<Vec<_>>(),
        "unique": index.unique,
        "state": state_name(index.state),
        "maintenance": match index.maintenance {
            IndexMaintenance::Synchronous => "synchronous",
            IndexMaintenance::Deferred => "deferred",
        },
        "descending": index
            .directions
            .iter()
            .map(|d| *d == moraine::Direction::Descending)
            .collect::<Vec<_>>(),
        "nulls_first": index.nulls.iter().map(|n| *n == NullOrder::First).collect::<Vec<_>>(),
        "build_cursor": index.build_cursor,
        "build_file_cursor": index.build_file_cursor.map(|f| f.get()),
        "build_position_cursor": index.build_position_cursor,
        "entries": entries,
    }))
}

fn state_name(state: IndexState) -> &'static str {
    match state {
        IndexState::Ready => "ready",
        IndexState::Building => "building",
        IndexState::Maintaining => "maintaining",
        IndexState::Poisoned => "poisoned",
    }
}

/// `value` as the one-column key of `index`, when the column is an `int64`
/// the text parses as, or a `varchar`; other indexes take no lookup.
fn lookup_key(head: &CatalogSnapshot, index: &IndexInfo, value: &str) -> Option<IndexKeyValue> {
    let [column] = index.columns.as_slice() else {
        return None;
    };
    let info = head
        .columns_of(index.table_id)
        .into_iter()
        .find(|c| c.id == *column)?;
    match info.column_type.to_ascii_lowercase().as_str() {
        "varchar" => Some(text(value)),
        "int64" | "bigint" => value.parse().ok().map(int64),
        _ => None,
    }
}
