//! `moraine-group-bench`: group commit under load through the Rust `moraine`
//! 0.7.0 crate. It is the Rust half of moraine-bench's `GroupCommitBench`;
//! `moraine-bench/group-commit-bench.sh` runs both on the same points and
//! prints the ratios.
//!
//! N committers, each a tokio task on one multi-thread runtime, call
//! `Catalog::commit` on one catalog as fast as they can; every commit
//! registers one small data file (10 rows, 900 bytes, a 300-byte footer)
//! into one shared table, or into a table of its own committer's with
//! `--tables separate`. The crate's coalescer groups the concurrent calls
//! into batches and its flush pacer spaces the write-ahead-log flushes by
//! `CatalogOptions::flush_interval` (the spacing; zero flushes every batch
//! that finds no flush in the air).
//!
//! Each point runs on a fresh, empty store: the committers start, run for
//! the warm-up, and the commits that return inside the measured window that
//! follows are counted and their latencies kept. Write-ahead-log PUTs are
//! counted by an object store wrapped around the real one ([`stores::Counted`]):
//! every PUT that succeeds on a path with a `wal` segment (`/wal/`, matched
//! as if the path began with `/`). The CPU figure is the whole process's
//! (every runtime worker and blocking thread), per measured commit.
//!
//! Usage: `moraine-group-bench [--stores memory,local,local-nofsync,memory-put25ms]
//! [--spacings 0,10,100] [--publish off] [--concurrency 1,2,4,...]
//! [--tables shared|separate] [--warmup 2] [--seconds 5] [--workers N]
//! [--csv FILE]`. The stores:
//!
//! - `memory`: object_store's `InMemory`;
//! - `local`: object_store's `LocalFileSystem` on a new directory under the
//!   system temp directory, `with_fsync(true)`: each object's contents and
//!   its directory entry are synced before the PUT returns;
//! - `local-nofsync`: the same with `with_fsync(false)` (the page cache
//!   only);
//! - `memory-put25ms`: `InMemory` with 25 ms slept before every PUT (of any
//!   object), as a remote object store costs.
//!
//! `--publish` takes only `off`: the crate acknowledges a commit once its
//! batch is durable in the log and publishes no checkpoint per commit, so
//! the `publications` column is always 0. `--workers` is the runtime's
//! worker count, by default the machine's cores (the JNI crate's runtime
//! under the Java catalog has as many).
//!
//! Prints one progress line per point on standard error and one CSV row per
//! point (with a header, the columns of `GroupCommitBench`) on standard
//! output or into `--csv`. A commit that fails ends its committer, as in
//! the Java harness, and is reported on standard error; any other failure
//! is one line on stderr and exit status 1.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use moraine::{Catalog, CatalogOptions, ColumnDef, DataFile, SchemaId, TableId};
use object_store::ObjectStore;

mod stores;
use stores::{BenchStore, StoreKind};

const HEADER: &str = "store,spacing_ms,publish,concurrency,tables,commits,seconds,commits_per_s,\
                      wal_puts,commits_per_put,publications,p50_ms,p99_ms,cpu_us_per_commit";

