package dev.moraine.core.rows;

import dev.moraine.core.catalog.CorruptionException;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.FileColumnStats;
import dev.moraine.core.catalog.model.MacroInfo;
import dev.moraine.core.catalog.model.MappingInfo;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.PartitionSpec;
import dev.moraine.core.catalog.model.ScheduledDeletion;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.SortSpec;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.core.catalog.model.TagEntry;
import dev.moraine.core.catalog.model.Versioned;
import dev.moraine.core.catalog.model.ViewInfo;
import dev.moraine.ducklake.rows.ColumnMappingRow;
import dev.moraine.ducklake.rows.ColumnRow;
import dev.moraine.ducklake.rows.ColumnTagRow;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.FileColumnStatsRow;
import dev.moraine.ducklake.rows.FilePartitionValueRow;
import dev.moraine.ducklake.rows.FileVariantStatsRow;
import dev.moraine.ducklake.rows.FilesScheduledForDeletionRow;
import dev.moraine.ducklake.rows.MacroImplRow;
import dev.moraine.ducklake.rows.MacroParametersRow;
import dev.moraine.ducklake.rows.MacroRow;
import dev.moraine.ducklake.rows.MetadataRow;
import dev.moraine.ducklake.rows.NameMappingRow;
import dev.moraine.ducklake.rows.PartitionColumnRow;
import dev.moraine.ducklake.rows.PartitionInfoRow;
import dev.moraine.ducklake.rows.SchemaRow;
import dev.moraine.ducklake.rows.SchemaVersionsRow;
import dev.moraine.ducklake.rows.SnapshotChangesRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import dev.moraine.ducklake.rows.SortExpressionRow;
import dev.moraine.ducklake.rows.SortInfoRow;
import dev.moraine.ducklake.rows.TableColumnStatsRow;
import dev.moraine.ducklake.rows.TableRow;
import dev.moraine.ducklake.rows.TableStatsRow;
import dev.moraine.ducklake.rows.TagRow;
import dev.moraine.ducklake.rows.ViewRow;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * One read-model record to the {@code ducklake_*} rows it stands for, field by field
 * (docs/ducklake-format.md, "Rendering a snapshot as DuckLake rows"). Pure functions: no store, no
 * snapshot. An absent optional becomes SQL NULL; ids go out as the 64-bit values the store holds.
 */
public final class RowMappings {
  private RowMappings() {}

  /** {@code ducklake_snapshot}: the snapshot record's counters and time. */
  public static SnapshotRow snapshot(SnapshotInfo s) {
    return new SnapshotRow(
        s.snapshotId(),
        instant(s.timeMicros()),
        s.schemaVersion(),
        s.nextCatalogId(),
        s.nextFileId());
  }

  /**
   * {@code ducklake_snapshot_changes}: the change text (an empty one is NULL, as DuckLake writes an
   * empty change set) and the commit metadata.
   */
  public static SnapshotChangesRow snapshotChanges(SnapshotInfo s) {
    return new SnapshotChangesRow(
        s.snapshotId(),
        s.changesMade().isEmpty() ? null : s.changesMade(),
        s.author().orElse(null),
        s.commitMessage().orElse(null),
        s.commitExtraInfo().orElse(null));
  }

  /**
   * {@code ducklake_metadata}: one option in one scope. The global scope has NULL scope and scope
   * id; a schema's is {@code ("schema", id)}, a table's {@code ("table", id)}.
   */
  public static MetadataRow option(OptionScope scope, String key, String value) {
    if (scope instanceof OptionScope.Schema s) {
      return new MetadataRow(key, value, "schema", s.schemaId());
    } else if (scope instanceof OptionScope.Table t) {
      return new MetadataRow(key, value, "table", t.tableId());
    }
    return new MetadataRow(key, value, null, null);
  }

  /** {@code ducklake_schema}: one schema version. */
  public static SchemaRow schema(Versioned<SchemaInfo> v) {
    SchemaInfo s = v.version();
    return new SchemaRow(
        s.schemaId(),
        uuid(s.schemaUuid(), "schema " + Long.toUnsignedString(s.schemaId())),
        s.beginSnapshot(),
        end(v),
        s.name(),
        s.path(),
        s.pathIsRelative());
  }

  /** {@code ducklake_table}: one table version. */
  public static TableRow table(Versioned<TableInfo> v) {
    TableInfo t = v.version();
    return new TableRow(
        t.tableId(),
        uuid(t.tableUuid(), "table " + Long.toUnsignedString(t.tableId())),
        t.beginSnapshot(),
        end(v),
        t.schemaId(),
        t.name(),
        t.path(),
        t.pathIsRelative());
  }

  /** {@code ducklake_view}: one view version. */
  public static ViewRow view(Versioned<ViewInfo> v) {
    ViewInfo w = v.version();
    return new ViewRow(
        w.viewId(),
        uuid(w.viewUuid(), "view " + Long.toUnsignedString(w.viewId())),
        w.beginSnapshot(),
        end(v),
        w.schemaId(),
        w.name(),
        w.dialect(),
        w.sql(),
        w.columnAliases().orElse(null));
  }

