package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.FileField;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.proto.MappingValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole-catalog diff check accepts real commits and catches each kind of bad write: a real
 * rename is recorded, then altered copies of it (an omitted history version, an extra write, a
 * rewrite that changes nothing, a store that applied something else) must each be refused.
 */
class CommitDiffOracleTest {
  private final String name = "diff-oracle-" + UUID.randomUUID();
  private RecordingKvStore store;
  private Catalog catalog;
  private long table;

  @BeforeEach
  void open() {
    KvStore raw =
        new SlateStoreProvider(
                StoreConfig.of(ObjectStoreSpec.inMemory(name), "lake")
                    .withSettings(StoreSettings.defaults().withFlushTimerOff()))
            .openWriter();
    store = new RecordingKvStore(raw);
    catalog = Catalog.open(store, CatalogOptions.defaults());
    catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64"))));
    table = catalog.snapshot().tableByName(0, "t").orElseThrow().tableId();
    store.clear();
  }

  @AfterEach
  void close() {
    catalog.close();
    store.close();
    ObjectStoreSpec.dropInMemory(name);
  }

  private RecordingKvStore.Landed renamed() {
    catalog.commit(tx -> tx.renameTable(table, "u"));
    List<RecordingKvStore.Landed> writes = store.landed();
    assertEquals(1, writes.size());
    return writes.get(0);
  }

  private static byte[] historyKey(long tableId, long at) {
    return KeyCodec.encode(new HistoryKey(new EntityKey.Table(tableId), at));
  }

  @Test
  void aRealRename_passes() {
    RecordingKvStore.Landed w = renamed();
    assertTrue(w.after().containsKey(historyKey(table, 2)), "the rename ended a version");
    CommitDiffOracle.check(w);
  }

  @Test
  void anOmittedHistoryVersion_isCaught() {
    RecordingKvStore.Landed w = renamed();
    byte[] history = historyKey(table, 2);
    NavigableMap<byte[], byte[]> after = copy(w.after());
    after.remove(history);
    List<WriteBatch.Op> ops = new ArrayList<>(w.ops());
    ops.removeIf(op -> Arrays.equals(op.key(), history));
    AssertionError e =
        assertThrows(
            AssertionError.class,
            () ->
                CommitDiffOracle.check(new RecordingKvStore.Landed(w.before(), after, ops, false)));
    assertTrue(e.getMessage().contains("did not reach history"), e.getMessage());
  }

  @Test
  void aWriteTheChangelogDoesNotName_isCaught() {
    RecordingKvStore.Landed w = renamed();
    byte[] stray = KeyCodec.encode(CurrentKey.of(new EntityKey.TableStats(table + 100)));
    byte[] value = w.after().get(KeyCodec.encode(CurrentKey.of(new EntityKey.TableStats(table))));
    NavigableMap<byte[], byte[]> after = copy(w.after());
    after.put(stray, value);
    List<WriteBatch.Op> ops = new ArrayList<>(w.ops());
    ops.add(new WriteBatch.Op(stray, value));
    AssertionError e =
        assertThrows(
            AssertionError.class,
            () ->
                CommitDiffOracle.check(new RecordingKvStore.Landed(w.before(), after, ops, false)));
    assertTrue(e.getMessage().contains("changelog"), e.getMessage());
  }

  @Test
  void aRewriteThatChangesNothing_isCaught() {
    RecordingKvStore.Landed w = renamed();
    byte[] stats = KeyCodec.encode(CurrentKey.of(new EntityKey.TableStats(table)));
    List<WriteBatch.Op> ops = new ArrayList<>(w.ops());
    ops.add(new WriteBatch.Op(stats, w.before().get(stats)));
    AssertionError e =
        assertThrows(
            AssertionError.class,
            () ->
                CommitDiffOracle.check(
                    new RecordingKvStore.Landed(w.before(), w.after(), ops, false)));
    assertTrue(e.getMessage().contains("value it already had"), e.getMessage());
  }

  @Test
  void aKeyChangedWithoutBeingStaged_isCaught() {
    RecordingKvStore.Landed w = renamed();
    byte[] stats = KeyCodec.encode(CurrentKey.of(new EntityKey.TableStats(table)));
    NavigableMap<byte[], byte[]> after = copy(w.after());
    after.remove(stats);
    AssertionError e =
        assertThrows(
            AssertionError.class,
            () ->
                CommitDiffOracle.check(
                    new RecordingKvStore.Landed(w.before(), after, w.ops(), false)));
    assertTrue(e.getMessage().contains("did not stage it"), e.getMessage());
  }

