package dev.moraine.core.catalog;

import java.util.List;

/**
 * A verb was refused because its table carries equality indexes (the lake format's native indexes,
 * which the Rust implementation creates) and this library cannot derive the entries the verb would
 * need: expiring data or delete files, registering a file mapped by name, the verbs on data-file
 * rows (registering a data or delete file, flushing inlined rows, deleting or updating a file row
 * inline) when the catalog has no {@link FileIndexValues} to read the files' values with, changing
 * any row while one of the table's indexes is not ready (building, maintaining or poisoned), or
 * dropping or retyping a column one of its indexes names. The inline verbs, and the file verbs
 * given a {@link FileIndexValues}, keep the entries of ready indexes themselves. The verb staged
 * nothing; if the closure lets this escape, the commit wrote nothing. Reads of the table, and
 * commits to tables without indexes, are unaffected (RFC 0002 §10.1, §10.2).
 *
 * <p>Do not retry: the same call is refused again. Give the writer catalog a {@link
 * FileIndexValues} for the file verbs; write the other changes with the Rust implementation, which
 * takes the entries from its caller, or drop the indexes there first.
 */
public final class IndexedTableException extends MoraineException {
  private static final long serialVersionUID = 1L;

  private final long tableId;
  private final String schemaName;
  private final String tableName;
  private final List<String> indexNames;

  /**
   * A refusal of {@code verb} on table {@code tableId}, named {@code schemaName.tableName}, whose
   * live indexes involved are {@code indexNames} (by index id).
   */
  public IndexedTableException(
      String verb, long tableId, String schemaName, String tableName, List<String> indexNames) {
    super(ErrorCode.INDEXED_TABLE, message(verb, tableId, schemaName, tableName, indexNames));
    this.tableId = tableId;
    this.schemaName = schemaName;
    this.tableName = tableName;
    this.indexNames = List.copyOf(indexNames);
  }

  // The text avoids the words DuckLake's retry loop takes for a retryable error ("primary key",
  // "unique", "conflict", "concurrent"): the refusal is final.
  private static String message(
      String verb, long tableId, String schemaName, String tableName, List<String> indexNames) {
    return verb
        + " refused: table "
        + schemaName
        + "."
        + tableName
        + " (id "
        + Long.toUnsignedString(tableId)
        + ") carries the equality index"
        + (indexNames.size() == 1 ? " " : "es ")
        + String.join(", ", indexNames)
        + ", whose entries this library cannot keep true for this change; nothing was staged";
  }

  /** The id of the table that carries the indexes. */
  public long tableId() {
    return tableId;
  }

  /** The name of the table's schema. */
  public String schemaName() {
    return schemaName;
  }

  /** The table's name. */
  public String tableName() {
    return tableName;
  }

  /** The names of the live indexes the refused verb would have left wrong, in index-id order. */
  public List<String> indexNames() {
    return indexNames;
  }
}
