package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.kv.KvStore;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The contract on named in-memory object stores. */
class InMemoryKvStoreTest extends KvStoreContractTest {

  /** SlateDB recognises its own WAL object on the in-memory store. */
  @Override
  protected LostResponseAnswer lostWalResponseAnswer() {
    return LostResponseAnswer.FLUSH_SUCCEEDS;
  }

  @Override
  protected ObjectStoreSpec newObjectStore() {
    return ObjectStoreSpec.inMemory("contract-" + UUID.randomUUID());
  }

  @Override
  protected void releaseObjectStore(ObjectStoreSpec spec) {
    ObjectStoreSpec.dropInMemory(((ObjectStoreSpec.InMemory) spec).name());
  }

  @Test
  void theSameNameIsTheSameStoreUntilDropped() {
    String name = "named-" + UUID.randomUUID();
    StoreConfig config =
        StoreConfig.of(ObjectStoreSpec.inMemory(name), "db").withSettings(settings());
    try (KvStore store = new SlateStoreProvider(config).openWriter()) {
      putDurably(store, "k", "v");
    }
    try (KvStore store = new SlateStoreProvider(config).openWriter()) {
      assertEquals("v", s(store.get(b("k"))));
    }
    assertTrue(ObjectStoreSpec.dropInMemory(name));
    assertFalse(ObjectStoreSpec.dropInMemory(name));
    try (KvStore store = new SlateStoreProvider(config).openWriter()) {
      assertNull(store.get(b("k")), "a dropped name starts empty");
    }
    ObjectStoreSpec.dropInMemory(name);
  }
}