  /** {@code ducklake_column}: one column version (nested fields name their parent). */
  public static ColumnRow column(Versioned<ColumnInfo> v) {
    ColumnInfo c = v.version();
    return new ColumnRow(
        c.columnId(),
        c.beginSnapshot(),
        end(v),
        c.tableId(),
        c.columnOrder(),
        c.name(),
        c.type(),
        c.initialDefault().orElse(null),
        c.defaultValue().orElse(null),
        c.nullsAllowed(),
        boxed(c.parentColumn()),
        c.defaultValueType().orElse(null),
        c.defaultValueDialect().orElse(null));
  }

  /** {@code ducklake_column_tag}: the tags a column record carries. */
  public static List<ColumnTagRow> columnTags(ColumnInfo c) {
    return c.tags().stream()
        .map(
            t ->
                new ColumnTagRow(
                    c.tableId(),
                    c.columnId(),
                    t.beginSnapshot(),
                    boxed(t.endSnapshot()),
                    t.key(),
                    t.value()))
        .toList();
  }

  /** {@code ducklake_tag}: the tag entries of one schema, table or view. */
  public static List<TagRow> tags(long objectId, List<TagEntry> entries) {
    return entries.stream()
        .map(
            t ->
                new TagRow(objectId, t.beginSnapshot(), boxed(t.endSnapshot()), t.key(), t.value()))
        .toList();
  }

  /** {@code ducklake_data_file}: one data file (its end is its expiry). */
  public static DataFileRow dataFile(Versioned<DataFileInfo> v) {
    DataFileInfo f = v.version();
    return new DataFileRow(
        f.dataFileId(),
        f.tableId(),
        f.beginSnapshot(),
        end(v),
        boxed(f.fileOrder()),
        f.path(),
        f.pathIsRelative(),
        f.fileFormat(),
        f.recordCount(),
        f.fileSizeBytes(),
        f.footerSize(),
        boxed(f.rowIdStart()),
        boxed(f.partitionId()),
        f.encryptionKey().orElse(null),
        boxed(f.mappingId()),
        boxed(f.partialMax()));
  }

  /** {@code ducklake_file_partition_value}: the partition values a data file carries. */
  public static List<FilePartitionValueRow> filePartitionValues(DataFileInfo f) {
    return f.partitionValues().stream()
        .map(
            p ->
                new FilePartitionValueRow(
                    f.dataFileId(), f.tableId(), p.partitionKeyIndex(), p.value()))
        .toList();
  }

  /** {@code ducklake_delete_file}: one delete file. */
  public static DeleteFileRow deleteFile(Versioned<DeleteFileInfo> v) {
    DeleteFileInfo d = v.version();
    return new DeleteFileRow(
        d.deleteFileId(),
        d.tableId(),
        d.beginSnapshot(),
        end(v),
        d.dataFileId(),
        d.path(),
        d.pathIsRelative(),
        d.format(),
        d.deleteCount(),
        d.fileSizeBytes(),
        d.footerSize(),
        d.encryptionKey().orElse(null),
        boxed(d.partialMax()));
  }

  /** {@code ducklake_file_column_stats}: one column of one data file. */
  public static FileColumnStatsRow fileColumnStats(FileColumnStats s) {
    return new FileColumnStatsRow(
        s.dataFileId(),
        s.tableId(),
        s.columnId(),
        s.columnSizeBytes(),
        s.valueCount(),
        s.nullCount(),
        s.minValue().orElse(null),
        s.maxValue().orElse(null),
        s.containsNan().orElse(null),
        s.extraStats().orElse(null));
  }

  /** {@code ducklake_file_variant_stats}: the shredded paths of one variant column of a file. */
  public static List<FileVariantStatsRow> fileVariantStats(FileColumnStats s) {
    return s.variantStats().stream()
        .map(
            v ->
                new FileVariantStatsRow(
                    s.dataFileId(),
                    s.tableId(),
                    s.columnId(),
                    v.variantPath(),
                    v.shreddedType(),
                    v.columnSizeBytes(),
                    v.valueCount(),
                    v.nullCount(),
                    v.minValue().orElse(null),
                    v.maxValue().orElse(null),
                    v.containsNan().orElse(null),
                    v.extraStats().orElse(null)))
        .toList();
  }

  /** {@code ducklake_table_stats}. */
  public static TableStatsRow tableStats(TableStats s) {
    return new TableStatsRow(s.tableId(), s.recordCount(), s.nextRowId(), s.fileSizeBytes());
  }

  /** {@code ducklake_table_column_stats}. */
  public static TableColumnStatsRow tableColumnStats(ColumnStats s) {
    return new TableColumnStatsRow(
        s.tableId(),
        s.columnId(),
        s.containsNull().orElse(null),
        s.containsNan().orElse(null),
        s.minValue().orElse(null),
        s.maxValue().orElse(null),
        s.extraStats().orElse(null));
  }