/// How long the committers may take to see the stop flag and return.
const STOP_TIMEOUT: Duration = Duration::from_secs(120);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("moraine-group-bench: {}", message.replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let options = Options::parse(args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(options.workers)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let mut out: Box<dyn Write> = match &options.csv {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        ),
        None => Box::new(std::io::stdout()),
    };
    let write_failed = |e: std::io::Error| format!("cannot write the CSV: {e}");
    writeln!(out, "{HEADER}").map_err(write_failed)?;
    eprintln!(
        "# {} nproc={} workers={} load={}",
        utc_now(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        options.workers,
        load_average()
    );
    for store in &options.stores {
        for &spacing in &options.spacings {
            for &n in &options.concurrency {
                let point = run_point(&runtime, *store, spacing, n, &options)?;
                writeln!(out, "{}", point.csv()).map_err(write_failed)?;
                out.flush().map_err(write_failed)?;
                eprintln!(
                    "{:<14} spacing {spacing:>3} ms publish off {n:>4} committers: {:>8.0} \
                     commits/s, {:>6.1} per PUT ({:.2} x concurrency), p50 {:.2} ms p99 {:.2} ms, \
                     {:.0} us CPU a commit",
                    store.name(),
                    point.commits_per_second(),
                    point.commits_per_put(),
                    point.commits_per_put() / n as f64,
                    point.p50_ms,
                    point.p99_ms,
                    point.cpu_us_per_commit
                );
            }
        }
    }
    Ok(())
}

/// One measured point.
struct Point {
    store: StoreKind,
    spacing_ms: u64,
    concurrency: usize,
    separate: bool,
    commits: u64,
    seconds: f64,
    wal_puts: u64,
    p50_ms: f64,
    p99_ms: f64,
    cpu_us_per_commit: f64,
}

impl Point {
    fn commits_per_second(&self) -> f64 {
        self.commits as f64 / self.seconds
    }

    fn commits_per_put(&self) -> f64 {
        if self.wal_puts == 0 {
            0.0
        } else {
            self.commits as f64 / self.wal_puts as f64
        }
    }

    fn csv(&self) -> String {
        format!(
            "{},{},off,{},{},{},{:.3},{:.1},{},{:.2},0,{:.3},{:.3},{:.1}",
            self.store.name(),
            self.spacing_ms,
            self.concurrency,
            if self.separate { "separate" } else { "shared" },
            self.commits,
            self.seconds,
            self.commits_per_second(),
            self.wal_puts,
            self.commits_per_put(),
            self.p50_ms,
            self.p99_ms,
            self.cpu_us_per_commit
        )
    }
}

/// What one committer hands back: the latencies of its measured commits in
/// nanoseconds, and the error that ended it, if one did.
struct Committed {
    latencies: Vec<u64>,
    failure: Option<String>,
}

fn run_point(
    runtime: &tokio::runtime::Runtime,
    kind: StoreKind,
    spacing_ms: u64,
    n: usize,
    o: &Options,
) -> Result<Point, String> {
    let bench = BenchStore::open(kind)?;
    let mut options = CatalogOptions::default();
    options.flush_interval = Duration::from_millis(spacing_ms);
    options.flush_on_commit = false;
    let store: Arc<dyn ObjectStore> = Arc::clone(&bench.store) as Arc<dyn ObjectStore>;
    let catalog = runtime
        .block_on(Catalog::open(store, options))
        .map_err(|e| format!("cannot open a lake on the {} store: {e}", kind.name()))?;
    let tables = runtime.block_on(create_tables(&catalog, if o.separate { n } else { 1 }))?;

    let stop = Arc::new(AtomicBool::new(false));
    let measuring = Arc::new(AtomicBool::new(false));
    let measured = Arc::new(AtomicU64::new(0));
    let committers: Vec<_> = (0..n)
        .map(|me| {
            let table = tables[if o.separate { me } else { 0 }];
            runtime.spawn(commit_until_stopped(
                catalog.clone(),
                table,
                me,
                Arc::clone(&stop),
                Arc::clone(&measuring),
                Arc::clone(&measured),
            ))
        })
        .collect();

    // The main thread is not a runtime worker: it only keeps the clock,
    // as the Java harness's main thread does.
    std::thread::sleep(Duration::from_secs(o.warmup_seconds));
    let puts_before = bench.store.wal_puts();
    let cpu_before = process_cpu_nanos();
    let started = Instant::now();
    measuring.store(true, Ordering::Release);
    std::thread::sleep(Duration::from_secs(o.seconds));
    measuring.store(false, Ordering::Release);
    let seconds = started.elapsed().as_secs_f64();
    let cpu_after = process_cpu_nanos();
    let puts_after = bench.store.wal_puts();
    stop.store(true, Ordering::Release);

    let results = runtime.block_on(async {
        tokio::time::timeout(STOP_TIMEOUT, futures::future::join_all(committers)).await
    });
    let results = results.map_err(|_| "the committers did not stop".to_owned())?;
    let mut latencies = Vec::new();
    let mut failed = 0;
    let mut first_failure = None;
    for result in results {
        let committed = result.map_err(|e| format!("a committer panicked: {e}"))?;
        latencies.extend(committed.latencies);
        if let Some(failure) = committed.failure {
            failed += 1;
            first_failure.get_or_insert(failure);
        }
    }
    if let Some(failure) = first_failure {
        eprintln!(
            "moraine-group-bench: {failed} of {n} committers stopped on a failed commit; \
             the first: {failure}"
        );
    }
    runtime
        .block_on(catalog.close())
        .map_err(|e| format!("cannot close the lake: {e}"))?;
    drop(bench);

    latencies.sort_unstable();
    let commits = measured.load(Ordering::Acquire);
    Ok(Point {
        store: kind,
        spacing_ms,
        concurrency: n,
        separate: o.separate,
        commits,
        seconds,
        wal_puts: puts_after - puts_before,
        p50_ms: percentile(&latencies, 0.50) / 1e6,
        p99_ms: percentile(&latencies, 0.99) / 1e6,
        cpu_us_per_commit: if commits == 0 {
            0.0
        } else {
            cpu_after.saturating_sub(cpu_before) as f64 / 1e3 / commits as f64
        },
    })
}

/// Creates `count` tables `main.t0`, `main.t1`, … of one `int64` column in
/// one commit, and returns their ids in that order.
async fn create_tables(catalog: &Catalog, count: usize) -> Result<Vec<TableId>, String> {
    let main = SchemaId::new(0);
    let column = [ColumnDef {
        name: "x".to_owned(),
        column_type: "int64".to_owned(),
        nulls_allowed: true,
        default_value: None,
        children: Vec::new(),
    }];
    catalog
        .commit(|tx| {
            for k in 0..count {
                tx.create_table(main, &format!("t{k}"), &column)?;
            }
            Ok(())
        })
        .await
        .map_err(|e| format!("cannot create the tables: {e}"))?;
    let view = catalog
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?;
    (0..count)
        .map(|k| {
            view.table_by_name(main, &format!("t{k}"))
                .map(|t| t.id)
                .ok_or_else(|| format!("table main.t{k} is missing after its creation"))
        })
        .collect()
}

/// One committer: commits one data file into `table` after another until
/// `stop`, timing the commits that return while `measuring`.
async fn commit_until_stopped(
    catalog: Catalog,
    table: TableId,
    me: usize,
    stop: Arc<AtomicBool>,
    measuring: Arc<AtomicBool>,
    measured: Arc<AtomicU64>,
) -> Committed {
    let mut latencies = Vec::with_capacity(1 << 16);
    let mut k: u64 = 0;
    while !stop.load(Ordering::Acquire) {
        let file = DataFile {
            path: format!("f-{me}-{k}.parquet"),
            path_is_relative: true,
            file_format: "parquet".to_owned(),
            record_count: 10,
            file_size_bytes: 900,
            footer_size: 300,
            encryption_key: None,
            partition_values: Vec::new(),
            column_stats: Vec::new(),
        };
        k += 1;
        let started = Instant::now();
        let outcome = catalog
            .commit(|tx| tx.register_data_file(table, file.clone(), &[]).map(|_| ()))
            .await;
        let took = started.elapsed();
        if let Err(e) = outcome {
            return Committed {
                latencies,
                failure: Some(format!("committer {me}, commit {k}: {e}")),
            };
        }
        if measuring.load(Ordering::Acquire) {
            measured.fetch_add(1, Ordering::AcqRel);
            latencies.push(u64::try_from(took.as_nanos()).unwrap_or(u64::MAX));
        }
    }
    Committed {
        latencies,
        failure: None,
    }
}

/// The `q` quantile of `sorted`, as `GroupCommitBench` takes it: the element
/// at `floor(q * len)`.
fn percentile(sorted: &[u64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let at = ((q * sorted.len() as f64).floor() as usize).min(sorted.len() - 1);
    sorted[at] as f64
}

/// The CPU time of every thread of this process, in nanoseconds.
fn process_cpu_nanos() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec, and the process CPU clock
    // exists on every Linux.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "clock_gettime failed");
    now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map_or_else(|_| "unknown".to_owned(), |s| s.trim().to_owned())
}

/// Now in UTC, as `2024-01-31T12:00:00Z`.
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60
    )
}

