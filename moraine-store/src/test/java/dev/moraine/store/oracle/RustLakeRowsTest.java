package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.core.rows.DuckLakeRowRenderer;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.core.rows.InlinedTable;
import dev.moraine.ducklake.rows.ColumnMappingRow;
import dev.moraine.ducklake.rows.ColumnRow;
import dev.moraine.ducklake.rows.ColumnTagRow;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.FileColumnStatsRow;
import dev.moraine.ducklake.rows.FilePartitionValueRow;
import dev.moraine.ducklake.rows.InlinedDataTablesRow;
import dev.moraine.ducklake.rows.MacroImplRow;
import dev.moraine.ducklake.rows.MacroParametersRow;
import dev.moraine.ducklake.rows.MacroRow;
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
import dev.moraine.ducklake.rows.TableDef;
import dev.moraine.ducklake.rows.TableRow;
import dev.moraine.ducklake.rows.TableStatsRow;
import dev.moraine.ducklake.rows.TagRow;
import dev.moraine.ducklake.rows.ViewRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake the Rust crate writes ({@code moraine-oracle write}: every change kind of its verb API)
 * rendered as DuckLake rows at every snapshot of its log, and each rendering checked as a DuckLake
 * catalog: snapshot ranges consistent, ids unique per table, foreign ids resolving, the live rows
 * exactly what the snapshot's own accessors call live, and each table's row ids dense and its live
 * files' ranges disjoint.
 */
class RustLakeRowsTest {
  @TempDir static Path temp;

  private static final Map<Long, DuckLakeRowSet> rendered = new TreeMap<>();
  private static final Map<Long, LiveCounts> live = new TreeMap<>();

  /** What the snapshot's own accessors report as live, to hold the rendering against. */
  record LiveCounts(
      Set<Long> tables, Set<List<Long>> columns, Set<Long> dataFiles, Set<Long> views) {}

  @BeforeAll
  static void renderEverySnapshot() {
    Path lake = temp.resolve("rust-lake");
    RustOracle.locate().write(lake);
    try (KvReader reader = Lakes.provider(lake).openReader(ReaderMode.followLatest());
        ReadOnlyCatalog catalog = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      for (SnapshotInfo s : catalog.snapshot().snapshotLog()) {
        CatalogSnapshot at = catalog.snapshotAt(s.snapshotId());
        rendered.put(s.snapshotId(), DuckLakeRowRenderer.render(at));
        Set<Long> tables = new HashSet<>();
        Set<List<Long>> columns = new HashSet<>();
        Set<Long> files = new HashSet<>();
        at.tables()
            .forEach(
                t -> {
                  tables.add(t.tableId());
                  at.columns(t.tableId())
                      .forEach(c -> columns.add(List.of(c.tableId(), c.columnId())));
                  at.dataFiles(t.tableId()).forEach(f -> files.add(f.dataFileId()));
                });
        Set<Long> views = new HashSet<>();
        at.views().forEach(v -> views.add(v.viewId()));
        live.put(s.snapshotId(), new LiveCounts(tables, columns, files, views));
      }
    }
  }

  @Test
  void theWorkload_coversEveryVersionedTable_andHistory() {
    // Without this the checks below could pass on a lake that holds next to nothing.
    assertTrue(rendered.size() >= 30, "snapshots rendered: " + rendered.size());
    DuckLakeRowSet last = rendered.get(((TreeMap<Long, DuckLakeRowSet>) rendered).lastKey());
    for (TableDef def :
        List.of(
            SchemaRow.DEF,
            TableRow.DEF,
            ViewRow.DEF,
            ColumnRow.DEF,
            DataFileRow.DEF,
            DeleteFileRow.DEF,
            FileColumnStatsRow.DEF,
            TableStatsRow.DEF,
            TableColumnStatsRow.DEF,
            PartitionInfoRow.DEF,
            PartitionColumnRow.DEF,
            FilePartitionValueRow.DEF,
            SortInfoRow.DEF,
            SortExpressionRow.DEF,
            TagRow.DEF,
            MacroRow.DEF,
            MacroImplRow.DEF,
            MacroParametersRow.DEF,
            SchemaVersionsRow.DEF,
            InlinedDataTablesRow.DEF)) {
      assertTrue(!last.rows(def.name()).isEmpty(), def.name() + " is empty at the last snapshot");
    }
    for (TableDef def : List.of(TableRow.DEF, ColumnRow.DEF, DataFileRow.DEF, TagRow.DEF)) {
      assertTrue(
          last.rows(def.name()).stream().anyMatch(r -> endOf(r) != null),
          def.name() + " has no ended row: history is not rendered");
    }
  }

