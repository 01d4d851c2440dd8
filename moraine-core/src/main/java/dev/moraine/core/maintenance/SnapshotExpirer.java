package dev.moraine.core.maintenance;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ExpiryResult;
import dev.moraine.core.catalog.model.SnapshotExpiry;
import dev.moraine.core.commit.CommitPath;
import dev.moraine.core.commit.CommitWork;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.Subspace;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.view.CatalogReads;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Snapshot expiry, as {@code ducklake_expire_snapshots} does it (RFC 0005 §3), in head-preserving
 * batches through the catalog's commit path: no snapshot is minted, each batch advances the head's
 * batch sequence, and commits go on landing between the batches.
 *
 * <p>Two phases, each batch of which leaves a catalog that reads correctly, so an expiry stopped
 * between two batches (a crash, a store failure) is finished by running it again:
 *
 * <ol>
 *   <li>the chosen snapshots' records are deleted, at most {@link SnapshotExpiry#batchKeys()} per
 *       batch, oldest first; until a record is deleted its snapshot reads as before, and deleting
 *       one changes what no other snapshot reads;
 *   <li>then the records no retained snapshot can see ({@link DeadRecords}) are removed, and the
 *       files among them scheduled for deletion, found afresh from whatever snapshots the store
 *       holds, so a run after an interrupted one finds what that one left.
 * </ol>
 *
 * <p>One expiry runs at a time per catalog (the instance lock); commits are not held up by it
 * beyond the batches they share.
 */
public final class SnapshotExpirer {
  private final CatalogReads reads;
  private final CommitPath commits;
  private final Object running = new Object();

  public SnapshotExpirer(CatalogReads reads, CommitPath commits) {
    this.reads = reads;
    this.commits = commits;
  }

  /**
   * Runs {@code spec}.
   *
   * @throws InvalidArgumentException if {@code spec} is null or names the head; nothing was written
   */
  public ExpiryResult expire(SnapshotExpiry spec) {
    if (spec == null) {
      throw new InvalidArgumentException("the expiry must not be null");
    }
    synchronized (running) {
      List<Long> chosen = reads.load("choosing the snapshots to expire", v -> choose(v, spec));
      if (spec.isDryRun()) {
        return new ExpiryResult(chosen, 0, List.of(), 0, true);
      }
      int batches = 0;
      for (int from = 0; from < chosen.size(); from += spec.batchKeys()) {
        List<Long> ids = chosen.subList(from, Math.min(chosen.size(), from + spec.batchKeys()));
        MaintenanceUnit unit = new MaintenanceUnit();
        for (long id : ids) {
          unit.remove(KeyCodec.encode(new SnapshotKey(id)));
        }
        land(new MaintenanceBatchWork(List.of(unit), List.of(), null));
        reads.forgetSnapshots(ids);
        batches++;
      }
      long micros = Micros.now();
      long[] removed = {0};
      Set<Long> scheduled = new TreeSet<>(Long::compareUnsigned);
      Found found =
          reads.load("finding what no retained snapshot sees", v -> find(v, micros, spec));
      List<MaintenanceBatchWork> works = pack(found, spec.batchKeys());
      for (MaintenanceBatchWork work : works) {
        land(work);
        removed[0] += work.prunedTagEntries();
        batches++;
      }
      for (MaintenanceUnit unit : found.records.units()) {
        removed[0] += unit.removed();
        scheduled.addAll(unit.scheduled());
      }
      return new ExpiryResult(chosen, removed[0], List.copyOf(scheduled), batches, false);
    }
  }

  private void land(CommitWork work) {
    commits.commit(List.of(work));
  }

  /** The snapshots {@code spec} chooses, ascending, the head never among them. */
  static List<Long> choose(KvReadView v, SnapshotExpiry spec) {
    long head = CatalogReads.readHead(v).getSnapshotId();
    List<SnapshotValue> all = snapshots(v);
    List<Long> chosen = new ArrayList<>();
    if (spec.olderThanTime().isPresent()) {
      long before = Micros.of(spec.olderThanTime().get());
      for (SnapshotValue s : all) {
        if (s.getSnapshotId() != head && s.getSnapshotTimeMicros() < before) {
          chosen.add(s.getSnapshotId());
        }
      }
    } else if (spec.retainedCount().isPresent()) {
      int keep = spec.retainedCount().getAsInt();
      for (int i = 0; i < all.size() - keep; i++) {
        if (all.get(i).getSnapshotId() != head) {
          chosen.add(all.get(i).getSnapshotId());
        }
      }
    } else {
      Set<Long> present = new TreeSet<>();
      for (SnapshotValue s : all) {
        present.add(s.getSnapshotId());
      }
      for (long id : spec.snapshotIds().orElseThrow()) {
        if (id == head) {
          throw new InvalidArgumentException(
              "snapshot "
                  + Long.toUnsignedString(id)
                  + " is the head, which is never expired; nothing was written");
        }
        if (present.contains(id)) {
          chosen.add(id);
        }
      }
    }
    return chosen;
  }

  /** Every snapshot record the store holds, ascending. */
  private static List<SnapshotValue> snapshots(KvReadView v) {
    List<SnapshotValue> all = new ArrayList<>();
    try (KvIterator it = v.scanPrefix(Subspace.SNAPSHOT.prefix())) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        Key key = KeyCodec.decode(kv.key());
        all.add(ValueCodec.decode(key, kv.value(), SnapshotValue.class));
      }
    }
    return all;
  }

  private record Found(DeadRecords records, Survivors survivors) {}

  private static Found find(KvReadView v, long nowMicros, SnapshotExpiry spec) {
    HeadValue head = CatalogReads.readHead(v);
    List<SnapshotValue> all = snapshots(v);
    long[] ids = new long[all.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = all.get(i).getSnapshotId();
    }
    Survivors survivors = new Survivors(ids, head.getSnapshotId());
    // Units of at most half a batch, so that two usually share one.
    int unitKeys = Math.max(8, spec.batchKeys() / 2);
    return new Found(DeadRecords.find(v, survivors, nowMicros, unitKeys), survivors);
  }

  /** The units packed into batches of at most {@code batchKeys} keys, the tag records first. */
  private static List<MaintenanceBatchWork> pack(Found found, int batchKeys) {
    List<MaintenanceBatchWork> works = new ArrayList<>();
    List<MaintenanceUnit> batch = new ArrayList<>();
    int size = 0;
    List<Long> tags = found.records.prunedTagObjects();
    for (MaintenanceUnit unit : found.records.units()) {
      if (!batch.isEmpty() && size + unit.size() > batchKeys) {
        works.add(
            new MaintenanceBatchWork(batch, works.isEmpty() ? tags : List.of(), found.survivors));
        batch = new ArrayList<>();
        size = 0;
      }
      batch.add(unit);
      size += unit.size();
    }
    if (!batch.isEmpty() || (works.isEmpty() && !tags.isEmpty())) {
      works.add(
          new MaintenanceBatchWork(batch, works.isEmpty() ? tags : List.of(), found.survivors));
    }
    return works;
  }
}
