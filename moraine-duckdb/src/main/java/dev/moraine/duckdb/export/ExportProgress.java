package dev.moraine.duckdb.export;

/**
 * Told how far an export has got, one call per table written (the spec tables, then the inlined
 * tables). Called on the exporting thread; it must not throw.
 */
@FunctionalInterface
public interface ExportProgress {
  /** Reports nothing. */
  ExportProgress NONE = (table, done, total) -> {};

  /**
   * @param table the table just brought up to date
   * @param done how many tables are done, this one included
   * @param total how many tables the export writes
   */
  void tableDone(String table, int done, int total);
}
