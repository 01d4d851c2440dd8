package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.FileField;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.MacroInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewMacro;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.ViewInfo;
import dev.moraine.store.commit.CatalogModel.Intent;
import dev.moraine.store.commit.ConcurrentVerbModelPropertiesTest.Action;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The actions of {@link ConcurrentVerbModelPropertiesTest} beyond schemas, tables, columns, views,
 * files and options: inlined inserts, inline deletes, flushes, files mapped by name, table moves,
 * view alters, comments and macros. Each is chosen from the premise (so that most are valid, and
 * some are deliberately not: a row already deleted, a flush that does not match what is inlined, a
 * mapping naming an unknown column), performed through the verbs, and read back for the check.
 */
final class ConcurrentVerbChoices {
  private ConcurrentVerbChoices() {}

  /** The intent of operations 13 and up, or null for the default (a table create). */
  static Intent choose(CatalogSnapshot p, TableInfo table, long schema, Action a) {
    if (table == null && a.op() != 19 && a.op() != 22 && a.op() != 23 && a.op() != 24) {
      return null;
    }
    switch (a.op()) {
      case 13:
      case 14:
        return new Intent.InsertInlined(table.tableId(), a.arg() == 7 ? 0 : 1 + a.arg() % 3);
      case 15:
        return new Intent.DeleteInline(table.tableId(), deletable(p, table.tableId(), a));
      case 16:
      case 25:
        // Mostly a table that has rows inlined, so that flushes also land.
        List<TableInfo> inlined = new ArrayList<>();
        for (TableInfo t : p.tables()) {
          if (!p.inlinedRows(t.tableId()).rows().isEmpty()) {
            inlined.add(t);
          }
        }
        inlined.sort(Comparator.comparingLong(TableInfo::tableId));
        long target =
            inlined.isEmpty() || a.op() == 16
                ? table.tableId()
                : inlined.get(a.pick() % inlined.size()).tableId();
        return flush(p, target, a);
      case 17:
        return byName(p, table.tableId(), a);
      case 18:
        List<SchemaInfo> schemas = new ArrayList<>(p.schemas());
        schemas.sort(Comparator.comparingLong(SchemaInfo::schemaId));
        return new Intent.MoveTable(
            table.tableId(), schemas.get(a.arg() % schemas.size()).schemaId());
      case 19:
      case 22:
        List<ViewInfo> views = new ArrayList<>(p.views());
        views.sort(Comparator.comparingLong(ViewInfo::viewId));
        if (views.isEmpty()) {
          return null;
        }
        long view = views.get(a.pick() % views.size()).viewId();
        return a.op() == 19
            ? new Intent.AlterView(view, "SELECT " + a.arg())
            : new Intent.Tag(CatalogModel.TagOn.VIEW, view, 0, "comment", "view note " + a.arg());
      case 20:
        return new Intent.Tag(
            CatalogModel.TagOn.TABLE, table.tableId(), 0, "comment", "note " + a.arg());
      case 21:
        List<ColumnInfo> cols = new ArrayList<>(p.columns(table.tableId()));
        cols.sort(Comparator.comparingLong(ColumnInfo::columnId));
        return new Intent.Tag(
            CatalogModel.TagOn.COLUMN,
            table.tableId(),
            cols.get(a.arg() % cols.size()).columnId(),
            "comment",
            "column note " + a.arg());
      case 23:
        return new Intent.CreateMacro(schema, "m" + (a.arg() % 2), a.arg() % 3 == 0);
      case 24:
        List<MacroInfo> macros = new ArrayList<>(p.macros());
        macros.sort(Comparator.comparingLong(MacroInfo::macroId));
        return macros.isEmpty()
            ? null
            : new Intent.DropMacro(macros.get(a.pick() % macros.size()).macroId());
      default:
        return null;
    }
  }

