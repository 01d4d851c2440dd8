//! Writing into a lake another writer created: `append` adds a few commits
//! through the crate's verb API to an existing lake (one the Java catalog
//! wrote, or this tool), and `hold` keeps a writer open until told to commit,
//! to show whether another writer's open has fenced it.
//!
//! Opening a lake read-write fences every earlier writer of it (SlateDB
//! bumps the writer epoch in the manifest), so each of these subcommands
//! takes the lake over from whoever held it.

use std::io::{BufRead, Write};
use std::path::Path;

use moraine::{Catalog, DataFile, TableId, Transaction};

use crate::lake;
use crate::steps::{column, commit};

/// The table `append` always extends when the lake has it: a table both
/// sides write, so row ids and file ids must continue across writers.
const SHARED_SCHEMA: &str = "main";
const SHARED_TABLE: &str = "shared";

/// Adds commits to the existing lake in `dir`: a new table
/// `main.from_rust_<head>` (with `<head>` the snapshot id found at open), a
/// data file in it, a column added to it, and, when `main.shared` exists, a
/// data file in that table. Prints the head it found and the head it left,
/// as `<before> <after>`.
pub async fn append(dir: &Path) -> Result<(), String> {
    let catalog = open_existing(dir).await?;
    let outcome = run(&catalog).await;
    let closed = catalog
        .close()
        .await
        .map_err(|e| format!("cannot close the lake: {e}"));
    let (before, after) = outcome?;
    closed?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{before} {after}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the heads: {e}"))
}

async fn run(catalog: &Catalog) -> Result<(u64, u64), String> {
    let before = head(catalog).await?;
    let name = format!("from_rust_{before}");
    commit(catalog, "create a table", |tx| {
        let main = main_schema(tx)?;
        tx.create_table(main, &name, &[column("k", "int64"), column("v", "varchar")])
            .map(drop)
    })
    .await?;
    commit(catalog, "register a data file", |tx| {
        let table = table(tx, &name)?;
        tx.register_data_file(table, file(&format!("{name}-1.parquet"), 12), &[])
            .map(drop)
    })
    .await?;
    commit(catalog, "add a column", |tx| {
        let table = table(tx, &name)?;
        tx.add_column(table, &column("w", "int32")).map(drop)
    })
    .await?;
    let has_shared = {
        let view = catalog
            .snapshot()
            .await
            .map_err(|e| format!("cannot read the head: {e}"))?;
        view.schema_by_name(SHARED_SCHEMA)
            .and_then(|s| view.table_by_name(s.id, SHARED_TABLE))
            .is_some()
    };
    if has_shared {
        commit(catalog, "register a data file in the shared table", |tx| {
            let table = table(tx, SHARED_TABLE)?;
            tx.register_data_file(table, file(&format!("{name}-shared.parquet"), 7), &[])
                .map(drop)
        })
        .await?;
    }
    Ok((before, head(catalog).await?))
}

/// Opens a writer on the existing lake in `dir`, prints `open`, waits for a
/// line on standard input, then tries one commit (a schema
/// `held_<head>`) and prints what became of it: `committed <id>`, or
/// `fenced` when another writer opened the lake in between. Any other
/// failure is an error.
pub async fn hold(dir: &Path) -> Result<(), String> {
    let catalog = open_existing(dir).await?;
    say("open")?;
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    let name = format!("held_{}", head(&catalog).await?);
    let outcome = catalog
        .commit(|tx: &mut Transaction| tx.create_schema(&name).map(drop))
        .await;
    match outcome {
        Ok(id) => {
            catalog
                .close()
                .await
                .map_err(|e| format!("cannot close the lake: {e}"))?;
            say(&format!("committed {}", id.get()))
        }
        Err(moraine::Error::Fenced(_)) => {
            // A fenced writer cannot close cleanly; what it would flush is
            // refused anyway.
            let _ = catalog.close().await;
            say("fenced")
        }
        Err(e) => {
            let _ = catalog.close().await;
            Err(format!("the held writer's commit failed: {e}"))
        }
    }
}

/// A writer on the existing lake in `dir`, fencing whoever held it. An
/// existing lake only: the reader's checks refuse a directory without a
/// manifest before the writer would create one.
async fn open_existing(dir: &Path) -> Result<Catalog, String> {
    lake::open_reader(dir)
        .await?
        .close()
        .await
        .map_err(|e| format!("cannot close the reader: {e}"))?;
    lake::open_writer(dir).await
}

fn say(line: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}

async fn head(catalog: &Catalog) -> Result<u64, String> {
    Ok(catalog
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?
        .current_snapshot()
        .id
        .get())
}

fn main_schema(tx: &Transaction) -> moraine::Result<moraine::SchemaId> {
    tx.schema_by_name(SHARED_SCHEMA)
        .map(|s| s.id)
        .ok_or_else(|| moraine::Error::NotFound(format!("schema {SHARED_SCHEMA}")))
}

fn table(tx: &Transaction, name: &str) -> moraine::Result<TableId> {
    let schema = main_schema(tx)?;
    tx.table_by_name(schema, name)
        .map(|t| t.id)
        .ok_or_else(|| moraine::Error::NotFound(format!("table {SHARED_SCHEMA}.{name}")))
}

fn file(path: &str, record_count: u64) -> DataFile {
    DataFile {
        path: path.to_owned(),
        path_is_relative: true,
        file_format: "parquet".to_owned(),
        record_count,
        file_size_bytes: 100 * record_count,
        footer_size: 64,
        encryption_key: None,
        partition_values: Vec::new(),
        column_stats: Vec::new(),
    }
}