  @Test
  void aRefusedCommitThatChangedSomething_isCaught() {
    RecordingKvStore.Landed w = renamed();
    assertFalse(w.refused());
    assertThrows(
        AssertionError.class,
        () ->
            CommitDiffOracle.check(
                new RecordingKvStore.Landed(w.before(), w.after(), w.ops(), true)));
  }

  /** The one write of a commit of {@code body}, checked as it landed. */
  private RecordingKvStore.Landed landed(java.util.function.Consumer<Transaction> body) {
    store.clear();
    catalog.commit(body::accept);
    List<RecordingKvStore.Landed> writes = store.landed();
    assertEquals(1, writes.size());
    return CommitDiffOracle.check(writes.get(0));
  }

  /** {@code w} as if the commit had also put {@code value} (or deleted, if null) at {@code key}. */
  private static RecordingKvStore.Landed alsoWriting(
      RecordingKvStore.Landed w, byte[] key, byte[] value) {
    NavigableMap<byte[], byte[]> after = copy(w.after());
    List<WriteBatch.Op> ops = new ArrayList<>(w.ops());
    ops.removeIf(op -> Arrays.equals(op.key(), key));
    if (value == null) {
      after.remove(key);
    } else {
      after.put(key, value);
    }
    if (!Arrays.equals(value, w.before().get(key))) {
      ops.add(new WriteBatch.Op(key, value));
    }
    return new RecordingKvStore.Landed(w.before(), after, ops, false);
  }

  private static byte[] onlyKey(RecordingKvStore.Landed w, Class<?> kind) {
    List<byte[]> keys =
        w.ops().stream()
            .map(WriteBatch.Op::key)
            .filter(k -> kind.isInstance(KeyCodec.decode(k)))
            .toList();
    assertEquals(1, keys.size(), "one " + kind.getSimpleName() + " key");
    return keys.get(0);
  }

  private static String refusal(RecordingKvStore.Landed w) {
    return assertThrows(AssertionError.class, () -> CommitDiffOracle.check(w)).getMessage();
  }

  @Test
  void inlineInsertDeleteAndFlush_pass() {
    RecordingKvStore.Landed insert =
        landed(tx -> tx.insertInlined(table, List.of(List.of(1L), List.of(2L))));
    onlyKey(insert, InlineKey.ChunkLocator.class);
    RecordingKvStore.Landed delete = landed(tx -> tx.deleteRowInline(table, 1));
    onlyKey(delete, InlineKey.RowTombstone.class);
    RecordingKvStore.Landed flush =
        landed(
            tx ->
                tx.flushInlined(
                    table,
                    InlineFlush.of(NewDataFile.parquet("f.parquet", 2, 1_000, 100))
                        .withRowDeletes(FlushDeleteFile.parquet("d.parquet", 50, 10))));
    assertTrue(
        flush.ops().stream().anyMatch(op -> op.value() == null),
        "the flush removed inline records");
  }

  @Test
  void aFlushOfTheInlineDeletionsOfAnExpiredDataFile_passes() {
    catalog.commit(tx -> tx.registerDataFile(table, NewDataFile.parquet("f.parquet", 5, 900, 90)));
    long file = catalog.snapshot().dataFiles(table).get(0).dataFileId();
    catalog.commit(tx -> tx.deleteRowInline(table, 2));
    long deletedAt = catalog.snapshot().snapshotId();
    landed(tx -> tx.expireDataFile(table, file));
    RecordingKvStore.Landed flush =
        landed(
            tx ->
                tx.flushInlined(
                    table,
                    InlineFlush.fileDeletesOnly()
                        .withFileDeletes(file, FlushDeleteFile.parquet("d.parquet", 50, 10))));
    // The oracle accepted the delete file backdated to the deletion, against a file whose record
    // is only in history; the flush removed the inline deletion.
    assertEquals(
        deletedAt, catalog.snapshot().deleteFiles(table).get(0).beginSnapshot(), "backdated");
    onlyKey(flush, InlineKey.Record.class);
  }

  @Test
  void anInlineUpdate_passes_withItsTombstoneAndItsChunk() {
    landed(tx -> tx.insertInlined(table, List.of(List.of(1L), List.of(2L))));
    RecordingKvStore.Landed update = landed(tx -> tx.updateRowInline(table, 0, List.of(3L)));
    onlyKey(update, InlineKey.RowTombstone.class);
    onlyKey(update, InlineKey.ChunkLocator.class);
  }

  @Test
  void anInlineChunkWithoutItsLocator_isCaught() {
    RecordingKvStore.Landed w = landed(tx -> tx.insertInlined(table, List.of(List.of(7L))));
    String e = refusal(alsoWriting(w, onlyKey(w, InlineKey.ChunkLocator.class), null));
    assertTrue(e.contains("was not written with it"), e);
  }

