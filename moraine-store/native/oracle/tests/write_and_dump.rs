//! The tool end to end, on local directories: two runs of the workload dump
//! the same catalog once wall-clock times are set aside, and bad input gets
//! one line and exit status 1.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::Value;

const TOOL: &str = env!("CARGO_BIN_EXE_moraine-oracle");

/// A fresh path under the system temporary directory, removed on drop.
struct TempPath(PathBuf);

impl TempPath {
    fn new(label: &str) -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "moraine-oracle-{label}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        TempPath(path)
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tool(args: &[&str]) -> Output {
    Command::new(TOOL)
        .args(args)
        .output()
        .expect("the tool runs")
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temp path")
}

fn write(dir: &Path) {
    let out = tool(&["write", arg(dir)]);
    assert!(
        out.status.success(),
        "write failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn dump_text(args: &[&str]) -> String {
    let out = tool(args);
    assert!(
        out.status.success(),
        "dump failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The document with every wall-clock value set to 0: the only fields the
/// crate fills from the clock (its random uuids are not in the dump).
fn without_times(mut value: Value) -> Value {
    fn walk(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, field) in map.iter_mut() {
                    if key == "snapshot_time_micros" || key == "schedule_start_micros" {
                        *field = Value::from(0);
                    } else {
                        walk(field);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut value);
    value
}

fn one_line_failure(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(1), "exit status");
    assert!(out.stdout.is_empty(), "nothing on stdout");
    let err = String::from_utf8(out.stderr.clone()).expect("UTF-8 stderr");
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(err.starts_with("moraine-oracle: "), "{err:?}");
    err
}

#[test]
fn two_runs_of_the_workload_dump_the_same_catalog() {
    let first = TempPath::new("first");
    let second = TempPath::new("second");
    write(&first.0);
    write(&second.0);

    let text = dump_text(&["dump", arg(&first.0)]);
    // Compact, keys sorted: the document opens with these two keys.
    assert!(
        text.starts_with("{\"format\":\"moraine-dump-v1\",\"head\":"),
        "{}",
        &text[..80.min(text.len())]
    );
    assert!(text.ends_with("}\n") && !text.contains("\n{"));
    let one: Value = serde_json::from_str(&text).expect("JSON");
    let two: Value = serde_json::from_str(&dump_text(&["dump", arg(&second.0)])).expect("JSON");

    let head = one["head"].as_u64().expect("a head");
    assert!(head >= 30, "head {head}");
    let snapshots = one["snapshots"].as_array().expect("snapshots");
    assert_eq!(snapshots.len() as u64, head + 1);
    for (id, snapshot) in snapshots.iter().enumerate() {
        assert_eq!(snapshot["record"]["snapshot_id"].as_u64(), Some(id as u64));
    }
    assert_ne!(one, two, "the runs differ in their times");
    assert_eq!(without_times(one), without_times(two));
}

#[test]
fn the_dump_shows_what_the_workload_did() {
    let lake = TempPath::new("content");
    write(&lake.0);
    let dump: Value = serde_json::from_str(&dump_text(&["dump", arg(&lake.0)])).expect("JSON");
    let snapshots = dump["snapshots"].as_array().expect("snapshots");

    // changes_made names sort by UTF-8 bytes: U+FF21 before U+1F600.
    let changes: Vec<&str> = snapshots
        .iter()
        .map(|s| s["record"]["changes_made"].as_str().expect("a string"))
        .collect();
    let wide = changes
        .iter()
        .find(|c| c.contains("Ａ_wide"))
        .expect("the non-ASCII commit");
    assert!(wide.find("Ａ_wide") < wide.find("😀_grin"), "{wide}");

    // An inlined row is live from its insert to its delete, and no longer.
    let row_5_at = |snapshot: &Value| {
        snapshot["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .filter(|t| t["name"] == "events")
            .flat_map(|t| t["inlined_rows"].as_array().expect("rows").clone())
            .any(|r| r["row_id"] == 5 && r["values"] == serde_json::json!([6, "late", true]))
    };
    let live: Vec<usize> = snapshots
        .iter()
        .enumerate()
        .filter(|(_, s)| row_5_at(s))
        .map(|(id, _)| id)
        .collect();
    assert_eq!(
        live.len(),
        1,
        "row 5 is live at exactly one snapshot: {live:?}"
    );

    // Options are unversioned and listed once.
    let options = dump["options"].as_array().expect("options");
    assert!(options
        .iter()
        .any(|o| o["key"] == "retention" && o["scope"].is_null() && o["value"] == "7 days"));
    assert!(!options.iter().any(|o| o["key"] == "compression"));
}

#[test]
fn dump_at_one_id_equals_that_element_of_the_full_dump() {
    let lake = TempPath::new("at");
    write(&lake.0);
    let full: Value = serde_json::from_str(&dump_text(&["dump", arg(&lake.0)])).expect("JSON");
    let one: Value =
        serde_json::from_str(&dump_text(&["dump", arg(&lake.0), "--at", "12"])).expect("JSON");
    assert_eq!(one["snapshots"].as_array().map(Vec::len), Some(1));
    assert_eq!(one["snapshots"][0], full["snapshots"][12]);
    assert_eq!(one["head"], full["head"]);

    let beyond = format!("{}", full["head"].as_u64().expect("a head") + 1);
    let err = one_line_failure(&tool(&["dump", arg(&lake.0), "--at", &beyond]));
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn bad_paths_get_one_line_and_create_nothing() {
    let missing = TempPath::new("missing");
    let err = one_line_failure(&tool(&["dump", arg(&missing.0)]));
    assert!(err.contains("not a directory"), "{err}");
    assert!(!missing.0.exists(), "dump created the directory");
    one_line_failure(&tool(&["check", arg(&missing.0)]));
    assert!(!missing.0.exists(), "check created the directory");

    let empty = TempPath::new("empty");
    std::fs::create_dir_all(&empty.0).expect("a directory");
    let err = one_line_failure(&tool(&["check", arg(&empty.0)]));
    assert!(err.contains("not a lake"), "{err}");
    assert_eq!(
        std::fs::read_dir(&empty.0).expect("readable").count(),
        0,
        "check wrote into a directory that is not a lake"
    );

    one_line_failure(&tool(&["dump"]));
    one_line_failure(&tool(&["frobnicate", arg(&empty.0)]));
    one_line_failure(&tool(&["dump", arg(&empty.0), "--at", "minus-one"]));
}

#[test]
fn write_refuses_a_lake_that_has_commits() {
    let lake = TempPath::new("twice");
    write(&lake.0);
    let err = one_line_failure(&tool(&["write", arg(&lake.0)]));
    assert!(err.contains("already holds a lake"), "{err}");
}

#[test]
fn append_continues_a_lake_and_refuses_what_is_not_one() {
    let lake = TempPath::new("append");
    write(&lake.0);
    let before: Value = serde_json::from_str(&dump_text(&["dump", arg(&lake.0)])).expect("JSON");
    let head = before["head"].as_u64().expect("a head");

    let out = tool(&["append", arg(&lake.0)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // No main.shared table in the workload's lake: three commits.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("{head} {}", head + 3)
    );
    let after: Value = serde_json::from_str(&dump_text(&["dump", arg(&lake.0)])).expect("JSON");
    let snapshots = after["snapshots"].as_array().expect("snapshots");
    let mut previous_file_id = 0;
    for (id, snapshot) in snapshots.iter().enumerate() {
        assert_eq!(snapshot["record"]["snapshot_id"], id as u64);
        let next_file_id = snapshot["record"]["next_file_id"]
            .as_u64()
            .expect("a counter");
        assert!(
            next_file_id >= previous_file_id,
            "next_file_id went back at {id}"
        );
        previous_file_id = next_file_id;
    }
    // Everything before the append is as it was.
    for id in 0..=head as usize {
        assert_eq!(
            without_times(snapshots[id].clone()),
            without_times(before["snapshots"][id].clone())
        );
    }

    let missing = TempPath::new("append-missing");
    let err = one_line_failure(&tool(&["append", arg(&missing.0)]));
    assert!(err.contains("not a directory"), "{err}");
    assert!(!missing.0.exists(), "append created the directory");
    let empty = TempPath::new("append-empty");
    std::fs::create_dir_all(&empty.0).expect("a directory");
    let err = one_line_failure(&tool(&["hold", arg(&empty.0)]));
    assert!(err.contains("not a lake"), "{err}");
    assert_eq!(
        std::fs::read_dir(&empty.0).expect("readable").count(),
        0,
        "hold wrote into a directory that is not a lake"
    );
}
