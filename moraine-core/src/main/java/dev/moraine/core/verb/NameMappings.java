package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.FileField;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.NameMapping;
import dev.moraine.core.view.Names;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Resolves a data file's own fields against a table's live columns by name, into the rows of a
 * {@code map_by_name} column mapping. A pure function of its inputs: it stages nothing.
 *
 * <p>The rows are numbered from 0 in the file's pre-order (a field, then its nested fields), each
 * names its parent's row number, and {@code target_field_id} is the column id the field maps to.
 * Stock DuckLake 1.5.5 numbers and orders the rows of {@code ducklake_name_mapping} this way, in
 * the file's column order, not the table's.
 */
public final class NameMappings {
  /** The mapping type DuckLake writes for a file mapped by name. */
  static final String MAP_BY_NAME = "map_by_name";

  private final long tableId;
  private final List<ColumnValue> live;
  private final boolean allowMissing;
  private final List<NameMapping> rows = new ArrayList<>();

  private NameMappings(long tableId, List<ColumnValue> live, boolean allowMissing) {
    this.tableId = tableId;
    this.live = live;
    this.allowMissing = allowMissing;
  }

  /**
   * The mapping rows for {@code fields} over the table's live columns.
   *
   * @throws InvalidArgumentException for no fields, a null or empty name, two fields of one parent
   *     whose names compare equal (ASCII case-insensitively), or, unless {@code allowMissing}, a
   *     live column the file does not have
   * @throws NotFoundException for a field naming no live column under its parent
   */
  static List<NameMapping> resolve(
      long tableId, List<ColumnValue> live, List<FileField> fields, boolean allowMissing) {
    if (fields == null || fields.isEmpty()) {
      throw new InvalidArgumentException("a file mapped by name needs at least one field");
    }
    NameMappings m = new NameMappings(tableId, live, allowMissing);
    m.level(fields, null, null, "");
    return List.copyOf(m.rows);
  }

  /**
   * Maps one level: the file fields under one parent against the live columns under the matching
   * table column ({@code parentColumn}, null at the top).
   */
  private void level(List<FileField> fields, Long parentColumn, Long parentRow, String where) {
    List<ColumnValue> candidates = children(parentColumn);
    Set<String> seen = new HashSet<>();
    Set<Long> mapped = new HashSet<>();
    for (FileField f : fields) {
      if (f == null) {
        throw new InvalidArgumentException("a file field is null" + where);
      }
      Names.nonEmpty("file field name", f.name());
      if (!seen.add(f.name().toLowerCase(Locale.ROOT))) {
        throw new InvalidArgumentException(
            "the file has two fields named \"" + f.name() + "\"" + where);
      }
      ColumnValue target =
          candidates.stream()
              .filter(c -> Names.same(c.getColumnName(), f.name()))
              .findFirst()
              .orElseThrow(
                  () ->
                      VerbState.notFound(
                          "column \""
                              + f.name()
                              + "\" of table "
                              + Long.toUnsignedString(tableId)
                              + where));
      mapped.add(target.getColumnId());
      long row = rows.size();
      NameMapping.Builder b =
          NameMapping.newBuilder()
              .setColumnId(row)
              .setSourceName(f.name())
              .setTargetFieldId(target.getColumnId())
              .setIsPartition(false);
      if (parentRow != null) {
        b.setParentColumn(parentRow);
      }
      rows.add(b.build());
      level(f.children(), target.getColumnId(), row, " under \"" + f.name() + "\"" + where);
    }
    if (!allowMissing) {
      for (ColumnValue c : candidates) {
        if (!mapped.contains(c.getColumnId())) {
          throw new InvalidArgumentException(
              "column \""
                  + c.getColumnName()
                  + "\" of table "
                  + Long.toUnsignedString(tableId)
                  + " is not in the file"
                  + where);
        }
      }
    }
  }

  private List<ColumnValue> children(Long parentColumn) {
    OptionalLong parent =
        parentColumn == null ? OptionalLong.empty() : OptionalLong.of(parentColumn);
    List<ColumnValue> out = new ArrayList<>();
    for (ColumnValue c : live) {
      boolean top = !c.hasParentColumn();
      if (parent.isEmpty() ? top : !top && c.getParentColumn() == parent.getAsLong()) {
        out.add(c);
      }
    }
    return out;
  }
}
