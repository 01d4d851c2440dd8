package dev.moraine.store.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ClosedException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.ColumnNode;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.store.SlateStoreProvider;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every accessor of CatalogSnapshot at every snapshot of {@link TimeTravelLake}. */
class CatalogTimeTravelTest {
  private SlateStoreProvider provider;
  private KvStore store;
  private Catalog catalog;
  private TimeTravelLake lake;

  @BeforeEach
  void build() {
    provider = Stores.inMemory();
    store = provider.openWriter();
    catalog = Catalog.open(store, CatalogOptions.defaults());
    lake = new TimeTravelLake(store);
  }

  @AfterEach
  void close() {
    catalog.close();
    store.close();
    Stores.drop(provider);
  }

  private <T> List<T> atEach(Function<CatalogSnapshot, T> f) {
    return java.util.stream.LongStream.rangeClosed(0, 6)
        .mapToObj(id -> f.apply(catalog.snapshotAt(id)))
        .toList();
  }

  @Test
  void theHeadIsSnapshotSix() {
    assertEquals(6, catalog.snapshot().snapshotId());
    assertEquals(new dev.moraine.core.catalog.model.Head(6, 6), catalog.head());
    SnapshotInfo info = catalog.snapshot().info();
    assertEquals(Optional.of("ann"), info.author());
    assertEquals(Optional.of("tidy up"), info.commitMessage());
    assertEquals(Instant.EPOCH.plusNanos(lake.fixture.timeMicros(6) * 1000), info.time());
  }

  @Test
  void schemas() {
    assertEquals(
        List.of(
            List.of("main"),
            List.of("main", "sales"),
            List.of("main", "sales"),
            List.of("main", "sales"),
            List.of("main", "sales"),
            List.of("main", "sales"),
            List.of("main", "sales")),
        atEach(s -> s.schemas().stream().map(SchemaInfo::name).toList()));
    assertEquals(Optional.empty(), catalog.snapshotAt(0).schemaByName("sales"));
    assertEquals(1, catalog.snapshotAt(1).schemaByName("sales").orElseThrow().schemaId());
  }

  @Test
  void tablesRenamedDroppedAndRecreated() {
    assertEquals(
        List.of(
            List.of(),
            List.of("2:t"),
            List.of("2:t"),
            List.of("2:t2"),
            List.of("5:t"),
            List.of("5:t"),
            List.of("5:t")),
        atEach(s -> s.tables().stream().map(t -> t.tableId() + ":" + t.name()).toList()));
    assertEquals(
        List.of(-1L, 2L, 2L, -1L, 5L, 5L, 5L),
        atEach(s -> s.tableByName(0, "t").map(TableInfo::tableId).orElse(-1L)));
    assertEquals(List.of(), catalog.snapshotAt(3).tablesIn(1));
    TableInfo renamed = catalog.snapshotAt(3).table(2).orElseThrow();
    assertEquals(new TableInfo(2, "u-2", 3, 0, "t2", "t2/", true, 5), renamed);
    assertEquals(1, catalog.snapshotAt(2).table(2).orElseThrow().beginSnapshot());
    assertEquals(Optional.empty(), catalog.snapshotAt(4).table(2));
    assertEquals(Optional.empty(), catalog.snapshotAt(3).table(5));
  }

  @Test
  void columnsWithNestedTypesAndTags() {
    assertEquals(
        List.of(
            List.of(),
            List.of("a", "x", "b"),
            List.of("a", "x", "b"),
            List.of("a", "x", "b", "c"),
            List.of(),
            List.of(),
            List.of()),
        atEach(s -> s.columns(2).stream().map(ColumnInfo::name).toList()));
    List<ColumnNode> tree = catalog.snapshotAt(3).columnTree(2);
    assertEquals(List.of("a", "b", "c"), tree.stream().map(n -> n.column().name()).toList());
    assertEquals("x", tree.get(1).children().get(0).column().name());
    ColumnInfo a = catalog.snapshotAt(1).columns(2).get(0);
    assertEquals("pii", a.tags().get(0).key());
    assertEquals(
        List.of("a"), catalog.snapshotAt(5).columns(5).stream().map(ColumnInfo::name).toList());
  }

  @Test
  void filesPartitioningAndSorting() {
    assertEquals(List.of(0, 0, 1, 1, 0, 0, 0), atEach(s -> s.dataFiles(2).size()));
    DataFileInfo f = catalog.snapshotAt(2).dataFiles(2).get(0);
    assertEquals(0, f.dataFileId());
    assertEquals(java.util.OptionalLong.of(0), f.rowIdStart());
    assertEquals(3, f.recordCount());
    assertEquals(1024, f.fileSizeBytes());
    assertEquals("7", f.partitionValues().get(0).value());
    assertEquals(List.of(0, 0, 0, 1, 0, 0, 0), atEach(s -> s.deleteFiles(2).size()));
    assertEquals(0, catalog.snapshotAt(3).deleteFiles(2).get(0).dataFileId());
    assertEquals(
        List.of(false, false, true, true, false, false, false),
        atEach(s -> s.partitioning(2).isPresent()));
    assertEquals(
        "identity",
        catalog.snapshotAt(2).partitioning(2).orElseThrow().columns().get(0).transform());
    assertEquals(
        List.of(false, false, true, true, false, false, false),
        atEach(s -> s.sorting(2).isPresent()));
    assertEquals(
        "a", catalog.snapshotAt(3).sorting(2).orElseThrow().expressions().get(0).expression());
  }

