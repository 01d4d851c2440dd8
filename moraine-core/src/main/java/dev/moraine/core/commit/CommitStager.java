package dev.moraine.core.commit;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.ChangelogValue;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SchemaVersionValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.verb.CompactionWrites;
import dev.moraine.core.verb.Draft;
import dev.moraine.core.verb.StagedEntities;
import dev.moraine.core.view.KeyBytes;
import dev.moraine.core.view.LandedCommit;
import dev.moraine.ducklake.changes.ChangesMade;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Staging: a pure function from a premise (its head and snapshot record) and one run of a closure
 * ({@link Draft}) to the exact writes of the commit, RFC 0002 §12. It reads nothing from the store
 * and writes nothing; submission is {@link CommitRunner}'s. Keeping the two apart is what lets a
 * group of commits later stage member after member against one premise chain and submit once.
 */
public final class CommitStager {
  /** A changelog names at most this many keys; a larger commit writes none (RFC 0002 §12.1). */
  static final int MAX_CHANGELOG_KEYS = 4096;

  /** How many changelogs the store keeps: each commit deletes the one this far back. */
  static final long CHANGELOG_WINDOW = 64;

  private CommitStager() {}

  /**
   * The writes of one commit.
   *
   * @param head the head the premise stands at
   * @param premise the premise's snapshot record
   * @param draft what the closure did
   * @param nowMicros the clock, microseconds since the epoch
   */
  static StagedCommit stage(HeadValue head, SnapshotValue premise, Draft draft, long nowMicros) {
    if (!draft.mintsSnapshot()) {
      return stageWithoutSnapshot(head, premise, draft);
    }
    long n = head.getSnapshotId() + 1;
    WriteBatch batch = new WriteBatch();
    SortedMap<KeyBytes, StagedEntities.Change> written = new TreeMap<>();
    for (Keyed keyed : sortedByKey(draft.entities())) {
      stageEntity(batch, written, keyed, n, draft.compaction());
    }
    // Snapshot times never decrease with the id: time travel by timestamp relies on it.
    long snapshotTime = Math.max(nowMicros, premise.getSnapshotTimeMicros() + 1);
    // Inline subspace writes (RFC 0002 §12.1 item 2): no current keys, so not in the changelog.
    draft.inline().addTo(batch);
    // Equality-index entries (RFC 0002 §10.2): under 07, outside the changelog too.
    for (WriteBatch.Op op : draft.indexEntries().ops()) {
      if (op.isDelete()) {
        batch.delete(op.key());
      } else {
        batch.put(op.key(), op.value());
      }
    }
    // A compaction's removed history versions and its schedule records: not in the changelog
    // either (readers read the schedule by range, never through the head view).
    draft.compaction().addTo(batch, snapshotTime);
    // DuckLake bumps schema_version once per commit that changes the catalog's shape, whatever
    // the number of changes (moraine-ducklake's per-operation effects, which CommitShape sums; the
    // verbs create no inlined-data tables, the one case that bumps it further). CommitShape itself
    // is not used: it refuses a compaction beside other changes, which the verb path allows, as the
    // Rust implementation does.
    boolean bumps = false;
    for (DuckLakeOperation op : draft.operations()) {
      bumps |= op.bumpsSchemaVersion();
    }
    long schemaVersion = premise.getSchemaVersion() + (bumps ? 1 : 0);
    if (bumps) {
      for (long id : draft.schemaChangedIds()) {
        put(
            batch,
            new SchemaVersionKey(id, n),
            SchemaVersionValue.newBuilder().setSchemaVersion(schemaVersion).build());
      }
    }
    boolean logged = written.size() <= MAX_CHANGELOG_KEYS;
    if (logged) {
      ChangelogValue.Builder log = ChangelogValue.newBuilder();
      for (KeyBytes k : written.keySet()) {
        log.addKeys(com.google.protobuf.ByteString.copyFrom(k.bytes()));
      }
      put(batch, new ChangelogKey(n), log.build());
    }
    if (Long.compareUnsigned(n, CHANGELOG_WINDOW) >= 0) {
      batch.delete(KeyCodec.encode(new ChangelogKey(n - CHANGELOG_WINDOW)));
    }
    // Rows DuckLake authored keep its own text (a name group in its hash order); the verbs'
    // change set is written in the lake's writer order.
    String changesMade = draft.changesText().orElseGet(() -> ChangesMade.emit(draft.changes()));
    SnapshotValue.Builder snapshot =
        SnapshotValue.newBuilder()
            .setSnapshotId(n)
            .setSnapshotTimeMicros(snapshotTime)
            .setSchemaVersion(schemaVersion)
            .setNextCatalogId(draft.nextCatalogId())
            .setNextFileId(draft.nextFileId())
            .setChangesMade(changesMade == null ? "" : changesMade);
    if (bumps) {
      snapshot.addAllSchemaChangedTableIds(draft.schemaChangedIds());
    }
    snapshot.addAllDeletedDataFileIds(draft.deletedDataFileIds());
    draft.author().ifPresent(snapshot::setAuthor);
    draft.commitMessage().ifPresent(snapshot::setCommitMessage);
    draft.commitExtraInfo().ifPresent(snapshot::setCommitExtraInfo);
    SnapshotValue record = snapshot.build();
    put(batch, new SnapshotKey(n), record);
    HeadValue newHead =
        HeadValue.newBuilder().setSnapshotId(n).setBatchSeq(head.getBatchSeq() + 1).build();
    put(batch, SysKey.HEAD, newHead);
    return new StagedCommit(
        batch,
        draft.changes(),
        newHead,
        true,
        draft.deletedDataFileIds(),
        landing(record, newHead, logged ? written : null, draft));
  }

