package dev.moraine.store.readme;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.FileMerger;
import dev.moraine.core.catalog.FileRewriter;
import dev.moraine.core.catalog.InlineFlusher;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.ExpiryResult;
import dev.moraine.core.catalog.model.FileCleanup;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.MaintenancePass;
import dev.moraine.core.catalog.model.MaintenancePolicy;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.OrphanResult;
import dev.moraine.core.catalog.model.OrphanSearch;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.SnapshotExpiry;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.store.Lake;
import dev.moraine.store.LakeLocation;
import dev.moraine.store.ObjectStoreLakeFiles;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.S3Credentials;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's code, run as a host would run it on a lake in a local directory: if an example stops
 * compiling or stops doing what the README says it does, this fails.
 */
class ReadmeExamplesTest {
  @TempDir Path dir;

  private SlateStoreProvider provider() {
    StoreConfig config =
        StoreConfig.of(
                ObjectStoreSpec.localDirectory(dir.resolve("lake")).withoutFsync(), "catalog")
            .withSettings(StoreSettings.defaults().withFlushTimerOff());
    return new SlateStoreProvider(config);
  }

  @Test
  void openingALake() {
    String where = dir.resolve("lakes").resolve("sales").toString();
    long orders;
    try (Catalog catalog = Lake.open(LakeLocation.of(where))) {
      orders =
          catalog
              .commitReturning(
                  tx ->
                      tx.createTable(
                          tx.schemaByName("main").orElseThrow().schemaId(),
                          "orders",
                          List.of(ColumnDef.of("id", "int64"))))
              .value();
    }
    LakeLocation s3 =
        LakeLocation.of("s3://my-bucket/lakes/sales", S3Credentials.defaultChain())
            .withRegion("eu-west-1");
    assertEquals("lakes/sales", ((ObjectStoreSpec.S3) s3.objectStore()).prefix());
    // The same reads on the local lake (the S3 one needs AWS): nothing written, the table there.
    try (ReadOnlyCatalog catalog = Lake.openReadOnly(LakeLocation.of(where))) {
      CatalogSnapshot head = catalog.snapshot();
      assertEquals("orders", head.table(orders).orElseThrow().name());
    }
    // The long form on the same place.
    try (KvStore store = new SlateStoreProvider(LakeLocation.of(where).storeConfig()).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      assertEquals(1, catalog.snapshot().tables().size());
    }
  }

  @Test
  void usingTheStore() {
    SlateStoreProvider provider = provider();
    byte[] key = "k".getBytes(StandardCharsets.UTF_8);
    byte[] value = "v".getBytes(StandardCharsets.UTF_8);
    try (KvStore store = provider.openWriter()) {
      WriteReceipt receipt = store.write(new WriteBatch().put(key, value));
      store.flushWal();
      store.awaitDurable(receipt);
      assertTrue(store.durableSeqnum() >= receipt.seqnum());
      CheckpointId checkpoint = store.createCheckpoint(Duration.ofMinutes(10));
      store.write(new WriteBatch().put(key, "later".getBytes(StandardCharsets.UTF_8)));
      store.flushWal();
      try (KvReader reader = provider.openReader(ReaderMode.pinned(checkpoint))) {
        assertArrayEquals(value, reader.get(key), "a pinned reader sees the checkpoint's value");
      }
      assertNull(store.get("absent".getBytes(StandardCharsets.UTF_8)));
    }
  }

