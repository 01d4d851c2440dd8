package dev.moraine.cli;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.TableInfo;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The live data files of a lake's tables at its head or at {@code --at}; read-only. */
@Command(
    name = "files",
    description =
        "Print the live data files of a lake's tables (or of one, --table schema.table) at the head"
            + " or at a snapshot, with their delete files; read-only.")
final class FilesCommand implements Callable<Integer> {
  @Mixin InspectOptions options;

  @Option(
      names = "--table",
      paramLabel = "<schema.table>",
      description = "Only this table's files.")
  String table;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    InspectOptions.Listing listing = options.list(this::rows);
    List<Map<String, Object>> rows = listing.rows();
    PrintWriter out = spec.commandLine().getOut();
    if (options.json) {
      out.println(listing.json("files"));
    } else {
      out.println(
          "data files at snapshot "
              + Long.toUnsignedString(listing.snapshotId())
              + ": "
              + rows.size());
      for (Map<String, Object> r : rows) {
        out.println(
            r.get("table")
                + "  #"
                + r.get("data_file_id")
                + "  "
                + r.get("path")
                + "  "
                + r.get("records")
                + " rows, "
                + r.get("file_size_bytes")
                + " bytes, row ids from "
                + r.get("row_id_start")
                + (r.get("delete_file") == null
                    ? ""
                    : "  (" + r.get("deleted_rows") + " deleted in " + r.get("delete_file") + ")"));
      }
    }
    out.flush();
    return 0;
  }

  /** One row per live data file at {@code at}, of every table or of {@code --table}. */
  private List<Map<String, Object>> rows(CatalogSnapshot at) {
    List<Map<String, Object>> rows = new ArrayList<>();
    boolean found = table == null;
    for (TableInfo t : at.tables()) {
      String name = Inspect.qualifiedName(at, t);
      if (table != null && !table.equals(name)) {
        continue;
      }
      found = true;
      Map<Long, DeleteFileInfo> deletes = new HashMap<>();
      for (DeleteFileInfo d : at.deleteFiles(t.tableId())) {
        deletes.put(d.dataFileId(), d);
      }
      for (DataFileInfo f : at.dataFiles(t.tableId())) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("table", name);
        row.put("data_file_id", Inspect.unsigned(f.dataFileId()));
        row.put("path", f.path());
        row.put("records", Inspect.unsigned(f.recordCount()));
        row.put("file_size_bytes", Inspect.unsigned(f.fileSizeBytes()));
        row.put(
            "row_id_start",
            f.rowIdStart().isPresent() ? Inspect.unsigned(f.rowIdStart().getAsLong()) : null);
        row.put("begin_snapshot", Inspect.unsigned(f.beginSnapshot()));
        DeleteFileInfo d = deletes.get(f.dataFileId());
        row.put("delete_file", d == null ? null : d.path());
        row.put("deleted_rows", d == null ? null : Inspect.unsigned(d.deleteCount()));
        rows.add(row);
      }
    }
    if (!found) {
      throw new CliFailure(
          "no table " + table + " at snapshot " + Long.toUnsignedString(at.snapshotId()));
    }
    return rows;
  }
}