  @Test
  void aTombstoneOfARowNoChunkHeld_isCaught() {
    catalog.commit(tx -> tx.insertInlined(table, List.of(List.of(7L))));
    RecordingKvStore.Landed w = landed(tx -> tx.deleteRowInline(table, 0));
    byte[] tombstone = onlyKey(w, InlineKey.RowTombstone.class);
    byte[] value = w.after().get(tombstone);
    RecordingKvStore.Landed moved = alsoWriting(w, tombstone, null);
    InlineKey.RowTombstone t = (InlineKey.RowTombstone) KeyCodec.decode(tombstone);
    byte[] elsewhere =
        KeyCodec.encode(new InlineKey.RowTombstone(t.tableId(), 99, t.endSnapshot()));
    String e = refusal(alsoWriting(moved, elsewhere, value));
    assertTrue(e.contains("deletes a row no inlined chunk held"), e);
  }

  @Test
  void anInlineChunkRemovedOutsideAFlush_isCaught() {
    RecordingKvStore.Landed insert = landed(tx -> tx.insertInlined(table, List.of(List.of(7L))));
    byte[] locator = onlyKey(insert, InlineKey.ChunkLocator.class);
    byte[] chunk = onlyKey(insert, InlineKey.Record.class);
    RecordingKvStore.Landed w = landed(tx -> tx.renameTable(table, "u"));
    String e = refusal(alsoWriting(alsoWriting(w, chunk, null), locator, null));
    assertTrue(e.contains("inline records removed from tables"), e);
  }

  @Test
  void aFileMappedByName_passes_andARewrittenMapping_isCaught() {
    RecordingKvStore.Landed w =
        landed(
            tx ->
                tx.registerDataFileByName(
                    table,
                    NewDataFile.parquet("m.parquet", 3, 1_000, 100),
                    List.of(FileField.of("A"))));
    byte[] mapping = onlyKey(w, CurrentKey.Entity.class, EntityKey.Mapping.class);
    CurrentKey.Entity key = (CurrentKey.Entity) KeyCodec.decode(mapping);
    MappingValue earlier =
        ValueCodec.decode(key, w.after().get(mapping), MappingValue.class).toBuilder()
            .setMapType("map_by_field_id")
            .build();
    NavigableMap<byte[], byte[]> before = copy(w.before());
    before.put(mapping, ValueCodec.encode(key, earlier));
    String e = refusal(new RecordingKvStore.Landed(before, w.after(), w.ops(), false));
    assertTrue(e.contains("written once"), e);
  }

  @Test
  void aMappingNoNewFileNames_isCaught() {
    RecordingKvStore.Landed w =
        landed(
            tx ->
                tx.registerDataFileByName(
                    table,
                    NewDataFile.parquet("m.parquet", 3, 1_000, 100),
                    List.of(FileField.of("a"))));
    byte[] mapping = onlyKey(w, CurrentKey.Entity.class, EntityKey.Mapping.class);
    CurrentKey.Entity e = (CurrentKey.Entity) KeyCodec.decode(mapping);
    EntityKey.Mapping m = (EntityKey.Mapping) e.entity();
    byte[] stray =
        KeyCodec.encode(CurrentKey.of(new EntityKey.Mapping(m.tableId(), m.mappingId() + 50)));
    byte[] value =
        ValueCodec.encode(
            CurrentKey.of(new EntityKey.Mapping(m.tableId(), m.mappingId() + 50)),
            ValueCodec.decode(e, w.after().get(mapping), MappingValue.class).toBuilder()
                .setMappingId(m.mappingId() + 50)
                .build());
    String text = refusal(alsoWriting(w, stray, value));
    assertTrue(text.contains("new files name"), text);
  }

  private static byte[] onlyKey(RecordingKvStore.Landed w, Class<?> keyKind, Class<?> entityKind) {
    List<byte[]> keys =
        w.ops().stream()
            .map(WriteBatch.Op::key)
            .filter(
                k ->
                    KeyCodec.decode(k) instanceof CurrentKey.Entity e
                        && entityKind.isInstance(e.entity()))
            .toList();
    assertEquals(1, keys.size(), "one " + entityKind.getSimpleName() + " key");
    return keys.get(0);
  }

  private static NavigableMap<byte[], byte[]> copy(NavigableMap<byte[], byte[]> m) {
    NavigableMap<byte[], byte[]> out = new TreeMap<>(Arrays::compareUnsigned);
    out.putAll(m);
    return out;
  }
}
