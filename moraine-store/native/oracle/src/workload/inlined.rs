//! Inlined data: insert, delete, flush into a file, insert again.

use moraine::{Catalog, DataFile, FlushedDataFile};

use super::lookup::{schema, table};
use crate::inline::{events_chunk, Event};
use crate::steps::{column, commit};

/// Inlined data: insert, delete, flush into a file, insert again.
pub(super) async fn insert_delete_flush(catalog: &Catalog) -> Result<(), String> {
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
    insert_events(
        catalog,
        "inline insert",
        &[
            event(1, Some("open"), true),
            event(2, None, false),
            event(3, Some("Ａ😀"), true),
        ],
    )
    .await?;
    insert_events(
        catalog,
        "second inline insert",
        &[
            event(4, Some("close"), true),
            event(5, Some("reopen"), false),
        ],
    )
    .await?;
    commit(catalog, "inline delete", |tx| {
        let events = table(tx, "sales", "events")?;
        tx.inline_delete(events, 1, &[])
    })
    .await?;
    flush_events(catalog).await?;
    // Rows that stay inlined, so time travel shows one appear and go.
    insert_events(
        catalog,
        "inline insert after the flush",
        &[event(6, Some("late"), true), event(7, Some("later"), false)],
    )
    .await?;
    commit(catalog, "inline delete of a row still inlined", |tx| {
        let events = table(tx, "sales", "events")?;
        // Ids 0 to 4 went to the flushed file; the last chunk starts at 5.
        tx.inline_delete(events, 5, &[])
    })
    .await?;
    Ok(())
}

/// One commit of `rows` inlined into `sales.events`, under the schema
/// version of the commit's premise.
async fn insert_events(catalog: &Catalog, step: &str, rows: &[Event<'_>]) -> Result<(), String> {
    commit(catalog, step, |tx| {
        let events = table(tx, "sales", "events")?;
        let version = tx.current_snapshot().schema_version;
        let chunk = events_chunk(version, rows)?;
        tx.inline_insert(events, &chunk, &[]).map(drop)
    })
    .await
    .map(drop)
}

fn event(id: i64, name: Option<&'static str>, ok: bool) -> Event<'static> {
    Event { id, name, ok }
}

/// Statistics of the inline table.
pub(super) async fn table_stats(catalog: &Catalog) -> Result<(), String> {
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
