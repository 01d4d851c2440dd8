package dev.moraine.cli;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.dump.CompactJson;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The snapshot log of a lake, up to the head or to {@code --at}; read-only. */
@Command(
    name = "log",
    description =
        "Print a lake's snapshot log: id, time, schema version and changes of every snapshot;"
            + " read-only.")
final class LogCommand implements Callable<Integer> {
  @Mixin InspectOptions options;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    List<SnapshotInfo> log;
    try (ReadOnlyLake lake = options.open()) {
      CatalogSnapshot at = options.snapshot(lake.catalog());
      log = at.snapshotLog();
    }
    PrintWriter out = spec.commandLine().getOut();
    if (options.json) {
      List<Object> rows = new ArrayList<>();
      for (SnapshotInfo s : log) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("snapshot_id", s.snapshotId());
        row.put("time", Inspect.time(s.timeMicros()));
        row.put("schema_version", s.schemaVersion());
        row.put("changes_made", s.changesMade());
        row.put("author", s.author().orElse(null));
        row.put("commit_message", s.commitMessage().orElse(null));
        rows.add(row);
      }
      out.println(CompactJson.toText(Map.of("snapshots", rows)));
    } else {
      for (SnapshotInfo s : log) {
        out.println(
            Long.toUnsignedString(s.snapshotId())
                + "  "
                + Inspect.time(s.timeMicros())
                + "  schema_version "
                + Long.toUnsignedString(s.schemaVersion())
                + "  "
                + (s.changesMade().isEmpty() ? "(no changes)" : s.changesMade())
                + s.commitMessage().map(m -> "  \"" + m + "\"").orElse(""));
      }
    }
    out.flush();
    return 0;
  }
}
