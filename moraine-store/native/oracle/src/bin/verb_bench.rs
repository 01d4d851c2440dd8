//! `moraine-verb-bench`: the cost of one small verb commit through the Rust
//! `moraine` 0.7.0 crate, in a lake of many unrelated tables. It is the Rust
//! half of moraine-bench's `VerbCommitBench`; `moraine-bench/verb-commit-bench.sh`
//! runs both on copies of one lake and prints the ratios.
//!
//! - `build <dir> <tables>` creates a lake in `dir` (a local directory) with
//!   the table `main.target` and `tables` unrelated tables, each of one
//!   BIGINT column, in commits of at most 10,000 tables.
//! - `run <dir> <warmup> <samples>` opens that lake with a WAL flush on every
//!   commit, then commits `warmup` and then `samples` times: each commit
//!   updates `main.target`'s table statistics and its column's statistics.
//!   Prints one line of `key=value` figures for the measured commits:
//!   process and thread CPU time, wall time, and bytes and allocations
//!   counted by this binary's allocator, all per commit.
//!
//! Every failure is one line on stderr and exit status 1.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use moraine::{Catalog, CatalogOptions, ColumnDef, ColumnId, ColumnStats, SchemaId, TableId};
use object_store::local::LocalFileSystem;

/// The system allocator, counting what every thread of the process asks of
/// it. Relaxed counters suffice: the figures are read once the measured
/// commits have returned, and a count that lags by an in-flight allocation of
/// a background thread is within the figures' noise.
struct Counting;

static ALLOCATED_BYTES: AtomicU64 = AtomicU64::new(0);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged; the counters do not touch the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        ALLOCATED_BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        ALLOCATED_BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Counted as an allocation of the new size, as a copying grow would be.
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        ALLOCATED_BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const USAGE: &str =
    "usage: moraine-verb-bench build <dir> <tables> | run <dir> <warmup commits> <measured commits>";

/// How many tables one building commit creates.
const TABLES_PER_COMMIT: usize = 10_000;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("moraine-verb-bench: {}", message.replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    // The runtime of the crate's own `verb_commit_bench` example: two
    // workers, as many as this machine's cores. SlateDB's background tasks
    // (the WAL flusher, the batch writer) run on them, as they run on the
    // JNI crate's multi-thread runtime under the Java catalog.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    match args {
        [command, dir, tables] if command == "build" => {
            let tables = number(tables, "tables")?;
            runtime.block_on(build(Path::new(dir), tables))
        }
        [command, dir, warmup, samples] if command == "run" => {
            let warmup = number(warmup, "warmup commits")?;
            let samples = number(samples, "measured commits")?;
            if samples == 0 {
                return Err("the number of measured commits must be positive".to_owned());
            }
            runtime.block_on(measure(Path::new(dir), warmup, samples))
        }
        _ => Err(USAGE.to_owned()),
    }
}

fn number(text: &str, what: &str) -> Result<usize, String> {
    text.parse()
        .map_err(|_| format!("{what} must be a non-negative integer, got {text:?}"))
}

async fn open(dir: &Path, flush_every_commit: bool) -> Result<Catalog, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let store = LocalFileSystem::new_with_prefix(dir)
        .map_err(|e| format!("cannot open {} as an object store: {e}", dir.display()))?;
    let mut options = CatalogOptions::default();
    options.flush_on_commit = flush_every_commit;
    Catalog::open(Arc::new(store), options)
        .await
        .map_err(|e| format!("cannot open {} as a lake: {e}", dir.display()))
}

fn bigint(name: &str) -> ColumnDef {
    ColumnDef {
        name: name.to_owned(),
        column_type: "BIGINT".to_owned(),
        nulls_allowed: true,
        default_value: None,
        children: Vec::new(),
    }
}

async fn build(dir: &Path, tables: usize) -> Result<(), String> {
    if dir.join("manifest").exists() {
        return Err(format!("{} already holds a lake", dir.display()));
    }
    let catalog = open(dir, false).await?;
    let main = SchemaId::new(0);
    catalog
        .commit(|tx| {
            tx.create_table(main, "target", &[bigint("value")])?;
            Ok(())
        })
        .await
        .map_err(|e| format!("cannot create the target table: {e}"))?;
    let mut made = 0;
    while made < tables {
        let end = tables.min(made + TABLES_PER_COMMIT);
        catalog
            .commit(|tx| {
                for index in made..end {
                    tx.create_table(main, &format!("unrelated_{index}"), &[bigint("value")])?;
                }
                Ok(())
            })
            .await
            .map_err(|e| format!("cannot create tables {made}..{end}: {e}"))?;
        made = end;
    }
    catalog
        .close()
        .await
        .map_err(|e| format!("cannot close the lake: {e}"))
}