  /**
   * Unversioned records are what the store holds now, at every snapshot (as the crate serves them).
   */
  @Test
  void statisticsAreCurrent() {
    assertEquals(3, catalog.snapshotAt(1).tableStats(2).orElseThrow().nextRowId());
    assertEquals(
        Optional.of("9"), catalog.snapshotAt(2).columnStats(2, 1).orElseThrow().maxValue());
    assertEquals(1, catalog.snapshotAt(4).columnStats(2).size());
    assertEquals(3, catalog.snapshotAt(2).fileColumnStats(2).get(0).valueCount());
  }

  @Test
  void viewsMacrosTagsAndMappings() {
    assertEquals(
        List.of("", "", "", "", "select 1", "select 2", "select 2"),
        atEach(s -> s.viewByName(1, "v").map(v -> v.sql()).orElse("")));
    assertEquals(List.of(0, 0, 0, 0, 1, 1, 0), atEach(s -> s.macros().size()));
    assertEquals(
        "x + 1",
        catalog.snapshotAt(5).macroByName(0, "m").orElseThrow().implementations().get(0).sql());
    assertEquals(List.of(0, 0, 0, 1, 1, 1, 1), atEach(s -> s.tags(2).size()));
    assertEquals("orders", catalog.snapshotAt(3).tags(2).get(0).value());
    assertEquals("A", catalog.snapshotAt(5).mappings(5).get(0).nameMappings().get(0).sourceName());
    assertEquals(List.of(0, 0, 0, 0, 0, 1, 1), atEach(s -> s.indexes(5).size()));
    dev.moraine.core.catalog.model.IndexInfo ix = catalog.snapshotAt(6).indexes(5).get(0);
    assertEquals("ix", ix.name());
    assertEquals(List.of(1L), ix.columnIds());
    assertEquals(Optional.of("ready"), ix.buildState());
    assertEquals(Optional.of(ix), catalog.snapshotAt(6).index(5, 8));
    assertEquals(Optional.of(ix), catalog.snapshotAt(6).indexByName(5, "ix"));
    assertEquals(Optional.empty(), catalog.snapshotAt(4).index(5, 8));
    assertEquals(
        List.of(6L), catalog.snapshotAt(4).viewsIn(1).stream().map(v -> v.viewId()).toList());
    assertEquals(Optional.empty(), catalog.snapshotAt(3).view(6));
    assertEquals("m", catalog.snapshotAt(4).macro(7).orElseThrow().name());
    assertEquals(Optional.empty(), catalog.snapshotAt(6).macro(7));
    assertEquals(
        List.of(7L), catalog.snapshotAt(5).macrosIn(0).stream().map(m -> m.macroId()).toList());
    assertEquals("sales", catalog.snapshotAt(2).schema(1).orElseThrow().name());
    assertEquals(Optional.empty(), catalog.snapshotAt(0).schema(1));
  }

  @Test
  void optionsInheritAndScheduledDeletions() {
    CatalogSnapshot s = catalog.snapshotAt(5);
    assertEquals(Map.of("parquet_compression", "zstd"), s.options(new OptionScope.Table(5)));
    assertEquals(Optional.of("false"), s.option(new OptionScope.Table(5), "encrypted"));
    assertEquals(Optional.of("zstd"), s.option(new OptionScope.Table(5), "parquet_compression"));
    assertEquals(Optional.empty(), s.option(OptionScope.global(), "parquet_compression"));
    assertEquals(42, s.scheduledDeletions().get(0).scheduleStartMicros());
    assertEquals(
        List.of(OptionScope.global(), new OptionScope.Table(5)),
        List.copyOf(s.allOptions().keySet()),
        "store order: global, then schemas, then tables");
    assertEquals(Map.of("encrypted", "false"), s.allOptions().get(OptionScope.global()));
    assertEquals(
        Map.of("parquet_compression", "zstd"), s.allOptions().get(new OptionScope.Table(5)));
  }

