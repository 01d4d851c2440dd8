package dev.moraine.core.verb;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.InlinedDataTablesRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The staged-row door's inlined rows (RFC 0006 §13): the rows DuckLake writes into its inlined-data
 * tables, and the registrations of those tables. The rows are applied through the inline verbs
 * ({@link InlineVerbs}) on the translation's state, which write the lake's chunks, tombstones and
 * inlined file deletions, and each is checked to land where DuckLake put it: an insert at its row
 * id under its schema version, an inlined file deletion at its file and position. The table
 * statistics the verbs stage are then overwritten by the commit's own rows, as given.
 *
 * <p>Rows go into a table this same commit creates or alters under the commit's schema version,
 * whose inlined-data table it registers. Refused for now: inlined rows of a table with equality
 * indexes (their entries would need deriving). Confined to the thread running the translation.
 */
final class StagedInlinedRows {
  private final VerbState state;
  private final InlineVerbs verbs;
  private final StagedBase base;

  /** The snapshot the commit mints. */
  private final long n;

  StagedInlinedRows(VerbState state, StagedBase base, long n) {
    this.state = state;
    this.verbs = new InlineVerbs(state, new InlineRun(state));
    this.base = base;
    this.n = n;
  }

  /**
   * The {@code ducklake_inlined_data_tables} inserts among {@code registrations} for tables this
   * commit neither creates ({@code newTables}) nor alters ({@code newVersions}): the first
   * inlined-data table of an existing table, which DuckLake registers with its first inlined rows.
   */
  static List<InlinedDataTablesRow> firstRegistrations(
      List<InlinedDataTablesRow> registrations,
      List<dev.moraine.ducklake.rows.TableRow> newTables,
      List<dev.moraine.ducklake.rows.SchemaVersionsRow> newVersions) {
    Set<Long> shaped = new HashSet<>();
    newTables.forEach(t -> shaped.add(t.tableId()));
    newVersions.forEach(v -> shaped.add(v.tableId()));
    return registrations.stream().filter(r -> !shaped.contains(r.tableId())).toList();
  }

  /**
   * Registers the empty inlined-data table each {@code ducklake_inlined_data_tables} insert names,
   * under the commit's schema version and DuckLake's name for it: of a table this commit creates or
   * alters ({@code reshaped}), or the first of a live table that has none registered ({@code
   * first}, among {@link #firstRegistrations}).
   */
  void register(
      List<InlinedDataTablesRow> rows,
      long schemaVersion,
      List<Long> reshaped,
      List<InlinedDataTablesRow> first) {
    for (InlinedDataTablesRow r : rows) {
      long tableId = StagedRowChecks.required(r.tableId(), r, "table_id");
      long version = StagedRowChecks.required(r.schemaVersion(), r, "schema_version");
      boolean firstOfLiveTable =
          first.contains(r)
              && base.liveTable(tableId, "a ducklake_inlined_data_tables row") != null
              && new InlineRun(state).registeredVersions(tableId).isEmpty();
      if (version != schemaVersion || !(reshaped.contains(tableId) || firstOfLiveTable)) {
        throw new InvalidArgumentException(
            "ducklake_inlined_data_tables row for table "
                + Long.toUnsignedString(tableId)
                + " at schema version "
                + version
                + ": the door registers an inlined-data table only for a table the commit creates"
                + " or alters, or the first of a table that has none, at the commit's schema"
                + " version "
                + schemaVersion);
      }
      if (!DuckLakeTables.inlinedDataTableName(tableId, version).equals(r.tableName())) {
        throw new InvalidArgumentException(
            "ducklake_inlined_data_tables row names "
                + r.tableName()
                + ", not "
                + DuckLakeTables.inlinedDataTableName(tableId, version));
      }
      verbs.registerEmptyTable(tableId, version);
      // Rows this commit inlines into the table go under the version it registers, as in the
      // verb path's run that re-shapes a table.
      state.reshapedIds.add(tableId);
    }
    state.schemaChangedIds.addAll(reshaped);
  }

