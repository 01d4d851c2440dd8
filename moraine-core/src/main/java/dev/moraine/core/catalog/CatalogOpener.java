package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.CleanupResult;
import dev.moraine.core.catalog.model.ExpiryResult;
import dev.moraine.core.catalog.model.FileCleanup;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.catalog.model.MaintenancePass;
import dev.moraine.core.catalog.model.MaintenancePolicy;
import dev.moraine.core.catalog.model.OrphanResult;
import dev.moraine.core.catalog.model.OrphanSearch;
import dev.moraine.core.catalog.model.SnapshotExpiry;
import dev.moraine.core.commit.CommitPath;
import dev.moraine.core.commit.CommitSettings;
import dev.moraine.core.commit.CommitWork;
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
import dev.moraine.core.lake.WalStoreRecord;
import dev.moraine.core.maintenance.FileCleaner;
import dev.moraine.core.maintenance.MaintenanceRunner;
import dev.moraine.core.maintenance.MaintenanceStatusRecord;
import dev.moraine.core.maintenance.SnapshotExpirer;
import dev.moraine.core.view.CatalogReads;
import dev.moraine.core.view.ReadSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
    Optional<Duration> timer = KvErrors.translate("opening the catalog", store::flushTimer);
    if (timer.isPresent()) {
      throw new InvalidArgumentException(
          "the store flushes its write-ahead log on a timer of its own (every "
              + timer.get().toMillis()
              + " ms); a writer catalog paces the flushes itself (CatalogOptions.flushSpacing):"
              + " open the store with its flush timer off (StoreSettings.withFlushTimerOff())");
    }
    boolean created =
        KvErrors.translate("opening the catalog", () -> ensureCatalog(store, options));
    CatalogReads reads = new CatalogReads(ReadSource.of(store), options, true);
    CommitPath path = new CommitPath(store, reads, settings(options));
    return new WriterCatalog(reads, path, store, created, options);
  }

  private static CommitSettings settings(CatalogOptions options) {
    return new CommitSettings(
        options.flushSpacing(),
        options.publishCheckpoints(),
        options.checkpointLifetime(),
        options.maxBatchMembers(),
        options.stallReport());
  }

  static ReadOnlyCatalog openReadOnly(KvReader reader, CatalogOptions options) {
    requireNonNull(reader, "reader");
    requireNonNull(options, "options");
    return openReadOnly(ReadSource.of(reader), options, reader.walStore());
  }

  static ReadOnlyCatalog openReadOnly(KvStore store, CatalogOptions options) {
    requireNonNull(store, "store");
    requireNonNull(options, "options");
    return openReadOnly(ReadSource.of(store), options, store.walStore());
  }

  private static ReadOnlyCatalog openReadOnly(
      ReadSource source, CatalogOptions options, Optional<String> walStore) {
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
                  WalStoreRecord.check(v, walStore);
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
    Optional<String> walStore = store.walStore();
    if (walStore.isPresent()
        && options.dataPath().isPresent()
        && WalStoreRecord.inside(walStore.get(), options.dataPath().get())) {
      throw new InvalidArgumentException(
          "the write-ahead-log store "
              + walStore.get()
              + " lies inside the lake's data path "
              + options.dataPath().get()
              + ", where a cleanup of unreferenced files would delete the log");
    }
    for (int attempt = 1; ; attempt++) {
      try (KvTransaction tx = store.begin()) {
        Optional<FormatValue> format = FormatCheck.validate(tx);
        if (format.isPresent()) {
          WalStoreRecord.check(tx, walStore);
          CatalogReads.readHead(tx);
          return false;
        }
        WriteBatch batch =
            Bootstrap.batch(options, nowMicros(), UUID.randomUUID().toString(), walStore);
        tx.putAll(batch);
        try {
          tx.commit();
        } catch (KvTransactionConflictException lost) {
          LOG.debug("another open created the catalog first; opening its catalog");
          return revalidate(store);
        }
        // The open returns a durable catalog: flush the write-ahead log, which makes every write
        // applied so far durable (the writer's flush timer is off). A flush that fails leaves the
        // bootstrap's durability unknown, and the open fails (opening again finds out).
        store.flushWal();
        if (walStore.isPresent()) {
          // The record of the log store must not live only in that log: an open handed the
          // wrong log, or none, would find no catalog and bootstrap a second one over this one.
          store.flushMemtable();
        }
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
          // A catalog is there, but perhaps only in memory: it is opened only once a flush after
          // it succeeded, which makes everything applied before durable.
          store.flushWal();
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
              WalStoreRecord.check(v, store.walStore());
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

  /** The writer catalog: reads, and commits through its commit path. */
  private static final class WriterCatalog implements Catalog {
    private final CatalogReads reads;
    private final CommitPath commits;
    private final SnapshotExpirer expirer;
    private final FileCleaner cleaner;
    private final MaintenanceRunner maintenance;
    private final boolean created;

    /** What the verbs of this catalog's commits read of its options. */
    private final CatalogOptions options;

    WriterCatalog(
        CatalogReads reads,
        CommitPath commits,
        KvStore store,
        boolean created,
        CatalogOptions options) {
      this.reads = reads;
      this.options = options;
      this.commits = commits;
      this.expirer = new SnapshotExpirer(reads, commits);
      this.cleaner = new FileCleaner(reads, commits);
      this.maintenance = new MaintenanceRunner(this, store);
      this.created = created;
    }

    @Override
    public ExpiryResult expireSnapshots(SnapshotExpiry expiry) {
      reads.ensureOpen();
      return expirer.expire(expiry);
    }

    @Override
    public CleanupResult cleanupOldFiles(LakeFiles files, FileCleanup cleanup) {
      reads.ensureOpen();
      return cleaner.cleanup(files, cleanup);
    }

    @Override
    public OrphanResult deleteOrphanedFiles(LakeFiles files, OrphanSearch search) {
      reads.ensureOpen();
      return cleaner.orphans(files, search);
    }

    @Override
    public void startMaintenance(MaintenancePolicy policy) {
      reads.ensureOpen();
      maintenance.start(policy);
    }

    @Override
    public void stopMaintenance() {
      maintenance.stop();
    }

    @Override
    public MaintenancePass runMaintenance(MaintenancePolicy policy) {
      reads.ensureOpen();
      if (policy == null) {
        throw new InvalidArgumentException("the maintenance policy must not be null");
      }
      return maintenance.run(policy, MaintenancePass.MANUAL);
    }

    @Override
    public List<MaintenancePass> maintenanceStatus() {
      return reads.load("reading the maintenance status", MaintenanceStatusRecord::read);
    }

    @Override
    public List<Long> lookupIndex(long tableId, String indexName, List<?> values) {
      return IndexLookups.rows(reads, tableId, indexName, values);
    }

    @Override
    public long commit(CommitBody body) {
      if (body == null) {
        throw new InvalidArgumentException("the commit body must not be null");
      }
      return commits.commit(List.of(new TransactionRun(body, options))).get(0);
    }

    @Override
    public long commitStaged(StagedRows rows) {
      if (rows == null) {
        throw new InvalidArgumentException("the staged rows must not be null");
      }
      java.util.Optional<List<Long>> expired =
          dev.moraine.core.verb.StagedExpiry.expiredSnapshots(rows);
      if (expired.isPresent()) {
        // Head-preserving: the lake's expiry of those snapshots, run against the head it lands
        // on, re-derives what stock removes with them.
        expireSnapshots(SnapshotExpiry.ids(expired.get()));
        return reads.head().snapshotId();
      }
      java.util.Optional<List<Long>> cleaned =
          dev.moraine.core.verb.StagedExpiry.cleanedFiles(rows);
      if (cleaned.isPresent()) {
        // Head-preserving: DuckLake deleted the files; their schedule records still held go.
        reads.ensureOpen();
        cleaner.forgetDeleted(cleaned.get());
        return reads.head().snapshotId();
      }
      return commits.commit(List.of(new StagedRun(rows, options))).get(0);
    }

    @Override
    public List<Long> commitGroup(List<CommitBody> bodies) {
      if (bodies == null || bodies.isEmpty()) {
        throw new InvalidArgumentException("a commit group needs at least one body");
      }
      List<CommitWork> works = new ArrayList<>(bodies.size());
      for (CommitBody body : bodies) {
        if (body == null) {
          throw new InvalidArgumentException("a commit group's bodies must not be null");
        }
        works.add(new TransactionRun(body, options));
      }
      return commits.commit(works);
    }

    @Override
    public CommitStatistics commitStatistics() {
      return new CommitStatistics(
          commits.acknowledged(), commits.flushes(), commits.publications());
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
      // The maintenance schedule first (a running pass ends on its commit path), then commits:
      // the path finishes or fails every pending commit, then the reads go.
      maintenance.stop();
      commits.close();
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
    public List<MaintenancePass> maintenanceStatus() {
      return reads.load("reading the maintenance status", MaintenanceStatusRecord::read);
    }

    @Override
    public List<Long> lookupIndex(long tableId, String indexName, List<?> values) {
      return IndexLookups.rows(reads, tableId, indexName, values);
    }

    @Override
    public void close() {
      reads.close();
    }
  }
}
