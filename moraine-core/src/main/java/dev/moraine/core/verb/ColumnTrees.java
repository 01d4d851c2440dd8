package dev.moraine.core.verb;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.types.DuckLakeType;
import dev.moraine.ducklake.types.DuckLakeTypeId;
import dev.moraine.ducklake.types.DuckLakeTypeParseException;
import java.util.ArrayList;
import java.util.List;

/** Validation of the column definitions a verb receives, and their count in column records. */
public final class ColumnTrees {
  private ColumnTrees() {}

  /**
   * Checks every node of {@code defs}: a name, unique among its siblings (case-insensitively); a
   * type DuckLake can name; children exactly where the type has them ({@code struct} one or more,
   * {@code list} one, {@code map} two, every other type none).
   *
   * @throws InvalidArgumentException on the first node that breaks a rule
   */
  static void validate(List<ColumnDef> defs, String where) {
    List<String> seen = new ArrayList<>();
    for (ColumnDef def : defs) {
      if (def == null) {
        throw new InvalidArgumentException("a column definition of " + where + " is null");
      }
      Names.nonEmpty("column", def.name());
      for (String other : seen) {
        if (Names.same(other, def.name())) {
          throw new AlreadyExistsException("column '" + def.name() + "' appears twice in " + where);
        }
      }
      seen.add(def.name());
      DuckLakeType type = parse(def);
      int children = def.children().size();
      DuckLakeTypeId id = type.id();
      boolean ok =
          switch (id) {
            case STRUCT -> children >= 1;
            case LIST -> children == 1;
            case MAP -> children == 2;
            default -> children == 0;
          };
      if (!ok) {
        throw new InvalidArgumentException(
            "column '"
                + def.name()
                + "' of type "
                + type.format()
                + " cannot have "
                + children
                + " child field(s)");
      }
      validate(def.children(), "column '" + def.name() + "'");
    }
  }

  /** The type name as the lake stores it (DuckLake's lower-case spelling). */
  static String storedType(ColumnDef def) {
    return parse(def).format();
  }

  private static DuckLakeType parse(ColumnDef def) {
    if (def.type() == null) {
      throw new InvalidArgumentException("column '" + def.name() + "' has no type");
    }
    DuckLakeType type;
    try {
      type = DuckLakeType.parse(def.type());
    } catch (DuckLakeTypeParseException e) {
      throw new InvalidArgumentException(
          "column '" + def.name() + "': '" + def.type() + "' is not a DuckLake type name");
    }
    if (type.id() == DuckLakeTypeId.VARIANT) {
      // The Rust implementation refuses variant: its inlined data goes through Arrow, which
      // DuckDB's Arrow export cannot carry for variant. A lake must open in both.
      throw new InvalidArgumentException(
          "column '" + def.name() + "': type " + type.format() + " cannot be stored in this lake");
    }
    return type;
  }

  /** Whether a stored type name is one of the nested types. */
  static boolean isNestedType(String stored) {
    try {
      return DuckLakeType.parse(stored).isNested();
    } catch (DuckLakeTypeParseException e) {
      return false;
    }
  }

  /** How many column records {@code defs} become: one per node of every tree. */
  static long nodeCount(List<ColumnDef> defs) {
    long n = 0;
    for (ColumnDef def : defs) {
      n += 1 + nodeCount(def.children());
    }
    return n;
  }
}
