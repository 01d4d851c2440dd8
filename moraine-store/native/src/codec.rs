//! The two byte layouts that cross the boundary in bulk, so that a batch or
//! a run of scan results costs one JNI call instead of one per entry.
//!
//! Write batch (Java to Rust), a sequence of operations:
//! `op:u8` (0 = put, 1 = delete), `key_len:u32 BE`, key bytes, and for a put
//! `value_len:u32 BE`, value bytes.
//!
//! Entries (Rust to Java), a sequence of `key_len:u32 BE`, key bytes,
//! `value_len:u32 BE`, value bytes.
//!
//! For the calls that carry many keys or batches in one crossing:
//!
//! - Keys (Java to Rust, multi-get): a sequence of `key_len:u32 BE`, key
//!   bytes.
//! - Values (Rust to Java, multi-get): one `value_len:u32 BE` per key, in key
//!   order, followed by the value bytes; `0xFFFF_FFFF` marks an absent key
//!   (no bytes follow). No real value can have that length: the whole
//!   result must fit in one Java array.
//! - Batches (Java to Rust, write of several batches): a sequence of
//!   `batch_len:u32 BE` followed by that many bytes of one batch encoding.

use slatedb::bytes::Bytes;
use slatedb::WriteBatch;

use crate::boundary::{Failure, Outcome};
use crate::validate::{check_key, check_value};

const OP_PUT: u8 = 0;
const OP_DELETE: u8 = 1;

/// One decoded operation; `value` is `None` for a delete.
pub(crate) struct Op {
    pub(crate) key: Bytes,
    pub(crate) value: Option<Bytes>,
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, len: usize) -> Outcome<&'a [u8]> {
        let end = self
            .at
            .checked_add(len)
            .filter(|end| *end <= self.bytes.len())
            .ok_or_else(|| Failure::Invalid("malformed write batch encoding".to_owned()))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u8(&mut self) -> Outcome<u8> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Outcome<usize> {
        let raw = self.take(4)?;
        Ok(u32::from_be_bytes([raw[0], raw[1], raw[2], raw[3]]) as usize)
    }

    fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// Decodes and validates an encoded batch. Nothing is built unless every
/// operation is valid, and an empty batch is refused.
pub(crate) fn decode_ops(encoded: &[u8]) -> Outcome<Vec<Op>> {
    let mut cursor = Cursor {
        bytes: encoded,
        at: 0,
    };
    let mut ops = Vec::new();
    while !cursor.done() {
        let op = cursor.u8()?;
        let key_len = cursor.u32()?;
        let key = cursor.take(key_len)?;
        check_key(key)?;
        let value = match op {
            OP_PUT => {
                let value_len = cursor.u32()?;
                let value = cursor.take(value_len)?;
                check_value(value)?;
                Some(Bytes::copy_from_slice(value))
            }
            OP_DELETE => None,
            other => {
                return Err(Failure::Invalid(format!("unknown batch operation {other}")));
            }
        };
        ops.push(Op {
            key: Bytes::copy_from_slice(key),
            value,
        });
    }
    if ops.is_empty() {
        return Err(Failure::Invalid("write batch is empty".to_owned()));
    }
    Ok(ops)
}

/// Builds a SlateDB batch from validated operations.
pub(crate) fn to_write_batch(ops: Vec<Op>) -> WriteBatch {
    let mut batch = WriteBatch::new();
    for op in ops {
        match op.value {
            Some(value) => batch.put_bytes(op.key, value),
            None => batch.delete(op.key),
        }
    }
    batch
}

/// Accumulates scan results into one buffer for Java.
pub(crate) struct EntryWriter {
    buffer: Vec<u8>,
    count: usize,
    /// The most bytes the buffer may hold: what fits in one Java array.
    limit: usize,
}

/// Largest length Java can hold in one array.
pub(crate) const MAX_JAVA_ARRAY: usize = (i32::MAX - 8) as usize;

/// What [`EntryWriter::push`] did with an entry.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Pushed {
    /// The entry is in the buffer.
    Added,
    /// The entry does not fit beside what the buffer already holds; nothing
    /// was appended. It fits in an empty buffer: start a new run with it.
    Full,
}

impl EntryWriter {
    /// A writer whose buffer holds at most `limit` bytes ([`MAX_JAVA_ARRAY`]
    /// for runs handed to Java; tests use small limits).
    pub(crate) fn with_limit(limit: usize) -> Self {
        Self {
            buffer: Vec::new(),
            count: 0,
            limit,
        }
    }

