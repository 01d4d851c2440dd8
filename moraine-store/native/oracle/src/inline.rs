//! Inline chunks in the crate's Arrow IPC shape (RFC 0002 §9.3): the schema
//! record is a stream holding only the schema; a chunk body is a
//! little-endian `u32` message length, one RecordBatch message, then the
//! body buffers.

use std::collections::HashMap;
use std::io::Cursor;
use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, BinaryArray, BooleanArray, Date32Array, Decimal128Array, Int16Array,
    Int32Array, Int64Array, Int8Array, LargeBinaryArray, LargeStringArray, ListArray, MapArray,
    RecordBatch, StringArray, StructArray, Time32MillisecondArray, Time32SecondArray,
    Time64MicrosecondArray, Time64NanosecondArray, TimestampMicrosecondArray,
    TimestampMillisecondArray, TimestampNanosecondArray, TimestampSecondArray, UInt16Array,
    UInt32Array, UInt64Array, UInt8Array,
};
use arrow::buffer::Buffer;
use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use arrow::ipc::reader::{read_record_batch, StreamReader};
use arrow::ipc::root_as_message;
use arrow::ipc::writer::{
    DictionaryTracker, IpcDataGenerator, IpcWriteContext, IpcWriteOptions, StreamWriter,
};
use moraine::{InlineChunk, RecentRow};
use serde_json::Value;

/// One row of the workload's inline table `events (id, name, ok)`.
pub struct Event<'a> {
    pub id: i64,
    pub name: Option<&'a str>,
    pub ok: bool,
}

/// The Arrow schema of `events`: its columns in table order.
fn events_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, true),
        Field::new("name", DataType::Utf8, true),
        Field::new("ok", DataType::Boolean, true),
    ]))
}

/// `rows` as an inline chunk of `schema_version`.
pub fn events_chunk(schema_version: u64, rows: &[Event<'_>]) -> moraine::Result<InlineChunk> {
    let schema = events_schema();
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.id))),
        Arc::new(StringArray::from_iter(rows.iter().map(|r| r.name))),
        Arc::new(BooleanArray::from_iter(rows.iter().map(|r| Some(r.ok)))),
    ];
    let batch = RecordBatch::try_new(schema.clone(), columns).map_err(arrow_failure)?;

    let mut arrow_schema = Vec::new();
    StreamWriter::try_new(&mut arrow_schema, &schema)
        .and_then(|mut writer| writer.finish())
        .map_err(arrow_failure)?;

    let (_, encoded) = IpcDataGenerator::default()
        .encode(
            &batch,
            &mut DictionaryTracker::new(false),
            &IpcWriteOptions::default(),
            &mut IpcWriteContext::default(),
        )
        .map_err(arrow_failure)?;
    let message_len = u32::try_from(encoded.ipc_message.len())
        .map_err(|_| moraine::Error::Constraint("inline message too large".to_owned()))?;
    let mut arrow_body = message_len.to_le_bytes().to_vec();
    arrow_body.extend_from_slice(&encoded.ipc_message);
    arrow_body.extend_from_slice(&encoded.arrow_data);

    Ok(InlineChunk {
        schema_version,
        arrow_schema,
        arrow_body,
        row_count: rows.len() as u64,
    })
}

fn arrow_failure(error: arrow::error::ArrowError) -> moraine::Error {
    moraine::Error::Constraint(format!("cannot encode an inline chunk: {error}"))
}

/// Decodes rows' chunks once each: rows of one chunk share one body.
///
/// The cache is keyed by the address of the shared body, and keeps that body
/// alive beside its batch: once a body were freed, a later chunk could be
/// allocated at the same address and be served the earlier chunk's rows.
#[derive(Default)]
pub struct RowRenderer {
    batches: HashMap<*const Vec<u8>, (Arc<Vec<u8>>, RecordBatch)>,
}

