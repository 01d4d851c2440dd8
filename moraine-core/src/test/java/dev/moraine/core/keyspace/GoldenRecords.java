package dev.moraine.core.keyspace;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.SchemaVersionKey;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.*;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sample records of golden-values.txt, built with the generated classes. The same field values
 * are written a second time, independently, in src/test/python/golden_values.py.
 */
final class GoldenRecords {
  record Sample(Key key, Message value) {}

  private static final long T0 = 1764460800000000L;
  private static final String U = "00000000-0000-4000-8000-0000000000";

  private GoldenRecords() {}

  static Map<String, Sample> all() {
    Map<String, Sample> m = new LinkedHashMap<>();
    // sys
    m.put(
        "format",
        new Sample(
            SysKey.FORMAT,
            FormatValue.newBuilder().setFormatVersion(9).setWriterVersion("0.7.0").build()));
    m.put(
        "format_v1_seed",
        new Sample(SysKey.FORMAT, FormatValue.newBuilder().setFormatVersion(1).build()));
    m.put("head_bootstrap", new Sample(SysKey.HEAD, HeadValue.getDefaultInstance()));
    m.put(
        "head",
        new Sample(SysKey.HEAD, HeadValue.newBuilder().setSnapshotId(44).setBatchSeq(46).build()));
    m.put(
        "migration",
        new Sample(
            SysKey.MIGRATION,
            MigrationValue.newBuilder()
                .setFromFormat(8)
                .setToFormat(9)
                .setCursor(ByteString.copyFrom(new byte[] {6, 3, 3, 0, 1}))
                .build()));
    m.put(
        "maintenance_status",
        new Sample(
            SysKey.MAINTENANCE_STATUS,
            MaintenanceStatusValue.newBuilder()
                .addPasses(
                    MaintenanceStatusPassValue.newBuilder()
                        .setStartedAtMicros(T0)
                        .setTrigger("manual")
                        .addSteps(
                            MaintenanceStatusStepValue.newBuilder()
                                .setStep("sweep")
                                .setStatus("ok")
                                .setDetail("3 keys")))
                .build()));
    // snapshot, schema_version, changelog
    m.put(
        "snapshot_bootstrap",
        new Sample(
            new SnapshotKey(0),
            SnapshotValue.newBuilder()
                .setSnapshotTimeMicros(T0)
                .setNextCatalogId(1)
                .setChangesMade("created_schema:\"main\"")
                .build()));
    m.put(
        "snapshot_create_table",
        new Sample(
            new SnapshotKey(1),
            SnapshotValue.newBuilder()
                .setSnapshotId(1)
                .setSnapshotTimeMicros(T0 + 1_000_000)
                .setSchemaVersion(1)
                .setNextCatalogId(2)
                .setChangesMade("created_table:\"main\".\"t\"")
                .addSchemaChangedTableIds(1)
                .build()));
    m.put(
        "snapshot_staged",
        new Sample(
            new SnapshotKey(7),
            SnapshotValue.newBuilder()
                .setSnapshotId(7)
                .setSnapshotTimeMicros(-5)
                .setSchemaVersion(2)
                .setNextCatalogId(9)
                .setNextFileId(4)
                .setChangesMade("deleted_from_table:3")
                .setAuthor("")
                .setCommitMessage("fix")
                .setCommitExtraInfo("{}")
                .addSchemaChangedTableIds(3)
                .addSchemaChangedTableIds(2)
                .addDeletedDataFileIds(0)
                .addDeletedDataFileIds(300)
                .build()));
    m.put(
        "schema_version",
        new Sample(
            new SchemaVersionKey(1, 1),
            SchemaVersionValue.newBuilder().setSchemaVersion(1).build()));
    m.put(
        "changelog",
        new Sample(
            new ChangelogKey(1),
            ChangelogValue.newBuilder()
                .addKeys(bytes(CurrentKey.of(new EntityKey.Table(1))))
                .addKeys(bytes(CurrentKey.of(new EntityKey.Column(1, 1))))
                .addKeys(bytes(CurrentKey.of(new EntityKey.Column(1, 2))))
                .addKeys(bytes(CurrentKey.of(new EntityKey.TableStats(1))))
                .build()));
    // current entities
    m.put(
        "schema",
        new Sample(
            CurrentKey.of(new EntityKey.Schema(0)),
            SchemaValue.newBuilder()
                .setSchemaUuid(U + "00")
                .setSchemaName("main")
                .setPath("main/")
                .setPathIsRelative(true)
                .build()));
    m.put("table", new Sample(CurrentKey.of(new EntityKey.Table(1)), table(1).build()));
    m.put(
        "view",
        new Sample(
            CurrentKey.of(new EntityKey.View(5)),
            ViewValue.newBuilder()
                .setViewId(5)
                .setViewUuid(U + "05")
                .setBeginSnapshot(4)
                .setViewName("v")
                .setDialect("duckdb")
                .setSql("SELECT 1")
                .setColumnAliases("")
                .build()));
    m.put(
        "column",
        new Sample(
            CurrentKey.of(new EntityKey.Column(1, 2)),
            ColumnValue.newBuilder()
                .setColumnId(2)
                .setBeginSnapshot(1)
                .setTableId(1)
                .setColumnOrder(2)
                .setColumnName("b")
                .setColumnType("varchar")
                .setInitialDefault("'x'")
                .setDefaultValue("'x'")
                .setNullsAllowed(false)
                .setParentColumn(1)
                .setDefaultValueType("literal")
                .setDefaultValueDialect("duckdb")
                .addTags(
                    ColumnTag.newBuilder()
                        .setBeginSnapshot(3)
                        .setKey("comment")
                        .setValue("\u00fcn\u00efcode"))
                .build()));
    m.put(
        "column_int",
        new Sample(
            CurrentKey.of(new EntityKey.Column(1, 1)),
            ColumnValue.newBuilder()
                .setColumnId(1)
                .setBeginSnapshot(1)
                .setTableId(1)
                .setColumnOrder(1)
                .setColumnName("a")
                .setColumnType("int64")
                .setNullsAllowed(true)
                .build()));
    m.put(
        "partition",
        new Sample(
            CurrentKey.of(new EntityKey.Partition(1, 6)),
            PartitionValue.newBuilder()
                .setPartitionId(6)
                .setTableId(1)
                .setBeginSnapshot(6)
                .addColumns(PartitionColumn.newBuilder().setColumnId(1).setTransform("identity"))
                .build()));
    m.put(
        "data_file",
        new Sample(
            CurrentKey.of(new EntityKey.DataFile(1, 0)),
            DataFileValue.newBuilder()
                .setTableId(1)
                .setBeginSnapshot(2)
                .setPath("ducklake-0001.parquet")
                .setPathIsRelative(true)
                .setFileFormat("parquet")
                .setRecordCount(3)
                .setFileSizeBytes(1024)
                .setFooterSize(200)
                .setRowIdStart(0)
                .build()));
    m.put(
        "data_file_full",
        new Sample(
            CurrentKey.of(new EntityKey.DataFile(1, 4)),
            DataFileValue.newBuilder()
                .setDataFileId(4)
                .setTableId(1)
                .setBeginSnapshot(9)
                .setFileOrder(2)
                .setPath("s3://b/f.parquet")
                .setFileFormat("parquet")
                .setRecordCount(10)
                .setFileSizeBytes(4096)
                .setFooterSize(512)
                .setRowIdStart(3)
                .setPartitionId(6)
                .setEncryptionKey("k")
                .setMappingId(8)
                .setPartialMax(12)
                .addPartitionValues(FilePartitionValue.newBuilder().setPartitionValue("2026"))
                .build()));
    m.put(
        "delete_file",
        new Sample(
            CurrentKey.of(new EntityKey.DeleteFile(1, 5)),
            DeleteFileValue.newBuilder()
                .setDeleteFileId(5)
                .setTableId(1)
                .setBeginSnapshot(10)
                .setDataFileId(4)
                .setPath("del.parquet")
                .setPathIsRelative(true)
                .setFormat("parquet")
                .setDeleteCount(2)
                .setFileSizeBytes(300)
                .setFooterSize(90)
                .setEncryptionKey("k2")
                .setPartialMax(1)
                .build()));
    m.put(
        "file_column_stats",
        new Sample(
            CurrentKey.of(new EntityKey.FileColumnStats(1, 4, 2)),
            FileColumnStatsValue.newBuilder()
                .setDataFileId(4)
                .setTableId(1)
                .setColumnId(2)
                .setColumnSizeBytes(77)
                .setValueCount(10)
                .setNullCount(1)
                .setMinValue("a")
                .setMaxValue("z")
                .setContainsNan(true)
                .setExtraStats("")
                .addVariantStats(
                    FileVariantStats.newBuilder()
                        .setVariantPath("$.a")
                        .setShreddedType("int64")
                        .setColumnSizeBytes(10)
                        .setValueCount(2)
                        .setNullCount(1)
                        .setMinValue("1")
                        .setMaxValue("9")
                        .setContainsNan(false)
                        .setExtraStats("{}"))
                .build()));
    m.put(
        "table_stats",
        new Sample(
            CurrentKey.of(new EntityKey.TableStats(1)),
            TableStatsValue.newBuilder()
                .setTableId(1)
                .setRecordCount(3)
                .setNextRowId(3)
                .setFileSizeBytes(1024)
                .build()));
    m.put(
        "table_column_stats",
        new Sample(
            CurrentKey.of(new EntityKey.TableColumnStats(1, 2)),
            TableColumnStatsValue.newBuilder()
                .setTableId(1)
                .setColumnId(2)
                .setContainsNull(false)
                .setContainsNan(true)
                .setMinValue("a")
                .setMaxValue("z")
                .setExtraStats("x")
                .build()));
    m.put(
        "tag",
        new Sample(
            CurrentKey.of(new EntityKey.Tag(1)),
            TagValue.newBuilder()
                .setObjectId(1)
                .addEntries(
                    TagEntry.newBuilder()
                        .setBeginSnapshot(4)
                        .setEndSnapshot(6)
                        .setKey("owner")
                        .setValue("ops"))
                .build()));
    m.put(
        "option_global",
        new Sample(
            CurrentKey.of(EntityKey.OptionScope.global()),
            OptionScopeValue.newBuilder().putOptions("encrypted", "false").build()));
    m.put(
        "sort",
        new Sample(
            CurrentKey.of(new EntityKey.Sort(7, 9)),
            SortValue.newBuilder()
                .setSortId(9)
                .setTableId(7)
                .setBeginSnapshot(3)
                .addExpressions(
                    SortExpression.newBuilder()
                        .setExpression("a")
                        .setDialect("duckdb")
                        .setSortDirection("ASC")
                        .setNullOrder("NULLS_LAST"))
                .build()));
    m.put(
        "macro",
        new Sample(
            CurrentKey.of(new EntityKey.Macro(3)),
            MacroValue.newBuilder()
                .setMacroId(3)
                .setBeginSnapshot(2)
                .setMacroName("inc")
                .addImplementations(
                    MacroImplementation.newBuilder()
                        .setDialect("duckdb")
                        .setSql("x + 1")
                        .setMacroType("scalar")
                        .addParameters(
                            MacroParameter.newBuilder()
                                .setParameterName("x")
                                .setParameterType("int64")
                                .setDefaultValue("1")
                                .setDefaultValueType("literal")))
                .build()));
    m.put(
        "mapping",
        new Sample(
            CurrentKey.of(new EntityKey.Mapping(4, 21)),
            MappingValue.newBuilder()
                .setMappingId(21)
                .setTableId(4)
                .setMapType("map_by_name")
                .addNameMappings(
                    NameMapping.newBuilder()
                        .setColumnId(1)
                        .setSourceName("src")
                        .setTargetFieldId(7)
                        .setParentColumn(0)
                        .setIsPartition(true))
                .build()));
    m.put(
        "index_definition",
        new Sample(
            CurrentKey.of(new EntityKey.IndexDefinition(4, 7)),
            IndexValue.newBuilder()
                .setIndexId(7)
                .setTableId(4)
                .setBeginSnapshot(2)
                .setIndexName("by_a")
                .addColumnIds(1)
                .addColumnIds(2)
                .setUnique(true)
                .setBuildState("building")
                .setBuildCursorFile(0)
                .setBuildCursorRowId(2)
                .setBuildDeletesScanned(0)
                .setPoisoned(false)
                .setDucklakeIndexId(11)
                .addColumnDescending(false)
                .addColumnDescending(true)
                .addColumnNullsFirst(true)
                .addColumnNullsFirst(false)
                .setBuildCursorPosition(4)
                .setDeferredMaintenance(true)
                .setBuildInlineCursor(
                    InlineBuildCursorValue.newBuilder()
                        .setSchemaVersion(1)
                        .setBeginSnapshot(3)
                        .setNextPosition(5)
                        .setChunkFinished(true)
                        .setCoveredSnapshot(3))
                .build()));
    m.put(
        "scheduled_deletion",
        new Sample(
            new CurrentKey.ScheduledDeletion(5),
            GcFileValue.newBuilder()
                .setDataFileId(5)
                .setPath("old.parquet")
                .setPathIsRelative(true)
                .setScheduleStartMicros(T0)
                .build()));
    // history
    m.put(
        "history_table",
        new Sample(new HistoryKey(new EntityKey.Table(1), 5), table(1).setEndSnapshot(5).build()));
    m.put(
        "history_file",
        new Sample(
            new HistoryKey(new EntityKey.DataFile(1, 2), 9),
            DataFileValue.newBuilder()
                .setDataFileId(2)
                .setTableId(1)
                .setBeginSnapshot(4)
                .setEndSnapshot(9)
                .setPath("f.parquet")
                .setPathIsRelative(true)
                .setFileFormat("parquet")
                .setRecordCount(1)
                .setFileSizeBytes(10)
                .setFooterSize(4)
                .build()));
    // inline
    m.put(
        "inline_schema_reference",
        new Sample(
            new InlineKey.Schema(1, 2),
            InlineSchemaValue.newBuilder().setSameAsVersion(0).build()));
    m.put(
        "inline_schema",
        new Sample(
            new InlineKey.Schema(1, 0),
            InlineSchemaValue.newBuilder()
                .setArrowSchema(ByteString.fromHex("ffffffff0800000000000000"))
                .build()));
    m.put(
        "inline_chunk",
        new Sample(
            InlineKey.Record.live(new InlineOp.InsertChunk(7, 3, 11, 0)),
            InlineChunkValue.newBuilder()
                .setBody(ByteString.fromHex("0400000001020304"))
                .setRowIdStart(10)
                .setRowCount(2)
                .build()));
    m.put(
        "inline_legacy_delete",
        new Sample(
            InlineKey.Record.live(new InlineOp.LegacyInlineDelete(7, 9)),
            InlineInlineDeleteValue.newBuilder().setEndSnapshot(12).build()));
    m.put(
        "inline_file_delete",
        new Sample(
            InlineKey.Record.live(new InlineOp.FileDelete(7, 2, 9)),
            InlineFileDeleteValue.newBuilder().setBeginSnapshot(12).build()));
    m.put(
        "inline_archived_chunk",
        new Sample(
            new InlineKey.Record(InlineKey.Form.ARCHIVED, new InlineOp.InsertChunk(7, 3, 11, 0)),
            InlineChunkValue.newBuilder()
                .setBody(ByteString.copyFrom(new byte[] {0}))
                .setRowCount(1)
                .setDataFileId(6)
                .build()));
    m.put(
        "inline_file_delete_table",
        new Sample(
            new InlineKey.FileDeleteTable(7), InlineFileDeleteTableValue.getDefaultInstance()));
    m.put(
        "inline_schema_dropped",
        new Sample(
            new InlineKey.SchemaDropped(7, 3), InlineSchemaDroppedValue.getDefaultInstance()));
    m.put(
        "inline_chunk_locator",
        new Sample(
            new InlineKey.ChunkLocator(7, 11, 3, 11, 0),
            InlineChunkRangeValue.newBuilder()
                .setRowIdStart(10)
                .setSchemaVersion(3)
                .setBeginSnapshot(11)
                .build()));
    m.put(
        "inline_row_tombstone",
        new Sample(
            new InlineKey.RowTombstone(1, 4, 6),
            InlineInlineDeleteValue.newBuilder().setEndSnapshot(6).build()));
    return m;
  }

  private static TableValue.Builder table(long id) {
    return TableValue.newBuilder()
        .setTableId(id)
        .setTableUuid(U + "01")
        .setBeginSnapshot(1)
        .setTableName("t")
        .setPath("t/")
        .setPathIsRelative(true)
        .setNextColumnId(3);
  }

  private static ByteString bytes(Key key) {
    return ByteString.copyFrom(key.encode());
  }

  static byte[] hex(String s) {
    return HexFormat.of().parseHex(s.replace(" ", ""));
  }
}
