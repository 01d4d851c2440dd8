package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.LakeObject;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.OrphanResult;
import dev.moraine.core.catalog.model.OrphanSearch;
import dev.moraine.core.kv.KvStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file cleanup and the orphan search on a data path in a local directory (the catalog itself in
 * an in-memory store): the shared scenario; files registered while an orphan search deletes stay;
 * and a data path that holds the SlateDB database is refused.
 */
class LocalLakeFilesTest {
  @TempDir Path dir;

  private static SlateStoreProvider memory() {
    return new SlateStoreProvider(
        StoreConfig.of(ObjectStoreSpec.inMemory("files-" + UUID.randomUUID()), "lake"));
  }

  private void write(Path data, String path, byte[] bytes) {
    try {
      Path p = data.resolve(path);
      Files.createDirectories(p.getParent());
      Files.write(p, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void cleanupAndOrphans_onALocalDirectory() throws Exception {
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    try (KvStore store = memory().openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"));
        ObjectStoreLakeFiles files =
            ObjectStoreLakeFiles.of(ObjectStoreSpec.localDirectory(data), "")) {
      LakeFilesScenario.run(catalog, files, (p, b) -> write(data, p, b));
    }
  }

  @Test
  void filesRegisteredWhileAnOrphanSearchDeletes_stay() throws Exception {
    Path data = dir.resolve("data");
    write(data, "old/stray.bin", new byte[] {1});
    Files.setLastModifiedTime(
        data.resolve("old/stray.bin"),
        java.nio.file.attribute.FileTime.from(Instant.now().minusSeconds(7200)));
    Instant threshold = Instant.now().minusSeconds(60);
    try (KvStore store = memory().openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath(data + "/"));
        ObjectStoreLakeFiles files =
            ObjectStoreLakeFiles.of(ObjectStoreSpec.localDirectory(data), "")) {
      long t =
          catalog
              .commitReturning(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "INT32"))))
              .value();
      AtomicBoolean done = new AtomicBoolean();
      List<String> registered = new ArrayList<>();
      Thread writer =
          new Thread(
              () -> {
                for (int i = 0; !done.get() || i < 30; i++) {
                  String name = "w" + i + ".parquet";
                  write(data, "main/t/" + name, new byte[] {2});
                  catalog.commit(tx -> tx.registerDataFile(t, NewDataFile.parquet(name, 1, 1, 1)));
                  registered.add("main/t/" + name);
                }
              });
      writer.start();
      List<String> orphans = new ArrayList<>();
      for (int round = 0; round < 20; round++) {
        OrphanResult r =
            catalog.deleteOrphanedFiles(files, OrphanSearch.writtenBefore(threshold).deleting());
        r.orphans().forEach(o -> orphans.add(o.path()));
      }
      done.set(true);
      writer.join();
      assertEquals(List.of("old/stray.bin"), orphans);
      assertTrue(LakeFilesScenario.paths(files).containsAll(registered));
      assertEquals(Set.copyOf(registered), LakeFilesScenario.paths(files));
    }
  }

  @Test
  void aDataPathHoldingTheDatabase_isRefused() throws Exception {
    Path lake = dir.resolve("lake");
    Files.createDirectories(lake);
    SlateStoreProvider provider =
        new SlateStoreProvider(StoreConfig.of(ObjectStoreSpec.localDirectory(lake), ""));
    try (KvStore store = provider.openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults().withDataPath(lake + "/"));
        ObjectStoreLakeFiles files =
            ObjectStoreLakeFiles.of(ObjectStoreSpec.localDirectory(lake), "")) {
      catalog.commit(tx -> tx.createSchema("s"));
      store.flushWal();
      List<LakeObject> before = files.list();
      var e =
          assertThrows(
              InvalidArgumentException.class,
              () ->
                  catalog.deleteOrphanedFiles(
                      files, OrphanSearch.writtenBefore(Instant.now().plusSeconds(60)).deleting()));
      assertTrue(e.getMessage().contains("SlateDB database"), e.getMessage());
      assertEquals(before.size(), files.list().size(), "nothing was deleted");
    }
  }
}
