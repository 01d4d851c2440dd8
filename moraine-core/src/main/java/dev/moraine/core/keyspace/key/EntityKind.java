package dev.moraine.core.keyspace.key;

/**
 * The kinds of catalog entity under {@code current} ({@code 04 02 <kind>}) and {@code history}
 * ({@code 05 <kind>}), with their kind byte, the number of 64-bit id components that follow it, and
 * whether the kind is versioned (RFC 0002 §5.2).
 */
public enum EntityKind {
  SCHEMA(0x02, "schema", 1, true),
  TABLE(0x03, "table", 1, true),
  VIEW(0x04, "view", 1, true),
  COLUMN(0x05, "column", 2, true),
  PARTITION(0x06, "partition", 2, true),
  DATA_FILE(0x07, "data_file", 2, true),
  DELETE_FILE(0x08, "delete_file", 2, true),
  FILE_COLUMN_STATS(0x09, "file_column_stats", 3, false),
  TABLE_STATS(0x0a, "table_stats", 1, false),
  TABLE_COLUMN_STATS(0x0b, "table_column_stats", 2, false),
  TAG(0x0c, "tag", 1, false),
  OPTION_SCOPE(0x0d, "option", 2, false),
  SORT(0x0e, "sort", 2, true),
  MACRO(0x0f, "macro", 1, true),
  MAPPING(0x10, "mapping", 2, false),
  INDEX_DEFINITION(0x11, "index_definition", 2, true);

  private final int tag;
  private final String label;
  private final int arity;
  private final boolean versioned;

  EntityKind(int tag, String label, int arity, boolean versioned) {
    this.tag = tag;
    this.label = label;
    this.arity = arity;
    this.versioned = versioned;
  }

  /** The kind byte. */
  public int tag() {
    return tag;
  }

  /** The name used in printable keys. */
  public String label() {
    return label;
  }

  /** How many 64-bit components follow the kind byte. */
  public int arity() {
    return arity;
  }

  /**
   * Whether a change ends the old version into {@code history}; an unversioned record is
   * overwritten in place.
   */
  public boolean versioned() {
    return versioned;
  }

  /**
   * Whether the first component is the owning table's id, so that {@link
   * KeyPrefixes#currentOfTable} selects one table's records of this kind.
   */
  public boolean tableScoped() {
    return switch (this) {
      case SCHEMA, TABLE, VIEW, TAG, OPTION_SCOPE, MACRO -> false;
      default -> true;
    };
  }

  /** The entity kind whose key byte is {@code tag}, or null. */
  public static EntityKind ofTag(int tag) {
    for (EntityKind k : values()) {
      if (k.tag == tag) {
        return k;
      }
    }
    return null;
  }
}
