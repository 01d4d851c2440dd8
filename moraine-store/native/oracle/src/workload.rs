//! The scripted workload of `moraine-oracle write`: one commit per step,
//! over every change kind the crate's verb API offers, with fixed names and
//! sizes. The crate mints random uuids and wall-clock times itself; nothing
//! else varies between two runs.
//!
//! What the verb API cannot do, and so the workload does not: column
//! mappings, column tags, commit author/message/extra info and snapshot
//! expiry are written only by the crate's staged-row (SQL) path.
//!
//! A commit closure may run more than once (the crate retries it after a
//! lost race), so every step looks its objects up by name instead of
//! carrying ids from step to step.

use std::path::Path;

use moraine::{
    Catalog, CatalogSnapshot, ColumnAlteration, ColumnDef, ColumnId, ColumnStats, CommitMember,
    DataFile, DataFileId, DeleteFile, FileColumnStats, FlushedDataFile, IndexDef,
    MacroImplementationDef, MacroParameterDef, OptionScope, PartitionColumnDef, SchemaId,
    SnapshotId, SortKeyDef, TableId, TagTarget, Transaction, ViewId,
};

use crate::inline::{events_chunk, Event};
use crate::lake;

/// Runs the workload into a new lake in `dir`.
pub async fn write(dir: &Path) -> Result<(), String> {
    let catalog = lake::open_writer(dir).await?;
    if catalog
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?
        .current_snapshot()
        .id
        .get()
        != 0
    {
        return Err(format!(
            "{} already holds a lake with commits; write needs a new directory",
            dir.display()
        ));
    }
    let outcome = run(&catalog).await;
    let closed = catalog
        .close()
        .await
        .map_err(|e| format!("cannot close the lake: {e}"));
    outcome?;
    closed
}

