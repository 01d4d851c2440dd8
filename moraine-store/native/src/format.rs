//! How SSTs are laid out: fixed format choices, the same as the Rust
//! `moraine` 0.7.0 crate makes (its `src/store/open.rs` and
//! `src/store/index_filter.rs`), so that a store written by either side is
//! read by the other with the filters it expects.
//!
//! - 4 KiB data blocks (SlateDB's `SstBlockSize::Block4Kib`).
//! - No compression codec.
//! - A bloom filter in every SST, however few keys it holds
//!   (`min_filter_keys` 0; SlateDB's default is 1000).
//! - The whole-key `BloomFilterPolicy::new(10)`. The crate registers a
//!   second policy, a bloom filter over the equality-index value prefix
//!   named after its own extractor (`moraine-index-equality-v1`); we do not
//!   (RFC 0002 §16, RFC 0001 §"SST format"). SlateDB drops a filter whose
//!   policy a reader does not know when it decodes the filter block, so
//!   both sides still read every SST; only the lookups that filter could
//!   have skipped read the data blocks instead.
//!
//! The in-process compactor builds its SSTs from the writer's format, so
//! these settings also hold for every SST a compaction writes.

use std::sync::Arc;

use slatedb::config::{Settings, SstBlockSize};
use slatedb::{BloomFilterPolicy, FilterPolicy};

/// The block size of every SST this binding writes.
pub(crate) const SST_BLOCK_SIZE: SstBlockSize = SstBlockSize::Block4Kib;

/// Every SST carries its filter, from the first key.
pub(crate) const MIN_FILTER_KEYS: u32 = 0;

/// Bits per key of the whole-key bloom filter (the crate's figure).
const BLOOM_BITS_PER_KEY: u32 = 10;

/// The filter policies of writers, readers and the compactor. Readers need
/// them too: a filter block is decoded only by a policy of the same name.
pub(crate) fn filter_policies() -> Vec<Arc<dyn FilterPolicy>> {
    vec![Arc::new(BloomFilterPolicy::new(BLOOM_BITS_PER_KEY))]
}

/// `settings` with the SST format fields set.
pub(crate) fn with_sst_format(settings: Settings) -> Settings {
    Settings {
        min_filter_keys: MIN_FILTER_KEYS,
        compression_codec: None,
        ..settings
    }
}

#[cfg(test)]
mod tests {
    use slatedb::config::{FlushOptions, FlushType};
    use slatedb::object_store::memory::InMemory;
    use slatedb::object_store::ObjectStore;
    use slatedb::{Db, SstReader};

    use super::*;
    use crate::extractor::TagExtractor;

    fn run<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a test runtime")
            .block_on(future)
    }

    /// Writes `count` keys of subspace `04` with 100-byte values through a
    /// writer configured as the binding's, flushes the memtable to L0 and
    /// returns the L0 SSTs that hold them.
    async fn flushed_ssts(count: usize) -> Vec<slatedb::SstFile> {
        let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
        let db = Db::builder("db", store.clone())
            .with_settings(with_sst_format(Settings::default()))
            .with_sst_block_size(SST_BLOCK_SIZE)
            .with_filter_policies(filter_policies())
            .with_segment_extractor(Arc::new(TagExtractor))
            .build()
            .await
            .expect("the store opens");
        for i in 0..count {
            let key = format!("\u{4}key-{i:06}");
            db.put(key.as_bytes(), [b'v'; 100]).await.expect("a put");
        }
        db.flush_with_options(FlushOptions {
            flush_type: FlushType::MemTable,
        })
        .await
        .expect("the memtable flushes");
        let manifest = db.manifest();
        let reader = SstReader::new("db", store, None, None);
        let ssts = manifest
            .segments()
            .iter()
            .flat_map(|segment| segment.l0().iter())
            .chain(manifest.l0().iter())
            .map(|view| {
                reader
                    .open_with_handle(view.sst.clone())
                    .expect("an L0 SST opens")
            })
            .collect();
        db.close().await.expect("the store closes");
        ssts
    }

    #[test]
    fn an_sst_of_three_keys_carries_a_filter_and_no_codec() {
        let ssts = run(flushed_ssts(3));
        assert_eq!(ssts.len(), 1, "one L0 SST");
        let info = ssts[0].info();
        // SlateDB's default min_filter_keys (1000) would leave this 0.
        assert!(info.filter_len > 0, "the SST has a filter block");
        assert!(info.compression_codec.is_none());
    }

    #[test]
    fn data_blocks_are_four_kib() {
        let ssts = run(flushed_ssts(2_000));
        assert!(!ssts.is_empty());
        for sst in ssts {
            let index = run(sst.index()).expect("the index reads");
            let offsets: Vec<u64> = index.iter().map(|(offset, _)| offset).collect();
            assert!(offsets.len() > 10, "{} blocks", offsets.len());
            // Every block but the last spans the gap to the next offset: a
            // 4 KiB block closes once it would pass 4096 bytes, so each one
            // holds more than 2 KiB and at most 4 KiB plus its block
            // trailer. 1 KiB or 16 KiB blocks fail one bound or the other.
            for pair in offsets.windows(2) {
                let span = pair[1] - pair[0];
                assert!(
                    (2_048..=4_096 + 128).contains(&span),
                    "block of {span} bytes"
                );
            }
        }
    }

    #[test]
    fn the_policy_is_the_crates_whole_key_bloom_filter() {
        let names: Vec<String> = filter_policies()
            .iter()
            .map(|p| p.name().to_owned())
            .collect();
        assert_eq!(
            names,
            vec![BloomFilterPolicy::new(10).name().to_owned()],
            "one policy, named as the crate's first"
        );
        assert_eq!(SST_BLOCK_SIZE.as_bytes(), 4_096);
    }
}
