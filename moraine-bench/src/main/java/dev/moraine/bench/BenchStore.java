package dev.moraine.bench;

import dev.moraine.core.kv.KvStore;
import dev.moraine.store.FaultInjector;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.UUID;

/**
 * A writer opened on a fresh, empty object store for one benchmark trial, and what it takes to
 * remove it again. The flush timer is off, so durability comes only from explicit WAL flushes;
 * every other setting is the store's default.
 */
final class BenchStore implements AutoCloseable {

  /** The object stores the benchmarks compare. */
  enum Kind {
    /** A named in-memory object store in this process. */
    MEMORY,
    /** A directory under the system temp directory; every write fsynced (the default). */
    LOCAL,
    /** The same without fsync: writes reach the page cache only. */
    LOCAL_NO_FSYNC,
    /** The in-memory store with 25 ms added to every PUT, as a remote object store costs. */
    MEMORY_PUT_25MS,
    /**
     * An S3-compatible server (S3Proxy in the scripts) named by the system properties {@code
     * moraine.bench.s3.endpoint}, {@code .bucket}, {@code .access-key} and {@code .secret-key};
     * each trial writes under a prefix of its own.
     */
    S3,
    /** The same with 25 ms added to every PUT. */
    S3_PUT_25MS;

    static Kind parse(String name) {
      return switch (name) {
        case "memory" -> MEMORY;
        case "local" -> LOCAL;
        case "local-nofsync" -> LOCAL_NO_FSYNC;
        case "memory-put25ms" -> MEMORY_PUT_25MS;
        case "s3" -> S3;
        case "s3-put25ms" -> S3_PUT_25MS;
        default -> throw new IllegalArgumentException("unknown object store " + name);
      };
    }
  }

  private final KvStore store;
  private final String memoryName;
  private final Path directory;

  private BenchStore(KvStore store, String memoryName, Path directory) {
    this.store = store;
    this.memoryName = memoryName;
    this.directory = directory;
  }

  /** Opens a writer on a new empty store of {@code kind}. */
  /**
   * The store of a lake in the local directory {@code dir}, without fsync and with SlateDB's own
   * flush timer off, as the benchmarks that compare with the Rust implementation open it (its local
   * object store does not fsync).
   */
  static SlateStoreProvider localWithoutFsync(Path dir) {
    return new SlateStoreProvider(
        StoreConfig.of(new ObjectStoreSpec.LocalDirectory(dir).withoutFsync(), "")
            .withSettings(StoreSettings.defaults().withFlushTimerOff()));
  }

  static BenchStore open(Kind kind) {
    return open(kind, null);
  }

  /**
   * Opens a writer on a new empty store named as {@link Kind#parse} reads it, seen through {@code
   * injector} (which then counts its operations; a store with added latency needs one).
   */
  static BenchStore open(String kind, FaultInjector injector) {
    return open(Kind.parse(kind), injector);
  }

  private static ObjectStoreSpec counted(ObjectStoreSpec spec, FaultInjector injector) {
    return injector == null ? spec : ObjectStoreSpec.faulty(spec, injector);
  }

  private static BenchStore open(Kind kind, FaultInjector injector) {
    StoreSettings settings = StoreSettings.defaults().withFlushTimerOff();
    switch (kind) {
      case MEMORY, MEMORY_PUT_25MS -> {
        String name = "bench-" + UUID.randomUUID();
        ObjectStoreSpec spec = counted(ObjectStoreSpec.inMemory(name), injector);
        if (kind == Kind.MEMORY_PUT_25MS) {
          addPutLatency(injector);
        }
        KvStore store =
            new SlateStoreProvider(StoreConfig.of(spec, "bench").withSettings(settings))
                .openWriter();
        return new BenchStore(store, name, null);
      }
      case LOCAL, LOCAL_NO_FSYNC -> {
        Path dir;
        try {
          dir = Files.createTempDirectory("moraine-bench-");
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        ObjectStoreSpec.LocalDirectory local = ObjectStoreSpec.localDirectory(dir);
        ObjectStoreSpec spec = counted(kind == Kind.LOCAL ? local : local.withoutFsync(), injector);
        KvStore store =
            new SlateStoreProvider(StoreConfig.of(spec, "bench").withSettings(settings))
                .openWriter();
        return new BenchStore(store, null, dir);
      }
      case S3, S3_PUT_25MS -> {
        ObjectStoreSpec spec =
            counted(
                ObjectStoreSpec.s3(
                    property("endpoint"),
                    property("bucket"),
                    "bench-" + UUID.randomUUID(),
                    "us-east-1",
                    property("access-key"),
                    property("secret-key"),
                    true),
                injector);
        if (kind == Kind.S3_PUT_25MS) {
          addPutLatency(injector);
        }
        KvStore store =
            new SlateStoreProvider(StoreConfig.of(spec, "bench").withSettings(settings))
                .openWriter();
        return new BenchStore(store, null, null);
      }
      default -> throw new IllegalArgumentException(kind.toString());
    }
  }

  private static void addPutLatency(FaultInjector injector) {
    if (injector == null) {
      throw new IllegalArgumentException("a store with added latency needs an injector");
    }
    injector.latency(Duration.ofMillis(25), Duration.ZERO);
  }

  private static String property(String name) {
    String value = System.getProperty("moraine.bench.s3." + name);
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(
          "an s3 store needs the system property moraine.bench.s3." + name);
    }
    return value;
  }

  /** The writer. */
  KvStore store() {
    return store;
  }

  /** Closes the writer and removes the store's objects. */
  @Override
  public void close() {
    try {
      store.close();
    } finally {
      if (memoryName != null) {
        ObjectStoreSpec.dropInMemory(memoryName);
      }
      if (directory != null) {
        deleteTree(directory);
      }
    }
  }

  /** Removes {@code dir} and everything below it. */
  static void deleteTree(Path dir) {
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              Files.deleteIfExists(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
