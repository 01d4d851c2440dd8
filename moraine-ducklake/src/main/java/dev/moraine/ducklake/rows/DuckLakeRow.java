package dev.moraine.ducklake.rows;

import java.util.List;

/** A row of one of the DuckLake 1.0 metadata tables. */
public sealed interface DuckLakeRow
    permits MetadataRow,
        SnapshotRow,
        SnapshotChangesRow,
        SchemaRow,
        TableRow,
        ViewRow,
        TagRow,
        ColumnTagRow,
        DataFileRow,
        FileColumnStatsRow,
        FileVariantStatsRow,
        DeleteFileRow,
        ColumnRow,
        TableStatsRow,
        TableColumnStatsRow,
        PartitionInfoRow,
        PartitionColumnRow,
        FilePartitionValueRow,
        FilesScheduledForDeletionRow,
        InlinedDataTablesRow,
        ColumnMappingRow,
        NameMappingRow,
        SchemaVersionsRow,
        MacroRow,
        MacroImplRow,
        MacroParametersRow,
        SortInfoRow,
        SortExpressionRow {

  /** The table this row belongs to. */
  TableDef def();

  /**
   * The values in column order (null for SQL NULL); the list may hold nulls and is not modifiable
   * in size.
   */
  List<Object> values();
}
