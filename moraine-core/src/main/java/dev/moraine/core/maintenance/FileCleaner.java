package dev.moraine.core.maintenance;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.LakeFiles;
import dev.moraine.core.catalog.model.CleanupResult;
import dev.moraine.core.catalog.model.FileCleanup;
import dev.moraine.core.catalog.model.LakeObject;
import dev.moraine.core.catalog.model.OrphanResult;
import dev.moraine.core.catalog.model.OrphanSearch;
import dev.moraine.core.catalog.model.ScheduledDeletion;
import dev.moraine.core.commit.CommitPath;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.view.CatalogReads;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The file cleanup and the orphan search (RFC 0005 §4), as {@code ducklake_cleanup_old_files} and
 * {@code ducklake_delete_orphaned_files} do them, through the {@link LakeFiles} a host gives.
 *
 * <p>Cleanup deletes a scheduled file's object first and its schedule record after, in
 * head-preserving batches through the commit path: a crash between the two leaves a record whose
 * object is gone, and the next cleanup repeats a delete that finds nothing. Nothing a snapshot
 * references is ever scheduled (a merge schedules the inputs it removed from every snapshot, an
 * expiry the files no retained snapshot reads), and no commit makes a scheduled file referenced
 * again, so deleting one is safe whatever lands meanwhile.
 *
 * <p>The orphan search lists the objects first and reads what the catalog references after, in one
 * consistent read: a file a commit registered before that read is referenced, one registered after
 * it was written after the listing began or is younger than the search's age threshold, which is
 * what the threshold is for.
 */
public final class FileCleaner {
  /** Schedule records removed per batch. */
  static final int BATCH = 1_000;

  private final CatalogReads reads;
  private final CommitPath commits;

  public FileCleaner(CatalogReads reads, CommitPath commits) {
    this.reads = reads;
    this.commits = commits;
  }

  /**
   * Runs {@code spec} over {@code files}.
   *
   * @throws InvalidArgumentException if an argument is null; nothing was deleted or written
   */
  public CleanupResult cleanup(LakeFiles files, FileCleanup spec) {
    if (files == null || spec == null) {
      throw new InvalidArgumentException("the lake's files and the cleanup must not be null");
    }
    LakePaths paths = new LakePaths(reads.snapshot().dataPath());
    long before = spec.scheduledBeforeTime().map(Micros::of).orElse(Long.MAX_VALUE);
    List<GcFileValue> due = new ArrayList<>();
    for (GcFileValue record : reads.load("reading the deletion schedule", FileCleaner::schedule)) {
      if (record.getScheduleStartMicros() < before) {
        due.add(record);
      }
    }
    List<GcFileValue> reachable = new ArrayList<>();
    List<ScheduledDeletion> unreachable = new ArrayList<>();
    for (GcFileValue record : due) {
      if (paths.relative(record).isPresent() || files.reachesOutside(record.getPath())) {
        reachable.add(record);
      } else {
        unreachable.add(deletion(record));
      }
    }
    List<ScheduledDeletion> deleted = new ArrayList<>();
    if (spec.isDryRun()) {
      reachable.forEach(r -> deleted.add(deletion(r)));
      return new CleanupResult(deleted, unreachable, 0, true);
    }
    int batches = 0;
    for (int from = 0; from < reachable.size(); from += BATCH) {
      MaintenanceUnit unit = new MaintenanceUnit();
      for (GcFileValue record : reachable.subList(from, Math.min(reachable.size(), from + BATCH))) {
        // The object first: until the record is removed, a failure here only leaves work for the
        // next cleanup.
        Optional<String> inside = paths.relative(record);
        if (inside.isPresent()) {
          files.delete(inside.get());
        } else {
          files.deleteOutside(record.getPath());
        }
        unit.remove(KeyCodec.encode(new CurrentKey.ScheduledDeletion(record.getDataFileId())));
        deleted.add(deletion(record));
      }
      commits.commit(List.of(new MaintenanceBatchWork(List.of(unit), List.of(), null)));
      batches++;
    }
    return new CleanupResult(deleted, unreachable, batches, false);
  }

  /**
   * Removes the schedule records of files {@code dataFileIds} that another party (DuckLake's own
   * {@code ducklake_cleanup_old_files}, through the staged-row door) deleted already: the records
   * still held go, in head-preserving batches; ids no longer scheduled are passed over, so a
   * repeated call, or one racing the lake's own cleanup, ends the same.
   *
   * @return the ids whose records this call removed
   */
  public List<Long> forgetDeleted(List<Long> dataFileIds) {
    java.util.Set<Long> named = new java.util.HashSet<>(dataFileIds);
    List<Long> held = new ArrayList<>();
    for (GcFileValue record : reads.load("reading the deletion schedule", FileCleaner::schedule)) {
      if (named.contains(record.getDataFileId())) {
        held.add(record.getDataFileId());
      }
    }
    for (int from = 0; from < held.size(); from += BATCH) {
      MaintenanceUnit unit = new MaintenanceUnit();
      for (long id : held.subList(from, Math.min(held.size(), from + BATCH))) {
        unit.remove(KeyCodec.encode(new CurrentKey.ScheduledDeletion(id)));
      }
      commits.commit(List.of(new MaintenanceBatchWork(List.of(unit), List.of(), null)));
    }
    return List.copyOf(held);
  }

  /**
   * Runs {@code spec} over {@code files}.
   *
   * @throws InvalidArgumentException if an argument is null, if the data path holds a SlateDB
   *     database (whose files must never be taken for orphans), or if a file record cannot be
   *     placed under the data path; nothing was deleted
   */
  public OrphanResult orphans(LakeFiles files, OrphanSearch spec) {
    if (files == null || spec == null) {
      throw new InvalidArgumentException("the lake's files and the search must not be null");
    }
    LakePaths paths = new LakePaths(reads.snapshot().dataPath());
    List<LakeObject> listed = files.list();
    for (LakeObject o : listed) {
      if (o.path().startsWith("manifest/") && o.path().endsWith(".manifest")) {
        throw new InvalidArgumentException(
            "the data path holds a SlateDB database ("
                + o.path()
                + "); its files would be taken for orphans, so nothing was deleted");
      }
    }
    LakePaths.Referenced referenced =
        reads.load("reading the files the catalog references", paths::referenced);
    if (referenced.unresolved > 0) {
      throw new InvalidArgumentException(
          referenced.unresolved
              + " file record(s) name a table or schema the catalog no longer holds, so their"
              + " objects cannot be told from orphans; nothing was deleted");
    }
    Instant threshold = spec.writtenBeforeTime();
    List<LakeObject> orphans = new ArrayList<>();
    for (LakeObject o : listed) {
      if (!referenced.paths.contains(o.path()) && o.lastModified().isBefore(threshold)) {
        orphans.add(o);
      }
    }
    orphans.sort(Comparator.comparing(LakeObject::path));
    if (spec.deletes()) {
      for (LakeObject o : orphans) {
        files.delete(o.path());
      }
    }
    return new OrphanResult(orphans, spec.deletes());
  }

  private static List<GcFileValue> schedule(KvReadView v) {
    List<GcFileValue> out = new ArrayList<>();
    try (KvIterator it = v.scanPrefix(KeyPrefixes.scheduledDeletions())) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        Key key = KeyCodec.decode(kv.key());
        out.add(ValueCodec.decode(key, kv.value(), GcFileValue.class));
      }
    }
    return out;
  }

  private static ScheduledDeletion deletion(GcFileValue v) {
    return new ScheduledDeletion(
        v.getDataFileId(), v.getPath(), v.getPathIsRelative(), v.getScheduleStartMicros());
  }
}