  @Test
  void committingThenReading() {
    SlateStoreProvider provider = provider();
    long ordersId;
    long created;
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      created =
          catalog.commit(
              tx -> {
                long sales =
                    tx.schemaByName("sales")
                        .map(SchemaInfo::schemaId)
                        .orElseGet(() -> tx.createSchema("sales"));
                long orders =
                    tx.createTable(
                        sales,
                        "orders",
                        List.of(
                            ColumnDef.of("id", "int64").notNull(),
                            ColumnDef.nested("addr", "struct", ColumnDef.of("city", "varchar"))));
                tx.registerDataFile(
                    orders, NewDataFile.parquet("part-0.parquet", 1000, 65_536, 4_096));
                tx.setCommitInfo("etl", "nightly load", null);
              });
      CatalogSnapshot head = catalog.snapshot();
      assertEquals(created, head.snapshotId());
      SchemaInfo sales = head.schemaByName("sales").orElseThrow();
      List<TableInfo> tables = head.tablesIn(sales.schemaId());
      assertEquals(List.of("orders"), tables.stream().map(TableInfo::name).toList());
      ordersId = tables.get(0).tableId();
      List<DataFileInfo> files = head.dataFiles(ordersId);
      assertEquals(1, files.size());
      assertEquals(1000, files.get(0).recordCount());

      // The same closure again: the schema is found, and the table name is taken.
      AlreadyExistsException taken =
          assertThrows(
              AlreadyExistsException.class,
              () ->
                  catalog.commit(
                      tx -> {
                        long s =
                            tx.schemaByName("sales")
                                .map(SchemaInfo::schemaId)
                                .orElseGet(() -> tx.createSchema("sales"));
                        tx.createTable(s, "orders", List.of(ColumnDef.of("id", "int64")));
                      }));
      assertEquals(ErrorCode.ALREADY_EXISTS, taken.code());

      long events =
          catalog
              .commitReturning(
                  tx ->
                      tx.createTable(
                          sales.schemaId(),
                          "events",
                          List.of(ColumnDef.of("id", "int64"), ColumnDef.of("city", "varchar"))))
              .value();
      assertEquals(
          events,
          catalog.snapshot().tableByName(sales.schemaId(), "events").orElseThrow().tableId());
      long t1 =
          catalog.commit(
              tx -> tx.insertInlined(events, List.of(List.of(1L, "Oslo"), List.of(2L, "Lima"))));
      assertEquals(
          List.of(0L, 1L),
          catalog.snapshot().inlinedRows(events).rows().stream().map(r -> r.rowId()).toList());
      catalog.commit(tx -> tx.deleteRowInline(events, 0));
      long flushed =
          catalog.commit(
              tx ->
                  tx.flushInlined(
                      events,
                      InlineFlush.of(NewDataFile.parquet("flushed.parquet", 2, 4_096, 512))
                          .withRowDeletes(
                              FlushDeleteFile.parquet("flushed-delete.parquet", 900, 700))));
      CatalogSnapshot after = catalog.snapshotAt(flushed);
      assertTrue(after.inlinedRows(events).rows().isEmpty(), "the flush retires the inlined rows");
      assertEquals(1, after.dataFiles(events).size());
      assertEquals(1, after.deleteFiles(events).size());
      // The flushed file is dated back to the insert. Reading the insert's snapshot finds both
      // rows: in that file for a view loaded now, inlined for the view this catalog kept from
      // before the flush (a view keeps a table's files and inlined rows as it read them).
      CatalogSnapshot atInsert = catalog.snapshotAt(t1);
      long inFiles = atInsert.dataFiles(events).stream().mapToLong(f -> f.recordCount()).sum();
      assertEquals(2, inFiles + atInsert.inlinedRows(events).rows().size());

      // An update of the flushed row 1 (now a data-file row) inlines its new version under id 1.
      catalog.commit(tx -> tx.updateRowInline(events, 1, List.of(2L, "Quito")));
      InlinedRows.Row updated = catalog.snapshot().inlinedRows(events).rows().get(0);
      assertEquals(1L, updated.rowId());
      assertEquals(List.of(2L, "Quito"), updated.typedValues(), "read back as inlined");

      DuckLakeRowSet rows = DuckLakeRowRenderer.render(catalog.snapshotAt(created));
      assertTrue(
          rows.rows("ducklake_table").stream().anyMatch(r -> r.toString().contains("orders")),
          "ducklake_table renders the table");
    }
    try (KvReader reader = provider.openReader(ReaderMode.followLatest());
        ReadOnlyCatalog catalog = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      CatalogSnapshot head = catalog.snapshot();
      assertEquals(1, head.dataFiles(ordersId).size(), "a reader sees what the writer committed");
      assertEquals(2, head.tables().size());
      assertEquals("orders", catalog.snapshotAt(created).table(ordersId).orElseThrow().name());
    }
  }

  /** The README's Maintenance section: merge, expiry, cleanup, orphans and the pass. */
  @Test
  void maintenance() throws Exception {
    Path data = dir.resolve("lakes").resolve("sales").resolve("data");
    Path folder = data.resolve("main").resolve("orders");
    Files.createDirectories(folder);
    try (KvStore store = provider().openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"))) {
      long orders =
          catalog
              .commitReturning(
                  tx -> tx.createTable(0, "orders", List.of(ColumnDef.of("id", "int64"))))
              .value();
      for (int i = 0; i < 6; i++) {
        String name = "part-" + i + ".parquet";
        Files.write(folder.resolve(name), new byte[] {1});
        catalog.commit(
            tx -> tx.registerDataFile(orders, NewDataFile.parquet(name, 1000, 65_536, 4_096)));
      }
      // The README's merge, of files 3, 4 and 5 (the merged file written by the host).
      Files.write(folder.resolve("merged-0.parquet"), new byte[] {2});
      catalog.commit(
          tx ->
              tx.mergeDataFiles(
                  orders,
                  List.of(3L, 4L, 5L),
                  NewDataFile.parquet("merged-0.parquet", 3000, 196_608, 4_096)));
      assertEquals(4, catalog.snapshot().dataFiles(orders).size());
      // The README's rewrite, of file 0 after 400 of its rows were deleted.
      Files.write(folder.resolve("part-0-delete.parquet"), new byte[] {4});
      catalog.commit(
          tx ->
              tx.registerDeleteFile(
                  orders, NewDeleteFile.parquet(0, "part-0-delete.parquet", 400, 8_192, 1_024)));
      Files.write(folder.resolve("rewritten-0.parquet"), new byte[] {5});
      catalog.commit(
          tx ->
              tx.rewriteDataFiles(
                  orders,
                  List.of(0L),
                  NewDataFile.parquet("rewritten-0.parquet", 600, 40_960, 4_096)));
      assertEquals(4, catalog.snapshot().dataFiles(orders).size());
      assertEquals(5600, catalog.snapshot().tableStats(orders).orElseThrow().recordCount());
      ExpiryResult r =
          catalog.expireSnapshots(
              SnapshotExpiry.olderThan(Instant.now().minus(Duration.ofDays(7))));
      assertEquals(List.of(), r.expiredSnapshotIds(), "nothing here is a week old");
      ExpiryResult all = catalog.expireSnapshots(SnapshotExpiry.retainLast(1));
      assertEquals(catalog.head().snapshotId(), all.expiredSnapshotIds().size());
      Files.write(folder.resolve("stray.parquet"), new byte[] {3});
      Files.setLastModifiedTime(
          folder.resolve("stray.parquet"), FileTime.from(Instant.now().minus(Duration.ofDays(2))));
      try (ObjectStoreLakeFiles files =
          ObjectStoreLakeFiles.of(ObjectStoreSpec.localDirectory(data), "")) {
        catalog.cleanupOldFiles(files, FileCleanup.scheduledBefore(Instant.now()));
        assertFalse(Files.exists(folder.resolve("part-3.parquet")), "a merged input is deleted");
        assertFalse(Files.exists(folder.resolve("part-0.parquet")), "a rewritten input is deleted");
        assertTrue(Files.exists(folder.resolve("rewritten-0.parquet")));
        Instant dayAgo = Instant.now().minus(Duration.ofDays(1));
        OrphanResult stray = catalog.deleteOrphanedFiles(files, OrphanSearch.writtenBefore(dayAgo));
        assertEquals(1, stray.orphans().size());
        assertTrue(Files.exists(folder.resolve("stray.parquet")), "a dry run deletes nothing");
        catalog.deleteOrphanedFiles(files, OrphanSearch.writtenBefore(dayAgo).deleting());
        assertFalse(Files.exists(folder.resolve("stray.parquet")));
        // The README's merger writes files (LocalFileMerger); this one passes over every run.
        PassingMerger merger = new PassingMerger();
        catalog.startMaintenance(
            MaintenancePolicy.every(Duration.ofMillis(10))
                .flushingInlinedData(merger)
                .expiringSnapshotsOlderThan(Duration.ofDays(7))
                .mergingSmallFiles(merger, 100_000)
                .rewritingDeletedRows(merger, 0.95)
                .cleaningUpFiles(files, Duration.ofHours(1)));
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (catalog.maintenanceStatus().isEmpty() && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        catalog.stopMaintenance();
        MaintenancePass pass = catalog.maintenanceStatus().get(0);
        assertEquals(MaintenancePass.SCHEDULED, pass.trigger());
        assertEquals(
            List.of("ran", "ran", "ran", "ran", "ran"),
            pass.steps().stream().map(s -> s.status()).toList());
        assertEquals(
            MaintenancePass.MANUAL,
            catalog.runMaintenance(MaintenancePolicy.every(Duration.ofHours(1))).trigger());
      }
    }
  }

  /** A merger and rewriter that leaves every run and group as it is. */
  private static final class PassingMerger implements InlineFlusher, FileMerger, FileRewriter {
    @Override
    public Optional<InlineFlush> flush(CatalogSnapshot snapshot, long tableId) {
      return Optional.empty();
    }

    @Override
    public Optional<NewDataFile> merge(long tableId, List<DataFileInfo> inputs) {
      return Optional.empty();
    }

    @Override
    public Optional<NewDataFile> rewrite(long tableId, List<DataFileInfo> inputs) {
      return Optional.empty();
    }
  }
}
