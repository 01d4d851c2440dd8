package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.ducklake.rows.DuckLakeRow;
import java.util.List;
import java.util.Set;

/**
 * The checks the staged-row door runs on single values of DuckLake's rows ({@link
 * StagedTranslation}).
 */
final class StagedRowChecks {
  private StagedRowChecks() {}

  /** Refuses a second row under {@code key} (its first element tells the table apart). */
  static void once(Set<List<Long>> seen, List<Long> key, DuckLakeRow r) {
    if (!seen.add(key)) {
      throw new InvalidArgumentException(
          tableOf(r) + " row for " + key.subList(1, key.size()) + " is given twice");
    }
  }

  /** {@code value}, refused when NULL: the lake needs one. */
  static <T> T required(T value, DuckLakeRow r, String column) {
    if (value == null) {
      throw new InvalidArgumentException(tableOf(r) + "." + column + " is NULL: " + r);
    }
    return value;
  }

  /** Refuses a value set on an inserted row where DuckLake writes NULL. */
  static void requireAbsent(Object value, DuckLakeRow r, String column) {
    if (value != null) {
      throw new InvalidArgumentException(
          tableOf(r) + "." + column + " is set on an inserted row: " + r);
    }
  }

  /**
   * Whether catalog id {@code id} is one the commit drew: in its range of {@code next_catalog_id},
   * from the premise's counter up to the new snapshot's, not included.
   */
  static boolean drawn(
      long id,
      dev.moraine.core.keyspace.proto.SnapshotValue premiseRecord,
      dev.moraine.core.keyspace.proto.SnapshotValue record) {
    return Long.compareUnsigned(id, premiseRecord.getNextCatalogId()) >= 0
        && Long.compareUnsigned(id, record.getNextCatalogId()) < 0;
  }

  /** The DuckLake table the row is of. */
  static String tableOf(DuckLakeRow r) {
    return r.def().name();
  }

  /** What {@code op} does, in words: "an insert into ducklake_data_file", ... */
  static String describe(StagedRows.Op op) {
    String what =
        op instanceof StagedRows.Insert
            ? "an insert into "
            : op instanceof StagedRows.End ? "an end of a row of " : "a delete of a row of ";
    return what + tableOf(op.row());
  }
}
