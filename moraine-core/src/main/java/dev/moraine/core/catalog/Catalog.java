package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.CleanupResult;
import dev.moraine.core.catalog.model.ExpiryResult;
import dev.moraine.core.catalog.model.FileCleanup;
import dev.moraine.core.catalog.model.MaintenancePass;
import dev.moraine.core.catalog.model.MaintenancePolicy;
import dev.moraine.core.catalog.model.OrphanResult;
import dev.moraine.core.catalog.model.OrphanSearch;
import dev.moraine.core.catalog.model.SnapshotExpiry;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvStoreProvider;
import dev.moraine.core.lake.WalStoreMove;
import java.util.List;

/**
 * The read-write catalog over a writer store. It reads as a {@link ReadOnlyCatalog} does; commits
 * are added to this type (and to this type only), so that a read-only catalog cannot commit.
 *
 * <p>Ownership: a catalog borrows the store handle it is opened on. Closing the catalog does not
 * close the handle; close the handle after the catalog. One writer store may carry one catalog.
 */
public interface Catalog extends ReadOnlyCatalog {
  /** Whether this open created the catalog (bootstrapped an empty store). */
  boolean createdByThisOpen();

  /**
   * Runs {@code body} and lands what it did as one atomic commit; the body may run more than once
   * and must have no side effects outside the {@link Transaction} it is given. It runs again when a
   * concurrent commit of another writer took the head first without conflicting with it (up to 10
   * attempts, waiting 2 ms doubling to 50 ms, with jitter, between them), each time against the new
   * head, so that names and premises are re-validated against what actually won.
   *
   * <p><b>Which thread runs it.</b> The body runs on the catalog's commit thread ({@code
   * moraine-commit-<n>}), never on the calling thread, which only waits; bodies of concurrent
   * callers run there one after the other. Commits that arrive together share one batch: one atomic
   * store write and one write-ahead-log flush for all of them, each still minting its own snapshot,
   * each body seeing what the bodies before it in the batch did. A body that throws leaves the
   * batch alone; the others land without it.
   *
   * <p><b>When it returns.</b> Once the commit is durable and, unless publication is off ({@link
   * CatalogOptions#publishCheckpoints()}), covered by a published checkpoint: a reader opened
   * afterwards resolves the new snapshot. A body that stages nothing, or only changes that cancel
   * out, writes nothing and returns the id of the snapshot it saw as the head, once that snapshot
   * is durable (DuckLake mints no snapshot for an empty transaction). A body that only sets or
   * unsets options mints no snapshot either: it advances the head's batch sequence and returns the
   * head's snapshot id. A typed refusal the body throws (a verb's error) is thrown once the commits
   * the body saw before it are known to have landed.
   *
   * <p><b>Interrupts.</b> Interrupting the waiting thread before its commit was handed to the store
   * throws {@link CommitInterruptedException}: the commit leaves its batch and nothing of it is
   * written. After, it throws {@link CommitOutcomeUnknownException} at once, and the batch goes on
   * untouched. The interrupt flag stays set.
   *
   * @return the id of the snapshot the commit minted, or of the head it left standing
   * @throws RuntimeException whatever the body throws, unchanged (a verb's typed error included,
   *     from the last run); nothing was written
   * @throws InvalidArgumentException if {@code body} is null; nothing was written
   * @throws CommitConflictException if a concurrent commit made a change this commit conflicts with
   *     by DuckLake's rules; nothing was written
   * @throws RetryBudgetExhaustedException if every attempt was overtaken by concurrent commits;
   *     nothing was written
   * @throws CommitOutcomeUnknownException if the store failed after the commit reached it (the
   *     write, the log flush, or the checkpoint publication), or the caller was interrupted then:
   *     the commit is either wholly there or wholly absent; reconcile before repeating it
   * @throws CommitInterruptedException if the calling thread was interrupted before the commit
   *     reached the store; nothing was written
   * @throws StoreUnavailableException if the store failed before the commit reached it, or the
   *     commits it was judged against have an unknown outcome; nothing of it was written
   * @throws FencedException, ClosedException if the handle is dead or the catalog closed; nothing
   *     was written
   * @throws CorruptionException if the premise's records do not decode; nothing was written
   */
  long commit(CommitBody body);

