package dev.moraine.core.rows;

import dev.moraine.core.catalog.CatalogHistory;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.FileColumnStats;
import dev.moraine.core.catalog.model.InlinedFileDelete;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.InlinedSchemaVersion;
import dev.moraine.core.catalog.model.MacroInfo;
import dev.moraine.core.catalog.model.MappingInfo;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.core.catalog.model.TagEntry;
import dev.moraine.core.catalog.model.Versioned;
import dev.moraine.core.lake.Bootstrap;
import dev.moraine.ducklake.rows.ColumnMappingRow;
import dev.moraine.ducklake.rows.ColumnRow;
import dev.moraine.ducklake.rows.ColumnTagRow;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.FileColumnStatsRow;
import dev.moraine.ducklake.rows.FilePartitionValueRow;
import dev.moraine.ducklake.rows.FileVariantStatsRow;
import dev.moraine.ducklake.rows.FilesScheduledForDeletionRow;
import dev.moraine.ducklake.rows.InlinedDataTablesRow;
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
import dev.moraine.ducklake.rows.TableDef;
import dev.moraine.ducklake.rows.TableRow;
import dev.moraine.ducklake.rows.TableStatsRow;
import dev.moraine.ducklake.rows.TagRow;
import dev.moraine.ducklake.rows.ViewRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import java.util.function.ToLongFunction;

/**
 * Renders a {@link CatalogSnapshot} as the full contents of DuckLake's spec-1.0 metadata tables as
 * stock DuckLake would hold them right after that snapshot: the snapshot log up to it, every entity
 * version begun by it (ended ones with their end, versions ended later shown open), and the
 * unversioned records as the store holds them. Each table's derivation, and what cannot be
 * reproduced, is in docs/ducklake-format.md, "Rendering a snapshot as DuckLake rows".
 *
 * <p>Rows come out in a fixed order per table (by the table's ids, then begin snapshot), not in
 * DuckLake's insertion order, which is not part of its format.
 *
 * <p>Reads only; it may throw what the snapshot's accessors throw ({@code CorruptionException},
 * {@code StoreUnavailableException}, {@code ClosedException}, {@code FencedException}), and then
 * nothing is returned and nothing has changed.
 */
public final class DuckLakeRowRenderer {
  /**
   * What the rendering writes as {@code ducklake_metadata.created_by}: the store does not keep the
   * writer DuckLake would record (a DuckDB source id), so it names this library.
   */
  public static final String CREATED_BY = Bootstrap.WRITER_VERSION;

  /** The three BIGINT columns each inlined table starts with. */
  private static final List<DuckDbType> SYSTEM_COLUMN_TYPES =
      List.of(DuckDbType.BIGINT, DuckDbType.BIGINT, DuckDbType.BIGINT);

  private DuckLakeRowRenderer() {}