  @Test
  void inlinedRowsHonourTombstones() {
    Function<CatalogSnapshot, List<String>> rows =
        s ->
            s.inlinedRows(5).rows().stream().map(r -> r.rowId() + "=" + r.values().get(0)).toList();
    assertEquals(List.of(), rows.apply(catalog.snapshotAt(4)));
    assertEquals(List.of("0=10", "1=11", "2=12"), rows.apply(catalog.snapshotAt(5)));
    assertEquals(List.of("0=10", "2=12"), rows.apply(catalog.snapshotAt(6)));
    InlinedRows.Row r = catalog.snapshotAt(6).inlinedRows(5).rows().get(0);
    assertEquals(List.of("a"), r.columns());
    assertEquals(
        new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true),
        r.fields().get(0).getType());
    assertEquals(10L, r.values().get(0));
    assertEquals(5, r.beginSnapshot());
  }

  @Test
  void theSnapshotLogAndSchemaVersions() {
    List<SnapshotInfo> log = catalog.snapshotAt(3).snapshotLog();
    assertEquals(List.of(0L, 1L, 2L, 3L), log.stream().map(SnapshotInfo::snapshotId).toList());
    assertEquals("altered_table:2", log.get(3).changesMade());
    assertEquals(List.of(2L), log.get(3).schemaChangedTableIds());
    assertEquals(5, catalog.snapshotAt(6).snapshotLog().get(6).schemaVersion());
    assertEquals(List.of(0, 1, 1, 2, 2, 2, 2), atEach(s -> s.schemaVersions(2).size()));
    assertEquals(2, catalog.snapshotAt(3).schemaVersions(2).get(1).schemaVersion());
  }

  @Test
  void snapshotsByTime() {
    long t3 = lake.fixture.timeMicros(3);
    assertEquals(3, catalog.snapshotAsOf(instant(t3)).snapshotId());
    assertEquals(3, catalog.snapshotAsOf(instant(t3 + 999_999)).snapshotId());
    assertEquals(2, catalog.snapshotAsOf(instant(t3 - 1)).snapshotId());
    assertEquals(0, catalog.snapshotAsOf(instant(lake.fixture.timeMicros(0))).snapshotId());
    assertEquals(6, catalog.snapshotAsOf(Instant.MAX).snapshotId());
    NotFoundException before =
        assertThrows(
            NotFoundException.class,
            () -> catalog.snapshotAsOf(instant(lake.fixture.timeMicros(0) - 1)));
    assertEquals(ErrorCode.NOT_FOUND, before.code());
    assertThrows(InvalidArgumentException.class, () -> catalog.snapshotAsOf(null));
  }

  @Test
  void missingSnapshotsAreNotFound() {
    NotFoundException future = assertThrows(NotFoundException.class, () -> catalog.snapshotAt(7));
    assertEquals(ErrorCode.NOT_FOUND, future.code());
    assertEquals(
        ErrorCode.NOT_FOUND,
        assertThrows(NotFoundException.class, () -> catalog.snapshotAt(-1L)).code());
    store.write(new WriteBatch().delete(KeyCodec.encode(new SnapshotKey(1))));
    try (Catalog fresh = Catalog.open(store, CatalogOptions.defaults())) {
      NotFoundException expired = assertThrows(NotFoundException.class, () -> fresh.snapshotAt(1));
      assertEquals(ErrorCode.SNAPSHOT_EXPIRED, expired.code());
      assertEquals(0, fresh.snapshotAsOf(instant(lake.fixture.timeMicros(1))).snapshotId());
    }
  }

  /** A view taken before later commits still answers for its own snapshot when it loads later. */
  @Test
  void aLaterCommitDoesNotChangeAnEarlierView() {
    CatalogSnapshot head = catalog.snapshot();
    lake.fixture.commit(
        "dropped_table:5",
        c -> {
          c.schemaChange();
          c.drop(new dev.moraine.core.keyspace.key.EntityKey.Table(5));
          c.drop(new dev.moraine.core.keyspace.key.EntityKey.Column(5, 1));
        });
    assertEquals(List.of("t"), head.tables().stream().map(TableInfo::name).toList());
    assertEquals(1, head.columns(5).size());
    CatalogSnapshot next = catalog.snapshot();
    assertEquals(7, next.snapshotId());
    assertEquals(List.of(), next.tables());
    assertSame(next, catalog.snapshot(), "an unmoved head gives the same view");
  }

  @Test
  void aReaderSeesTheSameCatalog() throws InterruptedException {
    store.flushWal();
    try (KvReader reader = provider.openReader(ReaderMode.followLatest());
        ReadOnlyCatalog ro = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      // The reader picks up the flushed writes when it next polls the manifest.
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (ro.head().snapshotId() < 6 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(6, ro.head().snapshotId());
      for (long id = 0; id <= 6; id++) {
        CatalogSnapshot a = catalog.snapshotAt(id);
        CatalogSnapshot b = ro.snapshotAt(id);
        assertEquals(a.tables(), b.tables());
        assertEquals(a.columns(2), b.columns(2));
        assertEquals(a.dataFiles(2), b.dataFiles(2));
        assertEquals(a.views(), b.views());
        assertEquals(a.info(), b.info());
      }
    }
  }

  @Test
  void aClosedCatalogRefusesLoads() {
    CatalogSnapshot s = catalog.snapshotAt(3);
    List<TableInfo> tables = s.tables();
    catalog.close();
    assertEquals(tables, s.tables(), "what was loaded is still answered");
    assertEquals(ErrorCode.CLOSED, assertThrows(ClosedException.class, () -> s.views()).code());
    assertThrows(ClosedException.class, catalog::snapshot);
  }

  private static Instant instant(long micros) {
    return Instant.EPOCH.plusNanos(micros * 1000);
  }
}
