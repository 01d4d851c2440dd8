package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.FileMerger;
import dev.moraine.core.catalog.FileRewriter;
import dev.moraine.core.catalog.LakeFiles;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.StoreUnavailableException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.LakeObject;
import dev.moraine.core.catalog.model.MaintenancePass;
import dev.moraine.core.catalog.model.MaintenancePass.Step;
import dev.moraine.core.catalog.model.MaintenancePolicy;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.kv.KvStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintenance pass on real SlateDB with its data path in a local directory: a manual pass runs
 * expiry, the merge of small files and the cleanup, and records itself where a read-only catalog
 * reads it; a failing step is recorded as failed while the others run; the record keeps the 16
 * newest passes; scheduled passes run while a writer commits, and every commit lands.
 */
class MaintenancePassTest {
  private static final Duration HOUR = Duration.ofHours(1);

  @TempDir Path dir;

  private static SlateStoreProvider memory() {
    return new SlateStoreProvider(
        StoreConfig.of(ObjectStoreSpec.inMemory("pass-" + UUID.randomUUID()), "lake"));
  }

  private void write(Path data, String path) {
    try {
      Path p = data.resolve(path);
      Files.createDirectories(p.getParent());
      Files.write(p, path.getBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A merger that writes a stand-in file under the table's folder and describes it. */
  private FileMerger merger(Path data, AtomicInteger merges) {
    return (tableId, inputs) -> {
      String name = "merged-" + merges.incrementAndGet() + ".parquet";
      write(data, "main/t/" + name);
      long rows = inputs.stream().mapToLong(DataFileInfo::recordCount).sum();
      return Optional.of(NewDataFile.parquet(name, rows, 100, 10));
    };
  }

  private long table(Catalog c, Path data, int files) {
    long t =
        c.commitReturning(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "INT32"))))
            .value();
    for (int i = 0; i < files; i++) {
      String name = "f" + i + ".parquet";
      write(data, "main/t/" + name);
      c.commit(tx -> tx.registerDataFile(t, NewDataFile.parquet(name, 10, 100, 10)));
    }
    return t;
  }

  @Test
  void aManualPass_expiresMergesAndCleansUp_andIsRecorded() throws Exception {
    Path data = dir.resolve("data");
    SlateStoreProvider provider = memory();
    try (KvStore store = provider.openWriter();
        Catalog c = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"));
        ObjectStoreLakeFiles files =
            ObjectStoreLakeFiles.of(ObjectStoreSpec.localDirectory(data), "")) {
      long t = table(c, data, 6);
      AtomicInteger merges = new AtomicInteger();
      MaintenancePolicy policy =
          MaintenancePolicy.every(HOUR)
              .keepingNewestSnapshots(1)
              .mergingSmallFiles(merger(data, merges), 100)
              .cleaningUpFiles(files, Duration.ZERO);
      MaintenancePass pass = c.runMaintenance(policy);
      assertEquals(MaintenancePass.MANUAL, pass.trigger());
      assertEquals(
          List.of("flush", "expire", "merge", "rewrite", "cleanup"),
          pass.steps().stream().map(Step::step).toList());
      assertEquals(
          List.of(Step.SKIPPED, Step.RAN, Step.RAN, Step.SKIPPED, Step.RAN),
          pass.steps().stream().map(Step::status).toList(),
          "" + pass);
      assertTrue(
          pass.step("expire").detail().startsWith("expired 7 snapshots"),
          pass.step("expire").detail());
      assertEquals("merged 6 files into 1", pass.step("merge").detail());
      assertEquals("deleted 6 files", pass.step("cleanup").detail());
      List<DataFileInfo> live = c.snapshot().dataFiles(t);
      assertEquals(1, live.size());
      assertEquals("merged-1.parquet", live.get(0).path());
      assertEquals(
          List.of("main/t/merged-1.parquet"),
          files.list().stream().map(LakeObject::path).toList(),
          "the merged inputs' objects are deleted");
      assertEquals(List.of(pass), c.maintenanceStatus());
      try (ReadOnlyCatalog ro = Catalog.openReadOnly(store, CatalogOptions.defaults())) {
        assertEquals(List.of(pass), ro.maintenanceStatus());
      }
      // A second pass finds nothing to merge.
      MaintenancePass second = c.runMaintenance(policy);
      assertEquals("merged 0 files into 0", second.step("merge").detail());
      assertEquals(List.of(second, pass), c.maintenanceStatus());
    }
  }