    /// Appends one entry if it fits. An entry that does not fit beside the
    /// entries already buffered is refused with [`Pushed::Full`] and left to
    /// the caller; one that could not fit even in an empty buffer is a
    /// `Data` failure.
    pub(crate) fn push(&mut self, key: &[u8], value: &[u8]) -> Outcome<Pushed> {
        // Checked arithmetic: lengths near usize::MAX cannot wrap past the
        // limit.
        let entry = 8usize
            .checked_add(key.len())
            .and_then(|n| n.checked_add(value.len()));
        let fits_alone = entry.is_some_and(|n| n <= self.limit);
        if !fits_alone {
            return Err(Failure::Data(format!(
                "an entry of {} bytes is too large for a Java array",
                key.len().saturating_add(value.len())
            )));
        }
        let entry = entry.unwrap_or(usize::MAX);
        if self.buffer.len().saturating_add(entry) > self.limit {
            return Ok(Pushed::Full);
        }
        self.buffer
            .extend_from_slice(&(key.len() as u32).to_be_bytes());
        self.buffer.extend_from_slice(key);
        self.buffer
            .extend_from_slice(&(value.len() as u32).to_be_bytes());
        self.buffer.extend_from_slice(value);
        self.count += 1;
        Ok(Pushed::Added)
    }

    pub(crate) fn len_bytes(&self) -> usize {
        self.buffer.len()
    }

    pub(crate) fn count(&self) -> usize {
        self.count
    }

    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.buffer
    }
}

// ---------------------------------------------------------------------------
// Multi-get and several batches per call.

/// The length that marks an absent key in an encoded multi-get result.
pub(crate) const ABSENT: u32 = u32::MAX;

/// Decodes and validates the keys of a multi-get. Every key is checked
/// before any is read.
pub(crate) fn decode_keys(encoded: &[u8]) -> Outcome<Vec<Bytes>> {
    let mut cursor = Cursor {
        bytes: encoded,
        at: 0,
    };
    let mut keys = Vec::new();
    while !cursor.done() {
        let key_len = cursor.u32()?;
        let key = cursor.take(key_len)?;
        check_key(key)?;
        keys.push(Bytes::copy_from_slice(key));
    }
    Ok(keys)
}

/// Encodes the values of a multi-get, in key order, refusing a result that
/// would not fit in one Java array of `limit` bytes ([`MAX_JAVA_ARRAY`] for
/// Java; tests use small limits) with a `Data` failure.
pub(crate) fn encode_values(values: &[Option<Bytes>], limit: usize) -> Outcome<Vec<u8>> {
    // Checked arithmetic: many large values cannot wrap past the limit.
    let total = values.iter().try_fold(0usize, |total, value| {
        total
            .checked_add(4)?
            .checked_add(value.as_ref().map_or(0, |v| v.len()))
    });
    let total = match total {
        Some(total) if total <= limit => total,
        _ => {
            return Err(Failure::Data(format!(
                "the values of {} keys are too large for one Java array; read fewer keys at a time",
                values.len()
            )))
        }
    };
    let mut out = Vec::with_capacity(total);
    for value in values {
        // Each length is below the limit, itself below u32::MAX, so it fits
        // and never collides with ABSENT.
        let len = value.as_ref().map_or(ABSENT, |v| v.len() as u32);
        out.extend_from_slice(&len.to_be_bytes());
    }
    for value in values.iter().flatten() {
        out.extend_from_slice(value);
    }
    Ok(out)
}

/// Decodes and validates several encoded batches. Nothing is returned
/// unless every batch is valid and non-empty, and an empty list is refused.
pub(crate) fn decode_batches(encoded: &[u8]) -> Outcome<Vec<Vec<Op>>> {
    let mut cursor = Cursor {
        bytes: encoded,
        at: 0,
    };
    let mut batches = Vec::new();
    while !cursor.done() {
        let len = cursor.u32()?;
        batches.push(decode_ops(cursor.take(len)?)?);
    }
    if batches.is_empty() {
        return Err(Failure::Invalid("the list of batches is empty".to_owned()));
    }
    Ok(batches)
}

