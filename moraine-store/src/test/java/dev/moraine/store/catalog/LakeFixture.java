package dev.moraine.store.catalog;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.Subspace;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.ChangelogValue;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SchemaVersionValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.WriteBatch;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Writes catalogs for tests the way RFC 0002 §12.1 says a snapshot-minting commit does, since there
 * are no verbs yet: entity writes with the current/history split, schema_version records, a
 * complete changelog (with the window deletion), the snapshot record and the head, in one batch.
 * Snapshot {@code n} is stamped one second per snapshot after snapshot 0.
 */
final class LakeFixture {
  private final KvStore store;
  private long head;
  private long batchSeq;
  private long schemaVersion;
  private long nextCatalogId;
  private long nextFileId;
  private final long time0;

  /** A fixture over a store that {@code Catalog.open} has bootstrapped. */
  LakeFixture(KvStore store) {
    this.store = store;
    HeadValue h =
        ValueCodec.decode(SysKey.HEAD, store.get(KeyCodec.encode(SysKey.HEAD)), HeadValue.class);
    head = h.getSnapshotId();
    batchSeq = h.getBatchSeq();
    SnapshotValue s =
        ValueCodec.decode(
            new SnapshotKey(head),
            store.get(KeyCodec.encode(new SnapshotKey(head))),
            SnapshotValue.class);
    schemaVersion = s.getSchemaVersion();
    nextCatalogId = s.getNextCatalogId();
    nextFileId = s.getNextFileId();
    time0 = s.getSnapshotTimeMicros() - head * 1_000_000L;
  }

  /** The time the fixture stamps on snapshot {@code n}. */
  long timeMicros(long n) {
    return time0 + n * 1_000_000L;
  }

  long head() {
    return head;
  }

  /** One commit: mints snapshot head + 1 with {@code changesMade}; returns its id. */
  long commit(String changesMade, Consumer<Commit> body) {
    Commit c = new Commit(head + 1);
    body.accept(c);
    WriteBatch batch = new WriteBatch();
    TreeSet<byte[]> currentKeys = new TreeSet<>(Arrays::compareUnsigned);
    for (Map.Entry<String, Object[]> e : c.writes.entrySet()) {
      Key key = (Key) e.getValue()[0];
      Message value = (Message) e.getValue()[1];
      byte[] k = KeyCodec.encode(key);
      if (value == null) {
        batch.delete(k);
      } else {
        batch.put(k, ValueCodec.encode(key, value));
      }
      if (key.subspace() == Subspace.CURRENT) {
        currentKeys.add(k);
      }
    }
    if (c.schemaChanged) {
      schemaVersion++;
      for (long table : c.schemaVersionTables) {
        Key key = new SchemaVersionKey(table, c.n);
        batch.put(
            KeyCodec.encode(key),
            ValueCodec.encode(
                key, SchemaVersionValue.newBuilder().setSchemaVersion(schemaVersion).build()));
      }
    }
    ChangelogValue.Builder log = ChangelogValue.newBuilder();
    currentKeys.forEach(k -> log.addKeys(ByteString.copyFrom(k)));
    put(batch, new ChangelogKey(c.n), log.build());
    if (c.n >= 64) {
      batch.delete(KeyCodec.encode(new ChangelogKey(c.n - 64)));
    }
    SnapshotValue.Builder snap =
        SnapshotValue.newBuilder()
            .setSnapshotId(c.n)
            .setSnapshotTimeMicros(timeMicros(c.n))
            .setSchemaVersion(schemaVersion)
            .setNextCatalogId(c.nextCatalogId)
            .setNextFileId(c.nextFileId)
            .setChangesMade(changesMade)
            .addAllSchemaChangedTableIds(c.schemaVersionTables);
    if (c.author != null) {
      snap.setAuthor(c.author).setCommitMessage(c.message);
    }
    put(batch, new SnapshotKey(c.n), snap.build());
    put(
        batch,
        SysKey.HEAD,
        HeadValue.newBuilder().setSnapshotId(c.n).setBatchSeq(batchSeq + 1).build());
    store.write(batch);
    head = c.n;
    batchSeq++;
    nextCatalogId = c.nextCatalogId;
    nextFileId = c.nextFileId;
    return c.n;
  }

  private static void put(WriteBatch batch, Key key, Message value) {
    batch.put(KeyCodec.encode(key), ValueCodec.encode(key, value));
  }

  /** What one commit stages. */
  final class Commit {
    final long n;
    long nextCatalogId = LakeFixture.this.nextCatalogId;
    long nextFileId = LakeFixture.this.nextFileId;
    boolean schemaChanged;
    final TreeSet<Long> schemaVersionTables = new TreeSet<>();
    String author;
    String message;
    private final Map<String, Object[]> writes = new LinkedHashMap<>();

    Commit(long n) {
      this.n = n;
    }

    /** A catalog id from the counter. */
    long catalogId() {
      return nextCatalogId++;
    }

    /** A file id from the counter. */
    long fileId() {
      return nextFileId++;
    }

    /** Bumps the schema version; records a schema_version row for each table given. */
    Commit schemaChange(long... tables) {
      schemaChanged = true;
      for (long t : tables) {
        schemaVersionTables.add(t);
      }
      return this;
    }

    /**
     * Creates or changes an entity. A versioned entity that exists moves its old version to history
     * with end n; the new value must carry begin n.
     */
    Commit put(EntityKey entity, Message value) {
      CurrentKey current = CurrentKey.of(entity);
      if (entity.kind().versioned()) {
        Message old = currentValue(current);
        if (old != null) {
          stage(new HistoryKey(entity, n), ended(old));
        }
      }
      stage(current, value);
      return this;
    }

    /** Ends a versioned entity (history with end n), or removes an unversioned record. */
    Commit drop(EntityKey entity) {
      CurrentKey current = CurrentKey.of(entity);
      Message old = currentValue(current);
      if (old == null) {
        throw new IllegalStateException("nothing to drop at " + current.printable());
      }
      if (entity.kind().versioned()) {
        stage(new HistoryKey(entity, n), ended(old));
      }
      stage(current, null);
      return this;
    }

    /** Any other record (inline data, scheduled deletions), put as given. */
    Commit raw(Key key, Message value) {
      stage(key, value);
      return this;
    }

    private void stage(Key key, Message value) {
      writes.put(Arrays.toString(KeyCodec.encode(key)), new Object[] {key, value});
    }

    private Message currentValue(CurrentKey key) {
      Object[] staged = writes.get(Arrays.toString(KeyCodec.encode(key)));
      if (staged != null) {
        return (Message) staged[1];
      }
      byte[] bytes = store.get(KeyCodec.encode(key));
      return bytes == null ? null : ValueCodec.decode(key, bytes);
    }

    private Message ended(Message old) {
      FieldDescriptor end = old.getDescriptorForType().findFieldByName("end_snapshot");
      return old.toBuilder().setField(end, n).build();
    }
  }
}