  /** A row id to delete: an inlined or data-file row of the premise, or (arg 6) any number. */
  private static long deletable(CatalogSnapshot p, long table, Action a) {
    if (a.arg() == 6) {
      return a.pick();
    }
    List<Long> rows = new ArrayList<>();
    p.inlinedRows(table).rows().forEach(r -> rows.add(r.rowId()));
    for (DataFileInfo f : p.dataFiles(table)) {
      long start = f.rowIdStart().orElseThrow();
      rows.add(start + a.arg() % f.recordCount());
    }
    return rows.isEmpty() ? a.pick() : rows.get(a.pick() % rows.size());
  }

  /**
   * A flush as a caller who sees only the premise's live inlined rows would write it: a data file
   * spanning them, a row delete file if they have gaps, and delete files for all (argument 1 mod
   * 4), the first (0 mod 4) or none of the data files without one, expired ones with rows deleted
   * inline included. The model decides whether that matches.
   */
  private static Intent flush(CatalogSnapshot p, long table, Action a) {
    List<InlinedRows.Row> live = p.inlinedRows(table).rows();
    long rows = 0;
    boolean gaps = false;
    if (!live.isEmpty()) {
      rows = live.get(live.size() - 1).rowId() - live.get(0).rowId() + 1;
      gaps = rows > live.size();
    }
    Set<Long> deleted = new TreeSet<>();
    p.deleteFiles(table).forEach(d -> deleted.add(d.dataFileId()));
    // The candidates: the live data files without a delete file, and the data files expired since
    // rows of theirs were deleted inline, which the flush still gives a delete file (RFC 0004 §3).
    Set<Long> candidates = new TreeSet<>();
    for (DataFileInfo f : p.dataFiles(table)) {
      if (!deleted.contains(f.dataFileId())) {
        candidates.add(f.dataFileId());
      }
    }
    p.history().inlinedFileDeletes().stream()
        .filter(d -> d.tableId() == table && !deleted.contains(d.dataFileId()))
        .forEach(d -> candidates.add(d.dataFileId()));
    Set<Long> targets = new TreeSet<>();
    for (long f : candidates) {
      if (a.arg() % 4 == 1 || targets.isEmpty()) {
        targets.add(f);
      }
    }
    if (a.arg() % 4 >= 2) {
      targets.clear();
    }
    return new Intent.Flush(table, rows, gaps, targets);
  }

  /**
   * The table's columns by name (case varied); args 0 and 4 add an unknown field, args 1 and 5 drop
   * one (each planted refusal drawn a quarter of the time, so that it occurs in every run).
   */
  private static Intent byName(CatalogSnapshot p, long table, Action a) {
    List<ColumnInfo> cols = new ArrayList<>(p.columns(table));
    cols.sort(Comparator.comparingLong(ColumnInfo::columnId));
    List<String> fields = new ArrayList<>();
    for (ColumnInfo c : cols) {
      fields.add(a.arg() % 2 == 1 ? c.name().toUpperCase(java.util.Locale.ROOT) : c.name());
    }
    if (a.arg() % 4 == 0) {
      fields.add("zz");
    } else if (a.arg() % 4 == 1) {
      fields.remove(0);
    }
    return new Intent.RegisterByName(table, 1 + a.arg() * 5L, fields);
  }