  @Test
  void theInlinedTable_hasItsColumns_andKeepsDeletedRowsWithAnEnd() {
    List<InlinedTable> data =
        rendered.values().stream()
            .flatMap(r -> r.inlinedTables().stream())
            .filter(t -> t.name().startsWith("ducklake_inlined_data_"))
            .toList();
    assertTrue(!data.isEmpty(), "the workload inlines rows");
    for (InlinedTable t : data) {
      assertEquals(
          List.of("row_id", "begin_snapshot", "end_snapshot", "id", "name", "ok"),
          t.columns(),
          t.name());
    }
    assertTrue(
        data.stream().flatMap(t -> t.rows().stream()).anyMatch(r -> r.get(2) != null),
        "an inlined row deleted by the workload is kept with its end");
  }

  /**
   * A later snapshot only ever closes rows: every versioned row rendered at S is rendered at S + 1
   * with the same values, except that its end may be S + 1; and a row S + 1 ended was open at S.
   */
  @Test
  void consecutiveRenderings_differOnlyByClosingAndAddingRows() {
    List<String> bad = new ArrayList<>();
    Long previous = null;
    for (long s : rendered.keySet()) {
      if (previous != null) {
        DuckLakeRowSet before = rendered.get(previous);
        DuckLakeRowSet after = rendered.get(s);
        for (String table : before.tables().keySet()) {
          for (DuckLakeRow r : before.rows(table)) {
            if (beginOf(r) == null || endOf(r) != null) {
              continue;
            }
            boolean same = after.rows(table).contains(r);
            boolean closedNow =
                after.rows(table).stream()
                    .anyMatch(
                        a ->
                            s == (endOf(a) == null ? -1 : endOf(a))
                                && withoutEnd(a).equals(withoutEnd(r)));
            if (!same && !closedNow) {
              bad.add("open at " + previous + " but neither open nor ended by " + s + ": " + r);
            }
          }
        }
      }
      previous = s;
    }
    assertEquals(List.of(), bad);
  }

  private static List<Object> withoutEnd(DuckLakeRow r) {
    List<Object> v = new ArrayList<>(r.values());
    int i = r.def().columnNames().indexOf("end_snapshot");
    v.set(i, null);
    v.add(0, r.def().name());
    return v;
  }

  @Test
  void everyRowsSnapshotRange_isConsistent() {
    List<String> bad = new ArrayList<>();
    rendered.forEach(
        (s, rows) -> {
          for (List<DuckLakeRow> table : rows.tables().values()) {
            for (DuckLakeRow r : table) {
              Long begin = beginOf(r);
              Long end = endOf(r);
              if (begin == null) {
                continue;
              }
              boolean ok = begin <= s && (end == null || (end > begin && end <= s));
              if (!ok) {
                bad.add("at " + s + ": " + r);
              }
            }
          }
          for (InlinedTable t : rows.inlinedTables()) {
            int b = t.columns().indexOf("begin_snapshot");
            int e = t.columns().indexOf("end_snapshot");
            for (List<Object> r : t.rows()) {
              long begin = (Long) r.get(b);
              Long end = e < 0 ? null : (Long) r.get(e);
              if (begin > s || (end != null && (end <= begin || end > s))) {
                bad.add("at " + s + ": " + t.name() + " " + r);
              }
            }
          }
        });
    assertEquals(List.of(), bad);
  }

