package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A column to create: its name, its DuckLake type name ({@code int64}, {@code varchar}, {@code
 * decimal(18,3)}, ...), whether it allows nulls, its default, and, for the nested types {@code
 * struct}, {@code list} and {@code map}, its child fields (stored as column rows of their own, in
 * pre-order, as DuckLake stores them). Validation happens in the verb that receives it.
 */
public record ColumnDef(
    String name,
    String type,
    boolean nullsAllowed,
    Optional<String> defaultValue,
    List<ColumnDef> children) {
  public ColumnDef {
    Objects.requireNonNull(defaultValue, "defaultValue");
    children = List.copyOf(Objects.requireNonNull(children, "children"));
  }

  /** A nullable leaf column without a default. */
  public static ColumnDef of(String name, String type) {
    return new ColumnDef(name, type, true, Optional.empty(), List.of());
  }

  /** A nullable nested column ({@code struct}, {@code list} or {@code map}) with its fields. */
  public static ColumnDef nested(String name, String type, ColumnDef... children) {
    return new ColumnDef(name, type, true, Optional.empty(), List.of(children));
  }

  /** This column with nulls refused. */
  public ColumnDef notNull() {
    return new ColumnDef(name, type, false, defaultValue, children);
  }

  /** This column with a default value (DuckLake's textual form). */
  public ColumnDef withDefault(String value) {
    return new ColumnDef(name, type, nullsAllowed, Optional.of(value), children);
  }
}