  /** The rows of every {@code ducklake_*} table, and the inlined-data tables, at {@code at}. */
  public static DuckLakeRowSet render(CatalogSnapshot at) {
    Map<String, List<DuckLakeRow>> out = new LinkedHashMap<>();
    for (TableDef def : DuckLakeTables.ALL) {
      out.put(def.name(), new ArrayList<>());
    }
    CatalogHistory history = at.history();
    SnapshotInfo self = at.info();

    add(out, MetadataRow.DEF, metadata(at));
    for (SnapshotInfo s : at.snapshotLog()) {
      add(out, SnapshotRow.DEF, List.of(RowMappings.snapshot(s)));
      add(out, SnapshotChangesRow.DEF, List.of(RowMappings.snapshotChanges(s)));
    }
    add(out, SchemaRow.DEF, history.schemas().stream().map(RowMappings::schema).toList());

    List<Versioned<TableInfo>> tables = history.tables();
    add(out, TableRow.DEF, tables.stream().map(RowMappings::table).toList());
    Set<Long> tableIds = new LinkedHashSet<>();
    tables.forEach(t -> tableIds.add(t.version().tableId()));

    add(out, ViewRow.DEF, history.views().stream().map(RowMappings::view).toList());

    Map<Long, Long> droppedObjects = new HashMap<>();
    history.schemas().forEach(v -> droppedAt(droppedObjects, v.version().schemaId(), v));
    tables.forEach(v -> droppedAt(droppedObjects, v.version().tableId(), v));
    history.views().forEach(v -> droppedAt(droppedObjects, v.version().viewId(), v));
    history
        .tags()
        .forEach(
            (objectId, entries) ->
                add(
                    out,
                    TagRow.DEF,
                    RowMappings.tags(objectId, endedBy(entries, droppedObjects.get(objectId)))));

    List<Versioned<ColumnInfo>> columns = history.columns();
    add(out, ColumnRow.DEF, columns.stream().map(RowMappings::column).toList());
    add(out, ColumnTagRow.DEF, columnTags(columns));

    List<Versioned<DataFileInfo>> dataFiles = history.dataFiles();
    Set<Long> dataFileIds = new HashSet<>();
    for (Versioned<DataFileInfo> f : dataFiles) {
      dataFileIds.add(f.version().dataFileId());
      add(out, DataFileRow.DEF, List.of(RowMappings.dataFile(f)));
      add(out, FilePartitionValueRow.DEF, RowMappings.filePartitionValues(f.version()));
    }
    add(
        out,
        DeleteFileRow.DEF,
        history.deleteFiles().stream().map(RowMappings::deleteFile).toList());

    // The per-table records are read for every table at once (one range read each), not table by
    // table: a catalog of thousands of tables otherwise costs thousands of store reads.
    Map<Long, List<TableStats>> statsByTable = byTable(at.allTableStats(), TableStats::tableId);
    Map<Long, List<ColumnStats>> columnStatsByTable =
        byTable(at.allColumnStats(), ColumnStats::tableId);
    Map<Long, List<FileColumnStats>> fileStatsByTable =
        byTable(at.allFileColumnStats(), FileColumnStats::tableId);
    Map<Long, List<MappingInfo>> mappingsByTable = byTable(at.allMappings(), MappingInfo::tableId);
    for (long tableId : tableIds) {
      // Stock DuckLake writes a table's ducklake_table_stats row with its first rows; a table
      // that never held a row (next_row_id still 0, nothing counted) has none there, while the
      // keyspace keeps a zeroed record from the table's creation on.
      statsByTable.getOrDefault(tableId, List.of()).stream()
          .filter(s -> s.nextRowId() != 0 || s.recordCount() != 0 || s.fileSizeBytes() != 0)
          .forEach(s -> add(out, TableStatsRow.DEF, List.of(RowMappings.tableStats(s))));
      add(
          out,
          TableColumnStatsRow.DEF,
          columnStatsByTable.getOrDefault(tableId, List.of()).stream()
              .map(RowMappings::tableColumnStats)
              .toList());
      fileStatsByTable.getOrDefault(tableId, List.of()).stream()
          // A file registered after S is not in the rendered files; its stats are left out too.
          .filter(s -> dataFileIds.contains(s.dataFileId()))
          .forEach(
              s -> {
                add(out, FileColumnStatsRow.DEF, List.of(RowMappings.fileColumnStats(s)));
                add(out, FileVariantStatsRow.DEF, RowMappings.fileVariantStats(s));
              });
      for (MappingInfo m : mappingsByTable.getOrDefault(tableId, List.of())) {
        // Mapping ids come from next_file_id: one at or above S's counter was made after S.
        if (Long.compareUnsigned(m.mappingId(), self.nextFileId()) < 0) {
          add(out, ColumnMappingRow.DEF, List.of(RowMappings.columnMapping(m)));
          add(out, NameMappingRow.DEF, RowMappings.nameMappings(m));
        }
      }
    }

    history
        .partitions()
        .forEach(
            p -> {
              add(out, PartitionInfoRow.DEF, List.of(RowMappings.partitionInfo(p)));
              add(out, PartitionColumnRow.DEF, RowMappings.partitionColumns(p.version()));
            });
    history
        .sorts()
        .forEach(
            s -> {
              add(out, SortInfoRow.DEF, List.of(RowMappings.sortInfo(s)));
              add(out, SortExpressionRow.DEF, RowMappings.sortExpressions(s.version()));
            });

    // A macro's implementations and parameters have no span of their own: one set per macro id,
    // from its latest version begun by S.
    Map<Long, MacroInfo> latestMacro = new TreeMap<>(Long::compareUnsigned);
    for (Versioned<MacroInfo> m : history.macros()) {
      add(out, MacroRow.DEF, List.of(RowMappings.macro(m)));
      latestMacro.put(m.version().macroId(), m.version());
    }
    for (MacroInfo m : latestMacro.values()) {
      add(out, MacroImplRow.DEF, RowMappings.macroImpls(m));
      add(out, MacroParametersRow.DEF, RowMappings.macroParameters(m));
    }

    add(
        out,
        SchemaVersionsRow.DEF,
        history.schemaVersions().stream().map(RowMappings::schemaVersion).toList());

    List<InlinedTable> inlined = new ArrayList<>();
    // The chunks keep a uuid as its text: the column records tell a uuid column from a varchar.
    Set<List<Long>> uuidColumns = new HashSet<>();
    for (Versioned<ColumnInfo> c : columns) {
      if ("uuid".equals(c.version().type())) {
        uuidColumns.add(List.of(c.version().tableId(), c.version().columnId()));
      }
    }
    for (InlinedSchemaVersion v : registeredAt(history.inlinedSchemaVersions(), self, tableIds)) {
      String name = DuckLakeTables.inlinedDataTableName(v.tableId(), v.schemaVersion());
      add(
          out,
          InlinedDataTablesRow.DEF,
          List.of(new InlinedDataTablesRow(v.tableId(), name, v.schemaVersion())));
      inlined.add(
          inlinedData(
              name,
              v,
              history.inlinedRows(v.tableId()),
              columnId -> uuidColumns.contains(List.of(v.tableId(), columnId))));
    }
    inlined.addAll(inlinedDeletes(history, tableIds));

    add(
        out,
        FilesScheduledForDeletionRow.DEF,
        at.scheduledDeletions().stream().map(RowMappings::scheduledDeletion).toList());

    return new DuckLakeRowSet(at.snapshotId(), out, inlined);
  }