async fn measure(dir: &Path, warmup: usize, samples: usize) -> Result<(), String> {
    let catalog = open(dir, true).await?;
    let view = catalog
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?;
    let tables = view.tables_in(SchemaId::new(0)).len();
    let table = view
        .table_by_name(SchemaId::new(0), "target")
        .ok_or("the lake has no table main.target: build it first")?
        .id;
    let column = view
        .columns_of(table)
        .first()
        .map(|c| c.id)
        .ok_or("main.target has no column")?;
    drop(view);
    for sample in 0..warmup {
        update(&catalog, table, column, sample).await?;
    }
    let bytes = ALLOCATED_BYTES.load(Ordering::Relaxed);
    let allocations = ALLOCATIONS.load(Ordering::Relaxed);
    let per_thread = thread_ticks();
    let process = cpu_nanos(libc::CLOCK_PROCESS_CPUTIME_ID);
    let thread = cpu_nanos(libc::CLOCK_THREAD_CPUTIME_ID);
    let started = Instant::now();
    for sample in warmup..warmup + samples {
        update(&catalog, table, column, sample).await?;
    }
    let wall = started.elapsed().as_nanos() as f64;
    let per_thread_after = thread_ticks();
    let thread = (cpu_nanos(libc::CLOCK_THREAD_CPUTIME_ID) - thread) as f64;
    let process = (cpu_nanos(libc::CLOCK_PROCESS_CPUTIME_ID) - process) as f64;
    let bytes = (ALLOCATED_BYTES.load(Ordering::Relaxed) - bytes) as f64;
    let allocations = (ALLOCATIONS.load(Ordering::Relaxed) - allocations) as f64;
    let n = samples as f64;
    println!(
        "impl=rust tables={tables} commits={samples} process_cpu_us={:.1} thread_cpu_us={:.1} \
         wall_us={:.1} alloc_bytes={:.0} allocations={:.0}",
        process / n / 1e3,
        thread / n / 1e3,
        wall / n / 1e3,
        bytes / n,
        allocations / n
    );
    println!(
        "impl=rust per_thread {}",
        per_thread_split(&per_thread, &per_thread_after, samples)
    );
    catalog
        .close()
        .await
        .map_err(|e| format!("cannot close the lake: {e}"))
}

/// One measured commit: the target table's statistics and its column's.
async fn update(
    catalog: &Catalog,
    table: TableId,
    column: ColumnId,
    sample: usize,
) -> Result<(), String> {
    let count = sample as u64;
    catalog
        .commit(|tx| {
            tx.update_table_stats(table, count, 128 + count)?;
            tx.update_column_stats(
                table,
                column,
                ColumnStats {
                    contains_null: Some(false),
                    contains_nan: None,
                    min_value: Some(count.to_string()),
                    max_value: Some((count + 1_000).to_string()),
                    extra_stats: None,
                },
            )
        })
        .await
        .map(|_| ())
        .map_err(|e| format!("commit {sample} failed: {e}"))
}

/// The CPU time of `clock` in nanoseconds.
fn cpu_nanos(clock: libc::clockid_t) -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec; the two clocks asked for
    // exist on every Linux.
    let status = unsafe { libc::clock_gettime(clock, &mut now) };
    assert_eq!(status, 0, "clock_gettime failed");
    now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
}

/// Every live thread's CPU time as Linux counts it (user + system, in clock
/// ticks of 10 ms, from `/proc/self/task/<tid>/stat`), with its name; empty
/// where there is no such file.
fn thread_ticks() -> std::collections::HashMap<u64, (String, u64)> {
    let mut threads = std::collections::HashMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return threads;
    };
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue; // the thread ended between the listing and the read
        };
        // "tid (comm) state ...": comm ends at the last ')'; utime and stime
        // are the 12th and 13th fields after it.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let rest: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        let ticks = |i: usize| rest.get(i).and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
        if let Ok(tid) = task.file_name().to_string_lossy().parse::<u64>() {
            threads.insert(
                tid,
                (stat[open + 1..close].to_owned(), ticks(11) + ticks(12)),
            );
        }
    }
    threads
}

/// `thread[name]_us=` pairs per commit between two readings, names with
/// their trailing digits folded, largest first.
fn per_thread_split(
    before: &std::collections::HashMap<u64, (String, u64)>,
    after: &std::collections::HashMap<u64, (String, u64)>,
    commits: usize,
) -> String {
    let mut by_name: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
    for (tid, (name, ticks)) in after {
        let spent = ticks - before.get(tid).map_or(0, |(_, t)| *t).min(*ticks);
        if spent > 0 {
            let name = name
                .trim_end_matches(|c: char| c.is_ascii_digit())
                .replace(' ', "_");
            *by_name.entry(name).or_default() += spent;
        }
    }
    let mut pairs: Vec<(String, u64)> = by_name.into_iter().collect();
    pairs.sort_by(|a, b| b.1.cmp(&a.1));
    pairs
        .iter()
        .map(|(name, ticks)| {
            format!(
                "thread[{name}]_us={:.1}",
                *ticks as f64 * 10_000.0 / commits as f64
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}