async fn run(catalog: &Catalog) -> Result<(), String> {
    // Schemas and a table with every nested column kind.
    commit(catalog, "create schema", |tx| {
        tx.create_schema("sales").map(drop)
    })
    .await?;
    commit(catalog, "create table", |tx| {
        let sales = schema(tx, "sales")?;
        tx.create_table(sales, "orders", &orders_columns())
            .map(drop)
    })
    .await?;

    // Column changes: add, rename, type, default, nullability, drop.
    commit(catalog, "add column", |tx| {
        let orders = orders(tx)?;
        let mut discount = column("discount", "int32");
        discount.default_value = Some("0".to_owned());
        tx.add_column(orders, &discount).map(drop)
    })
    .await?;
    commit(catalog, "rename column", |tx| {
        let orders = orders(tx)?;
        let customer = column_id(tx, orders, "customer")?;
        tx.rename_column(orders, customer, "customer_name")
    })
    .await?;
    commit(catalog, "change a column type", |tx| {
        let orders = orders(tx)?;
        let discount = column_id(tx, orders, "discount")?;
        tx.alter_column(
            orders,
            discount,
            ColumnAlteration {
                column_type: Some("int64".to_owned()),
                nulls_allowed: None,
                default_value: None,
            },
        )
    })
    .await?;
    commit(catalog, "set a default and NOT NULL", |tx| {
        let orders = orders(tx)?;
        let customer = column_id(tx, orders, "customer_name")?;
        tx.alter_column(
            orders,
            customer,
            ColumnAlteration {
                column_type: None,
                nulls_allowed: Some(false),
                default_value: Some(Some("'unknown'".to_owned())),
            },
        )
    })
    .await?;
    commit(catalog, "drop a default, allow NULL", |tx| {
        let orders = orders(tx)?;
        let customer = column_id(tx, orders, "customer_name")?;
        tx.alter_column(
            orders,
            customer,
            ColumnAlteration {
                column_type: None,
                nulls_allowed: Some(true),
                default_value: Some(None),
            },
        )
    })
    .await?;

    // Partition and sort keys.
    commit(catalog, "set partitioning", |tx| {
        let orders = orders(tx)?;
        let id = column_id(tx, orders, "id")?;
        tx.set_partitioning(
            orders,
            &[PartitionColumnDef {
                column: id,
                transform: "identity".to_owned(),
            }],
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "set sorting", |tx| {
        let orders = orders(tx)?;
        tx.set_sorting(
            orders,
            &[
                sort_key("id", "ASC", "NULLS_LAST"),
                sort_key("customer_name", "DESC", "NULLS_FIRST"),
            ],
        )
        .map(drop)
    })
    .await?;

    // Data files with statistics and partition values, a delete file, and
    // table and column statistics.
    commit(catalog, "register a data file", |tx| {
        let orders = orders(tx)?;
        let file = data_file(tx, orders, "data/orders-1.parquet", 100, "1")?;
        tx.register_data_file(orders, file, &[]).map(drop)
    })
    .await?;
    commit(catalog, "register a second data file", |tx| {
        let orders = orders(tx)?;
        let mut file = data_file(tx, orders, "data/orders-2.parquet", 50, "2")?;
        file.column_stats[0].contains_nan = Some(false);
        file.column_stats[0].extra_stats = Some("{\"distinct\":50}".to_owned());
        tx.register_data_file(orders, file, &[]).map(drop)
    })
    .await?;
    commit(catalog, "register a delete file", |tx| {
        let orders = orders(tx)?;
        let target = data_file_id(tx, orders, "data/orders-1.parquet")?;
        tx.register_delete_file(
            orders,
            DeleteFile {
                data_file_id: target,
                path: "data/orders-1-delete.parquet".to_owned(),
                path_is_relative: true,
                format: "parquet".to_owned(),
                delete_count: 3,
                file_size_bytes: 812,
                footer_size: 301,
                encryption_key: None,
            },
            &[],
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "table statistics", |tx| {
        let orders = orders(tx)?;
        tx.update_table_stats(orders, 147, 9_216)
    })
    .await?;
    commit(catalog, "column statistics", |tx| {
        let orders = orders(tx)?;
        let id = column_id(tx, orders, "id")?;
        let customer = column_id(tx, orders, "customer_name")?;
        tx.update_column_stats(
            orders,
            id,
            ColumnStats {
                contains_null: Some(false),
                contains_nan: None,
                min_value: Some("1".to_owned()),
                max_value: Some("150".to_owned()),
                extra_stats: None,
            },
        )?;
        tx.update_column_stats(
            orders,
            customer,
            ColumnStats {
                contains_null: Some(true),
                contains_nan: Some(false),
                min_value: Some("Ada".to_owned()),
                max_value: Some("Zoë".to_owned()),
                extra_stats: Some("{\"max_length\":12}".to_owned()),
            },
        )
    })
    .await?;

    // Views and macros.
    commit(catalog, "create a view", |tx| {
        let sales = schema(tx, "sales")?;
        tx.create_view(
            sales,
            "big_orders",
            "duckdb",
            "SELECT * FROM sales.orders WHERE id > 10",
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "alter a view", |tx| {
        let view = view_id(tx, "big_orders")?;
        tx.alter_view(view, "duckdb", "SELECT * FROM sales.orders WHERE id > 100")
    })
    .await?;
    commit(catalog, "create a scalar macro", |tx| {
        let sales = schema(tx, "sales")?;
        tx.create_macro(
            sales,
            "add_one",
            &[MacroImplementationDef {
                dialect: "duckdb".to_owned(),
                sql: "x + 1".to_owned(),
                macro_type: "scalar".to_owned(),
                parameters: vec![MacroParameterDef {
                    name: "x".to_owned(),
                    parameter_type: "int64".to_owned(),
                    default_value: Some("1".to_owned()),
                    default_value_type: "int64".to_owned(),
                }],
            }],
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "create a table macro", |tx| {
        let sales = schema(tx, "sales")?;
        let implementation = |dialect: &str, sql: &str| MacroImplementationDef {
            dialect: dialect.to_owned(),
            sql: sql.to_owned(),
            macro_type: "table".to_owned(),
            parameters: vec![
                MacroParameterDef {
                    name: "lo".to_owned(),
                    parameter_type: "int64".to_owned(),
                    default_value: None,
                    default_value_type: "unknown".to_owned(),
                },
                MacroParameterDef {
                    name: "hi".to_owned(),
                    parameter_type: "int64".to_owned(),
                    default_value: Some("100".to_owned()),
                    default_value_type: "int64".to_owned(),
                },
            ],
        };
        tx.create_macro(
            sales,
            "orders_between",
            &[
                implementation(
                    "duckdb",
                    "SELECT * FROM sales.orders WHERE id BETWEEN lo AND hi",
                ),
                implementation("ansi", "SELECT * FROM orders WHERE id BETWEEN lo AND hi"),
            ],
        )
        .map(drop)
    })
    .await?;

    // Tags and comments: set, replace, remove.
    commit(catalog, "tag objects", |tx| {
        let sales = schema(tx, "sales")?;
        let orders = orders(tx)?;
        let view = view_id(tx, "big_orders")?;
        tx.set_tag(TagTarget::Schema(sales), "comment", "Sales data")?;
        tx.set_tag(TagTarget::Table(orders), "comment", "One row per order")?;
        tx.set_tag(TagTarget::Table(orders), "owner", "finance")?;
        tx.set_tag(TagTarget::View(view), "owner", "analytics")
    })
    .await?;
    commit(catalog, "replace and remove tags", |tx| {
        let orders = orders(tx)?;
        let view = view_id(tx, "big_orders")?;
        tx.set_tag(
            TagTarget::Table(orders),
            "comment",
            "One row per placed order",
        )?;
        tx.remove_tag(TagTarget::View(view), "owner")
    })
    .await?;

    // Options at every scope; these commits mint no snapshot.
    commit(catalog, "set options", |tx| {
        let sales = schema(tx, "sales")?;
        let orders = orders(tx)?;
        tx.set_option(OptionScope::Global, "retention", "7 days")?;
        tx.set_option(OptionScope::Schema(sales), "target_file_size", "1MB")?;
        tx.set_option(OptionScope::Table(orders), "parquet_row_group_size", "4096")?;
        tx.set_option(OptionScope::Table(orders), "compression", "zstd")
    })
    .await?;
    commit(catalog, "unset an option", |tx| {
        let orders = orders(tx)?;
        tx.unset_option(OptionScope::Table(orders), "compression")
    })
    .await?;

    // Inlined data: insert, delete, flush into a file, insert again.
    commit(catalog, "create the inline table", |tx| {
        let sales = schema(tx, "sales")?;
        tx.create_table(
            sales,
            "events",
            &[
                column("id", "int64"),
                column("name", "varchar"),
                column("ok", "boolean"),
            ],
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "inline insert", |tx| {
        let events = table(tx, "sales", "events")?;
        let version = tx.current_snapshot().schema_version;
        let chunk = events_chunk(
            version,
            &[
                Event {
                    id: 1,
                    name: Some("open"),
                    ok: true,
                },
                Event {
                    id: 2,
                    name: None,
                    ok: false,
                },
                Event {
                    id: 3,
                    name: Some("Ａ😀"),
                    ok: true,
                },
            ],
        )?;
        tx.inline_insert(events, &chunk, &[]).map(drop)
    })
    .await?;
    commit(catalog, "second inline insert", |tx| {
        let events = table(tx, "sales", "events")?;
        let version = tx.current_snapshot().schema_version;
        let chunk = events_chunk(
            version,
            &[
                Event {
                    id: 4,
                    name: Some("close"),
                    ok: true,
                },
                Event {
                    id: 5,
                    name: Some("reopen"),
                    ok: false,
                },
            ],
        )?;
        tx.inline_insert(events, &chunk, &[]).map(drop)
    })
    .await?;
    commit(catalog, "inline delete", |tx| {
        let events = table(tx, "sales", "events")?;
        tx.inline_delete(events, 1, &[])
    })
    .await?;
    flush_events(catalog).await?;
    // Rows that stay inlined, so time travel shows one appear and go.
    commit(catalog, "inline insert after the flush", |tx| {
        let events = table(tx, "sales", "events")?;
        let version = tx.current_snapshot().schema_version;
        let chunk = events_chunk(
            version,
            &[
                Event {
                    id: 6,
                    name: Some("late"),
                    ok: true,
                },
                Event {
                    id: 7,
                    name: Some("later"),
                    ok: false,
                },
            ],
        )?;
        tx.inline_insert(events, &chunk, &[]).map(drop)
    })
    .await?;
    commit(catalog, "inline delete of a row still inlined", |tx| {
        let events = table(tx, "sales", "events")?;
        // Ids 0 to 4 went to the flushed file; the last chunk starts at 5.
        tx.inline_delete(events, 5, &[])
    })
    .await?;

    // An equality index, created and dropped (not part of the dump).
    commit(catalog, "create an index", |tx| {
        let sales = schema(tx, "sales")?;
        let lookup = tx.create_table(sales, "lookup", &[column("k", "int64")])?;
        let k = column_id(tx, lookup, "k")?;
        tx.create_index(
            lookup,
            &IndexDef {
                name: "lookup_k".to_owned(),
                columns: vec![k],
                unique: false,
            },
            &[],
        )
        .map(drop)
    })
    .await?;
    commit(catalog, "drop an index", |tx| {
        let lookup = table(tx, "sales", "lookup")?;
        let index = tx
            .index_by_name(lookup, "lookup_k")
            .ok_or_else(|| not_found("index lookup_k"))?;
        tx.drop_index(index.id)
    })
    .await?;

    // A group commit: two snapshots in one batch.
    let create_ops = |tx: &mut Transaction| tx.create_schema("ops").map(drop);
    let create_jobs = |tx: &mut Transaction| {
        let ops = schema(tx, "ops")?;
        tx.create_table(ops, "jobs", &[column("id", "int64")])
            .map(drop)
    };
    let members: [CommitMember<'_>; 2] = [&create_ops, &create_jobs];
    catalog
        .commit_group(&members)
        .await
        .map_err(|e| format!("group commit failed: {e}"))?;

    // Renames and moves.
    commit(catalog, "rename a table", |tx| {
        let orders = orders(tx)?;
        tx.rename_table(orders, "orders_v2")
    })
    .await?;
    commit(catalog, "move a table to another schema", |tx| {
        let jobs = table(tx, "ops", "jobs")?;
        let sales = schema(tx, "sales")?;
        tx.set_table_schema(jobs, sales)
    })
    .await?;

    // Clearing keys, expiring files, dropping a nested column.
    commit(catalog, "clear sorting and partitioning", |tx| {
        let orders = table(tx, "sales", "orders_v2")?;
        tx.clear_sorting(orders)?;
        tx.clear_partitioning(orders)
    })
    .await?;
    commit(catalog, "expire the delete file", |tx| {
        let orders = table(tx, "sales", "orders_v2")?;
        let delete = tx
            .delete_files_of(orders)
            .first()
            .map(|d| d.id)
            .ok_or_else(|| not_found("delete file of orders_v2"))?;
        tx.expire_delete_file(orders, delete)
    })
    .await?;
    commit(catalog, "expire a data file", |tx| {
        let orders = table(tx, "sales", "orders_v2")?;
        let file = data_file_id(tx, orders, "data/orders-2.parquet")?;
        tx.expire_data_file(orders, file)
    })
    .await?;
    commit(catalog, "drop a nested column", |tx| {
        let orders = table(tx, "sales", "orders_v2")?;
        let labels = column_id(tx, orders, "labels")?;
        tx.drop_column(orders, labels)
    })
    .await?;

    // Names outside ASCII: U+FF21 sorts before U+1F600 by UTF-8 bytes, the
    // other way round by UTF-16 units.
    commit(catalog, "non-ASCII names", |tx| {
        let sales = schema(tx, "sales")?;
        tx.create_table(sales, "😀_grin", &[column("id", "int64")])?;
        tx.create_table(sales, "Ａ_wide", &[column("id", "int64")])?;
        let unicode = tx.create_schema("ünïcødé")?;
        tx.create_view(unicode, "Ｚ_view", "duckdb", "SELECT 1")
            .map(drop)
    })
    .await?;

    // Drops.
    commit(catalog, "drop a view and a macro", |tx| {
        let sales = schema(tx, "sales")?;
        let view = view_id(tx, "big_orders")?;
        let add_one = tx
            .macro_by_name(sales, "add_one")
            .ok_or_else(|| not_found("macro add_one"))?;
        tx.drop_view(view)?;
        tx.drop_macro(add_one.id)
    })
    .await?;
    commit(catalog, "drop a table", |tx| {
        let lookup = table(tx, "sales", "lookup")?;
        tx.drop_table(lookup)
    })
    .await?;
    commit(catalog, "drop a schema", |tx| {
        let ops = schema(tx, "ops")?;
        tx.drop_schema(ops)
    })
    .await?;
    commit(catalog, "statistics of the inline table", |tx| {
        let events = table(tx, "sales", "events")?;
        tx.update_table_stats(events, 5, 2_048)
    })
    .await?;
    Ok(())
}

/// Flushes the inlined rows of `events` into one data file that keeps their
/// row ids and is backdated to their first snapshot.
async fn flush_events(catalog: &Catalog) -> Result<(), String> {
    let head = catalog
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?;
    let events = table(&head, "sales", "events").map_err(|e| e.to_string())?;
    let rows = catalog
        .recent_rows(events)
        .await
        .map_err(|e| format!("cannot read the inlined rows: {e}"))?;
    let (first, last) = match (rows.first(), rows.last()) {
        (Some(first), Some(last)) => (first, last),
        _ => return Err("the inline table has no rows to flush".to_owned()),
    };
    let begin = rows
        .iter()
        .map(|r| r.begin_snapshot)
        .min()
        .unwrap_or(first.begin_snapshot);
    let end = rows
        .iter()
        .map(|r| r.begin_snapshot)
        .max()
        .unwrap_or(last.begin_snapshot);
    let schema_version = first.schema_version;
    let row_id_start = first.row_id;
    let record_count = last.row_id - first.row_id + 1;
    commit(catalog, "flush inlined data", |tx| {
        let events = table(tx, "sales", "events")?;
        let flushed = FlushedDataFile {
            file: DataFile {
                path: "data/events-flushed.parquet".to_owned(),
                path_is_relative: true,
                file_format: "parquet".to_owned(),
                record_count,
                file_size_bytes: 1_536,
                footer_size: 420,
                encryption_key: None,
                partition_values: Vec::new(),
                column_stats: Vec::new(),
            },
            row_id_start,
            begin_snapshot: begin,
            partial_max: Some(end),
        };
        tx.flush_inlined_data(events, schema_version, &[flushed])
            .map(drop)
    })
    .await
    .map(drop)
}

/// One commit, with the step named in its error.
async fn commit(
    catalog: &Catalog,
    step: &str,
    f: impl Fn(&mut Transaction) -> moraine::Result<()>,
) -> Result<SnapshotId, String> {
    catalog
        .commit(f)
        .await
        .map_err(|e| format!("step {step:?} failed: {e}"))
}

fn orders_columns() -> Vec<ColumnDef> {
    let mut id = column("id", "int64");
    id.nulls_allowed = false;
    let mut customer = column("customer", "varchar");
    customer.default_value = Some("'anon'".to_owned());
    let mut address = column("address", "struct");
    address.children = vec![column("street", "varchar"), column("zip", "int32")];
    let mut labels = column("labels", "list");
    labels.children = vec![column("element", "varchar")];
    let mut attributes = column("attributes", "map");
    attributes.children = vec![column("key", "varchar"), column("value", "int64")];
    vec![id, customer, address, labels, attributes]
}

fn column(name: &str, column_type: &str) -> ColumnDef {
    ColumnDef {
        name: name.to_owned(),
        column_type: column_type.to_owned(),
        nulls_allowed: true,
        default_value: None,
        children: Vec::new(),
    }
}

fn sort_key(expression: &str, direction: &str, nulls: &str) -> SortKeyDef {
    SortKeyDef {
        expression: expression.to_owned(),
        dialect: "duckdb".to_owned(),
        sort_direction: direction.to_owned(),
        null_order: nulls.to_owned(),
    }
}

/// A file of `orders` with statistics for `id` and `customer_name`.
fn data_file(
    view: &CatalogSnapshot,
    orders: TableId,
    path: &str,
    record_count: u64,
    partition: &str,
) -> moraine::Result<DataFile> {
    let id = column_id(view, orders, "id")?;
    let customer = column_id(view, orders, "customer_name")?;
    Ok(DataFile {
        path: path.to_owned(),
        path_is_relative: true,
        file_format: "parquet".to_owned(),
        record_count,
        file_size_bytes: 40 * record_count + 1_000,
        footer_size: 512,
        encryption_key: None,
        partition_values: vec![partition.to_owned()],
        column_stats: vec![
            FileColumnStats {
                column_id: id,
                column_size_bytes: 8 * record_count,
                value_count: record_count,
                null_count: 0,
                min_value: Some("1".to_owned()),
                max_value: Some(record_count.to_string()),
                contains_nan: None,
                extra_stats: None,
            },
            FileColumnStats {
                column_id: customer,
                column_size_bytes: 12 * record_count,
                value_count: record_count,
                null_count: 2,
                min_value: Some("Ada".to_owned()),
                max_value: Some("Zoë".to_owned()),
                contains_nan: None,
                extra_stats: None,
            },
        ],
    })
}

fn not_found(what: &str) -> moraine::Error {
    moraine::Error::NotFound(what.to_owned())
}

fn schema(view: &CatalogSnapshot, name: &str) -> moraine::Result<SchemaId> {
    view.schema_by_name(name)
        .map(|s| s.id)
        .ok_or_else(|| not_found(&format!("schema {name}")))
}

fn table(view: &CatalogSnapshot, schema_name: &str, name: &str) -> moraine::Result<TableId> {
    let schema_id = schema(view, schema_name)?;
    view.table_by_name(schema_id, name)
        .map(|t| t.id)
        .ok_or_else(|| not_found(&format!("table {schema_name}.{name}")))
}

fn orders(view: &CatalogSnapshot) -> moraine::Result<TableId> {
    table(view, "sales", "orders")
}

/// A top-level column by name.
fn column_id(view: &CatalogSnapshot, table: TableId, name: &str) -> moraine::Result<ColumnId> {
    view.columns_of(table)
        .into_iter()
        .find(|c| c.parent_column.is_none() && c.name == name)
        .map(|c| c.id)
        .ok_or_else(|| not_found(&format!("column {name} of table {table}")))
}

fn view_id(view: &CatalogSnapshot, name: &str) -> moraine::Result<ViewId> {
    let sales = schema(view, "sales")?;
    view.view_by_name(sales, name)
        .map(|v| v.id)
        .ok_or_else(|| not_found(&format!("view {name}")))
}

fn data_file_id(view: &CatalogSnapshot, table: TableId, path: &str) -> moraine::Result<DataFileId> {
    view.data_files_of(table)
        .into_iter()
        .find(|f| f.path == path)
        .map(|f| f.id)
        .ok_or_else(|| not_found(&format!("data file {path}")))
}