  /**
   * A commit whose verbs mint no snapshot: nothing at all, option changes, or a maintenance batch,
   * which are written with the head re-put at the same snapshot id and the batch sequence advanced
   * (the re-put is the conflict anchor and tells readers the state moved).
   */
  private static StagedCommit stageWithoutSnapshot(
      HeadValue head, SnapshotValue premise, Draft draft) {
    WriteBatch batch = new WriteBatch();
    SortedMap<KeyBytes, StagedEntities.Change> written = new TreeMap<>();
    for (Keyed keyed : sortedByKey(draft.entities())) {
      stageEntity(batch, written, keyed, head.getSnapshotId(), draft.compaction());
    }
    // A maintenance batch's writes go in as they are; the current records among them are what the
    // head view is carried through, as for any other written entity.
    for (WriteBatch.Op op : draft.maintenance().writes().ops()) {
      if (op.isDelete()) {
        batch.delete(op.key());
      } else {
        batch.put(op.key(), op.value());
      }
    }
    for (StagedEntities.Change change : draft.maintenance().currentRecords()) {
      written.put(new KeyBytes(KeyCodec.encode(CurrentKey.of(change.entity()))), change);
    }
    if (batch.isEmpty()) {
      return new StagedCommit(null, draft.changes(), head, false, List.of(), null);
    }
    HeadValue newHead = head.toBuilder().setBatchSeq(head.getBatchSeq() + 1).build();
    put(batch, SysKey.HEAD, newHead);
    return new StagedCommit(
        batch,
        draft.changes(),
        newHead,
        false,
        List.of(),
        landing(premise, newHead, written, draft));
  }

  /**
   * A touched entity with its encoded {@code current} key, encoded once for sorting and writing.
   */
  private record Keyed(byte[] key, StagedEntities.Change change) {}

  private static List<Keyed> sortedByKey(List<StagedEntities.Change> changes) {
    List<Keyed> sorted = new ArrayList<>(changes.size());
    for (StagedEntities.Change change : changes) {
      sorted.add(new Keyed(KeyCodec.encode(CurrentKey.of(change.entity())), change));
    }
    sorted.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
    return sorted;
  }

