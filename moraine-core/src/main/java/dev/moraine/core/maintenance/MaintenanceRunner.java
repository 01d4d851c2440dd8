package dev.moraine.core.maintenance;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.CompactionInputNotLiveException;
import dev.moraine.core.catalog.IndexedTableException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.CleanupResult;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.ExpiryResult;
import dev.moraine.core.catalog.model.FileCleanup;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.InlinedFileDelete;
import dev.moraine.core.catalog.model.MaintenancePass;
import dev.moraine.core.catalog.model.MaintenancePass.Step;
import dev.moraine.core.catalog.model.MaintenancePolicy;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.SnapshotExpiry;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.kv.KvStore;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance pass (RFC 0005 §5): the steps a {@link MaintenancePolicy} configures, in stock
 * DuckLake's order (flush, expire, merge, rewrite, cleanup), each through the catalog's own methods
 * and so through its commit path, then the pass recorded in {@code sys/maintenance_status}. A step
 * that fails is recorded as failed and the next one still runs: each is safe to repeat and to run
 * in any order.
 *
 * <p>Scheduled passes run on one daemon thread of their own ({@code moraine-maintenance-<n>}), one
 * after the other, each {@link MaintenancePolicy#interval()} after the previous one ended. Guarded
 * by this: the scheduler. A manual pass may run beside a scheduled one: the expiry and the cleanup
 * serialise themselves, and merges race as any two commits do.
 */
public final class MaintenanceRunner {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceRunner.class);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final Catalog catalog;
  private final KvStore store;
  private ScheduledExecutorService scheduler;

  public MaintenanceRunner(Catalog catalog, KvStore store) {
    this.catalog = catalog;
    this.store = store;
  }

  /**
   * Starts scheduled passes under {@code policy}, replacing any schedule running; the first pass
   * starts one interval from now.
   */
  public synchronized void start(MaintenancePolicy policy) {
    if (policy == null) {
      throw new InvalidArgumentException("the maintenance policy must not be null");
    }
    stop();
    ScheduledExecutorService s =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "moraine-maintenance-" + THREADS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    long every = policy.interval().toNanos();
    s.scheduleWithFixedDelay(
        () -> {
          try {
            run(policy, MaintenancePass.SCHEDULED);
          } catch (RuntimeException e) {
            // Only the status write can throw here, and it was logged: the schedule goes on.
            LOG.debug("a scheduled maintenance pass ended with {}", e.toString());
          }
        },
        every,
        every,
        TimeUnit.NANOSECONDS);
    scheduler = s;
  }

  /**
   * Stops the schedule: no pass starts after this, and a pass that is running is waited for (up to
   * a minute; it then goes on alone and its status write may fail once the catalog closes).
   */
  public synchronized void stop() {
    if (scheduler == null) {
      return;
    }
    scheduler.shutdown();
    try {
      if (!scheduler.awaitTermination(1, TimeUnit.MINUTES)) {
        LOG.warn("a maintenance pass was still running a minute after the schedule was stopped");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    scheduler = null;
  }

  /** Runs one pass under {@code policy} now, records it, and returns it. */
  public MaintenancePass run(MaintenancePolicy policy, String trigger) {
    // To the microsecond, as the record keeps it.
    Instant started = Clock.systemUTC().instant().truncatedTo(ChronoUnit.MICROS);
    List<Step> steps = new ArrayList<>();
    steps.add(step("flush", () -> flush(policy)));
    steps.add(step("expire", () -> expire(policy)));
    steps.add(step("merge", () -> merge(policy)));
    steps.add(step("rewrite", () -> rewrite(policy)));
    steps.add(step("cleanup", () -> cleanup(policy)));
    MaintenancePass pass = new MaintenancePass(started, trigger, steps);
    try {
      MaintenanceStatusRecord.append(store, pass);
    } catch (MoraineException e) {
      LOG.warn("a maintenance pass ran but its status could not be recorded: {}", e.getMessage());
      throw e;
    }
    return pass;
  }

  private interface StepBody {
    /** What the step did, or empty when it is not configured. */
    Optional<String> run();
  }

  private static Step step(String name, StepBody body) {
    try {
      Optional<String> did = body.run();
      return did.isPresent()
          ? new Step(name, Step.RAN, did.get())
          : new Step(name, Step.SKIPPED, "not configured");
    } catch (RuntimeException e) {
      LOG.warn("maintenance step {} failed: {}", name, e.toString());
      return new Step(name, Step.FAILED, String.valueOf(e.getMessage()));
    }
  }

  private Optional<String> flush(MaintenancePolicy policy) {
    if (policy.flusher().isEmpty()) {
      return Optional.empty();
    }
    CatalogSnapshot head = catalog.snapshot();
    Set<Long> withDeletes = new HashSet<>();
    for (InlinedFileDelete d : head.history().inlinedFileDeletes()) {
      withDeletes.add(d.tableId());
    }
    int flushed = 0;
    int left = 0;
    for (TableInfo table : head.tables()) {
      long tableId = table.tableId();
      if (!withDeletes.contains(tableId) && head.history().inlinedRows(tableId).isEmpty()) {
        continue;
      }
      Optional<InlineFlush> files = policy.flusher().get().flush(head, tableId);
      if (files.isEmpty()) {
        left++;
        continue;
      }
      try {
        catalog.commit(tx -> tx.flushInlined(tableId, files.get()));
        flushed++;
      } catch (CommitConflictException
          | InvalidArgumentException
          | NotFoundException
          | IndexedTableException e) {
        // A concurrent inline delete or flush of the table, its drop, an index on it (RFC 0002
        // §10.1: entries are not maintained here), or inlined data this
        // library's flush cannot take (an inline update's second row version): the next pass
        // tries again from what it left. The written files are then orphans for the orphan search.
        left++;
      }
    }
    return Optional.of(
        "flushed "
            + flushed
            + " tables"
            + (left == 0 ? "" : "; " + left + " left for a later pass"));
  }

  private Optional<String> expire(MaintenancePolicy policy) {
    SnapshotExpiry expiry;
    if (policy.retention().isPresent()) {
      expiry =
          SnapshotExpiry.olderThan(Clock.systemUTC().instant().minus(policy.retention().get()));
    } else if (policy.keptSnapshots().isPresent()) {
      expiry = SnapshotExpiry.retainLast(policy.keptSnapshots().getAsInt());
    } else {
      return Optional.empty();
    }
    ExpiryResult r = catalog.expireSnapshots(expiry);
    return Optional.of(
        "expired "
            + r.expiredSnapshotIds().size()
            + " snapshots, removed "
            + r.recordsRemoved()
            + " records, scheduled "
            + r.scheduledFileIds().size()
            + " files, in "
            + r.batches()
            + " batches");
  }

  private Optional<String> merge(MaintenancePolicy policy) {
    if (policy.merger().isEmpty()) {
      return Optional.empty();
    }
    CatalogSnapshot head = catalog.snapshot();
    Map<Long, Set<Long>> inlineDeleted = new HashMap<>();
    for (InlinedFileDelete d : head.history().inlinedFileDeletes()) {
      inlineDeleted.computeIfAbsent(d.tableId(), t -> new HashSet<>()).add(d.dataFileId());
    }
    int[] counts =
        compact(
            head,
            tableId ->
                SmallFileRuns.of(
                    head,
                    tableId,
                    inlineDeleted.getOrDefault(tableId, Set.of()),
                    policy.smallFileRecords(),
                    policy.maxMergeInputs()),
            policy.merger().get()::merge,
            Transaction::mergeDataFiles);
    return Optional.of(
        "merged "
            + counts[0]
            + " files into "
            + counts[1]
            + (counts[2] == 0 ? "" : "; " + counts[2] + " runs left for a later pass"));
  }

  private Optional<String> rewrite(MaintenancePolicy policy) {
    if (policy.rewriter().isEmpty()) {
      return Optional.empty();
    }
    CatalogSnapshot head = catalog.snapshot();
    int[] counts =
        compact(
            head,
            tableId -> DeletedRowGroups.of(head, tableId, policy.deleteThreshold(), 1_000),
            policy.rewriter().get()::rewrite,
            Transaction::rewriteDataFiles);
    return Optional.of(
        "rewrote "
            + counts[0]
            + " files into "
            + counts[1]
            + (counts[2] == 0 ? "" : "; " + counts[2] + " groups left for a later pass"));
  }

  /** Writes the file of a group of inputs, or passes over the group. */
  private interface GroupWriter {
    Optional<NewDataFile> write(long tableId, List<DataFileInfo> inputs);
  }

  /** Registers a group's file: {@code mergeDataFiles} or {@code rewriteDataFiles}. */
  private interface GroupRegistration {
    long register(Transaction tx, long tableId, List<Long> inputs, NewDataFile output);
  }

  /**
   * Writes and registers each group {@code groups} gives for each table of {@code head}, one commit
   * per group, and returns {inputs replaced, files written, groups passed over}.
   */
  private int[] compact(
      CatalogSnapshot head,
      Function<Long, List<List<DataFileInfo>>> groups,
      GroupWriter writer,
      GroupRegistration registration) {
    int[] counts = new int[3];
    for (TableInfo table : head.tables()) {
      long tableId = table.tableId();
      for (List<DataFileInfo> group : groups.apply(tableId)) {
        Optional<NewDataFile> output = writer.write(tableId, group);
        if (output.isEmpty()) {
          counts[2]++;
          continue;
        }
        List<Long> ids = group.stream().map(DataFileInfo::dataFileId).toList();
        try {
          catalog.commit(tx -> registration.register(tx, tableId, ids, output.get()));
          counts[0] += ids.size();
          counts[1]++;
        } catch (CompactionInputNotLiveException
            | CommitConflictException
            | InvalidArgumentException e) {
          // A concurrent commit took an input, deleted from the table or gave an input (more)
          // deletions: the next pass chooses again from what it left. The written file is then an
          // orphan for the orphan search.
          counts[2]++;
        }
      }
    }
    return counts;
  }

  private Optional<String> cleanup(MaintenancePolicy policy) {
    if (policy.files().isEmpty()) {
      return Optional.empty();
    }
    CleanupResult r =
        catalog.cleanupOldFiles(
            policy.files().get(),
            FileCleanup.scheduledBefore(Clock.systemUTC().instant().minus(policy.cleanupGrace())));
    return Optional.of(
        "deleted "
            + r.deleted().size()
            + " files"
            + (r.unreachable().isEmpty()
                ? ""
                : "; " + r.unreachable().size() + " outside the data path left scheduled"));
  }
}
