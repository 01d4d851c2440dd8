package dev.moraine.core.view;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import org.junit.jupiter.api.Test;

class RecentHeadViewsTest {
  private static SnapshotView view(long snapshotId, long batchSeq) {
    return new SnapshotView(
        null,
        SnapshotValue.newBuilder().setSnapshotId(snapshotId).build(),
        new Head(snapshotId, batchSeq),
        ViewState.EMPTY);
  }

  @Test
  void keepsTheLastViewsByIdAndMissesOnAnyOtherId() {
    RecentHeadViews recent = new RecentHeadViews(2);
    SnapshotView one = view(1, 1);
    SnapshotView two = view(2, 2);
    SnapshotView three = view(3, 3);
    recent.add(one);
    recent.add(two);
    recent.add(three);
    assertNull(recent.get(1), "snapshot 3 took the slot of snapshot 1");
    assertSame(two, recent.get(2));
    assertSame(three, recent.get(3));
    assertNull(recent.get(5), "the slot of 5 holds snapshot 3");
    assertNull(recent.get(0));
    // An unsigned id past Long.MAX_VALUE maps to a slot, too.
    SnapshotView high = view(-1L, 4);
    recent.add(high);
    assertSame(high, recent.get(-1L));
  }

  @Test
  void aNewerViewOfTheSameSnapshotReplacesTheOlder_andClearEmptiesEverySlot() {
    RecentHeadViews recent = new RecentHeadViews(3);
    SnapshotView before = view(7, 7);
    SnapshotView after = view(7, 8);
    recent.add(before);
    recent.add(after);
    assertSame(after, recent.get(7));
    recent.clear();
    assertNull(recent.get(7));
  }
}
