package dev.moraine.core.keyspace.key;

import java.util.StringJoiner;

/**
 * The identity of one catalog entity: its kind and id components, in the order they are encoded
 * (RFC 0002 §5.2). Used under {@code current} and, for versioned kinds, under {@code history}.
 */
public sealed interface EntityKey {
  EntityKind kind();

  /** The id components in encoding order; a fresh array. */
  long[] ids();

  /** For example {@code column/1/2}; ids printed unsigned. */
  default String printable() {
    StringJoiner j = new StringJoiner("/", kind().label() + "/", "");
    for (long id : ids()) {
      j.add(Long.toUnsignedString(id));
    }
    return j.toString();
  }

  /** Builds the record of {@code kind} from components in encoding order. */
  static EntityKey of(EntityKind kind, long... ids) {
    if (ids.length != kind.arity()) {
      throw new IllegalArgumentException(
          kind + " takes " + kind.arity() + " id(s), got " + ids.length);
    }
    return switch (kind) {
      case SCHEMA -> new Schema(ids[0]);
      case TABLE -> new Table(ids[0]);
      case VIEW -> new View(ids[0]);
      case COLUMN -> new Column(ids[0], ids[1]);
      case PARTITION -> new Partition(ids[0], ids[1]);
      case DATA_FILE -> new DataFile(ids[0], ids[1]);
      case DELETE_FILE -> new DeleteFile(ids[0], ids[1]);
      case FILE_COLUMN_STATS -> new FileColumnStats(ids[0], ids[1], ids[2]);
      case TABLE_STATS -> new TableStats(ids[0]);
      case TABLE_COLUMN_STATS -> new TableColumnStats(ids[0], ids[1]);
      case TAG -> new Tag(ids[0]);
      case OPTION_SCOPE -> new OptionScope(ids[0], ids[1]);
      case SORT -> new Sort(ids[0], ids[1]);
      case MACRO -> new Macro(ids[0]);
      case MAPPING -> new Mapping(ids[0], ids[1]);
      case INDEX_DEFINITION -> new IndexDefinition(ids[0], ids[1]);
    };
  }

  record Schema(long schemaId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.SCHEMA;
    }

    public long[] ids() {
      return new long[] {schemaId};
    }
  }

  record Table(long tableId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.TABLE;
    }

    public long[] ids() {
      return new long[] {tableId};
    }
  }

  record View(long viewId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.VIEW;
    }

    public long[] ids() {
      return new long[] {viewId};
    }
  }

  record Column(long tableId, long columnId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.COLUMN;
    }

    public long[] ids() {
      return new long[] {tableId, columnId};
    }
  }

  record Partition(long tableId, long partitionId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.PARTITION;
    }

    public long[] ids() {
      return new long[] {tableId, partitionId};
    }
  }

  record DataFile(long tableId, long dataFileId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.DATA_FILE;
    }

    public long[] ids() {
      return new long[] {tableId, dataFileId};
    }
  }

  record DeleteFile(long tableId, long deleteFileId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.DELETE_FILE;
    }

    public long[] ids() {
      return new long[] {tableId, deleteFileId};
    }
  }

  record FileColumnStats(long tableId, long dataFileId, long columnId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.FILE_COLUMN_STATS;
    }

    public long[] ids() {
      return new long[] {tableId, dataFileId, columnId};
    }
  }

  record TableStats(long tableId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.TABLE_STATS;
    }

    public long[] ids() {
      return new long[] {tableId};
    }
  }

  record TableColumnStats(long tableId, long columnId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.TABLE_COLUMN_STATS;
    }

    public long[] ids() {
      return new long[] {tableId, columnId};
    }
  }

  /** All tags of one object (schema, table, view or macro id). */
  record Tag(long objectId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.TAG;
    }

    public long[] ids() {
      return new long[] {objectId};
    }
  }

  /**
   * The options of one scope: {@code scopeKind} 0 global (with {@code scopeId} 0), 1 a schema, 2 a
   * table. Other scope kinds decode (the format's reader does not check them) but no writer uses
   * them.
   */
  record OptionScope(long scopeKind, long scopeId) implements EntityKey {
    public static final long GLOBAL = 0;
    public static final long SCHEMA = 1;
    public static final long TABLE = 2;

    public static OptionScope global() {
      return new OptionScope(GLOBAL, 0);
    }

    public EntityKind kind() {
      return EntityKind.OPTION_SCOPE;
    }

    public long[] ids() {
      return new long[] {scopeKind, scopeId};
    }
  }

  record Sort(long tableId, long sortId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.SORT;
    }

    public long[] ids() {
      return new long[] {tableId, sortId};
    }
  }

  record Macro(long macroId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.MACRO;
    }

    public long[] ids() {
      return new long[] {macroId};
    }
  }

  record Mapping(long tableId, long mappingId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.MAPPING;
    }

    public long[] ids() {
      return new long[] {tableId, mappingId};
    }
  }

  record IndexDefinition(long tableId, long indexId) implements EntityKey {
    public EntityKind kind() {
      return EntityKind.INDEX_DEFINITION;
    }

    public long[] ids() {
      return new long[] {tableId, indexId};
    }
  }
}