  @Test
  void theLiveRows_areWhatTheSnapshotCallsLive() {
    rendered.forEach(
        (s, rows) -> {
          LiveCounts expected = live.get(s);
          assertEquals(
              expected.tables(),
              liveIds(rows, TableRow.DEF, r -> ((TableRow) r).tableId()),
              "tables at " + s);
          assertEquals(
              expected.views(),
              liveIds(rows, ViewRow.DEF, r -> ((ViewRow) r).viewId()),
              "views at " + s);
          assertEquals(
              expected.dataFiles(),
              liveIds(rows, DataFileRow.DEF, r -> ((DataFileRow) r).dataFileId()),
              "data files at " + s);
          Set<List<Long>> columns = new HashSet<>();
          for (DuckLakeRow r : rows.rows(ColumnRow.TABLE)) {
            ColumnRow c = (ColumnRow) r;
            if (c.endSnapshot() == null && expected.tables().contains(c.tableId())) {
              columns.add(List.of(c.tableId(), c.columnId()));
            }
          }
          assertEquals(expected.columns(), columns, "columns at " + s);
        });
  }

  @Test
  void idsAreUniquePerTable() {
    List<String> bad = new ArrayList<>();
    rendered.forEach(
        (s, rows) -> {
          unique(bad, s, rows, SnapshotRow.DEF, r -> List.of(((SnapshotRow) r).snapshotId()));
          unique(
              bad,
              s,
              rows,
              SnapshotChangesRow.DEF,
              r -> List.of(((SnapshotChangesRow) r).snapshotId()));
          unique(bad, s, rows, DataFileRow.DEF, r -> List.of(((DataFileRow) r).dataFileId()));
          unique(bad, s, rows, DeleteFileRow.DEF, r -> List.of(((DeleteFileRow) r).deleteFileId()));
          unique(bad, s, rows, TableStatsRow.DEF, r -> List.of(((TableStatsRow) r).tableId()));
          unique(
              bad,
              s,
              rows,
              TableColumnStatsRow.DEF,
              r ->
                  List.of(
                      ((TableColumnStatsRow) r).tableId(), ((TableColumnStatsRow) r).columnId()));
          unique(
              bad,
              s,
              rows,
              FileColumnStatsRow.DEF,
              r ->
                  List.of(
                      ((FileColumnStatsRow) r).dataFileId(), ((FileColumnStatsRow) r).columnId()));
          unique(
              bad, s, rows, ColumnMappingRow.DEF, r -> List.of(((ColumnMappingRow) r).mappingId()));
          unique(
              bad,
              s,
              rows,
              SchemaVersionsRow.DEF,
              r ->
                  List.of(
                      ((SchemaVersionsRow) r).tableId(), ((SchemaVersionsRow) r).beginSnapshot()));
          unique(
              bad,
              s,
              rows,
              InlinedDataTablesRow.DEF,
              r -> List.of(((InlinedDataTablesRow) r).tableName()));
          // Versioned tables: one row per (id, begin), and at most one live row per id.
          versioned(bad, s, rows, SchemaRow.DEF, r -> List.of(((SchemaRow) r).schemaId()));
          versioned(bad, s, rows, TableRow.DEF, r -> List.of(((TableRow) r).tableId()));
          versioned(bad, s, rows, ViewRow.DEF, r -> List.of(((ViewRow) r).viewId()));
          versioned(
              bad,
              s,
              rows,
              ColumnRow.DEF,
              r -> List.of(((ColumnRow) r).tableId(), ((ColumnRow) r).columnId()));
          versioned(
              bad,
              s,
              rows,
              PartitionInfoRow.DEF,
              r -> List.of(((PartitionInfoRow) r).partitionId()));
          versioned(bad, s, rows, SortInfoRow.DEF, r -> List.of(((SortInfoRow) r).sortId()));
          versioned(bad, s, rows, MacroRow.DEF, r -> List.of(((MacroRow) r).macroId()));
          versioned(
              bad,
              s,
              rows,
              TagRow.DEF,
              r -> List.of(((TagRow) r).objectId(), (Object) ((TagRow) r).key()));
          versioned(
              bad,
              s,
              rows,
              ColumnTagRow.DEF,
              r ->
                  List.of(
                      ((ColumnTagRow) r).tableId(),
                      ((ColumnTagRow) r).columnId(),
                      (Object) ((ColumnTagRow) r).key()));
          // Catalog ids are one counter: a schema, table and view never share an id.
          Set<Long> catalogIds = new HashSet<>();
          ids(rows, SchemaRow.DEF, r -> ((SchemaRow) r).schemaId()).forEach(catalogIds::add);
          for (long t : ids(rows, TableRow.DEF, r -> ((TableRow) r).tableId())) {
            if (!catalogIds.add(t)) {
              bad.add("at " + s + ": table id " + t + " is also a schema id");
            }
          }
          for (long v : ids(rows, ViewRow.DEF, r -> ((ViewRow) r).viewId())) {
            if (!catalogIds.add(v)) {
              bad.add("at " + s + ": view id " + v + " is also a schema or table id");
            }
          }
        });
    assertEquals(List.of(), bad);
  }

