package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.KeyCodec;
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

  private static NavigableMap<byte[], byte[]> copy(NavigableMap<byte[], byte[]> m) {
    NavigableMap<byte[], byte[]> out = new TreeMap<>(Arrays::compareUnsigned);
    out.putAll(m);
    return out;
  }
}
