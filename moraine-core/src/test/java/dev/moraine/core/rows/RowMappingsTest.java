package dev.moraine.core.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.catalog.CorruptionException;
import dev.moraine.core.catalog.ErrorCode;
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
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Each read-model record maps to its DuckLake row field by field. Every input field has a value of
 * its own, so a swapped or dropped field changes the row and fails the comparison.
 */
class RowMappingsTest {
  private static final String U1 = "0b7c6f5e-1d2a-4c3b-9e8f-a1b2c3d4e5f6";
  private static final OptionalLong NONE = OptionalLong.empty();

  private static <T> Versioned<T> live(T v) {
    return new Versioned<>(v, NONE);
  }

  private static <T> Versioned<T> ended(T v, long end) {
    return new Versioned<>(v, OptionalLong.of(end));
  }

  @Test
  void snapshot_andItsChanges() {
    SnapshotInfo s =
        new SnapshotInfo(
            7,
            1_700_000_000_123_456L,
            3,
            11,
            5,
            "created_table:\"main\".\"t\"",
            Optional.of("ann"),
            Optional.of("msg"),
            Optional.of("{}"),
            List.of(),
            List.of());
    assertEquals(
        new SnapshotRow(7L, Instant.parse("2023-11-14T22:13:20.123456Z"), 3L, 11L, 5L),
        RowMappings.snapshot(s));
    assertEquals(
        new SnapshotChangesRow(7L, "created_table:\"main\".\"t\"", "ann", "msg", "{}"),
        RowMappings.snapshotChanges(s));
  }

  @Test
  void anEmptyChangeSet_isNull_andAbsentMetadataIsNull() {
    SnapshotInfo s =
        new SnapshotInfo(
            8,
            0,
            3,
            11,
            5,
            "",
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            List.of(),
            List.of());
    assertEquals(
        new SnapshotChangesRow(8L, null, null, null, null), RowMappings.snapshotChanges(s));
  }

  @Test
  void options_carryTheirScope() {
    assertEquals(
        new MetadataRow("data_path", "/d/", null, null),
        RowMappings.option(OptionScope.global(), "data_path", "/d/"));
    assertEquals(
        new MetadataRow("k", "v", "schema", 4L),
        RowMappings.option(new OptionScope.Schema(4), "k", "v"));
    assertEquals(
        new MetadataRow("k", "v", "table", 9L),
        RowMappings.option(new OptionScope.Table(9), "k", "v"));
  }

  @Test
  void schema_tableAndView() {
    assertEquals(
        new SchemaRow(2L, UUID.fromString(U1), 1L, 6L, "s", "s/", true),
        RowMappings.schema(ended(new SchemaInfo(2, U1, 1, "s", "s/", true), 6)));
    assertEquals(
        new TableRow(3L, UUID.fromString(U1), 2L, null, 2L, "t", "t/", false),
        RowMappings.table(live(new TableInfo(3, U1, 2, 2, "t", "t/", false, 99))));
    assertEquals(
        new ViewRow(4L, UUID.fromString(U1), 3L, 8L, 2L, "v", "duckdb", "SELECT 1", "a"),
        RowMappings.view(
            ended(new ViewInfo(4, U1, 3, 2, "v", "duckdb", "SELECT 1", Optional.of("a")), 8)));
    assertEquals(
        null,
        RowMappings.view(live(new ViewInfo(4, U1, 3, 2, "v", "duckdb", "x", Optional.empty())))
            .columnAliases());
  }

  @Test
  void aUuidThatDoesNotParse_isCorruption() {
    CorruptionException e =
        assertThrows(
            CorruptionException.class,
            () -> RowMappings.schema(live(new SchemaInfo(2, "not-a-uuid", 1, "s", "s/", true))));
    assertEquals(ErrorCode.CORRUPTION, e.code());
  }

  @Test
  void column_andItsTags() {
    ColumnInfo c =
        new ColumnInfo(
            3,
            5,
            2,
            1,
            "a",
            "int64",
            Optional.of("0"),
            Optional.of("1"),
            false,
            OptionalLong.of(4),
            Optional.of("literal"),
            Optional.of("duckdb"),
            List.of(
                new TagEntry(2, OptionalLong.of(4), "comment", "old"),
                new TagEntry(4, NONE, "comment", "new")));
    assertEquals(
        new ColumnRow(5L, 2L, 7L, 3L, 1L, "a", "int64", "0", "1", false, 4L, "literal", "duckdb"),
        RowMappings.column(ended(c, 7)));
    assertEquals(
        List.of(
            new ColumnTagRow(3L, 5L, 2L, 4L, "comment", "old"),
            new ColumnTagRow(3L, 5L, 4L, null, "comment", "new")),
        RowMappings.columnTags(c));
  }

  @Test
  void tags() {
    assertEquals(
        List.of(new TagRow(9L, 1L, 3L, "owner", "x"), new TagRow(9L, 3L, null, "owner", "y")),
        RowMappings.tags(
            9,
            List.of(
                new TagEntry(1, OptionalLong.of(3), "owner", "x"),
                new TagEntry(3, NONE, "owner", "y"))));
  }

