package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.inline.PartitionValueTexts;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.PartitionColumn;
import dev.moraine.core.keyspace.proto.PartitionValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The partition values a flush's data files carry for rows inlined while the table was partitioned
 * (RFC 0004 §3 {@code flushInlined}), checked against the rows' own values. Confined to the thread
 * running the closure, like {@link VerbState}.
 */
final class FlushPartitionValues {
  private final VerbState s;
  private final long tableId;
  private final PartitionValue spec;

  /** The table's inlined rows with typed values, by id; read on first use. */
  private Map<Long, InlinedRows.Row> rows;

  FlushPartitionValues(VerbState state, long tableId, PartitionValue spec) {
    this.s = state;
    this.tableId = tableId;
    this.spec = spec;
  }

  /** The table's inlined rows at the premise, deleted ones included, with typed values, by id. */
  private static Map<Long, InlinedRows.Row> typedRows(VerbState s, long tableId) {
    Map<Long, String> types = new HashMap<>();
    for (ColumnValue c : s.columnRecords(tableId)) {
      types.put(c.getColumnId(), c.getColumnType());
    }
    List<InlinedRows.Row> rows = new ArrayList<>();
    s.premiseSnapshot.history().inlinedRows(tableId).forEach(v -> rows.add(v.version()));
    Map<Long, InlinedRows.Row> byId = new HashMap<>();
    for (InlinedRows.Row r : new InlinedRows(0, rows).withColumnTypes(types).rows()) {
      byId.put(r.rowId(), r);
    }
    return byId;
  }

  /**
   * Refuses a partitioned part whose values are not its rows': each key's value must be the text
   * stock DuckLake records for every row's value ({@link PartitionValueTexts}), or, for a value
   * whose text is not known here, all rows must hold the same value. A NULL is refused: stock
   * records it as SQL NULL, which the lake's partition values (strings) cannot hold.
   */
  void check(NewDataFile file, List<Long> ids) {
    String table = Long.toUnsignedString(tableId);
    if (rows == null) {
      rows = typedRows(s, tableId);
    }
    if (file.partitionValues().size() != spec.getColumnsCount()) {
      throw new InvalidArgumentException(
          "rows inlined into table "
              + table
              + " while it was partitioned go into a file with "
              + spec.getColumnsCount()
              + " partition value(s), not "
              + file.partitionValues().size());
    }
    List<ColumnValue> columns = s.columnRecords(tableId);
    for (PartitionColumn key : spec.getColumnsList()) {
      int k = Math.toIntExact(key.getPartitionKeyIndex());
      String given = file.partitionValues().get(k);
      ColumnValue column =
          columns.stream()
              .filter(c -> c.getColumnId() == key.getColumnId())
              .findFirst()
              .orElseThrow(
                  () ->
                      new InvalidArgumentException(
                          "partition key "
                              + k
                              + " of table "
                              + table
                              + " names a column it no longer has"));
      Object first = null;
      for (Long id : ids) {
        InlinedRows.Row row = rows.get(id);
        Object value =
            row == null ? null : row.typedValueOf(column.getColumnId(), column.getColumnName());
        if (value == null) {
          throw new InvalidArgumentException(
              "inlined row "
                  + Long.toUnsignedString(id)
                  + " of table "
                  + table
                  + " has no value for partition column "
                  + column.getColumnName()
                  + "; a NULL partition value cannot be recorded in this lake format");
        }
        Optional<String> text = PartitionValueTexts.of(key.getTransform(), value);
        boolean matches =
            text.isPresent()
                ? text.get().equals(given)
                : first == null || Objects.deepEquals(first, value);
        if (!matches) {
          throw new InvalidArgumentException(
              "inlined row "
                  + Long.toUnsignedString(id)
                  + " of table "
                  + table
                  + " does not belong in the file with partition value "
                  + given
                  + " for "
                  + key.getTransform()
                  + "("
                  + column.getColumnName()
                  + ")"
                  + text.map(t -> ": its value is " + t).orElse(""));
        }
        first = first == null ? value : first;
      }
    }
  }
}