  /**
   * Applies the inlined-row operations other than a flush's removals: deletions, then updates, then
   * inserts; none may go into a table {@code flush} flushes in the same commit.
   */
  void apply(List<StagedRows.InlinedOp> ops, StagedInlineFlush flush) {
    Map<List<Long>, StagedRows.InlinedEnd> ends = new LinkedHashMap<>();
    Map<List<Long>, StagedRows.InlinedFileDelete> fileDeletes = new LinkedHashMap<>();
    Map<Long, List<StagedRows.InlinedInsert>> inserts = new LinkedHashMap<>();
    for (StagedRows.InlinedOp op : ops) {
      if (op == null) {
        throw new InvalidArgumentException("an inlined row operation is null");
      }
      requireTable(op.tableId());
      if (flush.flushes(op.tableId())) {
        throw new InvalidArgumentException(
            "table "
                + Long.toUnsignedString(op.tableId())
                + " is flushed by the commit that changes its inlined rows: "
                + op);
      }
      if (op instanceof StagedRows.InlinedEnd e) {
        at(e.endSnapshot(), "ends an inlined row", e);
        once(ends.put(List.of(e.tableId(), e.rowId()), e), e);
      } else if (op instanceof StagedRows.InlinedFileDelete d) {
        at(d.beginSnapshot(), "deletes a data file's row inline", d);
        once(fileDeletes.put(List.of(d.tableId(), d.dataFileId(), d.position()), d), d);
      } else if (op instanceof StagedRows.InlinedInsert i) {
        at(i.beginSnapshot(), "inlines a row", i);
        inserts.computeIfAbsent(i.tableId(), t -> new ArrayList<>()).add(i);
      } else {
        throw new IllegalStateException("not applied here: " + op);
      }
    }
    // An insert under an id below the table's next row id re-inlines a row the commit ends or
    // deletes from a data file: DuckLake's UPDATE. The rest append.
    Map<Long, List<StagedRows.InlinedInsert>> appended = new LinkedHashMap<>();
    Map<List<Long>, StagedRows.InlinedInsert> updates = new LinkedHashMap<>();
    for (Map.Entry<Long, List<StagedRows.InlinedInsert>> e : inserts.entrySet()) {
      long next = state.requireStats(e.getKey()).getNextRowId();
      for (StagedRows.InlinedInsert i : e.getValue()) {
        if (Long.compareUnsigned(i.rowId(), next) < 0) {
          once(updates.put(List.of(i.tableId(), i.rowId()), i), i);
        } else {
          appended.computeIfAbsent(e.getKey(), x -> new ArrayList<>()).add(i);
        }
      }
    }
    // An end names a live inlined row (the verbs would otherwise look for the id in a data
    // file); a re-inlined data-file row answers one of the commit's inline deletions of file rows
    // of its table, and is no live inlined row.
    Map<Long, InlineTableState> inlineState = new HashMap<>();
    for (StagedRows.InlinedEnd e : ends.values()) {
      InlineTableState st =
          inlineState.computeIfAbsent(
              e.tableId(), t -> InlineTableState.read(state.staged.premise(), t));
      if (st.chunkOf(e.rowId()).filter(c -> !st.deleted(c, e.rowId())).isEmpty()) {
        throw new NotFoundException(
            ErrorCode.NOT_FOUND,
            "an inlined end names row "
                + Long.toUnsignedString(e.rowId())
                + " of table "
                + Long.toUnsignedString(e.tableId())
                + ", which is no live inlined row");
      }
    }
    Map<Long, Integer> fileRowDeletes = new HashMap<>();
    fileDeletes.keySet().forEach(k -> fileRowDeletes.merge(k.get(0), 1, Integer::sum));
    Map<Long, Integer> reinlined = new HashMap<>();
    for (StagedRows.InlinedInsert i : updates.values()) {
      if (ends.containsKey(List.of(i.tableId(), i.rowId()))) {
        continue;
      }
      InlineTableState st =
          inlineState.computeIfAbsent(
              i.tableId(), t -> InlineTableState.read(state.staged.premise(), t));
      boolean liveInline = st.chunkOf(i.rowId()).filter(c -> !st.deleted(c, i.rowId())).isPresent();
      if (liveInline
          || reinlined.merge(i.tableId(), 1, Integer::sum)
              > fileRowDeletes.getOrDefault(i.tableId(), 0)) {
        throw new InvalidArgumentException(
            "row "
                + Long.toUnsignedString(i.rowId())
                + " of table "
                + Long.toUnsignedString(i.tableId())
                + " is inlined again without its old version being ended or deleted: "
                + i);
      }
    }
    for (StagedRows.InlinedFileDelete d : fileDeletes.values()) {
      verbs.deleteFileRow(d.tableId(), d.dataFileId(), d.position());
    }
    for (StagedRows.InlinedEnd e : ends.values()) {
      if (!updates.containsKey(List.of(e.tableId(), e.rowId()))) {
        verbs.deleteRow(e.tableId(), e.rowId());
      }
    }
    for (StagedRows.InlinedInsert i : updates.values()) {
      if (ends.containsKey(List.of(i.tableId(), i.rowId()))) {
        verbs.updateRow(i.tableId(), i.rowId(), i.values());
      } else {
        // Checked above: it answers one of the commit's inline deletions of its table's file rows.
        verbs.reinlineFileRow(i.tableId(), i.rowId(), i.values());
      }
      requireVersion(i.tableId(), List.of(i));
    }
    for (Map.Entry<Long, List<StagedRows.InlinedInsert>> e : appended.entrySet()) {
      List<StagedRows.InlinedInsert> rows = new ArrayList<>(e.getValue());
      rows.sort(Comparator.comparing(StagedRows.InlinedInsert::rowId, Long::compareUnsigned));
      for (int k = 1; k < rows.size(); k++) {
        if (rows.get(k).rowId() != rows.get(0).rowId() + k) {
          throw new InvalidArgumentException(
              "the rows inlined into table "
                  + Long.toUnsignedString(e.getKey())
                  + " skip or repeat row ids at "
                  + Long.toUnsignedString(rows.get(k).rowId()));
        }
      }
      List<List<Object>> values = new ArrayList<>(rows.size());
      rows.forEach(r -> values.add(r.values()));
      long start = verbs.insert(e.getKey(), values);
      if (start != rows.get(0).rowId()) {
        throw new InvalidArgumentException(
            "the rows inlined into table "
                + Long.toUnsignedString(e.getKey())
                + " begin at row id "
                + Long.toUnsignedString(rows.get(0).rowId())
                + ", not at its next row id "
                + Long.toUnsignedString(start));
      }
      requireVersion(e.getKey(), rows);
    }
  }

