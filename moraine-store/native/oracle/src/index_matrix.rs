//! `write-index-matrix <dir>`: a lake whose table `matrix.t` has a column of
//! every type the crate indexes and an index per case of its key encoding:
//! each integer width signed and unsigned at its extremes, floats with
//! infinities, both zeros and several NaN patterns, booleans, text and blobs
//! holding the escape bytes, dates and timestamps as their counts, ascending
//! and descending, NULLS FIRST and LAST, unique and not, NULLs in unique
//! indexes, and a composite key. Each index is created with its entries
//! supplied, so the crate encodes every key itself; the command prints, as
//! JSON, each index's name and the entries it was given (row id and typed
//! values; floats as their bits, text and bytes in hexadecimal), so that the
//! Java encoder can be checked against the keys the crate wrote.

use std::path::Path;

use moraine::{
    Catalog, ColumnOrder, Direction, IndexDef, IndexEntry, IndexKeyValue, IntWidth, NullOrder,
    Transaction,
};
use serde_json::{json, Value};

use crate::lake;
use crate::steps::{column, commit, not_found};

const SCHEMA: &str = "matrix";
const TABLE: &str = "t";

const COLUMNS: [(&str, &str); 15] = [
    ("i8", "int8"),
    ("i16", "int16"),
    ("i32", "int32"),
    ("i64", "int64"),
    ("u8", "uint8"),
    ("u16", "uint16"),
    ("u32", "uint32"),
    ("u64", "uint64"),
    ("f32", "float32"),
    ("f64", "float64"),
    ("b", "boolean"),
    ("s", "varchar"),
    ("bl", "blob"),
    ("d", "date"),
    ("ts", "timestamp"),
];

