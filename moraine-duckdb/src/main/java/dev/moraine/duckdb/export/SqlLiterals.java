package dev.moraine.duckdb.export;

import dev.moraine.core.rows.DuckDbType;
import java.time.Instant;
import java.util.UUID;

/**
 * SQL literals of the values the {@code ducklake_*} row records hold ({@code Long}, {@code String},
 * {@code Boolean}, {@code UUID}, {@code Instant}), for a column of the matching type: DuckDB casts
 * a quoted uuid or time on insert.
 */
final class SqlLiterals {
  private SqlLiterals() {}

  /**
   * The literal of one value.
   *
   * @throws IllegalArgumentException for a value of another Java type
   */
  static String of(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof Long || value instanceof Integer) {
      return value.toString();
    }
    if (value instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    if (value instanceof String s) {
      return quote(s);
    }
    if (value instanceof UUID u) {
      return quote(u.toString());
    }
    if (value instanceof Instant i) {
      return quote(i.toString());
    }
    throw new IllegalArgumentException(
        "no SQL literal for a metadata value of type " + value.getClass().getName());
  }

  /** A quoted string literal. */
  static String quote(String text) {
    return DuckDbType.quote(text);
  }

  /** A double-quoted identifier. */
  static String identifier(String name) {
    return DuckDbType.identifier(name);
  }
}