  /**
   * Commits rows DuckLake authored (the staged-row door, RFC 0006): the row operations one DuckLake
   * commit made on the {@code ducklake_*} tables against {@code rows.baseSnapshotId()}, translated
   * row for row into the lake, with DuckLake's ids, counters and change text stored as given (the
   * snapshot's time is the commit's own, as for every commit). Returns the new snapshot's id.
   *
   * <p>Taken so far: the data-only commits of files (an INSERT writing a file, a DELETE or UPDATE
   * writing a delete file, replacing a data file's delete file, or ending a data file whose every
   * row is gone), that is a {@code ducklake_snapshot} and a {@code ducklake_snapshot_changes} row
   * with the schema version and catalog counter of the base, data files (with their {@code
   * ducklake_file_partition_value} and {@code ducklake_file_column_stats} rows), delete files, ends
   * of data and delete files, the delete outright of a replaced delete file with its {@code
   * ducklake_files_scheduled_for_deletion} row, and the {@code ducklake_table_stats} and {@code
   * ducklake_table_column_stats} rows DuckLake updates with them, each given as the row's new
   * values. Every row is checked against the base before anything is written: ids within the range
   * the snapshot's {@code next_file_id} gives this commit, begun at this commit's snapshot (a
   * replacement delete file at the replaced one's begin), tables, columns and files that the base
   * holds live, ended or removed rows equal to the stored ones. Also taken: a merge of files (its
   * inputs deleted outright and scheduled, the merged files backdated), and inlined rows ({@link
   * StagedRows#inlined}: rows inserted into and ended in DuckLake's inlined-data tables, rows of
   * data files deleted inline), which go into the lake's inline chunks through the inline verbs,
   * each checked to land at the row id and schema version DuckLake gave it, and their flush into
   * files (the inlined rows and deletions removed, the flushed files backdated). A snapshot expiry
   * (deletes of {@code ducklake_snapshot} rows, and of what only they saw) is taken as the lake's
   * own {@link #expireSnapshots} of those snapshots, run against the head: it mints no snapshot,
   * and the head's id is returned. Other tables, DDL and commits that mint no snapshot are not
   * taken yet, except: table creation (the {@code ducklake_table}, {@code ducklake_column} and
   * {@code ducklake_schema_versions} rows of new tables, files going into them in the same commit
   * as CREATE TABLE AS writes them), column changes of a table (ends and new versions of its
   * columns, new columns, its schema-versions row), DROP TABLE (the ends of the table and of its
   * columns, files and partitioning), schemas, views and macros, SET and RESET PARTITIONED BY (a
   * reset keeps no partitioning without columns, as {@code Transaction.resetPartitionKey}), SET and
   * RESET SORTED BY, comments and tags on tables, views and columns (not with a NULL value, which
   * the lake cannot hold), data files registered with a column mapping ({@code
   * ducklake_add_data_files}), and option changes ({@code ducklake_metadata} rows, which mint no
   * snapshot: the commit lands on the head whatever its base, and the head's snapshot id is
   * returned). RFC 0006 §13 lists each shape with its checks.
   *
   * <p>Rows authored against a snapshot older than the head they land on (other commits landed
   * since, or went before them in the same batch) are rebased, as DuckLake itself re-derives them
   * when it re-drives its commit (RFC 0006 §14): the snapshot id and the begin snapshots stamped
   * with it, the file ids, the row ids of appended files and the table statistics move onto the
   * head, after the commits since the base are judged against these rows by DuckLake's conflict
   * rules. Concurrent calls share batches and write-ahead-log flushes like any commit.
   *
   * @throws CommitConflictException if commits landed since {@code rows.baseSnapshotId()} and the
   *     rows cannot follow them: one conflicts with them by DuckLake's rules (an insert into a
   *     table deleted from, two deletes from one file, a table altered or dropped meanwhile, ...),
   *     the commit is not data-only, or the base is no longer held; the text holds "conflict", and
   *     DuckLake reads the catalog again and re-drives the commit. Also when the snapshot row does
   *     not advance the head it names; nothing was written
   * @throws InvalidArgumentException if a row is malformed (a NULL where the lake needs a value, a
   *     change text DuckLake would not write), repeats a key, names an id outside its range,
   *     changes the catalog's shape, or belongs to a table this door does not take yet; nothing was
   *     written
   * @throws NotFoundException if a row names a table, column or file the base does not hold live;
   *     nothing was written
   * @throws IndexedTableException if a file goes into or out of a table with equality indexes;
   *     nothing was written
   * @throws CommitOutcomeUnknownException, StoreUnavailableException, FencedException,
   *     ClosedException as for {@link #commit}
   */
  long commitStaged(StagedRows rows);

  /**
   * Lands several commits handed in together, as consecutive members of one batch: each body runs
   * against what the bodies before it left and mints its own snapshot, and they land together in
   * one atomic write or not at all. If one body throws, none of them is written and its exception
   * is thrown. The group is never split across batches. Every other rule, and every exception, is
   * that of {@link #commit(CommitBody)}.
   *
   * @return one snapshot id per body, in order
   * @throws InvalidArgumentException if the list is null or empty or holds a null; nothing was
   *     written
   */
  List<Long> commitGroup(List<CommitBody> bodies);

