//! SlateDB's log records on their way to slf4j.
//!
//! SlateDB logs through the `log` facade (and `tracing`, whose `log` feature
//! turns its events into `log` records while no tracing subscriber is set,
//! which is always the case here). Its records are emitted on tokio workers
//! and on Java threads alike. No worker may attach to the JVM, so records
//! are not sent to Java where they happen: [`Bridge`] formats each one,
//! masks credentials, and appends it to a bounded queue. A Java daemon thread
//! (`NativeLog`) drains the queue with one call, `logPoll`, that returns a
//! batch, and logs each record to the slf4j logger named after its target.
//!
//! The queue holds at most [`CAPACITY`] records. When it is full a new
//! record is dropped and counted rather than blocking the thread that logs
//! (a WAL flush must never wait for a logger); the count travels with the
//! next batch, and Java reports it as a warning.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

use jni::objects::JClass;
use jni::sys::{jbyteArray, jint, jlong};
use jni::JNIEnv;
use log::{Level, LevelFilter, Log, Metadata, Record};

use crate::boundary::{guard, Outcome};
use crate::secrets::redact;
use crate::views::java_bytes;

/// Records waiting for Java, at most.
const CAPACITY: usize = 4096;

/// Records handed to Java per `logPoll`, at most.
const BATCH: usize = 512;

/// A message longer than this is cut (a `Debug` dump of a manifest can be
/// huge); the cut is marked.
const LONGEST_MESSAGE: usize = 16 * 1024;

struct Entry {
    level: Level,
    target: String,
    message: String,
}

#[derive(Default)]
struct Pending {
    entries: VecDeque<Entry>,
    /// Records dropped since the last batch because the queue was full.
    dropped: u64,
}

/// The queue between the threads that log and the Java thread that drains.
/// One mutex guards both fields; `ready` is signalled after each append.
struct Bridge {
    pending: Mutex<Pending>,
    ready: Condvar,
}

impl Bridge {
    fn pending(&self) -> std::sync::MutexGuard<'_, Pending> {
        // The critical sections only push, pop and count: a panic inside one
        // cannot leave the queue inconsistent, so a poisoned lock is usable.
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn push(&self, entry: Entry) {
        let mut pending = self.pending();
        if pending.entries.len() >= CAPACITY {
            pending.dropped += 1;
            return;
        }
        pending.entries.push_back(entry);
        drop(pending);
        self.ready.notify_one();
    }

    /// Waits up to `timeout` for a record, then takes up to [`BATCH`].
    fn take(&self, timeout: Duration) -> (Vec<Entry>, u64) {
        let pending = self.pending();
        let (mut pending, _) = self
            .ready
            .wait_timeout_while(pending, timeout, |p| p.entries.is_empty() && p.dropped == 0)
            .unwrap_or_else(|p| p.into_inner());
        let count = pending.entries.len().min(BATCH);
        let entries = pending.entries.drain(..count).collect();
        (entries, std::mem::take(&mut pending.dropped))
    }
}

fn bridge() -> &'static Bridge {
    static BRIDGE: OnceLock<Bridge> = OnceLock::new();
    BRIDGE.get_or_init(|| Bridge {
        pending: Mutex::new(Pending::default()),
        ready: Condvar::new(),
    })
}

/// The `log` facade's view of the bridge.
struct Facade;

static FACADE: Facade = Facade;

impl Log for Facade {
    fn enabled(&self, metadata: &Metadata) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &Record) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let mut message = redact(&record.args().to_string()).into_owned();
        if message.len() > LONGEST_MESSAGE {
            let mut cut = LONGEST_MESSAGE;
            while !message.is_char_boundary(cut) {
                cut -= 1;
            }
            message.truncate(cut);
            message.push_str(" [cut]");
        }
        bridge().push(Entry {
            level: record.level(),
            target: record.target().to_owned(),
            message,
        });
    }

    fn flush(&self) {}
}