  /**
   * The writes of one touched entity (RFC 0002 §12.1 item 1): a versioned entity that ends or
   * changes puts its old version into history with {@code end_snapshot = n}; a change confined to a
   * table's {@code next_column_id} or a column's tags overwrites in place; an unversioned record is
   * overwritten or deleted; an entity that is as it was writes nothing; an entity a compaction
   * removes from every snapshot is deleted with no history version.
   */
  private static void stageEntity(
      WriteBatch batch,
      SortedMap<KeyBytes, StagedEntities.Change> written,
      Keyed keyed,
      long n,
      CompactionWrites compaction) {
    StagedEntities.Change change = keyed.change();
    Optional<Message> before = change.before();
    Optional<Message> after = change.after();
    if (before.equals(after)) {
      return;
    }
    CurrentKey.Entity current = CurrentKey.of(change.entity());
    byte[] currentBytes = keyed.key();
    written.put(new KeyBytes(currentBytes), change);
    boolean versioned = change.entity().kind().versioned();
    if (after.isPresent()) {
      batch.put(currentBytes, ValueCodec.encode(current, after.get()));
      if (versioned && before.isPresent() && !inPlace(before.get(), after.get())) {
        putHistory(batch, change, before.get(), n);
      }
    } else {
      batch.delete(currentBytes);
      if (versioned && !compaction.removesWithoutHistory(change.entity())) {
        putHistory(batch, change, before.get(), n);
      }
    }
  }

  private static void putHistory(
      WriteBatch batch, StagedEntities.Change change, Message old, long n) {
    FieldDescriptor end = old.getDescriptorForType().findFieldByName("end_snapshot");
    Message ended = old.toBuilder().setField(end, n).build();
    put(batch, new HistoryKey(change.entity(), n), ended);
  }

  /** Whether a change overwrites a versioned record in place (RFC 0002 §12.1). */
  private static boolean inPlace(Message before, Message after) {
    if (before instanceof TableValue b && after instanceof TableValue a) {
      return b.toBuilder()
          .clearNextColumnId()
          .build()
          .equals(a.toBuilder().clearNextColumnId().build());
    }
    if (before instanceof ColumnValue b && after instanceof ColumnValue a) {
      return b.toBuilder().clearTags().build().equals(a.toBuilder().clearTags().build());
    }
    return false;
  }

  private static void put(WriteBatch batch, Key key, Message value) {
    batch.put(KeyCodec.encode(key), ValueCodec.encode(key, value));
  }

  /** What the read model builds the next head view from, once the batch has landed. */
  private static LandedCommit landing(
      SnapshotValue record,
      HeadValue head,
      SortedMap<KeyBytes, StagedEntities.Change> written,
      Draft draft) {
    SortedMap<KeyBytes, LandedCommit.Entry> entries = null;
    if (written != null) {
      entries = new TreeMap<>();
      for (var e : written.entrySet()) {
        entries.put(
            e.getKey(), new LandedCommit.Entry(e.getValue().entity(), e.getValue().after()));
      }
    }
    // The schedule records the commit writes: a compaction's, by file id, and those among a
    // maintenance batch's raw writes (only maintenance batches are scanned).
    List<KeyBytes> scheduleKeys = new ArrayList<>();
    for (long id : draft.compaction().scheduledIds()) {
      scheduleKeys.add(new KeyBytes(KeyCodec.encode(new CurrentKey.ScheduledDeletion(id))));
    }
    byte[] schedule = KeyPrefixes.scheduledDeletions();
    for (WriteBatch.Op op : draft.maintenance().writes().ops()) {
      if (Arrays.equals(op.key(), 0, schedule.length, schedule, 0, schedule.length)) {
        scheduleKeys.add(new KeyBytes(op.key()));
      }
    }
    return new LandedCommit(
        record,
        new Head(head.getSnapshotId(), head.getBatchSeq()),
        entries,
        LandedCommit.inlineTablesOf(draft.changes()),
        scheduleKeys);
  }
}
