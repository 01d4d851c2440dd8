package dev.moraine.ducklake.types;

import java.util.Objects;

/**
 * A value of {@code ducklake_column.column_type}: a base type, or {@code decimal(p,s)}.
 *
 * @param id the base type
 * @param precision decimal precision (1..38), 0 for other types
 * @param scale decimal scale (0..precision), 0 for other types
 */
public record DuckLakeType(DuckLakeTypeId id, int precision, int scale) {
  /** The widest decimal DuckDB supports. */
  public static final int MAX_DECIMAL_PRECISION = 38;

  /**
   * @throws IllegalArgumentException if precision or scale is out of range for a decimal, or
   *     non-zero for another type
   */
  public DuckLakeType {
    Objects.requireNonNull(id, "id");
    if (id == DuckLakeTypeId.DECIMAL) {
      if (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision) {
        throw new IllegalArgumentException("invalid decimal(" + precision + "," + scale + ")");
      }
    } else if (precision != 0 || scale != 0) {
      throw new IllegalArgumentException(id + " takes no precision or scale");
    }
  }

  /** A non-decimal type. */
  public static DuckLakeType of(DuckLakeTypeId id) {
    return new DuckLakeType(id, 0, 0);
  }

  /** {@code decimal(precision,scale)}. */
  public static DuckLakeType decimal(int precision, int scale) {
    return new DuckLakeType(DuckLakeTypeId.DECIMAL, precision, scale);
  }

  /**
   * Parses a {@code column_type} value. Base names match ASCII case-insensitively; {@code
   * timestamp_us} is read as {@code timestamp}; {@code decimal(p,s)} may have spaces around the
   * numbers.
   *
   * @throws DuckLakeTypeParseException if the text is not a DuckLake type name
   */
  public static DuckLakeType parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.regionMatches(true, 0, "decimal(", 0, 8) && text.endsWith(")")) {
      return parseDecimal(text);
    }
    return DuckLakeTypeId.fromName(text)
        .map(DuckLakeType::of)
        .orElseThrow(() -> new DuckLakeTypeParseException(text, "unsupported type"));
  }

  private static DuckLakeType parseDecimal(String text) {
    String[] parts = text.substring(8, text.length() - 1).split(",", -1);
    if (parts.length != 2) {
      throw new DuckLakeTypeParseException(text, "expected decimal(width,scale)");
    }
    int precision = number(text, parts[0]);
    int scale = number(text, parts[1]);
    try {
      return decimal(precision, scale);
    } catch (IllegalArgumentException e) {
      throw new DuckLakeTypeParseException(text, e.getMessage());
    }
  }

  private static int number(String text, String part) {
    String t = part.strip();
    if (t.isEmpty() || !t.chars().allMatch(c -> c >= '0' && c <= '9') || t.length() > 9) {
      throw new DuckLakeTypeParseException(text, "expected a decimal number, got '" + part + "'");
    }
    return Integer.parseInt(t);
  }

  /** The name DuckLake writes: lower case, {@code decimal(p,s)} without spaces. */
  public String format() {
    return id == DuckLakeTypeId.DECIMAL
        ? "decimal(" + precision + ',' + scale + ')'
        : id.typeName();
  }

  /** Whether the type's children are separate column rows. */
  public boolean isNested() {
    return id.isNested();
  }

  @Override
  public String toString() {
    return format();
  }
}
