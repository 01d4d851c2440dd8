package dev.moraine.duckdb.export;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes one table of the export file hold exactly a given set of rows, changing only the rows that
 * differ: the rows are staged into a temporary table of the same shape (temporary tables live
 * outside the file), the file's rows that are not among them are deleted, and the staged rows the
 * file lacks are inserted, in the order of their values: DuckLake reads some tables without an
 * order (its flush walks {@code ducklake_inlined_data_tables} as stored), so they are stored in
 * ascending order, as stock appends them. A row whose {@code end_snapshot} was set since the last
 * export is thus one delete and one insert. Runs inside the caller's transaction.
 */
final class TableSync {
  /** Rows per staging INSERT statement. */
  private static final int ROWS_PER_STATEMENT = 500;

  private static final String STAGE = "moraine_export_stage";

  private TableSync() {}

  /** What one sync changed. */
  record Changes(long inserted, long deleted) {}

  /**
   * Brings {@code table} (in the file's main schema, with {@code columns} in order) to exactly
   * {@code rows}, each given as its column literals.
   */
  static Changes sync(
      Connection connection, String table, List<String> columns, List<List<String>> rows)
      throws SQLException {
    String target = "main." + SqlLiterals.identifier(table);
    try (Statement st = connection.createStatement()) {
      st.execute("DROP TABLE IF EXISTS temp." + STAGE);
      st.execute("CREATE TEMP TABLE " + STAGE + " AS SELECT * FROM " + target + " LIMIT 0");
      for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
        List<List<String>> chunk =
            rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT));
        StringBuilder sql = new StringBuilder("INSERT INTO temp.").append(STAGE).append(" VALUES ");
        for (int i = 0; i < chunk.size(); i++) {
          sql.append(i == 0 ? "(" : ", (").append(String.join(", ", chunk.get(i))).append(')');
        }
        st.execute(sql.toString());
      }
      List<String> same = new ArrayList<>(columns.size());
      for (String c : columns) {
        String id = SqlLiterals.identifier(c);
        same.add("s." + id + " IS NOT DISTINCT FROM t." + id);
      }
      long deleted =
          st.executeUpdate(
              "DELETE FROM "
                  + target
                  + " t WHERE NOT EXISTS (SELECT 1 FROM temp."
                  + STAGE
                  + " s WHERE "
                  + String.join(" AND ", same)
                  + ")");
      long inserted =
          st.executeUpdate(
              "INSERT INTO "
                  + target
                  + " SELECT * FROM (SELECT * FROM temp."
                  + STAGE
                  + " EXCEPT ALL SELECT * FROM "
                  + target
                  + ") ORDER BY ALL");
      st.execute("DROP TABLE temp." + STAGE);
      return new Changes(inserted, deleted);
    }
  }
}