  /** Checks that the verbs inlined the rows of {@code tableId} under the version DuckLake did. */
  private void requireVersion(long tableId, List<StagedRows.InlinedInsert> rows) {
    long used = verbs.insertedVersion(tableId).orElseThrow();
    for (StagedRows.InlinedInsert i : rows) {
      if (i.schemaVersion() != used) {
        throw new InvalidArgumentException(
            "row "
                + Long.toUnsignedString(i.rowId())
                + " is inlined into "
                + DuckLakeTables.inlinedDataTableName(tableId, i.schemaVersion())
                + ", but rows of table "
                + Long.toUnsignedString(tableId)
                + " go into "
                + DuckLakeTables.inlinedDataTableName(tableId, used)
                + " at this snapshot");
      }
    }
  }

  private void requireTable(long tableId) {
    TableInfo table = base.liveTable(tableId, "an inlined row operation");
    base.refuseIndexed(table, "inlined rows");
  }

  private void at(long snapshot, String what, StagedRows.InlinedOp op) {
    if (snapshot != n) {
      throw new InvalidArgumentException(
          "an operation that "
              + what
              + " is stamped with snapshot "
              + snapshot
              + ", not "
              + n
              + ": "
              + op);
    }
  }

  private static void once(Object previous, StagedRows.InlinedOp op) {
    if (previous != null) {
      throw new InvalidArgumentException("an inlined row operation is given twice: " + op);
    }
  }
}