/// Applies `batches` one after another with `write`, stopping at the first
/// failure. Returns the sequence numbers of the batches applied before it,
/// and the failure if there was one; the batches after a failure are never
/// handed to `write`.
pub(crate) fn apply_in_order<B>(
    batches: Vec<B>,
    mut write: impl FnMut(B) -> Outcome<u64>,
) -> (Vec<u64>, Option<Failure>) {
    let mut applied = Vec::with_capacity(batches.len());
    for batch in batches {
        match write(batch) {
            Ok(seqnum) => applied.push(seqnum),
            Err(failure) => return (applied, Some(failure)),
        }
    }
    (applied, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(key: &[u8], value: &[u8]) -> Vec<u8> {
        let mut out = vec![OP_PUT];
        out.extend_from_slice(&(key.len() as u32).to_be_bytes());
        out.extend_from_slice(key);
        out.extend_from_slice(&(value.len() as u32).to_be_bytes());
        out.extend_from_slice(value);
        out
    }

    #[test]
    fn decodes_puts_and_deletes() {
        let mut encoded = put(b"a", b"1");
        encoded.extend_from_slice(&[OP_DELETE, 0, 0, 0, 1, b'b']);
        let ops = decode_ops(&encoded).unwrap();
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[0].value.as_deref(), Some(&b"1"[..]));
        assert!(ops[1].value.is_none());
    }

    #[test]
    fn refuses_empty_truncated_and_bad_keys() {
        assert!(decode_ops(&[]).is_err());
        let encoded = put(b"a", b"1");
        assert!(decode_ops(&encoded[..encoded.len() - 1]).is_err());
        assert!(decode_ops(&put(b"", b"1")).is_err());
        assert!(decode_ops(&[7, 0, 0, 0, 1, b'a']).is_err());
        assert!(decode_ops(&[OP_DELETE, 0xFF, 0xFF, 0xFF, 0xFF]).is_err());
    }

    #[test]
    fn entry_writer_reports_full_before_refusing() {
        // 8 bytes of lengths per entry: "k"+"vv" is 11 bytes.
        let mut out = EntryWriter::with_limit(25);
        assert_eq!(out.push(b"k", b"vv").unwrap(), Pushed::Added);
        assert_eq!(out.push(b"k", b"vv").unwrap(), Pushed::Added);
        // 22 + 11 > 25, but 11 alone fits: full, nothing appended.
        assert_eq!(out.push(b"k", b"vv").unwrap(), Pushed::Full);
        assert_eq!(out.count(), 2);
        assert_eq!(out.len_bytes(), 22);
        // 8 + 1 + 17 = 26 cannot fit even alone.
        assert!(matches!(out.push(b"k", &[0u8; 17]), Err(Failure::Data(_))));
        assert_eq!(out.count(), 2);
        let mut empty = EntryWriter::with_limit(25);
        assert!(matches!(
            empty.push(b"k", &[0u8; 17]),
            Err(Failure::Data(_))
        ));
        assert_eq!(empty.count(), 0);
    }

    fn key(key: &[u8]) -> Vec<u8> {
        let mut out = (key.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(key);
        out
    }

    #[test]
    fn decodes_keys_and_refuses_bad_ones() {
        let mut encoded = key(b"a");
        encoded.extend(key(b"bc"));
        let keys = decode_keys(&encoded).unwrap();
        assert_eq!(
            keys,
            vec![Bytes::from_static(b"a"), Bytes::from_static(b"bc")]
        );
        assert!(decode_keys(&[]).unwrap().is_empty());
        assert!(matches!(decode_keys(&key(b"")), Err(Failure::Invalid(_))));
        assert!(matches!(
            decode_keys(&encoded[..encoded.len() - 1]),
            Err(Failure::Invalid(_))
        ));
    }

    #[test]
    fn values_are_lengths_then_bytes_with_absent_marked() {
        let values = [Some(Bytes::from_static(b"xy")), None, Some(Bytes::new())];
        let out = encode_values(&values, 100).unwrap();
        let mut expected = Vec::new();
        expected.extend_from_slice(&2u32.to_be_bytes());
        expected.extend_from_slice(&ABSENT.to_be_bytes());
        expected.extend_from_slice(&0u32.to_be_bytes());
        expected.extend_from_slice(b"xy");
        assert_eq!(out, expected);
    }

    #[test]
    fn values_too_large_for_one_array_are_a_data_failure() {
        // 3 lengths (12 bytes) + 10 bytes of values = 22.
        let values = [Some(Bytes::from(vec![0u8; 10])), None, None];
        assert_eq!(encode_values(&values, 22).unwrap().len(), 22);
        assert!(matches!(encode_values(&values, 21), Err(Failure::Data(_))));
    }

    #[test]
    fn decodes_batches_and_refuses_empty_ones() {
        let one = put(b"a", b"1");
        let mut encoded = (one.len() as u32).to_be_bytes().to_vec();
        encoded.extend_from_slice(&one);
        encoded.extend_from_slice(&(one.len() as u32).to_be_bytes());
        encoded.extend_from_slice(&one);
        assert_eq!(decode_batches(&encoded).unwrap().len(), 2);
        assert!(matches!(decode_batches(&[]), Err(Failure::Invalid(_))));
        // A batch of length zero is an empty batch.
        let mut with_empty = encoded.clone();
        with_empty.extend_from_slice(&0u32.to_be_bytes());
        assert!(matches!(
            decode_batches(&with_empty),
            Err(Failure::Invalid(_))
        ));
        assert!(matches!(
            decode_batches(&encoded[..encoded.len() - 1]),
            Err(Failure::Invalid(_))
        ));
    }

    #[test]
    fn batches_apply_in_order_and_stop_at_the_first_failure() {
        let mut seen = Vec::new();
        let (applied, failure) = apply_in_order(vec![1, 2, 3, 4], |batch| {
            seen.push(batch);
            if batch == 3 {
                Err(Failure::Unavailable("failed".to_owned()))
            } else {
                Ok(batch * 10)
            }
        });
        assert_eq!(applied, vec![10, 20]);
        assert!(matches!(failure, Some(Failure::Unavailable(_))));
        // Batch 4 was never handed over.
        assert_eq!(seen, vec![1, 2, 3]);
        let (applied, failure) = apply_in_order(vec![1, 2], |b| Ok(b));
        assert_eq!(applied, vec![1, 2]);
        assert!(failure.is_none());
    }
}
