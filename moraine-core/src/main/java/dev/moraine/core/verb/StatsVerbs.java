package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import java.util.Optional;

/** Overriding table and column statistics; {@link Transaction} documents each verb's contract. */
public final class StatsVerbs {
  private final VerbState s;

  public StatsVerbs(VerbState state) {
    this.s = state;
  }

  public void updateTable(long tableId, long recordCount, long fileSizeBytes) {
    s.requireTable(tableId);
    VerbState.nonNegative("record count", recordCount);
    VerbState.nonNegative("file size", fileSizeBytes);
    TableStatsValue stats = s.requireStats(tableId);
    s.staged.put(
        new EntityKey.TableStats(tableId),
        stats.toBuilder().setRecordCount(recordCount).setFileSizeBytes(fileSizeBytes).build());
    s.statsChanged = true;
  }

  public void updateColumn(
      long tableId,
      long columnId,
      Optional<Boolean> containsNull,
      Optional<Boolean> containsNan,
      Optional<String> minValue,
      Optional<String> maxValue,
      Optional<String> extraStats) {
    s.requireTable(tableId);
    s.requireColumn(tableId, columnId);
    if (containsNull == null
        || containsNan == null
        || minValue == null
        || maxValue == null
        || extraStats == null) {
      throw new InvalidArgumentException("column statistics fields must not be null");
    }
    TableColumnStatsValue.Builder b =
        TableColumnStatsValue.newBuilder().setTableId(tableId).setColumnId(columnId);
    containsNull.ifPresent(b::setContainsNull);
    containsNan.ifPresent(b::setContainsNan);
    minValue.ifPresent(b::setMinValue);
    maxValue.ifPresent(b::setMaxValue);
    extraStats.ifPresent(b::setExtraStats);
    s.staged.put(new EntityKey.TableColumnStats(tableId, columnId), b.build());
    s.statsChanged = true;
  }
}