  /**
   * The rewrite step takes the files whose deleted share reaches the threshold: first file 0 (6 of
   * 10 deleted), leaving file 1's delete file and the statistics as they were; then, at a lower
   * threshold, file 1 (2 of 10), after which no deletion is left and the record count is counted
   * afresh.
   */
  @Test
  void theRewriteStep_rewritesFilesPastTheDeleteThreshold() {
    Path data = dir.resolve("data");
    try (KvStore store = memory().openWriter();
        Catalog c = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"))) {
      long t = table(c, data, 3);
      c.commit(
          tx -> {
            tx.registerDeleteFile(t, NewDeleteFile.parquet(0, "d0.parquet", 6, 10, 1));
            tx.registerDeleteFile(t, NewDeleteFile.parquet(1, "d1.parquet", 2, 10, 1));
          });
      AtomicInteger rewrites = new AtomicInteger();
      FileRewriter rewriter =
          (tableId, inputs) -> {
            String name = "rewritten-" + rewrites.incrementAndGet() + ".parquet";
            write(data, "main/t/" + name);
            long rows = 0;
            for (DataFileInfo in : inputs) {
              long deleted =
                  c.snapshot().deleteFiles(tableId).stream()
                      .filter(d -> d.dataFileId() == in.dataFileId())
                      .mapToLong(d -> d.deleteCount())
                      .sum();
              rows += in.recordCount() - deleted;
            }
            return Optional.of(NewDataFile.parquet(name, rows, 50, 10));
          };
      MaintenancePass pass =
          c.runMaintenance(MaintenancePolicy.every(HOUR).rewritingDeletedRows(rewriter, 0.5));
      assertEquals(Step.RAN, pass.step("rewrite").status());
      assertEquals("rewrote 1 files into 1", pass.step("rewrite").detail());
      assertEquals(
          List.of(1L, 2L, 5L),
          c.snapshot().dataFiles(t).stream().map(f -> f.dataFileId()).toList());
      assertEquals(
          30, c.snapshot().tableStats(t).orElseThrow().recordCount(), "a deletion is left");
      pass = c.runMaintenance(MaintenancePolicy.every(HOUR).rewritingDeletedRows(rewriter, 0.1));
      assertEquals("rewrote 1 files into 1", pass.step("rewrite").detail());
      assertEquals(
          List.of(2L, 5L, 6L),
          c.snapshot().dataFiles(t).stream().map(f -> f.dataFileId()).toList());
      assertEquals(22, c.snapshot().tableStats(t).orElseThrow().recordCount(), "counted afresh");
      pass = c.runMaintenance(MaintenancePolicy.every(HOUR).rewritingDeletedRows(rewriter, 0.1));
      assertEquals("rewrote 0 files into 0", pass.step("rewrite").detail());
    }
  }

  @Test
  void aFailingStep_isRecordedAsFailed_andTheOthersRun() {
    Path data = dir.resolve("data");
    try (KvStore store = memory().openWriter();
        Catalog c = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"))) {
      long t = table(c, data, 3);
      LakeFiles broken =
          new LakeFiles() {
            @Override
            public List<LakeObject> list() {
              return List.of();
            }

            @Override
            public void delete(String path) {
              throw new StoreUnavailableException("the bucket is unreachable");
            }
          };
      MaintenancePass pass =
          c.runMaintenance(
              MaintenancePolicy.every(HOUR)
                  .mergingSmallFiles(merger(data, new AtomicInteger()), 100)
                  .cleaningUpFiles(broken, Duration.ZERO));
      assertEquals(Step.SKIPPED, pass.step("expire").status());
      assertEquals("not configured", pass.step("expire").detail());
      assertEquals(Step.RAN, pass.step("merge").status());
      assertEquals(Step.FAILED, pass.step("cleanup").status());
      assertTrue(
          pass.step("cleanup").detail().contains("unreachable"), pass.step("cleanup").detail());
      assertEquals(3, c.snapshot().scheduledDeletions().size(), "nothing was unscheduled");
      assertEquals(1, c.snapshot().dataFiles(t).size());
    }
  }

  @Test
  void theRecordKeepsTheSixteenNewestPasses() {
    try (KvStore store = memory().openWriter();
        Catalog c = Catalog.open(store, CatalogOptions.defaults())) {
      MaintenancePolicy nothing = MaintenancePolicy.every(HOUR);
      MaintenancePass first = c.runMaintenance(nothing);
      MaintenancePass last = first;
      for (int i = 0; i < 19; i++) {
        last = c.runMaintenance(nothing);
      }
      List<MaintenancePass> status = c.maintenanceStatus();
      assertEquals(16, status.size());
      assertEquals(last, status.get(0), "newest first");
      assertFalse(status.contains(first), "the oldest passes are dropped");
    }
  }

  @Test
  void scheduledPasses_runWhileAWriterCommits() throws Exception {
    Path data = dir.resolve("data");
    try (KvStore store = memory().openWriter();
        Catalog c = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"))) {
      long t = table(c, data, 0);
      c.startMaintenance(MaintenancePolicy.every(Duration.ofMillis(20)).keepingNewestSnapshots(3));
      int commits = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (c.maintenanceStatus().size() < 3 && System.nanoTime() < deadline) {
        int n = commits++;
        c.commit(tx -> tx.registerDataFile(t, NewDataFile.parquet("w" + n + ".parquet", 1, 1, 1)));
      }
      c.stopMaintenance();
      List<MaintenancePass> status = c.maintenanceStatus();
      assertTrue(status.size() >= 3, "passes recorded: " + status.size());
      assertTrue(status.stream().allMatch(p -> p.trigger().equals(MaintenancePass.SCHEDULED)));
      assertTrue(
          status.stream().allMatch(p -> p.step("expire").status().equals(Step.RAN)), "" + status);
      assertEquals(commits, c.snapshot().dataFiles(t).size(), "every commit landed");
      assertTrue(
          status.stream().anyMatch(p -> !p.step("expire").detail().startsWith("expired 0 ")),
          "some pass expired snapshots: " + status);
      int after = c.maintenanceStatus().size();
      Thread.sleep(100);
      assertEquals(after, c.maintenanceStatus().size(), "no pass runs after the schedule stopped");
    }
  }
}