  /** {@code ducklake_partition_info}: one partitioning version. */
  public static PartitionInfoRow partitionInfo(Versioned<PartitionSpec> v) {
    PartitionSpec p = v.version();
    return new PartitionInfoRow(p.partitionId(), p.tableId(), p.beginSnapshot(), end(v));
  }

  /** {@code ducklake_partition_column}: the keys of one partitioning. */
  public static List<PartitionColumnRow> partitionColumns(PartitionSpec p) {
    return p.columns().stream()
        .map(
            c ->
                new PartitionColumnRow(
                    p.partitionId(),
                    p.tableId(),
                    c.partitionKeyIndex(),
                    c.columnId(),
                    c.transform()))
        .toList();
  }

  /** {@code ducklake_sort_info}: one sort-key version. */
  public static SortInfoRow sortInfo(Versioned<SortSpec> v) {
    SortSpec s = v.version();
    return new SortInfoRow(s.sortId(), s.tableId(), s.beginSnapshot(), end(v));
  }

  /** {@code ducklake_sort_expression}: the expressions of one sort key. */
  public static List<SortExpressionRow> sortExpressions(SortSpec s) {
    return s.expressions().stream()
        .map(
            e ->
                new SortExpressionRow(
                    s.sortId(),
                    s.tableId(),
                    e.sortKeyIndex(),
                    e.expression(),
                    e.dialect(),
                    e.sortDirection(),
                    e.nullOrder()))
        .toList();
  }

  /** {@code ducklake_macro}: one macro version. */
  public static MacroRow macro(Versioned<MacroInfo> v) {
    MacroInfo m = v.version();
    return new MacroRow(m.schemaId(), m.macroId(), m.name(), m.beginSnapshot(), end(v));
  }

  /** {@code ducklake_macro_impl}: the implementations of one macro. */
  public static List<MacroImplRow> macroImpls(MacroInfo m) {
    return m.implementations().stream()
        .map(i -> new MacroImplRow(m.macroId(), i.implId(), i.dialect(), i.sql(), i.macroType()))
        .toList();
  }

  /** {@code ducklake_macro_parameters}: the parameters of each implementation of one macro. */
  public static List<MacroParametersRow> macroParameters(MacroInfo m) {
    List<MacroParametersRow> out = new ArrayList<>();
    for (MacroInfo.Implementation i : m.implementations()) {
      for (MacroInfo.Parameter p : i.parameters()) {
        out.add(
            new MacroParametersRow(
                m.macroId(),
                i.implId(),
                p.columnId(),
                p.name(),
                p.type(),
                // Stock DuckLake writes the text NULL for a parameter without a default.
                p.defaultValue().orElse("NULL"),
                p.defaultValueType()));
      }
    }
    return out;
  }

  /** {@code ducklake_column_mapping}: one mapping's header. */
  public static ColumnMappingRow columnMapping(MappingInfo m) {
    return new ColumnMappingRow(m.mappingId(), m.tableId(), m.mapType());
  }

  /** {@code ducklake_name_mapping}: one mapping's entries. */
  public static List<NameMappingRow> nameMappings(MappingInfo m) {
    return m.nameMappings().stream()
        .map(
            n ->
                new NameMappingRow(
                    m.mappingId(),
                    n.columnId(),
                    n.sourceName(),
                    n.targetFieldId(),
                    boxed(n.parentColumn()),
                    n.isPartition()))
        .toList();
  }

  /** {@code ducklake_schema_versions}: one shape change of a table or view. */
  public static SchemaVersionsRow schemaVersion(SchemaVersionInfo s) {
    return new SchemaVersionsRow(s.beginSnapshot(), s.schemaVersion(), s.tableId());
  }

  /** {@code ducklake_files_scheduled_for_deletion}: one file awaiting cleanup. */
  public static FilesScheduledForDeletionRow scheduledDeletion(ScheduledDeletion d) {
    return new FilesScheduledForDeletionRow(
        d.dataFileId(), d.path(), d.pathIsRelative(), instant(d.scheduleStartMicros()));
  }

  /** Microseconds since the epoch as an instant (DuckDB's TIMESTAMPTZ resolution). */
  static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }

  private static Long end(Versioned<?> v) {
    return boxed(v.endSnapshot());
  }

  private static Long boxed(OptionalLong v) {
    return v.isPresent() ? v.getAsLong() : null;
  }

  /**
   * A stored uuid string as a UUID.
   *
   * @throws CorruptionException if the lake holds something that is not a uuid; nothing changes
   */
  static UUID uuid(String text, String owner) {
    try {
      return UUID.fromString(text);
    } catch (IllegalArgumentException e) {
      throw new CorruptionException(owner + " has a uuid that does not parse: " + text, e);
    }
  }
}
