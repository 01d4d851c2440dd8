package dev.moraine.store.catalog;

import com.google.protobuf.ByteString;
import dev.moraine.core.keyspace.inline.InlineArrow;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.proto.ColumnTag;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.FileColumnStatsValue;
import dev.moraine.core.keyspace.proto.FilePartitionValue;
import dev.moraine.core.keyspace.proto.GcFileValue;
import dev.moraine.core.keyspace.proto.IndexValue;
import dev.moraine.core.keyspace.proto.InlineChunkRangeValue;
import dev.moraine.core.keyspace.proto.InlineChunkValue;
import dev.moraine.core.keyspace.proto.InlineInlineDeleteValue;
import dev.moraine.core.keyspace.proto.InlineSchemaValue;
import dev.moraine.core.keyspace.proto.MacroImplementation;
import dev.moraine.core.keyspace.proto.MacroParameter;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.MappingValue;
import dev.moraine.core.keyspace.proto.NameMapping;
import dev.moraine.core.keyspace.proto.OptionScopeValue;
import dev.moraine.core.keyspace.proto.PartitionColumn;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SortExpression;
import dev.moraine.core.keyspace.proto.SortValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.TagEntry;
import dev.moraine.core.keyspace.proto.TagValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import dev.moraine.core.kv.KvStore;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The lake the time-travel tests read, written through {@link LakeFixture}:
 *
 * <pre>
 * s0 bootstrap: schema main (0)
 * s1 schema sales (1); table main.t (2) with a int64 (1, tagged), b struct (2) with x (3)
 * s2 data file 0 of t (rows 0..2, partitioned), its stats; partition spec 3; sort spec 4
 * s3 t renamed t2 and column c (4) added; delete file 1 on data file 0; comment on t
 * s4 t2 dropped with all it had; main.t re-created as table 5 (column a, 1); view sales.v (6);
 *    macro main.m (7)
 * s5 option on table 5; data file 0 scheduled for deletion; mapping 2 of table 5;
 *    3 rows inlined into table 5 (ids 0..2); view v changed; unique index ix (8) on table 5
 * s6 row 1 of table 5 deleted (tombstone); author and message; macro dropped
 * </pre>
 */
final class TimeTravelLake {
  final LakeFixture fixture;

