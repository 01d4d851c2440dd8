package dev.moraine.cli;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.dump.CompactJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options of the commands that look inside a lake: the lake, where its database is, the
 * snapshot to look at and the output form.
 */
final class InspectOptions {
  @Mixin LakeOptions where;

  @Option(
      names = "--at",
      paramLabel = "<snapshot id>",
      description = "Look at this snapshot instead of the head.")
  String at;

  @Option(names = "--json", description = "Print one line of JSON instead of text.")
  boolean json;

  /** The lake, opened read-only. */
  ReadOnlyLake open() {
    return where.open();
  }

  /**
   * The snapshot {@code --at} names, or the head.
   *
   * @throws CliFailure for an id that is not one, or names no snapshot (above the head, expired)
   */
  CatalogSnapshot snapshot(ReadOnlyCatalog catalog) {
    if (at == null) {
      return catalog.snapshot();
    }
    long id = SnapshotIds.parse("--at", at);
    try {
      return catalog.snapshotAt(id);
    } catch (NotFoundException e) {
      throw new CliFailure(where.lake + ": " + e.getMessage());
    }
  }

  /** What a listing command read: the snapshot it looked at and one row per item. */
  record Listing(long snapshotId, List<Map<String, Object>> rows) {
    /** The listing as one line of JSON: the snapshot id and the rows under {@code key}. */
    String json(String key) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("snapshot_id", Inspect.unsigned(snapshotId));
      doc.put(key, rows);
      return CompactJson.toText(doc);
    }
  }

  /** Opens the lake, lists the chosen snapshot's items with {@code rows}, and closes the lake. */
  Listing list(Function<CatalogSnapshot, List<Map<String, Object>>> rows) {
    try (ReadOnlyLake opened = open()) {
      CatalogSnapshot at = snapshot(opened.catalog());
      return new Listing(at.snapshotId(), rows.apply(at));
    }
  }
}
