package dev.moraine.store.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.WalStoreMismatchException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.kv.KvException;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.store.FaultInjector;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A catalog whose write-ahead log lives in an object store of its own: the catalog records the log
 * store at creation, every open checks it, and moving the log goes through two opens after which,
 * at any crash point, the catalog opens with nothing lost.
 */
class WalStoreTest {
  private final String name = "walstore-" + UUID.randomUUID();
  private final List<String> stores = new ArrayList<>();

  @TempDir Path temp;

  private ObjectStoreSpec memory(String suffix) {
    String n = name + suffix;
    stores.add(n);
    return ObjectStoreSpec.inMemory(n);
  }

  private final ObjectStoreSpec main = memory("");
  private final ObjectStoreSpec logA = memory("-log-a");
  private final ObjectStoreSpec logB = memory("-log-b");

  @AfterEach
  void drop() {
    stores.forEach(ObjectStoreSpec::dropInMemory);
  }

  /**
   * How many PUTs a crash test fails: more than the store can retry within its operation bound.
   * SlateDB retries a failed write-out at once and often, so a count in the thousands can run out
   * within the bound, and the "crashed" step then succeeds on a fast machine.
   */
  private static final long UNTIL_CLOSED = 1_000_000_000L;

  private static StoreSettings settings() {
    return StoreSettings.defaults()
        .withManifestPollInterval(Duration.ofMillis(100))
        .withObjectStoreMaxRetries(1)
        .withOperationTimeout(Duration.ofSeconds(20));
  }

  private SlateStoreProvider provider(ObjectStoreSpec store, ObjectStoreSpec log) {
    return new SlateStoreProvider(
        StoreConfig.of(store, "lake").withSettings(settings()).withWalObjectStore(log));
  }

  private SlateStoreProvider provider(ObjectStoreSpec log) {
    return provider(main, log);
  }

  /** Creates the catalog with {@code log} and makes two commits; returns the head. */
  private long create(ObjectStoreSpec log) {
    try (KvStore store = provider(log).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64"))));
      return catalog.commit(tx -> tx.registerDataFile(1, NewDataFile.parquet("f", 5, 100, 10)));
    }
  }

  /** Opens the catalog with {@code log} and returns its head and its file count, or throws. */
  private long[] openWith(ObjectStoreSpec log) {
    try (KvStore store = provider(log).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      return new long[] {catalog.head().snapshotId(), catalog.snapshot().dataFiles(1).size()};
    }
  }

  private WalStoreMismatchException refusedWith(ObjectStoreSpec log) {
    return assertThrows(WalStoreMismatchException.class, () -> openWith(log));
  }

  @Test
  void theLogStore_isRecordedAtCreation_andEveryOpenChecksIt() {
    long head = create(logA);
    assertEquals(head, openWith(logA)[0]);
    WalStoreMismatchException none = refusedWith(null);
    assertEquals(ErrorCode.WAL_STORE_MISMATCH, none.code());
    assertEquals(logA.location(), none.recorded().orElseThrow());
    assertTrue(none.opened().isEmpty());
    assertTrue(none.getMessage().contains(logA.location()), none.getMessage());
    WalStoreMismatchException other = refusedWith(logB);
    assertEquals(logB.location(), other.opened().orElseThrow());
    // A reader is held to the same record.
    try (KvReader reader = provider(logB).openReader(ReaderMode.followLatest())) {
      assertThrows(
          WalStoreMismatchException.class,
          () -> Catalog.openReadOnly(reader, CatalogOptions.defaults()));
    }
    try (KvReader reader = provider(logA).openReader(ReaderMode.followLatest());
        ReadOnlyCatalog seen = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      assertEquals(head, seen.head().snapshotId());
    }
    // The refusals wrote nothing: the recorded store still opens the whole catalog.
    assertEquals(1, openWith(logA)[1]);
  }

  @Test
  void aCatalogWithoutALogStore_openedWithOne_isRefused() {
    create(null);
    WalStoreMismatchException e = refusedWith(logA);
    assertTrue(e.recorded().isEmpty());
    assertEquals(2, openWith(null)[0]);
  }

  @Test
  void theRecord_isInTheStoresOwnObjectStore_fromCreationOn() {
    // Created and closed at once: only the bootstrap. An open without the log store must find the
    // catalog (and refuse), not an empty store to bootstrap again.
    try (KvStore store = provider(logA).openWriter();
        Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      assertTrue(catalog.createdByThisOpen());
    }
    refusedWith(null);
  }

  @Test
  void movingTheLog_thereAndBack_keepsEveryCommit() {
    long head = create(null);
    Catalog.moveWalStore(provider(null), provider(logA));
    assertEquals(head, openWith(logA)[0]);
    refusedWith(null);
    Catalog.moveWalStore(provider(logA), provider(logB));
    long[] seen = openWith(logB);
    assertEquals(head, seen[0]);
    assertEquals(1, seen[1]);
    refusedWith(logA);
    Catalog.moveWalStore(provider(logB), provider(null));
    assertEquals(head, openWith(null)[0]);
    refusedWith(logB);
  }

