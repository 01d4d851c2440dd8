package dev.moraine.core.view;

import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.FileColumnStats;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.MacroInfo;
import dev.moraine.core.catalog.model.MappingInfo;
import dev.moraine.core.catalog.model.PartitionSpec;
import dev.moraine.core.catalog.model.ScheduledDeletion;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.SortSpec;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.core.catalog.model.TagEntry;
import dev.moraine.core.catalog.model.ViewInfo;
import dev.moraine.core.keyspace.proto.ColumnTag;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.IndexValue;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.MappingValue;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.SortValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.TagValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Stored messages to the public records: field for field, nothing computed. */
public final class Records {
  private Records() {}

  static SnapshotInfo snapshot(SnapshotValue v) {
    return new SnapshotInfo(
        v.getSnapshotId(),
        v.getSnapshotTimeMicros(),
        v.getSchemaVersion(),
        v.getNextCatalogId(),
        v.getNextFileId(),
        v.getChangesMade(),
        v.hasAuthor() ? Optional.of(v.getAuthor()) : Optional.empty(),
        v.hasCommitMessage() ? Optional.of(v.getCommitMessage()) : Optional.empty(),
        v.hasCommitExtraInfo() ? Optional.of(v.getCommitExtraInfo()) : Optional.empty(),
        v.getSchemaChangedTableIdsList(),
        v.getDeletedDataFileIdsList());
  }

  public static SchemaInfo schema(SchemaValue v) {
    return new SchemaInfo(
        v.getSchemaId(),
        v.getSchemaUuid(),
        v.getBeginSnapshot(),
        v.getSchemaName(),
        v.getPath(),
        v.getPathIsRelative());
  }

  public static TableInfo table(TableValue v) {
    return new TableInfo(
        v.getTableId(),
        v.getTableUuid(),
        v.getBeginSnapshot(),
        v.getSchemaId(),
        v.getTableName(),
        v.getPath(),
        v.getPathIsRelative(),
        v.getNextColumnId());
  }

  public static ViewInfo view(ViewValue v) {
    return new ViewInfo(
        v.getViewId(),
        v.getViewUuid(),
        v.getBeginSnapshot(),
        v.getSchemaId(),
        v.getViewName(),
        v.getDialect(),
        v.getSql(),
        v.hasColumnAliases() ? Optional.of(v.getColumnAliases()) : Optional.empty());
  }

  /** A column; its tags are filtered to those live at {@code at}. */
  public static ColumnInfo column(ColumnValue v, long at) {
    return new ColumnInfo(
        v.getTableId(),
        v.getColumnId(),
        v.getBeginSnapshot(),
        v.getColumnOrder(),
        v.getColumnName(),
        v.getColumnType(),
        v.hasInitialDefault() ? Optional.of(v.getInitialDefault()) : Optional.empty(),
        v.hasDefaultValue() ? Optional.of(v.getDefaultValue()) : Optional.empty(),
        v.getNullsAllowed(),
        v.hasParentColumn() ? OptionalLong.of(v.getParentColumn()) : OptionalLong.empty(),
        v.hasDefaultValueType() ? Optional.of(v.getDefaultValueType()) : Optional.empty(),
        v.hasDefaultValueDialect() ? Optional.of(v.getDefaultValueDialect()) : Optional.empty(),
        v.getTagsList().stream()
            .filter(t -> Visibility.liveAt(t.getBeginSnapshot(), endOf(t), at))
            .map(Records::columnTag)
            .toList());
  }

  /**
   * A column version with the tags begun by {@code at}; a tag's end is kept only when it is at or
   * before {@code at} (a later end did not exist yet at {@code at}).
   */
  public static ColumnInfo columnThrough(ColumnValue v, long at) {
    ColumnInfo live = column(v, at);
    List<TagEntry> tags =
        v.getTagsList().stream()
            .filter(t -> Long.compareUnsigned(t.getBeginSnapshot(), at) <= 0)
            .map(t -> endedBy(columnTag(t), at))
            .toList();
    return new ColumnInfo(
        live.tableId(),
        live.columnId(),
        live.beginSnapshot(),
        live.columnOrder(),
        live.name(),
        live.type(),
        live.initialDefault(),
        live.defaultValue(),
        live.nullsAllowed(),
        live.parentColumn(),
        live.defaultValueType(),
        live.defaultValueDialect(),
        tags);
  }