/// `level`: 0 off, 1 error, 2 warn, 3 info, 4 debug, 5 trace.
fn level_filter(level: jint) -> LevelFilter {
    match level {
        i32::MIN..=0 => LevelFilter::Off,
        1 => LevelFilter::Error,
        2 => LevelFilter::Warn,
        3 => LevelFilter::Info,
        4 => LevelFilter::Debug,
        _ => LevelFilter::Trace,
    }
}

fn level_code(level: Level) -> u8 {
    match level {
        Level::Error => 1,
        Level::Warn => 2,
        Level::Info => 3,
        Level::Debug => 4,
        Level::Trace => 5,
    }
}

/// A batch as Java reads it (big-endian): `dropped:u64`, then per record
/// `level:u8, targetLen:u32, target, messageLen:u32, message` (UTF-8).
fn encode(entries: &[Entry], dropped: u64) -> Vec<u8> {
    let size: usize = entries
        .iter()
        .map(|e| 9 + e.target.len() + e.message.len())
        .sum();
    let mut out = Vec::with_capacity(8 + size);
    out.extend_from_slice(&dropped.to_be_bytes());
    for entry in entries {
        out.push(level_code(entry.level));
        out.extend_from_slice(&(entry.target.len() as u32).to_be_bytes());
        out.extend_from_slice(entry.target.as_bytes());
        out.extend_from_slice(&(entry.message.len() as u32).to_be_bytes());
        out.extend_from_slice(entry.message.as_bytes());
    }
    out
}

// ---------------------------------------------------------------------------
// Log bridge exports.

/// Installs the bridge (once per process) and sets the most detailed level
/// that reaches it; records above it cost one comparison.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_logInit<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    level: jint,
) {
    guard(&mut env, (), |_env| {
        // Fails only if another logger was installed first, which nothing in
        // this library does; the level is set either way.
        let _ = log::set_logger(&FACADE);
        log::set_max_level(level_filter(level));
        Ok(())
    })
}

/// Waits up to `timeout_millis` for records; returns a batch (see
/// [`encode`]), or null if none arrived and none were dropped.
#[no_mangle]
pub extern "system" fn Java_dev_moraine_store_Native_logPoll<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    timeout_millis: jlong,
) -> jbyteArray {
    guard(
        &mut env,
        std::ptr::null_mut(),
        |env| -> Outcome<jbyteArray> {
            let timeout = Duration::from_millis(u64::try_from(timeout_millis).unwrap_or(0));
            let (entries, dropped) = bridge().take(timeout);
            if entries.is_empty() && dropped == 0 {
                return Ok(std::ptr::null_mut());
            }
            java_bytes(env, &encode(&entries, dropped))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: usize) -> Entry {
        Entry {
            level: Level::Info,
            target: "t".to_owned(),
            message: n.to_string(),
        }
    }

    #[test]
    fn a_full_queue_drops_and_counts_and_batches_are_bounded() {
        let bridge = Bridge {
            pending: Mutex::new(Pending::default()),
            ready: Condvar::new(),
        };
        for n in 0..CAPACITY + 3 {
            bridge.push(entry(n));
        }
        let (first, dropped) = bridge.take(Duration::ZERO);
        assert_eq!(first.len(), BATCH);
        assert_eq!(first[0].message, "0");
        assert_eq!(dropped, 3);
        let (second, dropped) = bridge.take(Duration::ZERO);
        assert_eq!(second.len(), BATCH);
        assert_eq!(second[0].message, BATCH.to_string());
        assert_eq!(dropped, 0);
    }

    #[test]
    fn a_batch_encodes_the_dropped_count_then_each_record() {
        let bytes = encode(&[entry(7)], 2);
        assert_eq!(&bytes[..8], &2u64.to_be_bytes());
        assert_eq!(bytes[8], 3);
        assert_eq!(&bytes[9..13], &1u32.to_be_bytes());
        assert_eq!(bytes[13], b't');
        assert_eq!(&bytes[14..18], &1u32.to_be_bytes());
        assert_eq!(bytes[18], b'7');
        assert_eq!(bytes.len(), 19);
    }
}
