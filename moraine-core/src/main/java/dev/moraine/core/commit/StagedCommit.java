package dev.moraine.core.commit;

import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.view.LandedCommit;
import dev.moraine.ducklake.changes.ChangeSet;
import java.util.List;

/**
 * What staging produced for one commit: the batch to submit (null when the commit writes nothing),
 * its change set (what conflict classification compares), the head the batch leaves, whether it
 * mints a snapshot, the data files its delete files target (for the delete-versus-delete rule), and
 * what the catalog's next head view can be built from once the batch has landed ({@code landing};
 * null for a commit that writes nothing).
 */
public record StagedCommit(
    WriteBatch batch,
    ChangeSet changes,
    HeadValue newHead,
    boolean mintsSnapshot,
    List<Long> deletedDataFileIds,
    LandedCommit landing) {
  /** True when the commit writes nothing (an empty closure, or changes that undo themselves). */
  boolean isEmpty() {
    return batch == null;
  }
}