  /**
   * Expires snapshots as {@code ducklake_expire_snapshots} does (RFC 0005 §3): the snapshots {@code
   * expiry} chooses are removed, then every record no remaining snapshot can see (the versions only
   * they saw, and every record of a table none of the remaining snapshots sees), and the data and
   * delete files among those records are scheduled for deletion; a later file cleanup deletes them.
   * The head is never expired, no snapshot is minted, and what the head reads is unchanged.
   *
   * <p>The expiry lands as one or more head-preserving batches of at most {@link
   * SnapshotExpiry#batchKeys()} keys each, through this catalog's commit path, so commits keep
   * landing between them. Each batch leaves a catalog that reads correctly: an expiry that stops
   * part way (a crash, a store failure, an exception below) is finished by calling it again. A
   * snapshot expired this way then answers {@link ErrorCode#SNAPSHOT_EXPIRED} to {@link
   * #snapshotAt}, and a view of it taken before answers the same on its next load.
   *
   * <p>Readers that time-travel must finish before the snapshots they read expire, as with stock
   * DuckLake: choose the retention accordingly.
   *
   * @return what was expired, removed and scheduled (with a dry run: what would be expired)
   * @throws InvalidArgumentException if {@code expiry} is null or names the head; nothing was
   *     written
   * @throws RetryBudgetExhaustedException, CommitOutcomeUnknownException,
   *     StoreUnavailableException, FencedException, ClosedException as for {@link
   *     #commit(CommitBody)}, for the batch that met them: the batches before it landed, and
   *     running the expiry again finishes it
   */
  ExpiryResult expireSnapshots(SnapshotExpiry expiry);

  /**
   * Deletes scheduled files as {@code ducklake_cleanup_old_files} does (RFC 0005 §4): each file of
   * {@code ducklake_files_scheduled_for_deletion} that {@code cleanup} chooses has its object
   * deleted through {@code files}, and then its schedule record removed, in head-preserving batches
   * through the commit path. Files scheduled under an absolute path outside the data path are left
   * as they are and reported. A cleanup that stops part way is finished by running it again.
   *
   * @throws InvalidArgumentException if an argument is null; nothing was deleted or written
   * @throws StoreUnavailableException if {@code files} failed: the objects deleted before it stay
   *     scheduled until the next cleanup, which finds them gone
   * @throws RetryBudgetExhaustedException, CommitOutcomeUnknownException, FencedException,
   *     ClosedException as for {@link #commit(CommitBody)}, for the batch that met them
   */
  CleanupResult cleanupOldFiles(LakeFiles files, FileCleanup cleanup);

  /**
   * Finds, and when {@code search} says so deletes, the objects under the data path that no
   * snapshot references and the deletion schedule does not name, last written before the search's
   * time, as {@code ducklake_delete_orphaned_files} does (RFC 0005 §4). A dry run by default. The
   * catalog is not written.
   *
   * @throws InvalidArgumentException if an argument is null, if the data path holds a SlateDB
   *     database, or if a file record cannot be placed under the data path; nothing was deleted
   * @throws StoreUnavailableException if {@code files} failed: the orphans deleted before it stay
   *     deleted
   */
  OrphanResult deleteOrphanedFiles(LakeFiles files, OrphanSearch search);

  /**
   * Runs maintenance passes under {@code policy} in this process, on a thread of their own, until
   * {@link #stopMaintenance()} or {@link #close()}: each pass runs the steps the policy configures
   * (expire snapshots, merge small files, delete scheduled files) through this catalog's commit
   * path, so commits keep landing meanwhile, and is recorded ({@link #maintenanceStatus()}). A
   * failed step is recorded as failed and the next pass tries again. Starting again replaces the
   * running schedule.
   *
   * @throws InvalidArgumentException if {@code policy} is null
   */
  void startMaintenance(MaintenancePolicy policy);

  /** Stops the maintenance schedule, waiting for a running pass to end; nothing if none runs. */
  void stopMaintenance();

  /**
   * Runs one maintenance pass under {@code policy} now, on the calling thread, records it as {@code
   * manual}, and returns it. A step's failure is in the pass, not thrown.
   *
   * @throws InvalidArgumentException if {@code policy} is null
   * @throws StoreUnavailableException, FencedException, ClosedException if the pass could not be
   *     recorded; its steps ran
   */
  MaintenancePass runMaintenance(MaintenancePolicy policy);

  /** What this catalog's commit path has done since it opened. */
  CommitStatistics commitStatistics();