  /**
   * {@code ducklake_metadata}: the format's own two keys ({@code version}, {@code created_by}),
   * then every option the store holds, global scope first, each scope's keys sorted.
   */
  static List<MetadataRow> metadata(CatalogSnapshot at) {
    List<MetadataRow> rows = new ArrayList<>();
    rows.add(new MetadataRow("version", DuckLakeTables.CATALOG_VERSION, null, null));
    rows.add(new MetadataRow("created_by", CREATED_BY, null, null));
    for (Map.Entry<OptionScope, Map<String, String>> scope : at.allOptions().entrySet()) {
      new TreeMap<>(scope.getValue())
          .forEach((k, v) -> rows.add(RowMappings.option(scope.getKey(), k, v)));
    }
    return rows;
  }

  /**
   * Column tags from each column's latest version begun by S: the tags live in the column record
   * and change in place, so the latest copy holds every entry (earlier copies are stale).
   */
  static List<ColumnTagRow> columnTags(List<Versioned<ColumnInfo>> columns) {
    Map<List<Long>, Versioned<ColumnInfo>> latest = new LinkedHashMap<>();
    for (Versioned<ColumnInfo> c : columns) {
      // Versions come in begin order within one column, so the last one put stays.
      latest.put(List.of(c.version().tableId(), c.version().columnId()), c);
    }
    List<ColumnTagRow> rows = new ArrayList<>();
    for (Versioned<ColumnInfo> c : latest.values()) {
      // A latest version with an end was dropped then (a replacement begun by S would be the
      // latest instead); its tags end with it, as stock DuckLake ends a dropped table's column
      // tags. The record keeps them open: a drop ends the record, it does not rewrite it.
      ColumnInfo info = c.version();
      List<TagEntry> tags = endedBy(info.tags(), dropEnd(c));
      rows.addAll(
          RowMappings.columnTags(
              new ColumnInfo(
                  info.tableId(),
                  info.columnId(),
                  info.beginSnapshot(),
                  info.columnOrder(),
                  info.name(),
                  info.type(),
                  info.initialDefault(),
                  info.defaultValue(),
                  info.nullsAllowed(),
                  info.parentColumn(),
                  info.defaultValueType(),
                  info.defaultValueDialect(),
                  tags)));
    }
    return rows;
  }

  /**
   * Records in {@code dropped} the end of an object whose version {@code v} is its latest and has
   * ended by S (versions come in begin order per object, so a later version overwrites an earlier
   * one's entry, and an open latest version removes it).
   */
  private static void droppedAt(Map<Long, Long> dropped, long objectId, Versioned<?> v) {
    Long end = dropEnd(v);
    if (end == null) {
      dropped.remove(objectId);
    } else {
      dropped.put(objectId, end);
    }
  }

