package dev.moraine.core.view;

import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.changes.ChangesMade;
import dev.moraine.ducklake.changes.ChangesMadeParseException;
import dev.moraine.ducklake.conflict.ConflictCause;
import dev.moraine.ducklake.conflict.ConflictMatrix;
import dev.moraine.ducklake.conflict.ConflictRule;
import dev.moraine.ducklake.conflict.ConflictVerdict;
import dev.moraine.ducklake.conflict.DeleteTargets;
import dev.moraine.ducklake.conflict.ProvisionalIds;
import dev.moraine.ducklake.conflict.SchemaIdentities;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The change sets of the snapshots that landed above a premise, read from their snapshot records,
 * and their classification by DuckLake's conflict matrix against a commit made on that premise: a
 * verb commit that lost the race for the head, or staged rows authored against an older snapshot.
 */
public final class InterveningChanges {
  private final List<Long> snapshotIds;
  private final ChangeSet union;
  private final Set<Long> deletedFiles;
  private final boolean deleteTargetsKnown;
  private final String unreadable;

  private InterveningChanges(
      List<Long> snapshotIds,
      ChangeSet union,
      Set<Long> deletedFiles,
      boolean deleteTargetsKnown,
      String unreadable) {
    this.snapshotIds = snapshotIds;
    this.union = union;
    this.deletedFiles = deletedFiles;
    this.deleteTargetsKnown = deleteTargetsKnown;
    this.unreadable = unreadable;
  }

  /** Reads the records of every snapshot above {@code premiseId} up to the current head. */
  public static InterveningChanges read(KvReadView v, long premiseId) {
    return read(v, premiseId, CatalogReads.readHead(v).getSnapshotId());
  }

  /** Reads the records of every snapshot above {@code premiseId} up to {@code headId}. */
  public static InterveningChanges read(KvReadView v, long premiseId, long headId) {
    List<Long> ids = new ArrayList<>();
    List<ChangeSet> sets = new ArrayList<>();
    Set<Long> files = new TreeSet<>();
    boolean known = true;
    String unreadable = null;
    for (long id = premiseId + 1; Long.compareUnsigned(id, headId) <= 0; id++) {
      ids.add(id);
      SnapshotValue record = CatalogReads.readSnapshot(v, id);
      if (record == null) {
        unreadable = "the record of snapshot " + Long.toUnsignedString(id) + " is gone";
        continue;
      }
      ChangeSet set;
      try {
        set = ChangesMade.parse(record.getChangesMade());
      } catch (ChangesMadeParseException e) {
        unreadable =
            "snapshot " + Long.toUnsignedString(id) + " has changes this library cannot read";
        continue;
      }
      sets.add(set);
      if (set.hasKind(ChangeKind.DELETED_FROM_TABLE)) {
        if (record.getDeletedDataFileIdsCount() == 0) {
          // A delete whose files are not named (an inlined delete, or one DuckLake authored):
          // it may have touched any file of its table.
          known = false;
        }
        files.addAll(record.getDeletedDataFileIdsList());
      }
    }
    return new InterveningChanges(
        List.copyOf(ids), ChangeSet.unionOf(sets), files, known, unreadable);
  }

  /** Whether a commit that landed above the premise changed table {@code tableId} by id. */
  public boolean touches(long tableId) {
    return union.entries().stream()
        .anyMatch(e -> e instanceof ChangeEntry.ById b && b.id() == tableId);
  }

  /**
   * Whether a commit that landed above the premise changed table {@code tableId} otherwise than by
   * appending rows to it (files or inlined rows).
   */
  public boolean changesBeyondAppends(long tableId) {
    return union.entries().stream()
        .anyMatch(
            e ->
                e instanceof ChangeEntry.ById b
                    && b.id() == tableId
                    && b.kind() != dev.moraine.ducklake.changes.ChangeKind.INSERTED_INTO_TABLE
                    && b.kind() != dev.moraine.ducklake.changes.ChangeKind.INLINED_INSERT);
  }

  /** The snapshot ids that landed above the premise. */
  public List<Long> snapshotIds() {
    return snapshotIds;
  }

  /**
   * Null when a commit of {@code changes}, deleting from {@code deletedDataFileIds}, made on {@code
   * premise} (whose next catalog id is {@code nextCatalogId}) may follow these changes; otherwise
   * why not, in a sentence containing "conflict".
   */
  public String conflictWith(
      ChangeSet changes, List<Long> deletedDataFileIds, SnapshotView premise, long nextCatalogId) {
    if (unreadable != null) {
      return "conflict: " + unreadable + ", so this commit cannot be judged compatible with it";
    }
    Map<Long, String> schemaNames = new HashMap<>();
    for (SchemaInfo s : premise.schemas()) {
      schemaNames.put(s.schemaId(), s.name());
    }
    DeleteTargets targets =
        deleteTargetsKnown
            ? DeleteTargets.of(deletedDataFileIds, deletedFiles)
            : DeleteTargets.unknown();
    ConflictVerdict verdict =
        ConflictMatrix.check(
            changes,
            union,
            targets,
            SchemaIdentities.of(schemaNames),
            ProvisionalIds.from(nextCatalogId));
    // Two creations of one table, view or macro name: the re-run decides, against the winner's
    // catalog, and its verb reports AlreadyExists (RFC 0004, "Name collisions"); the Rust
    // implementation classifies the same way. Schema creations stay conflicts (below).
    List<ConflictCause> causes =
        verdict.causes().stream()
            .filter(
                c ->
                    c.rule() != ConflictRule.SAME_NAME
                        || c.mine().kind() == ChangeKind.CREATED_SCHEMA)
            .toList();
    // Schema creations and drops of different names are compatible, as in stock DuckLake 1.5.5
    // (the Rust crate calls any two changes of the schema list a conflict; RFC 0004 §8.3).
    if (causes.isEmpty()) {
      return null;
    }
    return "commit conflict with snapshot(s) "
        + snapshotIds
        + " that landed first: "
        + new ConflictVerdict(causes).describe();
  }
}