  TimeTravelLake(KvStore store) {
    fixture = new LakeFixture(store);
    fixture.commit(
        "created_schema:\"sales\",created_table:\"main\".\"t\"",
        c -> {
          long sales = c.catalogId();
          long t = c.catalogId();
          c.schemaChange(t);
          c.put(
              new EntityKey.Schema(sales),
              SchemaValue.newBuilder()
                  .setSchemaId(sales)
                  .setSchemaUuid("u-sales")
                  .setBeginSnapshot(c.n)
                  .setSchemaName("sales")
                  .setPath("sales/")
                  .setPathIsRelative(true)
                  .build());
          c.put(new EntityKey.Table(t), table(t, c.n, "t", 4));
          c.put(
              new EntityKey.Column(t, 1),
              column(t, 1, c.n, 1, "a", "int64", null).toBuilder()
                  .addTags(
                      ColumnTag.newBuilder().setBeginSnapshot(c.n).setKey("pii").setValue("no"))
                  .build());
          c.put(new EntityKey.Column(t, 2), column(t, 2, c.n, 2, "b", "struct", null));
          c.put(new EntityKey.Column(t, 3), column(t, 3, c.n, 1, "x", "varchar", 2L));
          c.put(new EntityKey.TableStats(t), TableStatsValue.newBuilder().setTableId(t).build());
        });
    fixture.commit(
        "inserted_into_table:2",
        c -> {
          long file = c.fileId();
          long partition = c.catalogId();
          long sort = c.catalogId();
          c.put(
              new EntityKey.DataFile(2, file),
              DataFileValue.newBuilder()
                  .setDataFileId(file)
                  .setTableId(2)
                  .setBeginSnapshot(c.n)
                  .setPath("f0.parquet")
                  .setPathIsRelative(true)
                  .setFileFormat("parquet")
                  .setRecordCount(3)
                  .setFileSizeBytes(1024)
                  .setFooterSize(200)
                  .setRowIdStart(0)
                  .setPartitionId(partition)
                  .addPartitionValues(
                      FilePartitionValue.newBuilder()
                          .setPartitionKeyIndex(0)
                          .setPartitionValue("7"))
                  .build());
          c.put(
              new EntityKey.FileColumnStats(2, file, 1),
              FileColumnStatsValue.newBuilder()
                  .setDataFileId(file)
                  .setTableId(2)
                  .setColumnId(1)
                  .setValueCount(3)
                  .setMinValue("1")
                  .setMaxValue("9")
                  .build());
          c.put(
              new EntityKey.TableStats(2),
              TableStatsValue.newBuilder()
                  .setTableId(2)
                  .setRecordCount(3)
                  .setNextRowId(3)
                  .setFileSizeBytes(1024)
                  .build());
          c.put(
              new EntityKey.TableColumnStats(2, 1),
              TableColumnStatsValue.newBuilder()
                  .setTableId(2)
                  .setColumnId(1)
                  .setContainsNull(false)
                  .setMinValue("1")
                  .setMaxValue("9")
                  .build());
          c.put(
              new EntityKey.Partition(2, partition),
              PartitionValue.newBuilder()
                  .setPartitionId(partition)
                  .setTableId(2)
                  .setBeginSnapshot(c.n)
                  .addColumns(
                      PartitionColumn.newBuilder()
                          .setPartitionKeyIndex(0)
                          .setColumnId(1)
                          .setTransform("identity"))
                  .build());
          c.put(
              new EntityKey.Sort(2, sort),
              SortValue.newBuilder()
                  .setSortId(sort)
                  .setTableId(2)
                  .setBeginSnapshot(c.n)
                  .addExpressions(
                      SortExpression.newBuilder()
                          .setSortKeyIndex(0)
                          .setExpression("a")
                          .setDialect("duckdb")
                          .setSortDirection("ASC")
                          .setNullOrder("NULLS_LAST"))
                  .build());
        });
    fixture.commit(
        "altered_table:2",
        c -> {
          c.schemaChange(2);
          c.put(new EntityKey.Table(2), table(2, c.n, "t2", 5));
          c.put(new EntityKey.Column(2, 4), column(2, 4, c.n, 3, "c", "double", null));
          long deleteFile = c.fileId();
          c.put(
              new EntityKey.DeleteFile(2, deleteFile),
              DeleteFileValue.newBuilder()
                  .setDeleteFileId(deleteFile)
                  .setTableId(2)
                  .setBeginSnapshot(c.n)
                  .setDataFileId(0)
                  .setPath("d1.parquet")
                  .setPathIsRelative(true)
                  .setFormat("parquet")
                  .setDeleteCount(1)
                  .setFileSizeBytes(100)
                  .setFooterSize(20)
                  .build());
          c.put(
              new EntityKey.Tag(2),
              TagValue.newBuilder()
                  .setObjectId(2)
                  .addEntries(
                      TagEntry.newBuilder()
                          .setBeginSnapshot(c.n)
                          .setKey("comment")
                          .setValue("orders"))
                  .build());
        });
    fixture.commit(
        "dropped_table:2,created_table:\"main\".\"t\",created_view:\"sales\".\"v\","
            + "created_scalar_macro:\"main\".\"m\"",
        c -> {
          c.schemaChange(5, 6);
          for (EntityKey e :
              List.of(
                  new EntityKey.Table(2),
                  new EntityKey.Column(2, 1),
                  new EntityKey.Column(2, 2),
                  new EntityKey.Column(2, 3),
                  new EntityKey.Column(2, 4),
                  new EntityKey.DataFile(2, 0),
                  new EntityKey.DeleteFile(2, 1),
                  new EntityKey.Partition(2, 3),
                  new EntityKey.Sort(2, 4))) {
            c.drop(e);
          }
          long t = c.catalogId();
          long col = 1;
          long v = c.catalogId();
          long m = c.catalogId();
          c.put(new EntityKey.Table(t), table(t, c.n, "t", 2));
          c.put(new EntityKey.Column(t, col), column(t, col, c.n, 1, "a", "int64", null));
          c.put(new EntityKey.TableStats(t), TableStatsValue.newBuilder().setTableId(t).build());
          c.put(new EntityKey.View(v), view(v, c.n, "select 1"));
          c.put(
              new EntityKey.Macro(m),
              MacroValue.newBuilder()
                  .setMacroId(m)
                  .setBeginSnapshot(c.n)
                  .setSchemaId(0)
                  .setMacroName("m")
                  .addImplementations(
                      MacroImplementation.newBuilder()
                          .setImplId(0)
                          .setDialect("duckdb")
                          .setSql("x + 1")
                          .setMacroType("scalar")
                          .addParameters(
                              MacroParameter.newBuilder()
                                  .setParameterName("x")
                                  .setParameterType("int")
                                  .setDefaultValueType("unknown")))
                  .build());
        });
    fixture.commit(
        "inserted_into_table:5,altered_view:6",
        c -> {
          c.schemaChange(6);
          c.put(
              new EntityKey.OptionScope(EntityKey.OptionScope.TABLE, 5),
              OptionScopeValue.newBuilder().putOptions("parquet_compression", "zstd").build());
          c.raw(
              new CurrentKey.ScheduledDeletion(0),
              GcFileValue.newBuilder()
                  .setDataFileId(0)
                  .setPath("f0.parquet")
                  .setPathIsRelative(true)
                  .setScheduleStartMicros(42)
                  .build());
          long mapping = c.fileId();
          c.put(
              new EntityKey.Mapping(5, mapping),
              MappingValue.newBuilder()
                  .setMappingId(mapping)
                  .setTableId(5)
                  .setMapType("map_by_name")
                  .addNameMappings(
                      NameMapping.newBuilder()
                          .setColumnId(1)
                          .setSourceName("A")
                          .setTargetFieldId(1))
                  .build());
          c.put(new EntityKey.View(6), view(6, c.n, "select 2"));
          long index = c.catalogId();
          c.put(
              new EntityKey.IndexDefinition(5, index),
              IndexValue.newBuilder()
                  .setIndexId(index)
                  .setTableId(5)
                  .setBeginSnapshot(c.n)
                  .setIndexName("ix")
                  .addColumnIds(1)
                  .setUnique(true)
                  .addColumnDescending(false)
                  .addColumnNullsFirst(false)
                  .setBuildState("ready")
                  .build());
          inline(c);
          c.put(
              new EntityKey.TableStats(5),
              TableStatsValue.newBuilder().setTableId(5).setRecordCount(3).setNextRowId(3).build());
        });
    fixture.commit(
        "dropped_scalar_macro:7,deleted_from_table:5",
        c -> {
          c.schemaChange();
          c.author = "ann";
          c.message = "tidy up";
          c.drop(new EntityKey.Macro(7));
          c.raw(
              new InlineKey.RowTombstone(5, 1, c.n),
              InlineInlineDeleteValue.newBuilder().setEndSnapshot(c.n).build());
        });
  }

