package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Optional;

/**
 * The implementations of a macro to create. Every implementation has the same type: {@code scalar}
 * ({@code CREATE MACRO m(x) AS x + 1}) or {@code table} ({@code CREATE MACRO m() AS TABLE ...}).
 */
public record NewMacro(List<Implementation> implementations) {
  /** The scalar macro type. */
  public static final String SCALAR = "scalar";

  /** The table macro type. */
  public static final String TABLE = "table";

  public NewMacro {
    implementations = implementations == null ? null : List.copyOf(implementations);
  }

  /** A macro with one implementation. */
  public static NewMacro of(Implementation implementation) {
    return new NewMacro(List.of(implementation));
  }

  /** One implementation: SQL text in a dialect, its type, and its parameters in order. */
  public record Implementation(
      String dialect, String sql, String macroType, List<Parameter> parameters) {
    public Implementation {
      parameters = parameters == null ? null : List.copyOf(parameters);
    }

    /** A DuckDB scalar macro. */
    public static Implementation scalar(String sql, Parameter... parameters) {
      return new Implementation("duckdb", sql, SCALAR, List.of(parameters));
    }

    /** A DuckDB table macro. */
    public static Implementation table(String sql, Parameter... parameters) {
      return new Implementation("duckdb", sql, TABLE, List.of(parameters));
    }
  }

  /**
   * One parameter: its name, its type as DuckLake writes it, and an optional default value with the
   * type of that value.
   */
  public record Parameter(
      String name, String type, Optional<String> defaultValue, String defaultValueType) {
    /** A parameter without a default. */
    public static Parameter of(String name, String type) {
      return new Parameter(name, type, Optional.empty(), "unknown");
    }
  }
}
