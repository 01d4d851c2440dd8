//! The segment extractor every Moraine store is created with.
//!
//! Moraine keys begin with a one-byte subspace tag; the extractor makes each
//! tag its own SlateDB segment. SlateDB records the extractor's name in the
//! manifest when the store is created and refuses to open the store with a
//! different one (or none), so the name and behaviour must equal those of
//! the Rust implementation of Moraine for a store to open in both.

use slatedb::{PrefixExtractor, PrefixTarget};

/// The persisted identity of the extractor. Never change it: stores created
/// with it would no longer open.
pub(crate) const TAG_EXTRACTOR_NAME: &str = "moraine-tag-v1";

/// Fixed-length extraction of the first byte.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct TagExtractor;

impl PrefixExtractor for TagExtractor {
    fn name(&self) -> &str {
        TAG_EXTRACTOR_NAME
    }

    /// One byte for any non-empty key or prefix, nothing for an empty one.
    /// Because the length never depends on the bytes beyond the first, a
    /// point key and a scan prefix starting with the same tag land in the
    /// same segment, and no segment prefix is a proper prefix of another.
    fn prefix_len(&self, target: &PrefixTarget) -> Option<usize> {
        let (PrefixTarget::Point(bytes) | PrefixTarget::Prefix(bytes)) = target;
        if bytes.is_empty() {
            None
        } else {
            Some(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use slatedb::bytes::Bytes;

    use super::*;

    #[test]
    fn one_byte_for_non_empty_targets() {
        let e = TagExtractor;
        assert_eq!(
            e.prefix_len(&PrefixTarget::Point(Bytes::from_static(b"\x03abc"))),
            Some(1)
        );
        assert_eq!(
            e.prefix_len(&PrefixTarget::Prefix(Bytes::from_static(b"\xff"))),
            Some(1)
        );
        assert_eq!(e.prefix_len(&PrefixTarget::Point(Bytes::new())), None);
        assert_eq!(e.prefix_len(&PrefixTarget::Prefix(Bytes::new())), None);
        assert_eq!(e.name(), "moraine-tag-v1");
    }
}