  private static void inline(LakeFixture.Commit c) {
    Schema schema =
        new Schema(List.of(new Field("a", FieldType.nullable(new ArrowType.Int(64, true)), null)));
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      BigIntVector a = (BigIntVector) root.getVector("a");
      a.allocateNew(3);
      a.set(0, 10);
      a.set(1, 11);
      a.set(2, 12);
      root.setRowCount(3);
      c.raw(
          new InlineKey.Schema(5, 1),
          InlineSchemaValue.newBuilder()
              .setArrowSchema(ByteString.copyFrom(InlineArrow.encodeSchema(schema)))
              .build());
      c.raw(
          InlineKey.Record.live(new InlineOp.InsertChunk(5, 1, c.n, 0)),
          InlineChunkValue.newBuilder()
              .setBody(ByteString.copyFrom(InlineArrow.encodeChunk(root)))
              .setRowIdStart(0)
              .setRowCount(3)
              .build());
      c.raw(
          new InlineKey.ChunkLocator(5, 2, 1, c.n, 0),
          InlineChunkRangeValue.newBuilder()
              .setRowIdStart(0)
              .setSchemaVersion(1)
              .setBeginSnapshot(c.n)
              .setChunkSeq(0)
              .build());
    }
  }

  static TableValue table(long id, long begin, String name, long nextColumnId) {
    return TableValue.newBuilder()
        .setTableId(id)
        .setTableUuid("u-" + id)
        .setBeginSnapshot(begin)
        .setSchemaId(0)
        .setTableName(name)
        .setPath(name + "/")
        .setPathIsRelative(true)
        .setNextColumnId(nextColumnId)
        .build();
  }

  static ColumnValue column(
      long table, long id, long begin, long order, String name, String type, Long parent) {
    ColumnValue.Builder b =
        ColumnValue.newBuilder()
            .setColumnId(id)
            .setBeginSnapshot(begin)
            .setTableId(table)
            .setColumnOrder(order)
            .setColumnName(name)
            .setColumnType(type)
            .setNullsAllowed(true);
    if (parent != null) {
      b.setParentColumn(parent);
    }
    return b.build();
  }

  static ViewValue view(long id, long begin, String sql) {
    return ViewValue.newBuilder()
        .setViewId(id)
        .setViewUuid("u-" + id)
        .setBeginSnapshot(begin)
        .setSchemaId(1)
        .setViewName("v")
        .setDialect("duckdb")
        .setSql(sql)
        .build();
  }
}