  @Test
  void foreignIdsResolve() {
    List<String> bad = new ArrayList<>();
    rendered.forEach(
        (s, rows) -> {
          Set<Long> snapshots = ids(rows, SnapshotRow.DEF, r -> ((SnapshotRow) r).snapshotId());
          Set<Long> schemas = ids(rows, SchemaRow.DEF, r -> ((SchemaRow) r).schemaId());
          Set<Long> tables = ids(rows, TableRow.DEF, r -> ((TableRow) r).tableId());
          Set<Long> views = ids(rows, ViewRow.DEF, r -> ((ViewRow) r).viewId());
          Set<List<Long>> columns = new HashSet<>();
          rows.rows(ColumnRow.TABLE)
              .forEach(
                  r -> columns.add(List.of(((ColumnRow) r).tableId(), ((ColumnRow) r).columnId())));
          Set<Long> dataFiles = ids(rows, DataFileRow.DEF, r -> ((DataFileRow) r).dataFileId());
          Set<Long> partitions =
              ids(rows, PartitionInfoRow.DEF, r -> ((PartitionInfoRow) r).partitionId());
          Set<Long> sorts = ids(rows, SortInfoRow.DEF, r -> ((SortInfoRow) r).sortId());
          Set<Long> macros = ids(rows, MacroRow.DEF, r -> ((MacroRow) r).macroId());
          Set<List<Long>> impls = new HashSet<>();
          rows.rows(MacroImplRow.TABLE)
              .forEach(
                  r ->
                      impls.add(
                          List.of(((MacroImplRow) r).macroId(), ((MacroImplRow) r).implId())));
          Set<Long> mappings =
              ids(rows, ColumnMappingRow.DEF, r -> ((ColumnMappingRow) r).mappingId());
          Set<Long> objects = new HashSet<>(schemas);
          objects.addAll(tables);
          objects.addAll(views);
          Set<Long> tablesAndViews = new HashSet<>(tables);
          tablesAndViews.addAll(views);

          for (DuckLakeRow r : everyRow(rows)) {
            Long begin = beginOf(r);
            if (begin != null && !snapshots.contains(begin)) {
              bad.add("at " + s + ": begins at a snapshot not in the log: " + r);
            }
            String miss =
                missing(
                    r,
                    schemas,
                    tables,
                    columns,
                    dataFiles,
                    partitions,
                    sorts,
                    macros,
                    impls,
                    mappings,
                    objects,
                    tablesAndViews,
                    snapshots);
            if (miss != null) {
              bad.add("at " + s + ": " + miss + " does not resolve: " + r);
            }
          }
          for (DuckLakeRow r : rows.rows(InlinedDataTablesRow.TABLE)) {
            if (!tables.contains(((InlinedDataTablesRow) r).tableId())) {
              bad.add("at " + s + ": " + r);
            }
          }
        });
    assertEquals(List.of(), bad);
  }

