package dev.moraine.core.view;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The head views of the most recent snapshots, by snapshot id: one slot per id modulo the capacity,
 * so a view stays until a view of a snapshot {@code capacity} ids later (or a newer view of its own
 * snapshot) takes its slot. Time travel to a recent snapshot is served from here with what its head
 * view loaded, as from the catalog's view cache.
 *
 * <p>Why not the view cache itself: every commit installs a head view, and a put into the bounded
 * Caffeine cache runs its upkeep (frequency sketch, eviction) each time, which cost more than the
 * rest of a small commit's bookkeeping (BENCHMARK.md, "CPU per verb commit against the Rust
 * implementation"). Here an install is one array write.
 *
 * <p>Thread-safe: each slot is read and written atomically; a reader checks the snapshot id of the
 * view it finds, so a slot taken over by another snapshot's view is a miss, never a wrong answer.
 * Two racing writes to one slot leave either view, and each is a correct view of its snapshot.
 */
public final class RecentHeadViews {
  private final AtomicReferenceArray<SnapshotView> slots;

  RecentHeadViews(int capacity) {
    this.slots = new AtomicReferenceArray<>(capacity);
  }

  void add(SnapshotView view) {
    slots.set(slot(view.snapshotId()), view);
  }

  /** The recent head view of snapshot {@code snapshotId}, or null. */
  SnapshotView get(long snapshotId) {
    SnapshotView view = slots.get(slot(snapshotId));
    return view != null && view.snapshotId() == snapshotId ? view : null;
  }

  /** Drops the view of snapshot {@code snapshotId}, if this holds it. */
  void remove(long snapshotId) {
    SnapshotView view = get(snapshotId);
    if (view != null) {
      slots.compareAndSet(slot(snapshotId), view, null);
    }
  }

  void clear() {
    for (int i = 0; i < slots.length(); i++) {
      slots.set(i, null);
    }
  }

  private int slot(long snapshotId) {
    return (int) Long.remainderUnsigned(snapshotId, slots.length());
  }
}
