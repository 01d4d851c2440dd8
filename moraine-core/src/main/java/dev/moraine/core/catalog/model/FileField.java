package dev.moraine.core.catalog.model;

import java.util.List;
import java.util.Objects;

/**
 * One column of a data file's own schema, by the name the file gives it, with its nested fields (a
 * struct's fields, a list's element, a map's key and value). A file registered with its fields is
 * mapped to the table by name, as DuckLake's {@code ducklake_add_data_files} maps a Parquet file
 * written without field ids.
 */
public record FileField(String name, List<FileField> children) {
  public FileField {
    children = List.copyOf(Objects.requireNonNull(children, "children"));
  }

  /** A field without nested fields. */
  public static FileField of(String name) {
    return new FileField(name, List.of());
  }

  /** A field with the given nested fields, in the file's order. */
  public static FileField nested(String name, FileField... children) {
    return new FileField(name, List.of(children));
  }
}
