package dev.moraine.core.catalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A commit was refused because it would give an equality index declared UNIQUE (the lake format's
 * native indexes, RFC 0002 §10) a value that another row holds: a row the index lists at the
 * commit's premise, or another row the same commit writes. A value with a NULL in it is exempt, as
 * in the Rust implementation. Nothing of the commit was written and the head did not move.
 *
 * <p>The check is made when the closure has returned, after the commit's index removals (a row
 * deleted or updated by the same commit gives its value up first), against the premise the commit
 * ran on: in a batch of commits, that premise includes the commits before it, so of two commits
 * claiming one value in one batch the first lands and the second gets this.
 *
 * <p>Do not retry the same commit: it is refused again while the holder keeps the value. Delete or
 * update the holding row first, or write another value.
 */
public final class DuplicateIndexValueException extends MoraineException {
  private static final long serialVersionUID = 1L;

  private final long tableId;
  private final String schemaName;
  private final String tableName;
  private final long indexId;
  private final String indexName;
  private final List<Object> values;
  private final long rowId;
  private final long holderRowId;
  private final boolean holderInThisCommit;

  /**
   * Row {@code rowId} of table {@code tableId} ({@code schemaName.tableName}) would take, in index
   * {@code indexName} ({@code indexId}), the value {@code values} (one per indexed column) that row
   * {@code holderRowId} holds, a row of the premise or, when {@code holderInThisCommit}, one the
   * same commit writes.
   */
  public DuplicateIndexValueException(
      long tableId,
      String schemaName,
      String tableName,
      long indexId,
      String indexName,
      List<Object> values,
      long rowId,
      long holderRowId,
      boolean holderInThisCommit) {
    super(
        ErrorCode.DUPLICATE_INDEX_VALUE,
        message(schemaName, tableName, indexName, values, rowId, holderRowId, holderInThisCommit));
    this.tableId = tableId;
    this.schemaName = schemaName;
    this.tableName = tableName;
    this.indexId = indexId;
    this.indexName = indexName;
    this.values = Collections.unmodifiableList(new ArrayList<>(values));
    this.rowId = rowId;
    this.holderRowId = holderRowId;
    this.holderInThisCommit = holderInThisCommit;
  }

  // The text avoids the words DuckLake's retry loop takes for a retryable error ("primary key",
  // "unique", "conflict", "concurrent"): re-running the same commit gives the same answer.
  private static String message(
      String schemaName,
      String tableName,
      String indexName,
      List<Object> values,
      long rowId,
      long holderRowId,
      boolean inThisCommit) {
    return "commit refused: row "
        + Long.toUnsignedString(rowId)
        + " of "
        + schemaName
        + "."
        + tableName
        + " would hold the value "
        + render(values)
        + " of the equality index "
        + indexName
        + ", which allows one row per value and "
        + (inThisCommit
            ? "gives it to row " + Long.toUnsignedString(holderRowId) + " of this same commit"
            : "already gives it to row " + Long.toUnsignedString(holderRowId))
        + "; nothing was written";
  }

  private static String render(List<Object> values) {
    List<String> parts = new ArrayList<>(values.size());
    for (Object v : values) {
      if (v instanceof String s) {
        parts.add("'" + s.replace("'", "''") + "'");
      } else if (v instanceof byte[] b) {
        parts.add("x'" + java.util.HexFormat.of().formatHex(b) + "'");
      } else {
        parts.add(String.valueOf(v));
      }
    }
    return "(" + String.join(", ", parts) + ")";
  }

  /** The id of the indexed table. */
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

  /** The id of the index. */
  public long indexId() {
    return indexId;
  }

  /** The index's name. */
  public String indexName() {
    return indexName;
  }

  /**
   * The value, one Java value per indexed column in the index's column order, as the commit gave it
   * (null for none).
   */
  public List<Object> values() {
    return values;
  }

  /** The row that was refused the value. */
  public long rowId() {
    return rowId;
  }

  /** The row that holds the value. */
  public long holderRowId() {
    return holderRowId;
  }

  /** Whether the holder is a row the same commit writes, rather than one of the premise. */
  public boolean holderInThisCommit() {
    return holderInThisCommit;
  }
}