/// One index of the matrix: its columns with their orders, and its rows'
/// values (row ids 0, 1, ... in this order).
struct Case {
    name: &'static str,
    columns: Vec<(&'static str, Direction, NullOrder)>,
    unique: bool,
    rows: Vec<Vec<Option<IndexKeyValue>>>,
}

fn int(value: i128, width: IntWidth) -> Option<IndexKeyValue> {
    Some(IndexKeyValue::Int { value, width })
}

fn uint(value: u128, width: IntWidth) -> Option<IndexKeyValue> {
    Some(IndexKeyValue::UInt { value, width })
}

fn f32_bits(bits: u32) -> Option<IndexKeyValue> {
    Some(IndexKeyValue::F32(f32::from_bits(bits)))
}

fn f64_bits(bits: u64) -> Option<IndexKeyValue> {
    Some(IndexKeyValue::F64(f64::from_bits(bits)))
}

fn text(value: &str) -> Option<IndexKeyValue> {
    Some(IndexKeyValue::Str(value.to_owned()))
}

fn bytes(value: &[u8]) -> Option<IndexKeyValue> {
    Some(IndexKeyValue::Bytes(value.to_vec()))
}

fn one(values: Vec<Option<IndexKeyValue>>) -> Vec<Vec<Option<IndexKeyValue>>> {
    values.into_iter().map(|v| vec![v]).collect()
}

use Direction::{Ascending as Asc, Descending as Desc};
use NullOrder::{First, Last};

fn cases() -> Vec<Case> {
    let w = |name, column, direction, nulls, unique, values| Case {
        name,
        columns: vec![(column, direction, nulls)],
        unique,
        rows: one(values),
    };
    vec![
        w(
            "i8_unique",
            "i8",
            Asc,
            Last,
            true,
            vec![
                int(-128, IntWidth::I8),
                int(-1, IntWidth::I8),
                int(0, IntWidth::I8),
                int(1, IntWidth::I8),
                int(127, IntWidth::I8),
                None,
                None,
            ],
        ),
        w(
            "i16_desc",
            "i16",
            Desc,
            Last,
            false,
            vec![
                int(-32768, IntWidth::I16),
                int(0, IntWidth::I16),
                int(1, IntWidth::I16),
                int(32767, IntWidth::I16),
                None,
            ],
        ),
        w(
            "i32_nulls_first",
            "i32",
            Asc,
            First,
            true,
            vec![
                int(i128::from(i32::MIN), IntWidth::I32),
                int(-1, IntWidth::I32),
                int(0, IntWidth::I32),
                int(256, IntWidth::I32),
                int(i128::from(i32::MAX), IntWidth::I32),
                None,
            ],
        ),
        w(
            "i64_desc_nulls_first",
            "i64",
            Desc,
            First,
            false,
            vec![
                int(i128::from(i64::MIN), IntWidth::I64),
                int(-1, IntWidth::I64),
                int(0, IntWidth::I64),
                int(1, IntWidth::I64),
                int(i128::from(i64::MAX), IntWidth::I64),
                None,
            ],
        ),
        w(
            "u8",
            "u8",
            Asc,
            Last,
            false,
            vec![
                uint(0, IntWidth::I8),
                uint(1, IntWidth::I8),
                uint(2, IntWidth::I8),
                uint(254, IntWidth::I8),
                uint(255, IntWidth::I8),
            ],
        ),
        w(
            "u16_unique",
            "u16",
            Asc,
            Last,
            true,
            vec![
                uint(0, IntWidth::I16),
                uint(1, IntWidth::I16),
                uint(65535, IntWidth::I16),
            ],
        ),
        w(
            "u32_desc",
            "u32",
            Desc,
            Last,
            false,
            vec![
                uint(0, IntWidth::I32),
                uint(1, IntWidth::I32),
                uint(u128::from(u32::MAX), IntWidth::I32),
            ],
        ),
        w(
            "u64_unique",
            "u64",
            Asc,
            Last,
            true,
            vec![
                uint(0, IntWidth::I64),
                uint(1, IntWidth::I64),
                uint(u128::from(u64::MAX), IntWidth::I64),
            ],
        ),
        w(
            "f32",
            "f32",
            Asc,
            Last,
            false,
            vec![
                f32_bits(0xff80_0000),
                f32_bits(0xbfc0_0000),
                f32_bits(0x8000_0000),
                f32_bits(0x0000_0000),
                f32_bits(0x0000_0001),
                f32_bits(0x3fc0_0000),
                f32_bits(0x7f80_0000),
                f32_bits(0x7fc0_0000),
                f32_bits(0xffc0_0001),
                None,
            ],
        ),
        w(
            "f64_desc",
            "f64",
            Desc,
            Last,
            false,
            vec![
                f64_bits(0xfff0_0000_0000_0000),
                f64_bits(0x8000_0000_0000_0000),
                f64_bits(0x0000_0000_0000_0000),
                f64_bits(0x4004_0000_0000_0000),
                f64_bits(0x7ff0_0000_0000_0000),
                f64_bits(0x7ff8_0000_0000_0001),
                f64_bits(0xfff0_0000_0000_0001),
            ],
        ),
        w(
            "b_unique",
            "b",
            Asc,
            Last,
            true,
            vec![
                Some(IndexKeyValue::Bool(false)),
                Some(IndexKeyValue::Bool(true)),
                None,
            ],
        ),
        w(
            "s_unique",
            "s",
            Asc,
            Last,
            true,
            vec![
                text(""),
                text("a"),
                text("a\0"),
                text("a\u{1}z"),
                text("\u{e9}"),
                text("\u{10ffff}"),
                None,
            ],
        ),
        w(
            "s_desc_nulls_first",
            "s",
            Desc,
            First,
            false,
            vec![
                text(""),
                text("\0"),
                text("\u{1}"),
                text("ab"),
                text("abc"),
                None,
            ],
        ),
        w(
            "bl_unique",
            "bl",
            Asc,
            Last,
            true,
            vec![
                bytes(&[]),
                bytes(&[0]),
                bytes(&[1]),
                bytes(&[0, 1, 0xfe, 0xff]),
                bytes(&[0xff]),
            ],
        ),
        w(
            "d_desc",
            "d",
            Desc,
            Last,
            false,
            vec![
                int(-719_528, IntWidth::I32),
                int(0, IntWidth::I32),
                int(19_000, IntWidth::I32),
            ],
        ),
        w(
            "ts",
            "ts",
            Asc,
            Last,
            false,
            vec![
                int(-1, IntWidth::I64),
                int(0, IntWidth::I64),
                int(1_700_000_000_000_000, IntWidth::I64),
            ],
        ),
        Case {
            name: "composite_unique",
            columns: vec![("s", Desc, First), ("i64", Asc, Last), ("b", Asc, First)],
            unique: true,
            rows: vec![
                vec![
                    text("x"),
                    int(1, IntWidth::I64),
                    Some(IndexKeyValue::Bool(true)),
                ],
                vec![
                    text("x"),
                    int(2, IntWidth::I64),
                    Some(IndexKeyValue::Bool(false)),
                ],
                vec![None, int(3, IntWidth::I64), Some(IndexKeyValue::Bool(true))],
                vec![text(""), int(i128::from(i64::MIN), IntWidth::I64), None],
            ],
        },
    ]
}

/// Writes the matrix lake into a new `dir` and prints its JSON.
pub async fn write(dir: &Path) -> Result<String, String> {
    let catalog = lake::open_writer(dir).await?;
    let outcome = run(&catalog).await;
    let closed = catalog.close().await;
    let document = outcome?;
    closed.map_err(|e| format!("cannot close the lake: {e}"))?;
    serde_json::to_string(&document).map_err(|e| format!("cannot serialise the matrix: {e}"))
}

async fn run(catalog: &Catalog) -> Result<Value, String> {
    commit(catalog, "create the schema and the table", |tx| {
        let schema = tx.create_schema(SCHEMA)?;
        let columns: Vec<_> = COLUMNS.iter().map(|(n, t)| column(n, t)).collect();
        tx.create_table(schema, TABLE, &columns).map(drop)
    })
    .await?;
    let cases = cases();
    for case in &cases {
        commit(catalog, "create an index with its entries", |tx| {
            create(tx, case)
        })
        .await?;
    }
    let shown: Vec<Value> = cases
        .iter()
        .map(|case| {
            let rows: Vec<Value> = (0u64..)
                .zip(&case.rows)
                .map(|(row_id, values)| {
                    json!({"row_id": row_id, "values": values.iter().map(value_json).collect::<Vec<_>>()})
                })
                .collect();
            json!({"name": case.name, "unique": case.unique, "entries": rows})
        })
        .collect();
    Ok(json!({"schema": SCHEMA, "table": TABLE, "indexes": shown}))
}

fn create(tx: &mut Transaction, case: &Case) -> moraine::Result<()> {
    let schema = tx
        .schema_by_name(SCHEMA)
        .map(|s| s.id)
        .ok_or_else(|| not_found("schema matrix"))?;
    let table = tx
        .table_by_name(schema, TABLE)
        .map(|t| t.id)
        .ok_or_else(|| not_found("table matrix.t"))?;
    let mut ids = Vec::new();
    for (name, _, _) in &case.columns {
        let id = tx
            .columns_of(table)
            .into_iter()
            .find(|c| c.name == *name)
            .map(|c| c.id)
            .ok_or_else(|| not_found(&format!("column {name}")))?;
        ids.push(id);
    }
    let def = IndexDef {
        name: case.name.to_owned(),
        columns: ids,
        unique: case.unique,
    };
    let orders: Vec<ColumnOrder> = case
        .columns
        .iter()
        .map(|(_, direction, nulls)| ColumnOrder {
            direction: *direction,
            nulls: *nulls,
        })
        .collect();
    let entries: Vec<IndexEntry> = (0u64..)
        .zip(&case.rows)
        .map(|(row_id, values)| IndexEntry {
            row_id,
            values: values.clone(),
        })
        .collect();
    tx.create_index_ordered(table, &def, &orders, &entries)
        .map(drop)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An entry value as this tool prints it: null, or its kind and value.
pub fn value_json(value: &Option<IndexKeyValue>) -> Value {
    match value {
        None => Value::Null,
        Some(IndexKeyValue::Int { value, width }) => {
            json!({"int": value.to_string(), "width": width_bytes(*width)})
        }
        Some(IndexKeyValue::UInt { value, width }) => {
            json!({"uint": value.to_string(), "width": width_bytes(*width)})
        }
        Some(IndexKeyValue::F32(v)) => json!({"f32_bits": format!("{:08x}", v.to_bits())}),
        Some(IndexKeyValue::F64(v)) => json!({"f64_bits": format!("{:016x}", v.to_bits())}),
        Some(IndexKeyValue::Bool(v)) => json!({"bool": v}),
        Some(IndexKeyValue::Str(v)) => json!({"text_hex": hex(v.as_bytes())}),
        Some(IndexKeyValue::Bytes(v)) => json!({"bytes_hex": hex(v)}),
    }
}

fn width_bytes(width: IntWidth) -> u32 {
    match width {
        IntWidth::I8 => 1,
        IntWidth::I16 => 2,
        IntWidth::I32 => 4,
        IntWidth::I64 => 8,
        _ => 16,
    }
}

/// `index-expect <dir> <schema> <table> <column>...`: the entries the crate
/// derives from the table's live inline rows for an index over `columns`, in
/// its order, as JSON (row id and values, printed as `write-index-matrix`
/// prints them). With `data_dir` (`index-expect-files`), the entries it
/// derives from the table's live data files under that directory instead.
pub async fn expect(
    dir: &Path,
    data_dir: Option<&Path>,
    schema: &str,
    table: &str,
    columns: &[String],
) -> Result<String, String> {
    let catalog = lake::open_reader(dir).await?;
    let outcome = expected_entries(&catalog, data_dir, schema, table, columns).await;
    let closed = catalog.close().await;
    let document = outcome?;
    closed.map_err(|e| format!("cannot close the lake: {e}"))?;
    serde_json::to_string(&document).map_err(|e| format!("cannot serialise the entries: {e}"))
}

async fn expected_entries(
    catalog: &moraine::ReadOnlyCatalog,
    data_dir: Option<&Path>,
    schema: &str,
    table: &str,
    columns: &[String],
) -> Result<Value, String> {
    let (table_id, ids) = resolve(catalog, schema, table, columns).await?;
    let entries = match data_dir {
        None => inline_entries(catalog, table_id, &ids).await?,
        Some(data) => file_entries(catalog, data, table_id, &ids).await?,
    };
    let shown: Vec<Value> = entries
        .iter()
        .map(|e| json!({"row_id": e.row_id, "values": e.values.iter().map(value_json).collect::<Vec<_>>()}))
        .collect();
    Ok(Value::Array(shown))
}

/// The entries the crate derives for an index over `ids` from the table's
/// live inlined rows.
async fn inline_entries(
    catalog: &moraine::ReadOnlyCatalog,
    table_id: moraine::TableId,
    ids: &[moraine::ColumnId],
) -> Result<Vec<moraine::IndexEntry>, String> {
    catalog
        .inline_backfill_entries(table_id, ids)
        .await
        .map_err(|e| format!("cannot derive the inline entries: {e}"))
}

/// The entries the crate derives for an index over `ids` from the table's
/// live data files, read under `data`.
async fn file_entries(
    catalog: &moraine::ReadOnlyCatalog,
    data: &Path,
    table_id: moraine::TableId,
    ids: &[moraine::ColumnId],
) -> Result<Vec<moraine::IndexEntry>, String> {
    let files = object_store::local::LocalFileSystem::new_with_prefix(data)
        .map_err(|e| format!("cannot open {}: {e}", data.display()))?;
    let store = moraine::DataStore::new(std::sync::Arc::new(files));
    catalog
        .scoped_backfill_entries(store, "", table_id, ids)
        .await
        .map_err(|e| format!("cannot derive the file entries: {e}"))
}

/// `create-index`: the crate creates an index over `columns` of
/// `schema.table`, backfilled with the entries it derives from the live
/// inlined rows and, with `data_dir`, the live data files read under it.
pub async fn create_index(
    dir: &Path,
    data_dir: Option<&Path>,
    schema: &str,
    table: &str,
    name: &str,
    unique: bool,
    columns: &[String],
) -> Result<(), String> {
    let reader = lake::open_reader(dir).await?;
    let derived = backfill(&reader, data_dir, schema, table, columns).await;
    let closed = reader.close().await;
    let (table_id, ids, entries) = derived?;
    closed.map_err(|e| format!("cannot close the lake: {e}"))?;
    let catalog = lake::open_writer(dir).await?;
    let def = moraine::IndexDef {
        name: name.to_owned(),
        columns: ids,
        unique,
    };
    let outcome = commit(&catalog, "create the index", |tx| {
        tx.create_index(table_id, &def, &entries).map(drop)
    })
    .await;
    let closed = catalog.close().await;
    outcome?;
    closed.map_err(|e| format!("cannot close the lake: {e}"))
}

/// The table, the column ids and the backfill of `create-index`.
async fn backfill(
    catalog: &moraine::ReadOnlyCatalog,
    data_dir: Option<&Path>,
    schema: &str,
    table: &str,
    columns: &[String],
) -> Result<
    (
        moraine::TableId,
        Vec<moraine::ColumnId>,
        Vec<moraine::IndexEntry>,
    ),
    String,
> {
    let (table_id, ids) = resolve(catalog, schema, table, columns).await?;
    let mut entries = inline_entries(catalog, table_id, &ids).await?;
    if let Some(data) = data_dir {
        entries.extend(file_entries(catalog, data, table_id, &ids).await?);
    }
    Ok((table_id, ids, entries))
}

/// The id of `schema.table` and of its top-level `columns`, at the head.
pub async fn resolve(
    catalog: &moraine::ReadOnlyCatalog,
    schema: &str,
    table: &str,
    columns: &[String],
) -> Result<(moraine::TableId, Vec<moraine::ColumnId>), String> {
    let head = catalog
        .snapshot()
        .await
        .map_err(|e| format!("cannot read the head: {e}"))?;
    let schema_id = head
        .schema_by_name(schema)
        .map(|s| s.id)
        .ok_or_else(|| format!("no schema {schema}"))?;
    let table_id = head
        .table_by_name(schema_id, table)
        .map(|t| t.id)
        .ok_or_else(|| format!("no table {schema}.{table}"))?;
    let mut ids = Vec::new();
    for name in columns {
        let id = head
            .columns_of(table_id)
            .into_iter()
            .find(|c| c.parent_column.is_none() && c.name == *name)
            .map(|c| c.id)
            .ok_or_else(|| format!("no column {name}"))?;
        ids.push(id);
    }
    Ok((table_id, ids))
}

/// `maintain`: the crate's maintenance sweep over the lake (orphaned index
/// entries and file column statistics, the default request), printing what
/// it reclaimed.
pub async fn maintain(dir: &Path) -> Result<String, String> {
    let catalog = lake::open_writer(dir).await?;
    let outcome = catalog
        .maintain(moraine::MaintenanceRequest::default())
        .await
        .map_err(|e| format!("the maintenance sweep failed: {e}"));
    let closed = catalog.close().await;
    let report = outcome?;
    closed.map_err(|e| format!("cannot close the lake: {e}"))?;
    let document = json!({
        "indexes_swept": report.indexes_swept,
        "index_entries_reclaimed": report.index_entries_reclaimed,
        "file_column_stats_reclaimed": report.file_column_stats_reclaimed,
    });
    serde_json::to_string(&document).map_err(|e| format!("cannot serialise the report: {e}"))
}
