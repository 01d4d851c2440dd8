package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.LakeFiles;
import dev.moraine.core.catalog.model.CleanupResult;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.FileCleanup;
import dev.moraine.core.catalog.model.LakeObject;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.OrphanResult;
import dev.moraine.core.catalog.model.OrphanSearch;
import dev.moraine.core.catalog.model.ScheduledDeletion;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * The file cleanup and the orphan search on one lake, for any object store: a table whose files are
 * written to the data path and registered, two of them merged (so scheduled), two stray objects;
 * then cleanup, a repeated cleanup, a cleanup after a crash between an object's delete and its
 * record's, and the orphan search dry and deleting. Checks that no object a snapshot references is
 * ever deleted.
 */
public final class LakeFilesScenario {
  private LakeFilesScenario() {}

  private static NewDataFile file(String name, long rows) {
    return NewDataFile.parquet(name, rows, 100, 10);
  }

  /**
   * Runs the scenario on {@code catalog}, whose data path {@code files} reaches; {@code write} puts
   * an object at a path relative to the data path.
   */
  public static void run(Catalog catalog, LakeFiles files, BiConsumer<String, byte[]> write)
      throws InterruptedException {
    long t =
        catalog
            .commitReturning(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "INT32"))))
            .value();
    for (int i = 0; i < 3; i++) {
      String name = "f" + i + ".parquet";
      write.accept("main/t/" + name, bytes(name));
      catalog.commit(tx -> tx.registerDataFile(t, file(name, 10)));
    }
    write.accept("main/t/m.parquet", bytes("m"));
    catalog.commit(tx -> tx.mergeDataFiles(t, List.of(0L, 1L), file("m.parquet", 20)));
    write.accept("main/t/stray.parquet", bytes("stray"));
    write.accept("other/junk.bin", bytes("junk"));
    // Object stores that keep times to the second need the strays to be a second older than the
    // search's threshold.
    Thread.sleep(1_100);
    Instant afterStrays = Instant.now();
    Set<String> referenced = Set.of("main/t/f2.parquet", "main/t/m.parquet");

    CleanupResult dry = catalog.cleanupOldFiles(files, FileCleanup.all().dryRun());
    assertEquals(List.of(0L, 1L), ids(dry.deleted()));
    assertTrue(paths(files).containsAll(Set.of("main/t/f0.parquet", "main/t/f1.parquet")));
    assertEquals(2, catalog.snapshot().scheduledDeletions().size(), "a dry run writes nothing");

    CleanupResult none = catalog.cleanupOldFiles(files, FileCleanup.scheduledBefore(Instant.EPOCH));
    assertEquals(List.of(), none.deleted());

    CleanupResult done = catalog.cleanupOldFiles(files, FileCleanup.scheduledBefore(Instant.now()));
    assertEquals(List.of(0L, 1L), ids(done.deleted()));
    assertEquals(1, done.batches());
    assertEquals(List.of(), catalog.snapshot().scheduledDeletions());
    Set<String> left = paths(files);
    assertFalse(
        left.contains("main/t/f0.parquet") || left.contains("main/t/f1.parquet"), "" + left);
    assertTrue(left.containsAll(referenced), "" + left);
    assertEquals(0, catalog.cleanupOldFiles(files, FileCleanup.all()).batches(), "nothing left");

    // A crash after an object's delete and before its record's: the next cleanup finds the object
    // gone and removes the record.
    write.accept("main/t/n.parquet", bytes("n"));
    catalog.commit(tx -> tx.mergeDataFiles(t, List.of(2L, 3L), file("n.parquet", 30)));
    files.delete("main/t/f2.parquet");
    CleanupResult again = catalog.cleanupOldFiles(files, FileCleanup.all());
    assertEquals(List.of(2L, 3L), ids(again.deleted()));
    assertEquals(List.of(), catalog.snapshot().scheduledDeletions());
    assertEquals(
        Set.of("main/t/n.parquet", "main/t/stray.parquet", "other/junk.bin"), paths(files));

    OrphanResult young =
        catalog.deleteOrphanedFiles(
            files, OrphanSearch.writtenBefore(afterStrays.minusSeconds(3600)));
    assertEquals(
        List.of(), young.orphans(), "objects younger than the threshold are never orphans");
    OrphanResult found =
        catalog.deleteOrphanedFiles(files, OrphanSearch.writtenBefore(afterStrays));
    assertFalse(found.deleted());
    assertEquals(
        List.of("main/t/stray.parquet", "other/junk.bin"),
        found.orphans().stream().map(LakeObject::path).toList());
    assertEquals(3, paths(files).size(), "a search without deleting() deletes nothing");
    OrphanResult deleted =
        catalog.deleteOrphanedFiles(files, OrphanSearch.writtenBefore(afterStrays).deleting());
    assertTrue(deleted.deleted());
    assertEquals(2, deleted.orphans().size());
    assertEquals(Set.of("main/t/n.parquet"), paths(files), "the live file stays");
  }

  private static List<Long> ids(List<ScheduledDeletion> deletions) {
    return deletions.stream().map(ScheduledDeletion::dataFileId).sorted().toList();
  }

  static Set<String> paths(LakeFiles files) {
    Set<String> out = new TreeSet<>();
    for (LakeObject o : files.list()) {
      out.add(o.path());
    }
    return out;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