  @Test
  void rowIds_areDenseAndLiveFilesDisjoint_perTable() {
    List<String> bad = new ArrayList<>();
    rendered.forEach(
        (s, rows) -> {
          // Every row id a table handed out by S: its files' ranges (ended ones included: a
          // rewrite keeps the ids of the rows it moves) and its inlined rows.
          Map<Long, Set<Long>> handedOut = new HashMap<>();
          Map<Long, List<long[]>> liveRanges = new HashMap<>();
          for (DuckLakeRow r : rows.rows(DataFileRow.TABLE)) {
            DataFileRow f = (DataFileRow) r;
            if (f.rowIdStart() == null) {
              continue;
            }
            Set<Long> ids = handedOut.computeIfAbsent(f.tableId(), t -> new HashSet<>());
            for (long i = 0; i < f.recordCount(); i++) {
              ids.add(f.rowIdStart() + i);
            }
            if (f.endSnapshot() == null) {
              liveRanges
                  .computeIfAbsent(f.tableId(), t -> new ArrayList<>())
                  .add(new long[] {f.rowIdStart(), f.rowIdStart() + f.recordCount()});
            }
          }
          for (InlinedTable t : rows.inlinedTables()) {
            if (!t.name().startsWith("ducklake_inlined_data_")) {
              continue;
            }
            long tableId = Long.parseLong(t.name().split("_")[3]);
            for (List<Object> row : t.rows()) {
              handedOut.computeIfAbsent(tableId, k -> new HashSet<>()).add((Long) row.get(0));
            }
          }
          handedOut.forEach(
              (table, ids) -> {
                long max = ids.stream().mapToLong(Long::longValue).max().orElse(-1);
                if (ids.size() != max + 1) {
                  bad.add(
                      "at "
                          + s
                          + ": table "
                          + table
                          + " row ids not dense from 0: "
                          + ids.size()
                          + " ids up to "
                          + max);
                }
              });
          liveRanges.forEach(
              (table, ranges) -> {
                ranges.sort((a, b) -> Long.compare(a[0], b[0]));
                for (int i = 1; i < ranges.size(); i++) {
                  if (ranges.get(i)[0] < ranges.get(i - 1)[1]) {
                    bad.add(
                        "at "
                            + s
                            + ": table "
                            + table
                            + " live files overlap at row "
                            + ranges.get(i)[0]);
                  }
                }
              });
        });
    assertEquals(List.of(), bad);
    assertTrue(
        rendered.values().stream().anyMatch(r -> !r.rows(DataFileRow.TABLE).isEmpty()),
        "some snapshot has data files");
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private static List<DuckLakeRow> everyRow(DuckLakeRowSet rows) {
    List<DuckLakeRow> all = new ArrayList<>();
    rows.tables().values().forEach(all::addAll);
    return all;
  }

  /** The name of the first foreign id of {@code r} that names nothing, or null. */
  @SuppressWarnings("ParameterNumber")
  private static String missing(
      DuckLakeRow r,
      Set<Long> schemas,
      Set<Long> tables,
      Set<List<Long>> columns,
      Set<Long> dataFiles,
      Set<Long> partitions,
      Set<Long> sorts,
      Set<Long> macros,
      Set<List<Long>> impls,
      Set<Long> mappings,
      Set<Long> objects,
      Set<Long> tablesAndViews,
      Set<Long> snapshots) {
    if (r instanceof TableRow t) {
      return schemas.contains(t.schemaId()) ? null : "schema_id";
    } else if (r instanceof ViewRow v) {
      return schemas.contains(v.schemaId()) ? null : "schema_id";
    } else if (r instanceof ColumnRow c) {
      if (!tables.contains(c.tableId())) {
        return "table_id";
      }
      return c.parentColumn() == null || columns.contains(List.of(c.tableId(), c.parentColumn()))
          ? null
          : "parent_column";
    } else if (r instanceof DataFileRow f) {
      if (!tables.contains(f.tableId())) {
        return "table_id";
      }
      if (f.partitionId() != null && !partitions.contains(f.partitionId())) {
        return "partition_id";
      }
      return f.mappingId() == null || mappings.contains(f.mappingId()) ? null : "mapping_id";
    } else if (r instanceof DeleteFileRow d) {
      return tables.contains(d.tableId()) && dataFiles.contains(d.dataFileId())
          ? null
          : "data_file_id";
    } else if (r instanceof FileColumnStatsRow f) {
      return dataFiles.contains(f.dataFileId())
              && columns.contains(List.of(f.tableId(), f.columnId()))
          ? null
          : "data_file_id/column_id";
    } else if (r instanceof FilePartitionValueRow f) {
      return dataFiles.contains(f.dataFileId()) ? null : "data_file_id";
    } else if (r instanceof TableStatsRow t) {
      return tables.contains(t.tableId()) ? null : "table_id";
    } else if (r instanceof TableColumnStatsRow t) {
      return columns.contains(List.of(t.tableId(), t.columnId())) ? null : "column_id";
    } else if (r instanceof PartitionInfoRow p) {
      return tables.contains(p.tableId()) ? null : "table_id";
    } else if (r instanceof PartitionColumnRow p) {
      return partitions.contains(p.partitionId())
              && columns.contains(List.of(p.tableId(), p.columnId()))
          ? null
          : "partition_id/column_id";
    } else if (r instanceof SortInfoRow p) {
      return tables.contains(p.tableId()) ? null : "table_id";
    } else if (r instanceof SortExpressionRow e) {
      return sorts.contains(e.sortId()) ? null : "sort_id";
    } else if (r instanceof MacroRow m) {
      return schemas.contains(m.schemaId()) ? null : "schema_id";
    } else if (r instanceof MacroImplRow m) {
      return macros.contains(m.macroId()) ? null : "macro_id";
    } else if (r instanceof MacroParametersRow m) {
      return impls.contains(List.of(m.macroId(), m.implId())) ? null : "macro_id/impl_id";
    } else if (r instanceof TagRow t) {
      return objects.contains(t.objectId()) ? null : "object_id";
    } else if (r instanceof ColumnTagRow t) {
      return columns.contains(List.of(t.tableId(), t.columnId())) ? null : "column_id";
    } else if (r instanceof ColumnMappingRow m) {
      return tables.contains(m.tableId()) ? null : "table_id";
    } else if (r instanceof NameMappingRow n) {
      return mappings.contains(n.mappingId()) ? null : "mapping_id";
    } else if (r instanceof SchemaVersionsRow v) {
      return tablesAndViews.contains(v.tableId()) ? null : "table_id";
    } else if (r instanceof SnapshotChangesRow c) {
      return snapshots.contains(c.snapshotId()) ? null : "snapshot_id";
    }
    return null;
  }

  private static Set<Long> ids(DuckLakeRowSet rows, TableDef def, Function<DuckLakeRow, Long> id) {
    Set<Long> out = new HashSet<>();
    rows.rows(def.name()).forEach(r -> out.add(id.apply(r)));
    return out;
  }

  private static Set<Long> liveIds(
      DuckLakeRowSet rows, TableDef def, Function<DuckLakeRow, Long> id) {
    Set<Long> out = new HashSet<>();
    rows.rows(def.name()).stream().filter(r -> endOf(r) == null).forEach(r -> out.add(id.apply(r)));
    return out;
  }

  private static void unique(
      List<String> bad,
      long s,
      DuckLakeRowSet rows,
      TableDef def,
      Function<DuckLakeRow, List<?>> key) {
    Set<List<?>> seen = new HashSet<>();
    for (DuckLakeRow r : rows.rows(def.name())) {
      if (!seen.add(key.apply(r))) {
        bad.add("at " + s + ": duplicate " + def.name() + " " + key.apply(r));
      }
    }
  }

  /** One row per (id, begin), and at most one live row per id. */
  private static void versioned(
      List<String> bad,
      long s,
      DuckLakeRowSet rows,
      TableDef def,
      Function<DuckLakeRow, List<?>> id) {
    Set<List<Object>> seen = new HashSet<>();
    Set<List<?>> liveSeen = new HashSet<>();
    for (DuckLakeRow r : rows.rows(def.name())) {
      List<Object> k = new ArrayList<>(id.apply(r));
      k.add(beginOf(r));
      if (!seen.add(k)) {
        bad.add("at " + s + ": duplicate version " + def.name() + " " + k);
      }
      if (endOf(r) == null && !liveSeen.add(id.apply(r))) {
        bad.add("at " + s + ": two live rows " + def.name() + " " + id.apply(r));
      }
    }
  }

  private static Long beginOf(DuckLakeRow r) {
    int i = r.def().columnNames().indexOf("begin_snapshot");
    return i < 0 ? null : (Long) r.values().get(i);
  }

  private static Long endOf(DuckLakeRow r) {
    int i = r.def().columnNames().indexOf("end_snapshot");
    return i < 0 ? null : (Long) r.values().get(i);
  }
}
