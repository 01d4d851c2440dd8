//! Argument checks made before anything reaches SlateDB.
//!
//! SlateDB's `WriteBatch::put`/`delete` panic on an empty key, a key longer
//! than `u16::MAX` bytes or a value longer than `u32::MAX` bytes; its range
//! constructor panics on an empty range. The Java side checks the same
//! limits first (`KvLimits`); these checks are the second line, so a bug or a
//! hand-made call still ends in `KvInvalidArgumentException`, never a panic.

use std::ops::Bound;

use slatedb::bytes::Bytes;

use crate::boundary::{Failure, Outcome};

/// Longest key SlateDB accepts.
pub(crate) const MAX_KEY_BYTES: usize = u16::MAX as usize;

/// Longest value SlateDB accepts.
pub(crate) const MAX_VALUE_BYTES: usize = u32::MAX as usize;

pub(crate) fn check_key(key: &[u8]) -> Outcome<()> {
    if key.is_empty() {
        return Err(Failure::Invalid("key must not be empty".to_owned()));
    }
    if key.len() > MAX_KEY_BYTES {
        return Err(Failure::Invalid(format!(
            "key is {} bytes; the limit is {MAX_KEY_BYTES}",
            key.len()
        )));
    }
    Ok(())
}

pub(crate) fn check_value(value: &[u8]) -> Outcome<()> {
    if value.len() > MAX_VALUE_BYTES {
        return Err(Failure::Invalid(format!(
            "value is {} bytes; the limit is {MAX_VALUE_BYTES}",
            value.len()
        )));
    }
    Ok(())
}

/// A scan range `[start, end)`; `None` is unbounded on that side.
pub(crate) struct ScanRange {
    pub(crate) start: Option<Bytes>,
    pub(crate) end: Option<Bytes>,
}

impl ScanRange {
    /// True when no key can lie in the range. SlateDB asserts a non-empty
    /// range, so an empty one is answered without asking it.
    pub(crate) fn is_empty(&self) -> bool {
        match (&self.start, &self.end) {
            (_, Some(end)) if end.is_empty() => true,
            (Some(start), Some(end)) => start >= end,
            _ => false,
        }
    }

    /// The bounds in SlateDB's form. Only call on a non-empty range.
    pub(crate) fn bounds(&self) -> (Bound<Bytes>, Bound<Bytes>) {
        let start = match &self.start {
            Some(start) => Bound::Included(start.clone()),
            None => Bound::Unbounded,
        };
        let end = match &self.end {
            Some(end) => Bound::Excluded(end.clone()),
            None => Bound::Unbounded,
        };
        (start, end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked() {
        assert!(check_key(b"").is_err());
        assert!(check_key(&vec![1u8; MAX_KEY_BYTES + 1]).is_err());
        assert!(check_key(&vec![1u8; MAX_KEY_BYTES]).is_ok());
    }

    #[test]
    fn empty_ranges_are_detected() {
        let range = |s: Option<&'static [u8]>, e: Option<&'static [u8]>| ScanRange {
            start: s.map(Bytes::from_static),
            end: e.map(Bytes::from_static),
        };
        assert!(range(Some(b"b"), Some(b"a")).is_empty());
        assert!(range(Some(b"a"), Some(b"a")).is_empty());
        assert!(range(None, Some(b"")).is_empty());
        assert!(!range(Some(b""), None).is_empty());
        assert!(!range(None, None).is_empty());
        assert!(!range(Some(b"a"), Some(b"b")).is_empty());
    }
}