/// The command line.
struct Options {
    stores: Vec<StoreKind>,
    spacings: Vec<u64>,
    concurrency: Vec<usize>,
    separate: bool,
    warmup_seconds: u64,
    seconds: u64,
    workers: usize,
    csv: Option<PathBuf>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Self, String> {
        let mut o = Self {
            stores: vec![
                StoreKind::Memory,
                StoreKind::Local,
                StoreKind::LocalNoFsync,
                StoreKind::MemoryPut25ms,
            ],
            spacings: vec![0, 10, 100],
            concurrency: vec![1, 2, 4, 8, 16, 32, 64, 128, 256],
            separate: false,
            warmup_seconds: 2,
            seconds: 5,
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            csv: None,
        };
        let mut args = args.iter();
        while let Some(option) = args.next() {
            let value = args
                .next()
                .ok_or_else(|| format!("{option} needs a value"))?;
            match option.as_str() {
                "--stores" => {
                    o.stores = value
                        .split(',')
                        .map(StoreKind::parse)
                        .collect::<Result<_, _>>()?;
                }
                "--spacings" => o.spacings = list(value, option)?,
                "--publish" => {
                    if value.split(',').any(|v| v != "off") {
                        return Err(format!(
                            "--publish {value}: the crate publishes no checkpoint per commit, \
                             so only off applies"
                        ));
                    }
                }
                "--concurrency" => {
                    o.concurrency = list(value, option)?;
                    if o.concurrency.contains(&0) {
                        return Err("--concurrency values must be positive".to_owned());
                    }
                }
                "--tables" => {
                    o.separate = match value.as_str() {
                        "shared" => false,
                        "separate" => true,
                        _ => return Err(format!("--tables is shared or separate, got {value:?}")),
                    };
                }
                "--warmup" => o.warmup_seconds = number(value, option)?,
                "--seconds" => {
                    o.seconds = number(value, option)?;
                    if o.seconds == 0 {
                        return Err("--seconds must be positive".to_owned());
                    }
                }
                "--workers" => {
                    o.workers = number(value, option)?;
                    if o.workers == 0 {
                        return Err("--workers must be positive".to_owned());
                    }
                }
                "--csv" => o.csv = Some(PathBuf::from(value)),
                _ => return Err(format!("unknown option {option}")),
            }
        }
        Ok(o)
    }
}

fn number<T: std::str::FromStr>(text: &str, option: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{option} takes a non-negative integer, got {text:?}"))
}

fn list<T: std::str::FromStr>(text: &str, option: &str) -> Result<Vec<T>, String> {
    text.split(',').map(|v| number(v, option)).collect()
}
