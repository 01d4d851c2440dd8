package dev.moraine.store.commit;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.commit.CatalogModel.Intent;
import dev.moraine.store.commit.ConcurrentVerbModelPropertiesTest.Attempt;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.StringJoiner;

/**
 * Explains a landed commit the model of {@link ConcurrentVerbModelPropertiesTest} refuses: the
 * history with each commit's premise and what its closure read of inlined rows, the model's inline
 * state of the table at the premise, and the first earlier snapshot at which a fresh reader and the
 * model part.
 */
final class HistoryReport {
  private HistoryReport() {}

  /** The table an inline intent works on, if it is one. */
  static OptionalLong tableOf(Intent intent) {
    if (intent instanceof Intent.Flush i) {
      return OptionalLong.of(i.tableId());
    } else if (intent instanceof Intent.InsertInlined i) {
      return OptionalLong.of(i.tableId());
    } else if (intent instanceof Intent.DeleteInline i) {
      return OptionalLong.of(i.tableId());
    }
    return OptionalLong.empty();
  }

  /**
   * What a closure reads of its table's inlined rows (id:schema version@begin) and schema versions,
   * for an inline intent; empty otherwise.
   */
  static String saw(Transaction tx, Intent intent) {
    OptionalLong table = tableOf(intent);
    if (table.isEmpty() || tx.premise().table(table.getAsLong()).isEmpty()) {
      return "";
    }
    return rows(tx.premise(), table.getAsLong());
  }

  private static String rows(CatalogSnapshot at, long table) {
    StringJoiner out = new StringJoiner(" ", "[", "]");
    for (InlinedRows.Row r : at.inlinedRows(table).rows()) {
      out.add(r.rowId() + ":v" + r.schemaVersion() + "@" + r.beginSnapshot());
    }
    StringJoiner versions = new StringJoiner(" ", "[", "]");
    at.schemaVersions(table)
        .forEach(v -> versions.add(v.beginSnapshot() + ":v" + v.schemaVersion()));
    StringJoiner files = new StringJoiner(" ", "[", "]");
    at.dataFiles(table)
        .forEach(
            f ->
                files.add(
                    f.dataFileId()
                        + "@"
                        + f.rowIdStart().orElse(-1)
                        + "+"
                        + f.recordCount()
                        + " begin "
                        + f.beginSnapshot()));
    return "inlined " + out + " versions " + versions + " files " + files;
  }

  static String of(
      KvStore raw,
      Map<Long, Attempt> landed,
      List<CatalogModel> bySnapshot,
      CatalogModel refusing,
      long failedAt) {
    StringBuilder b = new StringBuilder();
    Attempt failed = landed.get(failedAt);
    b.append("\nhistory (snapshot: premise, intent, what an inline closure read):");
    for (long h = 1; h <= failedAt; h++) {
      Attempt a = landed.get(h);
      b.append("\n  ").append(h).append(": on ").append(a.premise()).append(' ').append(a.intent());
      if (!a.saw().isEmpty()) {
        b.append("\n      read ").append(a.saw());
      }
    }
    OptionalLong table = tableOf(failed.intent());
    if (table.isPresent()) {
      CatalogModel.Table t = refusing.tables().get(table.getAsLong());
      b.append("\nthe model's table ").append(table.getAsLong()).append(" at the premise: ");
      b.append(
          t == null
              ? "absent"
              : "inlined (row=epoch) "
                  + t.inlined
                  + " at "
                  + t.inlinedAt
                  + ", epoch "
                  + t.epoch
                  + ", tombstones "
                  + t.tombstones
                  + ", file row deletes "
                  + t.fileRowDeletes);
    }
    try (ReadOnlyCatalog reader = Catalog.openReadOnly(raw, CatalogOptions.defaults())) {
      if (table.isPresent()) {
        for (long s : List.of(failedAt - 1, failedAt)) {
          b.append("\na fresh reader at ").append(s).append(": ");
          b.append(rows(reader.snapshotAt(s), table.getAsLong()));
        }
      }
      CatalogModel upTo = bySnapshot.get(bySnapshot.size() - 1);
      for (int s = 0; s < bySnapshot.size(); s++) {
        try {
          ConcurrentVerbModelPropertiesTest.check(
              bySnapshot.get(s).asReadAfter(upTo), reader.snapshotAt(s));
        } catch (AssertionError e) {
          b.append("\nfirst snapshot where a fresh reader and the model part: ")
              .append(e.getMessage());
          break;
        }
      }
    } catch (RuntimeException e) {
      b.append("\n(reading the lake for the report failed: ").append(e).append(')');
    }
    return b.toString();
  }
}