  /** Performs an intent of this class; false if it is not one. */
  static boolean perform(Transaction tx, Intent intent) {
    if (intent instanceof Intent.InsertInlined i) {
      int width = tx.columns(i.tableId()).size();
      List<List<Object>> rows = new ArrayList<>();
      for (int r = 0; r < i.rows(); r++) {
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < width; c++) {
          row.add((long) (r + c));
        }
        rows.add(row);
      }
      tx.insertInlined(i.tableId(), rows);
    } else if (intent instanceof Intent.DeleteInline i) {
      tx.deleteRowInline(i.tableId(), i.rowId());
    } else if (intent instanceof Intent.Flush i) {
      InlineFlush flush =
          i.rows() > 0
              ? InlineFlush.of(
                  NewDataFile.parquet("flush.parquet", i.rows(), CatalogModel.FILE_SIZE, 100))
              : InlineFlush.fileDeletesOnly();
      if (i.rowDeletes()) {
        flush = flush.withRowDeletes(FlushDeleteFile.parquet("rows.parquet", 50, 10));
      }
      for (long file : i.fileDeletes()) {
        flush = flush.withFileDeletes(file, FlushDeleteFile.parquet("del.parquet", 50, 10));
      }
      tx.flushInlined(i.tableId(), flush);
    } else if (intent instanceof Intent.RegisterByName i) {
      tx.registerDataFileByName(
          i.tableId(),
          NewDataFile.parquet("named.parquet", i.rows(), CatalogModel.FILE_SIZE, 100),
          i.fields().stream().map(FileField::of).toList());
    } else if (intent instanceof Intent.MoveTable i) {
      tx.moveTable(i.tableId(), i.schemaId());
    } else if (intent instanceof Intent.AlterView i) {
      tx.alterView(i.viewId(), "duckdb", i.sql());
    } else if (intent instanceof Intent.CreateMacro i) {
      tx.createMacro(
          i.schemaId(),
          i.name(),
          NewMacro.of(
              i.table()
                  ? NewMacro.Implementation.table("SELECT 1")
                  : NewMacro.Implementation.scalar("1")));
    } else if (intent instanceof Intent.DropMacro i) {
      tx.dropMacro(i.macroId());
    } else {
      return false;
    }
    return true;
  }

  /** A live table as the catalog reads at {@code at}, in the model's terms. */
  static CatalogModel.Table read(CatalogSnapshot at, TableInfo t) {
    Map<Long, String> cols = new TreeMap<>();
    for (ColumnInfo c : at.columns(t.tableId())) {
      cols.put(c.columnId(), c.name());
    }
    Map<Long, long[]> files = new TreeMap<>();
    for (DataFileInfo f : at.dataFiles(t.tableId())) {
      files.put(f.dataFileId(), new long[] {f.rowIdStart().orElse(-1), f.recordCount()});
    }
    Map<Long, Long> deletes = new TreeMap<>();
    for (DeleteFileInfo d : at.deleteFiles(t.tableId())) {
      deletes.put(d.deleteFileId(), d.dataFileId());
    }
    CatalogModel.Table read =
        new CatalogModel.Table(t.schemaId(), t.name(), cols, t.nextColumnId(), files, deletes);
    ConcurrentAlterChoices.readInto(at, t, read);
    at.inlinedRows(t.tableId()).rows().forEach(r -> read.inlined.put(r.rowId(), 0L));
    return read;
  }

  /** Views' SQL and tags, and macros, at {@code at}. */
  static void checkViewsAndMacros(CatalogModel m, CatalogSnapshot at, String where) {
    Map<Long, String> sql = new TreeMap<>();
    for (ViewInfo v : at.views()) {
      sql.put(v.viewId(), v.sql());
    }
    assertEquals(m.viewSql(), sql, "view SQL" + where);
    assertEquals(
        m.objectTags(m.views().keySet()),
        ConcurrentAlterChoices.objectTags(at, m.views().keySet()),
        "view tags" + where);
    Map<Long, String> macros = new TreeMap<>();
    for (MacroInfo mi : at.macros()) {
      macros.put(
          mi.macroId(),
          mi.schemaId() + "." + mi.name() + "." + mi.implementations().get(0).macroType());
    }
    assertEquals(m.macros(), macros, "macros" + where);
  }

  /**
   * What time travel does not version, checked at the head: mappings (written once, read at any
   * snapshot) and next_column_id (changed in place).
   */
  static void checkUnversionedTables(CatalogModel m, CatalogSnapshot head) {
    for (var e : m.tables().entrySet()) {
      assertEquals(
          e.getValue().nextColumnId(),
          head.table(e.getKey()).orElseThrow().nextColumnId(),
          "next_column_id of table " + e.getKey());
      Set<Long> ids = new TreeSet<>();
      head.mappings(e.getKey()).forEach(x -> ids.add(x.mappingId()));
      assertEquals(e.getValue().mappings, ids, "mappings of table " + e.getKey());
    }
  }
}
