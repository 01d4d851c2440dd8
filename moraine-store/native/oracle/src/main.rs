//! `moraine-oracle`: the Rust `moraine` 0.7.0 crate driven from the command
//! line, as the reference the Java catalog is checked against.
//!
//! - `write <dir>` creates a lake in `dir` and runs a scripted workload
//!   through the crate's verb API (see `workload.rs`).
//! - `dump <dir> [--at <id>]` prints the catalog at every snapshot (or one)
//!   as the JSON of docs/dump-format.md.
//! - `check <dir> [--at <id>]` is `dump` for a lake the Java writer created:
//!   it fails if the crate refuses that lake.
//! - `append <dir>` adds commits to an existing lake (see `append.rs`) and
//!   prints the head it found and the head it left.
//! - `hold <dir>` opens a writer, prints `open`, waits for a line on
//!   standard input, tries one commit and prints `committed <id>` or
//!   `fenced`.
//! - `write-indexed <dir>` and `index-view <dir> [<value>...]` write a lake
//!   with equality indexes and print what the crate's index API says about
//!   it (see `indexed.rs`).
//! - `write-index-matrix <dir>` writes a lake with an index per case of the
//!   key encoding and prints the entries it gave the crate (see
//!   `index_matrix.rs`).
//! - `index-expect <dir> <schema> <table> <column>...` prints the entries the
//!   crate derives from a table's live inline rows for an index over those
//!   columns; `index-expect-files <dir> <data-dir> <schema> <table>
//!   <column>...` the entries it derives from the table's live data files.
//! - `create-index <dir> <data-dir|-> <schema> <table> <name> <unique|multi>
//!   <column>...` has the crate create an index over those columns of an
//!   existing lake, backfilled with the entries it derives from the table's
//!   live inlined rows and (unless `-`) its live data files.
//! - `index-write <dir> <data-dir> <schema> <table> <verb> <arg>...` has
//!   the crate commit one change to an indexed table, with the index entries
//!   its verbs demand (see `index_write.rs`).
//! - `inline-registry <dir>` prints the inlined-data tables the crate lists
//!   (see `registry.rs`).
//! - `maintain <dir>` runs the crate's maintenance sweep and prints what it
//!   reclaimed: orphaned index entries and file column statistics.
//!
//! Every failure is one line on stderr and exit status 1.

mod append;
mod dump;
mod index_matrix;
mod index_write;
mod indexed;
mod inline;
mod lake;
mod registry;
mod steps;
mod workload;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str =
    "usage: moraine-oracle write <dir> | dump <dir> [--at <id>] | check <dir> [--at <id>] | append <dir> | hold <dir> | write-indexed <dir> | write-index-matrix <dir> | index-expect <dir> <schema> <table> <column>... | index-expect-files <dir> <data-dir> <schema> <table> <column>... | create-index <dir> <data-dir|-> <schema> <table> <name> <unique|multi> <column>... | index-write <dir> <data-dir> <schema> <table> <verb> <arg>... | inline-registry <dir> | maintain <dir> | index-view <dir> [<value>...]";

