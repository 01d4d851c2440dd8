package dev.moraine.core.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.InlinedSchemaVersion;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TagEntry;
import dev.moraine.core.catalog.model.Versioned;
import dev.moraine.ducklake.rows.ColumnTagRow;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.TableDef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;

/** The renderer's own decisions, apart from the field mappings: which records become rows. */
class DuckLakeRowRendererTest {
  private static ColumnInfo column(long id, long begin, List<TagEntry> tags) {
    return new ColumnInfo(
        1,
        id,
        begin,
        0,
        "c" + id,
        "int32",
        Optional.empty(),
        Optional.empty(),
        true,
        OptionalLong.empty(),
        Optional.empty(),
        Optional.empty(),
        tags);
  }

  @Test
  void columnTags_comeFromEachColumnsLatestVersion() {
    TagEntry old = new TagEntry(1, OptionalLong.empty(), "comment", "stale copy");
    TagEntry ended = new TagEntry(1, OptionalLong.of(4), "comment", "first");
    TagEntry current = new TagEntry(4, OptionalLong.empty(), "comment", "second");
    List<ColumnTagRow> rows =
        DuckLakeRowRenderer.columnTags(
            List.of(
                new Versioned<>(column(5, 1, List.of(old)), OptionalLong.of(3)),
                new Versioned<>(column(5, 3, List.of(ended, current)), OptionalLong.empty()),
                new Versioned<>(column(6, 1, List.of()), OptionalLong.empty())));
    assertEquals(
        List.of(
            new ColumnTagRow(1L, 5L, 1L, 4L, "comment", "first"),
            new ColumnTagRow(1L, 5L, 4L, null, "comment", "second")),
        rows);
  }

  @Test
  void aDroppedColumnsOpenTags_endWithIt_andEndedTagsKeepTheirEnd() {
    TagEntry endedEarlier = new TagEntry(1, OptionalLong.of(2), "owner", "a");
    TagEntry open = new TagEntry(2, OptionalLong.empty(), "comment", "still open");
    List<ColumnTagRow> rows =
        DuckLakeRowRenderer.columnTags(
            List.of(
                new Versioned<>(column(5, 1, List.of(endedEarlier, open)), OptionalLong.of(7)),
                new Versioned<>(column(6, 1, List.of(open)), OptionalLong.empty())));
    assertEquals(
        List.of(
            new ColumnTagRow(1L, 5L, 1L, 2L, "owner", "a"),
            new ColumnTagRow(1L, 5L, 2L, 7L, "comment", "still open"),
            new ColumnTagRow(1L, 6L, 2L, null, "comment", "still open")),
        rows);
  }

  @Test
  void endedBy_endsOpenEntriesAtTheDrop_only() {
    TagEntry endedEarlier = new TagEntry(1, OptionalLong.of(2), "owner", "a");
    TagEntry open = new TagEntry(2, OptionalLong.empty(), "comment", "c");
    assertEquals(
        List.of(endedEarlier, new TagEntry(2, OptionalLong.of(9), "comment", "c")),
        DuckLakeRowRenderer.endedBy(List.of(endedEarlier, open), 9L));
    assertEquals(
        List.of(endedEarlier, open),
        DuckLakeRowRenderer.endedBy(List.of(endedEarlier, open), null));
  }

  private static SnapshotInfo snapshot(long id, long schemaVersion) {
    return new SnapshotInfo(
        id,
        0,
        schemaVersion,
        10,
        10,
        "",
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        List.of(),
        List.of());
  }

  @Test
  void inlinedTables_registeredAtS_areOfRenderedTables_reachedVersions_andWrittenChunks() {
    InlinedSchemaVersion written =
        new InlinedSchemaVersion(1, 2, List.of(), OptionalLong.of(5), List.of());
    InlinedSchemaVersion flushed =
        new InlinedSchemaVersion(1, 1, List.of(), OptionalLong.empty(), List.of());
    InlinedSchemaVersion laterChunk =
        new InlinedSchemaVersion(1, 2, List.of(), OptionalLong.of(9), List.of());
    InlinedSchemaVersion laterVersion =
        new InlinedSchemaVersion(1, 4, List.of(), OptionalLong.empty(), List.of());
    InlinedSchemaVersion otherTable =
        new InlinedSchemaVersion(7, 1, List.of(), OptionalLong.empty(), List.of());
    assertEquals(
        List.of(written, flushed),
        DuckLakeRowRenderer.registeredAt(
            List.of(written, flushed, laterChunk, laterVersion, otherTable),
            snapshot(6, 3),
            Set.of(1L)));
  }

  @Test
  void anInlinedDataTable_holdsItsVersionsRows_withSystemColumnsFirst() {
    List<Field> fields =
        List.of(
            Field.nullable("id", new ArrowType.Int(64, true)),
            Field.nullable("name", ArrowType.Utf8.INSTANCE));
    InlinedRows.Row kept =
        new InlinedRows.Row(0, 2, 3, List.of("id", "name"), fields, Arrays.asList(10L, null));
    InlinedRows.Row otherVersion =
        new InlinedRows.Row(1, 1, 2, List.of("id", "name"), fields, Arrays.asList(11L, "b"));
    InlinedTable t =
        DuckLakeRowRenderer.inlinedData(
            "ducklake_inlined_data_1_2",
            new InlinedSchemaVersion(1, 2, List.of("id", "name"), OptionalLong.of(3), fields),
            List.of(
                new Versioned<>(kept, OptionalLong.of(5)),
                new Versioned<>(otherVersion, OptionalLong.empty())),
            columnId -> false);
    assertEquals(List.of("row_id", "begin_snapshot", "end_snapshot", "id", "name"), t.columns());
    assertEquals(
        List.of("BIGINT", "BIGINT", "BIGINT", "BIGINT", "VARCHAR"),
        t.columnTypes().stream().map(DuckDbType::ddl).toList());
    assertEquals(List.of(Arrays.asList(0L, 3L, 5L, 10L, null)), t.rows());
  }

  @Test
  void aRowSet_mustNameEverySpecTable_andNoOther() {
    Map<String, List<DuckLakeRow>> all = new LinkedHashMap<>();
    for (TableDef def : DuckLakeTables.ALL) {
      all.put(def.name(), new ArrayList<>());
    }
    DuckLakeRowSet ok = new DuckLakeRowSet(0, all, List.of());
    assertEquals(DuckLakeTables.ALL.size(), ok.tables().size());
    assertThrows(IllegalArgumentException.class, () -> ok.rows("ducklake_nothing"));

    Map<String, List<DuckLakeRow>> missing = new LinkedHashMap<>(all);
    missing.remove("ducklake_tag");
    assertThrows(IllegalArgumentException.class, () -> new DuckLakeRowSet(0, missing, List.of()));

    Map<String, List<DuckLakeRow>> extra = new LinkedHashMap<>(all);
    extra.put("ducklake_extra", List.of());
    assertThrows(IllegalArgumentException.class, () -> new DuckLakeRowSet(0, extra, List.of()));
  }
}
