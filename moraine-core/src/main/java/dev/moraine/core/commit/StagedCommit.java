package dev.moraine.core.commit;

import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.verb.StagedEntities;
import dev.moraine.core.view.CatalogReads;
import dev.moraine.core.view.KeyBytes;
import dev.moraine.ducklake.changes.ChangeSet;
import java.util.List;
import java.util.SortedMap;

/**
 * What staging produced for one commit: the batch to submit (null when the commit writes nothing),
 * its change set (what conflict classification compares), the head the batch leaves, whether it
 * mints a snapshot, the data files its delete files target (for the delete-versus-delete rule), and
 * what the catalog's next head view can be built from once the batch has landed ({@code landing};
 * null for a commit that mints no snapshot).
 */
public record StagedCommit(
    WriteBatch batch,
    ChangeSet changes,
    HeadValue newHead,
    boolean mintsSnapshot,
    List<Long> deletedDataFileIds,
    Landing landing) {
  /** True when the commit writes nothing (an empty closure, or changes that undo themselves). */
  boolean isEmpty() {
    return batch == null;
  }

  /**
   * The state a landed snapshot-minting batch leaves, as staging wrote it: the new snapshot record
   * and, by {@code current} key, every entity whose record the batch put or deleted (the keys of
   * its changelog; null when the batch writes no changelog because it names too many keys). Reading
   * these back from the store after the batch lands gives the same records, so the next head view
   * is built from them without a read ({@link CatalogReads#installLanded}).
   */
  public record Landing(SnapshotValue record, SortedMap<KeyBytes, StagedEntities.Change> written) {}
}