  /**
   * {@link #commit(CommitBody)}, handing back a value the body computes, typically the ids of what
   * it created: {@code catalog.commitReturning(tx -> tx.createTable(schema, "t",
   * columns)).value()}.
   *
   * <p>The body may run more than once (see {@link #commit(CommitBody)}); the value returned is the
   * one of its last run, the run whose changes the commit holds, so an id in it names the entity as
   * committed. Every outcome and exception is that of {@link #commit(CommitBody)}.
   *
   * @throws InvalidArgumentException if {@code body} is null; nothing was written
   */
  default <T> Committed<T> commitReturning(CommitFunction<T> body) {
    if (body == null) {
      throw new InvalidArgumentException("the commit body is null");
    }
    // The body runs on this thread, once per attempt, and each run overwrites the holder: after
    // commit returns, the holder has the value of the run that was committed (no run follows it).
    Object[] lastRun = new Object[1];
    long snapshotId = commit(tx -> lastRun[0] = body.apply(tx));
    @SuppressWarnings("unchecked")
    T value = (T) lastRun[0];
    return new Committed<>(snapshotId, value);
  }

  /**
   * Opens the catalog in a writer store, creating it first when the store is empty.
   *
   * <p>On an empty store, the bootstrap of RFC 0002 §11 is written as one transaction that
   * conflicts on {@code sys/head}: of several opens racing on one store, one commits it and the
   * others find its catalog and open that. On an initialised store nothing is written.
   *
   * @throws InvalidArgumentException if an argument is null; nothing was read or written
   * @throws UnsupportedFormatException if the store's format is not 9 or it carries a migration
   *     marker; nothing was written
   * @throws WalStoreMismatchException if the store was opened with another write-ahead-log store
   *     than the one the catalog records; nothing was written
   * @throws InvalidArgumentException if the store flushes its log on a timer of its own, or (when
   *     creating the catalog) its log store lies inside the data path; nothing was written
   * @throws CorruptionException if the store's records do not decode; nothing was written
   * @throws StoreUnavailableException if the store failed: the bootstrap, if one was attempted, is
   *     either wholly written or not at all, and opening again finds out which
   * @throws FencedException, ClosedException if the store handle is dead; nothing was written
   */
  static Catalog open(KvStore store, CatalogOptions options) {
    return CatalogOpener.openWriter(store, options);
  }

  /**
   * Moves the catalog's write-ahead log from the log store {@code from} opens the store with to the
   * one {@code to} opens it with (an object store of its own, or the store's own: see {@link
   * KvStoreProvider#walStore()}), in two opens ordered so that a crash at any point leaves the
   * catalog openable with nothing lost: first with the recorded log store, whose contents are
   * written out to the store's own object store; then with the new one, where the catalog records
   * it. Nothing may hold the catalog meanwhile (each step opens the writer, fencing any other).
   * After a crash, open the catalog with either store: the one the catalog records then is the one
   * accepted (both may be, until the second step has written out), and the move can be run again.
   *
   * @throws WalStoreMismatchException if {@code from} is not the log store the catalog records;
   *     nothing was written
   * @throws InvalidArgumentException if the destination lies inside the lake's data path (where a
   *     cleanup of unreferenced files would delete it) or is where the log already is; nothing was
   *     written
   * @throws NotFoundException with {@link ErrorCode#NOT_INITIALIZED} if the store holds no catalog
   * @throws StoreUnavailableException, FencedException as for an open; after the first step the log
   *     is drained and the move can be run again
   */
  static void moveWalStore(KvStoreProvider from, KvStoreProvider to) {
    if (from == null || to == null) {
      throw new InvalidArgumentException("both store providers must be given");
    }
    WalStoreMove.move(from, to);
  }

  /**
   * Opens the catalog of a store read-only through a reader handle (latest-following or pinned at a
   * checkpoint). Never writes and never bootstraps.
   *
   * @throws InvalidArgumentException if an argument is null
   * @throws NotFoundException with {@link ErrorCode#NOT_INITIALIZED} if the store holds no catalog
   * @throws UnsupportedFormatException if the format is not 9 or a migration marker is present
   * @throws WalStoreMismatchException if the reader was opened with another write-ahead-log store
   *     than the one the catalog records
   * @throws CorruptionException, StoreUnavailableException, ClosedException as for every read
   */
  static ReadOnlyCatalog openReadOnly(KvReader reader, CatalogOptions options) {
    return CatalogOpener.openReadOnly(reader, options);
  }

  /**
   * Opens the catalog of a writer store read-only: as {@link #openReadOnly(KvReader,
   * CatalogOptions)}, reading through the store's own snapshots. Never writes.
   */
  static ReadOnlyCatalog openReadOnly(KvStore store, CatalogOptions options) {
    return CatalogOpener.openReadOnly(store, options);
  }
}