impl RowRenderer {
    /// The values of `row` in its schema's field order (docs/dump-format.md
    /// §6.3).
    pub fn values(&mut self, table_id: u64, row: &RecentRow) -> Result<Vec<Value>, String> {
        let key = Arc::as_ptr(&row.chunk_body);
        if !self.batches.contains_key(&key) {
            let batch = decode(row).map_err(|e| {
                format!(
                    "cannot decode the inline chunk of row {} of table {table_id}: {e}",
                    row.row_id
                )
            })?;
            self.batches
                .insert(key, (Arc::clone(&row.chunk_body), batch));
        }
        let batch = &self.batches[&key].1;
        let offset = usize::try_from(row.offset_in_chunk)
            .ok()
            .filter(|offset| *offset < batch.num_rows())
            .ok_or_else(|| {
                format!(
                    "row {} of table {table_id} lies outside its chunk",
                    row.row_id
                )
            })?;
        batch
            .columns()
            .iter()
            .map(|column| {
                value(column.as_ref(), offset).ok_or_else(|| {
                    format!(
                        "row {} of table {table_id} has a {} value, which dump format v1 does not render",
                        row.row_id,
                        column.data_type()
                    )
                })
            })
            .collect()
    }
}

fn decode(row: &RecentRow) -> Result<RecordBatch, String> {
    let schema = StreamReader::try_new(Cursor::new(row.arrow_schema.as_slice()), None)
        .map_err(|e| e.to_string())?
        .schema();
    let body = row.chunk_body.as_slice();
    let length_bytes: [u8; 4] = body
        .get(..4)
        .and_then(|b| b.try_into().ok())
        .ok_or("the body is shorter than its length prefix")?;
    let end = 4 + u32::from_le_bytes(length_bytes) as usize;
    let message = root_as_message(body.get(4..end).ok_or("the body is truncated")?)
        .map_err(|e| e.to_string())?;
    let header = message
        .header_as_record_batch()
        .ok_or("the body is not a record batch")?;
    read_record_batch(
        &Buffer::from(body[end..].to_vec()),
        header,
        schema,
        &HashMap::new(),
        None,
        &message.version(),
    )
    .map_err(|e| e.to_string())
}

/// One cell as JSON, or `None` for a type the format does not render. A
/// struct is an object from member name to the member's cell, a list an
/// array of its elements, a map an array of its entries as `{key, value}`
/// objects.
fn value(column: &dyn Array, row: usize) -> Option<Value> {
    if column.is_null(row) {
        return Some(Value::Null);
    }
    let any = column.as_any();
    if let Some(array) = any.downcast_ref::<StructArray>() {
        let mut members = serde_json::Map::new();
        for (name, member) in array.column_names().into_iter().zip(array.columns()) {
            members.insert(name.to_owned(), value(member.as_ref(), row)?);
        }
        return Some(Value::Object(members));
    }
    if let Some(array) = any.downcast_ref::<MapArray>() {
        // The entries, each an object of the entry struct's key and value.
        let entries = array.value(row);
        return (0..entries.len())
            .map(|i| value(&entries, i))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array);
    }
    if let Some(array) = any.downcast_ref::<ListArray>() {
        let elements = array.value(row);
        return (0..elements.len())
            .map(|i| value(elements.as_ref(), i))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array);
    }
    macro_rules! integer {
        ($($array:ty),*) => {
            $(if let Some(array) = any.downcast_ref::<$array>() {
                return Some(Value::from(array.value(row)));
            })*
        };
    }
    integer!(
        Int8Array,
        Int16Array,
        Int32Array,
        Int64Array,
        UInt8Array,
        UInt16Array,
        UInt32Array,
        UInt64Array,
        // Dates, times and timestamps as their stored counts (dump format §6.3).
        Date32Array,
        Time32SecondArray,
        Time32MillisecondArray,
        Time64MicrosecondArray,
        Time64NanosecondArray,
        TimestampSecondArray,
        TimestampMillisecondArray,
        TimestampMicrosecondArray,
        TimestampNanosecondArray
    );
    if let Some(array) = any.downcast_ref::<Decimal128Array>() {
        return Some(Value::from(array.value_as_string(row)));
    }
    if let Some(array) = any.downcast_ref::<BinaryArray>() {
        return Some(Value::from(hex(array.value(row))));
    }
    if let Some(array) = any.downcast_ref::<LargeBinaryArray>() {
        return Some(Value::from(hex(array.value(row))));
    }
    if let Some(array) = any.downcast_ref::<BooleanArray>() {
        return Some(Value::Bool(array.value(row)));
    }
    if let Some(array) = any.downcast_ref::<StringArray>() {
        return Some(Value::from(array.value(row)));
    }
    if let Some(array) = any.downcast_ref::<LargeStringArray>() {
        return Some(Value::from(array.value(row)));
    }
    None
}

/// Bytes as lower-case hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
