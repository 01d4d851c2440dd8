package dev.moraine.core.view;

import com.google.protobuf.Message;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * A commit as the read model sees it once its batch is in the store: the snapshot record and the
 * head it left, every {@code current} key it put or deleted with the record it left there (empty
 * for an ended entity), and the tables whose inlined rows it changed (inline writes name no {@code
 * current} key). From this and the view the commit ran against, the view at the commit's head is
 * built without reading the store ({@link #carry}).
 *
 * @param record the snapshot record the commit wrote
 * @param head the head the commit left
 * @param written by encoded {@code current} key, the entity and the record the commit left there;
 *     null when the commit wrote too many keys for a changelog, and so cannot be carried
 * @param inlineTables the tables whose inlined rows (and so, for a flush, files) the commit changed
 */
public record LandedCommit(
    SnapshotValue record,
    Head head,
    SortedMap<KeyBytes, Entry> written,
    List<Long> inlineTables,
    List<KeyBytes> scheduleKeys) {

  /** One entity the commit wrote, with the record it left (empty when the commit ended it). */
  public record Entry(EntityKey entity, Optional<Message> after) {}

  /**
   * The state of the view at this commit's head: {@code premise}'s, with this commit's records put
   * in place, exactly what a view refreshed through the commit's changelog would read back. Null
   * when it cannot be carried: the premise is not the head view the commit followed (its batch
   * sequence is not the one just below this commit's), or the commit left a record that a read at
   * its snapshot would not find live in its current key (none of the verbs does; the read path
   * would then look in history). The tables whose inlined rows the commit changed lose their files
   * and rows, to be loaded afresh.
   */
  public ViewState carry(SnapshotView premise) {
    if (written == null
        || premise.head() == null
        || premise.head().batchSeq() + 1 != head.batchSeq()) {
      return null;
    }
    long at = record.getSnapshotId();
    Map<EntityKey, Optional<Message>> records = new HashMap<>();
    for (Entry entry : written.values()) {
      if (entry.after().isPresent() && !Visibility.liveAt(entry.after().get(), at)) {
        return null;
      }
      records.put(entry.entity(), entry.after());
    }
    // The schedule records the commit wrote name no entity: passing their keys drops a view's
    // cached schedule range, to be read afresh.
    List<KeyBytes> changed = new ArrayList<>(written.keySet());
    changed.addAll(scheduleKeys);
    ViewState state = premise.state().refreshed(changed, records::get);
    return state.inlined().isEmpty() ? state : state.withoutTableFiles(inlineTables);
  }

  /** The change kinds that touch a table's inlined rows (and, for a flush, its files). */
  private static final List<ChangeKind> INLINE_CHANGES =
      List.of(ChangeKind.INLINED_INSERT, ChangeKind.INLINED_DELETE, ChangeKind.INLINE_FLUSH);

  /** The tables whose inlined rows a commit with these changes changed. */
  public static List<Long> inlineTablesOf(ChangeSet changes) {
    List<Long> tables = new ArrayList<>();
    for (ChangeKind kind : INLINE_CHANGES) {
      for (ChangeEntry entry : changes.ofKind(kind)) {
        if (entry instanceof ChangeEntry.ById byId) {
          tables.add(byId.id());
        }
      }
    }
    return tables;
  }
}
