package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Optional;

/** A macro ({@code ducklake_macro} with its implementations and parameters) at a snapshot. */
public record MacroInfo(
    long macroId,
    long beginSnapshot,
    long schemaId,
    String name,
    List<Implementation> implementations) {
  public MacroInfo {
    implementations = List.copyOf(implementations);
  }

  /** One implementation ({@code ducklake_macro_impl}). */
  public record Implementation(
      long implId, String dialect, String sql, String macroType, List<Parameter> parameters) {
    public Implementation {
      parameters = List.copyOf(parameters);
    }
  }

  /** One parameter ({@code ducklake_macro_parameters}). */
  public record Parameter(
      long columnId,
      String name,
      String type,
      Optional<String> defaultValue,
      String defaultValueType) {}
}
