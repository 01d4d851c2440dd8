package dev.moraine.ducklake.types;

import java.util.Locale;
import java.util.Optional;

/**
 * The base type names DuckLake 1.0 writes into {@code ducklake_column.column_type}.
 *
 * <p>Nested types are written by their base name only ({@code struct}, {@code list}, {@code map});
 * their children are separate {@code ducklake_column} rows with {@code parent_column} set. {@link
 * #DECIMAL} carries precision and scale in the name (see {@link DuckLakeType}).
 */
public enum DuckLakeTypeId {
  /** BOOLEAN. */
  BOOLEAN("boolean"),
  /** TINYINT. */
  INT8("int8"),
  /** SMALLINT. */
  INT16("int16"),
  /** INTEGER. */
  INT32("int32"),
  /** BIGINT. */
  INT64("int64"),
  /** HUGEINT. */
  INT128("int128"),
  /** UTINYINT. */
  UINT8("uint8"),
  /** USMALLINT. */
  UINT16("uint16"),
  /** UINTEGER. */
  UINT32("uint32"),
  /** UBIGINT. */
  UINT64("uint64"),
  /** UHUGEINT. */
  UINT128("uint128"),
  /** FLOAT. */
  FLOAT32("float32"),
  /** DOUBLE. */
  FLOAT64("float64"),
  /** DECIMAL(p,s); written {@code decimal(p,s)}. */
  DECIMAL("decimal"),
  /** TIME. */
  TIME("time"),
  /** TIME_NS. */
  TIME_NS("time_ns"),
  /** DATE. */
  DATE("date"),
  /** TIMESTAMP (microseconds); {@code timestamp_us} is accepted as an alias when parsing. */
  TIMESTAMP("timestamp"),
  /** TIMESTAMP_MS. */
  TIMESTAMP_MS("timestamp_ms"),
  /** TIMESTAMP_NS. */
  TIMESTAMP_NS("timestamp_ns"),
  /** TIMESTAMP_S. */
  TIMESTAMP_S("timestamp_s"),
  /** TIMESTAMP WITH TIME ZONE. */
  TIMESTAMPTZ("timestamptz"),
  /** TIME WITH TIME ZONE. */
  TIMETZ("timetz"),
  /** INTERVAL. */
  INTERVAL("interval"),
  /** VARCHAR (without collation). */
  VARCHAR("varchar"),
  /** BLOB. */
  BLOB("blob"),
  /** UUID. */
  UUID("uuid"),
  /** STRUCT; fields are child columns. */
  STRUCT("struct"),
  /** MAP; key and value are child columns. */
  MAP("map"),
  /** LIST; the element is a child column. */
  LIST("list"),
  /** JSON (DuckDB's VARCHAR alias). */
  JSON("json"),
  /** VARIANT. */
  VARIANT("variant"),
  /** GEOMETRY. */
  GEOMETRY("geometry"),
  /** DuckLake's placeholder for a type it cannot name. */
  UNKNOWN("unknown");

  /** The parse-only alias of {@link #TIMESTAMP}. */
  public static final String TIMESTAMP_US_ALIAS = "timestamp_us";

  private final String typeName;

  DuckLakeTypeId(String typeName) {
    this.typeName = typeName;
  }

  /** The name DuckLake writes. */
  public String typeName() {
    return typeName;
  }

  /** Whether the type's children are separate column rows. */
  public boolean isNested() {
    return this == STRUCT || this == MAP || this == LIST;
  }

  /**
   * Looks a base name up ASCII case-insensitively, as DuckLake does; {@code decimal} needs {@link
   * DuckLakeType#parse}.
   */
  static Optional<DuckLakeTypeId> fromName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals(TIMESTAMP_US_ALIAS)) {
      return Optional.of(TIMESTAMP);
    }
    for (DuckLakeTypeId id : values()) {
      if (id != DECIMAL && id.typeName.equals(lower) && isAscii(name)) {
        return Optional.of(id);
      }
    }
    return Optional.empty();
  }

  private static boolean isAscii(String s) {
    return s.chars().allMatch(c -> c < 0x80);
  }
}