fn main() -> ExitCode {
    // A panic inside the crate or a dependency is reported like any other
    // failure: one line, no backtrace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!(
            "moraine-oracle: internal error: {}",
            one_line(&info.to_string())
        );
    }));
    let args: Vec<String> = std::env::args().skip(1).collect();
    match std::panic::catch_unwind(|| run(&args)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(message)) => {
            eprintln!("moraine-oracle: {}", one_line(&message));
            ExitCode::FAILURE
        }
        // The hook has already printed the message.
        Err(_) => ExitCode::FAILURE,
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let (command, rest) = args.split_first().ok_or_else(|| USAGE.to_owned())?;
    match command.as_str() {
        "write" => {
            let [dir] = rest else {
                return Err(USAGE.to_owned());
            };
            let runtime = lake::runtime()?;
            runtime.block_on(workload::write(Path::new(dir)))
        }
        "append" | "hold" => {
            let [dir] = rest else {
                return Err(USAGE.to_owned());
            };
            let runtime = lake::runtime()?;
            if command == "append" {
                runtime.block_on(append::append(Path::new(dir)))
            } else {
                runtime.block_on(append::hold(Path::new(dir)))
            }
        }
        "dump" | "check" => {
            let (dir, at) = dump_arguments(rest)?;
            let runtime = lake::runtime()?;
            let json = runtime.block_on(dump::dump(Path::new(dir), at))?;
            print_line(&json, "dump")
        }
        "write-indexed" => {
            let [dir] = rest else {
                return Err(USAGE.to_owned());
            };
            lake::runtime()?.block_on(indexed::write(Path::new(dir)))
        }
        "write-index-matrix" => {
            let [dir] = rest else {
                return Err(USAGE.to_owned());
            };
            let json = lake::runtime()?.block_on(index_matrix::write(Path::new(dir)))?;
            print_line(&json, "matrix")
        }
        "index-expect" => {
            let [dir, schema, table, columns @ ..] = rest else {
                return Err(USAGE.to_owned());
            };
            if columns.is_empty() {
                return Err(USAGE.to_owned());
            }
            let runtime = lake::runtime()?;
            let json = runtime.block_on(index_matrix::expect(
                Path::new(dir),
                None,
                schema,
                table,
                columns,
            ))?;
            print_line(&json, "entries")
        }
        "index-expect-files" => {
            let [dir, data, schema, table, columns @ ..] = rest else {
                return Err(USAGE.to_owned());
            };
            if columns.is_empty() {
                return Err(USAGE.to_owned());
            }
            let runtime = lake::runtime()?;
            let json = runtime.block_on(index_matrix::expect(
                Path::new(dir),
                Some(Path::new(data)),
                schema,
                table,
                columns,
            ))?;
            print_line(&json, "entries")
        }
        "create-index" => {
            let [dir, data, schema, table, name, kind, columns @ ..] = rest else {
                return Err(USAGE.to_owned());
            };
            if columns.is_empty() || (kind != "unique" && kind != "multi") {
                return Err(USAGE.to_owned());
            }
            let data = (data != "-").then(|| Path::new(data));
            lake::runtime()?.block_on(index_matrix::create_index(
                Path::new(dir),
                data,
                schema,
                table,
                name,
                kind == "unique",
                columns,
            ))
        }
        "index-write" => {
            let [dir, data, schema, table, verb, args @ ..] = rest else {
                return Err(USAGE.to_owned());
            };
            let printed = lake::runtime()?.block_on(index_write::step(
                Path::new(dir),
                Path::new(data),
                schema,
                table,
                verb,
                args,
            ))?;
            print_line(&printed, "step")
        }
        "inline-registry" => {
            let [dir] = rest else {
                return Err(USAGE.to_owned());
            };
            let json = lake::runtime()?.block_on(registry::list(Path::new(dir)))?;
            print_line(&json, "registry")
        }
        "maintain" => {
            let [dir] = rest else {
                return Err(USAGE.to_owned());
            };
            let json = lake::runtime()?.block_on(index_matrix::maintain(Path::new(dir)))?;
            print_line(&json, "report")
        }
        "index-view" => {
            let (dir, values) = rest.split_first().ok_or_else(|| USAGE.to_owned())?;
            let runtime = lake::runtime()?;
            let json = runtime.block_on(indexed::view(Path::new(dir), values))?;
            print_line(&json, "view")
        }
        _ => Err(USAGE.to_owned()),
    }
}

/// `<dir> [--at <id>]`.
fn dump_arguments(rest: &[String]) -> Result<(&str, Option<u64>), String> {
    match rest {
        [dir] => Ok((dir, None)),
        [dir, flag, id] if flag == "--at" => id
            .parse::<u64>()
            .map(|id| (dir.as_str(), Some(id)))
            .map_err(|_| format!("--at needs a snapshot id (a non-negative integer), got {id:?}")),
        _ => Err(USAGE.to_owned()),
    }
}

/// Error texts from the crate or the object store can span lines; the tool
/// promises one.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Prints `json` as one line on standard output; `what` names it in the error.
fn print_line(json: &str, what: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{json}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the {what}: {e}"))
}
