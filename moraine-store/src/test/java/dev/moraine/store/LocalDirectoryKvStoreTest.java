package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.kv.KvStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on a local directory (created by the store). */
class LocalDirectoryKvStoreTest extends KvStoreContractTest {
  @TempDir Path temp;

  /** On the local file system SlateDB takes its own WAL object for a newer writer's. */
  @Override
  protected LostResponseAnswer lostWalResponseAnswer() {
    return LostResponseAnswer.FENCE_REPORTED;
  }

  @Override
  protected ObjectStoreSpec newObjectStore() {
    return ObjectStoreSpec.localDirectory(temp.resolve("objects/not-yet-created"));
  }

  @Test
  void objectsAreFilesUnderTheDirectory() throws Exception {
    try (KvStore store = openWriter()) {
      putDurably(store, "k", "v");
    }
    Path root = ((ObjectStoreSpec.LocalDirectory) objectStore()).directory().resolve(storePath());
    assertTrue(Files.isDirectory(root.resolve("manifest")));
    try (Stream<Path> wal = Files.list(root.resolve("wal"))) {
      assertTrue(wal.findAny().isPresent());
    }
    try (KvStore store = openWriter()) {
      assertEquals("v", s(store.get(b("k"))));
    }
  }
}
