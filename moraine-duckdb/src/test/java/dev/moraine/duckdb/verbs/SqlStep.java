package dev.moraine.duckdb.verbs;

import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.rows.DuckLakeRowSet;
import dev.moraine.duckdb.reference.ReferenceSession;
import java.util.List;
import java.util.function.Consumer;

/**
 * One logical operation of a step-by-step differential test: its SQL, run first on stock DuckLake
 * in one session, and the closure our side commits, prepared after the SQL ran (a step may read a
 * file the SQL wrote).
 */
record SqlStep(String name, List<String> sql, Prepared ours) {
  /** Builds our side's closure once the stock side has run. */
  interface Prepared {
    Consumer<Transaction> prepare() throws Exception;
  }

  /** A step whose closure needs nothing from the stock side. */
  static SqlStep of(String name, List<String> sql, Consumer<Transaction> verbs) {
    return new SqlStep(name, sql, () -> verbs);
  }

  /**
   * Runs the SQL on the stock lake, then commits our closure as one commit, and renders our new
   * head. A failure on either side propagates; the stock side has then run and ours has not.
   */
  DuckLakeRowSet runOn(PairedLakes lakes) throws Exception {
    try (ReferenceSession session = lakes.stock.session()) {
      session.executeAll(sql);
    }
    Consumer<Transaction> verbs = ours.prepare();
    lakes.catalog.commit(verbs::accept);
    return lakes.ours();
  }
}
