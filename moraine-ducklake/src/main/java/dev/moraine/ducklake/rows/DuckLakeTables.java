package dev.moraine.ducklake.rows;

import java.util.List;
import java.util.Optional;

/** The 28 metadata tables of DuckLake spec 1.0, in the order DuckLake creates them. */
public final class DuckLakeTables {
  /** All table definitions, in creation order. */
  public static final List<TableDef> ALL =
      List.of(
          MetadataRow.DEF,
          SnapshotRow.DEF,
          SnapshotChangesRow.DEF,
          SchemaRow.DEF,
          TableRow.DEF,
          ViewRow.DEF,
          TagRow.DEF,
          ColumnTagRow.DEF,
          DataFileRow.DEF,
          FileColumnStatsRow.DEF,
          FileVariantStatsRow.DEF,
          DeleteFileRow.DEF,
          ColumnRow.DEF,
          TableStatsRow.DEF,
          TableColumnStatsRow.DEF,
          PartitionInfoRow.DEF,
          PartitionColumnRow.DEF,
          FilePartitionValueRow.DEF,
          FilesScheduledForDeletionRow.DEF,
          InlinedDataTablesRow.DEF,
          ColumnMappingRow.DEF,
          NameMappingRow.DEF,
          SchemaVersionsRow.DEF,
          MacroRow.DEF,
          MacroImplRow.DEF,
          MacroParametersRow.DEF,
          SortInfoRow.DEF,
          SortExpressionRow.DEF);

  /**
   * The catalog format version DuckLake 1.5 writes into {@code ducklake_metadata} key {@code
   * version}.
   */
  public static final String CATALOG_VERSION = "1.0";

  private DuckLakeTables() {}

  /** Looks a table up by name (exact, lower case). */
  public static Optional<TableDef> byName(String name) {
    return ALL.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /**
   * Name of the on-demand table holding inlined rows of a table at a schema version: {@code
   * ducklake_inlined_data_<tableId>_<schemaVersion>}.
   */
  public static String inlinedDataTableName(long tableId, long schemaVersion) {
    return "ducklake_inlined_data_"
        + Long.toUnsignedString(tableId)
        + '_'
        + Long.toUnsignedString(schemaVersion);
  }

  /**
   * Name of the on-demand table recording deletes of inlined rows: {@code
   * ducklake_inlined_delete_<tableId>}.
   */
  public static String inlinedDeleteTableName(long tableId) {
    return "ducklake_inlined_delete_" + Long.toUnsignedString(tableId);
  }
}