  @Test
  void aMoveFromAStoreTheCatalogDoesNotRecord_isRefused_andWritesNothing() {
    long head = create(logA);
    assertThrows(
        WalStoreMismatchException.class,
        () -> Catalog.moveWalStore(provider(logB), provider(null)));
    assertThrows(
        InvalidArgumentException.class, () -> Catalog.moveWalStore(provider(logA), provider(logA)));
    assertEquals(head, openWith(logA)[0]);
  }

  @Test
  void aDestinationInsideTheDataPath_isRefusedBeforeAnythingMoves() {
    Path data = temp.resolve("data");
    try (KvStore store = provider(null).openWriter();
        Catalog catalog =
            Catalog.open(store, CatalogOptions.defaults().withDataPath(data.toUri().toString()))) {
      catalog.commit(tx -> tx.createSchema("s"));
    }
    ObjectStoreSpec inside = ObjectStoreSpec.localDirectory(temp.resolve("data").resolve("log"));
    temp.resolve("data").resolve("log").toFile().mkdirs();
    InvalidArgumentException e =
        assertThrows(
            InvalidArgumentException.class,
            () -> Catalog.moveWalStore(provider(null), provider(inside)));
    assertTrue(e.getMessage().contains("inside the lake's data path"), e.getMessage());
    assertEquals(1, openWith(null)[0]);
    // Creating a catalog with a log store inside its data path is refused the same way.
    ObjectStoreSpec other = memory("-other");
    assertThrows(
        InvalidArgumentException.class,
        () -> {
          try (KvStore store = provider(other, inside).openWriter()) {
            Catalog.open(store, CatalogOptions.defaults().withDataPath(data.toString()));
          }
        });
  }

  /**
   * A crash in the second step, before the new log's write is durable (its log PUTs fail): the
   * record still names the old store, which serves everything; the move runs again.
   */
  @Test
  void aCrashBeforeTheNewRecordIsDurable_leavesTheOldStoreServingEverything() {
    long head = create(logA);
    try (FaultInjector faults = new FaultInjector()) {
      faults.failPuts(0, UNTIL_CLOSED, null, false);
      ObjectStoreSpec failing = ObjectStoreSpec.faulty(logB, faults);
      assertThrows(
          RuntimeException.class, () -> Catalog.moveWalStore(provider(logA), provider(failing)));
    }
    long[] seen = openWith(logA);
    assertEquals(head, seen[0]);
    assertEquals(1, seen[1]);
    Catalog.moveWalStore(provider(logA), provider(logB));
    assertEquals(head, openWith(logB)[0]);
  }

  /**
   * A crash in the second step after the new log's write is durable but before it is written out
   * (the store's own sorted-string table PUTs fail): the new store opens the catalog whole, and so,
   * until the move is run again, does the old one.
   */
  @Test
  void aCrashAfterTheNewRecordIsDurable_opensWithTheNewStore() {
    long head = create(logA);
    try (FaultInjector faults = new FaultInjector()) {
      ObjectStoreSpec failingMain = ObjectStoreSpec.faulty(main, faults);
      // The second step's write-out of the memtable is a PUT of a sorted-string table into the
      // store's own object store; fail those, and only those, from the second open on.
      faults.failPuts(0, UNTIL_CLOSED, FaultInjector.COMPACTED, false);
      assertThrows(
          RuntimeException.class,
          () -> Catalog.moveWalStore(provider(logA), provider(failingMain, logB)));
    }
    long[] seen = openWith(logB);
    assertEquals(head, seen[0]);
    assertEquals(1, seen[1]);
  }

  /**
   * A crash in the first step, while the old log is written out: nothing moved, nothing lost. The
   * writer before it did not close (a crash), so its commits are in the log only, and the move's
   * first open has them to write out.
   */
  @Test
  void aCrashWhileTheOldLogIsWrittenOut_leavesEverythingWhereItWas() {
    KvStore crashed = provider(logA).openWriter();
    Catalog catalog = Catalog.open(crashed, CatalogOptions.defaults());
    catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("x", "int64"))));
    long head = catalog.commit(tx -> tx.registerDataFile(1, NewDataFile.parquet("f", 5, 100, 10)));
    try (FaultInjector faults = new FaultInjector()) {
      faults.failPuts(0, UNTIL_CLOSED, FaultInjector.COMPACTED, false);
      ObjectStoreSpec failingMain = ObjectStoreSpec.faulty(main, faults);
      assertThrows(
          RuntimeException.class,
          () -> Catalog.moveWalStore(provider(failingMain, logA), provider(logB)));
    } finally {
      // The crashed writer was fenced by the move's first open; its handles report that.
      try {
        catalog.close();
        crashed.close();
      } catch (MoraineException | KvException fenced) {
        // What it could not flush was in the log already.
      }
    }
    long[] seen = openWith(logA);
    assertEquals(head, seen[0]);
    assertEquals(1, seen[1]);
    refusedWith(logB);
  }
}
