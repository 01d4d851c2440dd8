package dev.moraine.duckdb.verbs;

import dev.moraine.core.catalog.StagedRows;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.FileColumnStatsRow;
import dev.moraine.ducklake.rows.FilePartitionValueRow;
import dev.moraine.ducklake.rows.SnapshotChangesRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import dev.moraine.ducklake.rows.TableColumnStatsRow;
import dev.moraine.ducklake.rows.TableDef;
import dev.moraine.ducklake.rows.TableStatsRow;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The row operations one stock DuckLake commit made, read off its catalog before and after: what a
 * session hands {@code Catalog.commitStaged}. A row new under its key is an insert; a live row of a
 * versioned table ended by the commit is an end; a statistics row whose values changed is an insert
 * of its new values, as DuckLake's {@code UPDATE} of it is taken. Every other difference fails the
 * capture, so a test step is sure to stay within what it means to hand over.
 */
final class StagedCapture {
  /** Every metadata table's rows at one moment. */
  record Rows(Map<String, List<Map<String, Object>>> byTable) {}

  private StagedCapture() {}

  static Rows read(ReferenceDuckLake stock) throws SQLException {
    Map<String, List<Map<String, Object>>> out = new LinkedHashMap<>();
    for (TableDef def : DuckLakeTables.ALL) {
      out.put(def.name(), stock.rows(def.name()));
    }
    return new Rows(out);
  }

  /** The operations of the commit that took {@code before} to {@code after}. */
  static StagedRows between(long base, Rows before, Rows after) {
    List<StagedRows.Op> ops = new ArrayList<>();
    for (TableDef def : DuckLakeTables.ALL) {
      List<Map<String, Object>> was = before.byTable().get(def.name());
      List<Map<String, Object>> now = after.byTable().get(def.name());
      Set<Map<String, Object>> old = new HashSet<>(was);
      List<Map<String, Object>> added = now.stream().filter(r -> !old.contains(r)).toList();
      Set<Map<String, Object>> fresh = new HashSet<>(now);
      List<Map<String, Object>> gone = was.stream().filter(r -> !fresh.contains(r)).toList();
      switch (def.name()) {
        case "ducklake_snapshot",
            "ducklake_snapshot_changes",
            "ducklake_file_column_stats",
            "ducklake_file_partition_value" -> {
          requireNone(def, gone);
          added.forEach(r -> ops.add(new StagedRows.Insert(typed(def, r))));
        }
        case "ducklake_data_file", "ducklake_delete_file" -> {
          String id = def.columns().get(0).name();
          int ends = 0;
          for (Map<String, Object> r : added) {
            Map<String, Object> earlier =
                gone.stream()
                    .filter(g -> Objects.equals(g.get(id), r.get(id)))
                    .findFirst()
                    .orElse(null);
            if (earlier == null) {
              ops.add(new StagedRows.Insert(typed(def, r)));
            } else {
              ops.add(
                  new StagedRows.End(
                      typed(def, earlier), ((Number) r.get("end_snapshot")).longValue()));
              ends++;
            }
          }
          if (gone.size() != ends) {
            throw new AssertionError(def.name() + " rows deleted: " + gone);
          }
        }
        case "ducklake_table_stats", "ducklake_table_column_stats" ->
            added.forEach(r -> ops.add(new StagedRows.Insert(typed(def, r))));
        default -> {
          if (!added.isEmpty() || !gone.isEmpty()) {
            throw new AssertionError(
                def.name()
                    + " changed, which a staged file commit does not: +"
                    + added
                    + " -"
                    + gone);
          }
        }
      }
    }
    return new StagedRows(base, ops);
  }

  private static void requireNone(TableDef def, List<Map<String, Object>> gone) {
    if (!gone.isEmpty()) {
      throw new AssertionError(def.name() + " rows changed or deleted: " + gone);
    }
  }

  private static final Map<String, Class<? extends DuckLakeRow>> TYPES =
      Map.of(
          "ducklake_snapshot", SnapshotRow.class,
          "ducklake_snapshot_changes", SnapshotChangesRow.class,
          "ducklake_data_file", DataFileRow.class,
          "ducklake_delete_file", DeleteFileRow.class,
          "ducklake_file_column_stats", FileColumnStatsRow.class,
          "ducklake_file_partition_value", FilePartitionValueRow.class,
          "ducklake_table_stats", TableStatsRow.class,
          "ducklake_table_column_stats", TableColumnStatsRow.class);

  /** A stock row as the row model's record: each column to its component, in DuckLake's order. */
  static DuckLakeRow typed(TableDef def, Map<String, Object> row) {
    Class<? extends DuckLakeRow> type = TYPES.get(def.name());
    RecordComponent[] components = type.getRecordComponents();
    Object[] args = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      Object v = row.get(def.columns().get(i).name());
      args[i] = v == null ? null : convert(v, types[i]);
    }
    try {
      Constructor<? extends DuckLakeRow> make = type.getDeclaredConstructor(types);
      return make.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static Object convert(Object v, Class<?> to) {
    if (to == Long.class) {
      return ((Number) v).longValue();
    }
    if (to == Instant.class) {
      if (v instanceof OffsetDateTime t) {
        return t.toInstant();
      }
      if (v instanceof Timestamp t) {
        return t.toInstant();
      }
    }
    return to.cast(v);
  }
}