  private static Long dropEnd(Versioned<?> v) {
    return v.endSnapshot().isPresent() ? v.endSnapshot().getAsLong() : null;
  }

  /**
   * Tag entries as stock DuckLake shows them once their object is dropped at {@code end} (null: not
   * dropped): an entry still open then ends with the object.
   */
  static List<TagEntry> endedBy(List<TagEntry> entries, Long end) {
    if (end == null) {
      return entries;
    }
    return entries.stream()
        .map(
            t ->
                t.endSnapshot().isPresent()
                    ? t
                    : new TagEntry(t.beginSnapshot(), OptionalLong.of(end), t.key(), t.value()))
        .toList();
  }

  /**
   * The inlined-data tables registered at S: of a table rendered at S, under a schema version S had
   * reached, and (while chunks remain to tell) with its first chunk written by S.
   */
  static List<InlinedSchemaVersion> registeredAt(
      List<InlinedSchemaVersion> registry, SnapshotInfo at, Set<Long> tableIds) {
    return registry.stream()
        .filter(v -> tableIds.contains(v.tableId()))
        .filter(v -> Long.compareUnsigned(v.schemaVersion(), at.schemaVersion()) <= 0)
        .filter(
            v ->
                v.firstChunkBegin().isEmpty()
                    || Long.compareUnsigned(v.firstChunkBegin().getAsLong(), at.snapshotId()) <= 0)
        .toList();
  }

  /** One {@code ducklake_inlined_data_<t>_<v>}: the row versions written under version v. */
  static InlinedTable inlinedData(
      String name,
      InlinedSchemaVersion v,
      List<Versioned<InlinedRows.Row>> rows,
      LongPredicate isUuid) {
    List<String> columns = new ArrayList<>(List.of("row_id", "begin_snapshot", "end_snapshot"));
    columns.addAll(v.columns());
    List<DuckDbType> types = new ArrayList<>(SYSTEM_COLUMN_TYPES);
    v.fields().forEach(f -> types.add(DuckDbType.of(f, isUuid)));
    List<List<Object>> values = new ArrayList<>();
    for (Versioned<InlinedRows.Row> r : rows) {
      InlinedRows.Row row = r.version();
      if (row.schemaVersion() != v.schemaVersion()) {
        continue;
      }
      List<Object> cells = new ArrayList<>();
      cells.add(row.rowId());
      cells.add(row.beginSnapshot());
      cells.add(r.endSnapshot().isPresent() ? r.endSnapshot().getAsLong() : null);
      cells.addAll(row.values());
      values.add(cells);
    }
    return new InlinedTable(name, columns, types, values);
  }

  /** Every {@code ducklake_inlined_delete_<t>} of a table rendered at S. */
  static List<InlinedTable> inlinedDeletes(CatalogHistory history, Set<Long> tableIds) {
    Map<Long, List<List<Object>>> byTable = new TreeMap<>(Long::compareUnsigned);
    for (long t : history.inlinedDeleteTables()) {
      if (tableIds.contains(t)) {
        byTable.put(t, new ArrayList<>());
      }
    }
    for (InlinedFileDelete d : history.inlinedFileDeletes()) {
      List<List<Object>> rows = byTable.get(d.tableId());
      if (rows != null) {
        rows.add(List.of(d.dataFileId(), d.rowId(), d.beginSnapshot()));
      }
    }
    List<InlinedTable> out = new ArrayList<>();
    byTable.forEach(
        (t, rows) ->
            out.add(
                new InlinedTable(
                    DuckLakeTables.inlinedDeleteTableName(t),
                    List.of("file_id", "row_id", "begin_snapshot"),
                    SYSTEM_COLUMN_TYPES,
                    rows)));
    return out;
  }

  /** {@code records} grouped by table id, each group in the given order. */
  private static <T> Map<Long, List<T>> byTable(List<T> records, ToLongFunction<T> tableOf) {
    Map<Long, List<T>> out = new HashMap<>();
    for (T r : records) {
      out.computeIfAbsent(tableOf.applyAsLong(r), k -> new ArrayList<>()).add(r);
    }
    return out;
  }

  private static void add(
      Map<String, List<DuckLakeRow>> out, TableDef def, List<? extends DuckLakeRow> rows) {
    out.get(def.name()).addAll(rows);
  }
}
