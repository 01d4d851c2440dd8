package dev.moraine.cli;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.InlinedFileDelete;
import dev.moraine.core.catalog.model.TableInfo;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The tables of a lake at its head or at {@code --at}; read-only. */
@Command(
    name = "tables",
    description =
        "Print a lake's tables at the head or at a snapshot: name, id, columns, live rows, data files"
            + " and inlined rows; read-only.")
final class TablesCommand implements Callable<Integer> {
  @Mixin InspectOptions options;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    InspectOptions.Listing listing = options.list(TablesCommand::rows);
    long snapshotId = listing.snapshotId();
    List<Map<String, Object>> rows = listing.rows();
    PrintWriter out = spec.commandLine().getOut();
    if (options.json) {
      out.println(listing.json("tables"));
    } else {
      out.println("tables at snapshot " + Long.toUnsignedString(snapshotId) + ": " + rows.size());
      for (Map<String, Object> r : rows) {
        out.println(
            r.get("table")
                + " (id "
                + r.get("table_id")
                + ")  "
                + r.get("rows")
                + " rows, "
                + r.get("data_files")
                + " data files, "
                + r.get("inlined_rows")
                + " inlined rows  ("
                + String.join(", ", (List<String>) r.get("columns"))
                + ")");
      }
    }
    out.flush();
    return 0;
  }

  /** One row per table live at {@code at}, by qualified name. */
  private static List<Map<String, Object>> rows(CatalogSnapshot at) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (TableInfo t : at.tables()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("table", Inspect.qualifiedName(at, t));
      row.put("table_id", Inspect.unsigned(t.tableId()));
      List<String> columns = new ArrayList<>();
      for (ColumnInfo c : at.columns(t.tableId())) {
        if (c.parentColumn().isEmpty()) {
          columns.add(c.name() + " " + c.type());
        }
      }
      row.put("columns", columns);
      List<DataFileInfo> files = at.dataFiles(t.tableId());
      long inlined = at.inlinedRows(t.tableId()).rows().size();
      row.put("rows", Inspect.unsigned(liveRows(at, t.tableId(), files) + inlined));
      row.put("data_files", (long) files.size());
      row.put("inlined_rows", inlined);
      rows.add(row);
    }
    rows.sort((a, b) -> ((String) a.get("table")).compareTo((String) b.get("table")));
    return rows;
  }

  /**
   * The rows of the table's live data files at the snapshot: their records, less those their live
   * delete files and the inline deletions of their rows remove. (The table's statistics record is
   * not versioned: it holds the head's count whatever snapshot is read.)
   */
  private static long liveRows(CatalogSnapshot at, long tableId, List<DataFileInfo> files) {
    Set<Long> live = new HashSet<>();
    long rows = 0;
    for (DataFileInfo f : files) {
      live.add(f.dataFileId());
      rows += f.recordCount();
    }
    for (DeleteFileInfo d : at.deleteFiles(tableId)) {
      rows -= d.deleteCount();
    }
    for (InlinedFileDelete d : at.history().inlinedFileDeletes()) {
      if (d.tableId() == tableId && live.contains(d.dataFileId())) {
        rows--;
      }
    }
    return rows;
  }
}
