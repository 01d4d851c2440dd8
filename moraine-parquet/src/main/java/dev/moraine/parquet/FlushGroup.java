package dev.moraine.parquet;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.PartitionSpec;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import dev.moraine.core.catalog.model.Versioned;
import dev.moraine.core.inline.PartitionValueTexts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The inlined rows one data file of a flush holds, as stock DuckLake 1.5.5 groups them: the rows of
 * one schema version inlined before the table was partitioned, or the rows of one partition inlined
 * since (their partition values, and the directories {@code <key>=<value>/} the file goes into).
 * Groups come in the order of their first row ids.
 */
record FlushGroup(
    List<Versioned<InlinedRows.Row>> rows, List<String> partitionValues, String directory) {
  /** The ids of the group's rows, in row-id order. */
  List<Long> rowIds() {
    return rows.stream().map(r -> r.version().rowId()).toList();
  }

  /**
   * Groups the table's inlined rows (in row-id order, as {@code CatalogHistory.inlinedRows} gives
   * them).
   *
   * @throws IllegalArgumentException if two rows share an id (an inline update), or a row inlined
   *     while the table was partitioned has a NULL partition value or one whose text is not known
   *     here
   */
  static List<FlushGroup> of(
      CatalogSnapshot snapshot, long tableId, List<Versioned<InlinedRows.Row>> rows) {
    Set<Long> seen = new HashSet<>();
    for (Versioned<InlinedRows.Row> r : rows) {
      if (!seen.add(r.version().rowId())) {
        throw new IllegalArgumentException(
            "inlined row "
                + Long.toUnsignedString(r.version().rowId())
                + " of table "
                + Long.toUnsignedString(tableId)
                + " has two versions (an inline update gives a row a second version)");
      }
    }
    Optional<PartitionSpec> spec = snapshot.partitioning(tableId);
    Map<Long, String> types = new HashMap<>();
    Map<Long, String> names = new HashMap<>();
    for (Versioned<ColumnInfo> v : snapshot.history().columns()) {
      if (v.version().tableId() == tableId) {
        types.put(v.version().columnId(), v.version().type());
        names.put(v.version().columnId(), v.version().name());
      }
    }
    List<InlinedRows.Row> typed =
        new InlinedRows(0, rows.stream().map(Versioned::version).toList())
            .withColumnTypes(types)
            .rows();
    List<SchemaVersionInfo> versions = snapshot.schemaVersions(tableId);
    Map<List<Object>, List<Versioned<InlinedRows.Row>>> groups = new LinkedHashMap<>();
    Map<List<Object>, List<String>> values = new HashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      InlinedRows.Row row = typed.get(i);
      List<String> partition =
          spec.isPresent()
                  && Long.compareUnsigned(
                          SchemaVersionInfo.beginOf(
                              snapshot.schemaVersions(tableId), row.schemaVersion()),
                          spec.get().beginSnapshot())
                      >= 0
              ? partitionValues(tableId, spec.get(), names, row)
              : List.of();
      List<Object> key = new ArrayList<>();
      key.add(row.schemaVersion());
      key.addAll(partition);
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(rows.get(i));
      values.put(key, partition);
    }
    List<FlushGroup> out = new ArrayList<>();
    for (Map.Entry<List<Object>, List<Versioned<InlinedRows.Row>>> g : groups.entrySet()) {
      List<String> partition = values.get(g.getKey());
      StringBuilder directory = new StringBuilder();
      if (!partition.isEmpty()) {
        for (PartitionSpec.Column c : spec.orElseThrow().columns()) {
          String keyName =
              c.transform().equals("identity") ? names.get(c.columnId()) : c.transform();
          directory
              .append(keyName)
              .append('=')
              .append(encoded(partition.get(Math.toIntExact(c.partitionKeyIndex()))))
              .append('/');
        }
      }
      out.add(new FlushGroup(g.getValue(), partition, directory.toString()));
    }
    return out;
  }

  /** The row's value text under each key of the spec, in key order. */
  private static List<String> partitionValues(
      long tableId, PartitionSpec spec, Map<Long, String> names, InlinedRows.Row row) {
    String[] out = new String[spec.columns().size()];
    for (PartitionSpec.Column c : spec.columns()) {
      String name = names.get(c.columnId());
      Object value = row.typedValueOf(c.columnId(), name);
      String where =
          " of inlined row "
              + Long.toUnsignedString(row.rowId())
              + " of table "
              + Long.toUnsignedString(tableId);
      if (value == null) {
        throw new IllegalArgumentException(
            "partition column "
                + name
                + where
                + " is NULL; the lake cannot record a NULL partition value");
      }
      out[Math.toIntExact(c.partitionKeyIndex())] =
          PartitionValueTexts.of(c.transform(), value)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "the partition value "
                              + c.transform()
                              + "("
                              + name
                              + ")"
                              + where
                              + " has no text known here"));
    }
    return List.of(out);
  }

  /**
   * A partition value as a directory name: bytes other than ASCII letters, digits, '-', '_', '.'
   * percent-encoded, as stock DuckLake writes them.
   */
  private static String encoded(String value) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_'
          || c == '.') {
        out.append((char) c);
      } else {
        out.append('%').append(String.format("%02X", c));
      }
    }
    return out.toString();
  }
}
