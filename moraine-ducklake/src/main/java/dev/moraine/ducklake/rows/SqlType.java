package dev.moraine.ducklake.rows;

/** The SQL column types used by the DuckLake 1.0 metadata tables. */
public enum SqlType {
  /** 64-bit signed integer; Java {@code Long}. */
  BIGINT,
  /** Text; Java {@code String}. */
  VARCHAR,
  /** Java {@code Boolean}. */
  BOOLEAN,
  /** Java {@code java.util.UUID}. */
  UUID,
  /** Timestamp with time zone; Java {@code java.time.Instant}. */
  TIMESTAMPTZ
}