  @Test
  void dataFile_itsPartitionValues_andDeleteFile() {
    DataFileInfo f =
        new DataFileInfo(
            3,
            10,
            4,
            OptionalLong.of(1),
            "f.parquet",
            true,
            "parquet",
            100,
            2000,
            300,
            OptionalLong.of(50),
            OptionalLong.of(6),
            Optional.of("key"),
            OptionalLong.of(12),
            OptionalLong.of(77),
            List.of(new DataFileInfo.PartitionValue(0, "2024")));
    assertEquals(
        new DataFileRow(
            10L,
            3L,
            4L,
            9L,
            1L,
            "f.parquet",
            true,
            "parquet",
            100L,
            2000L,
            300L,
            50L,
            6L,
            "key",
            12L,
            77L),
        RowMappings.dataFile(ended(f, 9)));
    assertEquals(
        List.of(new FilePartitionValueRow(10L, 3L, 0L, "2024")),
        RowMappings.filePartitionValues(f));
    DeleteFileInfo d =
        new DeleteFileInfo(
            3, 11, 5, 10, "d.parquet", false, "parquet", 7, 400, 60, Optional.empty(), NONE);
    assertEquals(
        new DeleteFileRow(
            11L, 3L, 5L, null, 10L, "d.parquet", false, "parquet", 7L, 400L, 60L, null, null),
        RowMappings.deleteFile(live(d)));
  }

  @Test
  void fileColumnStats_andVariantStats() {
    FileColumnStats s =
        new FileColumnStats(
            3,
            10,
            5,
            123,
            100,
            4,
            Optional.of("a"),
            Optional.of("z"),
            Optional.of(false),
            Optional.of("{}"),
            List.of(
                new FileColumnStats.VariantStats(
                    "$.x",
                    "int64",
                    20,
                    30,
                    1,
                    Optional.of("1"),
                    Optional.empty(),
                    Optional.of(true),
                    Optional.empty())));
    assertEquals(
        new FileColumnStatsRow(10L, 3L, 5L, 123L, 100L, 4L, "a", "z", false, "{}"),
        RowMappings.fileColumnStats(s));
    assertEquals(
        List.of(
            new FileVariantStatsRow(
                10L, 3L, 5L, "$.x", "int64", 20L, 30L, 1L, "1", null, true, null)),
        RowMappings.fileVariantStats(s));
  }

  @Test
  void tableStats_andColumnStats() {
    assertEquals(
        new TableStatsRow(3L, 100L, 150L, 9000L),
        RowMappings.tableStats(new TableStats(3, 100, 150, 9000)));
    assertEquals(
        new TableColumnStatsRow(3L, 5L, true, null, "a", "z", null),
        RowMappings.tableColumnStats(
            new ColumnStats(
                3,
                5,
                Optional.of(true),
                Optional.empty(),
                Optional.of("a"),
                Optional.of("z"),
                Optional.empty())));
  }

  @Test
  void partition_andSort() {
    PartitionSpec p = new PartitionSpec(3, 12, 4, List.of(new PartitionSpec.Column(0, 5, "year")));
    assertEquals(new PartitionInfoRow(12L, 3L, 4L, 8L), RowMappings.partitionInfo(ended(p, 8)));
    assertEquals(
        List.of(new PartitionColumnRow(12L, 3L, 0L, 5L, "year")), RowMappings.partitionColumns(p));
    SortSpec s =
        new SortSpec(
            3, 13, 5, List.of(new SortSpec.Expression(0, "a", "duckdb", "DESC", "NULLS_FIRST")));
    assertEquals(new SortInfoRow(13L, 3L, 5L, null), RowMappings.sortInfo(live(s)));
    assertEquals(
        List.of(new SortExpressionRow(13L, 3L, 0L, "a", "duckdb", "DESC", "NULLS_FIRST")),
        RowMappings.sortExpressions(s));
  }

  @Test
  void macro_itsImplementations_andParameters() {
    MacroInfo m =
        new MacroInfo(
            14,
            6,
            2,
            "add_one",
            List.of(
                new MacroInfo.Implementation(
                    0,
                    "duckdb",
                    "x + 1",
                    "scalar",
                    List.of(
                        new MacroInfo.Parameter(1, "x", "int64", Optional.of("0"), "literal")))));
    assertEquals(new MacroRow(2L, 14L, "add_one", 6L, 9L), RowMappings.macro(ended(m, 9)));
    assertEquals(
        List.of(new MacroImplRow(14L, 0L, "duckdb", "x + 1", "scalar")), RowMappings.macroImpls(m));
    assertEquals(
        List.of(new MacroParametersRow(14L, 0L, 1L, "x", "int64", "0", "literal")),
        RowMappings.macroParameters(m));
  }

  @Test
  void mapping_andNameMappings() {
    MappingInfo m =
        new MappingInfo(
            3,
            15,
            "map_by_name",
            List.of(
                new MappingInfo.NameMapping(5, "src", 1, OptionalLong.of(4), true),
                new MappingInfo.NameMapping(6, "other", 2, NONE, false)));
    assertEquals(new ColumnMappingRow(15L, 3L, "map_by_name"), RowMappings.columnMapping(m));
    assertEquals(
        List.of(
            new NameMappingRow(15L, 5L, "src", 1L, 4L, true),
            new NameMappingRow(15L, 6L, "other", 2L, null, false)),
        RowMappings.nameMappings(m));
  }

  @Test
  void schemaVersion_andScheduledDeletion() {
    assertEquals(
        new SchemaVersionsRow(4L, 2L, 3L),
        RowMappings.schemaVersion(new SchemaVersionInfo(3, 4, 2)));
    assertEquals(
        new FilesScheduledForDeletionRow(10L, "f.parquet", true, Instant.ofEpochSecond(2)),
        RowMappings.scheduledDeletion(new ScheduledDeletion(10, "f.parquet", true, 2_000_000)));
  }
}
