package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.commit.CommitRunner;
import dev.moraine.core.keyspace.proto.FormatValue;
import dev.moraine.core.kv.KvOutcomeUnknownException;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.KvTransactionConflictException;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.lake.Bootstrap;
import dev.moraine.core.lake.FormatCheck;
import dev.moraine.core.lake.KvErrors;
import dev.moraine.core.view.CatalogReads;
import dev.moraine.core.view.ReadSource;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opening: the format check, the bootstrap of an empty store and its race (RFC 0003 §2). */
final class CatalogOpener {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogOpener.class);

  /**
   * How many times an open tries to bootstrap when the attempt's outcome is unknown. A conflict
   * needs no retry: the winner's catalog is there to open.
   */
  private static final int BOOTSTRAP_ATTEMPTS = 3;

  private CatalogOpener() {}

  static Catalog openWriter(KvStore store, CatalogOptions options) {
    requireNonNull(store, "store");
    requireNonNull(options, "options");
    boolean created =
        KvErrors.translate("opening the catalog", () -> ensureCatalog(store, options));
    CatalogReads reads = new CatalogReads(ReadSource.of(store), options);
    return new WriterCatalog(reads, new CommitRunner(store, reads), created);
  }

  static ReadOnlyCatalog openReadOnly(KvReader reader, CatalogOptions options) {
    requireNonNull(reader, "reader");
    requireNonNull(options, "options");
    return openReadOnly(ReadSource.of(reader), options);
  }

  static ReadOnlyCatalog openReadOnly(KvStore store, CatalogOptions options) {
    requireNonNull(store, "store");
    requireNonNull(options, "options");
    return openReadOnly(ReadSource.of(store), options);
  }

  private static ReadOnlyCatalog openReadOnly(ReadSource source, CatalogOptions options) {
    KvErrors.translate(
        "opening the catalog read-only",
        () ->
            source.consistent(
                v -> {
                  if (FormatCheck.validate(v).isEmpty()) {
                    throw new NotFoundException(
                        ErrorCode.NOT_INITIALIZED,
                        "the store holds no catalog (no format stamp); open it as a writer to"
                            + " create one");
                  }
                  return CatalogReads.readHead(v);
                }));
    return new ReadOnlyStoreCatalog(new CatalogReads(source, options));
  }

  /**
   * Validates the store and bootstraps it when empty; true when this call wrote the bootstrap.
   *
   * <p>The race: the bootstrap transaction reads the format stamp and then puts the five records,
   * {@code sys/head} among them. SlateDB's snapshot-isolation transactions refuse a commit whose
   * written keys another transaction wrote after this one began, so of two bootstraps that both saw
   * an empty store, the second to commit fails with a conflict and writes nothing; it then re-reads
   * and validates what the winner wrote. A bootstrap whose outcome is unknown is re-read the same
   * way: a complete catalog means it (or a racer) landed, an empty store means try again.
   */
  private static boolean ensureCatalog(KvStore store, CatalogOptions options) {
    for (int attempt = 1; ; attempt++) {
      try (KvTransaction tx = store.begin()) {
        Optional<FormatValue> format = FormatCheck.validate(tx);
        if (format.isPresent()) {
          CatalogReads.readHead(tx);
          return false;
        }
        WriteBatch batch = Bootstrap.batch(options, nowMicros(), UUID.randomUUID().toString());
        tx.putAll(batch);
        try {
          tx.commit();
        } catch (KvTransactionConflictException lost) {
          LOG.debug("another open created the catalog first; opening its catalog");
          return revalidate(store);
        }
        // The open returns a durable catalog: flush the write-ahead log, which makes every write
        // applied so far durable (the store's flush timer may be off).
        store.flushWal();
        LOG.info(
            "created a catalog (format {}, encrypted {}, data path {})",
            Bootstrap.FORMAT_VERSION,
            options.encrypted(),
            options.dataPath().orElse("none"));
        return true;
      } catch (KvOutcomeUnknownException unknown) {
        if (attempt >= BOOTSTRAP_ATTEMPTS) {
          throw unknown;
        }
        LOG.warn("creating the catalog had an unknown outcome (attempt {}); re-reading", attempt);
        if (ReadSource.of(store).consistent(v -> FormatCheck.validate(v).isPresent())) {
          revalidate(store);
          return false;
        }
      }
    }
  }

  /** After a lost race: the store must now hold a valid catalog. */
  private static boolean revalidate(KvStore store) {
    ReadSource.of(store)
        .consistent(
            v -> {
              if (FormatCheck.validate(v).isEmpty()) {
                throw new CorruptionException(
                    "a racing open won the bootstrap, yet the store holds no format stamp");
              }
              return CatalogReads.readHead(v);
            });
    return false;
  }

  private static long nowMicros() {
    Instant now = Clock.systemUTC().instant();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000L;
  }

  private static void requireNonNull(Object o, String name) {
    if (o == null) {
      throw new InvalidArgumentException(name + " must not be null");
    }
  }

  /** The writer catalog: reads, and commits through the commit loop. */
  private static final class WriterCatalog implements Catalog {
    private final CatalogReads reads;
    private final CommitRunner commits;
    private final boolean created;

    WriterCatalog(CatalogReads reads, CommitRunner commits, boolean created) {
      this.reads = reads;
      this.commits = commits;
      this.created = created;
    }

    @Override
    public long commit(CommitBody body) {
      if (body == null) {
        throw new InvalidArgumentException("the commit body must not be null");
      }
      return commits.commit(new TransactionRun(body));
    }

    @Override
    public boolean createdByThisOpen() {
      return created;
    }

    @Override
    public Head head() {
      return reads.head();
    }

    @Override
    public CatalogSnapshot snapshot() {
      return CatalogSnapshot.of(reads.snapshot());
    }

    @Override
    public CatalogSnapshot snapshotAt(long snapshotId) {
      return CatalogSnapshot.of(reads.snapshotAt(snapshotId));
    }

    @Override
    public CatalogSnapshot snapshotAsOf(Instant instant) {
      return CatalogSnapshot.of(reads.snapshotAsOf(instant));
    }

    @Override
    public void close() {
      reads.close();
    }
  }

  /** The read-only catalog: a separate class, so no cast can reach a commit method. */
  private static final class ReadOnlyStoreCatalog implements ReadOnlyCatalog {
    private final CatalogReads reads;

    ReadOnlyStoreCatalog(CatalogReads reads) {
      this.reads = reads;
    }

    @Override
    public Head head() {
      return reads.head();
    }

    @Override
    public CatalogSnapshot snapshot() {
      return CatalogSnapshot.of(reads.snapshot());
    }

    @Override
    public CatalogSnapshot snapshotAt(long snapshotId) {
      return CatalogSnapshot.of(reads.snapshotAt(snapshotId));
    }

    @Override
    public CatalogSnapshot snapshotAsOf(Instant instant) {
      return CatalogSnapshot.of(reads.snapshotAsOf(instant));
    }

    @Override
    public void close() {
      reads.close();
    }
  }
}