  /** An object's tag entries begun by {@code at}, ends after {@code at} dropped. */
  public static List<TagEntry> tagsThrough(TagValue v, long at) {
    return v.getEntriesList().stream()
        .filter(e -> Long.compareUnsigned(e.getBeginSnapshot(), at) <= 0)
        .map(
            e ->
                endedBy(
                    new TagEntry(
                        e.getBeginSnapshot(),
                        e.hasEndSnapshot()
                            ? OptionalLong.of(e.getEndSnapshot())
                            : OptionalLong.empty(),
                        e.getKey(),
                        e.getValue()),
                    at))
        .toList();
  }

  private static TagEntry endedBy(TagEntry t, long at) {
    boolean endedByAt =
        t.endSnapshot().isPresent() && Long.compareUnsigned(t.endSnapshot().getAsLong(), at) <= 0;
    return endedByAt
        ? t
        : new TagEntry(t.beginSnapshot(), OptionalLong.empty(), t.key(), t.value());
  }

  private static OptionalLong endOf(ColumnTag t) {
    return t.hasEndSnapshot() ? OptionalLong.of(t.getEndSnapshot()) : OptionalLong.empty();
  }

  private static TagEntry columnTag(ColumnTag t) {
    return new TagEntry(t.getBeginSnapshot(), endOf(t), t.getKey(), t.getValue());
  }

  /** An object's tags live at {@code at}. */
  static List<TagEntry> tags(TagValue v, long at) {
    return v.getEntriesList().stream()
        .map(
            e ->
                new TagEntry(
                    e.getBeginSnapshot(),
                    e.hasEndSnapshot() ? OptionalLong.of(e.getEndSnapshot()) : OptionalLong.empty(),
                    e.getKey(),
                    e.getValue()))
        .filter(t -> Visibility.liveAt(t.beginSnapshot(), t.endSnapshot(), at))
        .toList();
  }

  public static MacroInfo macro(MacroValue v) {
    return new MacroInfo(
        v.getMacroId(),
        v.getBeginSnapshot(),
        v.getSchemaId(),
        v.getMacroName(),
        v.getImplementationsList().stream()
            .map(
                i ->
                    new MacroInfo.Implementation(
                        i.getImplId(),
                        i.getDialect(),
                        i.getSql(),
                        i.getMacroType(),
                        i.getParametersList().stream()
                            .map(
                                p ->
                                    new MacroInfo.Parameter(
                                        p.getColumnId(),
                                        p.getParameterName(),
                                        p.getParameterType(),
                                        p.hasDefaultValue()
                                            ? Optional.of(p.getDefaultValue())
                                            : Optional.empty(),
                                        p.getDefaultValueType()))
                            .toList()))
            .toList());
  }

  public static PartitionSpec partition(PartitionValue v) {
    return new PartitionSpec(
        v.getTableId(),
        v.getPartitionId(),
        v.getBeginSnapshot(),
        v.getColumnsList().stream()
            .map(
                c ->
                    new PartitionSpec.Column(
                        c.getPartitionKeyIndex(), c.getColumnId(), c.getTransform()))
            .toList());
  }

  public static SortSpec sort(SortValue v) {
    return new SortSpec(
        v.getTableId(),
        v.getSortId(),
        v.getBeginSnapshot(),
        v.getExpressionsList().stream()
            .map(
                e ->
                    new SortSpec.Expression(
                        e.getSortKeyIndex(),
                        e.getExpression(),
                        e.getDialect(),
                        e.getSortDirection(),
                        e.getNullOrder()))
            .toList());
  }

  public static DataFileInfo dataFile(DataFileValue v) {
    return new DataFileInfo(
        v.getTableId(),
        v.getDataFileId(),
        v.getBeginSnapshot(),
        v.hasFileOrder() ? OptionalLong.of(v.getFileOrder()) : OptionalLong.empty(),
        v.getPath(),
        v.getPathIsRelative(),
        v.getFileFormat(),
        v.getRecordCount(),
        v.getFileSizeBytes(),
        v.getFooterSize(),
        v.hasRowIdStart() ? OptionalLong.of(v.getRowIdStart()) : OptionalLong.empty(),
        v.hasPartitionId() ? OptionalLong.of(v.getPartitionId()) : OptionalLong.empty(),
        v.hasEncryptionKey() ? Optional.of(v.getEncryptionKey()) : Optional.empty(),
        v.hasMappingId() ? OptionalLong.of(v.getMappingId()) : OptionalLong.empty(),
        v.hasPartialMax() ? OptionalLong.of(v.getPartialMax()) : OptionalLong.empty(),
        v.getPartitionValuesList().stream()
            .map(
                p ->
                    new DataFileInfo.PartitionValue(
                        p.getPartitionKeyIndex(), p.getPartitionValue()))
            .toList());
  }

