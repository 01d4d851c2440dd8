package dev.moraine.core.maintenance;

import java.util.Arrays;

/**
 * The snapshots an expiry keeps, as one consistent read of the store found them, and the head that
 * read stood at. Immutable.
 */
final class Survivors {
  private final long[] ids;
  private final long head;

  /**
   * @param ids the retained snapshot ids, ascending; {@code head} is the last of them
   */
  Survivors(long[] ids, long head) {
    this.ids = ids.clone();
    this.head = head;
  }

  /**
   * Whether a version spanning [{@code begin}, {@code end}) ended by the read and no retained
   * snapshot sees it. A version that ends after the read's head is never judged: snapshots the read
   * could not list may see it.
   */
  boolean endedAndUnseen(long begin, long end) {
    if (Long.compareUnsigned(end, head) > 0) {
      return false;
    }
    int at = Arrays.binarySearch(ids, begin);
    int first = at >= 0 ? at : -at - 1;
    return first >= ids.length || ids[first] >= end;
  }

  int count() {
    return ids.length;
  }
}
