//! `moraine-index-bench`: the Rust half of moraine-bench's index commit
//! benchmark (`IndexCommitBench`, `moraine-bench/index-commit-bench.sh`).
//!
//! `moraine-index-bench run <dir> <indexes> <warmup> <samples>` creates, in a
//! new lake at `dir`, the table `main.events (id BIGINT, name VARCHAR, ok
//! BOOLEAN)` with 0, 1 or 3 equality indexes (`by_id` UNIQUE over `id`, then
//! `by_name` over `name` and `by_ok` over `ok`), then inlines one row a
//! commit, with a WAL flush a commit, supplying the row's entry in every
//! index as the crate's verb API asks. It prints one line of `key=value`
//! figures per measured commit: wall time and process CPU time.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use moraine::{
    Catalog, CatalogOptions, ColumnDef, FileIndexEntry, IndexDef, IndexId, IndexKeyValue, IntWidth,
    SchemaId, TableId,
};
use object_store::local::LocalFileSystem;

#[allow(dead_code)]
#[path = "../inline.rs"]
mod inline;

const USAGE: &str = "usage: moraine-index-bench run <dir> <indexes: 0, 1 or 3> <warmup> <samples>";

/// The names the rows take in turn: eight values, so `by_name` holds runs.
const NAMES: [&str; 8] = ["Ada", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("moraine-index-bench: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let [command, dir, indexes, warmup, samples] = args else {
        return Err(USAGE.to_owned());
    };
    if command != "run" {
        return Err(USAGE.to_owned());
    }
    let indexes: usize = number(indexes)?;
    if ![0, 1, 3].contains(&indexes) {
        return Err(USAGE.to_owned());
    }
    let warmup = number(warmup)?;
    let samples = number(samples)?;
    if samples == 0 {
        return Err("the number of measured commits must be positive".to_owned());
    }
    // Two workers, as moraine-verb-bench and the JNI crate's runtime.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(measure(Path::new(dir), indexes, warmup, samples))
}

fn number(text: &str) -> Result<usize, String> {
    text.parse()
        .map_err(|_| format!("expected a non-negative integer, got {text:?}"))
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

async fn measure(dir: &Path, indexes: usize, warmup: usize, samples: usize) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let store = LocalFileSystem::new_with_prefix(dir)
        .map_err(|e| format!("cannot open {} as an object store: {e}", dir.display()))?;
    let mut options = CatalogOptions::default();
    options.flush_on_commit = true;
    let catalog = Catalog::open(Arc::new(store), options)
        .await
        .map_err(|e| format!("cannot open {} as a lake: {e}", dir.display()))?;
    catalog
        .commit(|tx| {
            tx.create_table(
                SchemaId::new(0),
                "events",
                &[
                    column("id", "int64"),
                    column("name", "varchar"),
                    column("ok", "boolean"),
                ],
            )
            .map(drop)
        })
        .await
        .map_err(|e| format!("cannot create the table: {e}"))?;
    let view = catalog
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?;
    let table = view
        .table_by_name(SchemaId::new(0), "events")
        .ok_or("the table was not created")?
        .id;
    let columns: Vec<_> = view.columns_of(table).into_iter().map(|c| c.id).collect();
    drop(view);
    let defs = [
        ("by_id", 0, true),
        ("by_name", 1, false),
        ("by_ok", 2, false),
    ];
    let mut ids: Vec<IndexId> = Vec::new();
    for (name, position, unique) in defs.into_iter().take(indexes) {
        let def = IndexDef {
            name: name.to_owned(),
            columns: vec![columns[position]],
            unique,
        };
        catalog
            .commit(|tx| tx.create_index(table, &def, &[]).map(drop))
            .await
            .map_err(|e| format!("cannot create index {name}: {e}"))?;
        let view = catalog
            .snapshot()
            .await
            .map_err(|e| format!("cannot read the head: {e}"))?;
        ids.push(
            view.index_by_name(table, name)
                .ok_or("the index was not created")?
                .id,
        );
    }
    for n in 0..warmup {
        insert(&catalog, table, &ids, n).await?;
    }
    let process = cpu_nanos();
    let started = Instant::now();
    for n in warmup..warmup + samples {
        insert(&catalog, table, &ids, n).await?;
    }
    let wall = started.elapsed().as_nanos() as f64;
    let process = (cpu_nanos() - process) as f64;
    let count = samples as f64;
    println!(
        "impl=rust indexes={indexes} commits={samples} wall_us={:.1} process_cpu_us={:.1}",
        wall / count / 1e3,
        process / count / 1e3
    );
    catalog
        .close()
        .await
        .map_err(|e| format!("cannot close the lake: {e}"))
}

/// One measured commit: row `n` inlined with its entry in every index.
async fn insert(
    catalog: &Catalog,
    table: TableId,
    ids: &[IndexId],
    n: usize,
) -> Result<(), String> {
    let values = [
        IndexKeyValue::Int {
            value: n as i128,
            width: IntWidth::I64,
        },
        IndexKeyValue::Str(NAMES[n % NAMES.len()].to_owned()),
        IndexKeyValue::Bool(n % 2 == 0),
    ];
    catalog
        .commit(|tx| {
            let row = inline::Event {
                id: n as i64,
                name: Some(NAMES[n % NAMES.len()]),
                ok: n % 2 == 0,
            };
            let chunk = inline::events_chunk(tx.current_snapshot().schema_version, &[row])?;
            let entries: Vec<FileIndexEntry> = ids
                .iter()
                .zip(values.iter())
                .map(|(index, value)| FileIndexEntry {
                    index: *index,
                    ordinal: 0,
                    values: vec![Some(value.clone())],
                })
                .collect();
            tx.inline_insert(table, &chunk, &entries).map(drop)
        })
        .await
        .map(|_| ())
        .map_err(|e| format!("commit {n} failed: {e}"))
}

/// The process's CPU time in nanoseconds.
fn cpu_nanos() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec for the call's duration.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
}