  public static DeleteFileInfo deleteFile(DeleteFileValue v) {
    return new DeleteFileInfo(
        v.getTableId(),
        v.getDeleteFileId(),
        v.getBeginSnapshot(),
        v.getDataFileId(),
        v.getPath(),
        v.getPathIsRelative(),
        v.getFormat(),
        v.getDeleteCount(),
        v.getFileSizeBytes(),
        v.getFooterSize(),
        v.hasEncryptionKey() ? Optional.of(v.getEncryptionKey()) : Optional.empty(),
        v.hasPartialMax() ? OptionalLong.of(v.getPartialMax()) : OptionalLong.empty());
  }

  public static TableStats tableStats(TableStatsValue v) {
    return new TableStats(
        v.getTableId(), v.getRecordCount(), v.getNextRowId(), v.getFileSizeBytes());
  }

  static ColumnStats columnStats(TableColumnStatsValue v) {
    return new ColumnStats(
        v.getTableId(),
        v.getColumnId(),
        v.hasContainsNull() ? Optional.of(v.getContainsNull()) : Optional.empty(),
        v.hasContainsNan() ? Optional.of(v.getContainsNan()) : Optional.empty(),
        v.hasMinValue() ? Optional.of(v.getMinValue()) : Optional.empty(),
        v.hasMaxValue() ? Optional.of(v.getMaxValue()) : Optional.empty(),
        v.hasExtraStats() ? Optional.of(v.getExtraStats()) : Optional.empty());
  }

  static FileColumnStats fileColumnStats(FileColumnStatsValue v) {
    return new FileColumnStats(
        v.getTableId(),
        v.getDataFileId(),
        v.getColumnId(),
        v.getColumnSizeBytes(),
        v.getValueCount(),
        v.getNullCount(),
        v.hasMinValue() ? Optional.of(v.getMinValue()) : Optional.empty(),
        v.hasMaxValue() ? Optional.of(v.getMaxValue()) : Optional.empty(),
        v.hasContainsNan() ? Optional.of(v.getContainsNan()) : Optional.empty(),
        v.hasExtraStats() ? Optional.of(v.getExtraStats()) : Optional.empty(),
        v.getVariantStatsList().stream()
            .map(
                s ->
                    new FileColumnStats.VariantStats(
                        s.getVariantPath(),
                        s.getShreddedType(),
                        s.getColumnSizeBytes(),
                        s.getValueCount(),
                        s.getNullCount(),
                        s.hasMinValue() ? Optional.of(s.getMinValue()) : Optional.empty(),
                        s.hasMaxValue() ? Optional.of(s.getMaxValue()) : Optional.empty(),
                        s.hasContainsNan() ? Optional.of(s.getContainsNan()) : Optional.empty(),
                        s.hasExtraStats() ? Optional.of(s.getExtraStats()) : Optional.empty()))
            .toList());
  }

  static MappingInfo mapping(MappingValue v) {
    return new MappingInfo(
        v.getTableId(),
        v.getMappingId(),
        v.getMapType(),
        v.getNameMappingsList().stream()
            .map(
                n ->
                    new MappingInfo.NameMapping(
                        n.getColumnId(),
                        n.getSourceName(),
                        n.getTargetFieldId(),
                        n.hasParentColumn()
                            ? OptionalLong.of(n.getParentColumn())
                            : OptionalLong.empty(),
                        n.getIsPartition()))
            .toList());
  }

  static ScheduledDeletion scheduledDeletion(GcFileValue v) {
    return new ScheduledDeletion(
        v.getDataFileId(), v.getPath(), v.getPathIsRelative(), v.getScheduleStartMicros());
  }

  public static IndexInfo index(IndexValue v) {
    return new IndexInfo(
        v.getTableId(),
        v.getIndexId(),
        v.getBeginSnapshot(),
        v.getIndexName(),
        v.getColumnIdsList(),
        v.getUnique(),
        v.getColumnDescendingList(),
        v.getColumnNullsFirstList(),
        v.hasBuildState() ? Optional.of(v.getBuildState()) : Optional.empty(),
        v.hasPoisoned() ? Optional.of(v.getPoisoned()) : Optional.empty(),
        v.hasDucklakeIndexId() ? OptionalLong.of(v.getDucklakeIndexId()) : OptionalLong.empty(),
        v.hasDeferredMaintenance() ? Optional.of(v.getDeferredMaintenance()) : Optional.empty());
  }
}
