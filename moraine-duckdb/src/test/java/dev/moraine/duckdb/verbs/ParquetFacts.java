package dev.moraine.duckdb.verbs;

import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a Parquet file says about itself, read from the file and not from any catalog: its size, its
 * footer length (the little-endian length before the trailing magic), and per top-level column the
 * sizes, counts and bounds of its column chunks (through DuckDB's {@code parquet_metadata}, which
 * reads the footer). Our side registers files with these facts.
 */
record ParquetFacts(long records, long fileSize, long footerSize, List<Column> columns) {

  /** One column's facts, summed over row groups; bounds as the footer's logical values. */
  record Column(
      String name, long sizeBytes, long valueCount, long nullCount, String min, String max) {}

  static ParquetFacts read(ReferenceDuckLake duck, Path file) throws SQLException, IOException {
    long size = Files.size(file);
    long footer;
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      byte[] tail = new byte[8];
      raf.seek(size - 8);
      raf.readFully(tail);
      footer = ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xffffffffL;
    }
    String literal = "'" + file.toString().replace("'", "''") + "'";
    List<Map<String, Object>> rows =
        duck.query(
            "SELECT path_in_schema AS name, sum(total_compressed_size) AS size,"
                + " sum(num_values) AS n, sum(stats_null_count) AS nulls,"
                + " min(stats_min_value) AS lo, max(stats_max_value) AS hi"
                + " FROM parquet_metadata("
                + literal
                + ") GROUP BY path_in_schema, column_id ORDER BY column_id");
    long records =
        ((Number)
                duck.query("SELECT num_rows FROM parquet_file_metadata(" + literal + ")")
                    .get(0)
                    .get("num_rows"))
            .longValue();
    List<Column> columns = new ArrayList<>();
    for (Map<String, Object> r : rows) {
      columns.add(
          new Column(
              String.valueOf(r.get("name")),
              ((Number) r.get("size")).longValue(),
              ((Number) r.get("n")).longValue(),
              ((Number) r.get("nulls")).longValue(),
              (String) r.get("lo"),
              (String) r.get("hi")));
    }
    return new ParquetFacts(records, size, footer, columns);
  }

  /** The column statistics to register, the i-th file column as table column {@code ids[i]}. */
  List<NewFileColumnStats> stats(long... ids) {
    List<NewFileColumnStats> out = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      Column c = columns.get(i);
      out.add(
          new NewFileColumnStats(
              ids[i],
              c.sizeBytes(),
              c.valueCount(),
              c.nullCount(),
              Optional.ofNullable(c.min()),
              Optional.ofNullable(c.max()),
              Optional.empty(),
              Optional.empty()));
    }
    return out;
  }

  /**
   * The registration of this file as {@code path} (relative to its table): statistics for the
   * columns named in {@code tableColumns}, the i-th as column id i + 1, with DuckLake's value_count
   * (the non-null values; the footer counts all), and none for DuckLake's internal columns.
   *
   * @throws AssertionError for a column that is neither
   */
  NewDataFile registration(String path, List<String> tableColumns) {
    List<NewFileColumnStats> stats = new ArrayList<>();
    for (Column c : columns) {
      if (c.name().startsWith("_ducklake_internal_")) {
        continue;
      }
      int id = tableColumns.indexOf(c.name()) + 1;
      if (id == 0) {
        throw new AssertionError("column " + c.name() + " is not one of " + tableColumns);
      }
      stats.add(
          new NewFileColumnStats(
              id,
              c.sizeBytes(),
              c.valueCount() - c.nullCount(),
              c.nullCount(),
              Optional.ofNullable(c.min()),
              Optional.ofNullable(c.max()),
              Optional.empty(),
              Optional.empty()));
    }
    return new NewDataFile(
        path, true, "parquet", records, fileSize, footerSize, Optional.empty(), stats, List.of());
  }
}
