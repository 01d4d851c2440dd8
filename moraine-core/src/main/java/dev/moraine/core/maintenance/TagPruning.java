package dev.moraine.core.maintenance;

import dev.moraine.core.keyspace.proto.TagEntry;
import dev.moraine.core.keyspace.proto.TagValue;

/**
 * The tag entries an expiry removes. One record holds every tag of an object, live and ended (RFC
 * 0002 §5.2), so an entry no retained snapshot sees is removed by rewriting the record.
 */
final class TagPruning {
  private TagPruning() {}

  /** {@code tags} without its entries no retained snapshot sees (the same record if none). */
  static TagValue pruned(TagValue tags, Survivors survivors) {
    TagValue.Builder kept = tags.toBuilder().clearEntries();
    for (TagEntry e : tags.getEntriesList()) {
      if (!e.hasEndSnapshot()
          || !survivors.endedAndUnseen(e.getBeginSnapshot(), e.getEndSnapshot())) {
        kept.addEntries(e);
      }
    }
    return kept.getEntriesCount() == tags.getEntriesCount() ? tags : kept.build();
  }
}
