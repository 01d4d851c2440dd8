package dev.moraine.store.commit;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import java.util.List;

/**
 * The commit the fault tests break, and the history it lands on: it creates an entity, changes an
 * existing one (a new file in table 1 moves its stats) and carries commit information, so "all or
 * nothing" covers new records, overwritten records and the snapshot record.
 */
final class CommitUnderTest {
  private CommitUnderTest() {}

  /** The commit message the commit under test carries. */
  static final String MESSAGE = "under test";

  /** The history every case starts from: a table and one data file in it (snapshots 1 and 2). */
  static void history(Catalog catalog) {
    catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64"))));
    catalog.commit(tx -> tx.registerDataFile(1, NewDataFile.parquet("f1", 3, 100, 10)));
  }

  /** The commit under test (snapshot 3 when it lands on the history). */
  static void run(Transaction tx) {
    tx.createTable(0, "u", List.of(ColumnDef.of("b", "varchar")));
    tx.registerDataFile(1, NewDataFile.parquet("f2", 4, 100, 10));
    tx.setCommitInfo("me", MESSAGE, null);
  }

  /**
   * A dump with the fields two runs of the same history cannot share blanked: snapshot times, and
   * the location of a separate log store (each run has one of its own).
   */
  static String withoutTimes(String dump) {
    return dump.replaceAll("\"snapshot_time_micros\":\\d+", "\"snapshot_time_micros\":0")
        .replaceAll("(\"key\":\"wal_path\",[^}]*\"value\":)\"[^\"]*\"", "$1\"\"");
  }
}
