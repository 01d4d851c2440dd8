package dev.moraine.ducklake.changes;

import java.util.Objects;

/**
 * One {@code kind:value} entry of a {@code changes_made} text.
 *
 * <p>Three shapes cover the recognised kinds: {@link ById} (ids written in decimal), {@link
 * BySchemaName} ({@code created_schema:"name"}) and {@link ByQualifiedName} ({@code
 * created_table:"schema"."table"} and the other creations). A kind word the parser does not
 * recognise becomes {@link Unclassifiable}, which keeps the original text.
 *
 * <p>Equality is structural on the typed content, not on the text it was parsed from: the legacy
 * alias {@code flushed_inlined:3} and {@code inline_flush:3} are equal entries, and so are {@code
 * INSERTED_INTO_TABLE:7} and {@code inserted_into_table:7}. Names compare exactly
 * (case-sensitively); case-insensitive matching is the conflict matrix's business.
 */
public sealed interface ChangeEntry
    permits ChangeEntry.ById,
        ChangeEntry.BySchemaName,
        ChangeEntry.ByQualifiedName,
        ChangeEntry.Unclassifiable {

  /** The kind of this entry. */
  ChangeKind kind();

  /**
   * The entry as text. For recognised kinds this is the canonical form that {@link
   * ChangesMade#emit(ChangeSet)} writes; for {@link Unclassifiable} it is the text as parsed.
   */
  String raw();

  /** An entry whose value is an object id: a table, view, schema or macro id. */
  record ById(ChangeKind kind, long id) implements ChangeEntry {
    /**
     * @param kind a kind whose {@link ChangeKind#shape()} is {@code ID}
     * @param id the id, read as an unsigned 64-bit number (DuckLake ids are unsigned)
     * @throws IllegalArgumentException if the kind does not carry an id
     */
    public ById {
      Objects.requireNonNull(kind, "kind");
      if (kind.shape() != ChangeKind.ValueShape.ID) {
        throw new IllegalArgumentException(kind + " does not carry an id");
      }
    }

    @Override
    public String raw() {
      return kind.token() + ':' + Long.toUnsignedString(id);
    }
  }

  /** {@code created_schema:"name"}. */
  record BySchemaName(String schemaName) implements ChangeEntry {
    /**
     * @throws NullPointerException if the name is null
     */
    public BySchemaName {
      Objects.requireNonNull(schemaName, "schemaName");
    }

    @Override
    public ChangeKind kind() {
      return ChangeKind.CREATED_SCHEMA;
    }

    @Override
    public String raw() {
      return kind().token() + ':' + Quoting.quote(schemaName);
    }
  }

  /** An entry naming an object inside a schema: {@code kind:"schema"."name"}. */
  record ByQualifiedName(ChangeKind kind, String schemaName, String name) implements ChangeEntry {
    /**
     * @param kind a kind whose {@link ChangeKind#shape()} is {@code QUALIFIED_NAME}
     * @throws IllegalArgumentException if the kind does not carry a qualified name
     */
    public ByQualifiedName {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(schemaName, "schemaName");
      Objects.requireNonNull(name, "name");
      if (kind.shape() != ChangeKind.ValueShape.QUALIFIED_NAME) {
        throw new IllegalArgumentException(kind + " does not carry a qualified name");
      }
    }

    @Override
    public String raw() {
      return kind.token() + ':' + Quoting.quote(schemaName) + '.' + Quoting.quote(name);
    }
  }

  /**
   * An entry with a kind word DuckLake's 1.0 grammar does not define. It is kept verbatim so a
   * caller can log it; the conflict matrix treats it as conflicting with everything.
   *
   * @param kindWord the text before the first colon, as written
   * @param value the text after the colon up to the next comma outside quotes, as written
   */
  record Unclassifiable(String kindWord, String value) implements ChangeEntry {
    /**
     * @throws NullPointerException if either part is null
     */
    public Unclassifiable {
      Objects.requireNonNull(kindWord, "kindWord");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public ChangeKind kind() {
      return ChangeKind.UNCLASSIFIABLE;
    }

    @Override
    public String raw() {
      return kindWord + ':' + value;
    }
  }

  // ---- factories ------------------------------------------------------------------------

  /** An id entry of the given kind. */
  static ChangeEntry ofId(ChangeKind kind, long id) {
    return new ById(kind, id);
  }

  /** A {@code created_schema} entry. */
  static ChangeEntry createdSchema(String schemaName) {
    return new BySchemaName(schemaName);
  }

  /** A {@code created_table} entry. */
  static ChangeEntry createdTable(String schemaName, String tableName) {
    return new ByQualifiedName(ChangeKind.CREATED_TABLE, schemaName, tableName);
  }

  /** A {@code created_view} entry. */
  static ChangeEntry createdView(String schemaName, String viewName) {
    return new ByQualifiedName(ChangeKind.CREATED_VIEW, schemaName, viewName);
  }

  /** A {@code created_scalar_macro} entry. */
  static ChangeEntry createdScalarMacro(String schemaName, String macroName) {
    return new ByQualifiedName(ChangeKind.CREATED_SCALAR_MACRO, schemaName, macroName);
  }

  /** A {@code created_table_macro} entry. */
  static ChangeEntry createdTableMacro(String schemaName, String macroName) {
    return new ByQualifiedName(ChangeKind.CREATED_TABLE_MACRO, schemaName, macroName);
  }

  /** A {@code dropped_schema} entry. */
  static ChangeEntry droppedSchema(long schemaId) {
    return new ById(ChangeKind.DROPPED_SCHEMA, schemaId);
  }

  /** A {@code dropped_table} entry. */
  static ChangeEntry droppedTable(long tableId) {
    return new ById(ChangeKind.DROPPED_TABLE, tableId);
  }

  /** A {@code dropped_view} entry. */
  static ChangeEntry droppedView(long viewId) {
    return new ById(ChangeKind.DROPPED_VIEW, viewId);
  }

  /** An {@code inserted_into_table} entry. */
  static ChangeEntry insertedIntoTable(long tableId) {
    return new ById(ChangeKind.INSERTED_INTO_TABLE, tableId);
  }

  /** A {@code deleted_from_table} entry. */
  static ChangeEntry deletedFromTable(long tableId) {
    return new ById(ChangeKind.DELETED_FROM_TABLE, tableId);
  }

  /** An {@code altered_table} entry. */
  static ChangeEntry alteredTable(long tableId) {
    return new ById(ChangeKind.ALTERED_TABLE, tableId);
  }

  /** An {@code altered_view} entry. */
  static ChangeEntry alteredView(long viewId) {
    return new ById(ChangeKind.ALTERED_VIEW, viewId);
  }

  /** An {@code inlined_insert} entry. */
  static ChangeEntry inlinedInsert(long tableId) {
    return new ById(ChangeKind.INLINED_INSERT, tableId);
  }

  /** An {@code inlined_delete} entry. */
  static ChangeEntry inlinedDelete(long tableId) {
    return new ById(ChangeKind.INLINED_DELETE, tableId);
  }

  /** An {@code inline_flush} entry. */
  static ChangeEntry inlineFlush(long tableId) {
    return new ById(ChangeKind.INLINE_FLUSH, tableId);
  }

  /** A {@code merge_adjacent} entry. */
  static ChangeEntry mergeAdjacent(long tableId) {
    return new ById(ChangeKind.MERGE_ADJACENT, tableId);
  }

  /** A {@code rewrite_delete} entry. */
  static ChangeEntry rewriteDelete(long tableId) {
    return new ById(ChangeKind.REWRITE_DELETE, tableId);
  }
}
